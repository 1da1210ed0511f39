/* SPDX-License-Identifier: GPL-2.0-only */
/* A user thread's exceptions sent to its own and then its task's exception port, as GNU Mach's exc.defs says. */
#ifndef KERN_EXCEPTION_H
#define KERN_EXCEPTION_H

#include <stdbool.h>

/*
 * exception_raise_current - offer an exception of the calling user
 * thread (@exc an EXC_* of <mach/exception.h>, @code and @subcode its
 * machine codes) as exc.defs's exception_raise, with send rights to the
 * thread and the task, first to the thread's own exception port
 * (thread_set_special_port THREAD_EXCEPTION_PORT) and, if it has none or
 * that offer fails, to its task's (task_set_special_port
 * TASK_EXCEPTION_PORT), and wait for the answer.  True if a handler
 * answered KERN_SUCCESS: the thread is to resume with its user registers
 * as they are now (the handler may have changed them with
 * thread_set_state).  An offer fails if the port is not set or dead, the
 * task is ending, the handler answered anything else or died without
 * answering, memory is short, or the wait was interrupted.  False if
 * both fail: the caller then ends the task, as without a handler.
 * Thread context of a user thread, interrupts on or off; blocks until
 * the answer (a handler that never answers holds the thread until its
 * task ends).
 */
bool exception_raise_current(int exc, int code, int subcode);

#endif
