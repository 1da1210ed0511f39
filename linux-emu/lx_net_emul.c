/* SPDX-License-Identifier: GPL-2.0-only */
/* The host's view of the Linux net devices: enumerate, open, close, transmit, receive (lx_emul_net*). */
/*
 * A struct lx_emul_netdev * is a registered struct net_device *; every
 * entry point checks that it is on lx_net_devices before use.  Transmit
 * copies the frame into an skb and calls ndo_start_xmit with the
 * queue's xmit lock held and bottom halves disabled, as Linux's
 * dev_queue_xmit does (without qdisc: a stopped queue is the host's
 * -EBUSY).  The skb's destructor reports tx_done to the host; its cookie
 * lives in skb_shinfo()->destructor_arg, which only zero-copy sockets
 * use.  The host serialises transmit against close and unregister of
 * the same device (the rtnl lock is not held across ndo_start_xmit; in
 * Linux RCU keeps the device alive instead).  lx_emul_netdev_xmit_now
 * is the same transmit for a host path that must not block: it holds
 * the world only if it is free (lx_world_try_enter, interrupts off) and
 * answers -EAGAIN otherwise, and -ENOLINK without a carrier
 * (lx_emul_netdev_set_rx_flags_now is the same for receive modes).  Transmit
 * heads are sized for a full frame and reused (tx_heads).  Receive:
 * lx_net_deliver() gives every frame a driver passed up to the host's rx
 * callback, whole (from the MAC header), then frees it.
 */
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>

#include <lx_emul.h>
#include <lx_net.h>
#include <lx_net_probe.h>
#include <lx_world.h>

#define LX_NET_RX_FLAGS	(IFF_PROMISC | IFF_ALLMULTI)

static struct lx_emul_net_callbacks host;

static struct lx_emul_netdev *handle(struct net_device *dev)
{
	return (struct lx_emul_netdev *)dev;
}

/* The registered device behind @h, or NULL; rtnl held. */
static struct net_device *registered(struct lx_emul_netdev *h)
{
	struct net_device *dev;

	list_for_each_entry(dev, &lx_net_devices, dev_list)
		if (handle(dev) == h)
			return dev;
	return NULL;
}

static void in_set_callbacks(const struct lx_emul_net_callbacks *cb)
{
	unsigned long flags;

	local_irq_save(flags);
	if (cb)
		host = *cb;
	else
		memset(&host, 0, sizeof(host));
	local_irq_restore(flags);
}

static struct lx_emul_netdev *in_next(struct lx_emul_netdev *prev)
{
	struct net_device *dev, *next = NULL;

	rtnl_lock();
	dev = prev ? registered(prev) : NULL;
	if (!prev && !list_empty(&lx_net_devices))
		next = list_first_entry(&lx_net_devices, struct net_device,
					dev_list);
	else if (dev && !list_is_last(&dev->dev_list, &lx_net_devices))
		next = list_next_entry(dev, dev_list);
	rtnl_unlock();
	return next ? handle(next) : NULL;
}

static struct lx_emul_netdev *in_find(const char *name)
{
	struct net_device *dev, *found = NULL;

	rtnl_lock();
	list_for_each_entry(dev, &lx_net_devices, dev_list)
		if (!strncmp(dev->name, name, IFNAMSIZ))
			found = dev;
	rtnl_unlock();
	return found ? handle(found) : NULL;
}

static int in_info(struct lx_emul_netdev *h,
		   struct lx_emul_netdev_info *info)
{
	struct net_device *dev;

