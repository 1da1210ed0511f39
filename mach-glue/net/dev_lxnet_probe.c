/* SPDX-License-Identifier: GPL-2.0-only */
/* The Linux net module's probes: its glue paths timed on sampled frames, for GRAFT_DEV_INFO and the probe hook. */
/*
 * The first PROBE_RING_SIZE spans of each kind are timed, so a ring is
 * full early; after them one in SAMPLE_EVERY while no benchmark records
 * (no probe hook set), every one while one does.  A span not timed
 * costs its points a call and a test, no TSC read.  One write is timed
 * at a time (a second write entering the op before the first reached
 * the driver drops the first's sample), as is one received
 * frame and one transmit completion: the spans are those dev_lxnet.h
 * describes.  Each sample costs a fenced TSC read at each end and a
 * store into its device's ring; it is also passed to the probe hook
 * (kern/probe_hook.h), where a benchmark may record it.  Interrupts off
 * guard the state (one CPU).
 */
#include <stddef.h>
#include <stdint.h>

#include "device/dev_info.h"
#include "kern/probe.h"
#include "kern/probe_hook.h"
#include "kern/probe_ring.h"
#include "linux-emu/include/lx_emul.h"
#include "mach-glue/net/dev_lxnet.h"
#include "mach-glue/net/lxnet_probe.h"
#include "x86_64/cpu.h"

/* The module's spans, in the order of the probe hook's. */
enum { SPAN_TX, SPAN_RX, SPAN_TXDONE, SPANS };

static struct probe_ring rings[DEV_LXNET_MAX][SPANS];

/* Spans of each kind timed while no benchmark records: one in this many. */
#define SAMPLE_EVERY	16

/* The open samples; interrupts off. */
static struct {
	uint64_t seen[SPANS];		/* spans of each kind begun */
	unsigned int tx_slot;
	uint32_t tx_len;
	uint64_t t_write;	/* write op entered; 0: no sample open */
	uint64_t copies;	/* ticks spent copying the frame so far */
	uint64_t t_copy;	/* the skb copy started */
	uint64_t t_rx;		/* the driver handed a frame over */
	uint64_t t_done;	/* a transmit skb's destructor started;
				 * 0: no sample open */
} st;

/* Interrupts off: the TSC now if the span of kind @span beginning now is
 * timed, else 0. */
static uint64_t begin(int span)
{
	uint64_t n = st.seen[span]++;

	if (probe_hook == NULL && n >= PROBE_RING_SIZE &&
	    n % SAMPLE_EVERY != 0)
		return 0;
	return probe_read();
}

/* Interrupts off: a sample of @len bytes and @ticks on @slot's @span,
 * which started at @start. */
static void sample(unsigned int slot, int span, uint32_t len, uint64_t ticks,
		   uint64_t start)
{
	struct probe_sample ps = {
		.span = PROBE_NET_TX + span, .len = len, .ticks = ticks,
		.start = start,
	};

	if (slot < DEV_LXNET_MAX)
		probe_ring_add(&rings[slot][span], ticks);
	probe_hook_pass(&ps);
}

/* linux-emu's probe points (lx_emul_net_probe_set): only record.  The
 * transmit points of a write not timed return at once (st.t_write is
 * set only by the write op, in the thread that reaches them). */
static void point(int p)
{
	uint64_t flags;

	if (st.t_write == 0 && (p == LX_EMUL_NET_PROBE_TX_COPY ||
				p == LX_EMUL_NET_PROBE_TX_COPIED ||
				p == LX_EMUL_NET_PROBE_TX_DRIVER))
		return;
	flags = cpu_intr_save();
	if (p == LX_EMUL_NET_PROBE_TX_COPY) {
		st.t_copy = probe_read();
	} else if (p == LX_EMUL_NET_PROBE_TX_COPIED) {
		st.copies += probe_read() - st.t_copy;
	} else if (p == LX_EMUL_NET_PROBE_TX_DRIVER) {
		sample(st.tx_slot, SPAN_TX, st.tx_len,
		       probe_read() - st.t_write - st.copies, st.t_write);
		st.t_write = 0;
	} else if (p == LX_EMUL_NET_PROBE_RX_HANDOVER) {
		st.t_rx = begin(SPAN_RX);
	} else if (p == LX_EMUL_NET_PROBE_TX_DONE) {
		st.t_done = begin(SPAN_TXDONE);	/* lxnet_probe_tx_done
						 * names it */
	}
	cpu_intr_restore(flags);
}

void lxnet_probe_start(void)
{
	lx_emul_net_probe_set(point);
}

void lxnet_probe_write(unsigned int slot, uint32_t len)
{
	st.t_write = begin(SPAN_TX);
	st.tx_slot = slot;
	st.tx_len = len;
	st.copies = 0;
}

uint64_t lxnet_probe_copy_start(void)
{
	return st.t_write != 0 ? probe_read() : 0;
}

void lxnet_probe_copied(uint64_t start)
{
	if (start != 0)
		st.copies += probe_read() - start;
}

void lxnet_probe_rx(unsigned int slot, uint32_t len)
{
	if (st.t_rx != 0)
		sample(slot, SPAN_RX, len, probe_read() - st.t_rx, st.t_rx);
	st.t_rx = 0;
}

void lxnet_probe_tx_done(unsigned int slot, uint32_t len)
{
	if (st.t_done != 0)
		sample(slot, SPAN_TXDONE, len, probe_read() - st.t_done,
		       st.t_done);
	st.t_done = 0;
}

void lxnet_probe_report(unsigned int slot, struct graft_dev_info *info)
{
	for (int i = 0; i < SPANS; i++)
		dev_info_probe(info, probe_span_names[PROBE_NET_TX + i],
			       &rings[slot][i]);
}
