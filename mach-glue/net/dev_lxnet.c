/* SPDX-License-Identifier: GPL-2.0-only */
/* The Linux net module: Mach net devices ("eth0", ...) over Linux drivers. */
/*
 * Device ops run with interrupts off and must not block (device.h), but
 * every lx_emul_netdev_* call enters the Linux world, which may sleep.
 * So the ops only record what is asked, and one kernel thread, "lx-net",
 * does the Linux work in order: bringing a device up (ndo_open) after
 * the first device_open and waiting for its link, down (ndo_stop) after
 * the last close, and handing queued frames to the driver.  One
 * exception, the common case of a write: when the device is up with a
 * link, nothing is queued or being sent, the write op itself hands the
 * frame to the driver through lx_emul_netdev_xmit_now, which never
 * waits: it works only if the Linux world and the rtnl lock are free at
 * that moment, and anything else (busy, no link any more, a stopped
 * queue, an error) leaves the write to lx-net as before.  Each device's
 * state lives in a slot that outlives its Mach opens, because the driver
 * may give a frame back (tx_done) after the Mach device closed.
 *
 * Writes: a frame of 14 (the Ethernet header) to MTU + 14 bytes, else
 * D_INVALID_SIZE (GNU Mach's min_packet_size is its header size; shorter
 * than 60 bytes the driver pads).  A write is answered D_SUCCESS when
 * the driver took the frame (ndo_start_xmit returned NETDEV_TX_OK), as
 * a socket's sendto returns: at once from the op when it sends the frame
 * itself, else (D_IO_QUEUED) by io_req_done once lx-net handed it over.
 * What becomes of the frame after that (sent, or dropped by the driver)
 * is counted in Linux's counters of the device, not answered; tx_done
 * only counts.  A stopped transmit queue makes the worker wait for the
 * driver's wake-up and try again: nothing is dropped.  A write waits up
 * to 3 s for the link (carrier; e1000 reports it from its watchdog a
 * moment after it is opened) and fails D_DEVICE_DOWN without one,
 * printed: Linux would drop such frames (its qdisc while the carrier is
 * off), and a driver given frames without a link may reset and drop
 * them.  If bringing the device up failed, queued and later writes fail
 * with that error (as dev_error_from_errno maps it) until the device is
 * closed and opened again.  A write still queued at the last close fails
 * D_DEVICE_DOWN at once.
 *
 * Receiving: frames the driver hands over go through the device's
 * packet filter table (kernel/net/, net_filter_deliver, NETF_IN) as
 * net_rcv_msg; frames sent go to NETF_OUT filters once the driver took
 * them.  device_read is not served (D_INVALID_OPERATION), as in GNU Mach.
 *
 * Status: NET_STATUS and NET_ADDRESS as GNU Mach's net_getstat answers
 * them (too small a count: D_INVALID_OPERATION; the address copied as
 * bytes, then each int converted with htonl, so the client's ntohl gives
 * the bytes back in order).  The flags are Linux's IFF_* bits (GNU Mach's
 * Linux glue reports the same ones), IFF_RUNNING while up with a
 * carrier.  NET_FLAGS reads them (count 1, else D_INVALID_SIZE, as GNU
 * Mach's Linux glue) and sets the receive modes (IFF_PROMISC,
 * IFF_ALLMULTI) through the driver's ndo_set_rx_mode: from the op when
 * the Linux world and the rtnl lock are free, else by the worker, the
 * reply kept until it is done (dev_reply_defer; lxnet_set_status).  The
 * modes go back to none at the last close.  GRAFT_DEV_INFO
 * (graft/dev_info.h) names the driver and gives Linux's counters of the
 * device and the module's probes (dev_lxnet_probe.c).
 *
 * Locking: one CPU; slot state is guarded by disabling interrupts.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <device/device_types.h>
#include <device/net_status.h>

#include "device/dev_error.h"
#include "device/dev_info.h"
#include "device/dev_module.h"
#include "device/device.h"
#include "device/io_req.h"
#include "kern/kalloc.h"
#include "kern/klog.h"
#include "kern/kprintf.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/thread.h"
#include "linux-emu/include/lx_emul.h"
#include "mach-glue/net/dev_lxnet.h"
#include "mach-glue/net/lxnet_info.h"
#include "mach-glue/net/lxnet_probe.h"
#include "net/net_filter.h"
#include "x86_64/cpu.h"

/* Lines a client's requests can cause (kern/klog.h). */
static KLOG_SOURCE(lxnet_log, "lx-net");

