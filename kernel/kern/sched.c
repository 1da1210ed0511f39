/* SPDX-License-Identifier: GPL-2.0-only */
/* Run queues by priority, waiting on events with timeouts, preemption on ticks. */
/*
 * One run queue per priority (0 highest) and a bitmap of the non-empty
 * ones; the next thread is the head of the highest non-empty queue, or the
 * idle thread.  A thread runs until it blocks, yields, exits, is preempted
 * by a higher-priority thread becoming runnable, or uses up SCHED_QUANTUM
 * ticks while a thread of its priority waits.
 *
 * Waiting is Mach's two-step: assert_wait(event) hangs the thread in a wait
 * bucket (hash of the event) while it keeps running; thread_block() then
 * switches away if the wait has not already ended.  A wakeup or timeout
 * between the two steps just ends the wait, so none is lost, and a thread
 * preempted between them stays runnable.
 *
 * All state here is guarded by disabling interrupts (one CPU).  Switches
 * asked for from interrupt context (a wakeup, a tick) happen in
 * sched_preempt_point() as the interrupt returns.
 *
 * The idle thread polls before it halts (sched.h).  An interrupt during
 * the poll may switch away from it as it returns; when the idle thread
 * runs again its poll starts afresh.
 */
#include <stddef.h>
#include <stdint.h>

#include "kern/clock.h"
#include "kern/cmdline.h"
#include "kern/kprintf.h"
#include "kern/panic.h"
#include "kern/sched.h"
#include "kern/task.h"
#include "kern/thread.h"
#include "vm/vm_map.h"
#include "x86_64/cpu.h"
#include "x86_64/cpu_local.h"
#include "x86_64/fpu.h"
#include "x86_64/io_bitmap.h"
#include "x86_64/switch.h"
#include "x86_64/tsc.h"

#define WAIT_BUCKETS	64

static struct thread boot_thread, idle_thread;
static uint8_t idle_stack[THREAD_STACK_SIZE] __attribute__((aligned(16)));
struct thread *sched_current = &boot_thread;	/* thread.h */
static struct thread *runq_head[THREAD_PRIORITIES];
static struct thread *runq_tail[THREAD_PRIORITIES];
static uint32_t runq_bitmap;
static struct thread *wait_bucket[WAIT_BUCKETS];
static struct thread *reap;
static bool need_resched;
static uint64_t switches;
static uint64_t idle_poll_ticks;	/* TSC ticks */
static uint64_t idle_polled, idle_halted;

uint64_t sched_switch_count(void)
{
	return switches;
}

static void runq_put(struct thread *t)
{
	int p = t->priority;

	t->state = THREAD_RUNNABLE;
	t->next = NULL;
	if (runq_tail[p] != NULL)
		runq_tail[p]->next = t;
	else
		runq_head[p] = t;
	runq_tail[p] = t;
	runq_bitmap |= 1u << p;
}

/* The highest-priority runnable thread, dequeued, or NULL. */
static struct thread *runq_take(void)
{
	struct thread *t;
	int p;

	if (runq_bitmap == 0)
		return NULL;
	p = __builtin_ctz(runq_bitmap);
	t = runq_head[p];
	runq_head[p] = t->next;
	if (runq_head[p] == NULL) {
		runq_tail[p] = NULL;
		runq_bitmap &= ~(1u << p);
	}
	t->next = NULL;
	return t;
}

/* Priority of the best runnable thread, or THREAD_PRIORITIES if none. */
static int runq_best(void)
{
	return runq_bitmap ? __builtin_ctz(runq_bitmap) : THREAD_PRIORITIES;
}

void sched_switch_done(void)
{
	struct thread *t = reap;

	if (t != NULL) {
		reap = NULL;
		thread_free(t);
	}
}

/*
 * What the machine keeps per thread besides registers: the address space
 * it runs in (kernel threads keep whatever map they activated, mostly
 * none, which leaves the last task's page tables loaded: vm_map.h) and
 * the stack the CPU takes on entry from user mode.
 */
static void machine_switch(struct thread *prev, struct thread *next)
{
	if (prev->fpu != NULL && prev->state != THREAD_HALTED)
		fpu_save(prev->fpu);
	if (next->fpu != NULL)
		fpu_restore(next->fpu);
	prev->map = vm_map_active();
	if (next->map != prev->map)
		vm_map_activate(next->map);
	if (next->stack != NULL)
		cpu_local_set_kernel_stack((uint64_t)next->stack +
					   THREAD_STACK_SIZE);
	if (next->task != NULL)		/* user I/O ports (io_bitmap.h) */
		io_bitmap_load(next->task->io_bitmap);
}

