/* SPDX-License-Identifier: GPL-2.0-only */
/* memcpy, memmove and memset: x86_64 Linux takes them from assembly in arch/x86/lib, which linux-emu does not build. */
#include <linux/string.h>
#include <linux/types.h>

/*
 * Eight bytes a step, then the last few one at a time: a string
 * instruction's repetition is one step of the CPU each (under QEMU's
 * TCG one instruction each), so a 1,500-byte frame takes 188 steps, not
 * 1,500.  __memcpy is also what code calls that must not get the
 * compiler's inline expansion of memcpy (a rep movsb at -Os).
 */
void *__memcpy(void *to, const void *from, size_t len)
{
	void *ret = to;
	size_t words = len / 8;

	asm volatile("rep movsq\n\t"
		     "movq %3, %%rcx\n\t"
		     "rep movsb"
		     : "+D"(to), "+S"(from), "+c"(words)
		     : "r"(len % 8) : "memory");
	return ret;
}

void *memcpy(void *to, const void *from, size_t len)
{
	return __memcpy(to, from, len);
}

void *__memset(void *s, int c, size_t n)
{
	void *ret = s;
	size_t words = n / 8;
	unsigned long v = 0x0101010101010101ul * (unsigned char)c;

	asm volatile("rep stosq\n\t"
		     "movq %3, %%rcx\n\t"
		     "rep stosb"
		     : "+D"(s), "+c"(words)
		     : "a"(v), "r"(n % 8) : "memory");
	return ret;
}

void *memset(void *s, int c, size_t n)
{
	return __memset(s, c, n);
}

void *memmove(void *to, const void *from, size_t len)
{
	unsigned char *d = to;
	const unsigned char *s = from;

	if (d <= s || d >= s + len)
		return memcpy(to, from, len);
	while (len-- > 0)
		d[len] = s[len];
	return to;
}
