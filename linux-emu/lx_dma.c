/* SPDX-License-Identifier: GPL-2.0-only */
/* The DMA API without an IOMMU: coherent memory inside a device's coherent mask, streaming mappings bounced only beyond its dma_mask. */
/*
 * A bus address is the physical address (x86 without IOMMU).  The inline
 * helpers of <linux/dma-mapping.h> (dma_map_single, dma_alloc_coherent,
 * dma_set_mask_and_coherent...) end in the functions here.
 *
 * Coherent memory comes from lx_host_alloc() in the zone that fits the
 * coherent mask (DMA below 16 MiB, DMA32 below 4 GiB, else anywhere),
 * whole pages, zeroed, physically contiguous.  Linux also aligns it to
 * its size's power-of-two order; the host aligns to a page only.
 *
 * A streaming mapping whose bytes all lie below the device's dma_mask is
 * the physical address itself.  Otherwise the bytes are copied to a bounce
 * buffer from the zone that fits the mask, as swiotlb does: to it at map
 * time (always, so the device never sees stale data), back from it at
 * unmap and sync-for-cpu when the device may have written (FROM_DEVICE,
 * BIDIRECTIONAL; not with DMA_ATTR_SKIP_CPU_SYNC at unmap), to it again at
 * sync-for-device when the CPU may have written (TO_DEVICE,
 * BIDIRECTIONAL).  Each bounce is counted (lx_emul_dma_bounce_count).
 * The live bounces are a list searched linearly, under interrupts off:
 * mapping may happen in interrupt context.
 */
#include <linux/dma-mapping.h>
#include <linux/irqflags.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include <lx_emul.h>
#include <lx_host.h>

struct bounce {
	struct list_head link;
	struct device *dev;
	void *orig;		/* the driver's bytes */
	void *buf;		/* the copy the device sees */
	dma_addr_t addr;	/* bus address of buf */
	size_t size;
};

static LIST_HEAD(bounces);
static unsigned long bounce_count;

unsigned long lx_emul_dma_bounce_count(void)
{
	return bounce_count;
}

/* Like dma_direct_supported: the mask must cover ZONE_DMA (24 bits). */
static bool supported(u64 mask)
{
	return mask >= DMA_BIT_MASK(24);
}

/* The host zone whose memory lies wholly below @mask; -1 if none does. */
static int zone_for(u64 mask)
{
	if (mask >= lx_host_memory_top() - 1)
		return LX_HOST_ZONE_ANY;
	if (mask >= DMA_BIT_MASK(32))
		return LX_HOST_ZONE_DMA32;
	if (mask >= DMA_BIT_MASK(24))
		return LX_HOST_ZONE_DMA;
	return -1;
}

static bool below(dma_addr_t addr, size_t size, u64 mask)
{
	return addr + size - 1 <= mask && addr + size - 1 >= addr;
}

/* dma_set_mask - 0; -EIO if @dev has no dma_mask or @mask is below 24
 * bits (memory below 16 MiB must be reachable). */
int dma_set_mask(struct device *dev, u64 mask)
{
	if (!dev->dma_mask || !supported(mask))
		return -EIO;
	*dev->dma_mask = mask;
	return 0;
}

/* dma_set_coherent_mask - 0; -EIO for a mask below 24 bits. */
int dma_set_coherent_mask(struct device *dev, u64 mask)
{
	if (!supported(mask))
		return -EIO;
	dev->coherent_dma_mask = mask;
	return 0;
}

/*
 * dma_alloc_attrs - @size bytes (rounded up to pages) of zeroed,
 * physically contiguous memory below @dev's coherent mask; its bus
 * address in *@dma_handle.  NULL if there is no such memory.  As in
 * Linux, the zone bits of @gfp are ignored: the mask decides.  Never
 * sleeps.
 */
void *dma_alloc_attrs(struct device *dev, size_t size, dma_addr_t *dma_handle,
		      gfp_t gfp, unsigned long attrs)
{
	u64 mask = dev->coherent_dma_mask;
	int zone = zone_for(mask);
	void *p;

	if (size == 0 || zone < 0)
		return NULL;
	size = PAGE_ALIGN(size);
	p = lx_host_alloc(size, zone, 1);
	if (!p)
		return NULL;
	*dma_handle = virt_to_phys(p);
	if (!below(*dma_handle, size, mask)) {
		dev_err(dev, "coherent memory at %pad is beyond mask %llx\n",
			dma_handle, mask);
		lx_host_free(p);
		return NULL;
	}
	return p;
}

/* dma_free_attrs - give back what dma_alloc_attrs returned. */
void dma_free_attrs(struct device *dev, size_t size, void *cpu_addr,
		    dma_addr_t dma_handle, unsigned long attrs)
{
	if (cpu_addr)
		lx_host_free(cpu_addr);
}

/* The live bounce whose buffer holds bus address @addr, or NULL. */
static struct bounce *find_bounce(struct device *dev, dma_addr_t addr,
				  bool unlink)
{
	struct bounce *b, *found = NULL;
	unsigned long flags;

	local_irq_save(flags);
	list_for_each_entry(b, &bounces, link) {
		if (b->dev == dev && addr >= b->addr &&
		    addr - b->addr < b->size) {
			found = b;
			if (unlink)
				list_del(&b->link);
			break;
		}
	}
	local_irq_restore(flags);
	return found;
}

