/* SPDX-License-Identifier: GPL-2.0-only */
/* The server's threads, waits and clock: lx_host_thread_*, lx_host_wait*, lx_host_wakeup, lx_host_clock_start, lx_host_delay_ns, lx_host_io_delay, lx_host_backtrace, and the event loop. */
/*
 * The Linux world runs as one uniprocessor without preemption, at most
 * one thread in it at a time (linux-emu/include/lx_world.h); the server
 * gives it exactly that, in one Mach thread: each lx_host thread is a
 * stack of its own, switched to by the event loop (switch.S) and
 * running until it waits.  The event loop, on the main stack, runs the
 * ready threads in order, then receives on its port set until the next
 * clock tick: a message is given to its port's handler, the tick to the
 * world's tick function, both as interrupts (flag off).  Interrupts thus
 * come between threads, and inside lx_host_delay_ns() when the waiting
 * thread has its flag on, as a CPU would let them in a busy wait.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <graft_user.h>
#include <mach_host.h>

#include <lx_host.h>

#include "lxdrv.h"

#define STACK_SIZE	(32u << 10)
#define HZ		100
#define TICK_US		(1000000 / HZ)
#define WATCH_MAX	16
#define RCV_SIZE	8192

struct lxdrv_thread {
	struct lxdrv_thread *next;	/* every thread */
	struct lxdrv_thread *run_next;	/* the ready queue */
	unsigned long sp;
	void *stack;
	void (*fn)(void *arg);
	void *arg;
	unsigned long id;
	unsigned long irq_flag;		/* saved while switched away */
	const void *event;		/* the prepared wait's, or NULL */
	unsigned long deadline;		/* tick that ends the wait; 0: none */
	bool woken, waiting, ready, timed_out, dead;
	char name[16];
};

struct watch {
	mach_port_t port;
	lxdrv_msg_fn *fn;
	void *arg;
};

unsigned long lxdrv_irq_flag = 0x200;
unsigned long lxdrv_ticks;

/* The event loop's thread runs on the main stack; its top for
 * lx_host_backtrace is taken at lxdrv_sched_init: that call's return
 * address into main, at the depth where main calls lxdrv_loop too. */
static struct lxdrv_thread loop_thread = { .id = 1, .name = "loop" };
static unsigned long loop_stack_top;
static struct lxdrv_thread *threads = &loop_thread, *current = &loop_thread;
static struct lxdrv_thread *ready_head, *ready_tail;
static unsigned long next_id = 2;
static mach_port_t port_set;
static struct watch watches[WATCH_MAX];
static void (*tick_fn)(void);
static uint64_t next_tick_us;
static bool in_poll;

void lxdrv_switch(unsigned long *from_sp, unsigned long to_sp);
void lxdrv_thread_entry(void);
void lxdrv_thread_main(void) __attribute__((noreturn));

/*
 * The clock: the kernel's (host_get_time), read once at start, then
 * carried on by the TSC, which the kernel's clock runs on too, at the
 * rate measured against it over the first CALIBRATE_US: reading it costs
 * no RPC, and the event loop reads it at every turn.
 */
#define CALIBRATE_US	20000

static uint64_t base_us, base_tsc, tsc_per_us = 1;

static uint64_t kernel_us(void)
{
	time_value_t t;

	if (host_get_time(lxdrv_host, &t) != KERN_SUCCESS)
		lxdrv_die("host_get_time failed");
	return (uint64_t)t.seconds * 1000000 + t.microseconds;
}

static uint64_t tsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static void clock_init(void)
{
	uint64_t us, ticks;

	base_us = kernel_us();
	base_tsc = tsc();
	do
		us = kernel_us();
	while (us - base_us < CALIBRATE_US);
	ticks = tsc() - base_tsc;
	tsc_per_us = ticks / (us - base_us) ? ticks / (us - base_us) : 1;
}

uint64_t lxdrv_now_us(void)
{
	return base_us + (tsc() - base_tsc) / tsc_per_us;
}

static void make_ready(struct lxdrv_thread *t)
{
	if (t->ready)
		return;
	t->ready = true;
	t->run_next = NULL;
	if (ready_tail)
		ready_tail->run_next = t;
	else
		ready_head = t;
	ready_tail = t;
}

static void switch_to(struct lxdrv_thread *t)
{
	struct lxdrv_thread *from = current;

	from->irq_flag = lxdrv_irq_flag;
	current = t;
	lxdrv_irq_flag = t->irq_flag;
	lxdrv_switch(&from->sp, t->sp);
}

