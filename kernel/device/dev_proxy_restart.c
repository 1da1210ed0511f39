/* SPDX-License-Identifier: GPL-2.0-only */
/* A published device whose server died and will start again: its calls kept, its settings replayed, the calls sent to the new instance. */
/*
 * A supervised server's death (kern/supervise.h) does not end its
 * publications: the clients' device ports stay open, and every call
 * that was at the dead server unanswered, or comes meanwhile, is kept in
 * order (a read or write on @waiting, a set_status on @statuses, its
 * client's reply right with it).  Nothing was answered for them, so
 * sending them to the new instance answers each exactly once.  When the
 * new instance publishes the same name (dev_proxy.c), the device's
 * settings are replayed first (the last successful set_status of each
 * flavour, a NIC's NET_FLAGS: the new driver starts from its defaults),
 * then the kept set_status calls, then the kept reads and writes.  A
 * NIC's frame that was at the dead server may so go out twice, which
 * Ethernet allows; a disk's write is answered only once the new
 * instance wrote it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/dev_proxy_call.h"
#include "device/dev_proxy_fwd.h"
#include "device/device.h"
#include "device/io_req.h"
#include "kern/kalloc.h"
#include "kern/klog.h"
#include "kern/string.h"
#include "kern/supervise.h"
#include "kern/task.h"
#include "kern/task_port.h"
#include "kern/thread.h"

static KLOG_SOURCE(restart_log, "device-proxy");

/* A set_status call kept for the next instance. */
struct dev_proxy_status {
	struct dev_proxy_status *next;
	struct dev_reply reply;
	dev_flavor_t flavor;
	unsigned int count;
	int ints[DEV_PROXY_SETTING_INTS];
};

void dev_proxy_park(struct dev_proxy *p)
{
	p->restarting = true;
	dev_proxy_fwd_requeue_all(p, &p->waiting);
}

io_return_t dev_proxy_keep_io(struct dev_proxy *p, struct io_req *req)
{
	io_req_queue_push(&p->waiting, req);
	return D_IO_QUEUED;
}

bool dev_proxy_kept_cancel(struct dev_proxy *p, struct io_req *req)
{
	return io_req_queue_remove(&p->waiting, req);
}

/* Keep @r's call of @flavor (@count ints): false if it cannot be. */
static bool keep(struct dev_proxy *p, struct dev_reply *r,
		 dev_flavor_t flavor, const int *status,
		 mach_msg_type_number_t count)
{
	struct dev_proxy_status *s, **tail = &p->statuses;

	if (count > DEV_PROXY_SETTING_INTS)
		return false;
	s = kzalloc(sizeof(*s));
	if (s == NULL)
		return false;
	s->reply = *r;
	r->port = NULL;
	r->ledger = NULL;
	s->flavor = flavor;
	s->count = count;
	memcpy(s->ints, status, count * sizeof(int));
	while (*tail != NULL)
		tail = &(*tail)->next;
	*tail = s;
	return true;
}

void dev_proxy_keep_status_reply(struct dev_proxy *p, struct dev_reply *r,
				 dev_flavor_t flavor, const int *status,
				 mach_msg_type_number_t count)
{
	if (!keep(p, r, flavor, status, count))
		dev_reply_send(r, D_NO_MEMORY);
}

io_return_t dev_proxy_keep_status(struct dev_proxy *p, struct dev_call *call,
				  dev_flavor_t flavor, const int *status,
				  mach_msg_type_number_t count)
{
	struct dev_reply r;
	io_return_t rc;

	if (count > DEV_PROXY_SETTING_INTS)
		return D_NO_MEMORY;
	rc = dev_reply_defer(call, &r);
	if (rc != D_IO_QUEUED)
		return rc;
	dev_proxy_keep_status_reply(p, &r, flavor, status, count);
	return D_IO_QUEUED;
}

void dev_proxy_setting_record(struct dev_proxy *p, dev_flavor_t flavor,
			      const int *status, mach_msg_type_number_t count)
{
	struct dev_proxy_setting *s = NULL;

	for (unsigned int i = 0; i < p->nsettings; i++)
		if (p->settings[i].flavor == flavor)
			s = &p->settings[i];
	if (s == NULL && p->nsettings == DEV_PROXY_SETTINGS) {
		klog(&restart_log, "device-proxy: %s: more than %d settings: "
		     "flavour %d not kept for a restart\n", p->name,
		     DEV_PROXY_SETTINGS, (int)flavor);
		return;
	}
	if (s == NULL)
		s = &p->settings[p->nsettings++];
	s->flavor = flavor;
	s->count = count;
	memcpy(s->ints, status, count * sizeof(int));
}

void dev_proxy_resume(struct dev_proxy *p)
{
	struct dev_reply none = { 0 };
	unsigned int n = 0;

	p->restarting = false;
	p->first_due = true;
	for (unsigned int i = 0; i < p->nsettings; i++)
		(void)dev_proxy_fwd_status_reply(p, &none,
						 p->settings[i].flavor,
						 p->settings[i].ints,
						 p->settings[i].count);
	while (p->statuses != NULL) {
		struct dev_proxy_status *s = p->statuses;

		p->statuses = s->next;
		(void)dev_proxy_fwd_status_reply(p, &s->reply, s->flavor,
						 s->ints, s->count);
		kfree(s);
		n++;
	}
	while (!io_req_queue_empty(&p->waiting)) {
		struct io_req *req = io_req_queue_pop(&p->waiting);

		if (dev_proxy_fwd_io(p, req) != D_IO_QUEUED) {
			req->error = D_NO_MEMORY;
			req->done = 0;
			io_req_done(req);
		}
		n++;
	}
	p->resent += n;
	klog(&restart_log, "device-proxy: %s: its server is back; %u "
	     "call(s) sent to it again\n", p->name, n);
}

