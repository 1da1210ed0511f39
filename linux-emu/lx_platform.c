/* SPDX-License-Identifier: GPL-2.0-only */
/* The platform bus for ISA cards the board describes: lx_emul_platform_isa_add, __platform_driver_probe, __platform_driver_register, platform_driver_unregister, platform_device_register(_full), platform_get_resource(_byname)/_irq(_byname, _optional), devm_platform_(get_and_)ioremap_resource, platform_device_unregister. */
/*
 * Linux on a PC learns of ISA cards from the board code or the command
 * line, never by enumeration; here the host plays the board and adds one
 * platform device per card (lx_emul_platform_isa_add, before the
 * initcalls): an I/O port resource and, deliberately, no IRQ resource,
 * so a driver that can (ISA ne) finds its line by autoIRQ.
 * __platform_driver_probe then binds a driver to the devices of its name,
 * as Linux's platform_driver_probe does; with none bound it answers
 * -ENODEV (ne's initcall on a machine without the card).
 * __platform_driver_register binds a driver to the devices its ID table
 * or its name matches and succeeds whether or not any is there, as
 * Linux's platform_driver_register; a device a driver adds later
 * (platform_device_register_full) is bound to the registered drivers.
 */
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/mod_devicetable.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include <lx_emul.h>
#include <lx_world.h>

#define LX_PLATFORM_DEVICES	8
#define LX_PLATFORM_DRIVERS	16
#define LX_PLATFORM_NAME_MAX	32	/* "ne.0" */

static struct platform_device *devices[LX_PLATFORM_DEVICES];
/* devices[i] is its driver's (platform_device_register): its memory is
 * given back by its dev.release, not freed here */
static bool drivers_own[LX_PLATFORM_DEVICES];
static struct platform_driver *drivers[LX_PLATFORM_DRIVERS];

static void release(struct platform_device *pdev)
{
	u32 i;

	for (i = 0; i < pdev->num_resources; i++)
		if (pdev->resource[i].parent)
			release_resource(&pdev->resource[i]);
	kfree(pdev->dev.platform_data);
	kfree(pdev->dev.kobj.name);
	kfree(pdev->resource);
	kfree(pdev);
}

static int isa_add(const char *name, int id, unsigned long io,
		   unsigned long len)
{
	struct platform_device *pdev;
	struct resource *res;
	char *dev_name;
	int slot, err;

	if (!len || io + len - 1 > IO_SPACE_LIMIT || io + len < io)
		return -EINVAL;
	for (slot = 0; slot < LX_PLATFORM_DEVICES && devices[slot]; slot++)
		;
	if (slot == LX_PLATFORM_DEVICES)
		return -EBUSY;
	pdev = kzalloc(sizeof(*pdev), GFP_KERNEL);
	res = kzalloc(sizeof(*res), GFP_KERNEL);
	dev_name = kmalloc(LX_PLATFORM_NAME_MAX, GFP_KERNEL);
	if (!pdev || !res || !dev_name) {
		kfree(pdev);
		kfree(res);
		kfree(dev_name);
		return -ENOMEM;
	}
	snprintf(dev_name, LX_PLATFORM_NAME_MAX, "%s.%d", name, id);
	pdev->name = name;
	pdev->id = id;
	pdev->dev.kobj.name = dev_name;
	INIT_LIST_HEAD(&pdev->dev.devres_head);
	spin_lock_init(&pdev->dev.devres_lock);
	res->name = dev_name;
	res->start = io;
	res->end = io + len - 1;
	res->flags = IORESOURCE_IO;
	pdev->resource = res;
	pdev->num_resources = 1;
	/* As platform_device_add: the card's ports, not yet busy (the
	 * driver's request_region nests inside). */
	err = insert_resource(&ioport_resource, res);
	if (err) {
		pr_err("platform %s: ports %#lx-%#lx conflict (%d)\n",
		       dev_name, io, io + len - 1, err);
		release(pdev);
		return -EBUSY;
	}
	devices[slot] = pdev;
	return 0;
}

int lx_emul_platform_isa_add(const char *name, int id, unsigned long io,
			     unsigned long len)
{
	int err;

	lx_world_enter();
	err = isa_add(name, id, io, len);
	lx_world_leave();
	return err;
}

int __platform_driver_probe(struct platform_driver *drv,
			    int (*probe)(struct platform_device *),
			    struct module *module)
{
	int i, err, bound = 0;

