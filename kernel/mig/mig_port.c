/* SPDX-License-Identifier: GPL-2.0-only */
/* mach_port.defs routines: MIG's signatures onto kernel/ipc/mach_port.c. */
/*
 * A task port that names no task converts to a NULL space, which the
 * kernel/ipc functions answer with KERN_INVALID_TASK themselves.
 * Routines whose replies carry out-of-line arrays are in
 * mig_port_arrays.c.
 */
#include <stddef.h>

#include "graft_mig.h"
#include "ipc/ipc_port.h"
#include "ipc/mach_port.h"

#define SPACE(s)	((struct ipc_space *)(s))

kern_return_t mig_mach_port_allocate(ipc_space_t task,
				     mach_port_right_t right,
				     mach_port_name_t *name)
{
	return mach_port_allocate(SPACE(task), right, name);
}

kern_return_t mig_mach_port_allocate_name(ipc_space_t task,
					  mach_port_right_t right,
					  mach_port_name_t name)
{
	return mach_port_allocate_name(SPACE(task), right, name);
}

kern_return_t mig_mach_port_deallocate(ipc_space_t task,
				       mach_port_name_t name)
{
	return mach_port_deallocate(SPACE(task), name);
}

kern_return_t mig_mach_port_destroy(ipc_space_t task, mach_port_name_t name)
{
	return mach_port_destroy(SPACE(task), name);
}

kern_return_t mig_mach_port_mod_refs(ipc_space_t task, mach_port_name_t name,
				     mach_port_right_t right,
				     mach_port_delta_t delta)
{
	return mach_port_mod_refs(SPACE(task), name, right, delta);
}

kern_return_t mig_mach_port_get_refs(ipc_space_t task, mach_port_name_t name,
				     mach_port_right_t right,
				     mach_port_urefs_t *refs)
{
	return mach_port_get_refs(SPACE(task), name, right, refs);
}

kern_return_t mig_mach_port_type(ipc_space_t task, mach_port_name_t name,
				 mach_port_type_t *ptype)
{
	return mach_port_type(SPACE(task), name, ptype);
}

kern_return_t mig_mach_port_rename(ipc_space_t task, mach_port_name_t old_name,
				   mach_port_name_t new_name)
{
	return mach_port_rename(SPACE(task), old_name, new_name);
}

kern_return_t mig_mach_port_move_member(ipc_space_t task,
					mach_port_name_t member,
					mach_port_name_t after)
{
	return mach_port_move_member(SPACE(task), member, after);
}

/* The right is consumed only on success (kernel/ipc/mach_port.h), which is
 * what MIG's ownership rule expects: on failure the body stays intact. */
kern_return_t mig_mach_port_insert_right(ipc_space_t task,
					 mach_port_name_t name,
					 ipc_port_t poly,
					 mach_msg_type_name_t polyPoly)
{
	return mach_port_insert_right(SPACE(task), name, poly, polyPoly);
}

kern_return_t mig_mach_port_extract_right(ipc_space_t task,
					  mach_port_name_t name,
					  mach_msg_type_name_t msgt_name,
					  ipc_port_t *poly,
					  mach_msg_type_name_t *polyPoly)
{
	return mach_port_extract_right(SPACE(task), name, msgt_name, poly,
				       polyPoly);
}

kern_return_t mig_mach_port_request_notification(ipc_space_t task,
						 mach_port_name_t name,
						 mach_msg_id_t id,
						 mach_port_mscount_t sync,
						 ipc_port_t notify,
						 ipc_port_t *previous)
{
	return ipc_port_request_notification(SPACE(task), name, id, sync,
					     notify, previous);
}

kern_return_t mig_mach_port_set_qlimit(ipc_space_t task, mach_port_name_t name,
				       mach_port_msgcount_t qlimit)
{
	return mach_port_set_qlimit(SPACE(task), name, qlimit);
}

kern_return_t mig_mach_port_set_mscount(ipc_space_t task,
					mach_port_name_t name,
					mach_port_mscount_t mscount)
{
	return mach_port_set_mscount(SPACE(task), name, mscount);
}

kern_return_t mig_mach_port_set_seqno(ipc_space_t task, mach_port_name_t name,
				      mach_port_seqno_t seqno)
{
	return mach_port_set_seqno(SPACE(task), name, seqno);
}

kern_return_t mig_mach_port_get_receive_status(ipc_space_t task,
					       mach_port_name_t name,
					       mach_port_status_t *status)
{
	return mach_port_get_receive_status(SPACE(task), name, status);
}
