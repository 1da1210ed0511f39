/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks of the linux-irq suite for device PM QoS flags (lx_pm_qos_flags.c): requests added, refused, removed, exposed, destroyed with their device. */
#include <linux/device.h>
#include <linux/pm_qos.h>

#include "lx_selftest_check.h"
#include "lx_selftest_pm_qos.h"

#define OTHER_FLAG	(1 << 1)	/* a bit no request sets */

static void static_release(struct device *dev)
{
}

static struct device qos_dev;
static struct dev_pm_qos_request req_a, req_b, req_c;

static int pm_qos_checks(void)
{
	const s32 off = PM_QOS_FLAG_NO_POWER_OFF;

	device_initialize(&qos_dev);
	qos_dev.release = static_release;
	CHECK(dev_set_name(&qos_dev, "lx_qos0") == 0);
	CHECK(device_add(&qos_dev) == 0);
	CHECK(dev_pm_qos_flags(&qos_dev, off) == PM_QOS_FLAGS_UNDEFINED);
	/* The first request changes the effective flags, a second of the
	 * same flags does not; an active request cannot be added again. */
	CHECK(dev_pm_qos_add_request(&qos_dev, &req_a, DEV_PM_QOS_FLAGS,
				     off) == 1);
	CHECK(dev_pm_qos_add_request(&qos_dev, &req_a, DEV_PM_QOS_FLAGS,
				     off) == -EINVAL);
	CHECK(dev_pm_qos_add_request(&qos_dev, &req_b, DEV_PM_QOS_FLAGS,
				     off) == 0);
	CHECK(dev_pm_qos_flags(&qos_dev, off) == PM_QOS_FLAGS_ALL);
	CHECK(dev_pm_qos_flags(&qos_dev, off | OTHER_FLAG) ==
	      PM_QOS_FLAGS_SOME);
	CHECK(dev_pm_qos_flags(&qos_dev, OTHER_FLAG) == PM_QOS_FLAGS_NONE);
	/* Only flags requests are emulated. */
	CHECK(dev_pm_qos_add_request(&qos_dev, &req_c,
				     DEV_PM_QOS_RESUME_LATENCY, 10) == -EINVAL);
	CHECK(!dev_pm_qos_request_active(&req_c));
	/* Removing one of two leaves the flags; the last clears them. */
	CHECK(dev_pm_qos_remove_request(&req_a) == 0);
	CHECK(dev_pm_qos_flags(&qos_dev, off) == PM_QOS_FLAGS_ALL);
	CHECK(dev_pm_qos_remove_request(&req_b) == 1);
	CHECK(dev_pm_qos_remove_request(&req_b) == -EINVAL);
	CHECK(dev_pm_qos_flags(&qos_dev, off) == PM_QOS_FLAGS_UNDEFINED);
	/* The device's own request, once. */
	CHECK(dev_pm_qos_expose_flags(&qos_dev, off) == 0);
	CHECK(dev_pm_qos_expose_flags(&qos_dev, off) == -EEXIST);
	CHECK(dev_pm_qos_flags(&qos_dev, off) == PM_QOS_FLAGS_ALL);
	/* Deleting the device takes its requests away and frees the rest
	 * (the suite's heap baseline sees it). */
	CHECK(dev_pm_qos_add_request(&qos_dev, &req_a, DEV_PM_QOS_FLAGS,
				     off) == 0);
	device_del(&qos_dev);
	CHECK(!qos_dev.power.qos);
	CHECK(!dev_pm_qos_request_active(&req_a));
	put_device(&qos_dev);
	return 0;
}
IN_WORLD(pm_qos_flags, pm_qos_checks)
