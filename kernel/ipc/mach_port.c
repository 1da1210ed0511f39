/* SPDX-License-Identifier: GPL-2.0-only */
/* Port management on a space (mach_port.defs), and mach_reply_port. */
#include <stdbool.h>
#include <stddef.h>

#include "ipc/ipc_entry.h"
#include "ipc/ipc_port.h"
#include "ipc/ipc_pset.h"
#include "ipc/ipc_right.h"
#include "ipc/ipc_space.h"
#include "ipc/mach_port.h"
#include "kern/kalloc.h"
#include "kern/sched.h"
#include "x86_64/cpu.h"

/* Take the IPC state for @space: returns false (and KERN_INVALID_TASK in
 * *@kr) if the space is missing or dead, with the state released again. */
static bool enter(struct ipc_space *space, uint64_t *flags, kern_return_t *kr)
{
	if (space == NULL) {
		*kr = KERN_INVALID_TASK;
		return false;
	}
	*flags = cpu_intr_save();
	if (!space->active) {
		cpu_intr_restore(*flags);
		*kr = KERN_INVALID_TASK;
		return false;
	}
	return true;
}

/* enter() and the port of receive right @name: on KERN_SUCCESS the
 * caller acts on *@port and then restores *@flags; otherwise nothing is
 * held. */
static kern_return_t enter_receive(struct ipc_space *space,
				   mach_port_name_t name,
				   struct ipc_port **port, uint64_t *flags)
{
	kern_return_t kr;

	if (!enter(space, flags, &kr))
		return kr;
	kr = ipc_right_lookup_receive(space, name, port);
	if (kr != KERN_SUCCESS)
		cpu_intr_restore(*flags);
	return kr;
}

/* Allocate @right under @name (MACH_PORT_NULL: a fresh name). */
static kern_return_t allocate(struct ipc_space *space, mach_port_right_t right,
			      mach_port_name_t name, mach_port_name_t *namep)
{
	struct ipc_entry *e;
	kern_return_t kr;
	void *object = NULL;

	if (right != MACH_PORT_RIGHT_RECEIVE &&
	    right != MACH_PORT_RIGHT_PORT_SET &&
	    right != MACH_PORT_RIGHT_DEAD_NAME)
		return KERN_INVALID_VALUE;
	if (name != MACH_PORT_NULL)
		kr = ipc_entry_alloc_name(&space->table, name, &e);
	else
		kr = ipc_entry_alloc(&space->table, &e);
	if (kr != KERN_SUCCESS)
		return kr;

	switch (right) {
	case MACH_PORT_RIGHT_RECEIVE: {
		struct ipc_port *port = ipc_port_alloc();

		if (port != NULL) {
			port->receiver = space;
			port->receiver_name = e->name;
			e->type = MACH_PORT_TYPE_RECEIVE;
		}
		object = port;
		break;
	}
	case MACH_PORT_RIGHT_PORT_SET: {
		struct ipc_pset *pset = ipc_pset_alloc();

		if (pset != NULL) {
			pset->space = space;
			pset->name = e->name;
			e->type = MACH_PORT_TYPE_PORT_SET;
		}
		object = pset;
		break;
	}
	default:
		e->type = MACH_PORT_TYPE_DEAD_NAME;
		e->urefs = 1;
		*namep = e->name;
		return KERN_SUCCESS;
	}
	if (object == NULL) {
		ipc_entry_free(&space->table, e);
		return KERN_RESOURCE_SHORTAGE;
	}
	e->object = object;
	if (right == MACH_PORT_RIGHT_RECEIVE)
		ipc_entry_hash_object(&space->table, e);
	*namep = e->name;
	return KERN_SUCCESS;
}

kern_return_t mach_port_allocate(struct ipc_space *space,
				 mach_port_right_t right,
				 mach_port_name_t *name)
{
	uint64_t flags;
	kern_return_t kr;

	if (!enter(space, &flags, &kr))
		return kr;
	kr = allocate(space, right, MACH_PORT_NULL, name);
	cpu_intr_restore(flags);
	return kr;
}

kern_return_t mach_port_allocate_name(struct ipc_space *space,
				      mach_port_right_t right,
				      mach_port_name_t name)
{
	mach_port_name_t got;
	uint64_t flags;
	kern_return_t kr;

	if (!MACH_PORT_VALID(name))
		return KERN_INVALID_VALUE;
	if (!enter(space, &flags, &kr))
		return kr;
	kr = allocate(space, right, name, &got);
	cpu_intr_restore(flags);
	return kr;
}

