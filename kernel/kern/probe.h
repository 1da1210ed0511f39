/* SPDX-License-Identifier: GPL-2.0-only */
/* rdtsc probes: the timestamp a measurement point records. */
#ifndef KERN_PROBE_H
#define KERN_PROBE_H

#include <stdint.h>

#include "x86_64/cpu.h"

/*
 * A probe reads the TSC with fences on both sides.  Under QEMU TCG with
 * -icount shift=0 one tick is one guest instruction, so differences are
 * deterministic instruction counts.  The named probe points and their
 * sample buffers belong to the code they measure (bench/README.md).
 */
static inline uint64_t probe_read(void)
{
	return rdtsc_fenced();
}

#endif
