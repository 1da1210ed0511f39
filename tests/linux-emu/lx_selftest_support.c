/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks of the linux-irq suite for linux-emu's support interfaces: read-write and counting semaphores, tasklets, call_rcu, notifier chains, character device numbers and misc minors. */
#include <linux/cdev.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/interrupt.h>
#include <linux/kdev_t.h>
#include <linux/miscdevice.h>
#include <linux/notifier.h>
#include <linux/rcupdate.h>
#include <linux/reboot.h>
#include <linux/rwsem.h>
#include <linux/semaphore.h>
#include <linux/string.h>

#include <lx_world.h>

#include "lx_selftest_support.h"
#include "lx_selftest_check.h"

static DECLARE_RWSEM(test_rwsem);
static char order[16];
static unsigned int norder;
static struct completion reader_in, writer_done, reader2_done;

static void reader(void *arg)
{
	down_read(&test_rwsem);
	order[norder++] = 'R';
	complete(&reader_in);
	msleep(20);			/* sleeps holding it for reading */
	order[norder++] = 'r';
	up_read(&test_rwsem);
}

static void writer(void *arg)
{
	down_write(&test_rwsem);	/* waits for the reader */
	order[norder++] = 'W';
	msleep(10);
	order[norder++] = 'w';
	up_write(&test_rwsem);
	complete(&writer_done);
}

static void late_reader(void *arg)
{
	down_read(&test_rwsem);		/* behind the waiting writer */
	order[norder++] = 'L';
	up_read(&test_rwsem);
	complete(&reader2_done);
}

static int rwsem_checks(void)
{
	norder = 0;
	memset(order, 0, sizeof(order));
	init_completion(&reader_in);
	init_completion(&writer_done);
	init_completion(&reader2_done);
	CHECK(lx_thread_start("lx-reader", reader, NULL));
	wait_for_completion(&reader_in);
	/* Readers share it, a writer does not get it. */
	CHECK(down_read_trylock(&test_rwsem));
	up_read(&test_rwsem);
	CHECK(!down_write_trylock(&test_rwsem));
	CHECK(lx_thread_start("lx-writer", writer, NULL));
	msleep(1);			/* the writer now waits */
	/* A reader does not pass a waiting writer. */
	CHECK(!down_read_trylock(&test_rwsem));
	CHECK(lx_thread_start("lx-late", late_reader, NULL));
	wait_for_completion(&writer_done);
	wait_for_completion(&reader2_done);
	CHECK(strcmp(order, "RrWwL") == 0);
	/* Downgraded, a writer lets readers in and keeps writers out. */
	down_write(&test_rwsem);
	downgrade_write(&test_rwsem);
	CHECK(down_read_trylock(&test_rwsem));
	CHECK(!down_write_trylock(&test_rwsem));
	up_read(&test_rwsem);
	up_read(&test_rwsem);
	CHECK(down_write_trylock(&test_rwsem));
	up_write(&test_rwsem);
	return 0;
}
IN_WORLD(rwsem, rwsem_checks)

static struct semaphore test_sem;
static struct completion upper_done;

static void upper(void *arg)
{
	msleep(10);			/* the checks' down() now waits */
	order[norder++] = 'U';
	up(&test_sem);
	complete(&upper_done);
}

static int semaphore_checks(void)
{
	norder = 0;
	memset(order, 0, sizeof(order));
	init_completion(&upper_done);
	sema_init(&test_sem, 1);
	/* A count of one: taken once, then refused. */
	CHECK(down_trylock(&test_sem) == 0);
	CHECK(down_trylock(&test_sem) == 1);
	/* Nobody ups it: a timed down gives up. */
	CHECK(down_timeout(&test_sem, msecs_to_jiffies(20)) == -ETIME);
	/* Upped by another thread: the waiting down returns after it. */
	CHECK(lx_thread_start("lx-upper", upper, NULL));
	down(&test_sem);
	order[norder++] = 'D';
	wait_for_completion(&upper_done);
	CHECK(strcmp(order, "UD") == 0);
	/* Free again after an up: taken without waiting. */
	up(&test_sem);
	CHECK(down_interruptible(&test_sem) == 0);
	CHECK(down_trylock(&test_sem) == 1);
	up(&test_sem);
	return 0;
}
IN_WORLD(semaphore, semaphore_checks)

static int tasklet_runs, tasklet_data_seen;
static struct tasklet_struct t_new, t_old;

static void new_style(struct tasklet_struct *t)
{
	tasklet_runs++;
}

static void old_style(unsigned long data)
{
	tasklet_data_seen = data;
}

