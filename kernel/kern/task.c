/* SPDX-License-Identifier: GPL-2.0-only */
/* Creating user tasks, starting their threads, and ending them. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "kern/kalloc.h"
#include "kern/kprintf.h"
#include "kern/panic.h"
#include "kern/sched.h"
#include "kern/task.h"
#include "kern/task_port.h"
#include "kern/thread.h"
#include "vm/vm_map.h"
#include "x86_64/cpu.h"
#include "x86_64/fpu.h"
#include "x86_64/io_bitmap.h"
#include "x86_64/syscall.h"

struct task kernel_task = { .name = "kernel" };

static unsigned int tasks_alive;
unsigned int task_terminations;
char task_last_reason[128];

unsigned int task_count(void)
{
	return tasks_alive;
}

struct task *task_current(void)
{
	struct thread *t = thread_current();

	return t->task != NULL ? t->task : &kernel_task;
}

kern_return_t task_create_user(const char *name, struct task **out)
{
	struct task *task = kzalloc(sizeof(*task));
	size_t i;

	if (task == NULL)
		return KERN_RESOURCE_SHORTAGE;
	task->map = vm_map_create();
	if (task->map == NULL) {
		kfree(task);
		return KERN_RESOURCE_SHORTAGE;
	}
	if (task_port_setup(task) != KERN_SUCCESS) {
		vm_map_destroy(task->map);
		kfree(task);
		return KERN_RESOURCE_SHORTAGE;
	}
	for (i = 0; name[i] != '\0' && i + 1 < sizeof(task->name); i++)
		task->name[i] = name[i];
	task->name[i] = '\0';
	tasks_alive++;
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
	kfree(task);
	tasks_alive--;
}

/* Kernel side of a new user thread: enter user mode (or, if its setup
 * failed, just end). */
static void task_thread_enter(void *arg)
{
	struct thread *t = thread_current();

	(void)arg;
	if (t->user_rip == 0)
		return;
	user_enter(t->user_rip, t->user_rsp, t->user_arg);
}

void task_ast_check(void)
{
	struct task *task = thread_current()->task;

	if (task != NULL && task != &kernel_task && task->terminating)
		task_terminate_current("task_terminate");
}

kern_return_t task_start_thread(struct task *task, uint64_t rip,
				uint64_t rsp, uint64_t arg)
{
	struct thread *t;
	kern_return_t kr;
	uint64_t flags;

	if (rip < VM_MIN_ADDRESS || rip >= VM_MAX_ADDRESS ||
	    rsp < VM_MIN_ADDRESS || rsp > VM_MAX_ADDRESS)
		return KERN_INVALID_ARGUMENT;
	/* Interrupts off: the thread must not run before it is set up
	 * (with them off, creating it cannot switch to it). */
	flags = cpu_intr_save();
	kr = kernel_thread_create(task->name, THREAD_PRIORITY_DEFAULT,
				  task_thread_enter, NULL, &t);
	if (kr == KERN_SUCCESS) {
		t->fpu = kalloc(sizeof(*t->fpu));
		if (t->fpu != NULL)
			fpu_state_init(t->fpu);
	}
	if (kr == KERN_SUCCESS &&
	    (t->fpu == NULL || thread_port_setup(t) != KERN_SUCCESS)) {
		/* Not yet run (interrupts are off): make it exit at once. */
		t->user_rip = 0;
		kr = KERN_RESOURCE_SHORTAGE;
	}
	if (kr == KERN_SUCCESS) {
		t->task = task;
		t->map = task->map;
		t->user_rip = rip;
		t->user_rsp = rsp;
		t->user_arg = arg;
		task->thread_count++;
	}
	cpu_intr_restore(flags);
	return kr;
}

void task_terminate_current(const char *fmt, ...)
{
	struct thread *t = thread_current();
	struct task *task = t->task;
	va_list ap;

	if (task == NULL || task == &kernel_task)
		panic("task_terminate_current from a kernel thread");
	va_start(ap, fmt);
	kvsnprintf(task_last_reason, sizeof(task_last_reason), fmt, ap);
	va_end(ap);
	kprintf("task %s terminated: %s\n", task->name, task_last_reason);
	thread_port_teardown(t);
	t->task = &kernel_task;
	t->map = NULL;
	task->thread_count--;
	task_destroy(task);
	task_terminations++;
	thread_wakeup(&task_terminations);
	thread_exit();
}
