/* SPDX-License-Identifier: GPL-2.0-only */
/* A small xarray: xa_load, xa_store, xa_erase, xa_find, xa_find_after, xa_destroy over a sorted list. */
/*
 * Linux's lib/xarray.c needs the radix tree's node cache and per-CPU
 * preloads; the drivers here keep a handful of entries (nvme: one
 * effects log per command set), so an xarray is a list of (index,
 * entry) nodes in index order hung from xa_head.  Marks are not kept:
 * xa_find with a mark stops loudly (lx_host_missing).  Changes take
 * xa_lock with interrupts off.
 */
#include <linux/slab.h>
#include <linux/xarray.h>

#include <lx_host.h>

struct lx_xa_node {
	struct lx_xa_node *next;
	unsigned long index;
	void *entry;
};

static struct lx_xa_node **find_pos(struct xarray *xa, unsigned long index)
{
	struct lx_xa_node **pos = (struct lx_xa_node **)&xa->xa_head;

	while (*pos && (*pos)->index < index)
		pos = &(*pos)->next;
	return pos;
}

/* xa_load - the entry at @index, or NULL. */
void *xa_load(struct xarray *xa, unsigned long index)
{
	struct lx_xa_node *node = *find_pos(xa, index);

	return node && node->index == index ? node->entry : NULL;
}

/* xa_store - @entry at @index (NULL: erase).  The entry it replaced
 * (NULL if none), or XA_ERROR(-ENOMEM), XA_ERROR(-EINVAL) for an
 * internal entry. */
void *xa_store(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp)
{
	struct lx_xa_node **pos, *node;
	unsigned long flags;
	void *old;

	if (!entry)
		return xa_erase(xa, index);
	if (xa_is_internal(entry))
		return XA_ERROR(-EINVAL);
	node = kmalloc(sizeof(*node), gfp);
	xa_lock_irqsave(xa, flags);
	pos = find_pos(xa, index);
	if (*pos && (*pos)->index == index) {
		old = (*pos)->entry;
		(*pos)->entry = entry;
		xa_unlock_irqrestore(xa, flags);
		kfree(node);
		return old;
	}
	if (!node) {
		xa_unlock_irqrestore(xa, flags);
		return XA_ERROR(-ENOMEM);
	}
	node->index = index;
	node->entry = entry;
	node->next = *pos;
	*pos = node;
	xa_unlock_irqrestore(xa, flags);
	return NULL;
}

/* xa_erase - take the entry at @index out: it, or NULL. */
void *xa_erase(struct xarray *xa, unsigned long index)
{
	struct lx_xa_node **pos, *node = NULL;
	unsigned long flags;
	void *old = NULL;

	xa_lock_irqsave(xa, flags);
	pos = find_pos(xa, index);
	if (*pos && (*pos)->index == index) {
		node = *pos;
		old = node->entry;
		*pos = node->next;
	}
	xa_unlock_irqrestore(xa, flags);
	kfree(node);
	return old;
}

static void *find_from(struct xarray *xa, unsigned long *indexp,
		       unsigned long from, unsigned long max, xa_mark_t filter)
{
	struct lx_xa_node *node;

	if (filter != XA_PRESENT)
		lx_host_missing("xa_find with a mark");
	node = *find_pos(xa, from);
	if (!node || node->index > max)
		return NULL;
	*indexp = node->index;
	return node->entry;
}

/* xa_find - the first entry at *@indexp or after, up to @max (its index
 * in *@indexp), or NULL. */
void *xa_find(struct xarray *xa, unsigned long *indexp, unsigned long max,
	      xa_mark_t filter)
{
	return find_from(xa, indexp, *indexp, max, filter);
}

/* xa_find_after - the first entry after *@indexp, up to @max, or NULL. */
void *xa_find_after(struct xarray *xa, unsigned long *indexp,
		    unsigned long max, xa_mark_t filter)
{
	if (*indexp >= max)
		return NULL;
	return find_from(xa, indexp, *indexp + 1, max, filter);
}

/* xa_destroy - free every node of @xa (not the entries). */
void xa_destroy(struct xarray *xa)
{
	struct lx_xa_node *node;
	unsigned long flags;

	xa_lock_irqsave(xa, flags);
	node = xa->xa_head;
	xa->xa_head = NULL;
	xa_unlock_irqrestore(xa, flags);
	while (node) {
		struct lx_xa_node *next = node->next;

		kfree(node);
		node = next;
	}
}
