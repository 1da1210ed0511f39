/* SPDX-License-Identifier: GPL-2.0-only */
/* Host tests of the MBR parser: which primary entries become partitions. */

#include <stdint.h>
#include <string.h>

#include "kern/ktest.h"
#include "mach-glue/block/blk_mbr.h"

#define DISK	16128ull	/* sectors: the suites' image */

/* An entry: type, start, sectors (0, 0, 0: empty). */
struct entry {
	uint8_t type;
	uint32_t start, sectors;
};

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Sector 0 with @e as its table (the CHS bytes hold junk, which the
 * parser must ignore) and the signature unless @no_sig. */
static void make(uint8_t *s, const struct entry *e, int no_sig)
{
	memset(s, 0xcc, BLK_MBR_SIZE);
	for (int i = 0; i < BLK_MBR_PRIMARY; i++) {
		uint8_t *p = s + 446 + 16 * i;

		p[4] = e[i].type;
		put_le32(p + 8, e[i].start);
		put_le32(p + 12, e[i].sectors);
	}
	s[510] = no_sig ? 0 : 0x55;
	s[511] = 0xaa;
}

struct mbr_case {
	const char *what;
	struct entry e[BLK_MBR_PRIMARY];
	int no_sig;
	int want;			/* blk_mbr_parse's return */
	enum blk_mbr_skip skip[BLK_MBR_PRIMARY];
};

static const struct mbr_case mbr_cases[] = {
	{ "two_partitions_of_the_suites_image",
	  { { 0x83, 2048, 6144 }, { 0x83, 8192, 6144 } }, 0, 2,
	  { BLK_MBR_OK, BLK_MBR_OK, BLK_MBR_EMPTY, BLK_MBR_EMPTY } },
	{ "no_signature_is_no_table",
	  { { 0x83, 2048, 6144 } }, 1, -1, { 0 } },
	{ "all_four_slots_keep_their_numbers",
	  { { 0x83, 1, 10 }, { 0, 0, 0 }, { 0x0c, 100, 10 },
	    { 0x07, 16118, 10 } }, 0, 3,
	  { BLK_MBR_OK, BLK_MBR_EMPTY, BLK_MBR_OK, BLK_MBR_OK } },
	{ "extended_entries_are_not_served",
	  { { 0x05, 2048, 100 }, { 0x0f, 3000, 100 }, { 0x85, 4000, 100 },
	    { 0x83, 5000, 100 } }, 0, 1,
	  { BLK_MBR_EXTENDED, BLK_MBR_EXTENDED, BLK_MBR_EXTENDED,
	    BLK_MBR_OK } },
	{ "a_type_with_no_sectors_is_empty",
	  { { 0x83, 2048, 0 } }, 0, 0,
	  { BLK_MBR_EMPTY, BLK_MBR_EMPTY, BLK_MBR_EMPTY, BLK_MBR_EMPTY } },
	{ "start_at_sector_0_or_past_the_end_is_outside",
	  { { 0x83, 0, 10 }, { 0x83, 16120, 9 }, { 0x83, 16128, 1 },
	    { 0x83, 0xffffffff, 0xffffffff } }, 0, 0,
	  { BLK_MBR_OUTSIDE, BLK_MBR_OUTSIDE, BLK_MBR_OUTSIDE,
	    BLK_MBR_OUTSIDE } },
	{ "ending_exactly_at_the_end_is_inside",
	  { { 0x83, 16120, 8 } }, 0, 1,
	  { BLK_MBR_OK, BLK_MBR_EMPTY, BLK_MBR_EMPTY, BLK_MBR_EMPTY } },
	{ "an_entry_overlapping_an_earlier_one_is_dropped",
	  { { 0x83, 100, 100 }, { 0x83, 199, 10 }, { 0x83, 200, 10 },
	    { 0x83, 50, 51 } }, 0, 2,
	  { BLK_MBR_OK, BLK_MBR_OVERLAP, BLK_MBR_OK, BLK_MBR_OVERLAP } },
};

