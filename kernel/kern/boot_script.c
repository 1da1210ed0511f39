/* SPDX-License-Identifier: GPL-2.0-only */
/* Boot-script variables in module command lines become port names. */
/*
 * GNU Mach's boot script names its ports ${host-port}, ${device-port}
 * (Graft adds ${driver-port}) and lets one module line bind a variable
 * for others ($(exec-task=task-create)); here a line binds a port it
 * receives on: $(NAME=port-create).  The bound ports live in a small
 * table, each with a reference of the table's, until boot_script_reset.
 * Locking:
 * boot tasks are loaded one at a time, from the boot thread (or a
 * suite's thread); interrupts off around each space operation.
 */
#include <stdbool.h>
#include <stddef.h>

#include "ipc/ipc_port.h"
#include "ipc/ipc_right.h"
#include "ipc/ipc_space.h"
#include "ipc/mach_port.h"
#include "kern/boot_script.h"
#include "kern/kprintf.h"
#include "kern/string.h"
#include "kern/task.h"
#include "kern/task_port.h"
#include "x86_64/cpu.h"

#define PORT_CREATE	"=port-create"

struct boot_variable {
	const char *name;
	struct ipc_port **port;
};

static const struct boot_variable variables[] = {
	{ "host-port", &host_priv_port },
	{ "device-port", &master_device_port },
	{ "driver-port", &driver_master_port },
};

/* The ports module lines bound ($(NAME=port-create)). */
static struct {
	char name[BOOT_SCRIPT_NAME_MAX];
	struct ipc_port *port;		/* a reference of the table's */
} bound[BOOT_SCRIPT_PORTS];
static unsigned int nbound;

static bool named(const char *name, const char *s, size_t len)
{
	return strlen(name) == len && memcmp(name, s, len) == 0;
}

/* Whether [@name, @name + @len) is a variable, built-in or bound; *@port
 * the port it stands for then. */
static bool variable_find(const char *name, size_t len,
			  struct ipc_port **port)
{
	for (size_t i = 0; i < sizeof(variables) / sizeof(variables[0]); i++)
		if (named(variables[i].name, name, len)) {
			*port = *variables[i].port;
			return true;
		}
	for (unsigned int i = 0; i < nbound; i++)
		if (named(bound[i].name, name, len)) {
			*port = bound[i].port;
			return true;
		}
	return false;
}

/* A name a line may bind: 1 to BOOT_SCRIPT_NAME_MAX - 1 of a-z, 0-9,
 * '-', '_'. */
static bool bindable(const char *name, size_t len)
{
	if (len == 0 || len >= BOOT_SCRIPT_NAME_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') ||
		      (name[i] >= '0' && name[i] <= '9') || name[i] == '-' ||
		      name[i] == '_'))
			return false;
	return true;
}

/*
 * $(@cmd) of @len bytes for @task: a new port whose receive right
 * @task's space gets as *@name, bound to the variable before '='.
 */
static kern_return_t port_create(struct task *task, const char *cmd,
				 size_t len, mach_port_name_t *name)
{
	size_t n = 0, create = strlen(PORT_CREATE);
	struct ipc_port *port;
	kern_return_t kr;
	uint64_t flags;

	while (n < len && cmd[n] != '=')
		n++;
	if (len - n != create || memcmp(cmd + n, PORT_CREATE, create) != 0 ||
	    !bindable(cmd, n)) {
		kprintf("boot script: unknown command '$(%.*s)'\n", (int)len,
			cmd);
		return KERN_INVALID_ARGUMENT;
	}
	if (variable_find(cmd, n, &port)) {
		kprintf("boot script: '%.*s' is bound already\n", (int)n, cmd);
		return KERN_INVALID_ARGUMENT;
	}
	if (nbound == BOOT_SCRIPT_PORTS) {
		kprintf("boot script: more than %u ports bound\n",
			BOOT_SCRIPT_PORTS);
		return KERN_RESOURCE_SHORTAGE;
	}
	kr = mach_port_allocate(task->itk_space, MACH_PORT_RIGHT_RECEIVE,
				name);
	if (kr != KERN_SUCCESS)
		return kr;
	flags = cpu_intr_save();
	kr = ipc_right_lookup_receive(task->itk_space, *name, &port);
	if (kr == KERN_SUCCESS)
		ipc_port_reference(port);
	cpu_intr_restore(flags);
	if (kr != KERN_SUCCESS)
		return kr;
	memcpy(bound[nbound].name, cmd, n);
	bound[nbound].name[n] = '\0';
	bound[nbound++].port = port;
	return KERN_SUCCESS;
}

/* Drop the bindings from @keep on. */
static void unbind_from(unsigned int keep)
{
	while (nbound > keep)
		ipc_port_release(bound[--nbound].port);
}

/* Expand the "${...}" or "$(...)" at @in (its end, '}' or ')', at
 * @end) for @task: *@name the name made. */
static kern_return_t expand_one(struct task *task, const char *in,
				const char *end, mach_port_name_t *name)
{
	struct ipc_port *port;

	if (in[1] == '(')
		return port_create(task, in + 2, end - (in + 2), name);
	if (!variable_find(in + 2, end - (in + 2), &port)) {
		kprintf("boot script: unknown variable '%.*s'\n",
			(int)(end + 1 - in), in);
		return KERN_INVALID_ARGUMENT;
	}
	return ipc_space_insert_send(task->itk_space, port, name);
}

static kern_return_t expand(struct task *task, const char *in, char *out,
			    size_t size)
{
	size_t n = 0;

	while (*in != '\0') {
		const char *end;
		mach_port_name_t name;
		kern_return_t kr;
		char close;
		int len;

		if (in[0] != '$' || (in[1] != '{' && in[1] != '(')) {
			if (n + 1 >= size)
				return KERN_NO_SPACE;
			out[n++] = *in++;
			continue;
		}
		close = in[1] == '{' ? '}' : ')';
		for (end = in + 2; *end != '\0' && *end != close; end++)
			;
		if (*end == '\0') {
			kprintf("boot script: '$%c' without '%c' in '%s'\n",
				in[1], close, in);
			return KERN_INVALID_ARGUMENT;
		}
		kr = expand_one(task, in, end, &name);
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

kern_return_t boot_script_expand(struct task *task, const char *in,
				 char *out, size_t size)
{
	unsigned int keep = nbound;
	kern_return_t kr = expand(task, in, out, size);

	if (kr != KERN_SUCCESS)
		unbind_from(keep);
	return kr;
}

bool boot_script_binds(const char *cmdline)
{
	const char *p = cmdline;

	while ((p = kmemmem(p, strlen(p), "$(")) != NULL) {
		const char *end = p + 2;

		while (*end != '\0' && *end != ')')
			end++;
		if (*end == ')' && (size_t)(end - p) > strlen(PORT_CREATE) &&
		    memcmp(end - strlen(PORT_CREATE), PORT_CREATE,
			   strlen(PORT_CREATE)) == 0)
			return true;
		p += 2;
	}
	return false;
}

void boot_script_reset(void)
{
	unbind_from(0);
}
