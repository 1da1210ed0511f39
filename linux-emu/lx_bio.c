/* SPDX-License-Identifier: GPL-2.0-only */
/* Bios a driver makes itself: bio_init, bio_add_page, submit_bio (one request of a blk-mq disk), bio_endio, __bio_advance. */
/*
 * Linux's block/bio.c and blk-core.c without bio sets, splitting,
 * merging, plugging or cgroups.  A submitted bio becomes one request of
 * its disk's queue (blk_mq_alloc_request: it waits for a tag), its data
 * the bio itself; the driver ends it piece by piece with
 * blk_update_request (lx_blk_mq.c), which ends the bio once all its
 * bytes are done, or at once with blk_mq_end_request, whose end_io here
 * ends what is left.  A bio beyond the disk's end, or larger than its
 * queue takes in one request (Linux would split it), ends with
 * BLK_STS_IOERR, the second with a warning.
 */
#include <linux/bio.h>
#include <linux/blk-mq.h>
#include <linux/blkdev.h>

#include <lx_blk.h>

/* bio_init - @bio, empty, for @opf on @bdev, with @max_vecs vectors at
 * @table. */
void bio_init(struct bio *bio, struct block_device *bdev,
	      struct bio_vec *table, unsigned short max_vecs, blk_opf_t opf)
{
	memset(bio, 0, sizeof(*bio));
	bio->bi_bdev = bdev;
	bio->bi_opf = opf;
	atomic_set(&bio->__bi_remaining, 1);
	atomic_set(&bio->__bi_cnt, 1);
	bio->bi_io_vec = table;
	bio->bi_max_vecs = max_vecs;
}

/* bio_add_page - @len bytes of @page from @offset at the end of @bio's
 * data, in a vector of their own.  @len; 0 when @bio's vectors are all
 * used or its size would overflow. */
int bio_add_page(struct bio *bio, struct page *page, unsigned int len,
		 unsigned int offset)
{
	struct bio_vec *bv;

	if (bio->bi_vcnt >= bio->bi_max_vecs ||
	    bio->bi_iter.bi_size > UINT_MAX - len)
		return 0;
	bv = &bio->bi_io_vec[bio->bi_vcnt++];
	bv->bv_page = page;
	bv->bv_len = len;
	bv->bv_offset = offset;
	bio->bi_iter.bi_size += len;
	return len;
}

/* __bio_advance - @bio's position moves @bytes on (fewer than its
 * size). */
void __bio_advance(struct bio *bio, unsigned int bytes)
{
	bio_advance_iter(bio, &bio->bi_iter, bytes);
}

/* bio_endio - @bio is over (its bi_status says how): its bi_end_io
 * runs, once the last of its chained users (bio_inc_remaining) ended
 * it.  Any context. */
void bio_endio(struct bio *bio)
{
	if (bio_flagged(bio, BIO_CHAIN)) {
		if (!atomic_dec_and_test(&bio->__bi_remaining))
			return;
		bio_clear_flag(bio, BIO_CHAIN);
	}
	if (bio->bi_end_io)
		bio->bi_end_io(bio);
}

/* A submitted bio's request ended: what blk_update_request left of the
 * bio ends with the request's status. */
static enum rq_end_io_ret bio_rq_end_io(struct request *rq,
					blk_status_t error)
{
	struct bio *bio = rq->bio;

	rq->bio = NULL;
	rq->biotail = NULL;
	if (bio) {
		if (error)
			bio->bi_status = error;
		bio_endio(bio);
	}
	return RQ_END_IO_FREE;
}

static void bio_fail(struct bio *bio, blk_status_t status)
{
	bio->bi_status = status;
	bio_endio(bio);
}

/*
 * submit_bio - start @bio on its disk: one request carrying it, queued
 * behind those waiting.  The bio ends through bio_endio: BLK_STS_IOERR
 * for a bio past the disk's end, beyond the queue's limits (not split)
 * or on a dead disk.  Thread context (waits for a tag), world held.
 */
void submit_bio(struct bio *bio)
{
	struct gendisk *disk = bio->bi_bdev->bd_disk;
	struct request_queue *q = disk->queue;
	unsigned int bytes = bio->bi_iter.bi_size;
	struct request *rq;

	if (bio->bi_iter.bi_sector + (bytes >> 9) > get_capacity(disk)) {
		bio_fail(bio, BLK_STS_IOERR);
		return;
	}
	if (WARN_ONCE(bytes > queue_max_hw_sectors(q) << 9 ||
		      bio->bi_vcnt > queue_max_segments(q),
		      "%s: a bio of %u bytes in %u vectors: beyond the queue's limits, and bios are not split\n",
		      disk->disk_name, bytes, bio->bi_vcnt)) {
		bio_fail(bio, BLK_STS_IOERR);
		return;
	}
	rq = blk_mq_alloc_request(q, bio->bi_opf, 0);
	if (IS_ERR(rq)) {
		bio_fail(bio, BLK_STS_IOERR);
		return;
	}
	rq->__sector = bio->bi_iter.bi_sector;
	rq->__data_len = bytes;
	rq->nr_phys_segments = bio->bi_vcnt;
	rq->bio = bio;
	rq->biotail = bio;
	rq->end_io = bio_rq_end_io;
	blk_execute_rq_nowait(rq, false);
}
