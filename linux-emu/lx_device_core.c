/* SPDX-License-Identifier: GPL-2.0-only */
/* The driver core's struct device life cycle without sysfs: device_initialize/add/del, get/put_device, names, children (device_for_each_child, device_find_child), device links, classes, device_set_of_node_from_dev; attribute files not created. */
/*
 * Graft has no sysfs and no kobject hierarchy: a device is its reference
 * count (dev->kobj.kref), its name (dev->kobj.name) and whether it is
 * added (dev->kobj.state_in_sysfs, which device_is_registered() reads).
 * The last put_device() releases its managed resources (devres), then
 * calls the release function of the device, its type or its class.
 * device_add() takes a reference on the parent that device_del() drops
 * (the release does for a device never deleted), as Linux's, and puts
 * the device on its parent's list of children (dev->p, linux-emu's
 * struct device_private: Linux's is drivers/base's own), in order.
 *
 * Attribute files (device_create_file) are not created: without sysfs
 * nothing could read them.  The first one is named on the console.
 * PCI and platform devices are added by their bus code (lx_pci_scan.c,
 * lx_platform.c); device_add() of a device on a bus the world registered
 * (bus_register: the virtio bus) binds it there (lx_bus.c), on any other
 * bus it is refused loudly.
 */
#include <linux/device.h>
#include <linux/device/class.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <lx_bus.h>
#include <lx_world.h>

/* devres.c's: frees a device's managed resources (drivers/base/base.h). */
int devres_release_all(struct device *dev);
/* lx_pm_qos_flags.c's, Linux's name (drivers/base/power/power.h). */
void dev_pm_qos_constraints_destroy(struct device *dev);

/* What linux-emu keeps of a device beyond struct device. */
struct device_private {
	struct list_head children;	/* added, oldest first */
	struct list_head sibling;	/* on the parent's children */
	struct device *device;		/* whose this is */
};

/* Give @dev its device_private if it has none.  0 or -ENOMEM. */
static int private_get(struct device *dev)
{
	if (dev->p)
		return 0;
	dev->p = kzalloc(sizeof(*dev->p), GFP_KERNEL);
	if (!dev->p)
		return -ENOMEM;
	INIT_LIST_HEAD(&dev->p->children);
	INIT_LIST_HEAD(&dev->p->sibling);
	dev->p->device = dev;
	return 0;
}

/* kstrdup_const compares against the kernel's read-only data: in the
 * Linux world there is none to share, so the range is empty. */
char __start_rodata[0], __end_rodata[0];

/* kstrdup_const - a copy of @s (never shared: see __start_rodata). */
const char *kstrdup_const(const char *s, gfp_t gfp)
{
	return kstrdup(s, gfp);
}

/* kfree_const - free what kstrdup_const returned. */
void kfree_const(const void *x)
{
	kfree(x);
}

/* device_initialize - prepare @dev: one reference, empty lists. */
void device_initialize(struct device *dev)
{
	kref_init(&dev->kobj.kref);
	INIT_LIST_HEAD(&dev->dma_pools);
	mutex_init(&dev->mutex);
	spin_lock_init(&dev->devres_lock);
	INIT_LIST_HEAD(&dev->devres_head);
	INIT_LIST_HEAD(&dev->links.consumers);
	INIT_LIST_HEAD(&dev->links.suppliers);
	INIT_LIST_HEAD(&dev->links.defer_sync);
	dev->links.status = DL_DEV_NO_DRIVER;
	set_dev_node(dev, NUMA_NO_NODE);
	spin_lock_init(&dev->power.lock);
	lx_pm_runtime_init(dev);
}

/* dev_set_name - name @dev; 0 or -ENOMEM (the old name kept). */
int dev_set_name(struct device *dev, const char *fmt, ...)
{
	va_list ap;
	char *name;

	va_start(ap, fmt);
	name = kvasprintf(GFP_KERNEL, fmt, ap);
	va_end(ap);
	if (!name)
		return -ENOMEM;
	kfree(dev->kobj.name);
	dev->kobj.name = name;
	return 0;
}

