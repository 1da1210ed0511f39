/* SPDX-License-Identifier: GPL-2.0-only */
/* IPC fuzzer: random and mutated messages to kernel and user ports, then proof that the kernel still serves. */
/*
 * "ipc_fuzz [seed=N] [count=N] [dump=N]" sends count messages built from
 * valid templates (inline data, out-of-line memory, inline rights,
 * out-of-line port arrays, MIG-looking requests), then mutated, to its own
 * ports and port set, its task port, the host port, a dead name,
 * MACH_PORT_NULL and random names; now and then it receives into memory
 * the kernel cannot write.  Every send and receive has a zero timeout.
 * Every so often it drains its ports, giving back what came, tops up its
 * task and host rights, renews its MIG reply port, and may re-create its
 * ports.  It prints "FUZZ-RESULT code n" per result, "FUZZ-ODD" for an
 * unknown code, "FUZZ-WRONG" for a send whose size, options or header
 * got the wrong error, "FUZZ-BADRECV" for a malformed received message,
 * "FUZZ-ALIVE" if RPCs and a round trip work afterwards, "FUZZ-DONE
 * sent=N" last; dump=N prints every message from the N-th on.
 *
 * It must not harm itself: requests to its task port that would end,
 * stop or unmap it, or mach_port.defs requests naming its task, host or
 * reply port, become mach_port_type; the deallocate bit of out-of-line
 * items survives only for ranges in the scratch region or outside user
 * space.  All a send may read (send_size <= 1 MiB) lies in the send
 * region, so that check sees every item the kernel sees.
 */
#include <mach/message.h>
#include <mach/mig_support.h>
#include <mach/port.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graft_user.h"
#include "user_msg_item.h"
#include "user_rng.h"

#define SEND_REGION	(1u << 20)	/* the kernel's largest message */
#define RCV_SIZE	(64u << 10)
#define BUILD_LIMIT	(16u << 10)	/* no item starts beyond this */
#define OOL_SIZE	(64u << 10)
#define SCRATCH_ADDR	0x500000000000ull
#define SCRATCH_SIZE	(64u << 10)
#define USER_END	0x800000000000ull
#define NPORTS		4	/* ports[0] and [1] are in the set */
#define NNAMES		256u
#define MAX_MARKS	64
#define COUNT_OF(a)	(sizeof(a) / sizeof((a)[0]))

uint64_t rng;			/* user_rng.h's state */
static mach_port_t self, host, pset, dead, ports[NPORTS];
static uint8_t *sbuf;			/* the send region */
static uint8_t rbuf[RCV_SIZE] __attribute__((aligned(8)));
static uint8_t oolbuf[OOL_SIZE];
static mach_port_t names[NNAMES];
static int scratch_ok;

/* The message being built, with the offsets mutations aim at. */
static struct {
	size_t len, desc[MAX_MARKS], slot[MAX_MARKS], ool[MAX_MARKS];
	int ndesc, nslot, nool, nnames, complex;
	mach_msg_size_t send_size, rcv_size;
	mach_msg_option_t opt;
	mach_port_t rcv_name;
} m;

#define CLASS(code) { code, #code }
static const struct {
	mach_msg_return_t code;
	const char *name;
} classes[] = {
	CLASS(MACH_MSG_SUCCESS), CLASS(MACH_SEND_INVALID_DATA),
	CLASS(MACH_SEND_INVALID_DEST), CLASS(MACH_SEND_TIMED_OUT),
	CLASS(MACH_SEND_MSG_TOO_SMALL), CLASS(MACH_SEND_INVALID_REPLY),
	CLASS(MACH_SEND_INVALID_RIGHT), CLASS(MACH_SEND_INVALID_NOTIFY),
	CLASS(MACH_SEND_INVALID_MEMORY), CLASS(MACH_SEND_NO_BUFFER),
	CLASS(MACH_SEND_INVALID_TYPE), CLASS(MACH_SEND_INVALID_HEADER),
	CLASS(MACH_RCV_INVALID_NAME), CLASS(MACH_RCV_TIMED_OUT),
	CLASS(MACH_RCV_TOO_LARGE), CLASS(MACH_RCV_INVALID_NOTIFY),
	CLASS(MACH_RCV_INVALID_DATA), CLASS(MACH_RCV_IN_SET),
	CLASS(MACH_RCV_HEADER_ERROR), CLASS(MACH_RCV_BODY_ERROR),
};
static unsigned long counts[COUNT_OF(classes)], sent, received, regions;
static unsigned long rights, odd, bad, wrong;

