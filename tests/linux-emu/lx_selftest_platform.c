/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks of the linux-pci suite for the platform bus (linux-emu/lx_platform.c): the board's ISA devices, binding by name or ID table, resources, unregister. */
#include <linux/dma-mapping.h>
#include <linux/ioport.h>
#include <linux/mod_devicetable.h>
#include <linux/platform_device.h>
#include <linux/string.h>

#include <lx_emul.h>
#include <lx_world.h>

#include "lx_selftest_platform.h"
#include "lx_selftest_check.h"

/* Ports no device of QEMU's pc machine (nor the suite's) decodes. */
#define TEST_IO		0x280
#define TEST_LEN	0x20

static struct {
	struct platform_device *pdev;
	int probes, removes, bad;	/* bad: line of a failed check */
	int irq;
} seen;

static int test_probe(struct platform_device *pdev)
{
	struct resource *io = platform_get_resource(pdev, IORESOURCE_IO, 0);

	seen.probes++;
	seen.pdev = pdev;
	if (!io || io->start != TEST_IO || io->end != TEST_IO + TEST_LEN - 1)
		seen.bad = __LINE__;
	else if (platform_get_resource(pdev, IORESOURCE_IO, 1) ||
		 platform_get_resource(pdev, IORESOURCE_MEM, 0))
		seen.bad = __LINE__;
	else if (strcmp(dev_name(&pdev->dev), "lx_plat_test.0"))
		seen.bad = __LINE__;
	seen.irq = platform_get_irq(pdev, 0);
	return 0;
}

static int test_remove(struct platform_device *pdev)
{
	seen.removes++;
	return 0;
}

static struct platform_driver test_driver = {
	.remove = test_remove,
	.driver = { .name = "lx_plat_test" },
};

static struct platform_driver absent_driver = {
	.driver = { .name = "lx_plat_absent" },
};

static int refusing_probe(struct platform_device *pdev)
{
	seen.probes++;
	seen.pdev = pdev;
	return -ENODEV;
}

static int bind(void *arg)
{
	CHECK(platform_driver_probe(&test_driver, test_probe) == 0);
	CHECK(seen.probes == 1 && !seen.bad);
	CHECK(!strcmp(dev_driver_string(&seen.pdev->dev), "lx_plat_test"));
	/* No IRQ resource: the driver must find its line itself. */
	CHECK(seen.irq == -ENXIO);
	CHECK(seen.pdev->dev.driver == &test_driver.driver);
	/* Bound already: a second driver of the name finds nothing. */
	CHECK(platform_driver_probe(&test_driver, refusing_probe) == -ENODEV);
	CHECK(seen.probes == 1);
	CHECK(platform_driver_probe(&absent_driver, refusing_probe) ==
	      -ENODEV);
	platform_device_unregister(seen.pdev);
	CHECK(seen.removes == 1);
	return 0;
}

static int refuse(void *arg)
{
	CHECK(platform_driver_probe(&test_driver, refusing_probe) == -ENODEV);
	CHECK(seen.probes == 1 && seen.pdev && !seen.pdev->dev.driver);
	/* Unbound after the refusal: unregister calls no remove. */
	platform_device_unregister(seen.pdev);
	CHECK(seen.removes == 0);
	return 0;
}

static const struct platform_device_id test_ids[] = {
	{ .name = "lx_plat_other" },
	{ .name = "lx_plat_test", .driver_data = 7 },
	{ }
};

static int id_probe(struct platform_device *pdev)
{
	seen.probes++;
	seen.pdev = pdev;
	if (!pdev->id_entry || pdev->id_entry->driver_data != 7)
		seen.bad = __LINE__;
	return 0;
}

static struct platform_driver id_driver = {
	.probe = id_probe,
	.remove = test_remove,
	.id_table = test_ids,
	.driver = { .name = "lx_plat_by_id" },
};

static struct platform_driver name_driver = {
	.probe = refusing_probe,
	.driver = { .name = "lx_plat_nobody" },
};

/* platform_driver_register: bound through the ID table, 0 even where
 * nothing matches; unregistering removes. */
static int registered(void *arg)
{
	CHECK(platform_driver_register(&name_driver) == 0);
	CHECK(seen.probes == 0);
	CHECK(platform_driver_register(&id_driver) == 0);
	CHECK(seen.probes == 1 && !seen.bad);
	CHECK(seen.pdev->dev.driver == &id_driver.driver);
	platform_driver_unregister(&id_driver);
	CHECK(seen.removes == 1 && !seen.pdev->dev.driver &&
	      !seen.pdev->id_entry);
	platform_driver_unregister(&name_driver);
	platform_device_unregister(seen.pdev);
	CHECK(seen.removes == 1);
	return 0;
}

static int late_probe(struct platform_device *pdev)
{
	int *data = dev_get_platdata(&pdev->dev);
	struct resource *io = platform_get_resource(pdev, IORESOURCE_IO, 0);

	seen.probes++;
	seen.pdev = pdev;
	if (!data || *data != 42 || !io || io->start != TEST_IO ||
	    strcmp(dev_name(&pdev->dev), "lx_plat_late"))
		seen.bad = __LINE__;
	return 0;
}

static struct platform_driver late_driver = {
	.probe = late_probe,
	.remove = test_remove,
	.driver = { .name = "lx_plat_late" },
};

