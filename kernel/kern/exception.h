/* SPDX-License-Identifier: GPL-2.0-only */
/* A user thread's exceptions sent to its task's exception port, as GNU Mach's exc.defs says. */
#ifndef KERN_EXCEPTION_H
#define KERN_EXCEPTION_H

#include <stdbool.h>

/*
 * exception_raise_current - offer an exception of the calling user
 * thread (@exc an EXC_* of <mach/exception.h>, @code and @subcode its
 * machine codes) to its task's exception port (task_set_special_port
 * TASK_EXCEPTION_PORT), as exc.defs's exception_raise with send rights
 * to the thread and the task, and wait for the answer.  True if the
 * handler answered KERN_SUCCESS: the thread is to resume with its user
 * registers as they are now (the handler may have changed them with
 * thread_set_state).  False if the task has no exception port or is
 * ending, the port is dead, the handler answered anything else or died
 * without answering, memory is short, or the wait was interrupted: the
 * caller then ends the task, as without a handler.  Thread context of a
 * user thread, interrupts on or off; blocks until the answer (a handler
 * that never answers holds the thread until its task ends).
 */
bool exception_raise_current(int exc, int code, int subcode);

#endif
