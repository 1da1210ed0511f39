/* SPDX-License-Identifier: GPL-2.0-only */
/* Kernel command line lookup: finding, copying and parsing key=value words. */

#include "kern/cmdline.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * True if the word starting at @word has key @key: the word begins with
 * @key, followed by '=' or the end of the word.
 */
static bool key_matches(const char *word, const char *key)
{
	while (*key != '\0' && *word == *key) {
		word++;
		key++;
	}
	return *key == '\0' &&
	       (*word == '\0' || *word == '=' || is_blank(*word));
}

bool cmdline_find(const char *cmdline, const char *key, const char **value,
		  size_t *len)
{
	const char *p = cmdline;

	if (!p || !key || *key == '\0')
		return false;
	for (;;) {
		const char *start, *end;

		while (is_blank(*p))
			p++;
		if (*p == '\0')
			return false;
		for (end = p; *end != '\0' && !is_blank(*end); end++)
			;
		if (key_matches(p, key)) {
			start = p;
			while (start < end && *start != '=')
				start++;
			if (start < end)
				start++;	/* skip the '=' */
			if (value)
				*value = start;
			if (len)
				*len = (size_t)(end - start);
			return true;
		}
		p = end;
	}
}

bool cmdline_copy(const char *cmdline, const char *key, char *buf,
		  size_t size)
{
	const char *value;
	size_t len, i;

	if (!cmdline_find(cmdline, key, &value, &len) || len >= size)
		return false;
	for (i = 0; i < len; i++)
		buf[i] = value[i];
	buf[len] = '\0';
	return true;
}

/* The value of digit @c in @base (10 or 16), or -1 if it is not one. */
static int digit_value(char c, unsigned int base)
{
	int d;

	if (c >= '0' && c <= '9')
		d = c - '0';
	else if (c >= 'a' && c <= 'f')
		d = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		d = c - 'A' + 10;
	else
		return -1;
	return (unsigned int)d < base ? d : -1;
}

int cmdline_u64(const char *cmdline, const char *key, uint64_t *out)
{
	unsigned int base = 10;
	const char *value;
	uint64_t n = 0;
	size_t len, i = 0;

	if (!cmdline_find(cmdline, key, &value, &len))
		return CMDLINE_ABSENT;
	if (len > 2 && value[0] == '0' &&
	    (value[1] == 'x' || value[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (len == 0)
		return CMDLINE_MALFORMED;
	for (; i < len; i++) {
		int d = digit_value(value[i], base);

		if (d < 0 || n > (UINT64_MAX - (uint64_t)d) / base)
			return CMDLINE_MALFORMED;
		n = n * base + (uint64_t)d;
	}
	*out = n;
	return 0;
}
