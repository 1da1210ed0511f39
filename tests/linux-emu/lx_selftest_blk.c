/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks of the linux-blk suite: linux-emu's blk-mq against a fake driver of its own (tags, passthrough requests, timeouts, busy and requeued requests, quiesce, freeze, iteration, teardown). */
/*
 * The fake driver ("lxblk-test") has a tag set of two hardware queues
 * of four tags, one reserved, and a queue without a disk; what its
 * queue_rq does is set by each check (mode): end the request at once
 * (reading: filling its data with a pattern; writing: keeping it),
 * with an error, hold it, answer busy once, or requeue it once.
 */
#include <linux/blk-mq.h>
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/scatterlist.h>
#include <linux/string.h>

#include "lx_selftest_blk.h"
#include "lx_selftest_check.h"

#define DEPTH		4
#define HW_QUEUES	2
#define BUF_LEN		6000

enum mode { END_OK, END_IOERR, HOLD, BUSY_ONCE, REQUEUE_ONCE, PIECES };

struct fake_pdu {
	int dispatches;
};

static struct blk_mq_tag_set set;
static struct request_queue *q;
static enum mode mode;
static int init_requests, init_hctxs, exit_hctxs, timeouts, ended, maps;
static struct request *held[DEPTH];
static int nheld;
static u8 seen[BUF_LEN];
/* PIECES: the sector each piece was at (the request's position) and
 * the piece that fails, or -1 */
static sector_t piece_pos[16];
static int pieces, failing_piece;
static u8 buf[BUF_LEN + 8];

static u8 pattern(unsigned int i)
{
	return (u8)(i * 7 + 3);
}

/* Fill a read's data with the pattern, or keep a write's. */
static void move_data(struct request *rq)
{
	struct scatterlist sgl[4];
	unsigned int off = 0;
	struct scatterlist *sg;
	int n, i;

	sg_init_table(sgl, ARRAY_SIZE(sgl));
	n = blk_rq_map_sg(rq->q, rq, sgl);
	for_each_sg(sgl, sg, n, i) {
		u8 *p = sg_virt(sg);

		for (unsigned int k = 0; k < sg->length; k++, off++) {
			if (op_is_write(req_op(rq)))
				seen[off] = p[k];
			else
				p[k] = pattern(off);
		}
	}
}

static blk_status_t fake_queue_rq(struct blk_mq_hw_ctx *hctx,
				  const struct blk_mq_queue_data *bd)
{
	struct request *rq = bd->rq;
	struct fake_pdu *pdu = blk_mq_rq_to_pdu(rq);

	pdu->dispatches++;
	if (mode == BUSY_ONCE && pdu->dispatches == 1)
		return BLK_STS_RESOURCE;
	blk_mq_start_request(rq);
	switch (mode) {
	case HOLD:
		held[nheld++] = rq;
		return BLK_STS_OK;
	case REQUEUE_ONCE:
		if (pdu->dispatches == 1) {
			blk_mq_requeue_request(rq, false);
			blk_mq_delay_kick_requeue_list(rq->q, 10);
			return BLK_STS_OK;
		}
		break;
	case END_IOERR:
		blk_mq_end_request(rq, BLK_STS_IOERR);
		return BLK_STS_OK;
	case PIECES:
		/* a sector at a time, as the floppy driver ends requests */
		do {
			u8 *p = bio_data(rq->bio);
			blk_status_t sts = pieces == failing_piece ?
					   BLK_STS_IOERR : BLK_STS_OK;

			for (unsigned int k = 0; k < 512; k++)
				p[k] = pattern(blk_rq_pos(rq) * 512 + k);
			if (pieces < ARRAY_SIZE(piece_pos))
				piece_pos[pieces] = blk_rq_pos(rq);
			pieces++;
			if (!blk_update_request(rq, sts, 512))
				break;
		} while (1);
		__blk_mq_end_request(rq, BLK_STS_OK);
		return BLK_STS_OK;
	default:
		break;
	}
	if (blk_rq_bytes(rq))
		move_data(rq);
	blk_mq_end_request(rq, BLK_STS_OK);
	return BLK_STS_OK;
}

