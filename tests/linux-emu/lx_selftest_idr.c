/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks of the linux-irq suite for IDRs (linux-emu/lx_idr.c): lowest free ids in a range, reservations, replacing, removing, iterating, cyclic allocation, a base. */
#include <linux/err.h>
#include <linux/idr.h>

#include <lx_world.h>

#include "lx_selftest_idr.h"
#include "lx_selftest_check.h"

static int a, b, c, d;
static int sum;

static int add_id(int id, void *p, void *data)
{
	sum += id;
	return p == data ? -id : 0;
}

static int idr_checks(void)
{
	DEFINE_IDR(idr);
	struct idr based;
	unsigned long ul;
	void *p;
	int id;

	CHECK(idr_is_empty(&idr));
	/* The lowest free id from the start asked for, within the end. */
	CHECK(idr_alloc(&idr, &a, 0, 0, GFP_KERNEL) == 0);
	CHECK(idr_alloc(&idr, &b, 0, 0, GFP_KERNEL) == 1);
	CHECK(idr_alloc(&idr, &c, 5, 7, GFP_KERNEL) == 5);
	CHECK(idr_alloc(&idr, &d, 5, 7, GFP_KERNEL) == 6);
	CHECK(idr_alloc(&idr, &d, 5, 7, GFP_KERNEL) == -ENOSPC);
	CHECK(!idr_is_empty(&idr));
	CHECK(idr_find(&idr, 0) == &a && idr_find(&idr, 6) == &d);
	CHECK(idr_find(&idr, 2) == NULL);
	/* A freed id is the lowest free again. */
	CHECK(idr_remove(&idr, 1) == &b);
	CHECK(idr_remove(&idr, 1) == NULL);
	CHECK(idr_find(&idr, 1) == NULL);
	/* Reserved with NULL: taken, found as NULL, skipped, replaced. */
	CHECK(idr_alloc(&idr, NULL, 0, 0, GFP_KERNEL) == 1);
	CHECK(idr_alloc(&idr, &b, 0, 0, GFP_KERNEL) == 2);
	CHECK(idr_find(&idr, 1) == NULL);
	id = 1;
	CHECK(idr_get_next(&idr, &id) == &b && id == 2);
	CHECK(IS_ERR(idr_replace(&idr, &b, 3)));
	CHECK(idr_replace(&idr, &c, 1) == NULL && idr_find(&idr, 1) == &c);
	CHECK(idr_replace(&idr, &b, 1) == &c);
	/* In id order, stopped by the first non-zero answer. */
	sum = 0;
	CHECK(idr_for_each(&idr, add_id, NULL) == 0);
	CHECK(sum == 0 + 1 + 2 + 5 + 6);
	sum = 0;
	CHECK(idr_for_each(&idr, add_id, &c) == -5 && sum == 0 + 1 + 2 + 5);
	ul = 3;
	CHECK(idr_get_next_ul(&idr, &ul) == &c && ul == 5);
	ul = 7;
	CHECK(idr_get_next_ul(&idr, &ul) == NULL);
	idr_destroy(&idr);
	CHECK(idr_is_empty(&idr) && idr_find(&idr, 0) == NULL);
	/* Cyclic: after the last one, then around to the start. */
	CHECK(idr_alloc_cyclic(&idr, &a, 1, 4, GFP_KERNEL) == 1);
	CHECK(idr_alloc_cyclic(&idr, &b, 1, 4, GFP_KERNEL) == 2);
	CHECK(idr_remove(&idr, 1) == &a);
	CHECK(idr_alloc_cyclic(&idr, &c, 1, 4, GFP_KERNEL) == 3);
	CHECK(idr_alloc_cyclic(&idr, &d, 1, 4, GFP_KERNEL) == 1);
	CHECK(idr_alloc_cyclic(&idr, &d, 1, 4, GFP_KERNEL) == -ENOSPC);
	idr_destroy(&idr);
	/* A base: no id below it. */
	idr_init_base(&based, 10);
	CHECK(idr_alloc(&based, &a, 0, 0, GFP_KERNEL) == 10);
	CHECK(idr_find(&based, 0) == NULL && idr_find(&based, 10) == &a);
	p = idr_remove(&based, 10);
	CHECK(p == &a && idr_is_empty(&based));
	return 0;
}
IN_WORLD(idr, idr_checks)
