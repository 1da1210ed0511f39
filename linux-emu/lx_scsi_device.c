/* SPDX-License-Identifier: GPL-2.0-only */
/* SCSI devices: __scsi_add_device (the scan of one LUN: request queue and limits, slave_alloc, INQUIRY, slave_configure, disks attached), scsi_is_sdev_device, references, states, queue depth, removal; the request queue limit setters. */
/*
 * What Linux's scsi_scan.c, scsi_sysfs.c and sd.c do for one LUN the
 * adapter names, in their order: the device in SDEV_CREATED with a
 * request queue whose limits come from the host (as __scsi_init_queue),
 * the host's slave_alloc, INQUIRY (36 bytes, then as many as the device
 * says it has, through queuecommand like every command), the "scsi
 * H:C:I:L: Direct-Access ..." line, SDEV_RUNNING, the transport's
 * configuration (the SPI class reads the device's sync, wide, DT
 * abilities from the INQUIRY data), slave_configure (where libata sets
 * its limits and SPI drivers run domain validation), then for a disk
 * what sd's probe reads (lx_scsi_disk.c).  The device's parent is its
 * target (lx_scsi_target.c), made visible with it.  No REPORT LUNS:
 * hosts name their LUNs (libata does) or scsi_scan_host tries LUN 0.
 */
#include <linux/blkdev.h>
#include <linux/slab.h>
#include <scsi/scsi.h>
#include <scsi/scsi_common.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>
#include <scsi/scsi_transport.h>
#include <linux/transport_class.h>

#include <lx_scsi.h>

#define INQUIRY_LEN	36
#define INQUIRY_MAX	255
#define INQUIRY_TRIES	3

static const struct device_type scsi_dev_type = { .name = "scsi_device" };

/* scsi_is_sdev_device - whether @dev is a scsi_device's. */
int scsi_is_sdev_device(const struct device *dev)
{
	return dev->type == &scsi_dev_type;
}

/* Names hosts and devices in messages as Linux's SCSI bus does ("scsi
 * host0: ...", "scsi 0:0:0:0: ..."). */
struct class lx_scsi_class = { .name = "scsi" };

static void sdev_release(struct device *dev)
{
	struct scsi_device *sdev = to_scsi_device(dev);
	struct device *parent = dev->parent;

	kfree(sdev->inquiry);
	kfree(lx_sdev(sdev));
	put_device(parent);
}

/* Linux's defaults, then __scsi_init_queue's host limits. */
static void queue_init(struct request_queue *q, struct Scsi_Host *host)
{
	struct queue_limits *lim = &q->limits;

	lim->max_segments = min_t(unsigned int, host->sg_tablesize,
				  SG_MAX_SEGMENTS);
	if (!lim->max_segments)
		lim->max_segments = 1;
	lim->max_hw_sectors = host->max_sectors;
	lim->max_sectors = min(host->max_sectors, BLK_DEF_MAX_SECTORS);
	lim->seg_boundary_mask = host->dma_boundary;
	lim->max_segment_size = host->max_segment_size;
	lim->virt_boundary_mask = host->virt_boundary_mask;
	lim->logical_block_size = 512;
	lim->physical_block_size = 512;
	lim->dma_alignment = max(4, dma_get_cache_alignment()) - 1;
	q->dma_pad_mask = 0;
}

/* Remove @sdev from the host's and its target's lists, slave_destroy,
 * drop the list's reference and its target's reap reference (probe
 * failure or removal; thread context). */
static void sdev_unlink(struct scsi_device *sdev)
{
	struct Scsi_Host *host = sdev->host;

	lx_scsi_fail_pending(sdev, DID_NO_CONNECT << 16);
	if (sdev->is_visible)
		transport_remove_device(&sdev->sdev_gendev);
	sdev->is_visible = 0;
	transport_destroy_device(&sdev->sdev_gendev);
	if (host->hostt->slave_destroy)
		host->hostt->slave_destroy(sdev);
	list_del(&sdev->siblings);
	list_del(&sdev->same_target_siblings);
	device_del(&sdev->sdev_gendev);
	lx_scsi_target_put(sdev->sdev_target);
	put_device(&sdev->sdev_gendev);
}

