/* SPDX-License-Identifier: GPL-2.0-only */
/* Kernel message buffers: a cache of static ones, the heap behind it. */
/*
 * Two pools of buffers in the kernel image (.bss), so that taking one
 * moves no heap or page counter: KMSG_SMALL buffers for kernel-layout
 * messages up to KMSG_SMALL_SIZE bytes (header included: every null RPC,
 * MIG request and notification) and KMSG_BIG buffers up to KMSG_BIG_SIZE
 * (MIG replies, which reserve room for the largest one).  Each pool is an
 * array and a free list threaded through the queue links, built on first
 * use; a buffer is recognised on release by its address.  An empty pool,
 * or a bigger message, falls back to kalloc.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipc/ipc_kmsg.h"
#include "kern/kalloc.h"
#include "kern/string.h"
#include "x86_64/cpu.h"

#define HDR		sizeof(struct ipc_kmsg_header)
#define LINK		offsetof(struct ipc_kmsg, header)
#define KMSG_SMALL	32
#define KMSG_SMALL_SIZE	488
#define KMSG_BIG	4
#define KMSG_BIG_SIZE	8168

union small_buf {
	struct ipc_kmsg kmsg;
	uint8_t bytes[LINK + KMSG_SMALL_SIZE];
};

union big_buf {
	struct ipc_kmsg kmsg;
	uint8_t bytes[LINK + KMSG_BIG_SIZE];
};

_Static_assert(sizeof(union small_buf) % 16 == 0 &&
	       sizeof(union big_buf) % 16 == 0,
	       "pool buffers keep the 16-byte alignment of kalloc");

static union small_buf small[KMSG_SMALL] __attribute__((aligned(16)));
static union big_buf big[KMSG_BIG] __attribute__((aligned(16)));
static struct ipc_kmsg *small_free, *big_free;
static bool ready;

static void pools_init(void)
{
	for (unsigned int i = 0; i < KMSG_SMALL; i++) {
		small[i].kmsg.next = small_free;
		small_free = &small[i].kmsg;
	}
	for (unsigned int i = 0; i < KMSG_BIG; i++) {
		big[i].kmsg.next = big_free;
		big_free = &big[i].kmsg;
	}
	ready = true;
}

/* A pool buffer for @ksize bytes, or NULL; interrupts off. */
static struct ipc_kmsg *cache_get(mach_msg_size_t ksize)
{
	struct ipc_kmsg **list;
	struct ipc_kmsg *kmsg;
	mach_msg_size_t capacity;

	if (!ready)
		pools_init();
	if (ksize <= KMSG_SMALL_SIZE) {
		list = &small_free;
		capacity = KMSG_SMALL_SIZE;
	} else if (ksize <= KMSG_BIG_SIZE) {
		list = &big_free;
		capacity = KMSG_BIG_SIZE;
	} else {
		return NULL;
	}
	kmsg = *list;
	if (kmsg == NULL)
		return NULL;
	*list = kmsg->next;
	kmsg->next = NULL;
	kmsg->capacity = capacity;
	return kmsg;
}

/* Give back @kmsg if it is a pool buffer; interrupts off. */
static bool cache_put(struct ipc_kmsg *kmsg)
{
	uintptr_t p = (uintptr_t)kmsg;

	if (p >= (uintptr_t)small &&
	    p < (uintptr_t)(small + KMSG_SMALL)) {
		kmsg->next = small_free;
		small_free = kmsg;
		return true;
	}
	if (p >= (uintptr_t)big && p < (uintptr_t)(big + KMSG_BIG)) {
		kmsg->next = big_free;
		big_free = kmsg;
		return true;
	}
	return false;
}

static unsigned int kmsgs_alive;

unsigned int ipc_kmsg_count(void)
{
	return kmsgs_alive;
}

/* A message of @ksize bytes, only its header zeroed, or NULL. */
struct ipc_kmsg *ipc_kmsg_alloc_dirty(mach_msg_size_t ksize)
{
	struct ipc_kmsg *kmsg;
	uint64_t flags;

	if (ksize < HDR || ksize > 2 * IPC_KMSG_MAX_SIZE)
		return NULL;
	flags = cpu_intr_save();
	kmsg = cache_get(ksize);
	if (kmsg == NULL) {
		kmsg = kalloc(offsetof(struct ipc_kmsg, header) + ksize);
		if (kmsg != NULL)
			kmsg->capacity = ksize;
	}
	if (kmsg != NULL)
		kmsgs_alive++;
	cpu_intr_restore(flags);
	if (kmsg == NULL)
		return NULL;
	kmsg->next = NULL;
	kmsg->stamp = 0;
	kmsg->usize = 0;
	__builtin_memset(&kmsg->header, 0, HDR);
	kmsg->header.size = ksize;
	return kmsg;
}

struct ipc_kmsg *ipc_kmsg_alloc(mach_msg_size_t ksize)
{
	struct ipc_kmsg *kmsg = ipc_kmsg_alloc_dirty(ksize);

	if (kmsg != NULL)
		memset(ipc_kmsg_body(kmsg), 0, ksize - HDR);
	return kmsg;
}

void ipc_kmsg_free(struct ipc_kmsg *kmsg)
{
	uint64_t flags = cpu_intr_save();

	kmsgs_alive--;
	if (!cache_put(kmsg))
		kfree(kmsg);
	cpu_intr_restore(flags);
}
