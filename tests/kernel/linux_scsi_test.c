/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "linux-scsi": ata_piix on libata over linux-emu's SCSI midlayer emulation, driven through lx_emul_disk_* on QEMU's PIIX3 IDE disk. */
/*
 * The harness (tests/harness/suites.py, scsi_disk) gives QEMU a disk of
 * DISK_SECTORS sectors whose sector N holds 32 records (N, i) of two
 * 64-bit words, behind blkdebug failing reads of BAD_SECTOR with EIO.
 * The first case starts the Linux world and the driver (with the
 * command line's driver parameters: the suite linux-scsi-pio boots with
 * libata.dma=0) and waits for the scan; the others read, write and
 * misuse the disk; the last removes it.
 */
#include <stdint.h>

#include "kern/bootinfo.h"
#include "kern/cmdline.h"
#include "kern/console.h"
#include "kern/ktest.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/thread.h"
#include "linux-emu/include/lx_emul.h"
#include "linux-emu/include/lx_emul_disk.h"
#include "linux-emu/include/lx_host.h"
#include "tests/kernel/user_task.h"
#include "tests/linux-emu/lx_selftest_net.h"
#include "tests/linux-emu/lx_selftest_scsi.h"

#define DISK_SECTORS	8192
#define BAD_SECTOR	6000
#define PAGE		4096
#define EINVAL		22
#define EIO		5
#define ENODEV		19
#define EAGAIN		11
#define XFER_PIO_4	0x0c
#define XFER_MW_DMA_2	0x22
#define WAIT_MS		20000

static char captured[16384];
static struct lx_emul_disk *disk;
static struct lx_emul_disk_info info;

/* Completion records, in the order done() ran. */
#define MAX_CMDS	16
static struct lx_emul_disk_cmd cmds[MAX_CMDS];
static volatile int results[MAX_CMDS];
static volatile int order[MAX_CMDS];
static volatile int ndone;

static void done(struct lx_emul_disk_cmd *cmd, int result)
{
	int i = (int)(uintptr_t)cmd->cookie;

	results[i] = result;
	order[ndone++] = i;
}

/* Wait until @n commands are done; 0, or -1 after WAIT_MS. */
static int wait_done(int n)
{
	for (int ms = 0; ndone < n; ms += 10) {
		if (ms >= WAIT_MS)
			return -1;
		lx_emul_selftest_net_sleep_ms(10);
	}
	return 0;
}

static void reset_done(void)
{
	ndone = 0;
	for (int i = 0; i < MAX_CMDS; i++)
		results[i] = 1, order[i] = -1;
}

static void fill_cmd(int i, int write, uint64_t lba, unsigned int blocks,
		     const struct lx_emul_disk_seg *segs, unsigned int nsegs)
{
	memset(&cmds[i], 0, sizeof(cmds[i]));
	cmds[i].write = write;
	cmds[i].lba = lba;
	cmds[i].blocks = blocks;
	cmds[i].segs = segs;
	cmds[i].nsegs = nsegs;
	cmds[i].done = done;
	cmds[i].cookie = (void *)(uintptr_t)i;
}

/* Whether @buf holds the image's @blocks sectors from @lba. */
static int pattern_ok(const void *buf, uint64_t lba, unsigned int blocks)
{
	const uint64_t *w = buf;

	for (uint64_t s = 0; s < blocks; s++)
		for (uint64_t i = 0; i < 32; i++, w += 2)
			if (w[0] != lba + s || w[1] != i)
				return 0;
	return 1;
}

static void *page_alloc(unsigned long size)
{
	return lx_host_alloc(size, LX_HOST_ZONE_DMA32, 1);
}

static struct lx_emul_disk_seg seg_of(void *p, unsigned int len)
{
	struct lx_emul_disk_seg s = { lx_host_virt_to_phys(p), len };

	return s;
}

