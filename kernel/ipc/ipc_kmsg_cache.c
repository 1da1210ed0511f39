/* SPDX-License-Identifier: GPL-2.0-only */
/* A cache of message buffers in static memory: no heap trip per message. */
/*
 * Each pool is an array of equal buffers and a free list threaded through
 * their queue links, built on first use.  A buffer is recognised on
 * release by its address lying in a pool.  Buffers are handed out dirty:
 * ipc_kmsg_alloc zeroes what its callers need.
 */
#include <stddef.h>
#include <stdint.h>

#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_kmsg_cache.h"

#define LINK	offsetof(struct ipc_kmsg, header)

union small_buf {
	struct ipc_kmsg kmsg;
	uint8_t bytes[LINK + IPC_KMSG_CACHE_SMALL_SIZE];
};

union big_buf {
	struct ipc_kmsg kmsg;
	uint8_t bytes[LINK + IPC_KMSG_CACHE_BIG_SIZE];
};

_Static_assert(sizeof(union small_buf) % 16 == 0 &&
	       sizeof(union big_buf) % 16 == 0,
	       "pool buffers keep the 16-byte alignment of kalloc");

static union small_buf small[IPC_KMSG_CACHE_SMALL]
	__attribute__((aligned(16)));
static union big_buf big[IPC_KMSG_CACHE_BIG] __attribute__((aligned(16)));
static struct ipc_kmsg *small_free, *big_free;
static bool ready;

static void pools_init(void)
{
	for (unsigned int i = 0; i < IPC_KMSG_CACHE_SMALL; i++) {
		small[i].kmsg.next = small_free;
		small_free = &small[i].kmsg;
	}
	for (unsigned int i = 0; i < IPC_KMSG_CACHE_BIG; i++) {
		big[i].kmsg.next = big_free;
		big_free = &big[i].kmsg;
	}
	ready = true;
}

struct ipc_kmsg *ipc_kmsg_cache_get(mach_msg_size_t ksize)
{
	struct ipc_kmsg **list;
	struct ipc_kmsg *kmsg;
	mach_msg_size_t capacity;

	if (!ready)
		pools_init();
	if (ksize <= IPC_KMSG_CACHE_SMALL_SIZE) {
		list = &small_free;
		capacity = IPC_KMSG_CACHE_SMALL_SIZE;
	} else if (ksize <= IPC_KMSG_CACHE_BIG_SIZE) {
		list = &big_free;
		capacity = IPC_KMSG_CACHE_BIG_SIZE;
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

bool ipc_kmsg_cache_put(struct ipc_kmsg *kmsg)
{
	uintptr_t p = (uintptr_t)kmsg;

	if (p >= (uintptr_t)small &&
	    p < (uintptr_t)(small + IPC_KMSG_CACHE_SMALL)) {
		kmsg->next = small_free;
		small_free = kmsg;
		return true;
	}
	if (p >= (uintptr_t)big && p < (uintptr_t)(big + IPC_KMSG_CACHE_BIG)) {
		kmsg->next = big_free;
		big_free = kmsg;
		return true;
	}
	return false;
}
