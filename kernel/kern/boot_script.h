/* SPDX-License-Identifier: GPL-2.0-only */
/* Boot-script variables in module command lines: ${host-port}, ${device-port}, ${driver-port}, ports one module binds for others. */
#ifndef KERN_BOOT_SCRIPT_H
#define KERN_BOOT_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>

#include <mach/kern_return.h>

struct task;

#define BOOT_SCRIPT_PORTS	8	/* ports bound at once */
#define BOOT_SCRIPT_NAME_MAX	32	/* a bound name, NUL included */

/*
 * boot_script_expand - copy module command line @in to @out (@size bytes),
 * replacing each boot-script variable, as GNU Mach's boot script does, by
 * the decimal name of a right made for it in @task's space:
 *   ${host-port}          a send right to the privileged host port
 *   ${device-port}        a send right to the master device port
 *   ${driver-port}        a send right to the driver master port (a
 *                         driver server's: claims and publications only,
 *                         kern/task_port.h)
 *   $(NAME=port-create)   a new port, its receive right @task's; NAME
 *                         (a-z, 0-9, '-', '_'; at most 31) stands for it
 *                         in the lines expanded after this one
 *   ${NAME}               a send right to the port NAME was bound to
 * Text outside "${...}" and "$(...)" is copied unchanged.  Returns
 * KERN_SUCCESS; KERN_INVALID_ARGUMENT for an unknown variable or command,
 * a name bound already (a built-in one too) or not a bindable name, a
 * "${" without "}" or "$(" without ")" (a line naming it is printed);
 * KERN_RESOURCE_SHORTAGE past BOOT_SCRIPT_PORTS bound ports;
 * KERN_NO_SPACE if the result does not fit; the error of
 * ipc_space_insert_send() (KERN_INVALID_CAPABILITY: the port died with
 * the task that received on it) or mach_port_allocate().  On failure,
 * rights already made stay in @task's space and go with the task, and
 * the names this call bound are unbound.  Call before the task runs,
 * from one thread at a time; no locks held.
 */
kern_return_t boot_script_expand(struct task *task, const char *in,
				 char *out, size_t size);

/* boot_script_binds - whether @cmdline binds a port ($(NAME=port-create)):
 * such a line is expanded before the others (bootstrap_start_all). */
bool boot_script_binds(const char *cmdline);

/* boot_script_reset - unbind every name (the ports live on with their
 * receivers).  For the suites that expand lines of their own. */
void boot_script_reset(void);

#endif
