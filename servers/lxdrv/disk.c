/* SPDX-License-Identifier: GPL-2.0-only */
/* The world's disks in the server: each published as "hd<index>" with its MBR partitions "hd<index>s<n>", reads and writes through a bounce buffer in the pool. */
/*
 * The units are the kernel's block module's (mach-glue/block/README.md,
 * "Units"): the whole disk, and each MBR primary partition blk_mbr_parse
 * keeps, in whole blocks.  Each is published through the kernel's proxy
 * with records of the disk's block size and the DEV_GET_SIZE and
 * DEV_GET_RECORDS records the block module answers.
 *
 * A forwarded read or write is checked as the block module checks it
 * (same refusals, same codes), then moved in chunks through one bounce
 * buffer of the world's pool (physically contiguous, below the disk's
 * DMA mask): a write's chunk is copied in, planned into commands within
 * the disk's limits (blk_cluster_plan over the buffer, one fragment),
 * submitted with lx_emul_disk_submit and waited for; a read's is copied
 * out after its commands are done.  So any request the proxy forwards
 * (up to DEV_IO_MAX) is served whatever the pool's size.  The serve
 * thread waits; the commands' done callbacks (lx_emul_disk.h) count down
 * and wake it.  A failed command stops the request: its later commands
 * are not submitted, and the answer is dev_error_from_errno of the
 * first error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <device/device_types.h>
#include <graft/proxy_types.h>

#include "device/dev_error.h"
#include "mach-glue/block/blk_cluster.h"
#include "mach-glue/block/blk_mbr.h"

#include <lx_emul.h>
#include <lx_emul_disk.h>
#include <lx_host.h>

#include "lxdrv.h"
#include "lxdrv_glue.h"
#include "lxdrv_probe.h"
#include "serve.h"

#define DISKS_MAX	4		/* hd0 .. hd3, as the block module */
#define PAGE		4096ul
#define UNITS_MAX	(DISKS_MAX * (1 + BLK_MBR_PRIMARY))
#define BOUNCE_MAX	(1ul << 20)
#define BOUNCE_MIN	(64ul << 10)
#define INT_LIMIT	0x7fffffffull
#define STATUS_INTS	10		/* DEV_GET_SIZE, DEV_GET_RECORDS */

struct disk {
	struct lx_emul_disk *disk;
	struct lx_emul_disk_info info;
	struct blk_cluster_limits lim;	/* capacity: the whole disk */
};

struct unit {
	struct lxdrv_device dev;
	struct disk *d;
	uint64_t first;			/* block of the disk where it starts */
	uint64_t blocks;
};

/* The commands of one chunk in flight: what the done callbacks count. */
struct batch {
	unsigned int pending;
	int error;			/* the first failure, -errno */
};

static struct disk disks[DISKS_MAX];
static struct unit units[UNITS_MAX];
static unsigned int nunits;
static uint8_t *bounce;
static unsigned long bounce_len, bounce_pa;

/* A chunk's plan and linux-emu's commands, grown as plans need. */
static struct blk_cluster_cmd *plan_cmds;
static struct blk_cluster_seg *plan_segs;
static struct lx_emul_disk_cmd *lx_cmds;
static struct lx_emul_disk_seg *lx_segs;
static size_t max_cmds, max_segs;

/* Make the two arrays at *@a and *@b (@asize and @bsize bytes an
 * entry) hold @n entries if they hold fewer than *@max.  0, or -1. */
static int grow(void **a, size_t asize, void **b, size_t bsize, size_t n,
		size_t *max)
{
	void *p;

	if (n <= *max)
		return 0;
	p = realloc(*a, n * asize);
	if (!p)
		return -1;
	*a = p;
	p = realloc(*b, n * bsize);
	if (!p)
		return -1;
	*b = p;
	*max = n;
	return 0;
}

static int arrays_fit(size_t ncmds, size_t nsegs)
{
	return grow((void **)&plan_cmds, sizeof(*plan_cmds),
		    (void **)&lx_cmds, sizeof(*lx_cmds), ncmds, &max_cmds) ||
	       grow((void **)&plan_segs, sizeof(*plan_segs),
		    (void **)&lx_segs, sizeof(*lx_segs), nsegs, &max_segs) ?
	       -1 : 0;
}

/* linux-emu's done callback (softirq, or the driver's interrupt:
 * lx_emul_disk.h): count down, wake. */
