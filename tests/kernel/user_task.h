/* SPDX-License-Identifier: GPL-2.0-only */
/* Running a module as a user task from a guest suite, and checking what it left behind. */
#ifndef TESTS_KERNEL_USER_TASK_H
#define TESTS_KERNEL_USER_TASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kern/bootinfo.h"

struct ktest;
struct task;

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
 * user_task_start - start the module whose command line has @word as a
 * task (in *@task unless NULL) and begin copying the console into
 * @console (the caller ends it with console_capture_stop).  False (and
 * @t failed, the copy ended) if there is no such module or it does not
 * start.
 */
bool user_task_start(struct ktest *t, const char *word, char *console,
		     size_t size, struct task **task);

/*
 * user_task_start_server - start the module whose command line has
 * @word, a supervised test server (tests/user/proxy_server.c), copying
 * the console into @console until its "SERVER-READY" line (10 s at
 * most): its supervision, or NULL (@t failed: not ready, or not
 * supervised).
 * user_task_client_done - start the client module @word, copying the
 * console into @console until its "USER-DONE" line (60 s at most; a
 * supervised server's restarts end tasks too, so its end is that line).
 */
struct supervision *user_task_start_server(struct ktest *t, const char *word,
					   char *console, size_t size);
void user_task_client_done(struct ktest *t, const char *word, char *console,
			   size_t size);

/*
 * user_task_run - start the module whose command line has @word as a task
 * and wait (up to @seconds) until it terminates, copying the console into
 * @console meanwhile.  Returns false (and fails @t) if there is no such
 * module, it does not start, or it does not end in time.
 */
bool user_task_run(struct ktest *t, const char *word, unsigned int seconds,
		   char *console, size_t size);

/*
 * user_task_wait - wait until task_terminations has grown by @n since
 * @before, at most @seconds; then let the exited threads be freed.
 * Returns whether it did.
 */
bool user_task_wait(unsigned int before, unsigned int n, unsigned int seconds);

/*
 * user_task_run_pair - load the modules with @server_word and
 * @client_word, give both a bootstrap port to one new port whose receive
 * right is the server's, start them, and wait (up to @seconds) for both to
 * end, copying the console into @console.  False (and @t failed) if a
 * module is missing, does not start, or they do not both end in time.
 */
bool user_task_run_pair(struct ktest *t, const char *server_word,
			const char *client_word, unsigned int seconds,
			char *console, size_t size);

/* What follows the first @prefix in @console, or NULL. */
const char *user_task_text_after(const char *console, const char *prefix);

/* user_task_number_after - the number (C syntax: 0x for hex) right
 * after the first @prefix in @console, in *@value: false if none. */
bool user_task_number_after(const char *console, const char *prefix,
			    uint64_t *value);

/* Count lines of @console starting with @prefix. */
unsigned int user_task_count_lines(const char *console, const char *prefix);

/* Count the places @text occurs in @console (overlapping ones too). */
unsigned int user_task_count_text(const char *console, const char *text);

/*
 * user_task_expect_checks - fail @t unless @console has no "USER-FAIL"
 * line and as many "USER-PASS" lines as its "USER-DONE n" says (at least
 * @min).
 */
void user_task_expect_checks(struct ktest *t, const char *console,
			     unsigned int min);

#endif
