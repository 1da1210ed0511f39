/* SPDX-License-Identifier: GPL-2.0-only */
/* The device layer: modules, their ops tables, open devices. */
#ifndef DEVICE_DEVICE_H
#define DEVICE_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <device/device_types.h>
#include <device/net_status.h>
#include <mach/message.h>

struct io_req;
struct ipc_port;
struct ledger;

/*
 * A module serves a family of device names (the paper's emulation module,
 * §3.2): device_open asks each module of the table in dev_module.c, in
 * order, whether it knows the name; the first that does opens it and
 * every later call on the device goes straight through its ops table.
 *
 * Ops are called with interrupts disabled, from a kernel object's
 * handler (the sending thread), and must not block.  Each returns a D_*
 * code (device_types.h); the dispatcher has already checked the device
 * port, the sizes against DEV_IO_MAX and the record alignment against
 * dev->record_size, so a module checks only what it alone knows (its
 * size, its flavours).  A missing op (NULL) answers D_INVALID_OPERATION.
 */
struct device;

/*
 * The call an op serves, for an op that answers later
 * (dev_reply_defer): the request message whose reply right it may keep.
 * Opaque to modules; valid only while the op runs.
 */
struct dev_call {
	struct ipc_kmsg *request;
};

struct dev_ops {
	/* open - set up @dev (dev->name is set, dev->priv NULL): fill
	 * record_size and priv.  D_SUCCESS or a D_* error (nothing kept). */
	io_return_t (*open)(struct device *dev, dev_mode_t mode);
	/* close - the last send right to @dev's port is gone: complete the
	 * requests still queued (io_req_done) and free priv. */
	void (*close)(struct device *dev);
	/* read, write - run @req (io_req.h): D_SUCCESS when it is complete
	 * (req->done set), D_IO_QUEUED when the module will call
	 * io_req_done() later (from any context), or a D_* error. */
	io_return_t (*read)(struct device *dev, struct io_req *req);
	io_return_t (*write)(struct device *dev, struct io_req *req);
	/* write_by_get - true if write reads a device_write's data only
	 * with io_req_get, never req->copy's pages: the data may then stay
	 * in the kernel buffer of a copy of bytes (vm_map_copyin_bytes).
	 * False: the device layer gives the copy its pages first. */
	bool write_by_get;
	/* write_reads_frames - true if write only reads req->copy's pages
	 * (a disk's DMA from them) and is done with them when the request
	 * is answered: the pages may then stay the sender's own, lent
	 * write-protected (vm_map_copy_frames), instead of a copy of them.
	 * False: the copy gets pages of its own (vm_map_copy_pages). */
	bool write_reads_frames;
	/* read_into - true if read moves a device_read's data only into
	 * req->copy's pages (a disk's DMA into them, or io_req_put) and is
	 * done with them when the request is answered: device_read_into
	 * may then give it the caller's own pages (IO_READ_INTO,
	 * vm_map_pin).  False: device_read_into is D_INVALID_OPERATION. */
	bool read_into;
	/* get_status - write at most *@count ints of @flavor to @status and
	 * set *@count; D_INVALID_OPERATION for a flavour it does not know.
	 * Or D_IO_QUEUED after dev_reply_defer(@call, ...), the module then
	 * answering later with dev_reply_send_status() (at most the
	 * *@count ints asked). */
	io_return_t (*get_status)(struct device *dev, struct dev_call *call,
				  dev_flavor_t flavor, int *status,
				  mach_msg_type_number_t *count);
	/* set_status - apply @count ints of @flavor, for @call: D_SUCCESS
	 * or a D_* error; or D_IO_QUEUED after dev_reply_defer(@call, ...),
	 * the module then answering later with dev_reply_send(). */
	io_return_t (*set_status)(struct device *dev, struct dev_call *call,
				  dev_flavor_t flavor, const int *status,
				  mach_msg_type_number_t count);
	/* set_filter - install @filter (@count shorts) delivering to @port
	 * (a send right, consumed on D_SUCCESS only) at @priority; for the
	 * packet filter of kernel/net/. */
	io_return_t (*set_filter)(struct device *dev, struct ipc_port *port,
				  int priority, const filter_t *filter,
				  unsigned int count);
	/* cancel - @req, which this module queued, lost its reply port:
	 * if it still waits in the module (no hardware has it), take it
	 * off and return true (the device layer frees it); false if it is
	 * under way or done (it completes as usual).  Interrupts off; must
	 * not block nor call io_req_done.  NULL: nothing is cancelled (for
	 * modules whose requests all finish in bounded time). */
	bool (*cancel)(struct device *dev, struct io_req *req);
	/* replied - the reply of @req, a read or write of @dev, was just
	 * sent (by the reply thread or io_req_reply_now): for the module's
	 * probes, which only record.  Thread context, interrupts on or
	 * off; @req is freed after.  NULL: nothing. */
	void (*replied)(struct device *dev, const struct io_req *req);
};

