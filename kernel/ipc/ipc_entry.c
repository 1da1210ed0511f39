/* SPDX-License-Identifier: GPL-2.0-only */
/* Port name tables: two chained hashes, by name and by object. */
/*
 * Entries are chained in a hash by name and, when they are send or receive
 * rights, in a second hash by object, so that a right arriving in a
 * message finds the name the space already has for its port.  Both hashes
 * have the same number of buckets, doubled when the table holds as many
 * entries as buckets (a failed doubling just leaves longer chains).
 *
 * Pure code: only kalloc/kfree, so the host unit tests link it alone.
 */
#include <stddef.h>
#include <stdint.h>

#include "ipc/ipc_entry.h"
#include "kern/kalloc.h"

#define IPC_ENTRY_BUCKETS_MIN	16u

static unsigned int hash_object(const struct ipc_entry_table *t,
				const void *object)
{
	uint64_t v = (uint64_t)(uintptr_t)object >> 4;

	return (unsigned int)((v * 0x9e3779b97f4a7c15ull) >> 32) &
	       (t->nbuckets - 1);
}

kern_return_t ipc_entry_table_init(struct ipc_entry_table *t)
{
	t->names = kzalloc(IPC_ENTRY_BUCKETS_MIN * sizeof(*t->names));
	t->objects = kzalloc(IPC_ENTRY_BUCKETS_MIN * sizeof(*t->objects));
	if (t->names == NULL || t->objects == NULL) {
		kfree(t->names);
		kfree(t->objects);
		t->names = t->objects = NULL;
		return KERN_RESOURCE_SHORTAGE;
	}
	t->nbuckets = IPC_ENTRY_BUCKETS_MIN;
	t->count = 0;
	t->next_name = 1;
	t->spare = NULL;
	return KERN_SUCCESS;
}

void ipc_entry_table_fini(struct ipc_entry_table *t)
{
	struct ipc_entry *e = ipc_entry_take_all(t), *next;

	for (; e != NULL; e = next) {
		next = e->next;
		kfree(e);
	}
	kfree(t->spare);
	kfree(t->names);
	kfree(t->objects);
	t->names = t->objects = NULL;
	t->spare = NULL;
	t->nbuckets = 0;
}

/* A zeroed entry: the table's spare, or a new one. */
static struct ipc_entry *entry_new(struct ipc_entry_table *t)
{
	struct ipc_entry *e = t->spare;

	if (e != NULL)
		t->spare = NULL;
	else
		e = kalloc(sizeof(*e));
	if (e != NULL)
		__builtin_memset(e, 0, sizeof(*e));
	return e;
}

/* Double the buckets and rehash; on no memory keep the old ones. */
static void grow(struct ipc_entry_table *t)
{
	unsigned int old_n = t->nbuckets, i;
	struct ipc_entry **old_names = t->names, **old_objects = t->objects;
	struct ipc_entry **names, **objects;

	if (old_n >= (1u << 30))
		return;
	names = kzalloc(2 * old_n * sizeof(*names));
	objects = kzalloc(2 * old_n * sizeof(*objects));
	if (names == NULL || objects == NULL) {
		kfree(names);
		kfree(objects);
		return;
	}
	t->names = names;
	t->objects = objects;
	t->nbuckets = 2 * old_n;
	for (i = 0; i < old_n; i++) {
		struct ipc_entry *e, *next;

		for (e = old_names[i]; e != NULL; e = next) {
			unsigned int b = ipc_entry_hash_name(t, e->name);

			next = e->next;
			e->next = names[b];
			names[b] = e;
		}
		for (e = old_objects[i]; e != NULL; e = next) {
			unsigned int b = hash_object(t, e->object);

			next = e->rnext;
			e->rnext = objects[b];
			objects[b] = e;
		}
	}
	kfree(old_names);
	kfree(old_objects);
}

static void insert(struct ipc_entry_table *t, struct ipc_entry *e)
{
	unsigned int b;

	if (t->count >= t->nbuckets)
		grow(t);
	b = ipc_entry_hash_name(t, e->name);
	e->next = t->names[b];
	t->names[b] = e;
	t->count++;
}

