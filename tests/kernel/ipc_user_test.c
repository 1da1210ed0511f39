/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "ipc-user": two tasks exchange messages; the client then dies of a page fault. */
/*
 * tests/user/rpc_server.c and rpc_client.c, built on gnumach-dev headers,
 * MIG stubs and newlib, meet through their bootstrap ports.  The client
 * sends inline data, out-of-line memory and a port right, checks the
 * answers (USER-PASS / USER-FAIL lines), asks the server to quit and
 * reads address 0.  Everything must come back: pages, heap, ports, spaces.
 */
#include <stdint.h>

#include "ipc/ipc_port.h"
#include "ipc/ipc_space.h"
#include "kern/ktest.h"
#include "kern/string.h"
#include "kern/task.h"
#include "tests/kernel/user_task.h"

static char console[16384];

static void two_tasks_exchange_messages_and_fault_ends_client(struct ktest *t)
{
	struct user_task_baseline b;
	unsigned int ports = ipc_port_count(), spaces = ipc_space_count();

	user_task_baseline(&b);
	if (!user_task_run_pair(t, "rpc_server", "rpc_client", 10, console,
				sizeof(console)))
		return;
	user_task_expect_checks(t, console, 15);
	if (!kmemmem(console, strlen(console), "SERVER-DONE"))
		ktest_fail(t, "the server did not finish");
	if (!kmemmem(console, strlen(console),
		     "task rpc_client.elf terminated: page fault at 0x0"))
		ktest_fail(t, "the client was not ended by its page fault");
	if (!kmemmem(console, strlen(console),
		     "task rpc_server.elf terminated: task_terminate"))
		ktest_fail(t, "the server did not exit");
	user_task_expect_baseline(t, &b);
	KTEST_EXPECT_EQ(t, ipc_port_count(), ports);
	KTEST_EXPECT_EQ(t, ipc_space_count(), spaces);
}

static const struct ktest_case ipc_user_cases[] = {
	{ "two_tasks_exchange_messages_and_fault_ends_client",
	  two_tasks_exchange_messages_and_fault_ends_client },
};
KTEST_SUITE(ipc_user_suite, "ipc-user", ipc_user_cases);
