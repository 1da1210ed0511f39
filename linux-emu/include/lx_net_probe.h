/* SPDX-License-Identifier: GPL-2.0-only */
/* The benchmarks' probe points inside linux-emu's net files (Linux side). */
#ifndef LX_NET_PROBE_H
#define LX_NET_PROBE_H

#include <linux/compiler.h>

/* The host's probe function, or NULL (lx_emul_net_probe_set). */
extern void (*lx_net_probe_fn)(int point);

/* lx_net_probe - call the host's probe function at @point, if set. */
static inline void lx_net_probe(int point)
{
	void (*fn)(int) = READ_ONCE(lx_net_probe_fn);

	if (unlikely(fn))
		fn(point);
}

#endif
