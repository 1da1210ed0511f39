/* SPDX-License-Identifier: GPL-2.0-only */
/* The proxy module: publications (proxy.defs), their devices' ops, a server's death. */
/*
 * A publication (struct dev_proxy, dev_proxy_fwd.h) is in the table
 * below from proxy_publish until its server's device port dies.  Its
 * port (IKOT_DEVICE_PROXY) is the server's handle for proxy_net_input
 * and proxy_status_set; it dies with the publication.  The module's
 * device (one per name, dev_port.c) points at the publication through
 * priv; after the server's death the device stays open for its clients
 * (each call answering D_DEVICE_DOWN) but loses its name
 * (dev_port_unname), so the name can be published again.  What the ops
 * forward is in dev_proxy_fwd.c.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <device/device_types.h>
#include <device/net_status.h>
#include <graft/dev_info.h>
#include <mach/mig_errors.h>

#include "device/dev_module.h"
#include "device/dev_port.h"
#include "device/dev_info.h"
#include "device/dev_proxy.h"
#include "device/dev_proxy_fwd.h"
#include "device/dev_proxy_sums.h"
#include "device/device.h"
#include "device/ds_mig.h"
#include "device/io_req.h"
#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_kobject.h"
#include "ipc/ipc_port.h"
#include "kern/kalloc.h"
#include "kern/klog.h"
#include "kern/ledger.h"
#include "kern/supervise.h"
#include "kern/panic.h"
#include "kern/string.h"
#include "kern/task.h"
#include "kern/task_port.h"
#include "net/net_filter.h"
#include "x86_64/cpu.h"

static KLOG_SOURCE(proxy_log, "device-proxy");

#define ETH_HEADER	14
/* The longest frame proxy_net_input takes: Ethernet's 1514 bytes and
 * a VLAN tag (no frame check sequence). */
#define PROXY_FRAME_MAX	1518

#define PROXY(proxy)	((struct dev_proxy *)(proxy))

static struct dev_proxy *published;
static unsigned int alive;
static uint64_t bad_frames;

unsigned int dev_proxy_count(void)
{
	return alive;
}

uint64_t dev_proxy_bad_frames(void)
{
	return bad_frames;
}

static struct dev_proxy *find(const char *name)
{
	for (struct dev_proxy *p = published; p != NULL; p = p->next)
		if (strcmp(p->name, name) == 0)
			return p;
	return NULL;
}

bool dev_proxy_waiting(const char *name)
{
	uint64_t flags = cpu_intr_save();
	const struct dev_proxy *p = find(name);
	bool waiting = p != NULL && p->restarting;

	cpu_intr_restore(flags);
	return waiting;
}

/* The counter at @offset in @name's publication (0 if none). */
static unsigned int counter(const char *name, size_t offset)
{
	uint64_t flags = cpu_intr_save();
	const struct dev_proxy *p = find(name);
	unsigned int n = p != NULL ?
		*(const unsigned int *)((const char *)p + offset) : 0;

	cpu_intr_restore(flags);
	return n;
}

unsigned int dev_proxy_resent(const char *name)
{
	return counter(name, offsetof(struct dev_proxy, resent));
}

unsigned int dev_proxy_checks(const char *name)
{
	return counter(name, offsetof(struct dev_proxy, checks));
}

unsigned int dev_proxy_retried(const char *name)
{
	return counter(name, offsetof(struct dev_proxy, retried));
}

unsigned int dev_proxy_repeated(const char *name)
{
	return counter(name, offsetof(struct dev_proxy, repeated));
}

unsigned int dev_proxy_wrong_data(const char *name)
{
	return counter(name, offsetof(struct dev_proxy, wrong_data));
}

/* One reference less on @p (interrupts off); the last frees it. */
static void release(struct dev_proxy *p)
{
	if (p->refs == 0)
		panic("dev_proxy: reference count underflow");
	if (--p->refs != 0)
		return;
	ledger_credit(p->ledger, LEDGER_DEVICE_PROXIES, 1);
	if (p->task != NULL)
		ipc_port_release(p->task);
	alive--;
	dev_proxy_sums_destroy(p->sums);
	kfree(p);
}

/* The index of @flavor's record in the valid status list @s (@n ints),
 * or @n if it has none. */
static mach_msg_type_number_t status_find(const int *s,
					  mach_msg_type_number_t n,
					  dev_flavor_t flavor)
{
	mach_msg_type_number_t i = 0;

	while (i < n && (dev_flavor_t)s[i] != flavor)
		i += 3 + s[i + 2];
	return i;
}

