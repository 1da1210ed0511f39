/* SPDX-License-Identifier: GPL-2.0-only */
/* Port management on a space: mach_port.defs routines as C functions. */
#ifndef IPC_MACH_PORT_H
#define IPC_MACH_PORT_H

#include <mach/kern_return.h>
#include <mach/message.h>
#include <mach/port.h>

struct ipc_port;
struct ipc_space;

/*
 * The MIG layer calls these with the space of the task port the request
 * was sent to.  Every function returns KERN_INVALID_TASK when @space is
 * NULL or destroyed, KERN_INVALID_NAME when a name denotes nothing and
 * KERN_INVALID_RIGHT when it denotes the wrong kind of right, as GNU Mach
 * does; other codes are listed per function.  Rights passed in or out as
 * struct ipc_port * are in kernel form (ipc_port.h), as MIG's kernel
 * stubs carry them.
 *
 * Locking: each function takes the IPC state itself (interrupts off;
 * nesting is fine) and none blocks.
 */

/* mach_port_allocate - a new receive right (qlimit
 * MACH_PORT_QLIMIT_DEFAULT), empty port set or dead name (one user
 * reference) under a fresh name.  KERN_INVALID_VALUE (@right not one of
 * those), KERN_NO_SPACE, KERN_RESOURCE_SHORTAGE. */
kern_return_t mach_port_allocate(struct ipc_space *space,
				 mach_port_right_t right,
				 mach_port_name_t *name);

/* mach_port_allocate_name - the same under @name.  KERN_INVALID_VALUE
 * (bad @right, @name MACH_PORT_NULL or MACH_PORT_DEAD), KERN_NAME_EXISTS,
 * KERN_RESOURCE_SHORTAGE. */
kern_return_t mach_port_allocate_name(struct ipc_space *space,
				      mach_port_right_t right,
				      mach_port_name_t name);

/* mach_port_deallocate - drop one user reference of a send right or dead
 * name, or a send-once right (see ipc_right_dealloc). */
kern_return_t mach_port_deallocate(struct ipc_space *space,
				   mach_port_name_t name);

/* mach_port_destroy - remove @name with all its rights. */
kern_return_t mach_port_destroy(struct ipc_space *space,
				mach_port_name_t name);

/* mach_port_mod_refs - see ipc_right_delta: KERN_INVALID_VALUE,
 * KERN_UREFS_OVERFLOW too. */
kern_return_t mach_port_mod_refs(struct ipc_space *space,
				 mach_port_name_t name,
				 mach_port_right_t right,
				 mach_port_delta_t delta);

/* mach_port_get_refs - user references of @right under @name (1 for a
 * receive, send-once or port-set right held, 0 for one not held).
 * KERN_INVALID_VALUE for a bad @right. */
kern_return_t mach_port_get_refs(struct ipc_space *space,
				 mach_port_name_t name,
				 mach_port_right_t right,
				 mach_port_urefs_t *refs);

/* mach_port_type - the MACH_PORT_TYPE_* bits of @name, with
 * MACH_PORT_TYPE_DNREQUEST if a dead-name request is registered. */
kern_return_t mach_port_type(struct ipc_space *space, mach_port_name_t name,
			     mach_port_type_t *type);

/* mach_port_names - the names of @space and their types (as
 * mach_port_type): *@count gets how many there are, and the first
 * min(@max, *@count) are stored (so call with @max 0 to size the
 * arrays). */
kern_return_t mach_port_names(struct ipc_space *space,
			      mach_port_name_t *names,
			      mach_port_type_t *types, unsigned int max,
			      unsigned int *count);

/* mach_port_rename - move the rights of @old to @new_name.
 * KERN_INVALID_VALUE (@new_name not valid), KERN_NAME_EXISTS,
 * KERN_RESOURCE_SHORTAGE. */
kern_return_t mach_port_rename(struct ipc_space *space, mach_port_name_t old,
			       mach_port_name_t new_name);

/* mach_port_move_member - put the receive right @member into the port
 * set @after, or take it out of its set with MACH_PORT_NULL.
 * KERN_NOT_IN_SET (@after NULL and @member in no set). */
kern_return_t mach_port_move_member(struct ipc_space *space,
				    mach_port_name_t member,
				    mach_port_name_t after);

/* mach_port_get_set_status - the members of the port set @name: *@count
 * gets how many, the first min(@max, *@count) names are stored. */
kern_return_t mach_port_get_set_status(struct ipc_space *space,
				       mach_port_name_t name,
				       mach_port_name_t *members,
				       unsigned int max, unsigned int *count);

/* mach_port_insert_right - see ipc_right_insert (@port consumed on
 * success only). */
kern_return_t mach_port_insert_right(struct ipc_space *space,
				     mach_port_name_t name,
				     struct ipc_port *port,
				     mach_msg_type_name_t type);

/* mach_port_extract_right - take a right out of @space as a message with
 * disposition @msgt_name would (see ipc_right_copyin); *@port and *@type
 * get it.  KERN_INVALID_VALUE (@msgt_name not a disposition). */
kern_return_t mach_port_extract_right(struct ipc_space *space,
				      mach_port_name_t name,
				      mach_msg_type_name_t msgt_name,
				      struct ipc_port **port,
				      mach_msg_type_name_t *type);

/*
 * mach_port_request_notification - ipc_port_request_notification with
 * names: @notify_name (MACH_PORT_NULL to cancel) gives the send-once
 * right by disposition @notify_type (MACH_MSG_TYPE_MAKE_SEND_ONCE or
 * MACH_MSG_TYPE_MOVE_SEND_ONCE), and the replaced request, if any, is
 * given back to @space as a send-once right named *@previous
 * (MACH_PORT_NULL if none).  Also KERN_INVALID_CAPABILITY (bad notify
 * right; GNU Mach's MIG layer would answer that), and the codes of
 * ipc_port_request_notification.
 */
kern_return_t mach_port_request_notification(struct ipc_space *space,
					     mach_port_name_t name,
					     mach_msg_id_t msgid,
					     mach_port_mscount_t sync,
					     mach_port_name_t notify_name,
					     mach_msg_type_name_t notify_type,
					     mach_port_name_t *previous);

/* mach_port_set_qlimit - the queue limit of receive right @name.
 * KERN_INVALID_VALUE above MACH_PORT_QLIMIT_MAX. */
kern_return_t mach_port_set_qlimit(struct ipc_space *space,
				   mach_port_name_t name,
				   mach_port_msgcount_t qlimit);

/* mach_port_set_mscount, mach_port_set_seqno - set the make-send count or
 * sequence number of receive right @name. */
kern_return_t mach_port_set_mscount(struct ipc_space *space,
				    mach_port_name_t name,
				    mach_port_mscount_t mscount);
kern_return_t mach_port_set_seqno(struct ipc_space *space,
				  mach_port_name_t name,
				  mach_port_seqno_t seqno);

/* mach_port_get_receive_status - the status of receive right @name. */
kern_return_t mach_port_get_receive_status(struct ipc_space *space,
					   mach_port_name_t name,
					   mach_port_status_t *status);

/* ipc_reply_port_alloc - mach_reply_port: a new receive right in @space,
 * or MACH_PORT_NULL if none could be made. */
mach_port_name_t ipc_reply_port_alloc(struct ipc_space *space);

#endif
