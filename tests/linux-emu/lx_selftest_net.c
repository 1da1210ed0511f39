/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks of the linux-net suite that run in the Linux world, and "lxtest", the fake loopback Ethernet driver they drive. */
/*
 * lxtest is written the way a real driver is (net_device_ops, netdev_priv,
 * NAPI, queue stop/wake, carrier), so what linux-emu gives drivers is
 * what these exercise.  Its transmit copies each frame into a fresh
 * receive skb and passes it up through netif_rx() or, in NAPI mode,
 * through its NAPI poll, as if the wire looped back.
 */
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/gfp.h>
#include <linux/if_arp.h>
#include <linux/interrupt.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/slab.h>

#include <lx_emul.h>
#include <lx_net.h>

#include <lx_world.h>

#include "lx_selftest_net.h"
#include "lx_selftest_check.h"

struct lxtest_priv {
	struct napi_struct napi;
	struct sk_buff_head loop;	/* frames waiting for the poll */
	int rx_mode;			/* LX_SELFTEST_NET_RX_* */
	int ring_slots;			/* 0: the queue never stops */
	int ring_used;
	bool refuse_next;
	int polls, max_work;
	int tx_timeouts;
	int filter_calls;		/* ndo_set_rx_mode calls */
	unsigned int filter_flags;	/* dev->flags at the last one */
};

static const u8 lxtest_mac[ETH_ALEN] = LX_SELFTEST_NET_MAC;
static struct net_device *lxtest_dev;

/* The parent device netdev_printk names (driver and bus address). */
static struct device_driver lxtest_driver = { .name = "lxtest" };
static struct device lxtest_parent = {
	.init_name = "0000:00:03.0",
	.driver = &lxtest_driver,
};

/* The frame of @skb (the MAC header still in front of data), rebuilt
 * in a page fragment and passed up with napi_gro_frags. */
static void lxtest_pass_up_frags(struct lxtest_priv *priv,
				 struct sk_buff *skb)
{
	unsigned int len = skb->len + ETH_HLEN;
	struct page *page = alloc_page(GFP_ATOMIC);
	struct sk_buff *frags = napi_get_frags(&priv->napi);

	if (page && frags) {
		memcpy(page_address(page) + 64, skb_mac_header(skb), len);
		skb_add_rx_frag(frags, 0, page, 64, len, PAGE_SIZE);
		napi_gro_frags(&priv->napi);
	} else if (page) {
		put_page(page);
	}
	kfree_skb(skb);
}

static void lxtest_pass_up(struct lxtest_priv *priv, struct sk_buff *skb)
{
	switch (priv->rx_mode) {
	case LX_SELFTEST_NET_RX_RECEIVE_SKB:
		netif_receive_skb(skb);
		break;
	case LX_SELFTEST_NET_RX_GRO_FRAGS:
		lxtest_pass_up_frags(priv, skb);
		break;
	default:
		napi_gro_receive(&priv->napi, skb);
	}
}

static int lxtest_poll(struct napi_struct *napi, int budget)
{
	struct lxtest_priv *priv = container_of(napi, struct lxtest_priv,
						napi);
	struct sk_buff *skb;
	int work = 0;

	while (work < budget && (skb = skb_dequeue(&priv->loop))) {
		lxtest_pass_up(priv, skb);
		work++;
	}
	priv->polls++;
	priv->max_work = max(priv->max_work, work);
	if (work < budget)
		napi_complete_done(napi, work);
	return work;
}

static int lxtest_open(struct net_device *dev)
{
	struct lxtest_priv *priv = netdev_priv(dev);

	napi_enable(&priv->napi);
	netif_carrier_on(dev);
	netif_start_queue(dev);
	return 0;
}

static int lxtest_stop(struct net_device *dev)
{
	struct lxtest_priv *priv = netdev_priv(dev);

	netif_stop_queue(dev);
	napi_disable(&priv->napi);
	netif_carrier_off(dev);
	skb_queue_purge(&priv->loop);
	return 0;
}

