/* SPDX-License-Identifier: GPL-2.0-only */
/* Kernel messages: decode and copy in, copy out, destroy. */
/*
 * Copyin is seL4's decode-then-invoke.  Decode reads the user-layout
 * message (already in kernel memory) twice: once to validate every
 * descriptor and size the kernel layout, once to build the kernel-layout
 * message with names still in the port slots, reserving each right in the
 * sender's space (ipc_right_reserve) and snapshotting out-of-line memory.
 * Anything wrong - a bad header bit, a short item, a name without the
 * right, an unreadable region - is returned as the Mach error with
 * nothing changed.  Commit then turns the names into rights in the order
 * decode reserved them, which therefore cannot fail.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipc/ipc_entry.h"
#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_notify.h"
#include "ipc/ipc_port.h"
#include "ipc/ipc_right.h"
#include "ipc/ipc_space.h"
#include "kern/kalloc.h"
#include "kern/panic.h"
#include "kern/string.h"
#include "vm/vm_map.h"
#include "x86_64/copy.h"
#include "x86_64/cpu.h"

#define HDR	sizeof(struct ipc_kmsg_header)

/* Unaligned accesses to message bytes.  Here and below, copies of a fixed
 * size use __builtin_memcpy / __builtin_memset: the kernel builds with
 * -ffreestanding, where memcpy is always a call. */
static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static void wr64(uint8_t *p, uint64_t v)
{
	__builtin_memcpy(p, &v, sizeof(v));
}

/* Copy a descriptor or a few words of inline data (@len a multiple of
 * 4) without a call; longer data with memcpy. */
static void copy_words(uint8_t *dst, const uint8_t *src, size_t len)
{
	if (len > 16) {
		memcpy(dst, src, len);
		return;
	}
	for (size_t i = 0; i < len; i += 4)
		__builtin_memcpy(dst + i, src + i, 4);
}

static struct ipc_port *rdport(const uint8_t *p)
{
	return (struct ipc_port *)(uintptr_t)rd64(p);
}

/* One typed item of a message body, in either layout. */
struct item {
	size_t off;			/* of its type descriptor */
	size_t desc_len;		/* 4, or 12 in long form */
	size_t data_off;
	size_t data_len;		/* bytes the data takes here, padded */
	uint64_t ool_bytes;		/* out-of-line data: its length */
	mach_msg_type_name_t name;
	mach_msg_type_size_t size;	/* bits per element */
	mach_msg_type_number_t number;
	bool is_inline;
	bool dealloc;
	bool port;			/* MACH_MSG_TYPE_PORT_ANY(name) */
};

/*
 * Parse the item at @off of the @end-byte message @msg in the user or
 * (@kernel) kernel layout.  Returns MACH_MSG_SUCCESS,
 * MACH_SEND_MSG_TOO_SMALL (descriptor or data beyond @end) or
 * MACH_SEND_INVALID_TYPE (port rights of a size other than the layout's).
 */
static inline __attribute__((always_inline)) mach_msg_return_t
item_read(const uint8_t *msg, size_t off, size_t end, bool kernel,
	  struct item *it)
{
	mach_msg_type_t t;
	uint64_t bytes;

	if (end - off < sizeof(t))
		return MACH_SEND_MSG_TOO_SMALL;
	__builtin_memcpy(&t, msg + off, sizeof(t));
	it->off = off;
	it->is_inline = t.msgt_inline;
	it->dealloc = t.msgt_deallocate;
	if (t.msgt_longform) {
		mach_msg_type_long_t tl;

		if (end - off < sizeof(tl))
			return MACH_SEND_MSG_TOO_SMALL;
		__builtin_memcpy(&tl, msg + off, sizeof(tl));
		it->desc_len = sizeof(tl);
		it->name = tl.msgtl_name;
		it->size = tl.msgtl_size;
		it->number = tl.msgtl_number;
	} else {
		it->desc_len = sizeof(t);
		it->name = t.msgt_name;
		it->size = t.msgt_size;
		it->number = t.msgt_number;
	}
	it->data_off = off + it->desc_len;
	it->port = MACH_MSG_TYPE_PORT_ANY(it->name);
	if (it->port && it->size != (kernel ? 64 : 32))
		return MACH_SEND_INVALID_TYPE;
	it->ool_bytes = ((uint64_t)it->number * it->size + 7) / 8;
	if (!it->is_inline)
		bytes = 8;
	else if (it->port)
		bytes = (uint64_t)it->number * (kernel ? 8 : 4);
	else
		bytes = (it->ool_bytes + 3) & ~3ull;
	if (bytes > end - it->data_off)
		return MACH_SEND_MSG_TOO_SMALL;
	it->data_len = (size_t)bytes;
	return MACH_MSG_SUCCESS;
}

/* item_read, called: for the passes off the common path. */
static mach_msg_return_t item_parse(const uint8_t *msg, size_t off, size_t end,
				    bool kernel, struct item *it)
{
	return item_read(msg, off, end, kernel, it);
}

