/* SPDX-License-Identifier: GPL-2.0-only */
/* Host tests of block clustering: segments, commands, bounces, refusals. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kern/kprintf.h"
#include "kern/ktest.h"
#include "mach-glue/block/blk_cluster.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define PAGE		((uint64_t)BLK_CLUSTER_PAGE_SIZE)
#define KIB(x)		((uint64_t)(x) << 10)
#define MIB(x)		((uint64_t)(x) << 20)
#define GIB(x)		((uint64_t)(x) << 30)
#define ULL(x)		((unsigned long long)(x))
#define MASK32		((uint64_t)0xffffffff)
#define MASK24		((uint64_t)0xffffff)
#define MASK64		(~(uint64_t)0)
#define MAX_PAGES	32	/* pages in one table layout */
#define CAPACITY	((uint64_t)1 << 32)	/* blocks */

/* Bounce pages of the test allocator: 8 MiB up, every other page. */
#define BOUNCE(k)	(MIB(8) + (uint64_t)(k) * 2 * PAGE)

/* Limits in field order; capacity is CAPACITY. */
#define LIM(lbs, sectors, segs, segsize, boundary, align, mask)		\
	{ (lbs), (sectors), (segs), (segsize), (boundary), (align),	\
	  (mask), CAPACITY }
/* An ata_piix-like host: 128 segments of 64 KiB in 64 KiB windows. */
#define ATA	LIM(512, 256, 128, 65536, 0xffff, 511, MASK32)

/* The test's bounce page source: @left pages, then none. */
struct pool {
	size_t left;
	size_t taken;
	uint64_t bad;		/* when non-zero, hand out this page */
};

static uint64_t pool_page(void *arg)
{
	struct pool *p = arg;

	if (!p->left)
		return BLK_CLUSTER_NO_PAGE;
	p->left--;
	if (p->bad)
		return p->bad;
	return BOUNCE(p->taken++);
}

/* Fragments for a buffer starting @first_off into pages[0], @len long. */
static size_t layout(const uint64_t *pages, uint64_t first_off, uint64_t len,
		     struct blk_cluster_frag *frags)
{
	size_t n = 0;
	uint64_t off = first_off;

	while (len) {
		uint64_t take = PAGE - off < len ? PAGE - off : len;

		frags[n] = (struct blk_cluster_frag){ pages[n] + off, take };
		len -= take;
		off = 0;
		n++;
	}
	return n;
}

/* ---- a simulated physical memory holding one tag per byte ---- */

#define SIM_PAGES	96

static struct sim_page {
	uint64_t phys;
	uint32_t tag[BLK_CLUSTER_PAGE_SIZE];
} sim[SIM_PAGES];
static size_t sim_used;

#define POISON		0xdeadbeefu

static uint32_t *sim_at(uint64_t addr)
{
	uint64_t base = addr & ~(PAGE - 1);
	size_t i;

	for (i = 0; i < sim_used; i++)
		if (sim[i].phys == base)
			return &sim[i].tag[addr - base];
	if (sim_used == SIM_PAGES)
		return NULL;
	sim[sim_used].phys = base;
	for (i = 0; i < PAGE; i++)
		sim[sim_used].tag[i] = POISON;
	return &sim[sim_used++].tag[addr - base];
}

/* Bytes from @addr to its page's end, at most @len. */
static uint64_t in_page(uint64_t addr, uint64_t len)
{
	uint64_t room = PAGE - (addr & (PAGE - 1));

	return len < room ? len : room;
}

/* Run the copy plan; false if memory ran out. */
static bool sim_copies(const struct blk_cluster_plan *plan)
{
	size_t i;

	for (i = 0; i < plan->n.ncopies; i++) {
		const struct blk_cluster_copy *cp = &plan->copies[i];
		uint32_t *from = sim_at(cp->from), *to = sim_at(cp->to);

		if (!from || !to || in_page(cp->from, cp->len) != cp->len ||
		    in_page(cp->to, cp->len) != cp->len)
			return false;
		memmove(to, from, cp->len * sizeof(*to));
	}
	return true;
}

/*
 * Tag bytes @at .. @at + @len with *@r, *@r + 1, ... (@fill), or check
 * that they hold those tags, reporting a mismatch as @what; *@r moves on.
 * False if the simulated memory is full.
 */
static bool sim_range(struct ktest *t, const char *what, uint64_t at,
		      uint64_t len, uint32_t *r, bool fill)
{
	while (len) {
		uint64_t n = in_page(at, len), k;
		uint32_t *m = sim_at(at);

		if (!m)
			return false;
		for (k = 0; k < n; k++, (*r)++) {
			if (fill)
				m[k] = *r;
			else if (m[k] != *r && !t->failed)
				ktest_fail(t, "%s: 0x%x at 0x%llx, want byte "
					   "%u", what, m[k], ULL(at + k), *r);
		}
		at += n;
		len -= n;
	}
	return true;
}

/*
 * One side of a transfer, in order: the device's segments (@plan), or
 * the caller's buffer (@plan NULL).  Tags it (@fill) or checks the tags.
 */
