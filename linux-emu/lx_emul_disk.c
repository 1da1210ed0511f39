/* SPDX-License-Identifier: GPL-2.0-only */
/* The host's disks (lx_emul_disk.h): the list of disks of every kind, submission into the Linux world, the checks every command passes, the benchmark probe points. */
/*
 * A disk is whatever a kind of disk registered with lx_disk_add: a SCSI
 * direct-access device (lx_scsi_disk.c) or a gendisk of a blk-mq driver
 * (lx_gendisk.c).  It becomes hd<N> in registration order; the handle is
 * never freed, so it stays valid after removal (then -ENODEV).  The
 * host's calls enter the Linux world and go to the kind's operations.
 */
#include <linux/blkdev.h>
#include <linux/mm.h>

#include <lx_disk.h>
#include <lx_emul_disk.h>
#include <lx_world.h>

#define LX_DISKS_MAX	16

struct lx_emul_disk {
	int index;
	const struct lx_disk_ops *ops;
	void *dev;			/* NULL once gone */
};

static struct lx_emul_disk disks[LX_DISKS_MAX];
static int ndisks;
static void (*probe_fn)(int point);

void lx_emul_disk_probe_set(void (*fn)(int point))
{
	WRITE_ONCE(probe_fn, fn);
}

void lx_disk_probe(int point)
{
	void (*fn)(int) = READ_ONCE(probe_fn);

	if (fn)
		fn(point);
}

struct lx_emul_disk *lx_disk_add(const struct lx_disk_ops *ops, void *dev)
{
	struct lx_emul_disk *disk;

	if (ndisks == LX_DISKS_MAX) {
		pr_err("linux-emu: more than %d disks\n", LX_DISKS_MAX);
		return NULL;
	}
	disk = &disks[ndisks];
	disk->index = ndisks++;
	disk->ops = ops;
	disk->dev = dev;
	return disk;
}

int lx_disk_index(const struct lx_emul_disk *disk)
{
	return disk->index;
}

void lx_disk_gone(struct lx_emul_disk *disk)
{
	WRITE_ONCE(disk->dev, NULL);
}

int lx_disk_check(const struct queue_limits *lim, u64 blocks,
		  unsigned int block_size, bool read_only,
		  const struct lx_emul_disk_cmd *cmd)
{
	u64 bytes = (u64)cmd->blocks * block_size, sum = 0;

	if (!cmd->blocks || !cmd->segs || !cmd->nsegs || !cmd->done ||
	    cmd->lba >= blocks || cmd->blocks > blocks - cmd->lba ||
	    cmd->nsegs > lim->max_segments ||
	    bytes > (u64)lim->max_hw_sectors << 9)
		return -EINVAL;
	for (unsigned int i = 0; i < cmd->nsegs; i++) {
		u64 phys = cmd->segs[i].phys, len = cmd->segs[i].len;

		if (!len || len > lim->max_segment_size ||
		    (phys & lim->dma_alignment) || (len & lim->dma_alignment) ||
		    (phys & ~(u64)lim->seg_boundary_mask) !=
		    ((phys + len - 1) & ~(u64)lim->seg_boundary_mask) ||
		    !pfn_valid(phys >> PAGE_SHIFT) ||
		    !pfn_valid((phys + len - 1) >> PAGE_SHIFT))
			return -EINVAL;
		/* a virt boundary (nvme's PRPs): no gap inside the command */
		if ((i && (phys & lim->virt_boundary_mask)) ||
		    (i + 1 < cmd->nsegs &&
		     ((phys + len) & lim->virt_boundary_mask)))
			return -EINVAL;
		sum += len;
	}
	if (sum != bytes)
		return -EINVAL;
	if (cmd->write && read_only)
		return -EROFS;
	return 0;
}

static int in_next(void *arg)
{
	struct lx_emul_disk **pos = arg;
	struct lx_emul_disk *prev = *pos;
	int i = prev ? prev->index + 1 : 0;

	*pos = i < ndisks ? &disks[i] : NULL;
	return 0;
}

struct lx_emul_disk *lx_emul_disk_next(struct lx_emul_disk *prev)
{
	struct lx_emul_disk *pos = prev;

	lx_world_run(in_next, &pos);
	return pos;
}

struct info_args {
	struct lx_emul_disk *disk;
	struct lx_emul_disk_info *info;
};

static int in_info(void *arg)
{
	struct info_args *a = arg;
	void *dev = READ_ONCE(a->disk->dev);
	int err;

	if (!dev)
		return -ENODEV;
	memset(a->info, 0, sizeof(*a->info));
	err = a->disk->ops->info(dev, a->info);
	a->info->index = a->disk->index;
	return err;
}

int lx_emul_disk_info(struct lx_emul_disk *disk,
		      struct lx_emul_disk_info *info)
{
	struct info_args a = { disk, info };

	return lx_world_run(in_info, &a);
}

struct submit_args {
	struct lx_emul_disk *disk;
	struct lx_emul_disk_cmd *cmd;
	gfp_t gfp;
};

static int do_submit(struct submit_args *a)
{
	void *dev = READ_ONCE(a->disk->dev);

	if (!dev)
		return -ENODEV;
	return a->disk->ops->submit(dev, a->cmd, a->gfp);
}

static int in_submit(void *arg)
{
	return do_submit(arg);
}

int lx_emul_disk_submit(struct lx_emul_disk *disk,
			struct lx_emul_disk_cmd *cmd)
{
	struct submit_args a = { disk, cmd, GFP_KERNEL };

	return lx_world_run(in_submit, &a);
}

/* Per lx_world_try_enter: a task of our own (never two at once: only
 * with the world free, interrupts off). */
static struct task_struct submit_now_task = { .comm = "lx-disk-now" };

/* noinline: current changed just before (lx_world.h) */
static noinline int in_submit_now(struct submit_args *a)
{
	return do_submit(a);
}

int lx_emul_disk_submit_now(struct lx_emul_disk *disk,
			    struct lx_emul_disk_cmd *cmd)
{
	struct submit_args a = { disk, cmd, GFP_ATOMIC };
	unsigned long flags;
	int err = -EAGAIN;

	local_irq_save(flags);	/* lx_world_try_enter's condition */
	if (lx_world_try_enter(&submit_now_task)) {
		err = in_submit_now(&a);
		lx_world_try_leave();
	}
	local_irq_restore(flags);
	return err;
}
