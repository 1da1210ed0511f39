/* SPDX-License-Identifier: GPL-2.0-only */
/* ID allocators: ida_alloc_range, ida_free, ida_destroy. */
/*
 * Linux's lib/idr.c keeps an IDA in an xarray of bitmaps; lib/xarray.c
 * and the radix tree's node cache are not compiled here.  An IDA is one
 * bitmap instead, grown as IDs are given, kept where the xarray's head
 * pointer is (DEFINE_IDA and ida_init leave it NULL: empty).  The
 * lowest free ID is given, as Linux does.  Interrupts are off while the
 * bitmap changes, so any context may call (with a @gfp it allows).
 */
#include <linux/bitmap.h>
#include <linux/idr.h>
#include <linux/slab.h>

struct lx_ida_map {
	unsigned int bits;
	unsigned long map[];
};

static struct lx_ida_map *ida_map(struct ida *ida)
{
	return (struct lx_ida_map *)ida->xa.xa_head;
}

/* A map of at least @bits bits holding @old's IDs (@old freed); NULL
 * without memory (@old kept). */
static struct lx_ida_map *ida_grow(struct lx_ida_map *old, unsigned int bits,
				   gfp_t gfp)
{
	struct lx_ida_map *m;

	bits = max(roundup_pow_of_two(bits), BITS_PER_LONG);
	m = kzalloc(struct_size(m, map, BITS_TO_LONGS(bits)), gfp);
	if (!m)
		return NULL;
	m->bits = bits;
	if (old) {
		bitmap_copy(m->map, old->map, old->bits);
		kfree(old);
	}
	return m;
}

/*
 * ida_alloc_range - the lowest free ID from @min to @max (inclusive),
 * marked used.  The ID; -ENOSPC when all are used; -EINVAL for @min
 * above @max or negative; -ENOMEM.
 */
int ida_alloc_range(struct ida *ida, unsigned int min, unsigned int max,
		    gfp_t gfp)
{
	struct lx_ida_map *m, *grown;
	unsigned long flags, id;

	if ((int)min < 0 || min > max)
		return -EINVAL;
	if ((int)max < 0)
		max = INT_MAX;
	local_irq_save(flags);
	m = ida_map(ida);
	id = m ? find_next_zero_bit(m->map, m->bits, min) : min;
	if (id > max) {
		local_irq_restore(flags);
		return -ENOSPC;
	}
	if (!m || id >= m->bits) {
		grown = ida_grow(m, id + 1, gfp);
		if (!grown) {
			local_irq_restore(flags);
			return -ENOMEM;
		}
		m = grown;
		ida->xa.xa_head = m;
	}
	__set_bit(id, m->map);
	local_irq_restore(flags);
	return id;
}

/* ida_free - give back @id; freeing an ID not given is warned about
 * (as Linux). */
void ida_free(struct ida *ida, unsigned int id)
{
	struct lx_ida_map *m;
	unsigned long flags;

	local_irq_save(flags);
	m = ida_map(ida);
	if (!m || id >= m->bits || !test_bit(id, m->map)) {
		local_irq_restore(flags);
		WARN(1, "ida_free called for id=%u which is not allocated.\n",
		     id);
		return;
	}
	__clear_bit(id, m->map);
	local_irq_restore(flags);
}

/* ida_destroy - free every ID and the memory @ida holds; it is empty
 * and usable again. */
void ida_destroy(struct ida *ida)
{
	unsigned long flags;
	struct lx_ida_map *m;

	local_irq_save(flags);
	m = ida_map(ida);
	ida->xa.xa_head = NULL;
	local_irq_restore(flags);
	kfree(m);
}
