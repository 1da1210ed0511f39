/* SPDX-License-Identifier: GPL-2.0-only */
/* scsi_dma_map, scsi_dma_unmap: a command's scatterlist for its host's DMA device. */
#include <linux/dma-mapping.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>

/*
 * scsi_dma_map - map @cmd's scatterlist for the adapter's DMA device in
 * the command's direction (lx_dma_sg.c: bounced beyond its mask only).
 * The number of DMA segments (0 for a command without data); -ENOMEM
 * when mapping failed.
 */
int scsi_dma_map(struct scsi_cmnd *cmd)
{
	int nseg = scsi_sg_count(cmd);

	if (!nseg)
		return 0;
	nseg = dma_map_sg(cmd->device->host->dma_dev, scsi_sglist(cmd), nseg,
			  cmd->sc_data_direction);
	return nseg ? nseg : -ENOMEM;
}

/* scsi_dma_unmap - undo scsi_dma_map (copying bounced data back for a
 * read). */
void scsi_dma_unmap(struct scsi_cmnd *cmd)
{
	if (scsi_sg_count(cmd))
		dma_unmap_sg(cmd->device->host->dma_dev, scsi_sglist(cmd),
			     scsi_sg_count(cmd), cmd->sc_data_direction);
}