/* Rewrite the name and size of the descriptor at @desc (of item @it). */
static void item_set(uint8_t *desc, const struct item *it,
		     mach_msg_type_name_t name, unsigned int size)
{
	if (it->desc_len == sizeof(mach_msg_type_long_t)) {
		mach_msg_type_long_t tl;

		__builtin_memcpy(&tl, desc, sizeof(tl));
		tl.msgtl_name = name;
		tl.msgtl_size = size;
		__builtin_memcpy(desc, &tl, sizeof(tl));
	} else {
		mach_msg_type_t t;

		__builtin_memcpy(&t, desc, sizeof(t));
		t.msgt_name = name;
		t.msgt_size = size;
		__builtin_memcpy(desc, &t, sizeof(t));
	}
}

/* The kernel-layout item at @off of @kmsg, whose body the kernel built or
 * checked: a parse failure is a kernel bug. */
static void kitem(const struct ipc_kmsg *kmsg, size_t off, size_t end,
		  struct item *it)
{
	if (item_parse((const uint8_t *)&kmsg->header, off, end, true, it) !=
	    MACH_MSG_SUCCESS)
		panic("ipc: malformed kernel message %p (id %d) at %zu",
		      (void *)kmsg, kmsg->header.id, off);
}

mach_msg_size_t ipc_kmsg_usize(const struct ipc_kmsg *kmsg)
{
	size_t ksize = kmsg->header.size, off = HDR;
	mach_msg_size_t usize = (mach_msg_size_t)ksize;
	struct item it;

	if (ksize < HDR || ksize > kmsg->capacity)
		panic("ipc: kernel message %p has size %zu of %u",
		      (void *)kmsg, ksize, kmsg->capacity);
	if (!(kmsg->header.bits & MACH_MSGH_BITS_COMPLEX) ||
	    (kmsg->flags & IPC_KMSG_PLAIN))
		return usize;
	while (off < ksize) {
		kitem(kmsg, off, ksize, &it);
		if (it.port && it.is_inline)
			usize -= 4 * it.number;
		off = it.data_off + it.data_len;
	}
	return usize;
}

bool ipc_kmsg_attach_receive_rights(struct ipc_kmsg *kmsg)
{
	struct ipc_port *dest = kmsg->header.remote;
	uint8_t *k = (uint8_t *)&kmsg->header;
	size_t ksize = kmsg->header.size, off = HDR;
	bool circular = false;
	struct item it;

	if (!(kmsg->header.bits & MACH_MSGH_BITS_COMPLEX) ||
	    (kmsg->flags & IPC_KMSG_PLAIN))
		return false;
	while (off < ksize) {
		uint8_t *slots;

		kitem(kmsg, off, ksize, &it);
		off = it.data_off + it.data_len;
		if (it.name != MACH_MSG_TYPE_PORT_RECEIVE)
			continue;
		slots = k + it.data_off;
		if (!it.is_inline)
			slots = (uint8_t *)(uintptr_t)rd64(slots);
		if (slots == NULL)
			continue;
		for (mach_msg_type_number_t i = 0; i < it.number; i++) {
			struct ipc_port *p = rdport(slots + 8 * i);
			struct ipc_port *old;

			if (!IPC_PORT_VALID(p))
				continue;
			if (ipc_port_check_circularity(p, dest)) {
				/* No cycle of destinations, ever: the
				 * message is destroyed instead. */
				circular = true;
				continue;
			}
			old = p->destination;
			ipc_port_reference(dest);
			p->destination = dest;
			if (old != NULL)
				ipc_port_release(old);
		}
	}
	return circular;
}

/*
 * Destruction.  Releasing a receive right destroys its port, whose queued
 * messages are destroyed in turn: the pending list makes that a loop.
 */
static struct ipc_kmsg *destroy_list;
static bool destroying;

static void clean_rights(struct ipc_port **ports, mach_msg_type_number_t n,
			 mach_msg_type_name_t type)
{
	for (mach_msg_type_number_t i = 0; i < n; i++)
		ipc_port_destroy_right(ports[i], type);
}

static void clean_body(struct ipc_kmsg *kmsg)
{
	uint8_t *k = (uint8_t *)&kmsg->header;
	size_t ksize = kmsg->header.size, off = HDR;
	struct item it;

	while (off < ksize) {
		kitem(kmsg, off, ksize, &it);
		if (it.port && it.is_inline) {
			for (mach_msg_type_number_t i = 0; i < it.number; i++) {
				ipc_port_destroy_right(
					rdport(k + it.data_off + 8 * i),
					it.name);
			}
		} else if (it.port) {
			struct ipc_port **arr = (struct ipc_port **)(uintptr_t)
				rd64(k + it.data_off);

			if (arr != NULL) {
				clean_rights(arr, it.number, it.name);
				kfree(arr);
			}
		} else if (!it.is_inline) {
			struct vm_map_copy *copy = (struct vm_map_copy *)
				(uintptr_t)rd64(k + it.data_off);

			if (copy != NULL)
				vm_map_copy_discard(copy);
		}
		if (!it.is_inline)
			wr64(k + it.data_off, 0);
		off = it.data_off + it.data_len;
	}
}

