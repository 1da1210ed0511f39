/* SPDX-License-Identifier: GPL-2.0-only */
/* NETF (CSPF) filters: validation by stack depth, then interpretation. */
#include <stdbool.h>
#include <stdint.h>

#include "kern/string.h"
#include "net/net_cspf.h"

#define OP_LAST		NETF_OP(NETF_SUB)

/* What one word does to the stack, found from its operand source. */
enum source { SRC_BAD, SRC_POP, SRC_NONE, SRC_LIT, SRC_POP_INDEX,
	      SRC_STACK };

static enum source source_of(unsigned int arg)
{
	if (arg == NETF_NOPUSH)
		return SRC_POP;
	if (arg == NETF_PUSHLIT)
		return SRC_LIT;
	if (arg == NETF_PUSHZERO || (arg >= NETF_PUSHWORD &&
				     arg < NETF_PUSHSTK))
		return SRC_NONE;
	if (arg == NETF_PUSHIND || arg == NETF_PUSHHDRIND)
		return SRC_POP_INDEX;
	if (arg >= NETF_PUSHSTK)
		return SRC_STACK;
	return SRC_BAD;
}

static bool op_conditional(unsigned int op)
{
	return op >= NETF_OP(NETF_COR) && op <= NETF_OP(NETF_CNAND);
}

bool net_cspf_validate(const filter_t *w, unsigned int n)
{
	unsigned int depth = 1, i;

	for (i = 0; i < n; i++) {
		unsigned int arg = NETF_ARG(w[i]), op = NETF_OP(w[i]);

		switch (source_of(arg)) {
		case SRC_BAD:
			return false;
		case SRC_LIT:
			if (++i >= n)
				return false;
			break;
		case SRC_POP:
		case SRC_POP_INDEX:
			if (depth == 0)
				return false;
			depth--;
			break;
		case SRC_STACK:
			if (arg - NETF_PUSHSTK >= depth)
				return false;
			break;
		case SRC_NONE:
			break;
		}
		if (op > OP_LAST)
			return false;
		if (op == NETF_OP(NETF_NOP)) {
			if (depth >= NET_FILTER_STACK_DEPTH)
				return false;
			depth++;
		} else if (depth == 0) {
			return false;
		} else if (op_conditional(op)) {
			depth--;
		}
	}
	return depth >= 1;
}

/* 16-bit word @i of @n bytes at @base, host order; false beyond. */
static bool word_at(const uint8_t *base, unsigned int n, uint32_t i,
		    uint32_t *v)
{
	uint16_t x;

	if (i >= n / 2)
		return false;
	memcpy(&x, base + 2 * i, sizeof(x));
	*v = x;
	return true;
}

/* The operand of @arg; pops what it pops.  False refuses the frame. */
static bool operand(unsigned int arg, const filter_t **wp, uint32_t *stack,
		    unsigned int *depth, const struct net_frame *f,
		    uint32_t *v)
{
	switch (arg) {
	case NETF_NOPUSH:
		*v = stack[--*depth];
		return true;
	case NETF_PUSHLIT:
		*v = *(*wp)++;
		return true;
	case NETF_PUSHZERO:
		*v = 0;
		return true;
	case NETF_PUSHIND:
		return word_at(f->packet, f->count, stack[--*depth], v);
	case NETF_PUSHHDRIND:
		return word_at(f->header, NET_HDW_HDR_MAX, stack[--*depth], v);
	}
	if (arg >= NETF_PUSHSTK) {
		*v = stack[*depth - 1 - (arg - NETF_PUSHSTK)];
		return true;
	}
	if (arg >= NETF_PUSHHDR)
		return word_at(f->header, NET_HDW_HDR_MAX, arg - NETF_PUSHHDR,
			       v);
	return word_at(f->packet, f->count, arg - NETF_PUSHWORD, v);
}

static uint32_t binary(unsigned int op, uint32_t a, uint32_t b)
{
	switch (op) {
	case NETF_OP(NETF_EQ):
		return a == b;
	case NETF_OP(NETF_NEQ):
		return a != b;
	case NETF_OP(NETF_LT):
		return a < b;
	case NETF_OP(NETF_LE):
		return a <= b;
	case NETF_OP(NETF_GT):
		return a > b;
	case NETF_OP(NETF_GE):
		return a >= b;
	case NETF_OP(NETF_AND):
		return a & b;
	case NETF_OP(NETF_OR):
		return a | b;
	case NETF_OP(NETF_XOR):
		return a ^ b;
	case NETF_OP(NETF_LSH):
		return b < 32 ? a << b : 0;
	case NETF_OP(NETF_RSH):
		return b < 32 ? a >> b : 0;
	case NETF_OP(NETF_ADD):
		return a + b;
	default:		/* NETF_SUB */
		return a - b;
	}
}

bool net_cspf_run(const filter_t *w, unsigned int n, const struct net_frame *f)
{
	uint32_t stack[NET_FILTER_STACK_DEPTH];
	const filter_t *end = w + n;
	unsigned int depth = 1;
	uint32_t v, top;

	stack[0] = 1;
	while (w < end) {
		unsigned int word = *w++;
		unsigned int op = NETF_OP(word);

		if (!operand(NETF_ARG(word), &w, stack, &depth, f, &v))
			return false;
		if (op == NETF_OP(NETF_NOP)) {
			stack[depth++] = v;
			continue;
		}
		if (!op_conditional(op)) {
			stack[depth - 1] = binary(op, stack[depth - 1], v);
			continue;
		}
		top = stack[--depth];
		switch (op) {
		case NETF_OP(NETF_COR):
			if (top == v)
				return true;
			break;
		case NETF_OP(NETF_CAND):
			if (top != v)
				return false;
			break;
		case NETF_OP(NETF_CNOR):
			if (top == v)
				return false;
			break;
		default:	/* NETF_CNAND */
			if (top != v)
				return true;
			break;
		}
	}
	return stack[depth - 1] != 0;
}