/* Does the valid status list @s (@n ints) have a NET_STATUS record? */
static bool status_is_net(const int *s, mach_msg_type_number_t n)
{
	return status_find(s, n, NET_STATUS) < n;
}

const int *dev_proxy_status_ints(const struct dev_proxy *p,
				 dev_flavor_t flavor,
				 mach_msg_type_number_t count)
{
	mach_msg_type_number_t i = status_find(p->status, p->nstatus, flavor);

	return i < p->nstatus && (mach_msg_type_number_t)p->status[i + 2] >=
	       count ? &p->status[i + 3] : NULL;
}

/* Is @s a valid list of status records (flavor, rule, count, count
 * ints; graft/proxy_types.h)? */
static bool status_valid(const int *s, mach_msg_type_number_t n)
{
	mach_msg_type_number_t i = 0;

	if (n > DEV_PROXY_STATUS_MAX)
		return false;
	while (i < n) {
		if (n - i < 3 || s[i + 2] < 0 ||
		    (mach_msg_type_number_t)s[i + 2] > n - i - 3 ||
		    s[i + 1] < PROXY_STATUS_AT_LEAST_OP ||
		    s[i + 1] > PROXY_STATUS_EXACT)
			return false;
		for (mach_msg_type_number_t j = 0; j < i; j += 3 + s[j + 2])
			if (s[j] == s[i])
				return false;	/* a flavour twice */
		i += 3 + (mach_msg_type_number_t)s[i + 2];
	}
	return true;
}

/* --- The server's death --- */

/* @p's server is gone (interrupts off): unpublish, answer everything
 * in flight, let the clients' filters go. */
static void take_down(struct dev_proxy *p)
{
	struct dev_proxy **link = &published;
	struct net_filter_table *filters = p->filters;

	while (*link != p)
		link = &(*link)->next;
	*link = p->next;
	p->down = true;
	if (p->server != NULL)
		ipc_port_watch_remove(&p->watch);
	dev_proxy_fwd_fail_all(p, D_DEVICE_DOWN);
	dev_proxy_fail_kept(p, D_DEVICE_DOWN);
	if (p->dev != NULL)
		dev_port_unname(p->dev);
	p->filters = NULL;
	net_filter_table_destroy(filters);
	ipc_port_dealloc_kernel(p->port);
	p->port = NULL;
	if (p->server != NULL)
		ipc_port_release_send(p->server);
	p->server = NULL;
	release(p);			/* the table's */
}

/* @p's supervised server died and will start again (interrupts off):
 * its calls are kept for the next instance (dev_proxy_restart.c). */
static void park(struct dev_proxy *p)
{
	ipc_port_watch_remove(&p->watch);
	dev_proxy_park(p);
	ipc_port_release_send(p->server);
	p->server = NULL;
	ipc_port_release(p->task);
	p->task = NULL;
}

static void server_died(struct ipc_port_watch *watch)
{
	struct dev_proxy *p = (struct dev_proxy *)((char *)watch -
						   offsetof(struct dev_proxy,
							    watch));
	uint64_t flags = cpu_intr_save();

	if (p->lineage != NULL && supervise_will_restart(p->lineage)) {
		klog(&proxy_log, "device-proxy: %s: its server is gone; its "
		     "calls wait for the next one\n", p->name);
		park(p);
	} else {
		klog(&proxy_log, "device-proxy: %s: its server is gone\n",
		     p->name);
		take_down(p);
	}
	cpu_intr_restore(flags);
}

/* --- proxy.defs --- */

/* The checks of proxy_publish; D_SUCCESS if they pass (interrupts
 * off). */
static io_return_t publish_check(ipc_port_t master, const char *name,
				 ipc_port_t server, int record_size,
				 const int *status,
				 mach_msg_type_number_t count,
				 const struct dev_proxy *again)
{
	size_t len = 0;

	if (!dev_master_admits_drivers(master))
		return D_INVALID_OPERATION;
	while (len < DEV_NAME_MAX && name[len] != '\0')
		len++;
	if (len == 0 || len == DEV_NAME_MAX)	/* empty, or no NUL */
		return D_INVALID_OPERATION;
	if (!IPC_PORT_VALID(server) || !server->active ||
	    server->kotype != IKOT_NONE)
		return D_INVALID_OPERATION;
	if (record_size <= 0 || record_size > (int)DEV_IO_MAX)
		return D_INVALID_SIZE;
	if (!status_valid(status, count))
		return D_INVALID_SIZE;
	if (again != NULL)	/* the name is its own, still published */
		return (uint32_t)record_size == again->record_size ?
		       D_SUCCESS : D_INVALID_SIZE;
	if (dev_module_find(name) != NULL)	/* this module's too */
		return D_ALREADY_OPEN;
	return D_SUCCESS;
}

