/* SPDX-License-Identifier: GPL-2.0-only */
/* The transmit watchdog (ndo_tx_timeout for a queue stopped too long) and netif_tx_lock. */
/*
 * As Linux's dev_watchdog: while a device that has ndo_tx_timeout is
 * open, present and has carrier, its watchdog_timer looks every
 * watchdog_timeo jiffies (5 s when the driver set none) for a transmit
 * queue that is stopped and has not sent for longer than that, and calls
 * ndo_tx_timeout for it with the device's transmit locks held.  It runs
 * as a timer_list timer (lx_timer.c), in softirq context.
 */
#include <linux/jiffies.h>
#include <linux/netdevice.h>
#include <linux/timer.h>

#include <lx_net.h>

/* netif_tx_lock - hold every transmit queue of @dev, frozen: no
 * ndo_start_xmit runs until netif_tx_unlock. */
void netif_tx_lock(struct net_device *dev)
{
	spin_lock(&dev->tx_global_lock);
	for (unsigned int i = 0; i < dev->num_tx_queues; i++) {
		struct netdev_queue *txq = netdev_get_tx_queue(dev, i);

		__netif_tx_lock(txq, smp_processor_id());
		set_bit(__QUEUE_STATE_FROZEN, &txq->state);
		__netif_tx_unlock(txq);
	}
}

void netif_tx_unlock(struct net_device *dev)
{
	for (unsigned int i = 0; i < dev->num_tx_queues; i++)
		clear_bit(__QUEUE_STATE_FROZEN,
			  &netdev_get_tx_queue(dev, i)->state);
	spin_unlock(&dev->tx_global_lock);
}

/* The first queue of @dev stopped for longer than the timeout, or -1. */
static int queue_timed_out(struct net_device *dev)
{
	for (unsigned int i = 0; i < dev->num_tx_queues; i++) {
		struct netdev_queue *txq = netdev_get_tx_queue(dev, i);
		unsigned long trans_start = READ_ONCE(txq->trans_start);

		if (netif_xmit_stopped(txq) &&
		    time_after(jiffies, trans_start + dev->watchdog_timeo))
			return i;
	}
	return -1;
}

static void watchdog_fire(struct timer_list *t)
{
	struct net_device *dev = from_timer(dev, t, watchdog_timer);
	bool rearm = false;
	int q;

	netif_tx_lock(dev);
	if (netif_device_present(dev) && netif_running(dev) &&
	    netif_carrier_ok(dev)) {
		q = queue_timed_out(dev);
		if (q >= 0) {
			pr_warn("NETDEV WATCHDOG: %s: transmit queue %d timed out\n",
				dev->name, q);
			atomic_long_inc(&netdev_get_tx_queue(dev, q)->trans_timeout);
			dev->netdev_ops->ndo_tx_timeout(dev, q);
		}
		rearm = true;
	}
	netif_tx_unlock(dev);
	if (rearm)
		mod_timer(&dev->watchdog_timer, jiffies + dev->watchdog_timeo);
}

void lx_net_watchdog_init(struct net_device *dev)
{
	timer_setup(&dev->watchdog_timer, watchdog_fire, 0);
}

/* Arm @dev's watchdog if its driver has ndo_tx_timeout (open, carrier
 * back, device back). */
void lx_net_watchdog_up(struct net_device *dev)
{
	if (!dev->netdev_ops || !dev->netdev_ops->ndo_tx_timeout)
		return;
	if (dev->watchdog_timeo <= 0)
		dev->watchdog_timeo = 5 * HZ;
	mod_timer(&dev->watchdog_timer, jiffies + dev->watchdog_timeo);
}

/* Disarm it and wait for a running check to end (close, free).  Not
 * from the watchdog itself. */
void lx_net_watchdog_down(struct net_device *dev)
{
	timer_delete_sync(&dev->watchdog_timer);
}
