/* SPDX-License-Identifier: GPL-2.0-only */
/* Starting multiboot modules as the first user tasks. */
#ifndef KERN_BOOTSTRAP_H
#define KERN_BOOTSTRAP_H

#include <stdbool.h>
#include <stdint.h>

#include <mach/kern_return.h>

#include "kern/bootinfo.h"

struct task;

#define BOOTSTRAP_STACK_SIZE	(64 * 1024)
#define BOOTSTRAP_STACK_TOP	0x00007fffff000000ull

/*
 * The start-up convention of a boot task (until the runtime library
 * defines a fuller one): it enters at its ELF entry point with %rsp 16-byte
 * aligned minus 8 (as after a call) at the top of a 64 KiB stack, and %rdi
 * pointing at its module command line (a NUL-terminated copy on that
 * stack).
 */

/* True if @m holds an ELF image (it then is a program, not data). */
bool bootstrap_module_is_program(const struct boot_module *m);

/*
 * bootstrap_task_create - load module @m into a new task and start its
 * thread.  The task is named after the first word of the module command
 * line.  Returns KERN_SUCCESS, or the error of elf_load / task creation
 * (the task is then destroyed and a line printed).
 */
kern_return_t bootstrap_task_create(const struct boot_module *m,
				    struct task **out);

/* Where a loaded task's first thread starts (see the convention above). */
struct bootstrap_entry {
	uint64_t rip, rsp, arg;
};

/*
 * bootstrap_task_load - the first half of bootstrap_task_create: a task
 * with the module loaded and its stack ready, but no thread yet (so the
 * caller can give it ports first); *@entry says where to start it.
 * bootstrap_task_start - the second half; on failure the task is
 * destroyed.  Return codes as above.
 */
kern_return_t bootstrap_task_load(const struct boot_module *m,
				  struct task **out,
				  struct bootstrap_entry *entry);
kern_return_t bootstrap_task_start(struct task *task,
				   const struct bootstrap_entry *entry);

/* Start every program module (what `make run` does; test boots start
 * only what their suite asks for): the lines that bind a port
 * (boot_script.h) are loaded first, then the others, then the tasks
 * start in module order.  A module that does not load is printed and
 * left out. */
void bootstrap_start_all(const struct bootinfo *bi);

#endif
