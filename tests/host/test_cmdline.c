/* SPDX-License-Identifier: GPL-2.0-only */
/* Host tests of command line lookup: finding, copying and parsing numbers. */

#include <string.h>

#include "kern/cmdline.h"
#include "kern/ktest.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct find_case {
	const char *name;
	const char *cmdline;
	const char *key;
	bool found;
	const char *value;	/* expected value text when found */
	size_t offset;		/* expected value - cmdline when found */
};

#define FOUND(n, cl, k, v, off)						\
	{ .name = (n), .cmdline = (cl), .key = (k), .found = true,	\
	  .value = (v), .offset = (off) }
#define NOT_FOUND(n, cl, k)						\
	{ .name = (n), .cmdline = (cl), .key = (k), .found = false }

static const struct find_case find_tables[] = {
	FOUND("key_value", "test=boot", "test", "boot", 5),
	FOUND("key_in_middle", "a=1 test=boot b=2", "test", "boot", 9),
	FOUND("bare_key_points_at_end_of_word", "quiet test=boot", "quiet",
	      "", 5),
	FOUND("bare_key_last_points_at_nul", "a=1 quiet", "quiet", "", 9),
	FOUND("empty_value", "k= x=1", "k", "", 2),
	FOUND("first_occurrence_wins", "x=1 x=2", "x", "1", 2),
	FOUND("first_occurrence_wins_over_bare", "x x=2", "x", "", 1),
	FOUND("value_may_contain_equals", "mod0=a=b=c", "mod0", "a=b=c", 5),
	FOUND("prefix_key_skips_longer_key", "testing=1 test=boot", "test",
	      "boot", 15),
	NOT_FOUND("prefix_key_absent", "testing=1", "test"),
	NOT_FOUND("longer_key_absent", "test=boot", "testing"),
	NOT_FOUND("bare_prefix_absent", "test", "tes"),
	NOT_FOUND("key_is_not_matched_in_a_value", "a=test b=1", "test"),
	NOT_FOUND("key_is_not_matched_mid_word", "xtest=1", "test"),
	FOUND("extra_spaces", "   a=1    b=2  ", "b", "2", 12),
	FOUND("tabs_and_newline_separate", "a=1\tb=2\nc=3", "c", "3", 10),
	NOT_FOUND("absent_key", "a=1 b=2", "c"),
	NOT_FOUND("empty_cmdline", "", "a"),
	NOT_FOUND("only_spaces", "    ", "a"),
	NOT_FOUND("null_cmdline_is_empty", NULL, "a"),
	NOT_FOUND("empty_key_never_matches", "=1 a=2", ""),
};

static void find_tables_match(struct ktest *t)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(find_tables); i++) {
		const struct find_case *c = &find_tables[i];
		const char *value = NULL;
		size_t len = 12345;
		bool found;

		found = cmdline_find(c->cmdline, c->key, &value, &len);
		if (found != c->found) {
			ktest_fail(t, "%s: found is %d, want %d", c->name,
				   found, c->found);
			continue;
		}
		if (!found) {
			if (value || len != 12345)
				ktest_fail(t, "%s: outputs touched", c->name);
			continue;
		}
		if (value != c->cmdline + c->offset)
			ktest_fail(t, "%s: value at offset %td, want %zu",
				   c->name, value - c->cmdline, c->offset);
		if (len != strlen(c->value) ||
		    strncmp(value, c->value, len) != 0)
			ktest_fail(t, "%s: value is '%.*s', want '%s'",
				   c->name, (int)len, value, c->value);
	}
}

static void find_accepts_null_outputs(struct ktest *t)
{
	KTEST_EXPECT_TRUE(t, cmdline_find("a=1 b", "b", NULL, NULL));
	KTEST_EXPECT_FALSE(t, cmdline_find("a=1 b", "c", NULL, NULL));
}

static void copy_fits_exactly(struct ktest *t)
{
	char buf[5];

	KTEST_EXPECT_TRUE(t, cmdline_copy("x=1 mode=wall y", "mode", buf,
					  sizeof(buf)));
	KTEST_EXPECT_STREQ(t, buf, "wall");
}

static void copy_too_small_fails_untouched(struct ktest *t)
{
	char buf[4] = "abc";

	KTEST_EXPECT_FALSE(t, cmdline_copy("mode=wall", "mode", buf,
					   sizeof(buf)));
	KTEST_EXPECT_STREQ(t, buf, "abc");
	KTEST_EXPECT_FALSE(t, cmdline_copy("mode=", "mode", buf, 0));
	KTEST_EXPECT_STREQ(t, buf, "abc");
}

static void copy_absent_fails_untouched(struct ktest *t)
{
	char buf[4] = "abc";

	KTEST_EXPECT_FALSE(t, cmdline_copy("a=1", "mode", buf, sizeof(buf)));
	KTEST_EXPECT_FALSE(t, cmdline_copy(NULL, "mode", buf, sizeof(buf)));
	KTEST_EXPECT_STREQ(t, buf, "abc");
}

