/* SPDX-License-Identifier: GPL-2.0-only */
/* DMA API odds and ends: dma_map_sgtable, dma_max_mapping_size, dma_pci_p2pdma_supported. */
#include <linux/dma-map-ops.h>
#include <linux/dma-mapping.h>
#include <linux/scatterlist.h>

/* dma_map_sgtable - dma_map_sg_attrs on @sgt's orig_nents entries,
 * the count mapped in sgt->nents.  0; -EIO when nothing was mapped. */
int dma_map_sgtable(struct device *dev, struct sg_table *sgt,
		    enum dma_data_direction dir, unsigned long attrs)
{
	int nents = dma_map_sg_attrs(dev, sgt->sgl, sgt->orig_nents, dir,
				     attrs);

	if (nents <= 0)
		return -EIO;
	sgt->nents = nents;
	return 0;
}

/* dma_max_mapping_size - no limit: a mapping is direct or bounced
 * whole, whatever its size (lx_dma.c). */
size_t dma_max_mapping_size(struct device *dev)
{
	return SIZE_MAX;
}

/* dma_pci_p2pdma_supported - true, as Linux says for direct mapping (no
 * dma_map_ops); no peer-to-peer memory is ever handed to a driver here. */
bool dma_pci_p2pdma_supported(struct device *dev)
{
	return true;
}
