/* SPDX-License-Identifier: GPL-2.0-only */
/* passthru_features_check: the ndo_features_check of drivers that accept every offload the device announced; netif_set_tso_max_size/_segs: the largest segmentation offload a device takes. */
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

/* netif_set_tso_max_size - @dev segments packets of at most @size bytes
 * (GSO_MAX_SIZE at most); the stack's GSO size is lowered to it. */
void netif_set_tso_max_size(struct net_device *dev, unsigned int size)
{
	dev->tso_max_size = min_t(unsigned int, GSO_MAX_SIZE, size);
	if (size < READ_ONCE(dev->gso_max_size))
		WRITE_ONCE(dev->gso_max_size, size);
}

/* netif_set_tso_max_segs - @dev makes at most @segs segments of one
 * packet; the stack's GSO segment count is lowered to it. */
void netif_set_tso_max_segs(struct net_device *dev, unsigned int segs)
{
	dev->tso_max_segs = segs;
	if (segs < READ_ONCE(dev->gso_max_segs))
		WRITE_ONCE(dev->gso_max_segs, segs);
}
