/* SPDX-License-Identifier: GPL-2.0-only */
/* Reading a user test program's command-line words. */
#ifndef TESTS_USER_USER_ARGS_H
#define TESTS_USER_USER_ARGS_H

#include <mach/port.h>
#include <string.h>

#include "graft_user.h"

/* The runtime's graft_arg / graft_arg_port (user/args.c) under the names
 * the test programs use. */
static inline const char *word_argument(int argc, char **argv,
					const char *key, const char *dflt)
{
	return graft_arg(argc, argv, key, dflt);
}

static inline mach_port_t port_argument(int argc, char **argv,
					const char *key)
{
	return graft_arg_port(argc, argv, key);
}

/* Whether @word is one of the arguments. */
static inline int has_word(int argc, char **argv, const char *word)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], word) == 0)
			return 1;
	return 0;
}

#endif
