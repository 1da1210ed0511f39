/* SPDX-License-Identifier: GPL-2.0-only */
/* Per-task I/O port permissions, loaded into the TSS bitmap on a switch. */
/*
 * A bitmap is the prefix of the TSS's: byte i holds ports 8i..8i+7, a set
 * bit denies.  The TSS remembers which bitmap it holds by a stamp that
 * changes with every change of any bitmap, so a freed bitmap whose memory
 * is reused is never mistaken for the loaded one; the loaded extent says
 * how many TSS bytes may be other than 0xff.
 */
#include <stddef.h>

#include "kern/kalloc.h"
#include "kern/string.h"
#include "x86_64/cpu.h"
#include "x86_64/gdt.h"
#include "x86_64/io_bitmap.h"

struct io_bitmap {
	uint64_t stamp;		/* changes with every change */
	uint32_t bytes;		/* ports 0 .. 8 * bytes - 1 */
	uint8_t map[];
};

#define IOMAP_ON	((uint16_t)offsetof(struct tss, iomap))
#define IOMAP_OFF	((uint16_t)sizeof(struct tss))

uint64_t io_bitmap_copied_bytes;

static uint64_t next_stamp = 1;
static uint64_t loaded_stamp;		/* 0: none */
static uint32_t loaded_bytes;		/* TSS bytes that may not be 0xff */

_Static_assert(sizeof(struct tss) <= 0xffff, "iomap_base is 16 bits");

/* A copy of @old (NULL: none) grown to cover port @to (beyond @old's
 * end), the new bytes denying; its stamp is set by the caller. */
static struct io_bitmap *grow(const struct io_bitmap *old, uint16_t to)
{
	uint32_t bytes = (uint32_t)to / 8 + 1;
	uint32_t keep = old != NULL ? old->bytes : 0;
	struct io_bitmap *bm;

	bm = kalloc(sizeof(*bm) + bytes);
	if (bm == NULL)
		return NULL;
	bm->bytes = bytes;
	if (keep != 0)
		memcpy(bm->map, old->map, keep);
	memset(bm->map + keep, 0xff, bytes - keep);
	return bm;
}

kern_return_t io_bitmap_set(struct io_bitmap **bm, uint16_t from,
			    uint16_t to, bool enable)
{
	struct io_bitmap *old, *bigger = NULL, *b;
	uint64_t flags;

	if (from > to)
		return KERN_INVALID_ARGUMENT;
	flags = cpu_intr_save();	/* kalloc and kfree nest */
	old = *bm;
	if (enable && (old == NULL || (uint32_t)to / 8 >= old->bytes)) {
		bigger = grow(old, to);
		if (bigger == NULL) {
			cpu_intr_restore(flags);
			return KERN_RESOURCE_SHORTAGE;
		}
	}
	if (bigger != NULL)
		*bm = bigger;
	b = *bm;
	if (b != NULL) {
		for (uint32_t port = from;
		     port <= to && port / 8 < b->bytes; port++) {
			if (enable)
				b->map[port / 8] &= (uint8_t)~(1u << (port % 8));
			else
				b->map[port / 8] |= (uint8_t)(1u << (port % 8));
		}
		b->stamp = next_stamp++;	/* the next load copies it */
	}
	if (bigger != NULL)
		kfree(old);
	cpu_intr_restore(flags);
	return KERN_SUCCESS;
}

bool io_bitmap_allows(const struct io_bitmap *bm, uint16_t from, uint16_t to)
{
	if (bm == NULL || (uint32_t)to / 8 >= bm->bytes)
		return false;
	for (uint32_t port = from; port <= to; port++)
		if (bm->map[port / 8] & (1u << (port % 8)))
			return false;
	return true;
}

void io_bitmap_free(struct io_bitmap *bm)
{
	uint64_t flags;

	if (bm == NULL)
		return;
	flags = cpu_intr_save();
	if (loaded_stamp == bm->stamp) {
		gdt_tss.iomap_base = IOMAP_OFF;
		loaded_stamp = 0;
	}
	cpu_intr_restore(flags);
	kfree(bm);
}

void io_bitmap_load(const struct io_bitmap *bm)
{
	if (bm == NULL) {
		if (gdt_tss.iomap_base != IOMAP_OFF)
			gdt_tss.iomap_base = IOMAP_OFF;
		return;
	}
	if (loaded_stamp != bm->stamp) {
		memcpy(gdt_tss.iomap, bm->map, bm->bytes);
		if (loaded_bytes > bm->bytes)
			memset(gdt_tss.iomap + bm->bytes, 0xff,
			       loaded_bytes - bm->bytes);
		io_bitmap_copied_bytes += bm->bytes;
		loaded_bytes = bm->bytes;
		loaded_stamp = bm->stamp;
	}
	gdt_tss.iomap_base = IOMAP_ON;
}
