/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "vm-copy-loan": large copies for kernel receivers borrow frames. */
/*
 * vm_map_copyin_bytes of more than VM_MAP_COPY_BYTES_MAX bytes (a disk
 * write) borrows the sender's resident frames instead of copying them
 * (vm/vm_map.c, "Copies"): no page is taken, and the copy must still be
 * a snapshot whatever the sender does next.  Each case writes, removes,
 * protects or overwrites the source while a copy holds its frames and
 * checks that the copy reads the data of the moment it was made, the
 * source the new data, and that every page comes back.  The cases drive
 * maps from kernel mode as suite vm-user does (copyout faults as a user
 * write would).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kern/ktest.h"
#include "kern/string.h"
#include "vm/vm_map.h"
#include "vm/vm_map_copy_kernel.h"
#include "vm/vm_page.h"
#include "tests/kernel/user_task.h"
#include "tests/kernel/vm_source.h"
#include "x86_64/copy.h"

#define PAGE		VM_PAGE_SIZE
#define NPAGES		4
#define SIZE		(NPAGES * PAGE)

static uint8_t old_buf[SIZE], new_buf[SIZE], got_buf[SIZE];

static void fill(uint8_t *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 7 + seed);
}

/* A new active map with NPAGES pages at *@a holding old_buf (new_buf
 * filled too); NULL (and @t failed) if it cannot be made. */
static struct vm_map *source_begin(struct ktest *t, uint64_t *a)
{
	fill(old_buf, SIZE, 1);
	fill(new_buf, SIZE, 99);
	return vm_source_begin(t, old_buf, SIZE, a);
}

/* @copy reads as old_buf. */
static void expect_copy_old(struct ktest *t, const struct vm_map_copy *copy)
{
	memset(got_buf, 0, SIZE);
	vm_map_copy_kernel_read(copy, 0, got_buf, SIZE);
	KTEST_EXPECT_MEMEQ(t, old_buf, got_buf, SIZE);
}

/* The source at @a reads as @want. */
static void expect_source(struct ktest *t, uint64_t a, const uint8_t *want)
{
	memset(got_buf, 0, SIZE);
	KTEST_EXPECT_EQ(t, copyin((const void *)a, got_buf, SIZE), 0);
	KTEST_EXPECT_MEMEQ(t, want, got_buf, SIZE);
}

/* A lent copy of the whole source, checked to have taken no page. */
static struct vm_map_copy *lend(struct ktest *t, struct vm_map *m, uint64_t a)
{
	uint64_t pages = user_task_free_pages();
	struct vm_map_copy *copy = NULL;

	KTEST_EXPECT_EQ(t, vm_map_copyin_bytes(m, a, SIZE, &copy),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, user_task_free_pages(), pages);
	KTEST_EXPECT_TRUE(t, copy != NULL);
	return copy;
}

static void a_large_copy_takes_no_page_and_reads_back(struct ktest *t)
{
	uint64_t a, pages;
	struct vm_map *m = source_begin(t, &a);
	struct vm_map_copy *copy;

	if (m == NULL)
		return;
	pages = user_task_free_pages();
	copy = lend(t, m, a);
	expect_copy_old(t, copy);
	/* vm_map_copy_frames keeps the loan: still no page taken */
	KTEST_EXPECT_EQ(t, vm_map_copy_frames(copy), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, user_task_free_pages(), pages);
	vm_map_copy_discard(copy);
	KTEST_EXPECT_EQ(t, user_task_free_pages(), pages);
	/* The loan over, the source is writable again. */
	KTEST_EXPECT_EQ(t, copyout(new_buf, (void *)a, SIZE), 0);
	expect_source(t, a, new_buf);
	KTEST_EXPECT_EQ(t, user_task_free_pages(), pages);
	vm_source_end(m);
}