static void cmd_done(struct lx_emul_disk_cmd *cmd, int result)
{
	struct batch *b = cmd->cookie;

	if (result != 0 && b->error == 0)
		b->error = result;
	if (--b->pending == 0)
		lx_host_wakeup(b);
}

/* Submit the @n commands of lx_cmds in order (none after a failure)
 * and wait for every one submitted.  0 or the first -errno. */
static int run_cmds(struct lx_emul_disk *disk, size_t n)
{
	struct batch b = { 0, 0 };

	for (size_t i = 0; i < n && b.error == 0; i++) {
		int err;

		lx_cmds[i].cookie = &b;
		b.pending++;		/* done may come before submit returns */
		err = lx_emul_disk_submit(disk, &lx_cmds[i]);
		if (err != 0) {
			b.pending--;
			b.error = err;
		}
	}
	lx_host_irq_disable();
	while (b.pending) {
		lx_host_wait_prepare(&b);
		lx_host_irq_enable();
		(void)lx_host_wait(0);
		lx_host_irq_disable();
	}
	lx_host_irq_enable();
	return b.error;
}

/*
 * Move @len bytes (whole blocks) between memory @frags (@nfrags pieces,
 * physical) and the disk from block @lba: plan, submit, wait.
 * D_SUCCESS; the planner's refusal; D_NO_MEMORY (no arrays, or bounce
 * pages the plan would need: never for the bounce buffer, whose fit was
 * checked when the disk was taken; lent pages out of the disk's reach go
 * through the bounce buffer instead, pages_move); the failed command's
 * code.  Serve or start thread.
 */
static kern_return_t transfer_frags(struct disk *d, bool write, uint64_t lba,
				    const struct blk_cluster_frag *frags,
				    size_t nfrags, size_t len)
{
	const struct blk_cluster_request br = {
		.op = write ? BLK_CLUSTER_WRITE : BLK_CLUSTER_READ,
		.offset = lba * d->info.block_size,
		.length = len,
		.frags = frags,
		.nfrags = nfrags,
	};
	struct blk_cluster_counts n;
	struct blk_cluster_plan plan;
	kern_return_t rc = blk_cluster_count(&br, &d->lim, &n);

	if (rc != D_SUCCESS)
		return rc;
	if (n.npages != 0 || arrays_fit(n.ncmds, n.nsegs) != 0)
		return D_NO_MEMORY;
	plan = (struct blk_cluster_plan){
		.cmds = plan_cmds, .max_cmds = max_cmds,
		.segs = plan_segs, .max_segs = max_segs,
	};
	rc = blk_cluster_plan(&br, &d->lim, NULL, &plan);
	if (rc != D_SUCCESS)
		return rc;
	for (size_t i = 0; i < plan.n.nsegs; i++)
		lx_segs[i] = (struct lx_emul_disk_seg){ plan.segs[i].phys,
							plan.segs[i].len };
	for (size_t i = 0; i < plan.n.ncmds; i++)
		lx_cmds[i] = (struct lx_emul_disk_cmd){
			.write = write,
			.lba = plan.cmds[i].lba,
			.blocks = plan.cmds[i].blocks,
			.segs = &lx_segs[plan.cmds[i].first_seg],
			.nsegs = plan.cmds[i].nsegs,
			.done = cmd_done,
		};
	return dev_error_from_errno(run_cmds(d->disk, plan.n.ncmds));
}

/* The same through the bounce buffer (@len at most bounce_len). */
static kern_return_t transfer(struct disk *d, bool write, uint64_t lba,
			      size_t len)
{
	const struct blk_cluster_frag frag = { bounce_pa, len };

	return transfer_frags(d, write, lba, &frag, 1, len);
}

/*
 * The block module's refusals (mach-glue/block/dev_lxblk.c), in its
 * order: a write to a unit opened without D_WRITE; zero bytes or an
 * inband write (never a whole block); a record at or past the end; a
 * size not whole records (but an inband read, the start of one record);
 * a range ending past the end.
 */
static kern_return_t check(const struct unit *u, const struct lxdrv_call *call,
			   bool write, recnum_t recnum, size_t count)
{
	uint64_t bs = u->d->info.block_size;

	if (write && !(call->mode & D_WRITE))
		return D_READ_ONLY;
	if (count == 0 || (write && call->inband))
		return D_INVALID_SIZE;
	if (recnum >= u->blocks)
		return D_INVALID_RECNUM;
	if (call->inband)
		return D_SUCCESS;
	if (count % bs != 0)
		return D_INVALID_SIZE;
	if (count / bs > u->blocks - recnum)
		return D_INVALID_RECNUM;
	return D_SUCCESS;
}