/* Whether the command line asks libata for PIO only. */
static int pio_only(void)
{
	const char *v;
	size_t len;

	return cmdline_find(bootinfo.cmdline, "libata.dma", &v, &len) &&
	       len == 1 && v[0] == '0';
}

static void expect_line(struct ktest *t, const char *line)
{
	if (!kmemmem(captured, strlen(captured), line))
		ktest_fail(t, "expected \"%s\" on the console, got \"%s\"",
			   line, captured);
}

/* First: the world, the driver, the scan. */
static void ata_piix_probes_the_ide_disk_through_libata(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, lx_emul_init(), 0);
	KTEST_EXPECT_EQ(t, lx_emul_pci_init(), 0);
	KTEST_EXPECT_EQ(t, lx_emul_params_set(bootinfo.cmdline), 0);
	console_capture_start(captured, sizeof(captured) - 1);
	KTEST_EXPECT_EQ(t, lx_emul_driver_init("ata_piix"), 0);
	/* the port probes and scans (async) are over when it returns */
	disk = lx_emul_disk_next(NULL);
	captured[console_capture_stop()] = '\0';
	if (!disk) {
		ktest_fail(t, "no disk when lx_emul_driver_init returned: \"%s\"",
			   captured);
		return;
	}
	KTEST_EXPECT_TRUE(t, lx_emul_disk_next(disk) == NULL);
	expect_line(t, "ata1: PATA max MWDMA2 cmd 0x1f0 ctl 0x3f6 bmdma 0x");
	expect_line(t, "ata1.00: ATA-7: QEMU HARDDISK, 2.5+, max UDMA/100");
	expect_line(t, "ata1.00: 8192 sectors, multi 16: LBA48");
	expect_line(t, "scsi 0:0:0:0: Direct-Access     ATA      QEMU HARDDISK");
	expect_line(t, "scsi 0:0:0:0: [hd0] 8192 512-byte logical blocks");
}

static void libata_uses_dma_unless_libata_dma_0_asks_for_pio(
	struct ktest *t)
{
	KTEST_EXPECT_EQ(t, lx_emul_selftest_scsi_xfer_mode(),
			pio_only() ? XFER_PIO_4 : XFER_MW_DMA_2);
}

static void disk_has_the_image_capacity_and_libata_limits(struct ktest *t)
{
	if (!disk) {
		ktest_fail(t, "no disk");
		return;
	}
	KTEST_EXPECT_EQ(t, lx_emul_disk_info(disk, &info), 0);
	KTEST_EXPECT_EQ(t, info.index, 0);
	KTEST_EXPECT_EQ(t, info.blocks, DISK_SECTORS);
	KTEST_EXPECT_EQ(t, info.block_size, 512);
	/* libata: LBA48 max sectors, LIBATA_MAX_PRD, ATA_DMA_BOUNDARY,
	 * sector alignment; Linux's default segment size; PCI's mask. */
	KTEST_EXPECT_EQ(t, info.max_hw_sectors, 65535);
	KTEST_EXPECT_EQ(t, info.max_segments, 128);
	KTEST_EXPECT_EQ(t, info.max_segment_size, 65536);
	KTEST_EXPECT_EQ(t, info.seg_boundary_mask, 0xffff);
	KTEST_EXPECT_EQ(t, info.dma_alignment, 511);
	KTEST_EXPECT_EQ(t, info.dma_mask, 0xffffffffull);
	KTEST_EXPECT_EQ(t, info.read_only, 0);
	if (strcmp(info.vendor, "ATA") || strcmp(info.model, "QEMU HARDDISK"))
		ktest_fail(t, "expected ATA / QEMU HARDDISK, got %s / %s",
			   info.vendor, info.model);
}

/* Read @blocks from @lba into @segs; the result (1 if no done came). */
static int read_into(uint64_t lba, unsigned int blocks,
		     const struct lx_emul_disk_seg *segs, unsigned int nsegs)
{
	int err;

	reset_done();
	fill_cmd(0, 0, lba, blocks, segs, nsegs);
	err = lx_emul_disk_submit(disk, &cmds[0]);
	if (err)
		return err;
	if (wait_done(1))
		return 1;
	return results[0];
}

