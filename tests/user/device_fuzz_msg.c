/* SPDX-License-Identifier: GPL-2.0-only */
/* The device fuzzer's messages: random, mutated, then made safe for it. */
/*
 * A message is one of gnumach-dev's device.defs requests as MIG lays it
 * out (ids 2800 to 2814, device_open to device_intr_ack, and the ids it
 * leaves unused up to 2829; device_request.defs sends the same ids with
 * a send-once reply) with random field values: modes, record numbers,
 * sizes (0, negative, whole blocks, DEV_IO_MAX and past it now and
 * then), device names (valid, unknown, empty, 128 bytes without a NUL,
 * garbage after the NUL), status flavours and words, filter programs,
 * interrupt lines 0 to 20 and any.  Its destination is the master port,
 * a device the fuzzer holds, a dead name, MACH_PORT_NULL or a random
 * name; its reply port and the ports it carries (filters, interrupt
 * registrations and acknowledgements) are the fuzzer's own receive,
 * send and send-once rights, device ports, its task and host ports, the
 * master port, a dead name or MACH_PORT_NULL, in every disposition.
 * One message in two is then mutated: header bits, sizes and names,
 * type descriptors, port names, out-of-line addresses and counts, ids,
 * options.
 *
 * Then it is made safe for the fuzzer.  Nothing goes to its task or
 * host port or names its MIG reply port; an id outside device.defs goes
 * only to the master port or a device, with a reply port that is the
 * fuzzer's or a device's (a reply, id + 100, to its task port could be a
 * task_terminate); the deallocate bit of out-of-line data survives only
 * in the scratch region; writes that reach the console carry at most
 * CONSOLE_WRITE bytes of text, and console reads ask for CONSOLE_READ
 * bytes at most (the console holds a read until input comes or it
 * closes).  Everything a send may read (SEND_REGION bytes) lies in the
 * send region, so the deallocate check sees every item the kernel sees.
 */
#include <device/bpf.h>
#include <device/device_types.h>
#include <device/net_status.h>
#include <mach/message.h>
#include <mach/mig_support.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "device_fuzz.h"
#include "user_msg_item.h"

#define CONSOLE_WRITE	64	/* bytes of text a console write carries */
#define CONSOLE_READ	4096
#define MAX_MARKS	16

#define ID_OPEN		2800
#define ID_CLOSE	2801
#define ID_WRITE	2802
#define ID_WRITE_INBAND	2803
#define ID_READ		2804
#define ID_READ_INBAND	2805
#define ID_MAP		2809
#define ID_SET_STATUS	2810
#define ID_GET_STATUS	2811
#define ID_SET_FILTER	2812
#define ID_INTR_REG	2813
#define ID_INTR_ACK	2814
#define ID_CLAIM_PCI	5100		/* defs/claim.defs */
#define ID_CLAIM_ID	5101
#define ID_CLAIM_BAR	5102
#define ID_CLAIM_CFG_READ	5103
#define ID_CLAIM_CFG_WRITE	5104
#define ID_CLAIM_IO_GRANT	5105
#define ID_CLAIM_INTR_REG	5106
#define ID_CLAIM_INTR_ACK	5107
#define ID_CLAIM_MAP	5108
#define ID_CLAIM_DMA	5109

/* Where device.defs puts the fields a console message must keep tame. */
#define OFF_DATA	56	/* write_inband's data; read's bytes_wanted */
#define OFF_OOL_NUMBER	60	/* device_write: msgtl_number, address */
#define OFF_OOL_ADDR	64

/* The message being built, and where mutations may aim. */
static struct {
	size_t len, desc[MAX_MARKS], slot[MAX_MARKS], ool[MAX_MARKS];
	int ndesc, nslot, nool, complex;
	mach_msg_size_t send_size;
	mach_msg_option_t opt;
} m;

/* --- Names and values --- */

int fuzz_is_own(mach_port_t name)
{
	for (int i = 0; i < NPORTS; i++)
		if (name == held.ports[i])
			return 1;
	return 0;
}

