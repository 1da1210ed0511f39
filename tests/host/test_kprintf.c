/* SPDX-License-Identifier: GPL-2.0-only */
/* Host tests of kprintf formatting, checked against the host libc. */

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "kern/kprintf.h"
#include "kern/ktest.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Which argument list a row's format takes. */
enum arg_kind {
	ARG_NONE,		/* no argument */
	ARG_INT,		/* int i (also for %c, %hhd, %hd) */
	ARG_UINT,		/* unsigned int u */
	ARG_LONG,		/* long i */
	ARG_ULONG,		/* unsigned long u */
	ARG_LLONG,		/* long long i */
	ARG_ULLONG,		/* unsigned long long u */
	ARG_SIZE,		/* size_t u */
	ARG_PTRDIFF,		/* ptrdiff_t i */
	ARG_INTMAX,		/* intmax_t i */
	ARG_UINTMAX,		/* uintmax_t u */
	ARG_STR,		/* const char *s */
	ARG_STAR_INT,		/* int star, int i */
	ARG_STAR_STAR_INT,	/* int star, int star2, int i */
	ARG_STAR_STR,		/* int star, const char *s */
};

struct fmt_case {
	const char *name;
	const char *fmt;
	enum arg_kind kind;
	long long i;
	unsigned long long u;
	const char *s;
	int star, star2;
};

#define BUF_SIZE 128

/* Rows: a signed value, an unsigned value, a string, a '*' argument first. */
#define ROW(n, f)		{ .name = (n), .fmt = (f), .kind = ARG_NONE }
#define ROW_I(n, f, k, v)						\
	{ .name = (n), .fmt = (f), .kind = (k), .i = (v) }
#define ROW_U(n, f, k, v)						\
	{ .name = (n), .fmt = (f), .kind = (k), .u = (v) }
#define ROW_S(n, f, v)							\
	{ .name = (n), .fmt = (f), .kind = ARG_STR, .s = (v) }
#define ROW_STAR(n, f, w, v)						\
	{ .name = (n), .fmt = (f), .kind = ARG_STAR_INT, .star = (w),	\
	  .i = (v) }
#define ROW_STAR2(n, f, w, p, v)					\
	{ .name = (n), .fmt = (f), .kind = ARG_STAR_STAR_INT, .star = (w), \
	  .star2 = (p), .i = (v) }
#define ROW_STAR_S(n, f, w, v)						\
	{ .name = (n), .fmt = (f), .kind = ARG_STAR_STR, .star = (w),	\
	  .s = (v) }

/* Formats row @c with ksnprintf() into @kbuf and with snprintf() into @lbuf. */
static void format_both(const struct fmt_case *c, char *kbuf, int *kret,
			char *lbuf, int *lret)
{
#define BOTH(...)							\
	do {								\
		*kret = ksnprintf(kbuf, BUF_SIZE, c->fmt, __VA_ARGS__);	\
		*lret = snprintf(lbuf, BUF_SIZE, c->fmt, __VA_ARGS__);	\
	} while (0)

	switch (c->kind) {
	case ARG_NONE:
		BOTH(0);	/* an unused argument is allowed */
		break;
	case ARG_INT:
		BOTH((int)c->i);
		break;
	case ARG_UINT:
		BOTH((unsigned int)c->u);
		break;
	case ARG_LONG:
		BOTH((long)c->i);
		break;
	case ARG_ULONG:
		BOTH((unsigned long)c->u);
		break;
	case ARG_LLONG:
		BOTH(c->i);
		break;
	case ARG_ULLONG:
		BOTH(c->u);
		break;
	case ARG_SIZE:
		BOTH((size_t)c->u);
		break;
	case ARG_PTRDIFF:
		BOTH((ptrdiff_t)c->i);
		break;
	case ARG_INTMAX:
		BOTH((intmax_t)c->i);
		break;
	case ARG_UINTMAX:
		BOTH((uintmax_t)c->u);
		break;
	case ARG_STR:
		BOTH(c->s);
		break;
	case ARG_STAR_INT:
		BOTH(c->star, (int)c->i);
		break;
	case ARG_STAR_STAR_INT:
		BOTH(c->star, c->star2, (int)c->i);
		break;
	case ARG_STAR_STR:
		BOTH(c->star, c->s);
		break;
	}
#undef BOTH
}

