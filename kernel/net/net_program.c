/* SPDX-License-Identifier: GPL-2.0-only */
/* Filter programs: the kind and flags word, then BPF or NETF code. */
#include <stdbool.h>

#include "kern/string.h"
#include "net/net_bpf.h"
#include "net/net_cspf.h"
#include "net/net_program.h"

#define WORDS_PER_INSN	(sizeof(struct bpf_insn) / sizeof(filter_t))

io_return_t net_program_load(struct net_program *p, const filter_t *words,
			     unsigned int count)
{
	unsigned int kind;

	if (count == 0 || count > NET_MAX_FILTER)
		return D_INVALID_OPERATION;
	if (!(words[0] & (NETF_IN | NETF_OUT)))
		return D_INVALID_OPERATION;
	kind = words[0] & NETF_TYPE_MASK;
	if (kind != 0 && kind != NETF_BPF)
		return D_INVALID_OPERATION;
	p->bpf = kind == NETF_BPF;
	p->flags = words[0] & (NETF_IN | NETF_OUT);
	p->count = count;
	memcpy(p->code.words, words, count * sizeof(filter_t));
	if (p->bpf) {
		if (count % WORDS_PER_INSN != 0 ||
		    !net_bpf_validate(p->code.insns + 1,
				      count / WORDS_PER_INSN - 1))
			return D_INVALID_OPERATION;
	} else if (!net_cspf_validate(p->code.words + 1, count - 1)) {
		return D_INVALID_OPERATION;
	}
	return D_SUCCESS;
}

unsigned int net_program_run(const struct net_program *p,
			     const struct net_frame *f)
{
	unsigned int data;

	if (!p->bpf)
		return net_cspf_run(p->code.words + 1, p->count - 1, f) ?
			       f->count : 0;
	data = net_bpf_run(p->code.insns + 1, p->count / WORDS_PER_INSN - 1,
			   f);
	return data == 0 ? 0 : data + (unsigned int)sizeof(struct packet_header);
}