static int is_sonce(mach_port_t name)
{
	for (int i = 0; i < NSONCE; i++)
		if (name == held.sonce[i])
			return 1;
	return 0;
}

static int is_dev(mach_port_t name)
{
	for (int i = 0; i < NDEVS; i++)
		if (name == held.devs[i])
			return MACH_PORT_VALID(name);
	return 0;
}

/* A device this task holds, @want if it holds that one, else any (or
 * MACH_PORT_NULL). */
static mach_port_t held_dev(int want)
{
	int d = want >= 0 ? want : (int)below(NDEVS);

	for (int i = 0; i < NDEVS; i++, d = (d + 1) % NDEVS)
		if (held.devs[d] != MACH_PORT_NULL)
			return held.devs[d];
	return MACH_PORT_NULL;
}

static mach_port_t random_name(void)
{
	uint32_t r = below(4);

	return r < 2 ? 1 + below(64) : r < 3 ? 1 + below(4096) :
		       (mach_port_t)rnd();
}

/* A right and how to send it, as a reply port or in the body. */
struct right {
	mach_port_t name;
	unsigned int disp;
};

static unsigned int random_disp(void)
{
	return chance(2) ? MACH_MSG_TYPE_MOVE_RECEIVE + below(6) :
			   below(chance(2) ? 32 : 256);
}

/* A reply port or a port to carry: one of ours (receive: made send or
 * send-once; send: copied or moved; send-once), a device (the console's
 * and hd0's most), the task, host or master port, the dead name,
 * MACH_PORT_NULL, a random name or a random disposition. */
static struct right pick_right(void)
{
	mach_port_t p = held.ports[below(NPORTS)];
	struct right r = { MACH_PORT_NULL, MACH_MSG_TYPE_COPY_SEND };

	switch (below(16)) {
	case 0 ... 2:
		r.name = p;
		r.disp = MACH_MSG_TYPE_MAKE_SEND_ONCE;
		break;
	case 3 ... 4:
		r.name = p;
		r.disp = MACH_MSG_TYPE_MAKE_SEND;
		break;
	case 5:
		r.name = p;
		r.disp = chance(4) ? MACH_MSG_TYPE_MOVE_SEND :
				     MACH_MSG_TYPE_COPY_SEND;
		break;
	case 6:
		r.name = held.sonce[below(NSONCE)];
		r.disp = MACH_MSG_TYPE_MOVE_SEND_ONCE;
		break;
	case 7 ... 8:
		r.name = held_dev(chance(2) ? CONSOLE : chance(2) ? HD0 : -1);
		r.disp = chance(8) ? MACH_MSG_TYPE_MOVE_SEND :
				     MACH_MSG_TYPE_COPY_SEND;
		break;
	case 9:
		r.name = held.self;
		break;
	case 10:
		r.name = held.host;
		break;
	case 11:
		r.name = held.master;
		break;
	case 12:
		r.name = held.dead;
		r.disp = chance(2) ? MACH_MSG_TYPE_MOVE_SEND :
				     MACH_MSG_TYPE_COPY_SEND;
		break;
	case 13:
		r.disp = chance(2) ? 0 : MACH_MSG_TYPE_COPY_SEND;
		break;
	case 14:
		r.name = chance(2) ? p : random_name();
		r.disp = random_disp();
		break;
	default:
		r.name = random_name();
		break;
	}
	return r;
}

/* A destination: mostly @want's device (the master port for -2, the
 * claim for -3), else any. */
static mach_port_t pick_dest(int want)
{
	uint32_t r = below(16);

	if (r < 11) {
		mach_port_t d = want == -2 ? held.master :
				want == -3 ? held.claim : held_dev(want);

		if (d != MACH_PORT_NULL)
			return d;
	}
	if (r < 13)
		return held_dev(-1);
	if (r == 13)
		return held.master;
	return r == 14 ? (chance(2) ? held.dead : MACH_PORT_NULL) :
			 random_name();
}

