/* SPDX-License-Identifier: GPL-2.0-only */
/* A Linux net device's counters as GRAFT_DEV_INFO names them. */
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
