/* SPDX-License-Identifier: GPL-2.0-only */
/* Host tests of kcrc32(): known CRC-32 vectors and chained computation. */

#include <string.h>

#include "kern/kcrc32.h"
#include "kern/ktest.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct crc_vector {
	const char *name;
	const char *data;
	size_t len;
	uint32_t crc;
};

/* Values as zlib's crc32() gives them. */
static const struct crc_vector vectors[] = {
	{ "empty_input_is_zero", "", 0, 0x00000000 },
	{ "check_value_123456789", "123456789", 9, 0xcbf43926 },
	{ "single_byte_a", "a", 1, 0xe8b7be43 },
	{ "short_string_abc", "abc", 3, 0x352441c2 },
	{ "pangram", "The quick brown fox jumps over the lazy dog", 43,
	  0x414fa339 },
	{ "thirty_two_zero_bytes",
	  "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"
	  "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 32, 0x190a55ad },
};

static void known_vectors_match_zlib(struct ktest *t)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vectors); i++) {
		const struct crc_vector *v = &vectors[i];
		uint32_t crc = kcrc32(0, v->data, v->len);

		if (crc != v->crc)
			ktest_fail(t, "%s: got 0x%08x, want 0x%08x", v->name,
				   crc, v->crc);
	}
}

static void all_byte_values_match_zlib(struct ktest *t)
{
	unsigned char buf[256];
	size_t i;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)i;
	KTEST_EXPECT_EQ(t, kcrc32(0, buf, sizeof(buf)), 0x29058c73u);
}

static void empty_update_keeps_crc(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, kcrc32(0x12345678, NULL, 0), 0x12345678u);
	KTEST_EXPECT_EQ(t, kcrc32(0, NULL, 0), 0u);
}

/* Every split of every vector into two calls gives the one-call CRC. */
static void chained_calls_equal_one_call(struct ktest *t)
{
	size_t i, split;

	for (i = 0; i < ARRAY_SIZE(vectors); i++) {
		const struct crc_vector *v = &vectors[i];
		uint32_t whole = kcrc32(0, v->data, v->len);

		for (split = 0; split <= v->len; split++) {
			uint32_t crc = kcrc32(0, v->data, split);

			crc = kcrc32(crc, v->data + split, v->len - split);
			if (crc == whole)
				continue;
			ktest_fail(t, "%s split at %zu: 0x%08x, whole 0x%08x",
				   v->name, split, crc, whole);
		}
	}
}

static void byte_at_a_time_equals_one_call(struct ktest *t)
{
	const char *s = "123456789";
	uint32_t crc = 0;
	size_t i;

	for (i = 0; i < strlen(s); i++)
		crc = kcrc32(crc, s + i, 1);
	KTEST_EXPECT_EQ(t, crc, 0xcbf43926u);
}

static void different_data_differs(struct ktest *t)
{
	KTEST_EXPECT_NE(t, kcrc32(0, "123456789", 9),
			kcrc32(0, "123456780", 9));
}

static const struct ktest_case crc32_cases[] = {
	{ "known_vectors_match_zlib", known_vectors_match_zlib },
	{ "all_byte_values_match_zlib", all_byte_values_match_zlib },
	{ "empty_update_keeps_crc", empty_update_keeps_crc },
	{ "chained_calls_equal_one_call", chained_calls_equal_one_call },
	{ "byte_at_a_time_equals_one_call", byte_at_a_time_equals_one_call },
	{ "different_data_differs", different_data_differs },
};

KTEST_SUITE(crc32_suite, "crc32", crc32_cases);
