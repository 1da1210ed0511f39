/* SPDX-License-Identifier: GPL-2.0-only */
/* The Linux block module's probes: its glue paths timed on every request, for GRAFT_DEV_INFO and the probe hook. */
/*
 * The spans are those dev_lxblk.h describes.  A cmd sample runs from the
 * op to linux-emu's queuecommand point, an int sample from the last
 * scsi_done point of a request to its reply queued (the replied op);
 * the bounce copies the module reports are left out of each.  Each
 * sample goes into its disk's ring and to the probe hook.  Interrupts
 * off guard the state (one CPU).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/device.h"
#include "device/io_req.h"
#include "kern/probe.h"
#include "kern/probe_hook.h"
#include "kern/probe_ring.h"
#include "linux-emu/include/lx_emul_disk.h"
#include "mach-glue/block/dev_lxblk_units.h"
#include "mach-glue/block/lxblk_probe.h"
#include "x86_64/cpu.h"

static struct {
	uint64_t t_op;		/* op entered; 0: no cmd sample open */
	struct lxblk_disk *op_disk;	/* ... of this disk's request */
	uint64_t copies;	/* ticks of bounce copies to leave out */
	uint32_t len, nsegs;
	bool write;
	uint64_t t_done;	/* last scsi_done */
	const struct io_req *replying;	/* its request, being answered */
	struct lxblk_disk *replying_disk;	/* ... of this disk */
	uint64_t t_replying;	/* t_done of @replying, copies left out */
} st;

void lxblk_probe_point(int point)
{
	uint64_t now = probe_read();
	uint64_t flags = cpu_intr_save();

	if (point == LX_EMUL_DISK_PROBE_QUEUECOMMAND && st.t_op != 0) {
		struct probe_sample s = {
			.span = PROBE_DISK_CMD, .len = st.len,
			.nsegs = (uint16_t)st.nsegs, .write = st.write,
			.ticks = now - st.t_op - st.copies,
		};

		probe_ring_add(&st.op_disk->cmd_ring, s.ticks);
		probe_hook_pass(&s);
		st.t_op = 0;
	} else if (point == LX_EMUL_DISK_PROBE_SCSI_DONE) {
		st.t_done = now;
	}
	cpu_intr_restore(flags);
}

void lxblk_probe_copies_reset(void)
{
	st.copies = 0;
}

void lxblk_probe_copied(uint64_t ticks)
{
	st.copies += ticks;
}

void lxblk_probe_op(struct lxblk_disk *d, uint64_t t, uint32_t len,
		    uint32_t nsegs, bool write)
{
	st.t_op = t;
	st.op_disk = d;
	st.len = len;
	st.nsegs = nsegs;
	st.write = write;
}

void lxblk_probe_answered(const struct io_req *req, struct lxblk_disk *d)
{
	if (st.t_done != 0) {
		st.replying = req;	/* the sample ends at its reply */
		st.replying_disk = d;
		st.t_replying = st.t_done + st.copies;
	}
	st.t_done = 0;
}

void lxblk_probe_replied(struct device *dev, const struct io_req *req)
{
	uint64_t now = probe_read();
	uint64_t flags = cpu_intr_save();

	(void)dev;
	if (req == st.replying) {
		struct probe_sample s = {
			.span = PROBE_DISK_INT, .len = (uint32_t)req->count,
			.write = req->op == IO_WRITE ||
				 req->op == IO_WRITE_INBAND,
			.ticks = now - st.t_replying,
		};

		probe_ring_add(&st.replying_disk->int_ring, s.ticks);
		probe_hook_pass(&s);
		st.replying = NULL;
	}
	cpu_intr_restore(flags);
}
