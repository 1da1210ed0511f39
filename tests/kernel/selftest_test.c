/* SPDX-License-Identifier: GPL-2.0-only */
/* Deliberately broken guest suites for the harness self-test (hidden from make check). */
#include <stdbool.h>

#include "kern/kprintf.h"
#include "kern/ktest.h"
#include "kern/string.h"

/* selftest-fail: one case passes, one fails on purpose. */
static void selftest_passing_case(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, 1 + 1, 2);
}

static void selftest_failing_case(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, 1 + 1, 3);
}

static const struct ktest_case fail_cases[] = {
	{ "passing_case", selftest_passing_case },
	{ "failing_case_on_purpose", selftest_failing_case },
};
KTEST_SUITE(selftest_fail, "selftest-fail", fail_cases);

/* selftest-panic: an exception nobody expects. */
static void selftest_unexpected_trap(struct ktest *t)
{
	(void)t;
	__asm__ volatile("ud2");
}

static const struct ktest_case panic_cases[] = {
	{ "unexpected_invalid_opcode", selftest_unexpected_trap },
};
KTEST_SUITE(selftest_panic, "selftest-panic", panic_cases);

/* selftest-hang: never finishes. */
static void selftest_spin_forever(struct ktest *t)
{
	(void)t;
	for (;;)
		__asm__ volatile("pause");
}

static const struct ktest_case hang_cases[] = {
	{ "spin_forever", selftest_spin_forever },
};
KTEST_SUITE(selftest_hang, "selftest-hang", hang_cases);

/* selftest-triple: an empty IDT turns the next exception into a triple fault. */
static void selftest_triple_fault(struct ktest *t)
{
	struct {
		unsigned short limit;
		unsigned long base;
	} __attribute__((packed)) empty = { 0, 0 };

	(void)t;
	__asm__ volatile("lidt %0; int3" : : "m"(empty));
}

static const struct ktest_case triple_cases[] = {
	{ "triple_fault", selftest_triple_fault },
};
KTEST_SUITE(selftest_triple, "selftest-triple", triple_cases);

/* Results without a plan line: the harness must fail this. */
static void selftest_noplan_print(void)
{
	kprintf("KTAP version 1\n");
	kprintf("ok 1 result_without_plan\n");
	kprintf("ok 2 another_result_without_plan\n");
}
KTEST_RAW_SUITE(selftest_noplan, "selftest-noplan", selftest_noplan_print);