static bool sim_side(struct ktest *t, const char *name,
		     const struct blk_cluster_request *req,
		     const struct blk_cluster_plan *plan, bool fill)
{
	size_t i, n = plan ? plan->n.nsegs : req->nfrags;
	uint32_t r = 0;
	char what[80];

	snprintf(what, sizeof(what), "%s: %s", name,
		 plan ? "device sees" : "buffer holds");
	for (i = 0; i < n; i++)
		if (!sim_range(t, what,
			       plan ? plan->segs[i].phys : req->frags[i].phys,
			       plan ? plan->segs[i].len : req->frags[i].len,
			       &r, fill))
			return false;
	return true;
}

/*
 * Data check: a write's device sees the request bytes in order; a read's
 * device data reaches the buffer in order.  False if the simulated memory
 * is too small for the request (the caller reports it).
 */
static bool check_data(struct ktest *t, const char *name,
		       const struct blk_cluster_request *req,
		       const struct blk_cluster_plan *plan)
{
	bool write = req->op == BLK_CLUSTER_WRITE;

	sim_used = 0;
	if (write)
		return sim_side(t, name, req, NULL, true) &&
		       sim_copies(plan) && sim_side(t, name, req, plan, false);
	return sim_side(t, name, req, plan, true) && sim_copies(plan) &&
	       sim_side(t, name, req, NULL, false);
}

/* Is @phys inside one of the plan's bounce pages? */
static bool in_bounce_page(const struct blk_cluster_plan *plan, uint64_t phys,
			   uint32_t len)
{
	size_t i;

	for (i = 0; i < plan->n.npages; i++)
		if (phys >= plan->pages[i] &&
		    phys + len <= plan->pages[i] + PAGE)
			return true;
	return false;
}

/*
 * Every rule a plan must keep: commands in LBA order covering the request,
 * each within max_segments and max_hw_sectors; every segment within
 * max_segment_size, one boundary window, the DMA alignment and the DMA
 * mask; bounced segments inside bounce pages; counts as
 * blk_cluster_count says; and (when it fits the simulated memory) the
 * data moving where it should.  Failures are reported against @name.
 */
static void check_plan(struct ktest *t, const char *name,
		       const struct blk_cluster_request *req,
		       const struct blk_cluster_limits *lim,
		       const struct blk_cluster_plan *plan)
{
	uint64_t lbs = lim->logical_block_size, lba = req->offset / lbs;
	uint64_t seen = 0;
	struct blk_cluster_counts want;
	size_t c, s, seg = 0;

	if (blk_cluster_count(req, lim, &want) != D_SUCCESS ||
	    want.ncmds != plan->n.ncmds || want.nsegs != plan->n.nsegs ||
	    want.ncopies != plan->n.ncopies || want.npages != plan->n.npages)
		ktest_fail(t, "%s: blk_cluster_count disagrees with the plan",
			   name);
	for (c = 0; c < plan->n.ncmds; c++) {
		const struct blk_cluster_cmd *cmd = &plan->cmds[c];
		uint64_t bytes = 0;

		if (cmd->lba != lba || cmd->first_seg != seg || !cmd->blocks ||
		    !cmd->nsegs || cmd->nsegs > lim->max_segments ||
		    cmd->blocks * lbs > lim->max_hw_sectors * 512ull) {
			ktest_fail(t, "%s: command %zu: lba %llu blocks %u "
				   "segs %zu+%u, want lba %llu seg %zu",
				   name, c, ULL(cmd->lba), cmd->blocks,
				   cmd->first_seg, cmd->nsegs, ULL(lba), seg);
			return;
		}
		for (s = seg; s < seg + cmd->nsegs; s++) {
			const struct blk_cluster_seg *g = &plan->segs[s];
			uint64_t last = g->phys + g->len - 1;

			bytes += g->len;
			if (g->len && g->len <= lim->max_segment_size &&
			    !((g->phys | g->len) & lim->dma_alignment) &&
			    last <= lim->dma_mask &&
			    (g->phys | lim->seg_boundary_mask) ==
			    (last | lim->seg_boundary_mask) &&
			    g->bounced == in_bounce_page(plan, g->phys, g->len))
				continue;
			ktest_fail(t, "%s: segment %zu {0x%llx, %u, bounced %d}"
				   " breaks a limit", name, s, ULL(g->phys),
				   g->len, g->bounced);
		}
		if (bytes != cmd->blocks * lbs)
			ktest_fail(t, "%s: command %zu has %llu bytes in "
				   "segments for %u blocks", name, c,
				   ULL(bytes), cmd->blocks);
		lba += cmd->blocks;
		seg += cmd->nsegs;
		seen += cmd->blocks * lbs;
	}
	if (seen != req->length || seg != plan->n.nsegs)
		ktest_fail(t, "%s: commands cover %llu bytes in %zu segments, "
			   "want %llu in %zu", name, ULL(seen), seg,
			   ULL(req->length), plan->n.nsegs);
	else if (!check_data(t, name, req, plan))
		ktest_fail(t, "%s: more pages than the simulated memory",
			   name);
}

/* ---- the table ---- */

static struct blk_cluster_cmd cmd_buf[64];
static struct blk_cluster_seg seg_buf[256];
static struct blk_cluster_copy copy_buf[256];
static uint64_t page_buf[64];

