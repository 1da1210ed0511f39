/* SPDX-License-Identifier: GPL-2.0-only */
/* Rights under names: what each disposition takes, what a right adds. */
#include <stdbool.h>
#include <stddef.h>

#include "ipc/ipc_entry.h"
#include "ipc/ipc_notify.h"
#include "ipc/ipc_port.h"
#include "ipc/ipc_pset.h"
#include "ipc/ipc_right.h"
#include "ipc/ipc_space.h"
#include "kern/kalloc.h"
#include "kern/panic.h"

/* Drop one send right count of @port without touching references; sends
 * the no-senders notification if that was the last. */
static void drop_srights(struct ipc_port *port)
{
	struct ipc_port *ns;

	if (port->srights == 0)
		panic("ipc: send rights of port %p underflow", (void *)port);
	if (--port->srights != 0 || !port->active || port->nsrequest == NULL)
		return;
	ns = port->nsrequest;
	port->nsrequest = NULL;
	ipc_notify_no_senders(ns, port->mscount);
}

/* Take the dead-name request off @e; returns its send-once right if the
 * port still held it (the caller sends the port-deleted notification). */
static struct ipc_port *dncancel(struct ipc_space *space, struct ipc_entry *e)
{
	struct ipc_port *port = e->object;

	if (!e->dnrequest)
		return NULL;
	e->dnrequest = false;
	if (port == NULL || !port->active)
		return NULL;
	return ipc_port_dnrequest_cancel(port, space, e->name);
}

void ipc_right_make_dead(struct ipc_space *space, struct ipc_entry *e)
{
	struct ipc_port *port = e->object;

	ipc_entry_unhash_object(&space->table, e);
	if (e->type & MACH_PORT_TYPE_SEND) {
		if (port->srights > 0)
			port->srights--;
	} else {
		if (port->sorights > 0)
			port->sorights--;
		e->urefs = 1;
	}
	e->type = MACH_PORT_TYPE_DEAD_NAME;
	e->object = NULL;
	if (e->dnrequest) {
		/* The dead-name notification stands for one reference. */
		e->dnrequest = false;
		if (e->urefs < IPC_UREFS_MAX)
			e->urefs++;
	}
	ipc_port_release(port);
}

kern_return_t ipc_right_reserve(struct ipc_space *space, mach_port_name_t name,
				mach_msg_type_name_t msgt_name, bool deadok)
{
	struct ipc_entry *e = ipc_right_lookup(space, name);

	if (e == NULL)
		return KERN_INVALID_NAME;
	return ipc_right_reserve_entry(space, e, msgt_name, deadok);
}

kern_return_t ipc_right_reserve_entry(struct ipc_space *space,
				      struct ipc_entry *e,
				      mach_msg_type_name_t msgt_name,
				      bool deadok)
{
	kern_return_t kr;
	bool listed;

	kr = ipc_right_check(e, msgt_name, deadok);
	if (kr != KERN_SUCCESS)
		return kr;
	listed = e->resv_receive || e->resv_sonce || e->resv_urefs != 0;
	switch (msgt_name) {
	case MACH_MSG_TYPE_MOVE_RECEIVE:
		e->resv_receive = true;
		break;
	case MACH_MSG_TYPE_MOVE_SEND:
		e->resv_urefs++;
		break;
	case MACH_MSG_TYPE_MOVE_SEND_ONCE:
		if (e->type & MACH_PORT_TYPE_SEND_ONCE)
			e->resv_sonce = true;
		else
			e->resv_urefs++;
		break;
	default:
		return KERN_SUCCESS;	/* copies and makes take nothing */
	}
	if (!listed) {
		e->resv_next = space->resv;
		space->resv = e;
	}
	return KERN_SUCCESS;
}

void ipc_right_reserve_drop(struct ipc_space *space)
{
	struct ipc_entry *e, *next;

	for (e = space->resv; e != NULL; e = next) {
		next = e->resv_next;
		e->resv_next = NULL;
		e->resv_receive = false;
		e->resv_sonce = false;
		e->resv_urefs = 0;
	}
	space->resv = NULL;
}

/* Remove @e (its reference goes with the right the caller took), sending
 * the port-deleted notification of its dead-name request. */
