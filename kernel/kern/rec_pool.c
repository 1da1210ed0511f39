/* SPDX-License-Identifier: GPL-2.0-only */
/* rec_pool_thread: a record pool's free list, threaded at its first use (rec_pool.h). */
#include "kern/rec_pool.h"

void rec_pool_thread(struct rec_pool *p)
{
	for (char *r = p->base; r < p->end; r += p->size) {
		*(void **)r = p->free;
		p->free = r;
	}
	p->ready = true;
}