/* The frame "arrives" (a copy of @data) and goes up as the mode says. */
static int lxtest_receive(struct net_device *dev, const void *data,
			  unsigned int len)
{
	struct lxtest_priv *priv = netdev_priv(dev);
	struct sk_buff *skb = netdev_alloc_skb_ip_align(dev, len);

	if (!skb)
		return -ENOMEM;
	skb_put_data(skb, data, len);
	skb->protocol = eth_type_trans(skb, dev);
	if (priv->rx_mode == LX_SELFTEST_NET_RX_NETIF_RX)
		return netif_rx(skb) == NET_RX_SUCCESS ? 0 : -EIO;
	skb_queue_tail(&priv->loop, skb);
	if (napi_schedule_prep(&priv->napi))
		__napi_schedule(&priv->napi);
	return 0;
}

static netdev_tx_t lxtest_start_xmit(struct sk_buff *skb,
				     struct net_device *dev)
{
	struct lxtest_priv *priv = netdev_priv(dev);

	if (priv->refuse_next) {
		priv->refuse_next = false;
		return NETDEV_TX_BUSY;
	}
	lxtest_receive(dev, skb->data, skb->len);
	dev->stats.tx_packets++;
	dev_kfree_skb_any(skb);		/* transmit done at once */
	if (priv->ring_slots && ++priv->ring_used >= priv->ring_slots)
		netif_stop_queue(dev);
	return NETDEV_TX_OK;
}

/* As drivers do: count, clean the ring, let the queue go again. */
static void lxtest_tx_timeout(struct net_device *dev, unsigned int txqueue)
{
	struct lxtest_priv *priv = netdev_priv(dev);

	priv->tx_timeouts++;
	priv->ring_used = 0;
	netif_wake_queue(dev);
}

/* As drivers do: program the receive filter from dev->flags. */
static void lxtest_set_rx_mode(struct net_device *dev)
{
	struct lxtest_priv *priv = netdev_priv(dev);

	priv->filter_calls++;
	priv->filter_flags = dev->flags;
}

static const struct net_device_ops lxtest_ops = {
	.ndo_set_rx_mode = lxtest_set_rx_mode,
	.ndo_open = lxtest_open,
	.ndo_stop = lxtest_stop,
	.ndo_start_xmit = lxtest_start_xmit,
	.ndo_tx_timeout = lxtest_tx_timeout,
	.ndo_validate_addr = eth_validate_addr,
	.ndo_set_mac_address = eth_mac_addr,
};

static int init_calls;

static int counting_init(struct net_device *dev)
{
	init_calls++;
	return 0;
}

static int failing_init(struct net_device *dev)
{
	return -ENOMEM;
}

static const struct net_device_ops counting_ops = {
	.ndo_init = counting_init,
	.ndo_start_xmit = lxtest_start_xmit,
};

static const struct net_device_ops failing_ops = {
	.ndo_init = failing_init,
	.ndo_start_xmit = lxtest_start_xmit,
};

static struct net_device *extra_netdev(const struct net_device_ops *ops)
{
	struct net_device *dev = alloc_etherdev(sizeof(struct lxtest_priv));

	if (dev)
		dev->netdev_ops = ops;
	return dev;
}

static int extra_remove(struct net_device *dev)
{
	unregister_netdev(dev);
	free_netdev(dev);
	return 0;
}

static unsigned long events[8];
static unsigned int nevents;
static struct net_device *refused;	/* a notifier refuses its REGISTER */

static int record_event(struct notifier_block *nb, unsigned long val,
			void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);

	if (nevents < ARRAY_SIZE(events))
		events[nevents++] = val;
	if (dev == refused && val == NETDEV_REGISTER)
		return notifier_from_errno(-EPERM);
	return NOTIFY_DONE;
}

static struct notifier_block event_nb = { .notifier_call = record_event };

/* The netdevice chain: the devices there told at registration of the
 * notifier, registrations and their undoing, refusal. */
