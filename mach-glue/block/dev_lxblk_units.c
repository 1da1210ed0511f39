/* SPDX-License-Identifier: GPL-2.0-only */
/* The block module's units: the disks it serves and their MBR partitions. */
/*
 * Made once, at dev_lxblk_start, before any device can be opened; read
 * only afterwards, so the lookups need no lock.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <device/device_types.h>

#include "device/dev_info.h"
#include "kern/kprintf.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "mach-glue/block/blk_cluster.h"
#include "mach-glue/block/blk_mbr.h"
#include "mach-glue/block/dev_lxblk_units.h"
#include "vm/vm_page.h"
#include "x86_64/cpu.h"
#include "x86_64/layout.h"

static struct lxblk_disk disk_table[DEV_LXBLK_DISKS];
static struct lxblk_unit units[DEV_LXBLK_DISKS * (1 + BLK_MBR_PRIMARY)];
static unsigned int nunits;

struct lxblk_unit *dev_lxblk_units_find(const char *name)
{
	for (unsigned int i = 0; i < nunits; i++)
		if (strcmp(units[i].name, name) == 0)
			return &units[i];
	return NULL;
}

io_return_t dev_lxblk_units_info(const struct lxblk_unit *u, int *status,
				 mach_msg_type_number_t *count)
{
	const struct lxblk_counters *c = &u->counters;
	struct graft_dev_info info;

	if (*count < GRAFT_DEV_INFO_COUNT)
		return D_INVALID_SIZE;
	dev_info_init(&info, GRAFT_DEV_KERNEL, u->d->info.driver, "kernel");
	dev_info_counter(&info, "reads", c->reads);
	dev_info_counter(&info, "writes", c->writes);
	dev_info_counter(&info, "read_bytes", c->read_bytes);
	dev_info_counter(&info, "write_bytes", c->write_bytes);
	dev_info_counter(&info, "errors", c->errors);
	dev_info_probe(&info, "disk.cmd.glue", &u->d->cmd_ring);
	dev_info_probe(&info, "disk.int.glue", &u->d->int_ring);
	return dev_info_answer(&info, status, count);
}

unsigned int dev_lxblk_units_count(void)
{
	return nunits;
}

void dev_lxblk_units_forget(void)
{
	nunits = 0;
}

static void sync_done(struct lx_emul_disk_cmd *cmd, int result)
{
	int *state = cmd->cookie;

	*state = result == 0 ? 1 : result;
	thread_wakeup(state);
}

/* Read block 0 of @d into the page @pa (*@cmds counts the command);
 * 0 or the -errno.  Thread context. */
static int read_block0(const struct dev_lxblk_disks *disks,
		       struct lxblk_disk *d, uint64_t pa, unsigned int *cmds)
{
	struct lx_emul_disk_seg seg = { pa, d->info.block_size };
	int state = 0;
	struct lx_emul_disk_cmd cmd = {
		.write = 0, .lba = 0, .blocks = 1, .segs = &seg, .nsegs = 1,
		.done = sync_done, .cookie = &state,
	};
	uint64_t flags;
	int err = disks->submit(d->disk, &cmd);

	if (err != 0)
		return err;
	(*cmds)++;
	flags = cpu_intr_save();
	while (state == 0) {
		assert_wait(&state);
		thread_block();
	}
	cpu_intr_restore(flags);
	return state == 1 ? 0 : state;
}

static struct lxblk_unit *unit_add(struct lxblk_disk *d, uint64_t first,
				   uint64_t blocks)
{
	struct lxblk_unit *u = &units[nunits++];

	u->d = d;
	u->first = first;
	u->blocks = blocks;
	return u;
}

