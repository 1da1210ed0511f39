/* SPDX-License-Identifier: GPL-2.0-only */
/* The server's side of the kernel's proxy: publishing devices (proxy.defs) and serving the device.defs calls the kernel forwards. */
/*
 * The kernel forwards a client's call on a published device to the
 * device's port here as a device.defs message (kernel/device/
 * dev_proxy.h).  The event loop queues each such message and wakes the
 * serve thread, which hands it to device.defs's server stubs (the
 * ds_device_* below) and sends the reply: the ops may block in the Linux
 * world (a transmit waiting for room), which the event loop must not.
 * A write of a device with a write_now op is first tried on the event
 * loop itself, when no call is queued or being served (so the order of
 * arrival holds): the stubs run there with on_loop set, and a call the
 * op does not take is marked deferred and queued as any other, untouched.
 * Calls are served one at a time, in order of arrival.  A disk's read
 * or write may come with the client's pages lent to the server
 * (proxy_pages.defs's stubs, lp_proxy_*_pages below), answered as a
 * write is.  The kernel's heartbeat (proxy_watch.defs) is answered by the
 * event loop at once: a server whose drivers never give the thread back
 * cannot answer it, and is taken as hung.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <graft_user.h>
#include <device/device_reply.h>
#include <device/device_server.h>
#include <graft/proxy.h>
#include <graft/proxy_pages_server.h>
#include <graft/proxy_watch_server.h>
#include <mach/mig_errors.h>

#include <lx_host.h>

#include "lxdrv.h"
#include "lxdrv_glue.h"
#include "lxdrv_probe.h"
#include "serve.h"

#define DEVICES_MAX	8

struct pending {
	struct pending *next;
	mach_msg_header_t msg;		/* msgh_size bytes */
};

/* device.defs's ids of the writes the event loop may serve. */
#define DS_WRITE_ID		2802
#define DS_WRITE_INBAND_ID	2803
/* A write's reply and more: what a stub writes on the event loop. */
#define LOOP_OUT_SIZE		256

boolean_t device_server(mach_msg_header_t *in, mach_msg_header_t *out);
boolean_t proxy_pages_server(mach_msg_header_t *in, mach_msg_header_t *out);
boolean_t proxy_watch_server(mach_msg_header_t *in, mach_msg_header_t *out);

/* proxy_watch.defs's heartbeat: answered by the event loop itself. */
#define PROXY_HEARTBEAT_ID	5400

#define PAGE		4096ul

static struct lxdrv_device *devices[DEVICES_MAX];
static struct pending *head, *tail;
static char queue_event;
static bool busy;		/* the serve thread is in a call */
static bool on_loop;		/* the stubs run on the event loop */
static bool deferred;		/* ... and left the call to the serve thread */

static struct lxdrv_device *find(mach_port_t port)
{
	for (int i = 0; i < DEVICES_MAX; i++)
		if (devices[i] && devices[i]->port == port)
			return devices[i];
	return NULL;
}

/* Send the reply device_server wrote in @out, unless there is none. */
static void answer(mach_msg_header_t *out)
{
	const mig_reply_header_t *r = (const mig_reply_header_t *)out;

	if (r->RetCode != MIG_NO_REPLY && out->msgh_remote_port !=
	    MACH_PORT_NULL) {
		(void)mach_msg(out, MACH_SEND_MSG | MACH_SEND_TIMEOUT,
			       out->msgh_size, 0, MACH_PORT_NULL, 0,
			       MACH_PORT_NULL);
		lxdrv_probe(LXDRV_PROBE_REPLIED, 0);
	}
}

/* Event loop: serve @msg, a write to @dev, here if its write_now takes
 * it.  True if served (answered, or to be answered by the op). */
static bool serve_now(struct lxdrv_device *dev, mach_msg_header_t *msg)
{
	union {
		mach_msg_header_t head;
		char bytes[LOOP_OUT_SIZE];
	} out;

	if (!dev || !dev->ops->write_now || head || busy ||
	    (msg->msgh_id != DS_WRITE_ID && msg->msgh_id != DS_WRITE_INBAND_ID))
		return false;
	on_loop = true;
	deferred = false;
	if (!device_server(msg, &out.head))
		deferred = true;	/* the serve thread says so */
	on_loop = false;
	if (deferred)
		return false;
	answer(&out.head);
	return true;
}

