/* SPDX-License-Identifier: GPL-2.0-only */
/* Creating user tasks, starting, stopping and ending their threads. */
/*
 * A task ends in two steps: task_terminate marks it and interrupts its
 * threads' waits; each thread then exits at its next AST (task_ast_check,
 * on its way back to user mode), and the last one out frees the task
 * (thread_user_exit).  Nothing here blocks but task_ast_check, which runs
 * on the thread that waits.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "ipc/ipc_port.h"
#include "kern/clock.h"
#include "kern/kalloc.h"
#include "kern/ledger.h"
#include "kern/kprintf.h"
#include "kern/panic.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/supervise.h"
#include "kern/task.h"
#include "kern/task_port.h"
#include "kern/thread.h"
#include "kern/thread_user.h"
#include "vm/vm_map.h"
#include "x86_64/cpu.h"
#include "x86_64/io_bitmap.h"
#include "x86_64/thread_state.h"

struct task kernel_task = { .name = "kernel" };

static unsigned int tasks_alive;
unsigned int task_terminations;
char task_last_reason[128];

unsigned int task_count(void)
{
	return tasks_alive;
}

/* A task with an empty name space and a task port, over @map (taken). */
static kern_return_t task_make(const char *name, struct vm_map *map,
			       struct task **out)
{
	struct task *task;
	size_t i;

	if (map == NULL)
		return KERN_RESOURCE_SHORTAGE;
	task = kzalloc(sizeof(*task));
	if (task == NULL)
		goto err_map;
	task->map = map;
	task->ledger = ledger_create();
	if (task->ledger == NULL)
		goto err_task;
	if (task_port_setup(task) != KERN_SUCCESS)
		goto err_ledger;
	for (i = 0; name[i] != '\0' && i + 1 < sizeof(task->name); i++)
		task->name[i] = name[i];
	task->name[i] = '\0';
	task->created = clock_ticks();
	tasks_alive++;
	*out = task;
	return KERN_SUCCESS;
err_ledger:
	ledger_release(task->ledger);
err_task:
	kfree(task);
err_map:
	vm_map_destroy(map);
	return KERN_RESOURCE_SHORTAGE;
}

kern_return_t task_create_user(const char *name, struct task **out)
{
	return task_make(name, vm_map_create(), out);
}

kern_return_t task_create_child(struct task *parent, bool inherit_memory,
				struct task **out)
{
	struct vm_map *map = NULL;
	struct task *task;
	kern_return_t kr;
	char name[sizeof(task->name)];

	if (inherit_memory) {
		kr = vm_map_fork(parent->map, &map);
		if (kr != KERN_SUCCESS)
			return kr;
	} else {
		map = vm_map_create();
	}
	ksnprintf(name, sizeof(name), "child of %s", parent->name);
	kr = task_make(name, map, &task);
	if (kr != KERN_SUCCESS)
		return kr;
	if (parent->itk_bootstrap != NULL)
		task->itk_bootstrap = ipc_port_copy_send(parent->itk_bootstrap);
	if (parent->itk_exception != NULL)
		task->itk_exception = ipc_port_copy_send(parent->itk_exception);
	*out = task;
	return KERN_SUCCESS;
}

void task_destroy(struct task *task)
{
	if (task->thread_count != 0)
		panic("task_destroy: %s still has threads", task->name);
	task_port_teardown(task);
	if (vm_map_active() == task->map)
		vm_map_activate(NULL);
	vm_map_destroy(task->map);
	io_bitmap_free(task->io_bitmap);
	ledger_release(task->ledger);
	if (task->terminating) {
		task_terminations++;
		thread_wakeup(&task_terminations);
	}
	if (task->supervision != NULL)
		supervise_task_ended(task->supervision);
	kfree(task);
	tasks_alive--;
}

kern_return_t task_start_thread(struct task *task, uint64_t rip,
				uint64_t rsp, uint64_t arg)
{
	struct trap_frame probe;
	struct thread *t;
	kern_return_t kr;

	thread_state_init(&probe);
	kr = thread_state_set_entry(&probe, rip, rsp, arg);
	if (kr != KERN_SUCCESS)
		return kr;
	kr = thread_user_create(task, &t);
	if (kr != KERN_SUCCESS)
		return kr;
	*thread_state_frame(t) = probe;
	return thread_user_resume(t);
}

void task_terminate(struct task *task, const char *reason)
{
	uint64_t flags = cpu_intr_save();

	if (!task->terminating) {
		task->terminating = true;
		ksnprintf(task_last_reason, sizeof(task_last_reason), "%s",
			  reason);
		kprintf("task %s terminated: %s\n", task->name,
			task_last_reason);
	}
	for (struct thread *t = task->threads; t != NULL; t = t->task_next)
		if (t != thread_current())
			thread_interrupt(t);
	if (task->thread_count == 0)
		task_destroy(task);
	cpu_intr_restore(flags);
}

void task_terminate_current(const char *fmt, ...)
{
	struct task *task = thread_current()->task;
	char reason[sizeof(task_last_reason)];
	va_list ap;

	if (task == NULL || task == &kernel_task)
		panic("task_terminate_current from a kernel thread");
	va_start(ap, fmt);
	kvsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	task_terminate(task, reason);
	thread_user_exit();
}

void task_ast_check(void)
{
	struct thread *t = thread_current();
	struct task *task = t->task;
	uint64_t flags;

	if (task == NULL || task == &kernel_task)
		return;
	/* Nothing asked of the thread (the common case): no hold needed,
	 * whatever sets these later checks again at the next return. */
	if (!t->terminating && !task->terminating && t->suspend_count == 0 &&
	    task->suspend_count == 0)
		return;
	flags = cpu_intr_save();
	for (;;) {
		if (t->terminating || task->terminating)
			thread_user_exit();
		if (t->suspend_count == 0 && task->suspend_count == 0)
			break;
		assert_wait(&t->suspend_count);
		thread_block();
	}
	cpu_intr_restore(flags);
}

void task_suspend(struct task *task)
{
	uint64_t flags = cpu_intr_save();

	task->suspend_count++;
	cpu_intr_restore(flags);
}

kern_return_t task_resume(struct task *task)
{
	uint64_t flags = cpu_intr_save();
	kern_return_t kr = KERN_FAILURE;

	if (task->suspend_count > 0) {
		kr = KERN_SUCCESS;
		if (--task->suspend_count == 0)
			for (struct thread *t = task->threads; t != NULL;
			     t = t->task_next)
				thread_wakeup(&t->suspend_count);
	}
	cpu_intr_restore(flags);
	return kr;
}
