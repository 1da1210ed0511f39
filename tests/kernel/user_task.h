/* SPDX-License-Identifier: GPL-2.0-only */
/* Running a module as a user task from a guest suite, and checking what it left behind. */
#ifndef TESTS_KERNEL_USER_TASK_H
#define TESTS_KERNEL_USER_TASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kern/bootinfo.h"

struct ktest;

/* The first module whose command line contains @word, or NULL. */
const struct boot_module *user_task_module(const char *word);

/* Free pages of all zones together. */
uint64_t user_task_free_pages(void);

/* What the kernel holds before a run, to compare after it. */
struct user_task_baseline {
	uint64_t pages, bytes;
	unsigned int tasks;
};

void user_task_baseline(struct user_task_baseline *b);

/* Fail @t for every count not back at @b. */
void user_task_expect_baseline(struct ktest *t,
			       const struct user_task_baseline *b);

/*
 * user_task_run - start the module whose command line has @word as a task
 * and wait (up to @seconds) until it terminates, copying the console into
 * @console meanwhile.  Returns false (and fails @t) if there is no such
 * module, it does not start, or it does not end in time.
 */
bool user_task_run(struct ktest *t, const char *word, unsigned int seconds,
		   char *console, size_t size);

#endif