static void copy_bare_key_is_empty_string(struct ktest *t)
{
	char buf[4] = "abc";

	KTEST_EXPECT_TRUE(t, cmdline_copy("quiet x=1", "quiet", buf, 1));
	KTEST_EXPECT_STREQ(t, buf, "");
}

static void copy_keeps_equals_in_value(struct ktest *t)
{
	char buf[16];

	KTEST_EXPECT_TRUE(t, cmdline_copy("opt=k=v,z=1", "opt", buf,
					  sizeof(buf)));
	KTEST_EXPECT_STREQ(t, buf, "k=v,z=1");
}

struct u64_case {
	const char *name;
	const char *cmdline;
	int ret;
	uint64_t value;		/* when ret is 0 */
};

#define PARSES(n, cl, v)	{ .name = (n), .cmdline = (cl), .value = (v) }
#define FAILS(n, cl, r)		{ .name = (n), .cmdline = (cl), .ret = (r) }

static const struct u64_case u64_tables[] = {
	PARSES("decimal", "n=123", 123),
	PARSES("zero", "n=0", 0),
	PARSES("leading_zeros_are_decimal", "n=007", 7),
	PARSES("hex_lowercase", "n=0x1234abcd", 0x1234abcd),
	PARSES("hex_uppercase_prefix_and_digits", "n=0XDEADbeef", 0xdeadbeef),
	PARSES("hex_zero", "n=0x0", 0),
	PARSES("decimal_uint64_max", "n=18446744073709551615", UINT64_MAX),
	PARSES("hex_uint64_max", "n=0xffffffffffffffff", UINT64_MAX),
	PARSES("hex_leading_zeros", "n=0x00000000000000000001", 1),
	PARSES("among_other_words", "a=x n=42 b", 42),
	PARSES("first_occurrence_wins", "n=1 n=2", 1),
	PARSES("prefix_key_not_matched", "nn=5 n=6", 6),
	FAILS("decimal_overflow", "n=18446744073709551616", CMDLINE_MALFORMED),
	FAILS("decimal_far_overflow", "n=99999999999999999999999",
	      CMDLINE_MALFORMED),
	FAILS("hex_overflow", "n=0x10000000000000000", CMDLINE_MALFORMED),
	FAILS("empty_value", "n=", CMDLINE_MALFORMED),
	FAILS("bare_key", "n", CMDLINE_MALFORMED),
	FAILS("trailing_garbage", "n=12a", CMDLINE_MALFORMED),
	FAILS("hex_digit_in_decimal", "n=1f", CMDLINE_MALFORMED),
	FAILS("prefix_without_digits", "n=0x", CMDLINE_MALFORMED),
	FAILS("bad_hex_digit", "n=0x12g", CMDLINE_MALFORMED),
	FAILS("minus_sign", "n=-1", CMDLINE_MALFORMED),
	FAILS("plus_sign", "n=+1", CMDLINE_MALFORMED),
	FAILS("absent", "m=1", CMDLINE_ABSENT),
	FAILS("absent_only_as_prefix", "number=1", CMDLINE_ABSENT),
	FAILS("null_cmdline_absent", NULL, CMDLINE_ABSENT),
};

static void u64_tables_match(struct ktest *t)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(u64_tables); i++) {
		const struct u64_case *c = &u64_tables[i];
		uint64_t v = 0x5a5a5a5a5a5a5a5aULL;
		int ret = cmdline_u64(c->cmdline, "n", &v);

		if (ret != c->ret)
			ktest_fail(t, "%s: returned %d, want %d", c->name, ret,
				   c->ret);
		else if (ret == 0 && v != c->value)
			ktest_fail(t, "%s: parsed %llu, want %llu", c->name,
				   (unsigned long long)v,
				   (unsigned long long)c->value);
		else if (ret != 0 && v != 0x5a5a5a5a5a5a5a5aULL)
			ktest_fail(t, "%s: output touched on error", c->name);
	}
}

static void error_codes_are_distinct_and_negative(struct ktest *t)
{
	KTEST_EXPECT_LE(t, CMDLINE_ABSENT, -1);
	KTEST_EXPECT_LE(t, CMDLINE_MALFORMED, -1);
	KTEST_EXPECT_NE(t, CMDLINE_ABSENT, CMDLINE_MALFORMED);
}

static const struct ktest_case cmdline_cases[] = {
	{ "find_tables_match", find_tables_match },
	{ "find_accepts_null_outputs", find_accepts_null_outputs },
	{ "copy_fits_exactly", copy_fits_exactly },
	{ "copy_too_small_fails_untouched", copy_too_small_fails_untouched },
	{ "copy_absent_fails_untouched", copy_absent_fails_untouched },
	{ "copy_bare_key_is_empty_string", copy_bare_key_is_empty_string },
	{ "copy_keeps_equals_in_value", copy_keeps_equals_in_value },
	{ "u64_tables_match", u64_tables_match },
	{ "error_codes_are_distinct_and_negative",
	  error_codes_are_distinct_and_negative },
};

KTEST_SUITE(cmdline_suite, "cmdline", cmdline_cases);