static void plan_init(struct blk_cluster_plan *plan)
{
	*plan = (struct blk_cluster_plan){
		.cmds = cmd_buf, .max_cmds = ARRAY_SIZE(cmd_buf),
		.segs = seg_buf, .max_segs = ARRAY_SIZE(seg_buf),
		.copies = copy_buf, .max_copies = ARRAY_SIZE(copy_buf),
		.pages = page_buf, .max_pages = ARRAY_SIZE(page_buf),
	};
}

struct want_seg {
	uint64_t phys;
	uint32_t len;
};

struct want_cmd {
	uint64_t lba;
	uint32_t blocks;
	uint32_t nsegs;
};

struct plan_case {
	const char *name;
	struct blk_cluster_limits lim;
	enum blk_cluster_op op;
	uint64_t offset;
	uint64_t first_off;	/* of the buffer in pages[0] */
	uint64_t len;
	uint64_t pages[MAX_PAGES];
	io_return_t rc;
	size_t bounces;		/* bounce pages taken */
	struct want_cmd cmds[4];
	size_t ncmds;
	struct want_seg segs[8];
	size_t nsegs;
};

#define P(mib, k)	(MIB(mib) + (uint64_t)(k) * PAGE)
#define R		BLK_CLUSTER_READ
#define W		BLK_CLUSTER_WRITE