static void check_against_libc(struct ktest *t, const struct fmt_case *rows,
			       size_t n)
{
	char kbuf[BUF_SIZE], lbuf[BUF_SIZE];
	int kret = 0, lret = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		memset(kbuf, 'K', sizeof(kbuf));
		memset(lbuf, 'L', sizeof(lbuf));
		format_both(&rows[i], kbuf, &kret, lbuf, &lret);
		if (kret != lret || strcmp(kbuf, lbuf) != 0)
			ktest_fail(t,
				   "%s: \"%s\" gave [%s] (%d), libc [%s] (%d)",
				   rows[i].name, rows[i].fmt, kbuf, kret,
				   lbuf, lret);
	}
}

static const struct fmt_case plain_rows[] = {
	ROW("text_without_conversions", "hello, world"),
	ROW("empty_format", ""),
	ROW("percent_percent", "100%%"),
	ROW("two_percents_in_a_row", "%%%%"),
};

static const struct fmt_case signed_rows[] = {
	ROW_I("zero", "%d", ARG_INT, 0),
	ROW_I("positive", "%d", ARG_INT, 42),
	ROW_I("negative", "%d", ARG_INT, -42),
	ROW_I("int_max", "%d", ARG_INT, INT_MAX),
	ROW_I("int_min", "%d", ARG_INT, INT_MIN),
	ROW_I("i_is_d", "%i", ARG_INT, -7),
	ROW_I("int64_max", "%lld", ARG_LLONG, INT64_MAX),
	ROW_I("int64_min", "%lld", ARG_LLONG, INT64_MIN),
	ROW_I("long_min", "%ld", ARG_LONG, LONG_MIN),
	ROW_I("in_text", "a%db", ARG_INT, 5),
};

static const struct fmt_case unsigned_rows[] = {
	ROW_U("u_zero", "%u", ARG_UINT, 0),
	ROW_U("u_uint_max", "%u", ARG_UINT, UINT_MAX),
	ROW_U("llu_uint64_max", "%llu", ARG_ULLONG, UINT64_MAX),
	ROW_U("x_lowercase", "%x", ARG_UINT, 0xdeadbeef),
	ROW_U("X_uppercase", "%X", ARG_UINT, 0xdeadbeef),
	ROW_U("llx_uint64_max", "%llx", ARG_ULLONG, UINT64_MAX),
	ROW_U("o_octal", "%o", ARG_UINT, 8),
	ROW_U("lo_uint64_max", "%lo", ARG_ULONG, UINT64_MAX),
	ROW_U("x_zero", "%x", ARG_UINT, 0),
	ROW_I("u_of_negative_int", "%u", ARG_INT, -1),
};

