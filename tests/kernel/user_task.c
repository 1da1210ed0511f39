/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers of the suites that run user tasks (task, mach-user). */
#include <stdint.h>

#include "kern/bootstrap.h"
#include "kern/clock.h"
#include "kern/console.h"
#include "kern/kalloc.h"
#include "kern/ktest.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/supervise.h"
#include "ipc/mach_port.h"
#include "kern/task.h"
#include "tests/kernel/user_task.h"
#include "vm/vm_page.h"

const struct boot_module *user_task_module(const char *word)
{
	for (size_t i = 0; i < bootinfo.nmodules; i++)
		if (kmemmem(bootinfo.modules[i].cmdline,
			    strlen(bootinfo.modules[i].cmdline), word))
			return &bootinfo.modules[i];
	return NULL;
}

uint64_t user_task_free_pages(void)
{
	uint64_t n = 0;

	for (int z = 0; z < VM_ZONE_COUNT; z++)
		n += vm_page_free_count(z);
	return n;
}

void user_task_baseline(struct user_task_baseline *b)
{
	b->pages = user_task_free_pages();
	b->bytes = kalloc_bytes_in_use();
	b->tasks = task_count();
}

void user_task_expect_baseline(struct ktest *t,
			       const struct user_task_baseline *b)
{
	KTEST_EXPECT_EQ(t, task_count(), b->tasks);
	KTEST_EXPECT_EQ(t, user_task_free_pages(), b->pages);
	KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(), b->bytes);
}

bool user_task_wait(unsigned int before, unsigned int n, unsigned int seconds)
{
	uint64_t end = clock_ticks() + (uint64_t)seconds * HZ;

	while (task_terminations - before < n && clock_ticks() < end) {
		assert_wait(&task_terminations);
		thread_set_timeout(5);
		thread_block();
	}
	thread_sleep_ticks(1);	/* exited threads are freed after a switch */
	return task_terminations - before >= n;
}

bool user_task_start(struct ktest *t, const char *word, char *console,
		     size_t size, struct task **task)
{
	const struct boot_module *m = user_task_module(word);

	if (m == NULL) {
		ktest_fail(t, "harness passed no module with %s", word);
		return false;
	}
	console_capture_start(console, size);
	if (bootstrap_task_create(m, task) != KERN_SUCCESS) {
		console_capture_stop();
		ktest_fail(t, "module %s did not start", word);
		return false;
	}
	return true;
}

bool user_task_run(struct ktest *t, const char *word, unsigned int seconds,
		   char *console, size_t size)
{
	unsigned int before = task_terminations;
	bool ended;

	if (!user_task_start(t, word, console, size, NULL))
		return false;
	ended = user_task_wait(before, 1, seconds);
	console_capture_stop();
	if (!ended)
		ktest_fail(t, "task %s did not end within %u s", word, seconds);
	return ended;
}

/* A port whose receive right @server holds; both tasks get a send right
 * to it as their bootstrap port. */
static kern_return_t rendezvous(struct task *server, struct task *client)
{
	mach_port_name_t name;
	struct ipc_port *a, *b;
	mach_msg_type_name_t type;
	kern_return_t kr;

	kr = mach_port_allocate(server->itk_space, MACH_PORT_RIGHT_RECEIVE,
				&name);
	if (kr == KERN_SUCCESS)
		kr = mach_port_extract_right(server->itk_space, name,
					     MACH_MSG_TYPE_MAKE_SEND, &a, &type);
	if (kr == KERN_SUCCESS)
		kr = mach_port_extract_right(server->itk_space, name,
					     MACH_MSG_TYPE_MAKE_SEND, &b, &type);
	if (kr != KERN_SUCCESS)
		return kr;
	server->itk_bootstrap = a;
	client->itk_bootstrap = b;
	return KERN_SUCCESS;
}

