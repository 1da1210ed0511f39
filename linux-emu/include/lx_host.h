/* SPDX-License-Identifier: GPL-2.0-only */
/* What linux-emu needs from the system it runs on: the host interface, version 1. */
/*
 * linux-emu (compiled with Linux's headers and flags) calls only these
 * functions; mach-glue implements them once inside the Graft kernel
 * (mach-glue/kernel/) and later once in a user-mode driver server.  The
 * header uses C types only, never a Linux or a Graft type, so both sides
 * can include it.  A change of meaning bumps LX_HOST_VERSION.
 */
#ifndef LX_HOST_H
#define LX_HOST_H

#define LX_HOST_VERSION	1

/* Memory zones a host allocation may be asked to come from. */
enum lx_host_zone {
	LX_HOST_ZONE_DMA,	/* physical addresses below 16 MiB */
	LX_HOST_ZONE_DMA32,	/* below 4 GiB */
	LX_HOST_ZONE_ANY,
};

/* lx_host_console_write - write @len bytes of @text to the console. */
void lx_host_console_write(const char *text, unsigned long len);

/*
 * lx_host_alloc - @size bytes (1 <= size), zeroed if @zero, aligned to
 * 16 bytes (to a page if @size is a page or more), wholly inside @zone and
 * physically contiguous, or 0 (NULL) if there is no such memory.  May be
 * called with interrupts off; never sleeps.
 */
void *lx_host_alloc(unsigned long size, enum lx_host_zone zone, int zero);

/* lx_host_free - give back what lx_host_alloc returned (NULL: nothing). */
void lx_host_free(void *p);

/* lx_host_memory_top - one past the highest physical address of usable
 * RAM that lx_host_alloc() can hand out. */
unsigned long lx_host_memory_top(void);

/* lx_host_virt_to_phys - the physical address behind host memory @p. */
unsigned long lx_host_virt_to_phys(const void *p);

/*
 * lx_host_clock_start - call @tick once per clock tick from now on, in
 * interrupt context with interrupts off; returns the ticks per second.
 * Once: a second call is a bug (the host stops).
 */
unsigned long lx_host_clock_start(void (*tick)(void));

/* lx_host_sleep_ticks - block the calling thread for at least @ticks
 * ticks (thread context only). */
void lx_host_sleep_ticks(unsigned long ticks);

/* lx_host_delay_ns - busy-wait at least @ns nanoseconds (any context). */
void lx_host_delay_ns(unsigned long ns);

/*
 * lx_host_missing - a Linux function the drivers reference and linux-emu
 * does not implement was called (from a generated stub): print its name
 * and the caller, and stop.  Never returns.
 */
void lx_host_missing(const char *name) __attribute__((noreturn));

/*
 * Hardware access (PCI, port I/O, MMIO; linux-emu/lx_pci*.c, lx_io.c).
 *
 * Port I/O, configuration mechanism #1 (ports 0xCF8-0xCFF) included, is
 * done by linux-emu itself with in/out instructions: inside the kernel at
 * ring 0; a user-mode server must first hold an I/O permission for
 * 0xCF8-0xCFF and for every I/O BAR of its devices (i386_io_perm_create +
 * i386_io_perm_modify on its task), or those instructions fault.
 */

/*
 * lx_host_ioremap - map physical device memory [@phys, @phys + @size)
 * uncached into the caller's address space; returns the address of the
 * byte at @phys, or NULL if the range is empty, wraps, overlaps usable
 * RAM, or no room is left (the host says why on the console).  May be
 * called with interrupts off; never sleeps.  A user-mode server has no
 * Mach call for this yet: device_map on a "pci MMIO" device or a
 * privileged vm_map of physical memory would be needed (gnumach.defs'
 * vm_allocate_contiguous allocates RAM, it cannot name a BAR).
 */
void *lx_host_ioremap(unsigned long phys, unsigned long size);

/* lx_host_iounmap - undo the lx_host_ioremap() that returned @virt; any
 * other address is a bug: the host stops. */
void lx_host_iounmap(void *virt);

#endif