/* The @n-byte (4 or 8) little-endian word at @p. */
static uint64_t rd(const void *p, size_t n)
{
	uint64_t v = 0;

	memcpy(&v, p, n);
	return v;
}

/* Pools: names, dispositions, integers, addresses. */
static mach_port_t pick_name(void)
{
	uint32_t r = below(20);
	mach_port_t fixed[] = { pset, dead, self, host, MACH_PORT_NULL,
				MACH_PORT_DEAD, mig_get_reply_port() };

	if (r < 8)
		return ports[r % NPORTS];
	if (r < 15)
		return fixed[r - 8];
	return r < 17 ? 1 + below(64) : r < 18 ? 1 + below(4096) :
						 (mach_port_t)rnd();
}

static unsigned int pick_disp(void)
{
	uint32_t r = below(16);

	if (r < 12)
		return MACH_MSG_TYPE_MOVE_RECEIVE + r % 6;
	return r == 12 ? MACH_MSG_TYPE_PORT_NAME : r == 13 ? 22 + below(2) :
						   below(r == 14 ? 16 : 256);
}

/* Small values, names, notification ids (port destroyed, no senders,
 * send once, dead name), dispositions, edges. */
static uint32_t pick_int(void)
{
	uint32_t v[] = { below(8), pick_name(), 0x45 + below(4),
			 MACH_MSG_TYPE_MOVE_RECEIVE + below(6),
			 0xffffffffu - below(2), 0x80000000u + below(2),
			 below(100000), (uint32_t)rnd() };

	return v[below(COUNT_OF(v))];
}

/* Mostly @valid; else NULL, page 0, unmapped, kernel, the end of user
 * space, misaligned or random. */
static uint64_t pick_addr(uint64_t valid)
{
	uint64_t bad[] = { 0, 0x10, 0x300000000000ull + 4096ull * below(16),
			   0xffffffff80000000ull + 4096ull * below(256),
			   0xffff800000000000ull, USER_END - 8 * below(3),
			   valid + 1 + below(3), rnd() };

	return chance(2) ? valid : bad[below(COUNT_OF(bad))];
}

static uint64_t pick_long(void)
{
	uint64_t v[] = { pick_addr((uintptr_t)oolbuf), 4096ull * below(64),
			 1ull << below(64), below(4096), rnd() };

	return v[below(COUNT_OF(v))];
}

/* Building. */
static void put(const void *p, size_t n)
{
	memcpy(sbuf + m.len, p, n);
	m.len += n;
}

static void mark(size_t *where, int *n)
{
	if (*n < MAX_MARKS)
		where[(*n)++] = m.len;
}

static void put_type(unsigned int name, unsigned int size, uint32_t number,
		     int is_inline, int dealloc, int longform)
{
	mach_msg_type_long_t tl = {
		.msgtl_header = { name, size, number, is_inline,
				  longform || number > 4095, dealloc, 0 },
		.msgtl_name = name,
		.msgtl_size = size,
		.msgtl_number = number,
	};

	mark(m.desc, &m.ndesc);
	m.complex |= !is_inline || MACH_MSG_TYPE_PORT_ANY(name);
	put(&tl, tl.msgtl_header.msgt_longform ? sizeof(tl) :
						 sizeof(tl.msgtl_header));
}

static void put_word(uint64_t v, size_t n, size_t *marks, int *nmarks)
{
	if (marks != NULL)
		mark(marks, nmarks);
	put(&v, n);
}

static void item_inline_data(void)
{
	static const uint8_t kinds[][2] = {
		{ MACH_MSG_TYPE_BYTE, 8 }, { MACH_MSG_TYPE_CHAR, 8 },
		{ MACH_MSG_TYPE_INTEGER_16, 16 },
		{ MACH_MSG_TYPE_INTEGER_32, 32 },
		{ MACH_MSG_TYPE_INTEGER_64, 64 },
		{ MACH_MSG_TYPE_BOOLEAN, 32 }, { MACH_MSG_TYPE_REAL, 64 },
		{ MACH_MSG_TYPE_STRING, 8 }, { MACH_MSG_TYPE_BIT, 1 },
	};
	int k = below(COUNT_OF(kinds));
	uint32_t number = chance(8) ? below(4096) : below(64);
	size_t bytes = (((uint64_t)number * kinds[k][1] + 7) / 8 + 3) & ~3ull;

	put_type(kinds[k][0], kinds[k][1], number, 1, 0, chance(4));
	for (size_t i = 0; i < bytes; i += 4)
		put_word(rnd(), 4, NULL, NULL);
}

