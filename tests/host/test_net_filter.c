/* SPDX-License-Identifier: GPL-2.0-only */
/* Host tests of filter programs: tcpdump-compiled BPF on real frames, the
 * validators, BPF and NETF semantics (kernel/net/net_program.c). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "kern/ktest.h"
#include "net/net_bpf.h"
#include "net/net_frame.h"
#include "net/net_program.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ETH_HLEN 14

struct bpf_program_entry {
	const char *name;
	const char *expr;
	const struct bpf_insn *insns;
	unsigned int n;
};

/* Generated at build time from tcpdump -dd (tools/gen_bpf_programs.sh). */
#include "tests/host/net_bpf_programs.h"

static const struct bpf_program_entry *program(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bpf_programs); i++)
		if (strcmp(bpf_programs[i].name, name) == 0)
			return &bpf_programs[i];
	return NULL;
}

/* ---- Frames, built byte by byte as they travel on the wire. ---- */

struct frame {
	uint8_t b[256];
	unsigned int len;
};

static void put(struct frame *f, const void *p, unsigned int n)
{
	memcpy(f->b + f->len, p, n);
	f->len += n;
}

static void put16(struct frame *f, unsigned int v)
{
	uint8_t b[2] = { (uint8_t)(v >> 8), (uint8_t)v };

	put(f, b, 2);
}

static void put_zero(struct frame *f, unsigned int n)
{
	memset(f->b + f->len, 0, n);
	f->len += n;
}

