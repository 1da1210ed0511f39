/* SPDX-License-Identifier: GPL-2.0-only */
/* acpi_table: a system description table found through the RSDP and the root table (XSDT, else RSDT). */
/*
 * The firmware leaves the Root System Description Pointer on a 16-byte
 * boundary in the first KiB of the Extended BIOS Data Area (its segment
 * at 0x40E) or in 0xE0000-0xFFFFF.  Its revision 2 form names the XSDT
 * (64-bit entries), the older one the RSDT (32-bit entries).  Every
 * structure carries a checksum: its bytes sum to 0 modulo 256.  All of
 * it is below 4 GiB on the machines Graft boots, inside the direct map.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kern/string.h"
#include "x86_64/acpi.h"
#include "x86_64/layout.h"

#define EBDA_SEGMENT	0x40e
#define BIOS_FROM	0xe0000ull
#define BIOS_TO		0x100000ull
#define RSDP_V1_LENGTH	20

struct rsdp {
	char signature[8];		/* "RSD PTR " */
	uint8_t checksum;		/* of the first 20 bytes */
	char oem_id[6];
	uint8_t revision;		/* 2 and up: the fields below exist */
	uint32_t rsdt;
	uint32_t length;
	uint64_t xsdt;
	uint8_t extended_checksum;	/* of all @length bytes */
	uint8_t reserved[3];
} __attribute__((packed));

static bool sums_to_zero(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint8_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += b[i];
	return sum == 0;
}

/* The direct-map address of [@pa, @pa + @n), or NULL past the map. */
static const void *mapped(uint64_t pa, uint64_t n)
{
	if (pa == 0 || pa >= DIRECT_MAP_SIZE || n > DIRECT_MAP_SIZE - pa)
		return NULL;
	return phys_to_virt(pa);
}

static const struct rsdp *rsdp_in(uint64_t from, uint64_t to)
{
	for (uint64_t pa = from; pa + sizeof(struct rsdp) <= to; pa += 16) {
		const struct rsdp *r = phys_to_virt(pa);

		if (memcmp(r->signature, "RSD PTR ", 8) == 0 &&
		    sums_to_zero(r, RSDP_V1_LENGTH))
			return r;
	}
	return NULL;
}

static const struct rsdp *rsdp_find(void)
{
	uint64_t ebda = (uint64_t)*(const uint16_t *)phys_to_virt(
				EBDA_SEGMENT) << 4;
	const struct rsdp *r = NULL;

	if (ebda >= 0x80000 && ebda < 0xa0000)
		r = rsdp_in(ebda, ebda + 1024);
	return r != NULL ? r : rsdp_in(BIOS_FROM, BIOS_TO);
}

/* The table at physical @pa if its header fits the map and it checks. */
static const struct acpi_header *table_at(uint64_t pa)
{
	const struct acpi_header *h = mapped(pa, sizeof(*h));

	if (h == NULL || h->length < sizeof(*h) ||
	    mapped(pa, h->length) == NULL || !sums_to_zero(h, h->length))
		return NULL;
	return h;
}

const struct acpi_header *acpi_table(const char *signature)
{
	const struct rsdp *r = rsdp_find();
	const struct acpi_header *root;
	bool wide;
	size_t entry, n;

	if (r == NULL)
		return NULL;
	wide = r->revision >= 2 && r->xsdt != 0 &&
	       sums_to_zero(r, sizeof(*r));
	root = table_at(wide ? r->xsdt : r->rsdt);
	if (root == NULL)
		return NULL;
	entry = wide ? sizeof(uint64_t) : sizeof(uint32_t);
	n = (root->length - sizeof(*root)) / entry;
	for (size_t i = 0; i < n; i++) {
		const uint8_t *at = (const uint8_t *)(root + 1) + i * entry;
		uint64_t pa = 0;
		const struct acpi_header *h;

		memcpy(&pa, at, entry);
		h = table_at(pa);
		if (h != NULL && memcmp(h->signature, signature, 4) == 0)
			return h;
	}
	return NULL;
}
