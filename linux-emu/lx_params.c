/* SPDX-License-Identifier: GPL-2.0-only */
/* lx_emul_params_set: the linked drivers' module parameters ("libata.dma=0") from the host's command line, parsed by Linux's kernel/params.c. */
/*
 * A built-in driver's module_param() is an entry of the __param section
 * named "MODNAME.param"; tools/linux_link.py lists the linked drivers'
 * entries in lx_driver_param_table.  They are copied into one array, as
 * Linux's linker script gathers them, and handed to parse_args() with
 * the command line: words that are no parameter of a linked driver
 * (Graft's own) are left alone.
 */
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <lx_emul.h>
#include <lx_world.h>

extern const void *const lx_driver_param_table[];

static int not_ours(char *param, char *val, const char *unused, void *arg)
{
	return 0;
}

static int in_params_set(void *arg)
{
	const char *cmdline = arg;
	struct kernel_param *params;
	unsigned int n = 0;
	char *args;
	int err;

	while (lx_driver_param_table[n])
		n++;
	params = kcalloc(n ? n : 1, sizeof(*params), GFP_KERNEL);
	args = kstrdup(cmdline, GFP_KERNEL);
	if (!params || !args) {
		kfree(params);
		kfree(args);
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < n; i++)
		memcpy(&params[i], lx_driver_param_table[i], sizeof(*params));
	err = PTR_ERR_OR_ZERO(parse_args("linux-emu", args, params, n,
					 -32768, 32767, NULL, not_ours));
	kfree(params);
	kfree(args);
	return err;
}

/*
 * lx_emul_params_set - set the linked drivers' module parameters named
 * in @cmdline ("libata.dma=0"; other words are ignored), before their
 * initcalls run.  0; -ENOMEM; -EINVAL or the parameter's own error for a
 * bad value (named on the console by kernel/params.c).  Thread context.
 */
int lx_emul_params_set(const char *cmdline)
{
	return lx_world_run(in_params_set, (void *)cmdline);
}
