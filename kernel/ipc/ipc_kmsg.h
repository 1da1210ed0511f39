/* SPDX-License-Identifier: GPL-2.0-only */
/* Kernel messages: user layout in and out, kernel layout inside. */
#ifndef IPC_IPC_KMSG_H
#define IPC_IPC_KMSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mach/message.h>

#include "x86_64/cpu.h"

struct ipc_port;
struct ipc_space;
struct vm_map;

/*
 * Two layouts of one message (x86_64, as gnumach-dev and MIG define it):
 *
 * User layout (what mach_msg_trap reads and writes): a 32-byte
 * mach_msg_header_t whose port fields are 4-byte names (remote at 8,
 * local at 16), then typed items packed at 4 bytes: a 4-byte
 * mach_msg_type_t or a 12-byte mach_msg_type_long_t, then the data:
 * inline data of ceil(number * size / 8) bytes rounded up to 4; inline
 * port rights as 4-byte names (msgt_size 32); or, out of line, an 8-byte
 * address (4-byte aligned) of the data or of an array of 4-byte names.
 *
 * Kernel layout (what MIG's KERNEL_SERVER stubs, compiled with KERNEL so
 * that mach_port_t is 8 bytes, read and write): the same, except that the
 * header's ports are struct ipc_port pointers, inline port rights are
 * 8-byte pointers with msgt_size 64, an out-of-line port array is a
 * kalloc()ed array of pointers (msgt_size 64), and out-of-line memory is a
 * struct vm_map_copy pointer (NULL for none).  Port disposition fields
 * hold the carried type: MACH_MSG_TYPE_PORT_SEND, _PORT_SEND_ONCE or
 * _PORT_RECEIVE; a NULL pointer is MACH_PORT_NULL, IPC_PORT_DEAD is
 * MACH_PORT_DEAD.  header.remote is the destination right, header.local
 * the reply right; MACH_MSGH_BITS_REMOTE/LOCAL give their types.  A
 * message without MACH_MSGH_BITS_COMPLEX has its body taken verbatim (no
 * rights, and MIG's stubs reject port or out-of-line items in it).
 */
struct ipc_kmsg_header {
	mach_msg_bits_t bits;
	mach_msg_size_t size;		/* kernel layout, header included */
	struct ipc_port *remote;
	struct ipc_port *local;
	mach_port_seqno_t seqno;
	mach_msg_id_t id;
};

_Static_assert(sizeof(struct ipc_kmsg_header) == sizeof(mach_msg_header_t),
	       "kernel and user headers have one size on x86_64");
_Static_assert(offsetof(struct ipc_kmsg_header, remote) == 8 &&
	       offsetof(struct ipc_kmsg_header, local) == 16 &&
	       offsetof(struct ipc_kmsg_header, seqno) == 24,
	       "kernel header layout is GNU Mach's with 8-byte ports");

struct ipc_kmsg {
	struct ipc_kmsg *next;		/* queue link */
	struct ipc_kmsg **home;		/* the cache list it goes back to,
					 * NULL if it came from the heap */
	uint64_t stamp;			/* order of queueing, for port sets */
	mach_msg_size_t usize;		/* the size in the user layout */
	mach_msg_size_t capacity;	/* bytes from the header on */
	uint64_t flags;			/* IPC_KMSG_* */
	struct ipc_kmsg_header header;	/* the body follows */
};

/* kmsg->flags: a complex body that copyin found without port rights
 * and without regions to deallocate from the sender (inline data and
 * out-of-line memory only): no pass over it looks for rights. */
#define IPC_KMSG_PLAIN	1u

#define IPC_KMSG_MAX_SIZE	(1u << 20)	/* user layout, bytes */
#define IPC_KMSG_MAX_OOL_PORTS	(1u << 16)	/* per out-of-line array */

/* A message carrying the receive right of its own destination, or of a
 * port its destination's receive right travels in, is destroyed instead
 * of queued (GNU Mach's circular messages). */

/*
 * Locking: one CPU.  Functions that touch rights or queues expect
 * interrupts disabled (see kernel/ipc/README.md); ipc_kmsg_alloc, _free
 * and _destroy disable them themselves.  None blocks.
 */

/*
 * ipc_kmsg_alloc - a message of @ksize kernel-layout bytes (header
 * included), zeroed, header.size set.  NULL if @ksize is below the header,
 * above 2 * IPC_KMSG_MAX_SIZE, or memory is short.  For building kernel
 * messages (MIG replies, notifications): fill it in kernel layout.
 */
