/* SPDX-License-Identifier: GPL-2.0-only */
/* Reading "key=value" words of a program's command line. */
#include <stdlib.h>
#include <string.h>

#include "graft_user.h"

const char *graft_arg(int argc, char **argv, const char *key,
		      const char *dflt)
{
	size_t len = strlen(key);

	for (int i = 1; i < argc; i++)
		if (strncmp(argv[i], key, len) == 0 && argv[i][len] == '=')
			return argv[i] + len + 1;
	return dflt;
}

mach_port_t graft_arg_port(int argc, char **argv, const char *key)
{
	return (mach_port_t)strtoul(graft_arg(argc, argv, key, "0"), NULL, 10);
}
