/* SPDX-License-Identifier: GPL-2.0-only */
/* A disk for the block module without Linux: RAM behind lx_emul_disk.h. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kern/clock.h"
#include "kern/string.h"
#include "tests/kernel/disk_fake.h"
#include "x86_64/cpu.h"
#include "x86_64/layout.h"

#define LX_EINVAL	22
#define LX_EAGAIN	11
#define LX_EIO		5
#define SECTOR		512u

struct lx_emul_disk {
	uint8_t *image;
	struct lx_emul_disk_info info;
};

static struct lx_emul_disk fake;
static uint64_t fail_at;
static struct disk_fake_counts counts;
static struct lx_emul_disk_cmd *head, *tail;	/* priv[0]: next */
static struct timeout tick;
static void (*probe)(int point);
static unsigned int now_calls;

void disk_fake_init(uint8_t *image, uint64_t sectors, uint64_t fail_lba)
{
	fake.image = image;
	fake.info = (struct lx_emul_disk_info){
		.index = 0,
		.blocks = sectors,
		.block_size = SECTOR,
		.max_hw_sectors = 64,
		.max_segments = 8,
		.max_segment_size = 8192,
		.seg_boundary_mask = 0xffff,
		.dma_alignment = SECTOR - 1,
		.dma_mask = 0xffffff,
		.read_only = 0,
		.vendor = "Graft",
		.model = "fake disk",
		.driver = "disk_fake",
	};
	fail_at = fail_lba;
}

void disk_fake_counts(struct disk_fake_counts *out)
{
	uint64_t flags = cpu_intr_save();

	*out = counts;
	cpu_intr_restore(flags);
}

static struct lx_emul_disk *fake_next(struct lx_emul_disk *prev)
{
	return prev == NULL && fake.image != NULL ? &fake : NULL;
}

static int fake_info(struct lx_emul_disk *disk,
		     struct lx_emul_disk_info *info)
{
	*info = disk->info;
	return 0;
}

/* Whether @cmd keeps lx_emul_disk_submit's contract and @d's limits. */
static bool valid(const struct lx_emul_disk *d,
		  const struct lx_emul_disk_cmd *cmd)
{
	const struct lx_emul_disk_info *in = &d->info;
	uint64_t total = 0;

	if (cmd->blocks == 0 || cmd->lba > in->blocks ||
	    cmd->blocks > in->blocks - cmd->lba || cmd->nsegs == 0 ||
	    cmd->nsegs > in->max_segments ||
	    cmd->blocks > in->max_hw_sectors || cmd->done == NULL)
		return false;
	for (unsigned int i = 0; i < cmd->nsegs; i++) {
		const struct lx_emul_disk_seg *s = &cmd->segs[i];
		uint64_t last = s->phys + s->len - 1;

		if (s->len == 0 || s->len > in->max_segment_size ||
		    (s->phys & in->dma_alignment) ||
		    (s->len & in->dma_alignment) || last > in->dma_mask ||
		    (s->phys & ~in->seg_boundary_mask) !=
		    (last & ~in->seg_boundary_mask))
			return false;
		total += s->len;
	}
	return total == (uint64_t)cmd->blocks * in->block_size;
}

/* Clock tick (interrupts off): complete every queued command. */
static void complete_all(void *arg)
{
	struct lx_emul_disk_cmd *cmd;

	(void)arg;
	while ((cmd = head) != NULL) {
		uint8_t *at = fake.image + cmd->lba * SECTOR;
		bool fail = fail_at >= cmd->lba &&
			    fail_at < cmd->lba + cmd->blocks;

		head = cmd->priv[0];
		if (head == NULL)
			tail = NULL;
		counts.pending--;
		for (unsigned int i = 0; i < cmd->nsegs && !fail; i++) {
			void *mem = phys_to_virt(cmd->segs[i].phys);

			if (cmd->write)
				memcpy(at, mem, cmd->segs[i].len);
			else
				memcpy(mem, at, cmd->segs[i].len);
			at += cmd->segs[i].len;
		}
		counts.failed += fail;
		if (probe != NULL)
			probe(LX_EMUL_DISK_PROBE_SCSI_DONE);
		cmd->done(cmd, fail ? -LX_EIO : 0);
	}
}

static int fake_submit(struct lx_emul_disk *disk,
		       struct lx_emul_disk_cmd *cmd)
{
	uint64_t flags = cpu_intr_save();

	if (!valid(disk, cmd)) {
		counts.refused++;
		cpu_intr_restore(flags);
		return -LX_EINVAL;
	}
	counts.cmds++;
	counts.pending++;
	cmd->priv[0] = NULL;
	if (tail != NULL)
		tail->priv[0] = cmd;
	else
		head = cmd;
	tail = cmd;
	if (probe != NULL)
		probe(LX_EMUL_DISK_PROBE_QUEUECOMMAND);
	timeout_set(&tick, 1, complete_all, NULL);
	cpu_intr_restore(flags);
	return 0;
}

static int fake_submit_now(struct lx_emul_disk *disk,
			   struct lx_emul_disk_cmd *cmd)
{
	if (now_calls++ % 2 == 1) {
		counts.busy++;
		return -LX_EAGAIN;
	}
	return fake_submit(disk, cmd);
}

static void fake_probe_set(void (*fn)(int point))
{
	probe = fn;
}

const struct dev_lxblk_disks disk_fake_disks = {
	.next = fake_next,
	.info = fake_info,
	.submit = fake_submit,
	.submit_now = fake_submit_now,
	.probe_set = fake_probe_set,
};
