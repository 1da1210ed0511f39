/* SPDX-License-Identifier: GPL-2.0-only */
/* Disks of blk-mq drivers: __blk_mq_alloc_disk, device_add_disk (opened, the disk becomes the host's), capacity and read-only state, del_gendisk, put_disk, block majors. */
/*
 * Linux's block/genhd.c without sysfs, uevents, partitions (the host
 * reads the MBR itself: mach-glue/block) or block device inodes.  A
 * disk comes with its request queue and part0 in one allocation
 * (struct lx_blk_disk); device_add_disk registers it with
 * lx_emul_disk.c, so it becomes hd<N> beside the SCSI disks, named by
 * its adapter's driver (the first ancestor of the disk's device bound
 * to one).  blk_mark_disk_dead and del_gendisk take it from the host:
 * waiting commands fail with -ENODEV; del_gendisk also waits for those
 * at the driver.  put_disk frees it, after the driver's free_disk for a
 * disk that was added.  Callers hold the world, in thread context.
 */
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/dma-mapping.h>
#include <linux/slab.h>

#include <lx_blk.h>
#include <lx_disk.h>

static int blk_disk_info(void *dev, struct lx_emul_disk_info *info)
{
	struct lx_blk_disk *bd = dev;
	struct queue_limits *lim = &bd->q.limits;
	struct device *parent = disk_to_dev(&bd->disk)->parent;
	unsigned int bsize = queue_logical_block_size(&bd->q);

	if (bd->dead)
		return -ENODEV;
	info->blocks = get_capacity(&bd->disk) >> (ilog2(bsize) - 9);
	info->block_size = bsize;
	info->max_hw_sectors = lim->max_hw_sectors;
	info->max_segments = lim->max_segments;
	info->max_segment_size = lim->max_segment_size;
	info->seg_boundary_mask = lim->seg_boundary_mask;
	info->dma_alignment = lim->dma_alignment;
	/* any physical address: the driver maps nothing through the DMA
	 * API (virtio without VIRTIO_F_ACCESS_PLATFORM), or the DMA API
	 * bounces what lies beyond its device's mask (lx_dma.c) */
	info->dma_mask = DMA_BIT_MASK(64);
	info->read_only = get_disk_ro(&bd->disk);
	strscpy(info->model, bd->disk.disk_name, sizeof(info->model));
	/* the adapter's driver: the first ancestor bound to one (nvme's
	 * disks hang under the controller's class device) */
	while (parent && !parent->driver)
		parent = parent->parent;
	if (parent)
		strscpy(info->driver, dev_driver_string(parent),
			sizeof(info->driver));
	return 0;
}

static int blk_disk_submit(void *dev, struct lx_emul_disk_cmd *cmd, gfp_t gfp)
{
	struct lx_blk_disk *bd = dev;
	unsigned int bsize = queue_logical_block_size(&bd->q);
	int err;

	if (bd->dead)
		return -ENODEV;
	err = lx_disk_check(&bd->q.limits,
			    get_capacity(&bd->disk) >> (ilog2(bsize) - 9),
			    bsize, get_disk_ro(&bd->disk), cmd);
	if (err)
		return err;
	lx_blk_submit(bd, cmd);
	return 0;
}

static const struct lx_disk_ops blk_disk_ops = {
	.info = blk_disk_info,
	.submit = blk_disk_submit,
};

/*
 * __blk_mq_alloc_disk - a disk with a request queue of @set (its
 * driver's @queuedata), Linux's default limits, one hardware context
 * per hardware queue of @set.  The disk; ERR_PTR(-ENOMEM), or
 * ERR_PTR(-EINVAL) for a set without tags.
 */
struct gendisk *__blk_mq_alloc_disk(struct blk_mq_tag_set *set,
				    void *queuedata,
				    struct lock_class_key *lkclass)
{
	struct lx_blk_disk *bd;

	if (!set->tags)
		return ERR_PTR(-EINVAL);
	bd = lx_blk_queue_alloc(set, queuedata);
	if (!bd)
		return ERR_PTR(-ENOMEM);
	bd->has_disk = true;
	bd->disk.queue = &bd->q;
	bd->q.disk = &bd->disk;
	bd->disk.part0 = &bd->part0;
	bd->disk.node_id = NUMA_NO_NODE;
	bd->part0.bd_disk = &bd->disk;
	bd->part0.bd_queue = &bd->q;
	/* the block device file system's block size, as a new bdev inode's */
	bd->inode.i_blkbits = PAGE_SHIFT;
	bd->part0.bd_inode = &bd->inode;
	device_initialize(&bd->part0.bd_device);
	return &bd->disk;
}

static struct lx_blk_disk *to_bd(struct gendisk *disk)
{
	return container_of(disk, struct lx_blk_disk, disk);
}

/*
 * device_add_disk - @disk (named) under @parent is opened for the host
 * (lx_bdev_hold: the driver's open, which may learn the medium and set
 * the capacity) and becomes a disk of the host (hd<N>); @groups (sysfs
 * attributes) are not created.  A disk the driver does not open (no
 * medium) is added but not the host's.  0; -EINVAL for a disk without
 * a name or added twice; -ENOSPC when the host has all the disks it
 * can take.  Thread context, world held.
 */
