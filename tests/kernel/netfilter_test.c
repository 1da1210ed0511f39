/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "netfilter": filter tables deliver net_rcv_msg to ports. */
/*
 * Each case makes a space, gives its ports' send rights to a filter table
 * (kernel/net/net_filter.c) with Ethernet's 14-byte header, offers frames
 * built here, and receives what arrived with mach_msg_kernel() into a
 * struct net_rcv_msg, as a device's client would.  Every case ends with
 * the table and the space destroyed and checks that heap bytes, ports,
 * spaces and messages are back where they were.
 */
#include <stddef.h>
#include <stdint.h>

#include <device/bpf.h>
#include <device/net_status.h>
#include <mach/message.h>
#include <mach/port.h>

#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_port.h"
#include "ipc/ipc_space.h"
#include "ipc/mach_msg.h"
#include "ipc/mach_port.h"
#include "kern/kalloc.h"
#include "kern/ktest.h"
#include "kern/string.h"
#include "kern/bootstrap.h"
#include "kern/console.h"
#include "kern/task.h"
#include "net/net_filter.h"
#include "tests/kernel/user_task.h"
#include "tests/user/net_rcv_protocol.h"

#define ETH_HLEN	14
#define T_IPV4		0x0800
#define T_ARP		0x0806
#define T_IPV6		0x86dd
#define ALL		0x40000		/* tcpdump's "whole packet" */

struct counts {
	uint64_t bytes;
	unsigned int ports, spaces, kmsgs;
};

static void counts_take(struct counts *c)
{
	c->bytes = kalloc_bytes_in_use();
	c->ports = ipc_port_count();
	c->spaces = ipc_space_count();
	c->kmsgs = ipc_kmsg_count();
}

/* The space and table of one case, and what the kernel held before. */
struct fixture {
	struct counts before;
	struct ipc_space *s;
	struct net_filter_table *t;
};

static bool fixture_open(struct ktest *t, struct fixture *f)
{
	counts_take(&f->before);
	f->s = ipc_space_create();
	f->t = net_filter_table_create(ETH_HLEN);
	if (f->s == NULL || f->t == NULL) {
		ktest_fail(t, "no space or table");
		return false;
	}
	return true;
}

static void fixture_close(struct ktest *t, struct fixture *f)
{
	struct counts now;

	net_filter_table_destroy(f->t);
	ipc_space_destroy(f->s);
	counts_take(&now);
	KTEST_EXPECT_EQ(t, now.ports, f->before.ports);
	KTEST_EXPECT_EQ(t, now.spaces, f->before.spaces);
	KTEST_EXPECT_EQ(t, now.kmsgs, f->before.kmsgs);
	KTEST_EXPECT_EQ(t, now.bytes, f->before.bytes);
}

/* A receiver in @f's space: its name, and the port for counting. */
struct rcv {
	mach_port_name_t name;
	struct ipc_port *port;
};

static void rcv_new(struct ktest *t, struct fixture *f, struct rcv *r)
{
	mach_msg_type_name_t type;

	r->name = MACH_PORT_NULL;
	r->port = NULL;
	if (mach_port_allocate(f->s, MACH_PORT_RIGHT_RECEIVE, &r->name) !=
		    KERN_SUCCESS ||
	    mach_port_extract_right(f->s, r->name, MACH_MSG_TYPE_MAKE_SEND,
				    &r->port, &type) != KERN_SUCCESS) {
		ktest_fail(t, "no receive right");
		return;
	}
	ipc_port_release_send(r->port);	/* keep the pointer only */
}

/* A program's words. */
struct prog {
	filter_t w[NET_MAX_FILTER];
	unsigned int count;
};

static void bpf_prog(struct prog *p, unsigned int flags,
		     const struct bpf_insn *insns, unsigned int n)
{
	struct bpf_insn head = { NETF_BPF | flags, 0, 0, 0 };

	memcpy(p->w, &head, sizeof(head));
	memcpy((uint8_t *)p->w + sizeof(head), insns, n * sizeof(*insns));
	p->count = (n + 1) * 4;
}

