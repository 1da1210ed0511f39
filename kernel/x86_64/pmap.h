/* SPDX-License-Identifier: GPL-2.0-only */
/* x86_64 four-level page tables for the user half of an address space. */
#ifndef X86_64_PMAP_H
#define X86_64_PMAP_H

#include <stdbool.h>
#include <stdint.h>

#include <mach/kern_return.h>
#include <mach/vm_prot.h>

/*
 * A pmap maps 4 KiB pages of the user half [0, PMAP_USER_END).  Its PML4
 * shares entries 256..511 (the direct map and the kernel image) with the
 * boot page tables, so the kernel half is the same in every pmap.
 *
 * A leaf entry may hold a frame without being accessible (protection
 * VM_PROT_NONE): the frame stays recorded (pmap_extract() finds it,
 * pmap_remove() reports it) but the CPU sees the page as not present.  So
 * the page tables are the record of which frames back which pages; vm_map
 * keeps no other list of anonymous frames.
 *
 * Every page-table page comes from vm_page_alloc() below 4 GiB and is
 * reached through the direct map.  Page tables emptied by pmap_remove()
 * go back at once but for up to PMAP_SPARE_TABLES, which the pmap keeps,
 * zeroed, for its next tables (pmap_destroy() frees them).  The TLB is
 * invalidated (invlpg of a changed page, after a removal's entries are
 * all cleared so that it also drops the paging-structure caches' entries
 * of the tables freed; one CR3 reload instead for a removal of more than
 * 64 pages) only for the active pmap; an inactive pmap has nothing cached
 * since there is one CPU and pmap_activate() reloads CR3.
 *
 * Locking: one CPU; every function disables interrupts while it changes
 * page tables.  None may be called from an interrupt handler (they
 * allocate), except pmap_extract().
 */

#define PMAP_USER_END	0x0000800000000000ull

/* Emptied page tables a pmap keeps for its next ones (the removal of one
 * page empties at most three: its page table, the directory above and
 * the directory above that). */
#define PMAP_SPARE_TABLES	3

struct pmap {
	uint64_t pml4;		/* physical address of the top table */
	uint64_t table_pages;	/* page-table pages held, the PML4 and the
				 * spares included */
	uint64_t resident;	/* leaf entries holding a frame */
	uint64_t spare[PMAP_SPARE_TABLES];	/* zeroed tables, unlinked */
	unsigned int nspare;
};

/* A new pmap with an empty user half; NULL if out of memory. */
struct pmap *pmap_create(void);

/*
 * pmap_destroy - free @pmap and its page tables (not the frames they
 * map).  Every frame must have been removed first and @pmap must not be
 * active: either is a kernel bug, and panics.  NULL is ignored.
 */
void pmap_destroy(struct pmap *pmap);

/*
 * pmap_enter - map the page at @va to frame @pa with @prot: present when
 * @prot has any access, writable with VM_PROT_WRITE, not executable (NX)
 * without VM_PROT_EXECUTE, reachable from user mode with @user.  A mapping
 * already at @va is replaced (its frame is the caller's).  Returns
 * KERN_SUCCESS, KERN_INVALID_ARGUMENT (@va or @pa not page aligned, @va
 * not below PMAP_USER_END, @pa above 52 bits, bits of @prot beyond
 * VM_PROT_ALL) or KERN_RESOURCE_SHORTAGE (no page for a page table; then
 * nothing is mapped at @va).
 */
kern_return_t pmap_enter(struct pmap *pmap, uint64_t va, uint64_t pa,
			 vm_prot_t prot, bool user);

/*
 * pmap_enter_pages - map @n pages from @va to @frames[0..n) for user mode
 * with @prot, as pmap_enter would one by one, a frame 0 leaving its page
 * unmapped; the range must map nothing (a mapped page is a kernel bug:
 * panic).  Returns KERN_SUCCESS, KERN_INVALID_ARGUMENT (@va not page
 * aligned, the range not below PMAP_USER_END, a frame not page aligned
 * or above 52 bits, bits of @prot beyond VM_PROT_ALL) or
 * KERN_RESOURCE_SHORTAGE (no page for a page table: then nothing is
 * mapped).  One page-table walk per 512 pages.
 */
kern_return_t pmap_enter_pages(struct pmap *pmap, uint64_t va,
			       const uint64_t *frames, uint64_t n,
			       vm_prot_t prot);

/* pmap_enter_device - pmap_enter of device memory for user mode,
 * uncached (MMIO registers: every access reaches the device).  A later
 * pmap_protect keeps the mapping uncached. */
kern_return_t pmap_enter_device(struct pmap *pmap, uint64_t va, uint64_t pa,
				vm_prot_t prot);

/*
 * pmap_remove - unmap every page of [@start, @end) (page aligned, within
 * the user half; a bad range is a kernel bug: panic).  For each frame
 * removed, @fn(@arg, va, pa) is called in increasing va order, with
 * interrupts off, before the TLB is invalidated at the end of the
 * removal, which comes before anything else runs: @fn may free the
 * frame.  @fn may be NULL.  Page tables left empty are freed.  Absent
 * page tables are skipped whole, so a large sparse range is cheap.
 */
void pmap_remove(struct pmap *pmap, uint64_t start, uint64_t end,
		 void (*fn)(void *arg, uint64_t va, uint64_t pa), void *arg);

/* pmap_protect - give every frame mapped in [@start, @end) protection
 * @prot, as pmap_enter() would (the user bit is kept).  Range rules as
 * pmap_remove(); @prot beyond VM_PROT_ALL is a kernel bug: panic. */
void pmap_protect(struct pmap *pmap, uint64_t start, uint64_t end,
		  vm_prot_t prot);

/* pmap_extract - true if a frame backs @va (accessible or not), with the
 * physical address of the byte at @va in *@pa; false for an unmapped or
 * non-user address. */
bool pmap_extract(const struct pmap *pmap, uint64_t va, uint64_t *pa);

/*
 * pmap_frames - pmap_extract of the @n pages from @va (page aligned, in
 * the user half, else a kernel bug that panics) at once, one walk of the
 * upper levels per page table: @frames[i] gets the frame of page i, or 0
 * if none backs it (no frame is at physical address 0: vm_page_boot
 * keeps the first 64 KiB).  Returns how many pages have a frame.
 */
uint64_t pmap_frames(const struct pmap *pmap, uint64_t va, uint64_t n,
		     uint64_t *frames);

/* pmap_extract_writable - pmap_extract, but true only when the page is
 * also present and writable. */
bool pmap_extract_writable(const struct pmap *pmap, uint64_t va,
			   uint64_t *pa);

/* pmap_activate - load @pmap into CR3, or with NULL the boot page tables
 * (the kernel half only); nothing when it is loaded already (the TLB
 * keeps its entries: every change to the loaded pmap invalidates its
 * own). */
void pmap_activate(struct pmap *pmap);

/* The pmap loaded now, or NULL for the boot page tables. */
struct pmap *pmap_active(void);

#endif