static void lba_0_reads_the_image_pattern(struct ktest *t)
{
	struct user_task_baseline b;
	unsigned long bounces = lx_emul_dma_bounce_count();
	void *buf;
	struct lx_emul_disk_seg seg;

	user_task_baseline(&b);
	buf = page_alloc(PAGE);
	seg = seg_of(buf, 512);
	KTEST_EXPECT_EQ(t, read_into(0, 1, &seg, 1), 0);
	KTEST_EXPECT_TRUE(t, pattern_ok(buf, 0, 1));
	KTEST_EXPECT_EQ(t, lx_emul_dma_bounce_count(), bounces);
	lx_host_free(buf);
	user_task_expect_baseline(t, &b);
}

static void a_multi_segment_multi_page_read_matches(struct ktest *t)
{
	struct user_task_baseline b;
	struct lx_emul_disk_seg segs[3];
	void *p[3];
	int ok = 1;

	user_task_baseline(&b);
	for (int i = 0; i < 3; i++)
		p[i] = page_alloc(2 * PAGE);
	/* 2 pages, 1 page, then 1.5 pages: 36 sectors from LBA 100 */
	segs[0] = seg_of(p[0], 2 * PAGE);
	segs[1] = seg_of(p[1], PAGE);
	segs[2] = seg_of(p[2], PAGE + PAGE / 2);
	KTEST_EXPECT_EQ(t, read_into(100, 36, segs, 3), 0);
	ok &= pattern_ok(p[0], 100, 16);
	ok &= pattern_ok(p[1], 116, 8);
	ok &= pattern_ok(p[2], 124, 12);
	KTEST_EXPECT_TRUE(t, ok);
	for (int i = 0; i < 3; i++)
		lx_host_free(p[i]);
	user_task_expect_baseline(t, &b);
}

/* The adapter's largest scatter-gather list: max_segments separate
 * pages, 512 KiB in one command. */
static void a_command_of_max_segments_pages_reads(struct ktest *t)
{
	static struct lx_emul_disk_seg segs[128];
	static void *pages[128];
	struct user_task_baseline b;
	int bad = -1;

	user_task_baseline(&b);
	for (int i = 0; i < 128; i++) {
		pages[i] = page_alloc(PAGE);
		segs[i] = seg_of(pages[i], PAGE);
	}
	KTEST_EXPECT_EQ(t, read_into(1000, 128 * 8, segs, 128), 0);
	for (int i = 0; i < 128 && bad < 0; i++)
		if (!pattern_ok(pages[i], 1000 + 8 * i, 8))
			bad = i;
	if (bad >= 0)
		ktest_fail(t, "page %d of 128 does not hold LBA %d..", bad,
			   1000 + 8 * bad);
	for (int i = 0; i < 128; i++)
		lx_host_free(pages[i]);
	user_task_expect_baseline(t, &b);
}

/* One segment of max_segment_size (64 KiB) on a 64 KiB boundary: the
 * largest entry a bus-master PRD holds. */
static void a_64_kib_segment_reads(struct ktest *t)
{
	uint8_t *buf = page_alloc(128 * 1024);
	unsigned long phys = lx_host_virt_to_phys(buf);
	unsigned long off = ((phys + 0xffff) & ~0xfffful) - phys;
	struct lx_emul_disk_seg seg = seg_of(buf + off, 65536);

	KTEST_EXPECT_EQ(t, read_into(2000, 128, &seg, 1), 0);
	KTEST_EXPECT_TRUE(t, pattern_ok(buf + off, 2000, 128));
	lx_host_free(buf);
}

