/* SPDX-License-Identifier: GPL-2.0-only */
/* Between lx_blk_mq.c and lx_gendisk.c: blk-mq queues and their disks (Linux types; never included by Graft code). */
#ifndef LX_BLK_H
#define LX_BLK_H

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/list.h>
#include <linux/workqueue.h>

#include <lx_emul_disk.h>

/* A request of a tag set: the host command it carries while in use. */
struct lx_blk_rq {
	struct list_head link;		/* on the tag set's free list */
	struct lx_emul_disk_cmd *cmd;
	struct request rq;		/* last: the driver's cmd_size follows */
};

/* A disk of a blk-mq driver with its request queue (one per
 * __blk_mq_alloc_disk): what the queue, the disk and part0 are. */
struct lx_blk_disk {
	struct request_queue q;
	struct gendisk disk;
	struct block_device part0;
	struct list_head pending;	/* host commands, lx_blk_link order */
	struct delayed_work run_work;	/* dispatch outside the completion */
	unsigned int in_flight;
	bool dead;			/* del_gendisk: nothing more */
	struct lx_emul_disk *hd;	/* once device_add_disk made it one */
	unsigned int nr_hw;
	struct blk_mq_hw_ctx hctx[];	/* nr_hw of them */
};

static inline struct lx_blk_disk *lx_blk_disk(struct request_queue *q)
{
	return container_of(q, struct lx_blk_disk, q);
}

/* lx_blk_mq.c */
/* lx_blk_queue_init - @bd's queue for @set: limits as Linux's
 * defaults, hardware contexts, dispatch work. */
void lx_blk_queue_init(struct lx_blk_disk *bd, struct blk_mq_tag_set *set);
/* lx_blk_submit - queue host command @cmd (checked) on @bd and start
 * what can start.  World held. */
void lx_blk_submit(struct lx_blk_disk *bd, struct lx_emul_disk_cmd *cmd);
/* lx_blk_drain - fail @bd's pending commands with -ENODEV and wait for
 * those at the driver.  Thread context, world held (let go to wait). */
void lx_blk_drain(struct lx_blk_disk *bd);

#endif