static const struct plan_case plan_cases[] = {
	{ "contiguous_pages_coalesce_into_one_segment", ATA, R, 0, 0, KIB(16),
	  { P(1, 0), P(1, 1), P(1, 2), P(1, 3) }, D_SUCCESS, 0,
	  { { 0, 32, 1 } }, 1, { { P(1, 0), KIB(16) } }, 1 },
	{ "discontiguity_starts_a_new_segment", ATA, W, KIB(4), 0, KIB(16),
	  { P(1, 0), P(1, 1), P(2, 0), P(2, 1) }, D_SUCCESS, 0,
	  { { 8, 32, 2 } }, 1, { { P(1, 0), KIB(8) }, { P(2, 0), KIB(8) } },
	  2 },
	{ "max_segment_size_splits_a_contiguous_run",
	  LIM(512, 256, 128, 8192, 0xffff, 511, MASK32), R, 0, 0, KIB(16),
	  { P(1, 0), P(1, 1), P(1, 2), P(1, 3) }, D_SUCCESS, 0,
	  { { 0, 32, 2 } }, 1, { { P(1, 0), KIB(8) }, { P(1, 2), KIB(8) } },
	  2 },
	{ "boundary_mask_splits_at_64k", ATA, R, 0, 0, KIB(16),
	  { P(1, 14), P(1, 15), P(1, 16), P(1, 17) }, D_SUCCESS, 0,
	  { { 0, 32, 2 } }, 1, { { P(1, 14), KIB(8) }, { P(1, 16), KIB(8) } },
	  2 },
	{ "max_segments_forces_a_command_split",
	  LIM(512, 256, 2, 65536, 0xffff, 511, MASK32), W, 0, 0, KIB(16),
	  { P(1, 0), P(3, 0), P(5, 0), P(7, 0) }, D_SUCCESS, 0,
	  { { 0, 16, 2 }, { 16, 16, 2 } }, 2,
	  { { P(1, 0), PAGE }, { P(3, 0), PAGE }, { P(5, 0), PAGE },
	    { P(7, 0), PAGE } }, 4 },
	{ "partial_first_and_last_pages", ATA, R, KIB(64), 0x200, KIB(8),
	  { P(1, 0), P(3, 0), P(5, 0) }, D_SUCCESS, 0,
	  { { 128, 16, 3 } }, 1,
	  { { P(1, 0) + 0x200, 0xe00 }, { P(3, 0), PAGE }, { P(5, 0), 0x200 } },
	  3 },
	{ "512_byte_blocks_fill_each_command_to_its_segments",
	  LIM(512, 256, 2, 65536, 0xffff, 511, MASK32), R, 0, 0x200, KIB(12),
	  { P(1, 0), P(3, 0), P(5, 0), P(7, 0) }, D_SUCCESS, 0,
	  { { 0, 15, 2 }, { 15, 9, 2 } }, 2,
	  { { P(1, 0) + 0x200, 0xe00 }, { P(3, 0), PAGE }, { P(5, 0), PAGE },
	    { P(7, 0), 0x200 } }, 4 },
	{ "4096_byte_blocks_cut_commands_inside_a_page",
	  LIM(4096, 256, 2, 65536, 0xffff, 511, MASK32), R, KIB(8), 0x200,
	  KIB(12), { P(1, 0), P(3, 0), P(5, 0), P(7, 0) }, D_SUCCESS, 0,
	  { { 2, 1, 2 }, { 3, 1, 2 }, { 4, 1, 2 } }, 3,
	  { { P(1, 0) + 0x200, 0xe00 }, { P(3, 0), 0x200 },
	    { P(3, 0) + 0x200, 0xe00 }, { P(5, 0), 0x200 },
	    { P(5, 0) + 0x200, 0xe00 }, { P(7, 0), 0x200 } }, 6 },
	{ "4096_byte_blocks_count_lba_in_4k_units",
	  LIM(4096, 256, 128, 65536, 0xffff, 4095, MASK32), W, KIB(40), 0,
	  KIB(8), { P(1, 0), P(1, 1) }, D_SUCCESS, 0,
	  { { 10, 2, 1 } }, 1, { { P(1, 0), KIB(8) } }, 1 },
	{ "misaligned_offset_refused", ATA, R, 100, 0, 512, { P(1, 0) },
	  D_INVALID_RECNUM, 0, { { 0 } }, 0, { { 0 } }, 0 },
	{ "offset_not_a_multiple_of_4096_byte_blocks_refused",
	  LIM(4096, 256, 128, 65536, 0xffff, 511, MASK32), R, 512, 0, PAGE,
	  { P(1, 0) }, D_INVALID_RECNUM, 0, { { 0 } }, 0, { { 0 } }, 0 },
	{ "misaligned_size_refused", ATA, W, 0, 0, 1000, { P(1, 0) },
	  D_INVALID_SIZE, 0, { { 0 } }, 0, { { 0 } }, 0 },
	{ "size_not_a_multiple_of_4096_byte_blocks_refused",
	  LIM(4096, 256, 128, 65536, 0xffff, 511, MASK32), W, 0, 0, 512,
	  { P(1, 0) }, D_INVALID_SIZE, 0, { { 0 } }, 0, { { 0 } }, 0 },
	{ "range_past_the_device_end_refused", ATA, R,
	  (CAPACITY - 1) * 512, 0, 1024, { P(1, 0) }, D_INVALID_RECNUM, 0,
	  { { 0 } }, 0, { { 0 } }, 0 },
	{ "last_block_of_the_device_accepted", ATA, R, (CAPACITY - 1) * 512,
	  0, 512, { P(1, 0) }, D_SUCCESS, 0, { { CAPACITY - 1, 1, 1 } }, 1,
	  { { P(1, 0), 512 } }, 1 },
	{ "page_above_dma_mask_bounced_neighbours_not", ATA, W, 0, 0, KIB(12),
	  { P(1, 0), GIB(4), P(1, 2) }, D_SUCCESS, 1,
	  { { 0, 24, 3 } }, 1,
	  { { P(1, 0), PAGE }, { BOUNCE(0), PAGE }, { P(1, 2), PAGE } }, 3 },
	{ "isa_mask_bounces_a_page_above_16m",
	  LIM(512, 256, 128, 65536, 0xffff, 511, MASK24), R, 0, 0, KIB(8),
	  { P(1, 0), P(32, 0) }, D_SUCCESS, 1, { { 0, 16, 2 } }, 1,
	  { { P(1, 0), PAGE }, { BOUNCE(0), PAGE } }, 2 },
	{ "pages_above_mask_bounce_into_one_page_each", ATA, R, 0,
	  0, KIB(8), { GIB(5), GIB(5) + PAGE }, D_SUCCESS, 2,
	  { { 0, 16, 2 } }, 1, { { BOUNCE(0), PAGE }, { BOUNCE(1), PAGE } },
	  2 },
	{ "misaligned_buffer_bounced_into_aligned_pages", ATA, W, 0, 0x10,
	  KIB(4), { P(1, 0), P(3, 0) }, D_SUCCESS, 1, { { 0, 8, 1 } }, 1,
	  { { BOUNCE(0), PAGE } }, 1 },
	{ "misaligned_partial_last_page_bounced_too", ATA, R, 0, 0x10,
	  KIB(8), { P(1, 0), P(3, 0), P(5, 0) }, D_SUCCESS, 2,
	  { { 0, 16, 2 } }, 1, { { BOUNCE(0), PAGE }, { BOUNCE(1), PAGE } },
	  2 },
	{ "four_byte_dma_alignment_takes_that_buffer_direct",
	  LIM(512, 256, 128, 65536, 0xffff, 3, MASK32), W, 0, 0x10, KIB(4),
	  { P(1, 0), P(3, 0) }, D_SUCCESS, 0, { { 0, 8, 2 } }, 1,
	  { { P(1, 0) + 0x10, 0xff0 }, { P(3, 0), 0x10 } }, 2 },
	{ "no_bounce_above_4g_with_a_64_bit_mask",
	  LIM(512, 256, 128, 65536, 0xffff, 511, MASK64), R, 0, 0, KIB(8),
	  { GIB(6), GIB(6) + PAGE }, D_SUCCESS, 0, { { 0, 16, 1 } }, 1,
	  { { GIB(6), KIB(8) } }, 1 },
	{ "max_hw_sectors_cuts_a_segment_between_commands",
	  LIM(512, 8, 128, 65536, 0xffff, 511, MASK32), W, 0, 0, KIB(8),
	  { P(1, 0), P(1, 1) }, D_SUCCESS, 0, { { 0, 8, 1 }, { 8, 8, 1 } },
	  2, { { P(1, 0), PAGE }, { P(1, 1), PAGE } }, 2 },
};

