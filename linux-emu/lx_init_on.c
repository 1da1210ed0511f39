/* SPDX-License-Identifier: GPL-2.0-only */
/* init_on_alloc, init_on_free: the keys of Linux's memory zeroing hardening, both off. */
/*
 * Linux defines them in mm/page_alloc.c and turns them on from the
 * command line (init_on_alloc=1); mm/dmapool.c reads them to decide
 * whether to clear a block it hands out or takes back.  Graft's
 * configuration has neither default on, and nothing turns them on.
 */
#include <linux/jump_label.h>
#include <linux/mm.h>

DEFINE_STATIC_KEY_MAYBE(CONFIG_INIT_ON_ALLOC_DEFAULT_ON, init_on_alloc);
DEFINE_STATIC_KEY_MAYBE(CONFIG_INIT_ON_FREE_DEFAULT_ON, init_on_free);