	for (i = 0; i < LX_PLATFORM_DEVICES; i++) {
		struct platform_device *pdev = devices[i];

		if (!pdev || pdev->dev.driver ||
		    strcmp(pdev->name, drv->driver.name))
			continue;
		pdev->dev.driver = &drv->driver;
		err = probe(pdev);
		if (err) {
			pdev->dev.driver = NULL;
			pr_info("platform %s: probe of %s failed (%d)\n",
				dev_name(&pdev->dev), drv->driver.name, err);
			continue;
		}
		bound++;
	}
	return bound ? 0 : -ENODEV;
}

/* devres.c's: frees a device's managed resources (drivers/base/base.h). */
int devres_release_all(struct device *dev);

/* The entry of @id (ended by an empty name) naming @pdev, or NULL. */
static const struct platform_device_id *
match_id(const struct platform_device_id *id, struct platform_device *pdev)
{
	for (; id && id->name[0]; id++)
		if (!strcmp(pdev->name, id->name))
			return id;
	return NULL;
}

/* Probe @drv on unbound @pdev if it matches (its id_table's names, or
 * else its name); a failed probe leaves @pdev unbound and its managed
 * resources released, as in Linux. */
static void bind(struct platform_device *pdev, struct platform_driver *drv)
{
	const struct platform_device_id *id;
	int err;

	if (pdev->dev.driver)
		return;
	id = match_id(drv->id_table, pdev);
	if (!id && (drv->id_table || strcmp(pdev->name, drv->driver.name)))
		return;
	pdev->id_entry = id;
	pdev->dev.driver = &drv->driver;
	err = drv->probe ? drv->probe(pdev) : 0;
	if (err) {
		devres_release_all(&pdev->dev);
		pdev->dev.driver = NULL;
		pdev->id_entry = NULL;
		pr_info("platform %s: probe of %s failed (%d)\n",
			dev_name(&pdev->dev), drv->driver.name, err);
	}
}

/*
 * __platform_driver_register - register @drv of @owner and bind it to
 * each unbound device it matches (bind()), and to those added later.
 * 0, whether or not any matched; -ENOSPC (with a console line) beyond
 * LX_PLATFORM_DRIVERS drivers.
 */
int __platform_driver_register(struct platform_driver *drv,
			       struct module *owner)
{
	int i, slot;

	for (slot = 0; slot < LX_PLATFORM_DRIVERS && drivers[slot]; slot++)
		;
	if (slot == LX_PLATFORM_DRIVERS) {
		pr_err("linux-emu: no room for platform driver %s\n",
		       drv->driver.name);
		return -ENOSPC;
	}
	drv->driver.owner = owner;
	drivers[slot] = drv;
	for (i = 0; i < LX_PLATFORM_DEVICES; i++)
		if (devices[i])
			bind(devices[i], drv);
	return 0;
}

/* platform_driver_unregister - remove @drv from the devices it is bound
 * to (their managed resources released). */
void platform_driver_unregister(struct platform_driver *drv)
{
	int i;

	for (i = 0; i < LX_PLATFORM_DEVICES; i++) {
		struct platform_device *pdev = devices[i];

		if (!pdev || pdev->dev.driver != &drv->driver)
			continue;
		if (drv->remove)
			drv->remove(pdev);
		devres_release_all(&pdev->dev);
		pdev->dev.driver = NULL;
		pdev->id_entry = NULL;
	}
	for (i = 0; i < LX_PLATFORM_DRIVERS; i++)
		if (drivers[i] == drv)
			drivers[i] = NULL;
}

/* A platform device and its name, freed together (release()). */
struct lx_platform_object {
	struct platform_device pdev;
	char name[];
};

/* Add @pdev's memory and port resources to the trees (named after it
 * if unnamed).  0 or -EBUSY (a conflict: those added taken back). */
static int resources_insert(struct platform_device *pdev)
{
	u32 i;

	for (i = 0; i < pdev->num_resources; i++) {
		struct resource *r = &pdev->resource[i];
		struct resource *tree = resource_type(r) == IORESOURCE_MEM ?
			&iomem_resource : resource_type(r) == IORESOURCE_IO ?
			&ioport_resource : NULL;

		if (!r->name)
			r->name = dev_name(&pdev->dev);
		if (tree && insert_resource(tree, r)) {
			pr_err("platform %s: resource %pR conflicts\n",
			       dev_name(&pdev->dev), r);
			while (i--)
				if (pdev->resource[i].parent)
					release_resource(&pdev->resource[i]);
			return -EBUSY;
		}
	}
	return 0;
}

