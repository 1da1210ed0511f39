/* SPDX-License-Identifier: GPL-2.0-only */
/* linux-emu's networking core, between its own files (Linux side only: Linux types). */
/*
 * Never included by Graft code: the host sees the C-typed lx_emul_net*
 * functions of lx_emul.h instead.
 */
#ifndef LX_NET_H
#define LX_NET_H

#include <linux/mm_types.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>

/* lx_page_alloc.c: drop the cache's hold on its current page. */
void lx_page_frag_cache_drain(struct page_frag_cache *nc);

/* lx_page_alloc.c: drain netdev_alloc_frag's cache (tests, teardown). */
void lx_net_frag_caches_drain(void);

/* lx_skb.c: the structs of its sk_buff pool free now (tests). */
unsigned int lx_skb_pool_free_count(void);

/* lx_page_frag_refill.c: a page skb_page_frag_refill gave is freed. */
void lx_page_frag_refill_freed(struct page *page);

/* lx_net_deliver.c: hand a received @skb to the host, then free it;
 * NET_RX_SUCCESS, or NET_RX_DROP if no host took it. */
int lx_net_deliver(struct sk_buff *skb);

/* lx_net_napi.c: the backlog queue netif_rx() feeds, and the point where
 * NET_RX_SOFTIRQ is raised (see there). */
void lx_net_rx_raise(void);

/* lx_net_napi.c: NET_RX_SOFTIRQ's action (lx_emul_init).  0. */
int lx_net_init(void);

/* lx_net_device.c: registered devices, in registration order, under
 * rtnl_lock(). */
extern struct list_head lx_net_devices;

/* lx_net_emul.c: dev_open/dev_close (ndo_open/ndo_stop); rtnl held. */
int lx_net_open(struct net_device *dev);
void lx_net_close(struct net_device *dev);

/* lx_net_watchdog.c: the transmit watchdog of @dev: set up (alloc),
 * armed (open, carrier on, attach), disarmed (close, free). */
void lx_net_watchdog_init(struct net_device *dev);
void lx_net_watchdog_up(struct net_device *dev);
void lx_net_watchdog_down(struct net_device *dev);

/* lx_skb.c: an skb around @data, kmalloc'd (kfree'd with the skb):
 * @size bytes of linear room, then room for the shared info.  NULL if
 * memory is short (@data is then still the caller's). */
struct sk_buff *lx_skb_build(void *data, unsigned int size, gfp_t gfp);

/* lx_net_emul.c: a queue of @dev was woken (netif_tx_wake_queue). */
void lx_net_queue_woken(struct net_device *dev);

#endif