/* get_device - one more reference on @dev (NULL: NULL). */
struct device *get_device(struct device *dev)
{
	if (dev)
		kref_get(&dev->kobj.kref);
	return dev;
}

static void device_release(struct kref *kref)
{
	struct device *dev = container_of(kref, struct device, kobj.kref);
	struct device *parent = dev->parent;
	struct device_private *p = dev->p;
	const char *name = dev->kobj.name;
	bool added = dev->kobj.state_in_sysfs;	/* never deleted */

	if (p)
		list_del(&p->sibling);
	devres_release_all(dev);
	if (dev->release)
		dev->release(dev);
	else if (dev->type && dev->type->release)
		dev->type->release(dev);
	else if (dev->class && dev->class->dev_release)
		dev->class->dev_release(dev);
	else
		pr_err("linux-emu: device '%s' has no release function: not freed\n",
		       name ? name : "(unnamed)");
	kfree(name);
	kfree(p);
	if (added)
		put_device(parent);
}

/* put_device - drop a reference; the last one releases @dev. */
void put_device(struct device *dev)
{
	if (dev)
		kref_put(&dev->kobj.kref, device_release);
}

/*
 * device_add - make @dev known: named (from init_name if set), holding a
 * reference on its parent, device_is_registered() true; on a registered
 * bus, bound to the first of its drivers that takes it (lx_bus.c).  0;
 * -EINVAL for no device (as Linux: what a transport class without class
 * devices passes) or without a name; -ENOSYS (with a console line) for a
 * device on a bus not registered (PCI and platform devices are added by
 * lx_pci_scan.c and lx_platform.c); -ENOMEM.
 */
int device_add(struct device *dev)
{
	int err;

	if (!dev)
		return -EINVAL;	/* an anonymous transport class's */
	if (dev->init_name) {
		err = dev_set_name(dev, "%s", dev->init_name);
		if (err)
			return err;
		dev->init_name = NULL;
	}
	if (!dev->kobj.name)
		return -EINVAL;
	err = private_get(dev);
	if (!err && dev->parent)
		err = private_get(dev->parent);
	if (err)
		return err;
	get_device(dev->parent);
	if (dev->parent)
		list_add_tail(&dev->p->sibling, &dev->parent->p->children);
	dev->kobj.state_in_sysfs = 1;
	err = dev->bus ? lx_bus_device_add(dev) : 0;
	if (err) {
		dev->kobj.state_in_sysfs = 0;
		list_del_init(&dev->p->sibling);
		put_device(dev->parent);
	}
	if (err == -EINVAL) {
		pr_err("linux-emu: device_add of '%s' on bus %s is not implemented\n",
		       dev_name(dev), dev->bus->name);
		return -ENOSYS;
	}
	return err;
}

/* device_find_child - the first child of @parent for which @match(child,
 * @data) is true, with a reference taken (put_device it); NULL. */
struct device *device_find_child(struct device *parent, void *data,
				 int (*match)(struct device *dev, void *data))
{
	struct device_private *p;

	if (!parent || !parent->p)
		return NULL;
	list_for_each_entry(p, &parent->p->children, sibling)
		if (match(p->device, data))
			return get_device(p->device);
	return NULL;
}

/* device_del - undo device_add: unbound from its driver and off its bus,
 * the reference on the parent dropped (as Linux's; at release for a
 * device added and never deleted). */
void device_del(struct device *dev)
{
	if (!dev->kobj.state_in_sysfs)
		return;
	if (dev->bus)
		lx_bus_device_del(dev);
	dev_pm_qos_constraints_destroy(dev);
	dev->kobj.state_in_sysfs = 0;
	list_del_init(&dev->p->sibling);
	put_device(dev->parent);
}

/*
 * device_for_each_child - @fn(child, @data) for each child @parent has,
 * oldest first, until one returns non-zero; that value, or 0.  @fn may
 * delete the child it is given (each is held while @fn runs), not
 * another.
 */