/* platform_device_register_full: a device added after its driver is
 * bound to it, with copies of its resources and data; ports partly
 * taken are refused. */
static int added_late(void *arg)
{
	static int data = 42;
	struct resource res = DEFINE_RES_IO(TEST_IO, TEST_LEN);
	struct platform_device_info info = {
		.name = "lx_plat_late", .id = PLATFORM_DEVID_NONE,
		.res = &res, .num_res = 1,
		.data = &data, .size_data = sizeof(data),
	};
	struct platform_device *pdev, *twin;

	CHECK(platform_driver_register(&late_driver) == 0);
	pdev = platform_device_register_full(&info);
	CHECK(!IS_ERR(pdev));
	CHECK(seen.probes == 1 && !seen.bad && seen.pdev == pdev);
	CHECK(dev_get_platdata(&pdev->dev) != &data);	/* a copy */
	/* Ports partly the first's (the same ones would nest, as Linux's
	 * insert_resource lets them). */
	res = (struct resource)DEFINE_RES_IO(TEST_IO - 0x10, TEST_LEN);
	twin = platform_device_register_full(&info);
	CHECK(PTR_ERR(twin) == -EBUSY);
	info.name = NULL;
	CHECK(PTR_ERR(platform_device_register_full(&info)) == -EINVAL);
	platform_device_unregister(pdev);
	CHECK(seen.removes == 1);
	platform_driver_unregister(&late_driver);
	return 0;
}

static int own_releases;

static void own_release(struct device *dev)
{
	own_releases++;
}

static int own_probe(struct platform_device *pdev)
{
	struct resource *io = platform_get_resource(pdev, IORESOURCE_IO, 0);

	seen.probes++;
	seen.pdev = pdev;
	if (!io || io->start != TEST_IO || *pdev->dev.dma_mask !=
	    DMA_BIT_MASK(32) || strcmp(dev_name(&pdev->dev), "lx_plat_own.3"))
		seen.bad = __LINE__;
	return 0;
}

static struct platform_driver own_driver = {
	.probe = own_probe,
	.remove = test_remove,
	.driver = { .name = "lx_plat_own" },
};

/* platform_device_register: a device its driver made itself (static
 * here, as the floppy driver's) is named NAME.ID, gets a 32-bit DMA
 * mask, is bound, and at unregister goes back through its dev.release;
 * one on ports partly its own, and an automatic id, are refused. */
static int registered_own(void *arg)
{
	static struct resource res = DEFINE_RES_IO(TEST_IO, TEST_LEN);
	static struct platform_device own = {
		.name = "lx_plat_own", .id = 3,
		.resource = &res, .num_resources = 1,
		.dev = { .release = own_release },
	};
	static struct resource twin_res = DEFINE_RES_IO(TEST_IO - 0x10, TEST_LEN);
	static struct platform_device twin = {
		.name = "lx_plat_own", .id = 4,
		.resource = &twin_res, .num_resources = 1,
	};
	static struct platform_device automatic = {
		.name = "lx_plat_own", .id = PLATFORM_DEVID_AUTO,
	};

	own_releases = 0;
	CHECK(platform_driver_register(&own_driver) == 0);
	CHECK(platform_device_register(&own) == 0);
	CHECK(seen.probes == 1 && !seen.bad && seen.pdev == &own);
	CHECK(own.dev.driver == &own_driver.driver);
	CHECK(platform_device_register(&twin) == -EBUSY);
	CHECK(platform_device_register(&automatic) == -EINVAL);
	platform_device_unregister(&own);
	CHECK(seen.removes == 1);
	CHECK(own_releases == 1);
	CHECK(res.parent == NULL);		/* its ports are free again */
	platform_driver_unregister(&own_driver);
	return 0;
}

int lx_emul_selftest_platform_bus(void)
{
	int line;

	memset(&seen, 0, sizeof(seen));
	CHECK(lx_emul_platform_isa_add("lx_plat_test", 0, TEST_IO, 0) ==
	      -EINVAL);
	CHECK(lx_emul_platform_isa_add("lx_plat_test", 0, 0xfff0, TEST_LEN) ==
	      -EINVAL);
	CHECK(lx_emul_platform_isa_add("lx_plat_test", 0, TEST_IO,
				       TEST_LEN) == 0);
	/* Ports partly another device's. */
	CHECK(lx_emul_platform_isa_add("lx_plat_test", 1, TEST_IO - 0x10,
				       TEST_LEN) == -EBUSY);
	line = lx_world_run(bind, NULL);
	if (line)
		return line;
	/* Unregistered: its ports are free again. */
	memset(&seen, 0, sizeof(seen));
	CHECK(lx_emul_platform_isa_add("lx_plat_test", 0, TEST_IO,
				       TEST_LEN) == 0);
	line = lx_world_run(refuse, NULL);
	if (line)
		return line;
	memset(&seen, 0, sizeof(seen));
	CHECK(lx_emul_platform_isa_add("lx_plat_test", 0, TEST_IO,
				       TEST_LEN) == 0);
	line = lx_world_run(registered, NULL);
	if (line)
		return line;
	memset(&seen, 0, sizeof(seen));
	line = lx_world_run(added_late, NULL);
	if (line)
		return line;
	memset(&seen, 0, sizeof(seen));
	return lx_world_run(registered_own, NULL);
}
