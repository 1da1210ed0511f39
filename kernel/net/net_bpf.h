/* SPDX-License-Identifier: GPL-2.0-only */
/* Classic BPF programs over a net_frame: validation and execution. */
#ifndef NET_NET_BPF_H
#define NET_NET_BPF_H

#include <stdbool.h>

#include <device/bpf.h>

#include "net/net_frame.h"

/* Classic BPF opcodes gnumach-dev's bpf.h lacks (libpcap's values). */
#define NET_BPF_MOD	0x90
#define NET_BPF_XOR	0xa0

/*
 * net_bpf_validate - is @prog, @n instructions (the NETF_BPF header
 * instruction not included), a program net_bpf_run may run?  True when
 * @n >= 1, every opcode is one of classic BPF's (loads, stores, ALU,
 * jumps, RET K/A, TAX/TXA; GNU Mach's MATCH/KEY session instructions are
 * refused), every jump lands inside the program (jumps only go forward),
 * scratch-memory indices are below BPF_MEMWORDS, no division or modulo
 * is by the constant 0, and the last instruction is a RET.  Pure.
 */
bool net_bpf_validate(const struct bpf_insn *prog, unsigned int n);

/*
 * net_bpf_run - run the validated @prog (@n instructions) on @f.  Loads
 * address one byte string: the @f->hlen link-header bytes, then the data
 * (the struct packet_header is not part of it), so offsets are those of
 * the frame on the wire, as tcpdump compiles them; multi-byte loads are
 * big-endian.  A load reaching past the end of the frame, or a division
 * or modulo by an X of 0, ends the program with 0.  BPF_LEN is the
 * frame's length (header + data).  Returns what the RET gives, capped
 * at the data length: the data bytes to deliver, 0 to refuse the frame.
 * Pure; no locks.
 */
unsigned int net_bpf_run(const struct bpf_insn *prog, unsigned int n,
			 const struct net_frame *f);

#endif