static const uint8_t mac_bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
static const uint8_t mac_a[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
static const uint8_t mac_b[6] = { 0x52, 0x54, 0x00, 0xab, 0xcd, 0xef };

static void eth(struct frame *f, const uint8_t *dst, unsigned int type)
{
	f->len = 0;
	put(f, dst, 6);
	put(f, mac_a, 6);
	put16(f, type);
}

/* IPv4 header: @proto, @payload bytes after it, fragment offset @frag. */
static void ipv4(struct frame *f, unsigned int proto, unsigned int payload,
		 unsigned int frag)
{
	static const uint8_t addrs[8] = { 10, 0, 2, 15, 10, 0, 2, 2 };

	put16(f, 0x4500);
	put16(f, 20 + payload);
	put16(f, 0x1234);
	put16(f, frag);
	put16(f, 0x4000 | proto);	/* TTL 64, protocol */
	put16(f, 0);
	put(f, addrs, 8);
}

static void udp(struct frame *f, unsigned int dport, unsigned int data)
{
	put16(f, 40000);
	put16(f, dport);
	put16(f, 8 + data);
	put16(f, 0);
	put_zero(f, data);
}

enum frame_kind { ARP_REQUEST, UDP_PORT_9, UDP_PORT_10, UDP_PORT_9_BIG,
		  UDP_PORT_9_FRAGMENT, UDP_PORT_9_TRUNCATED, TCP, IPV6_UDP_9,
		  VLAN_UDP_9, SHORT_ETHERTYPE_ONLY };

static const char *const frame_names[] = {
	"arp_request", "udp_port_9", "udp_port_10", "udp_port_9_big",
	"udp_port_9_fragment", "udp_port_9_truncated", "tcp",
	"ipv6_udp_9", "vlan_udp_9", "short_ethertype_only",
};

static void build(struct frame *f, enum frame_kind kind)
{
	switch (kind) {
	case ARP_REQUEST:
		eth(f, mac_bcast, 0x0806);
		put16(f, 1);		/* Ethernet */
		put16(f, 0x0800);	/* IPv4 */
		put16(f, 0x0604);
		put16(f, 1);		/* request */
		put(f, mac_a, 6);
		put_zero(f, 4);
		put_zero(f, 6);
		put_zero(f, 4);
		put_zero(f, 18);	/* padding to 60 bytes */
		break;
	case UDP_PORT_9:
	case UDP_PORT_10:
		eth(f, mac_b, 0x0800);
		ipv4(f, 17, 16, 0);
		udp(f, kind == UDP_PORT_9 ? 9 : 10, 8);
		break;
	case UDP_PORT_9_BIG:
		eth(f, mac_b, 0x0800);
		ipv4(f, 17, 72, 0);
		udp(f, 9, 64);
		break;
	case UDP_PORT_9_FRAGMENT:	/* a later fragment: no UDP header */
		eth(f, mac_b, 0x0800);
		ipv4(f, 17, 16, 0x0003);
		udp(f, 9, 8);
		break;
	case UDP_PORT_9_TRUNCATED:	/* ends inside the UDP header */
		eth(f, mac_b, 0x0800);
		ipv4(f, 17, 16, 0);
		udp(f, 9, 8);
		f->len = ETH_HLEN + 20 + 3;
		break;
	case TCP:
		eth(f, mac_b, 0x0800);
		ipv4(f, 6, 20, 0);
		put16(f, 40000);
		put16(f, 80);
		put_zero(f, 16);
		break;
	case IPV6_UDP_9:
		eth(f, mac_b, 0x86dd);
		put16(f, 0x6000);
		put16(f, 0);
		put16(f, 16);		/* payload length */
		put16(f, 0x1140);	/* next header UDP, hop limit 64 */
		put_zero(f, 32);	/* addresses */
		udp(f, 9, 8);
		break;
	case VLAN_UDP_9:
		eth(f, mac_b, 0x8100);
		put16(f, 5);		/* VLAN 5 */
		put16(f, 0x0800);
		ipv4(f, 17, 16, 0);
		udp(f, 9, 8);
		break;
	case SHORT_ETHERTYPE_ONLY:
		eth(f, mac_b, 0x0800);
		break;
	}
}

/* Split @kind into @nf; false if net_frame_fill refused it. */
static bool frame_of(struct net_frame *nf, enum frame_kind kind)
{
	struct frame f;

	build(&f, kind);
	return net_frame_fill(nf, f.b, f.len, ETH_HLEN) == D_SUCCESS;
}

/* ---- Programs in device_set_filter's words. ---- */

struct words {
	filter_t w[NET_MAX_FILTER + 8];
	unsigned int count;
};

/* The NETF_BPF header instruction with @flags, then @n instructions. */
static void bpf_words(struct words *w, unsigned int flags,
		      const struct bpf_insn *insns, unsigned int n)
{
	struct bpf_insn head = { NETF_BPF | flags, 0, 0, 0 };

	memcpy(w->w, &head, sizeof(head));
	memcpy((uint8_t *)w->w + sizeof(head), insns, n * sizeof(*insns));
	w->count = (unsigned int)((n + 1) * sizeof(head) / sizeof(filter_t));
}

/* ---- tcpdump programs on real frames. ---- */

struct match_case {
	const char *program;
	enum frame_kind frame;
	bool accept;
};

static const struct match_case matches[] = {
	{ "arp", ARP_REQUEST, true },
	{ "arp", UDP_PORT_9, false },
	{ "arp", IPV6_UDP_9, false },
	{ "udp_dst_port_9", UDP_PORT_9, true },
	{ "udp_dst_port_9", UDP_PORT_10, false },
	{ "udp_dst_port_9", TCP, false },
	{ "udp_dst_port_9", ARP_REQUEST, false },
	{ "udp_dst_port_9", IPV6_UDP_9, true },
	{ "udp_dst_port_9", UDP_PORT_9_FRAGMENT, false },
	{ "udp_dst_port_9", UDP_PORT_9_TRUNCATED, false },
	{ "udp_dst_port_9", VLAN_UDP_9, false },
	{ "udp_dst_port_9", SHORT_ETHERTYPE_ONLY, false },
	{ "ip_and_tcp", TCP, true },
	{ "ip_and_tcp", UDP_PORT_9, false },
	{ "ip_and_tcp", IPV6_UDP_9, false },
	{ "ip_and_tcp", ARP_REQUEST, false },
	{ "vlan", VLAN_UDP_9, true },
	{ "vlan", UDP_PORT_9, false },
	{ "ip6", IPV6_UDP_9, true },
	{ "ip6", UDP_PORT_9, false },
	{ "greater_100", UDP_PORT_9_BIG, true },	/* 106-byte frame */
	{ "greater_100", UDP_PORT_9, false },		/* 50 bytes */
	{ "multicast", ARP_REQUEST, true },		/* broadcast */
	{ "multicast", UDP_PORT_9, false },
};

static void tcpdump_programs_accept_the_right_frames(struct ktest *t)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(matches); i++) {
		const struct match_case *c = &matches[i];
		const struct bpf_program_entry *e = program(c->program);
		static struct net_program p;
		static struct net_frame f;
		struct words w;
		io_return_t rc;
		unsigned int got, want;

		if (e == NULL) {
			ktest_fail(t, "no generated program %s", c->program);
			continue;
		}
		bpf_words(&w, NETF_IN, e->insns, e->n);
		rc = net_program_load(&p, w.w, w.count);
		if (rc != D_SUCCESS) {
			ktest_fail(t, "'%s': load gave %d, want D_SUCCESS",
				   e->expr, rc);
			continue;
		}
		if (!frame_of(&f, c->frame)) {
			ktest_fail(t, "frame %s refused by net_frame_fill",
				   frame_names[c->frame]);
			continue;
		}
		got = net_program_run(&p, &f);
		/* tcpdump's accept returns 262144: the whole packet. */
		want = c->accept ? f.count : 0;
		if (got != want)
			ktest_fail(t, "'%s' on %s: delivered %u bytes, want %u",
				   e->expr, frame_names[c->frame], got, want);
	}
}