static const struct fmt_case flag_rows[] = {
	ROW_I("width_pads_left", "[%5d]", ARG_INT, 42),
	ROW_I("minus_pads_right", "[%-5d]", ARG_INT, 42),
	ROW_I("zero_pads_after_sign", "[%05d]", ARG_INT, -42),
	ROW_U("zero_pads_hex", "[%08x]", ARG_UINT, 0xbeef),
	ROW_I("minus_beats_zero", "[%-05d]", ARG_INT, 42),
	ROW_I("plus_on_positive", "%+d", ARG_INT, 5),
	ROW_I("plus_on_negative", "%+d", ARG_INT, -5),
	ROW_I("plus_on_zero", "%+d", ARG_INT, 0),
	ROW_I("space_on_positive", "% d", ARG_INT, 5),
	ROW_I("space_on_negative", "% d", ARG_INT, -5),
	ROW_I("plus_beats_space", "%+ d", ARG_INT, 5),
	ROW_U("plus_ignored_by_u", "%+u", ARG_UINT, 5),
	ROW_U("alt_hex_prefix", "%#x", ARG_UINT, 255),
	ROW_U("alt_hex_upper_prefix", "%#X", ARG_UINT, 255),
	ROW_U("alt_hex_zero_has_no_prefix", "%#x", ARG_UINT, 0),
	ROW_U("alt_octal_leading_zero", "%#o", ARG_UINT, 8),
	ROW_U("alt_octal_zero_is_one_zero", "%#o", ARG_UINT, 0),
	ROW_U("alt_hex_zero_pad_after_prefix", "[%#010x]", ARG_UINT, 0xab),
	ROW_U("alt_hex_width_pads_before_prefix", "[%#10x]", ARG_UINT, 0xab),
	ROW_I("plus_zero_pad", "[%+06d]", ARG_INT, 7),
	ROW_I("space_zero_pad", "[% 06d]", ARG_INT, 7),
	ROW_I("width_smaller_than_output", "[%2d]", ARG_INT, 12345),
	ROW_I("width_smaller_than_int64_min", "[%3lld]", ARG_LLONG, INT64_MIN),
	ROW_I("zero_pad_int64_min", "[%025lld]", ARG_LLONG, INT64_MIN),
	ROW_I("left_int64_min", "[%-25lld]", ARG_LLONG, INT64_MIN),
};

static const struct fmt_case precision_rows[] = {
	ROW_I("precision_adds_zeros", "%.5d", ARG_INT, 42),
	ROW_I("precision_after_minus", "%.5d", ARG_INT, -42),
	ROW_I("precision_zero_value_zero_is_empty", "[%.0d]", ARG_INT, 0),
	ROW_I("precision_dot_alone_is_zero", "[%.d]", ARG_INT, 0),
	ROW_U("precision_zero_hex_zero_is_empty", "[%.0x]", ARG_UINT, 0),
	ROW_I("precision_zero_with_width", "[%5.0d]", ARG_INT, 0),
	ROW_I("precision_zero_plus_keeps_sign", "[%+.0d]", ARG_INT, 0),
	ROW_I("precision_zero_space_keeps_space", "[% .0d]", ARG_INT, 0),
	ROW_U("precision_zero_alt_octal_is_zero", "[%#.0o]", ARG_UINT, 0),
	ROW_U("precision_zero_alt_hex_is_empty", "[%#.0x]", ARG_UINT, 0),
	ROW_I("precision_zero_nonzero_value", "[%.0d]", ARG_INT, 7),
	ROW_I("precision_beats_zero_flag", "[%08.3d]", ARG_INT, 5),
	ROW_I("precision_and_width", "[%8.3d]", ARG_INT, -5),
	ROW_U("precision_and_left", "[%-8.3x]", ARG_UINT, 0xf),
	ROW_U("alt_octal_precision_has_zero", "[%#.3o]", ARG_UINT, 8),
	ROW_U("alt_octal_short_precision", "[%#.1o]", ARG_UINT, 8),
	ROW_U("alt_hex_precision", "[%#.4x]", ARG_UINT, 0xf),
	ROW_I("precision_smaller_than_digits", "[%.2d]", ARG_INT, 12345),
	ROW_I("precision_int64_min", "[%.25lld]", ARG_LLONG, INT64_MIN),
};

