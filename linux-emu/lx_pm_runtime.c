/* SPDX-License-Identifier: GPL-2.0-only */
/* Power management without power transitions: runtime PM's pm_runtime_enable, __pm_runtime_disable, __pm_runtime_set_status, pm_runtime_forbid, __pm_runtime_resume, __pm_runtime_idle, __pm_runtime_suspend, pm_runtime_no_callbacks, pm_runtime_allow, __pm_runtime_use_autosuspend, pm_runtime_set_autosuspend_delay, pm_runtime_barrier; device_wakeup_disable; device_set_wakeup_enable, device_wakeup_enable. */
/*
 * The configuration has CONFIG_PM (XEN_PV, needed for the paravirt
 * interrupt flag, selects it through XEN_SAVE_RESTORE), so drivers call
 * the runtime PM core out of line.  Graft never suspends a device: these
 * keep the bookkeeping Linux keeps (disable depth, status, the "auto"
 * permission and the usage count it implies) so that what drivers read
 * back is right, and nothing else happens.  A device starts with runtime
 * PM disabled once and its status RPM_SUSPENDED, as pm_runtime_init()
 * leaves it (lx_pm_runtime_init, from device_initialize).
 */
#include <linux/device.h>
#include <linux/pm_runtime.h>

#include <lx_world.h>

void lx_pm_runtime_init(struct device *dev)
{
	dev->power.runtime_status = RPM_SUSPENDED;
	dev->power.disable_depth = 1;
	dev->power.runtime_auto = true;
	atomic_set(&dev->power.usage_count, 0);
}

void pm_runtime_enable(struct device *dev)
{
	unsigned long flags;

	spin_lock_irqsave(&dev->power.lock, flags);
	if (dev->power.disable_depth > 0)
		dev->power.disable_depth--;
	else
		dev_warn(dev, "Unbalanced %s!\n", __func__);
	spin_unlock_irqrestore(&dev->power.lock, flags);
}

void __pm_runtime_disable(struct device *dev, bool check_resume)
{
	unsigned long flags;

	spin_lock_irqsave(&dev->power.lock, flags);
	dev->power.disable_depth++;
	spin_unlock_irqrestore(&dev->power.lock, flags);
}

/* As Linux's: only while runtime PM is disabled; -EAGAIN otherwise,
 * -EINVAL for a status other than active or suspended. */
int __pm_runtime_set_status(struct device *dev, unsigned int status)
{
	unsigned long flags;
	int err = 0;

	if (status != RPM_ACTIVE && status != RPM_SUSPENDED)
		return -EINVAL;
	spin_lock_irqsave(&dev->power.lock, flags);
	if (dev->power.disable_depth > 0)
		dev->power.runtime_status = status;
	else
		err = -EAGAIN;
	spin_unlock_irqrestore(&dev->power.lock, flags);
	return err;
}

/* Forbidding takes a usage reference, as Linux's (which also resumes
 * the device: it never was suspended here). */
void pm_runtime_forbid(struct device *dev)
{
	unsigned long flags;

	spin_lock_irqsave(&dev->power.lock, flags);
	if (dev->power.runtime_auto) {
		dev->power.runtime_auto = false;
		atomic_inc(&dev->power.usage_count);
	}
	spin_unlock_irqrestore(&dev->power.lock, flags);
}

/*
 * __pm_runtime_resume - take a usage reference if @rpmflags has
 * RPM_GET_PUT, then make @dev active.  1 if it was active already; 0 if
 * it was suspended and runtime PM is enabled (status set active: Graft
 * never powered it down, so there is no callback to run); -EACCES if
 * runtime PM is disabled and it is not active, as Linux.
 */
int __pm_runtime_resume(struct device *dev, int rpmflags)
{
	unsigned long flags;
	int ret;

	if (rpmflags & RPM_GET_PUT)
		atomic_inc(&dev->power.usage_count);
	spin_lock_irqsave(&dev->power.lock, flags);
	if (dev->power.runtime_status == RPM_ACTIVE) {
		ret = 1;
	} else if (dev->power.disable_depth > 0) {
		ret = -EACCES;
	} else {
		dev->power.runtime_status = RPM_ACTIVE;
		ret = 0;
	}
	spin_unlock_irqrestore(&dev->power.lock, flags);
	return ret;
}