static void fake_complete(struct request *rq)
{
	blk_mq_end_request(rq, BLK_STS_OK);
}

/* The first expiry re-arms, the second ends the request. */
static enum blk_eh_timer_return fake_timeout(struct request *rq)
{
	if (++timeouts == 1)
		return BLK_EH_RESET_TIMER;
	blk_mq_end_request(rq, BLK_STS_TIMEOUT);
	return BLK_EH_DONE;
}

static int fake_init_request(struct blk_mq_tag_set *s, struct request *rq,
			     unsigned int hctx_idx, unsigned int numa_node)
{
	init_requests++;
	return hctx_idx < HW_QUEUES ? 0 : -EINVAL;
}

static int fake_init_hctx(struct blk_mq_hw_ctx *hctx, void *data,
			  unsigned int hctx_idx)
{
	if (data != &set || hctx->tags != set.tags[hctx_idx])
		return -EINVAL;
	init_hctxs++;
	return 0;
}

static void fake_exit_hctx(struct blk_mq_hw_ctx *hctx, unsigned int hctx_idx)
{
	exit_hctxs++;
}

/* Hardware queue 0 for the default map, 1 for reads. */
static void fake_map_queues(struct blk_mq_tag_set *s)
{
	for (unsigned int t = 0; t < s->nr_maps; t++) {
		s->map[t].nr_queues = 1;
		s->map[t].queue_offset = t;
		blk_mq_map_queues(&s->map[t]);
	}
	maps++;
}

static const struct blk_mq_ops fake_ops = {
	.queue_rq = fake_queue_rq,
	.complete = fake_complete,
	.timeout = fake_timeout,
	.init_request = fake_init_request,
	.init_hctx = fake_init_hctx,
	.exit_hctx = fake_exit_hctx,
	.map_queues = fake_map_queues,
};

static enum rq_end_io_ret count_end(struct request *rq, blk_status_t status)
{
	ended++;
	return RQ_END_IO_FREE;
}

static struct request *get(blk_opf_t opf, blk_mq_req_flags_t flags)
{
	struct request *rq = blk_mq_alloc_request(q, opf, flags);

	if (!IS_ERR(rq))
		((struct fake_pdu *)blk_mq_rq_to_pdu(rq))->dispatches = 0;
	return rq;
}

/* Wait up to a second for @count ended requests. */
static bool wait_ended(int count)
{
	for (int i = 0; i < 1000 && READ_ONCE(ended) < count; i++)
		msleep(1);
	return READ_ONCE(ended) >= count;
}