static dma_addr_t map_bounced(struct device *dev, void *orig, size_t size,
			      u64 mask)
{
	int zone = zone_for(mask);
	struct bounce *b;
	unsigned long flags;

	b = zone < 0 ? NULL : kmalloc(sizeof(*b), GFP_ATOMIC);
	if (!b)
		return DMA_MAPPING_ERROR;
	b->buf = lx_host_alloc(size, zone, 0);
	if (!b->buf) {
		kfree(b);
		return DMA_MAPPING_ERROR;
	}
	b->dev = dev;
	b->orig = orig;
	b->size = size;
	b->addr = virt_to_phys(b->buf);
	memcpy(b->buf, orig, size);
	local_irq_save(flags);
	list_add(&b->link, &bounces);
	bounce_count++;
	local_irq_restore(flags);
	return b->addr;
}

/*
 * dma_map_page_attrs - the bus address through which @dev reaches @size
 * bytes at @offset in @page: their own, or a bounce buffer's when they lie
 * beyond its dma_mask.  DMA_MAPPING_ERROR (with a console line) for a
 * device without dma_mask, a bad direction or size, or no bounce memory.
 */
dma_addr_t dma_map_page_attrs(struct device *dev, struct page *page,
			      size_t offset, size_t size,
			      enum dma_data_direction dir, unsigned long attrs)
{
	phys_addr_t phys = page_to_phys(page) + offset;
	dma_addr_t addr;

	if (!dev->dma_mask || !valid_dma_direction(dir) || size == 0) {
		dev_err(dev, "dma_map_page: no dma_mask, direction %d or size %zu\n",
			dir, size);
		return DMA_MAPPING_ERROR;
	}
	if (below(phys, size, *dev->dma_mask))
		return phys;
	addr = map_bounced(dev, page_address(page) + offset, size,
			   *dev->dma_mask);
	if (addr == DMA_MAPPING_ERROR)
		dev_err(dev, "dma_map_page: no bounce buffer for %zu bytes at %pa\n",
			size, &phys);
	return addr;
}

/* dma_unmap_page_attrs - end the mapping at @addr; a bounced one gives
 * the device's bytes back (FROM_DEVICE, BIDIRECTIONAL) and its buffer. */
void dma_unmap_page_attrs(struct device *dev, dma_addr_t addr, size_t size,
			  enum dma_data_direction dir, unsigned long attrs)
{
	struct bounce *b = find_bounce(dev, addr, true);

	if (!b)
		return;		/* not bounced: nothing held */
	if (b->addr != addr || b->size != size)
		dev_err(dev, "dma_unmap_page: %zu bytes at %pad, mapped %zu at %pad\n",
			size, &addr, b->size, &b->addr);
	if (!(attrs & DMA_ATTR_SKIP_CPU_SYNC) &&
	    (dir == DMA_FROM_DEVICE || dir == DMA_BIDIRECTIONAL))
		memcpy(b->orig, b->buf, b->size);
	lx_host_free(b->buf);
	kfree(b);
}

/*
 * Copy the part [@addr, @addr + @size) of the bounce holding @addr (clipped
 * to it) towards the device or towards the CPU; nothing for a mapping that
 * was not bounced.
 */
static void sync_bounce(struct device *dev, dma_addr_t addr, size_t size,
			bool to_device)
{
	struct bounce *b = find_bounce(dev, addr, false);
	size_t off, n;

	if (!b)
		return;
	off = addr - b->addr;
	n = min_t(size_t, size, b->size - off);
	if (to_device)
		memcpy(b->buf + off, b->orig + off, n);
	else
		memcpy(b->orig + off, b->buf + off, n);
}

/* dma_sync_single_for_cpu - let the CPU see what the device wrote. */
void dma_sync_single_for_cpu(struct device *dev, dma_addr_t addr, size_t size,
			     enum dma_data_direction dir)
{
	if (dir == DMA_FROM_DEVICE || dir == DMA_BIDIRECTIONAL)
		sync_bounce(dev, addr, size, false);
}

/* dma_sync_single_for_device - let the device see what the CPU wrote. */
void dma_sync_single_for_device(struct device *dev, dma_addr_t addr,
				size_t size, enum dma_data_direction dir)
{
	if (dir == DMA_TO_DEVICE || dir == DMA_BIDIRECTIONAL)
		sync_bounce(dev, addr, size, true);
}

/* As Linux's: is @x in the vmalloc area?  (dma_map_single refuses such
 * memory.)  Nothing of Graft's lives there yet. */
bool is_vmalloc_addr(const void *x)
{
	unsigned long addr = (unsigned long)x;

	return addr >= VMALLOC_START && addr < VMALLOC_END;
}

/* dma_opt_mapping_size - the largest mapping that costs no more than a
 * small one: any (no IOMMU), dma_max_mapping_size (lx_dma_sgtable.c). */
size_t dma_opt_mapping_size(struct device *dev)
{
	return dma_max_mapping_size(dev);
}
