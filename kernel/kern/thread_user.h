/* SPDX-License-Identifier: GPL-2.0-only */
/* User threads: the threads of tasks, their suspension, abort and end. */
#ifndef KERN_THREAD_USER_H
#define KERN_THREAD_USER_H

#include <mach/kern_return.h>

struct task;
struct thread;

/*
 * A user thread is a kernel thread (own kernel stack, kern/thread.c) with
 * a task, its map, an x87/SSE state and a thread port; its user registers
 * are the trap frame at the top of its kernel stack
 * (x86_64/thread_state.h).  It runs user code only between two ASTs
 * (task_ast_check, on every way back to user mode), which is where it
 * stops while suspended and exits when terminated.  Nothing here blocks:
 * the functions are called from kernel objects' message handlers.  One
 * CPU: state is guarded by disabling interrupts, which every function
 * here does itself.
 */

/*
 * thread_user_create - a new user thread of @task, suspended once (as
 * thread_create gives it), every register zero but the selectors and
 * RFLAGS (thread_state_init).  KERN_SUCCESS or KERN_RESOURCE_SHORTAGE
 * (nothing made).
 */
kern_return_t thread_user_create(struct task *task, struct thread **out);

/* thread_user_suspend - count one more suspension of @t; it stops at its
 * next AST.  thread_user_resume - take one back (KERN_FAILURE if @t is
 * not suspended); at zero it may run again. */
void thread_user_suspend(struct thread *t);
kern_return_t thread_user_resume(struct thread *t);

/*
 * thread_user_terminate - end @t: its port dies now (holders get dead
 * names), its wait in the kernel, if any, ends with THREAD_INTERRUPTED,
 * and it exits at its next AST (the calling thread: on its way back to
 * user mode).
 */
void thread_user_terminate(struct thread *t);

/* thread_user_abort - end @t's wait in the kernel, if any: a mach_msg
 * waiting to send or receive returns MACH_SEND_INTERRUPTED or
 * MACH_RCV_INTERRUPTED. */
void thread_user_abort(struct thread *t);

/*
 * thread_user_exit - the calling user thread leaves its task (port,
 * list, count) and exits; the last thread of a terminating task frees
 * the task.  Interrupts on or off.  Never returns.
 */
void thread_user_exit(void) __attribute__((noreturn));

#endif