static int netdev_events(void)
{
	struct net_device *a = extra_netdev(&counting_ops);
	struct net_device *no = extra_netdev(&counting_ops);

	CHECK(a && no);
	nevents = 0;
	CHECK(register_netdevice_notifier(&event_nb) == 0);
	/* eth0 replayed (registered; up or not, as it is now) */
	CHECK(nevents >= 1 && events[0] == NETDEV_REGISTER);
	nevents = 0;
	CHECK(register_netdev(a) == 0);
	CHECK(nevents == 1 && events[0] == NETDEV_REGISTER);
	refused = no;
	CHECK(register_netdev(no) == -EPERM);
	CHECK(no->reg_state == NETREG_UNINITIALIZED &&
	      !lx_emul_netdev_find(no->name));
	CHECK(nevents == 3 && events[2] == NETDEV_UNREGISTER);
	nevents = 0;
	extra_remove(a);
	CHECK(nevents == 1 && events[0] == NETDEV_UNREGISTER);
	nevents = 0;
	CHECK(unregister_netdevice_notifier(&event_nb) == 0);
	CHECK(nevents >= 1 && events[nevents - 1] == NETDEV_UNREGISTER);
	CHECK(unregister_netdevice_notifier(&event_nb) == -ENOENT);
	refused = NULL;
	free_netdev(no);
	return 0;
}

/* Name assignment and ndo_init with devices around eth0. */
static int names_and_init(void)
{
	struct net_device *a = extra_netdev(&counting_ops);
	struct net_device *b = extra_netdev(&counting_ops);
	struct net_device *c = extra_netdev(&counting_ops);
	struct net_device *bad = extra_netdev(&failing_ops);
	struct net_device *named = extra_netdev(&counting_ops);
	struct net_device *twin = extra_netdev(&counting_ops);

	CHECK(a && b && c && bad && named && twin);
	init_calls = 0;
	CHECK(register_netdev(a) == 0 && !strcmp(a->name, "eth1"));
	CHECK(register_netdev(b) == 0 && !strcmp(b->name, "eth2"));
	CHECK(init_calls == 2 && b->ifindex > a->ifindex &&
	      a->ifindex > lxtest_dev->ifindex);
	CHECK(register_netdev(a) == -EINVAL);		/* already registered */
	extra_remove(a);				/* eth1 is free again */
	CHECK(register_netdev(c) == 0 && !strcmp(c->name, "eth1"));
	CHECK(c->ifindex > b->ifindex);			/* never reused */
	CHECK(register_netdev(bad) == -ENOMEM && !lx_emul_netdev_find("eth3"));
	CHECK(bad->reg_state == NETREG_UNINITIALIZED);
	strscpy(named->name, "lxfixed", IFNAMSIZ);
	strscpy(twin->name, "lxfixed", IFNAMSIZ);
	CHECK(register_netdev(named) == 0 && lx_emul_netdev_find("lxfixed"));
	CHECK(register_netdev(twin) == -EEXIST);
	extra_remove(b);
	extra_remove(c);
	extra_remove(named);
	free_netdev(bad);
	free_netdev(twin);
	CHECK(!lx_emul_netdev_find("eth1") && !lx_emul_netdev_find("lxfixed"));
	return 0;
}

static int in_register(void)
{
	struct lxtest_priv *priv;
	struct net_device *dev;

	dev = alloc_etherdev(sizeof(*priv));
	CHECK(dev);
	priv = netdev_priv(dev);
	/* Linux's layout: the private area 32-byte aligned after the
	 * net_device, itself 32-byte aligned. */
	CHECK(IS_ALIGNED((unsigned long)dev, NETDEV_ALIGN));
	CHECK((void *)priv == (char *)dev + ALIGN(sizeof(*dev), NETDEV_ALIGN));
	/* ether_setup ran. */
	CHECK(dev->type == ARPHRD_ETHER && dev->mtu == ETH_DATA_LEN &&
	      dev->hard_header_len == ETH_HLEN && dev->addr_len == ETH_ALEN &&
	      is_broadcast_ether_addr(dev->broadcast));
	CHECK(!strcmp(dev->name, "eth%d") &&
	      dev->reg_state == NETREG_UNINITIALIZED);
	dev->netdev_ops = &lxtest_ops;
	dev->watchdog_timeo = HZ / 10;
	SET_NETDEV_DEV(dev, &lxtest_parent);
	skb_queue_head_init(&priv->loop);
	netif_napi_add(dev, &priv->napi, lxtest_poll);
	eth_hw_addr_set(dev, lxtest_mac);
	CHECK(ether_addr_equal(dev->dev_addr, lxtest_mac));
	netif_carrier_off(dev);
	CHECK(register_netdev(dev) == 0);
	CHECK(!strcmp(dev->name, "eth0") && dev->ifindex > 0);
	CHECK(dev->reg_state == NETREG_REGISTERED && netif_device_present(dev));
	CHECK(!netif_running(dev) && !netif_carrier_ok(dev));
	lxtest_dev = dev;
	return names_and_init() ?: netdev_events();
}

