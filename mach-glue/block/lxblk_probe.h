/* SPDX-License-Identifier: GPL-2.0-only */
/* Between dev_lxblk.c and dev_lxblk_probe.c: the block module's probes (not for other callers). */
#ifndef MACH_GLUE_BLOCK_LXBLK_PROBE_H
#define MACH_GLUE_BLOCK_LXBLK_PROBE_H

#include <stdbool.h>
#include <stdint.h>

struct device;
struct io_req;
struct lxblk_disk;

/*
 * disk.cmd.glue and disk.int.glue (dev_lxblk.h), timed on every request:
 * each sample goes into its disk's rings (GRAFT_DEV_INFO) and to the
 * probe hook (kern/probe_hook.h).  One request is timed at a time.
 * Interrupts off in all of them but lxblk_probe_replied (thread
 * context, the module's replied op).
 *
 * lxblk_probe_point - linux-emu's probe function (lx_emul_disk_probe_set).
 * lxblk_probe_copies_reset - a request's bounce copies start from 0.
 * lxblk_probe_copied - @ticks went to a bounce copy (left out).
 * lxblk_probe_op - the op of a request of @len bytes on @d, entered at
 *   @t, planned with @nsegs segments in its first command (@write: a
 *   write): a cmd sample starts, replacing one still open.
 * lxblk_probe_answered - @req of @d is handed to the reply thread: an
 *   int sample open since its last scsi_done ends at its reply.
 * lxblk_probe_replied - the module's replied op (device.h).
 */
void lxblk_probe_point(int point);
void lxblk_probe_copies_reset(void);
void lxblk_probe_copied(uint64_t ticks);
void lxblk_probe_op(struct lxblk_disk *d, uint64_t t, uint32_t len,
		    uint32_t nsegs, bool write);
void lxblk_probe_answered(const struct io_req *req, struct lxblk_disk *d);
void lxblk_probe_replied(struct device *dev, const struct io_req *req);

#endif
