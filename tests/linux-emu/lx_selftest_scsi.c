/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks of the linux-scsi suite that run in the Linux world: libata's transfer mode, scatter-gather bouncing, submit_now with the world held, results as errno, a fake host adapter's life, device removal. */
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/libata.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <scsi/scsi.h>
#include <scsi/scsi_common.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_eh.h>
#include <scsi/scsi_host.h>
#include <asm/unaligned.h>

#include <lx_emul.h>
#include <lx_emul_disk.h>
#include <lx_scsi.h>
#include <lx_world.h>

#include "lx_selftest_scsi.h"
#include "lx_selftest_check.h"

/* hd0's SCSI device (the first host's first disk), or NULL. */
static struct scsi_device *hd0(void)
{
	struct lx_shost *lh;
	struct scsi_device *sdev;

	list_for_each_entry(lh, &lx_scsi_hosts, link)
		list_for_each_entry(sdev, &lh->host.__devices, siblings)
			if (lx_sdev(sdev)->disk &&
			    lx_emul_disk_next(NULL) == lx_sdev(sdev)->disk)
				return sdev;
	return NULL;
}

static int in_xfer_mode(void *arg)
{
	struct scsi_device *sdev = hd0();
	struct ata_port *ap;

	if (!sdev)
		return -1;
	ap = ata_shost_to_port(sdev->host);
	return ap->link.device[sdev->id].xfer_mode;
}

int lx_emul_selftest_scsi_xfer_mode(void)
{
	return lx_world_run(in_xfer_mode, NULL);
}

/* A page whose physical address is above (@high) or below 16 MiB. */
static struct page *page_where(bool high, struct page **spare, int nspare)
{
	struct page *page;

	if (!high)
		return alloc_page(GFP_DMA);
	for (int i = 0; i < nspare; i++) {
		page = alloc_page(GFP_KERNEL);
		if (page && page_to_phys(page) >= SZ_16M)
			return page;
		spare[i] = page;
	}
	return NULL;
}

static int in_dma_sg(void *arg)
{
	struct page *spare[64] = { NULL }, *low, *high;
	u64 mask = DMA_BIT_MASK(24);
	struct device dev = { .dma_mask = &mask,
			      .coherent_dma_mask = DMA_BIT_MASK(24) };
	unsigned long before = lx_emul_dma_bounce_count();
	struct scatterlist sg[2];
	int mapped, line = 0;

	device_initialize(&dev);
	low = page_where(false, NULL, 0);
	high = page_where(true, spare, ARRAY_SIZE(spare));
	if (!low || !high) {
		line = __LINE__;
		goto out;
	}
	memset(page_address(high), 0x11, PAGE_SIZE);
	sg_init_table(sg, 2);
	sg_set_page(&sg[0], low, 1024, 512);
	sg_set_page(&sg[1], high, 2048, 0);
	mapped = dma_map_sg_attrs(&dev, sg, 2, DMA_FROM_DEVICE, 0);
	if (mapped != 2 || sg_dma_address(&sg[0]) != page_to_phys(low) + 512 ||
	    sg_dma_len(&sg[1]) != 2048 ||
	    sg_dma_address(&sg[1]) + 2048 > SZ_16M ||
	    lx_emul_dma_bounce_count() != before + 1) {
		line = __LINE__;
		goto out;
	}
	/* the device writes into the bounce buffer */
	memset(phys_to_virt(sg_dma_address(&sg[1])), 0x5a, 2048);
	dma_unmap_sg_attrs(&dev, sg, 2, DMA_FROM_DEVICE, 0);
	if (((u8 *)page_address(high))[0] != 0x5a ||
	    ((u8 *)page_address(high))[2047] != 0x5a ||
	    ((u8 *)page_address(high))[2048] != 0x11)
		line = __LINE__;
out:
	for (int i = 0; i < ARRAY_SIZE(spare); i++)
		if (spare[i])
			__free_page(spare[i]);
	if (low)
		__free_page(low);
	if (high)
		__free_page(high);
	return line;
}

int lx_emul_selftest_scsi_dma_sg(void)
{
	return lx_world_run(in_dma_sg, NULL);
}

struct now_args {
	struct lx_emul_disk *disk;
	struct lx_emul_disk_cmd *cmd;
};

static int in_submit_now_held(void *arg)
{
	struct now_args *a = arg;

	return lx_emul_disk_submit_now(a->disk, a->cmd);
}

int lx_emul_selftest_scsi_submit_now_held(struct lx_emul_disk *disk,
					  struct lx_emul_disk_cmd *cmd)
{
	struct now_args a = { disk, cmd };

	return lx_world_run(in_submit_now_held, &a);
}

