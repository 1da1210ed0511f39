/* SPDX-License-Identifier: GPL-2.0-only */
/* User threads: creation, suspension, abort and exit (see thread_user.h). */
#include <stddef.h>

#include "kern/kalloc.h"
#include "kern/sched.h"
#include "kern/task.h"
#include "kern/task_port.h"
#include "kern/thread.h"
#include "kern/thread_user.h"
#include "vm/vm_map.h"
#include "x86_64/cpu.h"
#include "x86_64/fpu.h"
#include "x86_64/thread_state.h"

/* Kernel side of a new user thread: wait until resumed, then enter user
 * mode through its frame (or, if its setup failed, just end). */
static void thread_user_start(void *arg)
{
	struct thread *t = thread_current();

	(void)arg;
	if (t->task == NULL)
		return;
	task_ast_check();
	thread_state_return(thread_state_frame(t));
}

kern_return_t thread_user_create(struct task *task, struct thread **out)
{
	struct thread *t;
	kern_return_t kr;
	uint64_t flags;

	/* Interrupts off: the thread must not run before it is set up
	 * (with them off, creating it cannot switch to it). */
	flags = cpu_intr_save();
	kr = kernel_thread_create_reserve(task->name, THREAD_PRIORITY_DEFAULT,
					  thread_user_start, NULL,
					  sizeof(struct trap_frame), &t);
	if (kr != KERN_SUCCESS)
		goto out;
	t->fpu = kalloc(sizeof(*t->fpu));
	if (t->fpu == NULL || thread_port_setup(t) != KERN_SUCCESS) {
		/* Not yet run: with no task it ends at once, and the
		 * scheduler frees its fpu with it. */
		kr = KERN_RESOURCE_SHORTAGE;
		goto out;
	}
	fpu_state_init(t->fpu);
	thread_state_init(thread_state_frame(t));
	t->task = task;
	t->map = task->map;
	t->suspend_count = 1;
	t->task_next = task->threads;
	task->threads = t;
	task->thread_count++;
	*out = t;
out:
	cpu_intr_restore(flags);
	return kr;
}

void thread_user_suspend(struct thread *t)
{
	uint64_t flags = cpu_intr_save();

	t->suspend_count++;
	cpu_intr_restore(flags);
}

kern_return_t thread_user_resume(struct thread *t)
{
	uint64_t flags = cpu_intr_save();
	kern_return_t kr = KERN_FAILURE;

	if (t->suspend_count > 0) {
		kr = KERN_SUCCESS;
		if (--t->suspend_count == 0)
			thread_wakeup(&t->suspend_count);
	}
	cpu_intr_restore(flags);
	return kr;
}

void thread_user_terminate(struct thread *t)
{
	uint64_t flags = cpu_intr_save();

	t->terminating = true;
	thread_port_teardown(t);
	thread_interrupt(t);
	cpu_intr_restore(flags);
}

void thread_user_abort(struct thread *t)
{
	thread_interrupt(t);
}

void thread_user_exit(void)
{
	struct thread *t = thread_current(), **pp;
	struct task *task = t->task;

	cpu_intr_disable();
	thread_port_teardown(t);
	for (pp = &task->threads; *pp != t; pp = &(*pp)->task_next)
		;
	*pp = t->task_next;
	t->task_next = NULL;
	task->thread_count--;
	t->task = &kernel_task;
	t->map = NULL;
	if (task->thread_count == 0 && task->terminating)
		task_destroy(task);
	thread_exit();
}
