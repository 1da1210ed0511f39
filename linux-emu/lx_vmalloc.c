/* SPDX-License-Identifier: GPL-2.0-only */
/* vmalloc, vzalloc, vfree: "virtually contiguous" memory, here from the heap. */
/*
 * linux-emu has no vmalloc area: the kernel maps all RAM at PAGE_OFFSET
 * and nothing builds page tables for Linux code.  So vmalloc memory is
 * kmalloc memory, physically contiguous as well, and is_vmalloc_addr()
 * (lx_dma.c) is false for it, which is true to what it is: the DMA API
 * and virt_to_page() may be used on it.  The cost is that a large
 * request needs that many contiguous pages and fails (NULL) sooner than
 * on Linux.  e1000 takes its descriptor bookkeeping arrays from here.
 */
#include <linux/slab.h>
#include <linux/vmalloc.h>

void *vmalloc(unsigned long size)
{
	return kmalloc(size, GFP_KERNEL);
}

void *vzalloc(unsigned long size)
{
	return kzalloc(size, GFP_KERNEL);
}

void vfree(const void *addr)
{
	kfree(addr);
}

/* vzalloc_node - vzalloc: one memory node. */
void *vzalloc_node(unsigned long size, int node)
{
	return vzalloc(size);
}