/* The publication @name whose server died and that the calling task,
 * a new instance of that server, may take up again; or NULL.
 * Interrupts off. */
static struct dev_proxy *waiting_for_me(const char *name)
{
	struct supervision *sup = task_current()->supervision;
	struct dev_proxy *p;
	size_t len = 0;

	while (len < DEV_NAME_MAX && name[len] != '\0')
		len++;
	if (sup == NULL || len == DEV_NAME_MAX)
		return NULL;
	p = find(name);
	return p != NULL && p->restarting && p->lineage == sup ? p : NULL;
}

/* A new instance of @p's server publishes it again, served at @server
 * (a send right, kept), with @status: its calls resume.  D_SUCCESS, or
 * D_NO_MEMORY (the task's limit of publications).  Interrupts off. */
static io_return_t take_up(struct dev_proxy *p, ipc_port_t server,
			   const int *status, mach_msg_type_number_t count)
{
	struct ledger *ledger = task_current()->ledger;

	if (!ledger_charge(ledger, LEDGER_DEVICE_PROXIES, 1))
		return D_NO_MEMORY;
	ledger_credit(p->ledger, LEDGER_DEVICE_PROXIES, 1);
	p->ledger = ledger;
	p->server = server;
	p->task = task_current()->itk_self;
	ipc_port_reference(p->task);
	memcpy(p->server_task, task_current()->name, sizeof(p->server_task));
	memcpy(p->status, status, count * sizeof(int));
	p->nstatus = count;
	p->net = status_is_net(status, count);
	(void)ipc_port_watch_add(server, &p->watch, server_died);
	dev_proxy_resume(p);
	return D_SUCCESS;
}

/* A new publication of @name in the table, with its port and watch,
 * charged to the calling task; NULL if memory is short (nothing made). */
static struct dev_proxy *publish(const char *name, ipc_port_t server,
				 int record_size, const int *status,
				 mach_msg_type_number_t count)
{
	struct dev_proxy *p = kzalloc(sizeof(*p));

	if (p == NULL)
		return NULL;
	p->filters = net_filter_table_create(ETH_HEADER);
	p->port = ipc_port_alloc_kernel(p, IKOT_DEVICE_PROXY);
	if (p->filters == NULL || p->port == NULL) {
		if (p->port != NULL)
			ipc_port_dealloc_kernel(p->port);
		net_filter_table_destroy(p->filters);
		kfree(p);
		return NULL;
	}
	memcpy(p->name, name, strlen(name) + 1);
	p->server = server;
	p->refs = 1;			/* the table's */
	p->record_size = (uint32_t)record_size;
	memcpy(p->status, status, count * sizeof(int));
	p->nstatus = count;
	p->net = status_is_net(status, count);
	p->ledger = task_current()->ledger;
	p->task = task_current()->itk_self;
	ipc_port_reference(p->task);
	p->lineage = task_current()->supervision;
	if (!p->net && p->lineage != NULL && supervise_verifies(p->lineage))
		p->sums = dev_proxy_sums_create();	/* NULL: unchecked */
	memcpy(p->server_task, task_current()->name, sizeof(p->server_task));
	p->next = published;
	published = p;
	alive++;
	(void)ipc_port_watch_add(server, &p->watch, server_died);
	return p;
}

kern_return_t dp_proxy_publish(ipc_port_t master_port, const_proxy_name_t name,
			       ipc_port_t server_device, int record_size,
			       const proxy_status_t status,
			       mach_msg_type_number_t statusCnt,
			       ipc_port_t *proxy)
{
	uint64_t flags = cpu_intr_save();
	struct ledger *ledger = task_current()->ledger;
	struct dev_proxy *p = waiting_for_me(name);
	io_return_t rc;

	rc = publish_check(master_port, name, server_device, record_size,
			   status, statusCnt, p);
	if (rc == D_SUCCESS && p != NULL) {
		rc = take_up(p, server_device, status, statusCnt);
		if (rc == D_SUCCESS)
			*proxy = ipc_port_make_send(p->port);
		cpu_intr_restore(flags);
		return rc;
	}
	if (rc == D_SUCCESS && !ledger_charge(ledger, LEDGER_DEVICE_PROXIES, 1))
		rc = D_NO_MEMORY;
	if (rc != D_SUCCESS) {
		cpu_intr_restore(flags);
		return rc;		/* the server's right stays in the
					 * message, destroyed with it */
	}
	p = publish(name, server_device, record_size, status, statusCnt);
	if (p == NULL) {
		ledger_credit(ledger, LEDGER_DEVICE_PROXIES, 1);
		cpu_intr_restore(flags);
		return D_NO_MEMORY;
	}
	*proxy = ipc_port_make_send(p->port);
	cpu_intr_restore(flags);
	return D_SUCCESS;
}

