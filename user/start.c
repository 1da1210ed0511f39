/* SPDX-License-Identifier: GPL-2.0-only */
/* From the boot command line to main(argc, argv), and exit(). */
#include <stdlib.h>

#define START_MAX_ARGS	64

int main(int argc, char **argv);
void graft_start(char *cmdline) __attribute__((noreturn));

/* The command line is on the stack and ours: split it in place at spaces.
 * Words beyond START_MAX_ARGS - 1 are dropped (said on stderr by main's
 * caller would need stdio before main; so the limit is documented). */
void graft_start(char *cmdline)
{
	static char *argv[START_MAX_ARGS];
	int argc = 0;
	char *p = cmdline;

	while (*p != '\0' && argc < START_MAX_ARGS - 1) {
		while (*p == ' ')
			*p++ = '\0';
		if (*p == '\0')
			break;
		argv[argc++] = p;
		while (*p != '\0' && *p != ' ')
			p++;
	}
	argv[argc] = NULL;
	exit(main(argc, argv));
}
