/* SPDX-License-Identifier: GPL-2.0-only */
/* Tasks: an address space, a port name space, threads, special ports. */
#ifndef KERN_TASK_H
#define KERN_TASK_H

#include <stdint.h>

#include <mach/kern_return.h>

struct vm_map;
struct ipc_space;
struct ipc_port;

struct task {
	struct vm_map *map;		/* NULL for the kernel task */
	struct ipc_space *itk_space;	/* the task's port names */
	struct ipc_port *itk_self;	/* its task port (a kernel object) */
	struct ipc_port *itk_bootstrap;	/* send right or NULL */
	unsigned int thread_count;
	char name[32];
};

/* The kernel task: the task of every kernel thread. */
extern struct task kernel_task;

/* The task of the calling thread. */
struct task *task_current(void);

#endif
