/* SPDX-License-Identifier: GPL-2.0-only */
/* Building, checking and answering the GRAFT_DEV_INFO status flavour. */
#include <stdbool.h>
#include <stddef.h>

#include "device/dev_info.h"
#include "kern/stats.h"

/* Copy @src into @dst of @size bytes, cut to keep the NUL. */
static void name_set(char *dst, size_t size, const char *src)
{
	size_t i = 0;

	for (; src != NULL && src[i] != '\0' && i + 1 < size; i++)
		dst[i] = src[i];
	for (; i < size; i++)
		dst[i] = '\0';
}

static bool name_ok(const char *name, size_t size)
{
	for (size_t i = 0; i < size; i++)
		if (name[i] == '\0')
			return true;
	return false;
}

void dev_info_init(struct graft_dev_info *info, enum graft_dev_mode mode,
		   const char *driver, const char *host)
{
	__builtin_memset(info, 0, sizeof(*info));
	info->window = PROBE_RING_SIZE;
	name_set(info->driver, sizeof(info->driver), driver);
	dev_info_where(info, mode, host);
}

void dev_info_where(struct graft_dev_info *info, enum graft_dev_mode mode,
		    const char *host)
{
	info->mode = (uint32_t)mode;
	name_set(info->host, sizeof(info->host), host);
}

void dev_info_counter(struct graft_dev_info *info, const char *name,
		      uint64_t value)
{
	struct graft_dev_counter *c;

	if (info->ncounters >= GRAFT_DEV_COUNTERS)
		return;
	c = &info->counters[info->ncounters++];
	name_set(c->name, sizeof(c->name), name);
	c->value = value;
}

void dev_info_probe(struct graft_dev_info *info, const char *name,
		    const struct probe_ring *r)
{
	struct graft_dev_probe *p;
	struct stats st;

	if (info->nprobes >= GRAFT_DEV_PROBES)
		return;
	p = &info->probes[info->nprobes++];
	name_set(p->name, sizeof(p->name), name);
	p->count = r->count;
	if (probe_ring_summary(r, &st) != 0)
		return;
	p->min = st.min;
	p->median = st.median;
	p->p99 = st.p99;
	p->max = st.max;
}

io_return_t dev_info_answer(const struct graft_dev_info *info, int *status,
			    mach_msg_type_number_t *count)
{
	if (*count < GRAFT_DEV_INFO_COUNT)
		return D_INVALID_SIZE;
	__builtin_memcpy(status, info, sizeof(*info));
	*count = GRAFT_DEV_INFO_COUNT;
	return D_SUCCESS;
}

int dev_info_parse(struct graft_dev_info *info, const int *status,
		   mach_msg_type_number_t count)
{
	if (count != GRAFT_DEV_INFO_COUNT)
		return -1;
	__builtin_memcpy(info, status, sizeof(*info));
	if ((info->mode != GRAFT_DEV_KERNEL &&
	     info->mode != GRAFT_DEV_SERVER) ||
	    info->ncounters > GRAFT_DEV_COUNTERS ||
	    info->nprobes > GRAFT_DEV_PROBES ||
	    !name_ok(info->driver, sizeof(info->driver)) ||
	    !name_ok(info->host, sizeof(info->host)))
		return -1;
	for (uint32_t i = 0; i < info->ncounters; i++)
		if (!name_ok(info->counters[i].name,
			     sizeof(info->counters[i].name)))
			return -1;
	for (uint32_t i = 0; i < info->nprobes; i++)
		if (!name_ok(info->probes[i].name,
			     sizeof(info->probes[i].name)))
			return -1;
	return 0;
}
