/* SPDX-License-Identifier: GPL-2.0-only */
/* Host test runner: runs the ktest suites linked into the binary on stdout. */

#include <stdio.h>

#include "kern/console.h"
#include "kern/ktest.h"

void console_putc(int c)
{
	putchar(c);
}

void console_write(const char *s, size_t n)
{
	fwrite(s, 1, n, stdout);
}

/* One thread writes here: nothing to keep out. */
unsigned long console_hold(void)
{
	return 0;
}

void console_release(unsigned long held)
{
	(void)held;
}

/*
 * Usage: test_X [SUITE]
 * Without an argument, runs every registered suite (normally there is one,
 * so stdout is one KTAP document).  Exits 0 if every case passed or was
 * skipped, 1 if any failed, 2 if SUITE is not registered.
 */
int main(int argc, char **argv)
{
	const struct ktest_suite *const *p;
	int failed = 0;

	if (argc > 1) {
		const struct ktest_suite *s = ktest_find(argv[1]);

		if (!s) {
			fprintf(stderr, "%s: no suite '%s'; known:", argv[0],
				argv[1]);
			for (p = __start_ktest_suites; p < __stop_ktest_suites;
			     p++)
				fprintf(stderr, " %s", (*p)->name);
			fprintf(stderr, "\n");
			return 2;
		}
		failed = ktest_run(s);
	} else {
		for (p = __start_ktest_suites; p < __stop_ktest_suites; p++)
			failed += ktest_run(*p);
	}
	fflush(stdout);
	return failed ? 1 : 0;
}
