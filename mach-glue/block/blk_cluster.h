/* SPDX-License-Identifier: GPL-2.0-only */
/* Block clustering: a Mach block request as SCSI commands with S/G lists. */
#ifndef BLOCK_BLK_CLUSTER_H
#define BLOCK_BLK_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <device/device_types.h>

/*
 * The planner is pure: it reads its arguments, calls the page allocator
 * it is given, fills the arrays it is given and touches no other memory;
 * physical addresses are numbers to it, never dereferenced.  It takes no
 * locks, so it may run in the kernel or in a user-mode driver server.
 *
 * Design notes (mach-glue/block/README.md has the rules in full):
 * - A page is bounced when any of its bytes lies above the DMA mask, or
 *   when the piece of it the request uses is not DMA-aligned (address,
 *   length, or position in the request).  Consecutive bounced pieces are
 *   packed into bounce pages from the start of a page.
 * - Segments end at physical page boundaries (direct data), bounce-page
 *   boundaries, or where a command ends, which is always a logical-block
 *   boundary; so no logical block ever needs more than two segments.
 */

#define BLK_CLUSTER_PAGE_SIZE	4096u
#define BLK_CLUSTER_SECTOR	512u	/* unit of max_hw_sectors */
#define BLK_CLUSTER_NO_PAGE	(~(uint64_t)0)

enum blk_cluster_op {
	BLK_CLUSTER_READ = 1,	/* device to memory */
	BLK_CLUSTER_WRITE = 2,	/* memory to device */
};

/*
 * What the driver accepts; the fields mean what the same-named fields of
 * Linux 6.1's struct queue_limits mean.  Values the planner refuses
 * (D_INVALID_OPERATION): logical_block_size not a power of two in
 * 512..4096; dma_alignment + 1 not a power of two or above
 * logical_block_size; max_segments < 2; max_segment_size < 4096;
 * seg_boundary_mask not 2^n - 1 or below 4095; max_hw_sectors < 8;
 * dma_mask not 2^n - 1 or below 16 MiB - 1; capacity_blocks 0.
 */
struct blk_cluster_limits {
	uint32_t logical_block_size;	/* bytes: the unit of LBAs */
	uint32_t max_hw_sectors;	/* bytes per command / 512 */
	uint32_t max_segments;		/* segments per command */
	uint32_t max_segment_size;	/* bytes per segment */
	uint64_t seg_boundary_mask;	/* segments stay in one mask+1 window */
	uint32_t dma_alignment;		/* mask: segment address and length */
	uint64_t dma_mask;		/* highest address the device reaches */
	uint64_t capacity_blocks;	/* size of the device */
};

/*
 * One physically contiguous piece of the caller's memory.  Every fragment
 * but the first starts on a page boundary and every fragment but the last
 * ends on one (the pages of out-of-line memory or of a kernel buffer; a
 * fragment may span several physically contiguous pages).
 */
struct blk_cluster_frag {
	uint64_t phys;
	uint64_t len;
};

struct blk_cluster_request {
	enum blk_cluster_op op;
	uint64_t offset;		/* bytes from the start of the device */
	uint64_t length;		/* bytes */
	const struct blk_cluster_frag *frags;	/* in request order */
	size_t nfrags;
};

/* One scatter-gather entry the device transfers. */
struct blk_cluster_seg {
	uint64_t phys;		/* what the device is given */
	uint32_t len;
	bool bounced;		/* phys lies in a bounce page */
	uint64_t orig_phys;	/* caller's address of the first byte */
};

/* One READ or WRITE command: segs[first_seg .. first_seg + nsegs). */
struct blk_cluster_cmd {
	uint64_t lba;		/* in logical blocks */
	uint32_t blocks;	/* logical blocks transferred */
	size_t first_seg;
	uint32_t nsegs;
};

/* One copy between a bounce page and the caller's memory. */
struct blk_cluster_copy {
	uint64_t from;
	uint64_t to;
	uint32_t len;
};

enum blk_cluster_when {
	BLK_CLUSTER_COPY_BEFORE = 1,	/* write: copy, then issue */
	BLK_CLUSTER_COPY_AFTER = 2,	/* read: complete, then copy */
};

struct blk_cluster_counts {
	size_t ncmds;
	size_t nsegs;
	size_t ncopies;
	size_t npages;		/* bounce pages */
};

/*
 * The caller provides the arrays and their capacities (max_*); the
 * planner fills @n, @copy_when and the arrays.
 */
struct blk_cluster_plan {
	struct blk_cluster_cmd *cmds;
	size_t max_cmds;
	struct blk_cluster_seg *segs;
	size_t max_segs;
	struct blk_cluster_copy *copies;
	size_t max_copies;
	uint64_t *pages;	/* bounce pages taken from the allocator */
	size_t max_pages;
	struct blk_cluster_counts n;
	enum blk_cluster_when copy_when;
};

/*
 * A source of bounce pages: page(arg) returns the physical address of a
 * free page-aligned page wholly below the device's DMA mask (in the
 * kernel: the DMA or DMA32 zone), or BLK_CLUSTER_NO_PAGE.
 */
struct blk_cluster_alloc {
	uint64_t (*page)(void *arg);
	void *arg;
};

/*
 * blk_cluster_count - validate @req against @lim and say how big its plan
 * is, without allocating.  Returns D_SUCCESS with @counts filled;
 * D_INVALID_OPERATION for a bad op, bad limits or a misshapen fragment
 * list (a zero-length fragment, an inner page boundary missed, a total
 * other than @req->length, an address range that wraps);
 * D_INVALID_SIZE for a zero length or one not a multiple of the logical
 * block size; D_INVALID_RECNUM for an offset not a multiple of it or a
 * range past the device's end.
 */
io_return_t blk_cluster_count(const struct blk_cluster_request *req,
			      const struct blk_cluster_limits *lim,
			      struct blk_cluster_counts *counts);

/*
 * blk_cluster_plan - turn @req into commands for a device with limits
 * @lim, taking bounce pages from @alloc.  Validates as blk_cluster_count
 * does (same codes), then returns D_INVALID_SIZE if the plan would not
 * fit the arrays of @plan (the block module refuses requests larger than
 * it provides for), D_NO_MEMORY if @alloc ran out or gave a page that is
 * not page-aligned or not below the DMA mask, else D_SUCCESS with @plan
 * filled.  On every return, @plan->pages[0 .. n.npages) are the pages
 * taken from @alloc: the caller releases them (after the I/O, and after
 * the copies of a read).  The copies run before the commands for a write
 * and after they complete for a read (@plan->copy_when).  @alloc may be
 * NULL, and arrays NULL with capacity 0, for plans that need none.
 */
io_return_t blk_cluster_plan(const struct blk_cluster_request *req,
			     const struct blk_cluster_limits *lim,
			     const struct blk_cluster_alloc *alloc,
			     struct blk_cluster_plan *plan);

#endif /* BLOCK_BLK_CLUSTER_H */
