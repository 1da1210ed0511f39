/* SPDX-License-Identifier: GPL-2.0-only */
/* Mach traps implemented so far, and the lookup by trap number. */
/*
 * Missing (not yet implemented, so a task calling them is terminated):
 * mach_msg_trap (-25), mach_reply_port (-26), mach_thread_self (-27),
 * mach_task_self (-28), mach_host_self (-29) until the IPC layer lands;
 * evc_wait (-17), evc_wait_clear (-18), the nw_* and syscall_* traps.
 */
#include <stddef.h>
#include <stdint.h>

#include "kern/clock.h"
#include "kern/kprintf.h"
#include "kern/sched.h"
#include "kern/syscall_sw.h"
#include "x86_64/copy.h"

#define MACH_PRINT_MAX	512

/* mach_print(string): print a NUL-terminated user string (debugging aid
 * of GNU Mach).  Unreadable strings are cut at the first bad byte. */
static uint64_t trap_mach_print(uint64_t s, uint64_t a1, uint64_t a2,
				uint64_t a3, uint64_t a4, uint64_t a5,
				uint64_t a6)
{
	char buf[MACH_PRINT_MAX + 1];
	size_t n;

	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5, (void)a6;
	for (n = 0; n < MACH_PRINT_MAX; n++) {
		if (copyin((const void *)(s + n), &buf[n], 1) != 0 ||
		    buf[n] == '\0')
			break;
	}
	buf[n] = '\0';
	kprintf("%s", buf);
	return 0;
}

/* swtch(): yield; returns whether other threads were runnable. */
static uint64_t trap_swtch(uint64_t a0, uint64_t a1, uint64_t a2,
			   uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6)
{
	uint64_t before = sched_switch_count();

	(void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5, (void)a6;
	sched_yield();
	return sched_switch_count() != before;
}

/* swtch_pri(pri): yield (the priority hint is ignored, as GNU Mach does). */
static uint64_t trap_swtch_pri(uint64_t a0, uint64_t a1, uint64_t a2,
			       uint64_t a3, uint64_t a4, uint64_t a5,
			       uint64_t a6)
{
	return trap_swtch(a0, a1, a2, a3, a4, a5, a6);
}

static const struct mach_trap traps[] = {
	{ -30, 1, "mach_print", trap_mach_print },
	{ -59, 1, "swtch_pri", trap_swtch_pri },
	{ -60, 0, "swtch", trap_swtch },
};

const struct mach_trap *mach_trap_find(int32_t number)
{
	for (size_t i = 0; i < sizeof(traps) / sizeof(traps[0]); i++)
		if (traps[i].number == number)
			return &traps[i];
	return NULL;
}