/* Out-of-line data from oolbuf or scratch, or a port array in names[]
 * or scratch (names there too); only scratch may be deallocated. */
static void item_ool(int rights)
{
	uint32_t n = rights ? (chance(16) ? 0 : 1 + below(32)) :
			      chance(4) ? below(OOL_SIZE) : below(512);
	int scratch = scratch_ok && chance(4);
	uint64_t a = scratch ? SCRATCH_ADDR : (uintptr_t)oolbuf;

	if (rights) {
		n = m.nnames + n > NNAMES ? NNAMES - m.nnames : n;
		a = scratch ? a + 4 * below(1024) : (uintptr_t)&names[m.nnames];
		for (uint32_t i = 0; i < n; i++)
			names[m.nnames++] = pick_name();
	} else if (chance(3)) {
		a += below(OOL_SIZE - n + 1);
	}
	put_type(rights ? pick_disp() : chance(4) ? MACH_MSG_TYPE_INTEGER_32 :
		 MACH_MSG_TYPE_BYTE, rights ? 32 : 8, n, 0,
		 scratch && chance(2), chance(2));
	put_word(pick_addr(a), 8, m.ool, &m.nool);
}

static void item_rights(void)
{
	uint32_t n = 1 + below(4);

	put_type(pick_disp(), 32, n, 1, 0, chance(4));
	while (n-- > 0)
		put_word(pick_name(), 4, m.slot, &m.nslot);
}

/* One MIG argument: i integer, b boolean, l 64-bit, n name, p any right,
 * o a send-once right to one of our ports. */
static void mig_arg(char c)
{
	unsigned int name = c == 'i' ? MACH_MSG_TYPE_INTEGER_32 :
			    c == 'b' ? MACH_MSG_TYPE_BOOLEAN :
			    c == 'l' ? MACH_MSG_TYPE_INTEGER_64 :
			    c == 'n' ? MACH_MSG_TYPE_PORT_NAME :
			    c == 'o' ? MACH_MSG_TYPE_MAKE_SEND_ONCE :
				       pick_disp();
	uint64_t v = c == 'i' ? pick_int() : c == 'b' ? below(2) :
		     c == 'l' ? pick_long() : c == 'o' ? ports[below(NPORTS)] :
				  pick_name();

	put_type(name, c == 'l' ? 64 : 32, 1, 1, 0, 0);
	put_word(v, c == 'l' ? 8 : 4, MACH_MSG_TYPE_PORT_ANY(name) ?
		 m.slot : NULL, &m.nslot);
}

/* Routines of mach.defs, mach_port.defs and gnumach.defs with their
 * arguments (the target is the destination); served 0: the kernel logs
 * every call, so those are picked less often. */
static const struct {
	int id, served;
	const char *args;
} routines[] = {
	{ 2007, 0, "b" }, { 2012, 0, "ii" }, { 2021, 1, "llb" },
	{ 2026, 0, "ll" }, { 2029, 0, "l" }, { 2030, 0, "" },
	{ 2057, 0, "" }, { 2058, 1, "i" }, { 2059, 0, "ip" },
	{ 3200, 0, "" }, { 3201, 1, "n" }, { 3202, 1, "nn" },
	{ 3203, 1, "in" }, { 3204, 1, "i" }, { 3205, 1, "n" },
	{ 3206, 1, "n" }, { 3207, 1, "ni" }, { 3208, 1, "nii" },
	{ 3210, 1, "ni" }, { 3211, 1, "ni" }, { 3212, 0, "n" },
	{ 3213, 1, "nn" }, { 3214, 1, "niio" }, { 3215, 1, "np" },
	{ 3216, 1, "ni" }, { 3217, 1, "n" }, { 3218, 1, "ni" },
	{ 3221, 0, "ni" }, { 4202, 0, "l" }, { 4204, 0, "liiii" },
	{ 4210, 1, "pllll" },
};

