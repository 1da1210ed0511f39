/* SPDX-License-Identifier: GPL-2.0-only */
/* mach.defs routines on threads: create, state, special ports, suspend, resume, abort, terminate, info. */
/*
 * A port that names no live thread converts to NULL (KERN_INVALID_ARGUMENT
 * here); a dead thread port never gets here (the send fails with
 * MACH_SEND_INVALID_DEST).  Kernel threads have no ports.
 */
#include <stddef.h>

#include <mach/message.h>
#include <mach/thread_info.h>
#include <mach/thread_special_ports.h>

#include "graft_mig.h"
#include "ipc/ipc_port.h"
#include "kern/klog.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/task.h"
#include "kern/thread.h"
#include "kern/thread_user.h"
#include "mig/mig_time.h"
#include "x86_64/thread_state.h"

/* thread_create: a new thread of the task, suspended once and with
 * every register zero until thread_set_state and thread_resume. */
kern_return_t mig_thread_create(task_t parent_task, thread_t *child_thread)
{
	struct task *task = (struct task *)parent_task;
	struct thread *t;
	kern_return_t kr;

	if (task == NULL || task->terminating)
		return KERN_INVALID_ARGUMENT;
	kr = thread_user_create(task, &t);
	if (kr == KERN_SUCCESS)
		*child_thread = (thread_t)t;
	return kr;
}

/* thread_get_state / thread_set_state: the i386 flavours of
 * x86_64/thread_state.h on the thread's saved user registers.  A thread
 * that is not the caller is not running (one CPU); the caller's own are
 * those of its mach_msg, whose result then lands in %eax. */
kern_return_t mig_thread_get_state(thread_t target_thread, int flavor,
				   thread_state_t old_state,
				   mach_msg_type_number_t *old_stateCnt)
{
	struct thread *t = (struct thread *)target_thread;

	if (t == NULL)
		return KERN_INVALID_ARGUMENT;
	return thread_state_get(thread_state_frame(t), flavor, old_state,
				old_stateCnt);
}

kern_return_t mig_thread_set_state(thread_t target_thread, int flavor,
				   const thread_state_t new_state,
				   mach_msg_type_number_t new_stateCnt)
{
	struct thread *t = (struct thread *)target_thread;

	if (t == NULL)
		return KERN_INVALID_ARGUMENT;
	return thread_state_set(thread_state_frame(t), flavor, new_state,
				new_stateCnt);
}

/* thread_get_special_port: the thread's kernel port, or its exception
 * port (MACH_PORT_NULL when it has none: its exceptions go to its
 * task's). */
kern_return_t mig_thread_get_special_port(thread_t thread, int which_port,
					  ipc_port_t *special_port)
{
	struct thread *t = (struct thread *)thread;

	if (t == NULL || t->ith_self == NULL)
		return KERN_INVALID_ARGUMENT;
	switch (which_port) {
	case THREAD_KERNEL_PORT:
		*special_port = ipc_port_make_send(t->ith_self);
		return KERN_SUCCESS;
	case THREAD_EXCEPTION_PORT:
		*special_port = t->ith_exception != NULL ?
			ipc_port_copy_send(t->ith_exception) : NULL;
		return KERN_SUCCESS;
	default:
		return KERN_INVALID_ARGUMENT;
	}
}

/* thread_set_special_port: the exception port (a null or dead right
 * clears it; kern/exception.h says where exceptions then go).  The
 * kernel port cannot be replaced (loudly: KERN_FAILURE). */
static KLOG_SOURCE(thread_port_log, "mig");

kern_return_t mig_thread_set_special_port(thread_t thread, int which_port,
					  ipc_port_t special_port)
{
	struct thread *t = (struct thread *)thread;
	struct ipc_port *old;

	if (t == NULL || t->ith_self == NULL)
		return KERN_INVALID_ARGUMENT;
	switch (which_port) {
	case THREAD_EXCEPTION_PORT:
		old = t->ith_exception;
		t->ith_exception = IPC_PORT_VALID(special_port) ?
			special_port : NULL;
		if (old != NULL)
			ipc_port_release_send(old);
		return KERN_SUCCESS;
	case THREAD_KERNEL_PORT:
		klog(&thread_port_log,
		     "mig: thread_set_special_port %d is not implemented\n",
		     which_port);
		return KERN_FAILURE;
	default:
		return KERN_INVALID_ARGUMENT;
	}
}

kern_return_t mig_thread_suspend(thread_t target_thread)
{
	struct thread *t = (struct thread *)target_thread;

	if (t == NULL)
		return KERN_INVALID_ARGUMENT;
	thread_user_suspend(t);
	return KERN_SUCCESS;
}

/* thread_resume: KERN_FAILURE if the thread is not suspended. */
kern_return_t mig_thread_resume(thread_t target_thread)
{
	struct thread *t = (struct thread *)target_thread;

	if (t == NULL)
		return KERN_INVALID_ARGUMENT;
	return thread_user_resume(t);
}

kern_return_t mig_thread_abort(thread_t target_thread)
{
	struct thread *t = (struct thread *)target_thread;

	if (t == NULL)
		return KERN_INVALID_ARGUMENT;
	thread_user_abort(t);
	return KERN_SUCCESS;
}

/* thread_terminate: the port dies at once; the thread exits at its next
 * way back to user mode (the caller's own: after this reply). */
kern_return_t mig_thread_terminate(thread_t target_thread)
{
	struct thread *t = (struct thread *)target_thread;

	if (t == NULL)
		return KERN_INVALID_ARGUMENT;
	thread_user_terminate(t);
	return KERN_SUCCESS;
}

static integer_t run_state(const struct thread *t)
{
	if (t->suspend_count > 0 || t->task->suspend_count > 0)
		return TH_STATE_STOPPED;
	if (t->state == THREAD_BLOCKED)
		return TH_STATE_WAITING;
	return TH_STATE_RUNNING;
}

/* thread_info: THREAD_BASIC_INFO.  Run times and cpu usage are not
 * accounted yet and read zero; creation time is since boot. */
kern_return_t mig_thread_info(thread_t target_thread, int flavor,
			      thread_info_t thread_info_out,
			      mach_msg_type_number_t *thread_info_outCnt)
{
	struct thread *t = (struct thread *)target_thread;
	struct thread_basic_info info;

	if (t == NULL || flavor != THREAD_BASIC_INFO ||
	    *thread_info_outCnt < THREAD_BASIC_INFO_COUNT)
		return KERN_INVALID_ARGUMENT;
	memset(&info, 0, sizeof(info));
	info.base_priority = t->priority;
	info.cur_priority = t->priority;
	info.run_state = run_state(t);
	info.suspend_count = (integer_t)t->suspend_count;
	mig_ticks_to_time(t->created, &info.creation_time);
	memcpy(thread_info_out, &info, sizeof(info));
	*thread_info_outCnt = THREAD_BASIC_INFO_COUNT;
	return KERN_SUCCESS;
}