void lxdrv_thread_main(void)
{
	struct lxdrv_thread *t = current;

	t->fn(t->arg);
	t->dead = true;
	switch_to(&loop_thread);
	abort();	/* a dead thread is never switched to */
}

int lx_host_thread_create(const char *name, void (*fn)(void *arg), void *arg)
{
	struct lxdrv_thread *t = calloc(1, sizeof(*t));
	unsigned long *sp;

	if (t)
		t->stack = malloc(STACK_SIZE);
	if (!t || !t->stack) {
		free(t);
		return -1;
	}
	sp = (unsigned long *)(((uintptr_t)t->stack + STACK_SIZE) & ~15ul);
	*--sp = (unsigned long)lxdrv_thread_entry;
	sp -= 6;			/* %rbp %rbx %r12-%r15: zero */
	memset(sp, 0, 6 * sizeof(*sp));
	t->sp = (unsigned long)sp;
	t->fn = fn;
	t->arg = arg;
	t->id = next_id++;
	t->irq_flag = 0x200;
	strncpy(t->name, name, sizeof(t->name) - 1);
	t->next = threads;
	threads = t;
	make_ready(t);
	return 0;
}

unsigned long lx_host_thread_self(void)
{
	return current->id;
}

void lx_host_wait_prepare(const void *event)
{
	current->event = event;
	current->woken = false;
}

/* The event loop cannot wait: it is what runs the others. */
int lx_host_wait(unsigned long ticks)
{
	struct lxdrv_thread *t = current;
	int timed_out;

	if (t == &loop_thread)
		lxdrv_die("lx_host_wait on the event loop's stack");
	if (!t->woken) {
		t->deadline = ticks ? lxdrv_ticks + ticks : 0;
		t->timed_out = false;
		t->waiting = true;
		switch_to(&loop_thread);
	}
	timed_out = t->timed_out;
	t->event = NULL;
	t->woken = false;
	t->timed_out = false;
	return timed_out;
}

void lx_host_wakeup(const void *event)
{
	for (struct lxdrv_thread *t = threads; t; t = t->next) {
		if (t->event != event || t->woken)
			continue;
		t->woken = true;
		if (t->waiting) {
			t->waiting = false;
			make_ready(t);
		}
	}
}

unsigned long lx_host_clock_start(void (*tick)(void))
{
	if (tick_fn)
		lxdrv_die("lx_host_clock_start called twice");
	tick_fn = tick;
	next_tick_us = lxdrv_now_us() + TICK_US;
	return HZ;
}

int lxdrv_port_watch(mach_port_t port, lxdrv_msg_fn *fn, void *arg)
{
	for (int i = 0; i < WATCH_MAX; i++) {
		if (watches[i].port != MACH_PORT_NULL)
			continue;
		if (mach_port_move_member(lxdrv_task, port, port_set) !=
		    KERN_SUCCESS)
			return -1;
		watches[i] = (struct watch){ port, fn, arg };
		return 0;
	}
	return -1;
}

void lxdrv_port_unwatch(mach_port_t port)
{
	for (int i = 0; i < WATCH_MAX; i++) {
		if (watches[i].port == port) {
			(void)mach_port_move_member(lxdrv_task, port,
						    MACH_PORT_NULL);
			watches[i].port = MACH_PORT_NULL;
		}
	}
}

/* Interrupt context: flag off while @fn runs. */
static void as_interrupt(void (*fn)(mach_msg_header_t *, void *),
			 mach_msg_header_t *msg, void *arg)
{
	unsigned long flag = lxdrv_irq_flag;

	lxdrv_irq_flag = 0;
	fn(msg, arg);
	lxdrv_irq_flag = flag;
}

static void tick(mach_msg_header_t *msg, void *arg)
{
	(void)msg;
	(void)arg;
	lxdrv_ticks++;
	for (struct lxdrv_thread *t = threads; t; t = t->next) {
		if (t->waiting && t->deadline && t->deadline <= lxdrv_ticks) {
			t->waiting = false;
			t->timed_out = true;
			make_ready(t);
		}
	}
	tick_fn();
}

/* Deliver the ticks that are due, then wait at most until the next one
 * (not at all if @poll) for a message and deliver it. */
