/* SPDX-License-Identifier: GPL-2.0-only */
/* Formatted output: one format engine feeding buffers and the console. */

#include <stdbool.h>
#include <stdint.h>

#include "kern/console.h"
#include "kern/kprintf.h"

#define FLAG_LEFT	0x01	/* '-': pad on the right */
#define FLAG_ZERO	0x02	/* '0': pad with zeros after sign and prefix */
#define FLAG_PLUS	0x04	/* '+': always print a sign */
#define FLAG_SPACE	0x08	/* ' ': a space where a '+' would go */
#define FLAG_ALT	0x10	/* '#': alternate form (0x prefix, octal 0) */

/* Caps a field width or precision so arithmetic on it cannot overflow. */
#define COUNT_MAX	(1 << 20)

enum length {
	LEN_NONE,
	LEN_HH,
	LEN_H,
	LEN_L,
	LEN_LL,
	LEN_Z,
	LEN_T,
	LEN_J,
};

struct spec {
	unsigned int flags;
	int width;
	int precision;		/* -1 when none was given */
	enum length length;
};

struct sink {
	void (*emit)(int c, void *arg);
	void *arg;
	int count;
};

static void put(struct sink *s, int c)
{
	s->emit(c, s->arg);
	s->count++;
}

static void put_repeat(struct sink *s, int c, int n)
{
	while (n-- > 0)
		put(s, c);
}

static unsigned int flag_bit(char c)
{
	switch (c) {
	case '-':
		return FLAG_LEFT;
	case '0':
		return FLAG_ZERO;
	case '+':
		return FLAG_PLUS;
	case ' ':
		return FLAG_SPACE;
	case '#':
		return FLAG_ALT;
	default:
		return 0;
	}
}

/* Reads a run of decimal digits at *p, saturating at COUNT_MAX. */
static int parse_count(const char **p)
{
	int n = 0;

	while (**p >= '0' && **p <= '9') {
		if (n < COUNT_MAX)
			n = n * 10 + (**p - '0');
		(*p)++;
	}
	return n < COUNT_MAX ? n : COUNT_MAX;
}

static enum length parse_length(const char **p)
{
	switch (**p) {
	case 'h':
		(*p)++;
		if (**p != 'h')
			return LEN_H;
		(*p)++;
		return LEN_HH;
	case 'l':
		(*p)++;
		if (**p != 'l')
			return LEN_L;
		(*p)++;
		return LEN_LL;
	case 'z':
		(*p)++;
		return LEN_Z;
	case 't':
		(*p)++;
		return LEN_T;
	case 'j':
		(*p)++;
		return LEN_J;
	default:
		return LEN_NONE;
	}
}

static int64_t fetch_signed(va_list *ap, enum length length)
{
	switch (length) {
	case LEN_HH:
		return (signed char)va_arg(*ap, int);
	case LEN_H:
		return (short)va_arg(*ap, int);
	case LEN_L:
		return va_arg(*ap, long);
	case LEN_LL:
		return va_arg(*ap, long long);
	case LEN_Z:
		/* the signed type of size_t's width */
		return (ptrdiff_t)va_arg(*ap, size_t);
	case LEN_T:
		return va_arg(*ap, ptrdiff_t);
	case LEN_J:
		return va_arg(*ap, intmax_t);
	default:
		return va_arg(*ap, int);
	}
}

static uint64_t fetch_unsigned(va_list *ap, enum length length)
{
	switch (length) {
	case LEN_HH:
		return (unsigned char)va_arg(*ap, unsigned int);
	case LEN_H:
		return (unsigned short)va_arg(*ap, unsigned int);
	case LEN_L:
		return va_arg(*ap, unsigned long);
	case LEN_LL:
		return va_arg(*ap, unsigned long long);
	case LEN_Z:
		return va_arg(*ap, size_t);
	case LEN_T:
		/* the unsigned type of ptrdiff_t's width */
		return (size_t)va_arg(*ap, ptrdiff_t);
	case LEN_J:
		return va_arg(*ap, uintmax_t);
	default:
		return va_arg(*ap, unsigned int);
	}
}

