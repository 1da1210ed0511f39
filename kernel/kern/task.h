/* SPDX-License-Identifier: GPL-2.0-only */
/* Tasks: an address space, a port name space, threads, special ports. */
#ifndef KERN_TASK_H
#define KERN_TASK_H

#include <stdbool.h>
#include <stdint.h>

#include <mach/kern_return.h>

#include "kern/thread.h"

struct vm_map;
struct ipc_space;
struct ipc_port;
struct io_bitmap;
struct ledger;
struct thread;

struct task {
	struct vm_map *map;		/* NULL for the kernel task */
	struct ipc_space *itk_space;	/* the task's port names */
	struct ipc_port *itk_self;	/* its task port (a kernel object) */
	struct ipc_port *itk_bootstrap;	/* send right or NULL */
	struct ipc_port *itk_exception;	/* send right or NULL: where its
					 * threads' exceptions go
					 * (kern/exception.h) */
	struct thread *threads;		/* its user threads (thread->task_next) */
	unsigned int thread_count;
	unsigned int suspend_count;	/* task_suspend minus task_resume */
	bool terminating;		/* its threads exit at their next AST */
	uint64_t created;		/* clock_ticks() at creation */
	char name[32];
	struct io_bitmap *io_bitmap;	/* user I/O ports, NULL: none
					 * (kernel/x86_64/io_bitmap.h) */
	struct ledger *ledger;		/* what its requests hold, against
					 * its limits (kern/ledger.h); NULL
					 * for the kernel task */
	struct supervision *supervision;	/* its module's, if it is
						 * restarted when it dies
						 * (kern/supervise.h) */
};

/* The kernel task: the task of every kernel thread. */
extern struct task kernel_task;

/* The task of the calling thread. */
static inline struct task *task_current(void)
{
	struct thread *t = thread_current();

	return t->task != NULL ? t->task : &kernel_task;
}

/*
 * task_create_user - a new task with an empty address space, named @name.
 * Returns KERN_SUCCESS or KERN_RESOURCE_SHORTAGE.
 */
kern_return_t task_create_user(const char *name, struct task **out);

/*
 * task_start_thread - start a user thread in @task at @rip with stack
 * pointer @rsp and @arg in %rdi.  KERN_SUCCESS, KERN_INVALID_ARGUMENT
 * (addresses outside user space) or KERN_RESOURCE_SHORTAGE.
 */
kern_return_t task_start_thread(struct task *task, uint64_t rip,
				uint64_t rsp, uint64_t arg);

/*
 * task_create_child - task_create: a new task named "child of PARENT" with
 * @parent's bootstrap port and, with @inherit_memory, a copy of its
 * address space (a plain copy: vm_map_fork), else an empty one; no
 * threads.  KERN_SUCCESS or KERN_RESOURCE_SHORTAGE.
 */
kern_return_t task_create_child(struct task *parent, bool inherit_memory,
				struct task **out);

/*
 * task_terminate - end @task: print "task NAME terminated: REASON" (the
 * first time), then every thread of it exits at its next way back to user
 * mode, a thread waiting in the kernel has its wait interrupted, and the
 * last one out frees the task.  A task without threads is freed at once.
 * Never blocks (a kernel object's handler may call it).
 */
void task_terminate(struct task *task, const char *reason);

/*
 * task_terminate_current - end the calling thread's task because of
 * something it did (task_terminate with a formatted reason), and exit
 * the calling thread.  Never returns for a user task; for the kernel task
 * it is a kernel bug (panic).
 */
void task_terminate_current(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));

/* task_ast_check - on the way back to user mode: exit the calling thread
 * if it or its task is terminating, wait while either is suspended.
 * Returns otherwise (at once for kernel threads). */
void task_ast_check(void);

/*
 * task_suspend / task_resume - count a suspension of @task's user threads
 * (they stop at their next way back to user mode) or take one back.
 * task_resume returns KERN_FAILURE if @task is not suspended.
 */
void task_suspend(struct task *task);
kern_return_t task_resume(struct task *task);

/* task_destroy - free a task that has no threads. */
void task_destroy(struct task *task);

/* User tasks alive, and a counter of terminations with the last reason
 * (for tests; the counter is also a wait event: thread_wakeup on it). */
unsigned int task_count(void);
extern unsigned int task_terminations;
extern char task_last_reason[128];

#endif
