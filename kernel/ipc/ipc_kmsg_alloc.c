/* SPDX-License-Identifier: GPL-2.0-only */
/* Kernel message buffers: a cache of static ones, the heap behind it. */
/*
 * Three pools of buffers in the kernel image (.bss), so that taking one
 * moves no heap or page counter: KMSG_SMALL buffers for kernel-layout
 * messages up to IPC_KMSG_SMALL_SIZE bytes (header included: every null
 * RPC, MIG request and notification), KMSG_FRAME buffers up to
 * KMSG_FRAME_SIZE (a net_rcv_msg holding a whole Ethernet frame, which
 * the packet filter queues up to a port's limit of 16: two ports' worth)
 * and KMSG_BIG buffers up to KMSG_BIG_SIZE (MIG replies, which reserve
 * room for the largest one).
 * Each pool is an array and a free list threaded through the queue
 * links, built on first use; each buffer knows its list (kmsg->home).
 * The small pool's common case is inline in ipc_kmsg.h.  An empty pool,
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
#define ROUND16(n)	(((n) + 15) & ~(size_t)15)
#define KMSG_SMALL	32
#define KMSG_FRAME	32
#define KMSG_FRAME_SIZE	1664	/* 104-byte net_rcv_msg head, 4 + 1500 */
#define KMSG_BIG	4
#define KMSG_BIG_SIZE	8160

union small_buf {
	struct ipc_kmsg kmsg;
	uint8_t bytes[ROUND16(LINK + IPC_KMSG_SMALL_SIZE)];
};

union frame_buf {
	struct ipc_kmsg kmsg;
	uint8_t bytes[ROUND16(LINK + KMSG_FRAME_SIZE)];
};

union big_buf {
	struct ipc_kmsg kmsg;
	uint8_t bytes[ROUND16(LINK + KMSG_BIG_SIZE)];
};

_Static_assert(sizeof(union small_buf) % 16 == 0 &&
	       sizeof(union frame_buf) % 16 == 0 &&
	       sizeof(union big_buf) % 16 == 0,
	       "pool buffers keep the 16-byte alignment of kalloc");

struct ipc_kmsg_cache ipc_kmsg_cache;

static union small_buf small[KMSG_SMALL] __attribute__((aligned(16)));
static union frame_buf frame[KMSG_FRAME] __attribute__((aligned(16)));
static union big_buf big[KMSG_BIG] __attribute__((aligned(16)));
static struct ipc_kmsg *frame_free, *big_free;
static bool ready;

/* Thread the pools on their lists; interrupts off. */
static void pools_init(void)
{
	for (unsigned int i = 0; i < KMSG_SMALL; i++) {
		small[i].kmsg.capacity = IPC_KMSG_SMALL_SIZE;
		small[i].kmsg.home = &ipc_kmsg_cache.small;
		small[i].kmsg.next = ipc_kmsg_cache.small;
		ipc_kmsg_cache.small = &small[i].kmsg;
	}
	for (unsigned int i = 0; i < KMSG_FRAME; i++) {
		frame[i].kmsg.capacity = KMSG_FRAME_SIZE;
		frame[i].kmsg.home = &frame_free;
		frame[i].kmsg.next = frame_free;
		frame_free = &frame[i].kmsg;
	}
	for (unsigned int i = 0; i < KMSG_BIG; i++) {
		big[i].kmsg.capacity = KMSG_BIG_SIZE;
		big[i].kmsg.home = &big_free;
		big[i].kmsg.next = big_free;
		big_free = &big[i].kmsg;
	}
	ready = true;
}

unsigned int ipc_kmsg_count(void)
{
	return ipc_kmsg_cache.alive;
}

struct ipc_kmsg *ipc_kmsg_alloc_slow(mach_msg_size_t ksize)
{
	struct ipc_kmsg **list = NULL, *kmsg = NULL;
	uint64_t flags;

	if (ksize < HDR || ksize > 2 * IPC_KMSG_MAX_SIZE)
		return NULL;
	flags = cpu_intr_save();
	if (!ready)
		pools_init();
	if (ksize <= IPC_KMSG_SMALL_SIZE)
		list = &ipc_kmsg_cache.small;
	else if (ksize <= KMSG_FRAME_SIZE && frame_free != NULL)
		list = &frame_free;
	else if (ksize <= KMSG_BIG_SIZE)
		list = &big_free;
	if (list != NULL && *list != NULL) {
		kmsg = *list;
		*list = kmsg->next;
	} else {
		kmsg = kalloc(LINK + ksize);
		if (kmsg != NULL) {
			kmsg->capacity = ksize;
			kmsg->home = NULL;
		}
	}
	if (kmsg != NULL)
		ipc_kmsg_cache.alive++;
	cpu_intr_restore(flags);
	if (kmsg == NULL)
		return NULL;
	kmsg->next = NULL;
	kmsg->stamp = 0;
	kmsg->usize = 0;
	kmsg->flags = 0;
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

void ipc_kmsg_free_heap(struct ipc_kmsg *kmsg)
{
	uint64_t flags = cpu_intr_save();

	ipc_kmsg_cache.alive--;
	kfree(kmsg);
	cpu_intr_restore(flags);
}
