/* SPDX-License-Identifier: GPL-2.0-only */
/* A cache of message buffers in static memory: no heap trip per message. */
#ifndef IPC_IPC_KMSG_CACHE_H
#define IPC_IPC_KMSG_CACHE_H

#include <stdbool.h>

#include <mach/message.h>

struct ipc_kmsg;

/*
 * Two pools of buffers in the kernel image (.bss), so that taking one
 * changes no heap or page counter: IPC_KMSG_CACHE_SMALL buffers for
 * kernel-layout messages up to IPC_KMSG_CACHE_SMALL_SIZE bytes (header
 * included; every null RPC, MIG request and notification), and
 * IPC_KMSG_CACHE_BIG buffers up to IPC_KMSG_CACHE_BIG_SIZE (MIG replies,
 * which reserve room for the largest one).  When a pool is empty the
 * caller falls back to the heap.
 *
 * Locking: interrupts off (the IPC state is held).  Never blocks.
 */
#define IPC_KMSG_CACHE_SMALL		32
#define IPC_KMSG_CACHE_SMALL_SIZE	488
#define IPC_KMSG_CACHE_BIG		4
#define IPC_KMSG_CACHE_BIG_SIZE		8168

/* ipc_kmsg_cache_get - a buffer whose capacity is at least @ksize bytes
 * from the header on, not zeroed (kmsg->capacity is the pool's size); NULL
 * if @ksize fits no pool or its pool is empty. */
struct ipc_kmsg *ipc_kmsg_cache_get(mach_msg_size_t ksize);

/* ipc_kmsg_cache_put - give @kmsg back if it is a cache buffer (returns
 * true); false means it came from the heap and the caller frees it. */
bool ipc_kmsg_cache_put(struct ipc_kmsg *kmsg);

#endif
