/* SPDX-License-Identifier: GPL-2.0-only */
/* Per-task I/O port permissions, loaded into the TSS bitmap on a switch. */
#ifndef X86_64_IO_BITMAP_H
#define X86_64_IO_BITMAP_H

#include <stdbool.h>
#include <stdint.h>

#include <mach/kern_return.h>

struct io_bitmap;

/*
 * Locking: one CPU; every function disables interrupts around what it
 * changes.  io_bitmap_load is the context-switch hook (interrupts off).
 *
 * A task without a struct io_bitmap (NULL) may use no port from user
 * mode: the TSS's bitmap is then switched off (iomap_base beyond the
 * segment limit), which costs one compare per switch.  A bitmap covers
 * ports 0 .. 8 * bytes - 1, grown on demand; ports above are denied.
 */

/*
 * io_bitmap_set - allow (@enable) or deny user-mode access to ports
 * [@from, @to] in *@bm, making the bitmap on the first grant (a deny on a
 * NULL bitmap does nothing).  The TSS changes at the next io_bitmap_load
 * of *@bm (the caller loads it if it is the running task's).
 * KERN_SUCCESS, KERN_INVALID_ARGUMENT (@from > @to) or
 * KERN_RESOURCE_SHORTAGE (nothing changed).
 */
kern_return_t io_bitmap_set(struct io_bitmap **bm, uint16_t from,
			    uint16_t to, bool enable);

/* io_bitmap_allows - true if every port of [@from, @to] is allowed in
 * @bm (NULL allows none).  For tests. */
bool io_bitmap_allows(const struct io_bitmap *bm, uint16_t from,
		      uint16_t to);

/* io_bitmap_free - free @bm (NULL is ignored), switching the TSS bitmap
 * off first if @bm is loaded. */
void io_bitmap_free(struct io_bitmap *bm);

/* io_bitmap_load - make @bm (NULL: none) the TSS's bitmap for the user
 * thread about to run.  Copies only when another bitmap (or an older
 * version of this one) is loaded, and only the bytes that differ in
 * extent.  Interrupts off. */
void io_bitmap_load(const struct io_bitmap *bm);

/* Bitmap bytes copied into the TSS since boot (for tests and benches). */
extern uint64_t io_bitmap_copied_bytes;

#endif