static void every_generated_program_validates(struct ktest *t)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bpf_programs); i++) {
		static struct net_program p;
		struct words w;
		io_return_t rc;

		bpf_words(&w, NETF_IN | NETF_OUT, bpf_programs[i].insns,
			  bpf_programs[i].n);
		rc = net_program_load(&p, w.w, w.count);
		if (rc != D_SUCCESS)
			ktest_fail(t, "'%s': load gave %d, want D_SUCCESS",
				   bpf_programs[i].expr, rc);
	}
}

/* ---- Frames net_frame_fill refuses or splits. ---- */

static void frame_split_matches_net_rcv_msg(struct ktest *t)
{
	static struct net_frame f;
	struct packet_header ph;
	struct frame raw;
	uint8_t zeros[NET_HDW_HDR_MAX - ETH_HLEN] = { 0 };

	build(&raw, UDP_PORT_9);
	KTEST_EXPECT_EQ(t, net_frame_fill(&f, raw.b, raw.len, ETH_HLEN),
			D_SUCCESS);
	KTEST_EXPECT_MEMEQ(t, f.header, raw.b, ETH_HLEN);
	KTEST_EXPECT_MEMEQ(t, f.header + ETH_HLEN, zeros, sizeof(zeros));
	memcpy(&ph, f.packet, sizeof(ph));
	KTEST_EXPECT_EQ(t, ph.length, raw.len - ETH_HLEN + 4);
	KTEST_EXPECT_MEMEQ(t, &ph.type, raw.b + 12, 2);
	KTEST_EXPECT_EQ(t, f.count, raw.len - ETH_HLEN + 4);
	KTEST_EXPECT_MEMEQ(t, f.packet + 4, raw.b + ETH_HLEN,
			   raw.len - ETH_HLEN);
}

static void frames_shorter_than_header_or_too_long_are_refused(
	struct ktest *t)
{
	static uint8_t big[ETH_HLEN + NET_FRAME_DATA_MAX + 1];
	static struct net_frame f;