/* "ether proto @type", keeping @snap data bytes; @type 0: every frame. */
static void type_prog(struct prog *p, unsigned int flags, unsigned int type,
		      unsigned int snap)
{
	struct bpf_insn insns[] = {
		{ BPF_LD | BPF_H | BPF_ABS, 0, 0, 12 },
		{ BPF_JMP | BPF_JEQ | BPF_K, 0, 1, (int)type },
		{ BPF_RET | BPF_K, 0, 0, (int)snap },
		{ BPF_RET | BPF_K, 0, 0, 0 },
	};

	if (type == 0)
		bpf_prog(p, flags, &insns[2], 1);
	else
		bpf_prog(p, flags, insns, 4);
}

/* Install @p for @r with @priority. */
static io_return_t set(struct fixture *f, struct rcv *r, int priority,
		       const struct prog *p)
{
	struct ipc_port *right = ipc_port_make_send(r->port);
	io_return_t rc;

	rc = net_filter_set(f->t, right, priority, p->w, p->count);
	if (rc != D_SUCCESS)
		ipc_port_release_send(right);
	return rc;
}

static void set_ok(struct ktest *t, struct fixture *f, struct rcv *r,
		   int priority, const struct prog *p)
{
	io_return_t rc = set(f, r, priority, p);

	if (rc != D_SUCCESS)
		ktest_fail(t, "net_filter_set gave %d, want D_SUCCESS", rc);
}

/* A frame of @len bytes of Ethernet type @type, net_rcv's pattern. */
struct frame {
	uint8_t b[ETH_HLEN + NET_RCV_MAX];	/* room for one too long */
	unsigned int len;
};

static void frame(struct frame *fr, unsigned int type, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		fr->b[i] = net_rcv_byte(i, type);
	fr->len = len;
}

static unsigned int deliver(struct fixture *f, const struct frame *fr)
{
	return net_filter_deliver(f->t, fr->b, fr->len, NETF_IN);
}

static struct net_rcv_msg msg;

/* Take the next message of @r into msg (no waiting). */
static mach_msg_return_t take(struct fixture *f, struct rcv *r)
{
	memset(&msg, 0xa5, sizeof(msg));
	return mach_msg_kernel(f->s, &msg, MACH_RCV_MSG | MACH_RCV_TIMEOUT, 0,
			       sizeof(msg), r->name, 0);
}

/*
 * Check that msg is what @r should get for @fr with @kept data bytes:
 * GNU Mach's net_rcv_msg, byte for byte.
 */
static void expect_msg(struct ktest *t, const char *what, struct rcv *r,
		       const struct frame *fr, unsigned int kept)
{
	mach_msg_type_t ht = {
		.msgt_name = MACH_MSG_TYPE_BYTE,
		.msgt_size = 8,
		.msgt_number = NET_HDW_HDR_MAX,
		.msgt_inline = 1,
	};
	mach_msg_type_t pt = ht;
	uint8_t header[NET_HDW_HDR_MAX] = { 0 };
	struct packet_header ph = {
		.length = (unsigned short)(fr->len - ETH_HLEN + 4),
	};
	unsigned int count = kept + 4;
	mach_msg_size_t size = (offsetof(struct net_rcv_msg, packet) + count +
				7) & ~7u;
	bool ok = true;

	pt.msgt_number = count;
	memcpy(header, fr->b, ETH_HLEN);
	memcpy(&ph.type, fr->b + 12, 2);
	ok &= msg.msg_hdr.msgh_id == NET_RCV_MSG_ID;
	ok &= msg.msg_hdr.msgh_size == size;
	ok &= msg.msg_hdr.msgh_bits ==
	      MACH_MSGH_BITS(0, MACH_MSG_TYPE_PORT_SEND);
	ok &= msg.msg_hdr.msgh_local_port == r->name;
	ok &= msg.msg_hdr.msgh_remote_port == MACH_PORT_NULL;
	ok &= memcmp(&msg.header_type, &ht, sizeof(ht)) == 0;
	ok &= memcmp(msg.header, header, sizeof(header)) == 0;
	ok &= memcmp(&msg.packet_type, &pt, sizeof(pt)) == 0;
	ok &= memcmp(msg.packet, &ph, sizeof(ph)) == 0;
	ok &= memcmp(msg.packet + 4, fr->b + ETH_HLEN, kept) == 0;
	if (!ok)
		ktest_fail(t, "%s: got id %d size %u bits 0x%x local %u count "
			   "%u, want id %d size %u bits 0x%x local %u count "
			   "%u and the frame's bytes", what,
			   msg.msg_hdr.msgh_id, msg.msg_hdr.msgh_size,
			   msg.msg_hdr.msgh_bits,
			   msg.msg_hdr.msgh_local_port,
			   msg.packet_type.msgt_number, NET_RCV_MSG_ID, size,
			   MACH_MSGH_BITS(0, MACH_MSG_TYPE_PORT_SEND),
			   r->name, count);
}

