/* SPDX-License-Identifier: GPL-2.0-only */
/* Formatted output: the printf family, to a buffer, the console or any sink. */
#ifndef KERN_KPRINTF_H
#define KERN_KPRINTF_H

#include <stdarg.h>
#include <stddef.h>

/*
 * Conversions: %d %i %u %x %X %o %c %s %p %%.
 * Flags: '-' '0' '+' ' ' '#'; field width and precision, either of which
 * may be '*' (taken from an int argument; a negative width means '-' and
 * that width, a negative precision means none).
 * Length modifiers: hh h l ll z t j.
 * %s of NULL prints "(null)"; %p prints "0x" and exactly 16 hex digits.
 * An unknown conversion is printed verbatim, from its '%' to its last
 * character; a lone '%' at the end of @fmt prints '%'.
 *
 * None of these functions take locks.
 */

/*
 * kprintf_vformat - format @fmt with @ap, handing each character to @emit.
 * @emit: called once per output character, with @arg passed through.
 * @arg:  opaque pointer for @emit.
 *
 * Returns the number of characters handed to @emit.  @ap is not used up:
 * the function works on its own copy.
 */
int kprintf_vformat(void (*emit)(int c, void *arg), void *arg,
		    const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/*
 * kvsnprintf - format into @buf as C99 vsnprintf() does.
 * @buf:  destination; may be NULL when @size is 0.
 * @size: size of @buf in bytes, including room for the final NUL.
 *
 * Writes at most @size - 1 characters and always NUL-terminates when @size
 * is not 0.  Returns the length the full output has (not counting the NUL),
 * so a return value >= @size means the output was truncated.
 */
int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/*
 * ksnprintf - format into @buf as C99 snprintf() does; see kvsnprintf().
 */
int ksnprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * kvprintf - format @fmt with @ap and write the result with console_putc(),
 * the console held throughout (console_hold), so that no other writer's
 * output (a task's console write) lands inside it.
 *
 * Returns the number of characters written.
 */
int kvprintf(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));

/*
 * kprintf - format and write to the console; see kvprintf().
 */
int kprintf(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

#endif /* KERN_KPRINTF_H */
