/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "linux-emu": Linux library code and linux-emu, linked into Graft, run and give back what they take. */
/*
 * The checks themselves run in the Linux world (tests/linux-emu/
 * lx_selftest.c, compiled with Linux's headers and flags) and return the
 * line of the first failed check; this side checks what they print and
 * that every page and heap byte came back.
 */
#include <stdint.h>

#include "kern/console.h"
#include "kern/ktest.h"
#include "kern/string.h"
#include "linux-emu/include/lx_emul.h"
#include "linux-emu/include/lx_host.h"
#include "tests/linux-emu/lx_selftest.h"
#include "tests/kernel/user_task.h"

/* A host of another lx_host.h version is refused before anything
 * starts. */
static void host_of_another_interface_version_refused(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, lx_emul_host_check(lx_host_version()), 0);
	KTEST_EXPECT_EQ(t, lx_emul_host_check(LX_HOST_VERSION + 1), -71);
	KTEST_EXPECT_EQ(t, lx_emul_host_check(0), -71);	/* -EPROTO */
}

/* Then: later cases need the page array and the clock. */
static void linux_world_starts_once(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, lx_emul_init(), 0);
	KTEST_EXPECT_EQ(t, lx_emul_init(), -16);	/* -EBUSY */
}

static void memcpy_and_memset_cover_every_length_and_alignment(
	struct ktest *t)
{
	KTEST_EXPECT_EQ(t, lx_emul_selftest_string(), 0);
}

static void crc32_and_bit_reversal_come_from_linux_library(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, lx_emul_selftest_crc32(), 0);
}

static void linux_vsprintf_formats_and_printk_prints(struct ktest *t)
{
	static char captured[512];
	char out[128] = "";
	size_t n;

	console_capture_start(captured, sizeof(captured) - 1);
	KTEST_EXPECT_EQ(t, lx_emul_selftest_format(out, sizeof(out)), 0);
	n = console_capture_stop();
	captured[n] = '\0';
	KTEST_EXPECT_STREQ(t, out, "52:54:00:12:34:56 -5 ok 0000beef 10.0.2.15");
	if (!kmemmem(captured, n, "lx_selftest: printk reaches the console: "
			"52:54:00:12:34:56\n"))
		ktest_fail(t, "printk's line not on the console: \"%s\"",
			   captured);
	if (kmemmem(captured, n, "\001"))
		ktest_fail(t, "the KERN_ level marker reached the console");
}

static void kmalloc_honours_gfp_zones_and_gives_back(struct ktest *t)
{
	struct user_task_baseline b;

	user_task_baseline(&b);
	KTEST_EXPECT_EQ(t, lx_emul_selftest_kmalloc_zones(), 0);
	user_task_expect_baseline(t, &b);
}

static void preempt_count_is_zero_in_thread_context(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, lx_emul_preempt_count(), 0);
}

static void jiffies_and_timers_run_on_the_tick(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, lx_emul_selftest_timers(), 0);
}

static void io_port_regions_conflict_and_come_back(struct ktest *t)
{
	struct user_task_baseline b;

	user_task_baseline(&b);
	KTEST_EXPECT_EQ(t, lx_emul_selftest_resources(), 0);
	user_task_expect_baseline(t, &b);
}

/* e1000, ne, 8390p, ne2k-pci, pcnet32, 8139cp, e1000e, e100, tulip,
 * vmxnet3, ata_piix, ahci, sym53c8xx, pvscsi, floppy, uhci_hcd,
 * ohci-pci, ehci-pci, xhci-pci, usb-storage, shared ohci-hcd, ehci-hcd
 * and xhci-hcd, libata (ata_init), spi (spi_transport_init) and i2c
 * (i2c_init), virtio_net, virtio_scsi, virtio_blk, the local
 * tests/drivers/edu, i2cnone and rogue each have one, shared virtio
 * two (the bus, the PCI driver), usbcore two (drivers/usb/common's, the
 * USB core's), nvme two (nvme-core's, the PCI driver's); the library's
 * are not in the table (not run here: this suite's QEMU has a NIC to
 * probe). */
static void only_drivers_initcalls_are_in_the_table(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, lx_emul_initcall_count(), 38);
}

static const struct ktest_case linux_emu_cases[] = {
	{ "host_of_another_interface_version_refused",
	  host_of_another_interface_version_refused },
	{ "linux_world_starts_once", linux_world_starts_once },
	{ "crc32_and_bit_reversal_come_from_linux_library",
	  crc32_and_bit_reversal_come_from_linux_library },
	{ "memcpy_and_memset_cover_every_length_and_alignment",
	  memcpy_and_memset_cover_every_length_and_alignment },
	{ "linux_vsprintf_formats_and_printk_prints",
	  linux_vsprintf_formats_and_printk_prints },
	{ "kmalloc_honours_gfp_zones_and_gives_back",
	  kmalloc_honours_gfp_zones_and_gives_back },
	{ "preempt_count_is_zero_in_thread_context",
	  preempt_count_is_zero_in_thread_context },
	{ "jiffies_and_timers_run_on_the_tick",
	  jiffies_and_timers_run_on_the_tick },
	{ "io_port_regions_conflict_and_come_back",
	  io_port_regions_conflict_and_come_back },
	{ "only_drivers_initcalls_are_in_the_table",
	  only_drivers_initcalls_are_in_the_table },
};
KTEST_SUITE(linux_emu_suite, "linux-emu", linux_emu_cases);
