/* SPDX-License-Identifier: GPL-2.0-only */
/* Block clustering: plans S/G commands and bounce copies for a request. */

#include "blk_cluster.h"

/*
 * How a plan is made.  The request is a sequence of pieces: the part of
 * one fragment inside one physical page.  A piece is direct when its
 * address, length and position in the request are multiples of the DMA
 * alignment and its last byte is below the DMA mask; otherwise it is
 * bounced.  (A fragment all of whose pieces are direct is walked as one
 * piece: the cuts below still fall where page pieces would put them.)
 * A run of consecutive bounced pieces is packed into bounce pages from
 * offset 0 of its first page, so bounce page k of a run holds request
 * bytes [run start + 4096k, run start + 4096(k + 1)).
 *
 * A segment is the longest stretch from a position that the limits allow:
 * direct pieces joined while physically contiguous, inside one boundary
 * window and within max_segment_size; or bounced bytes up to the end of
 * a bounce page.  So every cut between segments lies on a physical page
 * boundary, at request offsets congruent to one value mod 4096, or on a
 * bounce page boundary of a run starting at 0, a multiple of 4096 (never
 * inside a block).  A logical block (at most 4096 bytes) therefore spans
 * at most two segments.  A command takes segments until max_segments or
 * max_hw_sectors is reached, then gives back the bytes after its last
 * block boundary; with max_segments >= 2 that boundary always exists.
 */

#define PAGE_SZ		((uint64_t)BLK_CLUSTER_PAGE_SIZE)
#define PAGE_OFF(a)	((a) & (PAGE_SZ - 1))
#define PHYS_LIMIT	((uint64_t)1 << 52)	/* x86_64's widest */
#define ISA_DMA_MASK	((uint64_t)0xffffff)

struct ctx {
	const struct blk_cluster_request *req;
	const struct blk_cluster_limits *lim;
	uint64_t align;		/* dma_alignment + 1 */
	uint64_t max_bytes;	/* per command, whole blocks */
	const uint64_t *pages;	/* bounce pages, or NULL while counting */
};

/* The part of one fragment inside one physical page. */
struct piece {
	size_t frag;
	uint64_t off;		/* of the piece in its fragment */
	uint64_t phys;
	uint64_t len;
	uint64_t r;		/* of the piece in the request */
	bool direct;
};

/* A position in the request and the bounce run it is in. */
struct cursor {
	size_t frag;
	uint64_t off;
	uint64_t r;
	bool in_run;
	uint64_t run_start;	/* request offset where the run began */
	size_t run_base;	/* the run's first bounce page */
	size_t next_page;	/* first bounce page no earlier run uses */
};

static bool is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

/* @mask is 2^n - 1 (all ones counts). */
static bool is_low_mask(uint64_t mask)
{
	return !(mask & (mask + 1));
}

static bool limits_valid(const struct blk_cluster_limits *lim)
{
	uint32_t lbs = lim->logical_block_size;

	return is_pow2(lbs) && lbs >= 512 && lbs <= PAGE_SZ &&
	       is_pow2((uint64_t)lim->dma_alignment + 1) &&
	       lim->dma_alignment < lbs && lim->max_segments >= 2 &&
	       lim->max_segment_size >= PAGE_SZ &&
	       is_low_mask(lim->seg_boundary_mask) &&
	       lim->seg_boundary_mask >= PAGE_SZ - 1 &&
	       lim->max_hw_sectors >= PAGE_SZ / BLK_CLUSTER_SECTOR &&
	       is_low_mask(lim->dma_mask) && lim->dma_mask >= ISA_DMA_MASK &&
	       lim->capacity_blocks;
}

/* Fragments: shape (see blk_cluster.h) and total. */
static bool frags_valid(const struct blk_cluster_request *req)
{
	uint64_t sum = 0;
	size_t i;

	if (!req->frags || !req->nfrags)
		return false;
	for (i = 0; i < req->nfrags; i++) {
		const struct blk_cluster_frag *f = &req->frags[i];

		if (!f->len || f->phys >= PHYS_LIMIT ||
		    f->len > PHYS_LIMIT - f->phys)
			return false;
		if (i > 0 && PAGE_OFF(f->phys))
			return false;
		if (i + 1 < req->nfrags && PAGE_OFF(f->phys + f->len))
			return false;
		if (f->len > req->length - sum)
			return false;
		sum += f->len;
	}
	return sum == req->length;
}

