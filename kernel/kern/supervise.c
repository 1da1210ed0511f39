/* SPDX-License-Identifier: GPL-2.0-only */
/* The supervisor thread: supervised modules' tasks started again when they die, or given up. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kern/bootstrap.h"
#include "kern/clock.h"
#include "kern/cmdline.h"
#include "kern/kalloc.h"
#include "kern/kprintf.h"
#include "kern/panic.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/supervise.h"
#include "kern/task.h"
#include "kern/thread.h"
#include "x86_64/cpu.h"

#define SUPERVISE_PRIORITY	4

struct supervision {
	struct supervision *next;
	const struct boot_module *module;
	char name[32];			/* its tasks' */
	unsigned int max, restarts;
	bool verify;			/* verify=1 on its line */
	struct task *task;		/* the instance now, or NULL */
	bool start_due;			/* dead, to be started again */
	bool gave_up, gave_up_told;
	bool settling;			/* started, SETTLED not told yet */
	uint64_t settle_at;		/* clock_ticks() to tell it at */
};

static struct supervision *supervisions;
static void (*watchers[SUPERVISE_WATCHERS])(struct supervision *,
					     enum supervise_event);
static char supervisor_event;

void supervise_watch(void (*fn)(struct supervision *sup,
				enum supervise_event event))
{
	for (size_t i = 0; i < SUPERVISE_WATCHERS; i++) {
		if (watchers[i] == NULL) {
			watchers[i] = fn;
			return;
		}
	}
	panic("supervise_watch: more than %d watchers", SUPERVISE_WATCHERS);
}

static void tell(struct supervision *sup, enum supervise_event event)
{
	for (size_t i = 0; i < SUPERVISE_WATCHERS; i++)
		if (watchers[i] != NULL)
			watchers[i](sup, event);
}

/* The supervision of module @m, whose task is @task, made on its first
 * call; NULL if memory is short.  Interrupts off. */
static struct supervision *of_module(const struct boot_module *m,
				     const struct task *task, unsigned int max)
{
	struct supervision *sup;

	for (sup = supervisions; sup != NULL; sup = sup->next)
		if (sup->module == m)
			return sup;
	sup = kzalloc(sizeof(*sup));
	if (sup == NULL)
		return NULL;
	sup->module = m;
	sup->max = max;
	memcpy(sup->name, task->name, sizeof(sup->name));
	sup->name[sizeof(sup->name) - 1] = '\0';
	sup->next = supervisions;
	supervisions = sup;
	return sup;
}

bool supervise_words(const char *cmdline, unsigned int *max, bool *verify)
{
	uint64_t n, v = 0;
	int rc = cmdline_u64(cmdline, "restart", &n);
	int vrc = cmdline_u64(cmdline, "verify", &v);

	*verify = false;
	if (rc == CMDLINE_ABSENT) {
		if (vrc != CMDLINE_ABSENT)
			kprintf("supervise: '%s': verify= without restart=N; "
				"its data not verified\n", cmdline);
		return false;
	}
	if (rc != 0 || n == 0 || n > SUPERVISE_MAX) {
		kprintf("supervise: '%s': restart= wants a number from 1 to "
			"%d; not supervised\n", cmdline, SUPERVISE_MAX);
		return false;
	}
	if ((vrc != 0 && vrc != CMDLINE_ABSENT) || v > 1)
		kprintf("supervise: '%s': verify= wants 0 or 1; its data "
			"not verified\n", cmdline);
	else
		*verify = v == 1;
	*max = (unsigned int)n;
	return true;
}

void supervise_attach(struct task *task, const struct boot_module *m)
{
	unsigned int max;
	bool verify;
	uint64_t flags;
	struct supervision *sup;

	if (!supervise_words(m->cmdline, &max, &verify))
		return;
	flags = cpu_intr_save();
	sup = of_module(m, task, max);
	if (sup == NULL)
		kprintf("supervise: no memory to supervise '%s'\n",
			m->cmdline);
	else if (!sup->gave_up)
		sup->task = task;
	if (sup != NULL)
		sup->verify = verify;
	task->supervision = sup != NULL && !sup->gave_up ? sup : NULL;
	cpu_intr_restore(flags);
}

