/* SPDX-License-Identifier: GPL-2.0-only */
/* The firmware's ACPI tables, found by signature (read only; no AML). */
#ifndef X86_64_ACPI_H
#define X86_64_ACPI_H

#include <stdint.h>

/* The header every ACPI system description table starts with. */
struct acpi_header {
	char signature[4];
	uint32_t length;		/* of the whole table, header included */
	uint8_t revision;
	uint8_t checksum;
	char oem_id[6];
	char oem_table_id[8];
	uint32_t oem_revision;
	uint32_t creator_id;
	uint32_t creator_revision;
} __attribute__((packed));

/*
 * acpi_table - the first table whose signature is @signature (4
 * characters, e.g. "DMAR"), through the direct map, or NULL: no RSDP in
 * the BIOS areas (the EBDA's first KiB, 0xE0000-0xFFFFF), a root table
 * or that table whose checksum is wrong, lies above the direct map, or
 * is not listed.  The tables are the firmware's: read them, never write.
 * Any context; never blocks.
 */
const struct acpi_header *acpi_table(const char *signature);

#endif
