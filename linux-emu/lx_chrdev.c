/* SPDX-License-Identifier: GPL-2.0-only */
/* Character device numbers and cdevs: register_chrdev_region, alloc_chrdev_region, __register_chrdev, unregister_chrdev_region, __unregister_chrdev, cdev_init, cdev_add, cdev_del, cdev_device_add, cdev_device_del. */
/*
 * The bookkeeping of Linux's fs/char_dev.c: each region is a major and
 * a range of its minors, owned by a name; regions of one major may not
 * overlap; a dynamic major is the highest free one of 254..234, then of
 * 511..384, as Linux chooses.  Graft has no device files, so nothing
 * ever opens the numbers: the file operations are kept, never called,
 * and adding a cdev adds its struct device (device_add) and records its
 * number.  Callers hold the world, in thread context.
 */
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>

#define LX_CHRDEV_DYN_START	254	/* Linux's first dynamic major */

struct region {
	struct list_head node;
	unsigned int major, baseminor, count;
	const char *name;
	const struct file_operations *fops;
};

static LIST_HEAD(regions);
static DEFINE_MUTEX(chrdevs_lock);

static bool major_used(unsigned int major)
{
	struct region *r;

	list_for_each_entry(r, &regions, node)
		if (r->major == major)
			return true;
	return false;
}

/* The highest free dynamic major, or -EBUSY.  chrdevs_lock held. */
static int find_dynamic(void)
{
	int i;

	for (i = LX_CHRDEV_DYN_START; i >= CHRDEV_MAJOR_DYN_END; i--)
		if (!major_used(i))
			return i;
	for (i = CHRDEV_MAJOR_DYN_EXT_START; i >= CHRDEV_MAJOR_DYN_EXT_END;
	     i--)
		if (!major_used(i))
			return i;
	return -EBUSY;
}

/*
 * Reserve @count minors from @baseminor of @major (0: a dynamic one).
 * The region, or ERR_PTR: -EINVAL (major too large, minors beyond
 * MINORMASK, no minor), -EBUSY (overlap, no dynamic major), -ENOMEM.
 */
static struct region *reserve(unsigned int major, unsigned int baseminor,
			      unsigned int count, const char *name)
{
	struct region *r, *new;
	int err = -EBUSY;

	if (major >= CHRDEV_MAJOR_MAX || !count ||
	    count > MINORMASK + 1 - baseminor || baseminor > MINORMASK)
		return ERR_PTR(-EINVAL);
	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return ERR_PTR(-ENOMEM);
	mutex_lock(&chrdevs_lock);
	if (!major) {
		err = find_dynamic();
		if (err < 0)
			goto fail;
		major = err;
	}
	list_for_each_entry(r, &regions, node)
		if (r->major == major && baseminor < r->baseminor + r->count &&
		    r->baseminor < baseminor + count) {
			err = -EBUSY;
			goto fail;
		}
	new->major = major;
	new->baseminor = baseminor;
	new->count = count;
	new->name = name;
	list_add_tail(&new->node, &regions);
	mutex_unlock(&chrdevs_lock);
	return new;
fail:
	mutex_unlock(&chrdevs_lock);
	kfree(new);
	return ERR_PTR(err);
}

/* Give back the region of @major starting at @baseminor of @count. */
static void region_release(unsigned int major, unsigned int baseminor,
			   unsigned int count)
{
	struct region *r;

	mutex_lock(&chrdevs_lock);
	list_for_each_entry(r, &regions, node)
		if (r->major == major && r->baseminor == baseminor &&
		    r->count == count) {
			list_del(&r->node);
			mutex_unlock(&chrdevs_lock);
			kfree(r);
			return;
		}
	mutex_unlock(&chrdevs_lock);
}

/* register_chrdev_region - the @count numbers from @from, for @name,
 * across majors if they go beyond one.  0 or a reserve() error (those
 * reserved first given back). */
int register_chrdev_region(dev_t from, unsigned int count, const char *name)
{
	dev_t to = from + count, n, next;
	struct region *r;

	for (n = from; n < to; n = next) {
		next = MKDEV(MAJOR(n) + 1, 0);
		if (next > to)
			next = to;
		r = reserve(MAJOR(n), MINOR(n), next - n, name);
		if (IS_ERR(r)) {
			to = n;
			for (n = from; n < to; n = next) {
				next = MKDEV(MAJOR(n) + 1, 0);
				if (next > to)
					next = to;
				region_release(MAJOR(n), MINOR(n), next - n);
			}
			return PTR_ERR(r);
		}
	}
	return 0;
}

/* alloc_chrdev_region - @count minors from @baseminor of a dynamic
 * major, the first number in *@dev.  0 or a reserve() error. */
int alloc_chrdev_region(dev_t *dev, unsigned int baseminor,
			unsigned int count, const char *name)
{
	struct region *r = reserve(0, baseminor, count, name);

	if (IS_ERR(r))
		return PTR_ERR(r);
	*dev = MKDEV(r->major, r->baseminor);
	return 0;
}

/* __register_chrdev - minors of @major (0: a dynamic one) for @fops.
 * The dynamic major, 0 for a given one, or a reserve() error. */
int __register_chrdev(unsigned int major, unsigned int baseminor,
		      unsigned int count, const char *name,
		      const struct file_operations *fops)
{
	struct region *r = reserve(major, baseminor, count, name);

	if (IS_ERR(r))
		return PTR_ERR(r);
	r->fops = fops;
	return major ? 0 : r->major;
}

/* unregister_chrdev_region - give back what register_chrdev_region or
 * alloc_chrdev_region reserved for (@from, @count). */
void unregister_chrdev_region(dev_t from, unsigned int count)
{
	dev_t to = from + count, n, next;

	for (n = from; n < to; n = next) {
		next = MKDEV(MAJOR(n) + 1, 0);
		if (next > to)
			next = to;
		region_release(MAJOR(n), MINOR(n), next - n);
	}
}

/* __unregister_chrdev - give back what __register_chrdev reserved. */
void __unregister_chrdev(unsigned int major, unsigned int baseminor,
			 unsigned int count, const char *name)
{
	region_release(major, baseminor, count);
}

/* cdev_init - @cdev empty, with file operations @fops. */
void cdev_init(struct cdev *cdev, const struct file_operations *fops)
{
	memset(cdev, 0, sizeof(*cdev));
	INIT_LIST_HEAD(&cdev->list);
	cdev->ops = fops;
}

/* cdev_add - @cdev answers for @count numbers from @dev (recorded: no
 * device file ever opens them).  0. */
int cdev_add(struct cdev *cdev, dev_t dev, unsigned int count)
{
	cdev->dev = dev;
	cdev->count = count;
	return 0;
}

/* cdev_del - @cdev answers for no number any more. */
void cdev_del(struct cdev *cdev)
{
	cdev->count = 0;
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
