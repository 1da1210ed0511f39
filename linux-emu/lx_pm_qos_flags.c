/* SPDX-License-Identifier: GPL-2.0-only */
/* Device PM QoS flags: dev_pm_qos_add_request, dev_pm_qos_remove_request, dev_pm_qos_flags, dev_pm_qos_expose_flags; dev_pm_qos_constraints_destroy for device_del. */
/*
 * Only flags requests (DEV_PM_QOS_FLAGS) are kept: each is on its
 * device's list and the effective flags are the union of theirs, as
 * Linux's pm_qos_update_flags computes them; nothing reads them but
 * drivers (usbcore's ports ask for PM_QOS_FLAG_NO_POWER_OFF), since no
 * device is ever powered off.  A device's dev_pm_qos is allocated at
 * its first request and freed by device_del, which also takes away the
 * requests still on it, as Linux's does.  Other request types are
 * refused with -EINVAL, named.
 * Callers hold the world, in thread context.
 */
#include <linux/device.h>
#include <linux/list.h>
#include <linux/pm_qos.h>
#include <linux/slab.h>

static void update_flags(struct pm_qos_flags *pqf)
{
	struct pm_qos_flags_request *r;
	s32 flags = 0;

	list_for_each_entry(r, &pqf->list, node)
		flags |= r->flags;
	pqf->effective_flags = flags;
}

static struct dev_pm_qos *qos_of(struct device *dev)
{
	struct dev_pm_qos *qos = dev->power.qos;

	if (qos)
		return qos;
	qos = kzalloc(sizeof(*qos), GFP_KERNEL);
	if (!qos)
		return NULL;
	INIT_LIST_HEAD(&qos->flags.list);
	dev->power.qos = qos;
	return qos;
}

/*
 * dev_pm_qos_add_request - add flags request @req (@value the flags)
 * for @dev: 1 if the effective flags changed, 0 if not; -EINVAL for a
 * request already added or of another type than DEV_PM_QOS_FLAGS;
 * -ENOMEM.
 */
int dev_pm_qos_add_request(struct device *dev, struct dev_pm_qos_request *req,
			   enum dev_pm_qos_req_type type, s32 value)
{
	struct dev_pm_qos *qos;
	s32 before;

	if (!dev || !req || dev_pm_qos_request_active(req))
		return -EINVAL;
	if (type != DEV_PM_QOS_FLAGS) {
		dev_err(dev, "linux-emu: PM QoS request type %d is not emulated\n",
			type);
		return -EINVAL;
	}
	qos = qos_of(dev);
	if (!qos)
		return -ENOMEM;
	req->dev = dev;
	req->type = type;
	req->data.flr.flags = value;
	INIT_LIST_HEAD(&req->data.flr.node);
	list_add_tail(&req->data.flr.node, &qos->flags.list);
	before = qos->flags.effective_flags;
	update_flags(&qos->flags);
	return qos->flags.effective_flags != before;
}

/* dev_pm_qos_remove_request - take @req away: 1 if the effective flags
 * changed, 0 if not; -EINVAL for a request not added. */
int dev_pm_qos_remove_request(struct dev_pm_qos_request *req)
{
	struct dev_pm_qos *qos;
	s32 before;

	if (!req || !dev_pm_qos_request_active(req))
		return -EINVAL;
	qos = req->dev->power.qos;
	list_del(&req->data.flr.node);
	before = qos->flags.effective_flags;
	update_flags(&qos->flags);
	memset(req, 0, sizeof(*req));
	return qos->flags.effective_flags != before;
}

/* dev_pm_qos_flags - whether @dev's effective flags hold all of @mask
 * (PM_QOS_FLAGS_ALL), some (_SOME) or none (_NONE); _UNDEFINED for a
 * device that never had a request. */
enum pm_qos_flags_status dev_pm_qos_flags(struct device *dev, s32 mask)
{
	struct dev_pm_qos *qos = dev->power.qos;
	s32 flags;

	if (!qos)
		return PM_QOS_FLAGS_UNDEFINED;
	if (list_empty(&qos->flags.list))
		return PM_QOS_FLAGS_UNDEFINED;
	flags = qos->flags.effective_flags & mask;
	if (!flags)
		return PM_QOS_FLAGS_NONE;
	return flags == mask ? PM_QOS_FLAGS_ALL : PM_QOS_FLAGS_SOME;
}

/*
 * dev_pm_qos_expose_flags - give @dev its own flags request of @val,
 * which Linux shows user space in sysfs (Graft has none).  0; -EEXIST
 * if it has one already; -ENOMEM; -EINVAL as dev_pm_qos_add_request.
 */
int dev_pm_qos_expose_flags(struct device *dev, s32 val)
{
	struct dev_pm_qos_request *req;
	int err;

	if (dev->power.qos && dev->power.qos->flags_req)
		return -EEXIST;
	req = kzalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	err = dev_pm_qos_add_request(dev, req, DEV_PM_QOS_FLAGS, val);
	if (err < 0) {
		kfree(req);
		return err;
	}
	dev->power.qos->flags_req = req;
	return 0;
}

/* dev_pm_qos_constraints_destroy - @dev is being deleted: its requests
 * are taken away (inactive from then on), its exposed one freed, and
 * its dev_pm_qos with them.  From device_del. */
void dev_pm_qos_constraints_destroy(struct device *dev)
{
	struct dev_pm_qos *qos = dev->power.qos;
	struct pm_qos_flags_request *r, *next;
	struct dev_pm_qos_request *req;

	if (!qos)
		return;
	list_for_each_entry_safe(r, next, &qos->flags.list, node) {
		req = container_of(r, struct dev_pm_qos_request, data.flr);
		list_del(&r->node);
		memset(req, 0, sizeof(*req));
	}
	kfree(qos->flags_req);
	dev->power.qos = NULL;
	kfree(qos);
}