	rtnl_lock();
	dev = registered(h);
	if (dev) {
		memset(info, 0, sizeof(*info));
		strscpy(info->name, dev->name, sizeof(info->name));
		memcpy(info->mac, dev->dev_addr, ETH_ALEN);
		info->mtu = dev->mtu;
		info->ifindex = dev->ifindex;
		info->flags = dev->flags;
		info->up = !!(dev->flags & IFF_UP);
		info->carrier = netif_carrier_ok(dev);
		info->queue_stopped = netif_queue_stopped(dev);
		info->irq = dev->irq;
		if (dev->dev.parent)
			strscpy(info->driver,
				dev_driver_string(dev->dev.parent),
				sizeof(info->driver));
	}
	rtnl_unlock();
	return dev ? 0 : -ENODEV;
}

/*
 * Transmit heads: each the linear room of a full frame of its device
 * (tx_room), whatever the frame's length, so that every transmit head of
 * a device is the same kmalloc size.  When the driver frees a transmit
 * skb, its destructor (tx_done) keeps the head for the next frame if the
 * cache has room: it takes a reference on the data, so freeing the skb
 * leaves the head alone.  Frames of every length then reuse heads
 * instead of a kmalloc and kfree each (for full frames, a heap page
 * taken and given back each time).  TX_HEADS holds what e1000 frees at
 * one transmit-done interrupt under a stream of small frames.
 * Interrupts off guard the cache (tx_done may run in the driver's
 * interrupt handler).
 */
#define TX_HEADS	64

static struct {
	void *head[TX_HEADS];
	unsigned int room[TX_HEADS];
	unsigned int n;
} tx_heads;

static unsigned int tx_room(struct net_device *dev)
{
	return SKB_DATA_ALIGN(LL_RESERVED_SPACE(dev) + dev->mtu +
			      dev->hard_header_len + dev->needed_tailroom);
}

/* A cached head of @room bytes, or NULL. */
static void *tx_head_take(unsigned int room)
{
	unsigned long flags;
	void *head = NULL;

	local_irq_save(flags);
	for (unsigned int i = tx_heads.n; i-- > 0;) {
		if (tx_heads.room[i] == room) {
			head = tx_heads.head[i];
			tx_heads.n--;
			tx_heads.head[i] = tx_heads.head[tx_heads.n];
			tx_heads.room[i] = tx_heads.room[tx_heads.n];
			break;
		}
	}
	local_irq_restore(flags);
	return head;
}

/* Keep @skb's head (a transmit head, about to be freed with it) if
 * there is room: the skb's free then leaves the head alone. */
static void tx_head_keep(struct sk_buff *skb)
{
	unsigned long flags;

	if (skb->head_frag || skb_shinfo(skb)->nr_frags ||
	    skb_shinfo(skb)->frag_list ||
	    skb_end_offset(skb) != tx_room(skb->dev))
		return;		/* the driver changed it: not ours */
	local_irq_save(flags);
	if (tx_heads.n < TX_HEADS &&
	    atomic_read(&skb_shinfo(skb)->dataref) == 1) {
		atomic_inc(&skb_shinfo(skb)->dataref);
		tx_heads.head[tx_heads.n] = skb->head;
		tx_heads.room[tx_heads.n++] = skb_end_offset(skb);
	}
	local_irq_restore(flags);
}

/* Free every cached head (a device went down: its skbs came back). */
static void tx_heads_drain(void)
{
	unsigned long flags;
	void *head;

	for (;;) {
		local_irq_save(flags);
		head = tx_heads.n ? tx_heads.head[--tx_heads.n] : NULL;
		local_irq_restore(flags);
		if (!head)
			return;
		kfree(head);
	}
}

/* dev_open: rtnl held. */
int lx_net_open(struct net_device *dev)
{
	const struct net_device_ops *ops = dev->netdev_ops;
	int err = 0;

	if (dev->flags & IFF_UP)
		return 0;
	if (!netif_device_present(dev))
		return -ENODEV;
	err = call_netdevice_notifiers(NETDEV_PRE_UP, dev);
	if (err)
		return err;
	set_bit(__LINK_STATE_START, &dev->state);
	if (ops->ndo_validate_addr)
		err = ops->ndo_validate_addr(dev);
	if (!err && ops->ndo_open)
		err = ops->ndo_open(dev);
	if (err) {
		clear_bit(__LINK_STATE_START, &dev->state);
		return err;
	}
	dev->flags |= IFF_UP;
	if (ops->ndo_set_rx_mode) {
		netif_addr_lock(dev);
		ops->ndo_set_rx_mode(dev);
		netif_addr_unlock(dev);
	}
	lx_net_watchdog_up(dev);
	call_netdevice_notifiers(NETDEV_UP, dev);
	return 0;
}

