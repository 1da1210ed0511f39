/* SPDX-License-Identifier: GPL-2.0-only */
/* A user task that says hello and then misbehaves as its command line asks. */
/*
 * Freestanding on purpose (the newlib runtime comes later): it enters at
 * _start with %rdi pointing at its module command line and uses the Mach
 * trap ABI directly.  Modes (word "mode=..." on the command line):
 *   print    say hello, then read address 0 (the task must be terminated)
 *   ud       execute ud2
 *   gp       execute a privileged instruction (cli)
 *   kernel   read a kernel address
 *   text     write to its own code
 *   badtrap  call trap number -1000
 *   stack    recurse until the stack runs out
 */
#include <stdint.h>

void _start(const char *cmdline);

static long mach_trap1(long number, long a0)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(number), "D"(a0)
			 : "rcx", "r11", "memory");
	return ret;
}

static void mach_print(const char *s)
{
	mach_trap1(-30, (long)s);
}

static int has_word(const char *s, const char *w)
{
	for (; *s != '\0'; s++) {
		const char *a = s, *b = w;

		while (*b != '\0' && *a == *b) {
			a++;
			b++;
		}
		if (*b == '\0' && (*a == '\0' || *a == ' '))
			return 1;
	}
	return 0;
}

/* Infinite on purpose: the stack overflow is what mode=stack tests. */
#pragma GCC diagnostic ignored "-Winfinite-recursion"
static int recurse(volatile int depth)
{
	volatile char pad[1024];

	pad[0] = (char)depth;
	return recurse(depth + 1) + pad[0];
}

void _start(const char *cmdline)
{
	mach_print("task_probe: hello from user mode: ");
	mach_print(cmdline);
	mach_print("\n");
	if (has_word(cmdline, "mode=ud"))
		__asm__ volatile("ud2");
	if (has_word(cmdline, "mode=gp"))
		__asm__ volatile("cli");
	if (has_word(cmdline, "mode=kernel"))
		(void)*(volatile uint64_t *)0xffffffff80100000ull;
	if (has_word(cmdline, "mode=text"))
		*(volatile unsigned char *)(uintptr_t)&_start = 0xcc;
	if (has_word(cmdline, "mode=badtrap"))
		mach_trap1(-1000, 0);
	if (has_word(cmdline, "mode=stack"))
		recurse(0);
	(void)*(volatile uint64_t *)0;
	for (;;)
		mach_trap1(-60, 0);
}
