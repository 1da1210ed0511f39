/* SPDX-License-Identifier: GPL-2.0-only */
/* Creating and freeing kernel threads (the scheduler runs and ends them). */
#include <stddef.h>
#include <stdint.h>

#include "kern/clock.h"
#include "kern/kalloc.h"
#include "kern/panic.h"
#include "kern/sched.h"
#include "kern/thread.h"
#include "x86_64/cpu.h"
#include "x86_64/switch.h"

static unsigned int threads_alive;

unsigned int thread_count(void)
{
	return threads_alive;
}

void thread_setup_static(struct thread *t, const char *name, int priority)
{
	size_t i;

	for (i = 0; name[i] != '\0' && i + 1 < sizeof(t->name); i++)
		t->name[i] = name[i];
	t->name[i] = '\0';
	t->priority = priority;
	threads_alive++;
}

/* First code a new thread runs, on its own stack, interrupts off. */
static void thread_start(void)
{
	struct thread *t = thread_current();

	sched_switch_done();
	cpu_intr_enable();
	t->entry(t->arg);
	thread_exit();
}

kern_return_t kernel_thread_create(const char *name, int priority,
				   void (*fn)(void *arg), void *arg,
				   struct thread **out)
{
	return kernel_thread_create_reserve(name, priority, fn, arg, 0, out);
}

kern_return_t kernel_thread_create_reserve(const char *name, int priority,
					   void (*fn)(void *arg), void *arg,
					   size_t reserve,
					   struct thread **out)
{
	struct thread *t;

	if (fn == NULL || priority < 0 || priority >= THREAD_PRIORITIES ||
	    (reserve & 15) != 0 || reserve >= THREAD_STACK_SIZE / 2)
		return KERN_INVALID_ARGUMENT;
	t = kzalloc(sizeof(*t));
	if (t == NULL)
		return KERN_RESOURCE_SHORTAGE;
	t->stack = kalloc(THREAD_STACK_SIZE);
	if (t->stack == NULL) {
		kfree(t);
		return KERN_RESOURCE_SHORTAGE;
	}
	thread_setup_static(t, name != NULL ? name : "?", priority);
	t->created = clock_ticks();
	t->entry = fn;
	t->arg = arg;
	t->rsp = switch_stack_init(t->stack, THREAD_STACK_SIZE - reserve,
				   thread_start);
	if (out != NULL)
		*out = t;
	sched_make_runnable(t);
	return KERN_SUCCESS;
}

void thread_free(struct thread *t)
{
	if (t->state != THREAD_HALTED || t->stack == NULL)
		panic("thread_free: %s is not a halted created thread",
		      t->name);
	kfree(t->stack);
	kfree(t->fpu);
	kfree(t);
	threads_alive--;
}