/* dev_close: rtnl held.  The transmit heads kept go back to the heap
 * (the driver gave its skbs back in ndo_stop). */
void lx_net_close(struct net_device *dev)
{
	if (!(dev->flags & IFF_UP))
		return;
	call_netdevice_notifiers(NETDEV_GOING_DOWN, dev);
	clear_bit(__LINK_STATE_START, &dev->state);
	lx_net_watchdog_down(dev);
	if (dev->netdev_ops->ndo_stop)
		dev->netdev_ops->ndo_stop(dev);
	dev->flags &= ~IFF_UP;
	call_netdevice_notifiers(NETDEV_DOWN, dev);
	tx_heads_drain();
}

/* dev_close - a driver closing its own device: ndo_stop if it is up.
 * Caller holds the rtnl lock. */
void dev_close(struct net_device *dev)
{
	lx_net_close(dev);
}

static int in_open(struct lx_emul_netdev *h)
{
	struct net_device *dev;
	int err;

	rtnl_lock();
	dev = registered(h);
	err = dev ? lx_net_open(dev) : -ENODEV;
	rtnl_unlock();
	return err;
}

static int in_close(struct lx_emul_netdev *h)
{
	struct net_device *dev;

	rtnl_lock();
	dev = registered(h);
	if (dev)
		lx_net_close(dev);
	rtnl_unlock();
	return dev ? 0 : -ENODEV;
}

static void tx_done(struct sk_buff *skb)
{
	void (*done)(struct lx_emul_netdev *, void *) = READ_ONCE(host.tx_done);

	lx_net_probe(LX_EMUL_NET_PROBE_TX_DONE);
	if (done)
		done(handle(skb->dev), skb_shinfo(skb)->destructor_arg);
	tx_head_keep(skb);
}

/* An skb holding a copy of @frame, ready for @dev's ndo_start_xmit. */
static struct sk_buff *tx_skb(struct net_device *dev, const void *frame,
			      unsigned long len, void *cookie)
{
	unsigned int room = tx_room(dev);
	struct sk_buff *skb;
	void *head = tx_head_take(room);

	if (!head)
		head = kmalloc(room +
			       SKB_DATA_ALIGN(sizeof(struct skb_shared_info)),
			       GFP_ATOMIC);
	if (!head)
		return NULL;
	skb = lx_skb_build(head, room, GFP_ATOMIC);
	if (!skb) {
		kfree(head);
		return NULL;
	}
	skb_reserve(skb, LL_RESERVED_SPACE(dev));
	lx_net_probe(LX_EMUL_NET_PROBE_TX_COPY);
	/* skb_put_data's memcpy would be expanded inline a byte a step. */
	__memcpy(skb_put(skb, len), frame, len);
	lx_net_probe(LX_EMUL_NET_PROBE_TX_COPIED);
	skb->dev = dev;
	skb_reset_mac_header(skb);
	skb_set_network_header(skb, ETH_HLEN);
	skb->protocol = eth_hdr(skb)->h_proto;
	skb->ip_summed = CHECKSUM_NONE;
	skb_shinfo(skb)->destructor_arg = cookie;
	skb->destructor = tx_done;
	return skb;
}

/* Whether @dev (NULL: not registered) may send a @len-byte frame now:
 * 0 or the error of lx_emul_netdev_xmit.  rtnl held. */
