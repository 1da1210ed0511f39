/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "boot-script": ${host-port} and ${device-port} in module command lines. */
#include <stdint.h>

#include "ipc/ipc_entry.h"
#include "ipc/ipc_right.h"
#include "kern/boot_script.h"
#include "kern/ktest.h"
#include "kern/string.h"
#include "kern/task.h"
#include "kern/task_port.h"
#include "tests/kernel/user_task.h"
#include "x86_64/cpu.h"

struct expansion {
	const char *in;
	size_t size;			/* of the output buffer */
	kern_return_t kr;
	const char *out;		/* expected text, if not NULL */
	/* More checks on the result, if not NULL. */
	void (*check)(struct ktest *t, struct task *task, const char *out);
};

/* Expand @e->in for a fresh task; check the code and the text; the task
 * and everything it held go away afterwards. */
static void expect_expansion(struct ktest *t, const struct expansion *e)
{
	struct user_task_baseline b;
	struct task *task;
	char out[128];

	user_task_baseline(&b);
	if (task_create_user("boot-script", &task) != KERN_SUCCESS) {
		ktest_fail(t, "no task");
		return;
	}
	KTEST_EXPECT_EQ(t, boot_script_expand(task, e->in, out, e->size),
			e->kr);
	if (e->kr == KERN_SUCCESS && e->out != NULL)
		KTEST_EXPECT_STREQ(t, out, e->out);
	if (e->kr == KERN_SUCCESS && e->check != NULL)
		e->check(t, task, out);
	task_destroy(task);
	user_task_expect_baseline(t, &b);
}

static void text_without_variables_is_copied_unchanged(struct ktest *t)
{
	const struct expansion e = { .in = "prog $x {y} $ $", .size = 128,
				     .kr = KERN_SUCCESS,
				     .out = "prog $x {y} $ $" };

	expect_expansion(t, &e);
}

static void unknown_variable_is_refused(struct ktest *t)
{
	const struct expansion e = { .in = "prog ${exec-task}", .size = 128,
				     .kr = KERN_INVALID_ARGUMENT };

	expect_expansion(t, &e);
}

static void unterminated_variable_is_refused(struct ktest *t)
{
	const struct expansion e = { .in = "prog ${host-port", .size = 128,
				     .kr = KERN_INVALID_ARGUMENT };

	expect_expansion(t, &e);
}

static void text_longer_than_buffer_is_refused(struct ktest *t)
{
	const struct expansion e = { .in = "abcdefgh", .size = 8,
				     .kr = KERN_NO_SPACE };

	expect_expansion(t, &e);
}

static void port_name_past_buffer_end_is_refused(struct ktest *t)
{
	const struct expansion e = { .in = "abcdef ${host-port}", .size = 8,
				     .kr = KERN_NO_SPACE };

	expect_expansion(t, &e);
}

/* The port whose send right @name denotes in @task's space, or NULL. */
static void *send_right_object(struct task *task, mach_port_name_t name)
{
	uint64_t flags = cpu_intr_save();
	struct ipc_entry *entry = ipc_right_lookup(task->itk_space, name);
	void *object = NULL;

	if (entry != NULL && (entry->type & MACH_PORT_TYPE_SEND))
		object = entry->object;
	cpu_intr_restore(flags);
	return object;
}

/* The number after "@key=" in @text, or 0. */
static mach_port_name_t name_after(const char *text, const char *key)
{
	const char *p = kmemmem(text, strlen(text), key);
	mach_port_name_t name = 0;

	if (p == NULL)
		return 0;
	for (p += strlen(key); *p >= '0' && *p <= '9'; p++)
		name = name * 10 + (mach_port_name_t)(*p - '0');
	return name;
}

static void names_denote_the_ports(struct ktest *t, struct task *task,
				   const char *out)
{
	mach_port_name_t host = name_after(out, "host=");
	mach_port_name_t device = name_after(out, "device=");

	KTEST_EXPECT_NE(t, host, 0);
	KTEST_EXPECT_NE(t, device, 0);
	KTEST_EXPECT_TRUE(t, send_right_object(task, host) == host_priv_port);
	KTEST_EXPECT_TRUE(t, send_right_object(task, device) ==
			  master_device_port);
	KTEST_EXPECT_TRUE(t, kmemmem(out, strlen(out), " end") != NULL);
}

static void variables_become_send_rights_to_their_ports(struct ktest *t)
{
	const struct expansion e = {
		.in = "prog host=${host-port} device=${device-port} end",
		.size = 128, .kr = KERN_SUCCESS,
		.check = names_denote_the_ports };

	expect_expansion(t, &e);
}

static const struct ktest_case boot_script_cases[] = {
	{ "text_without_variables_is_copied_unchanged",
	  text_without_variables_is_copied_unchanged },
	{ "variables_become_send_rights_to_their_ports",
	  variables_become_send_rights_to_their_ports },
	{ "unknown_variable_is_refused", unknown_variable_is_refused },
	{ "unterminated_variable_is_refused",
	  unterminated_variable_is_refused },
	{ "text_longer_than_buffer_is_refused",
	  text_longer_than_buffer_is_refused },
	{ "port_name_past_buffer_end_is_refused",
	  port_name_past_buffer_end_is_refused },
};
KTEST_SUITE(boot_script_suite, "boot-script", boot_script_cases);