static kern_return_t disk_read(struct lxdrv_device *dev,
			       const struct lxdrv_call *call, recnum_t recnum,
			       size_t wanted, void *buf, size_t *count)
{
	struct unit *u = dev->priv;
	uint64_t bs = u->d->info.block_size, lba = u->first + recnum;
	kern_return_t rc = check(u, call, false, recnum, wanted);

	if (rc != D_SUCCESS)
		return rc;
	if (call->inband) {
		rc = transfer(u->d, false, lba, bs);
		if (rc == D_SUCCESS) {
			lxdrv_probe(LXDRV_PROBE_COPY, wanted);
			memcpy(buf, bounce, wanted);
			lxdrv_probe(LXDRV_PROBE_COPIED, wanted);
		}
		*count = rc == D_SUCCESS ? wanted : 0;
		return rc;
	}
	for (size_t done = 0, len; done < wanted; done += len) {
		len = wanted - done < bounce_len ? wanted - done : bounce_len;
		rc = transfer(u->d, false, lba + done / bs, len);
		if (rc != D_SUCCESS)
			return rc;
		lxdrv_probe(LXDRV_PROBE_COPY, len);
		memcpy((uint8_t *)buf + done, bounce, len);
		lxdrv_probe(LXDRV_PROBE_COPIED, len);
	}
	*count = wanted;
	return D_SUCCESS;
}

static kern_return_t disk_write(struct lxdrv_device *dev,
				const struct lxdrv_call *call, recnum_t recnum,
				const void *data, size_t count, int *written)
{
	struct unit *u = dev->priv;
	uint64_t bs = u->d->info.block_size, lba = u->first + recnum;
	kern_return_t rc = check(u, call, true, recnum, count);

	if (rc != D_SUCCESS)
		return rc;
	for (size_t done = 0, len; done < count; done += len) {
		len = count - done < bounce_len ? count - done : bounce_len;
		lxdrv_probe(LXDRV_PROBE_COPY, len);
		memcpy(bounce, (const uint8_t *)data + done, len);
		lxdrv_probe(LXDRV_PROBE_COPIED, len);
		rc = transfer(u->d, true, lba + done / bs, len);
		if (rc != D_SUCCESS)
			return rc;
	}
	*written = (int)count;
	return D_SUCCESS;
}

/* --- Requests with the client's pages lent (proxy_pages.defs) --- */

/* The pieces of @pages that hold @count bytes, physically contiguous
 * pages joined, in @frags (room for pages->n); how many. */
static size_t pages_frags(const struct lxdrv_pages *pages, size_t count,
			  struct blk_cluster_frag *frags)
{
	size_t n = 0, left = count;

	for (size_t i = 0; i < pages->n && left > 0; i++) {
		size_t in = i == 0 ? pages->offset : 0;
		size_t len = PAGE - in < left ? PAGE - in : left;
		uint64_t pa = pages->frames[i] + in;

		if (n > 0 && frags[n - 1].phys + frags[n - 1].len == pa)
			frags[n - 1].len += len;
		else
			frags[n++] = (struct blk_cluster_frag){ pa, len };
		left -= len;
	}
	return n;
}

/* Copy @len bytes between the bounce buffer and the lent pages, from
 * byte @pos of the request (@into_pages: into them), through the direct
 * map where they are lent. */
static void pages_copy(const struct lxdrv_pages *pages, size_t pos,
		       size_t len, bool into_pages)
{
	lxdrv_probe(LXDRV_PROBE_COPY, len);
	pos += pages->offset;
	for (size_t done = 0; done < len;) {
		size_t in = pos % PAGE;
		size_t n = PAGE - in < len - done ? PAGE - in : len - done;
		uint8_t *va = (uint8_t *)lx_host_direct_map() +
			      pages->frames[pos / PAGE] + in;

		if (into_pages)
			memcpy(va, bounce + done, n);
		else
			memcpy(bounce + done, va, n);
		pos += n;
		done += n;
	}
	lxdrv_probe(LXDRV_PROBE_COPIED, len);
}

/* Move @count bytes between @u's blocks from @recnum and @pages: in
 * place, or through the bounce buffer if a page is out of the disk's
 * reach (the plan would need bounce pages). */