/* Event loop: serve the message here if it can be, else keep it for the
 * serve thread. */
static void arrived(mach_msg_header_t *msg, void *arg)
{
	union {
		mach_msg_header_t head;
		char bytes[LOOP_OUT_SIZE];
	} out;
	struct pending *p;

	if (msg->msgh_id == PROXY_HEARTBEAT_ID) {
		if (proxy_watch_server(msg, &out.head))
			answer(&out.head);
		return;
	}
	if (serve_now(arg, msg))
		return;
	p = malloc(sizeof(*p) - sizeof(p->msg) + msg->msgh_size);
	if (!p) {
		printf("lxdrv: no memory for a forwarded call: dropped\n");
		return;
	}
	memcpy(&p->msg, msg, msg->msgh_size);
	p->next = NULL;
	if (tail)
		tail->next = p;
	else
		head = p;
	tail = p;
	lx_host_wakeup(&queue_event);
}

static void serve(void *arg)
{
	static union {
		mach_msg_header_t head;
		char bytes[8192];
	} out;

	(void)arg;
	for (;;) {
		struct pending *p;

		lx_host_irq_disable();
		while (!head) {
			lx_host_wait_prepare(&queue_event);
			lx_host_irq_enable();
			lx_host_wait(0);
			lx_host_irq_disable();
		}
		p = head;
		head = p->next;
		if (!head)
			tail = NULL;
		busy = true;
		lx_host_irq_enable();
		if (!device_server(&p->msg, &out.head) &&
		    !proxy_pages_server(&p->msg, &out.head))
			printf("lxdrv: message id %d not served\n",
			       p->msg.msgh_id);
		else
			answer(&out.head);
		busy = false;
		free(p);
	}
}

int lxdrv_serve_start(void)
{
	return lx_host_thread_create("lxdrv-serve", serve, NULL);
}

int lxdrv_publish(struct lxdrv_device *dev, const char *name,
		  int record_size, const int *status, unsigned int count)
{
	int slot = 0;
	kern_return_t kr;

	while (slot < DEVICES_MAX && devices[slot])
		slot++;
	if (slot == DEVICES_MAX ||
	    mach_port_allocate(lxdrv_task, MACH_PORT_RIGHT_RECEIVE,
			       &dev->port) != KERN_SUCCESS ||
	    mach_port_insert_right(lxdrv_task, dev->port, dev->port,
				   MACH_MSG_TYPE_MAKE_SEND) != KERN_SUCCESS) {
		printf("lxdrv: %s: no room or port to publish it\n", name);
		return -1;
	}
	snprintf(dev->name, sizeof(dev->name), "%s", name);
	devices[slot] = dev;
	if (lxdrv_port_watch(dev->port, arrived, dev) != 0) {
		devices[slot] = NULL;
		printf("lxdrv: %s: cannot watch its port\n", name);
		return -1;
	}
	kr = proxy_publish(lxdrv_master, (char *)name, dev->port, record_size,
			   (int *)status, count, &dev->proxy);
	if (kr != D_SUCCESS) {
		lxdrv_port_unwatch(dev->port);
		devices[slot] = NULL;
		printf("lxdrv: %s: proxy_publish: error %d\n", name, kr);
		return -1;
	}
	return 0;
}

void lxdrv_status_set(struct lxdrv_device *dev, const int *status,
		      unsigned int count)
{
	(void)proxy_status_set(dev->proxy, (int *)status, count);
}

/* device.defs's server routines: the forwarded calls. */

kern_return_t ds_device_open(mach_port_t master, mach_port_t reply,
			     mach_msg_type_name_t poly, dev_mode_t mode,
			     const_dev_name_t name, mach_port_t *device,
			     mach_msg_type_name_t *device_poly)
{
	(void)master; (void)reply; (void)poly; (void)mode; (void)name;
	(void)device; (void)device_poly;
	return D_INVALID_OPERATION;	/* the kernel opens; never sent */
}

kern_return_t ds_device_close(mach_port_t device)
{
	(void)device;
	return D_INVALID_OPERATION;
}

void lxdrv_reply_write(const struct lxdrv_call *call, kern_return_t code,
		       int written)
{
	if (call->inband)
		(void)ds_device_write_reply_inband(call->reply, call->poly,
						   code, written);
	else
		(void)ds_device_write_reply(call->reply, call->poly, code,
					    written);
	lxdrv_probe(LXDRV_PROBE_REPLIED, (size_t)written);
}

