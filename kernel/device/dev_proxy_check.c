/* SPDX-License-Identifier: GPL-2.0-only */
/* The proxy module's checks of a driver server's answers: a failed disk call's check read, and, with verify=1, its data against what clients wrote. */
/*
 * Failed calls.  A disk's read or write that a supervised server fails
 * with a code its arguments do not explain (D_IO_ERROR, but also
 * D_NO_SUCH_DEVICE, D_DEVICE_DOWN, D_NO_MEMORY, and D_INVALID_SIZE or
 * D_INVALID_RECNUM for whole records within the device:
 * dev_proxy_retry_how) may have failed in the driver rather than in the
 * device (a driver server runs drivers that may be faulty), so before
 * its client sees the error the server gets a check: an inband read of
 * the publication's last record that worked.  If the check works, the
 * driver works: the call failed in the device, or in the driver for
 * that call alone (a fault that corrupted the request's own state, or
 * the code of a path the check does not take, such as writing).  A
 * write, or a read of records the device stored and returned since
 * (verify=1, below), goes to the same instance once more, and its
 * failure there is checked again; if that check works too, the call
 * goes to the server's next instance (its task ended: "restarted: its
 * driver fails a call twice"), unless an earlier instance failed it
 * twice the same way: two drivers agree, the device fails it, its
 * client gets the server's code.  Any other call's client gets the
 * server's code after the first check: a device's read error of records
 * nobody verified (a bad sector) costs one read more and is not tried
 * again (the driver's own error handling did that; more tries would
 * make a Linux driver slow the device down).  If the check fails too,
 * the driver fails: the server's task is ended ("restarted: its driver
 * fails"), started again as a dead server is, and the call, kept with
 * the server's other calls, goes to the new instance
 * (dev_proxy_restart.c), whose failure is checked the same way: a call
 * goes to at most DEV_PROXY_TRIES instances, counting those its data
 * was wrong at (below), then its client gets the last answer.  Each
 * restart counts as one of the server's N (restart=N).  A
 * write whose data went to the server (out of line and not lent)
 * cannot be sent again: its failure is answered at once, as is every
 * failure of a server that is not supervised or will not be restarted,
 * and of a publication no call of which ever worked.
 *
 * A NIC has nothing to check with: a frame's write that fails with any
 * code but D_DEVICE_DOWN (no link) is taken as checked and working, so
 * it goes to the same instance once more, then to the next instance,
 * then its client gets the code.  A driver whose transmit state a fault
 * broke fails every frame until it is restarted.
 *
 * Checked data.  A disk published by a server whose line says verify=1
 * (kern/supervise.h) has the checksum of every record its clients wrote
 * through the proxy (dev_proxy_sums.h).  A write the server answers
 * whole is read back (out of line, or inband when that small), with a
 * record of known data next to it (neighbour), before its client is
 * answered: the records hold what was written, and the neighbour what
 * it held, and their checksums are kept; they do not (a write sent to
 * a wrong place and read back from there reads the neighbour from the
 * wrong place too), and the write goes to the server's
 * next instance (its task ended: "restarted: its driver answers wrong
 * data"), as a failed call whose check failed does.  A read whose data
 * differs from a record's kept checksum goes the same way.  A call goes
 * to at most DEV_PROXY_TRIES new instances; after that, or when it
 * cannot be sent again (its data went to the server, or the server is
 * not restarted), its client gets D_IO_ERROR, never the wrong data.  A
 * write that fails, or is answered unchecked (no memory for the
 * read-back, records not whole), leaves its records unknown; records
 * never written since the publication, and those of a write still in
 * flight, are not checked.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <device/device_types.h>

#include "device/dev_proxy_call.h"
#include "device/dev_proxy_fwd.h"
#include "device/dev_proxy_sums.h"
#include "device/io_req.h"
#include "graft_mig.h"
#include "ipc/ipc_port.h"
#include "kern/clock.h"
#include "kern/kalloc.h"
#include "kern/klog.h"
#include "kern/string.h"
#include "vm/vm_map_copy_kernel.h"
#include "x86_64/cpu.h"

#include "proxy_forward.h"	/* generated (kernel/device/local.mk) */

static KLOG_SOURCE(check_log, "device-proxy");

/* Readers of data for dev_proxy_sums_compute: a request's, a reply's
 * out-of-line copy, bytes. */
static void get_req(const void *src, size_t off, void *dst, size_t len)
{
	io_req_get((struct io_req *)src, off, dst, len);
}

static void get_copy(const void *src, size_t off, void *dst, size_t len)
{
	vm_map_copy_kernel_read(src, off, dst, len);
}