struct ipc_kmsg *ipc_kmsg_alloc(mach_msg_size_t ksize);

/*
 * ipc_kmsg_alloc_dirty - ipc_kmsg_alloc with only the header zeroed: for
 * builders that write every byte up to the size they set (copyin; MIG
 * stubs, which size a reply by what they wrote).  Small messages and MIG
 * replies come from a cache of static buffers (ipc_kmsg_alloc.c), others
 * from the heap.
 */
static inline struct ipc_kmsg *ipc_kmsg_alloc_dirty(mach_msg_size_t ksize);

/* ipc_kmsg_free - free the message only (its rights and memory must have
 * been taken or released). */
static inline void ipc_kmsg_free(struct ipc_kmsg *kmsg);

/*
 * The cache behind ipc_kmsg_alloc_dirty and ipc_kmsg_free
 * (ipc_kmsg_alloc.c): their common case, a small message from and back
 * to its list, is inline; the rest is ipc_kmsg_alloc_slow and
 * ipc_kmsg_free_heap.
 */
#define IPC_KMSG_SMALL_SIZE	480	/* kernel layout, header included */

struct ipc_kmsg_cache {
	struct ipc_kmsg *small;		/* free buffers of the small pool */
	unsigned int alive;		/* messages allocated, not freed */
};

extern struct ipc_kmsg_cache ipc_kmsg_cache;

struct ipc_kmsg *ipc_kmsg_alloc_slow(mach_msg_size_t ksize);
void ipc_kmsg_free_heap(struct ipc_kmsg *kmsg);

static inline struct ipc_kmsg *ipc_kmsg_alloc_dirty(mach_msg_size_t ksize)
{
	struct ipc_kmsg *kmsg = NULL;
	uint64_t flags = cpu_intr_save();

	if (ksize >= sizeof(struct ipc_kmsg_header) &&
	    ksize <= IPC_KMSG_SMALL_SIZE && ipc_kmsg_cache.small != NULL) {
		kmsg = ipc_kmsg_cache.small;
		ipc_kmsg_cache.small = kmsg->next;
		ipc_kmsg_cache.alive++;
	}
	cpu_intr_restore(flags);
	if (kmsg == NULL)
		return ipc_kmsg_alloc_slow(ksize);
	kmsg->next = NULL;
	kmsg->stamp = 0;
	kmsg->usize = 0;
	kmsg->flags = 0;
	__builtin_memset(&kmsg->header, 0, sizeof(kmsg->header));
	kmsg->header.size = ksize;
	return kmsg;
}

static inline void ipc_kmsg_free(struct ipc_kmsg *kmsg)
{
	uint64_t flags;

	if (kmsg->home == NULL) {
		ipc_kmsg_free_heap(kmsg);
		return;
	}
	flags = cpu_intr_save();
	kmsg->next = *kmsg->home;
	*kmsg->home = kmsg;
	ipc_kmsg_cache.alive--;
	cpu_intr_restore(flags);
}

/* ipc_kmsg_destroy - release every right and out-of-line region in the
 * message, then free it.  Destruction that destroys further messages
 * (a receive right inside) is done iteratively, not recursively. */
void ipc_kmsg_destroy(struct ipc_kmsg *kmsg);

/* The message as a mach_msg_header_t in kernel layout, for MIG stubs
 * compiled with KERNEL. */
static inline mach_msg_header_t *ipc_kmsg_msg(struct ipc_kmsg *kmsg)
{
	return (mach_msg_header_t *)(void *)&kmsg->header;
}

/* The kernel-layout body, right after the header. */
static inline uint8_t *ipc_kmsg_body(struct ipc_kmsg *kmsg)
{
	return (uint8_t *)(&kmsg->header + 1);
}

/*
 * ipc_kmsg_usize - the user-layout size of @kmsg, a well-formed
 * kernel-layout message (a malformed one is a kernel bug: panic).
 */
mach_msg_size_t ipc_kmsg_usize(const struct ipc_kmsg *kmsg);

