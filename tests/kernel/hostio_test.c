/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "hostio": mach_host.defs, vm_read / vm_write, and user I/O ports (mach_i386.defs). */
/*
 * The user programs tests/user/host_probe.c and io_probe.c print one
 * "USER-PASS name" or "USER-FAIL name: ..." line per check; this suite
 * runs them as boot modules and adds what only the kernel can see: the
 * memory size the kernel knows, the reason a task ended, io_perm objects
 * and pages left behind.  The first cases check the I/O bitmap itself.
 */
#include <stddef.h>
#include <stdint.h>

#include "kern/bootinfo.h"
#include "kern/bootstrap.h"
#include "kern/console.h"
#include "kern/kalloc.h"
#include "kern/kprintf.h"
#include "kern/ktest.h"
#include "kern/string.h"
#include "kern/task.h"
#include "tests/kernel/user_task.h"
#include "x86_64/gdt.h"
#include "x86_64/io_bitmap.h"
#include "x86_64/io_perm.h"

static char console[16384];

/* Whether the TSS bitmap now lets user mode use @port. */
static bool tss_allows(uint16_t port)
{
	if (gdt_tss.iomap_base != offsetof(struct tss, iomap))
		return false;
	return !(gdt_tss.iomap[port / 8] & (1u << (port % 8)));
}

struct bitmap_case {
	const char *name;
	uint16_t from, to;
	bool enable;
	kern_return_t kr;
	uint16_t probe_from, probe_to;	/* then this range ... */
	bool allowed;			/* ... is allowed or not */
};

/* Applied in order to one bitmap. */
static const struct bitmap_case bitmap_cases[] = {
	{ "deny_without_bitmap_is_a_no_op", 0x70, 0x71, false, KERN_SUCCESS,
	  0x70, 0x70, false },
	{ "reversed_range_refused", 0x71, 0x70, true, KERN_INVALID_ARGUMENT,
	  0x70, 0x70, false },
	{ "grant_cmos_pair", 0x70, 0x71, true, KERN_SUCCESS,
	  0x70, 0x71, true },
	{ "port_below_grant_denied", 0x70, 0x71, true, KERN_SUCCESS,
	  0x6f, 0x6f, false },
	{ "port_above_grant_denied", 0x70, 0x71, true, KERN_SUCCESS,
	  0x72, 0x72, false },
	{ "grant_higher_range_grows_bitmap", 0x3f8, 0x3ff, true, KERN_SUCCESS,
	  0x3f8, 0x3ff, true },
	{ "growing_keeps_earlier_grant", 0x3f8, 0x3ff, true, KERN_SUCCESS,
	  0x70, 0x71, true },
	{ "withdraw_one_port", 0x71, 0x71, false, KERN_SUCCESS,
	  0x71, 0x71, false },
	{ "withdraw_leaves_neighbour", 0x71, 0x71, false, KERN_SUCCESS,
	  0x70, 0x70, true },
	{ "withdraw_beyond_bitmap_is_harmless", 0x8000, 0xffff, false,
	  KERN_SUCCESS, 0x3f8, 0x3ff, true },
	{ "grant_top_port", 0xfff0, 0xffff, true, KERN_SUCCESS,
	  0xffff, 0xffff, true },
};

static void bitmap_grants_and_withdraws_ranges(struct ktest *t)
{
	uint64_t bytes = kalloc_bytes_in_use();
	struct io_bitmap *bm = NULL;

	for (size_t i = 0; i < sizeof(bitmap_cases) / sizeof(bitmap_cases[0]);
	     i++) {
		const struct bitmap_case *c = &bitmap_cases[i];
		kern_return_t kr = io_bitmap_set(&bm, c->from, c->to,
						 c->enable);

		if (kr != c->kr)
			ktest_fail(t, "%s: expected kr %d, got %d", c->name,
				   c->kr, kr);
		if (io_bitmap_allows(bm, c->probe_from, c->probe_to) !=
		    c->allowed)
			ktest_fail(t, "%s: expected ports %#x-%#x %s", c->name,
				   c->probe_from, c->probe_to,
				   c->allowed ? "allowed" : "denied");
	}
	io_bitmap_free(bm);
	KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(), bytes);
}