/*
 * platform_device_register_full - a platform device as @info describes
 * it (name, id, parent, copies of its resources and platform data, DMA
 * mask), its resources added to the trees, bound to a registered driver
 * that matches.  The device, or ERR_PTR: -EINVAL (no name, an automatic
 * id: not implemented), -ENOMEM, -EBUSY (a resource conflicts), -ENOSPC
 * (LX_PLATFORM_DEVICES devices already).
 */
struct platform_device *
platform_device_register_full(const struct platform_device_info *info)
{
	struct lx_platform_object *obj;
	struct platform_device *pdev;
	int slot, i, err;

	if (!info->name || info->id == PLATFORM_DEVID_AUTO)
		return ERR_PTR(-EINVAL);
	for (slot = 0; slot < LX_PLATFORM_DEVICES && devices[slot]; slot++)
		;
	if (slot == LX_PLATFORM_DEVICES)
		return ERR_PTR(-ENOSPC);
	obj = kzalloc(struct_size(obj, name, strlen(info->name) + 1),
		      GFP_KERNEL);
	if (!obj)
		return ERR_PTR(-ENOMEM);
	pdev = &obj->pdev;
	strcpy(obj->name, info->name);
	pdev->name = obj->name;
	pdev->id = info->id;
	pdev->dev.parent = info->parent;
	INIT_LIST_HEAD(&pdev->dev.devres_head);
	spin_lock_init(&pdev->dev.devres_lock);
	if (info->dma_mask) {
		pdev->platform_dma_mask = info->dma_mask;
		pdev->dev.dma_mask = &pdev->platform_dma_mask;
		pdev->dev.coherent_dma_mask = info->dma_mask;
	}
	err = info->id == PLATFORM_DEVID_NONE ?
		dev_set_name(&pdev->dev, "%s", info->name) :
		dev_set_name(&pdev->dev, "%s.%d", info->name, info->id);
	if (!err && info->num_res) {
		pdev->resource = kmemdup(info->res, info->num_res *
					 sizeof(*info->res), GFP_KERNEL);
		err = pdev->resource ? 0 : -ENOMEM;
		for (i = 0; !err && i < info->num_res; i++)
			pdev->resource[i].parent = NULL;
	}
	if (!err && info->data) {
		pdev->dev.platform_data = kmemdup(info->data, info->size_data,
						  GFP_KERNEL);
		err = pdev->dev.platform_data ? 0 : -ENOMEM;
	}
	if (!err) {
		pdev->num_resources = info->num_res;
		err = resources_insert(pdev);
	}
	if (err) {
		release(pdev);
		return ERR_PTR(err);
	}
	devices[slot] = pdev;
	for (i = 0; i < LX_PLATFORM_DRIVERS; i++)
		if (drivers[i])
			bind(pdev, drivers[i]);
	return pdev;
}

/*
 * platform_device_register - @pdev, which its caller made (name, id,
 * resources), joins the bus: named "NAME.ID" (or NAME for
 * PLATFORM_DEVID_NONE), a 32-bit DMA mask unless it has one, its
 * resources added to the trees, bound to a registered driver that
 * matches.  0; -EINVAL (no name, or an automatic id: not implemented),
 * -ENOMEM, -EBUSY (a resource conflicts), -ENOSPC (LX_PLATFORM_DEVICES
 * devices already).
 */
int platform_device_register(struct platform_device *pdev)
{
	int slot, i, err;

	if (!pdev->name || pdev->id == PLATFORM_DEVID_AUTO)
		return -EINVAL;
	for (slot = 0; slot < LX_PLATFORM_DEVICES && devices[slot]; slot++)
		;
	if (slot == LX_PLATFORM_DEVICES)
		return -ENOSPC;
	INIT_LIST_HEAD(&pdev->dev.devres_head);
	spin_lock_init(&pdev->dev.devres_lock);
	if (!pdev->dev.coherent_dma_mask)
		pdev->dev.coherent_dma_mask = DMA_BIT_MASK(32);
	if (!pdev->dev.dma_mask) {
		pdev->platform_dma_mask = DMA_BIT_MASK(32);
		pdev->dev.dma_mask = &pdev->platform_dma_mask;
	}
	err = pdev->id == PLATFORM_DEVID_NONE ?
		dev_set_name(&pdev->dev, "%s", pdev->name) :
		dev_set_name(&pdev->dev, "%s.%d", pdev->name, pdev->id);
	if (!err)
		err = resources_insert(pdev);
	if (err) {
		kfree(pdev->dev.kobj.name);
		pdev->dev.kobj.name = NULL;
		return err;
	}
	devices[slot] = pdev;
	drivers_own[slot] = true;
	for (i = 0; i < LX_PLATFORM_DRIVERS; i++)
		if (drivers[i])
			bind(pdev, drivers[i]);
	return 0;
}

