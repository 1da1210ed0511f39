/* SPDX-License-Identifier: GPL-2.0-only */
/* Copies the multiboot memory map, modules and command line into struct bootinfo. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "x86_64/layout.h"
#include "x86_64/multiboot.h"

#define MBI_CMDLINE	(1u << 2)
#define MBI_MODS	(1u << 3)
#define MBI_MMAP	(1u << 6)

/* The fields of the Multiboot 0.6.96 information structure we read. */
struct mb_info {
	uint32_t flags;
	uint32_t mem_lower, mem_upper;
	uint32_t boot_device;
	uint32_t cmdline;
	uint32_t mods_count, mods_addr;
	uint32_t syms[4];
	uint32_t mmap_length, mmap_addr;
} __attribute__((packed));

struct mb_mmap_entry {
	uint32_t size;		/* of the rest of the entry */
	uint64_t base, length;
	uint32_t type;
} __attribute__((packed));

struct mb_module {
	uint32_t start, end, string, reserved;
} __attribute__((packed));

static const char *mb_string(uint32_t pa)
{
	return pa ? phys_to_virt(pa) : "";
}

/* The loader's command lines lie in low memory, which the kernel does
 * not use (vm_page_boot.c) but a device's stray DMA may write: each is
 * copied into the image. */
static char cmdline_copy[BOOTINFO_CMDLINE_MAX];
static char module_lines[BOOTINFO_MAX_MODULES][BOOTINFO_CMDLINE_MAX];

/* Copy the string at physical @pa into @to (@size bytes): false if it
 * does not fit. */
static bool copy_line(uint32_t pa, char *to, size_t size)
{
	const char *s = mb_string(pa);
	size_t n = 0;

	for (; s[n] != '\0'; n++) {
		if (n + 1 >= size)
			return false;
		to[n] = s[n];
	}
	to[n] = '\0';
	return true;
}

static void parse_mmap(const struct mb_info *mbi, struct bootinfo *bi)
{
	uint64_t p = mbi->mmap_addr, end = p + mbi->mmap_length;

	while (p + sizeof(struct mb_mmap_entry) <= end) {
		const struct mb_mmap_entry *e = phys_to_virt(p);

		if (bi->nregions < BOOTINFO_MAX_REGIONS) {
			struct boot_region *r = &bi->regions[bi->nregions++];

			r->base = e->base;
			r->length = e->length;
			r->type = e->type;
		} else {
			bi->regions_dropped++;
		}
		p += e->size + sizeof(e->size);
	}
}

static void parse_modules(const struct mb_info *mbi, struct bootinfo *bi)
{
	const struct mb_module *m = phys_to_virt(mbi->mods_addr);

	for (uint32_t i = 0; i < mbi->mods_count; i++) {
		struct boot_module *b;

		if (bi->nmodules == BOOTINFO_MAX_MODULES ||
		    !copy_line(m[i].string, module_lines[bi->nmodules],
			       BOOTINFO_CMDLINE_MAX)) {
			bi->modules_dropped++;
			continue;
		}
		b = &bi->modules[bi->nmodules];
		b->start = m[i].start;
		b->end = m[i].end;
		b->cmdline = module_lines[bi->nmodules++];
	}
}

int multiboot_parse(uint32_t magic, uint64_t info, struct bootinfo *bi)
{
	const struct mb_info *mbi;
	const char *cmd;
	size_t n;

	bi->magic = magic;
	bi->cmdline = "";
	if (magic != MULTIBOOT_BOOTLOADER_MAGIC ||
	    info + sizeof(*mbi) > DIRECT_MAP_SIZE)
		return -1;
	mbi = phys_to_virt(info);
	if (mbi->flags & MBI_CMDLINE) {
		/* a longer line is cut */
		cmd = mb_string(mbi->cmdline);
		for (n = 0; cmd[n] != '\0' && n + 1 < sizeof(cmdline_copy); n++)
			cmdline_copy[n] = cmd[n];
		cmdline_copy[n] = '\0';
		bi->cmdline = cmdline_copy;
	}
	if (mbi->flags & MBI_MMAP)
		parse_mmap(mbi, bi);
	if (mbi->flags & MBI_MODS)
		parse_modules(mbi, bi);
	return 0;
}
