/* SPDX-License-Identifier: GPL-2.0-only */
/* GNU Mach's classic NETF (CSPF) stack-language filters. */
#ifndef NET_NET_CSPF_H
#define NET_NET_CSPF_H

#include <stdbool.h>

#include "net/net_frame.h"

/*
 * A CSPF program is a list of filter_t words (the flags word before them
 * not included).  Each word is an operand source (NETF_ARG) and an
 * operator (NETF_OP); NETF_PUSHLIT takes the next word as its literal.
 * The stack holds 32-bit values, at most NET_FILTER_STACK_DEPTH of them,
 * and starts with one value, 1.  Operands: NETF_NOPUSH pops the top;
 * NETF_PUSHZERO is 0; NETF_PUSHWORD+n is 16-bit word n of the packet
 * array (word 0 the packet_header's length, word 1 its type, then the
 * data), NETF_PUSHHDR+n word n of the header array, NETF_PUSHSTK+n the
 * value n below the top; NETF_PUSHIND and NETF_PUSHHDRIND pop an index
 * into the packet or header words.  Words are read in host byte order, as
 * GNU Mach does.  Operators: NETF_NOP pushes the operand; EQ NEQ LT LE GT
 * GE AND OR XOR LSH RSH ADD SUB replace the top with (top OP operand),
 * comparisons unsigned giving 0 or 1, shifts of 32 or more giving 0;
 * COR/CNAND pop the top and accept the frame at once if it equals / does
 * not equal the operand, CAND/CNOR pop it and refuse the frame if it does
 * not equal / equals it.  At the end the frame is accepted when the top
 * is non-zero.  A packet word beyond the frame refuses the frame.
 */

/*
 * net_cspf_validate - is @w, @n words, a program net_cspf_run may run?
 * False for an operand source or operator NETF does not define, a
 * NETF_PUSHLIT without its literal, a stack word or pop beyond what the
 * stack holds there, a push beyond NET_FILTER_STACK_DEPTH, or an empty stack at the
 * end (the stack's depth is the same on every path).  An empty program
 * is valid (it accepts everything).  Pure.
 */
bool net_cspf_validate(const filter_t *w, unsigned int n);

/* net_cspf_run - run the validated @w (@n words) on @f: true to accept
 * the frame (all of it), false to refuse it.  Pure; no locks. */
bool net_cspf_run(const filter_t *w, unsigned int n, const struct net_frame *f);

#endif
