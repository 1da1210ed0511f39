/* SPDX-License-Identifier: GPL-2.0-only */
/* SCSI targets: the scsi_target of a (host, channel, id) with its transport data, made visible with its first device and reaped with its last; scsi_is_target_device, scsi_target_quiesce, scsi_target_resume, scsi_remove_target. */
/*
 * As Linux's scsi_scan.c and scsi_sysfs.c: a target is allocated when a
 * LUN of it is probed (transport_setup_device: the SPI class sets its
 * transfer parameters to "not negotiated"; the template's target_alloc),
 * added when the first device behind it is found (device_add,
 * transport_add_device, transport_configure_device), and reaped when
 * its last device goes, found or not (each holds a reap reference: the
 * template's target_destroy, the transport's class devices go).  Its
 * struct device is the parent of its devices and a child of the host's.
 */
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/transport_class.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>
#include <scsi/scsi_transport.h>

#include <lx_scsi.h>

static const struct device_type scsi_target_type = { .name = "scsi_target" };

/* scsi_is_target_device - whether @dev is a scsi_target's. */
int scsi_is_target_device(const struct device *dev)
{
	return dev->type == &scsi_target_type;
}

static void target_release(struct device *dev)
{
	struct device *parent = dev->parent;

	kfree(to_scsi_target(dev));
	put_device(parent);
}

static struct scsi_target *target_find(struct Scsi_Host *host,
				       uint channel, uint id)
{
	struct scsi_target *starget;

	list_for_each_entry(starget, &host->__targets, siblings)
		if (starget->channel == channel && starget->id == id &&
		    starget->state != STARGET_DEL)
			return starget;
	return NULL;
}

/*
 * lx_scsi_target_get - the target @id on @channel of @host, with a reap
 * reference the caller drops with lx_scsi_target_put: found, or
 * allocated (transport set up, the template's target_alloc run).
 * ERR_PTR(-ENOMEM), or target_alloc's error (on the console).  Thread
 * context.
 */
struct scsi_target *lx_scsi_target_get(struct Scsi_Host *host, uint channel,
				       uint id)
{
	size_t extra = host->transportt ? host->transportt->target_size : 0;
	struct scsi_target *starget = target_find(host, channel, id);
	int err;

	if (starget) {
		kref_get(&starget->reap_ref);
		return starget;
	}
	starget = kzalloc(sizeof(*starget) + extra, GFP_KERNEL);
	if (!starget)
		return ERR_PTR(-ENOMEM);
	device_initialize(&starget->dev);
	kref_init(&starget->reap_ref);
	starget->dev.parent = get_device(&host->shost_gendev);
	starget->dev.release = target_release;
	starget->dev.type = &scsi_target_type;
	starget->dev.class = &lx_scsi_class;
	dev_set_name(&starget->dev, "target%d:%d:%d", host->host_no, channel,
		     id);
	starget->channel = channel;
	starget->id = id;
	starget->state = STARGET_CREATED;
	starget->scsi_level = SCSI_2;
	starget->max_target_blocked = SCSI_DEFAULT_TARGET_BLOCKED;
	INIT_LIST_HEAD(&starget->devices);
	list_add_tail(&starget->siblings, &host->__targets);
	transport_setup_device(&starget->dev);
	if (host->hostt->target_alloc) {
		err = host->hostt->target_alloc(starget);
		if (err) {
			dev_err(&starget->dev, "target_alloc failed (%d)\n",
				err);
			starget->state = STARGET_DEL;	/* no target_destroy */
			lx_scsi_target_put(starget);
			return ERR_PTR(err);
		}
	}
	return starget;
}

/*
 * lx_scsi_target_add - make @starget visible (once): device_add, its
 * transport's class devices added and configured.  0 or device_add's
 * error.  Thread context.
 */
int lx_scsi_target_add(struct scsi_target *starget)
{
	int err;

	if (starget->state != STARGET_CREATED)
		return 0;
	err = device_add(&starget->dev);
	if (err)
		return err;
	transport_add_device(&starget->dev);
	transport_configure_device(&starget->dev);
	starget->state = STARGET_RUNNING;
	return 0;
}

static void target_reap(struct kref *kref)
{
	struct scsi_target *starget = container_of(kref, struct scsi_target,
						   reap_ref);
	struct Scsi_Host *host = dev_to_shost(starget->dev.parent);
	bool created = starget->state != STARGET_DEL;

	if (starget->state == STARGET_RUNNING) {
		transport_remove_device(&starget->dev);
		device_del(&starget->dev);
	}
	starget->state = STARGET_DEL;
	transport_destroy_device(&starget->dev);
	if (created && host->hostt->target_destroy)
		host->hostt->target_destroy(starget);
	list_del(&starget->siblings);
	put_device(&starget->dev);
}

/* lx_scsi_target_put - drop a reap reference of @starget; the last
 * takes it away (target_destroy, transport).  Thread context. */
void lx_scsi_target_put(struct scsi_target *starget)
{
	kref_put(&starget->reap_ref, target_reap);
}

/* scsi_target_quiesce - quiesce every device of @starget (their errors
 * are ignored, as Linux's). */
void scsi_target_quiesce(struct scsi_target *starget)
{
	struct scsi_device *sdev;

	list_for_each_entry(sdev, &starget->devices, same_target_siblings)
		scsi_device_quiesce(sdev);
}

/* scsi_target_resume - resume every device of @starget. */
void scsi_target_resume(struct scsi_target *starget)
{
	struct scsi_device *sdev;

	list_for_each_entry(sdev, &starget->devices, same_target_siblings)
		scsi_device_resume(sdev);
}

/* A device of @starget not being removed yet, or NULL. */
static struct scsi_device *removable(struct scsi_target *starget)
{
	struct scsi_device *sdev;

	list_for_each_entry(sdev, &starget->devices, same_target_siblings)
		if (sdev->sdev_state != SDEV_DEL)
			return sdev;
	return NULL;
}

/*
 * scsi_remove_target - remove every device of the targets that are @dev
 * or its children (a transport's remote port), as scsi_remove_device
 * does; each target goes with its last device.  Thread context.
 */
void scsi_remove_target(struct device *dev)
{
	struct Scsi_Host *host = dev_to_shost(dev->parent);
	struct scsi_target *starget;
	struct scsi_device *sdev;

	if (!host)
		return;
restart:
	list_for_each_entry(starget, &host->__targets, siblings) {
		if (starget->state == STARGET_DEL ||
		    (&starget->dev != dev && starget->dev.parent != dev))
			continue;
		sdev = removable(starget);
		if (sdev) {
			scsi_remove_device(sdev);	/* may reap starget */
			goto restart;
		}
	}
}
