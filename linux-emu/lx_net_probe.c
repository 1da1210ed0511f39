/* SPDX-License-Identifier: GPL-2.0-only */
/* lx_emul_net_probe_set: the host's probe function for the net benchmarks. */
#include <linux/compiler.h>

#include <lx_emul.h>
#include <lx_net_probe.h>

void (*lx_net_probe_fn)(int point);

void lx_emul_net_probe_set(void (*fn)(int point))
{
	WRITE_ONCE(lx_net_probe_fn, fn);
}
