/* SPDX-License-Identifier: GPL-2.0-only */
/* passthru_features_check: the ndo_features_check of drivers that accept every offload the device announced. */
#include <linux/netdevice.h>
#include <linux/skbuff.h>

/* passthru_features_check - @features unchanged: nothing to take away
 * for @skb on @dev. */
netdev_features_t passthru_features_check(struct sk_buff *skb,
					  struct net_device *dev,
					  netdev_features_t features)
{
	return features;
}
