/* SPDX-License-Identifier: GPL-2.0-only */
/* Host tests of the port name table: names, both lookups, growth. */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipc/ipc_entry.h"
#include "kern/kalloc.h"
#include "kern/ktest.h"

/* The kernel heap, over malloc, with failure injection and a count. */
static int fail_after = -1;	/* allocations left before failing */
static long live;

void *kalloc(size_t size)
{
	if (size == 0)
		return NULL;
	if (fail_after == 0)
		return NULL;
	if (fail_after > 0)
		fail_after--;
	live++;
	return malloc(size);
}

void *kzalloc(size_t size)
{
	void *p = kalloc(size);

	if (p != NULL)
		memset(p, 0, size);
	return p;
}

void kfree(void *p)
{
	if (p != NULL)
		live--;
	free(p);
}

uint64_t kalloc_bytes_in_use(void)
{
	return 0;
}

static void alloc_gives_fresh_valid_names_in_order(struct ktest *t)
{
	struct ipc_entry_table tab;
	struct ipc_entry *e;
	mach_port_name_t last = 0;

	KTEST_EXPECT_EQ(t, ipc_entry_table_init(&tab), KERN_SUCCESS);
	for (int i = 0; i < 10; i++) {
		KTEST_EXPECT_EQ(t, ipc_entry_alloc(&tab, &e), KERN_SUCCESS);
		KTEST_EXPECT_TRUE(t, MACH_PORT_VALID(e->name));
		KTEST_EXPECT_TRUE(t, e->name > last);
		KTEST_EXPECT_EQ(t, e->type, MACH_PORT_TYPE_NONE);
		KTEST_EXPECT_TRUE(t, e->object == NULL && e->urefs == 0);
		last = e->name;
	}
	KTEST_EXPECT_EQ(t, tab.count, 10);
	ipc_entry_table_fini(&tab);
	KTEST_EXPECT_EQ(t, live, 0);
}

static void alloc_name_rejects_null_dead_and_existing(struct ktest *t)
{
	struct ipc_entry_table tab;
	struct ipc_entry *e, *f;

	KTEST_EXPECT_EQ(t, ipc_entry_table_init(&tab), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, ipc_entry_alloc_name(&tab, MACH_PORT_NULL, &e),
			KERN_INVALID_VALUE);
	KTEST_EXPECT_EQ(t, ipc_entry_alloc_name(&tab, MACH_PORT_DEAD, &e),
			KERN_INVALID_VALUE);
	KTEST_EXPECT_EQ(t, ipc_entry_alloc_name(&tab, 0x1234, &e),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, e->name, 0x1234);
	KTEST_EXPECT_EQ(t, ipc_entry_alloc_name(&tab, 0x1234, &f),
			KERN_NAME_EXISTS);
	KTEST_EXPECT_TRUE(t, f == e);
	KTEST_EXPECT_EQ(t, tab.count, 1);
	ipc_entry_table_fini(&tab);
	KTEST_EXPECT_EQ(t, live, 0);
}

static void fresh_names_skip_names_in_use_and_wrap(struct ktest *t)
{
	struct ipc_entry_table tab;
	struct ipc_entry *e;

	KTEST_EXPECT_EQ(t, ipc_entry_table_init(&tab), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, ipc_entry_alloc_name(&tab, 1, &e), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, ipc_entry_alloc_name(&tab, 2, &e), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, ipc_entry_alloc(&tab, &e), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, e->name, 3);
	/* Near the top: MACH_PORT_DEAD and MACH_PORT_NULL are skipped. */
	tab.next_name = 0xfffffffeu;
	KTEST_EXPECT_EQ(t, ipc_entry_alloc(&tab, &e), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, e->name, 0xfffffffeu);
	KTEST_EXPECT_EQ(t, ipc_entry_alloc(&tab, &e), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, e->name, 4);
	ipc_entry_table_fini(&tab);
	KTEST_EXPECT_EQ(t, live, 0);
}

