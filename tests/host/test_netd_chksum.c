/* SPDX-License-Identifier: GPL-2.0-only */
/* Host tests of netd_chksum (servers/netd/chksum.c) against RFC 1071's sum. */

#include <stdint.h>
#include <string.h>

#include "kern/ktest.h"

unsigned short netd_chksum(const void *data, int len);

/* The sum as RFC 1071 defines it, 16-bit big-endian words one at a time,
 * a last odd byte padded with zero; returned in the order netd_chksum
 * gives it (as lwIP stores it on a little-endian host). */
static unsigned short reference(const uint8_t *p, int len)
{
	uint32_t sum = 0;

	for (int i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (unsigned short)((sum & 0xff) << 8 | sum >> 8);
}

static void rfc1071_example(struct ktest *t)
{
	/* RFC 1071 section 3: the sum of these is 0xddf2. */
	static const uint8_t b[] = { 0x00, 0x01, 0xf2, 0x03,
				     0xf4, 0xf5, 0xf6, 0xf7 };

	KTEST_EXPECT_EQ(t, netd_chksum(b, sizeof(b)), 0xf2ddu);
}

static void empty_and_negative_lengths_sum_to_zero(struct ktest *t)
{
	static const uint8_t b[4] = { 1, 2, 3, 4 };

	KTEST_EXPECT_EQ(t, netd_chksum(b, 0), 0u);
	KTEST_EXPECT_EQ(t, netd_chksum(b, -1), 0u);
}

/* Every start offset 0..15 and every length up to a full frame, in
 * seeded random data and in all-0xff data (where carries pile up). */
static void every_offset_and_length_matches(struct ktest *t)
{
	static uint8_t buf[1536 + 16];
	uint32_t x = 12345;

	for (int fill = 0; fill < 2; fill++) {
		for (size_t i = 0; i < sizeof(buf); i++) {
			x = x * 1103515245u + 12345u;
			buf[i] = fill ? 0xff : (uint8_t)(x >> 16);
		}
		for (int off = 0; off < 16; off++)
			for (int len = 0; len <= 1536; len++) {
				unsigned short got = netd_chksum(buf + off,
								 len);
				unsigned short want = reference(buf + off,
								len);

				if (got != want) {
					ktest_fail(t, "fill %d offset %d length "
						   "%d: got 0x%04x, want "
						   "0x%04x", fill, off, len,
						   got, want);
					return;
				}
			}
	}
}

static const struct ktest_case chksum_cases[] = {
	{ "rfc1071_example", rfc1071_example },
	{ "empty_and_negative_lengths_sum_to_zero",
	  empty_and_negative_lengths_sum_to_zero },
	{ "every_offset_and_length_matches", every_offset_and_length_matches },
};

KTEST_SUITE(chksum_suite, "netd-chksum", chksum_cases);