static int in_errno(void *arg)
{
	static const struct {
		int result;
		u8 key, asc, ascq;	/* key 0xff: no sense data */
		int err;
	} rows[] = {
		{ 0, 0xff, 0, 0, 0 },
		{ SAM_STAT_CHECK_CONDITION, MEDIUM_ERROR, 0x11, 0x04, -EIO },
		{ SAM_STAT_CHECK_CONDITION, ABORTED_COMMAND, 0, 0, -EIO },
		{ SAM_STAT_CHECK_CONDITION, 0xff, 0, 0, -EIO },
		{ DID_TIME_OUT << 16, 0xff, 0, 0, -ETIMEDOUT },
		{ DID_NO_CONNECT << 16, 0xff, 0, 0, -ENODEV },
		{ DID_BAD_TARGET << 16, 0xff, 0, 0, -ENODEV },
		{ DID_ERROR << 16, 0xff, 0, 0, -EIO },
	};
	struct scsi_device *sdev = hd0();
	u8 sense[SCSI_SENSE_BUFFERSIZE];

	CHECK(sdev);
	for (int i = 0; i < ARRAY_SIZE(rows); i++) {
		memset(sense, 0, sizeof(sense));
		if (rows[i].key != 0xff)
			scsi_build_sense_buffer(0, sense, rows[i].key,
						rows[i].asc, rows[i].ascq);
		CHECK(lx_scsi_errno(sdev, rows[i].result, sense) ==
		      rows[i].err);
	}
	return 0;
}

int lx_emul_selftest_scsi_errno(void)
{
	return lx_world_run(in_errno, NULL);
}

/* A failed command borrowed for auto-sense and given back
 * (lx_scsi_eh_save.c), as usb-storage does. */
static struct scsi_device eh_sdev;
static struct scsi_cmnd eh_cmd;
static struct scsi_eh_save eh_ses;
static unsigned char eh_sense[SCSI_SENSE_BUFFERSIZE];
static struct scatterlist eh_data;

/* eh_cmd as a failed WRITE(10) of 4 KiB with stale sense bytes. */
static void eh_cmd_failed_write(int scsi_level)
{
	eh_sdev.scsi_level = scsi_level;
	eh_sdev.lun = 1;
	memset(&eh_cmd, 0, sizeof(eh_cmd));
	eh_cmd.device = &eh_sdev;
	eh_cmd.sense_buffer = eh_sense;
	memset(eh_sense, 0xaa, sizeof(eh_sense));
	eh_cmd.cmnd[0] = WRITE_10;
	eh_cmd.cmnd[1] = 0x08;
	eh_cmd.cmd_len = 10;
	eh_cmd.sc_data_direction = DMA_TO_DEVICE;
	eh_cmd.sdb.table.sgl = &eh_data;
	eh_cmd.sdb.table.nents = eh_cmd.sdb.table.orig_nents = 1;
	eh_cmd.sdb.length = 4096;
	eh_cmd.result = SAM_STAT_CHECK_CONDITION;
	eh_cmd.resid_len = 512;
	eh_cmd.underflow = 1024;
}

/* Whether eh_cmd is the failed write again. */
static bool eh_cmd_is_the_write(void)
{
	return eh_cmd.cmnd[0] == WRITE_10 && eh_cmd.cmnd[1] == 0x08 &&
	       eh_cmd.cmd_len == 10 &&
	       eh_cmd.sc_data_direction == DMA_TO_DEVICE &&
	       eh_cmd.sdb.table.sgl == &eh_data &&
	       eh_cmd.sdb.table.nents == 1 && eh_cmd.sdb.length == 4096 &&
	       eh_cmd.result == SAM_STAT_CHECK_CONDITION &&
	       eh_cmd.resid_len == 512 && eh_cmd.underflow == 1024;
}

static bool sense_cleared(void)
{
	return !memchr_inv(eh_sense, 0, sizeof(eh_sense));
}