static int inquiry_once(struct scsi_device *sdev, unsigned char *buf,
			unsigned int len)
{
	const unsigned char cdb[6] = { INQUIRY, 0, 0, 0, len, 0 };
	int result = -EIO;

	for (int i = 0; i < INQUIRY_TRIES && result; i++) {
		memset(buf, 0, len);
		result = __scsi_execute(sdev, cdb, DMA_FROM_DEVICE, buf, len,
					NULL, NULL, 0, 0, 0, 0, NULL);
	}
	return result;
}

/* INQUIRY into @buf (INQUIRY_MAX bytes): 36 bytes, then again as many as
 * the device has if it has more (Linux's scsi_probe_lun).  The result
 * and in *@len the bytes that count. */
static int inquiry(struct scsi_device *sdev, unsigned char *buf,
		   unsigned int *len)
{
	unsigned int has;
	int result = inquiry_once(sdev, buf, INQUIRY_LEN);

	*len = INQUIRY_LEN;
	if (result)
		return result;
	has = min_t(unsigned int, buf[4] + 5, INQUIRY_MAX);
	if (has > INQUIRY_LEN && !inquiry_once(sdev, buf, has))
		*len = min_t(unsigned int, buf[4] + 5, has);
	else if (has > INQUIRY_LEN)
		result = inquiry_once(sdev, buf, INQUIRY_LEN);
	return result;
}

/* What Linux's scsi_add_lun reads from the INQUIRY data @inq. */
static void inquiry_parse(struct scsi_device *sdev, unsigned char *inq,
			  unsigned int len)
{
	sdev->inquiry = inq;
	sdev->inquiry_len = len;
	sdev->type = inq[0] & 0x1f;
	sdev->vendor = (char *)inq + 8;
	sdev->model = (char *)inq + 16;
	sdev->rev = (char *)inq + 32;
	sdev->scsi_level = inq[2] & 0x07;
	if (sdev->scsi_level >= 2 ||
	    (sdev->scsi_level == 1 && (inq[3] & 0x0f) == 1))
		sdev->scsi_level++;
	sdev->sdev_target->scsi_level = sdev->scsi_level;
	sdev->removable = !!(inq[1] & 0x80);
	sdev->lockable = sdev->removable;
	sdev->inq_periph_qual = inq[0] >> 5;
	sdev->soft_reset = (inq[7] & 1) && ((inq[3] & 7) == 2);
	sdev->ppr = sdev->scsi_level >= SCSI_3 || (len > 56 && inq[56] & 4);
	sdev->wdtr = !!(inq[7] & 0x60);
	sdev->sdtr = !!(inq[7] & 0x10);
	if (sdev->scsi_level >= SCSI_2 && (inq[7] & 2)) {
		sdev->tagged_supported = 1;
		sdev->simple_tags = 1;
	}
}

/*
 * __scsi_add_device - scan LUN @lun of target @id on @channel of @host.
 * The device with a reference the caller drops (scsi_device_put); or
 * ERR_PTR(-ENOMEM), ERR_PTR(-ENODEV) (no LUN there, INQUIRY failed, or
 * target_alloc, slave_alloc or slave_configure refused: their error
 * is on the console).
 * Thread context.
 */
