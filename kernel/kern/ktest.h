/* SPDX-License-Identifier: GPL-2.0-only */
/* KTAP test framework shared by in-kernel suites and host unit tests. */
#ifndef KERN_KTEST_H
#define KERN_KTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A suite is a named array of cases.  ktest_run() runs each case with a
 * fresh struct ktest and prints the result as KTAP (docs/testing.md)
 * through kprintf().  Inside a case, the KTEST_EXPECT_* macros check a
 * condition; a failed check prints a "# file:line: ..." diagnostic line,
 * marks the case failed and lets it go on.  Diagnostics must be single
 * lines.  None of the functions here take locks; suites run one at a time.
 */

/* The state of the case that is running. */
struct ktest {
	bool failed;			/* some expectation failed */
	const char *skip_reason;	/* set by ktest_skip(), or NULL */
};

struct ktest_case {
	const char *name;
	void (*run)(struct ktest *t);
};

struct ktest_suite {
	const char *name;
	const struct ktest_case *cases;
	size_t ncases;
	/* Set instead of cases: the suite prints its own document (the
	 * harness self-test's malformed KTAP, which the framework cannot
	 * print); ktest_run calls it and reports success. */
	void (*raw)(void);
};

/*
 * KTEST_SUITE - register a suite named @suite_name (a string) whose cases
 * are the array @case_array; @ident names the suite object.  Registration
 * puts a pointer to the suite in the linker section "ktest_suites".
 */
/* KTEST_RAW_SUITE - register a suite named @suite_name that prints its
 * own output with @fn (see struct ktest_suite's @raw). */
#define KTEST_RAW_SUITE(ident, suite_name, fn)				\
	static const struct ktest_suite ident = {			\
		.name = (suite_name),					\
		.raw = (fn),						\
	};								\
	static const struct ktest_suite *const ident##_ktest_entry	\
	__attribute__((used, section("ktest_suites"))) = &ident

#define KTEST_SUITE(ident, suite_name, case_array)			\
	static const struct ktest_suite ident = {			\
		.name = (suite_name),					\
		.cases = (case_array),					\
		.ncases = sizeof(case_array) / sizeof((case_array)[0]),	\
	};								\
	static const struct ktest_suite *const ident##_ktest_entry	\
	__attribute__((used, section("ktest_suites"))) = &ident

/*
 * The registered suites are the pointers from __start_ktest_suites up to
 * (not including) __stop_ktest_suites.  GNU ld defines both for a hosted
 * program; the kernel's linker script defines them for the kernel.  They
 * are weak so a program without any suite still links (and has none).
 */
extern const struct ktest_suite *const __start_ktest_suites[]
	__attribute__((weak));
extern const struct ktest_suite *const __stop_ktest_suites[]
	__attribute__((weak));

/*
 * ktest_find - the registered suite called @name.
 *
 * Returns the suite, or NULL if no registered suite has that name.
 */
const struct ktest_suite *ktest_find(const char *name);

/*
 * ktest_run - run every case of @s in order and print one KTAP document.
 *
 * Prints the "KTAP version 1" and "1..1" header, the suite as a subtest
 * indented by four spaces ("ok N case", "not ok N case" or
 * "ok N case # SKIP reason" per case) and "ok 1 suite" or "not ok 1 suite".
 * Returns the number of cases that failed; skipped cases are not failures.
 */
int ktest_run(const struct ktest_suite *s);

/*
 * ktest_fail - mark the running case failed and print @fmt as a
 * diagnostic line ("    # message").
 */
void ktest_fail(struct ktest *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * ktest_skip - mark the running case skipped because of @reason, which
 * must stay valid until the case has returned (a string literal, say).
 * The case should return straight afterwards.  A case that also failed
 * is reported as failed.
 */
void ktest_skip(struct ktest *t, const char *reason);

/*
 * The helpers below do the work of the KTEST_EXPECT_* macros; call the
 * macros instead.  Each marks @t failed and prints a diagnostic line
 * naming the base name of @file and @line.
 */

/* ktest_fail_at - fail with a free-form message at @file:@line. */
void ktest_fail_at(struct ktest *t, const char *file, int line,
		   const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * ktest_fail_int - report that "@ea @op @eb" did not hold, with the values
 * @a and @b, which are the bits of signed values if @is_signed.
 */
void ktest_fail_int(struct ktest *t, const char *file, int line,
		    const char *ea, const char *op, const char *eb,
		    uint64_t a, uint64_t b, bool is_signed);

/*
 * ktest_check_streq - check that strings @a and @b are equal (two NULLs
 * are equal, NULL and a string are not).  Returns true if they are.
 */
bool ktest_check_streq(struct ktest *t, const char *file, int line,
		       const char *ea, const char *eb,
		       const char *a, const char *b);

/*
 * ktest_check_memeq - check that the @n bytes at @a and at @b are equal,
 * reporting the first offset where they differ.  Returns true if equal.
 */
bool ktest_check_memeq(struct ktest *t, const char *file, int line,
		       const char *ea, const char *eb,
		       const void *a, const void *b, size_t n);

#define KTEST_EXPECT_TRUE(t, cond)					\
	do {								\
		if (!(cond))						\
			ktest_fail_at((t), __FILE__, __LINE__,		\
				      "expected %s to be true", #cond);	\
	} while (0)

#define KTEST_EXPECT_FALSE(t, cond)					\
	do {								\
		if (cond)						\
			ktest_fail_at((t), __FILE__, __LINE__,		\
				      "expected %s to be false", #cond); \
	} while (0)

/*
 * Compares two integers once each, in the type their sum has (the usual
 * arithmetic conversions), and prints both values if the check fails.
 * The wrappers stringify their arguments before any macro in them expands.
 */
#define KTEST_EXPECT_OP_(t, a, op, b, sa, sop, sb)			\
	do {								\
		__typeof__((a) + (b)) ktest_a_ = (a);			\
		__typeof__((a) + (b)) ktest_b_ = (b);			\
									\
		if (!(ktest_a_ op ktest_b_))				\
			ktest_fail_int((t), __FILE__, __LINE__, sa, sop, sb, \
				       (uint64_t)ktest_a_,		\
				       (uint64_t)ktest_b_,		\
				       (__typeof__((a) + (b)))0 - 1 < 1); \
	} while (0)

#define KTEST_EXPECT_EQ(t, a, b) KTEST_EXPECT_OP_(t, a, ==, b, #a, "==", #b)
#define KTEST_EXPECT_NE(t, a, b) KTEST_EXPECT_OP_(t, a, !=, b, #a, "!=", #b)
#define KTEST_EXPECT_LE(t, a, b) KTEST_EXPECT_OP_(t, a, <=, b, #a, "<=", #b)
#define KTEST_EXPECT_GE(t, a, b) KTEST_EXPECT_OP_(t, a, >=, b, #a, ">=", #b)

#define KTEST_EXPECT_STREQ(t, a, b)					\
	((void)ktest_check_streq((t), __FILE__, __LINE__, #a, #b, (a), (b)))

#define KTEST_EXPECT_MEMEQ(t, a, b, n)					\
	((void)ktest_check_memeq((t), __FILE__, __LINE__, #a, #b,	\
				 (a), (b), (n)))

#endif /* KERN_KTEST_H */
