/* SPDX-License-Identifier: GPL-2.0-only */
/* lx_host_console_write and lx_host_missing inside the Graft kernel. */
#include "kern/console.h"
#include "kern/panic.h"
#include "linux-emu/include/lx_host.h"

void lx_host_console_write(const char *text, unsigned long len)
{
	console_write(text, len);
}

void lx_host_missing(const char *name)
{
	panic("linux-emu: %s is not implemented", name);
}
