/* SPDX-License-Identifier: GPL-2.0-only */
/* Guests that misbehave on purpose, so the harness can show it catches them. */
#ifndef TESTS_KERNEL_SELFTEST_H
#define TESTS_KERNEL_SELFTEST_H

#include <stdbool.h>

/*
 * Run the self-test named @name if it is one that must print malformed
 * KTAP (which the ktest framework cannot print); returns false, having done
 * nothing, for any other name.  Used by kmain before ktest_find().
 */
bool selftest_raw_run(const char *name);

#endif
