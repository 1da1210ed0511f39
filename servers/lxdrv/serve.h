/* SPDX-License-Identifier: GPL-2.0-only */
/* Devices the server publishes through the kernel's proxy and serves (serve.c). */
#ifndef LXDRV_SERVE_H
#define LXDRV_SERVE_H

#include <stdbool.h>
#include <stddef.h>

#include <device/device_types.h>
#include <mach/machine/vm_types.h>
#include <mach/port.h>

struct lxdrv_device;

/* The call an op serves: the request's mode (its D_READ and D_WRITE
 * bits are those of the device's open, kernel/device/dev_proxy.h),
 * whether it came inband (at most 128 bytes, in the message), and where
 * a write's answer goes: a write op that answers later copies it and
 * returns MIG_NO_REPLY; lxdrv_reply_write answers. */
struct lxdrv_call {
	mach_port_t reply;
	mach_msg_type_name_t poly;
	dev_mode_t mode;
	bool inband;			/* device_*_inband */
};

/*
 * What a published device does with the calls the kernel forwards; each
 * runs on the serve thread (thread context, may block) and returns a
 * D_* code.  A NULL op answers D_INVALID_OPERATION.
 * write - @count bytes at @recnum for @call; *@written set; or
 * MIG_NO_REPLY, the answer to come from lxdrv_reply_write.
 * write_now - the same write on the event loop (interrupt context, must
 * not block), tried when no call is queued or being served: true if it
 * took the call (*@code the answer, or MIG_NO_REPLY as write's), false
 * with nothing done if the call must go to write on the serve thread.
 * NULL: every write goes there.
 * read - up to @wanted bytes at @recnum for @call into @buf; *@count
 * set.
 * set_status - apply @count ints of @flavor.
 * pages - @count bytes at @recnum out of (@write) or into the pages the
 * kernel lent (proxy_pages.defs), in the direct map at lxdrv's base
 * plus @pages->frames[i]; *@done set.  NULL: the kernel never lends
 * pages for the device (it lends only for devices whose status has no
 * NET_STATUS).
 * get_status - answer @flavor in at most *@count ints at @status, *@count
 * set (the kernel forwards only the flavours it cannot answer from the
 * published status: GRAFT_DEV_INFO).
 */
/* The pages of a request lent by the kernel: @n physical addresses of
 * pages, the data @offset bytes into the first. */
struct lxdrv_pages {
	const rpc_phys_addr_t *frames;
	size_t n, offset;
};

struct lxdrv_device_ops {
	kern_return_t (*write)(struct lxdrv_device *dev,
			       const struct lxdrv_call *call, recnum_t recnum,
			       const void *data, size_t count, int *written);
	bool (*write_now)(struct lxdrv_device *dev,
			  const struct lxdrv_call *call, recnum_t recnum,
			  const void *data, size_t count, int *written,
			  kern_return_t *code);
	kern_return_t (*read)(struct lxdrv_device *dev,
			      const struct lxdrv_call *call, recnum_t recnum,
			      size_t wanted, void *buf, size_t *count);
	kern_return_t (*set_status)(struct lxdrv_device *dev,
				    dev_flavor_t flavor, const int *status,
				    size_t count);
	kern_return_t (*pages)(struct lxdrv_device *dev,
			       const struct lxdrv_call *call, bool write,
			       recnum_t recnum,
			       const struct lxdrv_pages *pages, size_t count,
			       size_t *done);
	kern_return_t (*get_status)(struct lxdrv_device *dev,
				    dev_flavor_t flavor, int *status,
				    mach_msg_type_number_t *count);
};

struct lxdrv_device {
	const struct lxdrv_device_ops *ops;
	void *priv;
	mach_port_t port;		/* where the kernel forwards calls */
	mach_port_t proxy;		/* the publication */
	char name[32];
};

/*
 * lxdrv_publish - publish @dev (ops, priv set) as device @name, records
 * @record_size bytes, get_status answered from @status (@count ints of
 * proxy.defs's records).  Thread context.  0; -1 (printed).
 * lxdrv_status_set - replace the published status.
 */
int lxdrv_publish(struct lxdrv_device *dev, const char *name,
		  int record_size, const int *status, unsigned int count);
void lxdrv_status_set(struct lxdrv_device *dev, const int *status,
		      unsigned int count);

/* lxdrv_reply_write - answer the write kept in @call with @code and
 * @written bytes (the send-once right is consumed).  Any context: a
 * send to the kernel never blocks. */
void lxdrv_reply_write(const struct lxdrv_call *call, kern_return_t code,
		       int written);

/* lxdrv_serve_start - start the thread that serves forwarded calls.
 * 0, or -1 (no thread). */
int lxdrv_serve_start(void);

#endif