static io_return_t request_check(const struct blk_cluster_request *req,
				 const struct blk_cluster_limits *lim)
{
	uint64_t lbs, first, count;

	if (req->op != BLK_CLUSTER_READ && req->op != BLK_CLUSTER_WRITE)
		return D_INVALID_OPERATION;
	if (!limits_valid(lim))
		return D_INVALID_OPERATION;
	lbs = lim->logical_block_size;
	if (!req->length || req->length % lbs)
		return D_INVALID_SIZE;
	if (req->offset % lbs)
		return D_INVALID_RECNUM;
	first = req->offset / lbs;
	count = req->length / lbs;
	if (first >= lim->capacity_blocks ||
	    count > lim->capacity_blocks - first)
		return D_INVALID_RECNUM;
	if (!frags_valid(req))
		return D_INVALID_OPERATION;
	return D_SUCCESS;
}

static void ctx_init(struct ctx *c, const struct blk_cluster_request *req,
		     const struct blk_cluster_limits *lim)
{
	uint64_t lbs = lim->logical_block_size;

	c->req = req;
	c->lim = lim;
	c->align = (uint64_t)lim->dma_alignment + 1;
	c->max_bytes = (uint64_t)lim->max_hw_sectors * BLK_CLUSTER_SECTOR /
		       lbs * lbs;
	c->pages = NULL;
}

/* Whether @len bytes at @phys, request offset @r, go to the device
 * directly (see above). */
static bool is_direct(const struct ctx *c, uint64_t phys, uint64_t len,
		      uint64_t r)
{
	return !((phys | len | r) & (c->align - 1)) &&
	       phys + len - 1 <= c->lim->dma_mask;
}

/*
 * Whether all of fragment @f, at request offset @fr, goes to the device
 * directly: then every page piece of it would be direct, and the
 * fragment is taken as one piece, so that the walks below cost per
 * fragment rather than per page (a contiguous 64 KiB buffer is one step,
 * not sixteen).
 */
static bool frag_direct(const struct ctx *c, const struct blk_cluster_frag *f,
			uint64_t fr)
{
	return is_direct(c, f->phys, f->len, fr);
}

/* The piece holding byte @off of fragment @frag, request offset @r: the
 * whole fragment if it is direct, else the part of it in @off's page. */
static void piece_at(const struct ctx *c, size_t frag, uint64_t off,
		     uint64_t r, struct piece *pc)
{
	const struct blk_cluster_frag *f = &c->req->frags[frag];
	uint64_t at = f->phys + off;
	uint64_t start = at - PAGE_OFF(at);
	uint64_t end = start + PAGE_SZ;

	pc->frag = frag;
	if (frag_direct(c, f, r - off)) {
		pc->off = 0;
		pc->phys = f->phys;
		pc->len = f->len;
		pc->r = r - off;
		pc->direct = true;
		return;
	}
	if (start < f->phys)
		start = f->phys;
	if (end > f->phys + f->len)
		end = f->phys + f->len;
	pc->off = off - (at - start);
	pc->phys = start;
	pc->len = end - start;
	pc->r = r - (at - start);
	pc->direct = is_direct(c, pc->phys, pc->len, pc->r);
}

/* The piece after @pc into @nx; false at the end of the request. */
static bool piece_next(const struct ctx *c, const struct piece *pc,
		       struct piece *nx)
{
	size_t frag = pc->frag;
	uint64_t off = pc->off + pc->len;

	if (off == c->req->frags[frag].len) {
		if (++frag == c->req->nfrags)
			return false;
		off = 0;
	}
	piece_at(c, frag, off, pc->r + pc->len, nx);
	return true;
}

/* @cur has reached the start of a piece (or the end): track runs. */
static void cursor_enter(const struct ctx *c, struct cursor *cur)
{
	struct piece pc;
	bool direct = true;

	if (cur->r < c->req->length) {
		piece_at(c, cur->frag, cur->off, cur->r, &pc);
		direct = pc.direct;
	}
	if (!direct && !cur->in_run) {
		cur->in_run = true;
		cur->run_start = cur->r;
		cur->run_base = cur->next_page;
	} else if (direct && cur->in_run) {
		cur->in_run = false;
		cur->next_page = cur->run_base +
			(cur->r - cur->run_start + PAGE_SZ - 1) / PAGE_SZ;
	}
}

static void cursor_start(const struct ctx *c, struct cursor *cur)
{
	*cur = (struct cursor){ 0 };
	cursor_enter(c, cur);
}

static void cursor_advance(const struct ctx *c, struct cursor *cur,
			   uint64_t n)
{
	while (n) {
		const struct blk_cluster_frag *f = &c->req->frags[cur->frag];
		struct piece pc;
		uint64_t rest, step;

		piece_at(c, cur->frag, cur->off, cur->r, &pc);
		rest = pc.off + pc.len - cur->off;
		step = n < rest ? n : rest;
		cur->off += step;
		cur->r += step;
		n -= step;
		if (step < rest)
			continue;
		if (cur->off == f->len && cur->frag + 1 < c->req->nfrags) {
			cur->frag++;
			cur->off = 0;
		}
		cursor_enter(c, cur);
	}
}

