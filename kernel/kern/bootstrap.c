/* SPDX-License-Identifier: GPL-2.0-only */
/* Multiboot modules that are ELF programs become tasks. */
#include <stddef.h>
#include <stdint.h>

#include "kern/boot_script.h"
#include "kern/bootstrap.h"
#include "kern/elf.h"
#include "kern/kalloc.h"
#include "kern/kprintf.h"
#include "kern/string.h"
#include "kern/supervise.h"
#include "kern/task.h"
#include "vm/vm_map.h"
#include "x86_64/copy.h"

bool bootstrap_module_is_program(const struct boot_module *m)
{
	return m->end - m->start >= 4 &&
	       memcmp(bootinfo_module_data(m), "\177ELF", 4) == 0;
}

/* The first word of @cmdline without its directories. */
static void task_name_of(const char *cmdline, char *name, size_t size)
{
	const char *word = cmdline, *p;
	size_t n = 0;

	for (p = cmdline; *p != '\0' && *p != ' '; p++)
		if (*p == '/')
			word = p + 1;
	while (word < p && n + 1 < size)
		name[n++] = *word++;
	if (n == 0 && size > 4)
		memcpy(name, "task", n = 4);
	name[n] = '\0';
}

/* Map the stack and put the command line at its top; returns the stack
 * pointer and the command line's user address. */
static kern_return_t bootstrap_stack(struct task *task, const char *cmdline,
				     uint64_t *rsp, uint64_t *arg)
{
	uint64_t base = BOOTSTRAP_STACK_TOP - BOOTSTRAP_STACK_SIZE;
	size_t len = strlen(cmdline) + 1;
	struct vm_map *was = vm_map_active();
	kern_return_t kr;
	int bad;

	if (len > BOOTSTRAP_STACK_SIZE / 2)
		return KERN_INVALID_ARGUMENT;
	kr = vm_map_allocate(task->map, &base, BOOTSTRAP_STACK_SIZE, false);
	if (kr != KERN_SUCCESS)
		return kr;
	*arg = (BOOTSTRAP_STACK_TOP - len) & ~15ull;
	vm_map_activate(task->map);
	bad = copyout(cmdline, (void *)*arg, len);
	vm_map_activate(was);
	if (bad)
		return KERN_RESOURCE_SHORTAGE;
	*rsp = *arg - 8;
	return KERN_SUCCESS;
}

kern_return_t bootstrap_task_load(const struct boot_module *m,
				  struct task **out,
				  struct bootstrap_entry *entry)
{
	char name[32], *args = kalloc(BOOTINFO_CMDLINE_MAX);
	struct task *task;
	kern_return_t kr;

	kr = KERN_RESOURCE_SHORTAGE;
	if (args == NULL)
		goto err;
	task_name_of(m->cmdline, name, sizeof(name));
	kr = task_create_user(name, &task);
	if (kr != KERN_SUCCESS)
		goto err;
	kr = elf_load(task->map, bootinfo_module_data(m), m->end - m->start,
		      &entry->rip);
	if (kr == KERN_SUCCESS)
		kr = boot_script_expand(task, m->cmdline, args,
					BOOTINFO_CMDLINE_MAX);
	if (kr == KERN_SUCCESS)
		kr = bootstrap_stack(task, args, &entry->rsp, &entry->arg);
	if (kr != KERN_SUCCESS) {
		task_destroy(task);
		goto err;
	}
	kfree(args);
	supervise_attach(task, m);
	*out = task;
	return KERN_SUCCESS;
err:
	kfree(args);
	kprintf("bootstrap: cannot load module '%s': kern_return %d\n",
		m->cmdline, kr);
	return kr;
}

kern_return_t bootstrap_task_start(struct task *task,
				   const struct bootstrap_entry *entry)
{
	kern_return_t kr = task_start_thread(task, entry->rip, entry->rsp,
					     entry->arg);

	if (kr != KERN_SUCCESS) {
		kprintf("bootstrap: cannot start task %s: kern_return %d\n",
			task->name, kr);
		task_destroy(task);
	}
	return kr;
}

kern_return_t bootstrap_task_create(const struct boot_module *m,
				    struct task **out)
{
	struct bootstrap_entry entry;
	struct task *task;
	kern_return_t kr = bootstrap_task_load(m, &task, &entry);

	if (kr == KERN_SUCCESS)
		kr = bootstrap_task_start(task, &entry);
	if (kr == KERN_SUCCESS && out != NULL)
		*out = task;
	return kr;
}

/* Load program module @i of @bi into tasks[@i] (NULL if it failed). */
static void load(const struct bootinfo *bi, size_t i, struct task **tasks,
		 struct bootstrap_entry *entries)
{
	if (bootstrap_task_load(&bi->modules[i], &tasks[i], &entries[i]) !=
	    KERN_SUCCESS)
		tasks[i] = NULL;
}

/* Lines that bind a port ($(NAME=port-create)) are loaded first, so any
 * line may name the port; then every task starts in module order. */
void bootstrap_start_all(const struct bootinfo *bi)
{
	struct task **tasks = kzalloc(bi->nmodules * sizeof(*tasks));
	struct bootstrap_entry *entries = kzalloc(bi->nmodules *
						  sizeof(*entries));
	size_t i;

	if (bi->nmodules == 0)
		goto out;
	if (tasks == NULL || entries == NULL) {
		kprintf("bootstrap: no memory to start the modules\n");
		goto out;
	}
	for (i = 0; i < bi->nmodules; i++)
		if (bootstrap_module_is_program(&bi->modules[i]) &&
		    boot_script_binds(bi->modules[i].cmdline))
			load(bi, i, tasks, entries);
	for (i = 0; i < bi->nmodules; i++)
		if (bootstrap_module_is_program(&bi->modules[i]) &&
		    !boot_script_binds(bi->modules[i].cmdline))
			load(bi, i, tasks, entries);
	for (i = 0; i < bi->nmodules; i++)
		if (tasks[i] != NULL)
			(void)bootstrap_task_start(tasks[i], &entries[i]);
out:
	kfree(tasks);
	kfree(entries);
}