static void get_bytes(const void *src, size_t off, void *dst, size_t len)
{
	memcpy(dst, (const char *)src + off, len);
}

/* The records @req covers, its last one perhaps in part. */
static size_t covered(const struct dev_proxy *p, const struct io_req *req)
{
	return (req->count + p->record_size - 1) / p->record_size;
}

/* The checksums of @n records from @src (read with @get) of @p, in new
 * memory the caller frees; NULL if memory is short. */
static uint32_t *sums_of(const struct dev_proxy *p,
			 void (*get)(const void *, size_t, void *, size_t),
			 const void *src, size_t n)
{
	uint32_t *sums = kalloc(n * sizeof(*sums));

	if (sums != NULL)
		dev_proxy_sums_compute(get, src, n, p->record_size, sums);
	return sums;
}

/* @f's write is over (@code): its records hold what it wrote if its
 * read-back said so, else nothing known. */
void dev_proxy_check_written(struct dev_proxy_fwd *f, io_return_t code)
{
	struct dev_proxy *p = f->p;
	const struct io_req *req = f->req;

	if (code == D_SUCCESS && f->confirmed)
		dev_proxy_sums_set(p->sums, req->recnum,
				   req->count / p->record_size, f->sums);
	else
		dev_proxy_sums_forget(p->sums, req->recnum, covered(p, req));
}

/* The check of @f's failure worked: send @f once more to the same
 * instance if it is a write, or a read of records whose data the device
 * stored and returned (verify=1), whose data the proxy holds; whether
 * it went (@f then freed). */
static bool resend_here(struct dev_proxy_fwd *f)
{
	struct dev_proxy *p = f->p;
	struct io_req *req = f->req;
	uint64_t flags;
	bool sent = false;

	if (req->sent_again || !dev_proxy_data_kept(req) ||
	    dev_proxy_server_dying(p) ||
	    (!dev_proxy_call_writes(req) &&
	     (p->sums == NULL ||
	      !dev_proxy_sums_known(p->sums, req->recnum, covered(p, req)))))
		return false;
	flags = cpu_intr_save();
	req->sent_again = true;
	sent = dev_proxy_call_resend(f);
	if (sent)
		p->repeated++;
	cpu_intr_restore(flags);
	return sent;
}

/* @f, sent once more to the instance that failed it, failed there
 * again, its check working again: the driver's path for that call alone
 * may be broken (its reads of the check's record do not pass there).
 * The server's next instance gets it, unless an earlier instance failed
 * it twice too (then the device fails it); whether it is kept for it. */
static bool send_on(struct dev_proxy_fwd *f)
{
	struct dev_proxy *p = f->p;
	struct io_req *req = f->req;
	uint64_t flags;
	bool kept;

	if (!req->sent_again || req->failed_twice)
		return false;
	flags = cpu_intr_save();
	req->failed_twice = true;
	kept = dev_proxy_restart_for(p, DEV_PROXY_FAILS_TWICE) ||
	       dev_proxy_parked_soon(p);
	cpu_intr_restore(flags);
	return kept;
}

/* The check is an inband read of at most a record: the last record of
 * the publication that worked, @f kept until its answer. */
void dev_proxy_check_send(struct dev_proxy_fwd *f, io_return_t code)
{
	struct dev_proxy *p = f->p;
	struct ipc_port *sonce;
	struct dev_proxy_fwd *c;
	uint32_t n = p->record_size < IO_INBAND_MAX ? p->record_size :
		     IO_INBAND_MAX;
	uint64_t flags = cpu_intr_save();

	f->failed = code;
	if (f->lent)		/* answered: the server let go of them */
		dev_proxy_call_unlend(f);
	if (p->net) {		/* nothing to read: the check is taken to
				 * have worked */
		cpu_intr_restore(flags);
		if (!resend_here(f) && !send_on(f))
			dev_proxy_call_finish(f, code, 0, true);
		return;
	}
	c = dev_proxy_call_new(p, DS_READ_INBAND_REPLY_ID, &sonce);
	if (c != NULL) {
		c->check = true;
		c->checked = f;
		if (dpf_device_read_request_inband(ipc_port_copy_send(p->server),
						   sonce, D_READ,
						   p->good_recnum, (int)n) ==
		    MACH_MSG_SUCCESS) {
			cpu_intr_restore(flags);
			return;
		}
		dev_proxy_call_unsent(c, sonce);
	}
	cpu_intr_restore(flags);
	dev_proxy_call_finish(f, code, 0, true);
}

/* Check @c was answered @code: the record that worked does (the device
 * failed @c's call, or the driver that call alone: sent once more, or
 * on, or answered with the server's code) or does not (the driver
 * fails: its server is ended and started again, the call kept for the
 * next instance; D_DEVICE_DOWN if the server is gone). */
