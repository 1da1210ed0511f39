/* SPDX-License-Identifier: GPL-2.0-only */
/* Reading a user test program's command-line words: graft_arg and
 * graft_arg_port (graft_user.h) read "key=value" words; has_word a bare
 * word. */
#ifndef TESTS_USER_USER_ARGS_H
#define TESTS_USER_USER_ARGS_H

#include <mach/port.h>
#include <string.h>

#include "graft_user.h"

/* Whether @word is one of the arguments. */
static inline int has_word(int argc, char **argv, const char *word)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], word) == 0)
			return 1;
	return 0;
}

#endif