/* Fail unless @plan has the commands and segments @pc lists. */
static void expect_shape(struct ktest *t, const struct plan_case *pc,
			 const struct blk_cluster_plan *plan)
{
	const struct blk_cluster_cmd *cmd;
	const struct blk_cluster_seg *seg;
	size_t k;

	if (plan->n.ncmds != pc->ncmds || plan->n.nsegs != pc->nsegs) {
		ktest_fail(t, "%s: %zu commands, %zu segments; want %zu, %zu",
			   pc->name, plan->n.ncmds, plan->n.nsegs, pc->ncmds,
			   pc->nsegs);
		return;
	}
	for (k = 0; k < pc->ncmds; k++) {
		cmd = &plan->cmds[k];
		if (cmd->lba != pc->cmds[k].lba ||
		    cmd->blocks != pc->cmds[k].blocks ||
		    cmd->nsegs != pc->cmds[k].nsegs)
			ktest_fail(t, "%s: command %zu is {lba %llu, %u blocks,"
				   " %u segs}, want {%llu, %u, %u}", pc->name,
				   k, ULL(cmd->lba), cmd->blocks, cmd->nsegs,
				   ULL(pc->cmds[k].lba), pc->cmds[k].blocks,
				   pc->cmds[k].nsegs);
	}
	for (k = 0; k < pc->nsegs; k++) {
		seg = &plan->segs[k];
		if (seg->phys != pc->segs[k].phys ||
		    seg->len != pc->segs[k].len)
			ktest_fail(t, "%s: segment %zu is {0x%llx, 0x%x}, want "
				   "{0x%llx, 0x%x}", pc->name, k,
				   ULL(seg->phys), seg->len,
				   ULL(pc->segs[k].phys), pc->segs[k].len);
	}
}

static void plans_match_the_table(struct ktest *t)
{
	struct blk_cluster_frag frags[MAX_PAGES];
	struct blk_cluster_plan plan;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(plan_cases); i++) {
		const struct plan_case *pc = &plan_cases[i];
		struct pool pool = { .left = 64 };
		struct blk_cluster_alloc alloc = { pool_page, &pool };
		struct blk_cluster_request req = {
			pc->op, pc->offset, pc->len, frags,
			layout(pc->pages, pc->first_off, pc->len, frags),
		};
		io_return_t rc;

		plan_init(&plan);
		rc = blk_cluster_plan(&req, &pc->lim, &alloc, &plan);
		if (rc != pc->rc) {
			ktest_fail(t, "%s: returned %d, want %d", pc->name, rc,
				   pc->rc);
			continue;
		}
		if (pool.taken != plan.n.npages || plan.n.npages != pc->bounces)
			ktest_fail(t, "%s: %zu bounce pages (%zu taken), want "
				   "%zu", pc->name, plan.n.npages, pool.taken,
				   pc->bounces);
		if (rc != D_SUCCESS)
			continue;
		expect_shape(t, pc, &plan);
		check_plan(t, pc->name, &req, &pc->lim, &plan);
	}
}

/* A write copies into bounce pages before, a read out of them after. */
static void copies_run_the_right_way(struct ktest *t)
{
	static const uint64_t pages[] = { P(1, 0), GIB(4) };
	static const struct blk_cluster_limits lim = ATA;
	struct blk_cluster_frag frags[2];
	struct blk_cluster_request req = { W, 0, KIB(8), frags,
					   layout(pages, 0, KIB(8), frags) };
	struct pool pool = { .left = 4 };
	struct blk_cluster_alloc alloc = { pool_page, &pool };
	struct blk_cluster_plan plan;

	plan_init(&plan);
	KTEST_EXPECT_EQ(t, blk_cluster_plan(&req, &lim, &alloc, &plan),
			D_SUCCESS);
	KTEST_EXPECT_EQ(t, plan.copy_when, BLK_CLUSTER_COPY_BEFORE);
	KTEST_EXPECT_EQ(t, plan.n.ncopies, 1u);
	KTEST_EXPECT_EQ(t, plan.copies[0].from, GIB(4));
	KTEST_EXPECT_EQ(t, plan.copies[0].to, BOUNCE(0));
	KTEST_EXPECT_EQ(t, plan.copies[0].len, PAGE);
	KTEST_EXPECT_EQ(t, plan.segs[1].orig_phys, GIB(4));
	KTEST_EXPECT_TRUE(t, plan.segs[1].bounced);
	KTEST_EXPECT_FALSE(t, plan.segs[0].bounced);

	req.op = R;
	pool = (struct pool){ .left = 4 };
	plan_init(&plan);
	KTEST_EXPECT_EQ(t, blk_cluster_plan(&req, &lim, &alloc, &plan),
			D_SUCCESS);
	KTEST_EXPECT_EQ(t, plan.copy_when, BLK_CLUSTER_COPY_AFTER);
	KTEST_EXPECT_EQ(t, plan.copies[0].from, BOUNCE(0));
	KTEST_EXPECT_EQ(t, plan.copies[0].to, GIB(4));
}

