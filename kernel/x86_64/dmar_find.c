/* SPDX-License-Identifier: GPL-2.0-only */
/* dmar_find_unit and dmar_buses_numbered: the remapping unit from the ACPI DMAR table (its DRHD and device scopes), and the buses behind the firmware's bridges. */
/*
 * The DMAR table: a 48-byte head (the ACPI header, the host address
 * width, flags, reserved), then remapping structures, each a 16-bit
 * type and length; a DRHD (type 0) has flags (bit 0: INCLUDE_PCI_ALL),
 * its segment and register base, then device scopes: a type (1 PCI
 * endpoint, 2 PCI sub-hierarchy), a length, a start bus and a path of
 * (device, function) hops through bridges.
 */
#include <stddef.h>
#include <stdint.h>

#include "kern/string.h"
#include "x86_64/acpi.h"
#include "x86_64/dmar_find.h"
#include "x86_64/pci_config.h"

#define BUSES		DMAR_BUSES
#define DEVFNS		DMAR_DEVFNS

/* The highest bus number the firmware gave a bridge (buses below it
 * may hold functions). */
unsigned int dmar_buses_numbered(void)
{
	unsigned int last = 0;

	for (unsigned int bus = 0; bus <= last && bus < BUSES; bus++)
		for (unsigned int devfn = 0; devfn < DEVFNS; devfn++) {
			uint32_t sub;

			if (pci_config_read(bus, devfn, PCI_VENDOR_ID, 2) ==
			    0xffff ||
			    (pci_config_read(bus, devfn, PCI_HEADER_TYPE, 1) &
			     0x7f) != 1)
				continue;
			sub = pci_config_read(bus, devfn, 0x1a, 1);
			if (sub > last)
				last = sub;
		}
	return last;
}

/* The bus behind bridge @devfn of @bus (its secondary bus number). */
static unsigned int secondary(unsigned int bus, unsigned int devfn)
{
	return pci_config_read(bus, devfn, 0x19, 1);
}

static void cover(uint32_t (*covered)[DMAR_COVER_WORDS], unsigned int bus,
		  unsigned int devfn)
{
	covered[bus][devfn / 32] |= 1u << (devfn % 32);
}

/* Mark what device scope @p (@len bytes) names as the unit's: an
 * endpoint (type 1), or a bridge and every bus below it (type 2); its
 * path of (device, function) hops starts on its start bus. */
static void scope_cover(uint32_t (*covered)[DMAR_COVER_WORDS],
			const uint8_t *p, unsigned int len)
{
	unsigned int bus = p[5], devfn = 0, hops = (len - 6) / 2;

	if ((p[0] != 1 && p[0] != 2) || hops == 0)
		return;
	for (unsigned int h = 0; h < hops; h++) {
		if (h > 0)
			bus = secondary(bus, devfn);
		devfn = pci_devfn(p[6 + 2 * h] & 31, p[7 + 2 * h] & 7);
	}
	cover(covered, bus, devfn);
	if (p[0] == 2) {
		unsigned int sub = pci_config_read(bus, devfn, 0x1a, 1);

		for (unsigned int b = secondary(bus, devfn); b <= sub &&
		     b < BUSES; b++)
			for (unsigned int f = 0; f < DEVFNS; f++)
				cover(covered, b, f);
	}
}

/* The unit's register base from the DMAR table, what it covers in
 * covered[][]; or 0 (and why). */
uint64_t dmar_find_unit(uint32_t (*covered)[DMAR_COVER_WORDS],
			const char **why)
{
	const struct acpi_header *t = acpi_table("DMAR");
	const uint8_t *p, *end;
	uint64_t base = 0;
	unsigned int units = 0;

	*why = "no ACPI DMAR table";
	if (t == NULL)
		return 0;
	p = (const uint8_t *)t + 48;	/* header, width, flags, reserved */
	end = (const uint8_t *)t + t->length;
	while (p + 4 <= end) {
		uint16_t type, len, segment;

		memcpy(&type, p, 2);
		memcpy(&len, p + 2, 2);
		if (len < 4 || p + len > end)
			break;
		if (type == 0 && len >= 16 && units++ == 0) {	/* a DRHD */
			memcpy(&segment, p + 6, 2);
			memcpy(&base, p + 8, 8);
			if (segment != 0)
				base = 0;
			else if (p[4] & 1)	/* INCLUDE_PCI_ALL */
				memset(covered, 0xff,
				       BUSES * sizeof(*covered));
			for (const uint8_t *s = p + 16; s + 6 <= p + len &&
			     s[1] >= 6 && s + s[1] <= p + len; s += s[1])
				scope_cover(covered, s, s[1]);
		}
		p += len;
	}
	*why = units != 1 ? "not exactly one remapping unit" :
	       base == 0 ? "its unit is not on PCI segment 0" : NULL;
	return *why == NULL ? base : 0;
}