mach_port_name_t ipc_reply_port_alloc(struct ipc_space *space)
{
	mach_port_name_t name;

	if (mach_port_allocate(space, MACH_PORT_RIGHT_RECEIVE, &name) !=
	    KERN_SUCCESS)
		return MACH_PORT_NULL;
	return name;
}

kern_return_t mach_port_deallocate(struct ipc_space *space,
				   mach_port_name_t name)
{
	uint64_t flags;
	kern_return_t kr;

	if (!enter(space, &flags, &kr))
		return kr;
	kr = ipc_right_dealloc(space, name);
	cpu_intr_restore(flags);
	return kr;
}

kern_return_t mach_port_destroy(struct ipc_space *space,
				mach_port_name_t name)
{
	uint64_t flags;
	kern_return_t kr;

	if (!enter(space, &flags, &kr))
		return kr;
	kr = ipc_right_destroy(space, name);
	cpu_intr_restore(flags);
	return kr;
}

kern_return_t mach_port_mod_refs(struct ipc_space *space,
				 mach_port_name_t name,
				 mach_port_right_t right,
				 mach_port_delta_t delta)
{
	uint64_t flags;
	kern_return_t kr;

	if (!enter(space, &flags, &kr))
		return kr;
	kr = ipc_right_delta(space, name, right, delta);
	cpu_intr_restore(flags);
	return kr;
}

kern_return_t mach_port_get_refs(struct ipc_space *space,
				 mach_port_name_t name,
				 mach_port_right_t right,
				 mach_port_urefs_t *refs)
{
	struct ipc_entry *e;
	uint64_t flags;
	kern_return_t kr;

	if (right >= MACH_PORT_RIGHT_NUMBER)
		return KERN_INVALID_VALUE;
	if (!enter(space, &flags, &kr))
		return kr;
	e = ipc_right_lookup(space, name);
	if (e == NULL) {
		kr = KERN_INVALID_NAME;
	} else {
		kr = KERN_SUCCESS;
		if (!(e->type & MACH_PORT_TYPE(right)))
			*refs = 0;
		else if (right == MACH_PORT_RIGHT_SEND ||
			 right == MACH_PORT_RIGHT_DEAD_NAME)
			*refs = e->urefs;
		else
			*refs = 1;
	}
	cpu_intr_restore(flags);
	return kr;
}

static mach_port_type_t entry_type(const struct ipc_entry *e)
{
	return e->type | (e->dnrequest ? MACH_PORT_TYPE_DNREQUEST : 0);
}

kern_return_t mach_port_type(struct ipc_space *space, mach_port_name_t name,
			     mach_port_type_t *type)
{
	struct ipc_entry *e;
	uint64_t flags;
	kern_return_t kr;

	if (!enter(space, &flags, &kr))
		return kr;
	e = ipc_right_lookup(space, name);
	if (e == NULL) {
		kr = KERN_INVALID_NAME;
	} else {
		*type = entry_type(e);
		kr = KERN_SUCCESS;
	}
	cpu_intr_restore(flags);
	return kr;
}

kern_return_t mach_port_names(struct ipc_space *space,
			      mach_port_name_t *names,
			      mach_port_type_t *types, unsigned int max,
			      unsigned int *count)
{
	struct ipc_entry *e = NULL;
	unsigned int n = 0;
	uint64_t flags;
	kern_return_t kr;

	if (!enter(space, &flags, &kr))
		return kr;
	while ((e = ipc_entry_next(&space->table, e)) != NULL) {
		(void)ipc_right_lookup(space, e->name);	/* dead ports */
		if (n < max) {
			names[n] = e->name;
			types[n] = entry_type(e);
		}
		n++;
	}
	*count = n;
	cpu_intr_restore(flags);
	return KERN_SUCCESS;
}

