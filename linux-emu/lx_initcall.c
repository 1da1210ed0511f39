/* SPDX-License-Identifier: GPL-2.0-only */
/* Running the linked drivers' initcalls (module_init when built in). */
/*
 * tools/linux_link.py leaves only drivers' initcalls in .initcall*.init;
 * the host's linker script gathers them between lx_host_initcall_start
 * and lx_host_initcall_stop in Linux's level order.  Library initcalls are
 * renamed away and never run: they set up subsystems Graft does not have
 * (the iomem pseudo file system, GRO offloads, %p hashing's key).
 */
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/printk.h>

#include <lx_emul.h>
#include <lx_host.h>
#include <lx_world.h>

static bool initcalls_done;

int lx_emul_initcall_count(void)
{
	return lx_host_initcall_stop - lx_host_initcall_start;
}

static int run_initcalls(void *arg)
{
	int failed = 0;

	for (initcall_entry_t *p = lx_host_initcall_start;
	     p < lx_host_initcall_stop; p++) {
		initcall_t fn = initcall_from_entry(p);
		int ret = fn();

		if (ret) {
			pr_warn("linux-emu: initcall %ps returned %d\n", fn,
				ret);
			failed++;
		}
	}
	return failed;
}

int lx_emul_initcalls_run(void)
{
	if (initcalls_done)
		return -EBUSY;
	initcalls_done = true;
	return lx_world_run(run_initcalls, NULL);
}