bool supervise_verifies(const struct supervision *sup)
{
	return sup->verify;
}

bool supervise_will_restart(const struct supervision *sup)
{
	return !sup->gave_up && sup->restarts < sup->max;
}

/* @sup's instance died or could not start (interrupts off). */
static void died(struct supervision *sup)
{
	sup->task = NULL;
	sup->settling = false;
	if (supervise_will_restart(sup))
		sup->start_due = true;
	else
		sup->gave_up = true;
	thread_wakeup(&supervisor_event);
}

void supervise_task_ended(struct supervision *sup)
{
	uint64_t flags = cpu_intr_save();

	died(sup);
	cpu_intr_restore(flags);
}

/* Start @sup's module again (supervisor thread, interrupts on). */
static void start(struct supervision *sup)
{
	struct task *task = NULL;
	uint64_t flags;

	sup->restarts++;
	kprintf("supervise: %s started again (%u of %u)\n", sup->name,
		sup->restarts, sup->max);
	if (bootstrap_task_create(sup->module, &task) != KERN_SUCCESS) {
		flags = cpu_intr_save();
		if (sup->task == NULL && !sup->start_due && !sup->gave_up)
			died(sup);	/* not loaded: no task_destroy */
		cpu_intr_restore(flags);
		return;
	}
	flags = cpu_intr_save();
	sup->settling = sup->task == task;
	sup->settle_at = clock_ticks() + SUPERVISE_SETTLE_TICKS;
	cpu_intr_restore(flags);
}

/* One pass over the supervisions: what is due now.  Returns the ticks
 * until the next settling is due (0: none). */
static uint64_t pass(void)
{
	uint64_t wait = 0;

	for (struct supervision *sup = supervisions; sup != NULL;
	     sup = sup->next) {
		uint64_t flags = cpu_intr_save();
		bool start_due = sup->start_due;
		bool gave_up = sup->gave_up && !sup->gave_up_told;
		bool settled = sup->settling && clock_ticks() >= sup->settle_at;

		sup->start_due = false;
		if (gave_up)
			sup->gave_up_told = true;
		if (settled)
			sup->settling = false;
		cpu_intr_restore(flags);
		if (gave_up) {
			kprintf("supervise: %s given up after %u restarts\n",
				sup->name, sup->restarts);
			tell(sup, SUPERVISE_GAVE_UP);
		}
		if (settled)
			tell(sup, SUPERVISE_SETTLED);
		if (start_due)
			start(sup);
		flags = cpu_intr_save();
		if (sup->settling) {
			uint64_t left = sup->settle_at > clock_ticks() ?
					sup->settle_at - clock_ticks() : 1;

			if (wait == 0 || left < wait)
				wait = left;
		}
		cpu_intr_restore(flags);
	}
	return wait;
}

static void supervisor(void *arg)
{
	(void)arg;
	for (;;) {
		uint64_t wait = pass();
		uint64_t flags = cpu_intr_save();
		bool due = false;

		for (struct supervision *sup = supervisions; sup != NULL;
		     sup = sup->next)
			due |= sup->start_due ||
			       (sup->gave_up && !sup->gave_up_told);
		if (!due) {
			assert_wait(&supervisor_event);
			if (wait != 0)
				thread_set_timeout(wait);
			cpu_intr_restore(flags);
			(void)thread_block();
		} else {
			cpu_intr_restore(flags);
		}
	}
}

struct task *supervise_task(const struct supervision *sup)
{
	return sup->task;
}

unsigned int supervise_restarts(const struct supervision *sup)
{
	return sup->restarts;
}

bool supervise_gave_up(const struct supervision *sup)
{
	return sup->gave_up;
}

struct supervision *supervise_of_task(const struct task *task)
{
	return task->supervision;
}

void supervise_init(void)
{
	if (kernel_thread_create("supervise", SUPERVISE_PRIORITY, supervisor,
				 NULL, NULL) != KERN_SUCCESS)
		panic("supervise: cannot start the supervisor thread");
}
