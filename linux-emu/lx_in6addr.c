/* SPDX-License-Identifier: GPL-2.0-only */
/* The IPv6 address constants drivers compare with: in6addr_any, in6addr_loopback. */
#include <linux/in6.h>

const struct in6_addr in6addr_any __aligned(BITS_PER_LONG / 8) =
	IN6ADDR_ANY_INIT;
const struct in6_addr in6addr_loopback __aligned(BITS_PER_LONG / 8) =
	IN6ADDR_LOOPBACK_INIT;
