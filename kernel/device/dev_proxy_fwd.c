/* SPDX-License-Identifier: GPL-2.0-only */
/* The calls the proxy module forwards to driver servers, and their replies. */
/*
 * Each forwarded call is a struct dev_proxy_fwd with a kernel port of
 * its own (IKOT_PROXY_REPLY): the request goes to the server
 * (proxy_forward.defs's KERNEL_USER stubs, device.defs's ids) with a
 * send-once right to that port as its reply port, so the one answer the
 * server can give names the call it answers.  The answer is served by
 * device_reply.defs's stubs, built KERNEL_SERVER with the prefix dpr_
 * and KernelServer (kernel/device/local.mk), or, for device_set_status, read as MIG's
 * mig_reply_header_t, or, for device_get_status (GRAFT_DEV_INFO), by
 * device_status_reply.defs's (prefix dsr_; info_answer).  Whatever the
 * server sends, the call completes once and its port dies with it:
 *   - a reply of the kind asked for: its code (dev_error_from_server)
 *     and data (a failure may come as MIG's bare mig_reply_header_t); a read answered with more bytes than asked, or a write
 *     said to have written more than it gave: D_INVALID_SIZE, the data
 *     dropped;
 *   - any other message (another reply's id, a malformed one):
 *     D_IO_ERROR;
 *   - the reply right destroyed unanswered (the send-once
 *     notification): D_IO_ERROR; if the server is dying, its device
 *     port's death answers instead (D_DEVICE_DOWN, or the call is kept
 *     for a supervised server's next instance);
 * each refusal printed through klog.  A reply after the call completed
 * (the client's reply port died first, or the server's port) finds the
 * port dead: the server's send fails, nothing reaches the kernel.
 *
 * A disk's read or write whose data pages can be lent goes as
 * proxy_pages.defs's proxy_read_pages / proxy_write_pages instead: the
 * publisher named a direct map (dev_claim.h), the request is at most
 * PROXY_PAGES_MAX pages, none of them the zero page of a write's
 * untouched memory, each below the direct map's top.  Its pages are
 * mapped into the server while it works (dev_claim_lend) and answered
 * with device_write_reply.  Until the server answers, the request cannot
 * be cancelled; if it ends any other way (the server died, dropped it,
 * or answered wrongly), the server's devices are stopped (bus mastering
 * off, dev_claim_quiesce_task) before the pages are taken back and go
 * anywhere else.
 *
 * A disk's read or write a supervised server answers D_IO_ERROR, and
 * with verify=1 every disk answer, is checked before its client sees it
 * (dev_proxy_check.c).
 */
#include <stdbool.h>
#include <stddef.h>

#include <device/device_types.h>
#include <mach/mig_errors.h>
#include <mach/notify.h>

#include "device/dev_claim.h"
#include "device/dev_error.h"
#include "device/dev_info.h"
#include "device/dev_proxy.h"
#include "device/dev_proxy_call.h"
#include "device/dev_proxy_fwd.h"
#include "device/device.h"
#include "device/io_req.h"
#include "graft_mig.h"
#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_kobject.h"
#include "ipc/ipc_port.h"
#include "ipc/ipc_space.h"
#include "kern/clock.h"
#include "kern/kalloc.h"
#include "kern/klog.h"
#include "kern/string.h"
#include "kern/task_port.h"
#include "vm/vm_map.h"
#include "vm/vm_map_copy.h"
#include "vm/vm_map_copy_kernel.h"
#include "vm/vm_page.h"
#include "x86_64/cpu.h"

#include "proxy_forward.h"	/* generated (kernel/device/local.mk) */
#include "proxy_pages.h"	/* generated */
#include "proxy_watch.h"	/* generated */

static KLOG_SOURCE(fwd_log, "device-proxy");

static unsigned int in_flight;
static void (*restart_probe)(void);

void dev_proxy_restart_probe_set(void (*fn)(void))
{
	restart_probe = fn;
}

unsigned int dev_proxy_fwd_count(void)
{
	return in_flight;
}

/* A new call of @p waiting for @reply_id; *@sonce gets the send-once
 * right its request carries.  NULL if memory is short. */
struct dev_proxy_fwd *dev_proxy_call_new(struct dev_proxy *p,
					 mach_msg_id_t reply_id,
					 struct ipc_port **sonce)
{
	struct dev_proxy_fwd *f = kzalloc(sizeof(*f));

