/* SPDX-License-Identifier: GPL-2.0-only */
/* The one hook through which a benchmark sees the glue probes' samples. */
#include "kern/probe_hook.h"
#include "x86_64/cpu.h"

probe_hook_fn probe_hook;

const char *const probe_span_names[PROBE_SPANS] = {
	[PROBE_NET_TX] = "net.tx.glue",
	[PROBE_NET_RX] = "net.rx.glue",
	[PROBE_NET_TXDONE] = "net.txdone.glue",
	[PROBE_DISK_CMD] = "disk.cmd.glue",
	[PROBE_DISK_INT] = "disk.int.glue",
};

void probe_hook_set(probe_hook_fn fn)
{
	uint64_t flags = cpu_intr_save();

	probe_hook = fn;
	cpu_intr_restore(flags);
}