static void lookup_finds_every_entry_after_growth(struct ktest *t)
{
	enum { N = 3000 };
	static struct ipc_entry *made[N];
	struct ipc_entry_table tab;
	int missing = 0;

	KTEST_EXPECT_EQ(t, ipc_entry_table_init(&tab), KERN_SUCCESS);
	for (int i = 0; i < N; i++) {
		KTEST_EXPECT_EQ(t, ipc_entry_alloc(&tab, &made[i]),
				KERN_SUCCESS);
		made[i]->object = &made[i];
		ipc_entry_hash_object(&tab, made[i]);
	}
	KTEST_EXPECT_GE(t, tab.nbuckets, N);
	for (int i = 0; i < N; i++) {
		if (ipc_entry_lookup(&tab, made[i]->name) != made[i] ||
		    ipc_entry_lookup_object(&tab, &made[i]) != made[i])
			missing++;
	}
	KTEST_EXPECT_EQ(t, missing, 0);
	KTEST_EXPECT_TRUE(t, ipc_entry_lookup(&tab, 0x7fffffff) == NULL);
	KTEST_EXPECT_TRUE(t, ipc_entry_lookup_object(&tab, &missing) == NULL);
	ipc_entry_table_fini(&tab);
	KTEST_EXPECT_EQ(t, live, 0);
}

static void free_removes_from_both_hashes(struct ktest *t)
{
	struct ipc_entry_table tab;
	struct ipc_entry *a, *b;
	int obj_a, obj_b;
	mach_port_name_t name_a;

	KTEST_EXPECT_EQ(t, ipc_entry_table_init(&tab), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, ipc_entry_alloc(&tab, &a), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, ipc_entry_alloc(&tab, &b), KERN_SUCCESS);
	a->object = &obj_a;
	b->object = &obj_b;
	ipc_entry_hash_object(&tab, a);
	ipc_entry_hash_object(&tab, a);		/* idempotent */
	ipc_entry_hash_object(&tab, b);
	name_a = a->name;
	ipc_entry_free(&tab, a);
	KTEST_EXPECT_TRUE(t, ipc_entry_lookup(&tab, name_a) == NULL);
	KTEST_EXPECT_TRUE(t, ipc_entry_lookup_object(&tab, &obj_a) == NULL);
	KTEST_EXPECT_TRUE(t, ipc_entry_lookup_object(&tab, &obj_b) == b);
	ipc_entry_unhash_object(&tab, b);
	ipc_entry_unhash_object(&tab, b);	/* idempotent */
	KTEST_EXPECT_TRUE(t, ipc_entry_lookup_object(&tab, &obj_b) == NULL);
	KTEST_EXPECT_TRUE(t, ipc_entry_lookup(&tab, b->name) == b);
	KTEST_EXPECT_EQ(t, tab.count, 1);
	ipc_entry_table_fini(&tab);
	KTEST_EXPECT_EQ(t, live, 0);
}

static void next_walks_every_entry_once(struct ktest *t)
{
	enum { N = 100 };
	struct ipc_entry_table tab;
	struct ipc_entry *e = NULL;
	bool seen[N + 1] = { false };
	int count = 0, twice = 0;

	KTEST_EXPECT_EQ(t, ipc_entry_table_init(&tab), KERN_SUCCESS);
	for (int i = 0; i < N; i++)
		KTEST_EXPECT_EQ(t, ipc_entry_alloc(&tab, &e), KERN_SUCCESS);
	e = NULL;
	while ((e = ipc_entry_next(&tab, e)) != NULL) {
		if (e->name > N || seen[e->name])
			twice++;
		else
			seen[e->name] = true;
		count++;
	}
	KTEST_EXPECT_EQ(t, count, N);
	KTEST_EXPECT_EQ(t, twice, 0);
	ipc_entry_table_fini(&tab);
	KTEST_EXPECT_EQ(t, live, 0);
}

