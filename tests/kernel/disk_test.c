/* SPDX-License-Identifier: GPL-2.0-only */
/* Suites "lxblk" and "disk-ata-piix": Mach disks of the Linux block module. */
/*
 * The disk is the harness's image (tests/harness/suites.py,
 * disk_image): generation 0 of tests/user/disk_pattern.h in every
 * sector, an MBR with two partitions; the kernel command line says
 * where (disk_blocks=, disk_p1_start=, disk_p1_count=, disk_bad=LBA)
 * and tests/user/disk_probe.c reads, writes and mistreats it through
 * device.defs ("disk_check" module), then does aligned requests only
 * ("disk_lat" module).
 *
 * "lxblk" serves the module a RAM disk (tests/kernel/disk_fake.c) over
 * the image, loaded as a module ("hdimage"): no Linux, limits that split
 * requests, a 24-bit DMA mask that bounces every transfer, busy answers
 * from submit_now, and a failing sector; afterwards the kernel checks the
 * image itself, as the host does for the real disk.
 *
 * "disk-ata-piix" (and its -pio and -bochs boots) is the real thing:
 * boot with "linux", libata + ata_piix found QEMU's or Bochs' IDE disk,
 * lx_boot started the module over it; the harness checks the image file
 * after the emulator exits.
 */
#include <stdbool.h>
#include <stdint.h>

#include "device/device.h"
#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_port.h"
#include "kern/bootinfo.h"
#include "kern/cmdline.h"
#include "kern/kprintf.h"
#include "kern/ktest.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "mach-glue/block/dev_lxblk.h"
#include "tests/kernel/disk_fake.h"
#include "tests/kernel/user_task.h"
#include "tests/user/disk_pattern.h"

#define DISK_CHECKS	54	/* 58 with a bad sector */

static char console[65536];

/* The layout the harness announced; false (and @t failed) if absent. */
static bool layout(struct ktest *t, uint64_t *blocks, uint64_t *p1_start,
		   uint64_t *p1_count)
{
	if (cmdline_u64(bootinfo.cmdline, "disk_blocks", blocks) != 0 ||
	    cmdline_u64(bootinfo.cmdline, "disk_p1_start", p1_start) != 0 ||
	    cmdline_u64(bootinfo.cmdline, "disk_p1_count", p1_count) != 0) {
		ktest_fail(t, "command line lacks disk_blocks=, "
			   "disk_p1_start= or disk_p1_count=");
		return false;
	}
	return true;
}

/* Wait up to 10 s for every request to be answered. */
static bool wait_quiet(void)
{
	struct dev_lxblk_stats s;

	for (int i = 0; i < 100; i++) {
		dev_lxblk_stats(&s);
		if (s.in_flight == 0 && io_req_in_flight() == 0)
			return true;
		thread_sleep_ticks(10);
	}
	return false;
}

static void run_program(struct ktest *t, const char *word, unsigned int min)
{
	if (!user_task_run(t, word, 120, console, sizeof(console)))
		return;
	user_task_expect_checks(t, console, min);
	if (!wait_quiet())
		ktest_fail(t, "requests still in flight 10 s after %s", word);
}

/* --- lxblk: the module over disk_fake --- */

static void fake_disk_and_partitions_are_served(struct ktest *t)
{
	const struct boot_module *m = user_task_module("hdimage");
	uint64_t blocks = 0, fail = ~0ull, p1s, p1c;
	struct dev_lxblk_stats s;

	if (m == NULL) {
		ktest_fail(t, "harness passed no hdimage module");
		return;
	}
	if (!layout(t, &blocks, &p1s, &p1c))
		return;
	KTEST_EXPECT_EQ(t, (m->end - m->start) / DISK_SECTOR, blocks);
	cmdline_u64(bootinfo.cmdline, "disk_bad", &fail);
	disk_fake_init((uint8_t *)bootinfo_module_data(m), blocks, fail);
	KTEST_EXPECT_EQ(t, dev_lxblk_start(&disk_fake_disks), 1);
	dev_lxblk_stats(&s);
	KTEST_EXPECT_EQ(t, s.units, 3);		/* hd0, hd0s1, hd0s2 */
	KTEST_EXPECT_EQ(t, s.in_flight, 0);
	KTEST_EXPECT_EQ(t, s.pages_held, 0);
}

