/* SPDX-License-Identifier: GPL-2.0-only */
/* PHY cable test reports, which need ethtool's netlink: ethnl_cable_test_alloc, _free, _finished, _result, _fault_length, _amplitude, _pulse, _step. */
/*
 * Linux sends a cable test's results to user space as ethtool netlink
 * notifications.  Graft has no netlink, so no message can be built:
 * every call answers as Linux built without ETHTOOL_NETLINK does,
 * -EOPNOTSUPP, and phylib's cable test gives up.  No message was ever
 * made, so freeing and finishing have nothing to do.
 */
#include <linux/errno.h>
#include <linux/ethtool_netlink.h>

int ethnl_cable_test_alloc(struct phy_device *phydev, u8 cmd)
{
	return -EOPNOTSUPP;
}

void ethnl_cable_test_free(struct phy_device *phydev)
{
}

void ethnl_cable_test_finished(struct phy_device *phydev)
{
}

int ethnl_cable_test_result(struct phy_device *phydev, u8 pair, u8 result)
{
	return -EOPNOTSUPP;
}

int ethnl_cable_test_fault_length(struct phy_device *phydev, u8 pair, u32 cm)
{
	return -EOPNOTSUPP;
}

int ethnl_cable_test_amplitude(struct phy_device *phydev, u8 pair, s16 mV)
{
	return -EOPNOTSUPP;
}

int ethnl_cable_test_pulse(struct phy_device *phydev, u16 mV)
{
	return -EOPNOTSUPP;
}

int ethnl_cable_test_step(struct phy_device *phydev, u32 first, u32 last,
			  u32 step)
{
	return -EOPNOTSUPP;
}