proxy_t dev_proxy_lookup(ipc_port_t port)
{
	unsigned int kotype;
	struct dev_proxy *p = ipc_port_kobject(port, &kotype);
	uint64_t flags;

	if (p == NULL || kotype != IKOT_DEVICE_PROXY)
		return 0;
	flags = cpu_intr_save();
	p->refs++;
	cpu_intr_restore(flags);
	return (proxy_t)p;
}

void dev_proxy_deallocate(proxy_t proxy)
{
	uint64_t flags;

	if (proxy == 0)
		return;
	flags = cpu_intr_save();
	release(PROXY(proxy));
	cpu_intr_restore(flags);
}

kern_return_t dp_proxy_net_input(proxy_t proxy, const proxy_frame_t frame,
				 mach_msg_type_number_t frameCnt)
{
	struct dev_proxy *p = PROXY(proxy);
	uint64_t flags;

	if (p == NULL)
		return D_NO_SUCH_DEVICE;
	flags = cpu_intr_save();
	if (!dev_proxy_net_frame_size(frameCnt)) {
		bad_frames++;
		klog(&proxy_log, "device-proxy: %s: a frame of %u bytes "
		     "dropped\n", p->name, frameCnt);
	} else if (!p->down) {
		net_filter_deliver(p->filters, frame, frameCnt, NETF_IN);
	}
	cpu_intr_restore(flags);
	return D_SUCCESS;
}

bool dev_proxy_net_frame_size(size_t len)
{
	return len >= ETH_HEADER && len <= PROXY_FRAME_MAX;
}

void dev_proxy_net_sent(struct dev_proxy *p, const void *frame, size_t len)
{
	if (p->net && !p->down)
		net_filter_deliver(p->filters, frame, len, NETF_OUT);
}

kern_return_t dp_proxy_status_set(proxy_t proxy, const proxy_status_t status,
				  mach_msg_type_number_t statusCnt)
{
	struct dev_proxy *p = PROXY(proxy);
	uint64_t flags;

	if (p == NULL)
		return D_NO_SUCH_DEVICE;
	if (!status_valid(status, statusCnt)) {
		klog(&proxy_log, "device-proxy: %s: a malformed status "
		     "refused\n", p->name);
		return D_INVALID_SIZE;
	}
	flags = cpu_intr_save();
	memcpy(p->status, status, statusCnt * sizeof(int));
	p->nstatus = statusCnt;
	p->net = status_is_net(status, statusCnt);
	cpu_intr_restore(flags);
	return D_SUCCESS;
}

/* --- The module's ops (interrupts off) --- */

static bool proxy_match(const char *name)
{
	return find(name) != NULL;
}

static io_return_t proxy_open(struct device *dev, dev_mode_t mode)
{
	struct dev_proxy *p = find(dev->name);

	if (p == NULL)
		return D_NO_SUCH_DEVICE;
	p->refs++;
	p->dev = dev;
	p->open_mode = mode & (D_READ | D_WRITE);
	dev->priv = p;
	dev->record_size = p->record_size;
	return D_SUCCESS;
}

/* Nothing goes to the server: calls still forwarded complete when it
 * answers (each holds the device). */
static void proxy_close(struct device *dev)
{
	struct dev_proxy *p = dev->priv;

	p->dev = NULL;
	dev->priv = NULL;
	release(p);
}

static io_return_t proxy_io(struct device *dev, struct io_req *req)
{
	struct dev_proxy *p = dev->priv;

	if (p->down)
		return D_DEVICE_DOWN;
	if (p->restarting)
		return dev_proxy_keep_io(p, req);
	return dev_proxy_fwd_io(p, req);
}