static void a_write_reads_back(struct ktest *t)
{
	uint8_t *out = page_alloc(PAGE), *in = page_alloc(PAGE);
	struct lx_emul_disk_seg so = seg_of(out, PAGE), si = seg_of(in, PAGE);

	for (int i = 0; i < PAGE; i++)
		out[i] = (uint8_t)(i * 7 + 3);
	reset_done();
	fill_cmd(0, 1, 4000, 8, &so, 1);
	KTEST_EXPECT_EQ(t, lx_emul_disk_submit(disk, &cmds[0]), 0);
	KTEST_EXPECT_EQ(t, wait_done(1), 0);
	KTEST_EXPECT_EQ(t, results[0], 0);
	KTEST_EXPECT_EQ(t, read_into(4000, 8, &si, 1), 0);
	/* what was written, not the image's pattern, nor the buffer the
	 * write took (a write turned read would have changed it) */
	for (int i = 0; i < PAGE; i++)
		if (in[i] != (uint8_t)(i * 7 + 3)) {
			ktest_fail(t, "byte %d read back as %#x, wrote %#x", i,
				   in[i], (uint8_t)(i * 7 + 3));
			break;
		}
	lx_host_free(out);
	lx_host_free(in);
}

struct refusal {
	const char *what;
	int write;
	uint64_t lba;
	unsigned int blocks;
	unsigned int nsegs;	/* of segs[] below */
	unsigned int len0;	/* segs[0].len */
	unsigned int off0;	/* segs[0] offset into the page */
	int err;
};

static const struct refusal refusals[] = {
	{ "zero blocks", 0, 0, 0, 1, 512, 0, -EINVAL },
	{ "no segments", 0, 0, 1, 0, 512, 0, -EINVAL },
	{ "past the end", 0, DISK_SECTORS - 1, 2, 1, 1024, 0, -EINVAL },
	{ "LBA past the end", 0, DISK_SECTORS, 1, 1, 512, 0, -EINVAL },
	{ "huge LBA", 0, ~0ull, 1, 1, 512, 0, -EINVAL },
	{ "lengths short of the blocks", 0, 0, 2, 1, 512, 0, -EINVAL },
	{ "lengths beyond the blocks", 1, 0, 1, 1, 1024, 0, -EINVAL },
	{ "misaligned segment", 0, 0, 1, 1, 512, 8, -EINVAL },
	{ "segment crossing 64 KiB", 0, 0, 16, 1, 8192, 0, -EINVAL },
	{ "more segments than max_segments", 0, 0, 129, 129, 512, 0,
	  -EINVAL },
};

static void submit_refuses_bad_commands_with_nothing_queued(struct ktest *t)
{
	/* 64 KiB + 1 page, so that one segment can cross 64 KiB */
	static struct lx_emul_disk_seg segs[130];
	uint8_t *buf = page_alloc(17 * PAGE);
	unsigned long phys = lx_host_virt_to_phys(buf);
	unsigned long cross = ((phys + 0x10000) & ~0xffffull) - PAGE;

	reset_done();
	for (unsigned int i = 0; i < sizeof(refusals) / sizeof(refusals[0]);
	     i++) {
		const struct refusal *r = &refusals[i];
		int err;

		for (unsigned int s = 0; s < 130; s++)
			segs[s] = seg_of(buf + 512 * (s % 8), 512);
		segs[0].len = r->len0;
		segs[0].phys = phys + r->off0;
		if (r->len0 == 8192)
			segs[0].phys = cross;
		fill_cmd(0, r->write, r->lba, r->blocks,
			 r->nsegs ? segs : NULL, r->nsegs);
		err = lx_emul_disk_submit(disk, &cmds[0]);
		if (err != r->err)
			ktest_fail(t, "%s: expected %d, got %d", r->what,
				   r->err, err);
	}
	lx_emul_selftest_net_sleep_ms(100);
	KTEST_EXPECT_EQ(t, ndone, 0);
	lx_host_free(buf);
}