static int mig_request(void)
{
	static const int base[] = { 2000, 3200, 4200 };
	int r;

	do
		r = below(COUNT_OF(routines));
	while (!routines[r].served && !chance(8));
	for (const char *a = routines[r].args; *a != '\0'; a++)
		mig_arg(*a);
	return chance(4) ? base[below(3)] + (int)below(100) : routines[r].id;
}

static void build(void)
{
	mach_msg_header_t *h = (mach_msg_header_t *)(void *)sbuf;
	int kind = below(100), mig = kind < 30, which, n;
	uint32_t r = below(20), rr = below(6), dd = MACH_MSG_TYPE_COPY_SEND;
	mach_port_t reply[] = { ports[below(NPORTS)], self, pick_name() };
	unsigned int rd[] = { MACH_MSG_TYPE_MAKE_SEND_ONCE - below(2),
			      MACH_MSG_TYPE_COPY_SEND, pick_disp() };

	memset(&m, 0, sizeof(m));
	memset(h, 0, sizeof(*h));
	m.len = sizeof(*h);
	/* Kernel ports for MIG-looking requests, our ports for the rest. */
	if (mig ? r < 10 : r == 0) {
		h->msgh_remote_port = self;
	} else if (mig ? r < 14 : r == 1) {
		h->msgh_remote_port = host;
	} else if (r < 17) {
		h->msgh_remote_port = ports[below(NPORTS)];
		dd = MACH_MSG_TYPE_COPY_SEND + below(3);
	} else {
		h->msgh_remote_port = pick_name();
		dd = pick_disp();
	}
	rr = rr < 2 ? 0 : rr - 1;	/* 0 twice as often; 3, 4: none */
	if (rr < 3) {
		h->msgh_local_port = reply[rr];
		h->msgh_bits = MACH_MSGH_BITS(dd, rd[rr]);
	} else {
		h->msgh_bits = MACH_MSGH_BITS(dd, 0);
	}
	h->msgh_id = (mach_msg_id_t)(chance(2) ? below(5000) : rnd());
	if (mig) {
		h->msgh_id = mig_request();
	} else if (kind < 40) {		/* simple: untyped words */
		for (n = below(32); n > 0; n--)
			put_word(rnd(), 4, NULL, NULL);
	} else {
		which = kind < 55 ? 0 : kind < 70 ? 1 : kind < 85 ? 2 :
			kind < 93 ? 3 : -1;
		n = which >= 0 ? 1 + below(2) : 2 + below(4);
		for (int i = 0; i < n && m.len < BUILD_LIMIT; i++) {
			int k = which >= 0 ? which : (int)below(4);

			if (k == 0)
				item_inline_data();
			else if (k == 2)
				item_rights();
			else
				item_ool(k == 3);
		}
	}
	if (m.complex)
		h->msgh_bits |= MACH_MSGH_BITS_COMPLEX;
	h->msgh_size = m.send_size = m.len;
	m.opt = MACH_SEND_MSG | MACH_SEND_TIMEOUT;
	m.rcv_size = SEND_REGION;
	m.rcv_name = ports[below(NPORTS)];
}

/* Mutate the descriptor at @off: any bit or byte of its first word (name,
 * size, number, inline, longform, deallocate, unused), or the long
 * form's name and size or number. */
static void mutate_desc(size_t off)
{
	uint32_t w[3];

	memcpy(w, sbuf + off, sizeof(w));	/* may read past the end */
	switch (below(4)) {
	case 0:
		w[0] ^= 1u << below(32);
		break;
	case 1:
		((uint8_t *)w)[below(4)] = below(256);
		break;
	case 2:
		w[1] = chance(2) ? pick_disp() | (32u << below(2)) << 16 :
				   (uint32_t)rnd();
		break;
	default:
		w[2] = chance(2) ? pick_int() :
				   (1u << below(32)) + below(3) - 1;
		break;
	}
	memcpy(sbuf + off, w, sizeof(w));
}