static uint32_t pick_mode(void)
{
	uint32_t v[] = { 0, D_READ, D_WRITE, D_READ | D_WRITE, D_NOWAIT,
			 D_READ | D_NOWAIT, D_NODELAY, D_READ | D_WRITE |
			 D_NOWAIT | D_NODELAY, 1u << below(32), (uint32_t)rnd() };

	return v[below(COUNT_OF(v))];
}

/* Records of rd0 (1024), hd0's partitions (6144) and hd0 (16128), and
 * around them; small, negative, huge. */
static uint64_t pick_recnum(void)
{
	static const uint64_t ends[] = { 1024, 6144, 16128 };
	uint64_t v[] = { 0, below(16), below(20000),
			 ends[below(3)] - 2 + below(4), ~0ull - below(2),
			 1ull << below(64), 0x80000000ull, rnd() };

	return v[below(COUNT_OF(v))];
}

/* A transfer size: mostly small or whole blocks; now and then huge. */
static int32_t pick_bytes(void)
{
	uint32_t r = below(1000);
	int32_t huge[] = { DEV_IO_MAX, DEV_IO_MAX - 512, DEV_IO_MAX + 512,
			   DEV_IO_MAX + 1, 0x7fffffff, (int32_t)rnd() };

	if (r < 300)
		return below(4097);
	if (r < 500)
		return 512 * below(33);
	if (r < 580)
		return 0;
	if (r < 650)
		return chance(2) ? -1 : chance(2) ? INT32_MIN : -512;
	if (r < 800)
		return 1 + below(129);
	if (r < 950)
		return 512 * below(129);
	if (r < 992)
		return 1 + below(70000);
	if (r < 997)
		return 1 << below(24);
	return huge[below(COUNT_OF(huge))];
}

static uint32_t pick_flavor(void)
{
	uint32_t v[] = { DEV_GET_SIZE, DEV_GET_RECORDS, NET_STATUS,
			 NET_ADDRESS, NET_FLAGS, NET_DSTADDR, below(8),
			 ('n' << 16) + below(16), (uint32_t)rnd() };

	return v[below(COUNT_OF(v))];
}

/* NET_FLAGS words: IFF_UP (0x1) with receive modes (0x100, 0x200) and
 * reported bits (0x2, 0x40, 0x1000) mostly, else any. */
static int32_t pick_flags(void)
{
	if (chance(16))
		return chance(2) ? (int32_t)(1u << below(32)) : (int32_t)rnd();
	return (int32_t)(0x1 | (below(4) << 8) |
			 (chance(2) ? 0x1042 : 0));
}

/* --- Building --- */

static void put(const void *p, size_t n)
{
	memcpy(mem.send + m.len, p, n);
	m.len += n;
}

static void mark(size_t *where, int *n)
{
	if (*n < MAX_MARKS)
		where[(*n)++] = m.len;
}

static void put_type(unsigned int name, unsigned int size, uint32_t number,
		     int is_inline, int longform)
{
	mach_msg_type_long_t tl = {
		.msgtl_header = {
			.msgt_name = longform ? 0 : name,
			.msgt_size = longform ? 0 : size,
			.msgt_number = longform ? 0 : number,
			.msgt_inline = is_inline,
			.msgt_longform = longform,
		},
		.msgtl_name = name,
		.msgtl_size = size,
		.msgtl_number = number,
	};

	mark(m.desc, &m.ndesc);
	if (!is_inline || MACH_MSG_TYPE_PORT_ANY(name))
		m.complex = 1;
	put(&tl, longform ? sizeof(tl) : sizeof(tl.msgtl_header));
}

static void put_i32(uint32_t v)
{
	put_type(MACH_MSG_TYPE_INTEGER_32, 32, 1, 1, 0);
	put(&v, 4);
}

static void put_i64(uint64_t v)
{
	put_type(MACH_MSG_TYPE_INTEGER_64, 64, 1, 1, 0);
	put(&v, 8);
}

