/* SPDX-License-Identifier: GPL-2.0-only */
/* Rights under names: copyin, copyout, deallocation, dead names. */
#ifndef IPC_IPC_RIGHT_H
#define IPC_IPC_RIGHT_H

#include <stdbool.h>

#include <mach/kern_return.h>
#include <mach/message.h>
#include <mach/port.h>

#include "ipc/ipc_entry.h"
#include "ipc/ipc_port.h"
#include "ipc/ipc_space.h"

/*
 * The right rules of Mach, as GNU Mach applies them:
 * - A space holds at most one entry per port for send and receive rights
 *   together (send rights count user references in the entry); every
 *   send-once right has its own name; a dead name counts user references.
 * - An entry naming a port holds one port reference and, for send rights,
 *   one count of the port's srights whatever its user references.
 * - A send or send-once right whose port died is a dead name; entries
 *   are converted lazily, when next looked up (ipc_right_lookup), gaining
 *   one user reference if they carried a dead-name request (the reference
 *   the dead-name notification speaks for).
 *
 * Locking: all functions here expect interrupts disabled (the caller
 * holds the IPC state, see kernel/ipc/README.md), do not block and may
 * send notifications.  Spaces must be active unless said otherwise.
 */

#define IPC_UREFS_MAX	0xffffu		/* GNU Mach's MACH_PORT_UREFS_MAX */

/* ipc_right_make_dead - make @e, a send or send-once right of @space
 * to a dead port, a dead name (for ipc_right_lookup). */
void ipc_right_make_dead(struct ipc_space *space, struct ipc_entry *e);

/* The entry named @name in @space, converted to a dead name if its port
 * died; NULL if @name names nothing.  Inline: every message looks its
 * names up. */
static inline struct ipc_entry *ipc_right_lookup(struct ipc_space *space,
						 mach_port_name_t name)
{
	struct ipc_entry *e = ipc_entry_lookup(&space->table, name);

	if (e != NULL && (e->type & MACH_PORT_TYPE_SEND_RIGHTS) &&
	    !((struct ipc_port *)e->object)->active)
		ipc_right_make_dead(space, e);
	return e;
}

/* The result type of copying in a right with disposition @msgt_name:
 * MACH_MSG_TYPE_PORT_SEND, _PORT_SEND_ONCE, _PORT_RECEIVE, or 0 if
 * @msgt_name is not one of the six MACH_MSG_TYPE_MOVE_/COPY_/MAKE_ ones. */
static inline mach_msg_type_name_t
ipc_right_copyin_type(mach_msg_type_name_t msgt_name)
{
	switch (msgt_name) {
	case MACH_MSG_TYPE_MOVE_SEND:
	case MACH_MSG_TYPE_COPY_SEND:
	case MACH_MSG_TYPE_MAKE_SEND:
		return MACH_MSG_TYPE_PORT_SEND;
	case MACH_MSG_TYPE_MOVE_SEND_ONCE:
	case MACH_MSG_TYPE_MAKE_SEND_ONCE:
		return MACH_MSG_TYPE_PORT_SEND_ONCE;
	case MACH_MSG_TYPE_MOVE_RECEIVE:
		return MACH_MSG_TYPE_PORT_RECEIVE;
	default:
		return 0;
	}
}

/*
 * ipc_right_check - can @e give a right with disposition @msgt_name, the
 * reservations already on it counted?  Pure check; returns as
 * ipc_right_reserve (never KERN_INVALID_NAME).  Inline: decode checks
 * every header right with it.
 */
