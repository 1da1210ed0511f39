/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "boot-script": ${host-port}, ${device-port} and ports one line binds for others ($(NAME=port-create), ${NAME}) in module command lines, and their supervision words (restart=, verify=). */
#include <stdbool.h>
#include <stdint.h>

#include "ipc/ipc_entry.h"
#include "ipc/ipc_right.h"
#include "kern/boot_script.h"
#include "kern/kprintf.h"
#include "kern/ktest.h"
#include "kern/string.h"
#include "kern/supervise.h"
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

/* The port of the receive right @name denotes in @task's space, or
 * NULL. */
static void *receive_right_object(struct task *task, mach_port_name_t name)
{
	uint64_t flags = cpu_intr_save();
	struct ipc_entry *entry = ipc_right_lookup(task->itk_space, name);
	void *object = NULL;

	if (entry != NULL && (entry->type & MACH_PORT_TYPE_RECEIVE))
		object = entry->object;
	cpu_intr_restore(flags);
	return object;
}

/* Expand @in for @task into @out (128 bytes): the code. */
static kern_return_t expand(struct task *task, const char *in, char *out)
{
	return boot_script_expand(task, in, out, 128);
}

/* A case of two tasks, a server and a client, and the baseline of
 * what tasks hold before them. */
struct pair {
	struct user_task_baseline b;
	struct task *server, *client;
};

/* Take the baseline and make the two tasks; false if one could not be
 * made (the case failed). */
static bool pair_begin(struct ktest *t, struct pair *w)
{
	user_task_baseline(&w->b);
	if (task_create_user("server", &w->server) != KERN_SUCCESS) {
		ktest_fail(t, "no task");
		return false;
	}
	if (task_create_user("client", &w->client) != KERN_SUCCESS) {
		task_destroy(w->server);
		ktest_fail(t, "no task");
		return false;
	}
	return true;
}

/* Destroy the tasks left (NULL: gone already), unbind every name, and
 * expect the baseline back. */
static void pair_end(struct ktest *t, struct pair *w)
{
	if (w->client != NULL)
		task_destroy(w->client);
	if (w->server != NULL)
		task_destroy(w->server);
	boot_script_reset();
	user_task_expect_baseline(t, &w->b);
}

static void bound_port_is_received_by_its_line_and_sent_to_others(
	struct ktest *t)
{
	struct pair w;
	char out[128], out2[128];
	mach_port_name_t rcv, snd;
	void *port;

	if (!pair_begin(t, &w))
		return;
	KTEST_EXPECT_EQ(t, expand(w.client, "early svc=${netd-port}", out),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, expand(w.server,
				  "netd service=$(netd-port=port-create) "
				  "self=${netd-port}", out), KERN_SUCCESS);
	rcv = name_after(out, "service=");
	port = receive_right_object(w.server, rcv);
	KTEST_EXPECT_TRUE(t, port != NULL);
	/* The line that binds it may name it too: the same name. */
	KTEST_EXPECT_EQ(t, name_after(out, "self="), rcv);
	KTEST_EXPECT_EQ(t, expand(w.client, "client netd=${netd-port} end",
				  out2), KERN_SUCCESS);
	snd = name_after(out2, "netd=");
	KTEST_EXPECT_NE(t, snd, 0);
	KTEST_EXPECT_TRUE(t, send_right_object(w.client, snd) == port);
	KTEST_EXPECT_TRUE(t, kmemmem(out2, strlen(out2), " end") != NULL);
	pair_end(t, &w);
}

/* Each line, expanded after "x=$(svc=port-create)" bound svc in
 * another task, and the code it gets. */
static const struct {
	const char *in;
	kern_return_t kr;
} bind_refusals[] = {
	{ "again $(svc=port-create)", KERN_INVALID_ARGUMENT },
	{ "builtin $(host-port=port-create)", KERN_INVALID_ARGUMENT },
	{ "unknown $(svc2=task-create)", KERN_INVALID_ARGUMENT },
	{ "no_name $(=port-create)", KERN_INVALID_ARGUMENT },
	{ "capital $(Svc2=port-create)", KERN_INVALID_ARGUMENT },
	{ "long $(a23456789012345678901234567890123=port-create)",
	  KERN_INVALID_ARGUMENT },
	{ "unterminated $(svc2=port-create", KERN_INVALID_ARGUMENT },
	{ "unbound ${svc3}", KERN_INVALID_ARGUMENT },
};

static void bad_bindings_are_refused(struct ktest *t)
{
	struct pair w;
	char out[128];

	if (!pair_begin(t, &w))
		return;
	KTEST_EXPECT_EQ(t, expand(w.server, "x=$(svc=port-create)", out),
			KERN_SUCCESS);
	for (size_t i = 0; i < sizeof(bind_refusals) / sizeof(*bind_refusals);
	     i++) {
		kern_return_t kr = expand(w.client, bind_refusals[i].in, out);

		if (kr != bind_refusals[i].kr)
			ktest_fail(t, "'%s': expected %d, got %d",
				   bind_refusals[i].in, bind_refusals[i].kr,
				   kr);
	}
	/* svc is still the server's. */
	KTEST_EXPECT_EQ(t, expand(w.client, "y=${svc}", out), KERN_SUCCESS);
	pair_end(t, &w);
}

