/* SPDX-License-Identifier: GPL-2.0-only */
/* Request queue limits a block driver sets at probe: block sizes, I/O hints, segment size, discard and write-zeroes sizes, the write cache (the rest of Linux's block/blk-settings.c that drivers here call is in lx_scsi_device.c). */
/*
 * The host reads the limits that shape its commands (lx_emul_disk_info:
 * sectors per command, segments, segment size, boundary, alignment) and
 * the logical block size; the others are kept as Linux keeps them for
 * whoever would read them (no discard, write-zeroes or secure-erase
 * commands are sent, no flushes: the host has no such requests).
 */
#include <linux/blkdev.h>

/* blk_queue_logical_block_size - the device addresses @size-byte
 * blocks; the physical block size and minimum I/O follow if smaller,
 * the sectors per command are rounded down to whole blocks. */
void blk_queue_logical_block_size(struct request_queue *q, unsigned int size)
{
	struct queue_limits *lim = &q->limits;

	lim->logical_block_size = size;
	if (lim->physical_block_size < size)
		lim->physical_block_size = size;
	if (lim->io_min < lim->physical_block_size)
		lim->io_min = lim->physical_block_size;
	lim->max_hw_sectors = round_down(lim->max_hw_sectors, size >> 9);
	lim->max_sectors = round_down(lim->max_sectors, size >> 9);
}

/* blk_queue_physical_block_size - the device writes @size bytes at
 * once (at least the logical block); minimum I/O follows. */
void blk_queue_physical_block_size(struct request_queue *q, unsigned int size)
{
	struct queue_limits *lim = &q->limits;

	lim->physical_block_size = max(size, lim->logical_block_size);
	if (lim->io_min < lim->physical_block_size)
		lim->io_min = lim->physical_block_size;
}

/* blk_queue_alignment_offset - the first aligned logical block is
 * @offset bytes into the device. */
void blk_queue_alignment_offset(struct request_queue *q, unsigned int offset)
{
	q->limits.alignment_offset =
		offset & (q->limits.physical_block_size - 1);
	q->limits.misaligned = 0;
}

/* blk_queue_io_min - the smallest I/O without a penalty (at least the
 * physical block). */
void blk_queue_io_min(struct request_queue *q, unsigned int min)
{
	q->limits.io_min = max(min, q->limits.physical_block_size);
}

/* blk_queue_io_opt - the device's preferred I/O size. */
void blk_queue_io_opt(struct request_queue *q, unsigned int opt)
{
	q->limits.io_opt = opt;
}

/* blk_queue_max_segment_size - at most @max bytes per scatter-gather
 * entry (a page at least, as Linux demands). */
void blk_queue_max_segment_size(struct request_queue *q, unsigned int max)
{
	if (max < PAGE_SIZE) {
		max = PAGE_SIZE;
		pr_info("%s: set to minimum %u\n", __func__, max);
	}
	q->limits.max_segment_size = max;
}

/* blk_queue_max_discard_sectors - the largest discard the device takes. */
void blk_queue_max_discard_sectors(struct request_queue *q,
				   unsigned int max_discard_sectors)
{
	q->limits.max_hw_discard_sectors = max_discard_sectors;
	q->limits.max_discard_sectors = max_discard_sectors;
}

/* blk_queue_max_discard_segments - ranges per discard command. */
void blk_queue_max_discard_segments(struct request_queue *q,
				    unsigned short max_segments)
{
	q->limits.max_discard_segments = max_segments;
}

/* blk_queue_max_secure_erase_sectors - the largest secure erase. */
void blk_queue_max_secure_erase_sectors(struct request_queue *q,
					unsigned int max_sectors)
{
	q->limits.max_secure_erase_sectors = max_sectors;
}

/* blk_queue_max_write_zeroes_sectors - the largest write-zeroes. */
void blk_queue_max_write_zeroes_sectors(struct request_queue *q,
					unsigned int max_write_zeroes_sectors)
{
	q->limits.max_write_zeroes_sectors = max_write_zeroes_sectors;
}

/* blk_queue_write_cache - whether the device has a volatile write
 * cache (@wc) and honours forced unit access (@fua). */
void blk_queue_write_cache(struct request_queue *q, bool wc, bool fua)
{
	if (wc)
		set_bit(QUEUE_FLAG_WC, &q->queue_flags);
	else
		clear_bit(QUEUE_FLAG_WC, &q->queue_flags);
	if (fua)
		set_bit(QUEUE_FLAG_FUA, &q->queue_flags);
	else
		clear_bit(QUEUE_FLAG_FUA, &q->queue_flags);
}

/* blk_queue_bounce_limit - record whether highmem pages must bounce
 * (x86_64 has no highmem: nothing ever does). */
void blk_queue_bounce_limit(struct request_queue *q, enum blk_bounce bounce)
{
	q->limits.bounce = bounce;
}

/* blk_queue_dma_alignment - buffers' addresses and lengths must be
 * multiples of @mask + 1. */
void blk_queue_dma_alignment(struct request_queue *q, int mask)
{
	q->limits.dma_alignment = mask;
}

/* blk_queue_virt_boundary - every segment but the first starts, and
 * every one but the last ends, on a multiple of @mask + 1 (PRP-style
 * lists); segments are then unlimited in size, as Linux's. */
void blk_queue_virt_boundary(struct request_queue *q, unsigned long mask)
{
	q->limits.virt_boundary_mask = mask;
	if (mask)
		q->limits.max_segment_size = UINT_MAX;
}

/* blk_queue_chunk_sectors - commands should not cross a multiple of
 * @chunk_sectors (a hint here: the host's commands are not split on
 * it). */
void blk_queue_chunk_sectors(struct request_queue *q, unsigned int chunk_sectors)
{
	q->limits.chunk_sectors = chunk_sectors;
}