static inline kern_return_t ipc_right_check(const struct ipc_entry *e,
					    mach_msg_type_name_t msgt_name,
					    bool deadok)
{
	bool dead = deadok && (e->type & MACH_PORT_TYPE_DEAD_NAME);

	switch (msgt_name) {
	case MACH_MSG_TYPE_MAKE_SEND:
	case MACH_MSG_TYPE_MAKE_SEND_ONCE:
	case MACH_MSG_TYPE_MOVE_RECEIVE:
		if (!(e->type & MACH_PORT_TYPE_RECEIVE) || e->resv_receive)
			return KERN_INVALID_RIGHT;
		return KERN_SUCCESS;
	case MACH_MSG_TYPE_COPY_SEND:
	case MACH_MSG_TYPE_MOVE_SEND:
		if (!(e->type & MACH_PORT_TYPE_SEND) && !dead)
			return KERN_INVALID_RIGHT;
		if (e->urefs <= e->resv_urefs)
			return KERN_INVALID_RIGHT;
		return KERN_SUCCESS;
	case MACH_MSG_TYPE_MOVE_SEND_ONCE:
		if (e->type & MACH_PORT_TYPE_SEND_ONCE)
			return e->resv_sonce ? KERN_INVALID_RIGHT :
					       KERN_SUCCESS;
		if (dead && e->urefs > e->resv_urefs)
			return KERN_SUCCESS;
		return KERN_INVALID_RIGHT;
	default:
		return KERN_INVALID_VALUE;
	}
}

/*
 * ipc_right_reserve - check that @name in @space can give a right with
 * disposition @msgt_name after the rights already reserved for the
 * message being decoded, and reserve it.  With @deadok a dead name passes
 * for MOVE_SEND, COPY_SEND and MOVE_SEND_ONCE (it gives MACH_PORT_DEAD).
 * Nothing changes in the space but the reservation marks.  Returns
 * KERN_SUCCESS, KERN_INVALID_NAME, KERN_INVALID_RIGHT or
 * KERN_INVALID_VALUE (@msgt_name not a disposition).
 * ipc_right_reserve_entry - the same on @e, an entry of @space that
 * ipc_right_lookup returned (never KERN_INVALID_NAME).
 * ipc_right_reserve_clear - forget every reservation of @space (inline
 * when there is none; ipc_right_reserve_drop does the work).
 */
kern_return_t ipc_right_reserve(struct ipc_space *space, mach_port_name_t name,
				mach_msg_type_name_t msgt_name, bool deadok);
kern_return_t ipc_right_reserve_entry(struct ipc_space *space,
				      struct ipc_entry *e,
				      mach_msg_type_name_t msgt_name,
				      bool deadok);
void ipc_right_reserve_drop(struct ipc_space *space);

static inline void ipc_right_reserve_clear(struct ipc_space *space)
{
	if (space->resv != NULL)
		ipc_right_reserve_drop(space);
}

/*
 * ipc_right_copyin - take a right out of @space as a message does:
 * *@port gets the right in kernel form (IPC_PORT_DEAD for a dead name
 * with @deadok) and *@type its type (ipc_right_copyin_type).  Moving the
 * last reference of an entry removes it (sending a port-deleted
 * notification if it had a dead-name request); moving a receive right
 * takes the port out of its set and puts it in transit.  Returns as
 * ipc_right_reserve(), and on failure nothing changed.
 * ipc_right_copyin_entry - the same on @e, an entry of @space that
 * ipc_right_lookup returned and nothing has freed since.
 * ipc_right_copyin_checked - take the right from @e that
 * ipc_right_check or ipc_right_reserve_entry approved for @msgt_name,
 * nothing having changed the entry since; cannot fail.  Returns the
 * right in kernel form (its type is ipc_right_copyin_type(@msgt_name)).
 */
kern_return_t ipc_right_copyin(struct ipc_space *space, mach_port_name_t name,
			       mach_msg_type_name_t msgt_name, bool deadok,
			       struct ipc_port **port,
			       mach_msg_type_name_t *type);
kern_return_t ipc_right_copyin_entry(struct ipc_space *space,
				     struct ipc_entry *e,
				     mach_msg_type_name_t msgt_name,
				     bool deadok, struct ipc_port **port,
				     mach_msg_type_name_t *type);