/* Switch to the best runnable thread; the caller has already queued,
 * blocked or halted the current one.  Interrupts off. */
static void switch_to_next(void)
{
	struct thread *prev = sched_current, *next = runq_take();

	if (next == NULL)
		next = &idle_thread;
	need_resched = false;
	next->state = THREAD_RUNNING;
	next->quantum = SCHED_QUANTUM;
	if (next == prev)
		return;
	sched_current = next;
	switches++;
	machine_switch(prev, next);
	switch_context(&prev->rsp, next->rsp);
	sched_switch_done();
}

/* Give the CPU up if a switch was asked for.  Interrupts off. */
static void preempt_locked(void)
{
	if (!need_resched)
		return;
	if (sched_current != &idle_thread)
		runq_put(sched_current);
	switch_to_next();
}

void sched_make_runnable(struct thread *t)
{
	uint64_t flags = cpu_intr_save();

	runq_put(t);
	if (t->priority < sched_current->priority ||
	    sched_current == &idle_thread)
		need_resched = true;
	if (flags & RFLAGS_IF)
		preempt_locked();
	cpu_intr_restore(flags);
}

void sched_preempt_point(void)
{
	preempt_locked();
}

static void sched_tick(void)
{
	if (sched_current == &idle_thread) {
		if (runq_bitmap)
			need_resched = true;
		return;
	}
	if (sched_current->quantum > 0)
		sched_current->quantum--;
	if (sched_current->quantum == 0) {
		if (runq_best() <= sched_current->priority)
			need_resched = true;
		else
			sched_current->quantum = SCHED_QUANTUM;
	}
}

static struct thread **bucket_of(const void *event)
{
	return &wait_bucket[((uintptr_t)event >> 4) % WAIT_BUCKETS];
}

/* End @t's wait with @result: unhook it, and run it again if it blocked. */
static void wait_end(struct thread *t, enum thread_wait_result result)
{
	struct thread **pp = bucket_of(t->wait_event);

	while (*pp != t)
		pp = &(*pp)->wait_next;
	*pp = t->wait_next;
	t->wait_next = NULL;
	t->wait_event = NULL;
	t->wait_result = result;
	if (t->state == THREAD_BLOCKED) {
		runq_put(t);
		if (t->priority < sched_current->priority ||
		    sched_current == &idle_thread)
			need_resched = true;
	}
}

static void wait_timeout_fire(void *arg)
{
	struct thread *t = arg;

	if (t->wait_event != NULL)
		wait_end(t, THREAD_TIMED_OUT);
}

void assert_wait(const void *event)
{
	uint64_t flags;
	struct thread **pp;

	if (event == NULL)
		panic("assert_wait: NULL event");
	flags = cpu_intr_save();
	if (sched_current->wait_event != NULL)
		panic("assert_wait: %s already waits", sched_current->name);
	sched_current->wait_event = event;
	sched_current->wait_result = THREAD_AWAKENED;
	pp = bucket_of(event);
	while (*pp != NULL)
		pp = &(*pp)->wait_next;
	*pp = sched_current;
	sched_current->wait_next = NULL;
	cpu_intr_restore(flags);
}

void thread_set_timeout(uint64_t ticks)
{
	timeout_set(&sched_current->wait_timeout, ticks, wait_timeout_fire,
		    sched_current);
}

enum thread_wait_result thread_block(void)
{
	uint64_t flags = cpu_intr_save();
	enum thread_wait_result r;

	if (sched_current == &idle_thread)
		panic("thread_block: the idle thread cannot block");
	if (sched_current->wait_event != NULL) {
		sched_current->state = THREAD_BLOCKED;
	} else {
		runq_put(sched_current);
		need_resched = true;
	}
	switch_to_next();
	if (sched_current->wait_timeout.pending)
		timeout_cancel(&sched_current->wait_timeout);
	r = sched_current->wait_result;
	sched_current->wait_result = THREAD_AWAKENED;
	cpu_intr_restore(flags);
	return r;
}

static unsigned int wakeup(const void *event, unsigned int max)
{
	uint64_t flags = cpu_intr_save();
	struct thread *t, *next;
	unsigned int n = 0;

	for (t = *bucket_of(event); t != NULL && n < max; t = next) {
		next = t->wait_next;
		if (t->wait_event != event)
			continue;
		if (t->wait_timeout.pending)
			timeout_cancel(&t->wait_timeout);
		wait_end(t, THREAD_AWAKENED);
		n++;
	}
	if (flags & RFLAGS_IF)
		preempt_locked();
	cpu_intr_restore(flags);
	return n;
}

