/* SPDX-License-Identifier: GPL-2.0-only */
/* Kernel command line lookup: words of the form key=value or a bare key. */
#ifndef KERN_CMDLINE_H
#define KERN_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A command line is words separated by blanks (space, tab, newline or
 * carriage return).  A word is "key=value" (the value runs from the first
 * '=' to the end of the word, so it may itself contain '=') or a bare
 * "key".  Keys match whole: "test" does not match "testing=1".  When a key
 * appears more than once the first occurrence wins.  A NULL command line
 * is an empty one.  None of these functions take locks.
 */

#define CMDLINE_ABSENT		(-1)	/* the key is not on the command line */
#define CMDLINE_MALFORMED	(-2)	/* its value is not a valid number */

/*
 * cmdline_find - look up @key in @cmdline.
 * @value: if not NULL, set to the start of the value, which points into
 *         @cmdline; for a bare key, to the end of the word.
 * @len:   if not NULL, set to the value's length (0 for a bare key or for
 *         "key=").
 *
 * Returns true if @key is present; false if it is absent or @key is empty,
 * leaving @value and @len untouched.
 */
bool cmdline_find(const char *cmdline, const char *key, const char **value,
		  size_t *len);

/*
 * cmdline_copy - copy the value of @key, NUL-terminated, into @buf.
 * @size: size of @buf in bytes, including the NUL.
 *
 * Returns true on success; false if @key is absent or the value and its
 * NUL do not fit in @size bytes, leaving @buf untouched.
 */
bool cmdline_copy(const char *cmdline, const char *key, char *buf,
		  size_t size);

/*
 * cmdline_u64 - parse the value of @key as an unsigned 64-bit number.
 *
 * The value is decimal digits ("007" is 7), or "0x" or "0X" followed by
 * hex digits in either case.  Returns 0 and sets *@out; CMDLINE_ABSENT if
 * @key is absent; CMDLINE_MALFORMED if the value is empty (also a bare
 * key), has a sign or any other stray character, or does not fit in 64
 * bits.  *@out is untouched on error.
 */
int cmdline_u64(const char *cmdline, const char *key, uint64_t *out);

#endif /* KERN_CMDLINE_H */
