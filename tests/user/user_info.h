/* SPDX-License-Identifier: GPL-2.0-only */
/* Reading a GRAFT_DEV_INFO record (defs/graft/dev_info.h) in the test programs. */
#ifndef TESTS_USER_USER_INFO_H
#define TESTS_USER_USER_INFO_H

#include <stdint.h>
#include <string.h>

#include <graft/dev_info.h>

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
