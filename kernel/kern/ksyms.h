/* SPDX-License-Identifier: GPL-2.0-only */
/* The kernel's own function names, for backtraces. */
#ifndef KERN_KSYMS_H
#define KERN_KSYMS_H

#include <stdint.h>

/*
 * The table is generated after a first link (tools/gen_ksyms.py) and linked
 * into the .ksyms section, which lies after all code and data so adding it
 * moves nothing.  An image linked without it has an empty table.
 */

/* The name of the function containing @addr and @addr's offset in it, or
 * NULL when @addr is outside the kernel's text or the table is empty. */
const char *ksyms_lookup(uint64_t addr, uint64_t *offset);

#endif