static const struct fmt_case length_rows[] = {
	ROW_I("hhd_truncates_to_signed_char", "%hhd", ARG_INT, 300),
	ROW_I("hhd_negative", "%hhd", ARG_INT, 200),
	ROW_I("hhu_truncates_to_unsigned_char", "%hhu", ARG_INT, -1),
	ROW_I("hhx", "%hhx", ARG_INT, 0x1234),
	ROW_I("hd_truncates_to_short", "%hd", ARG_INT, 70000),
	ROW_I("hu_truncates_to_unsigned_short", "%hu", ARG_INT, -1),
	ROW_I("ld", "%ld", ARG_LONG, -1234567890123LL),
	ROW_U("lu", "%lu", ARG_ULONG, 12345678901234ULL),
	ROW_U("lx", "%lx", ARG_ULONG, 0x123456789abcdefULL),
	ROW_I("lld", "%lld", ARG_LLONG, -9876543210LL),
	ROW_U("llo", "%llo", ARG_ULLONG, 01234567012345670ULL),
	ROW_U("zu_size_max", "%zu", ARG_SIZE, SIZE_MAX),
	ROW_U("zx", "%zx", ARG_SIZE, 0xfeedULL),
	ROW_U("zd_negative", "%zd", ARG_SIZE, (unsigned long long)-5),
	ROW_I("td_negative", "%td", ARG_PTRDIFF, -5),
	ROW_I("tx_negative", "%tx", ARG_PTRDIFF, -1),
	ROW_I("jd_intmax_min", "%jd", ARG_INTMAX, INTMAX_MIN),
	ROW_U("ju_uintmax_max", "%ju", ARG_UINTMAX, UINTMAX_MAX),
	ROW_U("jx", "%jx", ARG_UINTMAX, 0xabcdef0123456789ULL),
};

static const struct fmt_case text_rows[] = {
	ROW_I("c", "%c", ARG_INT, 'A'),
	ROW_I("c_width", "[%3c]", ARG_INT, 'A'),
	ROW_I("c_left", "[%-3c]", ARG_INT, 'A'),
	ROW_I("c_high_byte", "%c", ARG_INT, 0xe9),
	ROW_S("s", "%s", "hello"),
	ROW_S("s_empty", "[%s]", ""),
	ROW_S("s_width", "[%10s]", "hello"),
	ROW_S("s_left", "[%-10s]", "hello"),
	ROW_S("s_precision_cuts", "[%.3s]", "hello"),
	ROW_S("s_precision_zero", "[%.0s]", "hello"),
	ROW_S("s_precision_longer", "[%.10s]", "hello"),
	ROW_S("s_width_and_precision", "[%10.3s]", "hello"),
	ROW_S("s_width_smaller_than_output", "[%2s]", "hello"),
	ROW_S("s_null_prints_null", "%s", NULL),
	ROW_S("s_null_width", "[%8s]", NULL),
};

static const struct fmt_case star_rows[] = {
	ROW_STAR("star_width", "[%*d]", 5, 42),
	ROW_STAR("star_negative_width_is_left", "[%*d]", -5, 42),
	ROW_STAR("star_precision", "[%.*d]", 3, 7),
	ROW_STAR("star_negative_precision_is_none", "[%.*d]", -1, 0),
	ROW_STAR("star_zero_precision_zero_value", "[%.*d]", 0, 0),
	ROW_STAR("star_width_zero_flag", "[%0*d]", 6, -42),
	ROW_STAR2("star_width_and_precision", "[%*.*d]", 8, 4, -42),
	ROW_STAR2("star_negative_width_and_precision", "[%*.*d]", -8, 4, 42),
	ROW_STAR_S("star_left_string", "[%-*s]", 4, "ab"),
	ROW_STAR_S("star_string_precision", "[%.*s]", 2, "abcdef"),
};

static void text_without_conversions_is_copied(struct ktest *t)
{
	check_against_libc(t, plain_rows, ARRAY_SIZE(plain_rows));
}

static void signed_decimal_matches_libc(struct ktest *t)
{
	check_against_libc(t, signed_rows, ARRAY_SIZE(signed_rows));
}

static void unsigned_conversions_match_libc(struct ktest *t)
{
	check_against_libc(t, unsigned_rows, ARRAY_SIZE(unsigned_rows));
}

static void flags_and_width_match_libc(struct ktest *t)
{
	check_against_libc(t, flag_rows, ARRAY_SIZE(flag_rows));
}

static void precision_matches_libc(struct ktest *t)
{
	check_against_libc(t, precision_rows, ARRAY_SIZE(precision_rows));
}

static void length_modifiers_match_libc(struct ktest *t)
{
	check_against_libc(t, length_rows, ARRAY_SIZE(length_rows));
}

