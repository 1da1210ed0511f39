/* SPDX-License-Identifier: GPL-2.0-only */
/* Between the lx_blk_*.c and lx_gendisk.c files: tag sets, request queues and their disks (Linux types; never included by Graft code). */
#ifndef LX_BLK_H
#define LX_BLK_H

#include <linux/bio.h>
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/fs.h>
#include <linux/list.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <lx_emul_disk.h>

#define LX_BLK_INLINE_VECS	4

/* A request of a tag set, with the one bio that holds its data (the
 * host command's segments, or blk_rq_map_kern's copy of a buffer). */
struct lx_blk_rq {
	struct list_head link;		/* free list, or a queue's dispatch list */
	struct lx_emul_disk_cmd *cmd;	/* the host command carried, or NULL */
	void *copy;			/* blk_rq_map_kern: pages of the copy */
	void *copy_of;			/* ... and the caller's buffer */
	unsigned int copy_len;
	unsigned int copy_order;
	bool at_driver;			/* given to queue_rq, not ended or back */
	struct bio bio;
	struct bio_vec vecs[LX_BLK_INLINE_VECS];
	struct request rq;		/* last: the driver's cmd_size follows */
};

static inline struct lx_blk_rq *lx_blk_slot(struct request *rq)
{
	return container_of(rq, struct lx_blk_rq, rq);
}

/* The tags of one hardware queue of a set (set->tags[i] points at the
 * struct blk_mq_tags inside, which Linux's inline helpers read). */
struct lx_blk_tags {
	struct blk_mq_tags tags;	/* nr_tags, nr_reserved_tags, rqs[] */
	struct list_head free;		/* tags from nr_reserved_tags on */
	struct list_head free_reserved;
	wait_queue_head_t wait;		/* blk_mq_alloc_request waiting */
};

static inline struct lx_blk_tags *lx_blk_tags(struct blk_mq_tags *tags)
{
	return container_of(tags, struct lx_blk_tags, tags);
}

/*
 * A request queue: of a disk (__blk_mq_alloc_disk: the disk and part0
 * used) or alone (blk_mq_init_queue: an admin queue, disk unused).
 * Its users (Linux's q_usage_counter) are its allocated requests and
 * the host commands that entered it; a freeze waits for none.
 */
struct lx_blk_disk {
	struct request_queue q;
	struct gendisk disk;
	struct block_device part0;
	struct inode inode;		/* part0's bd_inode: its block size */
	fmode_t open_mode;		/* the host's open of the disk, or 0 */
	struct list_head pending;	/* host commands waiting for a tag */
	struct list_head held;		/* host commands come while frozen */
	struct list_head dispatch;	/* requests waiting for queue_rq */
	struct delayed_work run_work;	/* dispatch outside the completion */
	unsigned int users;
	unsigned int in_flight;		/* requests at the driver */
	unsigned int dispatching;	/* in queue_rq (a blocking driver) */
	unsigned int refs;		/* blk_put_queue frees at 0 */
	bool dead;			/* del_gendisk: nothing more */
	bool has_disk;
	struct lx_emul_disk *hd;	/* once device_add_disk made it one */
	unsigned int nr_hw;
	struct blk_mq_hw_ctx hctx[];	/* nr_hw of them */
};

static inline struct lx_blk_disk *lx_blk_disk(struct request_queue *q)
{
	return container_of(q, struct lx_blk_disk, q);
}

/* lx_bdev.c */
/* lx_bdev_hold - open @bd's disk for the host (the driver's open, read
 * and write, or read-only when the driver refuses writes: the disk
 * becomes read-only).  0; the driver's open's -errno.  Thread context,
 * world held. */
int lx_bdev_hold(struct lx_blk_disk *bd);
/* lx_bdev_let_go - close what lx_bdev_hold opened (nothing if it did
 * not).  Thread context, world held. */
void lx_bdev_let_go(struct lx_blk_disk *bd);

/* lx_blk_queue.c */
/* lx_blk_queue_alloc - a queue of @set with Linux's default limits,
 * hardware contexts (init_hctx run), on the set's list.  NULL: no
 * memory, or init_hctx failed.  Thread context. */
struct lx_blk_disk *lx_blk_queue_alloc(struct blk_mq_tag_set *set,
				       void *queuedata);
/* lx_blk_queue_free - undo lx_blk_queue_alloc (exit_hctx run); no
 * request of the queue may be left. */
void lx_blk_queue_free(struct lx_blk_disk *bd);

/* lx_blk_mq.c */
/* lx_blk_submit - queue host command @cmd (checked) on @bd and start
 * what can start; held while the queue is frozen.  World held. */
void lx_blk_submit(struct lx_blk_disk *bd, struct lx_emul_disk_cmd *cmd);
/* lx_blk_fail_waiting - fail @bd's waiting host commands with -ENODEV
 * and its waiting requests with BLK_STS_OFFLINE.  World held. */
void lx_blk_fail_waiting(struct lx_blk_disk *bd);
/* lx_blk_drain - stop @bd's dispatch works, lx_blk_fail_waiting, and
 * wait for its requests at the driver.  Thread context, world held (let
 * go to wait). */
void lx_blk_drain(struct lx_blk_disk *bd);
/* lx_blk_dispatch_init - @bd's dispatch and requeue works. */
void lx_blk_dispatch_init(struct lx_blk_disk *bd);
/* lx_blk_run_async - dispatch @bd's waiting work from a worker.  Any
 * context. */
void lx_blk_run_async(struct lx_blk_disk *bd, unsigned long delay);
/* lx_blk_run - dispatch what can go to the driver now.  Bottom halves
 * off. */
void lx_blk_run(struct lx_blk_disk *bd);
/* lx_blk_rq_init - @slot (a free tag of @hctx) becomes a request of
 * @bd for @opf with no data. */
void lx_blk_rq_init(struct lx_blk_disk *bd, struct blk_mq_hw_ctx *hctx,
		    struct lx_blk_rq *slot, blk_opf_t opf);

/* lx_blk_bio_set - @slot's bio holds @n vectors @vecs (@size bytes
 * from @sector) for @opf, and is its request's data. */
void lx_blk_bio_set(struct lx_blk_rq *slot, struct bio_vec *vecs,
		    unsigned int n, unsigned int size, sector_t sector,
		    blk_opf_t opf);

/* lx_blk_mq_tag.c */
/* lx_blk_tag_get - a free request of @tags (from the reserved ones if
 * @reserved), or NULL.  Any context. */
struct lx_blk_rq *lx_blk_tag_get(struct lx_blk_tags *tags, bool reserved);
/* lx_blk_tag_put - @slot's tag is free again; allocators waiting for
 * one are woken, and the set's queues with work waiting run again (from
 * a worker).  Any context. */
void lx_blk_tag_put(struct blk_mq_tag_set *set, struct lx_blk_tags *tags,
		    struct lx_blk_rq *slot);
/* lx_blk_hctx_for - the hardware queue of @set serving CPU 0 for @opf
 * (a read uses HCTX_TYPE_READ when the set maps read queues). */
unsigned int lx_blk_hctx_for(struct blk_mq_tag_set *set, blk_opf_t opf);

/* lx_blk_timeout.c */
/* lx_blk_timeout_init - @bd's request timer and its work (the
 * timeout workqueue made first).  0; -ENOMEM.  Thread context. */
int lx_blk_timeout_init(struct lx_blk_disk *bd);
/* lx_blk_timeout_add - @rq started: its deadline is now + its timeout
 * (the queue's if it has none). */
void lx_blk_timeout_add(struct request *rq);

#endif
