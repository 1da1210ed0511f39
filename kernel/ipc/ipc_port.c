/* SPDX-License-Identifier: GPL-2.0-only */
/* Ports: references, rights counts, notification requests, death. */
#include <stdbool.h>
#include <stddef.h>

#include <mach/notify.h>

#include "ipc/ipc_entry.h"
#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_notify.h"
#include "ipc/ipc_port.h"
#include "ipc/ipc_pset.h"
#include "ipc/ipc_right.h"
#include "ipc/ipc_space.h"
#include "kern/kalloc.h"
#include "kern/panic.h"
#include "kern/sched.h"
#include "x86_64/cpu.h"

static unsigned int ports_alive;

unsigned int ipc_port_count(void)
{
	return ports_alive;
}

struct ipc_port *ipc_port_alloc(void)
{
	uint64_t flags = cpu_intr_save();
	struct ipc_port *port = kzalloc(sizeof(*port));

	if (port != NULL) {
		port->refs = 1;
		port->active = true;
		port->qlimit = MACH_PORT_QLIMIT_DEFAULT;
		ports_alive++;
	}
	cpu_intr_restore(flags);
	return port;
}

struct ipc_port *ipc_port_alloc_kernel(void *kobject, unsigned int kotype)
{
	struct ipc_port *port;

	if (kotype == IKOT_NONE || kotype >= IKOT_MAX)
		return NULL;
	port = ipc_port_alloc();
	if (port != NULL) {
		port->kobject = kobject;
		port->kotype = kotype;
	}
	return port;
}

void ipc_port_dealloc_kernel(struct ipc_port *port)
{
	uint64_t flags = cpu_intr_save();
	struct ipc_port *pd;

	if (port->kotype == IKOT_NONE || !port->active)
		panic("ipc_port_dealloc_kernel: %p is not a live kernel port",
		      (void *)port);
	port->kobject = NULL;
	port->kotype = IKOT_NONE;
	pd = port->pdrequest;	/* a kernel port dies, whoever asked */
	port->pdrequest = NULL;
	ipc_notify_send_once(pd);
	ipc_port_destroy(port);
	cpu_intr_restore(flags);
}

void ipc_port_refs_bad(struct ipc_port *port)
{
	panic("ipc_port: reference to port %p, which is free", (void *)port);
}

/* The last reference went. */
void ipc_port_free(struct ipc_port *port)
{
	uint64_t flags = cpu_intr_save();

	if (port->active || port->msg_head != NULL ||
	    port->dnrequests != NULL || port->watches != NULL)
		panic("ipc_port_release: live port %p freed", (void *)port);
	ports_alive--;
	kfree(port);
	cpu_intr_restore(flags);
}

/* One more right on @port: @ms adds to the make-send count, @send to the
 * send rights, @sonce to the send-once rights.  IPC_PORT_DEAD if the port
 * is inactive; @port unchanged if it is NULL or dead. */
static struct ipc_port *port_add_right(struct ipc_port *port, unsigned int ms,
				       unsigned int send, unsigned int sonce)
{
	uint64_t flags;

	if (!IPC_PORT_VALID(port))
		return port;
	flags = cpu_intr_save();
	if (port->active) {
		port->mscount += ms;
		port->srights += send;
		port->sorights += sonce;
		port->refs++;
	} else {
		port = IPC_PORT_DEAD;
	}
	cpu_intr_restore(flags);
	return port;
}

struct ipc_port *ipc_port_make_send(struct ipc_port *port)
{
	return port_add_right(port, 1, 1, 0);
}

struct ipc_port *ipc_port_make_send_once(struct ipc_port *port)
{
	return port_add_right(port, 0, 0, 1);
}

struct ipc_port *ipc_port_copy_send(struct ipc_port *port)
{
	return port_add_right(port, 0, 1, 0);
}

void ipc_port_release_send(struct ipc_port *port)
{
	struct ipc_port *ns = NULL;
	uint64_t flags;

	if (!IPC_PORT_VALID(port))
		return;
	flags = cpu_intr_save();
	if (port->srights == 0)
		panic("ipc_port_release_send: port %p has no send rights",
		      (void *)port);
	if (--port->srights == 0 && port->active) {
		ns = port->nsrequest;
		port->nsrequest = NULL;
	}
	if (ns != NULL)
		ipc_notify_no_senders(ns, port->mscount);
	ipc_port_release(port);
	cpu_intr_restore(flags);
}

void ipc_port_release_sonce(struct ipc_port *port)
{
	uint64_t flags;

	if (!IPC_PORT_VALID(port))
		return;
	flags = cpu_intr_save();
	if (port->sorights == 0)
		panic("ipc_port_release_sonce: port %p has no send-once rights",
		      (void *)port);
	port->sorights--;
	ipc_port_release(port);
	cpu_intr_restore(flags);
}