	KTEST_EXPECT_EQ(t, net_frame_fill(&f, big, ETH_HLEN - 1, ETH_HLEN),
			D_INVALID_SIZE);
	KTEST_EXPECT_EQ(t, net_frame_fill(&f, big, sizeof(big), ETH_HLEN),
			D_INVALID_SIZE);
	KTEST_EXPECT_EQ(t, net_frame_fill(&f, big, sizeof(big) - 1, ETH_HLEN),
			D_SUCCESS);
	KTEST_EXPECT_EQ(t, f.count, NET_RCV_MAX);
	KTEST_EXPECT_EQ(t, net_frame_fill(&f, big, ETH_HLEN, ETH_HLEN),
			D_SUCCESS);
	KTEST_EXPECT_EQ(t, f.count, 4);
	KTEST_EXPECT_EQ(t, net_frame_fill(&f, big, 80, NET_HDW_HDR_MAX + 1),
			D_INVALID_SIZE);
}

/* ---- BPF validation. ---- */

#define STMT(c, k)		{ (unsigned short)(c), 0, 0, (k) }
#define JUMP(c, k, jt, jf)	{ (unsigned short)(c), (jt), (jf), (k) }
#define RET_ALL			STMT(BPF_RET | BPF_K, 0x40000)
#define MAX_INSNS		40

struct bpf_case {
	const char *name;
	unsigned int flags;
	unsigned int n;
	struct bpf_insn insns[MAX_INSNS];
	io_return_t want;
};

static const struct bpf_case bpf_cases[] = {
	{ "accept_all", NETF_IN, 1, { RET_ALL }, D_SUCCESS },
	{ "header_only_has_no_ret", NETF_IN, 0, { }, D_INVALID_OPERATION },
	{ "neither_in_nor_out", 0, 1, { RET_ALL }, D_INVALID_OPERATION },
	{ "out_only_is_valid", NETF_OUT, 1, { RET_ALL }, D_SUCCESS },
	{ "no_final_ret", NETF_IN, 2,
	  { RET_ALL, STMT(BPF_LD | BPF_IMM, 1) }, D_INVALID_OPERATION },
	{ "jump_past_end", NETF_IN, 3,
	  { JUMP(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 2), RET_ALL,
	    STMT(BPF_RET | BPF_K, 0) }, D_INVALID_OPERATION },
	{ "jump_to_last", NETF_IN, 3,
	  { JUMP(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 1), RET_ALL,
	    STMT(BPF_RET | BPF_K, 0) }, D_SUCCESS },
	{ "jump_always_past_end", NETF_IN, 2,
	  { STMT(BPF_JMP | BPF_JA, 1), RET_ALL }, D_INVALID_OPERATION },
	{ "jump_always_huge", NETF_IN, 2,
	  { STMT(BPF_JMP | BPF_JA, -1), RET_ALL }, D_INVALID_OPERATION },
	{ "division_by_constant_zero", NETF_IN, 2,
	  { STMT(BPF_ALU | BPF_DIV | BPF_K, 0), RET_ALL },
	  D_INVALID_OPERATION },
	{ "modulo_by_constant_zero", NETF_IN, 2,
	  { STMT(BPF_ALU | NET_BPF_MOD | BPF_K, 0), RET_ALL },
	  D_INVALID_OPERATION },
	{ "division_by_x_is_checked_at_run_time", NETF_IN, 2,
	  { STMT(BPF_ALU | BPF_DIV | BPF_X, 0), RET_ALL }, D_SUCCESS },
	{ "store_beyond_scratch", NETF_IN, 2,
	  { STMT(BPF_ST, BPF_MEMWORDS), RET_ALL }, D_INVALID_OPERATION },
	{ "load_x_beyond_scratch", NETF_IN, 2,
	  { STMT(BPF_LDX | BPF_W | BPF_MEM, BPF_MEMWORDS), RET_ALL },
	  D_INVALID_OPERATION },
	{ "unknown_opcode", NETF_IN, 2,
	  { STMT(BPF_LD | BPF_H | BPF_LEN, 0), RET_ALL },
	  D_INVALID_OPERATION },
	{ "unknown_class_misc_op", NETF_IN, 2,
	  { STMT(BPF_MISC | 0x40, 0), RET_ALL }, D_INVALID_OPERATION },
	{ "match_session_insn_not_supported", NETF_IN, 3,
	  { JUMP(BPF_RET | BPF_MATCH_IMM, 0x40000, 1, 0),
	    STMT(BPF_MISC | BPF_KEY, 0), RET_ALL }, D_INVALID_OPERATION },
	{ "thirty_one_insns_fit", NETF_IN, NET_MAX_BPF - 1,
	  { [NET_MAX_BPF - 2] = RET_ALL }, D_SUCCESS },
	{ "thirty_two_insns_too_long", NETF_IN, NET_MAX_BPF,
	  { [NET_MAX_BPF - 1] = RET_ALL }, D_INVALID_OPERATION },
};

