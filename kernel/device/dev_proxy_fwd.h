/* SPDX-License-Identifier: GPL-2.0-only */
/* The proxy module's publications and the calls it forwards to their servers. */
#ifndef DEVICE_DEV_PROXY_FWD_H
#define DEVICE_DEV_PROXY_FWD_H

#include <stdbool.h>
#include <stdint.h>

#include <device/device_types.h>
#include <mach/message.h>

#include "device/device.h"
#include "device/io_req.h"
#include "ipc/ipc_port.h"

struct dev_call;
struct dev_proxy_fwd;
struct io_req;
struct net_filter_table;

/* Ints of status records a publication keeps (proxy.defs's bound). */
#define DEV_PROXY_STATUS_MAX	512
/* A device's settings (its last successful set_status of each flavour)
 * a publication keeps for a restarted server: at most this many
 * flavours of at most this many ints (dev_proxy_restart.c). */
#define DEV_PROXY_SETTINGS	4
#define DEV_PROXY_SETTING_INTS	16

struct supervision;
struct dev_proxy_status;

struct dev_proxy_setting {
	dev_flavor_t flavor;
	unsigned int count;
	int ints[DEV_PROXY_SETTING_INTS];
};

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
	/* A supervised publisher (kern/supervise.h) that dies is waited
	 * for (dev_proxy_restart.c): */
	struct supervision *lineage;	/* its supervision, or NULL */
	bool restarting;		/* its server died and will be back */
	struct io_req_queue waiting;	/* reads and writes kept for it */
	struct dev_proxy_status *statuses;	/* set_status calls kept */
	struct dev_proxy_setting settings[DEV_PROXY_SETTINGS];
	unsigned int nsettings;
	unsigned int resent;		/* requests sent to a new instance */
	unsigned int checks;		/* failed requests checked */
	unsigned int retried;		/* ... then sent to a new instance */
	unsigned int repeated;		/* ... or to the same one again */
	struct dev_proxy_sums *sums;	/* its records' checksums, if its
					 * server's line says verify=1 */
	unsigned int wrong_data;	/* answers that differed from them */
	bool good_known;		/* a disk call of it worked: */
	recnum_t good_recnum;		/* ... its record (the check's) */
	bool first_due;			/* its new instance answered no
					 * call yet (the restart probe) */
	uint64_t heartbeat_at;		/* clock_ticks() of the heartbeat
					 * waiting for its answer, or 0
					 * (dev_proxy_watch.c) */
	uint64_t answered_at;		/* clock_ticks() of the server's
					 * last answer to a call, or 0 */
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

/*
 * dev_proxy_fwd_status_reply - dev_proxy_fwd_status for a call whose
 * reply right is already in @r (moved out of it; a NULL @r->port: no
 * client waits, as for a setting replayed to a new server).
 * D_IO_QUEUED, or D_NO_MEMORY (@r answered with it).
 * dev_proxy_fwd_requeue_all - @p's server died and a new instance will
 * come: every call in flight is taken back unanswered, a read or write
 * onto @q in the order it was forwarded (its lent pages first taken
 * back, the server's devices stopped), a set_status kept by
 * dev_proxy_keep_status.
 * Interrupts off; never block.
 */
io_return_t dev_proxy_fwd_status_reply(struct dev_proxy *p,
				       struct dev_reply *r,
				       dev_flavor_t flavor, const int *status,
				       mach_msg_type_number_t count);
void dev_proxy_fwd_requeue_all(struct dev_proxy *p, struct io_req_queue *q);

/*
 * dev_proxy_fwd_oldest - clock_ticks() when @p's oldest call still at
 * the server was forwarded (heartbeats aside), 0 if none.
 * dev_proxy_fwd_heartbeat - send @p's server proxy_watch.defs's
 * heartbeat; @p->heartbeat_at says when, until it is answered (or the
 * call ends any other way: then 0).  Nothing is sent if memory is short.
 * Interrupts off; never block.
 */
uint64_t dev_proxy_fwd_oldest(const struct dev_proxy *p);
void dev_proxy_fwd_heartbeat(struct dev_proxy *p);

/*
 * dev_proxy_watch.c: dev_proxy_watch_init - start the thread that looks
 * at every supervised server's publications each second: one whose
 * oldest call waited DEV_PROXY_HANG_TICKS gets a heartbeat, and a
 * heartbeat unanswered for as long ends the server's task (it is
 * started again); so does a call that waited DEV_PROXY_STALL_TICKS while
 * the server answered no call of that publication.  dev_proxy_each -
 * call @fn on every publication (dev_proxy.c walks its table;
 * interrupts off).
 */
