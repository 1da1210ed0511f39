/* SPDX-License-Identifier: GPL-2.0-only */
/* The proxy module: devices that user-mode driver servers publish (proxy.defs), served through the kernel. */
#ifndef DEVICE_DEV_PROXY_H
#define DEVICE_DEV_PROXY_H

#include <stdbool.h>
#include <stdint.h>

/*
 * A driver server publishes a device with proxy.defs's proxy_publish
 * on the device master port: from then on device_open of its name, by
 * anyone, opens a kernel device of this module (IKOT_DEVICE ports, the
 * kernel's) whose calls are served as follows.
 *
 *   open, close      local: the server's device is ready from its
 *                    publication; the kernel counts opens, and the last
 *                    close sends nothing to the server.
 *   read, write      forwarded as device_read_request(_inband) /
 *                    device_write_request(_inband) to the server's port,
 *                    with a reply port the kernel makes for the request
 *                    (dev_proxy_fwd.h); the client's call answers when
 *                    the server's device_reply.defs reply comes back.
 *                    The request's D_READ and D_WRITE bits are those of
 *                    the open that opened the device (the server sees
 *                    no open: a disk answers D_READ_ONLY from them),
 *                    its other bits the call's.
 *                    Out-of-line data travels out of line both ways,
 *                    but a NIC's write of at most IO_INBAND_MAX bytes
 *                    goes inband (the server maps no pages for it).
 *                    A disk's call a supervised server fails is
 *                    checked first (dev_proxy_check.c, "Failed calls").
 *   set_status       forwarded as device_set_status; its reply (MIG's
 *                    return code) answers the client (dev_reply_defer).
 *   get_status       local, from the records the server published
 *                    (proxy_publish, proxy_status_set): a flavour it did
 *                    not publish is D_INVALID_OPERATION, a count smaller
 *                    than the record D_INVALID_SIZE.  But GRAFT_DEV_INFO
 *                    (graft/dev_info.h), whose counters and probes only
 *                    the server has: forwarded as device_get_status (a
 *                    count below GRAFT_DEV_INFO_COUNT is D_INVALID_SIZE
 *                    first); the answer gets mode GRAFT_DEV_SERVER and
 *                    the publishing task's name from the kernel; a
 *                    server that does not know the flavour
 *                    (D_INVALID_OPERATION) gets those alone answered,
 *                    one whose answer is not a well-formed record
 *                    D_IO_ERROR.
 *   set_filter       local: the packet filters of kernel/net/, fed by
 *                    the server's proxy_net_input (NETF_IN); clients
 *                    get net_rcv_msg as from an in-kernel NIC.
 *
 * The publication ends when the server's device port dies (the server
 * destroyed it, or died): every forwarded request still in flight
 * completes with D_DEVICE_DOWN, the name is unpublished (device_open:
 * D_NO_SUCH_DEVICE; it may be published again), and every later call on
 * the clients' device ports answers D_DEVICE_DOWN until they close it.
 * Publications are charged to the publishing task's ledger
 * (LEDGER_DEVICE_PROXIES).
 *
 * Locking: one CPU; interrupts are disabled around the table and each
 * publication; nothing blocks.  Return codes are D_* (device_types.h).
 */

/* Publications alive (published, or down but still referenced),
 * forwarded requests in flight at servers, and frames proxy_net_input
 * dropped for their size (for tests and leak checks). */
unsigned int dev_proxy_count(void);
unsigned int dev_proxy_fwd_count(void);
uint64_t dev_proxy_bad_frames(void);

/* dev_proxy_waiting - whether @name is published and waiting for the
 * next instance of its dead server; dev_proxy_resent - how many calls
 * were sent again to a new instance of its server (for tests). */
bool dev_proxy_waiting(const char *name);
unsigned int dev_proxy_resent(const char *name);

/* dev_proxy_checks - how many of @name's failed reads and writes were
 * checked (a NIC's frames: taken as checked, without a read);
 * dev_proxy_retried - how many times one of those sent its server's
 * task to an end, to go to the next instance (dev_proxy_check.c,
 * "Failed calls"; for tests and reports). */
unsigned int dev_proxy_checks(const char *name);
unsigned int dev_proxy_retried(const char *name);

/* dev_proxy_repeated - how many of @name's checked calls whose check
 * worked were sent once more to the same instance (dev_proxy_check.c,
 * "Failed calls"; for tests and reports). */
unsigned int dev_proxy_repeated(const char *name);

/* dev_proxy_wrong_data - how many of @name's reads, and read-backs of
 * its writes, answered other data than its clients wrote (dev_proxy_check.c,
 * "Checked data"; for tests and reports). */
unsigned int dev_proxy_wrong_data(const char *name);

/* dev_proxy_restart_probe_set - the benchmarks' hook: @fn is called
 * when the first call a new instance of a dead server was sent (or got
 * since) is answered, in the thread that answers it (NULL: no calls). */
void dev_proxy_restart_probe_set(void (*fn)(void));

/* dev_proxy_init - register the handlers of publication ports and
 * of the forwarded requests' reply ports (once, from device_init). */
void dev_proxy_init(void);

/* The MIG translations proxy.defs names for proxy_t are declared in
 * ds_mig.h (the generated stubs' types). */

#endif