static void a_write_to_the_source_leaves_the_copy_unchanged(struct ktest *t)
{
	uint64_t a, pages;
	struct vm_map *m = source_begin(t, &a);
	struct vm_map_copy *copy;

	if (m == NULL)
		return;
	pages = user_task_free_pages();
	copy = lend(t, m, a);
	KTEST_EXPECT_EQ(t, copyout(new_buf, (void *)a, SIZE), 0);
	/* each written page took a frame of its own */
	KTEST_EXPECT_EQ(t, user_task_free_pages() + NPAGES, pages);
	expect_source(t, a, new_buf);
	expect_copy_old(t, copy);
	vm_map_copy_discard(copy);
	KTEST_EXPECT_EQ(t, user_task_free_pages(), pages);
	vm_source_end(m);
}

static void removing_the_source_keeps_the_frames_for_the_copy(
	struct ktest *t)
{
	uint64_t a, pages;
	struct vm_map *m = source_begin(t, &a);
	struct vm_map_copy *copy;

	if (m == NULL)
		return;
	pages = user_task_free_pages();
	copy = lend(t, m, a);
	KTEST_EXPECT_EQ(t, vm_map_remove(m, a, SIZE), KERN_SUCCESS);
	/* the data frames stay (only emptied page tables come back) */
	pages = user_task_free_pages();
	expect_copy_old(t, copy);
	vm_map_copy_discard(copy);
	KTEST_EXPECT_EQ(t, user_task_free_pages(), pages + NPAGES);
	vm_source_end(m);
}

static void protect_keeps_lent_pages_read_only(struct ktest *t)
{
	uint64_t a, pages;
	struct vm_map *m = source_begin(t, &a);
	struct vm_map_copy *copy;

	if (m == NULL)
		return;
	pages = user_task_free_pages();
	copy = lend(t, m, a);
	KTEST_EXPECT_EQ(t, vm_map_protect(m, a, SIZE, false,
					  VM_PROT_READ | VM_PROT_WRITE),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, copyout(new_buf, (void *)a, SIZE), 0);
	expect_source(t, a, new_buf);
	expect_copy_old(t, copy);
	/* the write took frames of its own: the lent ones come back */
	pages = user_task_free_pages();
	vm_map_copy_discard(copy);
	KTEST_EXPECT_EQ(t, user_task_free_pages(), pages + NPAGES);
	vm_source_end(m);
}

static void copy_pages_gives_the_copy_frames_of_its_own(struct ktest *t)
{
	uint64_t a, pages;
	struct vm_map *m = source_begin(t, &a);
	struct vm_map_copy *copy;

	if (m == NULL)
		return;
	pages = user_task_free_pages();
	copy = lend(t, m, a);
	KTEST_EXPECT_EQ(t, vm_map_copy_pages(copy), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, user_task_free_pages() + NPAGES, pages);
	/* the source's frames are its own again: written in place */
	KTEST_EXPECT_EQ(t, copyout(new_buf, (void *)a, SIZE), 0);
	KTEST_EXPECT_EQ(t, user_task_free_pages() + NPAGES, pages);
	expect_copy_old(t, copy);
	vm_map_copy_discard(copy);
	KTEST_EXPECT_EQ(t, user_task_free_pages(), pages);
	vm_source_end(m);
}

static void copyin_with_dealloc_copies_a_lent_frame(struct ktest *t)
{
	uint64_t a, b = 0, pages;
	struct vm_map *m = source_begin(t, &a);
	struct vm_map_copy *copy, *moved = NULL;

	if (m == NULL)
		return;
	pages = user_task_free_pages();
	copy = lend(t, m, a);
	KTEST_EXPECT_EQ(t, vm_map_copyin(m, a, SIZE, true, &moved),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_copyout(m, moved, &b), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, copyout(new_buf, (void *)b, SIZE), 0);
	expect_source(t, b, new_buf);
	expect_copy_old(t, copy);
	/* the lent frames left the map with the dealloc: the copy frees
	 * them */
	pages = user_task_free_pages();
	vm_map_copy_discard(copy);
	KTEST_EXPECT_EQ(t, user_task_free_pages(), pages + NPAGES);
	vm_source_end(m);
}

