/* SPDX-License-Identifier: GPL-2.0-only */
/* The C types proxy.defs's stubs need. */
#ifndef GRAFT_PROXY_TYPES_H
#define GRAFT_PROXY_TYPES_H

#include <mach/machine/vm_types.h>
#include <mach/port.h>

/* A publication as the stubs carry it: a port name in a task; in the
 * kernel the publication its port's intran found
 * (kernel/device/dev_proxy.h). */
typedef mach_port_t proxy_t;

/* proxy_name_t is a C string of at most 128 bytes, NUL included. */
typedef char proxy_name_t[128];
typedef const char *const_proxy_name_t;

typedef int *proxy_status_t;

/*
 * A status record is `flavor, rule, count, count ints`; the rule says
 * how device_get_status answers a client whose buffer holds @asked ints
 * (the in-kernel modules' conventions differ by flavour):
 * PROXY_STATUS_AT_LEAST_OP - @asked < count: D_INVALID_OPERATION (GNU
 *   Mach's net_getstat: NET_STATUS, NET_ADDRESS);
 * PROXY_STATUS_AT_LEAST_SIZE - @asked < count: D_INVALID_SIZE
 *   (DEV_GET_SIZE, DEV_GET_RECORDS);
 * PROXY_STATUS_EXACT - @asked != count: D_INVALID_SIZE (NET_FLAGS).
 * Otherwise the count ints are given.
 */
enum proxy_status_rule {
	PROXY_STATUS_AT_LEAST_OP,
	PROXY_STATUS_AT_LEAST_SIZE,
	PROXY_STATUS_EXACT,
};
typedef char *proxy_frame_t;

/* proxy_pages.defs: the physical addresses of a request's lent pages;
 * at most PROXY_PAGES_MAX (the .defs's bound), so a request of up to
 * 1 MiB goes with its pages lent. */
#define PROXY_PAGES_MAX	257
typedef rpc_phys_addr_t *proxy_frames_t;

#endif
