/* SPDX-License-Identifier: GPL-2.0-only */
/* A few fixed-size records in static storage, handed out before the heap: no heap object taken and given back on a hot path. */
#ifndef KERN_REC_POOL_H
#define KERN_REC_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kern/kalloc.h"
#include "x86_64/cpu.h"

/*
 * A pool over the records of @size bytes from @base to @end: an array
 * in its user's static storage, of a type at least a pointer long and
 * aligned to one (a free record holds the free list's link in its first
 * bytes).
 * Define one with REC_POOL(array); its fields are its own.
 */
struct rec_pool {
	char *base, *end;	/* the records, and the byte after them */
	size_t size;
	void *free;		/* the first free record */
	bool ready;		/* the free list was threaded */
};

#define REC_POOL(storage) { .base = (char *)(storage), \
	.end = (char *)(storage) + sizeof(storage), \
	.size = sizeof((storage)[0]) }

/* rec_pool_thread - thread @p's records on its free list (once, from
 * rec_pool_alloc; interrupts off). */
void rec_pool_thread(struct rec_pool *p);

/*
 * rec_pool_alloc - @bytes (not zeroed): one of @p's records if @bytes
 * fits one and one is free, else kalloc(@bytes).  NULL when the heap is
 * short.  rec_pool_free - give back what rec_pool_alloc returned: to the
 * pool if it is one of its records, else to the heap.  Both take
 * interrupts off themselves; any context kalloc allows.  Inline: they
 * are on the device_write path.
 */
static inline void *rec_pool_alloc(struct rec_pool *p, size_t bytes)
{
	uint64_t flags = cpu_intr_save();
	void *rec = NULL;

	if (!p->ready)
		rec_pool_thread(p);
	if (bytes <= p->size && p->free != NULL) {
		rec = p->free;
		p->free = *(void **)rec;
	}
	cpu_intr_restore(flags);
	return rec != NULL ? rec : kalloc(bytes);
}

static inline void rec_pool_free(struct rec_pool *p, void *rec)
{
	uint64_t flags;

	if ((char *)rec < p->base || (char *)rec >= p->end) {
		kfree(rec);
		return;
	}
	flags = cpu_intr_save();
	*(void **)rec = p->free;
	p->free = rec;
	cpu_intr_restore(flags);
}

#endif
