/* SPDX-License-Identifier: GPL-2.0-only */
/* The Linux block module: Mach disks ("hd0", "hd0s1") over Linux drivers. */
/*
 * A Mach read or write of a unit (a disk or one of its MBR partitions)
 * becomes READ/WRITE commands for the disk's adapter: the module lists
 * the request's pages (the reply's fresh pages for device_read, the
 * caller's own for device_read_into, the message's pages for
 * device_write), blk_cluster_plan turns them into
 * commands with scatter-gather lists within the adapter's limits and
 * bounce pages where a page is out of its reach, and the commands go to
 * linux-emu (lx_emul_disk.h).  Each command's done callback counts down;
 * the last one copies bounced read data back, frees the bounce pages and
 * answers through io_req_done.
 *
 * Device ops run with interrupts off and must not block, and
 * lx_emul_disk_submit may sleep.  So the op plans the request and then
 * tries lx_emul_disk_submit_now, which works only when the Linux world
 * is free at that moment; what it could not submit (world busy) goes to
 * one kernel thread, "lx-blk", which submits it in order.  A request
 * goes straight only when none waits for lx-blk, so commands reach the
 * adapter in the order of the requests.
 *
 * Answers (validate, then act: every refusal comes before anything is
 * submitted and leaves nothing allocated):
 * - a write to a unit opened without D_WRITE: D_READ_ONLY; opening a
 *   disk the device reports write-protected with D_WRITE: D_READ_ONLY;
 * - zero bytes: D_INVALID_SIZE (the planner's refusal; a disk request
 *   moves whole blocks);
 * - a size not a multiple of the block size: D_INVALID_SIZE (the
 *   dispatcher already refused it, inband transfers apart);
 * - a range that starts or ends past the unit's end: D_INVALID_RECNUM;
 * - more than DEV_IO_MAX (16 MiB) bytes: D_INVALID_SIZE from the
 *   dispatcher (kernel/device/ds_routines.c); every request up to that
 *   is split into as many commands as the adapter's limits need;
 * - device_read_inband: the first count bytes (at most 128) of the
 *   block at recnum, through one page; device_write_inband: always
 *   D_INVALID_SIZE, since at most 128 bytes is never a whole block and
 *   the module does not read-modify-write;
 * - a command the device failed (-EIO: medium error, -ETIMEDOUT: the
 *   error handler gave up) makes the request D_IO_ERROR with no data
 *   (dev_error_from_errno; -ENODEV: D_NO_SUCH_DEVICE); the commands of
 *   the request not yet submitted are not submitted.
 *
 * Locking: one CPU; module state is guarded by disabling interrupts.
 * Done callbacks come in BLOCK_SOFTIRQ, possibly with interrupts off,
 * possibly before lx_emul_disk_submit_now returns.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <device/device_types.h>
#include <graft/dev_info.h>

#include "device/dev_error.h"
#include "device/dev_module.h"
#include "device/device.h"
#include "device/io_req.h"
#include "kern/kalloc.h"
#include "kern/klog.h"
#include "kern/kprintf.h"
#include "kern/probe.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/thread.h"
#include "mach-glue/block/blk_cluster.h"
#include "mach-glue/block/dev_lxblk.h"
#include "mach-glue/block/dev_lxblk_units.h"
#include "mach-glue/block/lxblk_probe.h"
#include "vm/vm_map_copy.h"
#include "vm/vm_page.h"
#include "x86_64/cpu.h"
#include "x86_64/layout.h"

/* Lines a client's requests can cause (kern/klog.h). */
static KLOG_SOURCE(lxblk_log, "lx-blk");

#define LXBLK_PRIORITY	(THREAD_PRIORITY_DEFAULT - 2)
#define INT_LIMIT	0x7fffffffull

/*
 * One Mach request in flight.  Its arrays are the inline ones when the
 * plan fits them (no bounce, at most LXBLK_INLINE_CMDS commands and
 * LXBLK_INLINE_SEGS segments: any request up to 64 KiB on ata_piix),
 * else one more allocation, @extra, holding exactly what
 * blk_cluster_count said: the plan's commands, segments, pages and
 * copies, then linux-emu's commands and segments.
 */
