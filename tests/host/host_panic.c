/* SPDX-License-Identifier: GPL-2.0-only */
/* The kernel's panic() for host tests (see host_panic.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "kern/panic.h"
#include "tests/host/host_panic.h"

jmp_buf host_panic_jmp;
int host_panic_armed;
char host_panic_msg[256];

void panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(host_panic_msg, sizeof(host_panic_msg), fmt, ap);
	va_end(ap);
	if (!host_panic_armed) {
		fprintf(stderr, "unexpected panic: %s\n", host_panic_msg);
		abort();
	}
	host_panic_armed = 0;
	longjmp(host_panic_jmp, 1);
}