static void entry_remove(struct ipc_space *space, struct ipc_entry *e)
{
	mach_port_name_t name = e->name;
	struct ipc_port *notify = dncancel(space, e);

	ipc_entry_free(&space->table, e);
	if (notify != NULL)
		ipc_notify_port_deleted(notify, name);
}

kern_return_t ipc_right_copyin(struct ipc_space *space, mach_port_name_t name,
			       mach_msg_type_name_t msgt_name, bool deadok,
			       struct ipc_port **portp,
			       mach_msg_type_name_t *typep)
{
	struct ipc_entry *e = ipc_right_lookup(space, name);

	if (e == NULL)
		return KERN_INVALID_NAME;
	return ipc_right_copyin_entry(space, e, msgt_name, deadok, portp,
				      typep);
}

kern_return_t ipc_right_copyin_entry(struct ipc_space *space,
				     struct ipc_entry *e,
				     mach_msg_type_name_t msgt_name,
				     bool deadok, struct ipc_port **portp,
				     mach_msg_type_name_t *typep)
{
	kern_return_t kr = ipc_right_check(e, msgt_name, deadok);

	if (kr != KERN_SUCCESS)
		return kr;
	*portp = ipc_right_copyin_checked(space, e, msgt_name);
	*typep = ipc_right_copyin_type(msgt_name);
	return KERN_SUCCESS;
}

struct ipc_port *ipc_right_copyin_checked(struct ipc_space *space,
					  struct ipc_entry *e,
					  mach_msg_type_name_t msgt_name)
{
	struct ipc_port *port = e->object;

	if (e->type & MACH_PORT_TYPE_DEAD_NAME) {
		/* A dead name travels as MACH_PORT_DEAD. */
		if (msgt_name != MACH_MSG_TYPE_COPY_SEND && --e->urefs == 0)
			ipc_entry_free(&space->table, e);
		return IPC_PORT_DEAD;
	}

	switch (msgt_name) {
	case MACH_MSG_TYPE_MAKE_SEND:
		port = ipc_port_make_send(port);
		break;
	case MACH_MSG_TYPE_MAKE_SEND_ONCE:
		port = ipc_port_make_send_once(port);
		break;
	case MACH_MSG_TYPE_COPY_SEND:
		port->srights++;
		ipc_port_reference(port);
		break;
	case MACH_MSG_TYPE_MOVE_SEND:
		if (e->urefs > 1) {
			e->urefs--;
			port->srights++;
			ipc_port_reference(port);
		} else if (e->type & MACH_PORT_TYPE_RECEIVE) {
			/* The entry keeps the receive right and its
			 * reference; the message needs its own. */
			e->type &= ~MACH_PORT_TYPE_SEND;
			e->urefs = 0;
			ipc_port_reference(port);
		} else {
			entry_remove(space, e);
		}
		break;
	case MACH_MSG_TYPE_MOVE_SEND_ONCE:
		entry_remove(space, e);
		break;
	case MACH_MSG_TYPE_MOVE_RECEIVE:
		ipc_port_clear_receiver(port);
		if (e->type & MACH_PORT_TYPE_SEND) {
			/* The send right stays, with a reference of its
			 * own; the receive right takes the entry's. */
			e->type &= ~MACH_PORT_TYPE_RECEIVE;
			ipc_port_reference(port);
		} else {
			entry_remove(space, e);
		}
		break;
	}
	return port;
}

/*
 * Give @space the right @port (active) of kernel type @type, into the
 * entry @e the space has for the port (NULL: a new entry, named @name if
 * that is not MACH_PORT_NULL).
 */