#define LXBLK_INLINE_CMDS	4
#define LXBLK_INLINE_SEGS	16
#define LXBLK_STACK_FRAGS	18	/* 64 KiB at any offset */

struct lxblk_req {
	struct lxblk_req *next;		/* lx-blk's queue */
	struct io_req *req;
	struct lxblk_unit *u;
	uint64_t inband_page;		/* IO_READ_INBAND's page, or 0 */
	struct blk_cluster_plan plan;
	struct lx_emul_disk_cmd *cmds;
	struct lx_emul_disk_seg *segs;
	void *extra;			/* the arrays when not inline */
	size_t submitted;		/* commands handed to linux-emu */
	size_t pending;			/* holds: see release() */
	io_return_t error;		/* first failure */
	bool stop;			/* submit nothing more */
	struct blk_cluster_cmd icmds[LXBLK_INLINE_CMDS];
	struct blk_cluster_seg isegs[LXBLK_INLINE_SEGS];
	struct lx_emul_disk_cmd ilx_cmds[LXBLK_INLINE_CMDS];
	struct lx_emul_disk_seg ilx_segs[LXBLK_INLINE_SEGS];
};

static const struct dev_lxblk_disks *disks;
static struct lxblk_req *queue_head, *queue_tail;
static uint64_t zero_page;		/* untouched pages of a write */
static struct dev_lxblk_stats stats;
static int work_event;
static bool worker_busy;		/* lx-blk is submitting a request */

/* --- Pages --- */

static uint64_t bounce_page(void *arg)
{
	const struct lxblk_disk *d = arg;
	uint64_t pa;

	if (vm_page_alloc(d->zone, &pa) != KERN_SUCCESS)
		return BLK_CLUSTER_NO_PAGE;
	stats.bounce_pages++;
	stats.pages_held++;
	return pa;
}

static void page_free(uint64_t pa)
{
	vm_page_free_contig(pa, 1);
	stats.pages_held--;
}

/*
 * Requests come from a static pool of LXBLK_POOL, then from the heap: a
 * lone heap object of this size is a slab page of its own, which the
 * heap takes from vm_page and gives back on every request (500
 * instructions of the command path).  Interrupts off.
 */
#define LXBLK_POOL	8

static struct lxblk_req pool[LXBLK_POOL];
static struct lxblk_req *pool_free;

static struct lxblk_req *req_alloc(void)
{
	struct lxblk_req *r = pool_free;

	if (r == NULL)
		return kalloc(sizeof(*r));
	pool_free = r->next;
	return r;
}

static void req_free(struct lxblk_req *r)
{
	kfree(r->extra);
	if (r >= pool && r < pool + LXBLK_POOL) {
		r->next = pool_free;
		pool_free = r;
	} else {
		kfree(r);
	}
}

/* Run the plan's copies between bounce pages and the request's pages. */
static void run_copies(const struct blk_cluster_plan *p)
{
	uint64_t t = probe_read();

	for (size_t i = 0; i < p->n.ncopies; i++)
		memcpy(phys_to_virt(p->copies[i].to),
		       phys_to_virt(p->copies[i].from), p->copies[i].len);
	lxblk_probe_copied(probe_read() - t);
}

/* --- Completion --- */

/* Interrupts off: @req, answered with req->error, counted in @c. */
static void count(struct lxblk_counters *c, const struct io_req *req)
{
	bool write = req->op == IO_WRITE || req->op == IO_WRITE_INBAND;

	if (req->error != D_SUCCESS) {
		c->errors++;
	} else if (write) {
		c->writes++;
		c->write_bytes += req->count;
	} else {
		c->reads++;
		c->read_bytes += req->count;
	}
}

/* Interrupts off; every command submitted is done and no more will be:
 * answer the Mach request and free @r. */
static void finish(struct lxblk_req *r)
{
	struct io_req *req = r->req;

	lxblk_probe_copies_reset();
	if (r->error == D_SUCCESS && r->plan.copy_when ==
	    BLK_CLUSTER_COPY_AFTER)
		run_copies(&r->plan);
	if (r->error == D_SUCCESS && r->inband_page != 0)
		io_req_put(req, 0, phys_to_virt(r->inband_page), req->count);
	for (size_t i = 0; i < r->plan.n.npages; i++)
		page_free(r->plan.pages[i]);
	if (r->inband_page != 0)
		page_free(r->inband_page);
	req->error = r->error;
	req->done = r->error == D_SUCCESS ? req->count : 0;
	if (r->error != D_SUCCESS)
		stats.errors++;
	count(&r->u->counters, req);
	stats.in_flight--;
	lxblk_probe_answered(req, r->u->d);
	req_free(r);
	io_req_done(req);
}

