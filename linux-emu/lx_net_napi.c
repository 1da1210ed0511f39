/* SPDX-License-Identifier: GPL-2.0-only */
/* NAPI: the poll list, what NET_RX_SOFTIRQ runs (lx_emul_net_rx_action), netif_rx's backlog, GRO entry points. */
/*
 * As in Linux, a scheduled napi_struct sits on softnet_data.poll_list
 * with NAPI_STATE_SCHED set until its poll returns less than its weight
 * (the driver called napi_complete_done) or it is disabled;
 * lx_emul_net_rx_action() polls the list within a budget of 300 frames,
 * in softirq context (SOFTIRQ_OFFSET in the preempt count).
 *
 * lx_net_rx_raise() raises NET_RX_SOFTIRQ where Linux does; its action
 * (net_rx_softirq) runs one pass and raises itself again while contexts
 * remain scheduled, so the softirq layer (lx_softirq.c) spreads the work
 * over its rounds and its thread.
 *
 * netif_rx() queues to softnet_data's input_pkt_queue (at most 1000
 * frames) and schedules the backlog napi, as Linux does.  GRO does not
 * merge: napi_gro_receive() and napi_gro_frags() pass each frame on at
 * once (GRO_NORMAL), as does netif_receive_skb().
 */
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/interrupt.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>

#include <lx_emul.h>
#include <lx_net.h>
#include <lx_world.h>

#define RX_BUDGET		300	/* Linux's netdev_budget */
#define BACKLOG_MAX		1000	/* Linux's netdev_max_backlog */
#define FRAGS_HEAD		(MAX_HEADER + 128)	/* napi_get_frags' room */

static int process_backlog(struct napi_struct *napi, int quota);
static bool rx_running;

DEFINE_PER_CPU_ALIGNED(struct softnet_data, softnet_data) = {
	.poll_list = LIST_HEAD_INIT(softnet_data.poll_list),
	.input_pkt_queue = {
		.next = (struct sk_buff *)&softnet_data.input_pkt_queue,
		.prev = (struct sk_buff *)&softnet_data.input_pkt_queue,
	},
	.backlog = {
		.poll_list = LIST_HEAD_INIT(softnet_data.backlog.poll_list),
		.poll = process_backlog,
		.weight = NAPI_POLL_WEIGHT,
	},
};

void netif_napi_add_weight(struct net_device *dev, struct napi_struct *napi,
			   int (*poll)(struct napi_struct *, int), int weight)
{
	if (test_and_set_bit(NAPI_STATE_LISTED, &napi->state)) {
		pr_err("linux-emu: %s: napi added twice\n", dev->name);
		return;
	}
	INIT_LIST_HEAD(&napi->poll_list);
	INIT_LIST_HEAD(&napi->rx_list);
	napi->skb = NULL;
	napi->rx_count = 0;
	napi->poll = poll;
	if (weight > NAPI_POLL_WEIGHT)
		netdev_err(dev, "%s() called with weight %d\n", __func__,
			   weight);
	napi->weight = weight;
	napi->dev = dev;
	set_bit(NAPI_STATE_SCHED, &napi->state);	/* disabled */
	set_bit(NAPI_STATE_NPSVC, &napi->state);
	list_add(&napi->dev_list, &dev->napi_list);
}

void __netif_napi_del(struct napi_struct *napi)
{
	if (!test_and_clear_bit(NAPI_STATE_LISTED, &napi->state))
		return;
	list_del(&napi->dev_list);
	if (napi->skb) {
		kfree_skb(napi->skb);
		napi->skb = NULL;
	}
}

/* napi_enable - allow @n to be scheduled (after netif_napi_add or
 * napi_disable). */
void napi_enable(struct napi_struct *n)
{
	if (!test_bit(NAPI_STATE_SCHED, &n->state)) {
		pr_err("linux-emu: napi_enable on an enabled napi\n");
		return;
	}
	clear_bit(NAPI_STATE_NPSVC, &n->state);
	clear_bit(NAPI_STATE_SCHED, &n->state);
}

/* napi_disable - wait (sleeping, holding the Linux world) until @n is
 * not scheduled, then keep it from being scheduled.  Thread context. */
