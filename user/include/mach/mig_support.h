/* SPDX-License-Identifier: GPL-2.0-only */
/* What MIG-generated user stubs expect from the runtime (Graft's version). */
#ifndef _MACH_MIG_SUPPORT_H_
#define _MACH_MIG_SUPPORT_H_

#include <stddef.h>

#include <mach/message.h>
#include <mach/mach_types.h>

/* The reply port of the calling thread, allocated on first use. */
mach_port_t mig_get_reply_port(void);

/* Forget the reply port (after an RPC failed in a way that may have
 * consumed it) and deallocate it. */
void mig_dealloc_reply_port(mach_port_t port);

/* Return a reply port taken with mig_get_reply_port (a no-op: it is
 * cached). */
void mig_put_reply_port(mach_port_t port);

/* Memory for out-of-line data in stubs. */
void mig_allocate(vm_address_t *addr, vm_size_t size);
void mig_deallocate(vm_address_t addr, vm_size_t size);

/* strncpy that returns the length copied, as MIG stubs use it. */
vm_size_t mig_strncpy(char *dst, const char *src, vm_size_t len);

/* Reset the cached reply port (after fork-like events; unused so far). */
void mig_init(void *first);

#endif
