/* SPDX-License-Identifier: GPL-2.0-only */
/* Filter tables: installing filters in priority order, delivering frames. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_mqueue.h"
#include "ipc/ipc_port.h"
#include "kern/kalloc.h"
#include "kern/ledger.h"
#include "kern/string.h"
#include "kern/task.h"
#include "net/net_filter.h"
#include "net/net_frame.h"
#include "net/net_program.h"
#include "x86_64/cpu.h"

struct net_filter {
	struct net_filter *next;
	struct net_filter_table *table;
	struct ipc_port *port;		/* send right */
	struct ipc_port_watch watch;	/* on @port's death */
	struct ledger *ledger;		/* the installing task's, charged */
	int priority;
	struct net_program prog;
};

struct net_filter_table {
	struct net_filter *head;	/* the order filters run in */
	unsigned int hlen;
	struct net_filter_stats stats;
	struct net_frame frame;		/* net_filter_deliver's copy */
};

/* The message: struct net_rcv_msg up to its packet bytes (user layout,
 * which is also the kernel's: it carries no port in its body). */
#define RCV_PACKET_OFF	offsetof(struct net_rcv_msg, packet)
_Static_assert(offsetof(struct net_rcv_msg, header_type) == 32 &&
	       offsetof(struct net_rcv_msg, header) == 36 &&
	       offsetof(struct net_rcv_msg, packet_type) == 100 &&
	       RCV_PACKET_OFF == 104, "net_rcv_msg as gnumach-dev lays it out");

struct net_filter_table *net_filter_table_create(unsigned int header_size)
{
	struct net_filter_table *t;

	if (header_size > NET_HDW_HDR_MAX)
		return NULL;
	t = kzalloc(sizeof(*t));
	if (t != NULL)
		t->hlen = header_size;
	return t;
}

/* Give back what unlinked filter @nf holds: its watch, right, charge and
 * memory.  Interrupts on or off, not in an interrupt handler. */
static void filter_free(struct net_filter *nf)
{
	ipc_port_watch_remove(&nf->watch);
	ipc_port_release_send(nf->port);
	ledger_credit(nf->ledger, LEDGER_NET_FILTERS, 1);
	kfree(nf);
}

/* Unlink @nf from its table.  Interrupts off. */
static void unlink_filter(struct net_filter *nf)
{
	struct net_filter **pp = &nf->table->head;

	while (*pp != nf)
		pp = &(*pp)->next;
	*pp = nf->next;
	nf->table->stats.filters--;
}

void net_filter_table_destroy(struct net_filter_table *t)
{
	uint64_t flags = cpu_intr_save();

	while (t->head != NULL) {
		struct net_filter *nf = t->head;

		unlink_filter(nf);
		filter_free(nf);
	}
	cpu_intr_restore(flags);
	kfree(t);
}

/* A filter's port died (ipc_port_watch_add): the filter goes now. */
static void port_died(struct ipc_port_watch *watch)
{
	struct net_filter *nf = (struct net_filter *)
		((char *)watch - offsetof(struct net_filter, watch));

	unlink_filter(nf);
	nf->table->stats.removed++;
	filter_free(nf);
}

/* Link @nf after every filter of its priority or higher.  Interrupts
 * off. */
static void link_by_priority(struct net_filter_table *t, struct net_filter *nf)
{
	struct net_filter **pp = &t->head;

	while (*pp != NULL && (*pp)->priority >= nf->priority)
		pp = &(*pp)->next;
	nf->next = *pp;
	*pp = nf;
	t->stats.filters++;
}

/* The filter of @port in @t, or NULL.  Interrupts off. */
static struct net_filter *find_filter(struct net_filter_table *t,
				      struct ipc_port *port)
{
	for (struct net_filter *f = t->head; f != NULL; f = f->next)
		if (f->port == port)
			return f;
	return NULL;
}