void dev_proxy_fail_kept(struct dev_proxy *p, io_return_t code)
{
	p->restarting = false;
	while (p->statuses != NULL) {
		struct dev_proxy_status *s = p->statuses;

		p->statuses = s->next;
		dev_reply_send(&s->reply, code);
		kfree(s);
	}
	while (!io_req_queue_empty(&p->waiting)) {
		struct io_req *req = io_req_queue_pop(&p->waiting);

		req->error = code;
		req->done = 0;
		io_req_done(req);
	}
}

/* Whether @req's own arguments or mode, or a NIC's link, may explain
 * @code (no check is needed).  A NIC: any code of a call that is not a
 * write of an Ethernet frame's size, and D_DEVICE_DOWN (no link).  A
 * disk: D_READ_ONLY, D_INVALID_OPERATION and D_WOULD_BLOCK; and
 * D_INVALID_SIZE and D_INVALID_RECNUM unless @req moves whole records
 * (an inband read: the start of one) within those @p's server published
 * (DEV_GET_RECORDS; 0 when unknown): then the driver said so, not the
 * arguments. */
static bool arguments_explain(const struct dev_proxy *p,
			      const struct io_req *req, io_return_t code)
{
	const int *records;
	uint64_t total, n;

	if (p->net)
		return !dev_proxy_call_writes(req) ||
		       !dev_proxy_net_frame_size(req->count) ||
		       code == D_DEVICE_DOWN;
	if (code == D_READ_ONLY || code == D_INVALID_OPERATION ||
	    code == D_WOULD_BLOCK)
		return true;
	if (code != D_INVALID_SIZE && code != D_INVALID_RECNUM)
		return false;
	records = dev_proxy_status_ints(p, DEV_GET_RECORDS,
					DEV_GET_RECORDS_COUNT);
	if (records == NULL ||
	    records[DEV_GET_RECORDS_DEVICE_RECORDS] <= 0 || req->count == 0)
		return true;
	total = (uint64_t)records[DEV_GET_RECORDS_DEVICE_RECORDS];
	if (req->op == IO_READ_INBAND)
		n = req->count <= p->record_size ? 1 : 0;
	else
		n = req->count % p->record_size == 0 ?
		    req->count / p->record_size : 0;
	return n == 0 || req->recnum >= total || n > total - req->recnum;
}

enum dev_proxy_retry dev_proxy_retry_how(struct dev_proxy *p,
					 struct io_req *req,
					 io_return_t code)
{
	if (code == D_SUCCESS || arguments_explain(p, req, code) ||
	    p->lineage == NULL ||
	    dev_proxy_server_dying(p) || !dev_proxy_data_kept(req) ||
	    req->tries >= DEV_PROXY_TRIES || !p->good_known ||
	    !supervise_will_restart(p->lineage))
		return DEV_PROXY_ANSWER;
	req->tries++;
	p->checks++;
	return DEV_PROXY_CHECK;
}

bool dev_proxy_may_resend(struct dev_proxy *p, struct io_req *req)
{
	if (p->lineage == NULL || !dev_proxy_data_kept(req) ||
	    req->tries >= DEV_PROXY_TRIES)
		return false;
	req->tries++;
	return true;
}

bool dev_proxy_parked_soon(const struct dev_proxy *p)
{
	return p->lineage != NULL && !p->down && !p->restarting &&
	       dev_proxy_server_dying(p) && supervise_will_restart(p->lineage);
}

bool dev_proxy_restart_for(struct dev_proxy *p, enum dev_proxy_why why)
{
	/* what the proxy prints, and why the task ended */
	static const struct {
		const char *said, *ended;
	} reasons[] = {
		[DEV_PROXY_FAILS] = {
			"a call failed and so did a read that worked before",
			"restarted: its driver fails (D_IO_ERROR)" },
		[DEV_PROXY_FAILS_TWICE] = {
			"a call failed twice, the device working otherwise",
			"restarted: its driver fails a call twice" },
		[DEV_PROXY_WRONG_DATA] = {
			"its server answered other data than was written",
			"restarted: its driver answers wrong data" },
	};
	struct task *task = task_port_task(p->task);

	if (task == NULL || task != thread_current()->task ||
	    dev_proxy_server_dying(p) || !supervise_will_restart(p->lineage))
		return false;
	if (why != DEV_PROXY_WRONG_DATA)
		p->retried++;
	klog(&restart_log, "device-proxy: %s: %s; its server is started "
	     "again\n", p->name, reasons[why].said);
	/* The caller's own thread keeps the task alive until it leaves
	 * the kernel: the call's record outlives this answer. */
	task_terminate(task, reasons[why].ended);
	return true;
}