/*
 * Copyin, in two steps (seL4's decode, then invoke).
 *
 * ipc_kmsg_copyin_decode - validate the user-layout message at @umsg of
 * @usize bytes for sending from @space: size, header bits and names, every
 * type descriptor and length, the rights (reserved, not taken: see
 * ipc_right_reserve), out-of-line port names (read from @map) and memory
 * (snapshots taken with vm_map_copyin from @map).  @map NULL means a
 * kernel buffer: out-of-line items are refused.  On success *@c holds
 * the half-built message and the destination port; finish with _commit or
 * _abort before anything else touches @space.  Returns MACH_MSG_SUCCESS,
 * MACH_SEND_MSG_TOO_SMALL, MACH_SEND_NO_BUFFER, MACH_SEND_INVALID_HEADER,
 * MACH_SEND_INVALID_DEST, MACH_SEND_INVALID_REPLY, MACH_SEND_INVALID_TYPE,
 * MACH_SEND_INVALID_RIGHT or MACH_SEND_INVALID_MEMORY; on failure nothing
 * changed and nothing is held.
 *
 * ipc_kmsg_copyin_abort - forget a decoded message: nothing changed.
 *
 * ipc_kmsg_copyin_commit - take the rights out of @space (cannot fail on
 * anything the task sent), deallocate out-of-line regions sent with
 * msgt_deallocate, and return the kernel-layout message in c->kmsg.
 * Returns MACH_MSG_SUCCESS (decode checked every right, and nothing may
 * touch @space in between).
 */
struct ipc_kmsg_copyin {
	struct ipc_space *space;
	struct vm_map *map;
	const uint8_t *umsg;
	mach_msg_size_t usize;
	struct ipc_kmsg *kmsg;		/* out */
	struct ipc_port *dest;		/* out: destination, no reference */
	mach_msg_type_name_t dest_type;	/* out: its disposition */
	struct ipc_entry *dest_entry;	/* the entries decode found */
	struct ipc_entry *reply_entry;
	size_t kdone;			/* kernel body bytes completed */
};

mach_msg_return_t ipc_kmsg_copyin_decode(struct ipc_kmsg_copyin *c);
void ipc_kmsg_copyin_abort(struct ipc_kmsg_copyin *c);
mach_msg_return_t ipc_kmsg_copyin_commit(struct ipc_kmsg_copyin *c);

/*
 * Where a received message is written: a kernel buffer (@kbuf) or user
 * memory of the active map (@uaddr, through copyout).  @fault is set when
 * a write failed.
 */
struct ipc_msg_buf {
	uint8_t *kbuf;
	uint64_t uaddr;
	bool fault;
};

/*
 * ipc_kmsg_copyout - deliver @kmsg to @space: the reply right and the
 * body's rights get names in @space, out-of-line memory and port arrays
 * are mapped in @map (NULL for a kernel buffer: they are destroyed and
 * their addresses written as 0), the destination right is consumed (its
 * name is the receive right's), and the user-layout message
 * (kmsg->usize bytes) is written to @out.  The message is consumed.
 * Returns MACH_MSG_SUCCESS; MACH_RCV_HEADER_ERROR with MACH_MSG_IPC_SPACE
 * or _IPC_KERNEL (no name for the reply right: the message is then
 * destroyed and only its header written, as ipc_kmsg_copyout_dest does);
 * MACH_RCV_BODY_ERROR with MACH_MSG_IPC_SPACE, _IPC_KERNEL, _VM_SPACE or
 * _VM_KERNEL (some body item could not be delivered: its rights were
 * destroyed and it reads MACH_PORT_NULL or address 0; the rest was
 * delivered); or MACH_RCV_INVALID_DATA if @out could not be written.
 */
mach_msg_return_t ipc_kmsg_copyout(struct ipc_kmsg *kmsg,
				   struct ipc_space *space,
				   struct vm_map *map,
				   struct ipc_msg_buf *out);

/*
 * ipc_kmsg_copyout_dest - deliver only the header of @kmsg to @space:
 * its destination's name, no reply port (the reply right is destroyed),
 * msgh_size the user-layout size; the body is destroyed.  Writes the
 * 32-byte header to @out and consumes the message.
 */
void ipc_kmsg_copyout_dest(struct ipc_kmsg *kmsg, struct ipc_space *space,
			   struct ipc_msg_buf *out);

/*
 * ipc_kmsg_attach_receive_rights - make header.remote (valid) the
 * destination of every receive right @kmsg carries; returns true if one
 * of them is the destination itself or holds it, through messages in
 * transit (the message must then be destroyed, not queued).  Interrupts
 * off.
 */
bool ipc_kmsg_attach_receive_rights(struct ipc_kmsg *kmsg);

/* Messages allocated and not yet freed (for tests and leak checks). */
unsigned int ipc_kmsg_count(void);

#endif