static void mutate(void)
{
	mach_msg_header_t *h = (mach_msg_header_t *)(void *)sbuf;
	uint32_t sizes[] = { m.len - 4 * below(8), m.len + below(64),
			     below(40), SEND_REGION - 4 * below(2),
			     SEND_REGION + 4 * below(3), (uint32_t)rnd() };
	uint64_t a;

	for (int n = chance(4) ? 0 : 1 + below(3); n > 0; n--) {
		switch (below(11)) {
		case 0:
			h->msgh_bits = chance(2) ?
				h->msgh_bits ^ (1u << below(32)) :
				MACH_MSGH_BITS(pick_disp(), chance(2) ? 0 :
					       pick_disp()) |
				(h->msgh_bits & MACH_MSGH_BITS_COMPLEX);
			break;
		case 1:
			h->msgh_size = chance(2) ? (uint32_t)rnd() :
					m.len + 4 * below(9) - 16;
			break;
		case 2:
			m.send_size = sizes[below(COUNT_OF(sizes))];
			break;
		case 3 ... 4:
			if (m.ndesc > 0)
				mutate_desc(m.desc[below(m.ndesc)]);
			break;
		case 5:
			a = pick_name();
			if (m.nslot > 0)
				memcpy(sbuf + m.slot[below(m.nslot)], &a, 4);
			break;
		case 6:
			a = chance(2) ? pick_addr(0) : pick_long();
			if (m.nool > 0)
				memcpy(sbuf + m.ool[below(m.nool)], &a, 8);
			break;
		case 7:
			for (int i = 1 + below(4); i > 0; i--)
				sbuf[below(m.len)] ^= 1u << below(8);
			break;
		case 8:
			*(chance(2) ? &h->msgh_remote_port :
				      &h->msgh_local_port) = pick_name();
			break;
		case 9:
			h->msgh_id = (mach_msg_id_t)rnd();
			break;
		default:
			m.opt |= 1u << below(20);
			break;
		}
	}
	if (chance(12))
		m.opt |= MACH_RCV_MSG | (chance(3) ? MACH_RCV_LARGE : 0);
	if (m.opt & MACH_RCV_MSG) {	/* never wait for a message */
		m.opt |= MACH_RCV_TIMEOUT;
		if (chance(3))
			m.rcv_size = chance(2) ? below(48) : 40 + below(256);
		if (chance(4))
			m.rcv_name = chance(2) ? pset : pick_name();
	}
}

/* Would this message to our task port end, stop or unmap us, or touch
 * our task, host or reply port?  (mach_port.defs requests are under 128
 * bytes.) */
static int self_harm(const mach_msg_header_t *h)
{
	static const mach_msg_id_t denied[] = {
		2007, 2008, 2016, 2023, 2024, 2025, 2027, 2028, 2056, 2061,
		2062, 2089, 2099, 4201, 4207, 4211,
	};

	for (size_t i = 0; i < COUNT_OF(denied); i++)
		if (h->msgh_id == denied[i])
			return 1;
	if (h->msgh_id < 3200 || h->msgh_id >= 3300 || m.send_size > 128)
		return 0;
	for (size_t off = sizeof(*h); off + 4 <= m.send_size; off += 4) {
		mach_port_t v = rd(sbuf + off, 4);

		if (v == self || v == host || v == mig_get_reply_port())
			return 1;
	}
	return 0;
}

static void sanitize(void)
{
	mach_msg_header_t *h = (mach_msg_header_t *)(void *)sbuf;
	size_t off = sizeof(*h), end = m.send_size;
	struct msg_item it;

	if (h->msgh_remote_port == self && self_harm(h))
		h->msgh_id = 3201;		/* mach_port_type */
	if (!(h->msgh_bits & MACH_MSGH_BITS_COMPLEX) || end > SEND_REGION ||
	    end < off || (end & 3))
		return;			/* no item will be read */
	for (; off < end && msg_item_parse(sbuf, off, end, &it) == 0;
	     off = it.next) {
		uint64_t a = rd(sbuf + it.data, 8);
		uint64_t len = it.port ? 4ull * it.number : it.bytes;

		if (!it.is_inline && it.dealloc && a < USER_END &&
		    (a < SCRATCH_ADDR || len > SCRATCH_SIZE ||
		     a + len > SCRATCH_ADDR + SCRATCH_SIZE))
			sbuf[off + 3] &= ~0x40;	/* msgt_deallocate */
	}
}

static int is_ours(mach_port_t name)
{
	for (int i = 0; i < NPORTS; i++)
		if (name == ports[i])
			return 1;
	return name == pset || name == dead;
}

static void release_right(mach_port_t name, unsigned int type)
{
	if (!MACH_PORT_VALID(name))
		return;
	rights++;
	if (type != MACH_MSG_TYPE_PORT_RECEIVE)
		(void)mach_port_deallocate(self, name);
	else if (!is_ours(name))
		(void)mach_port_mod_refs(self, name, MACH_PORT_RIGHT_RECEIVE,
					 -1);
}

