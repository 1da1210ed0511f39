/* SPDX-License-Identifier: GPL-2.0-only */
/* The MBR partition table: the primary partitions of a disk's sector 0. */
/*
 * The layout (the PC's, fixed since DOS 2): four 16-byte entries at byte
 * 446, each with a status byte, a CHS start, the system id at offset 4,
 * a CHS end, then the starting LBA and the sector count as little-endian
 * 32-bit numbers at offsets 8 and 12; the signature 0x55 0xaa ends the
 * sector.  CHS fields are ignored: LBA is authoritative.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mach-glue/block/blk_mbr.h"

#define MBR_TABLE	446
#define MBR_ENTRY	16
#define MBR_TYPE	4
#define MBR_LBA		8
#define MBR_COUNT	12

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static bool is_extended(uint8_t type)
{
	return type == 0x05 || type == 0x0f || type == 0x85;
}

static bool overlaps(const struct blk_mbr_part *a, uint64_t start,
		     uint64_t sectors)
{
	return start < a->start + a->sectors && a->start < start + sectors;
}

/* What to do with entry @e, given the @n partitions kept before it. */
static enum blk_mbr_skip judge(const uint8_t *e, uint64_t disk_sectors,
			       const struct blk_mbr_part *parts, int n)
{
	uint64_t start = le32(e + MBR_LBA), sectors = le32(e + MBR_COUNT);

	if (e[MBR_TYPE] == 0 || sectors == 0)
		return BLK_MBR_EMPTY;
	if (is_extended(e[MBR_TYPE]))
		return BLK_MBR_EXTENDED;
	if (start == 0 || start > disk_sectors ||
	    sectors > disk_sectors - start)
		return BLK_MBR_OUTSIDE;
	for (int i = 0; i < n; i++)
		if (overlaps(&parts[i], start, sectors))
			return BLK_MBR_OVERLAP;
	return BLK_MBR_OK;
}

int blk_mbr_parse(const uint8_t *sector0, uint64_t disk_sectors,
		  struct blk_mbr_part *parts, enum blk_mbr_skip *skip)
{
	int n = 0;

	if (sector0[510] != 0x55 || sector0[511] != 0xaa)
		return -1;
	for (unsigned int slot = 0; slot < BLK_MBR_PRIMARY; slot++) {
		const uint8_t *e = sector0 + MBR_TABLE + slot * MBR_ENTRY;
		enum blk_mbr_skip why = judge(e, disk_sectors, parts, n);

		if (skip != NULL)
			skip[slot] = why;
		if (why != BLK_MBR_OK)
			continue;
		parts[n].slot = slot;
		parts[n].type = e[MBR_TYPE];
		parts[n].start = le32(e + MBR_LBA);
		parts[n].sectors = le32(e + MBR_COUNT);
		n++;
	}
	return n;
}

int blk_mbr_blocks(const uint8_t *sector0, uint32_t block_size,
		   uint64_t disk_blocks, struct blk_mbr_part *parts,
		   enum blk_mbr_skip *skip)
{
	uint64_t per_block = block_size / BLK_MBR_SIZE;
	int n = blk_mbr_parse(sector0, disk_blocks * per_block, parts, skip);
	int kept = 0;

	for (int i = 0; i < n; i++) {
		struct blk_mbr_part p = parts[i];

		if (p.start % per_block || p.sectors % per_block) {
			if (skip != NULL)
				skip[p.slot] = BLK_MBR_NOT_BLOCKS;
			continue;
		}
		p.start /= per_block;
		p.sectors /= per_block;
		parts[kept++] = p;
	}
	return n < 0 ? n : kept;
}

const char *blk_mbr_skip_text(enum blk_mbr_skip why)
{
	static const char *const text[] = {
		[BLK_MBR_EXTENDED] = "extended (logical partitions are not "
				     "read)",
		[BLK_MBR_OUTSIDE] = "outside the disk",
		[BLK_MBR_OVERLAP] = "overlapping an earlier one",
		[BLK_MBR_NOT_BLOCKS] = "not whole blocks",
	};

	if ((unsigned int)why >= sizeof(text) / sizeof(text[0]) ||
	    text[why] == NULL)
		return "";
	return text[why];
}