void dev_proxy_check_done(struct dev_proxy_fwd *c, io_return_t code,
			  bool now)
{
	struct dev_proxy *p = c->p;
	struct dev_proxy_fwd *f = c->checked;
	bool kept;

	if (now)
		p->answered_at = clock_ticks();
	dev_proxy_call_free(c);
	if (f == NULL)			/* its client went away */
		return;
	if (code == D_DEVICE_DOWN && dev_proxy_server_dying(p)) {
		dev_proxy_call_finish(f, D_DEVICE_DOWN, 0, now);
		return;
	}
	if (code == D_SUCCESS)
		kept = resend_here(f) || send_on(f);
	else
		kept = dev_proxy_restart_for(p, DEV_PROXY_FAILS) ||
		       dev_proxy_parked_soon(p);
	if (!kept)
		dev_proxy_call_finish(f, f->failed, 0, now);
}

/* @f's answer differed from what its records' clients wrote: the
 * server's next instance gets it, or its client gets D_IO_ERROR. */
void dev_proxy_check_wrong(struct dev_proxy_fwd *f, bool now)
{
	struct dev_proxy *p = f->p;
	uint64_t flags = cpu_intr_save();
	bool kept;

	p->wrong_data++;
	klog(&check_log, "device-proxy: %s: the %s of %zu bytes at record %lu "
	     "answered other data than was written\n", p->name,
	     dev_proxy_call_writes(f->req) ? "read-back of a write" : "read",
	     f->req->count, (unsigned long)f->req->recnum);
	if (f->lent)		/* answered: the server let go of them */
		dev_proxy_call_unlend(f);
	kept = dev_proxy_may_resend(p, f->req) &&
	       (dev_proxy_restart_for(p, DEV_PROXY_WRONG_DATA) ||
		dev_proxy_parked_soon(p));
	cpu_intr_restore(flags);
	if (!kept)
		dev_proxy_call_finish(f, D_IO_ERROR, 0, now);
}

/* Whether a write of @p in flight covers a record from @recnum to
 * @recnum + @n - 1. */
static bool writing(const struct dev_proxy *p, recnum_t recnum, size_t n)
{
	for (const struct dev_proxy_fwd *f = p->fwds; f != NULL; f = f->next) {
		const struct io_req *req = f->req;

		if (req != NULL && dev_proxy_call_writes(req) &&
		    req->recnum < recnum + n &&
		    recnum < req->recnum + covered(p, req))
			return true;
	}
	return false;
}

/* The record next to @f's write that its read-back reads too, if one
 * holds known data no write in flight covers: the one before (-1) or
 * after (1) it, its checksum in *@sum; 0 if none. */
static int neighbour(const struct dev_proxy_fwd *f, uint32_t *sum)
{
	const struct dev_proxy *p = f->p;
	const struct io_req *req = f->req;
	size_t n = covered(p, req);
	recnum_t at[2] = { req->recnum - 1, req->recnum + (recnum_t)n };

	for (int i = 0; i < 2; i++) {
		if ((i == 0 && req->recnum == 0) ||
		    (i == 1 && at[1] < req->recnum) ||
		    !dev_proxy_sums_known(p->sums, at[i], 1) ||
		    writing(p, at[i], 1))
			continue;
		*sum = dev_proxy_sums_get(p->sums, at[i]);
		return i == 0 ? -1 : 1;
	}
	return 0;
}

/* The read-back of @f's records, and of a record of known data next to
 * them (neighbour): a driver that sends the write and its read-back to
 * the same wrong place reads that record wrongly too.  Out of line, or
 * inband when that small; @f answered now, unchecked, if it cannot be
 * sent. */
void dev_proxy_check_read_back(struct dev_proxy_fwd *f)
{
	struct dev_proxy *p = f->p;
	recnum_t recnum = f->req->recnum;
	size_t count = f->req->count;
	struct ipc_port *sonce;
	struct dev_proxy_fwd *c;
	kern_return_t kr = MACH_SEND_INVALID_DEST;
	uint64_t flags = cpu_intr_save();
	uint32_t sum = 0;
	int side;

	if (f->lent)		/* answered: the server let go of them */
		dev_proxy_call_unlend(f);
	side = count + p->record_size <= DEV_IO_MAX ? neighbour(f, &sum) : 0;
	if (side != 0) {
		count += p->record_size;
		recnum -= side < 0 ? 1 : 0;
	}
	c = dev_proxy_call_new(p, count <= IO_INBAND_MAX ?
			       DS_READ_INBAND_REPLY_ID : DS_READ_REPLY_ID,
			       &sonce);
	if (c != NULL) {
		struct ipc_port *dest = ipc_port_copy_send(p->server);

		c->readback = true;
		c->checked = f;
		c->neighbour = side;
		c->neighbour_sum = sum;
		kr = count <= IO_INBAND_MAX ?
		     dpf_device_read_request_inband(dest, sonce, D_READ,
						    recnum, (int)count) :
		     dpf_device_read_request(dest, sonce, D_READ, recnum,
					     (int)count);
		if (kr != MACH_MSG_SUCCESS)
			dev_proxy_call_unsent(c, sonce);
	}
	cpu_intr_restore(flags);
	if (kr != MACH_MSG_SUCCESS)
		dev_proxy_call_finish(f, D_SUCCESS, f->req->count, true);
}

