/* SPDX-License-Identifier: GPL-2.0-only */
/* The C string and memory functions the kernel (and the compiler) call. */
#ifndef KERN_STRING_H
#define KERN_STRING_H

#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);

/* The first occurrence of @needle in the first @n bytes of @hay, or NULL. */
const char *kmemmem(const char *hay, size_t n, const char *needle);

#endif
