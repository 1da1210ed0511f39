/* SPDX-License-Identifier: GPL-2.0-only */
/* A Linux net device's status as Mach's clients read it: NET_STATUS, NET_ADDRESS, and its counters as GRAFT_DEV_INFO names them. */
#ifndef MACH_GLUE_NET_LXNET_INFO_H
#define MACH_GLUE_NET_LXNET_INFO_H

#include <stdint.h>

struct graft_dev_info;
struct lx_emul_netdev_counters;
struct net_status;

#define ETH_HEADER	14	/* an Ethernet header's bytes */
#define ETH_ADDRESS	6	/* a MAC's bytes */
/* Words of a NET_ADDRESS answer: the 6-byte MAC in two ints. */
#define LXNET_ADDRESS_WORDS	2

/* lxnet_net_status - @ns for an Ethernet device of @mtu with @flags (as
 * GNU Mach's glue reports them).  lxnet_net_address - @mac as
 * NET_ADDRESS gives it: bytes, each int then in network order.  Pure C
 * (the driver server compiles them too); any context. */
void lxnet_net_status(struct net_status *ns, unsigned int mtu,
		      unsigned int flags);
void lxnet_net_address(int words[LXNET_ADDRESS_WORDS], const uint8_t *mac);

/* lxnet_info_counters - append @c to @info as the counters rx_packets,
 * tx_packets, rx_bytes, tx_bytes, rx_errors, tx_errors, rx_dropped,
 * tx_dropped (Linux's names).  Pure C (the driver server compiles it
 * too); any context. */
void lxnet_info_counters(struct graft_dev_info *info,
			 const struct lx_emul_netdev_counters *c);

#endif