/*
 * Prints one integer: padding, @sign (0 for none), @prefix, the zeros the
 * precision asks for, then the digits of @mag in @base.
 */
static void format_number(struct sink *s, const struct spec *sp, uint64_t mag,
			  char sign, const char *prefix, unsigned int base,
			  bool upper)
{
	const char *digit = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char buf[24];		/* 64 bits take at most 22 octal digits */
	int ndigits = 0;
	int nzeros = 0;
	int nprefix = 0;
	int pad;

	/* Precision 0 with value 0 prints no digits at all. */
	if (mag != 0 || sp->precision != 0) {
		do {
			buf[ndigits++] = digit[mag % base];
			mag /= base;
		} while (mag != 0);
	}
	if (sp->precision > ndigits)
		nzeros = sp->precision - ndigits;
	/* '#' with 'o': raise the precision so the first digit is a 0. */
	if (base == 8 && (sp->flags & FLAG_ALT) && nzeros == 0 &&
	    (ndigits == 0 || buf[ndigits - 1] != '0'))
		nzeros = 1;
	while (prefix[nprefix] != '\0')
		nprefix++;

	pad = sp->width - (sign ? 1 : 0) - nprefix - nzeros - ndigits;
	if (!(sp->flags & (FLAG_LEFT | FLAG_ZERO)))
		put_repeat(s, ' ', pad);
	if (sign)
		put(s, sign);
	while (*prefix != '\0')
		put(s, *prefix++);
	if (sp->flags & FLAG_ZERO)
		put_repeat(s, '0', pad);
	put_repeat(s, '0', nzeros);
	while (ndigits > 0)
		put(s, buf[--ndigits]);
	if (sp->flags & FLAG_LEFT)
		put_repeat(s, ' ', pad);
}

/* Prints @len characters of @text, padded with spaces to the width. */
static void format_text(struct sink *s, const struct spec *sp,
			const char *text, int len)
{
	int pad = sp->width - len;

	if (!(sp->flags & FLAG_LEFT))
		put_repeat(s, ' ', pad);
	while (len-- > 0)
		put(s, (unsigned char)*text++);
	if (sp->flags & FLAG_LEFT)
		put_repeat(s, ' ', pad);
}

/* Length of @str, looking at no more than @max characters if @max >= 0. */
static int text_length(const char *str, int max)
{
	int len = 0;

	while ((max < 0 || len < max) && str[len] != '\0')
		len++;
	return len;
}

/* Clamps a '*' argument to [0, COUNT_MAX]. */
static int clamp_count(int n)
{
	return n < 0 ? 0 : n < COUNT_MAX ? n : COUNT_MAX;
}

/*
 * Parses the flags, width, precision and length of a conversion at *fmt
 * (just past its '%'), taking '*' arguments from @ap, and applies the
 * precedence rules of C99 7.19.6.1 between the flags.
 */
static void parse_spec(const char **fmt, va_list *ap, struct spec *sp)
{
	unsigned int bit;

	sp->flags = 0;
	sp->width = 0;
	sp->precision = -1;
	while ((bit = flag_bit(**fmt)) != 0) {
		sp->flags |= bit;
		(*fmt)++;
	}
	if (**fmt == '*') {
		int w = va_arg(*ap, int);

		(*fmt)++;
		if (w < 0) {
			/* a negative width is a '-' flag */
			sp->flags |= FLAG_LEFT;
			w = w < -COUNT_MAX ? COUNT_MAX : -w;
		}
		sp->width = clamp_count(w);
	} else {
		sp->width = parse_count(fmt);
	}
	if (**fmt == '.') {
		(*fmt)++;
		if (**fmt == '*') {
			int p = va_arg(*ap, int);

			(*fmt)++;
			/* a negative precision is no precision */
			sp->precision = p < 0 ? -1 : clamp_count(p);
		} else {
			sp->precision = parse_count(fmt);
		}
	}
	sp->length = parse_length(fmt);

	if (sp->flags & FLAG_LEFT)
		sp->flags &= ~FLAG_ZERO;
	if (sp->flags & FLAG_PLUS)
		sp->flags &= ~FLAG_SPACE;
	if (sp->precision >= 0)
		sp->flags &= ~FLAG_ZERO;
}