void ipc_port_destroy_right(struct ipc_port *port, mach_msg_type_name_t type)
{
	uint64_t flags;

	if (!IPC_PORT_VALID(port))
		return;
	flags = cpu_intr_save();
	switch (type) {
	case MACH_MSG_TYPE_PORT_SEND:
		ipc_port_release_send(port);
		break;
	case MACH_MSG_TYPE_PORT_SEND_ONCE:
		ipc_notify_send_once(port);
		break;
	case MACH_MSG_TYPE_PORT_RECEIVE:
		ipc_port_destroy(port);
		break;
	default:
		panic("ipc_port_destroy_right: type %u", type);
	}
	cpu_intr_restore(flags);
}

void ipc_port_clear_receiver(struct ipc_port *port)
{
	uint64_t flags = cpu_intr_save();

	ipc_pset_remove(port);
	port->receiver = NULL;
	port->receiver_name = MACH_PORT_NULL;
	port->mscount = 0;
	port->seqno = 0;
	thread_wakeup(&port->rcv_event);
	cpu_intr_restore(flags);
}

void ipc_port_destroy(struct ipc_port *port)
{
	struct ipc_port *pd, *ns, *dest;
	struct ipc_dnrequest *dn, *dn_next;
	struct ipc_kmsg *kmsg, *next;
	uint64_t flags = cpu_intr_save();

	ipc_pset_remove(port);
	port->receiver = NULL;
	port->receiver_name = MACH_PORT_NULL;
	dest = port->destination;
	port->destination = NULL;
	if (dest != NULL)
		ipc_port_release(dest);

	pd = port->pdrequest;
	if (pd != NULL) {
		/* The receive right goes to the port-destroyed request. */
		port->pdrequest = NULL;
		port->mscount = 0;
		port->seqno = 0;
		thread_wakeup(&port->rcv_event);
		ipc_notify_port_destroyed(pd, port);
		cpu_intr_restore(flags);
		return;
	}

	port->active = false;
	port->kobject = NULL;
	port->kotype = IKOT_NONE;
	thread_wakeup(&port->rcv_event);
	thread_wakeup(&port->snd_event);

	kmsg = port->msg_head;
	port->msg_head = port->msg_tail = NULL;
	port->msgcount = 0;
	ns = port->nsrequest;
	port->nsrequest = NULL;
	pd = port->pdrequest;
	port->pdrequest = NULL;
	dn = port->dnrequests;
	port->dnrequests = NULL;

	for (; kmsg != NULL; kmsg = next) {
		next = kmsg->next;
		ipc_kmsg_destroy(kmsg);
	}
	/* One at a time: a watch's function may remove others. */
	while (port->watches != NULL) {
		struct ipc_port_watch *w = port->watches;

		ipc_port_watch_remove(w);
		w->fn(w);
	}
	ipc_notify_send_once(ns);
	ipc_notify_send_once(pd);
	for (; dn != NULL; dn = dn_next) {
		dn_next = dn->next;
		ipc_notify_dead_name(dn->notify, dn->name);
		kfree(dn);
	}
	ipc_port_release(port);
	cpu_intr_restore(flags);
}

bool ipc_port_watch_add(struct ipc_port *port, struct ipc_port_watch *watch,
			void (*fn)(struct ipc_port_watch *watch))
{
	uint64_t flags;
	bool linked = false;

	if (!IPC_PORT_VALID(port))
		return false;
	flags = cpu_intr_save();
	if (port->active) {
		watch->fn = fn;
		watch->next = port->watches;
		if (watch->next != NULL)
			watch->next->pprev = &watch->next;
		watch->pprev = &port->watches;
		port->watches = watch;
		linked = true;
	}
	cpu_intr_restore(flags);
	return linked;
}

void ipc_port_watch_remove(struct ipc_port_watch *watch)
{
	uint64_t flags;

	/* Unlinked stays unlinked: only the watch's owner links it. */
	if (watch->pprev == NULL)
		return;
	flags = cpu_intr_save();
	if (watch->pprev != NULL) {
		*watch->pprev = watch->next;
		if (watch->next != NULL)
			watch->next->pprev = watch->pprev;
		watch->next = NULL;
		watch->pprev = NULL;
	}
	cpu_intr_restore(flags);
}

kern_return_t ipc_port_set_qlimit(struct ipc_port *port,
				  mach_port_msgcount_t qlimit)
{
	uint64_t flags;

	if (qlimit > MACH_PORT_QLIMIT_MAX)
		return KERN_INVALID_VALUE;
	flags = cpu_intr_save();
	if (qlimit > port->qlimit)
		thread_wakeup(&port->snd_event);
	port->qlimit = qlimit;
	cpu_intr_restore(flags);
	return KERN_SUCCESS;
}

