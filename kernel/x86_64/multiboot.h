/* SPDX-License-Identifier: GPL-2.0-only */
/* Reading the Multiboot (version 1) information structure. */
#ifndef X86_64_MULTIBOOT_H
#define X86_64_MULTIBOOT_H

#include <stdint.h>

#include "kern/bootinfo.h"

#define MULTIBOOT_BOOTLOADER_MAGIC	0x2BADB002

/*
 * Fill @bi from the multiboot information at physical address @info.
 * Returns 0, or -1 when @magic is not the multiboot one or the structure
 * lies outside the direct map (then @bi holds only the magic).  Entries
 * beyond the table sizes are counted in *_dropped, not silently lost.
 */
int multiboot_parse(uint32_t magic, uint64_t info, struct bootinfo *bi);

#endif
