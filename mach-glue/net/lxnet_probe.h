/* SPDX-License-Identifier: GPL-2.0-only */
/* Between dev_lxnet.c and dev_lxnet_probe.c: the module's probes (not for other callers). */
#ifndef MACH_GLUE_NET_LXNET_PROBE_H
#define MACH_GLUE_NET_LXNET_PROBE_H

#include <stdint.h>

struct graft_dev_info;

/*
 * The spans of dev_lxnet.h's benchmark comment (net.tx.glue,
 * net.rx.glue, net.txdone.glue): the first 128 of each kind timed, then
 * one in 16, every one while a benchmark records (a probe hook set);
 * each sample goes into its device's ring (the live figures of
 * GRAFT_DEV_INFO) and to the hook.  @slot is the device's index in
 * dev_lxnet.c's table.
 * Interrupts off in all of them but lxnet_probe_start (thread context).
 *
 * lxnet_probe_start - install linux-emu's probe function (once, from
 *   dev_lxnet_start).
 * lxnet_probe_write - a write of @len bytes on @slot enters the op: a
 *   tx sample starts if this one is timed, replacing one still open.
 * lxnet_probe_copy_start - the TSC now (probe_read) if a tx sample is
 *   open, else 0: the start of a copy of the frame.
 * lxnet_probe_copied - the copy begun at @start (0: none timed) is
 *   done: its ticks are left out of the open tx sample.
 * lxnet_probe_rx - @slot handed a @len-byte received frame to its
 *   filters: the end of an rx sample if one is open.
 * lxnet_probe_tx_done - the module's tx_done callback has done its
 *   work for a @len-byte frame of @slot: the end of a txdone sample if
 *   one is open.
 * lxnet_probe_report - append @slot's three probes to @info.
 */
void lxnet_probe_start(void);
void lxnet_probe_write(unsigned int slot, uint32_t len);
uint64_t lxnet_probe_copy_start(void);
void lxnet_probe_copied(uint64_t start);
void lxnet_probe_rx(unsigned int slot, uint32_t len);
void lxnet_probe_tx_done(unsigned int slot, uint32_t len);
void lxnet_probe_report(unsigned int slot, struct graft_dev_info *info);

#endif
