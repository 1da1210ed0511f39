/* SPDX-License-Identifier: GPL-2.0-only */
/* Port name tables: names to entries, and objects back to entries. */
#ifndef IPC_IPC_ENTRY_H
#define IPC_IPC_ENTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mach/kern_return.h>
#include <mach/port.h>

/*
 * One name in a space.  @type holds the MACH_PORT_TYPE_* bits of the
 * rights the name denotes (MACH_PORT_TYPE_NONE while the entry is being
 * set up); @urefs counts user references of send rights and dead names
 * (1 for a send-once right, 0 for receive-only and port-set entries).
 * @object is the struct ipc_port (send, send-once, receive) or struct
 * ipc_pset (port set), NULL for a dead name.  This file only stores them:
 * kernel/ipc/ipc_right.c gives them their meaning.
 *
 * The resv_* fields are the copyin reservations of one message being
 * decoded (ipc_right.c): they are zero outside of that.
 */
struct ipc_entry {
	struct ipc_entry *next;		/* chain of the name hash */
	struct ipc_entry *rnext;	/* chain of the object hash */
	void *object;
	mach_port_name_t name;
	mach_port_type_t type;
	mach_port_urefs_t urefs;
	bool reverse;			/* on the object hash */
	bool dnrequest;			/* a dead-name request is registered */
	bool resv_receive;		/* reserved: receive right moved */
	bool resv_sonce;		/* reserved: send-once right moved */
	mach_port_urefs_t resv_urefs;	/* reserved: user references moved */
	struct ipc_entry *resv_next;	/* list of reserved entries */
};

struct ipc_entry_table {
	struct ipc_entry **names;	/* buckets by name */
	struct ipc_entry **objects;	/* buckets by object */
	unsigned int nbuckets;		/* a power of two */
	unsigned int count;		/* entries in the table */
	mach_port_name_t next_name;	/* where the search for a free name
					 * starts */
	struct ipc_entry *spare;	/* the last entry freed, kept for the
					 * next allocation (a send-once
					 * right per RPC comes and goes) */
};

/*
 * Locking: none here.  The table belongs to one space, and its callers
 * (kernel/ipc/) hold interrupts disabled around every use.  Memory comes
 * from kalloc(), which may be called with interrupts off.
 */

/* ipc_entry_table_init - an empty table.  KERN_SUCCESS or
 * KERN_RESOURCE_SHORTAGE (nothing allocated then). */
kern_return_t ipc_entry_table_init(struct ipc_entry_table *t);

/* ipc_entry_table_fini - free the table and every entry still in it
 * (whatever rights they record are not looked at). */
void ipc_entry_table_fini(struct ipc_entry_table *t);

/* The bucket of @name in @t's name hash. */
static inline unsigned int ipc_entry_hash_name(const struct ipc_entry_table *t,
					       mach_port_name_t name)
{
	return (unsigned int)((name * 0x9e3779b1u) & (t->nbuckets - 1));
}

/* The entry named @name, or NULL.  Inline: every message looks names up. */
static inline struct ipc_entry *
ipc_entry_lookup(const struct ipc_entry_table *t, mach_port_name_t name)
{
	struct ipc_entry *e;

	if (t->nbuckets == 0)
		return NULL;
	for (e = t->names[ipc_entry_hash_name(t, name)]; e != NULL;
	     e = e->next) {
		if (e->name == name)
			return e;
	}
	return NULL;
}

/*
 * ipc_entry_alloc - a new zeroed entry under a fresh name (never
 * MACH_PORT_NULL nor MACH_PORT_DEAD; names are handed out in increasing
 * order, wrapping, skipping names in use).  Returns KERN_SUCCESS,
 * KERN_RESOURCE_SHORTAGE (no memory) or KERN_NO_SPACE (every name taken).
 */
kern_return_t ipc_entry_alloc(struct ipc_entry_table *t,
			      struct ipc_entry **out);

/*
 * ipc_entry_alloc_name - a new zeroed entry named @name.  Returns
 * KERN_SUCCESS, KERN_INVALID_VALUE (@name is MACH_PORT_NULL or
 * MACH_PORT_DEAD), KERN_NAME_EXISTS (*@out is then the existing entry) or
 * KERN_RESOURCE_SHORTAGE.
 */
kern_return_t ipc_entry_alloc_name(struct ipc_entry_table *t,
				   mach_port_name_t name,
				   struct ipc_entry **out);

/* ipc_entry_remove - take @e out of both hashes (the caller frees it
 * with kfree()); ipc_entry_free - remove and free it (the table keeps
 * one freed entry as its spare for the next allocation; the spare goes
 * with ipc_entry_table_fini). */
void ipc_entry_remove(struct ipc_entry_table *t, struct ipc_entry *e);
void ipc_entry_free(struct ipc_entry_table *t, struct ipc_entry *e);

/* ipc_entry_hash_object - make @e (whose @object is set) findable by
 * ipc_entry_lookup_object(); ipc_entry_unhash_object undoes it.  Both are
 * no-ops when @e already is (is not) on the object hash. */
void ipc_entry_hash_object(struct ipc_entry_table *t, struct ipc_entry *e);
void ipc_entry_unhash_object(struct ipc_entry_table *t, struct ipc_entry *e);

/* The entry on the object hash whose object is @object, or NULL. */
struct ipc_entry *ipc_entry_lookup_object(const struct ipc_entry_table *t,
					  const void *object);

/*
 * ipc_entry_take_all - empty the table and return its entries as a list
 * linked through ->next (in no particular order), for tearing a space
 * down; the caller frees each with kfree().  The table stays usable.
 */
struct ipc_entry *ipc_entry_take_all(struct ipc_entry_table *t);

/*
 * ipc_entry_next - iterate: with @prev NULL the first entry, else the one
 * after @prev, or NULL at the end.  The table must not change during the
 * walk.
 */
struct ipc_entry *ipc_entry_next(const struct ipc_entry_table *t,
				 const struct ipc_entry *prev);

#endif