static kern_return_t pages_move(struct unit *u, bool write, recnum_t recnum,
				const struct lxdrv_pages *pages, size_t count)
{
	static struct blk_cluster_frag frags[PROXY_PAGES_MAX];
	struct disk *d = u->d;
	uint64_t bs = d->info.block_size, lba = u->first + recnum;
	size_t nfrags = pages_frags(pages, count, frags);
	const struct blk_cluster_request br = {
		.op = write ? BLK_CLUSTER_WRITE : BLK_CLUSTER_READ,
		.offset = lba * bs, .length = count,
		.frags = frags, .nfrags = nfrags,
	};
	struct blk_cluster_counts n;
	kern_return_t rc = blk_cluster_count(&br, &d->lim, &n);

	if (rc != D_SUCCESS)
		return rc;
	if (n.npages == 0)
		return transfer_frags(d, write, lba, frags, nfrags, count);
	for (size_t done = 0, len; done < count; done += len) {
		len = count - done < bounce_len ? count - done : bounce_len;
		if (write)
			pages_copy(pages, done, len, false);
		rc = transfer(d, write, lba + done / bs, len);
		if (rc != D_SUCCESS)
			return rc;
		if (!write)
			pages_copy(pages, done, len, true);
	}
	return D_SUCCESS;
}

static kern_return_t disk_pages(struct lxdrv_device *dev,
				const struct lxdrv_call *call, bool write,
				recnum_t recnum, const struct lxdrv_pages *pages,
				size_t count, size_t *done)
{
	struct unit *u = dev->priv;
	kern_return_t rc = check(u, call, write, recnum, count);

	if (rc == D_SUCCESS)
		rc = pages_move(u, write, recnum, pages, count);
	*done = rc == D_SUCCESS ? count : 0;
	return rc;
}

static const struct lxdrv_device_ops disk_ops = {
	.read = disk_read,
	.write = disk_write,
	.pages = disk_pages,
};

/* DEV_GET_SIZE and DEV_GET_RECORDS of @u, as the block module answers
 * them: bytes or records, then the record size, saturating at 2^31 - 1
 * (the words are ints); a count below 2 D_INVALID_SIZE. */
static unsigned int status_of(const struct unit *u, int *s)
{
	uint64_t bs = u->d->info.block_size;
	uint64_t bytes_records = u->blocks, records = u->blocks;

	if (bytes_records > INT_LIMIT / bs)
		bytes_records = INT_LIMIT / bs;
	if (records > INT_LIMIT)
		records = INT_LIMIT;
	s[0] = DEV_GET_SIZE;
	s[1] = PROXY_STATUS_AT_LEAST_SIZE;
	s[2] = 2;
	s[3] = (int)(bytes_records * bs);
	s[4] = (int)bs;
	s[5] = DEV_GET_RECORDS;
	s[6] = PROXY_STATUS_AT_LEAST_SIZE;
	s[7] = 2;
	s[8] = (int)records;
	s[9] = (int)bs;
	return STATUS_INTS;
}

/* Publish @blocks blocks of @d from block @first as @name.  0, or -1
 * (printed). */
static int unit_publish(struct disk *d, const char *name, uint64_t first,
			uint64_t blocks)
{
	struct unit *u = &units[nunits];
	int s[STATUS_INTS];

	u->d = d;
	u->first = first;
	u->blocks = blocks;
	u->dev.ops = &disk_ops;
	u->dev.priv = u;
	if (lxdrv_publish(&u->dev, name, (int)d->info.block_size, s,
			  status_of(u, s)) != 0)
		return -1;
	nunits++;
	return 0;
}

/* Publish @d's MBR primary partitions, @sector0 its first 512 bytes. */
static void partitions(struct disk *d, const char *disk_name,
		       const uint8_t *sector0)
{
	struct blk_mbr_part parts[BLK_MBR_PRIMARY];
	enum blk_mbr_skip skip[BLK_MBR_PRIMARY];
	int n = blk_mbr_blocks(sector0, d->info.block_size, d->info.blocks,
			       parts, skip);
	char name[sizeof(units[0].dev.name)];

	if (n < 0) {
		printf("lxdrv: %s: no MBR, the whole disk only\n", disk_name);
		return;
	}
	for (unsigned int s = 0; s < BLK_MBR_PRIMARY; s++)
		if (skip[s] != BLK_MBR_OK && skip[s] != BLK_MBR_EMPTY)
			printf("lxdrv: %s: MBR entry %u left out: %s\n",
			       disk_name, s + 1, blk_mbr_skip_text(skip[s]));
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "hd%ds%u", d->info.index,
			 parts[i].slot + 1);
		if (unit_publish(d, name, parts[i].start,
				 parts[i].sectors) == 0)
			printf("lxdrv: %s: type %#x, %llu blocks at %llu, "
			       "published\n", name, parts[i].type,
			       (unsigned long long)parts[i].sectors,
			       (unsigned long long)parts[i].start);
	}
}

