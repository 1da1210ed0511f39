/* SPDX-License-Identifier: GPL-2.0-only */
/* Reading a GRAFT_DEV_INFO record (defs/graft/dev_info.h) in the test programs. */
#ifndef TESTS_USER_USER_INFO_H
#define TESTS_USER_USER_INFO_H

#include <device/device.h>
#include <stdint.h>
#include <string.h>

#include <graft/dev_info.h>

/* device_get_status of GRAFT_DEV_INFO on @dev into @info, its names
 * NUL-terminated; its code, *@count the ints answered (room for more
 * than the record is given, so a long answer shows in *@count). */
static inline kern_return_t info_read(mach_port_t dev,
				      struct graft_dev_info *info,
				      mach_msg_type_number_t *count)
{
	int status[GRAFT_DEV_INFO_COUNT + 8];
	kern_return_t kr;

	*count = GRAFT_DEV_INFO_COUNT + 8;
	kr = device_get_status(dev, GRAFT_DEV_INFO, status, count);
	memcpy(info, status, sizeof(*info));
	info->driver[GRAFT_DEV_NAME_MAX - 1] = '\0';
	info->host[GRAFT_DEV_HOST_MAX - 1] = '\0';
	return kr;
}

/* The value of @info's counter @name, or -1 if it has none. */
static inline long info_counter(const struct graft_dev_info *info,
				const char *name)
{
	for (uint32_t i = 0; i < info->ncounters && i < GRAFT_DEV_COUNTERS;
	     i++)
		if (strcmp(info->counters[i].name, name) == 0)
			return (long)info->counters[i].value;
	return -1;
}

/* Whether @p summarises @min_count samples at least, its statistics
 * ordered and not zero. */
static inline int info_probe_ok(const struct graft_dev_probe *p,
				uint64_t min_count)
{
	return p->count >= min_count && p->min > 0 && p->min <= p->median &&
	       p->median <= p->p99 && p->p99 <= p->max;
}

#endif