static kern_return_t give(struct ipc_space *space, struct ipc_entry *e,
			  mach_port_name_t name, struct ipc_port *port,
			  mach_msg_type_name_t type, bool overflow,
			  mach_port_name_t *namep)
{
	kern_return_t kr;

	if (e != NULL) {
		switch (type) {
		case MACH_MSG_TYPE_PORT_SEND:
			if (!(e->type & MACH_PORT_TYPE_SEND)) {
				e->type |= MACH_PORT_TYPE_SEND;
				e->urefs = 1;
			} else if (e->urefs < IPC_UREFS_MAX) {
				e->urefs++;
				port->srights--;
			} else if (overflow) {
				port->srights--;	/* pegged */
			} else {
				return KERN_UREFS_OVERFLOW;
			}
			break;
		case MACH_MSG_TYPE_PORT_RECEIVE:
			e->type |= MACH_PORT_TYPE_RECEIVE;
			break;
		default:
			panic("ipc: give type %u to an existing entry", type);
		}
		ipc_port_release(port);	/* the entry has one already */
	} else {
		if (name != MACH_PORT_NULL)
			kr = ipc_entry_alloc_name(&space->table, name, &e);
		else
			kr = ipc_entry_alloc(&space->table, &e);
		if (kr != KERN_SUCCESS)
			return kr;
		e->object = port;
		switch (type) {
		case MACH_MSG_TYPE_PORT_SEND_ONCE:
			e->type = MACH_PORT_TYPE_SEND_ONCE;
			e->urefs = 1;
			break;
		case MACH_MSG_TYPE_PORT_SEND:
			e->type = MACH_PORT_TYPE_SEND;
			e->urefs = 1;
			ipc_entry_hash_object(&space->table, e);
			break;
		case MACH_MSG_TYPE_PORT_RECEIVE:
			e->type = MACH_PORT_TYPE_RECEIVE;
			ipc_entry_hash_object(&space->table, e);
			break;
		default:
			panic("ipc: give right of type %u", type);
		}
	}
	if (type == MACH_MSG_TYPE_PORT_RECEIVE) {
		struct ipc_port *dest = port->destination;

		port->receiver = space;
		port->receiver_name = e->name;
		port->destination = NULL;
		if (dest != NULL)
			ipc_port_release(dest);
	}
	*namep = e->name;
	return KERN_SUCCESS;
}

/* Consume a send or send-once right to a dead port. */
static void drop_dead_right(struct ipc_port *port, mach_msg_type_name_t type)
{
	if (type == MACH_MSG_TYPE_PORT_SEND)
		ipc_port_release_send(port);
	else
		ipc_port_release_sonce(port);
}

kern_return_t ipc_right_copyout(struct ipc_space *space, struct ipc_port *port,
				mach_msg_type_name_t type, bool overflow,
				mach_port_name_t *namep)
{
	struct ipc_entry *e = NULL;

	if (port == NULL) {
		*namep = MACH_PORT_NULL;
		return KERN_SUCCESS;
	}
	if (port == IPC_PORT_DEAD) {
		*namep = MACH_PORT_DEAD;
		return KERN_SUCCESS;
	}
	if (!port->active) {
		drop_dead_right(port, type);
		*namep = MACH_PORT_DEAD;
		return KERN_SUCCESS;
	}
	if (type != MACH_MSG_TYPE_PORT_SEND_ONCE)
		e = ipc_entry_lookup_object(&space->table, port);
	return give(space, e, MACH_PORT_NULL, port, type, overflow, namep);
}

kern_return_t ipc_right_insert(struct ipc_space *space, mach_port_name_t name,
			       struct ipc_port *port,
			       mach_msg_type_name_t type)
{
	struct ipc_entry *e, *oe = NULL;
	mach_port_name_t got;

	if (!MACH_PORT_VALID(name) ||
	    (type != MACH_MSG_TYPE_PORT_SEND &&
	     type != MACH_MSG_TYPE_PORT_SEND_ONCE &&
	     type != MACH_MSG_TYPE_PORT_RECEIVE))
		return KERN_INVALID_VALUE;
	if (!IPC_PORT_VALID(port) || !port->active)
		return KERN_INVALID_CAPABILITY;
	e = ipc_right_lookup(space, name);
	if (type != MACH_MSG_TYPE_PORT_SEND_ONCE)
		oe = ipc_entry_lookup_object(&space->table, port);
	if (oe != NULL && oe != e)
		return KERN_RIGHT_EXISTS;
	if (e != NULL && e != oe)
		return KERN_NAME_EXISTS;
	return give(space, e, name, port, type, false, &got);
}