struct ipc_port *ipc_right_copyin_checked(struct ipc_space *space,
					  struct ipc_entry *e,
					  mach_msg_type_name_t msgt_name);

/*
 * ipc_right_copyout - give @space the right @port of kernel type @type
 * (consumed on success), under the name the space already has for the
 * port (send, receive) or a new one (send-once, or a first right).  A
 * right to a dead port becomes MACH_PORT_DEAD (and is consumed).  With
 * @overflow, a send right beyond IPC_UREFS_MAX user references is dropped
 * instead of failing.  Returns KERN_SUCCESS, KERN_UREFS_OVERFLOW,
 * KERN_NO_SPACE or KERN_RESOURCE_SHORTAGE (the right is then still the
 * caller's).
 */
kern_return_t ipc_right_copyout(struct ipc_space *space, struct ipc_port *port,
				mach_msg_type_name_t type, bool overflow,
				mach_port_name_t *name);

/*
 * ipc_right_insert - give @space the right @port of kernel type @type
 * under @name (mach_port_insert_right).  Consumed on success.  Returns
 * KERN_SUCCESS, KERN_INVALID_VALUE (@name not valid, bad @type),
 * KERN_INVALID_CAPABILITY (@port NULL, dead), KERN_NAME_EXISTS (@name
 * denotes something else), KERN_RIGHT_EXISTS (the space names the port
 * otherwise), KERN_UREFS_OVERFLOW or KERN_RESOURCE_SHORTAGE.
 */
kern_return_t ipc_right_insert(struct ipc_space *space, mach_port_name_t name,
			       struct ipc_port *port,
			       mach_msg_type_name_t type);

/*
 * ipc_right_dealloc - mach_port_deallocate: drop one user reference of a
 * send right or dead name, or the send-once right (which sends the
 * send-once notification).  KERN_SUCCESS, KERN_INVALID_NAME or
 * KERN_INVALID_RIGHT (receive-only, port set).
 */
kern_return_t ipc_right_dealloc(struct ipc_space *space,
				mach_port_name_t name);

/* ipc_right_destroy - mach_port_destroy: remove @name and every right it
 * denotes.  KERN_SUCCESS or KERN_INVALID_NAME. */
kern_return_t ipc_right_destroy(struct ipc_space *space,
				mach_port_name_t name);

/*
 * ipc_right_delta - mach_port_mod_refs: change the user references of
 * right @right (MACH_PORT_RIGHT_*) of @name by @delta.  KERN_SUCCESS,
 * KERN_INVALID_NAME, KERN_INVALID_RIGHT (@name lacks @right),
 * KERN_INVALID_VALUE (bad @right, result below zero, receive, send-once
 * and port-set rights only by -1 or 0) or KERN_UREFS_OVERFLOW.
 */
kern_return_t ipc_right_delta(struct ipc_space *space, mach_port_name_t name,
			      mach_port_right_t right,
			      mach_port_delta_t delta);

/* ipc_right_dnrequest - the dead-name case of
 * ipc_port_request_notification (which see), @immediate being sync != 0. */
kern_return_t ipc_right_dnrequest(struct ipc_space *space,
				  mach_port_name_t name, bool immediate,
				  struct ipc_port *notify,
				  struct ipc_port **previous);

/* ipc_right_clean - release every right of @entry, which the caller took
 * out of its (dying) space, and free it. */
void ipc_right_clean(struct ipc_space *space, struct ipc_entry *entry);

/*
 * ipc_right_lookup_receive - the port of receive right @name in @space.
 * KERN_SUCCESS, KERN_INVALID_NAME (no such name) or KERN_INVALID_RIGHT
 * (not a receive right).  Interrupts disabled by the caller.
 */
kern_return_t ipc_right_lookup_receive(struct ipc_space *space,
				       mach_port_name_t name,
				       struct ipc_port **port);

#endif
