/* SPDX-License-Identifier: GPL-2.0-only */
/* The proxy module's forwarded calls, shared by the files that forward them (dev_proxy_fwd.c) and check their answers (dev_proxy_check.c). */
#ifndef DEVICE_DEV_PROXY_CALL_H
#define DEVICE_DEV_PROXY_CALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <device/device_types.h>
#include <mach/message.h>

#include "device/dev_proxy_fwd.h"
#include "device/device.h"
#include "device/io_req.h"

struct ipc_port;
struct vm_map_copy;

/* device.defs's device_set_status and device_get_status, whose reply
 * ids are 100 more. */
#define DS_SET_STATUS_ID	2810
#define DS_GET_STATUS_ID	2811
/* device_reply.defs's ids for its replies. */
#define DS_OPEN_REPLY_ID	2900
#define DS_WRITE_REPLY_ID	2902
#define DS_WRITE_INBAND_REPLY_ID	2903
#define DS_READ_REPLY_ID	2904
#define DS_READ_INBAND_REPLY_ID	2905

struct dev_proxy_fwd {
	struct dev_proxy_fwd *next;	/* the publication's in flight */
	struct dev_proxy *p;
	struct ipc_port *port;		/* IKOT_PROXY_REPLY */
	struct io_req *req;		/* NULL: a set_status or get_status */
	struct dev_reply reply;		/* ... whose client it is */
	mach_msg_id_t reply_id;		/* the answer it waits for */
	void *frame;			/* a NIC's write forwarded out of
					 * line: its frame, for NETF_OUT
					 * once sent; or NULL */
	bool lent;			/* its pages are lent to the server */
	bool answered;			/* the server answered it */
	bool heartbeat;			/* proxy_watch.defs's, no client */
	bool check;			/* a read of the last record that
					 * worked, no client, or */
	bool readback;			/* a read of a write's records, no
					 * client (verify=1): */
	struct dev_proxy_fwd *checked;	/* ... the call it is for */
	bool matched;			/* a read-back's data is the write's */
	bool unchecked;			/* ... could not be compared */
	int neighbour;			/* ... it reads a record of known
					 * data before (-1) or after (1) the
					 * write's too, or none (0), whose
					 * checksum was: */
	uint32_t neighbour_sum;
	uint32_t *sums;			/* a write's records' checksums
					 * (verify=1), or NULL */
	bool confirmed;			/* ... its read-back matched */
	io_return_t failed;		/* a call being checked: the
					 * server's answer */
	uint64_t sent;			/* clock_ticks() when forwarded */
	/* a set_status's flavour and ints, if it has at most
	 * DEV_PROXY_SETTING_INTS (@kept): a setting once it succeeded, and
	 * sent again to a new instance if the server dies first */
	bool kept;
	dev_flavor_t flavor;
	unsigned int count;
	int ints[DEV_PROXY_SETTING_INTS];
};

static inline bool dev_proxy_call_writes(const struct io_req *req)
{
	return req->op == IO_WRITE || req->op == IO_WRITE_INBAND;
}

/* Whether the proxy still holds what @req needs to be sent again: a
 * read's buffer is the reply's; a write's pages stay with @req unless
 * they went to the server (an out-of-line write not lent). */
static inline bool dev_proxy_data_kept(const struct io_req *req)
{
	return req->op == IO_READ || req->op == IO_READ_INBAND ||
	       req->op == IO_WRITE_INBAND || req->copy != NULL;
}

/*
 * dev_proxy_fwd.c's, for dev_proxy_check.c (interrupts off unless said):
 * dev_proxy_call_new - a new call of @p waiting for @reply_id, *@sonce
 * the send-once right its request carries; NULL if memory is short.
 * dev_proxy_call_free - take @f off its publication, kill its port,
 * free it.  dev_proxy_call_unsent - its request could not be sent
 * (@sonce still ours): undo it.  dev_proxy_call_unlend - take @f's lent
 * pages back (its devices stopped first if the server did not answer).
 * dev_proxy_call_finish - complete @f with @code and @done bytes: its
 * client answered through the reply thread, or at once if @now (the
 * server's answer, thread context; interrupts on or off).
 * dev_proxy_call_resend - send @f's request to the same server once
 * more as a new call, @f freed; false (@f untouched) if it could not be
 * sent.
 */
struct dev_proxy_fwd *dev_proxy_call_new(struct dev_proxy *p,
					 mach_msg_id_t reply_id,
					 struct ipc_port **sonce);
void dev_proxy_call_free(struct dev_proxy_fwd *f);
void dev_proxy_call_unsent(struct dev_proxy_fwd *f, struct ipc_port *sonce);
void dev_proxy_call_unlend(struct dev_proxy_fwd *f);
void dev_proxy_call_finish(struct dev_proxy_fwd *f, io_return_t code,
			   size_t done, bool now);
bool dev_proxy_call_resend(struct dev_proxy_fwd *f);

/*
 * dev_proxy_check.c's: the checks of a server's answers ("Failed calls"
 * and "Checked data" there).  From the handler of the server's answer,
 * thread context, interrupts on or off; none blocks.
 * dev_proxy_check_send - @f was answered @code and is to be checked
 * (dev_proxy_retry_how): send the check read; @f answered @code now if
 * it cannot be sent.
 * dev_proxy_check_done - the check @c was answered @code: @f answered,
 * or kept for the server's next instance.
 * dev_proxy_check_sums - the checksums of the whole records @req (a
 * write of @p) writes, in new memory; NULL if none (not whole records,
 * or memory short).
 * dev_proxy_check_written - @f's write is over with @code: its records
 * keep its checksums if its read-back matched, else become unknown.
 * dev_proxy_check_read_back - @f, a write with checksums, was answered
 * whole: read its records back before its client is answered.
 * dev_proxy_check_read_back_copy / _bytes - the read-back @c was
 * answered D_SUCCESS with @count bytes, out of line or inband: note
 * whether they are its write's.
 * dev_proxy_check_read_back_done - the read-back @c was answered @code.
 * dev_proxy_check_read_differs - whether @f's read, answered D_SUCCESS
 * with @done bytes, differs from what its records' clients wrote.
 * dev_proxy_check_wrong - @f's answer differed: its server's next
 * instance gets it, or its client gets D_IO_ERROR.
 */
void dev_proxy_check_send(struct dev_proxy_fwd *f, io_return_t code);
void dev_proxy_check_done(struct dev_proxy_fwd *c, io_return_t code,
			  bool now);
uint32_t *dev_proxy_check_sums(const struct dev_proxy *p,
			       struct io_req *req);
void dev_proxy_check_written(struct dev_proxy_fwd *f, io_return_t code);
void dev_proxy_check_read_back(struct dev_proxy_fwd *f);
void dev_proxy_check_read_back_copy(struct dev_proxy_fwd *c,
				    const struct vm_map_copy *copy,
				    size_t count);
void dev_proxy_check_read_back_bytes(struct dev_proxy_fwd *c,
				     const void *data, size_t count);
void dev_proxy_check_read_back_done(struct dev_proxy_fwd *c,
				    io_return_t code, bool now);
bool dev_proxy_check_read_differs(struct dev_proxy_fwd *f, size_t done);
void dev_proxy_check_wrong(struct dev_proxy_fwd *f, bool now);

#endif