struct resource *platform_get_resource(struct platform_device *pdev,
				       unsigned int type, unsigned int num)
{
	u32 i;

	for (i = 0; i < pdev->num_resources; i++) {
		struct resource *r = &pdev->resource[i];

		if (resource_type(r) == type && num-- == 0)
			return r;
	}
	return NULL;
}

/* platform_get_irq_optional - the line of IRQ resource @num, or -ENXIO
 * without one (quietly: the caller can do without). */
int platform_get_irq_optional(struct platform_device *pdev, unsigned int num)
{
	struct resource *r = platform_get_resource(pdev, IORESOURCE_IRQ, num);

	return r && r->start ? r->start : -ENXIO;
}

int platform_get_irq(struct platform_device *pdev, unsigned int num)
{
	int irq = platform_get_irq_optional(pdev, num);

	/* As Linux's: a device without the line says so. */
	if (irq < 0)
		dev_err(&pdev->dev, "IRQ index %u not found\n", num);
	return irq;
}

/* platform_get_resource_byname - @pdev's resource of @type named @name,
 * or NULL. */
struct resource *platform_get_resource_byname(struct platform_device *pdev,
					      unsigned int type,
					      const char *name)
{
	u32 i;

	for (i = 0; i < pdev->num_resources; i++) {
		struct resource *r = &pdev->resource[i];

		if (resource_type(r) == type && r->name && name &&
		    !strcmp(r->name, name))
			return r;
	}
	return NULL;
}

/* platform_get_irq_byname - the line of the IRQ resource named @name, or
 * -ENXIO (printed). */
int platform_get_irq_byname(struct platform_device *pdev, const char *name)
{
	struct resource *r;

	r = platform_get_resource_byname(pdev, IORESOURCE_IRQ, name);
	if (r && r->start)
		return r->start;
	dev_err(&pdev->dev, "IRQ %s not found\n", name);
	return -ENXIO;
}

/*
 * devm_platform_get_and_ioremap_resource - map memory resource @index of
 * @pdev, requested and mapped for as long as the device is bound
 * (devm_ioremap_resource); the resource in *@res if @res.  The mapping,
 * or an ERR_PTR: -EINVAL without the resource, -EBUSY if it is taken,
 * -ENOMEM.
 */
void __iomem *devm_platform_get_and_ioremap_resource(
	struct platform_device *pdev, unsigned int index,
	struct resource **res)
{
	struct resource *r = platform_get_resource(pdev, IORESOURCE_MEM,
						   index);

	if (res)
		*res = r;
	return devm_ioremap_resource(&pdev->dev, r);
}

/* devm_platform_ioremap_resource - the same without the resource. */
void __iomem *devm_platform_ioremap_resource(struct platform_device *pdev,
					     unsigned int index)
{
	return devm_platform_get_and_ioremap_resource(pdev, index, NULL);
}

/* platform_device_unregister - @pdev leaves the bus (its driver's
 * remove first): freed if the board or platform_device_register_full
 * made it, else handed to its dev.release.  NULL: nothing. */
void platform_device_unregister(struct platform_device *pdev)
{
	int i;

	if (!pdev)
		return;
	for (i = 0; i < LX_PLATFORM_DEVICES && devices[i] != pdev; i++)
		;
	if (i == LX_PLATFORM_DEVICES) {
		pr_err("%s: %s was not registered\n", __func__,
		       dev_name(&pdev->dev));
		return;
	}
	if (pdev->dev.driver) {
		struct platform_driver *drv;

		drv = to_platform_driver(pdev->dev.driver);
		if (drv->remove)
			drv->remove(pdev);
		pdev->dev.driver = NULL;
	}
	devices[i] = NULL;
	if (!drivers_own[i]) {
		release(pdev);
		return;
	}
	drivers_own[i] = false;
	for (u32 r = 0; r < pdev->num_resources; r++)
		if (pdev->resource[r].parent)
			release_resource(&pdev->resource[r]);
	kfree(pdev->dev.kobj.name);
	pdev->dev.kobj.name = NULL;
	if (pdev->dev.release)
		pdev->dev.release(&pdev->dev);
}
