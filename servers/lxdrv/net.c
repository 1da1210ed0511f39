/* SPDX-License-Identifier: GPL-2.0-only */
/* The world's net devices in the server: opened at start, published through the kernel's proxy, frames both ways. */
/*
 * Each registered Linux net device is brought up and published under its
 * Linux name ("eth0").  The kernel keeps its status (NET_STATUS,
 * NET_FLAGS, NET_ADDRESS, as the kernel's own Linux net module answers
 * them) and its packet filters: a received frame goes to the kernel
 * whole (proxy_net_input), a client's write comes here as a forwarded
 * device_write and is handed to the driver: on the event loop when the
 * link is up and the world free (lx_emul_netdev_xmit_now), else on the
 * serve thread (lx_emul_netdev_xmit) after waiting for the link (3 s at
 * most) and for room when the driver's queue is stopped; it is answered
 * when the driver took the frame, as the kernel's own Linux net module
 * answers (the transmit completion only counts).  NET_FLAGS sets
 * the receive modes; GRAFT_DEV_INFO, which the kernel forwards, is
 * net_info.c's.  A thread watches the flags (the carrier comes and
 * goes) and republishes the status when they change.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <device/net_status.h>
#include <graft/proxy.h>
#include <mach/mig_errors.h>

#include "device/dev_error.h"

#include <lx_emul.h>
#include <lx_host.h>

#include "mach-glue/net/lxnet_info.h"

#include "lxdrv.h"
#include "lxdrv_glue.h"
#include "lxdrv_probe.h"
#include "serve.h"

#define NETS_MAX	4
#define IFF_UP		0x1
#define IFF_RUNNING	0x40
#define IFF_PROMISC	0x100
#define IFF_ALLMULTI	0x200
#define RX_MODES	(IFF_PROMISC | IFF_ALLMULTI)
#define WATCH_TICKS	10
#define CARRIER_TICKS	300	/* a write waits this long for a link */
#define STATUS_INTS	(3 + NET_STATUS_COUNT + 3 + 1 + 3 + 2)

struct net {
	struct lxdrv_device dev;
	struct lx_emul_netdev *ndev;
	unsigned int flags;		/* as published */
	unsigned int mtu;
	unsigned char mac[ETH_ADDRESS];
};

static struct net nets[NETS_MAX];
static unsigned int nnets;
static char wake_event;

static struct net *of(struct lx_emul_netdev *ndev)
{
	for (unsigned int i = 0; i < nnets; i++)
		if (nets[i].ndev == ndev)
			return &nets[i];
	return NULL;
}

/* The flags clients see: Linux's, IFF_RUNNING while up with a carrier. */
static unsigned int flags_now(struct net *n)
{
	struct lx_emul_netdev_info info;

	if (lx_emul_netdev_info(n->ndev, &info) != 0)
		return 0;
	return (info.flags & ~IFF_RUNNING) |
	       (info.up && info.carrier ? IFF_RUNNING : 0);
}

/* The status records proxy.defs carries, with the count rules of the
 * kernel's own Linux net module: NET_STATUS, NET_FLAGS, NET_ADDRESS
 * (bytes, each int then in network order). */
static unsigned int status_of(const struct net *n, int *s)
{
	struct net_status ns;
	unsigned int i = 0;

	lxnet_net_status(&ns, n->mtu, n->flags);
	s[i++] = NET_STATUS;
	s[i++] = PROXY_STATUS_AT_LEAST_OP;
	s[i++] = NET_STATUS_COUNT;
	memcpy(&s[i], &ns, sizeof(ns));
	i += NET_STATUS_COUNT;
	s[i++] = NET_FLAGS;
	s[i++] = PROXY_STATUS_EXACT;
	s[i++] = 1;
	s[i++] = (int)n->flags;
	s[i++] = NET_ADDRESS;
	s[i++] = PROXY_STATUS_AT_LEAST_OP;
	s[i++] = LXNET_ADDRESS_WORDS;
	lxnet_net_address(&s[i], n->mac);
	return i + LXNET_ADDRESS_WORDS;
}

static void republish(struct net *n)
{
	int s[STATUS_INTS];

	lxdrv_status_set(&n->dev, s, status_of(n, s));
}

/* Republish @n's status if its flags changed; the flags now. */
static unsigned int refresh(struct net *n)
{
	unsigned int f = flags_now(n);

	if (f != n->flags) {
		n->flags = f;
		republish(n);
	}
	return f;
}

/* The cookie a frame of @count bytes goes to the driver with: its
 * length, for the txdone probe (tx_done). */
static void *tx_cookie(size_t count)
{
	return (void *)(uintptr_t)count;
}

/* Answered D_SUCCESS when the driver took the frame, as the kernel's own
 * Linux net module answers. */
static kern_return_t net_write(struct lxdrv_device *dev,
			       const struct lxdrv_call *call, recnum_t recnum,
			       const void *data, size_t count, int *written)
{
	struct net *n = dev->priv;
	int err;

	(void)call;
	(void)recnum;
	/* As the kernel's Linux net module: a frame waits for the link
	 * (3 s), which a driver only reports some time after opening. */
	for (int t = 0; !(n->flags & IFF_RUNNING) &&
			!(refresh(n) & IFF_RUNNING); t++) {
		if (t == CARRIER_TICKS)
			return D_DEVICE_DOWN;
		lx_host_wait_prepare(&wake_event);
		(void)lx_host_wait(1);
	}
	/* The world's own waits inside the transmit prepare theirs, so a
	 * tx_wake that came before this one's is not seen: wait a tick at
	 * most, then try again. */
	while ((err = lx_emul_netdev_xmit(n->ndev, data, count,
					  tx_cookie(count))) == -LX_EBUSY) {
		lx_host_wait_prepare(&wake_event);
		(void)lx_host_wait(1);
	}
	if (err != 0)
		return dev_error_from_errno(err);
	*written = (int)count;
	return D_SUCCESS;
}