bool user_task_run_pair(struct ktest *t, const char *server_word,
			const char *client_word, unsigned int seconds,
			char *console, size_t size)
{
	const struct boot_module *ms = user_task_module(server_word);
	const struct boot_module *mc = user_task_module(client_word);
	struct bootstrap_entry server_entry, client_entry;
	struct task *server, *client;
	unsigned int before = task_terminations;
	bool ended;

	if (ms == NULL || mc == NULL) {
		ktest_fail(t, "harness passed no %s or %s module", server_word,
			   client_word);
		return false;
	}
	if (bootstrap_task_load(ms, &server, &server_entry) != KERN_SUCCESS)
		return false;
	if (bootstrap_task_load(mc, &client, &client_entry) != KERN_SUCCESS) {
		task_destroy(server);
		return false;
	}
	if (rendezvous(server, client) != KERN_SUCCESS) {
		ktest_fail(t, "no rendezvous port");
		task_destroy(client);
		task_destroy(server);
		return false;
	}
	console_capture_start(console, size);
	if (bootstrap_task_start(server, &server_entry) != KERN_SUCCESS) {
		console_capture_stop();
		task_destroy(client);
		ktest_fail(t, "the server did not start");
		return false;
	}
	if (bootstrap_task_start(client, &client_entry) != KERN_SUCCESS) {
		console_capture_stop();
		ktest_fail(t, "the client did not start");
		return false;
	}
	ended = user_task_wait(before, 2, seconds);
	console_capture_stop();
	if (!ended)
		ktest_fail(t, "the two tasks did not end within %u s", seconds);
	return ended;
}

const char *user_task_text_after(const char *console, const char *prefix)
{
	const char *p = kmemmem(console, strlen(console), prefix);

	return p != NULL ? p + strlen(prefix) : NULL;
}

bool user_task_number_after(const char *console, const char *prefix,
			    uint64_t *value)
{
	const char *at = user_task_text_after(console, prefix);
	unsigned int base = 10, digits = 0;

	if (at == NULL)
		return false;
	if (at[0] == '0' && (at[1] == 'x' || at[1] == 'X')) {
		base = 16;
		at += 2;
	}
	*value = 0;
	for (;; at++, digits++) {
		unsigned int d;

		if (*at >= '0' && *at <= '9')
			d = (unsigned int)(*at - '0');
		else if (base == 16 && *at >= 'a' && *at <= 'f')
			d = (unsigned int)(*at - 'a' + 10);
		else
			break;
		*value = *value * base + d;
	}
	return digits != 0;
}

struct supervision *user_task_start_server(struct ktest *t, const char *word,
					   char *console, size_t size)
{
	struct task *server = NULL;
	struct supervision *sup;
	bool ready = false;

	if (!user_task_start(t, word, console, size, &server))
		return NULL;
	for (unsigned int i = 0; i < 100 && !ready; i++) {
		thread_sleep_ticks(HZ / 10);
		ready = kmemmem(console, strlen(console), "SERVER-READY") !=
			NULL;
	}
	console_capture_stop();
	if (!ready) {
		ktest_fail(t, "%s: not ready within 10 s", word);
		return NULL;
	}
	sup = supervise_of_task(server);
	if (sup == NULL)
		ktest_fail(t, "%s: not supervised", word);
	return sup;
}

void user_task_client_done(struct ktest *t, const char *word, char *console,
			   size_t size)
{
	if (!user_task_start(t, word, console, size, NULL))
		return;
	for (unsigned int i = 0; i < 600 &&
	     user_task_count_lines(console, "USER-DONE") == 0; i++)
		thread_sleep_ticks(HZ / 10);
	thread_sleep_ticks(HZ / 10);
	console_capture_stop();
}

unsigned int user_task_count_lines(const char *console, const char *prefix)
{
	unsigned int n = 0;
	size_t len = strlen(prefix);

	for (const char *p = console; *p != '\0'; p++)
		if ((p == console || p[-1] == '\n') &&
		    strncmp(p, prefix, len) == 0)
			n++;
	return n;
}

unsigned int user_task_count_text(const char *console, const char *text)
{
	const char *p = console, *end = console + strlen(console);
	unsigned int n = 0;

	while (p < end && (p = kmemmem(p, end - p, text)) != NULL) {
		n++;
		p++;
	}
	return n;
}

void user_task_expect_checks(struct ktest *t, const char *console,
			     unsigned int min)
{
	const char *done = kmemmem(console, strlen(console), "USER-DONE ");
	unsigned int declared = 0;

	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "USER-FAIL"), 0);
	if (done == NULL) {
		ktest_fail(t, "the program never printed USER-DONE");
		return;
	}
	for (const char *p = done + 10; *p >= '0' && *p <= '9'; p++)
		declared = declared * 10 + (unsigned int)(*p - '0');
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "USER-PASS"),
			declared);
	KTEST_EXPECT_GE(t, declared, min);
}
