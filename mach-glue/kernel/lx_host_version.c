/* SPDX-License-Identifier: GPL-2.0-only */
/* lx_host_version inside the Graft kernel: the host interface this file was built against. */
#include "linux-emu/include/lx_host.h"

unsigned int lx_host_version(void)
{
	return LX_HOST_VERSION;
}