static int in_eh_save(void *arg)
{
	/* REQUEST SENSE into the sense buffer, LUN in byte 1 (SCSI-2). */
	eh_cmd_failed_write(SCSI_2);
	scsi_eh_prep_cmnd(&eh_cmd, &eh_ses, NULL, 0, 18);
	CHECK(eh_cmd.cmnd[0] == REQUEST_SENSE && eh_cmd.cmnd[1] == 0x20 &&
	      eh_cmd.cmnd[4] == 18 && eh_cmd.cmd_len == 6);
	CHECK(eh_cmd.sc_data_direction == DMA_FROM_DEVICE &&
	      eh_cmd.sdb.length == 18 && eh_cmd.sdb.table.nents == 1 &&
	      sg_phys(eh_cmd.sdb.table.sgl) == virt_to_phys(eh_sense) &&
	      eh_cmd.sdb.table.sgl->length == 18);
	CHECK(eh_cmd.result == 0 && eh_cmd.resid_len == 0 &&
	      eh_cmd.underflow == 0 && sense_cleared());
	eh_sense[0] = 0x70;	/* what the device answered */
	scsi_eh_restore_cmnd(&eh_cmd, &eh_ses);
	CHECK(eh_cmd_is_the_write() && eh_sense[0] == 0x70);
	/* More sense than the buffer holds: the buffer's size. */
	eh_cmd_failed_write(SCSI_SPC_2);
	scsi_eh_prep_cmnd(&eh_cmd, &eh_ses, NULL, 0, 200);
	CHECK(eh_cmd.cmnd[4] == SCSI_SENSE_BUFFERSIZE &&
	      eh_cmd.sdb.length == SCSI_SENSE_BUFFERSIZE);
	CHECK(eh_cmd.cmnd[1] == 0);	/* SCSI-3: no LUN in the CDB */
	scsi_eh_restore_cmnd(&eh_cmd, &eh_ses);
	CHECK(eh_cmd_is_the_write());
	/* A command of the caller's without data. */
	eh_cmd_failed_write(SCSI_SPC_2);
	scsi_eh_prep_cmnd(&eh_cmd, &eh_ses,
			  (unsigned char[6]){ TEST_UNIT_READY }, 6, 0);
	CHECK(eh_cmd.cmnd[0] == TEST_UNIT_READY && eh_cmd.cmd_len == 6 &&
	      eh_cmd.sc_data_direction == DMA_NONE &&
	      eh_cmd.sdb.length == 0 && !eh_cmd.sdb.table.sgl &&
	      sense_cleared());
	scsi_eh_restore_cmnd(&eh_cmd, &eh_ses);
	CHECK(eh_cmd_is_the_write());
	return 0;
}

int lx_emul_selftest_scsi_eh_save(void)
{
	return lx_world_run(in_eh_save, NULL);
}

#define FAKE_BLOCKS	1000
#define FAKE_HANG	0xc1	/* vendor opcodes of the fake adapter */
#define FAKE_ABORT	0xc2

/* With fake_hold set, the next command is held here, not completed. */
static bool fake_hold;
static struct scsi_cmnd *fake_held;

static int fake_queuecommand(struct Scsi_Host *host, struct scsi_cmnd *cmd)
{
	u8 buf[36] = { 0 };
	u8 *data;

	if (fake_hold) {
		fake_hold = false;
		fake_held = cmd;
		return 0;
	}

	switch (cmd->cmnd[0]) {
	case INQUIRY:
		buf[0] = TYPE_DISK;
		buf[2] = 5;
		buf[4] = 31;
		memcpy(buf + 8, "LXTEST  FAKE DISK       0001", 28);
		scsi_sg_copy_from_buffer(cmd, buf, sizeof(buf));
		break;
	case READ_CAPACITY:
		put_unaligned_be32(FAKE_BLOCKS - 1, buf);
		put_unaligned_be32(512, buf + 4);
		scsi_sg_copy_from_buffer(cmd, buf, 8);
		break;
	case MODE_SENSE:
		buf[0] = 3;
		buf[2] = 0x80;		/* write protected */
		scsi_sg_copy_from_buffer(cmd, buf, 4);
		break;
	case READ_10:
		data = kmalloc(scsi_bufflen(cmd), GFP_ATOMIC);
		if (!data) {
			cmd->result = DID_ERROR << 16;
			break;
		}
		for (unsigned int i = 0; i < scsi_bufflen(cmd); i++)
			data[i] = (u8)(get_unaligned_be32(&cmd->cmnd[2]) + i);
		scsi_sg_copy_from_buffer(cmd, data, scsi_bufflen(cmd));
		kfree(data);
		break;
	case FAKE_HANG:
		return 0;			/* never completes */
	case FAKE_ABORT:
		blk_abort_request(scsi_cmd_to_rq(cmd));
		return 0;
	default:
		scsi_build_sense(cmd, 0, ILLEGAL_REQUEST, 0x20, 0);
		break;
	}
	scsi_done(cmd);
	return 0;
}

static struct scsi_host_template fake_template = {
	.name = "lxscsi",
	.queuecommand = fake_queuecommand,
	.can_queue = 2,
	.this_id = -1,
	.sg_tablesize = 4,
	.cmd_per_lun = 1,
};

static struct completion fake_done;
static int fake_result;

static void fake_disk_done(struct lx_emul_disk_cmd *cmd, int result)
{
	fake_result = result;
	complete(&fake_done);
}

/* Through the disk API: @write, 2 blocks at LBA 7 into @buf. */
static int fake_disk_io(struct lx_emul_disk *disk, int write, void *buf)
{
	struct lx_emul_disk_seg seg = { virt_to_phys(buf), 1024 };
	struct lx_emul_disk_cmd cmd = {
		.write = write, .lba = 7, .blocks = 2, .segs = &seg,
		.nsegs = 1, .done = fake_disk_done,
	};
	int err;

	init_completion(&fake_done);
	err = lx_emul_disk_submit(disk, &cmd);
	if (err)
		return err;
	wait_for_completion(&fake_done);
	return fake_result;
}