/* Receive the next message for @r and check it. */
static void expect_next(struct ktest *t, const char *what, struct fixture *f,
			struct rcv *r, const struct frame *fr,
			unsigned int kept)
{
	mach_msg_return_t mr = take(f, r);

	if (mr != MACH_MSG_SUCCESS) {
		ktest_fail(t, "%s: receive gave 0x%x, want a message", what,
			   mr);
		return;
	}
	expect_msg(t, what, r, fr, kept);
}

/* expect_next, and then no message is left. */
static void expect_one(struct ktest *t, const char *what, struct fixture *f,
		       struct rcv *r, const struct frame *fr,
		       unsigned int kept)
{
	expect_next(t, what, f, r, fr, kept);
	KTEST_EXPECT_EQ(t, r->port->msgcount, 0);
}

static struct net_filter_stats stats(struct fixture *f)
{
	struct net_filter_stats s;

	net_filter_stats(f->t, &s);
	return s;
}

static void filters_run_by_priority_and_a_high_one_ends_the_walk(
	struct ktest *t)
{
	static struct frame arp, ip, ip6;
	struct rcv all, v4, a;
	struct fixture f;
	struct prog p;

	if (!fixture_open(t, &f))
		return;
	rcv_new(t, &f, &all);
	rcv_new(t, &f, &v4);
	rcv_new(t, &f, &a);
	type_prog(&p, NETF_IN, 0, ALL);
	set_ok(t, &f, &all, 0, &p);
	type_prog(&p, NETF_IN, T_IPV4, ALL);
	set_ok(t, &f, &v4, 50, &p);
	type_prog(&p, NETF_IN, T_ARP, ALL);
	set_ok(t, &f, &a, NET_HI_PRI, &p);
	KTEST_EXPECT_EQ(t, stats(&f).filters, 3);

	frame(&arp, T_ARP, 60);
	frame(&ip, T_IPV4, 98);
	frame(&ip6, T_IPV6, 70);
	/* ARP: the high-priority filter takes it, nobody after it. */
	KTEST_EXPECT_EQ(t, deliver(&f, &arp), 1);
	KTEST_EXPECT_EQ(t, all.port->msgcount, 0);
	expect_one(t, "arp to the high-priority filter", &f, &a, &arp, 46);
	/* IPv4: the priority-50 filter, then the catch-all. */
	KTEST_EXPECT_EQ(t, deliver(&f, &ip), 2);
	expect_one(t, "ipv4 to the priority-50 filter", &f, &v4, &ip, 84);
	expect_one(t, "ipv4 to the catch-all", &f, &all, &ip, 84);
	/* IPv6: the catch-all only. */
	KTEST_EXPECT_EQ(t, deliver(&f, &ip6), 1);
	expect_one(t, "ipv6 to the catch-all", &f, &all, &ip6, 56);
	KTEST_EXPECT_EQ(t, a.port->msgcount + v4.port->msgcount, 0);
	KTEST_EXPECT_EQ(t, stats(&f).frames, 3);
	KTEST_EXPECT_EQ(t, stats(&f).delivered, 4);
	fixture_close(t, &f);
}

