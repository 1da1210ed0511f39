/* SPDX-License-Identifier: GPL-2.0-only */
/* Device PM QoS latency tolerance: dev_pm_qos_update_user_latency_tolerance. */
/*
 * There is no user space to set a tolerance nor sysfs to show it: the
 * only request is the driver's own, so its value is the constraint and
 * goes straight to the device's set_latency_tolerance callback, as
 * Linux's apply_constraint does with a single request.
 */
#include <linux/device.h>
#include <linux/pm_qos.h>

/* dev_pm_qos_update_user_latency_tolerance - @dev's latency tolerance
 * becomes @val (microseconds, or PM_QOS_LATENCY_TOLERANCE_NO_CONSTRAINT).
 * 0; -EINVAL (a negative value other than "no constraint", or a device
 * without the callback). */
int dev_pm_qos_update_user_latency_tolerance(struct device *dev, s32 val)
{
	if (!dev->power.set_latency_tolerance ||
	    (val < 0 && val != PM_QOS_LATENCY_TOLERANCE_NO_CONSTRAINT &&
	     val != PM_QOS_LATENCY_ANY))
		return -EINVAL;
	dev->power.set_latency_tolerance(dev, val);
	return 0;
}
