/* SPDX-License-Identifier: GPL-2.0-only */
/* Between linux-emu's allocators (Linux side only: Linux types). */
#ifndef LX_SLAB_H
#define LX_SLAB_H

#include <linux/gfp.h>

#include <lx_host.h>

/* The host zone (lx_host_alloc) that GFP @flags ask for: __GFP_DMA,
 * __GFP_DMA32, or anywhere. */
enum lx_host_zone lx_slab_zone(gfp_t flags);

#endif
