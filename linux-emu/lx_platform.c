/* SPDX-License-Identifier: GPL-2.0-only */
/* The platform bus for ISA cards the board describes: lx_emul_platform_isa_add, __platform_driver_probe, __platform_driver_register, platform_driver_unregister, platform_get_resource(_byname)/_irq(_byname, _optional), devm_platform_(get_and_)ioremap_resource, platform_device_unregister. */
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
 * Linux's platform_driver_register; every device is added before the
 * initcalls, so none comes after its driver.
 */
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/mod_devicetable.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include <lx_emul.h>
#include <lx_world.h>

#define LX_PLATFORM_DEVICES	4
#define LX_PLATFORM_NAME_MAX	32	/* "ne.0" */

static struct platform_device *devices[LX_PLATFORM_DEVICES];

static void release(struct platform_device *pdev)
{
	if (pdev->resource[0].parent)
		release_resource(&pdev->resource[0]);
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

/* The entry of @id (ended by an empty name) naming @pdev, or NULL. */
static const struct platform_device_id *
match_id(const struct platform_device_id *id, struct platform_device *pdev)
{
	for (; id && id->name[0]; id++)
		if (!strcmp(pdev->name, id->name))
			return id;
	return NULL;
}

/*
 * __platform_driver_register - register @drv of @owner and probe it on
 * each unbound device it matches (its id_table's names, or else its
 * name).  0; a failed probe leaves that device unbound, as in Linux.
 */
int __platform_driver_register(struct platform_driver *drv,
			       struct module *owner)
{
	int i, err;

	drv->driver.owner = owner;
	for (i = 0; i < LX_PLATFORM_DEVICES; i++) {
		struct platform_device *pdev = devices[i];
		const struct platform_device_id *id;

		if (!pdev || pdev->dev.driver)
			continue;
		id = match_id(drv->id_table, pdev);
		if (!id && (drv->id_table || strcmp(pdev->name,
						    drv->driver.name)))
			continue;
		pdev->id_entry = id;
		pdev->dev.driver = &drv->driver;
		err = drv->probe ? drv->probe(pdev) : 0;
		if (err) {
			pdev->dev.driver = NULL;
			pdev->id_entry = NULL;
			pr_info("platform %s: probe of %s failed (%d)\n",
				dev_name(&pdev->dev), drv->driver.name, err);
		}
	}
	return 0;
}

/* platform_driver_unregister - remove @drv from the devices it is bound
 * to. */
void platform_driver_unregister(struct platform_driver *drv)
{
	int i;

	for (i = 0; i < LX_PLATFORM_DEVICES; i++) {
		struct platform_device *pdev = devices[i];

		if (!pdev || pdev->dev.driver != &drv->driver)
			continue;
		if (drv->remove)
			drv->remove(pdev);
		pdev->dev.driver = NULL;
		pdev->id_entry = NULL;
	}
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
	release(pdev);
}