kern_return_t ipc_right_dealloc(struct ipc_space *space,
				mach_port_name_t name)
{
	struct ipc_entry *e = ipc_right_lookup(space, name);
	struct ipc_port *port;

	if (e == NULL)
		return KERN_INVALID_NAME;
	port = e->object;
	switch (e->type) {
	case MACH_PORT_TYPE_DEAD_NAME:
		if (--e->urefs == 0)
			ipc_entry_free(&space->table, e);
		return KERN_SUCCESS;
	case MACH_PORT_TYPE_SEND_ONCE:
		entry_remove(space, e);
		ipc_notify_send_once(port);
		return KERN_SUCCESS;
	case MACH_PORT_TYPE_SEND:
		if (--e->urefs == 0) {
			entry_remove(space, e);
			ipc_port_release_send(port);
		}
		return KERN_SUCCESS;
	case MACH_PORT_TYPE_SEND_RECEIVE:
		if (--e->urefs == 0) {
			e->type = MACH_PORT_TYPE_RECEIVE;
			drop_srights(port);
		}
		return KERN_SUCCESS;
	default:
		return KERN_INVALID_RIGHT;
	}
}

/*
 * The receive right of @port, named by @e, is being destroyed while the
 * entry may keep a send right (@keep_send).  If the port will survive
 * (its port-destroyed request takes the receive right) the entry keeps a
 * plain send right; otherwise the entry becomes a dead name, gaining the
 * reference of a dead-name request (the request stays with the port and
 * fires as it dies).
 */
static void receive_gone_keep_send(struct ipc_space *space,
				   struct ipc_entry *e, struct ipc_port *port)
{
	if (port->pdrequest != NULL) {
		e->type = MACH_PORT_TYPE_SEND;
		ipc_port_reference(port);
		return;
	}
	ipc_entry_unhash_object(&space->table, e);
	e->type = MACH_PORT_TYPE_DEAD_NAME;
	e->object = NULL;
	if (e->dnrequest) {
		e->dnrequest = false;
		if (e->urefs < IPC_UREFS_MAX)
			e->urefs++;
	}
	if (port->srights > 0)
		port->srights--;
}

kern_return_t ipc_right_destroy(struct ipc_space *space,
				mach_port_name_t name)
{
	struct ipc_entry *e = ipc_right_lookup(space, name);

	if (e == NULL)
		return KERN_INVALID_NAME;
	if (e->type == MACH_PORT_TYPE_DEAD_NAME) {
		ipc_entry_free(&space->table, e);
		return KERN_SUCCESS;
	}
	ipc_entry_remove(&space->table, e);
	ipc_right_clean(space, e);
	return KERN_SUCCESS;
}

kern_return_t ipc_right_delta(struct ipc_space *space, mach_port_name_t name,
			      mach_port_right_t right,
			      mach_port_delta_t delta)
{
	struct ipc_entry *e;
	struct ipc_port *port;
	int64_t urefs;

	if (right >= MACH_PORT_RIGHT_NUMBER)
		return KERN_INVALID_VALUE;
	e = ipc_right_lookup(space, name);
	if (e == NULL)
		return KERN_INVALID_NAME;
	if (!(e->type & MACH_PORT_TYPE(right)))
		return KERN_INVALID_RIGHT;
	port = e->object;

	switch (right) {
	case MACH_PORT_RIGHT_RECEIVE:
	case MACH_PORT_RIGHT_SEND_ONCE:
	case MACH_PORT_RIGHT_PORT_SET:
		if (delta != 0 && delta != -1)
			return KERN_INVALID_VALUE;
		if (delta == 0)
			return KERN_SUCCESS;
		if (right == MACH_PORT_RIGHT_SEND_ONCE)
			return ipc_right_dealloc(space, name);
		if (right == MACH_PORT_RIGHT_PORT_SET)
			return ipc_right_destroy(space, name);
		if (e->type & MACH_PORT_TYPE_SEND) {
			receive_gone_keep_send(space, e, port);
			ipc_port_clear_receiver(port);
			ipc_port_destroy(port);
		} else {
			entry_remove(space, e);
			ipc_port_clear_receiver(port);
			ipc_port_destroy(port);
		}
		return KERN_SUCCESS;
	default:
		/* Send rights and dead names count user references. */
		urefs = (int64_t)e->urefs + delta;
		if (urefs < 0)
			return KERN_INVALID_VALUE;
		if (urefs > IPC_UREFS_MAX)
			return KERN_UREFS_OVERFLOW;
		if (urefs > 0) {
			e->urefs = (mach_port_urefs_t)urefs;
			return KERN_SUCCESS;
		}
		if (right == MACH_PORT_RIGHT_DEAD_NAME) {
			ipc_entry_free(&space->table, e);
		} else if (e->type & MACH_PORT_TYPE_RECEIVE) {
			e->type = MACH_PORT_TYPE_RECEIVE;
			e->urefs = 0;
			drop_srights(port);
		} else {
			entry_remove(space, e);
			ipc_port_release_send(port);
		}
		return KERN_SUCCESS;
	}
}

