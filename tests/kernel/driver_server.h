/* SPDX-License-Identifier: GPL-2.0-only */
/* Starting the Linux driver server (servers/lxdrv) from a guest suite and reading what it printed. */
#ifndef TESTS_KERNEL_DRIVER_SERVER_H
#define TESTS_KERNEL_DRIVER_SERVER_H

#include <stdbool.h>
#include <stdint.h>

struct ktest;
struct task;

/*
 * driver_server_start - start the module whose command line has "lxdrv"
 * as a task of its own (left running) and wait up to @seconds for its
 * "lxdrv: ready" line, capturing the console meanwhile.  False (and @t
 * failed) if there is no such module, it does not start, or it is not
 * ready in time.  Thread context.
 */
bool driver_server_start(struct ktest *t, unsigned int seconds);

/* driver_server_start_module - the same for the module whose command
 * line has @word (a test server, or one of several), its task in
 * *@task unless NULL. */
bool driver_server_start_module(struct ktest *t, const char *word,
				unsigned int seconds, struct task **task);

/* driver_server_said - whether the console of the server started last,
 * up to its ready line, has @text. */
bool driver_server_said(const char *text);

/* driver_server_number - the number (C syntax: 0x for hex) right after
 * the first @prefix in that console, in *@value: false if none. */
bool driver_server_number(const char *prefix, uint64_t *value);

#endif