/* Note in @c, a read-back answered D_SUCCESS with @count bytes from @src
 * (read with @get), whether they are its write's, and its neighbour's
 * what that record held (unless a write changed it since). */
static void read_back_compare(struct dev_proxy_fwd *c,
			      void (*get)(const void *, size_t, void *,
					  size_t),
			      const void *src, size_t count)
{
	const struct dev_proxy_fwd *f = c->checked;
	struct dev_proxy *p = c->p;
	size_t n, extra = c->neighbour != 0 ? 1 : 0;
	size_t first = c->neighbour < 0 ? 1 : 0; /* the write's in sums[] */
	recnum_t at;
	uint32_t *sums;

	if (f == NULL || count != f->req->count + extra * p->record_size)
		return;		/* not matched */
	n = dev_proxy_sums_records(f->req->count, p->record_size);
	sums = sums_of(p, get, src, n + extra);
	if (sums == NULL) {
		c->unchecked = true;
		return;
	}
	c->matched = memcmp(sums + first, f->sums, n * sizeof(*sums)) == 0;
	/* the neighbour: sums[0] before the write's, sums[n] after them */
	at = c->neighbour < 0 ? f->req->recnum - 1 :
				f->req->recnum + (recnum_t)n;
	if (c->matched && extra != 0 && !writing(p, at, 1) &&
	    dev_proxy_sums_get(p->sums, at) == c->neighbour_sum)
		c->matched = sums[c->neighbour < 0 ? 0 : n] == c->neighbour_sum;
	kfree(sums);
}

/* The read-back @c was answered @code: its write is answered, or goes
 * to the server's next instance (dev_proxy_check_wrong). */
void dev_proxy_check_read_back_done(struct dev_proxy_fwd *c,
				    io_return_t code, bool now)
{
	struct dev_proxy *p = c->p;
	struct dev_proxy_fwd *f = c->checked;
	bool matched = c->matched, unchecked = c->unchecked;

	if (now)
		p->answered_at = clock_ticks();
	dev_proxy_call_free(c);
	if (f == NULL)			/* its client went away */
		return;
	if (code == D_DEVICE_DOWN && dev_proxy_server_dying(p)) {
		dev_proxy_call_finish(f, D_DEVICE_DOWN, 0, now);
	} else if (code == D_SUCCESS && (matched || unchecked)) {
		f->confirmed = matched;
		dev_proxy_call_finish(f, D_SUCCESS, f->req->count, now);
	} else {
		dev_proxy_check_wrong(f, now);
	}
}

/* Records never written or being written are not compared, nor any
 * when memory is short to compare. */
bool dev_proxy_check_read_differs(struct dev_proxy_fwd *f, size_t done)
{
	struct dev_proxy *p = f->p;
	size_t n = dev_proxy_sums_records(done - done % p->record_size,
					  p->record_size);
	uint32_t *sums;
	bool differs = false;
	uint64_t flags;

	if (n == 0)
		return false;
	flags = cpu_intr_save();
	if (!writing(p, f->req->recnum, n)) {
		sums = sums_of(p, get_req, f->req, n);
		if (sums != NULL)
			differs = dev_proxy_sums_differ(p->sums,
							f->req->recnum, n,
							sums) != 0;
		kfree(sums);
	}
	cpu_intr_restore(flags);
	return differs;
}

void dev_proxy_check_read_back_copy(struct dev_proxy_fwd *c,
				    const struct vm_map_copy *copy,
				    size_t count)
{
	read_back_compare(c, get_copy, copy, count);
}

void dev_proxy_check_read_back_bytes(struct dev_proxy_fwd *c,
				     const void *data, size_t count)
{
	read_back_compare(c, get_bytes, data, count);
}

uint32_t *dev_proxy_check_sums(const struct dev_proxy *p, struct io_req *req)
{
	size_t n = dev_proxy_sums_records(req->count, p->record_size);

	return n != 0 ? sums_of(p, get_req, req, n) : NULL;
}