static bool all_submitted(const struct lxblk_req *r)
{
	return r->stop || r->submitted == r->plan.n.ncmds;
}

/* Interrupts off: drop one hold on @r (a command in flight, the op's or
 * lx-blk's queue's); the last one, once nothing more will be submitted,
 * answers the request and frees @r. */
static void release(struct lxblk_req *r)
{
	if (--r->pending == 0 && all_submitted(r))
		finish(r);
}

/* linux-emu's done callback (softirq, or the driver's interrupt:
 * lx_emul_disk.h; never blocks). */
static void cmd_done(struct lx_emul_disk_cmd *cmd, int result)
{
	struct lxblk_req *r = cmd->cookie;
	uint64_t flags = cpu_intr_save();

	if (result != 0) {
		klog(&lxblk_log,
		     "lx-blk: %s: %s of %u blocks at %llu failed (%d)\n",
		     r->u->name, cmd->write ? "write" : "read", cmd->blocks,
		     (unsigned long long)cmd->lba, result);
		if (r->error == D_SUCCESS)
			r->error = dev_error_from_errno(result);
		r->stop = true;
	}
	release(r);
	cpu_intr_restore(flags);
}

void dev_lxblk_stats(struct dev_lxblk_stats *out)
{
	uint64_t flags = cpu_intr_save();

	*out = stats;
	out->units = dev_lxblk_units_count();
	cpu_intr_restore(flags);
}

/* --- Submitting --- */

/*
 * Hand @r's next commands to linux-emu, in order, until all are in, one
 * is refused (recorded in r->error; the rest is not submitted) or, from
 * an op (!@may_block: lx_emul_disk_submit_now), the world is busy.  The
 * caller holds @r (r->pending), so its done callbacks cannot free it
 * meanwhile.  Interrupts off on entry and exit; lx-blk (@may_block)
 * submits with them on.  Returns false if the world was busy and the
 * rest waits, else true.
 */
static bool submit_cmds(struct lxblk_req *r, bool may_block)
{
	while (!all_submitted(r)) {
		struct lx_emul_disk_cmd *cmd = &r->cmds[r->submitted];
		int err;

		r->pending++;		/* done may come before submit returns */
		r->submitted++;
		if (may_block) {
			cpu_intr_enable();
			err = disks->submit(r->u->d->disk, cmd);
			cpu_intr_disable();
		} else {
			err = disks->submit_now(r->u->d->disk, cmd);
		}
		if (err == 0) {
			stats.cmds++;
			stats.direct += !may_block;
			continue;
		}
		r->pending--;
		r->submitted--;
		if (err == -LX_EAGAIN && !may_block)
			return false;
		klog(&lxblk_log, "lx-blk: %s: command refused (%d)\n",
		     r->u->name, err);
		if (r->error == D_SUCCESS)
			r->error = dev_error_from_errno(err);
		r->stop = true;
	}
	return true;
}

/* Interrupts off: queue @r for lx-blk, with the caller's hold. */
static void queue_push(struct lxblk_req *r)
{
	r->next = NULL;
	if (queue_tail != NULL)
		queue_tail->next = r;
	else
		queue_head = r;
	queue_tail = r;
	thread_wakeup(&work_event);
}

/* lx-blk: submit queued requests in order, with the queue's hold. */
static void worker(void *arg)
{
	(void)arg;
	cpu_intr_disable();
	for (;;) {
		struct lxblk_req *r;

		while (queue_head == NULL) {
			assert_wait(&work_event);
			thread_block();
		}
		r = queue_head;
		queue_head = r->next;
		if (queue_head == NULL)
			queue_tail = NULL;
		worker_busy = true;	/* ops queue behind r meanwhile */
		submit_cmds(r, true);
		worker_busy = false;
		release(r);
	}
}

/* --- Planning --- */

