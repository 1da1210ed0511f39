/* SPDX-License-Identifier: GPL-2.0-only */
/* Scatter-gather DMA mappings (dma_map_sg_attrs) over lx_dma.c's page mappings, and managed coherent memory (dmam_alloc_attrs). */
/*
 * Each entry is mapped on its own with dma_map_page_attrs: its bus
 * address is the physical one when it lies below the device's dma_mask,
 * else a counted bounce buffer's (lx_emul_dma_bounce_count).  Entries are
 * not merged (an IOMMU would), so the mapped count is the entry count.
 */
#include <linux/dma-mapping.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

/*
 * dma_map_sg_attrs - map the @nents entries of @sg for @dev; the number
 * mapped (= @nents), or 0 if one could not be (nothing stays mapped).
 */
unsigned int dma_map_sg_attrs(struct device *dev, struct scatterlist *sg,
			      int nents, enum dma_data_direction dir,
			      unsigned long attrs)
{
	struct scatterlist *s;
	int i;

	if (nents <= 0)
		return 0;
	for_each_sg(sg, s, nents, i) {
		s->dma_address = dma_map_page_attrs(dev, sg_page(s), s->offset,
						    s->length, dir, attrs);
		if (s->dma_address == DMA_MAPPING_ERROR)
			goto err_unmap;
		sg_dma_len(s) = s->length;
	}
	return nents;

err_unmap:
	dma_unmap_sg_attrs(dev, sg, i, dir, attrs | DMA_ATTR_SKIP_CPU_SYNC);
	return 0;
}

/* dma_unmap_sg_attrs - end the mappings of the first @nents entries. */
void dma_unmap_sg_attrs(struct device *dev, struct scatterlist *sg,
			int nents, enum dma_data_direction dir,
			unsigned long attrs)
{
	struct scatterlist *s;
	int i;

	for_each_sg(sg, s, nents, i)
		dma_unmap_page_attrs(dev, s->dma_address, sg_dma_len(s), dir,
				     attrs);
}

/* Each of the @nelems entries as a single mapping, through @sync. */
static void sync_sg(struct device *dev, struct scatterlist *sg, int nelems,
		    enum dma_data_direction dir,
		    void (*sync)(struct device *, dma_addr_t, size_t,
				 enum dma_data_direction))
{
	struct scatterlist *s;
	int i;

	for_each_sg(sg, s, nelems, i)
		sync(dev, s->dma_address, sg_dma_len(s), dir);
}

/* dma_sync_sg_for_cpu / _for_device - each entry as a single mapping. */
void dma_sync_sg_for_cpu(struct device *dev, struct scatterlist *sg,
			 int nelems, enum dma_data_direction dir)
{
	sync_sg(dev, sg, nelems, dir, dma_sync_single_for_cpu);
}

void dma_sync_sg_for_device(struct device *dev, struct scatterlist *sg,
			    int nelems, enum dma_data_direction dir)
{
	sync_sg(dev, sg, nelems, dir, dma_sync_single_for_device);
}

struct dmam_block {
	void *vaddr;
	dma_addr_t dma;
	size_t size;
	unsigned long attrs;
};

static void dmam_release(struct device *dev, void *res)
{
	struct dmam_block *b = res;

	dma_free_attrs(dev, b->size, b->vaddr, b->dma, b->attrs);
}

/* dmam_alloc_attrs - dma_alloc_attrs, freed when @dev's managed
 * resources are released.  NULL if either allocation fails. */
void *dmam_alloc_attrs(struct device *dev, size_t size, dma_addr_t *dma_handle,
		       gfp_t gfp, unsigned long attrs)
{
	struct dmam_block *b;
	void *vaddr;

	b = devres_alloc(dmam_release, sizeof(*b), gfp);
	if (!b)
		return NULL;
	vaddr = dma_alloc_attrs(dev, size, dma_handle, gfp, attrs);
	if (!vaddr) {
		devres_free(b);
		return NULL;
	}
	b->vaddr = vaddr;
	b->dma = *dma_handle;
	b->size = size;
	b->attrs = attrs;
	devres_add(dev, b);
	return vaddr;
}
