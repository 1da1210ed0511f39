/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers of the suites that run user tasks (task, mach-user). */
#include <stdint.h>

#include "kern/bootstrap.h"
#include "kern/clock.h"
#include "kern/console.h"
#include "kern/kalloc.h"
#include "kern/ktest.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/task.h"
#include "tests/kernel/user_task.h"
#include "vm/vm_page.h"

const struct boot_module *user_task_module(const char *word)
{
	for (size_t i = 0; i < bootinfo.nmodules; i++)
		if (kmemmem(bootinfo.modules[i].cmdline,
			    strlen(bootinfo.modules[i].cmdline), word))
			return &bootinfo.modules[i];
	return NULL;
}

uint64_t user_task_free_pages(void)
{
	uint64_t n = 0;

	for (int z = 0; z < VM_ZONE_COUNT; z++)
		n += vm_page_free_count(z);
	return n;
}

void user_task_baseline(struct user_task_baseline *b)
{
	b->pages = user_task_free_pages();
	b->bytes = kalloc_bytes_in_use();
	b->tasks = task_count();
}

void user_task_expect_baseline(struct ktest *t,
			       const struct user_task_baseline *b)
{
	KTEST_EXPECT_EQ(t, task_count(), b->tasks);
	KTEST_EXPECT_EQ(t, user_task_free_pages(), b->pages);
	KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(), b->bytes);
}

static bool wait_termination(unsigned int before, unsigned int seconds)
{
	uint64_t end = clock_ticks() + (uint64_t)seconds * HZ;

	while (task_terminations == before && clock_ticks() < end) {
		assert_wait(&task_terminations);
		thread_set_timeout(5);
		thread_block();
	}
	thread_sleep_ticks(1);	/* the exited thread is freed after a switch */
	return task_terminations != before;
}

bool user_task_run(struct ktest *t, const char *word, unsigned int seconds,
		   char *console, size_t size)
{
	const struct boot_module *m = user_task_module(word);
	unsigned int before = task_terminations;
	bool ended;

	if (m == NULL) {
		ktest_fail(t, "harness passed no module with %s", word);
		return false;
	}
	console_capture_start(console, size);
	if (bootstrap_task_create(m, NULL) != KERN_SUCCESS) {
		console_capture_stop();
		ktest_fail(t, "module %s did not start", word);
		return false;
	}
	ended = wait_termination(before, seconds);
	console_capture_stop();
	if (!ended)
		ktest_fail(t, "task %s did not end within %u s", word, seconds);
	return ended;
}
