/* SPDX-License-Identifier: GPL-2.0-only */
/* Kernel threads: creation, exit, and what the scheduler keeps per thread. */
#ifndef KERN_THREAD_H
#define KERN_THREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mach/kern_return.h>

#include "kern/clock.h"

struct fpu_state;
struct ipc_port;
struct task;
struct vm_map;

#define THREAD_PRIORITIES	32	/* 0 is the highest, as in Mach */
#define THREAD_PRIORITY_DEFAULT	12
#define THREAD_PRIORITY_IDLE	(THREAD_PRIORITIES - 1)
#define THREAD_STACK_SIZE	16384

enum thread_state {
	THREAD_RUNNING,		/* on the CPU */
	THREAD_RUNNABLE,	/* on a run queue */
	THREAD_BLOCKED,		/* in thread_block(), waiting for its event */
	THREAD_HALTED,		/* exited; its memory is freed by the next thread */
};

/* Why thread_block() returned. */
enum thread_wait_result {
	THREAD_AWAKENED,
	THREAD_TIMED_OUT,
	THREAD_INTERRUPTED,	/* thread_interrupt: thread_abort, termination */
};

struct thread {
	struct thread *next;		/* run queue link */
	struct thread *wait_next;	/* wait bucket link */
	uint64_t rsp;			/* saved stack pointer while switched out */
	void *stack;			/* NULL for the boot thread */
	enum thread_state state;
	int priority;
	unsigned int quantum;		/* ticks left before round-robin */
	const void *wait_event;		/* set by assert_wait until the wait
					 * ends (the thread may still run) */
	enum thread_wait_result wait_result;
	struct timeout wait_timeout;
	struct task *task;		/* kernel_task for kernel threads */
	struct vm_map *map;		/* address space loaded while it runs */
	struct ipc_port *ith_self;	/* thread port (user threads only) */
	struct ipc_port *ith_exception;	/* send right or NULL: where its
					 * exceptions go before its task's */
	struct fpu_state *fpu;		/* x87/SSE state (user threads only) */
	struct thread *task_next;	/* the task's thread list */
	unsigned int suspend_count;	/* user threads: suspends minus resumes */
	bool terminating;		/* user threads: exit at the next AST */
	uint64_t created;		/* clock_ticks() at creation */
	void (*entry)(void *arg);
	void *arg;
	char name[24];
};

/*
 * kernel_thread_create - start @fn(@arg) in a new kernel thread at
 * @priority (0 highest .. THREAD_PRIORITIES - 1).  The thread is runnable
 * at once and may preempt the caller if its priority is higher.  Returning
 * from @fn ends the thread.  @out may be NULL; the thread pointer is valid
 * only until the thread ends.  Returns KERN_SUCCESS, KERN_INVALID_ARGUMENT
 * (bad priority, NULL fn) or KERN_RESOURCE_SHORTAGE (no memory).
 * Interrupts may be on or off.
 */
kern_return_t kernel_thread_create(const char *name, int priority,
				   void (*fn)(void *arg), void *arg,
				   struct thread **out);

/*
 * kernel_thread_create_reserve - kernel_thread_create, but the top
 * @reserve bytes of the new kernel stack (a multiple of 16, below
 * THREAD_STACK_SIZE / 2) are left free for the caller: a user thread keeps
 * its trap frame there (kern/thread_user.c).  Same return codes.
 */
kern_return_t kernel_thread_create_reserve(const char *name, int priority,
					   void (*fn)(void *arg), void *arg,
					   size_t reserve,
					   struct thread **out);

/* thread_exit - end the calling thread.  Its stack and struct are freed by
 * the scheduler after the switch away.  Never returns. */
void thread_exit(void) __attribute__((noreturn));

/* The calling thread (the scheduler's, sched.c). */
extern struct thread *sched_current;

static inline struct thread *thread_current(void)
{
	return sched_current;
}

/* Number of threads alive (created and not yet freed), the boot and idle
 * threads included; for tests and leak checks. */
unsigned int thread_count(void);

/* For the scheduler (kern/sched.c) only. */

/* Name @t, give it @priority and count it alive: for threads the scheduler
 * makes itself (the boot thread, the idle thread). */
void thread_setup_static(struct thread *t, const char *name, int priority);

/* Free a halted thread made by kernel_thread_create(), once another thread
 * runs.  Anything else is a kernel bug: panic(). */
void thread_free(struct thread *t);

#endif
