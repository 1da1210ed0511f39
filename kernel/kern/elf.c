/* SPDX-License-Identifier: GPL-2.0-only */
/* ELF64 validation and segment loading (decode, then act). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mach/vm_prot.h>

#include "kern/elf.h"
#include "kern/string.h"
#include "vm/vm_map.h"
#include "vm/vm_page.h"
#include "x86_64/copy.h"

#define EI_NIDENT	16
#define ELFCLASS64	2
#define ELFDATA2LSB	1
#define ET_EXEC		2
#define EM_X86_64	62
#define PT_LOAD		1
#define PF_X		1
#define PF_W		2
#define PF_R		4
#define ELF_MAX_PHDRS	64

struct elf64_ehdr {
	unsigned char e_ident[EI_NIDENT];
	uint16_t e_type, e_machine;
	uint32_t e_version;
	uint64_t e_entry, e_phoff, e_shoff;
	uint32_t e_flags;
	uint16_t e_ehsize, e_phentsize, e_phnum;
	uint16_t e_shentsize, e_shnum, e_shstrndx;
};

struct elf64_phdr {
	uint32_t p_type, p_flags;
	uint64_t p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align;
};

static uint64_t page_down(uint64_t a)
{
	return a & ~(VM_PAGE_SIZE - 1);
}

static uint64_t page_up(uint64_t a)
{
	return page_down(a + VM_PAGE_SIZE - 1);
}

/* Decode: is every header and segment of @image well formed? */
static bool elf_valid(const unsigned char *image, size_t size,
		      const struct elf64_ehdr **ehp)
{
	const struct elf64_ehdr *eh = (const void *)image;
	const struct elf64_phdr *ph;
	unsigned int loads = 0;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, "\177ELF", 4) != 0 ||
	    eh->e_ident[4] != ELFCLASS64 || eh->e_ident[5] != ELFDATA2LSB ||
	    eh->e_type != ET_EXEC || eh->e_machine != EM_X86_64 ||
	    eh->e_phentsize != sizeof(*ph) || eh->e_phnum == 0 ||
	    eh->e_phnum > ELF_MAX_PHDRS || eh->e_phoff > size ||
	    (size - eh->e_phoff) / sizeof(*ph) < eh->e_phnum ||
	    (eh->e_phoff & 7) != 0)
		return false;
	ph = (const void *)(image + eh->e_phoff);
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		const struct elf64_phdr *p = &ph[i];

		if (p->p_type != PT_LOAD)
			continue;
		loads++;
		if (p->p_offset > size || p->p_filesz > size - p->p_offset ||
		    p->p_filesz > p->p_memsz || p->p_memsz == 0 ||
		    p->p_vaddr < VM_MIN_ADDRESS ||
		    p->p_vaddr >= VM_MAX_ADDRESS ||
		    p->p_memsz > VM_MAX_ADDRESS - p->p_vaddr)
			return false;
	}
	if (loads == 0 || eh->e_entry < VM_MIN_ADDRESS ||
	    eh->e_entry >= VM_MAX_ADDRESS)
		return false;
	*ehp = eh;
	return true;
}

static vm_prot_t elf_prot(uint32_t flags)
{
	return ((flags & PF_R) ? VM_PROT_READ : 0) |
	       ((flags & PF_W) ? VM_PROT_WRITE : 0) |
	       ((flags & PF_X) ? VM_PROT_EXECUTE : 0);
}

/* Protection of page @page: the union of every segment that touches it. */
static vm_prot_t page_prot(const struct elf64_phdr *ph, unsigned int n,
			   uint64_t page)
{
	vm_prot_t prot = VM_PROT_NONE;

	for (unsigned int i = 0; i < n; i++)
		if (ph[i].p_type == PT_LOAD &&
		    page_down(ph[i].p_vaddr) <= page &&
		    page < page_up(ph[i].p_vaddr + ph[i].p_memsz))
			prot |= elf_prot(ph[i].p_flags);
	return prot;
}

static kern_return_t elf_map_segments(struct vm_map *map,
				      const unsigned char *image,
				      const struct elf64_ehdr *eh)
{
	const struct elf64_phdr *ph = (const void *)(image + eh->e_phoff);
	kern_return_t kr;

	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		const struct elf64_phdr *p = &ph[i];
		uint64_t a, end = page_up(p->p_vaddr + p->p_memsz);

		if (p->p_type != PT_LOAD)
			continue;
		/* Page by page: segments may share their edge pages. */
		for (a = page_down(p->p_vaddr); a < end; a += VM_PAGE_SIZE) {
			uint64_t at = a;

			kr = vm_map_allocate(map, &at, VM_PAGE_SIZE, false);
			if (kr != KERN_SUCCESS && kr != KERN_NO_SPACE)
				return kr;
		}
		if (copyout(image + p->p_offset, (void *)p->p_vaddr,
			    p->p_filesz) != 0)
			return KERN_NO_SPACE;
	}
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		uint64_t a, end = page_up(ph[i].p_vaddr + ph[i].p_memsz);

		if (ph[i].p_type != PT_LOAD)
			continue;
		for (a = page_down(ph[i].p_vaddr); a < end; a += VM_PAGE_SIZE) {
			kr = vm_map_protect(map, a, VM_PAGE_SIZE, false,
					    page_prot(ph, eh->e_phnum, a));
			if (kr != KERN_SUCCESS)
				return kr;
		}
	}
	return KERN_SUCCESS;
}

kern_return_t elf_load(struct vm_map *map, const void *image, size_t size,
		       uint64_t *entry)
{
	const struct elf64_ehdr *eh;
	struct vm_map *was = vm_map_active();
	kern_return_t kr;

	if (!elf_valid(image, size, &eh))
		return KERN_INVALID_ARGUMENT;
	vm_map_activate(map);
	kr = elf_map_segments(map, image, eh);
	vm_map_activate(was);
	if (kr == KERN_SUCCESS)
		*entry = eh->e_entry;
	return kr;
}
