/* SPDX-License-Identifier: GPL-2.0-only */
/* Boot-script variables in module command lines: ${host-port}, ${device-port}, ${driver-port}. */
#ifndef KERN_BOOT_SCRIPT_H
#define KERN_BOOT_SCRIPT_H

#include <stddef.h>

#include <mach/kern_return.h>

struct task;

/*
 * boot_script_expand - copy module command line @in to @out (@size bytes),
 * replacing each boot-script variable, as GNU Mach's boot script does, by
 * the decimal name of a send right made for it in @task's space:
 *   ${host-port}    the privileged host port
 *   ${device-port}  the master device port
 *   ${driver-port}  the driver master port (a driver server's: claims
 *                   and publications only, kern/task_port.h)
 * Text outside "${...}" is copied unchanged.  Returns KERN_SUCCESS;
 * KERN_INVALID_ARGUMENT for an unknown variable or a "${" without "}"
 * (a line naming it is printed); KERN_NO_SPACE if the result does not fit;
 * the error of ipc_space_insert_send() if a right cannot be made.  On failure, rights
 * already made stay in @task's space and go with the task.
 * Call before the task runs; no locks held.
 */
kern_return_t boot_script_expand(struct task *task, const char *in,
				 char *out, size_t size);

#endif
