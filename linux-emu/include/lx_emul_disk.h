/* SPDX-License-Identifier: GPL-2.0-only */
/* What the host calls in linux-emu for disks: SCSI disks that Linux host adapters found, and the disks of blk-mq drivers. */
/*
 * linux-emu plays the part of Linux's SCSI midlayer and block layer for
 * the host adapters linked into the Linux world (libata + ata_piix,
 * virtio_scsi): it allocates and registers their Scsi_Hosts, scans them,
 * and turns each command the host submits into a struct scsi_cmnd for
 * the adapter's queuecommand (the boundary of Goel & Duchamp's Figure
 * 4); for blk-mq drivers (virtio_blk, nvme) into a struct request for
 * the driver's queue_rq.  The host (mach-glue/block) sees disks only
 * through these C-typed functions; splitting requests into commands
 * within the limits below, bouncing and partitions are the host's
 * business (mach-glue/block/blk_cluster.h).  Every function here is
 * implemented on the Linux side (lx_emul_disk.c, lx_scsi_*.c,
 * lx_blk_mq.c, lx_gendisk.c).
 */
#ifndef LX_EMUL_DISK_H
#define LX_EMUL_DISK_H

/* A direct-access SCSI device (a disk) found by a scan, or a blk-mq
 * driver's gendisk, opaque to the host; valid until the driver removes
 * it (lx_emul_disk_info then says -ENODEV). */
struct lx_emul_disk;

struct lx_emul_disk_info {
	int index;			/* 0, 1, ... in discovery order: hd<index> */
	unsigned long long blocks;	/* capacity, in logical blocks */
	unsigned int block_size;	/* bytes per logical block */
	/* The request queue limits the adapter set (Linux's struct
	 * queue_limits fields of the same names, after slave_configure). */
	unsigned int max_hw_sectors;	/* 512-byte units per command */
	unsigned int max_segments;
	unsigned int max_segment_size;
	unsigned long long seg_boundary_mask;
	unsigned int dma_alignment;	/* mask */
	unsigned long long dma_mask;	/* of the adapter's struct device
					 * (all ones: no DMA device, or a
					 * driver that needs none: virtio) */
	int read_only;			/* the device reports write protect */
	char vendor[9];			/* INQUIRY strings without trailing */
	char model[17];			/* blanks, NUL-terminated (a gendisk:
					 * no vendor, its name as model) */
	char driver[16];		/* the host adapter's driver
					 * ("ata_piix", "virtio_blk"), cut to
					 * fit; empty without a DMA device */
};

/* One scatter-gather entry: physical address and length in bytes. */
struct lx_emul_disk_seg {
	unsigned long long phys;
	unsigned int len;
};

/*
 * One READ or WRITE command.  The host fills the first fields and keeps
 * the structure (and @segs) alive until @done runs; linux-emu owns
 * @priv meanwhile.
 */
struct lx_emul_disk_cmd {
	int write;			/* 0: device to memory, 1: memory to device */
	unsigned long long lba;		/* first logical block */
	unsigned int blocks;		/* > 0 */
	const struct lx_emul_disk_seg *segs;	/* within the disk's limits */
	unsigned int nsegs;
	/*
	 * done - the command finished with @result: 0 (all blocks
	 * transferred); -EIO (the device reported an error, e.g. a medium
	 * error; sense data decoded by linux-emu and named on the console);
	 * -ENODEV (the disk went away); -ETIMEDOUT (the error handler gave
	 * up).  Runs exactly once per command accepted by a submit: for
	 * a SCSI disk in softirq context (BLOCK_SOFTIRQ), for a blk-mq
	 * disk in its driver's interrupt handler (as Linux completes a
	 * request on a one-CPU queue), for a command a removed blk-mq disk
	 * never started in the removing thread; possibly with interrupts
	 * off: queue the reply, do not block, do not call lx_emul_disk_*
	 * here.
	 */
	void (*done)(struct lx_emul_disk_cmd *cmd, int result);
	void *cookie;			/* the host's */
	void *priv[4];			/* linux-emu's */
};

/* lx_emul_disk_next - the disk after @prev (NULL: the first), in
 * discovery order; NULL after the last.  Thread context. */
struct lx_emul_disk *lx_emul_disk_next(struct lx_emul_disk *prev);

/* lx_emul_disk_info - fill @info for @disk.  0; -ENODEV if @disk was
 * removed. */
int lx_emul_disk_info(struct lx_emul_disk *disk,
		      struct lx_emul_disk_info *info);

/*
 * lx_emul_disk_submit - queue @cmd for @disk and start it when the
 * adapter has room (queuecommand; commands beyond its queue depth wait
 * in order, nothing is refused for being busy).  Thread context; takes
 * the Linux world.  0: @cmd->done follows exactly once.  Refused, with
 * nothing queued and no @done: -ENODEV (disk removed); -EINVAL (zero
 * blocks, a range past the disk's end, no segments, segment lengths not
 * adding up to blocks * block_size, or beyond the disk's limits);
 * -EROFS (a write to a read-only disk).
 */
int lx_emul_disk_submit(struct lx_emul_disk *disk,
			struct lx_emul_disk_cmd *cmd);

/*
 * lx_emul_disk_submit_now - lx_emul_disk_submit from a path that must
 * not block (a device op): only if the Linux world is free now, else
 * -EAGAIN with nothing done.  Holds the world with interrupts off while
 * it queues and starts the command.  Otherwise as lx_emul_disk_submit.
 */
int lx_emul_disk_submit_now(struct lx_emul_disk *disk,
			    struct lx_emul_disk_cmd *cmd);

/*
 * Probe points of the disk glue benchmarks (make bench: disk.cmd.glue,
 * disk.int.glue).  After lx_emul_disk_probe_set(fn) linux-emu calls
 * fn(point) at each point (NULL: no calls).  fn runs in the caller's
 * context, interrupts possibly off, and may only record.
 */
enum lx_emul_disk_probe_point {
	/* a SCSI host's queuecommand, a blk-mq driver's queue_rq, is
	 * called next */
	LX_EMUL_DISK_PROBE_QUEUECOMMAND,
	/* the driver is done with a command: a SCSI host called
	 * scsi_done, a blk-mq driver blk_mq_end_request (from its
	 * ops->complete, after its own clean-up) */
	LX_EMUL_DISK_PROBE_SCSI_DONE,
};

void lx_emul_disk_probe_set(void (*fn)(int point));

#endif
