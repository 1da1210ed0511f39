/* SPDX-License-Identifier: GPL-2.0-only */
/* ID allocation with pointers: idr_alloc, idr_alloc_u32, idr_alloc_cyclic, idr_find, idr_replace, idr_remove, idr_get_next(_ul), idr_for_each, idr_destroy; radix_tree_tagged. */
/*
 * Linux's lib/idr.c sits on the radix tree (lib/radix-tree.c: a node
 * cache and per-CPU preloads).  Here an IDR is a list of (id, pointer)
 * nodes in id order hung from its root's xa_head, which stays NULL when
 * the IDR is empty (idr_is_empty, Linux's inline, reads it and the
 * root's IDR_FREE tag).  No tags are kept but the root's, which
 * IDR_INIT sets: IDR_FREE says some id is free, and stays set, since no
 * IDR here fills its 2^31 ids.  A NULL pointer reserves its id:
 * idr_find answers NULL for it, iteration skips it, idr_replace fills
 * it.  Allocation is a walk from the lowest id asked for: the drivers
 * keep a few entries.  No lock of its own: callers serialize, as with
 * Linux's IDR; idr_preload is not provided.
 */
#include <linux/err.h>
#include <linux/idr.h>
#include <linux/limits.h>
#include <linux/slab.h>

struct lx_idr_node {
	struct lx_idr_node *next;
	unsigned long id;
	void *ptr;
};

static struct lx_idr_node **head(const struct idr *idr)
{
	return (struct lx_idr_node **)&idr->idr_rt.xa_head;
}

/* Where @id's node is, or would go. */
static struct lx_idr_node **find_pos(const struct idr *idr, unsigned long id)
{
	struct lx_idr_node **pos = head(idr);

	while (*pos && (*pos)->id < id)
		pos = &(*pos)->next;
	return pos;
}

static struct lx_idr_node *find_node(const struct idr *idr, unsigned long id)
{
	struct lx_idr_node *node = *find_pos(idr, id);

	return node && node->id == id ? node : NULL;
}

/* The lowest free id in [@min, @max] into *@id: 0, or -ENOSPC. */
static int lowest_free(const struct idr *idr, unsigned long min,
		       unsigned long max, unsigned long *id)
{
	struct lx_idr_node *node = *find_pos(idr, min);
	unsigned long want = min;

	for (; node && node->id == want; node = node->next) {
		if (want == max)
			return -ENOSPC;
		want++;
	}
	if (want > max)
		return -ENOSPC;
	*id = want;
	return 0;
}

static int insert(struct idr *idr, unsigned long id, void *ptr, gfp_t gfp)
{
	struct lx_idr_node **pos = find_pos(idr, id);
	struct lx_idr_node *node = kmalloc(sizeof(*node), gfp);

	if (!node)
		return -ENOMEM;
	node->id = id;
	node->ptr = ptr;
	node->next = *pos;
	*pos = node;
	return 0;
}

/*
 * idr_alloc_u32 - @ptr (NULL: the id reserved) at the lowest free id
 * from *@nextid (not below the IDR's base) to @max, which goes to
 * *@nextid.  0; -ENOSPC if none is free; -ENOMEM.
 */
int idr_alloc_u32(struct idr *idr, void *ptr, u32 *nextid, unsigned long max,
		  gfp_t gfp)
{
	unsigned long id;
	int err;

	err = lowest_free(idr, max_t(unsigned long, *nextid, idr->idr_base),
			  max, &id);
	if (!err)
		err = insert(idr, id, ptr, gfp);
	if (!err)
		*nextid = id;
	return err;
}

/*
 * idr_alloc - @ptr at the lowest free id from @start to @end - 1 (@end
 * 0 or less: INT_MAX).  The id; -EINVAL for a negative @start; -ENOSPC;
 * -ENOMEM.
 */
int idr_alloc(struct idr *idr, void *ptr, int start, int end, gfp_t gfp)
{
	u32 id = start;
	int err;

	if (WARN_ON_ONCE(start < 0))
		return -EINVAL;
	err = idr_alloc_u32(idr, ptr, &id, end > 0 ? end - 1 : INT_MAX, gfp);
	return err ? err : (int)id;
}