static int xmit_check(struct net_device *dev, unsigned long len)
{
	if (!dev)
		return -ENODEV;
	if (!netif_running(dev) || !netif_device_present(dev))
		return -ENETDOWN;
	if (len < ETH_HLEN)
		return -EINVAL;
	if (len > dev->mtu + dev->hard_header_len)
		return -EMSGSIZE;
	if (netif_xmit_stopped(netdev_get_tx_queue(dev, 0)))
		return -EBUSY;
	return 0;
}

/* Hand @skb to the driver as dev_queue_xmit would: NETDEV_TX_OK (the
 * driver owns it) or NETDEV_TX_BUSY (the caller still does). */
static netdev_tx_t start_xmit(struct net_device *dev, struct sk_buff *skb)
{
	struct netdev_queue *txq = netdev_get_tx_queue(dev, 0);
	netdev_tx_t rc = NETDEV_TX_BUSY;

	local_bh_disable();
	__netif_tx_lock(txq, smp_processor_id());
	if (!netif_xmit_frozen_or_stopped(txq)) {
		lx_net_probe(LX_EMUL_NET_PROBE_TX_DRIVER);
		rc = dev->netdev_ops->ndo_start_xmit(skb, dev);
		if (rc == NETDEV_TX_OK)
			txq_trans_update(txq);
	}
	__netif_tx_unlock(txq);
	local_bh_enable();	/* runs what the driver raised */
	return rc;
}

/* Send @frame on @dev, which passed xmit_check: 0, -ENOMEM or -EBUSY. */
static int xmit_send(struct net_device *dev, const void *frame,
		     unsigned long len, void *cookie)
{
	struct sk_buff *skb;
	int err = 0;

	skb = tx_skb(dev, frame, len, cookie);
	if (!skb)
		return -ENOMEM;
	if (start_xmit(dev, skb) == NETDEV_TX_BUSY) {
		skb->destructor = NULL;		/* not taken: no tx_done */
		kfree_skb(skb);
		err = -EBUSY;
	}
	return err;
}

static int in_xmit(struct lx_emul_netdev *h, const void *frame,
		   unsigned long len, void *cookie)
{
	struct net_device *dev;
	int err;

	rtnl_lock();
	dev = registered(h);
	err = xmit_check(dev, len);
	rtnl_unlock();
	return err ? err : xmit_send(dev, frame, len, cookie);
}

/*
 * lx_emul_netdev_xmit_now's work, holding the world with interrupts off
 * (noinline: current changed just before, lx_world.h).  The rtnl lock
 * free means nobody changes the device list while this runs: only world
 * holders take it, and this one neither sleeps nor lets the world go.
 */
static noinline int in_xmit_now(struct lx_emul_netdev *h, const void *frame,
				unsigned long len, void *cookie)
{
	struct net_device *dev;
	int err;

	if (rtnl_is_locked())
		return -EAGAIN;
	dev = registered(h);
	err = xmit_check(dev, len);
	if (!err && !netif_carrier_ok(dev))
		err = -ENOLINK;
	return err ? err : xmit_send(dev, frame, len, cookie);
}

/*
 * Receive modes, as Linux's dev_change_flags sets them for the
 * IFF_PROMISC and IFF_ALLMULTI bits the host asks for (rtnl held): the
 * bit in dev->flags and dev->gflags, the driver's ndo_change_rx_flags
 * for a change, then __dev_set_rx_mode's call of ndo_set_rx_mode under
 * the address lock with bottom halves off (only while the device is up
 * and present: lx_net_open calls it again).  The device's unicast and
 * multicast lists stay empty.  Returns the new dev->flags.
 */