static void bpf_validation_cases(struct ktest *t)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bpf_cases); i++) {
		const struct bpf_case *c = &bpf_cases[i];
		static struct net_program p;
		struct words w;
		io_return_t rc;

		bpf_words(&w, c->flags, c->insns, c->n);
		rc = net_program_load(&p, w.w, w.count);
		if (rc != c->want)
			ktest_fail(t, "%s: load gave %d, want %d", c->name, rc,
				   c->want);
	}
}

static void malformed_word_lists_are_refused(struct ktest *t)
{
	static const struct bpf_insn ret = RET_ALL;
	static struct net_program p;
	struct words w = { .count = 0 };

	KTEST_EXPECT_EQ(t, net_program_load(&p, w.w, 0), D_INVALID_OPERATION);
	bpf_words(&w, NETF_IN, &ret, 1);
	KTEST_EXPECT_EQ(t, net_program_load(&p, w.w, w.count), D_SUCCESS);
	/* Not a whole number of instructions. */
	KTEST_EXPECT_EQ(t, net_program_load(&p, w.w, w.count - 1),
			D_INVALID_OPERATION);
	/* A kind that is neither NETF nor BPF. */
	w.w[0] = (2 << NETF_NBPA) | NETF_IN;
	KTEST_EXPECT_EQ(t, net_program_load(&p, w.w, w.count),
			D_INVALID_OPERATION);
	/* More words than device_set_filter carries. */
	memset(w.w, 0, sizeof(w.w));
	w.w[0] = NETF_IN;
	KTEST_EXPECT_EQ(t, net_program_load(&p, w.w, NET_MAX_FILTER + 1),
			D_INVALID_OPERATION);
}

/* ---- BPF semantics on one frame. ---- */

struct run_case {
	const char *name;
	unsigned int n;
	struct bpf_insn insns[8];
	unsigned int want;	/* data bytes delivered */
};

/* A, then A = A op K, returned. */
#define ALU_K(op, a, k)							\
	{ STMT(BPF_LD | BPF_IMM, (a)), STMT(BPF_ALU | (op) | BPF_K, (k)),	\
	  STMT(BPF_RET | BPF_A, 0) }