static void equal_priorities_run_in_installation_order(struct ktest *t)
{
	static struct frame fr;
	struct rcv d, e;
	struct fixture f;
	struct prog p;

	if (!fixture_open(t, &f))
		return;
	rcv_new(t, &f, &d);
	rcv_new(t, &f, &e);
	type_prog(&p, NETF_IN, 0, ALL);
	set_ok(t, &f, &d, NET_HI_PRI, &p);
	set_ok(t, &f, &e, NET_HI_PRI, &p);
	frame(&fr, T_IPV4, 60);
	KTEST_EXPECT_EQ(t, deliver(&f, &fr), 1);
	expect_one(t, "first installed of two equals", &f, &d, &fr, 46);
	KTEST_EXPECT_EQ(t, e.port->msgcount, 0);
	/* Installing d again puts its new filter after e. */
	set_ok(t, &f, &d, NET_HI_PRI, &p);
	KTEST_EXPECT_EQ(t, stats(&f).filters, 2);
	KTEST_EXPECT_EQ(t, deliver(&f, &fr), 1);
	expect_one(t, "e after d was reinstalled", &f, &e, &fr, 46);
	KTEST_EXPECT_EQ(t, d.port->msgcount, 0);
	fixture_close(t, &f);
}

static void same_port_installing_again_replaces_its_filter(struct ktest *t)
{
	static struct frame arp, ip;
	struct fixture f;
	struct prog p;
	struct rcv r;

	if (!fixture_open(t, &f))
		return;
	rcv_new(t, &f, &r);
	type_prog(&p, NETF_IN, T_ARP, ALL);
	set_ok(t, &f, &r, 0, &p);
	type_prog(&p, NETF_IN, T_IPV4, ALL);
	set_ok(t, &f, &r, 0, &p);
	KTEST_EXPECT_EQ(t, stats(&f).filters, 1);
	KTEST_EXPECT_EQ(t, r.port->srights, 1);
	frame(&arp, T_ARP, 60);
	frame(&ip, T_IPV4, 60);
	KTEST_EXPECT_EQ(t, deliver(&f, &arp), 0);
	KTEST_EXPECT_EQ(t, deliver(&f, &ip), 1);
	expect_one(t, "ipv4 after the replacement", &f, &r, &ip, 46);
	fixture_close(t, &f);
}

static void message_carries_header_and_packet_split_and_snap(struct ktest *t)
{
	static struct frame small, big;
	struct rcv snap, whole;
	struct fixture f;
	struct prog p;

	if (!fixture_open(t, &f))
		return;
	rcv_new(t, &f, &snap);
	rcv_new(t, &f, &whole);
	type_prog(&p, NETF_IN, 0, 20);
	set_ok(t, &f, &snap, 0, &p);
	type_prog(&p, NETF_IN, 0, ALL);
	set_ok(t, &f, &whole, 0, &p);
	frame(&small, T_IPV4, 60);
	frame(&big, T_IPV4, 1514);
	KTEST_EXPECT_EQ(t, deliver(&f, &small), 2);
	KTEST_EXPECT_EQ(t, deliver(&f, &big), 2);
	expect_next(t, "ret #20 keeps 20 data bytes", &f, &snap, &small, 20);
	expect_one(t, "ret #20 on 1514 bytes", &f, &snap, &big, 20);
	expect_next(t, "whole 60-byte frame", &f, &whole, &small, 46);
	expect_one(t, "whole 1514-byte frame", &f, &whole, &big, 1500);
	fixture_close(t, &f);
}

static void full_queue_drops_and_counts_without_waiting(struct ktest *t)
{
	static struct frame fr;
	struct fixture f;
	struct prog p;
	struct rcv r;
	unsigned int i, sent = 0;

	if (!fixture_open(t, &f))
		return;
	rcv_new(t, &f, &r);
	KTEST_EXPECT_EQ(t, mach_port_set_qlimit(f.s, r.name, 2), KERN_SUCCESS);
	type_prog(&p, NETF_IN, 0, ALL);
	set_ok(t, &f, &r, 0, &p);
	frame(&fr, T_IPV4, 60);
	for (i = 0; i < 5; i++)
		sent += deliver(&f, &fr);
	KTEST_EXPECT_EQ(t, sent, 2);
	KTEST_EXPECT_EQ(t, r.port->msgcount, 2);
	KTEST_EXPECT_EQ(t, stats(&f).delivered, 2);
	KTEST_EXPECT_EQ(t, stats(&f).dropped_full, 3);
	KTEST_EXPECT_EQ(t, stats(&f).dropped_nomem, 0);
	/* Room again: the next frame goes through. */
	expect_next(t, "first of the queued two", &f, &r, &fr, 46);
	KTEST_EXPECT_EQ(t, deliver(&f, &fr), 1);
	fixture_close(t, &f);
}

