/* SPDX-License-Identifier: GPL-2.0-only */
/* Loading ELF64 x86_64 executables into a task's address space. */
#ifndef KERN_ELF_H
#define KERN_ELF_H

#include <stddef.h>
#include <stdint.h>

#include <mach/kern_return.h>

struct vm_map;

/*
 * elf_load - validate the executable @image (@size bytes, in kernel memory)
 * and map its PT_LOAD segments into @map: file bytes copied, the rest
 * zero, protections from the segment flags.  *@entry gets the entry point.
 * Returns KERN_SUCCESS; KERN_INVALID_ARGUMENT for anything malformed (not
 * ELF64 little-endian x86_64 ET_EXEC, headers or segments outside the file,
 * filesz > memsz, segments outside user space or wrapping, no PT_LOAD);
 * KERN_NO_SPACE or KERN_RESOURCE_SHORTAGE from the map.  @map is
 * activated while loading and the previously active map restored.  On
 * failure, what was mapped stays in @map (the caller destroys it).
 */
kern_return_t elf_load(struct vm_map *map, const void *image, size_t size,
		       uint64_t *entry);

#endif