	if (f == NULL)
		return NULL;
	f->port = ipc_port_alloc_kernel(f, IKOT_PROXY_REPLY);
	if (f->port == NULL) {
		kfree(f);
		return NULL;
	}
	f->p = p;
	f->reply_id = reply_id;
	f->sent = clock_ticks();
	f->next = p->fwds;
	p->fwds = f;
	in_flight++;
	*sonce = ipc_port_make_send_once(f->port);
	return f;
}

/* Take @f off its publication, kill its port, free it. */
void dev_proxy_call_free(struct dev_proxy_fwd *f)
{
	struct dev_proxy_fwd **link = &f->p->fwds;

	while (*link != f)
		link = &(*link)->next;
	*link = f->next;
	in_flight--;
	ipc_port_dealloc_kernel(f->port);
	if (f->frame != NULL)
		kfree(f->frame);
	if (f->sums != NULL)
		kfree(f->sums);
	kfree(f);
}

/* The request to the server could not be sent: undo @f (@sonce, the
 * right the message would have carried, is still ours). */
void dev_proxy_call_unsent(struct dev_proxy_fwd *f, struct ipc_port *sonce)
{
	ipc_port_release_sonce(sonce);
	dev_proxy_call_free(f);
}

/* The pages of @req's data in its copy: *@n of them from the one
 * returned, and the offset of the data in the first. */
static const uint64_t *req_frames(const struct io_req *req, size_t *n,
				  uint64_t *offset)
{
	const struct vm_map_copy *c = req->copy;

	*offset = c->offset % VM_PAGE_SIZE;
	*n = (*offset + req->count + VM_PAGE_SIZE - 1) / VM_PAGE_SIZE;
	return &c->frames[c->offset / VM_PAGE_SIZE];
}

/* Whether @req (of @p, forwarded as @op) may go with its pages lent,
 * and lend them if so. */
static bool lend(const struct dev_proxy *p, const struct io_req *req,
		 enum io_op op)
{
	uint64_t offset;
	const uint64_t *frames;
	size_t n;