int device_for_each_child(struct device *parent, void *data,
			  int (*fn)(struct device *dev, void *data))
{
	struct device_private *p, *next;
	int err = 0;

	if (!parent || !parent->p)
		return 0;
	list_for_each_entry_safe(p, next, &parent->p->children, sibling) {
		struct device *child = get_device(p->device);

		err = fn(child, data);
		put_device(child);
		if (err)
			break;
	}
	return err;
}


/* device_register - device_initialize, then device_add (its returns;
 * on an error the caller drops its reference with put_device). */
int device_register(struct device *dev)
{
	device_initialize(dev);
	return device_add(dev);
}

/* device_unregister - device_del, then put_device. */
void device_unregister(struct device *dev)
{
	device_del(dev);
	put_device(dev);
}

/* device_create_file - no sysfs: nothing is created (named once); 0. */
int device_create_file(struct device *dev, const struct device_attribute *attr)
{
	pr_info_once("linux-emu: no sysfs: attribute files (first: %s/%s) are not created\n",
		     dev_name(dev), attr->attr.name);
	return 0;
}

/* device_remove_file - nothing was created. */
void device_remove_file(struct device *dev,
			const struct device_attribute *attr)
{
}


/* device_create_bin_file - no sysfs: nothing is created; 0. */
int device_create_bin_file(struct device *dev,
			   const struct bin_attribute *attr)
{
	pr_info_once("linux-emu: no sysfs: binary attribute files (first: %s/%s) are not created\n",
		     dev_name(dev), attr->attr.name);
	return 0;
}

/* device_remove_bin_file - nothing was created. */
void device_remove_bin_file(struct device *dev,
			    const struct bin_attribute *attr)
{
}

/* device_set_of_node_from_dev - @dev shares @dev2's firmware node:
 * Graft's devices have none (no OF), so both stay NULL; marked reused
 * as Linux marks it. */
void device_set_of_node_from_dev(struct device *dev, const struct device *dev2)
{
	dev->of_node = dev2->of_node;
	dev->of_node_reused = true;
}
/*
 * device_link_add - record that @consumer depends on @supplier (only
 * runtime PM and removal order read links in Linux; Graft has neither,
 * so the link is bookkeeping).  The link, or NULL (no memory, or the
 * same device twice).
 */
struct device_link *device_link_add(struct device *consumer,
				    struct device *supplier, u32 flags)
{
	struct device_link *link;

	if (!consumer || !supplier || consumer == supplier)
		return NULL;
	link = kzalloc(sizeof(*link), GFP_KERNEL);
	if (!link)
		return NULL;
	link->consumer = get_device(consumer);
	link->supplier = get_device(supplier);
	link->flags = flags;
	link->status = DL_STATE_NONE;
	kref_init(&link->kref);
	list_add_tail(&link->s_node, &supplier->links.consumers);
	list_add_tail(&link->c_node, &consumer->links.suppliers);
	return link;
}

/* device_link_remove - drop the link from @consumer to @supplier, if
 * there is one. */
void device_link_remove(void *consumer, struct device *supplier)
{
	struct device *dev = consumer;
	struct device_link *link;

	list_for_each_entry(link, &dev->links.suppliers, c_node) {
		if (link->supplier != supplier)
			continue;
		list_del(&link->s_node);
		list_del(&link->c_node);
		put_device(link->consumer);
		put_device(link->supplier);
		kfree(link);
		return;
	}
}

/* driver_create_file - no sysfs: nothing is created, 0 (Linux's
 * answer without CONFIG_SYSFS); -EINVAL for no driver. */
int driver_create_file(struct device_driver *drv,
		       const struct driver_attribute *attr)
{
	return drv ? 0 : -EINVAL;
}

/* driver_remove_file - nothing was created. */
void driver_remove_file(struct device_driver *drv,
			const struct driver_attribute *attr)
{
}

/* __class_register - a class is its name and callbacks here: 0. */
int __class_register(struct class *cls, struct lock_class_key *key)
{
	return 0;
}

/* class_unregister - nothing was kept. */
void class_unregister(struct class *cls)
{
}