static void clean(struct ipc_kmsg *kmsg)
{
	struct ipc_kmsg_header *h = &kmsg->header;

	ipc_port_destroy_right(h->remote, MACH_MSGH_BITS_REMOTE(h->bits));
	ipc_port_destroy_right(h->local, MACH_MSGH_BITS_LOCAL(h->bits));
	h->remote = h->local = NULL;
	if (h->bits & MACH_MSGH_BITS_COMPLEX)
		clean_body(kmsg);
}

void ipc_kmsg_destroy(struct ipc_kmsg *kmsg)
{
	uint64_t flags = cpu_intr_save();

	kmsg->next = destroy_list;
	destroy_list = kmsg;
	if (!destroying) {
		destroying = true;
		while (destroy_list != NULL) {
			kmsg = destroy_list;
			destroy_list = kmsg->next;
			clean(kmsg);
			ipc_kmsg_free(kmsg);
		}
		destroying = false;
	}
	cpu_intr_restore(flags);
}

/*
 * Copyin.
 */

/*
 * The items body_measure parsed, which body_decode then reads instead of
 * parsing them again: the first ITEMS_KEPT of a body (a MIG request has
 * a few); @n is how many the body has.
 */
#define ITEMS_KEPT	6

struct items {
	struct item kept[ITEMS_KEPT];
	size_t n;
};

/* Validate the body of the user-layout message @u of @usize bytes and
 * compute its kernel-layout size; its first items go to @items. */
static mach_msg_return_t body_measure(const uint8_t *u, mach_msg_size_t usize,
				      mach_msg_size_t *ksize, bool *plain,
				      struct items *items)
{
	size_t off = HDR, extra = 0;
	struct item spare;
	mach_msg_return_t mr;

	*plain = true;
	items->n = 0;
	while (off < usize) {
		struct item *it = items->n < ITEMS_KEPT ?
				  &items->kept[items->n] : &spare;

		mr = item_read(u, off, usize, false, it);
		if (mr != MACH_MSG_SUCCESS)
			return mr;
		if (it->port && it->is_inline)
			extra += 4 * (size_t)it->number;	/* names grow */
		if (it->port || (!it->is_inline && it->dealloc))
			*plain = false;
		off = it->data_off + it->data_len;
		items->n++;
	}
	if (usize + extra > 2 * IPC_KMSG_MAX_SIZE)
		return MACH_SEND_NO_BUFFER;
	*ksize = (mach_msg_size_t)(usize + extra);
	return MACH_MSG_SUCCESS;
}

/* Reserve the right each valid name of @names (in @stride-byte slots)
 * gives with disposition @msgt_name. */
static mach_msg_return_t reserve_names(struct ipc_space *space,
				       const uint8_t *names, size_t stride,
				       mach_msg_type_number_t n,
				       mach_msg_type_name_t msgt_name)
{
	for (mach_msg_type_number_t i = 0; i < n; i++) {
		mach_port_name_t name = rd32(names + stride * i);

		if (MACH_PORT_VALID(name) &&
		    ipc_right_reserve(space, name, msgt_name, true) !=
			    KERN_SUCCESS)
			return MACH_SEND_INVALID_RIGHT;
	}
	return MACH_MSG_SUCCESS;
}

/* Read the @n names at user address @addr into a new array of @n 8-byte
 * slots (names in the low halves) in *@arrp. */
static mach_msg_return_t read_ool_names(uint64_t addr,
					mach_msg_type_number_t n,
					struct ipc_port ***arrp)
{
	uint8_t *arr;

	*arrp = NULL;
	if (n == 0)
		return MACH_MSG_SUCCESS;
	if (n > IPC_KMSG_MAX_OOL_PORTS)
		return MACH_SEND_NO_BUFFER;
	arr = kalloc(8 * (size_t)n);
	if (arr == NULL)
		return MACH_SEND_NO_BUFFER;
	if (copyin((const void *)(uintptr_t)addr, arr, 4 * (size_t)n) != 0) {
		kfree(arr);
		return MACH_SEND_INVALID_MEMORY;
	}
	/* Widen in place, from the end so nothing is overwritten early. */
	for (mach_msg_type_number_t i = n; i-- > 0;)
		wr64(arr + 8 * i, rd32(arr + 4 * i));
	*arrp = (struct ipc_port **)(void *)arr;
	return MACH_MSG_SUCCESS;
}

