/* SPDX-License-Identifier: GPL-2.0-only */
/* blk_mq_unique_tag: a request's tag with its hardware queue. */
/*
 * The emulated midlayer has one queue of command slots per host
 * (lx_scsi_cmd.c): every request is on hardware queue 0, whatever
 * nr_hw_queues the adapter announced, and rq->mq_hctx is not set.
 */
#include <linux/blk-mq.h>

/* blk_mq_unique_tag - @rq's tag, its hardware queue (0) in the high
 * bits, as blk_mq_unique_tag_to_hwq() and _to_tag() take it apart. */
u32 blk_mq_unique_tag(struct request *rq)
{
	return (0u << BLK_MQ_UNIQUE_TAG_BITS) |
	       (rq->tag & BLK_MQ_UNIQUE_TAG_MASK);
}
