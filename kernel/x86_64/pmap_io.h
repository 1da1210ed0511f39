/* SPDX-License-Identifier: GPL-2.0-only */
/* Device memory (MMIO) mapped uncached into a reserved kernel window. */
#ifndef X86_64_PMAP_IO_H
#define X86_64_PMAP_IO_H

#include <stdint.h>

#include <mach/kern_return.h>

/*
 * The window is the first 8 MiB of the gigabyte after the kernel image's
 * (PDPT entry 511 under PML4 entry 511, which every pmap shares).  Its page
 * directory and page tables are static, so mapping never allocates memory
 * and works with interrupts off; pages are mapped present, writable, not
 * executable, with PCD|PWT (uncached under the power-on PAT).
 */
#define PMAP_IO_BASE	0xffffffffc0000000ull
#define PMAP_IO_SIZE	(8ull << 20)

/*
 * pmap_io_map - map physical [@pa, @pa + @size) uncached; *@va receives
 * the address of the byte at @pa.  The range is not checked against RAM
 * (the caller decides what is a device).  Returns KERN_SUCCESS;
 * KERN_INVALID_ARGUMENT (@size 0, the range wraps or reaches past 52 bits,
 * @va NULL); KERN_NO_SPACE (no free run of pages in the window, or
 * PMAP_IO_MAPPINGS mappings exist).  Interrupts may be on or off.
 */
kern_return_t pmap_io_map(uint64_t pa, uint64_t size, void **va);

/* pmap_io_unmap - undo the pmap_io_map() that returned @va.  Returns
 * KERN_SUCCESS or KERN_INVALID_ADDRESS (@va is no mapping's address). */
kern_return_t pmap_io_unmap(void *va);

/* Pages of the window mapped now (for tests and leak checks). */
uint64_t pmap_io_mapped_pages(void);

#endif
