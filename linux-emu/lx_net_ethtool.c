/* SPDX-License-Identifier: GPL-2.0-only */
/* The ethtool helpers drivers reference: software time stamping info, legacy link mode masks, the link state, the PHY library's operations. */
/*
 * Linux keeps them in net/ethtool/ioctl.c, the whole ethtool ioctl,
 * which is not compiled (there is no ethtool interface to the host yet).
 */
#include <linux/ethtool.h>
#include <linux/net_tstamp.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>

/* ethtool_op_get_ts_info - software receive and transmit time stamps,
 * no hardware clock. */
int ethtool_op_get_ts_info(struct net_device *dev, struct ethtool_ts_info *info)
{
	info->so_timestamping = SOF_TIMESTAMPING_TX_SOFTWARE |
				SOF_TIMESTAMPING_RX_SOFTWARE |
				SOF_TIMESTAMPING_SOFTWARE;
	info->phc_index = -1;
	return 0;
}

/* ethtool's legacy 32-bit link mode masks, to and from the bitmaps. */
void ethtool_convert_legacy_u32_to_link_mode(unsigned long *dst,
					     u32 legacy_u32)
{
	bitmap_zero(dst, __ETHTOOL_LINK_MODE_MASK_NBITS);
	dst[0] = legacy_u32;
}

/* false if a mode outside the 32 legacy bits is set (it is dropped). */
bool ethtool_convert_link_mode_to_legacy_u32(u32 *legacy_u32,
					     const unsigned long *src)
{
	bool fits = find_next_bit(src, __ETHTOOL_LINK_MODE_MASK_NBITS, 32) ==
		    __ETHTOOL_LINK_MODE_MASK_NBITS;

	*legacy_u32 = src[0];
	return fits;
}

/* ethtool_op_get_link - 1 if @dev has a carrier, else 0. */
u32 ethtool_op_get_link(struct net_device *dev)
{
	return netif_carrier_ok(dev) ? 1 : 0;
}

/* What the PHY library offers ethtool's netlink requests (cable tests);
 * set by phylib's init.  No ethtool interface reads it yet. */
const struct ethtool_phy_ops *ethtool_phy_ops;

/* ethtool_set_ethtool_phy_ops - make @ops (NULL: none) the PHY library's
 * operations.  Takes the rtnl lock. */
void ethtool_set_ethtool_phy_ops(const struct ethtool_phy_ops *ops)
{
	rtnl_lock();
	ethtool_phy_ops = ops;
	rtnl_unlock();
}