static void chars_and_strings_match_libc(struct ktest *t)
{
	check_against_libc(t, text_rows, ARRAY_SIZE(text_rows));
}

static void star_width_and_precision_match_libc(struct ktest *t)
{
	check_against_libc(t, star_rows, ARRAY_SIZE(star_rows));
}

/* Rows whose output is Graft's own, not libc's. */
struct fixed_case {
	const char *name;
	const char *fmt;
	const void *p;
	const char *want;
};

static const struct fixed_case pointer_rows[] = {
	{ "null_pointer_is_all_zeros", "%p", NULL, "0x0000000000000000" },
	{ "small_pointer_has_16_digits", "%p", (void *)0xdeadbeef,
	  "0x00000000deadbeef" },
	{ "high_pointer", "%p", (void *)0xffffffff80001000ULL,
	  "0xffffffff80001000" },
	{ "pointer_width_pads_left", "[%20p]", (void *)0x1234,
	  "[  0x0000000000001234]" },
	{ "pointer_left", "[%-20p]", (void *)0x1234,
	  "[0x0000000000001234  ]" },
	{ "pointer_zero_flag_ignored", "[%020p]", (void *)0x1234,
	  "[  0x0000000000001234]" },
};

static const struct fixed_case unknown_rows[] = {
	{ "unknown_conversion_with_flags", "a%-5yb", NULL, "a%-5yb" },
	{ "lone_percent_at_end", "50%", NULL, "50%" },
	{ "unfinished_conversion_at_end", "x%-08l", NULL, "x%-08l" },
};

static void check_fixed(struct ktest *t, const struct fixed_case *rows,
			size_t n)
{
	char buf[BUF_SIZE];
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		const struct fixed_case *c = &rows[i];

		ret = ksnprintf(buf, sizeof(buf), c->fmt, c->p);
		if (strcmp(buf, c->want) != 0 || ret != (int)strlen(c->want))
			ktest_fail(t, "%s: \"%s\" gave [%s] (%d), want [%s]",
				   c->name, c->fmt, buf, ret, c->want);
	}
}

static void pointer_is_0x_and_16_hex_digits(struct ktest *t)
{
	check_fixed(t, pointer_rows, ARRAY_SIZE(pointer_rows));
}

static void unknown_conversion_is_printed_verbatim(struct ktest *t)
{
	check_fixed(t, unknown_rows, ARRAY_SIZE(unknown_rows));
}

static void several_conversions_in_one_format(struct ktest *t)
{
	char kbuf[BUF_SIZE], lbuf[BUF_SIZE];
	int kn, ln;

	kn = ksnprintf(kbuf, sizeof(kbuf), "%s=%d, %#x%c|%-4u|%5.2s|%%",
		       "key", -3, 0x1f, '!', 9u, "xyz");
	ln = snprintf(lbuf, sizeof(lbuf), "%s=%d, %#x%c|%-4u|%5.2s|%%",
		      "key", -3, 0x1f, '!', 9u, "xyz");
	KTEST_EXPECT_STREQ(t, kbuf, lbuf);
	KTEST_EXPECT_EQ(t, kn, ln);
}

static void truncation_returns_full_length(struct ktest *t)
{
	char buf[8];

	memset(buf, 'X', sizeof(buf));
	KTEST_EXPECT_EQ(t, ksnprintf(buf, 5, "%s", "hello world"), 11);
	KTEST_EXPECT_STREQ(t, buf, "hell");
	KTEST_EXPECT_EQ(t, buf[5], 'X');
	KTEST_EXPECT_EQ(t, ksnprintf(buf, sizeof(buf), "%d", -1234567), 8);
	KTEST_EXPECT_STREQ(t, buf, "-123456");
}

static void exact_fit_is_not_truncated(struct ktest *t)
{
	char buf[6];

	KTEST_EXPECT_EQ(t, ksnprintf(buf, sizeof(buf), "%s", "hello"), 5);
	KTEST_EXPECT_STREQ(t, buf, "hello");
	KTEST_EXPECT_EQ(t, ksnprintf(buf, sizeof(buf), "%s!", "hello"), 6);
	KTEST_EXPECT_STREQ(t, buf, "hello");
}

