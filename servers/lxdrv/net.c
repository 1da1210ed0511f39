/* SPDX-License-Identifier: GPL-2.0-only */
/* The world's net devices in the server: opened at start, published through the kernel's proxy. */
#include <stdio.h>

#include <lx_emul.h>

#include "lxdrv.h"
#include "lxdrv_glue.h"

void lxdrv_net_start(void)
{
	struct lx_emul_netdev *dev = NULL;
	struct lx_emul_netdev_info info;
	int err;

	while ((dev = lx_emul_netdev_next(dev)) != NULL) {
		err = lx_emul_netdev_open(dev);
		if (err || lx_emul_netdev_info(dev, &info) != 0) {
			printf("lxdrv: a net device did not open: %d\n", err);
			continue;
		}
		printf("lxdrv: %s up, mac %02x:%02x:%02x:%02x:%02x:%02x\n",
		       info.name, info.mac[0], info.mac[1], info.mac[2],
		       info.mac[3], info.mac[4], info.mac[5]);
	}
}