static int blk_tags(void)
{
	struct blk_mq_tag_set bad = { .ops = &fake_ops, .nr_hw_queues = 1,
				      .queue_depth = 2, .reserved_tags = 2 };
	struct request *rq[DEPTH], *r;

	CHECK(blk_mq_alloc_tag_set(&bad) == -EINVAL);
	bad.reserved_tags = 0;
	bad.ops = NULL;
	CHECK(blk_mq_alloc_tag_set(&bad) == -EINVAL);

	set.ops = &fake_ops;
	set.nr_hw_queues = HW_QUEUES;
	set.queue_depth = DEPTH;
	set.reserved_tags = 1;
	set.cmd_size = sizeof(struct fake_pdu);
	set.timeout = 5;
	set.driver_data = &set;
	set.nr_maps = 2;
	CHECK(blk_mq_alloc_tag_set(&set) == 0);
	CHECK(init_requests == DEPTH * HW_QUEUES);
	CHECK(maps == 1);
	q = blk_mq_init_queue(&set);
	CHECK(!IS_ERR(q));
	CHECK(init_hctxs == HW_QUEUES);
	CHECK(blk_mq_tag_to_rq(set.tags[0], 0) != NULL);
	CHECK(blk_mq_tag_to_rq(set.tags[0], DEPTH) == NULL);

	/* three ordinary tags, then none; one reserved tag, then none */
	for (int i = 0; i < DEPTH - 1; i++) {
		rq[i] = get(REQ_OP_DRV_IN, BLK_MQ_REQ_NOWAIT);
		CHECK(!IS_ERR(rq[i]) && rq[i]->tag >= 1);
		CHECK(blk_mq_tag_to_rq(set.tags[0], rq[i]->tag) == rq[i]);
	}
	CHECK(PTR_ERR(get(REQ_OP_DRV_IN, BLK_MQ_REQ_NOWAIT)) == -EWOULDBLOCK);
	rq[DEPTH - 1] = get(REQ_OP_DRV_IN,
			    BLK_MQ_REQ_NOWAIT | BLK_MQ_REQ_RESERVED);
	CHECK(!IS_ERR(rq[DEPTH - 1]) && rq[DEPTH - 1]->tag == 0);
	CHECK(PTR_ERR(get(REQ_OP_DRV_IN, BLK_MQ_REQ_NOWAIT |
			  BLK_MQ_REQ_RESERVED)) == -EWOULDBLOCK);

	/* the other hardware queue has tags of its own */
	r = blk_mq_alloc_request_hctx(q, REQ_OP_DRV_IN, BLK_MQ_REQ_NOWAIT, 1);
	CHECK(!IS_ERR(r) && r->mq_hctx->queue_num == 1);
	CHECK(r->mq_hctx->type == HCTX_TYPE_READ);
	CHECK(blk_mq_unique_tag_to_hwq(blk_mq_unique_tag(r)) == 1);
	blk_mq_free_request(r);
	CHECK(PTR_ERR(blk_mq_alloc_request_hctx(q, REQ_OP_DRV_IN, 0, 1)) ==
	      -EINVAL);
	CHECK(PTR_ERR(blk_mq_alloc_request_hctx(q, REQ_OP_DRV_IN,
						BLK_MQ_REQ_NOWAIT,
						HW_QUEUES)) == -EINVAL);
	for (int i = 0; i < DEPTH; i++)
		blk_mq_free_request(rq[i]);
	r = get(REQ_OP_DRV_IN, BLK_MQ_REQ_NOWAIT);
	CHECK(!IS_ERR(r));
	blk_mq_free_request(r);

	/* the same count again: maps made anew, the queue unfrozen */
	blk_mq_update_nr_hw_queues(&set, HW_QUEUES);
	CHECK(maps == 2 && q->mq_freeze_depth == 0);
	CHECK(set.map[HCTX_TYPE_READ].mq_map[0] == 1);
	return 0;
}
IN_WORLD(blk_tags, blk_tags)

static int blk_execute(void)
{
	u8 *data = buf + 3;	/* not aligned: copied all the same */
	struct request *rq;

	mode = END_OK;
	rq = get(REQ_OP_DRV_IN, 0);
	CHECK(!IS_ERR(rq));
	CHECK(blk_rq_map_kern(q, rq, data, 0, GFP_KERNEL) == -EINVAL);
	CHECK(blk_rq_map_kern(q, rq, data, BUF_LEN, GFP_KERNEL) == 0);
	CHECK(blk_rq_bytes(rq) == BUF_LEN && rq->bio);
	memset(data, 0, BUF_LEN);
	CHECK(blk_execute_rq(rq, false) == BLK_STS_OK);
	blk_mq_free_request(rq);
	for (unsigned int i = 0; i < BUF_LEN; i++)
		CHECK(data[i] == pattern(i));

	rq = get(REQ_OP_DRV_OUT, 0);
	CHECK(!IS_ERR(rq));
	for (unsigned int i = 0; i < BUF_LEN; i++)
		data[i] = ~pattern(i);
	CHECK(blk_rq_map_kern(q, rq, data, BUF_LEN, GFP_KERNEL) == 0);
	CHECK(blk_execute_rq(rq, true) == BLK_STS_OK);
	blk_mq_free_request(rq);
	for (unsigned int i = 0; i < BUF_LEN; i++)
		CHECK(seen[i] == (u8)~pattern(i));

	mode = END_IOERR;
	rq = get(REQ_OP_DRV_IN, 0);
	CHECK(!IS_ERR(rq));
	CHECK(blk_execute_rq(rq, false) == BLK_STS_IOERR);
	blk_mq_free_request(rq);
	return 0;
}
IN_WORLD(blk_execute, blk_execute)