	/* dev_claim_lend refuses a publisher without a direct map */
	if (p->net || (op != IO_READ && op != IO_WRITE) || req->count == 0 ||
	    req->copy == NULL)
		return false;
	frames = req_frames(req, &n, &offset);
	if (n > PROXY_PAGES_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (frames[i] == 0)
			return false;	/* a write's untouched page */
	return dev_claim_lend(p->task, frames, n, op == IO_READ) == D_SUCCESS;
}

/* Take @f's lent pages back; if the server did not answer, stop its
 * devices first (they may still be moving the data). */
void dev_proxy_call_unlend(struct dev_proxy_fwd *f)
{
	uint64_t offset;
	size_t n;
	const uint64_t *frames = req_frames(f->req, &n, &offset);

	if (!f->answered)
		dev_claim_quiesce_task(f->p->task);
	dev_claim_unlend(f->p->task, frames, n);
	f->lent = false;
}

/* Complete @f with @code and @done bytes: its request through the reply
 * thread, or at once if @now (the server's answer, in thread context). */
void dev_proxy_call_finish(struct dev_proxy_fwd *f, io_return_t code,
			   size_t done, bool now)
{
	struct io_req *req = f->req;

	if (f->check) {
		dev_proxy_check_done(f, code, now);
		return;
	}
	if (f->readback) {
		dev_proxy_check_read_back_done(f, code, now);
		return;
	}
	if (req != NULL && code == D_SUCCESS) {
		f->p->good_known = true;
		f->p->good_recnum = req->recnum;	/* a disk's */
	}
	if (req != NULL && f->p->sums != NULL && dev_proxy_call_writes(req))
		dev_proxy_check_written(f, code);
	if (f->lent)
		dev_proxy_call_unlend(f);
	if (f->heartbeat)
		f->p->heartbeat_at = 0;	/* answered, or gone with it */
	else if (now)			/* the server's answer */
		f->p->answered_at = clock_ticks();
	if (!f->heartbeat && f->p->first_due && now) {
		f->p->first_due = false;
		if (restart_probe != NULL)
			restart_probe();
	}

	if (req != NULL) {
		req->error = code;
		req->done = code == D_SUCCESS ? done : 0;
	} else {
		if (code == D_SUCCESS && f->kept)
			dev_proxy_setting_record(f->p, f->flavor, f->ints,
						 f->count);
		dev_reply_send(&f->reply, code);
	}
	dev_proxy_call_free(f);
	if (req != NULL && now)
		io_req_reply_now(req);
	else if (req != NULL)
		io_req_done(req);
}

/* fwd_complete - from any context: the reply thread replies.
 * fwd_answer - from a handler of the server's answer (thread context):
 * the reply goes out now, so the client does not wait until the server
 * blocks and the reply thread runs. */
static void fwd_complete(struct dev_proxy_fwd *f, io_return_t code,
			 size_t done)
{
	dev_proxy_call_finish(f, code, done, false);
}

static void fwd_answer(struct dev_proxy_fwd *f, io_return_t code,
		       size_t done)
{
	enum dev_proxy_retry how = DEV_PROXY_ANSWER;
	uint64_t flags;

	if (f->req != NULL && code != D_SUCCESS) {
		flags = cpu_intr_save();
		how = dev_proxy_retry_how(f->p, f->req, code);
		cpu_intr_restore(flags);
	}
	if (how == DEV_PROXY_CHECK)
		dev_proxy_check_send(f, code);
	else if (code == D_SUCCESS && f->sums != NULL &&
		 done == f->req->count)
		dev_proxy_check_read_back(f);
	else if (code == D_SUCCESS && f->req != NULL && f->p->sums != NULL &&
		 !dev_proxy_call_writes(f->req) &&
		 dev_proxy_check_read_differs(f, done))
		dev_proxy_check_wrong(f, true);
	else
		dev_proxy_call_finish(f, code, done, true);
}

/* The form @req travels in to the server: its own, but a NIC's write
 * of at most IO_INBAND_MAX bytes goes inband whatever the client used,
 * so the server neither maps nor frees pages for a frame. */
static enum io_op fwd_op(const struct dev_proxy *p, const struct io_req *req)
{
	if (p->net && req->op == IO_WRITE && req->count <= IO_INBAND_MAX)
		return IO_WRITE_INBAND;
	return req->op;
}

/* Send @req with its lent pages (proxy_pages.defs). */
static kern_return_t fwd_pages(struct ipc_port *dest, struct ipc_port *sonce,
			       dev_mode_t mode, struct io_req *req)
{
	uint64_t offset;
	size_t n;
	const uint64_t *frames = req_frames(req, &n, &offset);

	if (req->op == IO_READ)
		return dpp_proxy_read_pages(dest, sonce, mode, req->recnum,
					    (int)req->count, (int)offset,
					    (rpc_phys_addr_t *)frames,
					    (mach_msg_type_number_t)n);
	return dpp_proxy_write_pages(dest, sonce, mode, req->recnum,
				     (int)req->count, (int)offset,
				     (rpc_phys_addr_t *)frames,
				     (mach_msg_type_number_t)n);
}

io_return_t dev_proxy_fwd_io(struct dev_proxy *p, struct io_req *req)
{
	static const mach_msg_id_t reply_ids[] = {
		[IO_READ] = DS_READ_REPLY_ID,
		[IO_READ_INBAND] = DS_READ_INBAND_REPLY_ID,
		[IO_WRITE] = DS_WRITE_REPLY_ID,
		[IO_WRITE_INBAND] = DS_WRITE_INBAND_REPLY_ID,
	};
	enum io_op op = fwd_op(p, req);
	struct ipc_port *sonce, *dest;
	struct dev_proxy_fwd *f = dev_proxy_call_new(p, reply_ids[op], &sonce);
	char inband[IO_INBAND_MAX];
	dev_mode_t mode;
	kern_return_t kr;

	if (f == NULL)
		return D_NO_MEMORY;
	f->req = req;
	/* Out-of-line data goes to the server with the request: a NIC
	 * keeps the frame for its outgoing filters (none kept if memory is
	 * short).  Inband data stays in @req for them. */
	if (p->net && op == IO_WRITE && dev_proxy_net_frame_size(req->count)) {
		f->frame = kalloc(req->count);
		if (f->frame != NULL)
			io_req_get(req, 0, f->frame, req->count);
	}
	if (op == IO_WRITE_INBAND)
		io_req_get(req, 0, inband, req->count);
	/* verify=1: the checksums of what it writes, before it goes */
	if (p->sums != NULL && dev_proxy_call_writes(req))
		f->sums = dev_proxy_check_sums(p, req);
	/* D_READ and D_WRITE say how the device was opened (dev_proxy.h). */
	mode = (req->mode & ~(dev_mode_t)(D_READ | D_WRITE)) | p->open_mode;
	dest = ipc_port_copy_send(p->server);
	if (lend(p, req, op)) {
		f->lent = true;
		f->reply_id = DS_WRITE_REPLY_ID;
		kr = fwd_pages(dest, sonce, mode, req);
		if (kr != MACH_MSG_SUCCESS) {
			f->answered = true;	/* nothing was sent */
			dev_proxy_call_unlend(f);
		}
		goto sent;
	}
	switch (op) {
	case IO_READ:
		kr = dpf_device_read_request(dest, sonce, mode,
					     req->recnum, (int)req->count);
		break;
	case IO_READ_INBAND:
		kr = dpf_device_read_request_inband(dest, sonce, mode,
						    req->recnum,
						    (int)req->count);
		break;
	case IO_WRITE:
		kr = dpf_device_write_request(dest, sonce, mode,
					      req->recnum,
					      (io_buf_ptr_t)req->copy,
					      (mach_msg_type_number_t)
					      req->count);
		if (kr == MACH_MSG_SUCCESS)
			req->copy = NULL;	/* the server's now */
		break;
	default:
		kr = dpf_device_write_request_inband(dest, sonce, mode,
						     req->recnum, inband,
						     (mach_msg_type_number_t)
						     req->count);
		break;
	}
sent:
	if (kr != MACH_MSG_SUCCESS) {
		dev_proxy_call_unsent(f, sonce);
		return D_NO_MEMORY;
	}
	return D_IO_QUEUED;
}

bool dev_proxy_call_resend(struct dev_proxy_fwd *f)
{
	if (dev_proxy_fwd_io(f->p, f->req) != D_IO_QUEUED)
		return false;
	dev_proxy_call_free(f);
	return true;
}

io_return_t dev_proxy_fwd_status_reply(struct dev_proxy *p,
				       struct dev_reply *r,
				       dev_flavor_t flavor, const int *status,
				       mach_msg_type_number_t count)
{
	struct ipc_port *sonce;
	struct dev_proxy_fwd *f = dev_proxy_call_new(p, DS_SET_STATUS_ID + 100,
						     &sonce);

	if (f == NULL) {
		dev_reply_send(r, D_NO_MEMORY);
		return D_NO_MEMORY;
	}
	f->reply = *r;
	r->port = NULL;
	r->ledger = NULL;
	f->kept = count <= DEV_PROXY_SETTING_INTS;
	if (f->kept) {
		f->flavor = flavor;
		f->count = count;
		memcpy(f->ints, status, count * sizeof(int));
	}
	if (dpf_device_set_status(ipc_port_copy_send(p->server), sonce,
				  flavor, (int *)status, count) !=
	    MACH_MSG_SUCCESS) {
		ipc_port_release_sonce(sonce);
		fwd_complete(f, D_NO_MEMORY, 0);
	}
	return D_IO_QUEUED;
}

io_return_t dev_proxy_fwd_info(struct dev_proxy *p, struct dev_call *call)
{
	struct ipc_port *sonce;
	struct dev_proxy_fwd *f = dev_proxy_call_new(p, DS_GET_STATUS_ID + 100,
						     &sonce);
	io_return_t rc;

	if (f == NULL)
		return D_NO_MEMORY;
	rc = dev_reply_defer(call, &f->reply);
	if (rc != D_IO_QUEUED) {
		dev_proxy_call_unsent(f, sonce);
		return rc;
	}
	if (dpf_device_get_status(ipc_port_copy_send(p->server), sonce,
				  GRAFT_DEV_INFO, GRAFT_DEV_INFO_COUNT) !=
	    MACH_MSG_SUCCESS) {
		ipc_port_release_sonce(sonce);
		fwd_complete(f, D_NO_MEMORY, 0);
	}
	return D_IO_QUEUED;
}

/* Answer @f, a forwarded GRAFT_DEV_INFO, from the server's @code and
 * @count ints at @status (dev_proxy.h says how). */
static void info_answer(struct dev_proxy_fwd *f, kern_return_t code,
			const int *status, mach_msg_type_number_t count)
{
	struct graft_dev_info info;
	io_return_t rc = dev_error_from_server(code);

	if (rc == D_INVALID_OPERATION) {
		dev_info_init(&info, GRAFT_DEV_SERVER, "", f->p->server_task);
		rc = D_SUCCESS;
	} else if (rc == D_SUCCESS) {
		if (dev_info_parse(&info, status, count) == 0) {
			dev_info_where(&info, GRAFT_DEV_SERVER,
				       f->p->server_task);
		} else {
			klog(&fwd_log, "device-proxy: %s: the server's "
			     "GRAFT_DEV_INFO is malformed\n", f->p->name);
			rc = D_IO_ERROR;
		}
	}
	dev_reply_send_status(&f->reply, rc, (const int *)&info,
			      GRAFT_DEV_INFO_COUNT);
	dev_proxy_call_free(f);
}

io_return_t dev_proxy_fwd_status(struct dev_proxy *p, struct dev_call *call,
				 dev_flavor_t flavor, const int *status,
				 mach_msg_type_number_t count)
{
	struct dev_reply r;
	io_return_t rc = dev_reply_defer(call, &r);

	if (rc != D_IO_QUEUED)
		return rc;
	(void)dev_proxy_fwd_status_reply(p, &r, flavor, status, count);
	return D_IO_QUEUED;
}

bool dev_proxy_fwd_cancel(struct dev_proxy *p, struct io_req *req)
{
	for (struct dev_proxy_fwd *f = p->fwds; f != NULL; f = f->next) {
		if (f->req == req) {
			if (f->lent)
				return false;	/* its pages are in use */
			if (p->sums != NULL && dev_proxy_call_writes(req))
				/* its records are unknown */
				dev_proxy_check_written(f, D_IO_ERROR);
			for (struct dev_proxy_fwd *c = p->fwds; c != NULL;
			     c = c->next)
				if (c->checked == f)
					c->checked = NULL;
			dev_proxy_call_free(f);
			return true;
		}
	}
	return false;
}

void dev_proxy_fwd_fail_all(struct dev_proxy *p, io_return_t code)
{
	while (p->fwds != NULL)
		fwd_complete(p->fwds, code, 0);
}

/* proxy_watch.defs's heartbeat: its answer's id. */
#define PROXY_HEARTBEAT_REPLY_ID	5500

uint64_t dev_proxy_fwd_oldest(const struct dev_proxy *p)
{
	uint64_t oldest = 0;

	for (const struct dev_proxy_fwd *f = p->fwds; f != NULL; f = f->next)
		if (!f->heartbeat && (oldest == 0 || f->sent < oldest))
			oldest = f->sent;
	return oldest;
}

void dev_proxy_fwd_heartbeat(struct dev_proxy *p)
{
	struct ipc_port *sonce;
	struct dev_proxy_fwd *f = dev_proxy_call_new(p,
						     PROXY_HEARTBEAT_REPLY_ID,
						     &sonce);

	if (f == NULL)
		return;		/* tried again on the next look */
	f->heartbeat = true;
	p->heartbeat_at = f->sent;
	if (dpw_proxy_heartbeat(ipc_port_copy_send(p->server), sonce) !=
	    MACH_MSG_SUCCESS) {
		ipc_port_release_sonce(sonce);
		dev_proxy_call_free(f);
		p->heartbeat_at = 0;
	}
}

void dev_proxy_fwd_requeue_all(struct dev_proxy *p, struct io_req_queue *q)
{
	/* @p->fwds is newest first: each goes to the head of @q, ahead
	 * of those kept meanwhile, so the oldest ends first */
	while (p->fwds != NULL) {
		struct dev_proxy_fwd *f = p->fwds;
		struct io_req *req = f->req;

		if (f->lent)
			/* unanswered: the devices stop */
			dev_proxy_call_unlend(f);
		if (f->check || f->readback) {	/* its call is kept on
						 * its own */
			dev_proxy_call_free(f);
			continue;
		}
		if (f->reply_id == DS_GET_STATUS_ID + 100) {
			/* GRAFT_DEV_INFO: the proxy's own part, now */
			info_answer(f, D_INVALID_OPERATION, NULL, 0);
			continue;
		}
		if (f->heartbeat) {
			p->heartbeat_at = 0;
		} else if (req != NULL) {
			req->sent_again = false;	/* the next instance's
							 * own once more */
			io_req_queue_push_head(q, req);
		} else if (f->kept) {
			dev_proxy_keep_status_reply(p, &f->reply, f->flavor,
						    f->ints, f->count);
		} else {
			dev_reply_send(&f->reply, D_DEVICE_DOWN);
		}
		dev_proxy_call_free(f);
	}
}

bool dev_proxy_server_dying(const struct dev_proxy *p)
{
	const struct ipc_port *s = p->server;

	return p->down || !IPC_PORT_VALID(s) || !s->active ||
	       (s->receiver != NULL && !s->receiver->active);
}

/* The call @port answers, if it is a live reply port. */
static struct dev_proxy_fwd *fwd_of(ipc_port_t port)
{
	unsigned int kotype;
	struct dev_proxy_fwd *f = ipc_port_kobject(port, &kotype);