static int tasklet_checks(void)
{
	tasklet_runs = 0;
	tasklet_data_seen = 0;
	tasklet_setup(&t_new, new_style);
	tasklet_init(&t_old, old_style, 42);
	/* Scheduled with bottom halves off: runs once, when they end. */
	local_bh_disable();
	tasklet_schedule(&t_new);
	tasklet_schedule(&t_new);	/* already scheduled: no second run */
	tasklet_hi_schedule(&t_old);
	CHECK(tasklet_runs == 0 && tasklet_data_seen == 0);
	local_bh_enable();
	CHECK(tasklet_runs == 1 && tasklet_data_seen == 42);
	/* Disabled: stays scheduled until enabled. */
	tasklet_disable(&t_new);
	local_bh_disable();
	tasklet_schedule(&t_new);
	local_bh_enable();
	CHECK(tasklet_runs == 1 &&
	      test_bit(TASKLET_STATE_SCHED, &t_new.state));
	tasklet_enable(&t_new);
	tasklet_kill(&t_new);		/* waits for the run */
	CHECK(tasklet_runs == 2 &&
	      !test_bit(TASKLET_STATE_SCHED, &t_new.state));
	tasklet_kill(&t_old);		/* not scheduled: returns at once */
	return 0;
}
IN_WORLD(tasklet, tasklet_checks)

static struct rcu_head rcu_a, rcu_b;
static char rcu_order[4];
static unsigned int rcu_n;

static void rcu_cb(struct rcu_head *head)
{
	rcu_order[rcu_n++] = head == &rcu_a ? 'a' : 'b';
}

static int call_rcu_checks(void)
{
	rcu_n = 0;
	memset(rcu_order, 0, sizeof(rcu_order));
	call_rcu(&rcu_a, rcu_cb);
	call_rcu(&rcu_b, rcu_cb);
	/* Not before the caller lets the world go. */
	CHECK(rcu_n == 0);
	rcu_barrier();
	CHECK(strcmp(rcu_order, "ab") == 0);
	return 0;
}
IN_WORLD(call_rcu, call_rcu_checks)

static int notified;

static int count_event(struct notifier_block *nb, unsigned long val,
		       void *data)
{
	notified++;
	return NOTIFY_DONE;
}

static struct notifier_block test_nb = { .notifier_call = count_event };

static int chain_checks(void)
{
	BLOCKING_NOTIFIER_HEAD(chain);

	notified = 0;
	CHECK(register_reboot_notifier(&test_nb) == 0);
	CHECK(unregister_reboot_notifier(&test_nb) == 0);
	CHECK(unregister_reboot_notifier(&test_nb) == -ENOENT);
	CHECK(blocking_notifier_chain_register(&chain, &test_nb) == 0);
	CHECK(blocking_notifier_call_chain(&chain, 1, NULL) == NOTIFY_DONE);
	CHECK(notified == 1);
	CHECK(blocking_notifier_chain_unregister(&chain, &test_nb) == 0);
	CHECK(blocking_notifier_call_chain(&chain, 1, NULL) == NOTIFY_DONE);
	CHECK(notified == 1);
	return 0;
}
IN_WORLD(notifier_chains, chain_checks)

static const struct file_operations test_fops;
static struct miscdevice misc_a = {
	.minor = MISC_DYNAMIC_MINOR, .name = "lx_misc_a",
};
static struct miscdevice misc_b = {
	.minor = MISC_DYNAMIC_MINOR, .name = "lx_misc_b",
};
static struct miscdevice misc_fixed = { .minor = 200, .name = "lx_fixed" };
static struct miscdevice misc_clash = { .minor = 200, .name = "lx_clash" };

static int chrdev_checks(void)
{
	dev_t dyn, dyn2;
	int major;

	/* Dynamic majors from 254 down, as Linux's. */
	major = __register_chrdev(0, 0, 256, "lx_dyn", &test_fops);
	CHECK(major == 254);
	CHECK(alloc_chrdev_region(&dyn, 4, 2, "lx_alloc") == 0);
	CHECK(MAJOR(dyn) == 253 && MINOR(dyn) == 4);
	/* A fixed region: overlaps are refused, neighbours are not. */
	CHECK(register_chrdev_region(MKDEV(240, 0), 8, "lx_fixed") == 0);
	CHECK(register_chrdev_region(MKDEV(240, 7), 2, "lx_clash") ==
	      -EBUSY);
	CHECK(register_chrdev_region(MKDEV(240, 8), 2, "lx_next") == 0);
	CHECK(register_chrdev_region(MKDEV(CHRDEV_MAJOR_MAX, 0), 1,
				     "lx_big") == -EINVAL);
	CHECK(__register_chrdev(240, 9, 1, "lx_again", &test_fops) == -EBUSY);
	unregister_chrdev_region(MKDEV(240, 0), 8);
	unregister_chrdev_region(MKDEV(240, 8), 2);
	unregister_chrdev_region(dyn, 2);
	__unregister_chrdev(254, 0, 256, "lx_dyn");
	/* Given back: the same dynamic major comes again. */
	CHECK(alloc_chrdev_region(&dyn2, 0, 1, "lx_alloc") == 0);
	CHECK(MAJOR(dyn2) == 254);
	unregister_chrdev_region(dyn2, 1);

	/* Misc minors: dynamic ones from 127 down, fixed ones once. */
	CHECK(misc_register(&misc_a) == 0 && misc_a.minor == 127);
	CHECK(misc_register(&misc_b) == 0 && misc_b.minor == 126);
	CHECK(misc_a.this_device &&
	      misc_a.this_device->devt == MKDEV(MISC_MAJOR, 127) &&
	      !strcmp(dev_name(misc_a.this_device), "lx_misc_a"));
	CHECK(misc_register(&misc_fixed) == 0);
	CHECK(misc_register(&misc_clash) == -EBUSY);
	misc_deregister(&misc_a);
	misc_deregister(&misc_fixed);
	CHECK(!misc_a.this_device);
	misc_a.minor = MISC_DYNAMIC_MINOR;
	CHECK(misc_register(&misc_a) == 0 && misc_a.minor == 127);
	misc_deregister(&misc_a);
	misc_deregister(&misc_b);
	return 0;
}
IN_WORLD(chrdev, chrdev_checks)