/* Snapshot @size bytes of out-of-line data at @addr of the sender: a
 * message the kernel receives (a kernel object's port) takes only the
 * bytes when they are few (vm_map_copyin_bytes; a device_write's
 * frame), a task's receiver whole pages (vm_map_copyin). */
static kern_return_t copyin_ool(const struct ipc_kmsg_copyin *c,
				uint64_t addr, uint64_t size,
				struct vm_map_copy **copy)
{
	if (c->dest->kotype != IKOT_NONE)
		return vm_map_copyin_bytes(c->map, addr, size, copy);
	return vm_map_copyin(c->map, addr, size, false, copy);
}

/* A plain body (no port rights, nothing to deallocate: IPC_KMSG_PLAIN)
 * of at most ITEMS_KEPT items has one layout in user and kernel memory
 * but for its out-of-line items' slots, addresses there and copies
 * here: it is copied whole, then each out-of-line item snapshotted in
 * order (c->kdone past the items whose slot holds a copy). */
static mach_msg_return_t body_decode_plain(struct ipc_kmsg_copyin *c,
					   const struct items *items)
{
	const uint8_t *u = c->umsg;
	uint8_t *k = (uint8_t *)&c->kmsg->header;

	memcpy(k + HDR, u + HDR, c->usize - HDR);
	for (size_t i = 0; i < items->n; i++) {
		const struct item *it = &items->kept[i];

		if (!it->is_inline) {
			struct vm_map_copy *copy = NULL;

			if (c->map == NULL)
				return MACH_SEND_INVALID_TYPE;
			if (it->ool_bytes != 0 &&
			    copyin_ool(c, rd64(u + it->data_off),
				       it->ool_bytes, &copy) != KERN_SUCCESS)
				return MACH_SEND_INVALID_MEMORY;
			wr64(k + it->data_off, (uintptr_t)copy);
		}
		c->kdone = it->data_off + it->data_len;
	}
	return MACH_MSG_SUCCESS;
}

/* Build the kernel-layout body of c->kmsg from the @items body_measure
 * parsed, reserving rights and taking out-of-line snapshots; c->kdone
 * tracks the items completed. */
static mach_msg_return_t body_decode(struct ipc_kmsg_copyin *c,
				     const struct items *items, bool plain)
{
	const uint8_t *u = c->umsg;
	uint8_t *k = (uint8_t *)&c->kmsg->header;
	size_t uoff = HDR, koff = HDR;
	struct item parsed;
	mach_msg_return_t mr;

	c->kdone = HDR;
	if (plain && items->n <= ITEMS_KEPT)
		return body_decode_plain(c, items);
	for (size_t n = 0; uoff < c->usize; n++) {
		const struct item *it = &parsed;
		size_t kd;

		if (n < ITEMS_KEPT) {
			it = &items->kept[n];
		} else {
			mr = item_parse(u, uoff, c->usize, false, &parsed);
			if (mr != MACH_MSG_SUCCESS)
				return mr;	/* measured: cannot happen */
		}
		copy_words(k + koff, u + uoff, it->desc_len);
		kd = koff + it->desc_len;
		if (it->port)
			item_set(k + koff, it, it->name, 64);

		if (it->is_inline && !it->port) {
			copy_words(k + kd, u + it->data_off, it->data_len);
			kd += it->data_len;
		} else if (it->is_inline) {
			for (mach_msg_type_number_t i = 0; i < it->number; i++)
				wr64(k + kd + 8 * i,
				     rd32(u + it->data_off + 4 * i));
			mr = reserve_names(c->space, u + it->data_off, 4,
					   it->number, it->name);
			if (mr != MACH_MSG_SUCCESS)
				return mr;
			kd += 8 * (size_t)it->number;
		} else if (c->map == NULL) {
			return MACH_SEND_INVALID_TYPE;
		} else if (it->port) {
			struct ipc_port **arr;

			mr = read_ool_names(rd64(u + it->data_off), it->number,
					    &arr);
			if (mr != MACH_MSG_SUCCESS)
				return mr;
			mr = reserve_names(c->space, (const uint8_t *)arr, 8,
					   it->number, it->name);
			if (mr != MACH_MSG_SUCCESS) {
				kfree(arr);
				return mr;
			}
			wr64(k + kd, (uintptr_t)arr);
			kd += 8;
		} else {
			struct vm_map_copy *copy = NULL;

			if (it->ool_bytes != 0 &&
			    copyin_ool(c, rd64(u + it->data_off),
				       it->ool_bytes, &copy) != KERN_SUCCESS)
				return MACH_SEND_INVALID_MEMORY;
			wr64(k + kd, (uintptr_t)copy);
			kd += 8;
		}
		koff = kd;
		c->kdone = koff;
		uoff = it->data_off + it->data_len;
	}
	return MACH_MSG_SUCCESS;
}