struct dev_module {
	const char *name;
	/* match - does this module serve @name (NUL-terminated)? */
	bool (*match)(const char *name);
	const struct dev_ops *ops;
};

#define DEV_NAME_MAX	sizeof(dev_name_t)	/* 128, with the NUL */

/* The largest transfer one request may ask for (bytes). */
#define DEV_IO_MAX	(16u << 20)

/*
 * An open device: one per name, shared by every client that opened it;
 * its port (a kernel object of type IKOT_DEVICE) lives until the last send
 * right goes, then the module's close runs.  @refs counts the open state
 * (1 until close) and every request or MIG call using the device.
 */
struct device {
	struct device *next;		/* open devices (dev_port.c) */
	struct ipc_port *port;
	const struct dev_module *module;
	unsigned int refs;
	unsigned int opens;		/* device_open calls not closed;
					 * 0 once closed */
	char name[DEV_NAME_MAX];
	uint32_t record_size;		/* 1 for a byte stream */
	void *priv;			/* the module's */
};

/*
 * A reply kept for later: the answer of a device_set_status or
 * device_get_status whose work cannot be done without blocking.  The
 * device layer sends it: the return code (MIG's reply of a set_status,
 * or of a failed call), or a get_status's code and ints.
 */
struct dev_reply {
	struct ipc_port *port;		/* NULL: the client asked for none */
	mach_msg_type_name_t type;
	mach_msg_id_t id;		/* the request's */
	struct ledger *ledger;		/* the sender's, charged one request */
};

/*
 * dev_reply_defer - from the set_status or get_status op serving @call
 * (interrupts off): move the reply right of @call's request into @r,
 * charging the
 * sending task one request in flight (LEDGER_IO_REQUESTS,
 * kern/ledger.h); the op then answers D_IO_QUEUED and the dispatcher
 * sends no reply.  D_IO_QUEUED (also for a request without a reply
 * right: @r->port is NULL); D_WOULD_BLOCK when the task is at its limit
 * (nothing moved); a @call whose reply was already taken, a module bug:
 * D_INVALID_OPERATION, printed, nothing moved.
 * dev_reply_send - send @code as the reply kept in @r (the right is
 * consumed; a dead or NULL port drops it) and give the charge back.
 * dev_reply_send_status - the same for a deferred get_status: D_SUCCESS
 * with the @count ints at @status (at most DEV_STATUS_MAX), any other
 * @code alone.
 * Thread context or interrupts off, not an interrupt handler; never
 * blocks.  Out of memory, the reply right is destroyed (printed): the
 * client's wait ends with a send-once notification instead of a reply.
 */
io_return_t dev_reply_defer(struct dev_call *call, struct dev_reply *r);
void dev_reply_send(struct dev_reply *r, io_return_t code);
void dev_reply_send_status(struct dev_reply *r, io_return_t code,
			   const int *status, mach_msg_type_number_t count);

/* dev_master_admits_drivers - whether @port may make claims and
 * publications (claim_pci, claim_isa, proxy_publish): the device master
 * port or the driver master port. */
bool dev_master_admits_drivers(const struct ipc_port *port);

/* device_init - register the handlers of the master ports and of
 * device ports, start the reply thread.  Once at boot, after
 * task_port_init(). */
void device_init(void);

/* Open devices and requests in flight (for tests and leak checks). */
unsigned int dev_open_count(void);
unsigned int io_req_in_flight(void);

#endif