struct scsi_device *__scsi_add_device(struct Scsi_Host *host, uint channel,
				      uint id, u64 lun, void *hostdata)
{
	size_t extra = host->transportt ? host->transportt->device_size : 0;
	struct lx_sdev *ls = kzalloc(sizeof(*ls) + extra, GFP_KERNEL);
	unsigned char *inq = kzalloc(INQUIRY_MAX, GFP_KERNEL);
	struct scsi_target *starget = ERR_PTR(-ENOMEM);
	struct scsi_device *sdev;
	unsigned int inq_len;
	int err;

	if (ls && inq)
		starget = lx_scsi_target_get(host, channel, id);
	if (IS_ERR(starget)) {
		kfree(ls);
		kfree(inq);
		return ERR_PTR(PTR_ERR(starget) == -ENOMEM ? -ENOMEM : -ENODEV);
	}
	sdev = &ls->sdev;
	sdev->sdev_target = starget;
	INIT_LIST_HEAD(&ls->pending);
	sdev->host = host;
	sdev->channel = channel;
	sdev->id = id;
	sdev->lun = lun;
	sdev->hostdata = hostdata;
	sdev->sdev_state = SDEV_CREATED;
	sdev->request_queue = &ls->queue;
	sdev->sector_size = 512;
	sdev->max_device_blocked = SCSI_DEFAULT_DEVICE_BLOCKED;
	ls->queue.queuedata = sdev;
	queue_init(&ls->queue, host);
	INIT_LIST_HEAD(&sdev->siblings);
	INIT_LIST_HEAD(&sdev->same_target_siblings);
	INIT_LIST_HEAD(&sdev->starved_entry);
	INIT_LIST_HEAD(&sdev->event_list);
	spin_lock_init(&sdev->list_lock);
	mutex_init(&sdev->inquiry_mutex);
	device_initialize(&sdev->sdev_gendev);
	sdev->sdev_gendev.parent = get_device(&starget->dev);
	sdev->sdev_gendev.release = sdev_release;
	sdev->sdev_gendev.type = &scsi_dev_type;
	sdev->sdev_gendev.class = &lx_scsi_class;
	dev_set_name(&sdev->sdev_gendev, "%d:%d:%d:%llu", host->host_no,
		     channel, id, lun);
	scsi_change_queue_depth(sdev, host->cmd_per_lun ? host->cmd_per_lun : 1);
	list_add_tail(&sdev->siblings, &host->__devices);
	list_add_tail(&sdev->same_target_siblings, &starget->devices);
	transport_setup_device(&sdev->sdev_gendev);
	/* the reference the error paths and removal drop */
	err = device_add(&sdev->sdev_gendev);
	if (err)
		goto err_unlink;

	if (host->hostt->slave_alloc) {
		err = host->hostt->slave_alloc(sdev);
		if (err)
			goto err_unlink;
	}
	if (inquiry(sdev, inq, &inq_len) || (inq[0] >> 5) != 0) {
		err = -ENODEV;
		goto err_unlink;
	}
	inquiry_parse(sdev, inq, inq_len);
	sdev_printk(KERN_NOTICE, sdev, "%s %.8s %.16s %.4s PQ: %d ANSI: %d\n",
		    scsi_device_type(sdev->type), sdev->vendor, sdev->model,
		    sdev->rev, inq[0] >> 5, inq[2] & 0x07);
	inq = NULL;
	sdev->sdev_state = SDEV_RUNNING;
	transport_configure_device(&sdev->sdev_gendev);
	if (host->hostt->slave_configure) {
		err = host->hostt->slave_configure(sdev);
		if (err) {
			sdev_printk(KERN_ERR, sdev, "slave_configure failed (%d)\n",
				    err);
			goto err_unlink;
		}
	}
	err = lx_scsi_target_add(starget);
	if (err)
		goto err_unlink;
	transport_add_device(&sdev->sdev_gendev);
	sdev->is_visible = 1;
	if (sdev->type == TYPE_DISK) {
		err = lx_scsi_disk_attach(sdev);
		if (err)
			sdev_printk(KERN_ERR, sdev, "not a usable disk (%d)\n",
				    err);
	}
	return to_scsi_device(get_device(&sdev->sdev_gendev));

err_unlink:
	kfree(inq);
	sdev->sdev_state = SDEV_DEL;
	sdev_unlink(sdev);
	return ERR_PTR(err == -ENOMEM ? -ENOMEM : -ENODEV);
}

/* scsi_device_get - a reference on @sdev: 0; -ENXIO if it is being
 * removed. */
int scsi_device_get(struct scsi_device *sdev)
{
	if (sdev->sdev_state == SDEV_DEL || sdev->sdev_state == SDEV_CANCEL)
		return -ENXIO;
	get_device(&sdev->sdev_gendev);
	return 0;
}

/* scsi_device_put - drop what scsi_device_get took. */
void scsi_device_put(struct scsi_device *sdev)
{
	put_device(&sdev->sdev_gendev);
}

/*
 * scsi_device_set_state - move @sdev to @state.  0; -EINVAL from
 * SDEV_DEL (no way back) or to SDEV_CREATED.  Leaving the running states
 * fails the device's pending commands (-ENODEV to their owners).
 */