/*
 * idr_alloc_cyclic - as idr_alloc, from the id after the one last
 * allocated so (or @start), wrapping around to @start once.  The id;
 * -EINVAL, -ENOSPC, -ENOMEM.
 */
int idr_alloc_cyclic(struct idr *idr, void *ptr, int start, int end,
		     gfp_t gfp)
{
	unsigned long max = end > 0 ? end - 1 : INT_MAX;
	u32 id;
	int err;

	if (WARN_ON_ONCE(start < 0))
		return -EINVAL;
	id = max_t(u32, idr->idr_next, start);
	err = idr_alloc_u32(idr, ptr, &id, max, gfp);
	if (err == -ENOSPC && id > start) {
		id = start;
		err = idr_alloc_u32(idr, ptr, &id, max, gfp);
	}
	if (err)
		return err;
	idr->idr_next = id + 1;
	return id;
}

/* idr_find - the pointer at @id; NULL if @id is free or reserved. */
void *idr_find(const struct idr *idr, unsigned long id)
{
	struct lx_idr_node *node = find_node(idr, id);

	return node ? node->ptr : NULL;
}

/* idr_replace - @ptr at allocated @id.  The pointer it replaced (NULL
 * for a reserved id); ERR_PTR(-ENOENT) for a free one. */
void *idr_replace(struct idr *idr, void *ptr, unsigned long id)
{
	struct lx_idr_node *node = find_node(idr, id);
	void *old;

	if (!node)
		return ERR_PTR(-ENOENT);
	old = node->ptr;
	node->ptr = ptr;
	return old;
}

/* idr_remove - free @id.  The pointer it held; NULL if it was free or
 * reserved. */
void *idr_remove(struct idr *idr, unsigned long id)
{
	struct lx_idr_node **pos = find_pos(idr, id);
	struct lx_idr_node *node = *pos;
	void *ptr;

	if (!node || node->id != id)
		return NULL;
	*pos = node->next;
	ptr = node->ptr;
	kfree(node);
	return ptr;
}

/* idr_get_next_ul - the first pointer (not a reservation) at an id from
 * *@nextid on, its id into *@nextid; NULL if none. */
void *idr_get_next_ul(struct idr *idr, unsigned long *nextid)
{
	struct lx_idr_node *node = *find_pos(idr, *nextid);

	for (; node; node = node->next) {
		if (node->ptr) {
			*nextid = node->id;
			return node->ptr;
		}
	}
	return NULL;
}

/* idr_get_next - as idr_get_next_ul for int ids: NULL (with a
 * warning) for an id past INT_MAX. */
void *idr_get_next(struct idr *idr, int *nextid)
{
	unsigned long id = *nextid;
	void *ptr = idr_get_next_ul(idr, &id);

	if (WARN_ON_ONCE(ptr && id > INT_MAX))
		return NULL;
	if (ptr)
		*nextid = id;
	return ptr;
}

/* idr_for_each - @fn(id, pointer, @data) for each pointer in id order
 * (reservations skipped) until @fn answers non-zero: that answer, else
 * 0.  @fn must not change the IDR. */
int idr_for_each(const struct idr *idr,
		 int (*fn)(int id, void *p, void *data), void *data)
{
	struct lx_idr_node *node;
	int ret;

	for (node = *head(idr); node; node = node->next) {
		if (!node->ptr)
			continue;
		ret = fn(node->id, node->ptr, data);
		if (ret)
			return ret;
	}
	return 0;
}

/* idr_destroy - free every id (not what the pointers point at). */
void idr_destroy(struct idr *idr)
{
	struct lx_idr_node *node = *head(idr), *next;

	for (; node; node = next) {
		next = node->next;
		kfree(node);
	}
	*head(idr) = NULL;
}

/* radix_tree_tagged - whether @root's @tag is set at the root (the only
 * tags kept: an IDR's IDR_FREE). */
int radix_tree_tagged(const struct radix_tree_root *root, unsigned int tag)
{
	return !!(root->xa_flags & (1u << (tag + ROOT_TAG_SHIFT)));
}
