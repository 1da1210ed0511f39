/* SPDX-License-Identifier: GPL-2.0-only */
/* The table of Mach traps, by the numbers of mach/syscall_sw.h. */
#ifndef KERN_SYSCALL_SW_H
#define KERN_SYSCALL_SW_H

#include <stdint.h>

#define MACH_TRAP_MAX_ARGS	7

struct mach_trap {
	int32_t number;		/* negative, as in mach/syscall_sw.h */
	unsigned int nargs;
	const char *name;
	uint64_t (*fn)(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
		       uint64_t a4, uint64_t a5, uint64_t a6);
};

/* The trap with @number, or NULL if Graft does not implement it (the
 * caller then terminates the task, as GNU Mach does for a bad trap when
 * no exception port takes it). */
const struct mach_trap *mach_trap_find(int32_t number);

#endif
