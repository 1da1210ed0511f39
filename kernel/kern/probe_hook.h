/* SPDX-License-Identifier: GPL-2.0-only */
/* The one hook through which a benchmark sees the glue probes' samples. */
#ifndef KERN_PROBE_HOOK_H
#define KERN_PROBE_HOOK_H

#include <stddef.h>
#include <stdint.h>

/*
 * The Linux modules time their glue spans (the block module every
 * request, the net module sampled frames, every frame while a hook is
 * set) and keep the samples in their own rings (GRAFT_DEV_INFO).  Each
 * finished sample is also passed to the hook, when one is set: a benchmark
 * (tests/kernel/bench_test.c) records there what it prints, so the
 * modules hold no benchmark state.
 */
/* The spans (bench/README.md's names in probe_span_names). */
enum probe_span {
	PROBE_NET_TX,		/* "net.tx.glue" */
	PROBE_NET_RX,		/* "net.rx.glue" */
	PROBE_NET_TXDONE,	/* "net.txdone.glue" */
	PROBE_DISK_CMD,		/* "disk.cmd.glue" */
	PROBE_DISK_INT,		/* "disk.int.glue" */
	PROBE_SPANS
};

extern const char *const probe_span_names[PROBE_SPANS];

struct probe_sample {
	enum probe_span span;
	uint32_t len;		/* bytes of the frame or request */
	uint16_t nsegs;		/* disk.cmd.glue: segments of the first
				 * command; else 0 */
	uint16_t write;		/* disk: 1 for a write; else 0 */
	uint64_t ticks;		/* probe_read() difference */
	uint64_t start;		/* the net spans: probe_read() where the
				 * span starts (a benchmark carries it on
				 * to a user's receipt); else 0 */
};

typedef void (*probe_hook_fn)(const struct probe_sample *s);

extern probe_hook_fn probe_hook;

/*
 * probe_hook_set - from now on pass every finished sample to @fn (NULL:
 * to nobody).  @fn is called with interrupts off, from any context
 * (interrupt handlers included): it must only record, never block.
 * Thread context.
 */
void probe_hook_set(probe_hook_fn fn);

/* probe_hook_pass - give @s to the hook if one is set.  Interrupts off. */
static inline void probe_hook_pass(const struct probe_sample *s)
{
	probe_hook_fn fn = probe_hook;

	if (__builtin_expect(fn != NULL, 0))
		fn(s);
}

#endif
