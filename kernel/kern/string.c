/* SPDX-License-Identifier: GPL-2.0-only */
/* String and memory routines; memcpy and memset move 8 bytes at a time. */
#include <stddef.h>
#include <stdint.h>

#include "kern/string.h"

void *memcpy(void *dst, const void *src, size_t n)
{
	void *d = dst;
	const void *s = src;
	size_t words = n / 8, rest = n % 8;

	__asm__ volatile("rep movsq" : "+D"(d), "+S"(s), "+c"(words)
			 : : "memory");
	__asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(rest)
			 : : "memory");
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	void *d = dst;
	size_t words = n / 8, rest = n % 8;
	uint64_t pattern = 0x0101010101010101ull * (unsigned char)c;

	__asm__ volatile("rep stosq" : "+D"(d), "+c"(words) : "a"(pattern)
			 : "memory");
	__asm__ volatile("rep stosb" : "+D"(d), "+c"(rest) : "a"(pattern)
			 : "memory");
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (*a == '\0')
			return 0;
	}
	return 0;
}

const char *kmemmem(const char *hay, size_t n, const char *needle)
{
	size_t len = strlen(needle);

	for (size_t i = 0; i + len <= n; i++)
		if (memcmp(hay + i, needle, len) == 0)
			return hay + i;
	return NULL;
}