/* Linux's IFF_* bits, which GNU Mach's Linux glue reports too. */
#define IFF_UP		0x1
#define IFF_BROADCAST	0x2
#define IFF_RUNNING	0x40
#define IFF_PROMISC	0x100
#define IFF_ALLMULTI	0x200
#define IFF_MULTICAST	0x1000
/* NET_FLAGS: the receive modes a client sets, and the bits the device
 * reports that a client may write back unchanged (ignored). */
#define LXNET_RX_MODES	(IFF_PROMISC | IFF_ALLMULTI)
#define LXNET_REPORTED	(IFF_UP | IFF_BROADCAST | IFF_RUNNING | IFF_MULTICAST)
#define LXNET_CARRIER_TICKS	300	/* 3 s at HZ 100 */
#define LXNET_PRIORITY	(THREAD_PRIORITY_DEFAULT - 2)

/* A NET_FLAGS change the set_status op could not make at once. */
struct lxnet_flags_req {
	struct lxnet_flags_req *next;
	unsigned int modes;		/* LXNET_RX_MODES bits wanted */
	struct dev_reply reply;		/* the caller's, kept */
};

struct lxnet {
	struct lx_emul_netdev *ndev;
	char name[LX_EMUL_NETDEV_NAME_MAX];
	char driver[LX_EMUL_NETDEV_NAME_MAX];	/* Linux's: "e1000" */
	uint8_t mac[ETH_ADDRESS];
	unsigned int mtu;
	unsigned int flags;		/* IFF_*, refreshed by the worker */
	uint8_t *frame;			/* the worker's copy, mtu + 14 */
	struct net_filter_table *filters;	/* while open */
	bool want_up;			/* a Mach client has it open */
	bool up;			/* the worker brought it up */
	int open_err;			/* last bring-up failed: -errno */
	bool stalled;			/* queue stopped: wait for tx_wake */
	bool sending;			/* the worker uses @frame */
	unsigned int wakes;		/* tx_wake calls */
	unsigned int in_driver;		/* frames the driver holds */
	struct io_req_queue writes;	/* not yet handed over */
	struct lxnet_flags_req *fhead, *ftail;	/* NET_FLAGS for lx-net */
	struct dev_lxnet_stats stats;
};

static struct lxnet slots[DEV_LXNET_MAX];
static unsigned int nslots;
static int work_event;
static unsigned int worker_wakes;	/* dev_lxnet_stats */

static struct lxnet *slot_by_name(const char *name)
{
	for (unsigned int i = 0; i < nslots; i++)
		if (strcmp(slots[i].name, name) == 0)
			return &slots[i];
	return NULL;
}

static struct lxnet *slot_by_ndev(struct lx_emul_netdev *ndev)
{
	for (unsigned int i = 0; i < nslots; i++)
		if (slots[i].ndev == ndev)
			return &slots[i];
	return NULL;
}

static void req_fail(struct io_req *req, io_return_t error)
{
	req->error = error;
	req->done = 0;
	io_req_done(req);
}

/* Interrupts off: fail every write still queued on @s with @error. */
static void queue_fail_all(struct lxnet *s, io_return_t error)
{
	struct io_req *req;

	while ((req = io_req_queue_pop(&s->writes)) != NULL)
		req_fail(req, error);
}

/* --- Callbacks from linux-emu (any context, never block) --- */