void ipc_kmsg_copyin_abort(struct ipc_kmsg_copyin *c)
{
	struct ipc_kmsg *kmsg = c->kmsg;
	uint8_t *k;
	size_t off = HDR;
	struct item it;

	ipc_right_reserve_clear(c->space);
	if (kmsg == NULL)
		return;
	k = (uint8_t *)&kmsg->header;
	if (kmsg->header.bits & MACH_MSGH_BITS_COMPLEX) {
		/* Names are not rights yet: only memory to give back. */
		while (off < c->kdone) {
			kitem(kmsg, off, c->kdone, &it);
			if (!it.is_inline && it.port)
				kfree((void *)(uintptr_t)rd64(k + it.data_off));
			else if (!it.is_inline && rd64(k + it.data_off) != 0)
				vm_map_copy_discard((struct vm_map_copy *)
					(uintptr_t)rd64(k + it.data_off));
			off = it.data_off + it.data_len;
		}
	}
	ipc_kmsg_free(kmsg);
	c->kmsg = NULL;
}

mach_msg_return_t ipc_kmsg_copyin_decode(struct ipc_kmsg_copyin *c)
{
	struct ipc_space *space = c->space;
	mach_msg_type_name_t dest_type, reply_type;
	mach_port_name_t dest_name, reply_name;
	mach_msg_size_t ksize = c->usize;
	mach_msg_header_t uh;
	mach_msg_return_t mr, body_mr = MACH_MSG_SUCCESS;
	struct ipc_entry *e;
	struct items items;
	bool reserve, plain = false;

	c->kmsg = NULL;
	c->dest = NULL;
	c->kdone = HDR;
	if (c->usize < sizeof(uh) || (c->usize & 3))
		return MACH_SEND_MSG_TOO_SMALL;
	if (c->usize > IPC_KMSG_MAX_SIZE)
		return MACH_SEND_NO_BUFFER;
	__builtin_memcpy(&uh, c->umsg, sizeof(uh));
	if (uh.msgh_bits &
	    ~(MACH_MSGH_BITS_COMPLEX | MACH_MSGH_BITS_PORTS_MASK))
		return MACH_SEND_INVALID_HEADER;
	dest_type = MACH_MSGH_BITS_REMOTE(uh.msgh_bits);
	reply_type = MACH_MSGH_BITS_LOCAL(uh.msgh_bits);
	dest_name = uh.msgh_remote_port;
	reply_name = uh.msgh_local_port;
	if (!MACH_MSG_TYPE_PORT_ANY_SEND(dest_type))
		return MACH_SEND_INVALID_HEADER;
	if (reply_type == 0 ? reply_name != MACH_PORT_NULL :
			      !MACH_MSG_TYPE_PORT_ANY_SEND(reply_type))
		return MACH_SEND_INVALID_HEADER;
	if (!space->active || !MACH_PORT_VALID(dest_name))
		return MACH_SEND_INVALID_DEST;

	/* The body is measured first (it changes nothing) but its error
	 * comes after the header's.  Reservations matter only when two
	 * rights may come from one entry: a message with distinct names
	 * and no right in its body just checks its two. */
	if (uh.msgh_bits & MACH_MSGH_BITS_COMPLEX)
		body_mr = body_measure(c->umsg, c->usize, &ksize, &plain,
				       &items);
	reserve = ((uh.msgh_bits & MACH_MSGH_BITS_COMPLEX) &&
		   (!plain || body_mr != MACH_MSG_SUCCESS)) ||
		  dest_name == reply_name;
	e = ipc_right_lookup(space, dest_name);
	if (e == NULL ||
	    (reserve ? ipc_right_reserve_entry(space, e, dest_type, false) :
		       ipc_right_check(e, dest_type, false)) != KERN_SUCCESS) {
		ipc_right_reserve_clear(space);
		return MACH_SEND_INVALID_DEST;
	}
	c->dest = e->object;
	c->dest_type = dest_type;
	c->dest_entry = e;
	c->reply_entry = NULL;
	if (MACH_PORT_VALID(reply_name)) {
		e = ipc_right_lookup(space, reply_name);
		if (e == NULL ||
		    (reserve ? ipc_right_reserve_entry(space, e, reply_type,
						       true) :
			       ipc_right_check(e, reply_type, true)) !=
			    KERN_SUCCESS) {
			ipc_right_reserve_clear(space);
			return MACH_SEND_INVALID_REPLY;
		}
		c->reply_entry = e;
	}
	if (body_mr != MACH_MSG_SUCCESS) {
		ipc_right_reserve_clear(space);
		return body_mr;
	}
	c->kmsg = ipc_kmsg_alloc_dirty(ksize);
	if (c->kmsg == NULL) {
		ipc_right_reserve_clear(space);
		return MACH_SEND_NO_BUFFER;
	}
	c->kmsg->header.bits = uh.msgh_bits;
	c->kmsg->header.id = uh.msgh_id;
	if ((uh.msgh_bits & MACH_MSGH_BITS_COMPLEX) && plain)
		c->kmsg->flags |= IPC_KMSG_PLAIN;
	if (uh.msgh_bits & MACH_MSGH_BITS_COMPLEX) {
		mr = body_decode(c, &items, plain);
		if (mr != MACH_MSG_SUCCESS) {
			ipc_kmsg_copyin_abort(c);
			return mr;
		}
	} else {
		if (c->usize > HDR)
			memcpy(ipc_kmsg_body(c->kmsg), c->umsg + HDR,
			       c->usize - HDR);
	}
	return MACH_MSG_SUCCESS;
}

