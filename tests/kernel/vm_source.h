/* SPDX-License-Identifier: GPL-2.0-only */
/* A map to copy from, for the suites that test copies out of a task's memory. */
#ifndef TESTS_KERNEL_VM_SOURCE_H
#define TESTS_KERNEL_VM_SOURCE_H

#include <stddef.h>
#include <stdint.h>

struct ktest;
struct vm_map;

/*
 * vm_source_begin - a new map, made the active one, with @size bytes
 * (whole pages) allocated at *@a and @data written there; NULL (and @t
 * failed, nothing left) if it cannot be made.  vm_source_end - make no
 * map active and destroy @m.  Thread context.
 */
struct vm_map *vm_source_begin(struct ktest *t, const void *data,
			       size_t size, uint64_t *a);
void vm_source_end(struct vm_map *m);

#endif
