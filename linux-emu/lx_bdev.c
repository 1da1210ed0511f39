/* SPDX-License-Identifier: GPL-2.0-only */
/* The host's open of a disk (lx_bdev_hold, lx_bdev_let_go) and media changes (bdev_check_media_change). */
/*
 * There are no block device files: the host holds each disk it serves
 * open, as a mounted file system would, from device_add_disk until
 * del_gendisk (lx_gendisk.c).  So a driver whose disks learn their
 * medium at open (the floppy driver probes the format there, with a
 * bio of its own) has them ready before the host reads their capacity.
 * Media change events are asked of the driver when it asks
 * (bdev_check_media_change, from its open); nothing polls them, and a
 * medium changed while the host holds the disk is not seen.
 */
#include <linux/blkdev.h>
#include <linux/fs.h>

#include <lx_blk.h>

int lx_bdev_hold(struct lx_blk_disk *bd)
{
	const struct block_device_operations *fops = bd->disk.fops;
	fmode_t mode = FMODE_READ | FMODE_WRITE;
	int err;

	if (!fops || !fops->open) {
		bd->open_mode = mode;
		return 0;
	}
	err = fops->open(&bd->part0, mode);
	if (err == -EROFS) {
		mode = FMODE_READ;
		err = fops->open(&bd->part0, mode);
		if (!err)
			set_disk_ro(&bd->disk, true);
	}
	if (err)
		return err;
	bd->open_mode = mode;
	return 0;
}

void lx_bdev_let_go(struct lx_blk_disk *bd)
{
	const struct block_device_operations *fops = bd->disk.fops;
	fmode_t mode = bd->open_mode;

	if (!mode)
		return;
	bd->open_mode = 0;
	if (fops && fops->release)
		fops->release(&bd->disk, mode);
}

/*
 * bdev_check_media_change - ask @bdev's driver (check_events) whether
 * its medium changed.  True if it did: the caller revalidates the disk
 * (there is no page cache to drop).  Thread context.
 */
bool bdev_check_media_change(struct block_device *bdev)
{
	struct gendisk *disk = bdev->bd_disk;
	unsigned int events = 0;

	if (disk->fops->check_events)
		events = disk->fops->check_events(disk,
						  DISK_EVENT_MEDIA_CHANGE);
	if (!(events & DISK_EVENT_MEDIA_CHANGE))
		return false;
	set_bit(GD_NEED_PART_SCAN, &disk->state);
	return true;
}