static int rx_flags_set(struct net_device *dev, unsigned int want)
{
	const struct net_device_ops *ops = dev->netdev_ops;
	unsigned int old = dev->flags, change;

	dev->flags = (dev->flags & ~LX_NET_RX_FLAGS) | want;
	dev->gflags = (dev->gflags & ~LX_NET_RX_FLAGS) | want;
	change = (old ^ dev->flags) & LX_NET_RX_FLAGS;
	if (change & IFF_PROMISC)
		netdev_info(dev, "%s promiscuous mode\n",
			    want & IFF_PROMISC ? "entered" : "left");
	for (unsigned int bit = IFF_PROMISC; bit <= IFF_ALLMULTI; bit <<= 1)
		if ((change & bit) && ops->ndo_change_rx_flags &&
		    (dev->flags & IFF_UP))
			ops->ndo_change_rx_flags(dev, bit);
	if ((dev->flags & IFF_UP) && netif_device_present(dev) &&
	    ops->ndo_set_rx_mode) {
		netif_addr_lock_bh(dev);
		ops->ndo_set_rx_mode(dev);
		netif_addr_unlock_bh(dev);
	}
	return dev->flags;
}

static int in_set_rx_flags(struct lx_emul_netdev *h, unsigned int want)
{
	struct net_device *dev;
	int ret;

	rtnl_lock();
	dev = registered(h);
	ret = dev ? rx_flags_set(dev, want) : -ENODEV;
	rtnl_unlock();
	return ret;
}

/* lx_emul_netdev_set_rx_flags_now's work (noinline: see in_xmit_now). */
static noinline int in_set_rx_flags_now(struct lx_emul_netdev *h,
					unsigned int want)
{
	struct net_device *dev;

	if (rtnl_is_locked())
		return -EAGAIN;
	dev = registered(h);
	return dev ? rx_flags_set(dev, want) : -ENODEV;
}

void lx_net_queue_woken(struct net_device *dev)
{
	void (*wake)(struct lx_emul_netdev *) = READ_ONCE(host.tx_wake);

	if (wake)
		wake(handle(dev));
}

int lx_net_deliver(struct sk_buff *skb)
{
	void (*rx)(struct lx_emul_netdev *, const void *, unsigned long) =
		READ_ONCE(host.rx);
	const u8 *mac;

	lx_net_probe(LX_EMUL_NET_PROBE_RX_HANDOVER);
	if (!rx || !skb->dev ||
	    (skb_is_nonlinear(skb) && skb_linearize(skb))) {
		kfree_skb(skb);
		return NET_RX_DROP;
	}
	mac = skb_mac_header_was_set(skb) ? skb_mac_header(skb) : skb->data;
	rx(handle(skb->dev), mac, skb_tail_pointer(skb) - mac);
	consume_skb(skb);
	return NET_RX_SUCCESS;
}

/* The entry points hold the Linux world around their work (lx_world.h). */
void lx_emul_net_set_callbacks(const struct lx_emul_net_callbacks *cb)
{
	lx_world_enter();
	in_set_callbacks(cb);
	lx_world_leave();
}

struct lx_emul_netdev *lx_emul_netdev_next(struct lx_emul_netdev *prev)
{
	struct lx_emul_netdev *next;

	lx_world_enter();
	next = in_next(prev);
	lx_world_leave();
	return next;
}

struct lx_emul_netdev *lx_emul_netdev_find(const char *name)
{
	struct lx_emul_netdev *found;

	lx_world_enter();
	found = in_find(name);
	lx_world_leave();
	return found;
}

int lx_emul_netdev_info(struct lx_emul_netdev *h,
			struct lx_emul_netdev_info *info)
{
	int err;

	lx_world_enter();
	err = in_info(h, info);
	lx_world_leave();
	return err;
}

/* No lock: the counters are words the driver adds to (interrupts off
 * in the kernel make the read whole; the host's contract keeps @h
 * registered). */
/* The host's own task on a path that must not block (the _now calls). */
static struct task_struct now_task = { .comm = "lx-now" };