static void cb_rx(struct lx_emul_netdev *ndev, const void *frame,
		  unsigned long len)
{
	struct lxnet *s = slot_by_ndev(ndev);
	uint64_t flags = cpu_intr_save();

	if (s != NULL) {
		s->stats.rx_frames++;
		if (s->filters != NULL)
			net_filter_deliver(s->filters, frame, len, NETF_IN);
		lxnet_probe_rx((unsigned int)(s - slots), (uint32_t)len);
	}
	cpu_intr_restore(flags);
}

/* The driver is done with a frame it took (its write was answered
 * then): @cookie is the frame's length (tx_cookie). */
static void cb_tx_done(struct lx_emul_netdev *ndev, void *cookie)
{
	struct lxnet *s = slot_by_ndev(ndev);
	uint64_t flags = cpu_intr_save();

	if (s != NULL) {
		s->stats.tx_done++;
		s->in_driver--;
		lxnet_probe_tx_done((unsigned int)(s - slots),
				    (uint32_t)(uintptr_t)cookie);
	}
	cpu_intr_restore(flags);
	/* No wakeup: lx-net has nothing to do for a completion (next_work
	 * does not look at in_driver), and dev_lxnet_idle is polled. */
}

static void cb_tx_wake(struct lx_emul_netdev *ndev)
{
	struct lxnet *s = slot_by_ndev(ndev);
	uint64_t flags = cpu_intr_save();

	if (s != NULL) {
		s->wakes++;
		s->stalled = false;
	}
	cpu_intr_restore(flags);
	thread_wakeup(&work_event);
}

/* --- The worker --- */

enum work { WORK_NONE, WORK_FLAGS, WORK_OPEN, WORK_CLOSE, WORK_SEND };

/* Interrupts off: the next thing to do and its slot. */
static enum work next_work(struct lxnet **out)
{
	for (unsigned int i = 0; i < nslots; i++) {
		struct lxnet *s = &slots[i];

		*out = s;
		if (s->fhead != NULL)
			return WORK_FLAGS;
		if (s->want_up && !s->up && s->open_err == 0)
			return WORK_OPEN;
		if (!s->want_up && s->up)
			return WORK_CLOSE;
		if (s->up && !io_req_queue_empty(&s->writes) && !s->stalled)
			return WORK_SEND;
	}
	return WORK_NONE;
}

/* Read @s's flags and link from Linux; true if it has a carrier. */
static bool refresh(struct lxnet *s)
{
	struct lx_emul_netdev_info info;

	if (lx_emul_netdev_info(s->ndev, &info) != 0)
		return false;
	s->flags = (info.flags & ~IFF_RUNNING) |
		   (info.up && info.carrier ? IFF_RUNNING : 0);
	return info.carrier;
}

/* Wait up to LXNET_CARRIER_TICKS for @s to have a link; false if it
 * has none by then or the device is being closed. */
static bool wait_carrier(struct lxnet *s)
{
	for (unsigned int i = 0;; i++) {
		if (refresh(s))
			return true;
		if (i == LXNET_CARRIER_TICKS || !s->want_up)
			return false;
		thread_sleep_ticks(1);
	}
}

static void do_open(struct lxnet *s)
{
	int err = lx_emul_netdev_open(s->ndev);
	uint64_t flags;

	if (err != 0)
		kprintf("lx-net: bringing %s up failed (%d)\n", s->name, err);
	refresh(s);
	flags = cpu_intr_save();
	if (err == 0) {
		s->up = true;
		s->stats.opens++;
	} else {
		s->open_err = err;
		queue_fail_all(s, dev_error_from_errno(err));
	}
	cpu_intr_restore(flags);
	if (err == 0)
		wait_carrier(s);	/* IFF_RUNNING as soon as it has one */
}

/* Interrupts off: @s's flags after a change of receive modes that
 * answered @linux_flags (Linux's, >= 0). */
static void modes_changed(struct lxnet *s, int linux_flags)
{
	s->flags = (unsigned int)linux_flags | (s->flags & IFF_RUNNING);
}