/* Take @disk as @d: limits the planner supports, the bounce buffer
 * within its reach and alignment (no bounce pages: a plan over it is
 * the buffer itself), block 0 read.  0, or -1 (printed). */
static int disk_take(struct disk *d, struct lx_emul_disk *disk)
{
	struct lx_emul_disk_info *in = &d->info;
	struct blk_cluster_frag frag = { bounce_pa, bounce_len };
	struct blk_cluster_request all = { BLK_CLUSTER_READ, 0, bounce_len,
					   &frag, 1 };
	struct blk_cluster_counts n;
	kern_return_t rc;

	if (lx_emul_disk_info(disk, in) != 0)
		return -1;
	d->disk = disk;
	/* The planner's limits; capacity enough for the check of a whole
	 * bounce buffer, the disk's once that passed. */
	d->lim = (struct blk_cluster_limits){
		in->block_size, in->max_hw_sectors, in->max_segments,
		in->max_segment_size, in->seg_boundary_mask,
		in->dma_alignment, in->dma_mask, bounce_len / BLK_MBR_SIZE,
	};
	if (in->index < 0 || in->index > 99 || in->blocks == 0 ||
	    blk_cluster_count(&all, &d->lim, &n) != D_SUCCESS ||
	    n.npages != 0) {
		printf("lxdrv: disk %d (%s %s): limits or DMA mask the "
		       "server does not support, not served\n", in->index,
		       in->vendor, in->model);
		return -1;
	}
	d->lim.capacity_blocks = in->blocks;
	rc = transfer(d, false, 0, in->block_size);
	if (rc != D_SUCCESS) {
		printf("lxdrv: disk %d: its first block could not be read "
		       "(%#x), not served\n", in->index, rc);
		return -1;
	}
	return 0;
}

/* The bounce buffer: BOUNCE_MAX, at most an eighth of the pool (the
 * world keeps the rest), less if that is not free. */
static int bounce_alloc(void)
{
	unsigned long pool = lxdrv_memory_pool();

	bounce_len = BOUNCE_MAX;
	while (bounce_len > BOUNCE_MIN && bounce_len > pool / 8)
		bounce_len /= 2;
	for (; bounce_len >= BOUNCE_MIN; bounce_len /= 2) {
		bounce = lx_host_alloc(bounce_len, LX_HOST_ZONE_DMA32, 0);
		if (bounce) {
			bounce_pa = lx_host_virt_to_phys(bounce);
			printf("lxdrv: disks served through a %lu KiB bounce "
			       "buffer\n", bounce_len >> 10);
			return 0;
		}
	}
	printf("lxdrv: no room in the pool for a %lu KiB bounce buffer: "
	       "no disks\n", BOUNCE_MIN >> 10);
	return -1;
}

void lxdrv_disk_start(void)
{
	struct lx_emul_disk *disk = lx_emul_disk_next(NULL);
	unsigned int ndisks = 0;
	char name[sizeof(units[0].dev.name)];

	if (!disk || bounce_alloc() != 0)
		return;
	for (; disk; disk = lx_emul_disk_next(disk)) {
		struct disk *d = &disks[ndisks];

		if (ndisks == DISKS_MAX) {
			printf("lxdrv: more than %u disks, the rest not "
			       "served\n", DISKS_MAX);
			break;
		}
		if (disk_take(d, disk) != 0)
			continue;
		ndisks++;
		snprintf(name, sizeof(name), "hd%d", d->info.index);
		if (unit_publish(d, name, 0, d->info.blocks) != 0)
			continue;
		printf("lxdrv: %s: %s %s, %llu blocks of %u bytes%s, "
		       "published\n", name, d->info.vendor, d->info.model,
		       (unsigned long long)d->info.blocks,
		       d->info.block_size,
		       d->info.read_only ? ", read-only" : "");
		partitions(d, name, bounce);
	}
}