/*
 * __pm_runtime_idle - drop a usage reference if @rpmflags has
 * RPM_GET_PUT; nothing else (Graft never suspends a device).  0; -EINVAL
 * if the usage count was 0 already (left at 0, as Linux).
 */
int __pm_runtime_idle(struct device *dev, int rpmflags)
{
	if (!(rpmflags & RPM_GET_PUT))
		return 0;
	if (atomic_add_unless(&dev->power.usage_count, -1, 0))
		return 0;
	dev_warn(dev, "Runtime PM usage count underflow!\n");
	return -EINVAL;
}

/* Graft has no wake-up events (no PME, no sleep state to wake from):
 * enabling a device's wake-up is refused as Linux refuses it for a
 * device that cannot wake, -EINVAL; disabling is 0 for one that could. */
int device_set_wakeup_enable(struct device *dev, bool enable)
{
	if (!dev || !dev->power.can_wakeup || enable)
		return -EINVAL;
	return 0;
}

/* device_set_wakeup_capable - record whether @dev could wake the system
 * (drivers read it back with device_can_wakeup); nothing ever arms it. */
void device_set_wakeup_capable(struct device *dev, bool capable)
{
	dev->power.can_wakeup = capable;
}

/* device_wakeup_enable - -EINVAL: as device_set_wakeup_enable(@dev, true). */
int device_wakeup_enable(struct device *dev)
{
	return device_set_wakeup_enable(dev, true);
}

/*
 * __pm_runtime_suspend - drop a usage reference if @rpmflags has
 * RPM_GET_PUT; the device stays active (Graft never suspends one):
 * -EAGAIN, Linux's answer for a device that cannot be suspended now;
 * -EINVAL if the usage count was 0 already (left at 0, as Linux).
 */
int __pm_runtime_suspend(struct device *dev, int rpmflags)
{
	int err = __pm_runtime_idle(dev, rpmflags);

	return err ? err : -EAGAIN;
}

/* pm_runtime_no_callbacks - record that @dev has no runtime PM
 * callbacks (Linux's flag, read back by the PM core only). */
void pm_runtime_no_callbacks(struct device *dev)
{
	unsigned long flags;

	spin_lock_irqsave(&dev->power.lock, flags);
	dev->power.no_callbacks = 1;
	spin_unlock_irqrestore(&dev->power.lock, flags);
}

/* pm_runtime_allow - give back the usage reference pm_runtime_forbid
 * took (once: nothing if runtime PM is allowed already). */
void pm_runtime_allow(struct device *dev)
{
	unsigned long flags;

	spin_lock_irqsave(&dev->power.lock, flags);
	if (!dev->power.runtime_auto) {
		dev->power.runtime_auto = true;
		atomic_add_unless(&dev->power.usage_count, -1, 0);
	}
	spin_unlock_irqrestore(&dev->power.lock, flags);
}

/* __pm_runtime_use_autosuspend, pm_runtime_set_autosuspend_delay - the
 * autosuspend settings, kept for drivers to read back (nothing is ever
 * suspended, so no timer runs). */
void __pm_runtime_use_autosuspend(struct device *dev, bool use)
{
	dev->power.use_autosuspend = use;
}

void pm_runtime_set_autosuspend_delay(struct device *dev, int delay)
{
	dev->power.autosuspend_delay = delay;
}

/* device_wakeup_disable - 0 for a device that could wake (its wake-up
 * was never enabled: device_wakeup_enable refuses), -EINVAL otherwise,
 * as Linux's. */
int device_wakeup_disable(struct device *dev)
{
	return dev->power.can_wakeup ? 0 : -EINVAL;
}

/* pm_runtime_barrier - wait for @dev's pending runtime PM requests:
 * nothing is ever queued (no suspend, no asynchronous resume), so there
 * is no resume request to run: 0, as Linux's answer then. */
int pm_runtime_barrier(struct device *dev)
{
	return 0;
}
