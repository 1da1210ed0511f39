/* SPDX-License-Identifier: GPL-2.0-only */
/* Buses that Linux code registers (the virtio and USB buses): bus_register, driver_register, the binding of their devices, device_attach, device_bind_driver, device_release_driver, bus_find_device, bus_for_each_dev/_drv, bus_register_notifier. */
/*
 * Linux's drivers/base/bus.c and dd.c without sysfs, deferred probing or
 * asynchronous probes: a registered bus keeps its devices and drivers in
 * order; a device added (device_add, lx_bus_device_add) is offered to
 * each driver in turn, a driver registered to each unbound device.  A
 * binding is the bus's match (none: everything matches), then
 * dev->driver set and the bus's probe, else the driver's; a failed probe
 * releases what devres recorded and leaves the device unbound, named on
 * the console unless the driver said -ENODEV or -ENXIO (as Linux's
 * really_probe).  Unbinding runs the bus's remove, else the driver's,
 * then releases the device's managed resources.  A bus's notifier chain
 * hears of its devices added and removed and of their bindings, at the
 * points Linux's device_add, device_del, really_probe and
 * __device_release_driver tell it.
 *
 * PCI and the platform bus bind their own devices (lx_pci_driver.c,
 * lx_platform.c) and are not registered here.  Callers hold the world;
 * probes and removes may sleep.
 */
#include <linux/device.h>
#include <linux/device/bus.h>
#include <linux/device/driver.h>
#include <linux/errno.h>
#include <linux/list.h>
#include <linux/notifier.h>
#include <linux/slab.h>

#include <lx_bus.h>

/* devres.c's: frees a device's managed resources (drivers/base/base.h). */
int devres_release_all(struct device *dev);

struct lx_bus {
	struct list_head link;		/* on buses */
	const struct bus_type *bus;
	struct list_head devices;	/* lx_bus_node, in order added */
	struct list_head drivers;	/* lx_bus_node */
	struct blocking_notifier_head notifier;	/* BUS_NOTIFY_* */
};

/* A device or a driver on a bus's list. */
struct lx_bus_node {
	struct list_head link;
	void *item;			/* struct device / device_driver */
};

static LIST_HEAD(buses);

static struct lx_bus *bus_find(const struct bus_type *bus)
{
	struct lx_bus *b;

	list_for_each_entry(b, &buses, link)
		if (b->bus == bus)
			return b;
	return NULL;
}

static struct lx_bus_node *node_find(struct list_head *list, void *item)
{
	struct lx_bus_node *n;

	list_for_each_entry(n, list, link)
		if (n->item == item)
			return n;
	return NULL;
}

static int node_add(struct list_head *list, void *item)
{
	struct lx_bus_node *n = kmalloc(sizeof(*n), GFP_KERNEL);

	if (!n)
		return -ENOMEM;
	n->item = item;
	list_add_tail(&n->link, list);
	return 0;
}

static void node_del(struct list_head *list, void *item)
{
	struct lx_bus_node *n = node_find(list, item);

	if (n) {
		list_del(&n->link);
		kfree(n);
	}
}

/* Tell @dev's bus's notifier chain @event about @dev. */
static void notify(struct device *dev, unsigned long event)
{
	struct lx_bus *b = bus_find(dev->bus);

	if (b)
		blocking_notifier_call_chain(&b->notifier, event, dev);
}

/* Bind @dev to @drv if the bus matches them and the probe succeeds;
 * true when bound. */
static bool bind(struct device *dev, struct device_driver *drv)
{
	const struct bus_type *bus = dev->bus;
	int err;

	if (dev->driver || (bus->match && bus->match(dev, drv) <= 0))
		return false;
	dev->driver = drv;
	notify(dev, BUS_NOTIFY_BIND_DRIVER);
	if (bus->probe)
		err = bus->probe(dev);
	else
		err = drv->probe ? drv->probe(dev) : 0;
	if (!err) {
		notify(dev, BUS_NOTIFY_BOUND_DRIVER);
		return true;
	}
	devres_release_all(dev);
	dev->driver = NULL;
	notify(dev, BUS_NOTIFY_DRIVER_NOT_BOUND);
	if (err != -ENODEV && err != -ENXIO)
		pr_warn("%s %s: probe with driver %s failed with error %d\n",
			bus->name, dev_name(dev), drv->name, err);
	return false;
}