kern_return_t mach_port_rename(struct ipc_space *space, mach_port_name_t old,
			       mach_port_name_t new_name)
{
	struct ipc_entry *e, *ne;
	uint64_t flags;
	kern_return_t kr;

	if (!MACH_PORT_VALID(new_name))
		return KERN_INVALID_VALUE;
	if (!enter(space, &flags, &kr))
		return kr;
	e = ipc_right_lookup(space, old);
	if (e == NULL) {
		kr = KERN_INVALID_NAME;
		goto out;
	}
	kr = ipc_entry_alloc_name(&space->table, new_name, &ne);
	if (kr != KERN_SUCCESS)
		goto out;
	ne->type = e->type;
	ne->urefs = e->urefs;
	ne->object = e->object;
	ne->dnrequest = e->dnrequest;
	if (e->dnrequest) {
		struct ipc_port *port = e->object;
		struct ipc_dnrequest *dn;

		for (dn = port->dnrequests; dn != NULL; dn = dn->next) {
			if (dn->space == space && dn->name == old)
				dn->name = new_name;
		}
	}
	if (e->type & MACH_PORT_TYPE_RECEIVE)
		((struct ipc_port *)e->object)->receiver_name = new_name;
	if (e->type & MACH_PORT_TYPE_PORT_SET)
		((struct ipc_pset *)e->object)->name = new_name;
	if (e->reverse) {
		ipc_entry_unhash_object(&space->table, e);
		ipc_entry_hash_object(&space->table, ne);
	}
	ipc_entry_free(&space->table, e);
out:
	cpu_intr_restore(flags);
	return kr;
}

kern_return_t mach_port_move_member(struct ipc_space *space,
				    mach_port_name_t member,
				    mach_port_name_t after)
{
	struct ipc_pset *pset = NULL;
	struct ipc_entry *e, *ae;
	struct ipc_port *port;
	uint64_t flags;
	kern_return_t kr;

	if (!enter(space, &flags, &kr))
		return kr;
	e = ipc_right_lookup(space, member);
	ae = after == MACH_PORT_NULL ? NULL : ipc_right_lookup(space, after);
	if (e == NULL || (after != MACH_PORT_NULL && ae == NULL)) {
		kr = KERN_INVALID_NAME;
	} else if (!(e->type & MACH_PORT_TYPE_RECEIVE) ||
		   (ae != NULL && !(ae->type & MACH_PORT_TYPE_PORT_SET))) {
		kr = KERN_INVALID_RIGHT;
	} else {
		port = e->object;
		if (ae != NULL)
			pset = ae->object;
		if (pset == NULL && port->pset == NULL) {
			kr = KERN_NOT_IN_SET;
		} else {
			ipc_pset_remove(port);
			if (pset != NULL)
				ipc_pset_add(pset, port);
			/* Receivers on the port itself: it changed. */
			thread_wakeup(&port->rcv_event);
			kr = KERN_SUCCESS;
		}
	}
	cpu_intr_restore(flags);
	return kr;
}

kern_return_t mach_port_get_set_status(struct ipc_space *space,
				       mach_port_name_t name,
				       mach_port_name_t *members,
				       unsigned int max, unsigned int *count)
{
	struct ipc_entry *e;
	struct ipc_port *port;
	unsigned int n = 0;
	uint64_t flags;
	kern_return_t kr;

	if (!enter(space, &flags, &kr))
		return kr;
	e = ipc_right_lookup(space, name);
	if (e == NULL) {
		kr = KERN_INVALID_NAME;
	} else if (!(e->type & MACH_PORT_TYPE_PORT_SET)) {
		kr = KERN_INVALID_RIGHT;
	} else {
		port = ((struct ipc_pset *)e->object)->members;
		for (; port != NULL; port = port->pset_next) {
			if (n < max)
				members[n] = port->receiver_name;
			n++;
		}
		*count = n;
		kr = KERN_SUCCESS;
	}
	cpu_intr_restore(flags);
	return kr;
}

kern_return_t mach_port_insert_right(struct ipc_space *space,
				     mach_port_name_t name,
				     struct ipc_port *port,
				     mach_msg_type_name_t type)
{
	uint64_t flags;
	kern_return_t kr;

	if (!enter(space, &flags, &kr))
		return kr;
	kr = ipc_right_insert(space, name, port, type);
	cpu_intr_restore(flags);
	return kr;
}

kern_return_t mach_port_extract_right(struct ipc_space *space,
				      mach_port_name_t name,
				      mach_msg_type_name_t msgt_name,
				      struct ipc_port **port,
				      mach_msg_type_name_t *type)
{
	uint64_t flags;
	kern_return_t kr;

	if (!MACH_MSG_TYPE_PORT_ANY(msgt_name))
		return KERN_INVALID_VALUE;
	if (!enter(space, &flags, &kr))
		return kr;
	kr = ipc_right_copyin(space, name, msgt_name, true, port, type);
	cpu_intr_restore(flags);
	return kr;
}

