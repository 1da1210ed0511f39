/* SPDX-License-Identifier: GPL-2.0-only */
/* CHECK and IN_WORLD, which the checks that run in the Linux world share. */
#ifndef TESTS_LINUX_EMU_LX_SELFTEST_CHECK_H
#define TESTS_LINUX_EMU_LX_SELFTEST_CHECK_H

#include <lx_world.h>

/* Return the line number of the check unless @cond holds (each check
 * returns 0, or the line of the first check that failed). */
#define CHECK(cond)	do { if (!(cond)) return __LINE__; } while (0)

/* lx_emul_selftest_@name: @body() holding the Linux world, through
 * lx_world_run as every host entry does (lx_world.h). */
#define IN_WORLD(name, body)					\
	static int name##_in_world(void *arg)			\
	{							\
		return body();					\
	}							\
	int lx_emul_selftest_##name(void)			\
	{							\
		return lx_world_run(name##_in_world, NULL);	\
	}

#endif
