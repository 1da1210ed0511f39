/* SPDX-License-Identifier: GPL-2.0-only */
/* The rest of lx_host.h in the server: version, console, missing functions. */
#include <stdio.h>
#include <unistd.h>

#include <graft_user.h>

#include <lx_host.h>

#include "lxdrv.h"

unsigned int lx_host_version(void)
{
	return LX_HOST_VERSION;
}

void lx_host_console_write(const char *text, unsigned long len)
{
	fflush(stdout);
	(void)write(1, text, len);
}

void lx_host_missing(const char *name)
{
	printf("lxdrv: linux-emu: %s is not implemented\n", name);
	lxdrv_die("a missing Linux function was called");
}

void lxdrv_die(const char *why)
{
	printf("lxdrv: %s: the server ends\n", why);
	fflush(stdout);
	_exit(1);
}
