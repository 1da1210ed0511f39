/* SPDX-License-Identifier: GPL-2.0-only */
/* Character device numbers and cdevs: alloc_chrdev_region, unregister_chrdev_region, cdev_init, cdev_device_add, cdev_device_del. */
/*
 * Graft has no file system for device nodes: a cdev is opened by no
 * one, so adding one adds its struct device (device_add) and records
 * its number; the numbers come from dynamic majors as Linux's
 * fs/char_dev.c gives them (counting down from 511, then from 254).
 * Callers hold the world, in thread context.
 */
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/string.h>

#define LX_CHRDEV_REGIONS	8

static struct {
	dev_t first;
	unsigned int count;
	const char *name;
} regions[LX_CHRDEV_REGIONS];

static bool major_taken(unsigned int major)
{
	for (int i = 0; i < LX_CHRDEV_REGIONS; i++)
		if (regions[i].count && MAJOR(regions[i].first) == major)
			return true;
	return false;
}

/*
 * alloc_chrdev_region - a free dynamic major for @count minors from
 * @baseminor, named @name, in *@dev.  0; -EBUSY (no major or no region
 * left); -EINVAL (no minors, or past MINORMASK).
 */
int alloc_chrdev_region(dev_t *dev, unsigned int baseminor, unsigned int count,
			const char *name)
{
	unsigned int major = 0;
	int slot = -1;

	if (!count || baseminor + count - 1 > MINORMASK)
		return -EINVAL;
	for (int i = 0; i < LX_CHRDEV_REGIONS && slot < 0; i++)
		if (!regions[i].count)
			slot = i;
	if (slot < 0)
		return -EBUSY;
	for (unsigned int m = 511; m >= 384 && !major; m--)
		if (!major_taken(m))
			major = m;
	for (unsigned int m = 254; m >= 234 && !major; m--)
		if (!major_taken(m))
			major = m;
	if (!major)
		return -EBUSY;
	regions[slot].first = MKDEV(major, baseminor);
	regions[slot].count = count;
	regions[slot].name = name;
	*dev = regions[slot].first;
	return 0;
}

/* unregister_chrdev_region - give back the @count numbers from @from. */
void unregister_chrdev_region(dev_t from, unsigned int count)
{
	for (int i = 0; i < LX_CHRDEV_REGIONS; i++) {
		if (regions[i].count && regions[i].first == from &&
		    regions[i].count == count) {
			regions[i].count = 0;
			return;
		}
	}
	WARN(1, "unregister_chrdev_region(%u:%u, %u): not registered\n",
	     MAJOR(from), MINOR(from), count);
}

/* cdev_init - @cdev empty, with file operations @fops. */
void cdev_init(struct cdev *cdev, const struct file_operations *fops)
{
	memset(cdev, 0, sizeof(*cdev));
	INIT_LIST_HEAD(&cdev->list);
	cdev->ops = fops;
}

/* cdev_device_add - @dev (its devt the number) is added with @cdev.
 * 0, or device_add's error. */
int cdev_device_add(struct cdev *cdev, struct device *dev)
{
	if (dev->devt) {
		cdev->dev = dev->devt;
		cdev->count = 1;
	}
	return device_add(dev);
}

/* cdev_device_del - @dev goes, with @cdev. */
void cdev_device_del(struct cdev *cdev, struct device *dev)
{
	device_del(dev);
	cdev->count = 0;
}