/* A line refused after it bound a name leaves it unbound. */
static void refused_line_unbinds_its_names(struct ktest *t)
{
	struct pair w;
	char out[128];

	if (!pair_begin(t, &w))
		return;
	KTEST_EXPECT_EQ(t, expand(w.server, "a=$(svc=port-create) b=${nope}",
				  out), KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, expand(w.client, "c=${svc}", out),
			KERN_INVALID_ARGUMENT);
	pair_end(t, &w);
}

/* The port dies with the task that received on it: a later line naming
 * it is refused. */
static void port_of_a_dead_task_is_refused(struct ktest *t)
{
	struct pair w;
	char out[128];

	if (!pair_begin(t, &w))
		return;
	KTEST_EXPECT_EQ(t, expand(w.server, "s=$(svc=port-create)", out),
			KERN_SUCCESS);
	task_destroy(w.server);
	w.server = NULL;
	KTEST_EXPECT_EQ(t, expand(w.client, "c=${svc}", out),
			KERN_INVALID_CAPABILITY);
	pair_end(t, &w);
}

static void too_many_bound_ports_are_refused(struct ktest *t)
{
	struct user_task_baseline b;
	struct task *task;
	char in[64], out[128];

	user_task_baseline(&b);
	if (task_create_user("server", &task) != KERN_SUCCESS) {
		ktest_fail(t, "no task");
		return;
	}
	for (int i = 0; i < BOOT_SCRIPT_PORTS; i++) {
		ksnprintf(in, sizeof(in), "p=$(port%d=port-create)", i);
		KTEST_EXPECT_EQ(t, expand(task, in, out), KERN_SUCCESS);
	}
	KTEST_EXPECT_EQ(t, expand(task, "p=$(one-more=port-create)", out),
			KERN_RESOURCE_SHORTAGE);
	task_destroy(task);
	boot_script_reset();
	user_task_expect_baseline(t, &b);
}

static void lines_that_bind_are_told_apart(struct ktest *t)
{
	KTEST_EXPECT_TRUE(t, boot_script_binds("netd s=$(netd-port=port-create)"));
	KTEST_EXPECT_TRUE(t, boot_script_binds("a $(x=port-create) b"));
	KTEST_EXPECT_FALSE(t, boot_script_binds("client n=${netd-port}"));
	KTEST_EXPECT_FALSE(t, boot_script_binds("x $(x=task-create)"));
	KTEST_EXPECT_FALSE(t, boot_script_binds("x $(=port-create"));
	KTEST_EXPECT_FALSE(t, boot_script_binds(""));
}

/* A line's supervision words: supervised (restart=N, N from 1 to
 * SUPERVISE_MAX) or not, verified (verify=1, with restart=) or not;
 * each malformed word is printed and taken as absent. */
static void supervision_words_are_read(struct ktest *t)
{
	static const struct {
		const char *line;
		bool supervised;
		unsigned int max;
		bool verify;
	} lines[] = {
		{ "lxdrv restart=3 drivers=e1000", true, 3, false },
		{ "lxdrv restart=100 verify=1", true, 100, true },
		{ "lxdrv verify=0 restart=1000000", true, 1000000, false },
		{ "lxdrv restart=3 verify=2", true, 3, false },
		{ "lxdrv restart=3 verify=yes", true, 3, false },
		{ "lxdrv restart=3 verify=", true, 3, false },
		{ "lxdrv restart=0 verify=1", false, 0, false },
		{ "lxdrv restart=1000001", false, 0, false },
		{ "lxdrv restart=ten", false, 0, false },
		{ "lxdrv restart", false, 0, false },
		{ "lxdrv verify=1", false, 0, false },
		{ "lxdrv drivers=e1000", false, 0, false },
	};

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		unsigned int max = 0;
		bool verify = true;
		bool supervised = supervise_words(lines[i].line, &max,
						  &verify);

		if (supervised != lines[i].supervised ||
		    (supervised && max != lines[i].max) ||
		    verify != lines[i].verify)
			ktest_fail(t, "'%s': expected %s, restart=%u, "
				   "verify=%d; got %s, restart=%u, verify=%d",
				   lines[i].line, lines[i].supervised ?
				   "supervised" : "not supervised",
				   lines[i].max, lines[i].verify, supervised ?
				   "supervised" : "not supervised", max,
				   verify);
	}
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
	{ "bound_port_is_received_by_its_line_and_sent_to_others",
	  bound_port_is_received_by_its_line_and_sent_to_others },
	{ "bad_bindings_are_refused", bad_bindings_are_refused },
	{ "refused_line_unbinds_its_names", refused_line_unbinds_its_names },
	{ "port_of_a_dead_task_is_refused", port_of_a_dead_task_is_refused },
	{ "too_many_bound_ports_are_refused",
	  too_many_bound_ports_are_refused },
	{ "lines_that_bind_are_told_apart", lines_that_bind_are_told_apart },
	{ "supervision_words_are_read", supervision_words_are_read },
};
KTEST_SUITE(boot_script_suite, "boot-script", boot_script_cases);
