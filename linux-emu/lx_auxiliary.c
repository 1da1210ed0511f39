/* SPDX-License-Identifier: GPL-2.0-only */
/* The auxiliary bus: auxiliary_device_init/_add, auxiliary_find_device, auxiliary_driver_register/_unregister. */
/*
 * A driver splits a function into parts that other drivers bind
 * (mlxsw's line cards): a device is named "MODNAME.NAME.ID" and binds
 * the driver whose ID table holds "MODNAME.NAME".  The bus is one of
 * lx_bus.c's, registered when the world starts (lx_auxiliary_init), so
 * binding, unbinding and lookups are lx_bus.c's.  Linux's
 * drivers/base/auxiliary.c is not compiled: it needs
 * CONFIG_AUXILIARY_BUS, which only the drivers that use the bus select.
 * No PM domains and no uevents: a probe is the driver's probe alone.
 * Callers hold the world; registering and adding may sleep (probes).
 */
#include <linux/auxiliary_bus.h>
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <lx_bus.h>

/* The entry of @auxdrv's ID table naming @auxdev: its device name up to
 * the last '.'; NULL if none does. */
static const struct auxiliary_device_id *
id_of(const struct auxiliary_driver *auxdrv,
      const struct auxiliary_device *auxdev)
{
	const char *name = dev_name(&auxdev->dev);
	const char *dot = strrchr(name, '.');
	const struct auxiliary_device_id *id;

	if (!dot)
		return NULL;
	for (id = auxdrv->id_table; id->name[0]; id++)
		if (strlen(id->name) == dot - name &&
		    !strncmp(id->name, name, dot - name))
			return id;
	return NULL;
}

static int aux_match(struct device *dev, struct device_driver *drv)
{
	return id_of(to_auxiliary_drv(drv), to_auxiliary_dev(dev)) != NULL;
}

static int aux_probe(struct device *dev)
{
	struct auxiliary_driver *auxdrv = to_auxiliary_drv(dev->driver);
	struct auxiliary_device *auxdev = to_auxiliary_dev(dev);

	return auxdrv->probe(auxdev, id_of(auxdrv, auxdev));
}

static void aux_remove(struct device *dev)
{
	struct auxiliary_driver *auxdrv = to_auxiliary_drv(dev->driver);

	if (auxdrv->remove)
		auxdrv->remove(to_auxiliary_dev(dev));
}

static struct bus_type auxiliary_bus_type = {
	.name = "auxiliary",
	.match = aux_match,
	.probe = aux_probe,
	.remove = aux_remove,
};

int lx_auxiliary_init(void)
{
	return bus_register(&auxiliary_bus_type);
}

/*
 * auxiliary_device_init - initialize @auxdev (its parent and name set
 * by the caller) as a device of the auxiliary bus; auxiliary_device_uninit
 * drops it.  0; -EINVAL without a parent or a name.
 */
int auxiliary_device_init(struct auxiliary_device *auxdev)
{
	if (!auxdev->dev.parent) {
		pr_err("linux-emu: auxiliary device %s has no parent\n",
		       auxdev->name ?: "(unnamed)");
		return -EINVAL;
	}
	if (!auxdev->name) {
		pr_err("linux-emu: auxiliary device without a name\n");
		return -EINVAL;
	}
	auxdev->dev.bus = &auxiliary_bus_type;
	device_initialize(&auxdev->dev);
	return 0;
}

/*
 * __auxiliary_device_add - name @auxdev "@modname.NAME.ID" and add it,
 * bound to the first registered driver matching it.  0 (bound or not);
 * -EINVAL without @modname; device_add's errors (-EEXIST for a name in
 * use, -ENOMEM).
 */
int __auxiliary_device_add(struct auxiliary_device *auxdev,
			   const char *modname)
{
	struct device *dev = &auxdev->dev;
	int err;

	if (!modname) {
		pr_err("linux-emu: auxiliary device %s added without a module name\n",
		       auxdev->name);
		return -EINVAL;
	}
	err = dev_set_name(dev, "%s.%s.%u", modname, auxdev->name,
			   auxdev->id);
	if (!err)
		err = device_add(dev);
	if (err)
		pr_err("linux-emu: auxiliary device %s.%s.%u not added: %d\n",
		       modname, auxdev->name, auxdev->id, err);
	return err;
}

/*
 * auxiliary_find_device - the first auxiliary device after @start (NULL:
 * from the first) for which @match(dev, @data) is true, with a reference
 * (put_device it); NULL if none.
 */
struct auxiliary_device *
auxiliary_find_device(struct device *start, const void *data,
		      int (*match)(struct device *dev, const void *data))
{
	struct device *dev = bus_find_device(&auxiliary_bus_type, start, data,
					     match);

	return dev ? to_auxiliary_dev(dev) : NULL;
}

/*
 * __auxiliary_driver_register - register @auxdrv, named "@modname.NAME"
 * (or "@modname" without a name), and bind it to the added devices it
 * matches.  0; -EINVAL without a probe or an ID table (with a warning);
 * -ENOMEM; driver_register's errors (-EBUSY registered already).
 */
int __auxiliary_driver_register(struct auxiliary_driver *auxdrv,
				struct module *owner, const char *modname)
{
	int err;

	if (WARN_ON(!auxdrv->probe) || WARN_ON(!auxdrv->id_table))
		return -EINVAL;
	if (auxdrv->name)
		auxdrv->driver.name = kasprintf(GFP_KERNEL, "%s.%s", modname,
						auxdrv->name);
	else
		auxdrv->driver.name = kstrdup(modname, GFP_KERNEL);
	if (!auxdrv->driver.name)
		return -ENOMEM;
	auxdrv->driver.owner = owner;
	auxdrv->driver.bus = &auxiliary_bus_type;
	auxdrv->driver.mod_name = modname;
	err = driver_register(&auxdrv->driver);
	if (err) {
		kfree(auxdrv->driver.name);
		auxdrv->driver.name = NULL;
	}
	return err;
}

/* auxiliary_driver_unregister - unbind @auxdrv from its devices (its
 * remove) and take it off the bus. */
void auxiliary_driver_unregister(struct auxiliary_driver *auxdrv)
{
	driver_unregister(&auxdrv->driver);
	kfree(auxdrv->driver.name);
	auxdrv->driver.name = NULL;
}
