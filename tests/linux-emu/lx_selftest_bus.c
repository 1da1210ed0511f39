/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks of the linux-irq suite for buses: walking a bus's devices and drivers, binding and releasing a driver, device_attach and bus notifiers (lx_bus.c), the auxiliary bus (lx_auxiliary.c). */
#include <linux/auxiliary_bus.h>
#include <linux/device.h>
#include <linux/notifier.h>
#include <linux/string.h>

#include <lx_world.h>

#include "lx_selftest_bus.h"
#include "lx_selftest_check.h"

static void static_release(struct device *dev)
{
}

/* A bus of the test's own with two devices and two drivers, none of
 * which match (no probe runs). */
static int never_match(struct device *dev, struct device_driver *drv)
{
	return 0;
}

static struct bus_type walk_bus = {
	.name = "lx_walk",
	.match = never_match,
};
static struct bus_type unregistered_bus = { .name = "lx_nowhere" };
static struct device walk_dev[3];
static struct device_driver walk_drv[2] = {
	{ .name = "lx_walk_a", .bus = &walk_bus },
	{ .name = "lx_walk_b", .bus = &walk_bus },
};
static char walked[8];
static unsigned int nwalked;

/* Notes the device's last letter ("lx_walk0" -> '0'); stops (answers
 * 5) at @data. */
static int note_dev(struct device *dev, void *data)
{
	const char *name = dev_name(dev);

	walked[nwalked++] = name[strlen(name) - 1];
	return dev == data ? 5 : 0;
}

static int note_drv(struct device_driver *drv, void *data)
{
	walked[nwalked++] = drv->name[strlen(drv->name) - 1];
	return drv == data ? 6 : 0;
}

/* Forget what the last walk noted. */
static void walk_reset(void)
{
	memset(walked, 0, sizeof(walked));
	nwalked = 0;
}

static int walk_checks(void)
{
	int i;

	CHECK(bus_for_each_dev(&unregistered_bus, NULL, NULL, note_dev) ==
	      -EINVAL);
	CHECK(bus_for_each_drv(&unregistered_bus, NULL, NULL, note_drv) ==
	      -EINVAL);
	CHECK(bus_register(&walk_bus) == 0);
	for (i = 0; i < 3; i++) {
		device_initialize(&walk_dev[i]);
		walk_dev[i].bus = &walk_bus;
		walk_dev[i].release = static_release;
		CHECK(dev_set_name(&walk_dev[i], "lx_walk%d", i) == 0);
		CHECK(device_add(&walk_dev[i]) == 0);
	}
	for (i = 0; i < 2; i++)
		CHECK(driver_register(&walk_drv[i]) == 0);
	/* Every device in order, then from after a start, then stopped by
	 * the first non-zero answer. */
	walk_reset();
	CHECK(bus_for_each_dev(&walk_bus, NULL, NULL, note_dev) == 0);
	CHECK(!strcmp(walked, "012"));
	walk_reset();
	CHECK(bus_for_each_dev(&walk_bus, &walk_dev[0], NULL, note_dev) == 0);
	CHECK(!strcmp(walked, "12"));
	walk_reset();
	CHECK(bus_for_each_dev(&walk_bus, NULL, &walk_dev[1], note_dev) == 5);
	CHECK(!strcmp(walked, "01"));
	walk_reset();
	CHECK(bus_for_each_drv(&walk_bus, NULL, NULL, note_drv) == 0);
	CHECK(!strcmp(walked, "ab"));
	walk_reset();
	CHECK(bus_for_each_drv(&walk_bus, NULL, &walk_drv[0], note_drv) == 6);
	CHECK(!strcmp(walked, "a"));
	CHECK(!walk_dev[0].driver && !walk_dev[1].driver);
	for (i = 0; i < 2; i++)
		driver_unregister(&walk_drv[i]);
	for (i = 0; i < 3; i++)
		device_unregister(&walk_dev[i]);
	bus_unregister(&walk_bus);
	return 0;
}
IN_WORLD(bus_walk, walk_checks)

/* A bus whose driver takes every device: binding by probe, by
 * device_bind_driver, and releasing. */
static int probes, removes;

static int bind_probe(struct device *dev)
{
	probes++;
	return 0;
}

static int bind_remove(struct device *dev)
{
	removes++;
	return 0;
}

static struct bus_type bind_bus = { .name = "lx_bind" };
static struct device_driver bind_drv = {
	.name = "lx_bind_drv",
	.bus = &bind_bus,
	.probe = bind_probe,
	.remove = bind_remove,
};
static struct device bind_dev;