#define DEV_PROXY_HANG_TICKS	200	/* 2 s */
#define DEV_PROXY_STALL_TICKS	3000	/* 30 s: SCSI's command timeout */
void dev_proxy_watch_init(void);
void dev_proxy_each(void (*fn)(struct dev_proxy *p));
/*
 * dev_proxy_restart.c: a publication whose server died and will start
 * again (kern/supervise.h).  Interrupts off; never block.
 * dev_proxy_park - the server died: keep the calls in flight for the
 * next instance.
 * dev_proxy_keep_io, dev_proxy_keep_status - a read or write, a
 * set_status (@call's reply deferred into the kept record) while it is
 * away: kept, D_IO_QUEUED; D_NO_MEMORY for a set_status that cannot be
 * kept (or too big: over DEV_PROXY_SETTING_INTS ints).
 * dev_proxy_keep_status_reply - the same for a set_status whose reply is
 * in @r already (taken back from a dead server).
 * dev_proxy_kept_cancel - take @req off the kept calls (true if there).
 * dev_proxy_resume - a new instance published @p again (@p->server and
 * @p->task set): the settings replayed, then the kept set_status calls
 * and the kept reads and writes sent, in order.
 * dev_proxy_fail_kept - answer every kept call with @code.
 * dev_proxy_setting_record - @count ints of @flavor were set
 * successfully: remember them for a new instance.
 */
void dev_proxy_park(struct dev_proxy *p);
io_return_t dev_proxy_keep_io(struct dev_proxy *p, struct io_req *req);
io_return_t dev_proxy_keep_status(struct dev_proxy *p, struct dev_call *call,
				  dev_flavor_t flavor, const int *status,
				  mach_msg_type_number_t count);
void dev_proxy_keep_status_reply(struct dev_proxy *p, struct dev_reply *r,
				 dev_flavor_t flavor, const int *status,
				 mach_msg_type_number_t count);
bool dev_proxy_kept_cancel(struct dev_proxy *p, struct io_req *req);
void dev_proxy_resume(struct dev_proxy *p);
void dev_proxy_fail_kept(struct dev_proxy *p, io_return_t code);
void dev_proxy_setting_record(struct dev_proxy *p, dev_flavor_t flavor,
			      const int *status, mach_msg_type_number_t count);

/*
 * dev_proxy_retry_how - what to do with @req, a read or write @p's
 * server answered with @code (dev_proxy_check.c, "Failed calls"):
 * DEV_PROXY_ANSWER it, or DEV_PROXY_CHECK the server first (a read of
 * @p's last record that worked tells whether the device or the driver
 * failed).  Only a disk's call whose failure its arguments do not
 * explain (any code but D_READ_ONLY, D_INVALID_OPERATION,
 * D_WOULD_BLOCK; D_INVALID_RECNUM and D_INVALID_SIZE too when the call
 * moves whole records within those @p's server published), sent to
 * fewer than
 * DEV_PROXY_TRIES instances (counted in @req->tries), whose data the
 * proxy still holds, at a supervised server that will be restarted,
 * once a call of @p worked, is checked.  Interrupts off.
 * dev_proxy_restart_for - @p's server fails for reason @why (a call's
 * check failed too; a call failed twice at it though the checks worked;
 * it answered other data than was written): end its task, from that
 * server's own thread (the answer), so that it is restarted and its
 * calls kept (dev_proxy_park); false (nothing done) if it cannot be.
 * Interrupts off.
 * dev_proxy_may_resend - whether @req, whose answer differed from what
 * was written (dev_proxy_check.c, "Checked data"), may go to @p's
 * server's next instance: the proxy still holds its data and it went
 * to fewer than DEV_PROXY_TRIES instances (true: counted in
 * @req->tries).
 * Interrupts off.
 */
enum dev_proxy_retry {
	DEV_PROXY_ANSWER,
	DEV_PROXY_CHECK,
};
/* A call's instances at most: enough that a fault campaign (a fault
 * every 10 ms) rarely fails one call at each, few enough that a driver
 * that always fails it is given up on within seconds. */
#define DEV_PROXY_TRIES		6
enum dev_proxy_retry dev_proxy_retry_how(struct dev_proxy *p,
					 struct io_req *req,
					 io_return_t code);
enum dev_proxy_why {
	DEV_PROXY_FAILS,
	DEV_PROXY_FAILS_TWICE,
	DEV_PROXY_WRONG_DATA,
};
bool dev_proxy_restart_for(struct dev_proxy *p, enum dev_proxy_why why);

/* dev_proxy_parked_soon - whether @p's server is dying already and will
 * be restarted: its calls in flight, one left unanswered included, are
 * then kept for its next instance when its port dies (dev_proxy_park).
 * Interrupts off. */
bool dev_proxy_parked_soon(const struct dev_proxy *p);
bool dev_proxy_may_resend(struct dev_proxy *p, struct io_req *req);

/* dev_proxy_status_ints - the ints of @p's status record of @flavor, as
 * its server published it, if it has at least @count of them; else
 * NULL.  Interrupts off. */
const int *dev_proxy_status_ints(const struct dev_proxy *p,
				 dev_flavor_t flavor,
				 mach_msg_type_number_t count);

/* dev_proxy_server_dying - is @p's server gone or going (its port dead,
 * or its receiver's space being destroyed)?  Interrupts off. */
bool dev_proxy_server_dying(const struct dev_proxy *p);

/* dev_proxy_fwd_init - serve the reply ports (IKOT_PROXY_REPLY). */
void dev_proxy_fwd_init(void);

#endif
