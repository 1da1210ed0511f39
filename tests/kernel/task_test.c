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

#include "kern/bootstrap.h"
#include "kern/ktest.h"
#include "kern/string.h"
#include "kern/task.h"
#include "tests/kernel/user_task.h"

static char console[2048];

/* Run the module with @mode; expect a termination whose reason contains
 * @reason and nothing left behind. */
static void run_mode(struct ktest *t, const char *mode, const char *reason)
{
	struct user_task_baseline b;

	user_task_baseline(&b);
	if (!user_task_run(t, mode, 3, console, sizeof(console)))
		return;
	if (!kmemmem(console, strlen(console), "task_probe: hello from user mode"))
		ktest_fail(t, "the task printed no hello");
	if (!kmemmem(task_last_reason, strlen(task_last_reason), reason))
		ktest_fail(t, "reason \"%s\" lacks \"%s\"", task_last_reason,
			   reason);
	user_task_expect_baseline(t, &b);
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
	const struct boot_module *m = user_task_module("bad.elf");
	struct user_task_baseline b;

	if (m == NULL) {
		ktest_fail(t, "harness passed no bad.elf module");
		return;
	}
	user_task_baseline(&b);
	KTEST_EXPECT_EQ(t, bootstrap_task_create(m, NULL),
			KERN_INVALID_ARGUMENT);
	user_task_expect_baseline(t, &b);
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