/*
 * A read the adapter holds, finished with scsi_done_direct from this
 * thread as usb-storage's control thread does: its owner has heard
 * before the call returns (BLOCK_SOFTIRQ ran in the caller).
 */
static int fake_done_direct(struct lx_emul_disk *disk, void *buf)
{
	struct lx_emul_disk_seg seg = { virt_to_phys(buf), 1024 };
	struct lx_emul_disk_cmd cmd = {
		.write = 0, .lba = 7, .blocks = 2, .segs = &seg,
		.nsegs = 1, .done = fake_disk_done,
	};

	bool held, heard;

	init_completion(&fake_done);
	fake_held = NULL;
	fake_hold = true;
	CHECK(lx_emul_disk_submit(disk, &cmd) == 0);
	CHECK(fake_held != NULL);
	held = !completion_done(&fake_done);
	fake_held->result = DID_OK << 16;
	scsi_done_direct(fake_held);
	heard = completion_done(&fake_done);
	wait_for_completion(&fake_done);	/* @cmd is on this stack */
	CHECK(held);
	CHECK(heard);
	CHECK(fake_result == 0);
	return 0;
}

static int fake_checks(struct Scsi_Host *host, struct scsi_device *sdev,
		       u8 *buf)
{
	int line;

	static const u8 hang[10] = { FAKE_HANG }, abort[10] = { FAKE_ABORT };
	struct lx_emul_disk *disk = lx_sdev(sdev)->disk;
	struct lx_emul_disk_info info;

	CHECK(disk);
	CHECK(lx_emul_disk_info(disk, &info) == 0);
	CHECK(info.blocks == FAKE_BLOCKS && info.block_size == 512);
	CHECK(info.read_only == 1 && info.max_segments == 4);
	CHECK(info.dma_mask == DMA_BIT_MASK(64));
	CHECK(!strcmp(info.vendor, "LXTEST") && !strcmp(info.model, "FAKE DISK"));
	CHECK(fake_disk_io(disk, 0, buf) == 0);
	for (int i = 0; i < 1024; i++)
		CHECK(buf[i] == (u8)(7 + i));
	CHECK(fake_disk_io(disk, 1, buf) == -EROFS);
	line = fake_done_direct(disk, buf);
	if (line)
		return line;
	CHECK(__scsi_execute(sdev, hang, DMA_NONE, NULL, 0, NULL, NULL,
			     HZ / 10, 0, 0, 0, NULL) == DID_TIME_OUT << 16);
	CHECK(host->shost_state == SHOST_RUNNING);
	CHECK(__scsi_execute(sdev, abort, DMA_NONE, NULL, 0, NULL, NULL,
			     0, 0, 0, 0, NULL) == DID_TIME_OUT << 16);
	CHECK(fake_disk_io(disk, 0, buf) == 0);
	/* Resets the adapter reports mark the devices behind them. */
	CHECK(!sdev->was_reset && !sdev->expecting_cc_ua);
	scsi_report_device_reset(host, 0, 1);	/* another target */
	scsi_report_bus_reset(host, 1);		/* another channel */
	CHECK(!sdev->was_reset);
	scsi_report_device_reset(host, 0, 0);
	CHECK(sdev->was_reset && sdev->expecting_cc_ua);
	sdev->was_reset = sdev->expecting_cc_ua = 0;
	scsi_report_bus_reset(host, 0);
	CHECK(sdev->was_reset && sdev->expecting_cc_ua);
	return 0;
}

static int in_fake_host(void *arg)
{
	struct Scsi_Host *host = scsi_host_alloc(&fake_template, 0);
	struct scsi_device *sdev;
	u8 *buf = kmalloc(1024, GFP_KERNEL);
	int line;

	CHECK(host && buf);
	CHECK(scsi_add_host_with_dma(host, NULL, NULL) == 0);
	sdev = __scsi_add_device(host, 0, 0, 0, NULL);
	CHECK(!IS_ERR(sdev));
	line = fake_checks(host, sdev, buf);
	scsi_device_put(sdev);
	scsi_remove_host(host);
	scsi_host_put(host);
	kfree(buf);
	msleep(50);		/* the EH thread ends and frees the host */
	return line;
}

int lx_emul_selftest_scsi_fake_host(void)
{
	return lx_world_run(in_fake_host, NULL);
}

static int in_remove_hd0(void *arg)
{
	struct scsi_device *sdev = hd0();

	if (!sdev)
		return -1;
	scsi_remove_device(sdev);
	return 0;
}

int lx_emul_selftest_scsi_remove_hd0(void)
{
	return lx_world_run(in_remove_hd0, NULL);
}