/* Does copying in a right of disposition @msgt_name leave every entry of
 * the space in place (no entry freed, no notification sent)?  Then the
 * entries decode found are still valid for the next right. */
static bool copyin_keeps_entries(mach_msg_type_name_t msgt_name)
{
	return msgt_name == MACH_MSG_TYPE_COPY_SEND ||
	       msgt_name == MACH_MSG_TYPE_MAKE_SEND ||
	       msgt_name == MACH_MSG_TYPE_MAKE_SEND_ONCE;
}

/* Take the right of name @name (or pass NULL and DEAD through). */
static struct ipc_port *take(struct ipc_space *space, mach_port_name_t name,
			     mach_msg_type_name_t msgt_name)
{
	struct ipc_port *port;
	mach_msg_type_name_t type;

	if (name == MACH_PORT_NULL)
		return NULL;
	if (name == MACH_PORT_DEAD)
		return IPC_PORT_DEAD;
	if (ipc_right_copyin(space, name, msgt_name, true, &port, &type) !=
	    KERN_SUCCESS)
		return IPC_PORT_DEAD;	/* vanished after decode */
	return port;
}

mach_msg_return_t ipc_kmsg_copyin_commit(struct ipc_kmsg_copyin *c)
{
	struct ipc_kmsg *kmsg = c->kmsg;
	struct ipc_kmsg_header *h = &kmsg->header;
	const uint8_t *u = c->umsg;
	uint8_t *k = (uint8_t *)h;
	mach_msg_header_t uh;
	mach_msg_type_name_t dtype, rtype;
	struct ipc_port *dest;
	size_t uoff = HDR, koff = HDR;
	struct item it, kit;

	/* Decode checked both header rights and nothing ran since. */
	ipc_right_reserve_clear(c->space);
	__builtin_memcpy(&uh, u, sizeof(uh));
	dest = ipc_right_copyin_checked(c->space, c->dest_entry,
					MACH_MSGH_BITS_REMOTE(uh.msgh_bits));
	dtype = ipc_right_copyin_type(MACH_MSGH_BITS_REMOTE(uh.msgh_bits));
	rtype = ipc_right_copyin_type(MACH_MSGH_BITS_LOCAL(uh.msgh_bits));
	h->remote = dest;
	if (c->reply_entry != NULL && copyin_keeps_entries(c->dest_type))
		h->local = ipc_right_copyin_checked(c->space, c->reply_entry,
					MACH_MSGH_BITS_LOCAL(uh.msgh_bits));
	else
		h->local = take(c->space, uh.msgh_local_port,
				MACH_MSGH_BITS_LOCAL(uh.msgh_bits));
	h->bits = (uh.msgh_bits & MACH_MSGH_BITS_COMPLEX) |
		  MACH_MSGH_BITS(dtype, rtype);
	kmsg->usize = c->usize;
	if (!(uh.msgh_bits & MACH_MSGH_BITS_COMPLEX) ||
	    (kmsg->flags & IPC_KMSG_PLAIN))
		return MACH_MSG_SUCCESS;	/* no right in the body */

	while (uoff < c->usize) {
		(void)item_parse(u, uoff, c->usize, false, &it);
		kitem(kmsg, koff, h->size, &kit);
		if (it.port) {
			uint8_t *slots = k + kit.data_off;
			mach_msg_type_number_t n = it.number;

			item_set(k + koff, &kit, ipc_right_copyin_type(it.name),
				 64);
			if (!it.is_inline) {
				slots = (uint8_t *)(uintptr_t)rd64(slots);
				if (slots == NULL)
					n = 0;
			}
			for (mach_msg_type_number_t i = 0; i < n; i++) {
				mach_port_name_t name = rd32(slots + 8 * i);

				wr64(slots + 8 * i,
				     (uintptr_t)take(c->space, name, it.name));
			}
		}
		if (!it.is_inline && it.dealloc) {
			uint64_t len = it.port ? 4 * (uint64_t)it.number :
						 it.ool_bytes;

			if (len != 0)
				(void)vm_map_remove(c->map,
							rd64(u + it.data_off),
							len);
		}
		uoff = it.data_off + it.data_len;
		koff = kit.data_off + kit.data_len;
	}
	return MACH_MSG_SUCCESS;
}

/*
 * Copyout.
 */