static void size_one_writes_only_nul(struct ktest *t)
{
	char buf[4] = "abc";

	KTEST_EXPECT_EQ(t, ksnprintf(buf, 1, "%d", 12345), 5);
	KTEST_EXPECT_EQ(t, buf[0], '\0');
	KTEST_EXPECT_EQ(t, buf[1], 'b');
}

static void size_zero_writes_nothing(struct ktest *t)
{
	char buf[4] = "abc";

	KTEST_EXPECT_EQ(t, ksnprintf(NULL, 0, "%s-%d", "abc", 42), 6);
	KTEST_EXPECT_EQ(t, ksnprintf(buf, 0, "%s", "xyz"), 3);
	KTEST_EXPECT_STREQ(t, buf, "abc");
}

struct collector {
	char buf[BUF_SIZE];
	size_t len;
};

static void collect(int c, void *arg)
{
	struct collector *col = arg;

	if (col->len + 1 < sizeof(col->buf))
		col->buf[col->len++] = (char)c;
	col->buf[col->len] = '\0';
}

static int format_to(struct collector *col, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int format_to(struct collector *col, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kprintf_vformat(collect, col, fmt, ap);
	va_end(ap);
	return n;
}

static void vformat_emits_each_char_once(struct ktest *t)
{
	struct collector col = { .len = 0 };
	int n;

	n = format_to(&col, "%s:%04x:%c", "id", 0xa, 'z');
	KTEST_EXPECT_STREQ(t, col.buf, "id:000a:z");
	KTEST_EXPECT_EQ(t, n, 9);
	KTEST_EXPECT_EQ(t, col.len, 9);
}

static void vformat_passes_nul_char_through(struct ktest *t)
{
	struct collector col = { .len = 0 };

	KTEST_EXPECT_EQ(t, format_to(&col, "a%cb", 0), 3);
	KTEST_EXPECT_EQ(t, col.len, 3);
	KTEST_EXPECT_MEMEQ(t, col.buf, "a\0b", 3);
}

/* kprintf() writes to the console, here stdout, as a KTAP diagnostic. */
static void kprintf_returns_chars_written(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, kprintf("    # kprintf %s %d\n", "says", 42), 22);
}

static const struct ktest_case kprintf_cases[] = {
	{ "text_without_conversions_is_copied",
	  text_without_conversions_is_copied },
	{ "signed_decimal_matches_libc", signed_decimal_matches_libc },
	{ "unsigned_conversions_match_libc", unsigned_conversions_match_libc },
	{ "flags_and_width_match_libc", flags_and_width_match_libc },
	{ "precision_matches_libc", precision_matches_libc },
	{ "length_modifiers_match_libc", length_modifiers_match_libc },
	{ "chars_and_strings_match_libc", chars_and_strings_match_libc },
	{ "star_width_and_precision_match_libc",
	  star_width_and_precision_match_libc },
	{ "pointer_is_0x_and_16_hex_digits", pointer_is_0x_and_16_hex_digits },
	{ "unknown_conversion_is_printed_verbatim",
	  unknown_conversion_is_printed_verbatim },
	{ "several_conversions_in_one_format",
	  several_conversions_in_one_format },
	{ "truncation_returns_full_length", truncation_returns_full_length },
	{ "exact_fit_is_not_truncated", exact_fit_is_not_truncated },
	{ "size_one_writes_only_nul", size_one_writes_only_nul },
	{ "size_zero_writes_nothing", size_zero_writes_nothing },
	{ "vformat_emits_each_char_once", vformat_emits_each_char_once },
	{ "vformat_passes_nul_char_through", vformat_passes_nul_char_through },
	{ "kprintf_returns_chars_written", kprintf_returns_chars_written },
};

KTEST_SUITE(kprintf_suite, "kprintf", kprintf_cases);
