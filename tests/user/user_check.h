/* SPDX-License-Identifier: GPL-2.0-only */
/* The check lines user test programs print for the guest suites to read. */
#ifndef TESTS_USER_USER_CHECK_H
#define TESTS_USER_USER_CHECK_H

#include <stdio.h>

/* Checks run so far (printed at the end as "USER-DONE n"). */
static int checks;

/* Print "USER-PASS name", or "USER-FAIL name: expected ..., got ...". */
static void check(const char *name, long expected, long got)
{
	checks++;
	if (expected == got)
		printf("USER-PASS %s\n", name);
	else
		printf("USER-FAIL %s: expected %ld (0x%lx), got %ld (0x%lx)\n",
		       name, expected, expected, got, got);
}

#endif