static int bind_checks(void)
{
	probes = removes = 0;
	CHECK(bus_register(&bind_bus) == 0);
	device_initialize(&bind_dev);
	bind_dev.bus = &bind_bus;
	bind_dev.release = static_release;
	CHECK(dev_set_name(&bind_dev, "lx_bind0") == 0);
	CHECK(device_add(&bind_dev) == 0);
	/* No driver set: nothing to bind. */
	CHECK(device_bind_driver(&bind_dev) == -EINVAL);
	CHECK(driver_register(&bind_drv) == 0);
	CHECK(probes == 1 && bind_dev.driver == &bind_drv);
	/* Released: its remove, unbound; released again: nothing. */
	device_release_driver(&bind_dev);
	CHECK(removes == 1 && !bind_dev.driver);
	device_release_driver(&bind_dev);
	CHECK(removes == 1);
	/* Bound without a probe, then unbound with the driver. */
	bind_dev.driver = &bind_drv;
	CHECK(device_bind_driver(&bind_dev) == 0);
	CHECK(probes == 1);
	driver_unregister(&bind_drv);
	CHECK(removes == 2 && !bind_dev.driver);
	device_unregister(&bind_dev);
	bus_unregister(&bind_bus);
	return 0;
}
IN_WORLD(bus_bind, bind_checks)

/* A bus whose notifier notes each event's number: a driver that
 * refuses every device, then one that takes it. */
static struct device notify_dev;
static char events[16];
static unsigned int nevents;

static int note_event(struct notifier_block *nb, unsigned long action,
		      void *data)
{
	if (data == &notify_dev && nevents < sizeof(events) - 1)
		events[nevents++] = '0' + action;
	return NOTIFY_DONE;
}

static int refuse_probe(struct device *dev)
{
	return -ENXIO;
}

static struct bus_type notify_bus = { .name = "lx_notify" };
static struct notifier_block notify_nb = { .notifier_call = note_event };
static struct device_driver refusing_drv = {
	.name = "lx_refuse", .bus = &notify_bus, .probe = refuse_probe,
};
static struct device_driver taking_drv = {
	.name = "lx_take", .bus = &notify_bus, .probe = bind_probe,
	.remove = bind_remove,
};

/* Whether the events since the last call were @expected (BUS_NOTIFY_*
 * numbers in order); forgets them. */
static bool events_were(const char *expected)
{
	bool same = !strcmp(events, expected);

	memset(events, 0, sizeof(events));
	nevents = 0;
	return same;
}

static int notify_checks(void)
{
	probes = removes = 0;
	events_were("");
	CHECK(bus_register_notifier(&unregistered_bus, &notify_nb) == -EINVAL);
	device_initialize(&notify_dev);
	notify_dev.bus = &unregistered_bus;
	CHECK(device_attach(&notify_dev) == -ENODEV);
	put_device(&notify_dev);

	CHECK(bus_register(&notify_bus) == 0);
	CHECK(bus_register_notifier(&notify_bus, &notify_nb) == 0);
	device_initialize(&notify_dev);
	notify_dev.bus = &notify_bus;
	notify_dev.release = static_release;
	CHECK(dev_set_name(&notify_dev, "lx_notify0") == 0);
	CHECK(device_add(&notify_dev) == 0);
	CHECK(events_were("1"));			/* ADD_DEVICE */
	CHECK(device_attach(&notify_dev) == 0);	/* no driver */
	CHECK(events_were(""));
	/* A refusing driver: BIND_DRIVER, DRIVER_NOT_BOUND, each time. */
	CHECK(driver_register(&refusing_drv) == 0);
	CHECK(events_were("48"));
	CHECK(device_attach(&notify_dev) == 0);
	CHECK(events_were("48"));
	/* A taking one: BIND_DRIVER, BOUND_DRIVER; attached already: 1. */
	CHECK(driver_register(&taking_drv) == 0);
	CHECK(events_were("45") && probes == 1);
	CHECK(device_attach(&notify_dev) == 1);
	CHECK(events_were("") && probes == 1);
	/* Deleted: DEL_DEVICE, UNBIND_DRIVER, UNBOUND_DRIVER,
	 * REMOVED_DEVICE. */
	device_unregister(&notify_dev);
	CHECK(events_were("2673") && removes == 1);
	CHECK(bus_unregister_notifier(&notify_bus, &notify_nb) == 0);
	CHECK(bus_unregister_notifier(&notify_bus, &notify_nb) == -ENOENT);
	driver_unregister(&refusing_drv);
	driver_unregister(&taking_drv);
	bus_unregister(&notify_bus);
	return 0;
}
IN_WORLD(bus_notify, notify_checks)

