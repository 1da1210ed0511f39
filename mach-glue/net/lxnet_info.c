/* SPDX-License-Identifier: GPL-2.0-only */
/* A Linux net device's status as Mach's clients read it: NET_STATUS, NET_ADDRESS, and its counters as GRAFT_DEV_INFO names them. */
#include <device/net_status.h>

#include "device/dev_info.h"
#include "linux-emu/include/lx_emul.h"
#include "mach-glue/net/lxnet_info.h"

void lxnet_info_counters(struct graft_dev_info *info,
			 const struct lx_emul_netdev_counters *c)
{
	dev_info_counter(info, "rx_packets", c->rx_packets);
	dev_info_counter(info, "tx_packets", c->tx_packets);
	dev_info_counter(info, "rx_bytes", c->rx_bytes);
	dev_info_counter(info, "tx_bytes", c->tx_bytes);
	dev_info_counter(info, "rx_errors", c->rx_errors);
	dev_info_counter(info, "tx_errors", c->tx_errors);
	dev_info_counter(info, "rx_dropped", c->rx_dropped);
	dev_info_counter(info, "tx_dropped", c->tx_dropped);
}

void lxnet_net_status(struct net_status *ns, unsigned int mtu,
		      unsigned int flags)
{
	*ns = (struct net_status){
		.min_packet_size = ETH_HEADER,
		.max_packet_size = (int)(mtu + ETH_HEADER),
		.header_format = HDR_ETHERNET,
		.header_size = ETH_HEADER,
		.address_size = ETH_ADDRESS,
		.flags = (int)flags,
		.mapped_size = 0,
	};
}

void lxnet_net_address(int words[LXNET_ADDRESS_WORDS], const uint8_t *mac)
{
	words[0] = (int)((uint32_t)mac[0] << 24 | (uint32_t)mac[1] << 16 |
			 (uint32_t)mac[2] << 8 | mac[3]);
	words[1] = (int)((uint32_t)mac[4] << 24 | (uint32_t)mac[5] << 16);
}