static void out_write(struct ipc_msg_buf *out, size_t off, const void *src,
		      size_t n)
{
	if (n == 0 || out->fault)
		return;
	if (out->kbuf != NULL)
		memcpy(out->kbuf + off, src, n);
	else if (copyout(src, (void *)(uintptr_t)(out->uaddr + off), n) != 0)
		out->fault = true;
}

/* Consume the destination right; the receiver's name for the port. */
static mach_port_name_t copyout_dest(struct ipc_space *space,
				     struct ipc_port *port,
				     mach_msg_type_name_t type)
{
	mach_port_name_t name;

	if (!IPC_PORT_VALID(port))
		return port == NULL ? MACH_PORT_NULL : MACH_PORT_DEAD;
	if (!port->active)
		name = MACH_PORT_DEAD;
	else if (port->receiver == space)
		name = port->receiver_name;
	else
		name = MACH_PORT_NULL;
	if (type == MACH_MSG_TYPE_PORT_SEND)
		ipc_port_release_send(port);
	else if (port->receiver == space || !port->active)
		ipc_port_release_sonce(port);
	else
		ipc_notify_send_once(port);	/* receiver left meanwhile */
	return name;
}

/* The user-layout header of @kmsg with these bits and names. */
static mach_msg_header_t user_header(const struct ipc_kmsg *kmsg,
				     mach_msg_bits_t bits,
				     mach_port_name_t remote,
				     mach_port_name_t local)
{
	mach_msg_header_t uh;

	__builtin_memset(&uh, 0, sizeof(uh));
	uh.msgh_bits = bits;
	uh.msgh_size = kmsg->usize;
	uh.msgh_remote_port = remote;
	uh.msgh_local_port = local;
	uh.msgh_seqno = kmsg->header.seqno;
	uh.msgh_id = kmsg->header.id;
	return uh;
}

static void write_header(struct ipc_msg_buf *out, const struct ipc_kmsg *kmsg,
			 mach_msg_bits_t bits, mach_port_name_t remote,
			 mach_port_name_t local)
{
	mach_msg_header_t uh = user_header(kmsg, bits, remote, local);

	out_write(out, 0, &uh, sizeof(uh));
}

void ipc_kmsg_copyout_dest(struct ipc_kmsg *kmsg, struct ipc_space *space,
			   struct ipc_msg_buf *out)
{
	struct ipc_kmsg_header *h = &kmsg->header;
	mach_msg_type_name_t dtype = MACH_MSGH_BITS_REMOTE(h->bits);
	mach_msg_type_name_t rtype = MACH_MSGH_BITS_LOCAL(h->bits);
	mach_port_name_t dname = copyout_dest(space, h->remote, dtype);

	h->remote = NULL;
	write_header(out, kmsg,
		     (h->bits & MACH_MSGH_BITS_COMPLEX) |
			     MACH_MSGH_BITS(rtype, dtype),
		     MACH_PORT_NULL, dname);
	ipc_kmsg_destroy(kmsg);
}

/* Give @space the right @p; on failure destroy it, note why in *@mr and
 * return MACH_PORT_NULL. */
static mach_port_name_t copyout_right(struct ipc_space *space,
				      struct ipc_port *p,
				      mach_msg_type_name_t type,
				      mach_msg_return_t *mr)
{
	mach_port_name_t name;
	kern_return_t kr = ipc_right_copyout(space, p, type, true, &name);

	if (kr == KERN_SUCCESS)
		return name;
	ipc_port_destroy_right(p, type);
	*mr |= kr == KERN_RESOURCE_SHORTAGE ? MACH_MSG_IPC_KERNEL :
					      MACH_MSG_IPC_SPACE;
	return MACH_PORT_NULL;
}

/* An out-of-line port array: names in @space, mapped in @map; returns
 * the address (0 if none could be made, the rights then destroyed). */
static uint64_t copyout_ool_ports(struct ipc_space *space, struct vm_map *map,
				  struct ipc_port **arr,
				  mach_msg_type_number_t n,
				  mach_msg_type_name_t type,
				  mach_msg_return_t *mr)
{
	mach_port_name_t *names = NULL;
	uint64_t addr = 0;
	kern_return_t kr = KERN_NO_SPACE;

	if (n == 0 || arr == NULL)
		return 0;
	if (map != NULL) {
		names = kalloc(4 * (size_t)n);
		kr = names == NULL ? KERN_RESOURCE_SHORTAGE :
				     vm_map_allocate(map, &addr, 4 * (size_t)n,
						     true);
	}
	if (kr != KERN_SUCCESS) {
		clean_rights(arr, n, type);
		*mr |= kr == KERN_RESOURCE_SHORTAGE ? MACH_MSG_VM_KERNEL :
						      MACH_MSG_VM_SPACE;
		addr = 0;
	} else {
		for (mach_msg_type_number_t i = 0; i < n; i++)
			names[i] = copyout_right(space, arr[i], type, mr);
		if (copyout(names, (void *)(uintptr_t)addr, 4 * (size_t)n))
			*mr |= MACH_MSG_VM_SPACE;
	}
	kfree(names);
	kfree(arr);
	return addr;
}