bool thread_wakeup_thread(struct thread *t, const void *event)
{
	uint64_t flags = cpu_intr_save();
	bool woke = t->wait_event == event;

	if (woke) {
		if (t->wait_timeout.pending)
			timeout_cancel(&t->wait_timeout);
		wait_end(t, THREAD_AWAKENED);
		if (flags & RFLAGS_IF)
			preempt_locked();
	}
	cpu_intr_restore(flags);
	return woke;
}

unsigned int thread_wakeup(const void *event)
{
	return wakeup(event, ~0u);
}

unsigned int thread_wakeup_one(const void *event)
{
	return wakeup(event, 1);
}

void thread_interrupt(struct thread *t)
{
	uint64_t flags = cpu_intr_save();

	if (t->wait_event != NULL) {
		timeout_cancel(&t->wait_timeout);
		wait_end(t, THREAD_INTERRUPTED);
	}
	if (flags & RFLAGS_IF)
		preempt_locked();
	cpu_intr_restore(flags);
}

void sched_yield(void)
{
	uint64_t flags = cpu_intr_save();

	runq_put(sched_current);
	switch_to_next();
	cpu_intr_restore(flags);
}

void thread_sleep_ticks(uint64_t ticks)
{
	assert_wait(&sched_current->wait_timeout);
	thread_set_timeout(ticks);
	thread_block();
}

void thread_exit(void)
{
	cpu_intr_disable();
	if (sched_current->stack == NULL)
		panic("thread_exit: %s was not made by kernel_thread_create",
		      sched_current->name);
	if (sched_current->wait_event != NULL)
		panic("thread_exit: %s exits while waiting",
		      sched_current->name);
	timeout_cancel(&sched_current->wait_timeout);
	sched_current->state = THREAD_HALTED;
	reap = sched_current;
	switch_to_next();
	panic("thread_exit: a halted thread ran again");
}

/* Interrupts off: wait for a switch to be asked for (or to have
 * happened, from an interrupt taken while polling), polling first. */
static void idle_wait(void)
{
	uint64_t start = rdtsc_fenced(), seen = switches;

	if (idle_poll_ticks != 0) {
		cpu_intr_enable();
		while (!__atomic_load_n(&need_resched, __ATOMIC_RELAXED) &&
		       __atomic_load_n(&switches, __ATOMIC_RELAXED) == seen &&
		       rdtsc_fenced() - start < idle_poll_ticks)
			;
		cpu_intr_disable();
		if (need_resched || switches != seen) {
			idle_polled++;
			return;
		}
	}
	/* sti's one-instruction shadow makes sti;hlt race-free. */
	__asm__ volatile("sti; hlt; cli" : : : "memory");
	idle_halted++;
}

static void idle_loop(void)
{
	sched_switch_done();
	for (;;) {
		idle_wait();
		preempt_locked();
	}
}

uint64_t sched_idle_poll_words(const char *cmdline)
{
	uint64_t us, flags;
	int rc = cmdline_u64(cmdline, "idle_poll", &us);

	if (rc == CMDLINE_ABSENT) {
		us = SCHED_IDLE_POLL_US;
	} else if (rc != 0 || us > SCHED_IDLE_POLL_MAX_US) {
		kprintf("sched: idle_poll= wants microseconds from 0 to %u; "
			"polling %u\n", SCHED_IDLE_POLL_MAX_US,
			SCHED_IDLE_POLL_US);
		us = SCHED_IDLE_POLL_US;
	}
	flags = cpu_intr_save();
	idle_poll_ticks = tsc_hz() * us / 1000000;
	cpu_intr_restore(flags);
	return us;
}

void sched_idle_counts(uint64_t *polled, uint64_t *halted)
{
	uint64_t flags = cpu_intr_save();

	*polled = idle_polled;
	*halted = idle_halted;
	cpu_intr_restore(flags);
}

void sched_init(void)
{
	thread_setup_static(&boot_thread, "kmain", THREAD_PRIORITY_DEFAULT);
	boot_thread.state = THREAD_RUNNING;
	boot_thread.quantum = SCHED_QUANTUM;
	thread_setup_static(&idle_thread, "idle", THREAD_PRIORITY_IDLE);
	idle_thread.rsp = switch_stack_init(idle_stack, sizeof(idle_stack),
					    idle_loop);
	clock_set_tick_hook(sched_tick);
}