/* Serve @d's MBR primary partitions; @sector0 its first 512 bytes. */
static void add_partitions(struct lxblk_disk *d, const char *disk_name,
			   const uint8_t *sector0)
{
	struct blk_mbr_part parts[BLK_MBR_PRIMARY];
	enum blk_mbr_skip skip[BLK_MBR_PRIMARY];
	int n = blk_mbr_blocks(sector0, d->info.block_size, d->info.blocks,
			       parts, skip);

	if (n < 0) {
		kprintf("lx-blk: %s has no MBR: served whole only\n",
			disk_name);
		return;
	}
	for (unsigned int s = 0; s < BLK_MBR_PRIMARY; s++)
		if (skip[s] != BLK_MBR_OK && skip[s] != BLK_MBR_EMPTY)
			kprintf("lx-blk: %s entry %u not served: %s\n",
				disk_name, s + 1, blk_mbr_skip_text(skip[s]));
	for (int i = 0; i < n; i++) {
		struct lxblk_unit *u = unit_add(d, parts[i].start,
						parts[i].sectors);

		ksnprintf(u->name, sizeof(u->name), "%ss%u", disk_name,
			  parts[i].slot + 1);
		kprintf("lx-blk: %s: type %#x, %llu blocks at %llu\n",
			u->name, parts[i].type, (unsigned long long)u->blocks,
			(unsigned long long)u->first);
	}
}

/* Serve @disk as disk_table[@i]: true if it is. */
static bool add_disk(const struct dev_lxblk_disks *disks, unsigned int i,
		     struct lx_emul_disk *disk, uint64_t page,
		     unsigned int *cmds)
{
	struct lxblk_disk *d = &disk_table[i];
	struct lx_emul_disk_info *in = &d->info;
	struct blk_cluster_frag frag = { page, 0 };
	struct blk_cluster_request one = { BLK_CLUSTER_READ, 0, 0, &frag, 1 };
	struct blk_cluster_counts n;
	struct lxblk_unit *u;
	char name[LXBLK_UNIT_NAME];
	int err;

	if (disks->info(disk, in) != 0)
		return false;
	ksnprintf(name, sizeof(name), "hd%d", in->index);
	d->disk = disk;
	d->lim = (struct blk_cluster_limits){
		in->block_size, in->max_hw_sectors, in->max_segments,
		in->max_segment_size, in->seg_boundary_mask,
		in->dma_alignment, in->dma_mask, in->blocks,
	};
	d->zone = in->dma_mask >= VM_ZONE_DMA32_LIMIT - 1 ? VM_ZONE_DMA32 :
		  VM_ZONE_DMA;
	frag.len = one.length = in->block_size;
	if (in->index < 0 || in->index > 99 || in->blocks == 0 ||
	    blk_cluster_count(&one, &d->lim, &n) != D_SUCCESS) {
		kprintf("lx-blk: disk %d (%s %s) has limits the module does "
			"not support: not served\n", in->index, in->vendor,
			in->model);
		return false;
	}
	err = read_block0(disks, d, page, cmds);
	if (err != 0) {
		kprintf("lx-blk: %s: reading its first block failed (%d): not "
			"served\n", name, err);
		return false;
	}
	u = unit_add(d, 0, in->blocks);
	memcpy(u->name, name, sizeof(name));
	kprintf("lx-blk: %s: %s %s, %llu blocks of %u bytes%s; commands of "
		"%u sectors, %u segments of %u bytes in %#llx windows, "
		"alignment %#x, DMA mask %#llx\n", name, in->vendor, in->model,
		(unsigned long long)in->blocks, in->block_size,
		in->read_only ? ", read-only" : "", in->max_hw_sectors,
		in->max_segments, in->max_segment_size,
		(unsigned long long)in->seg_boundary_mask, in->dma_alignment,
		(unsigned long long)in->dma_mask);
	add_partitions(d, name, phys_to_virt(page));
	return true;
}

unsigned int dev_lxblk_units_scan(const struct dev_lxblk_disks *disks,
				  unsigned int *cmds)
{
	struct lx_emul_disk *disk = NULL;
	unsigned int ndisks = 0;
	uint64_t page;

	if (vm_page_alloc(VM_ZONE_DMA, &page) != KERN_SUCCESS) {
		kprintf("lx-blk: no page to read the disks' first blocks\n");
		return 0;
	}
	while ((disk = disks->next(disk)) != NULL) {
		if (ndisks == DEV_LXBLK_DISKS) {
			kprintf("lx-blk: more than %u disks; the rest are not "
				"served\n", DEV_LXBLK_DISKS);
			break;
		}
		if (add_disk(disks, ndisks, disk, page, cmds))
			ndisks++;
	}
	vm_page_free_contig(page, 1);
	return ndisks;
}