	return kotype == IKOT_PROXY_REPLY ? f : NULL;
}

/* Is @f waiting for a reply of @id?  If not, it fails (printed). */
static bool fwd_expects(struct dev_proxy_fwd *f, mach_msg_id_t id)
{
	if (f->reply_id == id)
		return true;
	klog(&fwd_log, "device-proxy: %s: the server answered %d with %d\n",
	     f->p->name, f->reply_id - 100, id);
	fwd_answer(f, D_IO_ERROR, 0);
	return false;
}

/* @f's write went out whole: a NIC's frame to its outgoing filters,
 * kept in @f if it travelled out of line, else still in its request. */
static void net_sent(struct dev_proxy_fwd *f)
{
	char inband[IO_INBAND_MAX];
	size_t len = f->req->count;

	if (!f->p->net || !dev_proxy_net_frame_size(len))
		return;
	if (f->frame != NULL) {
		dev_proxy_net_sent(f->p, f->frame, len);
	} else if (f->reply_id == DS_WRITE_INBAND_REPLY_ID) {
		io_req_get(f->req, 0, inband, len);
		dev_proxy_net_sent(f->p, inband, len);
	}
}

/* A write's reply of @written bytes with @code. */
static kern_return_t write_reply(ipc_port_t reply_port, mach_msg_id_t id,
				 kern_return_t code, int written)
{
	struct dev_proxy_fwd *f = fwd_of(reply_port);

	if (f == NULL || !fwd_expects(f, id))
		return KERN_SUCCESS;
	f->answered = true;	/* it let go of the pages, if lent */
	if (written < 0 || (size_t)written > f->req->count) {
		klog(&fwd_log, "device-proxy: %s: the server wrote %d of "
		     "%zu bytes\n", f->p->name, written, f->req->count);
		fwd_answer(f, D_INVALID_SIZE, 0);
		return KERN_SUCCESS;
	}
	if (code == D_SUCCESS && (size_t)written == f->req->count)
		net_sent(f);
	fwd_answer(f, dev_error_from_server(code), (size_t)written);
	return KERN_SUCCESS;
}

/* Check a read's reply of @count bytes: the call, or NULL (the call
 * failed here and is gone). */
static struct dev_proxy_fwd *read_reply_check(ipc_port_t reply_port,
					      mach_msg_id_t id,
					      size_t count)
{
	struct dev_proxy_fwd *f = fwd_of(reply_port);

	if (f == NULL || !fwd_expects(f, id))
		return NULL;
	if (f->check || f->readback)
		return f;
	if (count > f->req->count) {
		klog(&fwd_log, "device-proxy: %s: the server read %zu bytes "
		     "where %zu were asked\n", f->p->name, count,
		     f->req->count);
		fwd_answer(f, D_INVALID_SIZE, 0);
		return NULL;
	}
	return f;
}

/* device_reply.defs's routines, the server's answers (generated
 * demux proxy_reply_server, kernel/device/local.mk).  Each consumes
 * what it is given and answers KERN_SUCCESS: no reply goes back. */

kern_return_t dpr_device_open_reply(ipc_port_t reply_port,
				    kern_return_t return_code,
				    ipc_port_t device_port);
kern_return_t dpr_device_write_reply(ipc_port_t reply_port,
				     kern_return_t return_code,
				     int bytes_written);
kern_return_t dpr_device_write_reply_inband(ipc_port_t reply_port,
					    kern_return_t return_code,
					    int bytes_written);
kern_return_t dpr_device_read_reply(ipc_port_t reply_port,
				    kern_return_t return_code,
				    io_buf_ptr_t data,
				    mach_msg_type_number_t dataCnt);
kern_return_t dpr_device_read_reply_inband(ipc_port_t reply_port,
					   kern_return_t return_code,
					   const io_buf_ptr_inband_t data,
					   mach_msg_type_number_t dataCnt);
boolean_t proxy_reply_server(mach_msg_header_t *in, mach_msg_header_t *out);

/* device_status_reply.defs's routine, a forwarded get_status's answer
 * (generated demux device_status_reply_server). */
kern_return_t dsr_device_get_status_reply(ipc_port_t reply_port,
					  kern_return_t return_code,
					  const dev_status_t status,
					  mach_msg_type_number_t statusCnt);
boolean_t device_status_reply_server(mach_msg_header_t *in,
				     mach_msg_header_t *out);

kern_return_t dsr_device_get_status_reply(ipc_port_t reply_port,
					  kern_return_t return_code,
					  const dev_status_t status,
					  mach_msg_type_number_t statusCnt)
{
	struct dev_proxy_fwd *f = fwd_of(reply_port);

	if (f != NULL && fwd_expects(f, DS_GET_STATUS_ID + 100)) {
		f->answered = true;
		info_answer(f, return_code, status, statusCnt);
	}
	return KERN_SUCCESS;
}

kern_return_t dpr_device_open_reply(ipc_port_t reply_port,
				    kern_return_t return_code,
				    ipc_port_t device_port)
{
	struct dev_proxy_fwd *f = fwd_of(reply_port);

	(void)return_code;
	ipc_port_release_send(device_port);
	if (f != NULL)
		(void)fwd_expects(f, DS_OPEN_REPLY_ID);
	return KERN_SUCCESS;
}

kern_return_t dpr_device_write_reply(ipc_port_t reply_port,
				     kern_return_t return_code,
				     int bytes_written)
{
	return write_reply(reply_port, DS_WRITE_REPLY_ID, return_code,
			   bytes_written);
}

kern_return_t dpr_device_write_reply_inband(ipc_port_t reply_port,
					    kern_return_t return_code,
					    int bytes_written)
{
	return write_reply(reply_port, DS_WRITE_INBAND_REPLY_ID, return_code,
			   bytes_written);
}

kern_return_t dpr_device_read_reply(ipc_port_t reply_port,
				    kern_return_t return_code,
				    io_buf_ptr_t data,
				    mach_msg_type_number_t dataCnt)
{
	struct vm_map_copy *copy = (struct vm_map_copy *)data;
	size_t count = copy != NULL ? vm_map_copy_size(copy) : 0;
	struct dev_proxy_fwd *f;
	char buf[256];

	if (count < dataCnt)	/* fewer bytes than it says: use those */
		dataCnt = (mach_msg_type_number_t)count;
	f = read_reply_check(reply_port, DS_READ_REPLY_ID, dataCnt);
	if (f != NULL && f->readback && return_code == D_SUCCESS) {
		dev_proxy_check_read_back_copy(f, copy, dataCnt);
	} else if (f != NULL && return_code == D_SUCCESS) {
		for (size_t off = 0; off < dataCnt; off += sizeof(buf)) {
			size_t n = dataCnt - off < sizeof(buf) ?
				   dataCnt - off : sizeof(buf);

			vm_map_copy_kernel_read(copy, off, buf, n);
			io_req_put(f->req, off, buf, n);
		}
	}
	vm_map_copy_discard(copy);
	if (f != NULL)
		fwd_answer(f, dev_error_from_server(return_code), dataCnt);
	return KERN_SUCCESS;
}

kern_return_t dpr_device_read_reply_inband(ipc_port_t reply_port,
					   kern_return_t return_code,
					   const io_buf_ptr_inband_t data,
					   mach_msg_type_number_t dataCnt)
{
	struct dev_proxy_fwd *f = read_reply_check(reply_port,
						   DS_READ_INBAND_REPLY_ID,
						   dataCnt);

	if (f == NULL)
		return KERN_SUCCESS;
	if (return_code == D_SUCCESS && f->req != NULL)
		io_req_put(f->req, 0, data, dataCnt);
	if (return_code == D_SUCCESS && f->readback)
		dev_proxy_check_read_back_bytes(f, data, dataCnt);
	fwd_answer(f, dev_error_from_server(return_code), dataCnt);
	return KERN_SUCCESS;
}

/* A reply that is a bare mig_reply_header_t of @f's id: a
 * device_set_status's answer, or a read's, write's or get_status's
 * failure (MIG's reply of a routine that failed).  True if @request is
 * one (then @f is answered with its code). */
static bool bare_reply(struct dev_proxy_fwd *f, struct ipc_kmsg *request)
{
	const mig_reply_header_t *r =
		(const mig_reply_header_t *)ipc_kmsg_msg(request);

	if (request->header.id != f->reply_id ||
	    (request->header.bits & MACH_MSGH_BITS_COMPLEX) ||
	    request->header.size != sizeof(*r) ||
	    r->RetCodeType.msgt_name != MACH_MSG_TYPE_INTEGER_32 ||
	    ((f->req != NULL || f->check || f->readback) &&
	     r->RetCode == KERN_SUCCESS))
		return false;
	f->answered = true;
	if (f->reply_id == DS_GET_STATUS_ID + 100)
		info_answer(f, r->RetCode, NULL, 0);	/* no record */
	else
		fwd_answer(f, dev_error_from_server(r->RetCode), 0);
	return true;
}

/* The largest reply proxy_reply_server writes (none is sent). */
#define FWD_OUT_MAX	64

/* The handler of reply ports (ipc_kobject.h). */
static mach_msg_return_t reply_handle(struct ipc_kmsg *request,
				      struct ipc_kmsg **reply)
{
	struct ipc_kmsg_header *h = &request->header;
	struct dev_proxy_fwd *f = fwd_of(h->remote);
	struct ipc_kmsg *out;
	kern_return_t kr;

