/* SPDX-License-Identifier: GPL-2.0-only */
/* Object caches over kmalloc: kmem_cache_create, kmem_cache_destroy, kmem_cache_alloc, kmem_cache_free. */
/*
 * A cache is its name, object size, alignment, zone and constructor;
 * each object is a kmalloc block (lx_slab.c), so there are no slabs to
 * shrink or reuse.  An alignment above kmalloc's minimum is honoured by
 * asking kmalloc for a power-of-two block at least that large (aligned
 * to its size).  Linux runs a constructor once per object, when its slab
 * is made, and expects freed objects to be left constructed; here every
 * object is new, so the constructor runs at every allocation.  Callers
 * may be in any context their GFP flags allow.
 */
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/string.h>

struct kmem_cache {
	const char *name;
	unsigned int size;		/* kmalloc'd per object */
	unsigned int object_size;	/* what the creator asked for */
	gfp_t gfp;			/* GFP_DMA / GFP_DMA32 from the flags */
	void (*ctor)(void *);
	atomic_t objects;		/* allocated, not freed */
};

/*
 * kmem_cache_create - a cache of @size-byte objects aligned to @align
 * (and to the hardware cache line with SLAB_HWCACHE_ALIGN), in the DMA
 * zones with SLAB_CACHE_DMA / SLAB_CACHE_DMA32, each constructed by
 * @ctor (may be NULL).  The cache; NULL for size 0, an alignment that
 * is not a power of two, or without memory (a console line, or a panic
 * with SLAB_PANIC, as in Linux).
 */
struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, slab_flags_t flags,
				     void (*ctor)(void *))
{
	struct kmem_cache *s = NULL;

	if (flags & SLAB_HWCACHE_ALIGN)
		align = max_t(unsigned int, align, cache_line_size());
	if (size && (!align || is_power_of_2(align)))
		s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s) {
		if (flags & SLAB_PANIC)
			panic("kmem_cache_create: failed to create slab '%s'\n",
			      name);
		pr_warn("kmem_cache_create(%s) failed\n", name);
		return NULL;
	}
	s->name = name;
	s->object_size = size;
	s->size = ALIGN(size, max_t(unsigned int, align, 1));
	if (align > ARCH_KMALLOC_MINALIGN)
		s->size = roundup_pow_of_two(max(s->size, align));
	if (flags & SLAB_CACHE_DMA)
		s->gfp = GFP_DMA;
	else if (flags & SLAB_CACHE_DMA32)
		s->gfp = GFP_DMA32;
	s->ctor = ctor;
	return s;
}

/* kmem_cache_destroy - free cache @s (NULL: nothing); objects still
 * allocated from it are named on the console and stay valid. */
void kmem_cache_destroy(struct kmem_cache *s)
{
	if (!s)
		return;
	if (atomic_read(&s->objects))
		pr_err("kmem_cache_destroy %s: %d objects remaining\n",
		       s->name, atomic_read(&s->objects));
	kfree(s);
}

/* kmem_cache_alloc - an object of @s, constructed (zeroed instead with
 * __GFP_ZERO, as Linux forbids both); NULL without memory. */
void *kmem_cache_alloc(struct kmem_cache *s, gfp_t flags)
{
	void *p = kmalloc(s->size, flags | s->gfp);

	if (!p)
		return NULL;
	atomic_inc(&s->objects);
	if (s->ctor && !(flags & __GFP_ZERO))
		s->ctor(p);
	return p;
}

/* kmem_cache_free - give back @objp, an object of @s (NULL: nothing). */
void kmem_cache_free(struct kmem_cache *s, void *objp)
{
	if (!objp)
		return;
	atomic_dec(&s->objects);
	kfree(objp);
}
