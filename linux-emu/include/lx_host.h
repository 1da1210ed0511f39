/* SPDX-License-Identifier: GPL-2.0-only */
/* What linux-emu needs from the system it runs on: the host interface. */
/*
 * linux-emu (compiled with Linux's headers and flags) calls only these
 * functions; they are implemented once inside the Graft kernel
 * (mach-glue/kernel/) and once in the user-mode driver server
 * (servers/lxdrv/).  The header uses C types only, never a Linux or a
 * Graft type, so both sides can include it.  A change of meaning bumps LX_HOST_VERSION.
 */
#ifndef LX_HOST_H
#define LX_HOST_H

#define LX_HOST_VERSION	6

/* Memory zones a host allocation may be asked to come from. */
enum lx_host_zone {
	LX_HOST_ZONE_DMA,	/* physical addresses below 16 MiB */
	LX_HOST_ZONE_DMA32,	/* below 4 GiB */
	LX_HOST_ZONE_ANY,
};

/* lx_host_version - the LX_HOST_VERSION the host was built against:
 * lx_emul_init refuses to start the world on a host of another one. */
unsigned int lx_host_version(void);

/*
 * lx_host_pci_claim - make PCI function @devfn of @bus this world's
 * before a driver binds it: 0, or -EBUSY if another owner holds it (a
 * user-mode driver; the host's own platform devices).  Thread context.
 * lx_host_pci_release - give it back after the driver let go.
 */
int lx_host_pci_claim(unsigned int bus, unsigned int devfn);
void lx_host_pci_release(unsigned int bus, unsigned int devfn);

/* lx_host_console_write - write @len bytes of @text to the console. */
void lx_host_console_write(const char *text, unsigned long len);

/*
 * lx_host_alloc - @size bytes (1 <= size), zeroed if @zero, aligned to
 * 16 bytes (to a page if @size is a page or more; in LX_HOST_ZONE_DMA, a
 * power-of-two number of pages to its size, as Linux's buddy allocator
 * aligns blocks, so that no ISA DMA buffer of 64 KiB or less crosses a
 * 64 KiB boundary), wholly inside @zone and physically contiguous, or 0
 * (NULL) if there is no such memory.  May be called with interrupts off;
 * never sleeps.
 */
void *lx_host_alloc(unsigned long size, enum lx_host_zone zone, int zero);

/* lx_host_free - give back what lx_host_alloc returned (NULL: nothing). */
void lx_host_free(void *p);

/* lx_host_memory_bottom, lx_host_memory_top - the lowest physical
 * address, and one past the highest, of the RAM the world may see: what
 * lx_host_alloc() hands out, and pages the host lends it (a client's,
 * for streaming DMA).  linux-emu gives each page a struct page. */
unsigned long lx_host_memory_bottom(void);
unsigned long lx_host_memory_top(void);

/* lx_host_memmap_alloc - @size bytes of zeroed memory, page aligned,
 * for linux-emu's struct page array (it needs no physical address);
 * NULL if there is none.  Thread context. */
void *lx_host_memmap_alloc(unsigned long size);

/*
 * lx_host_direct_map - the virtual address that physical address 0 would
 * have in the host's direct map: every byte lx_host_alloc() returns is at
 * that address plus its physical address (Linux's page_offset_base, what
 * __va() and __pa() add and subtract).  Constant for the world's life.
 */
unsigned long lx_host_direct_map(void);

/* lx_host_virt_to_phys - the physical address behind host memory @p. */
unsigned long lx_host_virt_to_phys(const void *p);

/*
 * lx_host_clock_start - call @tick once per clock tick from now on, in
 * interrupt context with interrupts off; returns the ticks per second.
 * Once: a second call is a bug (the host stops).
 */
unsigned long lx_host_clock_start(void (*tick)(void));

/* lx_host_delay_ns - busy-wait at least @ns nanoseconds (any context). */
void lx_host_delay_ns(unsigned long ns);

/* lx_host_io_delay - the pause after a slow port access (outb_p and
 * friends): a write to the PC's POST port 0x80 where the host may write
 * it, about a microsecond on real hardware; else a busy-wait as long.
 * Any context. */
void lx_host_io_delay(void);

/*
 * lx_host_missing - a Linux function the drivers reference and linux-emu
 * does not implement was called (from a generated stub): print its name
 * and the caller, and stop.  Never returns.
 */
void lx_host_missing(const char *name) __attribute__((noreturn));

/*
 * lx_host_backtrace - print the calling thread's call chain as well as
 * the host can: first @ip, the code address where it starts (a trap's,
 * or the caller's own); then, since Linux code is built without frame
 * pointers, each word from stack address @sp to the stack's top that is
 * a code address, marked "?" as Linux's guessing unwinder marks them
 * (stale return addresses look the same); one per line, with its symbol
 * where the host knows it, at most a bounded number.  Any context;
 * returns.
 */
void lx_host_backtrace(unsigned long ip, unsigned long sp);

/*
 * Hardware access (PCI, port I/O, MMIO; linux-emu/lx_pci*.c, lx_io.c).
 *
 * Port I/O is done by linux-emu itself with in/out instructions: inside
 * the kernel at ring 0; a user-mode server holds an I/O permission for
 * the I/O BARs of the devices it claimed, or those instructions fault.
 * Configuration space is the host's, which arbitrates it.
 */