static void put_port(struct right r)
{
	put_type(r.disp, 32, 1, 1, 0);
	mark(m.slot, &m.nslot);
	put(&r.name, 4);
}

/* An inline array of @number elements of @bits bits from @data, rounded
 * up to 4 bytes. */
static void put_array(unsigned int name, unsigned int bits, uint32_t number,
		      const void *data)
{
	size_t bytes = ((size_t)number * bits / 8 + 3) & ~(size_t)3;

	put_type(name, bits, number, 1, 0);
	memcpy(mem.send + m.len, data, bytes);
	m.len += bytes;
}

static void build_open(void)
{
	char name[128];
	size_t n;

	memset(name, 0, sizeof(name));
	switch (below(8)) {
	case 0 ... 3:
		strcpy(name, dev_names[below(NDEVS)]);
		break;
	case 4:
		strcpy(name, chance(2) ? "hd0s3" : chance(2) ? "rd1" : "eth1");
		break;
	case 5:			/* long, maybe without its NUL */
		memset(name, 'a' + below(26), sizeof(name) - below(2));
		break;
	case 6:			/* a valid name, then garbage after a NUL */
		strcpy(name, dev_names[below(NDEVS)]);
		n = strlen(name) + 1;
		for (size_t i = n; i < sizeof(name); i++)
			name[i] = (char)rnd();
		break;
	default:		/* empty or random bytes */
		n = below(2) ? 0 : 1 + below(sizeof(name));
		for (size_t i = 0; i < n; i++)
			name[i] = (char)rnd();
		break;
	}
	put_i32(pick_mode());
	put_type(MACH_MSG_TYPE_STRING_C, 8 * sizeof(name), 1, 1, 1);
	put(name, sizeof(name));
}

/* device_write's data: the write region (random bytes, then zeros), the
 * scratch region or a bad address. */
static void build_write(void)
{
	int32_t n = pick_bytes();
	uint64_t a = (uintptr_t)mem.write + (n < 0 || (uint32_t)n > RANDOM_BYTES ?
					0 : below(RANDOM_BYTES - n + 1));

	if (mem.scratch_ok && chance(8) && n >= 0 && (uint32_t)n <= SCRATCH_SIZE)
		a = SCRATCH_ADDR;
	put_i32(pick_mode());
	put_i64(pick_recnum());
	put_type(MACH_MSG_TYPE_INTEGER_8, 8, (uint32_t)n, 0, 1);
	mark(m.ool, &m.nool);
	if (chance(16))
		a = chance(2) ? 0 : chance(2) ? 0xffffffff80000000ull :
					   0x300000000000ull;
	put(&a, 8);
	if (a == SCRATCH_ADDR && chance(2))
		mem.send[m.len - 8 - 12 + 3] |= 0x40;	/* msgt_deallocate */
}

static void build_write_inband(void)
{
	uint32_t n = chance(8) ? 129 + below(16) : below(129);
	uint8_t data[256];

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)rnd();
	put_i32(pick_mode());
	put_i64(pick_recnum());
	put_array(MACH_MSG_TYPE_CHAR, 8, n, data);
}

static void build_read(void)
{
	put_i32(pick_mode());
	put_i64(pick_recnum());
	put_i32((uint32_t)pick_bytes());
}

static void build_map(void)
{
	put_i32(chance(2) ? below(8) : (uint32_t)rnd());
	put_i64(chance(2) ? 4096ull * below(64) : rnd());
	put_i64(chance(2) ? 4096ull * below(64) : rnd());
	put_i32(below(3));
}

static void build_set_status(void)
{
	uint32_t flavor = chance(2) ? NET_FLAGS : pick_flavor();
	uint32_t n = flavor == NET_FLAGS && chance(2) ? 1 :
		     chance(8) ? below(1025) : below(8);
	int32_t status[1024];

	for (uint32_t i = 0; i < n; i++)
		status[i] = flavor == NET_FLAGS ? pick_flags() :
			    chance(2) ? (int32_t)below(16) : (int32_t)rnd();
	put_i32(flavor);
	put_array(MACH_MSG_TYPE_INTEGER_32, 32, n, status);
}

