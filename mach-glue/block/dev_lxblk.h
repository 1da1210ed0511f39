/* SPDX-License-Identifier: GPL-2.0-only */
/* The Mach block devices served by Linux disk drivers ("hd0", "hd0s1", ...). */
#ifndef MACH_GLUE_BLOCK_DEV_LXBLK_H
#define MACH_GLUE_BLOCK_DEV_LXBLK_H

#include <stdint.h>

#include "linux-emu/include/lx_emul_disk.h"

/* The module of the device table (kernel/device/dev_module.c). */
extern const struct dev_module dev_lxblk_module;

/*
 * The disks the module serves, as linux-emu's lx_emul_disk.h offers
 * them: the same functions with the same contracts, through a table, so
 * that the lxblk suite can serve the module a disk of its own (a RAM
 * disk completing commands as an adapter would, errors on demand) and a
 * user-mode driver server can later hand it its own.  In the kernel it
 * is dev_lxblk_linux (dev_lxblk_linux.c): lx_emul_disk_* themselves.
 */
struct dev_lxblk_disks {
	struct lx_emul_disk *(*next)(struct lx_emul_disk *prev);
	int (*info)(struct lx_emul_disk *disk, struct lx_emul_disk_info *info);
	int (*submit)(struct lx_emul_disk *disk, struct lx_emul_disk_cmd *cmd);
	int (*submit_now)(struct lx_emul_disk *disk,
			  struct lx_emul_disk_cmd *cmd);
	void (*probe_set)(void (*fn)(int point));
};

extern const struct dev_lxblk_disks dev_lxblk_linux;

#define DEV_LXBLK_DISKS	4	/* hd0 .. hd3 */

/*
 * dev_lxblk_start - serve every disk @disks offers (at most
 * DEV_LXBLK_DISKS, in its order) as "hd<index>", read each one's sector
 * 0 and serve its MBR primary partitions as "hd<index>s<1..4>" (the
 * table slot), then start the "lx-blk" worker thread.  Once per boot,
 * from lx_boot() or a test; thread context (it waits for the reads).
 * A disk whose limits the planner refuses, or whose sector 0 cannot be
 * read, is printed and left out (a disk without an MBR is served whole,
 * without partitions).  Returns the number of disks served; 0 when none
 * (or the worker could not start, printed).
 */
int dev_lxblk_start(const struct dev_lxblk_disks *disks);

/* What the module has done (tests and benchmarks).  Any context. */
struct dev_lxblk_stats {
	uint64_t requests;	/* reads and writes accepted */
	uint64_t errors;	/* of them, answered with an error */
	uint64_t cmds;		/* commands submitted */
	uint64_t direct;	/* of them from the op (submit_now) */
	uint64_t bounce_pages;	/* bounce pages ever taken */
	unsigned int in_flight;	/* requests not answered yet */
	unsigned int pages_held;	/* bounce and inband pages now */
	unsigned int units;	/* devices served (disks + partitions) */
};

void dev_lxblk_stats(struct dev_lxblk_stats *out);

/*
 * The module's glue spans (dev_lxblk_probe.c), timed on every request
 * into its disk's rings (GRAFT_DEV_INFO) and passed to the probe hook
 * (kern/probe_hook.h), where the benchmarks record them
 * (tests/kernel/bench_test.c).
 * disk.cmd.glue: from the module's read or write op (device_read or
 * device_write decoded, its request recorded) to the adapter's
 * queuecommand (a blk-mq driver's queue_rq) being called for the
 * request's first command (LX_EMUL_DISK_PROBE_QUEUECOMMAND), less the
 * bounce copies of a write.
 * disk.int.glue: from the adapter's scsi_done (a blk-mq driver's
 * blk_mq_end_request) for the request's last command
 * (LX_EMUL_DISK_PROBE_SCSI_DONE) to the Mach reply queued on the
 * client's reply port (the reply thread's send returned, the module's
 * replied op), less the bounce copies of a read: linux-emu's
 * deferral to BLOCK_SOFTIRQ (none for blk-mq; in the caller for
 * scsi_done_direct), the done callback, io_req_done, the switch to the
 * reply thread and its MIG reply.  TSC ticks (probe_read), the probes'
 * own cost included.  One request at a time.
 */

#endif