kern_return_t ipc_right_dnrequest(struct ipc_space *space,
				  mach_port_name_t name, bool immediate,
				  struct ipc_port *notify,
				  struct ipc_port **previous)
{
	struct ipc_entry *e = ipc_right_lookup(space, name);
	struct ipc_port *port;
	kern_return_t kr;

	if (e == NULL)
		return KERN_INVALID_NAME;
	if (e->type & MACH_PORT_TYPE_PORT_RIGHTS) {
		port = e->object;
		if (notify == NULL) {
			*previous = dncancel(space, e);
			return KERN_SUCCESS;
		}
		kr = ipc_port_dnrequest_add(port, space, name, notify,
					    previous);
		if (kr != KERN_SUCCESS)
			return kr;
		e->dnrequest = true;
		return KERN_SUCCESS;
	}
	if ((e->type & MACH_PORT_TYPE_DEAD_NAME) && immediate &&
	    notify != NULL) {
		if (e->urefs >= IPC_UREFS_MAX)
			return KERN_UREFS_OVERFLOW;
		e->urefs++;
		*previous = NULL;
		ipc_notify_dead_name(notify, name);
		return KERN_SUCCESS;
	}
	return (e->type & MACH_PORT_TYPE_PORT_OR_DEAD) ? KERN_INVALID_ARGUMENT :
							  KERN_INVALID_RIGHT;
}

void ipc_right_clean(struct ipc_space *space, struct ipc_entry *e)
{
	mach_port_name_t name = e->name;
	struct ipc_port *port = e->object, *notify = NULL, *ns = NULL;
	mach_port_mscount_t mscount = 0;
	mach_port_type_t type = e->type;

	if (type & MACH_PORT_TYPE_PORT_RIGHTS)
		notify = dncancel(space, e);
	kfree(e);
	if (type == MACH_PORT_TYPE_PORT_SET) {
		ipc_pset_destroy((struct ipc_pset *)port);
		return;
	}
	if (!(type & MACH_PORT_TYPE_PORT_RIGHTS))
		return;		/* a dead name */

	if (type & MACH_PORT_TYPE_SEND) {
		if (port->srights == 0)
			panic("ipc: send rights of port %p underflow",
			      (void *)port);
		if (--port->srights == 0 && port->active &&
		    port->nsrequest != NULL) {
			ns = port->nsrequest;
			port->nsrequest = NULL;
			mscount = port->mscount;
		}
	}
	if (type & MACH_PORT_TYPE_RECEIVE) {
		ipc_port_clear_receiver(port);
		ipc_port_destroy(port);
	} else if (type & MACH_PORT_TYPE_SEND_ONCE) {
		ipc_notify_send_once(port);
	} else {
		ipc_port_release(port);
	}
	ipc_notify_port_deleted(notify, name);
	ipc_notify_no_senders(ns, mscount);
}

kern_return_t ipc_right_lookup_receive(struct ipc_space *space,
				       mach_port_name_t name,
				       struct ipc_port **port)
{
	struct ipc_entry *e = ipc_right_lookup(space, name);

	if (e == NULL)
		return KERN_INVALID_NAME;
	if (!(e->type & MACH_PORT_TYPE_RECEIVE))
		return KERN_INVALID_RIGHT;
	*port = e->object;
	return KERN_SUCCESS;
}