/* The fragments of @req's @bytes of data in @frags (physically
 * contiguous pages joined; at most @bytes / 4096 + 2; an inband read's
 * one page); returns how many. */
static size_t list_frags(struct io_req *req, uint64_t bytes,
			 uint64_t inband_page, struct blk_cluster_frag *frags)
{
	const struct vm_map_copy *c = req->copy;
	uint64_t off, left = bytes;
	size_t n = 0;

	if (inband_page != 0) {
		frags[0].phys = inband_page;
		frags[0].len = left;
		return 1;
	}
	off = c->offset;
	for (uint64_t i = off / VM_PAGE_SIZE; left > 0; i++) {
		uint64_t in = off % VM_PAGE_SIZE;
		uint64_t len = VM_PAGE_SIZE - in < left ? VM_PAGE_SIZE - in :
			       left;
		uint64_t frame = c->frames[i] != 0 ? c->frames[i] : zero_page;

		if (n > 0 && frags[n - 1].phys + frags[n - 1].len ==
		    frame + in) {
			frags[n - 1].len += len;	/* contiguous pages */
		} else {
			frags[n].phys = frame + in;
			frags[n].len = len;
			n++;
		}
		off += len;
		left -= len;
	}
	return n;
}

/* Plan @br for @lim into @r's inline arrays: D_INVALID_SIZE if the plan
 * does not fit them (or needs bounce pages), else the planner's answer. */
static io_return_t plan_inline(struct lxblk_req *r,
			       const struct blk_cluster_request *br,
			       const struct blk_cluster_limits *lim)
{
	r->plan = (struct blk_cluster_plan){
		.cmds = r->icmds, .max_cmds = LXBLK_INLINE_CMDS,
		.segs = r->isegs, .max_segs = LXBLK_INLINE_SEGS,
	};
	r->cmds = r->ilx_cmds;
	r->segs = r->ilx_segs;
	return blk_cluster_plan(br, lim, NULL, &r->plan);
}

/* Plan @br into arrays of the exact size blk_cluster_count says, with
 * bounce pages from @u's zone.  The planner's answer; D_NO_MEMORY. */
static io_return_t plan_counted(struct lxblk_req *r, struct lxblk_unit *u,
				const struct blk_cluster_request *br,
				const struct blk_cluster_limits *lim)
{
	const struct blk_cluster_alloc alloc = { bounce_page, u->d };
	struct blk_cluster_counts n;
	io_return_t rc = blk_cluster_count(br, lim, &n);
	uint8_t *p;

	if (rc != D_SUCCESS)
		return rc;
	p = kalloc(n.ncmds * (sizeof(struct blk_cluster_cmd) +
			      sizeof(struct lx_emul_disk_cmd)) +
		   n.nsegs * (sizeof(struct blk_cluster_seg) +
			      sizeof(struct lx_emul_disk_seg)) +
		   n.npages * sizeof(uint64_t) +
		   n.ncopies * sizeof(struct blk_cluster_copy));
	if (p == NULL)
		return D_NO_MEMORY;
	r->extra = p;
	r->cmds = (struct lx_emul_disk_cmd *)p;
	p += n.ncmds * sizeof(*r->cmds);
	r->plan.cmds = (struct blk_cluster_cmd *)p;
	r->plan.max_cmds = n.ncmds;
	p += n.ncmds * sizeof(*r->plan.cmds);
	r->plan.segs = (struct blk_cluster_seg *)p;
	r->plan.max_segs = n.nsegs;
	p += n.nsegs * sizeof(*r->plan.segs);
	r->plan.pages = (uint64_t *)p;
	r->plan.max_pages = n.npages;
	p += n.npages * sizeof(*r->plan.pages);
	r->segs = (struct lx_emul_disk_seg *)p;
	p += n.nsegs * sizeof(*r->segs);
	r->plan.copies = (struct blk_cluster_copy *)p;
	r->plan.max_copies = n.ncopies;
	rc = blk_cluster_plan(br, lim, &alloc, &r->plan);
	if (rc != D_SUCCESS) {
		for (size_t i = 0; i < r->plan.n.npages; i++)
			page_free(r->plan.pages[i]);
		r->plan.n.npages = 0;
	}
	return rc;
}

