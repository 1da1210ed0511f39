/* SPDX-License-Identifier: GPL-2.0-only */
/* struct net_device: allocation, registration (eth%d names, ifindex), hardware address, the rtnl lock. */
/*
 * What net/core/dev.c does for a driver, without sysfs, notifiers,
 * qdiscs or namespaces: one list of registered devices (lx_net_devices)
 * guarded by rtnl_lock(), a mutex.  Names with a '%d' get the lowest
 * number not taken; ifindex counts up from 1 and is never reused.  Features are
 * taken as the driver sets them (Linux recomputes them with
 * ndo_fix_features/ndo_set_features at registration; not done).  The
 * embedded struct device is not initialised (no device core for net
 * devices); dev.parent, set by SET_NETDEV_DEV, is what netdev_printk
 * reads.
 */
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/flow_dissector.h>
#include <net/pkt_sched.h>
#include <net/net_namespace.h>

#include <lx_host.h>
#include <lx_net.h>

/* The one network namespace (CONFIG_NET_NS is off: dev_net() is this). */
struct net init_net;

/*
 * Read by Linux's eth_get_headlen() (net/ethernet/eth.c) only together
 * with __skb_flow_dissect(), which is not implemented (a stub that
 * stops): never initialised.
 */
struct flow_dissector flow_keys_basic_dissector;

LIST_HEAD(lx_net_devices);
static int ifindex_last;

static DEFINE_MUTEX(rtnl_mutex);

void rtnl_lock(void)
{
	mutex_lock(&rtnl_mutex);
}

void rtnl_unlock(void)
{
	mutex_unlock(&rtnl_mutex);
}

int rtnl_is_locked(void)
{
	return mutex_is_locked(&rtnl_mutex);
}

/* What a fresh net_device holds before its driver's setup runs. */
static void netdev_defaults(struct net_device *dev)
{
	INIT_LIST_HEAD(&dev->mc.list);
	INIT_LIST_HEAD(&dev->uc.list);
	INIT_LIST_HEAD(&dev->napi_list);
	INIT_LIST_HEAD(&dev->unreg_list);
	INIT_LIST_HEAD(&dev->close_list);
	INIT_LIST_HEAD(&dev->link_watch_list);
	INIT_LIST_HEAD(&dev->adj_list.upper);
	INIT_LIST_HEAD(&dev->adj_list.lower);
	INIT_LIST_HEAD(&dev->ptype_all);
	INIT_LIST_HEAD(&dev->ptype_specific);
	INIT_LIST_HEAD(&dev->net_notifier_list);
	spin_lock_init(&dev->addr_list_lock);
	spin_lock_init(&dev->tx_global_lock);
	spin_lock_init(&dev->watchdog_lock);
	dev->gso_max_size = GSO_LEGACY_MAX_SIZE;
	dev->gso_max_segs = GSO_MAX_SEGS;
	dev->gro_max_size = GRO_LEGACY_MAX_SIZE;
	dev->tso_max_size = TSO_LEGACY_MAX_SIZE;
	dev->tso_max_segs = TSO_MAX_SEGS;
	dev->upper_level = 1;
	dev->lower_level = 1;
	dev->priv_flags = IFF_XMIT_DST_RELEASE | IFF_XMIT_DST_RELEASE_PERM;
	refcount_set(&dev->dev_refcnt, 1);
	lx_net_watchdog_init(dev);
}

/*
 * alloc_netdev_mqs - a zeroed net_device with @sizeof_priv private bytes
 * behind it (32-byte aligned, netdev_priv()), @txqs transmit queues,
 * named @name (may hold one %d), set up by @setup.  NULL if a count is 0
 * or too big, the name too long, or memory short.
 */