io_return_t net_filter_set(struct net_filter_table *t, struct ipc_port *port,
			   int priority, const filter_t *filter,
			   unsigned int count)
{
	struct ledger *ledger = task_current()->ledger;
	struct net_filter *nf, *old;
	struct net_program prog;
	io_return_t rc;
	uint64_t flags;

	/* No kernel object serves net_rcv_msg, and delivery may run in an
	 * interrupt handler, where a kernel object's server must not. */
	if (!IPC_PORT_VALID(port) || port->kotype != IKOT_NONE)
		return D_INVALID_OPERATION;
	rc = net_program_load(&prog, filter, count);
	if (rc != D_SUCCESS)
		return rc;
	nf = kzalloc(sizeof(*nf));
	if (nf == NULL)
		return D_NO_MEMORY;
	nf->table = t;
	nf->prog = prog;
	nf->priority = priority;

	flags = cpu_intr_save();
	if (!port->active) {
		cpu_intr_restore(flags);
		kfree(nf);
		return D_INVALID_OPERATION;
	}
	old = find_filter(t, port);
	if (old != NULL && old->ledger == ledger) {
		/* Replacing its own filter: the charge moves over. */
		nf->ledger = old->ledger;
		old->ledger = NULL;
	} else if (ledger_charge(ledger, LEDGER_NET_FILTERS, 1)) {
		nf->ledger = ledger;
	} else {
		cpu_intr_restore(flags);
		kfree(nf);
		return D_NO_MEMORY;
	}
	/* Cannot fail: @port is active and interrupts are off. */
	(void)ipc_port_watch_add(port, &nf->watch, port_died);
	nf->port = port;
	if (old != NULL)
		unlink_filter(old);
	link_by_priority(t, nf);
	cpu_intr_restore(flags);
	if (old != NULL)
		filter_free(old);
	return D_SUCCESS;
}

/* Queue a net_rcv_msg with the first @count bytes of t->frame's packet
 * to @port (active).  Interrupts off. */
static unsigned int send_copy(struct net_filter_table *t, struct ipc_port *port,
			      unsigned int count)
{
	mach_msg_type_t header_type = {
		.msgt_name = MACH_MSG_TYPE_BYTE,
		.msgt_size = 8,
		.msgt_number = NET_HDW_HDR_MAX,
		.msgt_inline = 1,
	};
	mach_msg_type_t packet_type = header_type;
	struct ipc_kmsg *kmsg;
	uint8_t *m;

	if (ipc_mqueue_full(port, MACH_MSG_TYPE_PORT_SEND)) {
		t->stats.dropped_full++;
		return 0;
	}
	/* GNU Mach rounds the size up to a pointer's alignment; ipc_kmsg_alloc
	 * zeroes the padding. */
	kmsg = ipc_kmsg_alloc((RCV_PACKET_OFF + count + 7) & ~7u);
	if (kmsg == NULL) {
		t->stats.dropped_nomem++;
		return 0;
	}
	kmsg->header.bits = MACH_MSGH_BITS(MACH_MSG_TYPE_PORT_SEND, 0);
	kmsg->header.remote = ipc_port_copy_send(port);
	kmsg->header.local = NULL;
	kmsg->header.id = NET_RCV_MSG_ID;
	m = (uint8_t *)ipc_kmsg_msg(kmsg);
	packet_type.msgt_number = count;
	memcpy(m + offsetof(struct net_rcv_msg, header_type), &header_type,
	       sizeof(header_type));
	memcpy(m + offsetof(struct net_rcv_msg, header), t->frame.header,
	       NET_HDW_HDR_MAX);
	memcpy(m + offsetof(struct net_rcv_msg, packet_type), &packet_type,
	       sizeof(packet_type));
	memcpy(m + RCV_PACKET_OFF, t->frame.packet, count);
	ipc_mqueue_send_always(kmsg);
	t->stats.delivered++;
	return 1;
}

unsigned int net_filter_deliver(struct net_filter_table *t, const void *frame,
				size_t len, unsigned int direction)
{
	struct net_filter **pp = &t->head, *nf;
	unsigned int sent = 0, count;
	bool filled = false;
	uint64_t flags = cpu_intr_save();

	t->stats.frames++;
	while ((nf = *pp) != NULL) {
		pp = &nf->next;
		if (!(nf->prog.flags & direction))
			continue;
		/* copied once, and only if a filter of @direction exists */
		if (!filled) {
			if (net_frame_fill(&t->frame, frame, len, t->hlen) !=
			    D_SUCCESS) {
				t->stats.bad_frames++;
				goto out;
			}
			filled = true;
		}
		count = net_program_run(&nf->prog, &t->frame);
		if (count == 0)
			continue;
		sent += send_copy(t, nf->port, count);
		if (nf->priority >= NET_HI_PRI)
			break;
	}
out:
	cpu_intr_restore(flags);
	return sent;
}

void net_filter_stats(struct net_filter_table *t, struct net_filter_stats *out)
{
	uint64_t flags = cpu_intr_save();

	*out = t->stats;
	cpu_intr_restore(flags);
}