static void build_get_status(void)
{
	uint32_t v[] = { 0, 1, 2, NET_STATUS_COUNT, below(64), 1024, 1025,
			 (uint32_t)rnd() };

	put_i32(pick_flavor());
	put_i32(v[below(COUNT_OF(v))]);
}

/* A filter program: accept everything (BPF, in or out, or CSPF), a
 * valid program cut short, or random words; 0 to 128 (or more) words. */
static void build_set_filter(void)
{
	uint16_t f[160];
	uint32_t n;
	struct bpf_insn all[] = {
		{ NETF_BPF | (chance(2) ? NETF_IN : NETF_OUT), 0, 0, 0 },
		{ BPF_RET | BPF_K, 0, 0, 262144 },
	};

	for (size_t i = 0; i < COUNT_OF(f); i++)
		f[i] = (uint16_t)rnd();
	switch (below(4)) {
	case 0 ... 1:
		memcpy(f, all, sizeof(all));
		n = sizeof(all) / (sizeof(f[0])) -
		    (chance(8) ? 1 + below(3) : 0);
		break;
	case 2:			/* CSPF: push 1, accept */
		f[0] = chance(2) ? NETF_IN : NETF_IN | NETF_OUT;
		f[1] = NETF_PUSHLIT;
		f[2] = 1;
		n = 3 + (chance(2) ? below(8) : 0);
		break;
	default:
		n = chance(8) ? 129 + below(32) : below(129);
		break;
	}
	put_port(pick_right());
	put_i32(chance(2) ? below(256) : (uint32_t)rnd());
	put_array(MACH_MSG_TYPE_INTEGER_16, 16, n, f);
}

/* An interrupt line: 0 to 20 (quiet lines among them), or any. */
static void build_intr_register(void)
{
	put_i32(chance(8) ? (uint32_t)rnd() : below(21));
	put_i32(chance(8) ? 1u << below(32) : 0);
	put_port(pick_right());
}

/* claim.defs: a PCI function (bus, slot, function: mostly real ones),
 * a BAR, a configuration access, a DMA size and limit. */
static void build_claim_pci(void)
{
	put_i32(chance(8) ? (uint32_t)rnd() : below(2));
	put_i32(chance(8) ? (uint32_t)rnd() : below(34));
	put_i32(chance(8) ? (uint32_t)rnd() : below(9));
}

static void build_claim_bar(void)
{
	put_i32(chance(8) ? (uint32_t)rnd() : below(8));
}

static void build_claim_config(void)
{
	uint32_t widths[] = { 1, 2, 4, 3, 0, 8 };

	put_i32(chance(8) ? (uint32_t)rnd() : below(260));
	put_i32(chance(8) ? (uint32_t)rnd() : widths[below(6)]);
}

static void build_claim_config_write(void)
{
	build_claim_config();
	put_i32((uint32_t)rnd());
}

static void build_claim_intr_register(void)
{
	put_port(pick_right());
}

static void build_claim_dma(void)
{
	uint64_t limits[] = { 0, 16u << 20, 1ull << 32, 4096, (uint64_t)rnd() };

	put_i64(chance(8) ? rnd() : 1 + below(1u << 20));
	put_i64(limits[below(5)]);
}

/* Items of any routine, for the ids device.defs leaves unused. */
static void build_any(void)
{
	for (int n = below(4); n > 0; n--) {
		switch (below(4)) {
		case 0:
			put_i32(pick_mode());
			break;
		case 1:
			put_i64(pick_recnum());
			break;
		case 2:
			put_port(pick_right());
			break;
		default:
			build_write();
			break;
		}
	}
}

