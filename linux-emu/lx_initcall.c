/* SPDX-License-Identifier: GPL-2.0-only */
/* Running the linked drivers' initcalls (module_init when built in), all or one driver's. */
/*
 * tools/linux_link.py leaves only drivers' initcalls in .initcall*.init;
 * the host's linker script gathers them between lx_host_initcall_start
 * and lx_host_initcall_stop in Linux's level order.  Library initcalls are
 * renamed away and never run: they set up subsystems Graft does not have
 * (the iomem pseudo file system, GRO offloads, %p hashing's key).
 * tools/linux_link.py also lists each driver's entries by name
 * (lx_initcall.h), so that one driver can be started alone, after the
 * shared code it uses (libata before ahci); shared code no driver left
 * to start uses is passed over by lx_emul_initcalls_run.  Both end
 * with async_synchronize_full(), as Linux's kernel_init does before init
 * starts: what the drivers scheduled asynchronously (libata's port
 * probes and SCSI scans) is done when they return.
 */
#include <linux/async.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/printk.h>
#include <linux/string.h>

#include <lx_emul.h>
#include <lx_host.h>
#include <lx_initcall.h>
#include <lx_world.h>

static bool initcalls_done;

/* Drivers started by lx_emul_driver_init (bit i: table entry i). */
static unsigned long drivers_started;
#define MAX_TABLE_DRIVERS BITS_PER_LONG

int lx_emul_initcall_count(void)
{
	return lx_host_initcall_stop - lx_host_initcall_start;
}

static int run_one(initcall_entry_t *p)
{
	initcall_t fn = initcall_from_entry(p);
	int ret = fn();

	if (ret)
		pr_warn("linux-emu: initcall %ps returned %d\n", fn, ret);
	return ret ? 1 : 0;
}

static bool uses(const struct lx_driver_initcalls *d, int i)
{
	for (const short *u = d->uses; *u >= 0; u++)
		if (*u == i)
			return true;
	return false;
}

/* Whether lx_emul_initcalls_run passes over table entry @i: started (or
 * skipped) already, or shared code whose users all were. */
static bool passed_over(int i)
{
	const struct lx_driver_initcalls *d = lx_driver_initcall_table;

	if (drivers_started & BIT(i))
		return true;
	if (!d[i].shared)
		return false;
	for (int j = 0; d[j].name; j++)
		if (!(drivers_started & BIT(j)) && uses(&d[j], i))
			return false;
	return true;
}

/* Whether @p belongs to an entry lx_emul_initcalls_run passes over. */
static bool passed_over_call(const initcall_entry_t *p)
{
	const struct lx_driver_initcalls *d = lx_driver_initcall_table;

	for (int i = 0; d[i].name; i++) {
		if (!passed_over(i))
			continue;
		for (int j = 0; j < d[i].count; j++)
			if ((const int *)p == d[i].calls[j])
				return true;
	}
	return false;
}

static int run_initcalls(void *arg)
{
	int failed = 0;

	for (initcall_entry_t *p = lx_host_initcall_start;
	     p < lx_host_initcall_stop; p++)
		if (!passed_over_call(p))
			failed += run_one(p);
	async_synchronize_full();
	return failed;
}

static int run_calls(const struct lx_driver_initcalls *d)
{
	int failed = 0;

	for (int j = 0; j < d->count; j++)
		failed += run_one((initcall_entry_t *)d->calls[j]);
	return failed;
}

/* Table entry @arg's initcalls, after those of the shared entries it
 * uses that have not run yet. */
static int run_driver(void *arg)
{
	const struct lx_driver_initcalls *d = arg;
	int failed = 0;

	for (const short *u = d->uses; *u >= 0; u++) {
		if (drivers_started & BIT(*u))
			continue;
		drivers_started |= BIT(*u);
		failed += run_calls(&lx_driver_initcall_table[*u]);
	}
	failed += run_calls(d);
	async_synchronize_full();
	return failed;
}

int lx_emul_initcalls_run(void)
{
	if (initcalls_done)
		return -EBUSY;
	initcalls_done = true;
	return lx_world_run(run_initcalls, NULL);
}

/* Mark the driver named @name started: its table index, or -ENOENT,
 * -ENOSPC (printed), -EBUSY as lx_emul_driver_init says. */
static int mark_started(const char *name)
{
	const struct lx_driver_initcalls *d = lx_driver_initcall_table;
	int i;

	for (i = 0; d[i].name && strcmp(d[i].name, name); i++)
		;
	if (!d[i].name)
		return -ENOENT;
	if (i >= MAX_TABLE_DRIVERS) {
		pr_err("linux-emu: driver %s is past the %d drivers "
		       "lx_emul_driver_init can start\n", name,
		       MAX_TABLE_DRIVERS);
		return -ENOSPC;
	}
	if (initcalls_done || (drivers_started & BIT(i)))
		return -EBUSY;
	drivers_started |= BIT(i);
	return i;
}

int lx_emul_driver_init(const char *name)
{
	int i = mark_started(name);

	if (i < 0)
		return i;
	return lx_world_run(run_driver,
			    (void *)&lx_driver_initcall_table[i]);
}

int lx_emul_driver_skip(const char *name)
{
	int i = mark_started(name);

	return i < 0 ? i : 0;
}