static void commands_beyond_the_queue_depth_complete_in_order(struct ktest *t)
{
	enum { N = 12 };
	struct lx_emul_disk_seg segs[N];
	uint8_t *buf = page_alloc(N * 512);
	int ok = 1;

	reset_done();
	for (int i = 0; i < N; i++) {
		segs[i] = seg_of(buf + 512 * i, 512);
		fill_cmd(i, 0, 7 * i + 1, 1, &segs[i], 1);
	}
	for (int i = 0; i < N; i++)
		KTEST_EXPECT_EQ(t, lx_emul_disk_submit(disk, &cmds[i]), 0);
	KTEST_EXPECT_EQ(t, wait_done(N), 0);
	for (int i = 0; i < N; i++) {
		if (order[i] != i || results[i] != 0)
			ok = 0;
		ok &= pattern_ok(buf + 512 * i, 7 * i + 1, 1);
	}
	if (!ok)
		ktest_fail(t, "expected 12 reads done in order with the pattern; order %d %d %d ... results %d %d %d",
			   order[0], order[1], order[2], results[0],
			   results[1], results[2]);
	lx_host_free(buf);
}

static void a_media_error_gives_eio_and_the_next_command_works(struct ktest *t)
{
	void *buf = page_alloc(PAGE);
	struct lx_emul_disk_seg seg = seg_of(buf, 512);
	size_t n;

	console_capture_start(captured, sizeof(captured) - 1);
	KTEST_EXPECT_EQ(t, read_into(BAD_SECTOR, 1, &seg, 1), -EIO);
	n = console_capture_stop();
	captured[n] = '\0';
	/* QEMU's IDE reports a failed read as ABRT: libata's sense for it */
	expect_line(t, pio_only() ? "ata1.00: failed command: READ MULTIPLE" :
		    "ata1.00: failed command: READ DMA");
	expect_line(t, "scsi 0:0:0:0: sense: Aborted Command");
	KTEST_EXPECT_EQ(t, read_into(BAD_SECTOR + 1, 1, &seg, 1), 0);
	KTEST_EXPECT_TRUE(t, pattern_ok(buf, BAD_SECTOR + 1, 1));
	lx_host_free(buf);
}

static void dma_sg_bounces_only_beyond_the_mask_and_copies_back(
	struct ktest *t)
{
	struct user_task_baseline b;
	int line;

	user_task_baseline(&b);
	line = lx_emul_selftest_scsi_dma_sg();
	if (line)
		ktest_fail(t, "lx_emul_selftest_scsi_dma_sg failed at line %d",
			   line);
	user_task_expect_baseline(t, &b);
}

static void submit_now_works_when_the_world_is_free_only(struct ktest *t)
{
	void *buf = page_alloc(PAGE);
	struct lx_emul_disk_seg seg = seg_of(buf, 1024);

	reset_done();
	fill_cmd(0, 0, 200, 2, &seg, 1);
	KTEST_EXPECT_EQ(t, lx_emul_selftest_scsi_submit_now_held(disk,
								 &cmds[0]),
			-EAGAIN);
	KTEST_EXPECT_EQ(t, lx_emul_disk_submit_now(disk, &cmds[0]), 0);
	KTEST_EXPECT_EQ(t, wait_done(1), 0);
	KTEST_EXPECT_EQ(t, results[0], 0);
	KTEST_EXPECT_EQ(t, ndone, 1);
	KTEST_EXPECT_TRUE(t, pattern_ok(buf, 200, 2));
	lx_host_free(buf);
}

static void results_become_errno_and_sense_is_named(struct ktest *t)
{
	int line;

	console_capture_start(captured, sizeof(captured) - 1);
	line = lx_emul_selftest_scsi_errno();
	captured[console_capture_stop()] = '\0';
	if (line)
		ktest_fail(t, "lx_emul_selftest_scsi_errno failed at line %d",
			   line);
	expect_line(t, "scsi 0:0:0:0: sense: Medium Error, asc 0x11 ascq 0x04");
	expect_line(t, "scsi 0:0:0:0: command timed out, error handler gave up");
}