/* On UDP_PORT_9: 50 bytes, 14 of header, 36 of data. */
static const struct run_case run_cases[] = {
	{ "ret_k_keeps_that_many_data_bytes", 1,
	  { STMT(BPF_RET | BPF_K, 10) }, 10 },
	{ "ret_a_beyond_frame_keeps_all_data", 2,
	  { STMT(BPF_LD | BPF_IMM, 5000), STMT(BPF_RET | BPF_A, 0) }, 36 },
	{ "ret_zero_refuses", 1, { STMT(BPF_RET | BPF_K, 0) }, 0 },
	{ "len_exact_value", 4,
	  { STMT(BPF_LD | BPF_W | BPF_LEN, 0),
	    JUMP(BPF_JMP | BPF_JEQ | BPF_K, 50, 0, 1), RET_ALL,
	    STMT(BPF_RET | BPF_K, 0) }, 36 },
	{ "load_header_byte_at_0", 4,
	  { STMT(BPF_LD | BPF_B | BPF_ABS, 0),
	    JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x52, 0, 1), RET_ALL,
	    STMT(BPF_RET | BPF_K, 0) }, 36 },
	{ "load_straddling_header_and_data", 4,
	  { STMT(BPF_LD | BPF_W | BPF_ABS, 12),	/* 08 00 45 00 */
	    JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x08004500, 0, 1), RET_ALL,
	    STMT(BPF_RET | BPF_K, 0) }, 36 },
	{ "load_last_byte_ok", 2,
	  { STMT(BPF_LD | BPF_B | BPF_ABS, 49), RET_ALL }, 36 },
	{ "load_beyond_frame_refuses", 2,
	  { STMT(BPF_LD | BPF_B | BPF_ABS, 50), RET_ALL }, 0 },
	{ "word_load_half_beyond_refuses", 2,
	  { STMT(BPF_LD | BPF_W | BPF_ABS, 48), RET_ALL }, 0 },
	{ "indexed_load_wrapping_refuses", 3,
	  { STMT(BPF_LDX | BPF_W | BPF_IMM, -1),
	    STMT(BPF_LD | BPF_B | BPF_IND, 2), RET_ALL }, 0 },
	{ "division_by_x_zero_refuses", 2,
	  { STMT(BPF_ALU | BPF_DIV | BPF_X, 0), RET_ALL }, 0 },
	{ "shift_by_32_gives_zero", 4,
	  { STMT(BPF_LD | BPF_IMM, 7), STMT(BPF_LDX | BPF_W | BPF_IMM, 32),
	    STMT(BPF_ALU | BPF_LSH | BPF_X, 0), STMT(BPF_RET | BPF_A, 0) },
	  0 },
	{ "scratch_memory_round_trip", 5,
	  { STMT(BPF_LD | BPF_IMM, 20), STMT(BPF_ST, 15),
	    STMT(BPF_LD | BPF_IMM, 0), STMT(BPF_LD | BPF_MEM, 15),
	    STMT(BPF_RET | BPF_A, 0) }, 20 },
	/* ALU results as the return value: all below 36. */
	{ "alu_add", 3, ALU_K(BPF_ADD, 10, 5), 15 },
	{ "alu_sub", 3, ALU_K(BPF_SUB, 20, 3), 17 },
	{ "alu_mul", 3, ALU_K(BPF_MUL, 3, 7), 21 },
	{ "alu_div", 3, ALU_K(BPF_DIV, 35, 5), 7 },
	{ "alu_mod", 3, ALU_K(NET_BPF_MOD, 35, 8), 3 },
	{ "alu_and", 3, ALU_K(BPF_AND, 0x3f, 0x0f), 15 },
	{ "alu_or", 3, ALU_K(BPF_OR, 0x10, 0x03), 19 },
	{ "alu_xor", 3, ALU_K(NET_BPF_XOR, 0x1f, 0x0a), 21 },
	{ "alu_lsh", 3, ALU_K(BPF_LSH, 3, 2), 12 },
	{ "alu_rsh", 3, ALU_K(BPF_RSH, 48, 2), 12 },
	{ "alu_neg", 3, ALU_K(BPF_NEG, -5, 0), 5 },
	{ "alu_add_x", 4,
	  { STMT(BPF_LDX | BPF_W | BPF_IMM, 4), STMT(BPF_LD | BPF_IMM, 9),
	    STMT(BPF_ALU | BPF_ADD | BPF_X, 0), STMT(BPF_RET | BPF_A, 0) },
	  13 },
	{ "stx_and_ldx_mem_round_trip", 6,
	  { STMT(BPF_LDX | BPF_W | BPF_IMM, 22), STMT(BPF_STX, 3),
	    STMT(BPF_LDX | BPF_W | BPF_IMM, 0),
	    STMT(BPF_LDX | BPF_W | BPF_MEM, 3), STMT(BPF_MISC | BPF_TXA, 0),
	    STMT(BPF_RET | BPF_A, 0) }, 22 },
	{ "ldx_len_is_frame_length", 4,
	  { STMT(BPF_LDX | BPF_W | BPF_LEN, 0), STMT(BPF_MISC | BPF_TXA, 0),
	    STMT(BPF_ALU | BPF_SUB | BPF_K, 20), STMT(BPF_RET | BPF_A, 0) },
	  30 },
	{ "indexed_byte_load", 4,
	  { STMT(BPF_LDX | BPF_W | BPF_IMM, 10),
	    STMT(BPF_LD | BPF_B | BPF_IND, 4),	/* byte 14: 0x45 */
	    STMT(BPF_ALU | BPF_AND | BPF_K, 0x0f), STMT(BPF_RET | BPF_A, 0) },
	  5 },
	{ "tax_then_jset_x", 6,
	  { STMT(BPF_LD | BPF_IMM, 6), STMT(BPF_MISC | BPF_TAX, 0),
	    STMT(BPF_LD | BPF_IMM, 2),
	    JUMP(BPF_JMP | BPF_JSET | BPF_X, 0, 0, 1),
	    STMT(BPF_RET | BPF_K, 9), STMT(BPF_RET | BPF_K, 8) }, 9 },
	{ "jgt_is_strict", 4,
	  { STMT(BPF_LD | BPF_IMM, 5), JUMP(BPF_JMP | BPF_JGT | BPF_K, 5, 0, 1),
	    STMT(BPF_RET | BPF_K, 9), STMT(BPF_RET | BPF_K, 8) }, 8 },
	{ "jge_includes_equal", 4,
	  { STMT(BPF_LD | BPF_IMM, 5), JUMP(BPF_JMP | BPF_JGE | BPF_K, 5, 0, 1),
	    STMT(BPF_RET | BPF_K, 9), STMT(BPF_RET | BPF_K, 8) }, 9 },
	{ "msh_gives_ip_header_length", 3,
	  { STMT(BPF_LDX | BPF_B | BPF_MSH, 14), STMT(BPF_MISC | BPF_TXA, 0),
	    STMT(BPF_RET | BPF_A, 0) }, 20 },
};