/* Linux's net_device_stats counters in its 64-bit form. */
static void stats_widen(struct rtnl_link_stats64 *s,
			const struct net_device_stats *n)
{
	s->rx_packets = READ_ONCE(n->rx_packets);
	s->tx_packets = READ_ONCE(n->tx_packets);
	s->rx_bytes = READ_ONCE(n->rx_bytes);
	s->tx_bytes = READ_ONCE(n->tx_bytes);
	s->rx_errors = READ_ONCE(n->rx_errors);
	s->tx_errors = READ_ONCE(n->tx_errors);
	s->rx_dropped = READ_ONCE(n->rx_dropped);
	s->tx_dropped = READ_ONCE(n->tx_dropped);
}

/* @dev's counters from its driver (the world held, interrupts off). */
static void stats_from_driver(struct net_device *dev,
			      struct rtnl_link_stats64 *s)
{
	const struct net_device_ops *ops = dev->netdev_ops;

	if (ops->ndo_get_stats64)
		ops->ndo_get_stats64(dev, s);
	else if (ops->ndo_get_stats)
		stats_widen(s, ops->ndo_get_stats(dev));
	else
		stats_widen(s, &dev->stats);
}

void lx_emul_netdev_counters(struct lx_emul_netdev *h,
			     struct lx_emul_netdev_counters *c)
{
	struct net_device *dev = (struct net_device *)h;
	struct rtnl_link_stats64 s;
	unsigned long flags;

	memset(&s, 0, sizeof(s));
	local_irq_save(flags);
	if (lx_world_held()) {
		stats_from_driver(dev, &s);
	} else if (lx_world_try_enter(&now_task)) {
		stats_from_driver(dev, &s);
		lx_world_try_leave();
	} else {
		stats_widen(&s, &dev->stats);
	}
	local_irq_restore(flags);
	c->rx_packets = s.rx_packets;
	c->tx_packets = s.tx_packets;
	c->rx_bytes = s.rx_bytes;
	c->tx_bytes = s.tx_bytes;
	c->rx_errors = s.rx_errors;
	c->tx_errors = s.tx_errors;
	c->rx_dropped = s.rx_dropped;
	c->tx_dropped = s.tx_dropped;
}

int lx_emul_netdev_open(struct lx_emul_netdev *h)
{
	int err;

	lx_world_enter();
	err = in_open(h);
	lx_world_leave();
	return err;
}

int lx_emul_netdev_close(struct lx_emul_netdev *h)
{
	int err;

	lx_world_enter();
	err = in_close(h);
	lx_world_leave();
	return err;
}

int lx_emul_netdev_xmit(struct lx_emul_netdev *h, const void *frame,
			unsigned long len, void *cookie)
{
	int err;

	lx_world_enter();
	err = in_xmit(h, frame, len, cookie);
	lx_world_leave();
	return err;
}


int lx_emul_netdev_xmit_now(struct lx_emul_netdev *h, const void *frame,
			    unsigned long len, void *cookie)
{
	unsigned long flags;
	int err = -EAGAIN;

	local_irq_save(flags);
	if (lx_world_try_enter(&now_task)) {
		err = in_xmit_now(h, frame, len, cookie);
		lx_world_try_leave();
	}
	local_irq_restore(flags);
	return err;
}

int lx_emul_netdev_set_rx_flags(struct lx_emul_netdev *h, unsigned int flags)
{
	int ret;

	if (flags & ~LX_NET_RX_FLAGS)
		return -EINVAL;
	lx_world_enter();
	ret = in_set_rx_flags(h, flags);
	lx_world_leave();
	return ret;
}

int lx_emul_netdev_set_rx_flags_now(struct lx_emul_netdev *h,
				    unsigned int flags)
{
	unsigned long irq;
	int ret = -EAGAIN;

	if (flags & ~LX_NET_RX_FLAGS)
		return -EINVAL;
	local_irq_save(irq);
	if (lx_world_try_enter(&now_task)) {
		ret = in_set_rx_flags_now(h, flags);
		lx_world_try_leave();
	}
	local_irq_restore(irq);
	return ret;
}