kern_return_t ipc_entry_alloc(struct ipc_entry_table *t,
			      struct ipc_entry **out)
{
	mach_port_name_t name = t->next_name;
	struct ipc_entry *e;

	if (t->count >= 0xfffffffeu)
		return KERN_NO_SPACE;
	while (!MACH_PORT_VALID(name) || ipc_entry_lookup(t, name) != NULL)
		name++;
	e = entry_new(t);
	if (e == NULL)
		return KERN_RESOURCE_SHORTAGE;
	e->name = name;
	t->next_name = name + 1;
	insert(t, e);
	*out = e;
	return KERN_SUCCESS;
}

kern_return_t ipc_entry_alloc_name(struct ipc_entry_table *t,
				   mach_port_name_t name,
				   struct ipc_entry **out)
{
	struct ipc_entry *e;

	if (!MACH_PORT_VALID(name))
		return KERN_INVALID_VALUE;
	e = ipc_entry_lookup(t, name);
	if (e != NULL) {
		*out = e;
		return KERN_NAME_EXISTS;
	}
	e = entry_new(t);
	if (e == NULL)
		return KERN_RESOURCE_SHORTAGE;
	e->name = name;
	insert(t, e);
	*out = e;
	return KERN_SUCCESS;
}

void ipc_entry_unhash_object(struct ipc_entry_table *t, struct ipc_entry *e)
{
	struct ipc_entry **pp;

	if (!e->reverse)
		return;
	for (pp = &t->objects[hash_object(t, e->object)]; *pp != e;
	     pp = &(*pp)->rnext)
		;
	*pp = e->rnext;
	e->rnext = NULL;
	e->reverse = false;
}

void ipc_entry_hash_object(struct ipc_entry_table *t, struct ipc_entry *e)
{
	unsigned int b;

	if (e->reverse)
		return;
	b = hash_object(t, e->object);
	e->rnext = t->objects[b];
	t->objects[b] = e;
	e->reverse = true;
}

struct ipc_entry *ipc_entry_lookup_object(const struct ipc_entry_table *t,
					  const void *object)
{
	struct ipc_entry *e;

	if (t->nbuckets == 0)
		return NULL;
	for (e = t->objects[hash_object(t, object)]; e != NULL; e = e->rnext) {
		if (e->object == object)
			return e;
	}
	return NULL;
}

void ipc_entry_remove(struct ipc_entry_table *t, struct ipc_entry *e)
{
	struct ipc_entry **pp;

	ipc_entry_unhash_object(t, e);
	for (pp = &t->names[ipc_entry_hash_name(t, e->name)]; *pp != e;
	     pp = &(*pp)->next)
		;
	*pp = e->next;
	e->next = NULL;
	t->count--;
}

void ipc_entry_free(struct ipc_entry_table *t, struct ipc_entry *e)
{
	ipc_entry_remove(t, e);
	if (t->spare == NULL)
		t->spare = e;
	else
		kfree(e);
}

struct ipc_entry *ipc_entry_take_all(struct ipc_entry_table *t)
{
	struct ipc_entry *list = NULL, *e, *next;
	unsigned int i;

	for (i = 0; i < t->nbuckets; i++) {
		for (e = t->names[i]; e != NULL; e = next) {
			next = e->next;
			e->next = list;
			e->rnext = NULL;
			e->reverse = false;
			list = e;
		}
		t->names[i] = NULL;
		t->objects[i] = NULL;
	}
	t->count = 0;
	return list;
}

struct ipc_entry *ipc_entry_next(const struct ipc_entry_table *t,
				 const struct ipc_entry *prev)
{
	unsigned int b = 0;

	if (prev != NULL) {
		if (prev->next != NULL)
			return prev->next;
		b = ipc_entry_hash_name(t, prev->name) + 1;
	}
	for (; b < t->nbuckets; b++) {
		if (t->names[b] != NULL)
			return t->names[b];
	}
	return NULL;
}
