/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "vm-copy-bytes": copies of a few bytes for kernel receivers. */
/*
 * vm_map_copyin_bytes (vm/vm_map.h) keeps up to VM_MAP_COPY_BYTES_MAX
 * bytes in the copy itself: no page is taken until someone maps the
 * copy (vm_map_copyout) or asks for its pages (vm_map_copy_pages).  The
 * cases drive maps from kernel mode as suite vm-user does.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kern/kalloc.h"
#include "kern/ktest.h"
#include "kern/string.h"
#include "vm/vm_map.h"
#include "vm/vm_map_copy_kernel.h"
#include "vm/vm_page.h"
#include "x86_64/copy.h"
#include "tests/kernel/user_task.h"
#include "tests/kernel/vm_source.h"
#include "x86_64/layout.h"

#define PAGE		VM_PAGE_SIZE
#define COPIES		12	/* more than the pool of records holds */

static uint8_t src_buf[2 * PAGE], dst_buf[2 * PAGE];

static void fill(uint8_t *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 13 + seed);
}

/* @copy holds the @n bytes of @src_buf from @off. */
static void expect_bytes(struct ktest *t, const struct vm_map_copy *copy,
			 size_t off, size_t n)
{
	memset(dst_buf, 0, n);
	vm_map_copy_kernel_read(copy, 0, dst_buf, n);
	KTEST_EXPECT_MEMEQ(t, src_buf + off, dst_buf, n);
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != 0)
			return false;
	return true;
}

/* A new active map with two pages at *@a, @src_buf (filled with its
 * pattern) written over them; NULL (and @t failed) if it cannot be made. */
static struct vm_map *source_begin(struct ktest *t, uint64_t *a)
{
	fill(src_buf, sizeof(src_buf), 3);
	return vm_source_begin(t, src_buf, sizeof(src_buf), a);
}

static void few_bytes_take_no_page_and_read_back(struct ktest *t)
{
	uint64_t a, pages, heap;
	struct vm_map_copy *copy = NULL;
	struct vm_map *m = source_begin(t, &a);

	if (m == NULL)
		return;
	pages = user_task_free_pages();
	heap = kalloc_bytes_in_use();
	KTEST_EXPECT_EQ(t, vm_map_copyin_bytes(m, a + 100, 60, &copy),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, user_task_free_pages(), pages);
	KTEST_EXPECT_EQ(t, vm_map_copy_size(copy), 60);
	/* Its bytes, in place: what io_req_data hands a module. */
	if (vm_map_copy_bytes(copy) == NULL)
		ktest_fail(t, "a copy of bytes gives no bytes in place");
	else
		KTEST_EXPECT_MEMEQ(t, src_buf + 100, vm_map_copy_bytes(copy),
				   60);
	/* A snapshot: the source changes, the copy does not. */
	memset(dst_buf, 0xee, 60);
	KTEST_EXPECT_EQ(t, copyout(dst_buf, (void *)(a + 100), 60), 0);
	expect_bytes(t, copy, 100, 60);
	vm_map_copy_kernel_read(copy, 50, dst_buf, 10);
	KTEST_EXPECT_MEMEQ(t, src_buf + 150, dst_buf, 10);
	vm_map_copy_discard(copy);
	KTEST_EXPECT_EQ(t, user_task_free_pages(), pages);
	KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(), heap);
	vm_source_end(m);
}

static void copyout_maps_the_bytes_with_zeros_around(struct ktest *t)
{
	uint64_t a, b = 0;
	struct vm_map_copy *copy = NULL;
	struct vm_map *m = source_begin(t, &a);

	if (m == NULL)
		return;
	/* Across the page boundary: two pages when mapped. */
	KTEST_EXPECT_EQ(t, vm_map_copyin_bytes(m, a + PAGE - 30, 100, &copy),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_copyout(m, copy, &b), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, b % PAGE, PAGE - 30);
	memset(dst_buf, 0xff, sizeof(dst_buf));
	KTEST_EXPECT_EQ(t, copyin((void *)(b - (PAGE - 30)), dst_buf,
				  2 * PAGE), 0);
	KTEST_EXPECT_MEMEQ(t, src_buf + PAGE - 30, dst_buf + PAGE - 30, 100);
	if (!all_zero(dst_buf, PAGE - 30) ||
	    !all_zero(dst_buf + PAGE + 70, PAGE - 70))
		ktest_fail(t, "the bytes around the data are not zero");
	vm_source_end(m);
}

/* A copy of @size bytes at @off of the source takes one page when
 * vm_map_copy_pages asks for it (@ask_pages; more than
 * VM_MAP_COPY_BYTES_MAX bytes take none before: the source lends its
 * frame, suite vm-copy-loan); it reads back, and its page comes back
 * with it. */