static void unbind(struct device *dev)
{
	struct device_driver *drv = dev->driver;

	if (!drv)
		return;
	notify(dev, BUS_NOTIFY_UNBIND_DRIVER);
	if (dev->bus->remove)
		dev->bus->remove(dev);
	else if (drv->remove)
		drv->remove(dev);
	devres_release_all(dev);
	dev->driver = NULL;
	notify(dev, BUS_NOTIFY_UNBOUND_DRIVER);
}

/* bus_register - make @bus known so that its drivers and devices bind:
 * 0; -EBUSY if it already is; -ENOMEM. */
int bus_register(struct bus_type *bus)
{
	struct lx_bus *b;

	if (bus_find(bus))
		return -EBUSY;
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	b->bus = bus;
	INIT_LIST_HEAD(&b->devices);
	INIT_LIST_HEAD(&b->drivers);
	BLOCKING_INIT_NOTIFIER_HEAD(&b->notifier);
	list_add_tail(&b->link, &buses);
	return 0;
}

/* bus_unregister - forget @bus; its drivers and devices must be gone
 * (a warning names the bus otherwise, and it stays). */
void bus_unregister(struct bus_type *bus)
{
	struct lx_bus *b = bus_find(bus);

	if (!b)
		return;
	if (WARN(!list_empty(&b->devices) || !list_empty(&b->drivers),
		 "bus %s unregistered with devices or drivers\n", bus->name))
		return;
	list_del(&b->link);
	kfree(b);
}

/*
 * driver_register - add @drv to its bus and bind it to every unbound
 * device there that it matches.  0; -EINVAL for a bus not registered;
 * -EBUSY for a driver registered twice; -ENOMEM.
 */
int driver_register(struct device_driver *drv)
{
	struct lx_bus *b = drv->bus ? bus_find(drv->bus) : NULL;
	struct lx_bus_node *n;
	int err;

	if (!b) {
		pr_err("linux-emu: driver %s: its bus is not registered\n",
		       drv->name);
		return -EINVAL;
	}
	if (node_find(&b->drivers, drv))
		return -EBUSY;
	err = node_add(&b->drivers, drv);
	if (err)
		return err;
	list_for_each_entry(n, &b->devices, link)
		bind(n->item, drv);
	return 0;
}

/* driver_unregister - unbind @drv from its devices, then take it off
 * its bus. */
void driver_unregister(struct device_driver *drv)
{
	struct lx_bus *b = drv->bus ? bus_find(drv->bus) : NULL;
	struct lx_bus_node *n;

	if (!b)
		return;
	list_for_each_entry(n, &b->devices, link) {
		struct device *dev = n->item;

		if (dev->driver == drv)
			unbind(dev);
	}
	node_del(&b->drivers, drv);
}

int lx_bus_device_add(struct device *dev)
{
	struct lx_bus *b = bus_find(dev->bus);
	struct lx_bus_node *n;
	int err;

	if (!b)
		return -EINVAL;
	err = node_add(&b->devices, dev);
	if (err)
		return err;
	notify(dev, BUS_NOTIFY_ADD_DEVICE);
	list_for_each_entry(n, &b->drivers, link)
		if (bind(dev, n->item))
			break;
	return 0;
}

void lx_bus_device_del(struct device *dev)
{
	struct lx_bus *b = bus_find(dev->bus);

	if (!b)
		return;
	notify(dev, BUS_NOTIFY_DEL_DEVICE);
	unbind(dev);
	node_del(&b->devices, dev);
	notify(dev, BUS_NOTIFY_REMOVED_DEVICE);
}

/*
 * device_attach - bind @dev, on a registered bus, to the first of its
 * bus's drivers that matches and probes it: 1 if it is bound (or was
 * already), 0 if no driver took it; -ENODEV if its bus is not
 * registered here (PCI, platform: their own files bind).
 */
int device_attach(struct device *dev)
{
	struct lx_bus *b = bus_find(dev->bus);
	struct lx_bus_node *n;

	if (!b)
		return -ENODEV;
	if (dev->driver)
		return 1;
	list_for_each_entry(n, &b->drivers, link)
		if (bind(dev, n->item))
			return 1;
	return 0;
}

/*
 * bus_register_notifier - @nb hears BUS_NOTIFY_* events (the device as
 * data) of registered @bus, from the thread that adds, removes, binds
 * or unbinds the device.  0; -EINVAL if @bus is not registered here.
 */
