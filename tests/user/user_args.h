/* SPDX-License-Identifier: GPL-2.0-only */
/* Reading a user test program's command-line words. */
#ifndef TESTS_USER_USER_ARGS_H
#define TESTS_USER_USER_ARGS_H

#include <mach/port.h>
#include <stdlib.h>
#include <string.h>

/* The port name given as "KEY=NAME" among @argv (the boot script put
 * NAME there for ${host-port} or ${device-port}), or MACH_PORT_NULL. */
static inline mach_port_t port_argument(int argc, char **argv,
					const char *key)
{
	size_t len = strlen(key);

	for (int i = 1; i < argc; i++)
		if (strncmp(argv[i], key, len) == 0 && argv[i][len] == '=')
			return (mach_port_t)strtoul(argv[i] + len + 1, NULL, 10);
	return MACH_PORT_NULL;
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