static void bad_receive(const char *what, const mach_msg_header_t *h)
{
	if (bad++ < 4)
		printf("FUZZ-BADRECV %s: bits 0x%x size %u id %d\n", what,
		       h->msgh_bits, h->msgh_size, h->msgh_id);
}

/* Check a message received into @b (@cap bytes) with @mr, and give back
 * the rights and memory it brought. */
static void release(uint8_t *b, size_t cap, mach_msg_return_t mr)
{
	mach_msg_header_t *h = (mach_msg_header_t *)(void *)b;
	size_t off = sizeof(*h), end = h->msgh_size;
	struct msg_item it;
	uint64_t a;

	mr &= ~MACH_MSG_MASK;
	if (mr != MACH_MSG_SUCCESS && mr != MACH_RCV_BODY_ERROR)
		return;		/* a header at most: nothing of ours */
	received++;
	if (end < off || end > cap || (end & 3)) {
		bad_receive("size", h);
		return;
	}
	release_right(h->msgh_remote_port, MACH_MSGH_BITS_REMOTE(h->msgh_bits));
	if (!(h->msgh_bits & MACH_MSGH_BITS_COMPLEX))
		return;
	for (; off < end; off = it.next) {
		if (msg_item_parse(b, off, end, &it) != 0 ||
		    (it.port && it.name > MACH_MSG_TYPE_PORT_SEND_ONCE)) {
			bad_receive("item", h);
			return;
		}
		a = rd(b + it.data, 8);
		for (uint32_t i = 0; it.port && i < it.number; i++)
			release_right(it.is_inline ?
				      rd(b + it.data + 4 * i, 4) :
				      a ? ((mach_port_t *)a)[i] : 0, it.name);
		if (!it.is_inline && a != 0) {
			regions++;
			(void)vm_deallocate(self, a, it.port ?
					    4ull * it.number : it.bytes);
		}
	}
}

/* Did the receive take a message off its queue? */
static int dequeued(mach_msg_return_t mr)
{
	mr &= ~MACH_MSG_MASK;
	return mr == MACH_MSG_SUCCESS || mr == MACH_RCV_BODY_ERROR ||
	       mr == MACH_RCV_HEADER_ERROR || mr == MACH_RCV_TOO_LARGE;
}

static void drain(mach_port_t name)
{
	for (int i = 0; i < 10000; i++) {
		mach_msg_return_t mr = mach_msg((void *)rbuf, MACH_RCV_MSG |
						MACH_RCV_TIMEOUT, 0, RCV_SIZE,
						name, 0, MACH_PORT_NULL);

		if (!dequeued(mr))
			return;
		release(rbuf, RCV_SIZE, mr);
	}
}

/* Our ports (two in the set) and a dead name, each with 51 send refs. */
static void make_ports(void)
{
	mach_port_allocate(self, MACH_PORT_RIGHT_PORT_SET, &pset);
	for (int i = 0; i <= NPORTS; i++) {
		mach_port_t *p = i < NPORTS ? &ports[i] : &dead;

		mach_port_allocate(self, MACH_PORT_RIGHT_RECEIVE, p);
		mach_port_insert_right(self, *p, *p, MACH_MSG_TYPE_MAKE_SEND);
		mach_port_mod_refs(self, *p, MACH_PORT_RIGHT_SEND, 50);
		if (i < 2)
			mach_port_move_member(self, *p, pset);
	}
	mach_port_mod_refs(self, dead, MACH_PORT_RIGHT_RECEIVE, -1);
}

static void destroy_ports(void)
{
	for (int i = 0; i < NPORTS; i++)
		mach_port_destroy(self, ports[i]);
	mach_port_destroy(self, pset);
	mach_port_destroy(self, dead);
}

/* Keep 10000 to 40000 user references on a send right, so that moved
 * rights and our own traps neither empty nor overflow it. */
static void top_up(mach_port_t name)
{
	mach_port_urefs_t refs = 0;

	if (mach_port_get_refs(self, name, MACH_PORT_RIGHT_SEND, &refs) ==
	    KERN_SUCCESS && (refs < 10000 || refs > 40000))
		mach_port_mod_refs(self, name, MACH_PORT_RIGHT_SEND,
				   20000 - (int)refs);
}