static void events(bool poll)
{
	/* Not on the stack: a poll runs on the stack of whatever thread
	 * waits in lx_host_delay_ns, deep in a driver, and then the
	 * interrupt's handler on top.  One for the loop, one for a poll
	 * (polls do not nest, the loop does not poll). */
	static union received {
		mach_msg_header_t hdr;
		char buf[RCV_SIZE];
	} loop_in, poll_in;
	union received *const msg = poll ? &poll_in : &loop_in;
	uint64_t now = lxdrv_now_us();
	mach_msg_timeout_t ms = 0;
	mach_msg_return_t mr;

	while (tick_fn && now >= next_tick_us) {
		next_tick_us += TICK_US;
		as_interrupt(tick, NULL, NULL);
	}
	if (!poll)
		ms = tick_fn ? (mach_msg_timeout_t)((next_tick_us - now +
						      999) / 1000) : 1000;
	mr = mach_msg(&msg->hdr, MACH_RCV_MSG | MACH_RCV_TIMEOUT, 0,
		      sizeof(*msg), port_set, ms, MACH_PORT_NULL);
	if (mr == MACH_RCV_TOO_LARGE) {
		printf("lxdrv: a message larger than %u bytes dropped\n",
		       RCV_SIZE);
		(void)mach_msg(&msg->hdr, MACH_RCV_MSG | MACH_RCV_LARGE |
			       MACH_RCV_TIMEOUT, 0, 0, port_set, 0,
			       MACH_PORT_NULL);
		return;
	}
	if (mr != MACH_MSG_SUCCESS)
		return;
	for (int i = 0; i < WATCH_MAX; i++) {
		if (watches[i].port != MACH_PORT_NULL &&
		    watches[i].port == msg->hdr.msgh_local_port) {
			as_interrupt(watches[i].fn, &msg->hdr, watches[i].arg);
			return;
		}
	}
	/* A port leaves the set only with lxdrv_port_unwatch: a message
	 * queued before that is dropped. */
}

void lx_host_delay_ns(unsigned long ns)
{
	uint64_t end = lxdrv_now_us() + (ns + 999) / 1000;

	while (lxdrv_now_us() < end) {
		if (lxdrv_irq_flag && !in_poll && current != &loop_thread) {
			in_poll = true;
			events(true);
			in_poll = false;
		}
	}
}

/* The server is given no POST port: it pauses as long as a write to it
 * takes on real hardware. */
void lx_host_io_delay(void)
{
	lx_host_delay_ns(1000);
}

static void reap(void)
{
	struct lxdrv_thread **link = &threads;

	while (*link) {
		struct lxdrv_thread *t = *link;

		if (t->dead) {
			*link = t->next;
			free(t->stack);
			free(t);
		} else {
			link = &t->next;
		}
	}
}

void lxdrv_loop(void)
{
	for (;;) {
		while (ready_head) {
			struct lxdrv_thread *t = ready_head;

			ready_head = t->run_next;
			if (!ready_head)
				ready_tail = NULL;
			t->ready = false;
			switch_to(t);
			if (t->dead)
				reap();
		}
		events(false);
	}
}

/* Words lx_host_backtrace reads at most, and lines it prints. */
#define BACKTRACE_WORDS	2048
#define BACKTRACE_LINES	24

extern char __executable_start[], etext[];	/* ld's default script */

void lx_host_backtrace(unsigned long ip, unsigned long sp)
{
	unsigned long top = current->stack ?
		(unsigned long)current->stack + STACK_SIZE : loop_stack_top;
	unsigned long bottom = current->stack ?
		(unsigned long)current->stack : top - BACKTRACE_WORDS * 8;
	const unsigned long *word = (const unsigned long *)(sp & ~7ul);
	unsigned int words = 0, shown = 0;

	printf("  [%016lx] (thread %s)\n", ip, current->name);
	if (sp < bottom || sp >= top) {
		printf("  (stack 0x%lx is not thread %s's)\n", sp, current->name);
		return;
	}
	for (; (unsigned long)(word + 1) <= top && words < BACKTRACE_WORDS;
	     word++, words++) {
		if (*word < (unsigned long)__executable_start ||
		    *word >= (unsigned long)etext)
			continue;
		if (shown++ == BACKTRACE_LINES) {
			printf("  ... (deeper frames not shown)\n");
			break;
		}
		printf("  [%016lx] ? (thread %s)\n", *word, current->name);
	}
	fflush(stdout);
}

void lxdrv_sched_init(void)
{
	loop_stack_top = (unsigned long)__builtin_frame_address(0) + 16;
	clock_init();
	if (mach_port_allocate(lxdrv_task, MACH_PORT_RIGHT_PORT_SET,
			       &port_set) != KERN_SUCCESS)
		lxdrv_die("no port set");
}