/* The event loop's way, as the kernel's Linux net module's from its
 * write op: with the link up and the world free now
 * (lx_emul_netdev_xmit_now), else net_write on the serve thread, with
 * its waits and answers. */
static bool net_write_now(struct lxdrv_device *dev,
			  const struct lxdrv_call *call, recnum_t recnum,
			  const void *data, size_t count, int *written,
			  kern_return_t *code)
{
	struct net *n = dev->priv;

	(void)call;
	(void)recnum;
	if (!(n->flags & IFF_RUNNING) ||
	    lx_emul_netdev_xmit_now(n->ndev, data, count,
				    tx_cookie(count)) != 0)
		return false;
	*written = (int)count;
	*code = D_SUCCESS;
	return true;
}

/* As the kernel's Linux net module: the whole flags word, of which the
 * receive modes are set; IFF_UP must be there; other bits the device
 * reports are ignored, any other refused. */
static kern_return_t net_set_status(struct lxdrv_device *dev,
				    dev_flavor_t flavor, const int *status,
				    size_t count)
{
	struct net *n = dev->priv;
	unsigned int word;
	int ret;

	if (flavor != NET_FLAGS)
		return D_INVALID_OPERATION;
	if (count != 1)
		return D_INVALID_SIZE;
	word = (unsigned int)status[0];
	if (word & ~(RX_MODES | n->flags) || !(word & IFF_UP))
		return D_INVALID_OPERATION;
	ret = lx_emul_netdev_set_rx_flags(n->ndev, word & RX_MODES);
	if (ret < 0)
		return dev_error_from_errno(ret);
	(void)refresh(n);
	return D_SUCCESS;
}

static kern_return_t net_get_status(struct lxdrv_device *dev,
				    dev_flavor_t flavor, int *status,
				    mach_msg_type_number_t *count)
{
	struct net *n = dev->priv;

	return lxdrv_net_info(n->ndev, flavor, status, count);
}

static const struct lxdrv_device_ops net_ops = {
	.write = net_write,
	.write_now = net_write_now,
	.set_status = net_set_status,
	.get_status = net_get_status,
};

static void rx(struct lx_emul_netdev *ndev, const void *frame,
	       unsigned long len)
{
	struct net *n = of(ndev);

	if (n && n->dev.proxy != MACH_PORT_NULL) {
		(void)proxy_net_input(n->dev.proxy, (char *)frame, len);
		lxdrv_probe(LXDRV_PROBE_RX_SENT, len);
	}
}

/* The driver is done with a frame (its write was answered when the
 * driver took it): only the txdone probe's end. */
static void tx_done(struct lx_emul_netdev *ndev, void *cookie)
{
	(void)ndev;
	lxdrv_probe(LXDRV_PROBE_TX_DONE, (size_t)(uintptr_t)cookie);
}

static void tx_wake(struct lx_emul_netdev *ndev)
{
	(void)ndev;
	lx_host_wakeup(&wake_event);
}

static const struct lx_emul_net_callbacks callbacks = {
	.rx = rx,
	.tx_done = tx_done,
	.tx_wake = tx_wake,
};

static void watch_flags(void *arg)
{
	(void)arg;
	for (;;) {
		lx_host_wait_prepare(&nets);
		(void)lx_host_wait(WATCH_TICKS);
		for (unsigned int i = 0; i < nnets; i++)
			(void)refresh(&nets[i]);
	}
}

void lxdrv_net_start(void)
{
	struct lx_emul_netdev *ndev = NULL;
	struct lx_emul_netdev_info info;
	int s[STATUS_INTS], err;

	lx_emul_net_set_callbacks(&callbacks);
	lxdrv_net_probes_start();
	while ((ndev = lx_emul_netdev_next(ndev)) != NULL && nnets < NETS_MAX) {
		struct net *n = &nets[nnets];

		err = lx_emul_netdev_open(ndev);
		if (err || lx_emul_netdev_info(ndev, &info) != 0) {
			printf("lxdrv: a net device did not open: %d\n", err);
			continue;
		}
		n->ndev = ndev;
		n->mtu = info.mtu;
		memcpy(n->mac, info.mac, ETH_ADDRESS);
		n->dev.ops = &net_ops;
		n->dev.priv = n;
		nnets++;
		n->flags = flags_now(n);
		if (lxdrv_publish(&n->dev, info.name, 1, s,
				  status_of(n, s)) != 0) {
			nnets--;
			continue;
		}
		printf("lxdrv: %s up, mac %02x:%02x:%02x:%02x:%02x:%02x, "
		       "published\n", info.name, info.mac[0], info.mac[1],
		       info.mac[2], info.mac[3], info.mac[4], info.mac[5]);
	}
	if (nnets && lx_host_thread_create("lxdrv-flags", watch_flags,
					   NULL) != 0)
		printf("lxdrv: no thread to watch the flags\n");
}