/* The auxiliary bus: devices "lx_selftest_bus.NAME.ID" (KBUILD_MODNAME
 * is the object's name), a driver for the "part" ones. */
static struct device aux_parent;
static struct auxiliary_device aux_dev[3] = {
	{ .name = "part", .id = 0 },
	{ .name = "other", .id = 1 },
	{ .name = "part", .id = 2 },
};
static const struct auxiliary_device_id aux_ids[] = {
	{ .name = "lx_selftest_bus.nothing" },
	{ .name = "lx_selftest_bus.part" },
	{}
};
static struct {
	int probes, removes;
	struct auxiliary_device *last;
	const struct auxiliary_device_id *id;
} aux_seen;

static int aux_probe(struct auxiliary_device *auxdev,
		     const struct auxiliary_device_id *id)
{
	aux_seen.probes++;
	aux_seen.last = auxdev;
	aux_seen.id = id;
	return 0;
}

static void aux_remove(struct auxiliary_device *auxdev)
{
	aux_seen.removes++;
	aux_seen.last = auxdev;
}

static struct auxiliary_driver aux_driver = {
	.name = "parts",
	.probe = aux_probe,
	.remove = aux_remove,
	.id_table = aux_ids,
};

static int named(struct device *dev, const void *data)
{
	return !strcmp(dev_name(dev), data);
}

static int aux_add(struct auxiliary_device *auxdev)
{
	auxdev->dev.parent = &aux_parent;
	auxdev->dev.release = static_release;
	return auxiliary_device_init(auxdev) ?: auxiliary_device_add(auxdev);
}

static int aux_checks(void)
{
	struct auxiliary_device orphan = { .name = "part" };
	struct auxiliary_device *found;
	int i;

	memset(&aux_seen, 0, sizeof(aux_seen));
	device_initialize(&aux_parent);
	aux_parent.release = static_release;
	CHECK(dev_set_name(&aux_parent, "lx_aux_parent") == 0);
	CHECK(device_add(&aux_parent) == 0);
	/* A device needs a parent. */
	CHECK(auxiliary_device_init(&orphan) == -EINVAL);
	/* Added before its driver: bound when the driver registers, with
	 * the entry of the ID table naming it. */
	CHECK(aux_add(&aux_dev[0]) == 0);
	CHECK(!strcmp(dev_name(&aux_dev[0].dev), "lx_selftest_bus.part.0"));
	CHECK(aux_seen.probes == 0);
	CHECK(auxiliary_driver_register(&aux_driver) == 0);
	CHECK(!strcmp(aux_driver.driver.name, "lx_selftest_bus.parts"));
	CHECK(aux_seen.probes == 1 && aux_seen.last == &aux_dev[0]);
	CHECK(aux_seen.id == &aux_ids[1]);
	CHECK(aux_dev[0].dev.driver == &aux_driver.driver);
	/* Another name: not bound.  The same name added later: bound. */
	CHECK(aux_add(&aux_dev[1]) == 0);
	CHECK(aux_seen.probes == 1 && !aux_dev[1].dev.driver);
	CHECK(aux_add(&aux_dev[2]) == 0);
	CHECK(aux_seen.probes == 2 && aux_seen.last == &aux_dev[2]);
	/* Found by a match, with a reference. */
	found = auxiliary_find_device(NULL, "lx_selftest_bus.other.1", named);
	CHECK(found == &aux_dev[1]);
	put_device(&found->dev);
	CHECK(!auxiliary_find_device(&aux_dev[1].dev,
				     "lx_selftest_bus.other.1", named));
	/* Unregistered: removed from both its devices, which stay. */
	auxiliary_driver_unregister(&aux_driver);
	CHECK(aux_seen.removes == 2);
	CHECK(!aux_dev[0].dev.driver && !aux_dev[2].dev.driver);
	found = auxiliary_find_device(NULL, "lx_selftest_bus.part.2", named);
	CHECK(found == &aux_dev[2]);
	put_device(&found->dev);
	for (i = 0; i < 3; i++) {
		auxiliary_device_delete(&aux_dev[i]);
		auxiliary_device_uninit(&aux_dev[i]);
	}
	CHECK(!auxiliary_find_device(NULL, "lx_selftest_bus.part.2", named));
	device_unregister(&aux_parent);
	return 0;
}
IN_WORLD(auxiliary_bus, aux_checks)