	*reply = NULL;
	if (f == NULL)
		return MIG_BAD_ID;
	if (h->id == MACH_NOTIFY_SEND_ONCE &&
	    MACH_MSGH_BITS_REMOTE(h->bits) == MACH_MSG_TYPE_PORT_SEND_ONCE &&
	    h->size == sizeof(mach_msg_header_t)) {
		/* A dying server's rights go before its device port, whose
		 * death then answers the call (D_DEVICE_DOWN) or keeps it
		 * for the server's next instance (dev_proxy_park). */
		if (dev_proxy_server_dying(f->p))
			return MACH_MSG_SUCCESS;
		klog(&fwd_log, "device-proxy: %s: the server dropped a "
		     "request unanswered\n", f->p->name);
		fwd_complete(f, D_IO_ERROR, 0);
		return MACH_MSG_SUCCESS;
	}
	if (bare_reply(f, request))
		return MACH_MSG_SUCCESS;
	out = ipc_kmsg_alloc(FWD_OUT_MAX);
	if (out == NULL) {
		fwd_answer(f, D_NO_MEMORY, 0);
		return KERN_RESOURCE_SHORTAGE;
	}
	if (f->req != NULL || f->check || f->readback ?
	    !proxy_reply_server(ipc_kmsg_msg(request), ipc_kmsg_msg(out)) :
	    !device_status_reply_server(ipc_kmsg_msg(request),
					ipc_kmsg_msg(out)))
		kr = MIG_BAD_ID;
	else
		kr = ((mig_reply_header_t *)ipc_kmsg_msg(out))->RetCode;
	ipc_kmsg_free(out);
	if (kr == KERN_SUCCESS)
		return MACH_MSG_SUCCESS;
	/* Refused by the stubs: the call is answered all the same. */
	f = fwd_of(h->remote);
	if (f != NULL) {
		klog(&fwd_log, "device-proxy: %s: a bad reply (id %d) from "
		     "the server\n", f->p->name, h->id);
		fwd_answer(f, D_IO_ERROR, 0);
	}
	return kr;
}

void dev_proxy_fwd_init(void)
{
	ipc_kobject_set_handler(IKOT_PROXY_REPLY, reply_handle);
}
