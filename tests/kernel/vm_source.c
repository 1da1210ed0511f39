/* SPDX-License-Identifier: GPL-2.0-only */
/* vm_source_begin, vm_source_end: a map to copy from (vm_source.h). */
#include <stdbool.h>

#include "kern/ktest.h"
#include "tests/kernel/vm_source.h"
#include "vm/vm_map.h"
#include "x86_64/copy.h"

struct vm_map *vm_source_begin(struct ktest *t, const void *data,
			       size_t size, uint64_t *a)
{
	struct vm_map *m = vm_map_create();

	if (m == NULL) {
		ktest_fail(t, "vm_map_create failed");
		return NULL;
	}
	vm_map_activate(m);
	*a = 0;
	if (vm_map_allocate(m, a, size, true) != KERN_SUCCESS ||
	    copyout(data, (void *)*a, size) != 0) {
		ktest_fail(t, "the source region could not be made");
		vm_source_end(m);
		return NULL;
	}
	return m;
}

void vm_source_end(struct vm_map *m)
{
	vm_map_activate(NULL);
	vm_map_destroy(m);
}