/* A call the event loop does not serve: left for the serve thread. */
static kern_return_t defer(void)
{
	deferred = true;
	return MIG_NO_REPLY;
}

static kern_return_t do_write(mach_port_t port,
			      const struct lxdrv_call *call, recnum_t recnum,
			      const void *data, size_t count, int *written)
{
	struct lxdrv_device *dev = find(port);
	kern_return_t code;

	if (on_loop) {
		if (!dev || !dev->ops->write_now)
			return defer();
		lxdrv_probe(LXDRV_PROBE_WRITE, count);
		return dev->ops->write_now(dev, call, recnum, data, count,
					   written, &code) ? code : defer();
	}
	if (!dev || !dev->ops->write)
		return D_INVALID_OPERATION;
	lxdrv_probe(LXDRV_PROBE_WRITE, count);
	return dev->ops->write(dev, call, recnum, data, count, written);
}

kern_return_t ds_device_write(mach_port_t device, mach_port_t reply,
			      mach_msg_type_name_t poly, dev_mode_t mode,
			      recnum_t recnum, io_buf_ptr_t data,
			      mach_msg_type_number_t count, int *written)
{
	struct lxdrv_call call = { reply, poly, mode, false };
	kern_return_t kr = do_write(device, &call, recnum, data, count,
				    written);

	if (!deferred)
		(void)vm_deallocate(lxdrv_task, (vm_address_t)data, count);
	return kr;
}

kern_return_t ds_device_write_inband(mach_port_t device, mach_port_t reply,
				     mach_msg_type_name_t poly,
				     dev_mode_t mode, recnum_t recnum,
				     const io_buf_ptr_inband_t data,
				     mach_msg_type_number_t count,
				     int *written)
{
	struct lxdrv_call call = { reply, poly, mode, true };

	return do_write(device, &call, recnum, data, count, written);
}

/* The device of @port in *@dev if it reads and 0 <= @wanted <= @max:
 * D_SUCCESS, else the code to answer. */
static kern_return_t read_target(mach_port_t port, int wanted, int max,
				 struct lxdrv_device **dev)
{
	*dev = find(port);
	if (!*dev || !(*dev)->ops->read)
		return D_INVALID_OPERATION;
	if (wanted < 0 || wanted > max)
		return D_INVALID_SIZE;
	return D_SUCCESS;
}

kern_return_t ds_device_read(mach_port_t device, mach_port_t reply,
			     mach_msg_type_name_t poly, dev_mode_t mode,
			     recnum_t recnum, int wanted, io_buf_ptr_t *data,
			     mach_msg_type_number_t *count)
{
	const struct lxdrv_call call = { reply, poly, mode, false };
	struct lxdrv_device *dev;
	vm_address_t buf = 0;
	size_t n = 0;
	kern_return_t kr;

	if (on_loop)
		return defer();
	kr = read_target(device, wanted, INT32_MAX, &dev);
	if (kr != D_SUCCESS)
		return kr;
	lxdrv_probe(LXDRV_PROBE_READ, (size_t)wanted);
	if (wanted > 0 && vm_allocate(lxdrv_task, &buf, wanted, TRUE) !=
	    KERN_SUCCESS)
		return D_NO_MEMORY;
	kr = dev->ops->read(dev, &call, recnum, wanted, (void *)buf, &n);
	if (kr != D_SUCCESS) {
		if (buf)
			(void)vm_deallocate(lxdrv_task, buf, wanted);
		return kr;
	}
	*data = (io_buf_ptr_t)buf;	/* the reply takes the pages */
	*count = n;
	return D_SUCCESS;
}

kern_return_t ds_device_read_inband(mach_port_t device, mach_port_t reply,
				    mach_msg_type_name_t poly, dev_mode_t mode,
				    recnum_t recnum, int wanted,
				    io_buf_ptr_inband_t data,
				    mach_msg_type_number_t *count)
{
	const struct lxdrv_call call = { reply, poly, mode, true };
	struct lxdrv_device *dev;
	size_t n = 0;
	kern_return_t kr;

	if (on_loop)
		return defer();
	kr = read_target(device, wanted, (int)sizeof(io_buf_ptr_inband_t),
			 &dev);
	if (kr != D_SUCCESS)
		return kr;
	lxdrv_probe(LXDRV_PROBE_READ, (size_t)wanted);
	kr = dev->ops->read(dev, &call, recnum, wanted, data, &n);
	*count = n;
	return kr;
}