/* Big requests: N commands with consecutive LBAs, never truncated. */
static void big_request(struct ktest *t, const char *name, uint64_t len,
			size_t want_cmds, size_t want_segs)
{
	static const struct blk_cluster_limits lim = ATA;
	struct blk_cluster_frag frag = { GIB(1), len };
	struct blk_cluster_request req = { R, MIB(1), len, &frag, 1 };
	struct blk_cluster_counts n;
	struct blk_cluster_plan plan = { 0 };
	size_t i;

	KTEST_EXPECT_EQ(t, blk_cluster_count(&req, &lim, &n), D_SUCCESS);
	KTEST_EXPECT_EQ(t, n.ncmds, want_cmds);
	KTEST_EXPECT_EQ(t, n.nsegs, want_segs);
	KTEST_EXPECT_EQ(t, n.npages, 0u);
	plan.cmds = calloc(n.ncmds, sizeof(*plan.cmds));
	plan.segs = calloc(n.nsegs, sizeof(*plan.segs));
	plan.max_cmds = n.ncmds;
	plan.max_segs = n.nsegs;
	if (!plan.cmds || !plan.segs) {
		ktest_fail(t, "%s: no host memory", name);
		goto out;
	}
	KTEST_EXPECT_EQ(t, blk_cluster_plan(&req, &lim, NULL, &plan),
			D_SUCCESS);
	for (i = 0; i < plan.n.ncmds; i++)
		if (plan.cmds[i].lba != 2048 + 256 * i ||
		    plan.cmds[i].blocks != 256)
			ktest_fail(t, "%s: command %zu is {lba %llu, %u}, want "
				   "{%zu, 256}", name, i,
				   ULL(plan.cmds[i].lba), plan.cmds[i].blocks,
				   2048 + 256 * i);
	for (i = 0; i < plan.n.nsegs; i++)
		if (plan.segs[i].phys != GIB(1) + KIB(64) * i ||
		    plan.segs[i].len != KIB(64))
			ktest_fail(t, "%s: segment %zu is {0x%llx, 0x%x}", name,
				   i, ULL(plan.segs[i].phys), plan.segs[i].len);
	/* A module with room for 16 commands refuses it whole. */
	plan.max_cmds = 16;
	KTEST_EXPECT_EQ(t, blk_cluster_plan(&req, &lim, NULL, &plan),
			want_cmds > 16 ? D_INVALID_SIZE : D_SUCCESS);
out:
	free(plan.cmds);
	free(plan.segs);
}

static void max_hw_sectors_splits_1m_into_8_commands(struct ktest *t)
{
	big_request(t, "1 MiB", MIB(1), 8, 16);
}

static void request_of_64m_splits_into_512_commands(struct ktest *t)
{
	big_request(t, "64 MiB", MIB(64), 512, 1024);
}

/* Limits the planner refuses, one bad field each. */
static void bad_limits_refused(struct ktest *t)
{
	static const struct {
		const char *name;
		struct blk_cluster_limits lim;
	} cases[] = {
		{ "block_size_256", LIM(256, 256, 128, 65536, 0xffff, 255,
					MASK32) },
		{ "block_size_8192", LIM(8192, 256, 128, 65536, 0xffff, 511,
					 MASK32) },
		{ "block_size_not_power_of_two", LIM(1536, 256, 128, 65536,
						     0xffff, 511, MASK32) },
		{ "alignment_not_a_mask", LIM(512, 256, 128, 65536, 0xffff,
					      500, MASK32) },
		{ "alignment_above_block", LIM(512, 256, 128, 65536, 0xffff,
					       1023, MASK32) },
		{ "one_segment", LIM(512, 256, 1, 65536, 0xffff, 511, MASK32) },
		{ "segment_below_a_page", LIM(512, 256, 128, 2048, 0xffff, 511,
					      MASK32) },
		{ "boundary_not_a_mask", LIM(512, 256, 128, 65536, 0xfff0, 511,
					     MASK32) },
		{ "boundary_below_a_page", LIM(512, 256, 128, 65536, 0x7ff, 511,
					       MASK32) },
		{ "transfer_below_a_page", LIM(512, 7, 128, 65536, 0xffff, 511,
					       MASK32) },
		{ "dma_mask_not_a_mask", LIM(512, 256, 128, 65536, 0xffff, 511,
					     0xfffff000) },
		{ "dma_mask_below_isa", LIM(512, 256, 128, 65536, 0xffff, 511,
					    0xfffff) },
		{ "no_capacity", { 512, 256, 128, 65536, 0xffff, 511, MASK32,
				   0 } },
	};
	struct blk_cluster_frag frag = { MIB(1), 512 };
	struct blk_cluster_request req = { R, 0, 512, &frag, 1 };
	struct blk_cluster_counts n;
	size_t i;
	io_return_t rc;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		rc = blk_cluster_count(&req, &cases[i].lim, &n);
		if (rc != D_INVALID_OPERATION)
			ktest_fail(t, "%s: returned %d, want "
				   "D_INVALID_OPERATION", cases[i].name, rc);
	}
}