static const struct {
	int id, weight, dest;	/* dest: a device index, -1 any, -2 master */
	void (*build)(void);
} routines[] = {
	{ ID_OPEN, 10, -2, build_open },
	{ ID_CLOSE, 3, -1, NULL },
	{ ID_WRITE, 10, -1, build_write },
	{ ID_WRITE_INBAND, 9, -1, build_write_inband },
	{ ID_READ, 12, -1, build_read },
	{ ID_READ_INBAND, 9, -1, build_read },
	{ ID_MAP, 2, -1, build_map },
	{ ID_SET_STATUS, 9, ETH0, build_set_status },
	{ ID_GET_STATUS, 8, -1, build_get_status },
	{ ID_SET_FILTER, 8, ETH0, build_set_filter },
	{ ID_INTR_REG, 8, IRQ, build_intr_register },
	{ ID_INTR_ACK, 5, IRQ, NULL },
	{ 0, 6, -1, build_any },	/* 2806-2808, 2815-2829 */
	{ ID_CLAIM_PCI, 3, -2, build_claim_pci },
	{ ID_CLAIM_ID, 1, -3, NULL },
	{ ID_CLAIM_BAR, 2, -3, build_claim_bar },
	{ ID_CLAIM_CFG_READ, 3, -3, build_claim_config },
	{ ID_CLAIM_CFG_WRITE, 3, -3, build_claim_config_write },
	{ ID_CLAIM_IO_GRANT, 2, -3, build_claim_bar },
	{ ID_CLAIM_INTR_REG, 2, -3, build_claim_intr_register },
	{ ID_CLAIM_INTR_ACK, 1, -3, NULL },
	{ ID_CLAIM_MAP, 2, -3, build_claim_bar },
	{ ID_CLAIM_DMA, 2, -3, build_claim_dma },
};

static void build(void)
{
	mach_msg_header_t *h = (mach_msg_header_t *)(void *)mem.send;
	uint32_t w = 0, r;
	size_t k = 0;
	struct right reply = pick_right();

	for (k = 0; k < COUNT_OF(routines); k++)
		w += routines[k].weight;
	r = below(w);
	for (k = 0; r >= (uint32_t)routines[k].weight; k++)
		r -= routines[k].weight;
	memset(&m, 0, sizeof(m));
	memset(h, 0, sizeof(*h));
	m.len = sizeof(*h);
	h->msgh_remote_port = pick_dest(routines[k].dest);
	if (chance(4)) {
		reply.name = held.ports[below(NPORTS)];
		reply.disp = MACH_MSG_TYPE_MAKE_SEND_ONCE;
	}
	h->msgh_local_port = reply.name;
	h->msgh_bits = MACH_MSGH_BITS(chance(64) ? MACH_MSG_TYPE_MOVE_SEND :
				      MACH_MSG_TYPE_COPY_SEND, reply.disp);
	h->msgh_id = routines[k].id;
	if (routines[k].id == ID_INTR_ACK)
		put_port(pick_right());
	else if (routines[k].build != NULL)
		routines[k].build();
	if (routines[k].id == 0) {
		uint32_t unused[] = { 2806, 2807, 2808 };

		h->msgh_id = chance(4) ? unused[below(3)] : 2815 + below(15);
	}
	if (m.complex)
		h->msgh_bits |= MACH_MSGH_BITS_COMPLEX;
	h->msgh_size = m.send_size = m.len;
	m.opt = MACH_SEND_MSG | MACH_SEND_TIMEOUT;
}

/* --- Mutating --- */

/* A type descriptor: a bit or byte of its first word (name, size,
 * number, inline, longform, deallocate, unused), or a long form's
 * name and size or number. */