static io_return_t proxy_get_status(struct device *dev, struct dev_call *call,
				    dev_flavor_t flavor, int *status,
				    mach_msg_type_number_t *count)
{
	struct dev_proxy *p = dev->priv;
	mach_msg_type_number_t i, n;
	int rule;

	if (p->down)
		return D_DEVICE_DOWN;
	if (flavor == GRAFT_DEV_INFO) {
		struct graft_dev_info info;

		if (*count < GRAFT_DEV_INFO_COUNT)
			return D_INVALID_SIZE;
		if (!p->restarting)
			return dev_proxy_fwd_info(p, call);
		/* no server now: the proxy's own part */
		dev_info_init(&info, GRAFT_DEV_SERVER, "", p->server_task);
		return dev_info_answer(&info, status, count);
	}
	i = status_find(p->status, p->nstatus, flavor);
	if (i == p->nstatus)
		return D_INVALID_OPERATION;
	rule = p->status[i + 1];
	n = (mach_msg_type_number_t)p->status[i + 2];
	if (rule == PROXY_STATUS_EXACT && *count != n)
		return D_INVALID_SIZE;
	if (n > *count)
		return rule == PROXY_STATUS_AT_LEAST_OP ? D_INVALID_OPERATION :
		       D_INVALID_SIZE;
	memcpy(status, &p->status[i + 3], n * sizeof(int));
	*count = n;
	return D_SUCCESS;
}

static io_return_t proxy_set_status(struct device *dev,
				    struct dev_call *call,
				    dev_flavor_t flavor, const int *status,
				    mach_msg_type_number_t count)
{
	struct dev_proxy *p = dev->priv;

	if (p->down)
		return D_DEVICE_DOWN;
	if (p->restarting)
		return dev_proxy_keep_status(p, call, flavor, status, count);
	return dev_proxy_fwd_status(p, call, flavor, status, count);
}

static io_return_t proxy_set_filter(struct device *dev, struct ipc_port *port,
				    int priority, const filter_t *filter,
				    unsigned int count)
{
	struct dev_proxy *p = dev->priv;

	if (p->down)
		return D_DEVICE_DOWN;
	if (!p->net)
		return D_INVALID_OPERATION;	/* not a NIC */
	return net_filter_set(p->filters, port, priority, filter, count);
}

static bool proxy_cancel(struct device *dev, struct io_req *req)
{
	struct dev_proxy *p = dev->priv;

	return p != NULL && (dev_proxy_kept_cancel(p, req) ||
			     dev_proxy_fwd_cancel(p, req));
}

static const struct dev_ops proxy_ops = {
	.open = proxy_open,
	.close = proxy_close,
	.read = proxy_io,
	.write = proxy_io,
	.get_status = proxy_get_status,
	.set_status = proxy_set_status,
	.set_filter = proxy_set_filter,
	.cancel = proxy_cancel,
};

const struct dev_module dev_proxy_module = {
	.name = "proxy",
	.match = proxy_match,
	.ops = &proxy_ops,
};
DEV_MODULE(dev_proxy_module, DEV_ORDER_PROXY);

/* --- Publication ports --- */

/* Generated from defs/proxy.defs (kernel/device/local.mk). */
boolean_t proxy_server(mach_msg_header_t *in, mach_msg_header_t *out);

#define PROXY_REPLY_MAX	128

/* The handler of publication ports (ipc_kobject.h): proxy.defs (its
 * simpleroutines' replies go to no reply port: dropped). */
static mach_msg_return_t proxy_handle(struct ipc_kmsg *request,
				      struct ipc_kmsg **reply)
{
	struct ipc_kmsg *out = ipc_kmsg_alloc(PROXY_REPLY_MAX);
	kern_return_t kr;

	*reply = NULL;
	if (out == NULL)
		return KERN_RESOURCE_SHORTAGE;
	(void)proxy_server(ipc_kmsg_msg(request), ipc_kmsg_msg(out));
	kr = ((mig_reply_header_t *)ipc_kmsg_msg(out))->RetCode;
	*reply = out;
	return kr == KERN_SUCCESS ? MACH_MSG_SUCCESS : kr;
}

/* The supervisor's news (kern/supervise.h): a server that did not come
 * back in time, or was given up, takes its waiting publications down. */
static void supervised(struct supervision *sup, enum supervise_event event)
{
	uint64_t flags;
	struct dev_proxy *p, *next;

	(void)event;		/* either: it is not coming back */
	flags = cpu_intr_save();
	for (p = published; p != NULL; p = next) {
		next = p->next;
		if (p->lineage != sup || !p->restarting)
			continue;
		klog(&proxy_log, "device-proxy: %s: its server did not come "
		     "back\n", p->name);
		take_down(p);
	}
	cpu_intr_restore(flags);
}

void dev_proxy_each(void (*fn)(struct dev_proxy *p))
{
	for (struct dev_proxy *p = published; p != NULL; p = p->next)
		fn(p);
}

void dev_proxy_init(void)
{
	ipc_kobject_set_handler(IKOT_DEVICE_PROXY, proxy_handle);
	dev_proxy_fwd_init();
	supervise_watch(supervised);
	dev_proxy_watch_init();
}