kern_return_t ds_device_set_status(mach_port_t device, dev_flavor_t flavor,
				   dev_status_t status,
				   mach_msg_type_number_t count)
{
	struct lxdrv_device *dev = find(device);

	if (on_loop)
		return defer();

	if (!dev || !dev->ops->set_status)
		return D_INVALID_OPERATION;
	return dev->ops->set_status(dev, flavor, status, count);
}

/* The kernel answers from the published status but the flavours only
 * the device's op knows (kernel/device/dev_proxy.h). */
kern_return_t ds_device_get_status(mach_port_t device, dev_flavor_t flavor,
				   dev_status_t status,
				   mach_msg_type_number_t *count)
{
	struct lxdrv_device *dev = find(device);

	if (on_loop)
		return defer();
	if (!dev || !dev->ops->get_status)
		return D_INVALID_OPERATION;
	return dev->ops->get_status(dev, flavor, status, count);
}

kern_return_t ds_device_set_filter(mach_port_t device, mach_port_t port,
				   int priority, filter_array_t filter,
				   mach_msg_type_number_t count)
{
	(void)device; (void)port; (void)priority; (void)filter; (void)count;
	return D_INVALID_OPERATION;	/* the kernel's filters */
}

/* proxy_pages.defs's routines: a disk's read or write with the client's
 * pages lent.  Answered with device_write_reply: the bytes moved. */

/* The checks of a request with lent pages: the device takes them, and
 * @n pages from @offset hold exactly @count bytes, each page aligned. */
static kern_return_t pages_check(struct lxdrv_device *dev, int count,
				 int offset,
				 const rpc_phys_addr_t *frames, size_t n)
{
	if (!dev || !lxdrv_memory_direct() || !dev->ops->pages)
		return D_INVALID_OPERATION;
	if (count <= 0 || offset < 0 || (unsigned long)offset >= PAGE ||
	    n != ((unsigned long)offset + (unsigned long)count + PAGE - 1) /
		 PAGE)
		return D_INVALID_SIZE;
	for (size_t i = 0; i < n; i++)
		if (frames[i] % PAGE != 0)
			return D_INVALID_OPERATION;
	return D_SUCCESS;
}

static kern_return_t pages_call(mach_port_t device, mach_port_t reply,
				mach_msg_type_name_t poly, dev_mode_t mode,
				recnum_t recnum, bool write, int count,
				int offset, const rpc_phys_addr_t *frames,
				mach_msg_type_number_t n)
{
	const struct lxdrv_call call = { reply, poly, mode, false };
	const struct lxdrv_pages pages = { frames, n, (size_t)offset };
	struct lxdrv_device *dev = find(device);
	kern_return_t kr;
	size_t done = 0;

	kr = pages_check(dev, count, offset, frames, n);
	if (kr == D_SUCCESS) {
		lxdrv_probe(write ? LXDRV_PROBE_WRITE : LXDRV_PROBE_READ,
			    (size_t)count);
		kr = dev->ops->pages(dev, &call, write, recnum, &pages,
				     (size_t)count, &done);
	}
	lxdrv_reply_write(&call, kr, kr == D_SUCCESS ? (int)done : 0);
	return MIG_NO_REPLY;
}

kern_return_t lp_proxy_read_pages(mach_port_t device, mach_port_t reply,
				  mach_msg_type_name_t poly, dev_mode_t mode,
				  recnum_t recnum, int bytes_wanted,
				  int offset, const proxy_frames_t frames,
				  mach_msg_type_number_t n)
{
	return pages_call(device, reply, poly, mode, recnum, false,
			  bytes_wanted, offset, frames, n);
}

kern_return_t lp_proxy_write_pages(mach_port_t device, mach_port_t reply,
				   mach_msg_type_name_t poly, dev_mode_t mode,
				   recnum_t recnum, int bytes, int offset,
				   const proxy_frames_t frames,
				   mach_msg_type_number_t n)
{
	return pages_call(device, reply, poly, mode, recnum, true, bytes,
			  offset, frames, n);
}

/* proxy_watch.defs: the event loop runs. */
kern_return_t lw_proxy_heartbeat(mach_port_t device)
{
	(void)device;
	return KERN_SUCCESS;
}
