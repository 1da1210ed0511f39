/* SPDX-License-Identifier: GPL-2.0-only */
/* What the boot loader told the kernel: memory map, modules, command line. */
#ifndef KERN_BOOTINFO_H
#define KERN_BOOTINFO_H

#include <stddef.h>
#include <stdint.h>

#define BOOTINFO_MAX_REGIONS	128
#define BOOTINFO_MAX_MODULES	64
#define BOOTINFO_CMDLINE_MAX	1024

enum boot_region_type {
	BOOT_REGION_USABLE = 1,
	BOOT_REGION_RESERVED = 2,
	BOOT_REGION_ACPI = 3,
	BOOT_REGION_NVS = 4,
	BOOT_REGION_BAD = 5,
};

struct boot_region {
	uint64_t base;
	uint64_t length;
	uint32_t type;		/* enum boot_region_type; others = reserved */
};

struct boot_module {
	uint64_t start;		/* physical, inclusive */
	uint64_t end;		/* physical, exclusive */
	const char *cmdline;	/* the loader's line, copied into the
				 * kernel's image; "" if none */
};

struct bootinfo {
	uint32_t magic;
	const char *cmdline;
	size_t nregions;
	size_t regions_dropped;	/* entries beyond BOOTINFO_MAX_REGIONS */
	struct boot_region regions[BOOTINFO_MAX_REGIONS];
	size_t nmodules;
	size_t modules_dropped;	/* beyond BOOTINFO_MAX_MODULES, or
				 * whose line is BOOTINFO_CMDLINE_MAX
				 * bytes or more */
	struct boot_module modules[BOOTINFO_MAX_MODULES];
};

/* Filled once by the boot code before anything else runs; read-only after. */
extern struct bootinfo bootinfo;

/* Bytes of usable RAM in the memory map. */
uint64_t bootinfo_usable_bytes(const struct bootinfo *bi);

/* The module's bytes through the direct map. */
const void *bootinfo_module_data(const struct boot_module *m);

#endif