static void mbr_table(struct ktest *t)
{
	for (size_t c = 0; c < sizeof(mbr_cases) / sizeof(mbr_cases[0]); c++) {
		const struct mbr_case *mc = &mbr_cases[c];
		struct blk_mbr_part parts[BLK_MBR_PRIMARY];
		enum blk_mbr_skip skip[BLK_MBR_PRIMARY];
		uint8_t s[BLK_MBR_SIZE];
		int n, k = 0;

		make(s, mc->e, mc->no_sig);
		n = blk_mbr_parse(s, DISK, parts, skip);
		if (n != mc->want) {
			ktest_fail(t, "%s: expected %d partitions, got %d",
				   mc->what, mc->want, n);
			continue;
		}
		if (n < 0)
			continue;
		for (unsigned int i = 0; i < BLK_MBR_PRIMARY; i++) {
			if (skip[i] != mc->skip[i])
				ktest_fail(t, "%s: entry %u: expected verdict "
					   "%d, got %d", mc->what, i,
					   mc->skip[i], skip[i]);
			if (mc->skip[i] != BLK_MBR_OK)
				continue;
			if (k >= n || parts[k].slot != i ||
			    parts[k].type != mc->e[i].type ||
			    parts[k].start != mc->e[i].start ||
			    parts[k].sectors != mc->e[i].sectors)
				ktest_fail(t, "%s: partition %d is not entry "
					   "%u", mc->what, k, i);
			k++;
		}
	}
}

static void skip_may_be_null(struct ktest *t)
{
	static const struct entry e[BLK_MBR_PRIMARY] = {
		{ 0x83, 2048, 6144 } };
	struct blk_mbr_part parts[BLK_MBR_PRIMARY];
	uint8_t s[BLK_MBR_SIZE];

	make(s, e, 0);
	KTEST_EXPECT_EQ(t, blk_mbr_parse(s, DISK, parts, NULL), 1);
	KTEST_EXPECT_EQ(t, parts[0].start, 2048);
}

/* On a disk of 4096-byte blocks: entries in blocks, those that are not
 * whole blocks left out (and said why). */
static void entries_in_blocks_of_a_disk(struct ktest *t)
{
	static const struct entry e[BLK_MBR_PRIMARY] = {
		{ 0x83, 2048, 6144 }, { 0x83, 8193, 8 }, { 0x83, 9000, 4 },
		{ 0x05, 10000, 8 } };
	struct blk_mbr_part parts[BLK_MBR_PRIMARY];
	enum blk_mbr_skip skip[BLK_MBR_PRIMARY];
	uint8_t s[BLK_MBR_SIZE];

	make(s, e, 0);
	KTEST_EXPECT_EQ(t, blk_mbr_blocks(s, 4096, DISK / 8, parts, skip), 1);
	KTEST_EXPECT_EQ(t, parts[0].slot, 0);
	KTEST_EXPECT_EQ(t, parts[0].start, 256);
	KTEST_EXPECT_EQ(t, parts[0].sectors, 768);
	KTEST_EXPECT_EQ(t, skip[1], BLK_MBR_NOT_BLOCKS);
	KTEST_EXPECT_EQ(t, skip[2], BLK_MBR_NOT_BLOCKS);
	KTEST_EXPECT_EQ(t, skip[3], BLK_MBR_EXTENDED);
	KTEST_EXPECT_TRUE(t, strcmp(blk_mbr_skip_text(skip[1]),
				    "not whole blocks") == 0);
	KTEST_EXPECT_TRUE(t, strcmp(blk_mbr_skip_text(BLK_MBR_OK), "") == 0);
	KTEST_EXPECT_EQ(t, blk_mbr_blocks(s, 512, DISK, parts, NULL), 3);
	s[510] = 0;
	KTEST_EXPECT_EQ(t, blk_mbr_blocks(s, 4096, DISK / 8, parts, skip),
			-1);
}

static const struct ktest_case blk_mbr_cases[] = {
	{ "entries_become_partitions_as_the_table_says", mbr_table },
	{ "skip_may_be_null", skip_may_be_null },
	{ "entries_in_blocks_of_a_disk", entries_in_blocks_of_a_disk },
};
KTEST_SUITE(blk_mbr_suite, "blk-mbr", blk_mbr_cases);
