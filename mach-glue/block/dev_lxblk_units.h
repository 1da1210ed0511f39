/* SPDX-License-Identifier: GPL-2.0-only */
/* The block module's units: the disks it serves and their MBR partitions. */
#ifndef MACH_GLUE_BLOCK_DEV_LXBLK_UNITS_H
#define MACH_GLUE_BLOCK_DEV_LXBLK_UNITS_H

#include <stdbool.h>
#include <stdint.h>

#include <device/device_types.h>
#include <mach/message.h>

#include "linux-emu/include/lx_emul_disk.h"
#include "mach-glue/block/blk_cluster.h"
#include "kern/probe_ring.h"
#include "mach-glue/block/dev_lxblk.h"
#include "vm/vm_page.h"

#define LXBLK_UNIT_NAME	12	/* "hd99s4" and its NUL fit */

struct lxblk_disk {
	struct lx_emul_disk *disk;
	struct lx_emul_disk_info info;
	struct blk_cluster_limits lim;	/* capacity: the whole disk */
	enum vm_zone zone;		/* of its bounce pages */
	/* The last samples of disk.cmd.glue and disk.int.glue for its
	 * requests (dev_lxblk.h); interrupts off. */
	struct probe_ring cmd_ring, int_ring;
};

/* What a unit's requests did, counted when each is answered. */
struct lxblk_counters {
	uint64_t reads, writes;		/* answered D_SUCCESS */
	uint64_t read_bytes, write_bytes;
	uint64_t errors;		/* answered with an error */
};

/* A Mach device: a whole disk or one partition of it. */
struct lxblk_unit {
	struct lxblk_disk *d;
	uint64_t first;			/* block of the disk where it starts */
	uint64_t blocks;
	char name[LXBLK_UNIT_NAME];
	bool writable;			/* opened with D_WRITE */
	struct lxblk_counters counters;	/* interrupts off */
};

/*
 * dev_lxblk_units_scan - take each disk @disks offers (at most
 * DEV_LXBLK_DISKS), read its block 0 through @disks->submit and make its
 * units: "hd<index>", then "hd<index>s<slot>" for each MBR primary
 * partition blk_mbr_parse keeps (the others printed with the reason).
 * A disk whose limits the planner refuses or whose block 0 cannot be
 * read is printed and left out.  Once, from dev_lxblk_start; thread
 * context (it waits for the reads).  Returns the disks served; *@cmds
 * grows by the commands submitted.
 */
unsigned int dev_lxblk_units_scan(const struct dev_lxblk_disks *disks,
				  unsigned int *cmds);

/* dev_lxblk_units_find - the unit named @name, or NULL; any context. */
struct lxblk_unit *dev_lxblk_units_find(const char *name);

/* dev_lxblk_units_info - device_get_status(GRAFT_DEV_INFO) of @u into
 * @status (room for *@count ints): the disk's adapter driver, the
 * kernel, @u's counters, its disk's probes (dev_info_answer's codes).
 * Interrupts off. */
io_return_t dev_lxblk_units_info(const struct lxblk_unit *u, int *status,
				 mach_msg_type_number_t *count);

/* dev_lxblk_units_count - units made; dev_lxblk_units_forget - serve
 * none of them (the module could not start). */
unsigned int dev_lxblk_units_count(void);
void dev_lxblk_units_forget(void);

#endif
