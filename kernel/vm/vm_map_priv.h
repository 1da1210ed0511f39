/* SPDX-License-Identifier: GPL-2.0-only */
/* The inside of a task address space, for kernel/vm/ only. */
#ifndef VM_VM_MAP_PRIV_H
#define VM_VM_MAP_PRIV_H

#include "vm/vm_map_entry.h"

struct pmap;

/* A sorted region list over a pmap (vm_map.c's design note). */
struct vm_map {
	struct vm_map_entry_list entries;
	struct pmap *pmap;
};

#endif