static void dead_port_filter_is_removed(struct ktest *t)
{
	static struct frame fr;
	struct rcv gone, stays;
	struct fixture f;
	struct prog p;
	struct counts mid;

	if (!fixture_open(t, &f))
		return;
	rcv_new(t, &f, &gone);
	rcv_new(t, &f, &stays);
	type_prog(&p, NETF_IN, 0, ALL);
	set_ok(t, &f, &gone, 0, &p);
	set_ok(t, &f, &stays, 0, &p);
	counts_take(&mid);
	KTEST_EXPECT_EQ(t, mach_port_destroy(f.s, gone.name), KERN_SUCCESS);
	/* At once, no frame needed: the filter is gone and its right
	 * released, so the port is freed. */
	KTEST_EXPECT_EQ(t, stats(&f).removed, 1);
	KTEST_EXPECT_EQ(t, stats(&f).filters, 1);
	KTEST_EXPECT_EQ(t, ipc_port_count(), mid.ports - 1);
	frame(&fr, T_IPV4, 60);
	KTEST_EXPECT_EQ(t, deliver(&f, &fr), 1);
	expect_one(t, "the live port", &f, &stays, &fr, 46);
	KTEST_EXPECT_EQ(t, stats(&f).removed, 1);
	fixture_close(t, &f);
}

static void invalid_programs_are_refused_and_keep_the_right(struct ktest *t)
{
	static const struct {
		const char *name;
		struct bpf_insn insns[3];
		unsigned int n;
	} bad[] = {
		{ "no_instruction", { }, 0 },
		{ "no_final_ret", { { BPF_LD | BPF_IMM, 0, 0, 1 } }, 1 },
		{ "jump_past_end", { { BPF_JMP | BPF_JEQ | BPF_K, 0, 5, 0 },
				     { BPF_RET | BPF_K, 0, 0, 0 } }, 2 },
		{ "division_by_constant_zero",
		  { { BPF_ALU | BPF_DIV | BPF_K, 0, 0, 0 },
		    { BPF_RET | BPF_K, 0, 0, 0 } }, 2 },
		{ "scratch_index_16", { { BPF_ST, 0, 0, BPF_MEMWORDS },
					{ BPF_RET | BPF_K, 0, 0, 0 } }, 2 },
	};
	struct ipc_port *kport, *right;
	static int kobject;
	struct fixture f;
	struct prog p;
	struct rcv r;
	size_t i;

	if (!fixture_open(t, &f))
		return;
	rcv_new(t, &f, &r);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		io_return_t rc;

		bpf_prog(&p, NETF_IN, bad[i].insns, bad[i].n);
		rc = set(&f, &r, 0, &p);
		if (rc != D_INVALID_OPERATION)
			ktest_fail(t, "%s: gave %d, want D_INVALID_OPERATION",
				   bad[i].name, rc);
	}
	type_prog(&p, 0, 0, ALL);		/* neither NETF_IN nor _OUT */
	KTEST_EXPECT_EQ(t, set(&f, &r, 0, &p), D_INVALID_OPERATION);
	type_prog(&p, NETF_IN, 0, ALL);
	KTEST_EXPECT_EQ(t, net_filter_set(f.t, NULL, 0, p.w, p.count),
			D_INVALID_OPERATION);
	KTEST_EXPECT_EQ(t, net_filter_set(f.t, IPC_PORT_DEAD, 0, p.w, p.count),
			D_INVALID_OPERATION);
	KTEST_EXPECT_EQ(t, net_filter_set(f.t, r.port, 0, p.w,
					  NET_MAX_FILTER + 4),
			D_INVALID_OPERATION);
	kport = ipc_port_alloc_kernel(&kobject, IKOT_MAX - 1);
	if (kport != NULL) {
		right = ipc_port_make_send(kport);
		KTEST_EXPECT_EQ(t, net_filter_set(f.t, right, 0, p.w, p.count),
				D_INVALID_OPERATION);
		ipc_port_release_send(right);
		ipc_port_dealloc_kernel(kport);
	} else {
		ktest_fail(t, "no kernel port");
	}
	KTEST_EXPECT_EQ(t, stats(&f).filters, 0);
	KTEST_EXPECT_EQ(t, r.port->srights, 0);
	fixture_close(t, &f);
}