struct net_device *alloc_netdev_mqs(int sizeof_priv, const char *name,
				    unsigned char name_assign_type,
				    void (*setup)(struct net_device *),
				    unsigned int txqs, unsigned int rxqs)
{
	size_t size = sizeof(struct net_device);
	struct netdev_hw_addr *ha;
	struct net_device *dev;
	void *p;

	if (txqs < 1 || txqs > 0xffff || rxqs < 1 || sizeof_priv < 0 ||
	    strlen(name) >= IFNAMSIZ)
		return NULL;
	if (sizeof_priv)
		size = ALIGN(size, NETDEV_ALIGN) + sizeof_priv;
	p = kzalloc(size + NETDEV_ALIGN - 1, GFP_KERNEL);
	if (!p)
		return NULL;
	dev = PTR_ALIGN(p, NETDEV_ALIGN);
	dev->padded = (char *)dev - (char *)p;

	/* dev_addr points into the first entry of dev_addrs, as in Linux. */
	INIT_LIST_HEAD(&dev->dev_addrs.list);
	ha = kzalloc(sizeof(*ha), GFP_KERNEL);
	dev->_tx = kcalloc(txqs, sizeof(*dev->_tx), GFP_KERNEL);
	if (!ha || !dev->_tx)
		goto err_free;
	ha->type = NETDEV_HW_ADDR_T_LAN;
	ha->refcount = 1;
	list_add(&ha->list, &dev->dev_addrs.list);
	dev->dev_addrs.count = 1;
	dev->dev_addr = ha->addr;
	netdev_defaults(dev);
	setup(dev);
	if (!dev->tx_queue_len) {
		dev->priv_flags |= IFF_NO_QUEUE;
		dev->tx_queue_len = DEFAULT_TX_QUEUE_LEN;
	}
	dev->num_tx_queues = txqs;
	dev->real_num_tx_queues = txqs;
	for (unsigned int i = 0; i < txqs; i++) {
		spin_lock_init(&dev->_tx[i]._xmit_lock);
		dev->_tx[i].xmit_lock_owner = -1;
		dev->_tx[i].dev = dev;
	}
	dev->num_rx_queues = rxqs;	/* no struct netdev_rx_queue: no RPS */
	dev->real_num_rx_queues = rxqs;
	strcpy(dev->name, name);
	dev->name_assign_type = name_assign_type;
	return dev;

err_free:
	kfree(ha);
	kfree(dev->_tx);
	kfree(p);
	return NULL;
}

/*
 * free_netdev - free a device that was never registered or has been
 * unregistered, with its NAPI contexts.  A registered device is not
 * freed (a bug: reported, kept).
 */
void free_netdev(struct net_device *dev)
{
	struct napi_struct *napi, *next;
	struct netdev_hw_addr *ha, *tmp;

	if (dev->reg_state != NETREG_UNINITIALIZED &&
	    dev->reg_state != NETREG_UNREGISTERED) {
		pr_err("linux-emu: free_netdev(%s): still registered; not freed\n",
		       dev->name);
		return;
	}
	lx_net_watchdog_down(dev);
	list_for_each_entry_safe(napi, next, &dev->napi_list, dev_list)
		__netif_napi_del(napi);
	list_for_each_entry_safe(ha, tmp, &dev->dev_addrs.list, list)
		kfree(ha);
	kfree(dev->_tx);
	dev->reg_state = NETREG_RELEASED;
	kfree((char *)dev - dev->padded);
}

/* The lowest free number for the %d in @dev's name, or -ENFILE. */
static int name_number_free(struct net_device *dev)
{
	unsigned long used[BITS_TO_LONGS(256)] = { 0 };
	struct net_device *d;
	char buf[IFNAMSIZ];
	int n;

	list_for_each_entry(d, &lx_net_devices, dev_list) {
		if (sscanf(d->name, dev->name, &n) != 1 || n < 0 || n >= 256)
			continue;
		snprintf(buf, sizeof(buf), dev->name, n);
		if (!strcmp(buf, d->name))
			__set_bit(n, used);
	}
	n = find_first_zero_bit(used, 256);
	return n < 256 ? n : -ENFILE;
}

static bool name_taken(const char *name)
{
	struct net_device *d;

	list_for_each_entry(d, &lx_net_devices, dev_list)
		if (!strcmp(d->name, name))
			return true;
	return false;
}

