/* SPDX-License-Identifier: GPL-2.0-only */
/* Mach traps implemented so far, and the lookup by trap number. */
/*
 * Missing (a task calling them is terminated, see docs/mach-interfaces.md):
 * evc_wait (-17), evc_wait_clear (-18), the nw_* traps (-80 to -95) and the
 * syscall_* shortcuts of RPCs (-64 to -76) but syscall_vm_deallocate.
 */
#include <stddef.h>
#include <stdint.h>

#include "kern/clock.h"
#include "kern/kprintf.h"
#include "kern/sched.h"
#include "kern/syscall_sw.h"
#include "kern/task.h"
#include "kern/task_port.h"
#include "ipc/ipc_right.h"
#include "ipc/mach_msg.h"
#include "ipc/mach_port.h"
#include "vm/vm_map.h"
#include "x86_64/copy.h"
#include "x86_64/cpu.h"

#define MACH_PRINT_MAX	512

/* mach_print(string): print a NUL-terminated user string (debugging aid
 * of GNU Mach).  Unreadable strings are cut at the first bad byte. */
static uint64_t trap_mach_print(uint64_t s, uint64_t a1, uint64_t a2,
				uint64_t a3, uint64_t a4, uint64_t a5,
				uint64_t a6)
{
	char buf[MACH_PRINT_MAX + 1];
	uint64_t flags;
	size_t n;

	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5, (void)a6;
	for (n = 0; n < MACH_PRINT_MAX; n++) {
		if (copyin((const void *)(s + n), &buf[n], 1) != 0 ||
		    buf[n] == '\0')
			break;
	}
	buf[n] = '\0';
	/* Whole: a driver's message from an interrupt would split it. */
	flags = cpu_intr_save();
	kprintf("%s", buf);
	cpu_intr_restore(flags);
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

static uint64_t trap_mach_msg(uint64_t msg, uint64_t option, uint64_t send,
			      uint64_t rcv, uint64_t rcv_name, uint64_t timeout,
			      uint64_t notify)
{
	return mach_msg_trap((mach_msg_header_t *)msg, (mach_msg_option_t)option,
			     (mach_msg_size_t)send, (mach_msg_size_t)rcv,
			     (mach_port_name_t)rcv_name,
			     (mach_msg_timeout_t)timeout,
			     (mach_port_name_t)notify);
}

static uint64_t trap_mach_reply_port(uint64_t a0, uint64_t a1, uint64_t a2,
				     uint64_t a3, uint64_t a4, uint64_t a5,
				     uint64_t a6)
{
	struct task *task = task_current();

	(void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5, (void)a6;
	return task->itk_space != NULL ?
	       ipc_reply_port_alloc(task->itk_space) : MACH_PORT_NULL;
}

static uint64_t trap_mach_task_self(uint64_t a0, uint64_t a1, uint64_t a2,
				    uint64_t a3, uint64_t a4, uint64_t a5,
				    uint64_t a6)
{
	(void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5, (void)a6;
	return task_port_self_name();
}

static uint64_t trap_mach_thread_self(uint64_t a0, uint64_t a1, uint64_t a2,
				      uint64_t a3, uint64_t a4, uint64_t a5,
				      uint64_t a6)
{
	(void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5, (void)a6;
	return task_port_thread_name();
}

static uint64_t trap_mach_host_self(uint64_t a0, uint64_t a1, uint64_t a2,
				    uint64_t a3, uint64_t a4, uint64_t a5,
				    uint64_t a6)
{
	(void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5, (void)a6;
	return task_port_host_name();
}

/* thread_switch(thread, option, time): the thread hint is ignored;
 * SWITCH_OPTION_WAIT (2) sleeps @time milliseconds, the other options
 * yield.  Returns KERN_SUCCESS. */
static uint64_t trap_thread_switch(uint64_t thread, uint64_t option,
				   uint64_t time, uint64_t a3, uint64_t a4,
				   uint64_t a5, uint64_t a6)
{
	(void)thread, (void)a3, (void)a4, (void)a5, (void)a6;
	if ((int)option == 2 && (uint32_t)time > 0)
		thread_sleep_ticks(((uint32_t)time * HZ + 999) / 1000);
	else
		sched_yield();
	return KERN_SUCCESS;
}

/*
 * syscall_vm_deallocate(task, address, size): vm_deallocate without a
 * message, for the task that @task names with a send right in the
 * caller's space.  Returns what vm_deallocate returns, or, as GNU Mach,
 * MACH_SEND_INTERRUPTED when @task names no task (the caller may send
 * the RPC instead).  Interrupts are off throughout, as in a MIG handler,
 * so the task cannot go meanwhile.
 */
static uint64_t trap_syscall_vm_deallocate(uint64_t name, uint64_t address,
					   uint64_t size, uint64_t a3,
					   uint64_t a4, uint64_t a5,
					   uint64_t a6)
{
	struct ipc_space *space = task_current()->itk_space;
	struct task *task = NULL;
	struct ipc_entry *e = NULL;
	kern_return_t kr = MACH_SEND_INTERRUPTED;
	uint64_t flags;

	(void)a3, (void)a4, (void)a5, (void)a6;
	flags = cpu_intr_save();
	if (space != NULL)
		e = ipc_right_lookup(space, (mach_port_name_t)name);
	if (e != NULL && (e->type & MACH_PORT_TYPE_SEND))
		task = task_port_task((struct ipc_port *)e->object);
	if (task != NULL && task->map != NULL)
		kr = vm_map_remove(task->map, address, size);
	cpu_intr_restore(flags);
	return kr;
}

static const struct mach_trap traps[] = {
	/* mach_msg_trap's seventh argument, notify, serves only the
	 * MACH_SEND_NOTIFY / MACH_RCV_NOTIFY options, which it refuses:
	 * it is not read from the user stack (a copyin per message). */
	{ -25, 6, "mach_msg_trap", trap_mach_msg },
	{ -26, 0, "mach_reply_port", trap_mach_reply_port },
	{ -27, 0, "mach_thread_self", trap_mach_thread_self },
	{ -28, 0, "mach_task_self", trap_mach_task_self },
	{ -29, 0, "mach_host_self", trap_mach_host_self },
	{ -61, 3, "thread_switch", trap_thread_switch },
	{ -30, 1, "mach_print", trap_mach_print },
	{ -59, 1, "swtch_pri", trap_swtch_pri },
	{ -60, 0, "swtch", trap_swtch },
	{ -66, 3, "syscall_vm_deallocate", trap_syscall_vm_deallocate },
};

const struct mach_trap *mach_trap_find(int32_t number)
{
	for (size_t i = 0; i < sizeof(traps) / sizeof(traps[0]); i++)
		if (traps[i].number == number)
			return &traps[i];
	return NULL;
}
