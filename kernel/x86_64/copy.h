/* SPDX-License-Identifier: GPL-2.0-only */
/* Copying between the kernel and the active user address space, safely. */
#ifndef X86_64_COPY_H
#define X86_64_COPY_H

#include <stddef.h>
#include <stdint.h>

/*
 * copyin - copy @n bytes from user address @user to @kernel;
 * copyout - from @kernel to user address @user.
 * The user range must lie in [VM_MIN_ADDRESS, VM_MAX_ADDRESS) of the
 * active vm_map without wrapping.  Faults are resolved through
 * vm_map_fault(); an address that cannot be resolved makes the call return
 * -1 (the caller turns that into its own error: KERN_INVALID_ADDRESS,
 * MACH_SEND_INVALID_DATA, ...).  Returns 0 on success.  Part of the data
 * may have been copied when -1 is returned.  @n == 0 returns 0 without
 * looking at @user; with no active map every other call returns -1.  May
 * be called with interrupts on; never from an interrupt handler.  (No
 * SMAP yet: when it is turned on, the copy loop must bracket its accesses
 * with stac/clac.)
 */
int copyin(const void *user, void *kernel, size_t n);
int copyout(const void *kernel, void *user, size_t n);

/*
 * copy_fault_fixup - called by trap_dispatch() for a kernel-mode page fault
 * at @rip: if @rip is inside copyin/copyout, returns the address to resume
 * at (their failure path), else 0.
 */
uint64_t copy_fault_fixup(uint64_t rip);

#endif
