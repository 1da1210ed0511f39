/* SPDX-License-Identifier: GPL-2.0-only */
/* panic() for host tests: caught by EXPECT_PANIC, fatal anywhere else. */
#ifndef TESTS_HOST_HOST_PANIC_H
#define TESTS_HOST_HOST_PANIC_H

#include <setjmp.h>
#include <string.h>

#include "kern/ktest.h"

/* Armed by EXPECT_PANIC; host_panic.c's panic() records the message and
 * jumps back, or aborts the program when nothing is armed. */
extern jmp_buf host_panic_jmp;
extern int host_panic_armed;
extern char host_panic_msg[256];

/* Run @stmt and check that it panics with a message containing @what. */
#define EXPECT_PANIC(t, name, stmt, what)				\
	do {								\
		host_panic_msg[0] = '\0';				\
		host_panic_armed = 1;					\
		if (setjmp(host_panic_jmp) == 0) {			\
			stmt;						\
			host_panic_armed = 0;				\
			ktest_fail(t, "%s: did not panic", name);	\
		} else if (!strstr(host_panic_msg, what)) {		\
			ktest_fail(t, "%s: panic '%s' lacks '%s'",	\
				   name, host_panic_msg, what);		\
		}							\
	} while (0)

#endif
