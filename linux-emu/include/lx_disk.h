/* SPDX-License-Identifier: GPL-2.0-only */
/* Between lx_emul_disk.c and the kinds of disk behind it (SCSI disks, blk-mq gendisks): registration, checks, probe points (Linux types; never included by Graft code). */
#ifndef LX_DISK_H
#define LX_DISK_H

#include <linux/blkdev.h>

#include <lx_emul_disk.h>

/* What a kind of disk does for lx_emul_disk.c; both run holding the
 * world, @dev the pointer given to lx_disk_add. */
struct lx_disk_ops {
	/* fill @info (all but index): 0; -ENODEV for a disk gone */
	int (*info)(void *dev, struct lx_emul_disk_info *info);
	/* check @cmd (lx_disk_check) and queue it, memory from @gfp:
	 * 0 (cmd->done follows exactly once) or lx_emul_disk_submit's
	 * refusals */
	int (*submit)(void *dev, struct lx_emul_disk_cmd *cmd, gfp_t gfp);
};

/* lx_disk_add - make @dev a disk of the host, hd<N> in order; the
 * handle (never freed), or NULL when LX_DISKS_MAX are known (named on
 * the console).  World held. */
struct lx_emul_disk *lx_disk_add(const struct lx_disk_ops *ops, void *dev);
/* lx_disk_index - the N of hd<N>. */
int lx_disk_index(const struct lx_emul_disk *disk);
/* lx_disk_gone - @disk went away: info and submit say -ENODEV from now
 * on.  World held. */
void lx_disk_gone(struct lx_emul_disk *disk);
/*
 * lx_disk_check - whether @cmd fits a disk of @blocks blocks of
 * @block_size bytes with queue limits @lim: 0; -EINVAL (no done, no
 * blocks or segments, past the end, beyond the limits, a segment
 * other than the first starting or other than the last ending off the
 * virt boundary, segments not adding up); -EROFS (a write and @read_only).
 */
int lx_disk_check(const struct queue_limits *lim, u64 blocks,
		  unsigned int block_size, bool read_only,
		  const struct lx_emul_disk_cmd *cmd);
/* lx_disk_probe - call the function lx_emul_disk_probe_set installed
 * (LX_EMUL_DISK_PROBE_*), if any.  Any context. */
void lx_disk_probe(int point);

#endif
