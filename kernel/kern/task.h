/* SPDX-License-Identifier: GPL-2.0-only */
/* Tasks: an address space, a port name space, threads, special ports. */
#ifndef KERN_TASK_H
#define KERN_TASK_H

#include <stdbool.h>
#include <stdint.h>

#include <mach/kern_return.h>

struct vm_map;
struct ipc_space;
struct ipc_port;
struct io_bitmap;

struct task {
	struct vm_map *map;		/* NULL for the kernel task */
	struct ipc_space *itk_space;	/* the task's port names */
	struct ipc_port *itk_self;	/* its task port (a kernel object) */
	struct ipc_port *itk_bootstrap;	/* send right or NULL */
	unsigned int thread_count;
	bool terminating;		/* task_terminate was asked for */
	char name[32];
	struct io_bitmap *io_bitmap;	/* user I/O ports, NULL: none
					 * (kernel/x86_64/io_bitmap.h) */
};

/* The kernel task: the task of every kernel thread. */
extern struct task kernel_task;

/* The task of the calling thread. */
struct task *task_current(void);

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
 * task_terminate_current - end the calling thread's task because of
 * something it did: prints "task NAME terminated: REASON", frees the
 * address space and the task, and exits the thread.  Only tasks with one
 * thread are supported so far.  Never returns for a user task; for the
 * kernel task it is a kernel bug (panic).
 */
void task_terminate_current(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));

/* task_ast_check - on the way back to user mode: end the calling thread's
 * task if task_terminate marked it.  Returns otherwise. */
void task_ast_check(void);

/* task_destroy - free a task that never ran a thread (a failed load). */
void task_destroy(struct task *task);

/* User tasks alive, and a counter of terminations with the last reason
 * (for tests; the counter is also a wait event: thread_wakeup on it). */
unsigned int task_count(void);
extern unsigned int task_terminations;
extern char task_last_reason[128];

#endif