struct validate_case {
	const char *name;
	u8 mac[ETH_ALEN];
	int expected;
};

static const struct validate_case validate_cases[] = {
	{ "unicast_is_valid", { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 }, 0 },
	{ "local_unicast_is_valid", { 0x02, 0, 0, 0, 0, 1 }, 0 },
	{ "zero_is_rejected", { 0 }, -EADDRNOTAVAIL },
	{ "multicast_is_rejected", { 0x01, 0x00, 0x5e, 0, 0, 1 },
	  -EADDRNOTAVAIL },
	{ "broadcast_is_rejected", { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	  -EADDRNOTAVAIL },
};

struct type_trans_case {
	const char *name;
	u8 dest[ETH_ALEN];		/* zero: the device's own address */
	u16 type;
	u8 payload0, payload1;
	u16 protocol;
	u8 pkt_type;
};

static const struct type_trans_case type_trans_cases[] = {
	{ "own_unicast_is_for_this_host", { 0 }, ETH_P_IP, 0x45, 0,
	  ETH_P_IP, PACKET_HOST },
	{ "broadcast_is_broadcast", { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	  ETH_P_ARP, 0, 1, ETH_P_ARP, PACKET_BROADCAST },
	{ "group_bit_is_multicast", { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 },
	  ETH_P_IP, 0x45, 0, ETH_P_IP, PACKET_MULTICAST },
	{ "other_unicast_is_otherhost", { 0x02, 0, 0, 0, 0, 0x99 },
	  ETH_P_IPV6, 0x60, 0, ETH_P_IPV6, PACKET_OTHERHOST },
	{ "vlan_tag_is_the_protocol", { 0 }, ETH_P_8021Q, 0, 5,
	  ETH_P_8021Q, PACKET_HOST },
	{ "length_with_ffff_is_raw_802_3", { 0 }, 46, 0xff, 0xff,
	  ETH_P_802_3, PACKET_HOST },
	{ "length_with_llc_is_802_2", { 0 }, 46, 0xaa, 0xaa,
	  ETH_P_802_2, PACKET_HOST },
};

static int type_trans_one(struct net_device *dev,
			  const struct type_trans_case *c)
{
	struct sk_buff *skb = netdev_alloc_skb(dev, ETH_ZLEN);
	struct ethhdr *eth;
	u8 *payload;

	CHECK(skb);
	eth = skb_put_zero(skb, ETH_ZLEN);
	if (is_zero_ether_addr(c->dest))
		ether_addr_copy(eth->h_dest, dev->dev_addr);
	else
		ether_addr_copy(eth->h_dest, c->dest);
	ether_addr_copy(eth->h_source, lxtest_mac);
	eth->h_proto = htons(c->type);
	payload = (u8 *)(eth + 1);
	payload[0] = c->payload0;
	payload[1] = c->payload1;
	skb->protocol = eth_type_trans(skb, dev);
	if (skb->protocol != htons(c->protocol) ||
	    skb->pkt_type != c->pkt_type || skb->dev != dev ||
	    skb->len != ETH_ZLEN - ETH_HLEN || skb->data != payload ||
	    skb_mac_header(skb) != (u8 *)eth) {
		pr_err("lx_selftest_net: %s: protocol %04x pkt_type %u len %u, expected %04x %u %u\n",
		       c->name, ntohs(skb->protocol), skb->pkt_type, skb->len,
		       c->protocol, c->pkt_type, ETH_ZLEN - ETH_HLEN);
		kfree_skb(skb);
		return __LINE__;
	}
	kfree_skb(skb);
	return 0;
}

static int in_addresses(void)
{
	struct sockaddr sa = { .sa_family = ARPHRD_ETHER };
	struct net_device *dev;
	int line = 0;

	CHECK(lxtest_dev);
	dev = alloc_etherdev(0);
	CHECK(dev);
	for (int i = 0; !line && i < ARRAY_SIZE(validate_cases); i++) {
		const struct validate_case *c = &validate_cases[i];

		eth_hw_addr_set(dev, c->mac);
		if (eth_validate_addr(dev) != c->expected) {
			pr_err("lx_selftest_net: %s: expected %d\n", c->name,
			       c->expected);
			line = __LINE__;
		}
	}
	/* eth_mac_addr: a valid address is taken, an invalid one refused,
	 * a running device without live address change says busy. */
	memcpy(sa.sa_data, lxtest_mac, ETH_ALEN);
	if (!line && (eth_mac_addr(dev, &sa) ||
		      !ether_addr_equal(dev->dev_addr, lxtest_mac)))
		line = __LINE__;
	sa.sa_data[0] = 0x01;
	if (!line && (eth_mac_addr(dev, &sa) != -EADDRNOTAVAIL ||
		      !ether_addr_equal(dev->dev_addr, lxtest_mac)))
		line = __LINE__;
	set_bit(__LINK_STATE_START, &dev->state);
	sa.sa_data[0] = 0x02;
	if (!line && eth_mac_addr(dev, &sa) != -EBUSY)
		line = __LINE__;
	clear_bit(__LINK_STATE_START, &dev->state);
	free_netdev(dev);
	for (int i = 0; !line && i < ARRAY_SIZE(type_trans_cases); i++)
		line = type_trans_one(lxtest_dev, &type_trans_cases[i]);
	return line;
}

static int in_printk(void)
{
	struct net_device *loose;

	CHECK(lxtest_dev);
	loose = alloc_etherdev(0);
	CHECK(loose);
	netdev_info(lxtest_dev, "lxtest says %d\n", 42);
	netdev_err(loose, "not registered\n");
	free_netdev(loose);
	netdev_warn(NULL, "no device\n");
	return 0;
}

static void in_rx_mode(int mode)
{
	struct lxtest_priv *priv;

	if (!lxtest_dev)
		return;
	priv = netdev_priv(lxtest_dev);
	priv->rx_mode = mode;
}

static void in_ring(int slots)
{
	struct lxtest_priv *priv;

	if (!lxtest_dev)
		return;
	priv = netdev_priv(lxtest_dev);
	priv->ring_slots = slots;
	priv->ring_used = 0;
}

static void in_clean_ring(void)
{
	struct lxtest_priv *priv;

	if (!lxtest_dev)
		return;
	priv = netdev_priv(lxtest_dev);
	priv->ring_used = 0;
	netif_wake_queue(lxtest_dev);
}

static void in_refuse_next(void)
{
	struct lxtest_priv *priv;

	if (!lxtest_dev)
		return;
	priv = netdev_priv(lxtest_dev);
	priv->refuse_next = true;
}

static int in_irq_rx(int count)
{
	u8 frame[ETH_ZLEN] = { 0 };
	struct lxtest_priv *priv;
	unsigned long flags;
	int err = 0;

	CHECK(lxtest_dev);
	priv = netdev_priv(lxtest_dev);
	ether_addr_copy(frame, lxtest_dev->dev_addr);
	ether_addr_copy(frame + ETH_ALEN, lxtest_mac);
	frame[12] = 0x88;		/* local experimental EtherType */
	frame[13] = 0xb5;
	local_irq_save(flags);
	__preempt_count_add(HARDIRQ_OFFSET);
	for (int i = 0; !err && i < count; i++) {
		frame[14] = i >> 8;
		frame[15] = i;
		err = lxtest_receive(lxtest_dev, frame, sizeof(frame));
	}
	__preempt_count_sub(HARDIRQ_OFFSET);
	lx_softirq_irq_exit();		/* softirqs run at interrupt exit */
	local_irq_restore(flags);
	CHECK(!err && priv->rx_mode != LX_SELFTEST_NET_RX_NETIF_RX);
	return 0;
}

static void in_polls(int *polls, int *max_work, int *idle)
{
	struct lxtest_priv *priv;

	*polls = *max_work = *idle = -1;
	if (!lxtest_dev)
		return;
	priv = netdev_priv(lxtest_dev);
	*polls = priv->polls;
	*max_work = priv->max_work;
	*idle = !test_bit(NAPI_STATE_SCHED, &priv->napi.state) &&
		list_empty(&priv->napi.poll_list);
	priv->polls = 0;
	priv->max_work = 0;
}

/* Contexts that always have a full weight of work until told to drain. */
struct busy_napi {
	struct napi_struct napi;
	int polls;
	bool drain;
};

#define BUSY_NAPIS	6

static struct busy_napi busy[BUSY_NAPIS];

static int busy_poll(struct napi_struct *napi, int budget)
{
	struct busy_napi *b = container_of(napi, struct busy_napi, napi);

	b->polls++;
	if (!b->drain)
		return budget;
	napi_complete_done(napi, 0);
	return 0;
}

static bool busy_polls_are(const int *expected)
{
	for (int i = 0; i < BUSY_NAPIS; i++)
		if (busy[i].polls != expected[i])
			return false;
	return true;
}

/*
 * One run of the receive softirq polls contexts in turn until 300 frames
 * are spent (checked after each poll: five polls of 64); the next run
 * starts with those not polled yet, then those that want more.
 */
static int budget_shared(void)
{
	static const int none[BUSY_NAPIS],
		first[BUSY_NAPIS] = { 1, 1, 1, 1, 1, 0 },
		second[BUSY_NAPIS] = { 2, 2, 2, 2, 1, 1 };
	unsigned long flags;
	int runs = 0, line = 0;

	local_bh_disable();	/* the runs below are the only ones */
	local_irq_save(flags);
	__preempt_count_add(HARDIRQ_OFFSET);
	for (int i = 0; i < BUSY_NAPIS; i++)
		napi_schedule(&busy[i].napi);
	__preempt_count_sub(HARDIRQ_OFFSET);
	local_irq_restore(flags);
	if (!busy_polls_are(none))
		line = __LINE__;		/* waiting for the run */
	else if (lx_emul_net_rx_action() != 1 || !busy_polls_are(first))
		line = __LINE__;
	else if (lx_emul_net_rx_action() != 1 || !busy_polls_are(second))
		line = __LINE__;
	for (int i = 0; i < BUSY_NAPIS; i++)
		busy[i].drain = true;
	while (lx_emul_net_rx_action() && runs < 3)
		runs++;
	if (!line && runs != 0)
		line = __LINE__;		/* one run drains all */
	for (int i = 0; !line && i < BUSY_NAPIS; i++)
		if (test_bit(NAPI_STATE_SCHED, &busy[i].napi.state))
			line = __LINE__;
	local_bh_enable();
	return line;
}

static int in_budget(void)
{
	struct net_device *dev = alloc_etherdev(0);
	int line;

	CHECK(dev);
	memset(busy, 0, sizeof(busy));
	for (int i = 0; i < BUSY_NAPIS; i++) {
		netif_napi_add_weight(dev, &busy[i].napi, busy_poll,
				      NAPI_POLL_WEIGHT);
		napi_enable(&busy[i].napi);
	}
	line = budget_shared();
	for (int i = 0; i < BUSY_NAPIS; i++)
		busy[i].drain = true;
	for (int i = 0; i < BUSY_NAPIS; i++)
		napi_disable(&busy[i].napi);
	free_netdev(dev);				/* deletes the contexts */
	return line;
}

static int in_tx_timeouts(void)
{
	struct lxtest_priv *priv;

	if (!lxtest_dev)
		return -1;
	priv = netdev_priv(lxtest_dev);
	return priv->tx_timeouts;
}

static void in_sleep_ms(unsigned int ms)
{
	msleep(ms);
}

static void in_carrier(int on)
{
	if (!lxtest_dev)
		return;
	if (on)
		netif_carrier_on(lxtest_dev);
	else
		netif_carrier_off(lxtest_dev);
}

static void in_present(int on)
{
	if (!lxtest_dev)
		return;
	if (on)
		netif_device_attach(lxtest_dev);
	else
		netif_device_detach(lxtest_dev);
}

static int in_teardown(void)
{
	struct net_device *dev = lxtest_dev;

	CHECK(dev);
	unregister_netdev(dev);
	CHECK(dev->reg_state == NETREG_UNREGISTERED);
	CHECK(!(dev->flags & IFF_UP) && !lx_emul_netdev_find("eth0"));
	free_netdev(dev);
	lxtest_dev = NULL;
	lx_net_frag_caches_drain();
	return 0;
}

/* Called by the host: each holds the Linux world (lx_world.h). */

IN_WORLD(net_register, in_register)
IN_WORLD(net_addresses, in_addresses)
IN_WORLD(net_printk, in_printk)

void lx_emul_selftest_net_rx_mode(int mode)
{
	lx_world_enter();
	in_rx_mode(mode);
	lx_world_leave();
}

void lx_emul_selftest_net_ring(int slots)
{
	lx_world_enter();
	in_ring(slots);
	lx_world_leave();
}

void lx_emul_selftest_net_clean_ring(void)
{
	lx_world_enter();
	in_clean_ring();
	lx_world_leave();
}

void lx_emul_selftest_net_refuse_next(void)
{
	lx_world_enter();
	in_refuse_next();
	lx_world_leave();
}

int lx_emul_selftest_net_irq_rx(int count)
{
	int ret;

	lx_world_enter();
	ret = in_irq_rx(count);
	lx_world_leave();
	return ret;
}

void lx_emul_selftest_net_polls(int *polls, int *max_work, int *idle)
{
	lx_world_enter();
	in_polls(polls, max_work, idle);
	lx_world_leave();
}

IN_WORLD(net_budget, in_budget)
IN_WORLD(net_tx_timeouts, in_tx_timeouts)

void lx_emul_selftest_net_sleep_ms(unsigned int ms)
{
	lx_world_enter();
	in_sleep_ms(ms);
	lx_world_leave();
}

void lx_emul_selftest_net_carrier(int on)
{
	lx_world_enter();
	in_carrier(on);
	lx_world_leave();
}

void lx_emul_selftest_net_present(int on)
{
	lx_world_enter();
	in_present(on);
	lx_world_leave();
}

int lx_emul_selftest_net_xmit_now_busy(int rtnl, void *dev,
				       const void *frame, unsigned long len)
{
	int ret;

	lx_world_enter();
	if (rtnl)
		rtnl_lock();
	else
		ret = lx_emul_netdev_xmit_now(dev, frame, len, NULL);
	lx_world_leave();
	if (!rtnl)
		return ret;
	ret = lx_emul_netdev_xmit_now(dev, frame, len, NULL);
	lx_world_enter();
	rtnl_unlock();
	lx_world_leave();
	return ret;
}

void lx_emul_selftest_net_dev_set(void *dev, int carrier, int on)
{
	struct net_device *nd = dev;

	lx_world_enter();
	if (carrier && on)
		netif_carrier_on(nd);
	else if (carrier)
		netif_carrier_off(nd);
	else if (on)
		netif_wake_queue(nd);
	else
		netif_stop_queue(nd);
	lx_world_leave();
}

int lx_emul_selftest_net_filter_calls(unsigned int *flags)
{
	struct lxtest_priv *priv;
	int calls = -1;

	lx_world_enter();
	if (lxtest_dev) {
		priv = netdev_priv(lxtest_dev);
		calls = priv->filter_calls;
		*flags = priv->filter_flags;
	}
	lx_world_leave();
	return calls;
}

void lx_emul_selftest_net_rtnl(int lock)
{
	lx_world_enter();
	if (lock)
		rtnl_lock();
	else
		rtnl_unlock();
	lx_world_leave();
}

IN_WORLD(net_teardown, in_teardown)
