/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks of the linux-scsi suite that run in the Linux world: libata's transfer mode, scatter-gather bouncing, write protection, submit_now with the world held, device removal. */
#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/libata.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <scsi/scsi.h>
#include <scsi/scsi_common.h>
#include <scsi/scsi_device.h>

#include <lx_emul.h>
#include <lx_emul_disk.h>
#include <lx_scsi.h>
#include <lx_world.h>

#include "lx_selftest_scsi.h"

#define CHECK(cond)	do { if (!(cond)) return __LINE__; } while (0)

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

static int in_write_protect(void *arg)
{
	struct scsi_device *sdev = hd0();

	if (!sdev)
		return -1;
	lx_sdev(sdev)->read_only = arg != NULL;
	return 0;
}

int lx_emul_selftest_scsi_write_protect(int on)
{
	return lx_world_run(in_write_protect, on ? (void *)1 : NULL);
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