static void bpf_run_semantics(struct ktest *t)
{
	static struct net_frame f;
	size_t i;

	if (!frame_of(&f, UDP_PORT_9)) {
		ktest_fail(t, "udp_port_9 frame refused");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(run_cases); i++) {
		const struct run_case *c = &run_cases[i];
		static struct net_program p;
		struct words w;
		unsigned int got, want;

		bpf_words(&w, NETF_IN, c->insns, c->n);
		if (net_program_load(&p, w.w, w.count) != D_SUCCESS) {
			ktest_fail(t, "%s: program refused", c->name);
			continue;
		}
		got = net_program_run(&p, &f);
		want = c->want ? c->want + 4 : 0;
		if (got != want)
			ktest_fail(t, "%s: delivered %u packet bytes, want %u",
				   c->name, got, want);
	}
}

/* ---- NETF (CSPF) programs. ---- */

/* The Ethernet type as a host-order word of the packet array (ARP:
 * bytes 08 06). */
static unsigned int type_word(unsigned int type)
{
	uint8_t b[2] = { (uint8_t)(type >> 8), (uint8_t)type };
	uint16_t w;

	memcpy(&w, b, 2);
	return w;
}

struct cspf_case {
	const char *name;
	unsigned int n;
	filter_t w[40];
	io_return_t load;
	bool accept_arp, accept_udp;
};

#define LIT(op)		(NETF_PUSHLIT | (op))
#define ARP_W		0x0608	/* type_word(0x0806) on little-endian */
#define IP_W		0x0008

