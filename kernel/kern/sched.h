/* SPDX-License-Identifier: GPL-2.0-only */
/* Preemptive priority scheduling and Mach-style waiting (assert_wait / thread_block / thread_wakeup). */
#ifndef KERN_SCHED_H
#define KERN_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "kern/thread.h"

/*
 * Locking: one CPU; all scheduler state is protected by disabling
 * interrupts (cpu_intr_save/restore), which every function here does
 * itself.  Functions that may switch threads (thread_block, sched_yield,
 * thread_sleep_ticks, and thread_wakeup* when they wake a higher-priority
 * thread) must not be called from interrupt handlers, except that
 * thread_wakeup* is allowed there: the switch then happens when the
 * interrupt returns.
 */

#define SCHED_QUANTUM	5	/* ticks a thread runs before others of its
				 * priority get the CPU (50 ms at HZ 100) */

/* sched_init - make the boot context the thread "kmain" at
 * THREAD_PRIORITY_DEFAULT, create the idle thread and start preempting on
 * clock ticks.  Called once after clock_init() and vm_page_init(). */
void sched_init(void);

/* Put @t on its run queue (state RUNNABLE); preempts the caller if @t has a
 * higher priority and interrupts are on.  For kern/thread.c. */
void sched_make_runnable(struct thread *t);

/* Finish a switch on the new thread's side (frees an exited thread).  For
 * kern/thread.c, first thing in a new thread, interrupts off. */
void sched_switch_done(void);

/*
 * assert_wait - declare that the calling thread is about to wait for
 * @event (any address; NULL is invalid).  A thread_wakeup(@event) from then
 * on, even before thread_block(), ends the wait: no wakeup is lost.
 */
void assert_wait(const void *event);

/* thread_set_timeout - end the asserted wait after @ticks ticks if no
 * wakeup comes first (thread_block then returns THREAD_TIMED_OUT). */
void thread_set_timeout(uint64_t ticks);

/* thread_block - give up the CPU until the asserted wait ends; returns why.
 * Without an asserted wait it just yields and returns THREAD_AWAKENED. */
enum thread_wait_result thread_block(void);

/* thread_wakeup - end the waits of every thread waiting for @event;
 * thread_wakeup_one - of the one that waited longest.  Return how many
 * threads were woken. */
unsigned int thread_wakeup(const void *event);
unsigned int thread_wakeup_one(const void *event);

/* thread_wakeup_thread - end @t's wait if it is waiting for @event (a
 * handoff to a known waiter, without searching the event's waiters);
 * returns whether it did. */
bool thread_wakeup_thread(struct thread *t, const void *event);

/* thread_interrupt - end @t's wait, if it has one, with THREAD_INTERRUPTED
 * (thread_abort and termination of user threads).  Not from interrupt
 * handlers.  Every wait a user thread makes must cope with that result:
 * look again, or give up with an *_INTERRUPTED code. */
void thread_interrupt(struct thread *t);

/* sched_yield - let other runnable threads of the same or higher priority
 * run. */
void sched_yield(void);

/* thread_sleep_ticks - block for at least @ticks ticks. */
void thread_sleep_ticks(uint64_t ticks);

/* sched_preempt_point - called by trap_dispatch() at the end of an
 * interrupt: switches if the tick or a wakeup asked for it. */
void sched_preempt_point(void);

/* Number of context switches since boot (for tests and benchmarks). */
uint64_t sched_switch_count(void);

/*
 * The idle thread, with nothing to run, first polls for a runnable
 * thread with interrupts on, and halts the CPU (hlt) only when the poll
 * ran out.  An interrupt that comes during the poll is taken at once,
 * without a halt to wake from: under an emulator a halted vCPU's thread
 * sleeps on the host and the interrupt must wake it, which costs tens of
 * microseconds (on hardware, the CPU's way out of its halted state).  The
 * poll spins the CPU (with no pause: under QEMU's TCG a pause leaves the
 * translated code for QEMU's main loop), so a CPU with nothing to do
 * burns up to one poll each time it goes idle.
 */
#define SCHED_IDLE_POLL_US	50	/* without idle_poll= */
#define SCHED_IDLE_POLL_MAX_US	10000	/* a tick at HZ 100 */

/*
 * sched_idle_poll_words - set the idle poll from @cmdline's
 * idle_poll=<microseconds>, 0 to SCHED_IDLE_POLL_MAX_US (0: halt at
 * once); without the word, SCHED_IDLE_POLL_US.  A malformed or too large
 * value is reported on the console and the default set.  Returns the
 * microseconds set.  After sched_init; until then the idle thread halts
 * at once.
 */
uint64_t sched_idle_poll_words(const char *cmdline);

/* sched_idle_counts - how many of the idle thread's waits since boot
 * ended in its poll (@polled) and how many halted (@halted).  A wait is
 * counted when the idle thread runs again after it, so the one that
 * ended last is not counted until the CPU goes idle once more. */
void sched_idle_counts(uint64_t *polled, uint64_t *halted);

#endif