/* A cdev's numbers, a device made for a class, and the positions of a
 * file without an end (usbfs's). */
static struct cdev test_cdev;
static int drvdata_marker;

static int cdev_checks(void)
{
	struct file file = { .f_pos = 10 };
	struct class *cls;
	struct device *dev;

	cdev_init(&test_cdev, &test_fops);
	CHECK(cdev_add(&test_cdev, MKDEV(240, 0), 4) == 0);
	CHECK(test_cdev.dev == MKDEV(240, 0) && test_cdev.count == 4 &&
	      test_cdev.ops == &test_fops);
	cdev_del(&test_cdev);
	CHECK(test_cdev.count == 0);

	cls = class_create(THIS_MODULE, "lx_cls");
	CHECK(!IS_ERR(cls));
	CHECK(PTR_ERR(device_create(NULL, NULL, MKDEV(240, 1), NULL, "x")) ==
	      -ENODEV);
	dev = device_create(cls, NULL, MKDEV(240, 1), &drvdata_marker,
			    "lx_cd%d", 3);
	CHECK(!IS_ERR(dev));
	CHECK(!strcmp(dev_name(dev), "lx_cd3") && dev->class == cls &&
	      dev->devt == MKDEV(240, 1) &&
	      dev_get_drvdata(dev) == &drvdata_marker);
	device_unregister(dev);		/* freed by its release */
	class_destroy(cls);

	CHECK(no_seek_end_llseek(&file, 5, SEEK_CUR) == 15);
	CHECK(no_seek_end_llseek(&file, 0, SEEK_CUR) == 15);
	CHECK(no_seek_end_llseek(&file, 3, SEEK_SET) == 3);
	CHECK(no_seek_end_llseek(&file, -4, SEEK_CUR) == -EINVAL);
	CHECK(no_seek_end_llseek(&file, 0, SEEK_END) == -EINVAL);
	CHECK(file.f_pos == 3);
	return 0;
}
IN_WORLD(cdev, cdev_checks)

static struct device dev_parent, dev_child[2];
static char seen_children[4];
static unsigned int nseen;

static void static_release(struct device *dev)
{
}

static int note_child(struct device *dev, void *data)
{
	seen_children[nseen++] = dev_name(dev)[5];	/* "child0" -> '0' */
	return dev == data ? 7 : 0;
}

static int named(struct device *dev, void *data)
{
	return !strcmp(dev_name(dev), data);
}

static int children_checks(void)
{
	struct device *found;
	int i;

	memset(seen_children, 0, sizeof(seen_children));
	nseen = 0;
	device_initialize(&dev_parent);
	dev_parent.release = static_release;
	CHECK(dev_set_name(&dev_parent, "parent") == 0);
	CHECK(device_add(&dev_parent) == 0);
	/* No children yet. */
	CHECK(device_for_each_child(&dev_parent, NULL, note_child) == 0);
	CHECK(nseen == 0);
	for (i = 0; i < 2; i++) {
		device_initialize(&dev_child[i]);
		dev_child[i].parent = &dev_parent;
		dev_child[i].release = static_release;
		CHECK(dev_set_name(&dev_child[i], "child%d", i) == 0);
		CHECK(device_add(&dev_child[i]) == 0);
	}
	/* In order, stopped by the first non-zero answer. */
	CHECK(device_for_each_child(&dev_parent, NULL, note_child) == 0);
	CHECK(!strcmp(seen_children, "01"));
	nseen = 0;
	CHECK(device_for_each_child(&dev_parent, &dev_child[0],
				    note_child) == 7 && nseen == 1);
	found = device_find_child(&dev_parent, "child1", named);
	CHECK(found == &dev_child[1]);
	put_device(found);
	CHECK(!device_find_child(&dev_parent, "child2", named));
	/* Deleted: no longer a child. */
	device_unregister(&dev_child[0]);
	CHECK(device_find_child(&dev_parent, "child0", named) == NULL);
	device_unregister(&dev_child[1]);
	nseen = 0;
	CHECK(device_for_each_child(&dev_parent, NULL, note_child) == 0);
	CHECK(nseen == 0);
	device_unregister(&dev_parent);
	return 0;
}
IN_WORLD(device_children, children_checks)