static const struct cspf_case cspf_cases[] = {
	{ "empty_program_accepts_all", 0, { }, D_SUCCESS, true, true },
	{ "type_word_equals_arp", 3,
	  { NETF_PUSHWORD + 1, LIT(NETF_EQ), ARP_W }, D_SUCCESS, true, false },
	{ "header_word_6_is_the_type", 3,
	  { NETF_PUSHHDR + 6, LIT(NETF_EQ), IP_W }, D_SUCCESS, false, true },
	{ "cand_refuses_early", 3,
	  { NETF_PUSHWORD + 1, LIT(NETF_CAND), IP_W }, D_SUCCESS, false,
	  true },
	{ "cor_accepts_early", 6,
	  { NETF_PUSHWORD + 1, LIT(NETF_COR), ARP_W, NETF_PUSHZERO,
	    NETF_PUSHZERO | NETF_AND, NETF_PUSHZERO | NETF_AND }, D_SUCCESS,
	  true, false },
	{ "stack_word_compares_copies", 4,
	  { NETF_PUSHWORD + 1, NETF_PUSHSTK + 0, NETF_NOPUSH | NETF_EQ,
	    NETF_NOPUSH | NETF_AND }, D_SUCCESS, true, true },
	{ "indexed_word_beyond_packet_refuses", 3,
	  { LIT(NETF_NOP), 5000, NETF_PUSHIND }, D_SUCCESS, false, false },
	{ "packet_word_beyond_packet_refuses", 1,
	  { NETF_PUSHWORD + 900 }, D_SUCCESS, false, false },
	{ "literal_missing", 1, { LIT(NETF_EQ) }, D_INVALID_OPERATION, false, false },
	{ "undefined_operand", 1, { 3 }, D_INVALID_OPERATION, false, false },
	{ "undefined_operator", 1, { NETF_PUSHZERO | (18 << NETF_NBPA) },
	  D_INVALID_OPERATION, false, false },
	{ "pop_of_empty_stack", 2,
	  { NETF_NOPUSH | NETF_NOP, NETF_NOPUSH | NETF_EQ },
	  D_INVALID_OPERATION, false, false },
	{ "stack_word_below_bottom", 1, { NETF_PUSHSTK + 1 },
	  D_INVALID_OPERATION, false, false },
	{ "stack_ends_empty", 1, { NETF_PUSHZERO | NETF_CAND },
	  D_INVALID_OPERATION, false, false },
	{ "stack_overflow", 32,
	  { [0 ... 31] = NETF_PUSHZERO }, D_INVALID_OPERATION, false, false },
	{ "stack_full_is_fine", 31,
	  { [0 ... 30] = NETF_PUSHZERO }, D_SUCCESS, false, false },
};

static void cspf_cases_load_and_run(struct ktest *t)
{
	static struct net_frame arp, ip;
	size_t i;

	KTEST_EXPECT_EQ(t, type_word(0x0806), ARP_W);
	if (!frame_of(&arp, ARP_REQUEST) || !frame_of(&ip, UDP_PORT_9)) {
		ktest_fail(t, "frames refused");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(cspf_cases); i++) {
		const struct cspf_case *c = &cspf_cases[i];
		static struct net_program p;
		filter_t w[41];
		io_return_t rc;
		unsigned int a, u;

		w[0] = NETF_IN;
		memcpy(w + 1, c->w, c->n * sizeof(filter_t));
		rc = net_program_load(&p, w, c->n + 1);
		if (rc != c->load) {
			ktest_fail(t, "%s: load gave %d, want %d", c->name, rc,
				   c->load);
			continue;
		}
		if (rc != D_SUCCESS)
			continue;
		a = net_program_run(&p, &arp);
		u = net_program_run(&p, &ip);
		if (a != (c->accept_arp ? arp.count : 0) ||
		    u != (c->accept_udp ? ip.count : 0))
			ktest_fail(t, "%s: arp %u udp %u bytes, want arp %s udp %s",
				   c->name, a, u,
				   c->accept_arp ? "all" : "0",
				   c->accept_udp ? "all" : "0");
	}
}

static const struct ktest_case cases[] = {
	{ "tcpdump_programs_accept_the_right_frames",
	  tcpdump_programs_accept_the_right_frames },
	{ "every_generated_program_validates",
	  every_generated_program_validates },
	{ "frame_split_matches_net_rcv_msg", frame_split_matches_net_rcv_msg },
	{ "frames_shorter_than_header_or_too_long_are_refused",
	  frames_shorter_than_header_or_too_long_are_refused },
	{ "bpf_validation_cases", bpf_validation_cases },
	{ "malformed_word_lists_are_refused", malformed_word_lists_are_refused },
	{ "bpf_run_semantics", bpf_run_semantics },
	{ "cspf_cases_load_and_run", cspf_cases_load_and_run },
};

KTEST_SUITE(netfilter_host_suite, "netfilter-host", cases);