void napi_disable(struct napi_struct *n)
{
	unsigned long val;

	set_bit(NAPI_STATE_DISABLE, &n->state);
	for (;;) {
		val = READ_ONCE(n->state);
		if (!(val & (NAPIF_STATE_SCHED | NAPIF_STATE_NPSVC)) &&
		    cmpxchg(&n->state, val, val | NAPIF_STATE_SCHED |
			    NAPIF_STATE_NPSVC) == val)
			break;
		msleep(1);	/* NET_RX_SOFTIRQ polls it meanwhile */
	}
	clear_bit(NAPI_STATE_DISABLE, &n->state);
}

/* napi_schedule_prep - claim @n for a poll: true if it was idle (the
 * caller then calls __napi_schedule); false if disabled or already
 * scheduled (then marked MISSED: it is polled once more). */
bool napi_schedule_prep(struct napi_struct *n)
{
	unsigned long val, new;

	do {
		val = READ_ONCE(n->state);
		if (val & NAPIF_STATE_DISABLE)
			return false;
		new = val | NAPIF_STATE_SCHED;
		if (val & NAPIF_STATE_SCHED)
			new |= NAPIF_STATE_MISSED;
	} while (cmpxchg(&n->state, val, new) != val);
	return !(val & NAPIF_STATE_SCHED);
}

/* __napi_schedule - put @n (claimed by napi_schedule_prep) on the poll
 * list and raise the receive softirq.  Any context. */
void __napi_schedule(struct napi_struct *n)
{
	unsigned long flags;

	local_irq_save(flags);
	list_add_tail(&n->poll_list, &this_cpu_ptr(&softnet_data)->poll_list);
	local_irq_restore(flags);
	lx_net_rx_raise();
}

void __napi_schedule_irqoff(struct napi_struct *n)
{
	__napi_schedule(n);
}

/* napi_complete_done - the poll of @n is done with @work_done frames:
 * unscheduled, unless it was MISSED meanwhile (then rescheduled, false). */
bool napi_complete_done(struct napi_struct *n, int work_done)
{
	unsigned long flags, val, new;

	if (n->state & (NAPIF_STATE_NPSVC | NAPIF_STATE_IN_BUSY_POLL))
		return false;
	if (!list_empty(&n->poll_list)) {
		local_irq_save(flags);
		list_del_init(&n->poll_list);
		local_irq_restore(flags);
	}
	do {
		val = READ_ONCE(n->state);
		new = val & ~(NAPIF_STATE_MISSED | NAPIF_STATE_SCHED |
			      NAPIF_STATE_SCHED_THREADED |
			      NAPIF_STATE_PREFER_BUSY_POLL);
		if (val & NAPIF_STATE_MISSED)
			new |= NAPIF_STATE_SCHED;
	} while (cmpxchg(&n->state, val, new) != val);
	if (val & NAPIF_STATE_MISSED) {
		__napi_schedule(n);
		return false;
	}
	return true;
}

/* Poll @n once; a napi that used its whole weight and was not completed
 * goes on @repoll.  The frames it handled. */
static int napi_poll_one(struct napi_struct *n, struct list_head *repoll)
{
	int work = 0, weight = n->weight;

	list_del_init(&n->poll_list);
	if (test_bit(NAPI_STATE_SCHED, &n->state))
		work = n->poll(n, weight);
	if (work > weight)
		pr_err("linux-emu: napi poll of %s handled %d > weight %d\n",
		       n->dev ? n->dev->name : "backlog", work, weight);
	if (work < weight)
		return work;
	if (test_bit(NAPI_STATE_DISABLE, &n->state)) {
		napi_complete(n);
		return work;
	}
	if (list_empty(&n->poll_list))	/* not rescheduled by the driver */
		list_add_tail(&n->poll_list, repoll);
	return work;
}

