/* SPDX-License-Identifier: GPL-2.0-only */
/* Stack backtraces by the frame-pointer chain (the kernel keeps %rbp frames). */
#ifndef KERN_BACKTRACE_H
#define KERN_BACKTRACE_H

#include <stdint.h>

#define BACKTRACE_MAX_DEPTH	24

/* Print "Backtrace:" then @pc and the return address of each frame from
 * @rbp outwards, each with its function name.  Stops at a zero, unaligned
 * or non-kernel frame pointer, or after BACKTRACE_MAX_DEPTH frames. */
void backtrace_print(uint64_t pc, uint64_t rbp);

/* Like backtrace_print() for an interrupted context: if the word at @sp is
 * a kernel-text address (the return address of a leaf function, which GCC
 * builds without a frame) it is printed after @pc, marked "?" because a
 * stale value there looks the same. */
void backtrace_print_trap(uint64_t pc, uint64_t sp, uint64_t rbp);

/* Words backtrace_print_scan() reads at most. */
#define BACKTRACE_SCAN_WORDS	1024

/*
 * backtrace_print_scan - the calling thread's call chain from @pc and
 * @sp, for code built without frame pointers: @pc, then each word from
 * @sp (8-aligned) to
 * the top of the thread's stack (at most BACKTRACE_SCAN_WORDS words) that
 * is a kernel-text address, marked "?" (stale return addresses look the
 * same), at most BACKTRACE_MAX_DEPTH of them.  An @sp outside the calling
 * thread's stack prints one line saying so.
 */
void backtrace_print_scan(uint64_t pc, uint64_t sp);

/* Print "name+0xoff" for @addr, or "?" when it is not kernel text. */
void backtrace_print_symbol(uint64_t addr);

#endif