static void failed_command_borrowed_for_sense_and_given_back(struct ktest *t)
{
	int line = lx_emul_selftest_scsi_eh_save();

	if (line)
		ktest_fail(t, "lx_emul_selftest_scsi_eh_save failed at line %d",
			   line);
}

static volatile int probe_hits[2];

static void probe(int point)
{
	if (point == LX_EMUL_DISK_PROBE_QUEUECOMMAND ||
	    point == LX_EMUL_DISK_PROBE_SCSI_DONE)
		probe_hits[point]++;
}

static void probes_fire_at_queuecommand_and_scsi_done(struct ktest *t)
{
	void *buf = page_alloc(PAGE);
	struct lx_emul_disk_seg seg = seg_of(buf, PAGE);

	probe_hits[0] = probe_hits[1] = 0;
	lx_emul_disk_probe_set(probe);
	KTEST_EXPECT_EQ(t, read_into(300, 8, &seg, 1), 0);
	lx_emul_disk_probe_set(NULL);
	KTEST_EXPECT_EQ(t, probe_hits[LX_EMUL_DISK_PROBE_QUEUECOMMAND], 1);
	KTEST_EXPECT_EQ(t, probe_hits[LX_EMUL_DISK_PROBE_SCSI_DONE], 1);
	KTEST_EXPECT_EQ(t, read_into(300, 8, &seg, 1), 0);
	KTEST_EXPECT_EQ(t, probe_hits[LX_EMUL_DISK_PROBE_QUEUECOMMAND], 1);
	lx_host_free(buf);
}

static void a_fake_host_lives_and_goes_leaving_nothing(struct ktest *t)
{
	struct user_task_baseline b;
	unsigned int threads = thread_count();
	int line;

	user_task_baseline(&b);
	console_capture_start(captured, sizeof(captured) - 1);
	line = lx_emul_selftest_scsi_fake_host();
	captured[console_capture_stop()] = '\0';
	if (line)
		ktest_fail(t, "lx_emul_selftest_scsi_fake_host failed at line %d: \"%s\"",
			   line, captured);
	expect_line(t, "Direct-Access     LXTEST   FAKE DISK        0001 PQ: 0 ANSI: 5");
	expect_line(t, "[hd1] 1000 512-byte logical blocks: (0 MiB), write protected");
	expect_line(t, "no eh_strategy_handler: linux-emu does not emulate scsi_unjam_host; failing 1 command(s)");
	/* its EH thread ended; ended threads are freed after a switch */
	thread_sleep_ticks(2);
	KTEST_EXPECT_EQ(t, thread_count(), threads);
	user_task_expect_baseline(t, &b);
}

/* Last: the disk goes away; its handle stays and answers -ENODEV. */
static void a_removed_disk_answers_enodev(struct ktest *t)
{
	void *buf = page_alloc(PAGE);
	struct lx_emul_disk_seg seg = seg_of(buf, 512);

	KTEST_EXPECT_EQ(t, lx_emul_selftest_scsi_remove_hd0(), 0);
	lx_emul_selftest_net_sleep_ms(200);
	KTEST_EXPECT_EQ(t, lx_emul_disk_info(disk, &info), -ENODEV);
	reset_done();
	fill_cmd(0, 0, 0, 1, &seg, 1);
	KTEST_EXPECT_EQ(t, lx_emul_disk_submit(disk, &cmds[0]), -ENODEV);
	KTEST_EXPECT_TRUE(t, lx_emul_disk_next(NULL) == disk);
	KTEST_EXPECT_EQ(t, ndone, 0);
	lx_host_free(buf);
}

/* Writes queued behind each other, through submit and submit_now,
 * land in submission order: two to one LBA leave the second's bytes. */