static int blk_timeout(void)
{
	struct request *rq;
	unsigned long start = jiffies;

	mode = HOLD;
	nheld = 0;
	timeouts = 0;
	rq = get(REQ_OP_DRV_IN, 0);
	CHECK(!IS_ERR(rq));
	CHECK(blk_execute_rq(rq, false) == BLK_STS_TIMEOUT);
	blk_mq_free_request(rq);
	CHECK(timeouts == 2);
	/* two expiries of the set's timeout, 5 ticks each */
	CHECK(time_after_eq(jiffies, start + 2 * 5));
	nheld = 0;
	return 0;
}
IN_WORLD(blk_timeout, blk_timeout)

static int blk_busy_and_requeue(void)
{
	struct request *rq;

	mode = BUSY_ONCE;
	rq = get(REQ_OP_DRV_IN, 0);
	CHECK(!IS_ERR(rq));
	CHECK(blk_execute_rq(rq, false) == BLK_STS_OK);
	CHECK(((struct fake_pdu *)blk_mq_rq_to_pdu(rq))->dispatches == 2);
	blk_mq_free_request(rq);

	mode = REQUEUE_ONCE;
	rq = get(REQ_OP_DRV_IN, 0);
	CHECK(!IS_ERR(rq));
	CHECK(blk_execute_rq(rq, false) == BLK_STS_OK);
	CHECK(((struct fake_pdu *)blk_mq_rq_to_pdu(rq))->dispatches == 2);
	blk_mq_free_request(rq);
	return 0;
}
IN_WORLD(blk_busy_and_requeue, blk_busy_and_requeue)

static int blk_quiesce(void)
{
	struct request *rq;

	mode = END_OK;
	ended = 0;
	blk_mq_quiesce_queue(q);
	blk_mq_quiesce_queue(q);	/* nested */
	rq = get(REQ_OP_DRV_IN, 0);
	CHECK(!IS_ERR(rq));
	rq->end_io = count_end;
	blk_execute_rq_nowait(rq, false);
	msleep(20);
	CHECK(ended == 0 && blk_mq_rq_state(rq) == MQ_RQ_IDLE);
	blk_mq_unquiesce_queue(q);
	msleep(20);
	CHECK(ended == 0);
	blk_mq_unquiesce_queue(q);
	CHECK(wait_ended(1));
	return 0;
}
IN_WORLD(blk_quiesce, blk_quiesce)

static int blk_freeze(void)
{
	struct request *rq = get(REQ_OP_DRV_IN, 0);

	CHECK(!IS_ERR(rq));
	blk_freeze_queue_start(q);
	CHECK(blk_mq_freeze_queue_wait_timeout(q, 3) == 0);
	CHECK(PTR_ERR(get(REQ_OP_DRV_IN, BLK_MQ_REQ_NOWAIT)) == -EAGAIN);
	blk_mq_free_request(rq);
	CHECK(blk_mq_freeze_queue_wait_timeout(q, 3) > 0);
	blk_mq_unfreeze_queue(q);
	rq = get(REQ_OP_DRV_IN, BLK_MQ_REQ_NOWAIT);
	CHECK(!IS_ERR(rq));
	blk_mq_free_request(rq);
	return 0;
}
IN_WORLD(blk_freeze, blk_freeze)

static bool count_busy(struct request *rq, void *data)
{
	(*(int *)data)++;
	return true;
}

static int blk_busy_iter(void)
{
	int busy = 0;

	mode = HOLD;
	nheld = 0;
	ended = 0;
	for (int i = 0; i < 2; i++) {
		struct request *rq = get(REQ_OP_DRV_IN, 0);

		CHECK(!IS_ERR(rq));
		rq->timeout = 100 * HZ;
		rq->end_io = count_end;
		blk_execute_rq_nowait(rq, false);
	}
	CHECK(nheld == 2);
	blk_mq_tagset_busy_iter(&set, count_busy, &busy);
	CHECK(busy == 2);
	for (int i = 0; i < 2; i++)
		blk_mq_complete_request(held[i]);
	blk_mq_tagset_wait_completed_request(&set);
	CHECK(ended == 2);
	busy = 0;
	blk_mq_tagset_busy_iter(&set, count_busy, &busy);
	CHECK(busy == 0);
	nheld = 0;
	return 0;
}
IN_WORLD(blk_busy_iter, blk_busy_iter)

