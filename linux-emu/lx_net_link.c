/* SPDX-License-Identifier: GPL-2.0-only */
/* Link and queue state drivers report: carrier, operational state changes (linkwatch_fire_event), device presence, transmit queue wake-ups, last transmit time. */
/*
 * The stopped/started bits themselves are Linux's inlines on
 * dev->_tx[i].state (netif_stop_queue, netif_start_queue,
 * netif_queue_stopped); waking a stopped queue tells the host
 * (lx_net_queue_woken), where Linux would reschedule its qdisc.  There
 * is no link-watch: carrier changes are only recorded, and the host
 * reads them (lx_emul_netdev_info); carrier coming back re-arms the
 * transmit watchdog (lx_net_watchdog.c).
 */
#include <linux/jiffies.h>
#include <linux/netdevice.h>

#include <lx_net.h>

void netif_carrier_on(struct net_device *dev)
{
	if (!test_and_clear_bit(__LINK_STATE_NOCARRIER, &dev->state))
		return;
	atomic_inc(&dev->carrier_up_count);
	if (netif_running(dev))
		lx_net_watchdog_up(dev);
}

/* linkwatch_fire_event - @dev's link or dormant state bits changed:
 * no link-watch (above), the host reads the bits themselves. */
void linkwatch_fire_event(struct net_device *dev)
{
}

void netif_carrier_off(struct net_device *dev)
{
	if (!test_and_set_bit(__LINK_STATE_NOCARRIER, &dev->state))
		atomic_inc(&dev->carrier_down_count);
}

void netif_tx_wake_queue(struct netdev_queue *queue)
{
	if (test_and_clear_bit(__QUEUE_STATE_DRV_XOFF, &queue->state))
		lx_net_queue_woken(queue->dev);
}

void netif_tx_stop_all_queues(struct net_device *dev)
{
	for (unsigned int i = 0; i < dev->num_tx_queues; i++)
		netif_tx_stop_queue(netdev_get_tx_queue(dev, i));
}

/* netif_device_detach - the device went away (suspend, removal): not
 * present, and its queues stop if it is running. */
void netif_device_detach(struct net_device *dev)
{
	if (test_and_clear_bit(__LINK_STATE_PRESENT, &dev->state) &&
	    netif_running(dev))
		netif_tx_stop_all_queues(dev);
}

/* netif_device_attach - present again; a running device's queues wake. */
void netif_device_attach(struct net_device *dev)
{
	if (test_and_set_bit(__LINK_STATE_PRESENT, &dev->state) ||
	    !netif_running(dev))
		return;
	for (unsigned int i = 0; i < dev->num_tx_queues; i++)
		netif_tx_wake_queue(netdev_get_tx_queue(dev, i));
	lx_net_watchdog_up(dev);
}

/* dev_trans_start - the latest transmit time (jiffies) over all queues. */
unsigned long dev_trans_start(struct net_device *dev)
{
	unsigned long res = READ_ONCE(netdev_get_tx_queue(dev, 0)->trans_start);

	for (unsigned int i = 1; i < dev->num_tx_queues; i++) {
		struct netdev_queue *txq = netdev_get_tx_queue(dev, i);
		unsigned long t = READ_ONCE(txq->trans_start);

		if (t && time_after(t, res))
			res = t;
	}
	return res;
}

/*
 * net_ratelimit - true at most 10 times in any 5 s window (Linux's
 * net_ratelimit_state defaults); messages past that are dropped silently,
 * as Linux does (without its "callbacks suppressed" line).
 */
int net_ratelimit(void)
{
	static unsigned long begin;
	static int printed;
	unsigned long flags;
	int ok;

	local_irq_save(flags);
	if (!begin || time_after(jiffies, begin + 5 * HZ)) {
		begin = jiffies ? jiffies : 1;
		printed = 0;
	}
	ok = printed < 10;
	if (ok)
		printed++;
	local_irq_restore(flags);
	return ok;
}
