/* SPDX-License-Identifier: GPL-2.0-only */
/* I/O requests, the done queue and the thread that sends their replies. */
/*
 * The completion path every module shares (paper §3.5.1).  The
 * dispatcher records a request (io_req_alloc) before the module starts
 * it.  A module that finishes at once answers D_SUCCESS and the MIG stub
 * replies in the sender's thread.  One that cannot answers D_IO_QUEUED;
 * the dispatcher then moves the reply right into the request and answers
 * MIG_NO_REPLY.  When the transfer ends, the module calls io_req_done(),
 * often from its interrupt handler: that only links the request on the
 * done queue and wakes the reply thread, which builds the reply with
 * device_reply.defs's generated stubs (KERNEL_USER), sends it
 * (mach_msg_send_from_kernel), and frees the request.  A reply to a dead
 * port is destroyed by IPC delivery with everything it carries.  A
 * request still waiting in its module when its reply port dies (the
 * client task died, or destroyed the port) is cancelled then if the
 * module can take it back (a console read waiting for input); one the
 * hardware already has finishes first, its reply being dropped.  So a
 * client that died with requests in flight leaves nothing behind.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <device/device_types.h>
#include <mach/message.h>

#include "device/dev_error.h"
#include "device/dev_port.h"
#include "device/device.h"
#include "device/io_req.h"
#include "graft_mig.h"
#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_mqueue.h"
#include "ipc/ipc_port.h"
#include "kern/klog.h"
#include "kern/ledger.h"
#include "kern/panic.h"
#include "kern/rec_pool.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/task.h"
#include "kern/thread.h"
#include "vm/vm_map.h"
#include "vm/vm_map_copy_kernel.h"
#include "x86_64/cpu.h"

#include "device_direct_reply.h"	/* generated (kernel/device/local.mk) */
#include "device_reply.h"	/* generated (kernel/device/local.mk) */

/* Lines a client's requests can cause (kern/klog.h). */
static KLOG_SOURCE(reply_log, "device");

/* The reply thread runs above ordinary threads: replies are short. */
#define IO_REPLY_PRIORITY	4

static struct io_req_queue done;	/* for the reply thread */
static unsigned int requests;

/*
 * Request records come from a static pool (.bss) and, when it is empty,
 * from the heap: a device_write then takes no heap object (whose slab
 * the heap would give back and take again on every call) and moves no
 * heap counter.
 */
static struct io_req pool_records[16];
static struct rec_pool pool = REC_POOL(pool_records);

/* A request record, zeroed up to its inband buffer (which a request
 * fills before anything reads it); NULL if memory is short. */
static struct io_req *record_get(void)
{
	struct io_req *req = rec_pool_alloc(&pool, sizeof(*req));

	if (req != NULL)
		memset(req, 0, offsetof(struct io_req, inband));
	return req;
}

unsigned int io_req_in_flight(void)
{
	return requests;
}

/* The bytes of @op's data that a request holds out of line. */
static size_t data_bytes(enum io_op op, size_t count)
{
	return op == IO_READ || op == IO_WRITE || op == IO_READ_INTO ? count :
	       0;
}

io_return_t io_req_alloc(struct device *dev, enum io_op op, size_t count,
			 struct io_req **out)
{
	struct ledger *ledger = task_current()->ledger;
	enum ledger_item refused;
	struct io_req *req;
	kern_return_t kr;
	uint64_t flags;

	if (!ledger_charge_io(ledger, data_bytes(op, count), &refused))
		return refused == LEDGER_IO_REQUESTS ? D_WOULD_BLOCK :
		       D_NO_MEMORY;
	req = record_get();
	if (req == NULL) {
		kr = KERN_RESOURCE_SHORTAGE;
		goto err_charged;
	}
	if (op == IO_READ && count > 0) {
		kr = vm_map_copy_kernel_alloc(count, &req->copy);
		if (kr != KERN_SUCCESS)
			goto err_req;
	}
	req->dev = dev_reference(dev);
	req->op = op;
	req->count = count;
	req->error = D_SUCCESS;
	req->ledger = ledger;
	flags = cpu_intr_save();
	requests++;
	cpu_intr_restore(flags);
	*out = req;
	return D_SUCCESS;
err_req:
	rec_pool_free(&pool, req);
err_charged:
	ledger_credit_io(ledger, data_bytes(op, count));
	return dev_error_from_kern(kr);
}

void io_req_free(struct io_req *req)
{
	uint64_t flags;

	ipc_port_watch_remove(&req->watch);
	vm_map_copy_discard(req->copy);
	if (req->reply != NULL)
		ipc_port_destroy_right(req->reply, req->reply_type);
	ledger_credit_io(req->ledger, data_bytes(req->op, req->count));
	dev_release(req->dev);
	flags = cpu_intr_save();
	requests--;
	cpu_intr_restore(flags);
	rec_pool_free(&pool, req);
}

static void check_range(const struct io_req *req, size_t off, size_t len)
{
	if (off > req->count || len > req->count - off)
		panic("io_req: %zu+%zu outside a request of %zu bytes", off,
		      len, req->count);
}

void io_req_put(struct io_req *req, size_t off, const void *src, size_t len)
{
	check_range(req, off, len);
	if (len == 0)
		return;
	if (req->op == IO_READ || req->op == IO_READ_INTO)
		vm_map_copy_kernel_write(req->copy, off, src, len);
	else
		memcpy(req->inband + off, src, len);
}

void io_req_get(struct io_req *req, size_t off, void *dst, size_t len)
{
	check_range(req, off, len);
	if (len == 0)
		return;
	if (req->op == IO_WRITE || req->op == IO_READ)
		vm_map_copy_kernel_read(req->copy, off, dst, len);
	else
		memcpy(dst, req->inband + off, len);
}

