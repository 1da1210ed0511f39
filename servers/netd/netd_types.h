/* SPDX-License-Identifier: GPL-2.0-only */
/* C types of netd.defs (imported by its MIG stubs). */
#ifndef NETD_TYPES_H
#define NETD_TYPES_H

/* At most this many bytes travel in one netd.defs call. */
#define NETD_DATA_MAX	8192
typedef char netd_data_t[NETD_DATA_MAX];

/* An IPv6 address, 16 bytes in network order. */
typedef char netd_ip6_t[16];

#endif