static void disk_program_passes_its_checks(struct ktest *t)
{
	run_program(t, "disk_check", DISK_CHECKS);
}

/* The host's check of the real disk, done here on the fake's image. */
static void image_holds_what_was_acknowledged(struct ktest *t)
{
	const struct boot_module *m = user_task_module("hdimage");
	uint64_t blocks, p1s, p1c;
	const uint8_t *img;
	unsigned int bad = 0;

	if (m == NULL || !layout(t, &blocks, &p1s, &p1c))
		return;
	img = bootinfo_module_data(m);
	for (uint64_t lba = 1; lba < blocks; lba++) {
		int gen = lba >= p1s && lba < p1s + p1c;
		int at = disk_pattern_diff(img + lba * DISK_SECTOR, lba, gen, 0,
					   DISK_SECTOR);

		if (at >= 0 && bad++ < 4)
			ktest_fail(t, "LBA %llu byte %d is not generation %d",
				   (unsigned long long)lba, at, gen);
	}
	KTEST_EXPECT_EQ(t, bad, 0);
	KTEST_EXPECT_EQ(t, img[510], 0x55);
	KTEST_EXPECT_EQ(t, img[511], 0xaa);
}

static void commands_kept_the_limits_and_requests_split(struct ktest *t)
{
	struct disk_fake_counts c;
	struct dev_lxblk_stats s;

	disk_fake_counts(&c);
	dev_lxblk_stats(&s);
	KTEST_EXPECT_EQ(t, c.refused, 0);
	KTEST_EXPECT_EQ(t, c.pending, 0);
	KTEST_EXPECT_EQ(t, c.cmds, s.cmds);
	KTEST_EXPECT_TRUE(t, s.cmds > s.requests);	/* 1 MiB: 32 commands */
	KTEST_EXPECT_TRUE(t, c.busy > 0);		/* lx-blk submitted */
	KTEST_EXPECT_TRUE(t, s.direct > 0);		/* ops submitted */
	KTEST_EXPECT_TRUE(t, s.direct < s.cmds);
	KTEST_EXPECT_TRUE(t, c.failed > 0);		/* the bad sector */
	KTEST_EXPECT_TRUE(t, s.errors > 0);
}

static void pages_beyond_the_mask_were_bounced(struct ktest *t)
{
	struct dev_lxblk_stats s;

	dev_lxblk_stats(&s);
	KTEST_EXPECT_TRUE(t, s.bounce_pages > 0);
	KTEST_EXPECT_EQ(t, s.pages_held, 0);
}

static void second_session_leaves_nothing(struct ktest *t)
{
	struct user_task_baseline b;
	unsigned int ports = ipc_port_count(), kmsgs = ipc_kmsg_count();
	struct dev_lxblk_stats s;

	user_task_baseline(&b);
	run_program(t, "disk_lat", 2);
	dev_lxblk_stats(&s);
	KTEST_EXPECT_EQ(t, s.in_flight, 0);
	KTEST_EXPECT_EQ(t, s.pages_held, 0);
	KTEST_EXPECT_EQ(t, dev_open_count(), 0);
	KTEST_EXPECT_EQ(t, io_req_in_flight(), 0);
	KTEST_EXPECT_EQ(t, ipc_port_count(), ports);
	KTEST_EXPECT_EQ(t, ipc_kmsg_count(), kmsgs);
	user_task_expect_baseline(t, &b);
}

static const struct ktest_case lxblk_cases[] = {
	{ "fake_disk_and_partitions_are_served",
	  fake_disk_and_partitions_are_served },
	{ "disk_program_passes_its_checks", disk_program_passes_its_checks },
	{ "image_holds_what_was_acknowledged",
	  image_holds_what_was_acknowledged },
	{ "commands_kept_the_limits_and_requests_split",
	  commands_kept_the_limits_and_requests_split },
	{ "pages_beyond_the_mask_were_bounced",
	  pages_beyond_the_mask_were_bounced },
	{ "second_session_leaves_nothing", second_session_leaves_nothing },
};
KTEST_SUITE(lxblk_suite, "lxblk", lxblk_cases);

