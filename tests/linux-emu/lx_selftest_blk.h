/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks of the linux-blk suite that run in the Linux world (lx_selftest_blk.c). */
/*
 * Each gives 0 or the line of the first failed check, and runs after
 * the one before it (they share the fake driver's tag set and queue).
 * C types only: tests/kernel/linux_blk_test.c includes this.
 */
#ifndef TESTS_LINUX_EMU_LX_SELFTEST_BLK_H
#define TESTS_LINUX_EMU_LX_SELFTEST_BLK_H

/* Tag sets refused (reserved tags not below the depth, no ops); the
 * fake driver's set and queue: init_request per request, its
 * map_queues (a read queue), init_hctx per hardware queue with its
 * tags; ordinary and reserved tags run out (-EWOULDBLOCK with
 * BLK_MQ_REQ_NOWAIT); the second hardware queue's own tags and type;
 * blk_mq_alloc_request_hctx without NOWAIT or past the queues refused
 * (-EINVAL); tags given back are taken again; the same number of
 * hardware queues again remaps and unfreezes. */
int lx_emul_selftest_blk_tags(void);

/* blk_rq_map_kern of an unaligned buffer: a read gets what the driver
 * put in its data, a write gives the driver the buffer; no length is
 * -EINVAL; a request the driver fails ends with its status. */
int lx_emul_selftest_blk_execute(void);

/* A request the driver holds: its timeout handler is asked after the
 * set's timeout, re-arms once, then ends it (BLK_STS_TIMEOUT). */
int lx_emul_selftest_blk_timeout(void);

/* A busy answer is tried again; a requeued request is dispatched again
 * when its queue's requeue list is kicked. */
int lx_emul_selftest_blk_busy_and_requeue(void);

/* A request inserted into a queue quiesced twice waits until the
 * second unquiesce. */
int lx_emul_selftest_blk_quiesce(void);

/* A freeze waits for the queue's last request; meanwhile an allocation
 * without waiting is refused (-EAGAIN); after the unfreeze it works. */
int lx_emul_selftest_blk_freeze(void);

/* blk_mq_tagset_busy_iter sees the two requests the driver holds,
 * none once it completed them (blk_mq_complete_request, end_io). */
int lx_emul_selftest_blk_busy_iter(void);

/* A disk of the fake driver's set: bio_add_page stops at the bio's
 * table; submit_bio of a read ended a sector at a time
 * (blk_update_request) gets each piece at its sector and ends the bio
 * once, with the error of a failed piece; a bio past the capacity
 * ends at once with BLK_STS_IOERR; put_disk runs exit_hctx. */
int lx_emul_selftest_blk_bio(void);

/* blk_mq_destroy_queue: the queue dying refuses allocations
 * (-ENODEV); blk_put_queue runs exit_hctx per hardware queue; the tag
 * set is freed. */
int lx_emul_selftest_blk_teardown(void);

#endif