int device_add_disk(struct device *parent, struct gendisk *disk,
		    const struct attribute_group **groups)
{
	struct lx_blk_disk *bd = to_bd(disk);
	int err;

	if (!disk->disk_name[0] || test_bit(GD_ADDED, &disk->state))
		return -EINVAL;
	disk_to_dev(disk)->parent = parent;
	bd->part0.bd_dev = MKDEV(disk->major, disk->first_minor);
	set_bit(GD_ADDED, &disk->state);
	err = lx_bdev_hold(bd);
	if (err) {
		pr_info("%s: not opened (%d): not served\n", disk->disk_name,
			err);
		return 0;
	}
	bd->hd = lx_disk_add(&blk_disk_ops, bd);
	if (!bd->hd) {
		lx_bdev_let_go(bd);
		clear_bit(GD_ADDED, &disk->state);
		return -ENOSPC;
	}
	pr_info("%s: [hd%d] %llu 512-byte sectors (%llu MiB)%s\n",
		disk->disk_name, lx_disk_index(bd->hd),
		(unsigned long long)get_capacity(disk),
		(unsigned long long)get_capacity(disk) >> 11,
		get_disk_ro(disk) ? ", read-only" : "");
	return 0;
}

/* set_capacity - @disk holds @sectors 512-byte sectors. */
void set_capacity(struct gendisk *disk, sector_t sectors)
{
	WRITE_ONCE(disk->part0->bd_nr_sectors, sectors);
}

/* set_capacity_and_notify - set_capacity, with a console line when a
 * disk the host has changes size.  False: nobody is notified (no
 * uevents). */
bool set_capacity_and_notify(struct gendisk *disk, sector_t size)
{
	sector_t old = get_capacity(disk);

	set_capacity(disk, size);
	if (test_bit(GD_ADDED, &disk->state) && old != size)
		pr_info("%s: detected capacity change from %llu to %llu\n",
			disk->disk_name, (unsigned long long)old,
			(unsigned long long)size);
	return false;
}

/* set_disk_ro - writes to @disk refused (-EROFS) from now on, or
 * allowed again. */
void set_disk_ro(struct gendisk *disk, bool read_only)
{
	if (read_only)
		set_bit(GD_READ_ONLY, &disk->state);
	else
		clear_bit(GD_READ_ONLY, &disk->state);
}

/* del_gendisk - take @disk from the host: commands waiting fail with
 * -ENODEV, those at the driver are waited for, then the host's open of
 * it ends (the driver's release). */
void del_gendisk(struct gendisk *disk)
{
	struct lx_blk_disk *bd = to_bd(disk);

	if (!test_bit(GD_ADDED, &disk->state))
		return;
	if (!bd->dead) {
		bd->dead = true;
		if (bd->hd)
			lx_disk_gone(bd->hd);
	}
	set_bit(GD_DEAD, &disk->state);
	lx_blk_drain(bd);
	lx_bdev_let_go(bd);
}

/* put_disk - free @disk and its queue (the driver's free_disk first,
 * for a disk that was added; the queue destroyed first unless
 * del_gendisk or blk_mark_disk_dead killed it).  NULL: nothing. */
void put_disk(struct gendisk *disk)
{
	if (!disk)
		return;
	if (test_bit(GD_ADDED, &disk->state) && disk->fops &&
	    disk->fops->free_disk)
		disk->fops->free_disk(disk);
	blk_put_queue(disk->queue);
}

/* blk_mark_disk_dead - @disk's device is gone: its queue dies, what
 * waits fails with -ENODEV (requests at the driver end through it),
 * nothing new enters. */
void blk_mark_disk_dead(struct gendisk *disk)
{
	struct lx_blk_disk *bd = to_bd(disk);

	set_bit(GD_DEAD, &disk->state);
	blk_queue_flag_set(QUEUE_FLAG_DYING, disk->queue);
	wake_up_all(&disk->queue->mq_freeze_wq);
	if (bd->dead)
		return;
	bd->dead = true;
	if (bd->hd)
		lx_disk_gone(bd->hd);
	lx_blk_fail_waiting(bd);
}

/* Block majors given: Linux's dynamic ones count down from 254. */
#define LX_BLKDEV_MAJORS	8
static struct {
	unsigned int major;
	const char *name;
} majors[LX_BLKDEV_MAJORS];

/*
 * __register_blkdev - reserve block @major for @name (0: a free dynamic
 * one, 254 down to 234).  @probe, which Linux calls to make the disk of
 * a device number opened without one, is never called: the host opens
 * only the disks drivers added.  The major given for 0, else 0; -EBUSY
 * (taken or none free).
 */
int __register_blkdev(unsigned int major, const char *name,
		      void (*probe)(dev_t devt))
{
	int slot = -1;

	for (int i = 0; i < LX_BLKDEV_MAJORS; i++) {
		if (!majors[i].major && slot < 0)
			slot = i;
		if (major && majors[i].major == major)
			return -EBUSY;
	}
	if (slot < 0)
		return -EBUSY;
	if (!major) {
		for (major = 254; major >= 234; major--) {
			bool taken = false;

			for (int i = 0; i < LX_BLKDEV_MAJORS; i++)
				taken |= majors[i].major == major;
			if (!taken)
				break;
		}
		if (major < 234)
			return -EBUSY;
		majors[slot].major = major;
		majors[slot].name = name;
		return major;
	}
	majors[slot].major = major;
	majors[slot].name = name;
	return 0;
}

/* unregister_blkdev - give back @major (named @name). */
void unregister_blkdev(unsigned int major, const char *name)
{
	for (int i = 0; i < LX_BLKDEV_MAJORS; i++) {
		if (majors[i].major == major) {
			majors[i].major = 0;
			return;
		}
	}
	WARN(1, "unregister_blkdev(%u, %s): not registered\n", major, name);
}