static int net_rx_run(void)
{
	struct softnet_data *sd = this_cpu_ptr(&softnet_data);
	LIST_HEAD(list);
	LIST_HEAD(repoll);
	int budget = RX_BUDGET, more;
	unsigned long flags;

	if (rx_running)
		return 1;	/* a poll is running below us: it continues */
	rx_running = true;
	__preempt_count_add(SOFTIRQ_OFFSET);
	local_irq_save(flags);
	list_splice_init(&sd->poll_list, &list);
	local_irq_restore(flags);
	while (!list_empty(&list) && budget > 0)
		budget -= napi_poll_one(list_first_entry(&list,
							 struct napi_struct,
							 poll_list), &repoll);
	local_irq_save(flags);
	list_splice_tail_init(&sd->poll_list, &list);
	list_splice_tail_init(&repoll, &list);
	list_splice(&list, &sd->poll_list);
	more = !list_empty(&sd->poll_list);
	local_irq_restore(flags);
	__preempt_count_sub(SOFTIRQ_OFFSET);
	rx_running = false;
	return more;
}

/* Where Linux raises NET_RX_SOFTIRQ. */
void lx_net_rx_raise(void)
{
	raise_softirq(NET_RX_SOFTIRQ);
}

static void net_rx_softirq(struct softirq_action *h)
{
	unsigned long flags;

	if (!net_rx_run())
		return;
	local_irq_save(flags);
	__raise_softirq_irqoff(NET_RX_SOFTIRQ);	/* the rest next round */
	local_irq_restore(flags);
}

int lx_net_init(void)
{
	open_softirq(NET_RX_SOFTIRQ, net_rx_softirq);
	return 0;
}

static int rx_action_in_world(void *arg)
{
	return net_rx_run();
}

int lx_emul_net_rx_action(void)
{
	return lx_world_run(rx_action_in_world, NULL);
}

static int process_backlog(struct napi_struct *napi, int quota)
{
	struct softnet_data *sd = this_cpu_ptr(&softnet_data);
	unsigned long flags;
	struct sk_buff *skb;
	int work = 0;

	while (work < quota) {
		local_irq_save(flags);
		skb = __skb_dequeue(&sd->input_pkt_queue);
		if (!skb)
			napi->state = 0;	/* empty: unscheduled */
		local_irq_restore(flags);
		if (!skb)
			break;
		lx_net_deliver(skb);
		work++;
	}
	return work;
}

/* netif_rx - queue a received @skb (protocol set by eth_type_trans) for
 * the host; any context.  NET_RX_SUCCESS, or NET_RX_DROP (freed) when
 * 1000 frames are already waiting. */
int netif_rx(struct sk_buff *skb)
{
	struct softnet_data *sd = this_cpu_ptr(&softnet_data);
	unsigned long flags;

	local_irq_save(flags);
	if (skb_queue_len(&sd->input_pkt_queue) >= BACKLOG_MAX) {
		sd->dropped++;
		local_irq_restore(flags);
		kfree_skb(skb);
		return NET_RX_DROP;
	}
	__skb_queue_tail(&sd->input_pkt_queue, skb);
	local_irq_restore(flags);
	if (napi_schedule_prep(&sd->backlog))
		__napi_schedule(&sd->backlog);
	return NET_RX_SUCCESS;
}

int netif_receive_skb(struct sk_buff *skb)
{
	return lx_net_deliver(skb);
}

gro_result_t napi_gro_receive(struct napi_struct *napi, struct sk_buff *skb)
{
	lx_net_deliver(skb);
	return GRO_NORMAL;
}

/* napi_get_frags - @napi's skb for a frame the driver builds from page
 * fragments (NULL if memory is short). */
struct sk_buff *napi_get_frags(struct napi_struct *napi)
{
	if (!napi->skb)
		napi->skb = napi_alloc_skb(napi, FRAGS_HEAD);
	return napi->skb;
}

/* napi_gro_frags - pass on the frame built in napi_get_frags()'s skb:
 * its Ethernet header is pulled into the linear part first (a frame too
 * short for one is dropped: GRO_CONSUMED). */
gro_result_t napi_gro_frags(struct napi_struct *napi)
{
	struct sk_buff *skb = napi->skb;

	if (!skb)
		return GRO_CONSUMED;
	napi->skb = NULL;
	if (!pskb_may_pull(skb, ETH_HLEN)) {
		kfree_skb(skb);
		return GRO_CONSUMED;
	}
	skb->protocol = eth_type_trans(skb, napi->dev);
	lx_net_deliver(skb);
	return GRO_NORMAL;
}
