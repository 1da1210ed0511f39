/* SPDX-License-Identifier: GPL-2.0-only */
/* The C types proxy.defs's stubs need. */
#ifndef GRAFT_PROXY_TYPES_H
#define GRAFT_PROXY_TYPES_H

#include <mach/port.h>

/* A publication as the stubs carry it: a port name in a task; in the
 * kernel the publication its port's intran found
 * (kernel/device/dev_proxy.h). */
typedef mach_port_t proxy_t;

/* proxy_name_t is a C string of at most 128 bytes, NUL included. */
typedef char proxy_name_t[128];
typedef const char *const_proxy_name_t;

typedef int *proxy_status_t;
typedef char *proxy_frame_t;

#endif
