/* SPDX-License-Identifier: GPL-2.0-only */
/* Binary search in the generated symbol table. */
#include <stddef.h>
#include <stdint.h>

#include "kern/ksyms.h"
#include "x86_64/layout.h"

struct ksym {
	uint64_t addr;
	uint64_t name;	/* offset into ksyms_names */
};

/* Defined by the generated table, or weakly empty in the first link. */
extern const uint64_t ksyms_count __attribute__((weak));
extern const struct ksym ksyms_table[] __attribute__((weak));
extern const char ksyms_names[] __attribute__((weak));

const char *ksyms_lookup(uint64_t addr, uint64_t *offset)
{
	size_t lo = 0, hi, mid;

	if (&ksyms_count == NULL || ksyms_count == 0)
		return NULL;
	if (addr < (uint64_t)_kernel_start || addr >= (uint64_t)_etext)
		return NULL;
	hi = ksyms_count;
	if (addr < ksyms_table[0].addr)
		return NULL;
	/* Find the last entry whose address is <= addr. */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (ksyms_table[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	*offset = addr - ksyms_table[lo].addr;
	return &ksyms_names[ksyms_table[lo].name];
}