static void directions_and_bad_frames(struct ktest *t)
{
	static struct frame fr;
	struct fixture f;
	struct prog p;
	struct rcv out;

	if (!fixture_open(t, &f))
		return;
	rcv_new(t, &f, &out);
	type_prog(&p, NETF_OUT, 0, ALL);
	set_ok(t, &f, &out, 0, &p);
	frame(&fr, T_IPV4, 60);
	KTEST_EXPECT_EQ(t, deliver(&f, &fr), 0);
	KTEST_EXPECT_EQ(t, net_filter_deliver(f.t, fr.b, fr.len, NETF_OUT), 1);
	expect_one(t, "outgoing frame", &f, &out, &fr, 46);
	KTEST_EXPECT_EQ(t, net_filter_deliver(f.t, fr.b, ETH_HLEN - 1,
					      NETF_OUT), 0);
	KTEST_EXPECT_EQ(t, net_filter_deliver(f.t, fr.b, sizeof(fr.b),
					      NETF_OUT), 0);
	KTEST_EXPECT_EQ(t, stats(&f).bad_frames, 2);
	KTEST_EXPECT_EQ(t, stats(&f).frames, 4);
	/* no NETF_IN filter: the frame is not even read */
	KTEST_EXPECT_EQ(t, net_filter_deliver(f.t, fr.b, ETH_HLEN - 1,
					      NETF_IN), 0);
	KTEST_EXPECT_EQ(t, stats(&f).bad_frames, 2);
	KTEST_EXPECT_EQ(t, stats(&f).frames, 5);
	fixture_close(t, &f);
}

static void netf_program_delivers_the_whole_packet(struct ktest *t)
{
	static struct frame arp, ip;
	struct fixture f;
	struct prog p;
	struct rcv r;
	uint8_t type[2] = { T_ARP >> 8, T_ARP & 0xff };
	filter_t word;

	if (!fixture_open(t, &f))
		return;
	rcv_new(t, &f, &r);
	memcpy(&word, type, 2);		/* the type as a host-order word */
	p.w[0] = NETF_IN;
	p.w[1] = NETF_PUSHWORD + 1;
	p.w[2] = NETF_PUSHLIT | NETF_EQ;
	p.w[3] = word;
	p.count = 4;
	set_ok(t, &f, &r, 0, &p);
	frame(&arp, T_ARP, 60);
	frame(&ip, T_IPV4, 60);
	KTEST_EXPECT_EQ(t, deliver(&f, &ip), 0);
	KTEST_EXPECT_EQ(t, deliver(&f, &arp), 1);
	expect_one(t, "netf accepts arp", &f, &r, &arp, 46);
	fixture_close(t, &f);
}

static char console[8192];

/*
 * Load net_rcv, give it a port (receive right and bootstrap send right),
 * install a catch-all filter for that port and deliver net_rcv's frames,
 * then start it: it receives them with mach_msg and checks every byte.
 * Once it has ended its port is dead, and the filter goes.
 */