static void copy_takes_one_page(struct ktest *t, size_t off, size_t size,
				bool ask_pages)
{
	uint64_t a, pages;
	struct vm_map_copy *copy = NULL;
	struct vm_map *m = source_begin(t, &a);

	if (m == NULL)
		return;
	pages = user_task_free_pages();
	KTEST_EXPECT_EQ(t, vm_map_copyin_bytes(m, a + off, size, &copy),
			KERN_SUCCESS);
	for (int i = 0; ask_pages && i < 2; i++)	/* twice: a no-op */
		KTEST_EXPECT_EQ(t, vm_map_copy_pages(copy), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, user_task_free_pages() + 1, pages);
	/* In pages, no bytes in place: read through the pages. */
	KTEST_EXPECT_TRUE(t, vm_map_copy_bytes(copy) == NULL);
	expect_bytes(t, copy, off, size);
	vm_map_copy_discard(copy);
	KTEST_EXPECT_EQ(t, user_task_free_pages(), pages);
	vm_source_end(m);
}

static void pages_on_demand_keep_the_data(struct ktest *t)
{
	copy_takes_one_page(t, 8, 2048, true);
	KTEST_EXPECT_EQ(t, vm_map_copy_pages(NULL), KERN_SUCCESS);
}

static void more_bytes_than_the_limit_take_pages(struct ktest *t)
{
	struct vm_map_copy *copy = (struct vm_map_copy *)1;
	uint64_t a;
	struct vm_map *m;

	copy_takes_one_page(t, 0, VM_MAP_COPY_BYTES_MAX + 1, true);
	m = source_begin(t, &a);
	if (m == NULL)
		return;
	KTEST_EXPECT_EQ(t, vm_map_copyin_bytes(m, a, 0, &copy), KERN_SUCCESS);
	KTEST_EXPECT_TRUE(t, copy == NULL);
	vm_source_end(m);
}

static void bad_sources_fail_as_copyin_does(struct ktest *t)
{
	uint64_t a, pages, heap;
	struct vm_map_copy *copy = NULL;
	struct vm_map *m = source_begin(t, &a);

	if (m == NULL)
		return;
	/* The second page unreadable (its own map entry from here on). */
	KTEST_EXPECT_EQ(t, vm_map_protect(m, a + PAGE, PAGE, false,
					  VM_PROT_NONE), KERN_SUCCESS);
	pages = user_task_free_pages();
	heap = kalloc_bytes_in_use();
	KTEST_EXPECT_EQ(t, vm_map_copyin_bytes(m, a + 2 * PAGE + 100, 60,
					       &copy), KERN_INVALID_ADDRESS);
	KTEST_EXPECT_EQ(t, vm_map_copyin_bytes(m, a - 10, 60, &copy),
			KERN_INVALID_ADDRESS);
	KTEST_EXPECT_EQ(t, vm_map_copyin_bytes(m, KERNEL_BASE, 60, &copy),
			KERN_INVALID_ADDRESS);
	KTEST_EXPECT_EQ(t, vm_map_copyin_bytes(m, UINT64_MAX - 10, 60, &copy),
			KERN_INVALID_ADDRESS);
	KTEST_EXPECT_EQ(t, vm_map_copyin_bytes(m, a + PAGE - 10, 60, &copy),
			KERN_PROTECTION_FAILURE);
	KTEST_EXPECT_EQ(t, user_task_free_pages(), pages);
	KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(), heap);
	vm_source_end(m);
}

static void many_copies_at_once_all_come_back(struct ktest *t)
{
	struct vm_map_copy *copies[COPIES];
	uint64_t a, pages, heap;
	struct vm_map *m = source_begin(t, &a);

	if (m == NULL)
		return;
	pages = user_task_free_pages();
	heap = kalloc_bytes_in_use();
	for (unsigned int i = 0; i < COPIES; i++)
		KTEST_EXPECT_EQ(t, vm_map_copyin_bytes(m, a + 64 * i, 64,
						       &copies[i]),
				KERN_SUCCESS);
	for (unsigned int i = 0; i < COPIES; i++)
		expect_bytes(t, copies[i], 64 * i, 64);
	for (unsigned int i = 0; i < COPIES; i++)
		vm_map_copy_discard(copies[i]);
	KTEST_EXPECT_EQ(t, user_task_free_pages(), pages);
	KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(), heap);
	vm_source_end(m);
}

static const struct ktest_case vm_copy_bytes_cases[] = {
	{ "few_bytes_take_no_page_and_read_back",
	  few_bytes_take_no_page_and_read_back },
	{ "copyout_maps_the_bytes_with_zeros_around",
	  copyout_maps_the_bytes_with_zeros_around },
	{ "pages_on_demand_keep_the_data", pages_on_demand_keep_the_data },
	{ "more_bytes_than_the_limit_take_pages",
	  more_bytes_than_the_limit_take_pages },
	{ "bad_sources_fail_as_copyin_does", bad_sources_fail_as_copyin_does },
	{ "many_copies_at_once_all_come_back",
	  many_copies_at_once_all_come_back },
};

KTEST_SUITE(vm_copy_bytes_suite, "vm-copy-bytes", vm_copy_bytes_cases);