static void housekeeping(int recreate)
{
	vm_address_t a = SCRATCH_ADDR;

	mig_dealloc_reply_port(mig_get_reply_port()); /* drops stray mail */
	self = mach_task_self();
	host = mach_host_self();
	top_up(self);
	top_up(host);
	drain(pset);
	for (int i = 0; i < NPORTS; i++)
		drain(ports[i]);
	if (recreate) {
		destroy_ports();
		make_ports();
	}
	/* Fresh scratch pages (messages may have taken some), names first. */
	(void)vm_deallocate(self, a, SCRATCH_SIZE);
	scratch_ok = vm_allocate(self, &a, SCRATCH_SIZE, FALSE) ==
		     KERN_SUCCESS && a == SCRATCH_ADDR;
	for (size_t i = 0; scratch_ok && i < 1024 + 32; i++)
		((mach_port_t *)a)[i] = pick_name();
}

/* What the kernel must answer a send whose size, options or header are
 * wrong (kernel/ipc/ipc_kmsg.h), or 0 when that is not all it takes. */
static mach_msg_return_t verdict(void)
{
	mach_msg_header_t *h = (mach_msg_header_t *)(void *)sbuf;
	unsigned int dd = MACH_MSGH_BITS_REMOTE(h->msgh_bits);
	unsigned int rd = MACH_MSGH_BITS_LOCAL(h->msgh_bits);

	if (m.send_size < sizeof(*h) || (m.send_size & 3))
		return MACH_SEND_MSG_TOO_SMALL;
	if (m.send_size > SEND_REGION)
		return MACH_SEND_NO_BUFFER;
	if (m.opt & MACH_SEND_NOTIFY)
		return MACH_SEND_INVALID_NOTIFY;
	if ((h->msgh_bits & ~(MACH_MSGH_BITS_COMPLEX |
			      MACH_MSGH_BITS_PORTS_MASK)) ||
	    !MACH_MSG_TYPE_PORT_ANY_SEND(dd) ||
	    (rd == 0 ? h->msgh_local_port != MACH_PORT_NULL :
		       !MACH_MSG_TYPE_PORT_ANY_SEND(rd)))
		return MACH_SEND_INVALID_HEADER;
	return MACH_PORT_VALID(h->msgh_remote_port) ? 0 :
						      MACH_SEND_INVALID_DEST;
}

static void count(mach_msg_return_t mr)
{
	size_t i;

	for (i = 0; i < COUNT_OF(classes); i++)
		if (classes[i].code == (mr & ~MACH_MSG_MASK))
			break;
	if (i < COUNT_OF(classes))
		counts[i]++;
	else if (odd++ < 4)
		printf("FUZZ-ODD after %lu sends: 0x%x\n", sent, mr);
}

/* A receive into memory the kernel cannot write, wholly or in part. */
static void receive_badly(void)
{
	uint64_t at[] = { 0x10, 0x300000000000ull, 0xffffffff80000000ull,
			  0x400000 /* our text */, USER_END - 16,
			  (uintptr_t)sbuf + SEND_REGION - 4 * below(16) };
	mach_port_t from = chance(2) ? pset : ports[below(NPORTS)];

	count(mach_msg((void *)at[below(COUNT_OF(at))], MACH_RCV_MSG |
		       MACH_RCV_TIMEOUT | (chance(4) ? MACH_RCV_LARGE : 0),
		       0, RCV_SIZE, from, 0, MACH_PORT_NULL));
}

static void dump(void)
{
	mach_msg_header_t *h = (mach_msg_header_t *)(void *)sbuf;

	printf("FUZZ-MSG %lu opt 0x%x send %u rcv %u from 0x%x: bits 0x%x "
	       "size %u remote 0x%x local 0x%x id %d:", sent, m.opt,
	       m.send_size, m.rcv_size, m.rcv_name, h->msgh_bits,
	       h->msgh_size, h->msgh_remote_port, h->msgh_local_port,
	       h->msgh_id);
	for (size_t k = sizeof(*h); k + 4 <= m.send_size && k < 512; k += 4)
		printf(" %08x", (uint32_t)rd(sbuf + k, 4));
	printf("\n");
}