/* Misshapen requests: the glue's mistakes, refused before any work. */
static void bad_requests_refused(struct ktest *t)
{
	static const struct blk_cluster_limits lim = ATA;
	static const struct {
		const char *name;
		enum blk_cluster_op op;
		uint64_t len;
		struct blk_cluster_frag frags[3];
		size_t nfrags;
		io_return_t rc;
	} cases[] = {
		{ "zero_length", R, 0, { { MIB(1), 0 } }, 1, D_INVALID_SIZE },
		{ "unknown_op", 3, 512, { { MIB(1), 512 } }, 1,
		  D_INVALID_OPERATION },
		{ "no_fragments", R, 512, { { 0 } }, 0, D_INVALID_OPERATION },
		{ "empty_fragment", R, 4096,
		  { { MIB(1), 4096 }, { MIB(2), 0 } }, 2, D_INVALID_OPERATION },
		{ "fragments_short_of_length", R, 8192, { { MIB(1), 4096 } }, 1,
		  D_INVALID_OPERATION },
		{ "fragments_past_length", R, 4096,
		  { { MIB(1), 4096 }, { MIB(2), 512 } }, 2,
		  D_INVALID_OPERATION },
		{ "inner_fragment_starts_inside_a_page", R, 8192,
		  { { MIB(1), 4096 }, { MIB(2) + 512, 4096 } }, 2,
		  D_INVALID_OPERATION },
		{ "inner_fragment_ends_inside_a_page", R, 4608,
		  { { MIB(1), 512 }, { MIB(2), 4096 } }, 2,
		  D_INVALID_OPERATION },
		{ "fragment_past_52_bit_addresses", R, 8192,
		  { { ((uint64_t)1 << 52) - 4096, 8192 } }, 1,
		  D_INVALID_OPERATION },
	};
	struct blk_cluster_counts n;
	size_t i;
	io_return_t rc;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct blk_cluster_request req = {
			cases[i].op, 0, cases[i].len,
			cases[i].nfrags ? cases[i].frags : NULL,
			cases[i].nfrags,
		};

		rc = blk_cluster_count(&req, &lim, &n);
		if (rc != cases[i].rc)
			ktest_fail(t, "%s: returned %d, want %d", cases[i].name,
				   rc, cases[i].rc);
	}
}

/* Allocator failures: D_NO_MEMORY, every page taken listed for release. */
static void bounce_allocation_failures(struct ktest *t)
{
	static const uint64_t pages[] = { GIB(4), GIB(8), GIB(12) };
	static const struct blk_cluster_limits lim = ATA;
	static const struct {
		const char *name;
		size_t left;
		uint64_t bad;
		bool no_alloc;
		size_t listed;
	} cases[] = {
		{ "allocator_runs_out_after_two", 2, 0, false, 2 },
		{ "allocator_empty", 0, 0, false, 0 },
		{ "no_allocator", 3, 0, true, 0 },
		{ "page_above_the_mask", 3, GIB(5), false, 1 },
		{ "page_not_aligned", 3, MIB(8) + 512, false, 1 },
	};
	struct blk_cluster_frag frags[3];
	struct blk_cluster_request req = { W, 0, KIB(12), frags,
					   layout(pages, 0, KIB(12), frags) };
	struct blk_cluster_plan plan;
	size_t i;
	io_return_t rc;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct pool pool = { cases[i].left, 0, cases[i].bad };
		struct blk_cluster_alloc alloc = { pool_page, &pool };

		plan_init(&plan);
		rc = blk_cluster_plan(&req, &lim,
				      cases[i].no_alloc ? NULL : &alloc, &plan);
		if (rc != D_NO_MEMORY || plan.n.npages != cases[i].listed)
			ktest_fail(t, "%s: returned %d with %zu pages listed, "
				   "want %d with %zu", cases[i].name, rc,
				   plan.n.npages, D_NO_MEMORY,
				   cases[i].listed);
	}
}

/* Arrays too small for the plan: D_INVALID_SIZE, nothing allocated. */
static void plan_larger_than_its_arrays_refused(struct ktest *t)
{
	static const uint64_t pages[] = { P(1, 0), GIB(4), P(3, 0) };
	static const struct blk_cluster_limits lim = ATA;
	struct blk_cluster_frag frags[3];
	struct blk_cluster_request req = { R, 0, KIB(12), frags,
					   layout(pages, 0, KIB(12), frags) };
	struct pool pool = { .left = 8 };
	struct blk_cluster_alloc alloc = { pool_page, &pool };
	struct blk_cluster_plan plan;
	size_t *caps[4] = { &plan.max_cmds, &plan.max_segs,
			    &plan.max_copies, &plan.max_pages };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(caps); i++) {
		plan_init(&plan);
		*caps[i] = i == 1 ? 2 : 0;
		KTEST_EXPECT_EQ(t, blk_cluster_plan(&req, &lim, &alloc, &plan),
				D_INVALID_SIZE);
		KTEST_EXPECT_EQ(t, pool.taken, 0u);
	}
}

/* ---- the property test ---- */

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(uint64_t bound)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng % bound;
}

/* Frames a random layout draws from: ISA, DMA32 and high memory. */
static uint64_t random_frame(void)
{
	static const uint64_t base[] = { MIB(1), GIB(2), GIB(4) - KIB(64),
					 GIB(16) };

	return base[rnd(ARRAY_SIZE(base))] + rnd(64) * PAGE;
}

/* A frame not in pages[0 .. n), often the one after pages[n - 1]. */
static uint64_t fresh_frame(const uint64_t *pages, size_t n)
{
	uint64_t f = n && rnd(2) ? pages[n - 1] + PAGE : random_frame();
	size_t i;

	for (i = 0; i < n; i++)
		if (pages[i] == f)
			return fresh_frame(pages, n);
	return f;
}

