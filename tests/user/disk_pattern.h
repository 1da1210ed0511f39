/* SPDX-License-Identifier: GPL-2.0-only */
/* The disk suites' sector patterns (suites.py has them too; kernel-safe). */
#ifndef TESTS_USER_DISK_PATTERN_H
#define TESTS_USER_DISK_PATTERN_H

#include <stdint.h>

#define DISK_SECTOR	512

/*
 * Generation 0 is the image the harness made; generation 1 what the
 * guest writes over partition 1.  Each sector carries its LBA (bytes
 * 0-7, little-endian), a tag naming the generation (8-15), then bytes
 * that depend on the LBA, the position and the generation.
 */
static const char *const disk_tags[2] = { "GRAFTHD0", "GRAFTNEW" };

static inline uint8_t disk_pattern_byte(uint64_t lba, unsigned int i,
					int gen)
{
	if (i < 8)
		return (uint8_t)(lba >> (8 * i));
	if (i < 16)
		return (uint8_t)disk_tags[gen][i - 8];
	return gen == 0 ? (uint8_t)(((lba * 7 + i * 3) & 0xff) ^ 0x5a) :
	       (uint8_t)((lba * 13 + i * 5 + 1) & 0xff);
}

static inline void disk_pattern_fill(uint8_t *s, uint64_t lba, int gen)
{
	for (unsigned int i = 0; i < DISK_SECTOR; i++)
		s[i] = disk_pattern_byte(lba, i, gen);
}

/* The first byte of @s (a sector of LBA @lba) that differs from
 * generation @gen in [@from, @to), or -1. */
static inline int disk_pattern_diff(const uint8_t *s, uint64_t lba, int gen,
				    unsigned int from, unsigned int to)
{
	for (unsigned int i = from; i < to; i++)
		if (s[i] != disk_pattern_byte(lba, i, gen))
			return (int)i;
	return -1;
}

#endif