/* The NET_FLAGS change queued first on @s: make it, then reply. */
static void do_flags(struct lxnet *s)
{
	uint64_t flags = cpu_intr_save();
	struct lxnet_flags_req *req = s->fhead;
	int ret;

	cpu_intr_restore(flags);
	ret = lx_emul_netdev_set_rx_flags(s->ndev, req->modes);
	flags = cpu_intr_save();
	s->fhead = req->next;
	if (s->fhead == NULL)
		s->ftail = NULL;
	if (ret >= 0)
		modes_changed(s, ret);
	else
		klog(&lxnet_log, "lx-net: %s: NET_FLAGS failed (%d)\n",
		     s->name, ret);
	dev_reply_send(&req->reply, ret >= 0 ? D_SUCCESS :
		       dev_error_from_errno(ret));
	cpu_intr_restore(flags);
	kfree(req);
}

/* The last close: receive modes back to none (a later open starts
 * without them), then the device down. */
static void do_close(struct lxnet *s)
{
	uint64_t flags = cpu_intr_save();
	int modes, err;

	/* Going down: a client that opens it meanwhile waits for the link
	 * of the next bring-up, not this one's. */
	s->flags &= ~IFF_RUNNING;
	cpu_intr_restore(flags);
	modes = lx_emul_netdev_set_rx_flags(s->ndev, 0);
	err = lx_emul_netdev_close(s->ndev);
	if (err != 0)
		kprintf("lx-net: taking %s down failed (%d)\n", s->name, err);
	if (modes < 0)
		kprintf("lx-net: %s: clearing its receive modes failed (%d)\n",
			s->name, modes);
	refresh(s);
	flags = cpu_intr_save();
	s->up = false;
	s->stalled = false;
	s->stats.closes++;
	cpu_intr_restore(flags);
}

/* Interrupts off: copy @req's frame into s->frame, the copy's ticks
 * left out of the tx probe's sample. */
static void frame_get(struct lxnet *s, struct io_req *req)
{
	uint64_t copy_start = lxnet_probe_copy_start();

	io_req_get(req, 0, s->frame, req->count);
	lxnet_probe_copied(copy_start);
}

/* The cookie a frame of @len bytes goes to the driver with: its length,
 * all cb_tx_done needs (the write is answered when the driver takes it). */
static void *tx_cookie(size_t len)
{
	return (void *)(uintptr_t)len;
}

/* Interrupts off: the driver took the @len-byte @frame. */
static void sent(struct lxnet *s, const uint8_t *frame, size_t len)
{
	s->stats.tx_frames++;
	s->flags |= IFF_RUNNING;	/* up, with a carrier */
	if (s->filters != NULL)
		net_filter_deliver(s->filters, frame, len, NETF_OUT);
}

static void do_send(struct lxnet *s)
{
	bool carrier = wait_carrier(s);
	uint64_t flags = cpu_intr_save();
	struct io_req *req = io_req_queue_pop(&s->writes);
	unsigned int wakes = s->wakes;
	size_t len;
	int err;

	if (req != NULL && !carrier) {
		s->stats.tx_errors++;
		req_fail(req, D_DEVICE_DOWN);
		req = NULL;
	}
	s->sending = req != NULL;
	cpu_intr_restore(flags);
	if (req == NULL) {
		if (!carrier)
			klog(&lxnet_log,
			     "lx-net: %s has no link: write failed\n",
			     s->name);
		return;
	}
	len = req->count;
	flags = cpu_intr_save();
	frame_get(s, req);
	s->in_driver++;		/* tx_done may come before xmit returns */
	cpu_intr_restore(flags);
	err = lx_emul_netdev_xmit(s->ndev, s->frame, len, tx_cookie(len));
	flags = cpu_intr_save();
	s->sending = false;
	if (err == 0) {
		sent(s, s->frame, len);
		req->error = D_SUCCESS;
		req->done = len;
		io_req_done(req);
	} else {
		s->in_driver--;
	}
	if (err == -LX_EBUSY && s->want_up) {
		s->stats.tx_busy++;
		io_req_queue_push_head(&s->writes, req);
		if (s->wakes == wakes)
			s->stalled = true;
	} else if (err != 0) {
		s->stats.tx_errors++;
		req_fail(req, s->want_up ? dev_error_from_errno(err) :
			 D_DEVICE_DOWN);
	}
	cpu_intr_restore(flags);
}