/*
 * Plan @req (@bytes from block recnum of @u) into a new lxblk_req: its
 * commands, segments and bounce pages.  D_SUCCESS with *@out set, or the
 * planner's refusal (D_INVALID_RECNUM, D_INVALID_SIZE), D_NO_MEMORY;
 * nothing is left allocated on failure.  Interrupts off.
 */
static io_return_t plan(struct lxblk_unit *u, struct io_req *req,
			uint64_t bytes, uint64_t inband_page,
			struct lxblk_req **out)
{
	size_t maxfrags = bytes / VM_PAGE_SIZE + 2;
	struct blk_cluster_frag stack_frags[LXBLK_STACK_FRAGS];
	struct blk_cluster_limits lim = u->d->lim;
	struct blk_cluster_request br = {
		.op = req->op == IO_WRITE ? BLK_CLUSTER_WRITE :
		      BLK_CLUSTER_READ,
		.offset = (uint64_t)req->recnum * lim.logical_block_size,
		.length = bytes,
		.frags = stack_frags,
	};
	struct lxblk_req *r;
	io_return_t rc;

	/* Range first: recnum and count come from the client. */
	lim.capacity_blocks = u->blocks;
	if (req->recnum >= u->blocks)
		return D_INVALID_RECNUM;
	if (maxfrags > LXBLK_STACK_FRAGS) {
		br.frags = kalloc(maxfrags * sizeof(*br.frags));
		if (br.frags == NULL)
			return D_NO_MEMORY;
	}
	br.nfrags = list_frags(req, bytes, inband_page,
			       (struct blk_cluster_frag *)br.frags);
	r = req_alloc();
	rc = D_NO_MEMORY;
	if (r == NULL)
		goto out;
	r->extra = NULL;
	rc = plan_inline(r, &br, &lim);
	if (rc == D_INVALID_SIZE)
		rc = plan_counted(r, u, &br, &lim);
	if (rc != D_SUCCESS) {
		req_free(r);
		goto out;
	}
	r->submitted = r->pending = 0;
	r->error = D_SUCCESS;
	r->stop = false;
	*out = r;
out:
	if (br.frags != stack_frags)
		kfree((void *)br.frags);
	return rc;
}

/* Fill linux-emu's commands of @r from its plan (@u's offset added). */
static void make_cmds(struct lxblk_req *r, bool write)
{
	for (size_t i = 0; i < r->plan.n.nsegs; i++) {
		r->segs[i].phys = r->plan.segs[i].phys;
		r->segs[i].len = r->plan.segs[i].len;
	}
	for (size_t i = 0; i < r->plan.n.ncmds; i++) {
		const struct blk_cluster_cmd *pc = &r->plan.cmds[i];
		struct lx_emul_disk_cmd *c = &r->cmds[i];

		c->write = write;
		c->lba = r->u->first + pc->lba;
		c->blocks = pc->blocks;
		c->segs = &r->segs[pc->first_seg];
		c->nsegs = pc->nsegs;
		c->done = cmd_done;
		c->cookie = r;
	}
}

/* --- Device ops (interrupts off, never block) --- */

static bool lxblk_match(const char *name)
{
	return dev_lxblk_units_find(name) != NULL;
}

static io_return_t lxblk_open(struct device *dev, dev_mode_t mode)
{
	struct lxblk_unit *u = dev_lxblk_units_find(dev->name);

	if (u == NULL)
		return D_NO_SUCH_DEVICE;
	if ((mode & D_WRITE) && u->d->info.read_only)
		return D_READ_ONLY;
	u->writable = (mode & D_WRITE) != 0;
	dev->record_size = u->d->info.block_size;
	dev->priv = u;
	return D_SUCCESS;
}

static void lxblk_close(struct device *dev)
{
	struct lxblk_unit *u = dev->priv;

	/* Requests in flight keep their own reference on @dev. */
	u->writable = false;
	dev->priv = NULL;
}