/*
 * Prints conversion @conv, taking its argument from @ap.  [@start, @end)
 * is the conversion's text, printed as it is when @conv is unknown.
 */
static void format_one(struct sink *s, struct spec *sp, char conv,
		       va_list *ap, const char *start, const char *end)
{
	const char *str;
	uint64_t u;
	int64_t v;
	char ch;

	switch (conv) {
	case 'd':
	case 'i':
		v = fetch_signed(ap, sp->length);
		u = v < 0 ? -(uint64_t)v : (uint64_t)v;
		ch = v < 0 ? '-' : (sp->flags & FLAG_PLUS) ? '+' :
		     (sp->flags & FLAG_SPACE) ? ' ' : 0;
		format_number(s, sp, u, ch, "", 10, false);
		break;
	case 'u':
		u = fetch_unsigned(ap, sp->length);
		format_number(s, sp, u, 0, "", 10, false);
		break;
	case 'o':
		u = fetch_unsigned(ap, sp->length);
		format_number(s, sp, u, 0, "", 8, false);
		break;
	case 'x':
	case 'X':
		u = fetch_unsigned(ap, sp->length);
		str = (sp->flags & FLAG_ALT) && u != 0 ?
		      (conv == 'x' ? "0x" : "0X") : "";
		format_number(s, sp, u, 0, str, 16, conv == 'X');
		break;
	case 'p':
		u = (uintptr_t)va_arg(*ap, void *);
		sp->precision = 16;
		sp->flags &= ~FLAG_ZERO;
		format_number(s, sp, u, 0, "0x", 16, false);
		break;
	case 'c':
		ch = (char)va_arg(*ap, int);
		format_text(s, sp, &ch, 1);
		break;
	case 's':
		str = va_arg(*ap, const char *);
		if (!str)
			str = "(null)";
		format_text(s, sp, str, text_length(str, sp->precision));
		break;
	case '%':
		put(s, '%');
		break;
	default:
		while (start < end)
			put(s, (unsigned char)*start++);
		break;
	}
}

int kprintf_vformat(void (*emit)(int c, void *arg), void *arg,
		    const char *fmt, va_list ap)
{
	struct sink s = { .emit = emit, .arg = arg, .count = 0 };
	va_list args;

	/* A copy, so helpers can share it through a pointer. */
	va_copy(args, ap);
	while (*fmt != '\0') {
		const char *start = fmt;
		struct spec sp;

		if (*fmt != '%') {
			put(&s, (unsigned char)*fmt++);
			continue;
		}
		fmt++;
		parse_spec(&fmt, &args, &sp);
		if (*fmt == '\0') {
			/* Unfinished conversion: print what there was. */
			while (start < fmt)
				put(&s, (unsigned char)*start++);
			break;
		}
		fmt++;
		format_one(&s, &sp, fmt[-1], &args, start, fmt);
	}
	va_end(args);
	return s.count;
}

struct buffer {
	char *buf;
	size_t size;
	size_t pos;
};

static void buffer_emit(int c, void *arg)
{
	struct buffer *b = arg;

	if (b->pos + 1 < b->size)
		b->buf[b->pos] = (char)c;
	b->pos++;
}

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct buffer b = { .buf = buf, .size = size, .pos = 0 };
	int n;

	n = kprintf_vformat(buffer_emit, &b, fmt, ap);
	if (size > 0)
		buf[b.pos < size ? b.pos : size - 1] = '\0';
	return n;
}

int ksnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

static void console_emit(int c, void *arg)
{
	(void)arg;
	console_putc(c);
}

int kvprintf(const char *fmt, va_list ap)
{
	unsigned long held = console_hold();	/* no other output inside */
	int n = kprintf_vformat(console_emit, NULL, fmt, ap);

	console_release(held);
	return n;
}

int kprintf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvprintf(fmt, ap);
	va_end(ap);
	return n;
}