static void worker(void *arg)
{
	(void)arg;
	for (;;) {
		uint64_t flags = cpu_intr_save();
		struct lxnet *s;
		enum work w;

		while ((w = next_work(&s)) == WORK_NONE) {
			assert_wait(&work_event);
			thread_block();
			worker_wakes++;
		}
		cpu_intr_restore(flags);
		if (w == WORK_FLAGS)
			do_flags(s);
		else if (w == WORK_OPEN)
			do_open(s);
		else if (w == WORK_CLOSE)
			do_close(s);
		else
			do_send(s);
		thread_wakeup(&work_event);	/* dev_lxnet_idle waiters */
	}
}

int dev_lxnet_start(void)
{
	static const struct lx_emul_net_callbacks cb = {
		.rx = cb_rx,
		.tx_done = cb_tx_done,
		.tx_wake = cb_tx_wake,
	};
	struct lx_emul_netdev *ndev = NULL;

	while ((ndev = lx_emul_netdev_next(ndev)) != NULL) {
		struct lx_emul_netdev_info info;
		struct lxnet *s = &slots[nslots];

		if (nslots == DEV_LXNET_MAX) {
			kprintf("lx-net: more than %u net devices; the rest "
				"are not served\n", DEV_LXNET_MAX);
			break;
		}
		if (lx_emul_netdev_info(ndev, &info) != 0)
			continue;
		s->frame = kalloc(info.mtu + ETH_HEADER);
		if (s->frame == NULL) {
			kprintf("lx-net: no memory for %s\n", info.name);
			continue;
		}
		s->ndev = ndev;
		memcpy(s->name, info.name, sizeof(s->name));
		memcpy(s->driver, info.driver, sizeof(s->driver));
		memcpy(s->mac, info.mac, sizeof(s->mac));
		s->mtu = info.mtu;
		s->flags = info.flags;
		nslots++;
	}
	if (nslots == 0)
		return 0;
	lx_emul_net_set_callbacks(&cb);
	lxnet_probe_start();
	if (kernel_thread_create("lx-net", LXNET_PRIORITY, worker, NULL,
				 NULL) != KERN_SUCCESS) {
		kprintf("lx-net: cannot start the worker thread\n");
		nslots = 0;
		return 0;
	}
	return (int)nslots;
}

int dev_lxnet_stats(const char *name, struct dev_lxnet_stats *out)
{
	struct lxnet *s = slot_by_name(name);
	uint64_t flags;

	if (s == NULL)
		return -1;
	flags = cpu_intr_save();
	*out = s->stats;
	out->worker_wakes = worker_wakes;
	out->up = s->up;
	out->flags = s->flags;
	cpu_intr_restore(flags);
	return 0;
}

int dev_lxnet_idle(void)
{
	uint64_t flags = cpu_intr_save();
	struct lxnet *s;
	int idle = next_work(&s) == WORK_NONE;

	for (unsigned int i = 0; i < nslots; i++)
		if (slots[i].in_driver != 0 ||
		    !io_req_queue_empty(&slots[i].writes) ||
		    slots[i].fhead != NULL)
			idle = 0;
	cpu_intr_restore(flags);
	return idle;
}

/* --- Device ops (interrupts off, never block) --- */

static bool lxnet_match(const char *name)
{
	return slot_by_name(name) != NULL;
}