static void random_limits(struct blk_cluster_limits *lim)
{
	static const uint32_t lbs[] = { 512, 1024, 2048, 4096 };
	static const uint64_t boundary[] = { 0xfff, 0x1fff, 0xffff,
					     0xffffffff };
	static const uint64_t masks[] = { MASK24, MASK32, MASK64 };

	lim->logical_block_size = lbs[rnd(ARRAY_SIZE(lbs))];
	lim->dma_alignment = ((uint32_t)1 << rnd(13)) - 1;
	if (lim->dma_alignment >= lim->logical_block_size)
		lim->dma_alignment = lim->logical_block_size - 1;
	lim->max_segments = 2 + rnd(7);
	lim->max_segment_size = PAGE + rnd(4 * PAGE);
	lim->seg_boundary_mask = boundary[rnd(ARRAY_SIZE(boundary))];
	lim->max_hw_sectors = 8 + rnd(120);
	lim->dma_mask = masks[rnd(ARRAY_SIZE(masks))];
	lim->capacity_blocks = CAPACITY;
}

/* Bytes of @req that must be bounced: above the mask, or misaligned. */
static uint64_t must_bounce(const struct blk_cluster_request *req,
			    const struct blk_cluster_limits *lim)
{
	bool misaligned = req->frags[0].phys & lim->dma_alignment;
	uint64_t bytes = 0;
	size_t i;

	for (i = 0; i < req->nfrags; i++) {
		uint64_t at = req->frags[i].phys, left = req->frags[i].len;

		while (left) {
			uint64_t n = in_page(at, left);

			if (misaligned || at + n - 1 > lim->dma_mask)
				bytes += n;
			at += n;
			left -= n;
		}
	}
	return bytes;
}

/* Random layouts and limits (fixed seed): every plan keeps every rule. */
static void random_plans_keep_every_rule(struct ktest *t)
{
	struct blk_cluster_frag frags[MAX_PAGES];
	uint64_t pages[MAX_PAGES];
	struct blk_cluster_limits lim;
	struct blk_cluster_plan plan;
	unsigned int iter, fails = 0, with_bounce = 0, split = 0, cut = 0;
	char name[48];

	for (iter = 0; iter < 3000 && fails < 5; iter++) {
		uint64_t first_off, len, bounced = 0;
		size_t npages, i, nfrags = 0;
		struct pool pool = { .left = 64 };
		struct blk_cluster_alloc alloc = { pool_page, &pool };
		struct blk_cluster_request req;
		io_return_t rc;

		random_limits(&lim);
		first_off = rnd(4) ? rnd(PAGE / 512) * 512 : rnd(PAGE);
		len = (1 + rnd(20 * PAGE / lim.logical_block_size)) *
		      lim.logical_block_size;
		npages = (first_off + len + PAGE - 1) / PAGE;
		for (i = 0; i < npages; i++)
			pages[i] = fresh_frame(pages, i);
		layout(pages, first_off, len, frags);
		/* Join some physically contiguous pages into one fragment. */
		for (i = 0; i < npages; i++) {
			if (nfrags && rnd(2) &&
			    frags[nfrags - 1].phys + frags[nfrags - 1].len ==
			    frags[i].phys)
				frags[nfrags - 1].len += frags[i].len;
			else
				frags[nfrags++] = frags[i];
		}
		req = (struct blk_cluster_request){
			rnd(2) ? R : W, rnd(1000) * lim.logical_block_size,
			len, frags, nfrags,
		};
		snprintf(name, sizeof(name), "iteration %u", iter);
		plan_init(&plan);
		rc = blk_cluster_plan(&req, &lim, &alloc, &plan);
		if (rc != D_SUCCESS) {
			ktest_fail(t, "%s: returned %d", name, rc);
			fails++;
			continue;
		}
		check_plan(t, name, &req, &lim, &plan);
		for (i = 0; i < plan.n.ncopies; i++)
			bounced += plan.copies[i].len;
		if (bounced != must_bounce(&req, &lim))
			ktest_fail(t, "%s: %llu bytes bounced, want %llu", name,
				   ULL(bounced), ULL(must_bounce(&req, &lim)));
		if (t->failed)
			fails++;
		with_bounce += plan.n.npages > 0;
		split += plan.n.ncmds > 1;
		for (i = 1; i < plan.n.ncmds; i++) {
			size_t s = plan.cmds[i].first_seg;

			cut += plan.segs[s - 1].phys + plan.segs[s - 1].len ==
			       plan.segs[s].phys;
		}
	}
	/* Show that the layouts reach the interesting paths. */
	kprintf("    # %u plans: %u with bounces, %u split into commands, "
		"%u command cuts inside a segment\n", iter, with_bounce, split,
		cut);
	KTEST_EXPECT_TRUE(t, with_bounce && split && cut);
}

static const struct ktest_case blk_cluster_cases[] = {
	{ "plans_match_the_table", plans_match_the_table },
	{ "copies_run_the_right_way", copies_run_the_right_way },
	{ "max_hw_sectors_splits_1m_into_8_commands",
	  max_hw_sectors_splits_1m_into_8_commands },
	{ "request_of_64m_splits_into_512_commands",
	  request_of_64m_splits_into_512_commands },
	{ "bad_limits_refused", bad_limits_refused },
	{ "bad_requests_refused", bad_requests_refused },
	{ "bounce_allocation_failures", bounce_allocation_failures },
	{ "plan_larger_than_its_arrays_refused",
	  plan_larger_than_its_arrays_refused },
	{ "random_plans_keep_every_rule", random_plans_keep_every_rule },
};

KTEST_SUITE(blk_cluster_suite, "blk-cluster", blk_cluster_cases);