static int name_assign(struct net_device *dev)
{
	const char *pct = strchr(dev->name, '%');
	char buf[IFNAMSIZ];
	int n;

	if (!pct)
		return name_taken(dev->name) ? -EEXIST : 0;
	if (pct[1] != 'd' || strchr(pct + 1, '%'))
		return -EINVAL;
	n = name_number_free(dev);
	if (n < 0)
		return n;
	snprintf(buf, sizeof(buf), dev->name, n);
	strscpy(dev->name, buf, IFNAMSIZ);
	return 0;
}

/* Undo a registration: the chain told, @dev off the list, absent,
 * ndo_uninit run.  rtnl held. */
static void forget(struct net_device *dev)
{
	call_netdevice_notifiers(NETDEV_UNREGISTER, dev);
	list_del(&dev->dev_list);
	clear_bit(__LINK_STATE_PRESENT, &dev->state);
	if (dev->netdev_ops->ndo_uninit)
		dev->netdev_ops->ndo_uninit(dev);
}

/*
 * register_netdevice - make @dev known: its name gets its number,
 * ndo_init runs (if set), it gets an ifindex and is present, and the
 * netdevice chain is told (NETDEV_REGISTER).  Caller holds rtnl_lock.
 * 0; -EINVAL (already registered, no netdev_ops, bad name); -EEXIST
 * (name taken); -ENFILE (no number left); ndo_init's error (-EIO for a
 * positive one); a notifier's error (the registration undone).
 */
int register_netdevice(struct net_device *dev)
{
	int err;

	if (dev->reg_state != NETREG_UNINITIALIZED || !dev->netdev_ops)
		return -EINVAL;
	err = name_assign(dev);
	if (err)
		return err;
	if (dev->netdev_ops->ndo_init) {
		err = dev->netdev_ops->ndo_init(dev);
		if (err)
			return err > 0 ? -EIO : err;
	}
	dev->ifindex = ++ifindex_last;
	dev->wanted_features = dev->features & dev->hw_features;
	set_bit(__LINK_STATE_PRESENT, &dev->state);
	dev->operstate = IF_OPER_UNKNOWN;
	list_add_tail(&dev->dev_list, &lx_net_devices);
	dev->reg_state = NETREG_REGISTERED;
	err = call_netdevice_notifiers(NETDEV_REGISTER, dev);
	if (err) {
		/* As Linux: a notifier's refusal undoes the registration. */
		forget(dev);
		dev->reg_state = NETREG_UNINITIALIZED;
	}
	return err;
}

/* register_netdev - register_netdevice under rtnl_lock (taken here). */
int register_netdev(struct net_device *dev)
{
	int err;

	rtnl_lock();
	err = register_netdevice(dev);
	rtnl_unlock();
	return err;
}

/* unregister_netdev - close @dev if open (ndo_stop), forget it, run
 * ndo_uninit.  Takes rtnl_lock.  Registered devices only. */
void unregister_netdev(struct net_device *dev)
{
	rtnl_lock();
	if (dev->reg_state != NETREG_REGISTERED) {
		pr_err("linux-emu: unregister_netdev(%s): not registered\n",
		       dev->name);
		goto out;
	}
	if (dev->flags & IFF_UP)
		lx_net_close(dev);
	dev->reg_state = NETREG_UNREGISTERING;
	forget(dev);
	dev->reg_state = NETREG_UNREGISTERED;
out:
	rtnl_unlock();
}

/* dev_addr_mod - write @len bytes of @dev's hardware address from
 * @offset (eth_hw_addr_set() and dev_addr_set() end here). */
void dev_addr_mod(struct net_device *dev, unsigned int offset,
		  const void *addr, size_t len)
{
	if (offset + len > MAX_ADDR_LEN) {
		pr_err("linux-emu: dev_addr_mod(%s): %zu bytes at %u do not fit\n",
		       dev->name, len, offset);
		return;
	}
	memcpy((u8 *)dev->dev_addr + offset, addr, len);
}