static void mutate_desc(size_t off)
{
	uint32_t w[3];

	memcpy(w, mem.send + off, sizeof(w));	/* may read past the end */
	switch (below(4)) {
	case 0:
		w[0] ^= 1u << below(32);
		break;
	case 1:
		((uint8_t *)w)[below(4)] = (uint8_t)rnd();
		break;
	case 2:
		w[1] = chance(2) ? random_disp() | (32u << below(2)) << 16 :
				   (uint32_t)rnd();
		break;
	default:
		w[2] = chance(2) ? (uint32_t)pick_bytes() :
				   (1u << below(32)) + below(3) - 1;
		break;
	}
	memcpy(mem.send + off, w, sizeof(w));
}

static void mutate(void)
{
	mach_msg_header_t *h = (mach_msg_header_t *)(void *)mem.send;
	uint32_t sizes[] = { m.len - 4 * below(8), m.len + 4 * below(16),
			     below(48), SEND_REGION - 4 * below(2),
			     SEND_REGION + 4 * below(3), (uint32_t)rnd() };
	uint64_t bad[] = { 0, 0x10, 0x300000000000ull + 4096ull * below(16),
			   0xffffffff80000000ull + 4096ull * below(256),
			   0xffff800000000000ull, USER_END - 8 * below(3),
			   (uintptr_t)mem.write + WRITE_REGION - below(4096),
			   (uintptr_t)mem.send + below(4096), rnd() };
	struct right r;

	for (int n = 1 + below(3); n > 0; n--) {
		switch (below(12)) {
		case 0:
			h->msgh_bits ^= 1u << below(32);
			break;
		case 1:
			r = pick_right();
			h->msgh_bits = MACH_MSGH_BITS(random_disp(), r.disp) |
				       (h->msgh_bits & MACH_MSGH_BITS_COMPLEX);
			break;
		case 2:
			h->msgh_size = chance(2) ? (uint32_t)rnd() :
					m.len + 4 * below(9) - 16;
			break;
		case 3:
			m.send_size = sizes[below(COUNT_OF(sizes))];
			break;
		case 4 ... 5:
			if (m.ndesc > 0)
				mutate_desc(m.desc[below(m.ndesc)]);
			break;
		case 6:
			r = pick_right();
			if (m.nslot > 0)
				memcpy(mem.send + m.slot[below(m.nslot)], &r.name,
				       4);
			break;
		case 7:
			if (m.nool > 0)
				memcpy(mem.send + m.ool[below(m.nool)],
				       &bad[below(COUNT_OF(bad))], 8);
			break;
		case 8:
			for (int i = 1 + below(4); i > 0; i--)
				mem.send[sizeof(*h) + below(m.len - sizeof(*h) + 1)]
					^= 1u << below(8);
			break;
		case 9:
			r = pick_right();
			if (chance(2))
				h->msgh_remote_port = r.name;
			else
				h->msgh_local_port = r.name;
			break;
		case 10:
			h->msgh_id = (mach_msg_id_t)(
				chance(2) ? ID_FIRST + below(ID_END - ID_FIRST) :
				chance(2) ? 64 + below(16) :
				chance(2) ? 2000 + below(2400) : (uint32_t)rnd());
			break;
		default:
			m.opt |= 1u << below(20);
			break;
		}
	}
	/* Never a receive: never a wait. */
	m.opt = (m.opt & ~MACH_RCV_MSG) | MACH_SEND_TIMEOUT;
}

/* --- Keeping the fuzzer whole --- */

/* Is @name a right this task may send device.defs ids to, or have
 * answered to, whatever the id? */
static int known_dest(mach_port_t name)
{
	return name == held.master || is_dev(name) ||
	       (name == held.claim && MACH_PORT_VALID(name));
}

/* Is @id one of the interfaces' this fuzzer speaks? */
static int known_id(mach_msg_id_t id)
{
	return (id >= ID_FIRST && id < ID_END) ||
	       (id >= CLAIM_FIRST && id < CLAIM_END);
}

static int known_reply(mach_port_t name)
{
	return !MACH_PORT_VALID(name) || name == held.dead ||
	       fuzz_is_own(name) || is_sonce(name) || known_dest(name);
}

/* Tame what reaches the console: text only, CONSOLE_WRITE bytes at
 * most per write, CONSOLE_READ per read. */
