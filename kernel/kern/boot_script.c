/* SPDX-License-Identifier: GPL-2.0-only */
/* Boot-script variables in module command lines become port names. */
#include <stddef.h>

#include "ipc/ipc_space.h"
#include "kern/boot_script.h"
#include "kern/kprintf.h"
#include "kern/string.h"
#include "kern/task.h"
#include "kern/task_port.h"

struct boot_variable {
	const char *name;
	struct ipc_port **port;
};

static const struct boot_variable variables[] = {
	{ "host-port", &host_priv_port },
	{ "device-port", &master_device_port },
	{ "driver-port", &driver_master_port },
};

/* The variable called [@name, @name + @len), or NULL. */
static const struct boot_variable *variable_named(const char *name,
						  size_t len)
{
	for (size_t i = 0; i < sizeof(variables) / sizeof(variables[0]); i++)
		if (strlen(variables[i].name) == len &&
		    memcmp(variables[i].name, name, len) == 0)
			return &variables[i];
	return NULL;
}

kern_return_t boot_script_expand(struct task *task, const char *in,
				 char *out, size_t size)
{
	size_t n = 0;

	while (*in != '\0') {
		const struct boot_variable *v;
		const char *end;
		mach_port_name_t name;
		kern_return_t kr;
		int len;

		if (in[0] != '$' || in[1] != '{') {
			if (n + 1 >= size)
				return KERN_NO_SPACE;
			out[n++] = *in++;
			continue;
		}
		for (end = in + 2; *end != '\0' && *end != '}'; end++)
			;
		if (*end == '\0') {
			kprintf("boot script: '${' without '}' in '%s'\n", in);
			return KERN_INVALID_ARGUMENT;
		}
		v = variable_named(in + 2, end - (in + 2));
		if (v == NULL) {
			kprintf("boot script: unknown variable '%.*s'\n",
				(int)(end + 1 - in), in);
			return KERN_INVALID_ARGUMENT;
		}
		kr = ipc_space_insert_send(task->itk_space, *v->port, &name);
		if (kr != KERN_SUCCESS)
			return kr;
		len = ksnprintf(out + n, size - n, "%u", (unsigned int)name);
		if (len < 0 || (size_t)len >= size - n)
			return KERN_NO_SPACE;
		n += len;
		in = end + 1;
	}
	if (n >= size)
		return KERN_NO_SPACE;
	out[n] = '\0';
	return KERN_SUCCESS;
}