/* --- disk-ata-piix: the module over libata + ata_piix --- */

static void ide_disk_and_partitions_are_served(struct ktest *t)
{
	struct dev_lxblk_stats s;

	dev_lxblk_stats(&s);
	KTEST_EXPECT_EQ(t, s.units, 3);		/* hd0, hd0s1, hd0s2 */
}

/* ata_piix's and ahci's queues want 512-byte aligned buffers, a SCSI
 * adapter's 4-byte ones (virtio_scsi): the program's writes from
 * buffers 101 (and for ATA 4000) bytes into a page went through bounce
 * pages, and all of them came back. */
static void misaligned_buffers_were_bounced(struct ktest *t)
{
	struct dev_lxblk_stats s;

	dev_lxblk_stats(&s);
	KTEST_EXPECT_TRUE(t, s.bounce_pages > 0);
	KTEST_EXPECT_EQ(t, s.pages_held, 0);
}

/* The aligned session: nothing to bounce below a 32-bit mask, and the
 * kernel is left as the session found it. */
static void aligned_requests_bounce_nothing_and_leak_nothing(struct ktest *t)
{
	struct dev_lxblk_stats before, after;

	dev_lxblk_stats(&before);
	second_session_leaves_nothing(t);
	dev_lxblk_stats(&after);
	KTEST_EXPECT_EQ(t, after.bounce_pages, before.bounce_pages);
	KTEST_EXPECT_TRUE(t, after.requests > before.requests);
}

static const struct ktest_case disk_ata_piix_cases[] = {
	{ "ide_disk_and_partitions_are_served",
	  ide_disk_and_partitions_are_served },
	{ "disk_program_passes_its_checks", disk_program_passes_its_checks },
	{ "misaligned_buffers_were_bounced", misaligned_buffers_were_bounced },
	{ "aligned_requests_bounce_nothing_and_leak_nothing",
	  aligned_requests_bounce_nothing_and_leak_nothing },
};
KTEST_SUITE(disk_ata_piix_suite, "disk-ata-piix", disk_ata_piix_cases);
/* The same over ahci (libahci, libata): a SATA disk on an AHCI port. */
KTEST_SUITE(disk_ahci_suite, "disk-ahci", disk_ata_piix_cases);
/* The same over virtio_scsi: a SCSI disk on a virtio SCSI adapter. */
KTEST_SUITE(disk_virtio_scsi_suite, "disk-virtio-scsi", disk_ata_piix_cases);
/* The same over virtio_blk: a virtio block device (blk-mq). */
KTEST_SUITE(disk_virtio_blk_suite, "disk-virtio-blk", disk_ata_piix_cases);
/* The same over nvme: an NVMe namespace (blk-mq, admin queue). */
KTEST_SUITE(disk_nvme_suite, "disk-nvme", disk_ata_piix_cases);
/* The same over SCSI host adapters on linux-emu's SCSI midlayer: a
 * scsi-hd at target 0 found by the driver's scsi_scan_host. */
KTEST_SUITE(disk_sym53c8xx_suite, "disk-sym53c8xx", disk_ata_piix_cases);
KTEST_SUITE(disk_pvscsi_suite, "disk-pvscsi", disk_ata_piix_cases);
/* The same over the floppy driver: a 1.44 MB floppy on ISA DMA. */
KTEST_SUITE(disk_floppy_suite, "disk-floppy", disk_ata_piix_cases);
/* The same over usb-storage on usbcore and uhci_hcd: a USB disk (Bulk
 * Only) on a UHCI root hub port, its SCSI host on linux-emu's midlayer. */
KTEST_SUITE(disk_usb_storage_suite, "disk-usb-storage", disk_ata_piix_cases);