static void overwrite_of_the_source_leaves_the_copy_unchanged(
	struct ktest *t)
{
	uint64_t a, pages;
	struct vm_map *m = source_begin(t, &a);
	struct vm_map_copy *copy, *data = NULL;

	if (m == NULL)
		return;
	pages = user_task_free_pages();
	copy = lend(t, m, a);
	KTEST_EXPECT_EQ(t, vm_map_copy_from_kernel(new_buf, SIZE, &data),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_copy_overwrite(m, a, data), KERN_SUCCESS);
	expect_source(t, a, new_buf);
	expect_copy_old(t, copy);
	vm_map_copy_discard(copy);
	KTEST_EXPECT_EQ(t, user_task_free_pages(), pages);
	vm_source_end(m);
}

static void two_copies_share_a_frame_until_both_are_gone(struct ktest *t)
{
	uint64_t a, pages;
	struct vm_map *m = source_begin(t, &a);
	struct vm_map_copy *first, *second;

	if (m == NULL)
		return;
	pages = user_task_free_pages();
	first = lend(t, m, a);
	second = lend(t, m, a);
	KTEST_EXPECT_EQ(t, vm_map_remove(m, a, SIZE), KERN_SUCCESS);
	pages = user_task_free_pages();
	vm_map_copy_discard(first);
	KTEST_EXPECT_EQ(t, user_task_free_pages(), pages);
	expect_copy_old(t, second);
	vm_map_copy_discard(second);
	KTEST_EXPECT_EQ(t, user_task_free_pages(), pages + NPAGES);
	vm_source_end(m);
}

static void untouched_pages_travel_as_zeros(struct ktest *t)
{
	uint64_t a = 0, pages;
	struct vm_map *m = vm_map_create();
	struct vm_map_copy *copy = NULL;

	if (m == NULL) {
		ktest_fail(t, "vm_map_create failed");
		return;
	}
	vm_map_activate(m);
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, SIZE, true), KERN_SUCCESS);
	fill(old_buf, PAGE, 5);
	memset(old_buf + PAGE, 0, SIZE - PAGE);
	KTEST_EXPECT_EQ(t, copyout(old_buf, (void *)a, PAGE), 0);
	pages = user_task_free_pages();
	KTEST_EXPECT_EQ(t, vm_map_copyin_bytes(m, a, SIZE, &copy),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, user_task_free_pages(), pages);
	expect_copy_old(t, copy);	/* zeros after the first page */
	vm_map_copy_discard(copy);
	KTEST_EXPECT_EQ(t, user_task_free_pages(), pages);
	vm_source_end(m);
}

static const struct ktest_case vm_copy_loan_cases[] = {
	{ "a_large_copy_takes_no_page_and_reads_back",
	  a_large_copy_takes_no_page_and_reads_back },
	{ "a_write_to_the_source_leaves_the_copy_unchanged",
	  a_write_to_the_source_leaves_the_copy_unchanged },
	{ "removing_the_source_keeps_the_frames_for_the_copy",
	  removing_the_source_keeps_the_frames_for_the_copy },
	{ "protect_keeps_lent_pages_read_only",
	  protect_keeps_lent_pages_read_only },
	{ "copy_pages_gives_the_copy_frames_of_its_own",
	  copy_pages_gives_the_copy_frames_of_its_own },
	{ "copyin_with_dealloc_copies_a_lent_frame",
	  copyin_with_dealloc_copies_a_lent_frame },
	{ "overwrite_of_the_source_leaves_the_copy_unchanged",
	  overwrite_of_the_source_leaves_the_copy_unchanged },
	{ "two_copies_share_a_frame_until_both_are_gone",
	  two_copies_share_a_frame_until_both_are_gone },
	{ "untouched_pages_travel_as_zeros", untouched_pages_travel_as_zeros },
};

KTEST_SUITE(vm_copy_loan_suite, "vm-copy-loan", vm_copy_loan_cases);
