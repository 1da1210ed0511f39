/* SPDX-License-Identifier: GPL-2.0-only */
/* The proxy module's publications and the calls it forwards to their servers. */
#ifndef DEVICE_DEV_PROXY_FWD_H
#define DEVICE_DEV_PROXY_FWD_H

#include <stdbool.h>
#include <stdint.h>

#include <device/device_types.h>
#include <mach/message.h>

#include "device/device.h"
#include "ipc/ipc_port.h"

struct dev_call;
struct dev_proxy_fwd;
struct io_req;
struct net_filter_table;

/* Ints of status records a publication keeps (proxy.defs's bound). */
#define DEV_PROXY_STATUS_MAX	512

/*
 * A published device (dev_proxy.c).  @refs counts the table's hold while
 * it is published, the open device's, and MIG calls on @port; the last
 * release frees it.  Interrupts off around every field.
 */
struct dev_proxy {
	struct dev_proxy *next;		/* the table, while published */
	char name[DEV_NAME_MAX];
	struct ipc_port *port;		/* IKOT_DEVICE_PROXY; NULL once down */
	struct ipc_port *server;	/* send right to the server's device */
	struct ipc_port_watch watch;	/* on @server's death */
	unsigned int refs;
	bool down;
	uint32_t record_size;
	unsigned int nstatus;
	int status[DEV_PROXY_STATUS_MAX];
	bool net;			/* its status has NET_STATUS: a NIC */
	struct net_filter_table *filters;	/* NULL once down */
	struct device *dev;		/* the open device, or NULL */
	dev_mode_t open_mode;		/* @dev's open: D_READ, D_WRITE bits */
	struct dev_proxy_fwd *fwds;	/* forwarded, not yet answered */
	struct ledger *ledger;		/* the publisher's, charged */
	struct ipc_port *task;		/* the publisher's task port (a
					 * reference): where pages are lent */
	char server_task[32];		/* the publisher's name */
};

/* dev_proxy_net_frame_size - whether @len bytes make an Ethernet frame.
 * dev_proxy_net_sent - the @len-byte frame a client wrote on NIC @p went
 * out: offer it to the NETF_OUT filters, as an in-kernel NIC's frame
 * once the driver took it.  Interrupts off. */
bool dev_proxy_net_frame_size(size_t len);
void dev_proxy_net_sent(struct dev_proxy *p, const void *frame, size_t len);

/*
 * dev_proxy_fwd_io - forward @req (a read or write of @p's open device)
 * to @p's server with a reply port of its own: D_IO_QUEUED (the
 * request completes with io_req_done when the server answers, or
 * D_DEVICE_DOWN when it dies); D_NO_MEMORY (nothing sent).  @p is up.
 * dev_proxy_fwd_status - forward device_set_status of @flavor and
 * @count ints for @call: D_IO_QUEUED after dev_reply_defer (answered by
 * the server's reply), or dev_reply_defer's refusal, or D_NO_MEMORY.
 * dev_proxy_fwd_info - forward device_get_status of GRAFT_DEV_INFO for
 * @call the same way; the server's answer, checked and given the mode
 * and host (dev_proxy.h), answers the client (dev_reply_send_status).
 * dev_proxy_fwd_cancel - @req's client reply port died: take @req back
 * (true; its reply port dies, so the server's reply cannot arrive), or
 * false if it is not forwarded here.
 * dev_proxy_fwd_fail_all - the server is gone: answer every request in
 * flight with @code.
 * Interrupts off; never block.
 */
io_return_t dev_proxy_fwd_io(struct dev_proxy *p, struct io_req *req);
io_return_t dev_proxy_fwd_status(struct dev_proxy *p, struct dev_call *call,
				 dev_flavor_t flavor, const int *status,
				 mach_msg_type_number_t count);
io_return_t dev_proxy_fwd_info(struct dev_proxy *p, struct dev_call *call);
bool dev_proxy_fwd_cancel(struct dev_proxy *p, struct io_req *req);
void dev_proxy_fwd_fail_all(struct dev_proxy *p, io_return_t code);

/* dev_proxy_server_dying - is @p's server gone or going (its port dead,
 * or its receiver's space being destroyed)?  Interrupts off. */
bool dev_proxy_server_dying(const struct dev_proxy *p);

/* dev_proxy_fwd_init - serve the reply ports (IKOT_PROXY_REPLY). */
void dev_proxy_fwd_init(void);

#endif
