/* SPDX-License-Identifier: GPL-2.0-only */
/* RCU grace periods: synchronize_rcu, synchronize_net. */
/*
 * The Linux world is one CPU running PREEMPT_NONE code one thread at a
 * time (lx_world.h): an RCU read-side section never sleeps, so none can
 * be open while a thread holds the world outside of one, and an
 * interrupt handler's sections end before the interrupted thread goes
 * on.  A caller of synchronize_rcu that may sleep is itself a quiescent
 * state: the grace period is over on entry, as in Linux's Tiny RCU.
 */
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>

/* synchronize_rcu - wait until every RCU reader that started before is
 * done: nothing to wait for (above).  Thread context. */
void synchronize_rcu(void)
{
	might_sleep();
}

/* synchronize_net - synchronize_rcu, for the network stack's readers. */
void synchronize_net(void)
{
	synchronize_rcu();
}