static void user_task_receives_the_messages_with_mach_msg(struct ktest *t)
{
	const struct boot_module *m = user_task_module("net_rcv");
	unsigned int before = task_terminations, ports = ipc_port_count();
	struct net_filter_table *table;
	struct user_task_baseline b;
	struct bootstrap_entry entry;
	struct ipc_port *boot, *right;
	mach_msg_type_name_t type;
	mach_port_name_t name;
	struct task *task;
	static struct frame fr;
	struct net_filter_stats st;
	struct prog p;
	bool ended;
	size_t i;

	user_task_baseline(&b);
	if (m == NULL) {
		ktest_fail(t, "harness passed no net_rcv module");
		return;
	}
	if (bootstrap_task_load(m, &task, &entry) != KERN_SUCCESS) {
		ktest_fail(t, "net_rcv did not load");
		return;
	}
	table = net_filter_table_create(ETH_HLEN);
	if (table == NULL ||
	    mach_port_allocate(task->itk_space, MACH_PORT_RIGHT_RECEIVE,
			       &name) != KERN_SUCCESS ||
	    mach_port_extract_right(task->itk_space, name,
				    MACH_MSG_TYPE_MAKE_SEND, &boot,
				    &type) != KERN_SUCCESS ||
	    mach_port_extract_right(task->itk_space, name,
				    MACH_MSG_TYPE_MAKE_SEND, &right,
				    &type) != KERN_SUCCESS) {
		ktest_fail(t, "no table or port for net_rcv");
		task_destroy(task);
		if (table != NULL)
			net_filter_table_destroy(table);
		return;
	}
	task->itk_bootstrap = boot;
	type_prog(&p, NETF_IN, 0, ALL);
	KTEST_EXPECT_EQ(t, net_filter_set(table, right, 0, p.w, p.count),
			D_SUCCESS);
	for (i = 0; i < NET_RCV_FRAMES; i++) {
		frame(&fr, net_rcv_frames[i].type, net_rcv_frames[i].len);
		KTEST_EXPECT_EQ(t, net_filter_deliver(table, fr.b, fr.len,
						      NETF_IN), 1);
	}

	console_capture_start(console, sizeof(console));
	if (bootstrap_task_start(task, &entry) != KERN_SUCCESS) {
		console_capture_stop();
		ktest_fail(t, "net_rcv did not start");
		net_filter_table_destroy(table);
		return;
	}
	ended = user_task_wait(before, 1, 10);
	console_capture_stop();
	if (!ended)
		ktest_fail(t, "net_rcv did not end within 10 s");
	user_task_expect_checks(t, console, 12 * NET_RCV_FRAMES);

	/* Its space is gone, so is the port: the filter went with it. */
	net_filter_stats(table, &st);
	KTEST_EXPECT_EQ(t, st.filters, 0);
	KTEST_EXPECT_EQ(t, net_filter_deliver(table, fr.b, fr.len, NETF_IN), 0);
	net_filter_stats(table, &st);
	KTEST_EXPECT_EQ(t, st.removed, 1);
	KTEST_EXPECT_EQ(t, st.filters, 0);
	KTEST_EXPECT_EQ(t, st.delivered, NET_RCV_FRAMES);
	net_filter_table_destroy(table);
	KTEST_EXPECT_EQ(t, ipc_port_count(), ports);
	user_task_expect_baseline(t, &b);
}

static const struct ktest_case netfilter_cases[] = {
	{ "filters_run_by_priority_and_a_high_one_ends_the_walk",
	  filters_run_by_priority_and_a_high_one_ends_the_walk },
	{ "equal_priorities_run_in_installation_order",
	  equal_priorities_run_in_installation_order },
	{ "same_port_installing_again_replaces_its_filter",
	  same_port_installing_again_replaces_its_filter },
	{ "message_carries_header_and_packet_split_and_snap",
	  message_carries_header_and_packet_split_and_snap },
	{ "full_queue_drops_and_counts_without_waiting",
	  full_queue_drops_and_counts_without_waiting },
	{ "dead_port_filter_is_removed", dead_port_filter_is_removed },
	{ "invalid_programs_are_refused_and_keep_the_right",
	  invalid_programs_are_refused_and_keep_the_right },
	{ "directions_and_bad_frames", directions_and_bad_frames },
	{ "netf_program_delivers_the_whole_packet",
	  netf_program_delivers_the_whole_packet },
	{ "user_task_receives_the_messages_with_mach_msg",
	  user_task_receives_the_messages_with_mach_msg },
};
KTEST_SUITE(netfilter_suite, "netfilter", netfilter_cases);
