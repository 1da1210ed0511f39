/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "task": ELF modules run as user tasks; whatever they do wrong ends only them. */
/*
 * The harness passes tests/user/task_probe.elf several times, each with a
 * "mode=..." word, plus "bad.elf", a file with an ELF signature and garbage
 * after it.  Each case starts one module as a task, waits (bounded) for
 * its termination and checks the reason printed, and that every page, heap
 * byte and task came back.
 */
#include <stdint.h>

#include "kern/bootinfo.h"
#include "kern/bootstrap.h"
#include "kern/clock.h"
#include "kern/console.h"
#include "kern/kalloc.h"
#include "kern/ktest.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/task.h"
#include "vm/vm_page.h"

static char console[2048];

static const struct boot_module *module_with(const char *word)
{
	for (size_t i = 0; i < bootinfo.nmodules; i++)
		if (kmemmem(bootinfo.modules[i].cmdline,
			    strlen(bootinfo.modules[i].cmdline), word))
			return &bootinfo.modules[i];
	return NULL;
}

static uint64_t free_pages(void)
{
	uint64_t n = 0;

	for (int z = 0; z < VM_ZONE_COUNT; z++)
		n += vm_page_free_count(z);
	return n;
}

static bool wait_termination(unsigned int before)
{
	uint64_t end = clock_ticks() + 3 * HZ;

	while (task_terminations == before && clock_ticks() < end) {
		assert_wait(&task_terminations);
		thread_set_timeout(5);
		thread_block();
	}
	thread_sleep_ticks(1);	/* the exited thread is freed after a switch */
	return task_terminations != before;
}

/* Run the module with @mode; expect a termination whose reason contains
 * @reason and nothing left behind. */
static void run_mode(struct ktest *t, const char *mode, const char *reason)
{
	const struct boot_module *m = module_with(mode);
	uint64_t pages = free_pages(), bytes = kalloc_bytes_in_use();
	unsigned int tasks = task_count(), before = task_terminations;

	if (m == NULL) {
		ktest_fail(t, "harness passed no module with %s", mode);
		return;
	}
	console_capture_start(console, sizeof(console));
	KTEST_EXPECT_EQ(t, bootstrap_task_create(m, NULL), KERN_SUCCESS);
	KTEST_EXPECT_TRUE(t, wait_termination(before));
	console_capture_stop();
	if (!kmemmem(console, strlen(console), "task_probe: hello from user mode"))
		ktest_fail(t, "the task printed no hello");
	if (!kmemmem(task_last_reason, strlen(task_last_reason), reason))
		ktest_fail(t, "reason \"%s\" lacks \"%s\"", task_last_reason,
			   reason);
	KTEST_EXPECT_EQ(t, task_count(), tasks);
	KTEST_EXPECT_EQ(t, free_pages(), pages);
	KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(), bytes);
}

static void null_read_terminates_task_after_its_output(struct ktest *t)
{
	run_mode(t, "mode=print", "page fault at 0x0");
}

static void invalid_opcode_terminates_task(struct ktest *t)
{
	run_mode(t, "mode=ud", "#UD");
}

static void privileged_instruction_terminates_task(struct ktest *t)
{
	run_mode(t, "mode=gp", "#GP");
}

static void kernel_address_read_terminates_task(struct ktest *t)
{
	run_mode(t, "mode=kernel", "page fault at 0xffffffff80100000");
}

static void write_to_own_code_terminates_task(struct ktest *t)
{
	run_mode(t, "mode=text", "page fault");
}

static void bad_trap_number_terminates_task(struct ktest *t)
{
	run_mode(t, "mode=badtrap", "invalid trap number -1000");
}

static void stack_overflow_terminates_task(struct ktest *t)
{
	run_mode(t, "mode=stack", "page fault");
}

static void malformed_elf_is_refused(struct ktest *t)
{
	const struct boot_module *m = module_with("bad.elf");
	uint64_t pages = free_pages(), bytes = kalloc_bytes_in_use();
	unsigned int tasks = task_count();

	if (m == NULL) {
		ktest_fail(t, "harness passed no bad.elf module");
		return;
	}
	KTEST_EXPECT_EQ(t, bootstrap_task_create(m, NULL),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, task_count(), tasks);
	KTEST_EXPECT_EQ(t, free_pages(), pages);
	KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(), bytes);
}

static const struct ktest_case task_cases[] = {
	{ "null_read_terminates_task_after_its_output",
	  null_read_terminates_task_after_its_output },
	{ "invalid_opcode_terminates_task", invalid_opcode_terminates_task },
	{ "privileged_instruction_terminates_task",
	  privileged_instruction_terminates_task },
	{ "kernel_address_read_terminates_task",
	  kernel_address_read_terminates_task },
	{ "write_to_own_code_terminates_task",
	  write_to_own_code_terminates_task },
	{ "bad_trap_number_terminates_task", bad_trap_number_terminates_task },
	{ "stack_overflow_terminates_task", stack_overflow_terminates_task },
	{ "malformed_elf_is_refused", malformed_elf_is_refused },
};
KTEST_SUITE(task_suite, "task", task_cases);