static io_return_t lxnet_open(struct device *dev, dev_mode_t mode)
{
	struct lxnet *s = slot_by_name(dev->name);

	(void)mode;
	if (s == NULL)
		return D_NO_SUCH_DEVICE;
	s->filters = net_filter_table_create(ETH_HEADER);
	if (s->filters == NULL)
		return D_NO_MEMORY;
	dev->record_size = 1;
	dev->priv = s;
	s->stats.mach_opens++;
	s->want_up = true;
	s->open_err = 0;
	thread_wakeup(&work_event);
	return D_SUCCESS;
}

static void lxnet_close(struct device *dev)
{
	struct lxnet *s = dev->priv;
	struct net_filter_table *t = s->filters;

	s->want_up = false;
	s->filters = NULL;
	queue_fail_all(s, D_DEVICE_DOWN);
	net_filter_table_destroy(t);
	dev->priv = NULL;
	thread_wakeup(&work_event);
}

/*
 * Interrupts off, nothing queued or being sent on @s, which was up with a
 * link: hand @req's frame to the driver from here if the Linux world is
 * free (lx_emul_netdev_xmit_now), sparing the switch to lx-net and back.
 * True if the driver took it (@req's error and done then set, for the
 * op's D_SUCCESS); false (nothing sent) if the world or the rtnl lock
 * was busy, the link is gone or the driver refused: then the worker
 * sends it as any queued write, with its waits and error answers.
 */
static bool send_now(struct lxnet *s, struct io_req *req)
{
	const uint8_t *frame = io_req_data(req);
	size_t len = req->count;
	int err;

	if (frame == NULL) {	/* in pages: copied out first */
		frame_get(s, req);
		frame = s->frame;
	}
	s->in_driver++;		/* tx_done may come before xmit returns */
	err = lx_emul_netdev_xmit_now(s->ndev, frame, len, tx_cookie(len));
	if (err == 0) {
		sent(s, frame, len);
		req->error = D_SUCCESS;
		req->done = len;
		return true;
	}
	s->in_driver--;
	if (err == -LX_ENOLINK)
		s->flags &= ~IFF_RUNNING;
	return false;
}

static io_return_t lxnet_write(struct device *dev, struct io_req *req)
{
	struct lxnet *s = dev->priv;

	lxnet_probe_write((unsigned int)(s - slots), (uint32_t)req->count);
	if (req->count < ETH_HEADER || req->count > s->mtu + ETH_HEADER)
		return D_INVALID_SIZE;
	if (s->open_err != 0)
		return dev_error_from_errno(s->open_err);
	if (s->up && io_req_queue_empty(&s->writes) && !s->stalled &&
	    !s->sending &&
	    (s->flags & IFF_RUNNING) && send_now(s, req))
		return D_SUCCESS;
	io_req_queue_push(&s->writes, req);
	thread_wakeup(&work_event);
	return D_IO_QUEUED;
}

/* GRAFT_DEV_INFO: the driver, the kernel, Linux's counters of the
 * device and the module's probes (dev_lxnet_probe.c). */
static io_return_t info_answer(struct lxnet *s, int *status,
			       mach_msg_type_number_t *count)
{
	struct lx_emul_netdev_counters c;
	struct graft_dev_info info;

	if (*count < GRAFT_DEV_INFO_COUNT)
		return D_INVALID_SIZE;
	dev_info_init(&info, GRAFT_DEV_KERNEL, s->driver, "kernel");
	lx_emul_netdev_counters(s->ndev, &c);
	lxnet_info_counters(&info, &c);
	lxnet_probe_report((unsigned int)(s - slots), &info);
	return dev_info_answer(&info, status, count);
}