static void tame_console(void)
{
	mach_msg_header_t *h = (mach_msg_header_t *)(void *)mem.send;
	uint32_t v;
	uint64_t a = (uintptr_t)mem.text;

	if (m.send_size > SEND_REGION)
		return;
	if (h->msgh_id == ID_WRITE_INBAND)
		for (size_t i = OFF_DATA; i < m.send_size; i++)
			mem.send[i] = (uint8_t)mem.text[i % sizeof(mem.text)];
	if (h->msgh_id == ID_READ && m.send_size >= OFF_DATA + 4) {
		memcpy(&v, mem.send + OFF_DATA, 4);
		if (v > CONSOLE_READ)
			v = below(CONSOLE_READ + 1);
		memcpy(mem.send + OFF_DATA, &v, 4);
	}
	if (h->msgh_id == ID_WRITE && m.send_size >= OFF_OOL_ADDR + 8) {
		memcpy(&v, mem.send + OFF_OOL_NUMBER, 4);
		if (v > CONSOLE_WRITE)
			v = below(CONSOLE_WRITE + 1);
		memcpy(mem.send + OFF_OOL_NUMBER, &v, 4);
		a += below(sizeof(mem.text) - CONSOLE_WRITE);
		memcpy(mem.send + OFF_OOL_ADDR, &a, 8);
	}
}

static void sanitize(void)
{
	mach_msg_header_t *h = (mach_msg_header_t *)(void *)mem.send;
	size_t off = sizeof(*h), end = m.send_size;
	mach_port_t mig = mig_get_reply_port();
	struct msg_item it;

	if (h->msgh_remote_port == held.self ||
	    h->msgh_remote_port == held.host || h->msgh_remote_port == mig)
		h->msgh_remote_port = held.master;
	if (h->msgh_local_port == mig)
		h->msgh_local_port = held.ports[0];
	if (!known_id(h->msgh_id) &&
	    (!known_dest(h->msgh_remote_port) ||
	     !known_reply(h->msgh_local_port)))
		h->msgh_id = ID_FIRST + below(ID_END - ID_FIRST);
	if (h->msgh_remote_port == held.devs[CONSOLE] &&
	    held.devs[CONSOLE] != MACH_PORT_NULL)
		tame_console();
	if (!(h->msgh_bits & MACH_MSGH_BITS_COMPLEX) || end > SEND_REGION ||
	    end < off || (end & 3))
		return;			/* no item will be read */
	for (; off < end && msg_item_parse(mem.send, off, end, &it) == 0;
	     off = it.next) {
		uint64_t a = rd64(mem.send + it.data);
		uint64_t len = it.port ? 4ull * it.number : it.bytes;

		if (!it.is_inline && it.dealloc && a < USER_END &&
		    (a < SCRATCH_ADDR || len > SCRATCH_SIZE ||
		     a + len > SCRATCH_ADDR + SCRATCH_SIZE))
			mem.send[it.at + 3] &= ~0x40;	/* msgt_deallocate */
	}
}

void fuzz_message(mach_msg_size_t *size, mach_msg_option_t *option)
{
	build();
	if (chance(2))
		mutate();
	sanitize();
	*size = m.send_size;
	*option = m.opt;
}

void fuzz_dump(unsigned long n, mach_msg_size_t size,
	       mach_msg_option_t option)
{
	mach_msg_header_t *h = (mach_msg_header_t *)(void *)mem.send;

	printf("FUZZ-MSG %lu opt 0x%x send %u: bits 0x%x size %u remote 0x%x "
	       "local 0x%x id %d:", n, option, size, h->msgh_bits,
	       h->msgh_size, h->msgh_remote_port, h->msgh_local_port,
	       h->msgh_id);
	for (size_t k = sizeof(*h); k + 4 <= size && k < 512; k += 4)
		printf(" %08x", *(uint32_t *)(mem.send + k));
	printf("\n");
	fflush(stdout);
}
