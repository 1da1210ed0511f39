/* SPDX-License-Identifier: GPL-2.0-only */
/* The check lines user test programs print for the guest suites to read. */
#ifndef TESTS_USER_USER_CHECK_H
#define TESTS_USER_USER_CHECK_H

#include <stdio.h>

/* Checks run so far (printed at the end as "USER-DONE n"). */
static int checks;

/*
 * Print "USER-PASS name", or "USER-FAIL name: expected ..., got ...",
 * and flush: stdout is fully buffered (the console is not a terminal),
 * and a buffer that fills mid-line writes half a line, which a kernel
 * message (a driver's, from an interrupt) may then split in two.  One
 * device_write per line is never split (the console writes it whole).
 */
static void check(const char *name, long expected, long got)
{
	checks++;
	if (expected == got)
		printf("USER-PASS %s\n", name);
	else
		printf("USER-FAIL %s: expected %ld (0x%lx), got %ld (0x%lx)\n",
		       name, expected, expected, got, got);
	fflush(stdout);
}

#endif
