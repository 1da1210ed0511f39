/* SPDX-License-Identifier: GPL-2.0-only */
/* netif_set_real_num_tx_queues: how many of a device's transmit queues are in use; netif_get_num_default_rss_queues. */
#include <linux/netdevice.h>

/*
 * netif_set_real_num_tx_queues - use the first @txq of @dev's transmit
 * queues.  0; -EINVAL unless 1 <= @txq <= num_tx_queues.  Queues beyond
 * the new count hold no packets to flush: Graft's transmit path
 * (lx_net_emul.c) has no queueing discipline and sends on queue 0.
 * Caller holds the rtnl lock once @dev is registered, as in Linux.
 */
int netif_set_real_num_tx_queues(struct net_device *dev, unsigned int txq)
{
	if (txq < 1 || txq > dev->num_tx_queues)
		return -EINVAL;
	dev->real_num_tx_queues = txq;
	return 0;
}

/* netif_get_num_default_rss_queues - how many receive queues a driver
 * should spread over by default: one per core, and the world has one. */
int netif_get_num_default_rss_queues(void)
{
	return max_t(int, 1, num_online_cpus());
}