static int bio_ends, bio_status;

static void count_bio_end(struct bio *bio)
{
	bio_ends++;
	bio_status = bio->bi_status;
}

/* Submit a read of @vecs vectors of 512 bytes each at @sector of
 * @disk into @page; 0 or the line of the first failed check. */
static int read_bio(struct gendisk *disk, struct page *page,
		    unsigned int vecs, sector_t sector)
{
	struct bio_vec table[8];
	struct bio bio;

	bio_init(&bio, disk->part0, table, ARRAY_SIZE(table), REQ_OP_READ);
	for (unsigned int i = 0; i < vecs; i++)
		CHECK(bio_add_page(&bio, page, 512, i * 1024) == 512);
	bio.bi_iter.bi_sector = sector;
	bio.bi_end_io = count_bio_end;
	bio_ends = 0;
	bio_status = -1;
	pieces = 0;
	submit_bio(&bio);
	CHECK(bio_ends == 1);
	return 0;
}

static int blk_bio(void)
{
	struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	struct bio_vec table[2];
	struct gendisk *disk;
	struct bio bio;
	int hctxs = exit_hctxs, err;
	u8 *p;

	CHECK(page);
	p = page_address(page);
	disk = blk_mq_alloc_disk(&set, NULL);
	CHECK(!IS_ERR(disk));
	CHECK(disk->queue->disk == disk);
	set_capacity(disk, 64);
	bio_init(&bio, disk->part0, table, ARRAY_SIZE(table), REQ_OP_READ);
	CHECK(bio_add_page(&bio, page, 512, 0) == 512);
	CHECK(bio_add_page(&bio, page, 512, 512) == 512);
	CHECK(bio_add_page(&bio, page, 512, 1024) == 0);	/* table full */

	/* four pieces into every other 512 bytes of the page, each at its
	 * sector, the bio ended once without error */
	mode = PIECES;
	failing_piece = -1;
	err = read_bio(disk, page, 4, 8);
	if (err)
		return err;
	CHECK(bio_status == BLK_STS_OK);
	CHECK(pieces == 4);
	for (int i = 0; i < 4; i++) {
		CHECK(piece_pos[i] == 8 + i);
		CHECK(p[i * 1024] == pattern((8 + i) * 512));
		CHECK(p[i * 1024 + 511] == pattern((8 + i) * 512 + 511));
		CHECK(p[i * 1024 + 512] == 0);
	}
	/* the third piece fails: the driver goes on, the bio ends with
	 * the error */
	failing_piece = 2;
	err = read_bio(disk, page, 4, 0);
	if (err)
		return err;
	CHECK(pieces == 4);
	CHECK(bio_status == BLK_STS_IOERR);
	/* past the disk's end: ended at once, the driver sees nothing */
	err = read_bio(disk, page, 2, 63);
	if (err)
		return err;
	CHECK(pieces == 0);
	CHECK(bio_status == BLK_STS_IOERR);

	put_disk(disk);
	CHECK(exit_hctxs == hctxs + HW_QUEUES);
	exit_hctxs = hctxs;
	__free_page(page);
	mode = END_OK;
	return 0;
}
IN_WORLD(blk_bio, blk_bio)

static int blk_teardown(void)
{
	blk_mq_destroy_queue(q);
	CHECK(blk_queue_dying(q));
	CHECK(PTR_ERR(blk_mq_alloc_request(q, REQ_OP_DRV_IN, 0)) == -ENODEV);
	blk_put_queue(q);
	CHECK(exit_hctxs == HW_QUEUES);
	blk_mq_free_tag_set(&set);
	CHECK(set.tags == NULL);
	return 0;
}
IN_WORLD(blk_teardown, blk_teardown)