void ipc_port_nsrequest(struct ipc_port *port, mach_port_mscount_t sync,
			struct ipc_port *notify, struct ipc_port **previous)
{
	uint64_t flags = cpu_intr_save();

	if (notify == IPC_PORT_DEAD)
		notify = NULL;
	*previous = port->nsrequest;
	if (notify != NULL && port->srights == 0 && sync <= port->mscount) {
		port->nsrequest = NULL;
		ipc_notify_no_senders(notify, port->mscount);
	} else {
		port->nsrequest = notify;
	}
	cpu_intr_restore(flags);
}

void ipc_port_pdrequest(struct ipc_port *port, struct ipc_port *notify,
			struct ipc_port **previous)
{
	uint64_t flags = cpu_intr_save();

	if (notify == IPC_PORT_DEAD)
		notify = NULL;
	*previous = port->pdrequest;
	port->pdrequest = notify;
	cpu_intr_restore(flags);
}

kern_return_t ipc_port_dnrequest_add(struct ipc_port *port,
				     struct ipc_space *space,
				     mach_port_name_t name,
				     struct ipc_port *notify,
				     struct ipc_port **previous)
{
	uint64_t flags = cpu_intr_save();
	struct ipc_dnrequest *dn;

	for (dn = port->dnrequests; dn != NULL; dn = dn->next) {
		if (dn->space == space && dn->name == name) {
			*previous = dn->notify;
			dn->notify = notify;
			cpu_intr_restore(flags);
			return KERN_SUCCESS;
		}
	}
	dn = kzalloc(sizeof(*dn));
	if (dn == NULL) {
		cpu_intr_restore(flags);
		return KERN_RESOURCE_SHORTAGE;
	}
	dn->space = space;
	dn->name = name;
	dn->notify = notify;
	dn->next = port->dnrequests;
	port->dnrequests = dn;
	*previous = NULL;
	cpu_intr_restore(flags);
	return KERN_SUCCESS;
}

struct ipc_port *ipc_port_dnrequest_cancel(struct ipc_port *port,
					   struct ipc_space *space,
					   mach_port_name_t name)
{
	uint64_t flags = cpu_intr_save();
	struct ipc_dnrequest **pp, *dn;
	struct ipc_port *notify = NULL;

	for (pp = &port->dnrequests; *pp != NULL; pp = &(*pp)->next) {
		dn = *pp;
		if (dn->space == space && dn->name == name) {
			*pp = dn->next;
			notify = dn->notify;
			kfree(dn);
			break;
		}
	}
	cpu_intr_restore(flags);
	return notify;
}

kern_return_t ipc_port_request_notification(struct ipc_space *space,
					    mach_port_name_t name,
					    mach_msg_id_t msgid,
					    mach_port_mscount_t sync,
					    struct ipc_port *notify,
					    struct ipc_port **previous)
{
	uint64_t flags;
	struct ipc_port *port;
	kern_return_t kr;

	if (notify == IPC_PORT_DEAD)
		notify = NULL;
	if (space == NULL)
		return KERN_INVALID_TASK;
	flags = cpu_intr_save();
	if (!space->active) {
		kr = KERN_INVALID_TASK;
		goto out;
	}
	switch (msgid) {
	case MACH_NOTIFY_PORT_DESTROYED:
		if (sync != 0) {
			kr = KERN_INVALID_VALUE;
			break;
		}
		kr = ipc_right_lookup_receive(space, name, &port);
		if (kr == KERN_SUCCESS)
			ipc_port_pdrequest(port, notify, previous);
		break;
	case MACH_NOTIFY_NO_SENDERS:
		kr = ipc_right_lookup_receive(space, name, &port);
		if (kr == KERN_SUCCESS)
			ipc_port_nsrequest(port, sync, notify, previous);
		break;
	case MACH_NOTIFY_DEAD_NAME:
		kr = ipc_right_dnrequest(space, name, sync != 0, notify,
					 previous);
		break;
	default:
		kr = KERN_INVALID_VALUE;
		break;
	}
out:
	cpu_intr_restore(flags);
	return kr;
}

bool ipc_port_check_circularity(struct ipc_port *port, struct ipc_port *dest)
{
	struct ipc_port *p = dest;

	while (IPC_PORT_VALID(p)) {
		if (p == port)
			return true;
		if (!p->active || p->receiver != NULL ||
		    p->kotype != IKOT_NONE)
			return false;
		p = p->destination;
	}
	return false;
}