/*
 * How much of @avail further bytes, physically following a direct
 * segment of @len bytes at @at and starting on a page boundary, the
 * segment may take: whole pages (then a last partial page ending @avail)
 * while it stays within max_segment_size and one boundary window.
 */
static uint64_t join(const struct ctx *c, uint64_t at, uint64_t len,
		     uint64_t avail)
{
	uint64_t mask = c->lim->seg_boundary_mask;
	uint64_t room = mask - (at & mask) - (len - 1);	/* window */
	uint64_t pages = avail / PAGE_SZ, part = PAGE_OFF(avail), k;

	if (c->lim->max_segment_size - len < room)
		room = c->lim->max_segment_size - len;
	k = room / PAGE_SZ < pages ? room / PAGE_SZ : pages;
	if (k == pages && part && part <= room - k * PAGE_SZ)
		return avail;
	return k * PAGE_SZ;
}

/* The longest segment the limits allow from @cur, into @s; its length. */
static uint64_t span(const struct ctx *c, const struct cursor *cur,
		     struct blk_cluster_seg *s)
{
	struct piece pc, nx;
	uint64_t at, len, roff, room;

	piece_at(c, cur->frag, cur->off, cur->r, &pc);
	at = pc.phys + (cur->r - pc.r);
	len = pc.phys + pc.len - at;
	s->orig_phys = at;
	if (pc.direct) {
		s->phys = at;
		s->bounced = false;
		/* The page piece at @at, then whole pages (the last one
		 * maybe partial) while they fit: as joining page pieces one
		 * at a time would, in one step per piece. */
		if (len > PAGE_SZ - PAGE_OFF(at))
			len = PAGE_SZ - PAGE_OFF(at);
		len += join(c, at, len, pc.phys + pc.len - (at + len));
		while (at + len == pc.phys + pc.len &&
		       piece_next(c, &pc, &nx) && nx.direct &&
		       nx.phys == at + len) {
			uint64_t add = join(c, at, len, nx.len);

			len += add;
			if (add < nx.len)
				break;
			pc = nx;
		}
		return len;
	}
	roff = cur->r - cur->run_start;
	room = PAGE_SZ - PAGE_OFF(roff);
	s->bounced = true;
	s->phys = c->pages ? c->pages[cur->run_base + roff / PAGE_SZ] +
			     PAGE_OFF(roff) : 0;
	while (len < room && piece_next(c, &pc, &nx) && !nx.direct) {
		len += nx.len;
		pc = nx;
	}
	return len < room ? len : room;
}

/* Bounce copies into @plan (if any); counts copies and bounce pages. */
static void walk_copies(const struct ctx *c, struct blk_cluster_plan *plan,
			struct blk_cluster_counts *n)
{
	struct cursor cur;
	struct piece pc;
	uint64_t done, roff, bounce, len;

	n->ncopies = 0;
	for (cursor_start(c, &cur); cur.r < c->req->length;
	     cursor_advance(c, &cur, pc.len)) {
		piece_at(c, cur.frag, cur.off, cur.r, &pc);
		for (done = 0; !pc.direct && done < pc.len; done += len) {
			roff = pc.r + done - cur.run_start;
			len = PAGE_SZ - PAGE_OFF(roff);
			if (len > pc.len - done)
				len = pc.len - done;
			if (plan) {
				struct blk_cluster_copy *cp =
					&plan->copies[n->ncopies];

				bounce = c->pages[cur.run_base +
						  roff / PAGE_SZ] +
					 PAGE_OFF(roff);
				cp->len = len;
				cp->from = c->req->op == BLK_CLUSTER_WRITE ?
					   pc.phys + done : bounce;
				cp->to = c->req->op == BLK_CLUSTER_WRITE ?
					 bounce : pc.phys + done;
			}
			n->ncopies++;
		}
	}
	n->npages = cur.next_page;
}

/*
 * Commands and segments into @plan (if any); counts them.  Segments a
 * command gives back may be written past its end first; nothing is
 * written beyond plan->max_cmds and plan->max_segs (the counts go on).
 * Returns D_SUCCESS, or D_INVALID_OPERATION if a block would need more
 * than max_segments segments, which the design notes above rule out for
 * validated input.
 */
static io_return_t walk_cmds(const struct ctx *c,
			     struct blk_cluster_plan *plan,
			     struct blk_cluster_counts *n)
{
	uint64_t lbs = c->lim->logical_block_size;
	struct cursor cur, good;

