/* SPDX-License-Identifier: GPL-2.0-only */
/* Building, checking and answering the GRAFT_DEV_INFO status flavour (defs/graft/dev_info.h). */
#ifndef DEVICE_DEV_INFO_H
#define DEVICE_DEV_INFO_H

#include <stdint.h>

#include <device/device_types.h>
#include <graft/dev_info.h>
#include <mach/message.h>

#include "kern/probe_ring.h"

/*
 * Pure C, no lock, any context: the kernel's modules and the driver
 * server (which compiles this file too) build their answers with it.
 *
 * dev_info_init - zero @info, then set its mode, driver and host (names
 * longer than their arrays are cut, NUL kept) and the probes' window.
 * dev_info_where - set @info's mode and host alone (a relay giving a
 * server's record what only the kernel knows).
 * dev_info_counter - append counter @name = @value (ignored when the
 * GRAFT_DEV_COUNTERS are taken).
 * dev_info_probe - append probe @name summarised from @r (count 0 and
 * zero statistics when it has no sample; ignored past GRAFT_DEV_PROBES).
 */
void dev_info_init(struct graft_dev_info *info, enum graft_dev_mode mode,
		   const char *driver, const char *host);
void dev_info_where(struct graft_dev_info *info, enum graft_dev_mode mode,
		    const char *host);
void dev_info_counter(struct graft_dev_info *info, const char *name,
		      uint64_t value);
void dev_info_probe(struct graft_dev_info *info, const char *name,
		    const struct probe_ring *r);

/*
 * dev_info_answer - device_get_status's answer of @info into @status,
 * whose room is *@count ints: D_SUCCESS with *@count set to
 * GRAFT_DEV_INFO_COUNT; D_INVALID_SIZE when *@count is smaller (nothing
 * written).
 */
io_return_t dev_info_answer(const struct graft_dev_info *info, int *status,
			    mach_msg_type_number_t *count);

/*
 * dev_info_parse - @count ints at @status as a struct graft_dev_info in
 * @info: 0 if they are one (exactly GRAFT_DEV_INFO_COUNT ints, ncounters
 * and nprobes in range, every string NUL-terminated, a known mode);
 * -1 otherwise (@info then holds the copy, unchecked).
 */
int dev_info_parse(struct graft_dev_info *info, const int *status,
		   mach_msg_type_number_t count);

#endif