const void *io_req_data(const struct io_req *req)
{
	if (req->op == IO_WRITE_INBAND)
		return req->inband;
	if (req->op == IO_WRITE)
		return vm_map_copy_bytes(req->copy);
	return NULL;
}

void io_req_finish_read(struct io_req *req)
{
	static const char zeros[256];
	size_t off = req->done;

	if (req->op != IO_READ || req->copy == NULL)
		return;
	if (req->error != D_SUCCESS) {
		vm_map_copy_discard(req->copy);
		req->copy = NULL;
		req->done = 0;
		return;
	}
	/* A short read: what the module did not write must not travel. */
	while (off < req->count) {
		size_t n = req->count - off < sizeof(zeros) ?
			   req->count - off : sizeof(zeros);

		vm_map_copy_kernel_write(req->copy, off, zeros, n);
		off += n;
	}
}

bool io_req_queue_remove(struct io_req_queue *q, struct io_req *req)
{
	struct io_req *prev = NULL;

	for (struct io_req *r = q->head; r != NULL; prev = r, r = r->next) {
		if (r != req)
			continue;
		if (prev != NULL)
			prev->next = r->next;
		else
			q->head = r->next;
		if (q->tail == r)
			q->tail = prev;
		return true;
	}
	return false;
}

/* Cancel @req if its module still has it waiting (interrupts off). */
static void cancel(struct io_req *req)
{
	const struct dev_ops *ops = req->dev->module->ops;

	if (ops->cancel != NULL && ops->cancel(req->dev, req))
		io_req_free(req);
}

/* The reply port of a queued request died (ipc_port_watch_add). */
static void reply_port_died(struct ipc_port_watch *watch)
{
	cancel((struct io_req *)((char *)watch -
				 offsetof(struct io_req, watch)));
}

void io_req_queue_reply(struct io_req *req, struct ipc_port *reply,
			mach_msg_type_name_t type)
{
	req->reply = reply;
	req->reply_type = type;
	if (!ipc_port_watch_add(reply, &req->watch, reply_port_died))
		cancel(req);
}

void io_req_done(struct io_req *req)
{
	uint64_t flags = cpu_intr_save();

	io_req_queue_push(&done, req);
	thread_wakeup(&done);
	cpu_intr_restore(flags);
}

/* Send the reply of @req with the generated stub of its operation; the
 * reply right and (for a read) the data pages go with it. */
static void reply(struct io_req *req)
{
	ipc_port_t port = req->reply;
	mach_msg_type_name_t type = req->reply_type;
	kern_return_t kr;

	ipc_port_watch_remove(&req->watch);	/* the reply takes the right */
	req->reply = NULL;
	switch (req->op) {
	case IO_READ:
		io_req_finish_read(req);
		kr = ds_device_read_reply(port, type, req->error,
					  (io_buf_ptr_t)req->copy, req->done);
		if (kr == MACH_MSG_SUCCESS)
			req->copy = NULL;
		break;
	case IO_READ_INTO:	/* the pages go back with the request */
		kr = ds_device_read_into_reply(port, type, req->error,
					       req->error == D_SUCCESS ?
					       (int)req->done : 0);
		break;
	case IO_READ_INBAND:
		kr = ds_device_read_reply_inband(port, type, req->error,
						 req->inband,
						 req->error == D_SUCCESS ?
						 req->done : 0);
		break;
	case IO_WRITE:
		kr = ds_device_write_reply(port, type, req->error, req->done);
		break;
	default:
		kr = ds_device_write_reply_inband(port, type, req->error,
						  req->done);
		break;
	}
	if (kr != MACH_MSG_SUCCESS)
		klog(&reply_log, "device: reply to %s lost (0x%x)\n",
		     req->dev->name, kr);
}

void io_req_reply_now(struct io_req *req)
{
	reply(req);
	if (req->dev->module->ops->replied != NULL)
		req->dev->module->ops->replied(req->dev, req);
	io_req_free(req);
}

static void reply_thread(void *arg)
{
	(void)arg;
	for (;;) {
		uint64_t flags = cpu_intr_save();
		struct io_req *req;

		while (io_req_queue_empty(&done)) {
			assert_wait(&done);
			thread_block();
		}
		req = io_req_queue_pop(&done);
		cpu_intr_restore(flags);
		io_req_reply_now(req);
	}
}

/*
 * The function MIG's KERNEL_USER stubs send with (GNU Mach's name): @msg
 * is a complete kernel-layout message of @size bytes whose destination
 * is a right the caller gives up.  It is copied into a kernel message and
 * delivered (a dead or null destination destroys it).  Returns
 * MACH_MSG_SUCCESS, or MACH_SEND_NO_BUFFER when memory is short: then
 * only the destination right was released and the body's rights and
 * memory are still the caller's.
 */
mach_msg_return_t mach_msg_send_from_kernel(mach_msg_header_t *msg,
					    mach_msg_size_t size)
{
	struct ipc_kmsg *kmsg = ipc_kmsg_alloc(size);
	mach_msg_return_t mr;
	uint64_t flags;

	if (kmsg == NULL) {
		ipc_port_destroy_right((struct ipc_port *)msg->msgh_remote_port,
				       MACH_MSGH_BITS_REMOTE(msg->msgh_bits));
		return MACH_SEND_NO_BUFFER;
	}
	memcpy(&kmsg->header, msg, size);
	kmsg->header.size = size;
	flags = cpu_intr_save();
	mr = ipc_mqueue_send_always(kmsg);
	cpu_intr_restore(flags);
	return mr;
}

void io_req_init(void)
{
	if (kernel_thread_create("io-reply", IO_REPLY_PRIORITY, reply_thread,
				 NULL, NULL) != KERN_SUCCESS)
		panic("device: cannot start the reply thread");
}
