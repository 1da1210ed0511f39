/* SPDX-License-Identifier: GPL-2.0-only */
/* exception_raise_current: exc.defs's exception_raise, sent by its generated KERNEL_USER stub, for a faulting user thread: to its own exception port, then its task's. */
#include <stdbool.h>
#include <stdint.h>

#include <mach/kern_return.h>

#include "ipc/ipc_port.h"
#include "kern/exception.h"
#include "kern/task.h"
#include "kern/thread.h"
#include "x86_64/cpu.h"

/* kernel/mig/gen/exc_user.c (exc.defs, KERNEL_USER): every port is a
 * right the call takes (kern/kernel_rpc.h). */
kern_return_t exception_raise(struct ipc_port *exception_port,
			      struct ipc_port *thread, struct ipc_port *task,
			      int exception, int code, int subcode);

/* Offer the exception to the send right *@slot holds (the thread's or the
 * task's exception port): true if a handler answered KERN_SUCCESS. */
static bool raise_to(struct ipc_port *const *slot, int exc, int code,
		     int subcode)
{
	struct thread *self = thread_current();
	struct task *task = self->task;
	struct ipc_port *port, *thread_right, *task_right;
	uint64_t flags = cpu_intr_save();

	if (*slot == NULL || task->terminating || self->terminating) {
		cpu_intr_restore(flags);
		return false;
	}
	port = ipc_port_copy_send(*slot);
	if (!IPC_PORT_VALID(port)) {
		cpu_intr_restore(flags);
		return false;
	}
	thread_right = ipc_port_make_send(self->ith_self);
	task_right = ipc_port_make_send(task->itk_self);
	cpu_intr_restore(flags);
	return exception_raise(port, thread_right, task_right, exc, code,
			       subcode) == KERN_SUCCESS;
}

bool exception_raise_current(int exc, int code, int subcode)
{
	struct thread *self = thread_current();

	return raise_to(&self->ith_exception, exc, code, subcode) ||
	       raise_to(&self->task->itk_exception, exc, code, subcode);
}