/* After fuzzing: RPCs are served and a message makes a round trip. */
static int alive(vm_address_t hole)
{
	struct {
		mach_msg_header_t h;
		mach_msg_type_t t;
		uint32_t v;
	} msg = {
		.h = { .msgh_bits = MACH_MSGH_BITS(MACH_MSG_TYPE_MAKE_SEND, 0),
		       .msgh_size = sizeof(msg), .msgh_id = 1234 },
		.t = { MACH_MSG_TYPE_INTEGER_32, 32, 1, 1, 0, 0, 0 },
		.v = 0xf00d,
	};
	mach_port_t p = MACH_PORT_NULL;
	vm_address_t a = 0;
	int ok;

	mig_dealloc_reply_port(mig_get_reply_port());
	self = mach_task_self();
	(void)vm_deallocate(self, hole, 65536);	/* room, whatever came */
	ok = vm_allocate(self, &a, 8192, TRUE) == KERN_SUCCESS &&
	     ((volatile uint32_t *)a)[1000] == 0 &&
	     vm_deallocate(self, a, 8192) == KERN_SUCCESS &&
	     mach_port_allocate(self, MACH_PORT_RIGHT_RECEIVE, &p) ==
		     KERN_SUCCESS;
	msg.h.msgh_remote_port = p;
	ok = ok && mach_msg(&msg.h, MACH_SEND_MSG | MACH_SEND_TIMEOUT,
			    sizeof(msg), 0, MACH_PORT_NULL, 0,
			    MACH_PORT_NULL) == MACH_MSG_SUCCESS;
	memset(&msg, 0, sizeof(msg));
	return ok && mach_msg(&msg.h, MACH_RCV_MSG | MACH_RCV_TIMEOUT, 0,
			      sizeof(msg), p, 0, MACH_PORT_NULL) ==
		     MACH_MSG_SUCCESS && msg.h.msgh_id == 1234 &&
	       msg.v == 0xf00d && mach_port_destroy(self, p) == KERN_SUCCESS;
}

static unsigned long arg(int argc, char **argv, const char *key,
			 unsigned long def)
{
	size_t n = strlen(key);

	for (int i = 1; i < argc; i++)
		if (strncmp(argv[i], key, n) == 0 && argv[i][n] == '=')
			return strtoul(argv[i] + n + 1, NULL, 0);
	return def;
}

int main(int argc, char **argv)
{
	unsigned long total = arg(argc, argv, "count", 100000);
	unsigned long from = arg(argc, argv, "dump", ~0ul), next = 0;
	vm_address_t region = 0, hole = 0;

	rng = arg(argc, argv, "seed", 1);
	printf("FUZZ-START seed=%lu count=%lu\n", (unsigned long)rng, total);
	self = mach_task_self();
	if (vm_allocate(self, &region, SEND_REGION, TRUE) != KERN_SUCCESS ||
	    vm_allocate(self, &hole, 65536, TRUE) != KERN_SUCCESS)
		return 1;
	sbuf = (uint8_t *)region;
	for (size_t i = 0; i < OOL_SIZE; i++)
		oolbuf[i] = (uint8_t)(i * 131 + 7);
	make_ports();
	for (sent = 0; sent < total; sent++) {
		mach_msg_return_t mr, expected;

		if (sent == next) {
			housekeeping(chance(8));
			next = sent + 16 + below(112);
		}
		if (chance(64))
			receive_badly();
		build();
		mutate();
		sanitize();
		if (sent >= from)
			dump();
		expected = verdict();
		mr = mach_msg((void *)sbuf, m.opt, m.send_size, m.rcv_size,
			      m.rcv_name, 0, MACH_PORT_NULL);
		count(mr);
		if (expected != 0 && mr != expected && wrong++ < 4)
			printf("FUZZ-WRONG message %lu: 0x%x, not 0x%x\n", sent,
			       mr, expected);
		if ((m.opt & MACH_RCV_MSG) && dequeued(mr))
			release(sbuf, m.rcv_size < SEND_REGION ? m.rcv_size :
				SEND_REGION, mr);
	}
	housekeeping(0);
	destroy_ports();
	for (size_t i = 0; i < COUNT_OF(classes); i++)
		if (counts[i] != 0)
			printf("FUZZ-RESULT %s %lu\n", classes[i].name,
			       counts[i]);
	printf("FUZZ-RECEIVED %lu messages, %lu rights, %lu regions\n",
	       received, rights, regions);
	if (alive(hole))
		printf("FUZZ-ALIVE\n");
	printf("FUZZ-DONE sent=%lu\n", sent);
	return 0;
}