/* The TSS follows io_bitmap_load; this thread is a kernel thread, whose
 * task has no bitmap, so it is switched off again at the end. */
static void tss_loads_bitmap_and_switches_it_off(struct ktest *t)
{
	struct io_bitmap *a = NULL, *b = NULL;
	uint64_t copied;

	KTEST_EXPECT_EQ(t, gdt_tss.iomap_end, 0xff);
	KTEST_EXPECT_EQ(t, gdt_tss.iomap_base, sizeof(struct tss));
	KTEST_EXPECT_EQ(t, io_bitmap_set(&a, 0x80, 0x80, true), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, io_bitmap_set(&b, 0x3f8, 0x3ff, true),
			KERN_SUCCESS);
	io_bitmap_load(a);
	KTEST_EXPECT_TRUE(t, tss_allows(0x80));
	KTEST_EXPECT_FALSE(t, tss_allows(0x81));
	io_bitmap_load(b);
	KTEST_EXPECT_FALSE(t, tss_allows(0x80));
	KTEST_EXPECT_TRUE(t, tss_allows(0x3f8));
	io_bitmap_load(NULL);
	KTEST_EXPECT_FALSE(t, tss_allows(0x3f8));
	copied = io_bitmap_copied_bytes;
	io_bitmap_load(b);	/* still in the TSS: nothing to copy */
	KTEST_EXPECT_EQ(t, io_bitmap_copied_bytes, copied);
	KTEST_EXPECT_TRUE(t, tss_allows(0x3f8));
	KTEST_EXPECT_EQ(t, io_bitmap_set(&b, 0x3f8, 0x3f8, false),
			KERN_SUCCESS);
	io_bitmap_load(b);	/* changed: copied again */
	KTEST_EXPECT_FALSE(t, tss_allows(0x3f8));
	KTEST_EXPECT_TRUE(t, tss_allows(0x3f9));
	io_bitmap_load(a);	/* shorter: the rest denied again */
	KTEST_EXPECT_FALSE(t, tss_allows(0x3f9));
	io_bitmap_free(a);
	KTEST_EXPECT_EQ(t, gdt_tss.iomap_base, sizeof(struct tss));
	io_bitmap_free(b);
	io_bitmap_load(NULL);
}

/* The "USER-INFO memory_size N" line of @console, or 0. */
static uint64_t printed_memory_size(const char *console_text)
{
	const char *p = kmemmem(console_text, strlen(console_text),
				"USER-INFO memory_size ");
	uint64_t v = 0;

	if (p == NULL)
		return 0;
	for (p += 22; *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	return v;
}

static void host_and_vm_routines_answer_user_program(struct ktest *t)
{
	struct user_task_baseline b;

	user_task_baseline(&b);
	if (!user_task_run(t, "host_probe mode=self", 10, console,
			   sizeof(console)))
		return;
	user_task_expect_checks(t, console, 70);
	KTEST_EXPECT_EQ(t, printed_memory_size(console),
			bootinfo_usable_bytes(&bootinfo));
	if (strcmp(task_last_reason, "task_terminate") != 0)
		ktest_fail(t, "the task ended by \"%s\", not by exit()",
			   task_last_reason);
	user_task_expect_baseline(t, &b);
}

static void vm_read_and_write_reach_another_task(struct ktest *t)
{
	struct user_task_baseline b;

	user_task_baseline(&b);
	if (!user_task_run_pair(t, "mode=reader", "mode=peer", 10, console,
				sizeof(console)))
		return;
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "USER-FAIL"), 0);
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "USER-PASS"), 10);
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "USER-DONE"), 2);
	user_task_expect_baseline(t, &b);
}

/* Fail @t unless @n tasks ended with a reason starting with @reason (the
 * console line "task NAME terminated: REASON"). */
static void expect_ended_by(struct ktest *t, unsigned int n,
			    const char *reason)
{
	char prefix[64];
	unsigned int seen = 0;
	size_t len;

	len = (size_t)ksnprintf(prefix, sizeof(prefix), "terminated: %s",
				reason);
	for (const char *p = console;
	     (p = kmemmem(p, strlen(p), prefix)) != NULL; p += len)
		seen++;
	if (seen != n)
		ktest_fail(t, "expected %u task(s) ended by \"%s\", saw %u", n,
			   reason, seen);
}

