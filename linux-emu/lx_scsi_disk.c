/* SPDX-License-Identifier: GPL-2.0-only */
/* SCSI disks for the host (lx_emul_disk.h, lx_disk.h): what sd reads at probe (capacity, write protection), READ/WRITE commands from the host's segments, results as errno. */
/*
 * A direct-access device that answers READ CAPACITY becomes a disk of
 * the host (lx_disk_add: hd<N>, in discovery order among all disks).  A
 * submitted command is checked against the disk and the limits the
 * adapter set (lx_disk_check), then becomes a
 * request of lx_scsi_cmd.c: READ(10)/WRITE(10), or READ(16)/WRITE(16)
 * past 2^32 blocks or 65535 blocks per command.  Its result reaches the
 * host's done callback in BLOCK_SOFTIRQ (also after the error handler):
 * 0, -EIO (sense named on the console), -ENODEV, -ETIMEDOUT.  INQUIRY's
 * vendor and model reach the host without their trailing blanks.
 */
#include <linux/blkdev.h>
#include <linux/slab.h>
#include <asm/unaligned.h>
#include <scsi/scsi.h>
#include <scsi/scsi_common.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_proto.h>

#include <lx_disk.h>
#include <lx_emul_disk.h>
#include <lx_scsi.h>

static const struct lx_disk_ops scsi_disk_ops;

static const char *const sense_keys[] = {
	"No Sense", "Recovered Error", "Not Ready", "Medium Error",
	"Hardware Error", "Illegal Request", "Unit Attention", "Data Protect",
	"Blank Check", "Vendor Specific", "Copy Aborted", "Aborted Command",
	"Equal", "Volume Overflow", "Miscompare", "Completed",
};

/* lx_scsi_errno - see lx_scsi.h. */
int lx_scsi_errno(struct scsi_device *sdev, int result,
		  const unsigned char *sense)
{
	struct scsi_sense_hdr sshdr;
	u8 host = (result >> 16) & 0xff;

	if (result == 0)
		return 0;
	if (host == DID_NO_CONNECT || host == DID_BAD_TARGET ||
	    sdev->sdev_state == SDEV_DEL || sdev->sdev_state == SDEV_OFFLINE)
		return -ENODEV;
	if ((result & 0xff) == SAM_STAT_CHECK_CONDITION && sense &&
	    scsi_normalize_sense(sense, SCSI_SENSE_BUFFERSIZE, &sshdr)) {
		sdev_printk(KERN_ERR, sdev, "sense: %s, asc 0x%02x ascq 0x%02x\n",
			    sense_keys[sshdr.sense_key & 0xf], sshdr.asc,
			    sshdr.ascq);
		return -EIO;
	}
	if (host == DID_TIME_OUT) {
		sdev_printk(KERN_ERR, sdev, "command timed out, error handler gave up\n");
		return -ETIMEDOUT;
	}
	sdev_printk(KERN_ERR, sdev, "command failed, result 0x%08x\n", result);
	return -EIO;
}

static int read_capacity(struct scsi_device *sdev, u64 *blocks, u32 *bsize)
{
	unsigned char cdb[16] = { READ_CAPACITY };
	unsigned char *buf = kzalloc(32, GFP_KERNEL);
	int result;

	if (!buf)
		return -ENOMEM;
	result = __scsi_execute(sdev, cdb, DMA_FROM_DEVICE, buf, 8, NULL,
				NULL, 0, 3, 0, 0, NULL);
	if (!result && get_unaligned_be32(buf) != 0xffffffff) {
		*blocks = (u64)get_unaligned_be32(buf) + 1;
		*bsize = get_unaligned_be32(buf + 4);
		goto out;
	}
	memset(cdb, 0, sizeof(cdb));
	cdb[0] = SERVICE_ACTION_IN_16;
	cdb[1] = SAI_READ_CAPACITY_16;
	cdb[13] = 32;
	result = __scsi_execute(sdev, cdb, DMA_FROM_DEVICE, buf, 32, NULL,
				NULL, 0, 3, 0, 0, NULL);
	if (!result) {
		*blocks = get_unaligned_be64(buf) + 1;
		*bsize = get_unaligned_be32(buf + 8);
	}
out:
	kfree(buf);
	return result ? -EIO : 0;
}

/* MODE SENSE(6), all pages: the write protect bit of the header. */
static int write_protected(struct scsi_device *sdev)
{
	unsigned char cdb[6] = { MODE_SENSE, 0, 0x3f, 0, 192, 0 };
	unsigned char *buf = kzalloc(192, GFP_KERNEL);
	int result, wp;

	if (!buf)
		return -ENOMEM;
	result = __scsi_execute(sdev, cdb, DMA_FROM_DEVICE, buf, 192, NULL,
				NULL, 0, 3, 0, 0, NULL);
	wp = result ? -EIO : !!(buf[2] & 0x80);
	kfree(buf);
	return wp;
}

