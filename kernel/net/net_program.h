/* SPDX-License-Identifier: GPL-2.0-only */
/* A filter program as device_set_filter gives it: checked, then run. */
#ifndef NET_NET_PROGRAM_H
#define NET_NET_PROGRAM_H

#include <stdbool.h>

#include <device/bpf.h>
#include <device/device_types.h>
#include <device/net_status.h>

#include "net/net_frame.h"

/*
 * The words of device_set_filter: word 0 holds the flags (NETF_IN,
 * NETF_OUT; at least one) in its low 10 bits and the kind in its top 6:
 * 0 for a NETF (CSPF) program, whose words follow; NETF_BPF for a BPF
 * program, whose first struct bpf_insn (4 words) is that header (its
 * code word is word 0, the rest of it ignored) and whose instructions
 * follow.  At most NET_MAX_FILTER words in all.
 */
struct net_program {
	bool bpf;
	unsigned int flags;		/* NETF_IN | NETF_OUT */
	unsigned int count;		/* words, word 0 included */
	union {
		filter_t words[NET_MAX_FILTER];
		struct bpf_insn insns[NET_MAX_BPF];
	} code;
};

/*
 * net_program_load - check the @count words at @words and keep a copy in
 * @p.  Returns D_SUCCESS, or D_INVALID_OPERATION for: no words; more than
 * NET_MAX_FILTER; neither NETF_IN nor NETF_OUT; a kind other than 0 and
 * NETF_BPF; a BPF program whose word count is not a whole number of
 * instructions or that net_bpf_validate refuses; a NETF program that
 * net_cspf_validate refuses.  @p is unspecified on failure.  Pure.
 */
io_return_t net_program_load(struct net_program *p, const filter_t *words,
			     unsigned int count);

/*
 * net_program_run - run @p on @f.  Returns the bytes of @f->packet to
 * deliver (the struct packet_header included), 0 to refuse the frame: a
 * NETF program that accepts gives the whole packet, a BPF program's
 * return value is the data bytes to keep.  Pure; no locks.
 */
unsigned int net_program_run(const struct net_program *p,
			     const struct net_frame *f);

#endif
