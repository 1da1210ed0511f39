/* SPDX-License-Identifier: GPL-2.0-only */
/* A network device's packet filters: device_set_filter and delivery. */
#ifndef NET_NET_FILTER_H
#define NET_NET_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include <device/device_types.h>
#include <device/net_status.h>

struct ipc_port;
struct net_filter_table;

/* What a table has done since it was created (net_filter_stats). */
struct net_filter_stats {
	uint64_t frames;	/* offered to net_filter_deliver */
	uint64_t bad_frames;	/* shorter than the link header, or too long
				 * (seen only when a filter of its direction
				 * exists: frames are read only then) */
	uint64_t delivered;	/* net_rcv_msg messages queued */
	uint64_t dropped_full;	/* not sent: the port's queue was full */
	uint64_t dropped_nomem;	/* not sent: no memory for the message */
	uint64_t removed;	/* filters removed because their port died */
	unsigned int filters;	/* filters installed now */
};

/*
 * Locking: one CPU.  Every function disables interrupts around the table
 * itself (the saves nest).  net_filter_deliver and net_filter_stats
 * never block and may run from an interrupt handler; create, set and
 * destroy run in a thread (they allocate, and destroy may send no-senders
 * notifications).  A table is used by one device; destroy must not race
 * with the others.
 */

/*
 * net_filter_table_create - an empty table for a device whose frames
 * start with a link header of @header_size bytes (14 for Ethernet).
 * Returns NULL if @header_size exceeds NET_HDW_HDR_MAX or memory is short.
 */
struct net_filter_table *net_filter_table_create(unsigned int header_size);

/* net_filter_table_destroy - release every filter's send right, then the
 * table. */
void net_filter_table_destroy(struct net_filter_table *t);

/*
 * net_filter_set - device_set_filter: install the @count words at
 * @filter (net_program.h) with @priority, sending what it accepts to
 * @port, a send right in kernel form that is consumed on D_SUCCESS and
 * stays the caller's otherwise.  Filters run in descending priority,
 * equal priorities in the order they were installed; a filter of the
 * same port is replaced.  A filter watches its port: the moment the
 * port dies, the filter is removed and its right released (counted in
 * removed).  Each filter is charged to the installing task's ledger
 * (LEDGER_NET_FILTERS, kern/ledger.h).  Returns D_SUCCESS;
 * D_INVALID_OPERATION for a NULL or dead @port, a kernel object's port,
 * or a program net_program_load refuses; D_NO_MEMORY when the task has
 * LEDGER_NET_FILTERS filters already, or memory is short.
 */
io_return_t net_filter_set(struct net_filter_table *t, struct ipc_port *port,
			   int priority, const filter_t *filter,
			   unsigned int count);

/*
 * net_filter_deliver - offer the @len-byte frame at @frame (link header
 * first), travelling in @direction (NETF_IN received, NETF_OUT sent), to
 * the filters of that direction, in order.  Every filter that accepts it
 * gets a net_rcv_msg (NET_RCV_MSG_ID) on its port, unless that port's
 * queue is full (counted in dropped_full, never waited for) or memory is
 * short (dropped_nomem); an accepting filter of priority NET_HI_PRI or
 * more ends the walk (later filters do not see the frame).  Returns
 * the messages queued.  The frame is copied, once, and only when a filter of
 * @direction exists (so sent frames cost no copy without NETF_OUT
 * filters); the caller keeps it.
 */
unsigned int net_filter_deliver(struct net_filter_table *t, const void *frame,
				size_t len, unsigned int direction);

/* net_filter_stats - copy @t's counters into @out. */
void net_filter_stats(struct net_filter_table *t, struct net_filter_stats *out);

#endif