int lx_scsi_disk_attach(struct scsi_device *sdev)
{
	struct lx_sdev *ls = lx_sdev(sdev);
	u64 blocks;
	u32 bsize;
	bool changed;
	int err, wp;

	err = read_capacity(sdev, &blocks, &bsize);
	if (err)
		return err;
	if (bsize < 512 || bsize > PAGE_SIZE || !is_power_of_2(bsize)) {
		sdev_printk(KERN_ERR, sdev, "unsupported block size %u\n", bsize);
		return -EINVAL;
	}
	wp = write_protected(sdev);
	if (wp < 0)
		sdev_printk(KERN_NOTICE, sdev, "write protection unknown: assuming none\n");
	changed = !ls->disk || ls->blocks != blocks ||
		  sdev->sector_size != bsize || ls->read_only != (wp > 0);
	sdev->sector_size = bsize;
	ls->blocks = blocks;
	ls->read_only = wp > 0;
	if (!ls->disk) {
		ls->disk = lx_disk_add(&scsi_disk_ops, sdev);
		if (!ls->disk)
			return -ENOSPC;
	}
	if (changed)
		sdev_printk(KERN_NOTICE, sdev, "[hd%d] %llu %u-byte logical blocks: (%llu MiB)%s\n",
			    lx_disk_index(ls->disk), blocks, bsize,
			    (blocks * bsize) >> 20,
			    ls->read_only ? ", write protected" : "");
	return 0;
}

void lx_scsi_disk_detach(struct scsi_device *sdev)
{
	struct lx_sdev *ls = lx_sdev(sdev);

	if (ls->disk)
		lx_disk_gone(ls->disk);
}

static void copy_trimmed(char *dst, const char *src, int len)
{
	memcpy(dst, src, len);
	dst[len] = 0;
	while (len > 0 && (dst[len - 1] == ' ' || dst[len - 1] == 0))
		dst[--len] = 0;
}

static int scsi_disk_info(void *dev, struct lx_emul_disk_info *info)
{
	struct scsi_device *sdev = dev;
	struct queue_limits *lim;
	struct device *dma_dev;

	if (sdev->sdev_state == SDEV_DEL)
		return -ENODEV;
	lim = &sdev->request_queue->limits;
	dma_dev = sdev->host->dma_dev;
	info->blocks = lx_sdev(sdev)->blocks;
	info->block_size = sdev->sector_size;
	info->max_hw_sectors = lim->max_hw_sectors;
	info->max_segments = lim->max_segments;
	info->max_segment_size = lim->max_segment_size;
	info->seg_boundary_mask = lim->seg_boundary_mask;
	info->dma_alignment = lim->dma_alignment;
	/* a host without a DMA device copies by CPU: no limit */
	info->dma_mask = dma_dev && dma_dev->dma_mask ? *dma_dev->dma_mask :
			 DMA_BIT_MASK(64);
	info->read_only = lx_sdev(sdev)->read_only;
	copy_trimmed(info->vendor, sdev->vendor, 8);
	copy_trimmed(info->model, sdev->model, 16);
	if (dma_dev)
		strscpy(info->driver, dev_driver_string(dma_dev),
			sizeof(info->driver));
	return 0;
}

/* The host command @req carried (req->owner) is over. */
static void disk_complete(struct lx_scsi_req *req, int result,
			  const unsigned char *sense)
{
	struct lx_emul_disk_cmd *cmd = req->owner;
	int err = lx_scsi_errno(req->sdev, result, sense);

	kfree(req);
	cmd->done(cmd, err);
}

static void build_cdb(struct lx_scsi_req *req, struct lx_emul_disk_cmd *cmd)
{
	memset(req->cdb, 0, sizeof(req->cdb));
	if (cmd->lba + cmd->blocks <= 0x100000000ull && cmd->blocks <= 0xffff) {
		req->cdb[0] = cmd->write ? WRITE_10 : READ_10;
		put_unaligned_be32(cmd->lba, &req->cdb[2]);
		put_unaligned_be16(cmd->blocks, &req->cdb[7]);
		req->cdb_len = 10;
	} else {
		req->cdb[0] = cmd->write ? WRITE_16 : READ_16;
		put_unaligned_be64(cmd->lba, &req->cdb[2]);
		put_unaligned_be32(cmd->blocks, &req->cdb[10]);
		req->cdb_len = 16;
	}
}

static int scsi_disk_submit(void *dev, struct lx_emul_disk_cmd *cmd,
			    gfp_t gfp)
{
	struct scsi_device *sdev = dev;
	struct lx_sdev *ls = lx_sdev(sdev);
	struct lx_scsi_req *req;
	int err;

	if (sdev->sdev_state != SDEV_RUNNING)
		return -ENODEV;
	err = lx_disk_check(&sdev->request_queue->limits, ls->blocks,
			    sdev->sector_size, ls->read_only, cmd);
	if (err)
		return err;
	req = kzalloc(sizeof(*req), gfp);
	if (!req)
		return -ENOMEM;
	req->sdev = sdev;
	build_cdb(req, cmd);
	req->dir = cmd->write ? DMA_TO_DEVICE : DMA_FROM_DEVICE;
	req->opf = cmd->write ? REQ_OP_WRITE : REQ_OP_READ;
	req->bytes = cmd->blocks * sdev->sector_size;
	req->sector = cmd->lba * (sdev->sector_size >> 9);
	req->segs = cmd->segs;
	req->nsegs = cmd->nsegs;
	lx_scsi_req_defaults(req);
	req->complete = disk_complete;
	req->owner = cmd;
	lx_scsi_queue(req);
	return 0;
}

static const struct lx_disk_ops scsi_disk_ops = {
	.info = scsi_disk_info,
	.submit = scsi_disk_submit,
};
