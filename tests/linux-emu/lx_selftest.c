/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks that run inside the Linux world for the linux-emu suite (tests/kernel/linux_emu_test.c). */
#include <linux/bitrev.h>
#include <linux/crc32.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <lx_emul.h>
#include <lx_host.h>

#define CHECK(cond)	do { if (!(cond)) return __LINE__; } while (0)

int lx_emul_selftest_crc32(void)
{
	static const char digits[] = "123456789";

	/* The standard CRC-32 check value, and its reflected table. */
	CHECK((crc32_le(~0u, digits, 9) ^ ~0u) == 0xcbf43926u);
	CHECK(bitrev8(0x01) == 0x80 && bitrev32(0x1) == 0x80000000u);
	return 0;
}

int lx_emul_selftest_format(char *out, unsigned long size)
{
	static const u8 mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };

	snprintf(out, size, "%pM %d %s %08x %pI4", mac, -5, "ok", 0xbeef,
		 "\x0a\x00\x02\x0f");
	pr_info("lx_selftest: printk reaches the console: %pM\n", mac);
	return 0;
}

/* @p lies in the zone below @limit (0: anywhere) and Linux's __pa agrees
 * with the host's idea of its physical address. */
static int placed(const void *p, unsigned long limit)
{
	unsigned long pa = lx_host_virt_to_phys(p);

	return p && virt_to_phys((void *)p) == pa &&
	       (limit == 0 || pa + 1 <= limit);
}

int lx_emul_selftest_kmalloc_zones(void)
{
	void *dma = kmalloc(100, GFP_DMA);
	void *dma32 = kmalloc(8192, GFP_DMA32);
	void *page = kmalloc(PAGE_SIZE, GFP_KERNEL);
	u8 *zeroed = kzalloc(300, GFP_KERNEL);
	void *small = kmalloc(64, GFP_ATOMIC);
	int line = 0;

	if (!placed(dma, 16ul << 20))
		line = __LINE__;
	else if (!placed(dma32, 1ul << 32))
		line = __LINE__;
	else if (!placed(page, 0) || !PAGE_ALIGNED(page) ||
		 !PAGE_ALIGNED(dma32))
		line = __LINE__;
	else if (!placed(small, 0) || ((unsigned long)small & 63))
		line = __LINE__;
	else if (!zeroed || memchr_inv(zeroed, 0, 300))
		line = __LINE__;
	else if (kmalloc(0, GFP_KERNEL) != ZERO_SIZE_PTR)
		line = __LINE__;
	kfree(dma);
	kfree(dma32);
	kfree(page);
	kfree(zeroed);
	kfree(small);
	kfree(ZERO_SIZE_PTR);
	return line;
}
