/* SPDX-License-Identifier: GPL-2.0-only */
/* The MBR partition table: the primary partitions of a disk's sector 0. */
#ifndef BLOCK_BLK_MBR_H
#define BLOCK_BLK_MBR_H

#include <stdint.h>

#define BLK_MBR_SIZE		512	/* bytes of sector 0 read */
#define BLK_MBR_PRIMARY		4	/* entries in the table */

/* One primary partition: entry @slot (0..3, served as "hdNs<slot+1>"),
 * in 512-byte sectors from the start of the disk. */
struct blk_mbr_part {
	unsigned int slot;
	uint8_t type;		/* the entry's system id */
	uint64_t start;
	uint64_t sectors;
};

/* Why an entry is not served (for the console line the caller prints). */
enum blk_mbr_skip {
	BLK_MBR_OK,
	BLK_MBR_EMPTY,		/* type 0 or no sectors: not a partition */
	BLK_MBR_EXTENDED,	/* 0x05, 0x0f, 0x85: logical ones not read */
	BLK_MBR_OUTSIDE,	/* starts at 0 or ends past the disk */
	BLK_MBR_OVERLAP,	/* shares sectors with an earlier entry */
	BLK_MBR_NOT_BLOCKS,	/* not whole blocks (blk_mbr_blocks) */
};

/*
 * blk_mbr_parse - read the partition table of @sector0 (BLK_MBR_SIZE
 * bytes) of a disk of @disk_sectors 512-byte sectors.  Pure: no memory
 * but its arguments.  Returns -1 if the sector has no MBR signature
 * (0x55 0xaa at bytes 510-511), else the number of partitions written to
 * @parts (at most BLK_MBR_PRIMARY, in slot order): each entry that is
 * not empty, not extended, starts after sector 0, ends inside the disk
 * and overlaps no earlier served entry.  @skip[slot] (may be NULL) says
 * for each of the four entries what became of it.
 */
int blk_mbr_parse(const uint8_t *sector0, uint64_t disk_sectors,
		  struct blk_mbr_part *parts, enum blk_mbr_skip *skip);

/*
 * blk_mbr_blocks - blk_mbr_parse for a disk of @disk_blocks blocks of
 * @block_size bytes (a multiple of BLK_MBR_SIZE): the partitions' start
 * and sectors in @parts are then in blocks, and an entry that is not
 * whole blocks is left out (BLK_MBR_NOT_BLOCKS).  Same returns.
 */
int blk_mbr_blocks(const uint8_t *sector0, uint32_t block_size,
		   uint64_t disk_blocks, struct blk_mbr_part *parts,
		   enum blk_mbr_skip *skip);

/* blk_mbr_skip_text - why an entry of @why is not served, in words, for
 * the console line ("" for BLK_MBR_OK and BLK_MBR_EMPTY). */
const char *blk_mbr_skip_text(enum blk_mbr_skip why);

#endif /* BLOCK_BLK_MBR_H */