static void take_all_empties_the_table(struct ktest *t)
{
	struct ipc_entry_table tab;
	struct ipc_entry *e, *next;
	int n = 0, obj;

	KTEST_EXPECT_EQ(t, ipc_entry_table_init(&tab), KERN_SUCCESS);
	for (int i = 0; i < 40; i++) {
		KTEST_EXPECT_EQ(t, ipc_entry_alloc(&tab, &e), KERN_SUCCESS);
		e->object = &obj;
		ipc_entry_hash_object(&tab, e);
	}
	for (e = ipc_entry_take_all(&tab); e != NULL; e = next) {
		next = e->next;
		KTEST_EXPECT_FALSE(t, e->reverse);
		kfree(e);
		n++;
	}
	KTEST_EXPECT_EQ(t, n, 40);
	KTEST_EXPECT_EQ(t, tab.count, 0);
	KTEST_EXPECT_TRUE(t, ipc_entry_next(&tab, NULL) == NULL);
	KTEST_EXPECT_TRUE(t, ipc_entry_lookup_object(&tab, &obj) == NULL);
	/* Still usable. */
	KTEST_EXPECT_EQ(t, ipc_entry_alloc(&tab, &e), KERN_SUCCESS);
	ipc_entry_table_fini(&tab);
	KTEST_EXPECT_EQ(t, live, 0);
}

static void out_of_memory_is_resource_shortage(struct ktest *t)
{
	struct ipc_entry_table tab;
	struct ipc_entry *e;

	fail_after = 1;		/* one bucket array, not the other */
	KTEST_EXPECT_EQ(t, ipc_entry_table_init(&tab), KERN_RESOURCE_SHORTAGE);
	KTEST_EXPECT_EQ(t, live, 0);
	fail_after = -1;
	KTEST_EXPECT_EQ(t, ipc_entry_table_init(&tab), KERN_SUCCESS);
	fail_after = 0;
	KTEST_EXPECT_EQ(t, ipc_entry_alloc(&tab, &e), KERN_RESOURCE_SHORTAGE);
	KTEST_EXPECT_EQ(t, ipc_entry_alloc_name(&tab, 9, &e),
			KERN_RESOURCE_SHORTAGE);
	fail_after = -1;
	/* A failed growth leaves longer chains, and everything works. */
	for (int i = 0; i < 16; i++)
		KTEST_EXPECT_EQ(t, ipc_entry_alloc(&tab, &e), KERN_SUCCESS);
	fail_after = 1;		/* the entry, then not the buckets */
	KTEST_EXPECT_EQ(t, ipc_entry_alloc(&tab, &e), KERN_SUCCESS);
	fail_after = -1;
	KTEST_EXPECT_EQ(t, tab.nbuckets, 16);
	KTEST_EXPECT_TRUE(t, ipc_entry_lookup(&tab, e->name) == e);
	KTEST_EXPECT_EQ(t, tab.count, 17);
	ipc_entry_table_fini(&tab);
	KTEST_EXPECT_EQ(t, live, 0);
}

static const struct ktest_case ipc_entry_cases[] = {
	{ "alloc_gives_fresh_valid_names_in_order",
	  alloc_gives_fresh_valid_names_in_order },
	{ "alloc_name_rejects_null_dead_and_existing",
	  alloc_name_rejects_null_dead_and_existing },
	{ "fresh_names_skip_names_in_use_and_wrap",
	  fresh_names_skip_names_in_use_and_wrap },
	{ "lookup_finds_every_entry_after_growth",
	  lookup_finds_every_entry_after_growth },
	{ "free_removes_from_both_hashes", free_removes_from_both_hashes },
	{ "next_walks_every_entry_once", next_walks_every_entry_once },
	{ "take_all_empties_the_table", take_all_empties_the_table },
	{ "out_of_memory_is_resource_shortage",
	  out_of_memory_is_resource_shortage },
};
KTEST_SUITE(ipc_entry_suite, "ipc-entry", ipc_entry_cases);
