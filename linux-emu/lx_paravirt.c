/* SPDX-License-Identifier: GPL-2.0-only */
/* pv_ops and the memory layout variables: what lets the same objects run in the kernel and in a driver server. */
/*
 * The configuration is PARAVIRT_XXL and DYNAMIC_MEMORY_LAYOUT
 * (graft.config): compiled Linux code reaches the interrupt flag through
 * pv_ops.irq and the direct map through page_offset_base, never through
 * cli/sti/pushf or a constant.  Linux would patch the call sites back to
 * the native instructions (alternatives); linux-emu does not, so each
 * one calls the host (lx_host_irq_*), which inside the kernel is the CPU
 * and in a server a flag of its own.  The pv_ops slots the linked code
 * calls are filled; every other slot is NULL, and tools/linux_link.py
 * refuses a link whose code calls one (pv_slots in linux-emu/README.md).
 */
#include <linux/init.h>
#include <asm/io.h>
#include <asm/page.h>
#include <asm/paravirt.h>
#include <asm/pgtable.h>
#include <asm/processor.h>

#include <lx_emul.h>
#include <lx_host.h>

/* Linux's 4-level defaults; lx_paravirt_init() sets the direct map's,
 * lx_page_init() the memmap's. */
unsigned long page_offset_base = __PAGE_OFFSET_BASE_L4;
unsigned long vmalloc_base = __VMALLOC_BASE_L4;
unsigned long vmemmap_base = __VMEMMAP_BASE_L4;
/* The page protection bits kernel mappings may use (PAGE_KERNEL...):
 * every bit, as Linux before it trims the unsupported ones; no linux-emu
 * mapping is made from a pgprot. */
pteval_t __default_kernel_pte_mask = ~0;

/* What the code asks of the CPU without cpuid: no optional feature is
 * assumed (static_cpu_has() reads the capability words, all clear). */
struct cpuinfo_x86 boot_cpu_data = {
	.x86_clflush_size = 64,
	.x86_cache_alignment = 64,
	.x86_phys_bits = 36,
	.x86_virt_bits = 48,
};

struct paravirt_patch_template pv_ops = {
	.irq.save_fl = __PV_IS_CALLEE_SAVE(lx_host_irq_save_fl),
	.irq.irq_disable = __PV_IS_CALLEE_SAVE(lx_host_irq_disable),
	.irq.irq_enable = __PV_IS_CALLEE_SAVE(lx_host_irq_enable),
	.cpu.io_delay = native_io_delay,
};

void lx_paravirt_init(void)
{
	page_offset_base = lx_host_direct_map();
}
