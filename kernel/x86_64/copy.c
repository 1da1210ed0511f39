/* SPDX-License-Identifier: GPL-2.0-only */
/* copyin and copyout: range checks around the loop of copy_user.S. */
#include <stddef.h>
#include <stdint.h>

#include "vm/vm_map.h"
#include "x86_64/copy.h"

extern char copy_user_loop[], copy_user_loop_end[], copy_user_fail[];

/* copy_user.S: copy @n bytes; 0, or -1 after an unresolved fault. */
int copy_user_bytes(void *dst, const void *src, size_t n);

/* Does [@addr, @addr + @n) lie in user space, @n > 0, without wrapping? */
static int user_range_ok(uint64_t addr, size_t n)
{
	return addr >= VM_MIN_ADDRESS && addr < VM_MAX_ADDRESS &&
	       n <= VM_MAX_ADDRESS - addr;
}

int copyin(const void *user, void *kernel, size_t n)
{
	if (n == 0)
		return 0;
	if (!user_range_ok((uint64_t)user, n) || vm_map_active() == NULL)
		return -1;
	return copy_user_bytes(kernel, user, n);
}

int copyout(const void *kernel, void *user, size_t n)
{
	if (n == 0)
		return 0;
	if (!user_range_ok((uint64_t)user, n) || vm_map_active() == NULL)
		return -1;
	return copy_user_bytes(user, kernel, n);
}

uint64_t copy_fault_fixup(uint64_t rip)
{
	if (rip >= (uint64_t)copy_user_loop &&
	    rip < (uint64_t)copy_user_loop_end)
		return (uint64_t)copy_user_fail;
	return 0;
}