/* Give a send-once right taken from @name back to it. */
static void undo_notify(struct ipc_space *space, mach_port_name_t name,
			mach_msg_type_name_t how, struct ipc_port *notify)
{
	if (!IPC_PORT_VALID(notify))
		return;
	if (how == MACH_MSG_TYPE_MAKE_SEND_ONCE)
		ipc_port_release_sonce(notify);
	else if (ipc_right_insert(space, name, notify,
				  MACH_MSG_TYPE_PORT_SEND_ONCE) != KERN_SUCCESS)
		ipc_port_destroy_right(notify, MACH_MSG_TYPE_PORT_SEND_ONCE);
}

kern_return_t mach_port_request_notification(struct ipc_space *space,
					     mach_port_name_t name,
					     mach_msg_id_t msgid,
					     mach_port_mscount_t sync,
					     mach_port_name_t notify_name,
					     mach_msg_type_name_t notify_type,
					     mach_port_name_t *previous)
{
	struct ipc_port *notify = NULL, *prev = NULL;
	mach_msg_type_name_t type;
	uint64_t flags;
	kern_return_t kr;

	*previous = MACH_PORT_NULL;
	if (notify_name != MACH_PORT_NULL &&
	    notify_type != MACH_MSG_TYPE_MAKE_SEND_ONCE &&
	    notify_type != MACH_MSG_TYPE_MOVE_SEND_ONCE)
		return KERN_INVALID_VALUE;
	if (!enter(space, &flags, &kr))
		return kr;
	if (MACH_PORT_VALID(notify_name) &&
	    ipc_right_copyin(space, notify_name, notify_type, false, &notify,
			     &type) != KERN_SUCCESS) {
		kr = KERN_INVALID_CAPABILITY;
		goto out;
	}
	kr = ipc_port_request_notification(space, name, msgid, sync, notify,
					   &prev);
	if (kr != KERN_SUCCESS) {
		undo_notify(space, notify_name, notify_type, notify);
		goto out;
	}
	if (IPC_PORT_VALID(prev) &&
	    ipc_right_copyout(space, prev, MACH_MSG_TYPE_PORT_SEND_ONCE, true,
			      previous) != KERN_SUCCESS) {
		ipc_port_destroy_right(prev, MACH_MSG_TYPE_PORT_SEND_ONCE);
		*previous = MACH_PORT_NULL;
	}
out:
	cpu_intr_restore(flags);
	return kr;
}

kern_return_t mach_port_set_qlimit(struct ipc_space *space,
				   mach_port_name_t name,
				   mach_port_msgcount_t qlimit)
{
	struct ipc_port *port;
	uint64_t flags;
	kern_return_t kr = enter_receive(space, name, &port, &flags);

	if (kr != KERN_SUCCESS)
		return kr;
	kr = ipc_port_set_qlimit(port, qlimit);
	cpu_intr_restore(flags);
	return kr;
}

kern_return_t mach_port_set_mscount(struct ipc_space *space,
				    mach_port_name_t name,
				    mach_port_mscount_t mscount)
{
	struct ipc_port *port;
	uint64_t flags;
	kern_return_t kr = enter_receive(space, name, &port, &flags);

	if (kr != KERN_SUCCESS)
		return kr;
	port->mscount = mscount;
	cpu_intr_restore(flags);
	return kr;
}

kern_return_t mach_port_set_seqno(struct ipc_space *space,
				  mach_port_name_t name,
				  mach_port_seqno_t seqno)
{
	struct ipc_port *port;
	uint64_t flags;
	kern_return_t kr = enter_receive(space, name, &port, &flags);

	if (kr != KERN_SUCCESS)
		return kr;
	port->seqno = seqno;
	cpu_intr_restore(flags);
	return kr;
}

kern_return_t mach_port_get_receive_status(struct ipc_space *space,
					   mach_port_name_t name,
					   mach_port_status_t *status)
{
	struct ipc_port *port;
	uint64_t flags;
	kern_return_t kr = enter_receive(space, name, &port, &flags);

	if (kr != KERN_SUCCESS)
		return kr;
	status->mps_pset = port->pset != NULL ? port->pset->name :
						MACH_PORT_NULL;
	status->mps_seqno = port->seqno;
	status->mps_mscount = port->mscount;
	status->mps_qlimit = port->qlimit;
	status->mps_msgcount = port->msgcount;
	status->mps_sorights = port->sorights;
	status->mps_srights = port->srights > 0;
	status->mps_pdrequest = port->pdrequest != NULL;
	status->mps_nsrequest = port->nsrequest != NULL;
	cpu_intr_restore(flags);
	return kr;
}
