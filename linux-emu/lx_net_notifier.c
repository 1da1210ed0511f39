/* SPDX-License-Identifier: GPL-2.0-only */
/* The network event chains: register_netdevice_notifier, call_netdevice_notifiers, the inetaddr, inet6addr and netevent chains. */
/*
 * Net devices' events go to the netdevice chain as in Linux (under the
 * rtnl lock): NETDEV_REGISTER and NETDEV_UNREGISTER from
 * lx_net_device.c, NETDEV_PRE_UP, NETDEV_UP, NETDEV_GOING_DOWN and
 * NETDEV_DOWN from lx_net_emul.c's open and close; a notifier
 * registered late is told of the devices already there, one
 * unregistered of their going.  The address and neighbour chains take
 * their notifiers but nothing calls them: the world has no IPv4 or IPv6
 * stack, so no address is ever added or removed and no neighbour
 * changes, as in a Linux where none is configured.
 */
#include <linux/inetdevice.h>
#include <linux/netdevice.h>
#include <linux/notifier.h>
#include <linux/rtnetlink.h>
#include <net/addrconf.h>
#include <net/netevent.h>

#include <lx_net.h>

static RAW_NOTIFIER_HEAD(netdev_chain);
static BLOCKING_NOTIFIER_HEAD(inetaddr_chain);
static ATOMIC_NOTIFIER_HEAD(inet6addr_chain);
static ATOMIC_NOTIFIER_HEAD(netevent_notif_chain);

static int call_one(struct notifier_block *nb, unsigned long val,
		    struct net_device *dev)
{
	struct netdev_notifier_info info = { .dev = dev };

	return notifier_to_errno(nb->notifier_call(nb, val, &info));
}

/* call_netdevice_notifiers - tell the netdevice chain @val about @dev;
 * the first notifier's error (-errno) stops it, else 0.  rtnl held. */
int call_netdevice_notifiers(unsigned long val, struct net_device *dev)
{
	struct netdev_notifier_info info = { .dev = dev };

	return notifier_to_errno(raw_notifier_call_chain(&netdev_chain, val,
							 &info));
}

/* @dev going away, for @nb alone: down first if it is up. */
static void tell_gone(struct notifier_block *nb, struct net_device *dev)
{
	if (dev->flags & IFF_UP) {
		call_one(nb, NETDEV_GOING_DOWN, dev);
		call_one(nb, NETDEV_DOWN, dev);
	}
	call_one(nb, NETDEV_UNREGISTER, dev);
}

/*
 * register_netdevice_notifier - add @nb to the netdevice chain and tell
 * it of every registered device (NETDEV_REGISTER, then NETDEV_UP if
 * up).  0; -EEXIST if @nb is on it; a notifier's error, @nb then
 * removed and told of the devices' going.  Takes the rtnl lock.
 */
int register_netdevice_notifier(struct notifier_block *nb)
{
	struct net_device *dev, *last;
	int err;

	rtnl_lock();
	err = raw_notifier_chain_register(&netdev_chain, nb);
	if (err)
		goto out;
	list_for_each_entry(dev, &lx_net_devices, dev_list) {
		err = call_one(nb, NETDEV_REGISTER, dev);
		if (!err && (dev->flags & IFF_UP))
			err = call_one(nb, NETDEV_UP, dev);
		if (err)
			goto rollback;
	}
	goto out;
rollback:
	last = dev;
	list_for_each_entry(dev, &lx_net_devices, dev_list) {
		if (dev == last)
			break;
		tell_gone(nb, dev);
	}
	raw_notifier_chain_unregister(&netdev_chain, nb);
out:
	rtnl_unlock();
	return err;
}

/* unregister_netdevice_notifier - tell @nb of every device's going, then
 * remove it.  0; -ENOENT if it is not on the chain.  Takes the rtnl
 * lock. */
int unregister_netdevice_notifier(struct notifier_block *nb)
{
	struct net_device *dev;
	int err;

	rtnl_lock();
	err = raw_notifier_chain_unregister(&netdev_chain, nb);
	if (!err)
		list_for_each_entry(dev, &lx_net_devices, dev_list)
			tell_gone(nb, dev);
	rtnl_unlock();
	return err;
}

/* register_inetaddr_notifier, unregister_inetaddr_notifier - IPv4
 * address events (never any): 0, -EEXIST or -ENOENT. */
int register_inetaddr_notifier(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&inetaddr_chain, nb);
}

int unregister_inetaddr_notifier(struct notifier_block *nb)
{
	return blocking_notifier_chain_unregister(&inetaddr_chain, nb);
}

/* register_inet6addr_notifier, unregister_inet6addr_notifier - IPv6
 * address events (never any). */
int register_inet6addr_notifier(struct notifier_block *nb)
{
	return atomic_notifier_chain_register(&inet6addr_chain, nb);
}

int unregister_inet6addr_notifier(struct notifier_block *nb)
{
	return atomic_notifier_chain_unregister(&inet6addr_chain, nb);
}

/* register_netevent_notifier, unregister_netevent_notifier - neighbour
 * and redirect events (never any). */
int register_netevent_notifier(struct notifier_block *nb)
{
	return atomic_notifier_chain_register(&netevent_notif_chain, nb);
}

int unregister_netevent_notifier(struct notifier_block *nb)
{
	return atomic_notifier_chain_unregister(&netevent_notif_chain, nb);
}