int bus_register_notifier(struct bus_type *bus, struct notifier_block *nb)
{
	struct lx_bus *b = bus_find(bus);

	if (!b)
		return -EINVAL;
	return blocking_notifier_chain_register(&b->notifier, nb);
}

/* bus_unregister_notifier - @nb hears no more; 0, -ENOENT if it was not
 * registered, -EINVAL if @bus is not registered here. */
int bus_unregister_notifier(struct bus_type *bus, struct notifier_block *nb)
{
	struct lx_bus *b = bus_find(bus);

	if (!b)
		return -EINVAL;
	return blocking_notifier_chain_unregister(&b->notifier, nb);
}

/*
 * bus_find_device - the first device of registered @bus, after @start
 * (NULL: from the first), for which @match(dev, @data) is true, with a
 * reference taken (put_device it); NULL if none, or @bus is not
 * registered here (PCI, platform).
 */
struct device *bus_find_device(struct bus_type *bus, struct device *start,
			       const void *data,
			       int (*match)(struct device *dev,
					    const void *data))
{
	struct lx_bus *b = bus_find(bus);
	struct lx_bus_node *n;
	bool after = !start;

	if (!b)
		return NULL;
	list_for_each_entry(n, &b->devices, link) {
		if (!after) {
			after = n->item == start;
			continue;
		}
		if (match(n->item, data))
			return get_device(n->item);
	}
	return NULL;
}

/* What bus_for_each_dev or _drv calls on each item after @start. */
struct bus_walk {
	const void *start;
	void *data;
	int (*dev)(struct device *dev, void *data);
	int (*drv)(struct device_driver *drv, void *data);
};

static int bus_walk(struct list_head *items, const struct bus_walk *w)
{
	struct lx_bus_node *n, *next;
	bool after = !w->start;
	int err;

	list_for_each_entry_safe(n, next, items, link) {
		if (!after) {
			after = n->item == w->start;
			continue;
		}
		err = w->dev ? w->dev(n->item, w->data) :
			       w->drv(n->item, w->data);
		if (err)
			return err;
	}
	return 0;
}

/*
 * bus_for_each_dev - @fn(dev, @data) for each device of registered @bus
 * in the order added, after @start (NULL: from the first), until @fn
 * answers non-zero: that answer, else 0.  @fn may remove the device it
 * is given, no other.  -EINVAL if @bus is not registered here (PCI,
 * platform).
 */
int bus_for_each_dev(struct bus_type *bus, struct device *start, void *data,
		     int (*fn)(struct device *dev, void *data))
{
	struct lx_bus *b = bus_find(bus);
	const struct bus_walk w = { start, data, fn, NULL };

	return b ? bus_walk(&b->devices, &w) : -EINVAL;
}

/* bus_for_each_drv - as bus_for_each_dev, over @bus's drivers in the
 * order registered (@fn may unregister the driver it is given). */
int bus_for_each_drv(struct bus_type *bus, struct device_driver *start,
		     void *data, int (*fn)(struct device_driver *, void *))
{
	struct lx_bus *b = bus_find(bus);
	const struct bus_walk w = { start, data, NULL, fn };

	return b ? bus_walk(&b->drivers, &w) : -EINVAL;
}

/*
 * device_bind_driver - bind @dev to the driver its caller set in
 * dev->driver without probing (phylib's generic PHY driver): from then
 * on it is unbound as a probed device is (its remove on
 * device_release_driver or driver_unregister).  0; -EINVAL without a
 * driver, for a driver of another bus, or a bus not registered here
 * (PCI, platform: their own files bind).
 */
int device_bind_driver(struct device *dev)
{
	struct device_driver *drv = dev->driver;
	struct lx_bus *b = bus_find(dev->bus);

	if (!drv || !b || drv->bus != dev->bus ||
	    !node_find(&b->drivers, drv) || !node_find(&b->devices, dev))
		return -EINVAL;
	return 0;
}

/*
 * device_release_driver - unbind @dev from its driver, if it has one:
 * the bus's remove, else the driver's, then its managed resources
 * released.  A device of a bus not registered here (PCI, platform) is
 * not implemented: named, then BUG.
 */
void device_release_driver(struct device *dev)
{
	if (!dev->driver)
		return;
	if (!bus_find(dev->bus)) {
		pr_err("linux-emu: device_release_driver of %s on bus %s is not implemented\n",
		       dev_name(dev), dev->bus ? dev->bus->name : "(none)");
		BUG();
	}
	unbind(dev);
}
