/* SPDX-License-Identifier: GPL-2.0-only */
/* Starting the Linux driver server (servers/lxdrv) from a guest suite and reading what it printed. */
#include <stdbool.h>
#include <stdint.h>

#include "kern/console.h"
#include "kern/ktest.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/task.h"
#include "tests/kernel/driver_server.h"
#include "tests/kernel/user_task.h"

static char server_console[16384];
static struct task *server;

bool driver_server_said(const char *text)
{
	return kmemmem(server_console, strlen(server_console), text) != NULL;
}

bool driver_server_number(const char *prefix, uint64_t *value)
{
	return user_task_number_after(server_console, prefix, value);
}

bool driver_server_start_module(struct ktest *t, const char *word,
				unsigned int seconds, struct task **task)
{
	if (!user_task_start(t, word, server_console, sizeof(server_console),
			     task))
		return false;
	for (unsigned int i = 0; i < seconds * 10; i++) {
		if (driver_server_said("lxdrv: ready"))
			break;
		thread_sleep_ticks(10);
	}
	console_capture_stop();
	if (!driver_server_said("lxdrv: ready")) {
		ktest_fail(t, "%s not ready within %u s", word, seconds);
		return false;
	}
	return true;
}

bool driver_server_start(struct ktest *t, unsigned int seconds)
{
	return driver_server_start_module(t, "lxdrv", seconds, &server);
}