static io_return_t lxnet_get_status(struct device *dev, struct dev_call *call,
				    dev_flavor_t flavor, int *status,
				    mach_msg_type_number_t *count)
{
	struct lxnet *s = dev->priv;

	(void)call;
	if (flavor == NET_STATUS) {
		struct net_status ns;

		if (*count < NET_STATUS_COUNT)
			return D_INVALID_OPERATION;
		lxnet_net_status(&ns, s->mtu, s->flags);
		memcpy(status, &ns, sizeof(ns));
		*count = NET_STATUS_COUNT;
		return D_SUCCESS;
	}
	if (flavor == NET_FLAGS) {
		if (*count != 1)
			return D_INVALID_SIZE;
		status[0] = (int)s->flags;
		return D_SUCCESS;
	}
	if (flavor == NET_ADDRESS) {
		if (*count < LXNET_ADDRESS_WORDS)
			return D_INVALID_OPERATION;
		lxnet_net_address(status, s->mac);
		*count = LXNET_ADDRESS_WORDS;
		return D_SUCCESS;
	}
	if (flavor == GRAFT_DEV_INFO)
		return info_answer(s, status, count);
	return D_INVALID_OPERATION;
}

/*
 * NET_FLAGS: one int, the device's new flags as GNU Mach takes them (the
 * whole word, as Linux's dev_change_flags).  Of it, IFF_PROMISC and
 * IFF_ALLMULTI are set or cleared; the other bits the device reports
 * (LXNET_REPORTED) are ignored, so a client may write back what it read
 * with a mode added; IFF_UP must be there (the device is up while open:
 * taking it down through its flags is not served); any other bit is
 * refused.  The change is made at once, holding the Linux world from
 * here, when the world and the rtnl lock are free and no earlier change
 * waits; otherwise lx-net makes it and the reply waits for it
 * (dev_reply_defer).
 */
static io_return_t lxnet_set_status(struct device *dev, struct dev_call *call,
				    dev_flavor_t flavor, const int *status,
				    mach_msg_type_number_t count)
{
	struct lxnet *s = dev->priv;
	struct lxnet_flags_req *req;
	unsigned int word, modes;
	io_return_t rc;
	int ret;

	if (flavor != NET_FLAGS)
		return D_INVALID_OPERATION;
	if (count != 1)
		return D_INVALID_SIZE;
	word = (unsigned int)status[0];
	if (word & ~(LXNET_RX_MODES | LXNET_REPORTED) || !(word & IFF_UP)) {
		klog(&lxnet_log, "lx-net: %s: NET_FLAGS 0x%x refused: only "
		     "IFF_UP with IFF_PROMISC, IFF_ALLMULTI are served\n",
		     s->name, word);
		return D_INVALID_OPERATION;
	}
	modes = word & LXNET_RX_MODES;
	if (s->fhead == NULL) {
		ret = lx_emul_netdev_set_rx_flags_now(s->ndev, modes);
		if (ret >= 0) {
			modes_changed(s, ret);
			return D_SUCCESS;
		}
		if (ret != -LX_EAGAIN)
			return dev_error_from_errno(ret);
	}
	req = kalloc(sizeof(*req));
	if (req == NULL)
		return D_NO_MEMORY;
	rc = dev_reply_defer(call, &req->reply);
	if (rc != D_IO_QUEUED) {
		kfree(req);
		return rc;
	}
	req->modes = modes;
	req->next = NULL;
	if (s->ftail != NULL)
		s->ftail->next = req;
	else
		s->fhead = req;
	s->ftail = req;
	s->stats.flags_deferred++;
	thread_wakeup(&work_event);
	return D_IO_QUEUED;
}

static io_return_t lxnet_set_filter(struct device *dev,
				    struct ipc_port *port, int priority,
				    const filter_t *filter, unsigned int count)
{
	struct lxnet *s = dev->priv;

	return net_filter_set(s->filters, port, priority, filter, count);
}

static const struct dev_ops lxnet_ops = {
	.open = lxnet_open,
	.close = lxnet_close,
	.write = lxnet_write,
	.write_by_get = true,	/* frame_get */
	.get_status = lxnet_get_status,
	.set_status = lxnet_set_status,
	.set_filter = lxnet_set_filter,
};

const struct dev_module dev_lxnet_module = {
	.name = "lxnet",
	.match = lxnet_match,
	.ops = &lxnet_ops,
};
DEV_MODULE(dev_lxnet_module, DEV_ORDER_LINUX);
