/* SPDX-License-Identifier: GPL-2.0-only */
/* SCSI host adapters: scsi_host_alloc, scsi_add_host_with_dma, scsi_remove_host, scsi_host_put, scsi_is_host_device. */
/*
 * A Scsi_Host is allocated with its host template's defaults as Linux's
 * hosts.c sets them, its command slots (can_queue of them, the tags) when
 * it is added, and its error handler thread at allocation (ended at
 * release, when the thread frees the host's memory).  Its transport's
 * host data (host_size bytes) is allocated when it is added, and the
 * transport classes' containers that match it are set up then (the SPI
 * class: the bus's signalling unknown); libata's containers match only
 * its own port, link and device objects, which it registers itself.
 */
#include <linux/blkdev.h>
#include <linux/slab.h>
#include <linux/transport_class.h>
#include <scsi/scsi_host.h>
#include <scsi/scsi_transport.h>

#include <lx_scsi.h>

LIST_HEAD(lx_scsi_hosts);
static unsigned int next_host_no;
static bool softirq_opened;

static const struct device_type scsi_host_type = { .name = "scsi_host" };

/* scsi_is_host_device - whether @dev is a Scsi_Host's. */
int scsi_is_host_device(const struct device *dev)
{
	return dev->type == &scsi_host_type;
}

static void host_release(struct device *dev)
{
	struct Scsi_Host *host = container_of(dev, struct Scsi_Host,
					      shost_gendev);
	struct lx_shost *lh = lx_shost(host);

	lx_scsi_slots_free(host);
	timer_shutdown_sync(&lh->retry_timer);
	list_del(&lh->link);
	kfree(host->shost_data);
	lx_scsi_eh_stop(host);
}

/*
 * scsi_host_alloc - a host for @sht with @privsize bytes of hostdata, in
 * state SHOST_CREATED, its EH thread started.  NULL: no memory.
 * Thread context.
 */
struct Scsi_Host *scsi_host_alloc(struct scsi_host_template *sht,
				  int privsize)
{
	struct lx_shost *lh = kzalloc(sizeof(*lh) + privsize, GFP_KERNEL);
	struct Scsi_Host *host;

	if (!lh)
		return NULL;
	if (!softirq_opened) {
		lx_scsi_softirq_init();
		softirq_opened = true;
	}
	host = &lh->host;
	INIT_LIST_HEAD(&lh->slots_free);
	lx_scsi_retry_timer_init(host);
	host->host_lock = &host->default_lock;
	spin_lock_init(host->host_lock);
	INIT_LIST_HEAD(&host->__devices);
	INIT_LIST_HEAD(&host->__targets);
	INIT_LIST_HEAD(&host->eh_abort_list);
	INIT_LIST_HEAD(&host->eh_cmd_q);
	INIT_LIST_HEAD(&host->starved_list);
	init_waitqueue_head(&host->host_wait);
	host->host_no = next_host_no++;
	host->hostt = sht;
	host->shost_state = SHOST_CREATED;
	host->eh_deadline = -1;
	host->max_channel = 0;
	host->max_id = 8;
	host->max_lun = 8;
	host->max_cmd_len = 12;
	host->this_id = sht->this_id;
	host->can_queue = sht->can_queue;
	host->sg_tablesize = sht->sg_tablesize;
	host->sg_prot_tablesize = sht->sg_prot_tablesize;
	host->cmd_per_lun = sht->cmd_per_lun;
	host->no_write_same = sht->no_write_same;
	host->host_tagset = sht->host_tagset;
	host->max_host_blocked = sht->max_host_blocked ?
				 sht->max_host_blocked : SCSI_DEFAULT_HOST_BLOCKED;
	host->max_sectors = sht->max_sectors ? sht->max_sectors :
			    SCSI_DEFAULT_MAX_SECTORS;
	host->max_segment_size = sht->max_segment_size ?
				 sht->max_segment_size : BLK_MAX_SEGMENT_SIZE;
	host->dma_boundary = sht->dma_boundary ? sht->dma_boundary :
			     0xffffffff;
	host->virt_boundary_mask = sht->virt_boundary_mask;
	device_initialize(&host->shost_gendev);
	dev_set_name(&host->shost_gendev, "host%d", host->host_no);
	host->shost_gendev.release = host_release;
	host->shost_gendev.type = &scsi_host_type;
	host->shost_gendev.class = &lx_scsi_class;
	list_add_tail(&lh->link, &lx_scsi_hosts);
	if (lx_scsi_eh_start(host)) {
		put_device(&host->shost_gendev);
		return NULL;
	}
	return host;
}

/*
 * scsi_add_host_with_dma - register @host under @dev, DMA by @dma_dev:
 * its command slots and transport data are allocated, its transport
 * classes set up, and it accepts commands.  0; -EINVAL (can_queue or
 * queuecommand missing); -ENOMEM; device_add's errors.
 */
int scsi_add_host_with_dma(struct Scsi_Host *host, struct device *dev,
			   struct device *dma_dev)
{
	struct scsi_host_template *sht = host->hostt;
	int err;

	if (!host->can_queue || !sht->queuecommand) {
		shost_printk(KERN_ERR, host, "can_queue = 0 or no queuecommand\n");
		return -EINVAL;
	}
	shost_printk(KERN_INFO, host, "%s\n",
		     sht->info ? sht->info(host) :
		     sht->name ? sht->name : "");
	if (sht->eh_abort_handler || sht->eh_device_reset_handler ||
	    sht->eh_target_reset_handler || sht->eh_bus_reset_handler ||
	    sht->eh_host_reset_handler)
		shost_printk(KERN_WARNING, host, "linux-emu's error handler never calls the template's abort and reset handlers\n");
	host->shost_gendev.parent = dev;
	host->dma_dev = dma_dev;
	err = lx_scsi_slots_alloc(host);
	if (err)
		return err;
	if (host->transportt && host->transportt->host_size) {
		host->shost_data = kzalloc(host->transportt->host_size,
					   GFP_KERNEL);
		if (!host->shost_data) {
			err = -ENOMEM;
			goto err_slots;
		}
	}
	err = device_add(&host->shost_gendev);
	if (err)
		goto err_data;
	host->shost_state = SHOST_RUNNING;
	transport_register_device(&host->shost_gendev);
	transport_configure_device(&host->shost_gendev);
	return 0;

err_data:
	kfree(host->shost_data);
	host->shost_data = NULL;
err_slots:
	lx_scsi_slots_free(host);
	return err;
}

/* scsi_remove_host - remove @host's devices; it takes no more commands
 * (its EH thread ends at release, scsi_host_put). */
void scsi_remove_host(struct Scsi_Host *host)
{
	struct scsi_device *sdev, *next;

	host->shost_state = SHOST_CANCEL;
	list_for_each_entry_safe(sdev, next, &host->__devices, siblings)
		scsi_remove_device(sdev);
	host->shost_state = SHOST_DEL;
	transport_unregister_device(&host->shost_gendev);
	device_del(&host->shost_gendev);
}

/* scsi_host_put - drop a reference on @host (the last frees it). */
void scsi_host_put(struct Scsi_Host *host)
{
	put_device(&host->shost_gendev);
}
