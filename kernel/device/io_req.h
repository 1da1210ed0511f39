/* SPDX-License-Identifier: GPL-2.0-only */
/* I/O requests: recorded before a module starts them, replied to when done. */
#ifndef DEVICE_IO_REQ_H
#define DEVICE_IO_REQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <device/device_types.h>
#include <mach/kern_return.h>
#include <mach/message.h>

#include "ipc/ipc_port.h"

struct device;
struct ledger;
struct vm_map_copy;

enum io_op {
	IO_READ,		/* device_read: data out of line */
	IO_READ_INBAND,		/* device_read_inband */
	IO_WRITE,		/* device_write: data out of line */
	IO_WRITE_INBAND,	/* device_write_inband */
	IO_READ_INTO,		/* device_read_into: data into the
				 * sender's own pages (@copy holds them) */
};

/*
 * One read or write (the paper's I/O-done list, §3.5.1).  The dispatcher
 * (ds_routines.c) records it, with a reference on @dev and its data
 * buffer, before the module starts it.  A module that cannot finish at
 * once answers D_IO_QUEUED, keeps @req (e.g. on its own queue through
 * @next) and later calls io_req_done(), possibly from an interrupt
 * handler; the reply thread then sends the reply through @reply with
 * device_reply.defs's stubs and frees the request.  A queued request
 * watches its reply port: if the port dies first, the module is asked
 * to cancel it (dev_ops.cancel) and, if it can, the request is freed at
 * once.  Each request is charged to the sending task's ledger
 * (LEDGER_IO_REQUESTS, and LEDGER_IO_BYTES for out-of-line data) until
 * it is freed.
 */
struct io_req {
	struct io_req *next;		/* module queue, then done queue */
	struct device *dev;
	enum io_op op;
	dev_mode_t mode;
	recnum_t recnum;
	size_t count;			/* bytes asked for / to write */
	size_t done;			/* bytes moved so far */
	io_return_t error;		/* D_SUCCESS or the failure */
	struct ipc_port *reply;		/* reply right, once queued */
	mach_msg_type_name_t reply_type;
	struct ipc_port_watch watch;	/* on @reply's death, once queued */
	struct ledger *ledger;		/* the sender's, charged */
	unsigned int tries;		/* failures a module retried it
					 * after (the proxy module's) */
	bool sent_again;		/* a module sent it to the same
					 * driver once more */
	bool failed_twice;		/* ... and an earlier driver failed
					 * it twice, working otherwise */
	struct vm_map_copy *copy;	/* IO_READ, IO_WRITE, IO_READ_INTO
					 * data */
	char inband[IO_INBAND_MAX];	/* _INBAND data */
};

/*
 * A FIFO of requests linked through their @next: a module's waiting
 * requests, the reply thread's done queue.  Zero-initialised is empty.
 * The caller serialises (interrupts off).
 */
struct io_req_queue {
	struct io_req *head, *tail;
};

static inline bool io_req_queue_empty(const struct io_req_queue *q)
{
	return q->head == NULL;
}

/* io_req_queue_push - @req last; io_req_queue_push_head - @req first. */
static inline void io_req_queue_push(struct io_req_queue *q,
				     struct io_req *req)
{
	req->next = NULL;
	if (q->tail != NULL)
		q->tail->next = req;
	else
		q->head = req;
	q->tail = req;
}

static inline void io_req_queue_push_head(struct io_req_queue *q,
					  struct io_req *req)
{
	req->next = q->head;
	q->head = req;
	if (q->tail == NULL)
		q->tail = req;
}

/* io_req_queue_pop - take the first request off @q; NULL if empty.  Its
 * @next is left as it was (every push sets it). */
static inline struct io_req *io_req_queue_pop(struct io_req_queue *q)
{
	struct io_req *req = q->head;

	if (req != NULL) {
		q->head = req->next;
		if (q->head == NULL)
			q->tail = NULL;
	}
	return req;
}

/*
 * io_req_alloc - *@req gets a request of @op for @count bytes on @dev (a
 * reference is taken), charged to the calling task's ledger; for IO_READ
 * with @count > 0 the reply pages are allocated
 * (vm_map_copy_kernel_alloc).  D_SUCCESS; D_WOULD_BLOCK when the task
 * has LEDGER_IO_REQUESTS requests in flight, D_NO_MEMORY when IO_READ,
 * IO_WRITE or IO_READ_INTO data (the caller attaches the last two) would
 * pass its LEDGER_IO_BYTES, or memory is short
 * (nothing allocated or charged).
 * io_req_free - drop it: its reference, its data, its charge, and its
 * reply right if it still holds one (destroyed as an unsent reply would
 * be).  Interrupts on or off; not from an interrupt handler.
 */
io_return_t io_req_alloc(struct device *dev, enum io_op op, size_t count,
			 struct io_req **req);
void io_req_free(struct io_req *req);

/*
 * io_req_queue_reply - @req was queued by its module (D_IO_QUEUED): keep
 * the reply right @reply of kernel type @type in it and watch @reply's
 * death.  If @reply is null or already dead, nobody can be answered:
 * the module is asked to cancel at once.  Interrupts off (in the op's
 * dispatcher); never blocks.
 */
void io_req_queue_reply(struct io_req *req, struct ipc_port *reply,
			mach_msg_type_name_t type);

/* io_req_queue_remove - take @req off @q if it is there (true).  The
 * caller serialises (interrupts off). */
bool io_req_queue_remove(struct io_req_queue *q, struct io_req *req);

/*
 * io_req_put / io_req_get - move @len bytes between kernel memory and the
 * request's data at @off bytes from its start: put fills a read's data,
 * get takes a write's (or what a read's holds so far).  [off, off + len)
 * must lie within req->count (a module bug otherwise: panic).
 * Out-of-line data is read and written in its own pages: no
 * intermediate copy.  Any context.
 */
void io_req_put(struct io_req *req, size_t off, const void *src, size_t len);
void io_req_get(struct io_req *req, size_t off, void *dst, size_t len);

/*
 * io_req_data - a write's data as req->count contiguous bytes of kernel
 * memory when @req holds them so (device_write_inband's, or a
 * device_write's out-of-line bytes as a kernel port receives a few:
 * vm_map_copyin_bytes), valid until @req is freed, to be read only;
 * NULL otherwise (pages: read them with io_req_get).  Any context.
 */
const void *io_req_data(const struct io_req *req);

/* io_req_finish_read - make a finished IO_READ ready to reply: on error
 * its pages go (no data travels), on a short read the bytes past
 * req->done are zeroed.  Other operations are left alone. */
void io_req_finish_read(struct io_req *req);

/*
 * io_req_done - @req (queued by a module that answered D_IO_QUEUED) has
 * finished with req->error and req->done set: queue it for the reply
 * thread and wake it.  Callable from any context, interrupt handlers
 * included; never blocks.
 */
void io_req_done(struct io_req *req);

/*
 * io_req_reply_now - the same, but the reply is sent at once by the
 * calling thread, and @req freed: for a completion that runs in thread
 * context, such as the proxy's handler of a driver server's answer,
 * which so spares the client the wait for the reply thread.  Thread
 * context, interrupts on or off, not an interrupt handler; never blocks.
 */
void io_req_reply_now(struct io_req *req);

/* io_req_init - start the reply thread.  Once, from device_init(). */
void io_req_init(void);

#endif
