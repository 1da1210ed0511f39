/* SPDX-License-Identifier: GPL-2.0-only */
/* KTAP test framework: finding and running suites, reporting expectations. */

#include <stdarg.h>

#include "kern/kprintf.h"
#include "kern/ktest.h"

/* Diagnostics and results of a suite are indented as its subtest. */
#define INDENT	"    "

static int ktest_strcmp(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b) {
		a++;
		b++;
	}
	return (int)(unsigned char)*a - (int)(unsigned char)*b;
}

/* The part of @path after its last '/'. */
static const char *base_name(const char *path)
{
	const char *base = path;

	for (; *path != '\0'; path++)
		if (*path == '/')
			base = path + 1;
	return base;
}

const struct ktest_suite *ktest_find(const char *name)
{
	const struct ktest_suite *const *p;

	for (p = __start_ktest_suites; p < __stop_ktest_suites; p++)
		if (ktest_strcmp((*p)->name, name) == 0)
			return *p;
	return NULL;
}

int ktest_run(const struct ktest_suite *s)
{
	int failed = 0;
	size_t i;

	if (s->raw != NULL) {
		s->raw();
		return 0;
	}
	kprintf("KTAP version 1\n");
	kprintf("1..1\n");
	kprintf(INDENT "KTAP version 1\n");
	kprintf(INDENT "# Subtest: %s\n", s->name);
	kprintf(INDENT "1..%zu\n", s->ncases);
	for (i = 0; i < s->ncases; i++) {
		const struct ktest_case *c = &s->cases[i];
		struct ktest t = { .failed = false, .skip_reason = NULL };

		c->run(&t);
		if (t.failed) {
			failed++;
			kprintf(INDENT "not ok %zu %s\n", i + 1, c->name);
		} else if (t.skip_reason) {
			kprintf(INDENT "ok %zu %s # SKIP %s\n", i + 1, c->name,
				t.skip_reason);
		} else {
			kprintf(INDENT "ok %zu %s\n", i + 1, c->name);
		}
	}
	kprintf("%s 1 %s\n", failed ? "not ok" : "ok", s->name);
	return failed;
}

void ktest_fail(struct ktest *t, const char *fmt, ...)
{
	va_list ap;

	t->failed = true;
	kprintf(INDENT "# ");
	va_start(ap, fmt);
	kvprintf(fmt, ap);
	va_end(ap);
	kprintf("\n");
}

void ktest_skip(struct ktest *t, const char *reason)
{
	t->skip_reason = reason;
}

/* Marks @t failed and starts a diagnostic line: "    # file:line: ". */
static void begin_diagnostic(struct ktest *t, const char *file, int line)
{
	t->failed = true;
	kprintf(INDENT "# %s:%d: ", base_name(file), line);
}

void ktest_fail_at(struct ktest *t, const char *file, int line,
		   const char *fmt, ...)
{
	va_list ap;

	begin_diagnostic(t, file, line);
	va_start(ap, fmt);
	kvprintf(fmt, ap);
	va_end(ap);
	kprintf("\n");
}

static void print_int(uint64_t v, bool is_signed)
{
	if (is_signed)
		kprintf("%lld", (long long)v);
	else
		kprintf("%llu (0x%llx)", (unsigned long long)v,
			(unsigned long long)v);
}

void ktest_fail_int(struct ktest *t, const char *file, int line,
		    const char *ea, const char *op, const char *eb,
		    uint64_t a, uint64_t b, bool is_signed)
{
	begin_diagnostic(t, file, line);
	kprintf("expected %s %s %s, but %s is ", ea, op, eb, ea);
	print_int(a, is_signed);
	kprintf(" and %s is ", eb);
	print_int(b, is_signed);
	kprintf("\n");
}

/*
 * Prints @s in double quotes, escaping quotes, backslashes and anything
 * that is not printable ASCII, so the diagnostic stays on one line.
 */
static void print_quoted(const char *s)
{
	if (!s) {
		kprintf("NULL");
		return;
	}
	kprintf("\"");
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			kprintf("\\%c", c);
		else if (c == '\n')
			kprintf("\\n");
		else if (c < 0x20 || c >= 0x7f)
			kprintf("\\x%02x", c);
		else
			kprintf("%c", c);
	}
	kprintf("\"");
}

bool ktest_check_streq(struct ktest *t, const char *file, int line,
		       const char *ea, const char *eb,
		       const char *a, const char *b)
{
	if (a == b || (a && b && ktest_strcmp(a, b) == 0))
		return true;
	begin_diagnostic(t, file, line);
	kprintf("expected %s == %s, but %s is ", ea, eb, ea);
	print_quoted(a);
	kprintf(" and %s is ", eb);
	print_quoted(b);
	kprintf("\n");
	return false;
}

bool ktest_check_memeq(struct ktest *t, const char *file, int line,
		       const char *ea, const char *eb,
		       const void *a, const void *b, size_t n)
{
	const unsigned char *pa = a, *pb = b;
	size_t i;

	for (i = 0; i < n; i++)
		if (pa[i] != pb[i])
			break;
	if (i == n)
		return true;
	begin_diagnostic(t, file, line);
	kprintf("expected %zu bytes at %s and %s to be equal, ", n, ea, eb);
	kprintf("but at offset %zu %s has 0x%02x and %s has 0x%02x\n",
		i, ea, pa[i], eb, pb[i]);
	return false;
}
