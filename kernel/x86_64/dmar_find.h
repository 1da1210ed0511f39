/* SPDX-License-Identifier: GPL-2.0-only */
/* What dmar.c learns from the firmware: its remapping unit in the ACPI DMAR table, the functions the unit covers, the buses the firmware numbered. */
#ifndef X86_64_DMAR_FIND_H
#define X86_64_DMAR_FIND_H

#include <stdint.h>

#define DMAR_BUSES		256
#define DMAR_DEVFNS		256
#define DMAR_COVER_WORDS	(DMAR_DEVFNS / 32)

/*
 * dmar_find_unit - the register base of the one remapping unit (DRHD)
 * on PCI segment 0, and the functions it covers as bits of
 * @covered[bus] (all with INCLUDE_PCI_ALL, else those its device scopes
 * list: endpoints, and bridges with every bus below them); 0 and *@why
 * (no DMAR table, not one unit, another segment) if none.  @covered
 * starts zeroed.  Boot only: reads PCI configuration space.
 * dmar_buses_numbered - the highest bus number the firmware gave a
 * bridge (0 without bridges).
 */
uint64_t dmar_find_unit(uint32_t (*covered)[DMAR_COVER_WORDS],
			const char **why);
unsigned int dmar_buses_numbered(void);

#endif