int scsi_device_set_state(struct scsi_device *sdev,
			  enum scsi_device_state state)
{
	if (sdev->sdev_state == SDEV_DEL || state == SDEV_CREATED) {
		sdev_printk(KERN_ERR, sdev, "illegal state transition %d->%d\n",
			    sdev->sdev_state, state);
		return -EINVAL;
	}
	sdev->sdev_state = state;
	if (state != SDEV_RUNNING)
		lx_scsi_fail_pending(sdev, DID_NO_CONNECT << 16);
	return 0;
}

/* scsi_remove_device - take @sdev away: its disk reports -ENODEV,
 * pending commands fail, slave_destroy runs, the list's reference goes. */
void scsi_remove_device(struct scsi_device *sdev)
{
	if (sdev->sdev_state == SDEV_DEL)
		return;
	sdev->sdev_state = SDEV_DEL;
	lx_scsi_disk_detach(sdev);
	sdev_unlink(sdev);
}

/* scsi_change_queue_depth - commands the device may have at the
 * adapter at once (@depth > 0); the depth now. */
int scsi_change_queue_depth(struct scsi_device *sdev, int depth)
{
	if (depth > 0)
		sdev->queue_depth = depth;
	return sdev->queue_depth;
}

/* sdev_evt_send_simple - Linux sends a uevent; Graft has none: the
 * event is named on the console and dropped. */
void sdev_evt_send_simple(struct scsi_device *sdev,
			  enum scsi_device_event evt_type, gfp_t gfpflags)
{
	sdev_printk(KERN_INFO, sdev, "event %d (no uevents: dropped)\n",
		    evt_type);
}

/* scsi_rescan_device - read a disk's capacity and write protection
 * again.  0 or -errno (thread context). */
int scsi_rescan_device(struct scsi_device *sdev)
{
	if (sdev->sdev_state != SDEV_RUNNING)
		return -ENODEV;
	if (sdev->type != TYPE_DISK)
		return 0;
	return lx_scsi_disk_attach(sdev);
}

/* scsi_resume_device - power management is not emulated: -EOPNOTSUPP
 * with a console line. */
int scsi_resume_device(struct scsi_device *sdev)
{
	sdev_printk(KERN_ERR, sdev, "scsi_resume_device: no power management in linux-emu\n");
	return -EOPNOTSUPP;
}

/* blk_queue_max_hw_sectors - the largest command in 512-byte sectors
 * (at least a page's worth, as Linux). */
void blk_queue_max_hw_sectors(struct request_queue *q, unsigned int max)
{
	if ((max << 9) < PAGE_SIZE)
		max = PAGE_SIZE >> 9;
	q->limits.max_hw_sectors = max;
	q->limits.max_sectors = min(max, BLK_DEF_MAX_SECTORS);
}

/* blk_queue_max_segments - at most @max scatter-gather entries (>= 1). */
void blk_queue_max_segments(struct request_queue *q, unsigned short max)
{
	q->limits.max_segments = max ? max : 1;
}

/* blk_queue_update_dma_alignment - raise the alignment mask to @mask. */
void blk_queue_update_dma_alignment(struct request_queue *q, int mask)
{
	if (mask > q->limits.dma_alignment)
		q->limits.dma_alignment = mask;
}

/* blk_queue_update_dma_pad - raise the padding mask to @mask. */
void blk_queue_update_dma_pad(struct request_queue *q, unsigned int mask)
{
	if (mask > q->dma_pad_mask)
		q->dma_pad_mask = mask;
}

/* sdev_prefix_printk - "scsi H:C:I:L: [@name] message" (@name may be
 * NULL). */
void sdev_prefix_printk(const char *level, const struct scsi_device *sdev,
			const char *name, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	if (name)
		dev_printk(level, &sdev->sdev_gendev, "[%s] %pV", name, &vaf);
	else
		dev_printk(level, &sdev->sdev_gendev, "%pV", &vaf);
	va_end(args);
}

/* scmd_printk - a message about @cmd, prefixed with its device and tag. */
void scmd_printk(const char *level, const struct scsi_cmnd *cmd,
		 const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	dev_printk(level, &cmd->device->sdev_gendev, "tag#%d %pV",
		   scsi_cmd_to_rq((struct scsi_cmnd *)cmd)->tag, &vaf);
	va_end(args);
}