	n->ncmds = n->nsegs = 0;
	cursor_start(c, &cur);
	while (cur.r < c->req->length) {
		uint64_t start = cur.r, bytes = 0, good_bytes = 0;
		uint64_t len, edge, good_len = 0;
		uint32_t segs = 0, good_segs = 0;
		struct blk_cluster_seg s;

		while (cur.r < c->req->length &&
		       segs < c->lim->max_segments && bytes < c->max_bytes) {
			len = span(c, &cur, &s);
			if (len > c->max_bytes - bytes)
				len = c->max_bytes - bytes;
			s.len = len;
			if (plan && n->nsegs + segs < plan->max_segs)
				plan->segs[n->nsegs + segs] = s;
			segs++;
			edge = (bytes + len) / lbs * lbs;
			if (edge > bytes) {
				good = cur;
				cursor_advance(c, &good, edge - bytes);
				good_bytes = edge;
				good_segs = segs;
				good_len = edge - bytes;
			}
			cursor_advance(c, &cur, len);
			bytes += len;
		}
		if (!good_bytes)
			return D_INVALID_OPERATION;
		if (bytes != good_bytes) {
			cur = good;
			segs = good_segs;
			bytes = good_bytes;
			if (plan && n->nsegs + segs - 1 < plan->max_segs)
				plan->segs[n->nsegs + segs - 1].len = good_len;
		}
		if (plan && n->ncmds < plan->max_cmds)
			plan->cmds[n->ncmds] = (struct blk_cluster_cmd){
				.lba = (c->req->offset + start) / lbs,
				.blocks = bytes / lbs,
				.first_seg = n->nsegs,
				.nsegs = segs,
			};
		n->ncmds++;
		n->nsegs += segs;
	}
	return D_SUCCESS;
}

/* Whether no byte of the request is bounced: every fragment direct. */
static bool all_direct(const struct ctx *c)
{
	uint64_t r = 0;

	for (size_t i = 0; i < c->req->nfrags; i++) {
		if (!frag_direct(c, &c->req->frags[i], r))
			return false;
		r += c->req->frags[i].len;
	}
	return true;
}

io_return_t blk_cluster_count(const struct blk_cluster_request *req,
			      const struct blk_cluster_limits *lim,
			      struct blk_cluster_counts *counts)
{
	struct ctx c;
	io_return_t rc;

	rc = request_check(req, lim);
	if (rc != D_SUCCESS)
		return rc;
	ctx_init(&c, req, lim);
	if (all_direct(&c))
		counts->ncopies = counts->npages = 0;
	else
		walk_copies(&c, NULL, counts);
	return walk_cmds(&c, NULL, counts);
}

/* blk_cluster_plan of a request that bounces nothing: one walk, its
 * counts checked against the arrays afterwards (it wrote nothing past
 * them). */
static io_return_t plan_direct(const struct ctx *c,
			       struct blk_cluster_plan *plan)
{
	struct blk_cluster_counts n = { 0 };
	io_return_t rc = walk_cmds(c, plan, &n);

	if (rc != D_SUCCESS)
		return rc;
	if (n.ncmds > plan->max_cmds || n.nsegs > plan->max_segs)
		return D_INVALID_SIZE;
	plan->n = n;
	return D_SUCCESS;
}

io_return_t blk_cluster_plan(const struct blk_cluster_request *req,
			     const struct blk_cluster_limits *lim,
			     const struct blk_cluster_alloc *alloc,
			     struct blk_cluster_plan *plan)
{
	struct blk_cluster_counts need;
	struct ctx c;
	io_return_t rc;
	uint64_t page;

	plan->n = (struct blk_cluster_counts){ 0 };
	plan->copy_when = req->op == BLK_CLUSTER_WRITE ?
			  BLK_CLUSTER_COPY_BEFORE : BLK_CLUSTER_COPY_AFTER;
	rc = request_check(req, lim);
	if (rc != D_SUCCESS)
		return rc;
	ctx_init(&c, req, lim);
	if (all_direct(&c))
		return plan_direct(&c, plan);
	walk_copies(&c, NULL, &need);		/* blk_cluster_count's */
	rc = walk_cmds(&c, NULL, &need);
	if (rc != D_SUCCESS)
		return rc;
	if (need.ncmds > plan->max_cmds || need.nsegs > plan->max_segs ||
	    need.ncopies > plan->max_copies || need.npages > plan->max_pages)
		return D_INVALID_SIZE;
	while (plan->n.npages < need.npages) {
		page = alloc && alloc->page ? alloc->page(alloc->arg) :
					      BLK_CLUSTER_NO_PAGE;
		if (page == BLK_CLUSTER_NO_PAGE)
			return D_NO_MEMORY;
		plan->pages[plan->n.npages++] = page;
		if (PAGE_OFF(page) || page + PAGE_SZ - 1 > lim->dma_mask)
			return D_NO_MEMORY;
	}
	c.pages = plan->pages;
	walk_copies(&c, plan, &plan->n);
	return walk_cmds(&c, plan, &plan->n);
}