/*
 * lx_host_pci_config_read - @size (1, 2 or 4) bytes at @where (aligned
 * to @size, below 256) of function @devfn on @bus; all ones if the
 * function does not exist or is not this world's to see.
 * lx_host_pci_config_write - write @val there (dropped in the same
 * cases).  Any context; never sleeps.
 */
unsigned int lx_host_pci_config_read(unsigned int bus, unsigned int devfn,
				     int where, int size);
void lx_host_pci_config_write(unsigned int bus, unsigned int devfn,
			      int where, int size, unsigned int val);

/*
 * lx_host_ioremap - map physical device memory [@phys, @phys + @size)
 * uncached into the caller's address space; returns the address of the
 * byte at @phys, or NULL if the range is empty, wraps, overlaps usable
 * RAM, or no room is left, or (in a server) no claimed BAR holds it
 * (the host says why on the console).  May be called with interrupts
 * off; never sleeps.
 */
void *lx_host_ioremap(unsigned long phys, unsigned long size);

/* lx_host_iounmap - undo the lx_host_ioremap() that returned @virt; any
 * other address is a bug: the host stops. */
void lx_host_iounmap(void *virt);

/*
 * Threads, sleeping and interrupt lines (mach-glue/kernel/lx_host_thread.c,
 * lx_host_irq.c; servers/lxdrv/sched.c, pci.c in the driver server,
 * where threads are stacks switched in one Mach thread and an interrupt
 * line is a claim's notifications, acknowledged to unmask).
 */

/*
 * lx_host_thread_create - start @fn(@arg) in a new thread named @name,
 * at the priority of Linux-world threads; returning from @fn ends it.
 * Thread context, interrupts on or off.  0, or -1 if no thread could be
 * made (no memory).
 */
int lx_host_thread_create(const char *name, void (*fn)(void *arg), void *arg);

/* lx_host_thread_self - an identifier of the calling thread, never 0,
 * unique among living threads. */
unsigned long lx_host_thread_self(void);

/*
 * lx_host_wait_prepare - declare that the calling thread is about to wait
 * for @event (any address but NULL); an lx_host_wakeup(@event) from now on
 * ends the wait, even one that comes before lx_host_wait().  One prepared
 * wait per thread at a time.  Thread context, interrupts on or off.
 */
void lx_host_wait_prepare(const void *event);

/*
 * lx_host_wait - block until the prepared wait ends, or @ticks clock ticks
 * have passed (0: no limit).  0 when woken, 1 when the time ran out.
 * Thread context; interrupts on or off (the state is kept).
 */
int lx_host_wait(unsigned long ticks);

/* lx_host_wakeup - end every wait for @event.  Any context, interrupt
 * handlers included; a woken thread runs when the scheduler lets it. */
void lx_host_wakeup(const void *event);

/*
 * The calling thread's interrupt flag, as Linux's paravirt call sites
 * (pv_ops.irq, CONFIG_PARAVIRT_XXL) reach it: lx_host_irq_save_fl
 * returns it as EFLAGS would hold it (0x200, X86_EFLAGS_IF, when
 * interrupts are on; other bits 0); lx_host_irq_disable and
 * lx_host_irq_enable turn it off and on (Linux restores a saved flag by
 * enabling when it was on).  Inside the kernel it is the CPU's; in a
 * server, a flag of the thread's that holds interrupt delivery back.
 * Any context.  Each preserves every register but %rax, and the
 * arithmetic flags are not kept (Linux calls them as PV_CALLEE_SAVE
 * functions): they are written in assembly.
 */
unsigned long lx_host_irq_save_fl(void);
void lx_host_irq_disable(void);
void lx_host_irq_enable(void);

/* lx_host_irq_lines - the number of interrupt lines (numbered from 0). */
unsigned int lx_host_irq_lines(void);

/*
 * lx_host_irq_attach - take interrupt line @line for the Linux world:
 * from now on @fn(@line) runs on each of its interrupts, in interrupt
 * context (interrupts off, must not block).  The line stays masked until
 * lx_host_irq_unmask().  0; -1 if @line is out of range or not free (the
 * host itself or another driver uses it).  Thread context.
 */
int lx_host_irq_attach(unsigned int line, void (*fn)(unsigned int line));

/* lx_host_irq_detach - mask @line and give it back: @fn is not called
 * again once this returns.  @line must be attached (else the host stops). */
void lx_host_irq_detach(unsigned int line);

/* lx_host_irq_mask, lx_host_irq_unmask - block or let through only
 * @line, an attached line, at the interrupt controller.  Any context. */
void lx_host_irq_mask(unsigned int line);
void lx_host_irq_unmask(unsigned int line);

/*
 * lx_host_initcall_start, lx_host_initcall_stop - where the host's linker
 * script put the linked drivers' initcalls (.initcall*.init of linux.o,
 * Linux's relative entries, in Linux's level order).
 */
extern int lx_host_initcall_start[], lx_host_initcall_stop[];

/*
 * lx_host_bug_table_start, lx_host_bug_table_stop - where the host's
 * linker script put Linux's WARN and BUG sites (the __bug_table section
 * of linux.o, writable: WARN_ONCE marks its entry done).
 */
extern int lx_host_bug_table_start[], lx_host_bug_table_stop[];

#endif