/* Plan @req and start it: the read and the write op. */
static io_return_t lxblk_io(struct device *dev, struct io_req *req)
{
	uint64_t now = probe_read();
	struct lxblk_unit *u = dev->priv;
	bool write = req->op == IO_WRITE || req->op == IO_WRITE_INBAND;
	uint64_t bytes = req->count, inband_page = 0;
	struct lxblk_req *r;
	io_return_t rc;

	if (write && !u->writable)
		return D_READ_ONLY;
	if (req->count == 0 || req->op == IO_WRITE_INBAND)
		return D_INVALID_SIZE;
	if (req->op == IO_READ_INBAND) {
		bytes = u->d->info.block_size;
		if (req->recnum >= u->blocks)
			return D_INVALID_RECNUM;
		if (vm_page_alloc(u->d->zone, &inband_page) != KERN_SUCCESS)
			return D_NO_MEMORY;
		stats.pages_held++;
	}
	lxblk_probe_copies_reset();
	rc = plan(u, req, bytes, inband_page, &r);
	if (rc != D_SUCCESS) {
		if (inband_page != 0)
			page_free(inband_page);
		return rc;
	}
	r->req = req;
	r->u = u;
	r->inband_page = inband_page;
	make_cmds(r, write);
	if (r->plan.copy_when == BLK_CLUSTER_COPY_BEFORE)
		run_copies(&r->plan);
	stats.requests++;
	stats.in_flight++;
	lxblk_probe_op(u->d, now, (uint32_t)req->count, r->cmds[0].nsegs,
		       write);
	r->pending = 1;		/* the op's hold, then the queue's */
	if (queue_head != NULL || worker_busy || !submit_cmds(r, false))
		queue_push(r);
	else
		release(r);
	return D_IO_QUEUED;
}

static io_return_t lxblk_get_status(struct device *dev, struct dev_call *call,
				    dev_flavor_t flavor, int *status,
				    mach_msg_type_number_t *count)
{
	struct lxblk_unit *u = dev->priv;
	uint64_t bs = u->d->info.block_size;
	uint64_t records = u->blocks;

	(void)call;
	if (flavor == GRAFT_DEV_INFO)
		return dev_lxblk_units_info(u, status, count);
	if (flavor != DEV_GET_SIZE && flavor != DEV_GET_RECORDS)
		return D_INVALID_OPERATION;
	if (*count < 2)
		return D_INVALID_SIZE;
	/* The status words are ints: beyond, they saturate. */
	if (records > INT_LIMIT / bs && flavor == DEV_GET_SIZE)
		records = INT_LIMIT / bs;
	if (records > INT_LIMIT)
		records = INT_LIMIT;
	status[0] = (int)(flavor == DEV_GET_SIZE ? records * bs : records);
	status[1] = (int)bs;	/* _RECORD_SIZE in both flavours */
	*count = 2;
	return D_SUCCESS;
}

static const struct dev_ops lxblk_ops = {
	.open = lxblk_open,
	.close = lxblk_close,
	.read = lxblk_io,
	.write = lxblk_io,
	.get_status = lxblk_get_status,
	.replied = lxblk_probe_replied,
	/* a write's pages only go to the device (DMA, or a bounce copy
	 * from them) until the request is answered */
	.write_reads_frames = true,
	/* a read's data only comes into its pages (DMA, or a bounce copy
	 * to them) until the request is answered */
	.read_into = true,
};

const struct dev_module dev_lxblk_module = {
	.name = "lxblk",
	.match = lxblk_match,
	.ops = &lxblk_ops,
};
DEV_MODULE(dev_lxblk_module, DEV_ORDER_LINUX);

int dev_lxblk_start(const struct dev_lxblk_disks *ops)
{
	unsigned int ndisks, cmds = 0;

	if (disks != NULL ||
	    vm_page_alloc(VM_ZONE_DMA, &zero_page) != KERN_SUCCESS)
		return 0;
	memset(phys_to_virt(zero_page), 0, VM_PAGE_SIZE);
	for (unsigned int i = 0; i < LXBLK_POOL; i++)
		req_free(&pool[i]);
	disks = ops;
	ndisks = dev_lxblk_units_scan(ops, &cmds);
	stats.cmds += cmds;
	if (ndisks == 0)
		return 0;
	ops->probe_set(lxblk_probe_point);
	if (kernel_thread_create("lx-blk", LXBLK_PRIORITY, worker, NULL,
				 NULL) != KERN_SUCCESS) {
		kprintf("lx-blk: cannot start the worker thread\n");
		dev_lxblk_units_forget();
		return 0;
	}
	return (int)ndisks;
}