static uint64_t copyout_ool_data(struct vm_map *map, struct vm_map_copy *copy,
				 mach_msg_return_t *mr)
{
	uint64_t addr = 0;
	kern_return_t kr = KERN_NO_SPACE;

	if (copy == NULL)
		return 0;
	if (map != NULL)
		kr = vm_map_copyout(map, copy, &addr);
	if (kr != KERN_SUCCESS) {
		vm_map_copy_discard(copy);
		*mr |= kr == KERN_RESOURCE_SHORTAGE ? MACH_MSG_VM_KERNEL :
						      MACH_MSG_VM_SPACE;
		addr = 0;
	}
	return addr;
}

static mach_msg_return_t copyout_body(struct ipc_kmsg *kmsg,
				      struct ipc_space *space,
				      struct vm_map *map,
				      struct ipc_msg_buf *out)
{
	uint8_t *k = (uint8_t *)&kmsg->header;
	size_t ksize = kmsg->header.size, koff = HDR, uoff = HDR;
	mach_msg_return_t mr = 0;
	struct item it;

	while (koff < ksize) {
		uint8_t desc[sizeof(mach_msg_type_long_t)];
		size_t ud;
		uint64_t addr;

		kitem(kmsg, koff, ksize, &it);
		memcpy(desc, k + koff, it.desc_len);
		if (it.port)
			item_set(desc, &it, it.name, 32);
		out_write(out, uoff, desc, it.desc_len);
		ud = uoff + it.desc_len;

		if (it.is_inline && !it.port) {
			out_write(out, ud, k + it.data_off, it.data_len);
			ud += it.data_len;
		} else if (it.is_inline) {
			for (mach_msg_type_number_t i = 0; i < it.number; i++) {
				struct ipc_port *p =
					rdport(k + it.data_off + 8 * i);
				mach_port_name_t name =
					copyout_right(space, p, it.name, &mr);

				out_write(out, ud, &name, sizeof(name));
				ud += sizeof(name);
			}
		} else {
			void *ptr = (void *)(uintptr_t)rd64(k + it.data_off);

			if (it.port)
				addr = copyout_ool_ports(space, map, ptr,
							 it.number, it.name,
							 &mr);
			else
				addr = copyout_ool_data(map, ptr, &mr);
			wr64(k + it.data_off, 0);
			out_write(out, ud, &addr, sizeof(addr));
			ud += sizeof(addr);
		}
		uoff = ud;
		koff = it.data_off + it.data_len;
	}
	return mr == 0 ? MACH_MSG_SUCCESS : (MACH_RCV_BODY_ERROR | mr);
}

mach_msg_return_t ipc_kmsg_copyout(struct ipc_kmsg *kmsg,
				   struct ipc_space *space,
				   struct vm_map *map,
				   struct ipc_msg_buf *out)
{
	struct ipc_kmsg_header *h = &kmsg->header;
	mach_msg_type_name_t dtype = MACH_MSGH_BITS_REMOTE(h->bits);
	mach_msg_type_name_t rtype = MACH_MSGH_BITS_LOCAL(h->bits);
	mach_port_name_t dname, rname;
	mach_msg_return_t mr = MACH_MSG_SUCCESS;
	kern_return_t kr;

	rname = MACH_PORT_NULL;
	kr = h->local == NULL ? KERN_SUCCESS :
		ipc_right_copyout(space, h->local, rtype, true, &rname);
	if (kr != KERN_SUCCESS) {
		ipc_kmsg_copyout_dest(kmsg, space, out);
		return MACH_RCV_HEADER_ERROR |
		       (kr == KERN_RESOURCE_SHORTAGE ? MACH_MSG_IPC_KERNEL :
						       MACH_MSG_IPC_SPACE);
	}
	h->local = NULL;
	dname = copyout_dest(space, h->remote, dtype);
	h->remote = NULL;
	if (h->bits & MACH_MSGH_BITS_COMPLEX) {
		write_header(out, kmsg, MACH_MSGH_BITS_COMPLEX |
					MACH_MSGH_BITS(rtype, dtype),
			     rname, dname);
		mr = copyout_body(kmsg, space, map, out);
	} else {
		/* Same size in both layouts: the user header replaces the
		 * kernel one in place and the message goes out in one
		 * write. */
		mach_msg_header_t uh = user_header(kmsg,
						   MACH_MSGH_BITS(rtype, dtype),
						   rname, dname);

		__builtin_memcpy(h, &uh, sizeof(uh));
		out_write(out, 0, h, kmsg->usize);
	}
	ipc_kmsg_free(kmsg);
	return out->fault ? MACH_RCV_INVALID_DATA : mr;
}
