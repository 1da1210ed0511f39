/* SPDX-License-Identifier: GPL-2.0-only */
/* lwIP's compiler and platform definitions for netd (newlib, x86_64). */
#ifndef NETD_ARCH_CC_H
#define NETD_ARCH_CC_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>

/* newlib's sys/types.h gives ssize_t (long) and BYTE_ORDER. */
#define SSIZE_MAX		LONG_MAX
#define LWIP_RAND()		((u32_t)rand())

/* Diagnostics go to the console through newlib's stdout. */
#define LWIP_PLATFORM_DIAG(x)	do { printf x; } while (0)
void netd_assert_failed(const char *msg, const char *file, int line);
#define LWIP_PLATFORM_ASSERT(x)	netd_assert_failed(x, __FILE__, __LINE__)

#endif
