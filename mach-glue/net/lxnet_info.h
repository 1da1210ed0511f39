/* SPDX-License-Identifier: GPL-2.0-only */
/* A Linux net device's counters as GRAFT_DEV_INFO names them. */
#ifndef MACH_GLUE_NET_LXNET_INFO_H
#define MACH_GLUE_NET_LXNET_INFO_H

struct graft_dev_info;
struct lx_emul_netdev_counters;

/* lxnet_info_counters - append @c to @info as the counters rx_packets,
 * tx_packets, rx_bytes, tx_bytes, rx_errors, tx_errors, rx_dropped,
 * tx_dropped (Linux's names).  Pure C (the driver server compiles it
 * too); any context. */
void lxnet_info_counters(struct graft_dev_info *info,
			 const struct lx_emul_netdev_counters *c);

#endif