/* True if both lines are on the console, @first before @second. */
static bool appears_before(const char *first, const char *second)
{
	const char *a = kmemmem(console, strlen(console), first);
	const char *b = kmemmem(console, strlen(console), second);

	return a != NULL && b != NULL && a < b;
}

/* Start the modules of @words at once; wait until all have ended. */
static bool run_together(struct ktest *t, const char *const *words,
			 unsigned int n)
{
	unsigned int before = task_terminations, started = 0;
	bool ended;

	console_capture_start(console, sizeof(console));
	for (unsigned int i = 0; i < n; i++) {
		const struct boot_module *m = user_task_module(words[i]);

		if (m == NULL || bootstrap_task_create(m, NULL) !=
		    KERN_SUCCESS)
			ktest_fail(t, "module %s did not start", words[i]);
		else
			started++;
	}
	ended = user_task_wait(before, started, 10);
	console_capture_stop();
	if (!ended)
		ktest_fail(t, "the tasks did not end within 10 s");
	return ended && started == n;
}

static void granted_ports_work_and_ungranted_task_faults(struct ktest *t)
{
	static const char *const words[] = { "io_grant ", "io_none " };
	struct user_task_baseline b;
	unsigned int perms = io_perm_count;

	user_task_baseline(&b);
	if (!run_together(t, words, 2))
		return;
	user_task_expect_checks(t, console, 12);
	/* Only io_none announces a fault; one task faults, one exits. */
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "USER-IO about"), 1);
	/* ... and it faulted while io_grant held its grant. */
	KTEST_EXPECT_TRUE(t, appears_before("USER-PASS granted_read_works\n",
					    "USER-IO about"));
	KTEST_EXPECT_TRUE(t, appears_before("USER-IO about",
					    "USER-PASS granted_read_works_after"));
	expect_ended_by(t, 1, "#GP");
	expect_ended_by(t, 1, "task_terminate");
	KTEST_EXPECT_EQ(t, io_perm_count, perms);
	KTEST_EXPECT_EQ(t, gdt_tss.iomap_base, sizeof(struct tss));
	user_task_expect_baseline(t, &b);
}

static void withdrawn_ports_fault(struct ktest *t)
{
	static const char *const words[] = { "io_revoke " };
	struct user_task_baseline b;
	unsigned int perms = io_perm_count;

	user_task_baseline(&b);
	if (!run_together(t, words, 1))
		return;
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "USER-FAIL"), 0);
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "USER-PASS"), 5);
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "USER-IO about"), 1);
	expect_ended_by(t, 1, "#GP");
	KTEST_EXPECT_EQ(t, io_perm_count, perms);
	user_task_expect_baseline(t, &b);
}

static void grant_outlives_dropped_perm_and_object_is_freed(struct ktest *t)
{
	static const char *const words[] = { "io_drop " };
	struct user_task_baseline b;
	unsigned int perms = io_perm_count;

	user_task_baseline(&b);
	if (!run_together(t, words, 1))
		return;
	user_task_expect_checks(t, console, 5);
	expect_ended_by(t, 1, "task_terminate");
	KTEST_EXPECT_EQ(t, io_perm_count, perms);
	user_task_expect_baseline(t, &b);
}

static const struct ktest_case hostio_cases[] = {
	{ "bitmap_grants_and_withdraws_ranges",
	  bitmap_grants_and_withdraws_ranges },
	{ "tss_loads_bitmap_and_switches_it_off",
	  tss_loads_bitmap_and_switches_it_off },
	{ "host_and_vm_routines_answer_user_program",
	  host_and_vm_routines_answer_user_program },
	{ "vm_read_and_write_reach_another_task",
	  vm_read_and_write_reach_another_task },
	{ "granted_ports_work_and_ungranted_task_faults",
	  granted_ports_work_and_ungranted_task_faults },
	{ "withdrawn_ports_fault", withdrawn_ports_fault },
	{ "grant_outlives_dropped_perm_and_object_is_freed",
	  grant_outlives_dropped_perm_and_object_is_freed },
};
KTEST_SUITE(hostio_suite, "hostio", hostio_cases);