static void queued_writes_land_in_order(struct ktest *t)
{
	enum { N = 12 };
	struct lx_emul_disk_seg segs[N], all;
	uint8_t *buf = page_alloc(N * 512), *back = page_alloc(8 * 512);
	int ok = 1;

	reset_done();
	for (int i = 0; i < N; i++) {
		/* LBAs 5000..5007, then 5000..5003 again with new bytes */
		memset(buf + 512 * i, 0x40 + i, 512);
		segs[i] = seg_of(buf + 512 * i, 512);
		fill_cmd(i, 1, 5000 + i % 8, 1, &segs[i], 1);
	}
	for (int i = 0; i < N; i++) {
		int err = i % 2 ? lx_emul_disk_submit_now(disk, &cmds[i]) :
				  -EAGAIN;

		if (err == -EAGAIN)
			err = lx_emul_disk_submit(disk, &cmds[i]);
		KTEST_EXPECT_EQ(t, err, 0);
	}
	KTEST_EXPECT_EQ(t, wait_done(N), 0);
	for (int i = 0; i < N; i++)
		if (order[i] != i || results[i] != 0)
			ok = 0;
	all = seg_of(back, 8 * 512);
	KTEST_EXPECT_EQ(t, read_into(5000, 8, &all, 1), 0);
	for (int b = 0; b < 8; b++)
		for (int j = 0; j < 512; j++)
			if (back[512 * b + j] != 0x40 + (b < 4 ? b + 8 : b))
				ok = 0;
	if (!ok)
		ktest_fail(t, "expected 12 writes done in order, the later of two to one LBA on disk; order %d %d %d, LBA 5000 holds %#x",
			   order[0], order[1], order[2], back[0]);
	lx_host_free(buf);
	lx_host_free(back);
}

static const struct ktest_case linux_scsi_cases[] = {
	{ "ata_piix_probes_the_ide_disk_through_libata",
	  ata_piix_probes_the_ide_disk_through_libata },
	{ "libata_uses_dma_unless_libata_dma_0_asks_for_pio",
	  libata_uses_dma_unless_libata_dma_0_asks_for_pio },
	{ "disk_has_the_image_capacity_and_libata_limits",
	  disk_has_the_image_capacity_and_libata_limits },
	{ "lba_0_reads_the_image_pattern", lba_0_reads_the_image_pattern },
	{ "a_multi_segment_multi_page_read_matches",
	  a_multi_segment_multi_page_read_matches },
	{ "a_command_of_max_segments_pages_reads",
	  a_command_of_max_segments_pages_reads },
	{ "a_64_kib_segment_reads", a_64_kib_segment_reads },
	{ "a_write_reads_back", a_write_reads_back },
	{ "submit_refuses_bad_commands_with_nothing_queued",
	  submit_refuses_bad_commands_with_nothing_queued },
	{ "commands_beyond_the_queue_depth_complete_in_order",
	  commands_beyond_the_queue_depth_complete_in_order },
	{ "queued_writes_land_in_order", queued_writes_land_in_order },
	{ "a_media_error_gives_eio_and_the_next_command_works",
	  a_media_error_gives_eio_and_the_next_command_works },
	{ "dma_sg_bounces_only_beyond_the_mask_and_copies_back",
	  dma_sg_bounces_only_beyond_the_mask_and_copies_back },
	{ "submit_now_works_when_the_world_is_free_only",
	  submit_now_works_when_the_world_is_free_only },
	{ "results_become_errno_and_sense_is_named",
	  results_become_errno_and_sense_is_named },
	{ "failed_command_borrowed_for_sense_and_given_back",
	  failed_command_borrowed_for_sense_and_given_back },
	{ "probes_fire_at_queuecommand_and_scsi_done",
	  probes_fire_at_queuecommand_and_scsi_done },
	{ "a_fake_host_lives_and_goes_leaving_nothing",
	  a_fake_host_lives_and_goes_leaving_nothing },
	{ "a_removed_disk_answers_enodev", a_removed_disk_answers_enodev },
};
KTEST_SUITE(linux_scsi_suite, "linux-scsi", linux_scsi_cases);
