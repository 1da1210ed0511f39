/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks that run inside the Linux world for the linux-emu suite (tests/kernel/linux_emu_test.c). */
#include <linux/bitrev.h>
#include <linux/crc32.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/timer.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <lx_emul.h>
#include <lx_host.h>
#include <lx_world.h>

#include "lx_selftest.h"
#include "lx_selftest_check.h"

int lx_emul_selftest_crc32(void)
{
	static const char digits[] = "123456789";

	/* The standard CRC-32 check value, and its reflected table. */
	CHECK((crc32_le(~0u, digits, 9) ^ ~0u) == 0xcbf43926u);
	CHECK(bitrev8(0x01) == 0x80 && bitrev32(0x1) == 0x80000000u);
	return 0;
}

/* memcpy and memset (lx_string.c) against a byte at a time, for every
 * length to 40 at every alignment of source and destination. */
int lx_emul_selftest_string(void)
{
	static u8 src[64], dst[64], want[64];

	for (int i = 0; i < 64; i++)
		src[i] = (u8)(i * 7 + 1);
	for (int len = 0; len <= 40; len++) {
		for (int so = 0; so < 8; so++) {
			for (int d = 0; d < 8; d++) {
				for (int i = 0; i < 64; i++)
					dst[i] = want[i] = 0xee;
				for (int i = 0; i < len; i++)
					want[d + i] = src[so + i];
				CHECK(__memcpy(dst + d, src + so, len) ==
				      dst + d);
				CHECK(!memcmp(dst, want, sizeof(dst)));
				for (int i = 0; i < len; i++)
					want[d + i] = (u8)(0x5a + so);
				CHECK(__memset(dst + d, 0x5a + so, len) ==
				      dst + d);
				CHECK(!memcmp(dst, want, sizeof(dst)));
			}
		}
	}
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

static int fired;

static void count_firing(struct timer_list *t)
{
	fired++;
}

static void fire_three_times(struct timer_list *t)
{
	if (++fired < 3)
		mod_timer(t, jiffies + 1);
}

static int timers(void *arg)
{
	struct timer_list a, b;
	unsigned long start = jiffies;

	/* msleep(50) is at least 5 ticks at HZ=100, and not many more. */
	msleep(50);
	CHECK(time_after_eq(jiffies, start + msecs_to_jiffies(50)));
	CHECK(time_before(jiffies, start + msecs_to_jiffies(50) + 3));

	fired = 0;
	timer_setup(&a, count_firing, 0);
	timer_setup(&b, count_firing, 0);
	CHECK(!timer_pending(&a));
	CHECK(mod_timer(&a, jiffies + 3) == 0);
	CHECK(timer_pending(&a) && mod_timer(&a, jiffies + 3) == 1);
	CHECK(mod_timer(&b, jiffies + 2) == 0);
	CHECK(del_timer(&b) == 1 && !timer_pending(&b) && del_timer(&b) == 0);
	msleep(60);
	CHECK(fired == 1 && !timer_pending(&a));	/* a once, b never */

	fired = 0;
	timer_setup(&a, fire_three_times, 0);
	mod_timer(&a, jiffies + 1);
	msleep(100);
	CHECK(fired == 3 && !timer_pending(&a));

	/* A shut-down timer cannot be armed again. */
	mod_timer(&a, jiffies + 100);
	CHECK(timer_shutdown_sync(&a) == 1);
	mod_timer(&a, jiffies + 1);
	CHECK(!timer_pending(&a));
	return 0;
}

/* msleep sleeps, so it runs holding the Linux world (lx_world.h). */
int lx_emul_selftest_timers(void)
{
	return lx_world_run(timers, NULL);
}

int lx_emul_selftest_resources(void)
{
	struct resource *a, *b;

	a = request_region(0x300, 32, "graft-a");
	CHECK(a && a->start == 0x300 && a->end == 0x31f);
	CHECK(!request_region(0x310, 8, "graft-b"));	/* overlaps a */
	CHECK(!request_region(0x2f8, 16, "graft-b"));	/* straddles it */
	b = request_region(0x320, 8, "graft-b");	/* adjacent: fine */
	CHECK(b);
	release_region(0x300, 32);
	a = request_region(0x310, 8, "graft-c");	/* free again */
	CHECK(a);
	release_region(0x310, 8);
	release_region(0x320, 8);
	CHECK(!request_region(0x10000, 8, "graft-d"));	/* past 64 KiB */
	return 0;
}
