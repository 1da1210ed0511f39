/* SPDX-License-Identifier: GPL-2.0-only */
/* memcpy, memmove and memset: x86_64 Linux takes them from assembly in arch/x86/lib, which linux-emu does not build. */
#include <linux/string.h>
#include <linux/types.h>

void *memcpy(void *to, const void *from, size_t len)
{
	void *ret = to;

	asm volatile("rep movsb"
		     : "+D"(to), "+S"(from), "+c"(len) : : "memory");
	return ret;
}

void *memset(void *s, int c, size_t n)
{
	void *ret = s;

	asm volatile("rep stosb" : "+D"(s), "+c"(n) : "a"(c) : "memory");
	return ret;
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
