/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "ipc": ports, rights, messages, notifications between spaces. */
/*
 * Every case makes two spaces, "a" and "b", with ipc_space_create() and
 * talks through mach_msg_kernel(), whose buffers hold messages in the
 * user layout (as MIG's user stubs build them: #pragma pack(4)).  Each
 * case checks at its end that heap bytes, ports, sets, spaces and
 * messages are back to where they were.  Waits are bounded so that a bug
 * fails a case instead of hanging the boot.
 */
#include <stddef.h>
#include <stdint.h>

#include <mach/message.h>
#include <mach/mig_errors.h>
#include <mach/notify.h>
#include <mach/port.h>

#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_kobject.h"
#include "ipc/ipc_port.h"
#include "ipc/ipc_pset.h"
#include "ipc/ipc_space.h"
#include "ipc/mach_msg.h"
#include "ipc/mach_port.h"
#include "kern/clock.h"
#include "kern/kalloc.h"
#include "kern/ktest.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/task.h"
#include "kern/thread.h"
#include "vm/vm_map.h"
#include "vm/vm_map_copy_kernel.h"
#include "x86_64/copy.h"
#include "tests/kernel/user_task.h"

#define HIGH	4
#define LOW	20

#pragma pack(push, 4)
struct msg_int {			/* one inline integer */
	mach_msg_header_t h;
	mach_msg_type_t t;
	uint32_t v;
};

struct msg_data {			/* an integer and 5 chars (padded) */
	mach_msg_header_t h;
	mach_msg_type_t t1;
	uint32_t v;
	mach_msg_type_t t2;
	char s[8];
};

struct msg_port {			/* one inline port right */
	mach_msg_header_t h;
	mach_msg_type_t t;
	mach_port_name_t name;
};

struct msg_ports {			/* a long-form array of rights */
	mach_msg_header_t h;
	mach_msg_type_long_t t;
	mach_port_name_t names[2];
};

struct msg_ool {			/* an out-of-line region */
	mach_msg_header_t h;
	mach_msg_type_long_t t;
	uint64_t addr;
};

struct msg_buf {			/* room to receive anything here */
	mach_msg_header_t h;
	uint8_t body[256];
};
#pragma pack(pop)

_Static_assert(sizeof(struct msg_int) == 40, "user layout");
_Static_assert(sizeof(struct msg_ports) == 52, "user layout");
_Static_assert(sizeof(struct msg_ool) == 52, "user layout");

struct counts {
	uint64_t bytes;
	unsigned int ports, psets, spaces, kmsgs;
};

static void counts_take(struct counts *c)
{
	c->bytes = kalloc_bytes_in_use();
	c->ports = ipc_port_count();
	c->psets = ipc_pset_count();
	c->spaces = ipc_space_count();
	c->kmsgs = ipc_kmsg_count();
}

#define EXPECT_COUNTS_BACK(t, c)					\
	do {								\
		struct counts now_;					\
									\
		counts_take(&now_);					\
		KTEST_EXPECT_EQ(t, now_.ports, (c)->ports);		\
		KTEST_EXPECT_EQ(t, now_.psets, (c)->psets);		\
		KTEST_EXPECT_EQ(t, now_.spaces, (c)->spaces);		\
		KTEST_EXPECT_EQ(t, now_.kmsgs, (c)->kmsgs);		\
		KTEST_EXPECT_EQ(t, now_.bytes, (c)->bytes);		\
	} while (0)

static mach_msg_type_t type_of(mach_msg_type_name_t name, unsigned int size,
			       unsigned int number)
{
	mach_msg_type_t t = {
		.msgt_name = name,
		.msgt_size = size,
		.msgt_number = number,
		.msgt_inline = 1,
	};

	return t;
}

static void header(mach_msg_header_t *h, mach_msg_bits_t bits,
		   mach_msg_size_t size, mach_port_name_t remote,
		   mach_port_name_t local, mach_msg_id_t id)
{
	memset(h, 0, sizeof(*h));
	h->msgh_bits = bits;
	h->msgh_size = size;
	h->msgh_remote_port = remote;
	h->msgh_local_port = local;
	h->msgh_id = id;
}

static mach_msg_return_t send(struct ipc_space *s, void *msg,
			      mach_msg_size_t size)
{
	return mach_msg_kernel(s, msg, MACH_SEND_MSG, size, 0, MACH_PORT_NULL,
			       0);
}

/* Receive from @name, waiting at most @ms. */
static mach_msg_return_t recv(struct ipc_space *s, mach_port_name_t name,
			      void *buf, mach_msg_size_t size,
			      mach_msg_timeout_t ms)
{
	return mach_msg_kernel(s, buf, MACH_RCV_MSG | MACH_RCV_TIMEOUT, 0,
			       size, name, ms);
}

/* Send @id with value @v to @dest (COPY_SEND), no reply port. */
static mach_msg_return_t send_int(struct ipc_space *s, mach_port_name_t dest,
				  mach_msg_id_t id, uint32_t v)
{
	struct msg_int m;

	header(&m.h, MACH_MSGH_BITS(MACH_MSG_TYPE_COPY_SEND, 0), 0, dest,
	       MACH_PORT_NULL, id);
	m.t = type_of(MACH_MSG_TYPE_INTEGER_32, 32, 1);
	m.v = v;
	return send(s, &m, sizeof(m));
}

static mach_port_name_t new_port(struct ktest *t, struct ipc_space *s)
{
	mach_port_name_t name = MACH_PORT_NULL;

	KTEST_EXPECT_EQ(t, mach_port_allocate(s, MACH_PORT_RIGHT_RECEIVE,
					      &name),
			KERN_SUCCESS);
	return name;
}

/* Give @to a send right to the receive right @name of @from. */
static mach_port_name_t give_send(struct ktest *t, struct ipc_space *from,
				  mach_port_name_t name, struct ipc_space *to)
{
	struct ipc_port *port = NULL;
	mach_msg_type_name_t type = 0;
	mach_port_name_t out = MACH_PORT_NULL;

	KTEST_EXPECT_EQ(t, mach_port_extract_right(from, name,
						   MACH_MSG_TYPE_MAKE_SEND,
						   &port, &type),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, type, MACH_MSG_TYPE_PORT_SEND);
	KTEST_EXPECT_EQ(t, ipc_space_insert_send(to, port, &out),
			KERN_SUCCESS);
	ipc_port_release_send(port);
	return out;
}

static mach_port_type_t type_or_zero(struct ipc_space *s,
				     mach_port_name_t name)
{
	mach_port_type_t type;

	return mach_port_type(s, name, &type) == KERN_SUCCESS ? type : 0;
}

static mach_port_urefs_t refs(struct ipc_space *s, mach_port_name_t name,
			      mach_port_right_t right)
{
	mach_port_urefs_t r = 0;

	if (mach_port_get_refs(s, name, right, &r) != KERN_SUCCESS)
		return 0xdeadu;
	return r;
}

/* Two spaces per case. */
struct pair {
	struct ipc_space *a, *b;
	struct counts start;
};

static void pair_open(struct ktest *t, struct pair *p)
{
	counts_take(&p->start);
	p->a = ipc_space_create();
	p->b = ipc_space_create();
	KTEST_EXPECT_TRUE(t, p->a != NULL && p->b != NULL);
}

static void pair_close(struct ktest *t, struct pair *p)
{
	ipc_space_destroy(p->a);
	ipc_space_destroy(p->b);
	EXPECT_COUNTS_BACK(t, &p->start);
}

static void send_and_receive_inline_data(struct ktest *t)
{
	struct pair p;
	mach_port_name_t r, s;
	struct msg_data m;
	struct msg_buf in;
	struct msg_data *got = (struct msg_data *)(void *)&in;

	pair_open(t, &p);
	r = new_port(t, p.a);
	s = give_send(t, p.a, r, p.b);
	header(&m.h, MACH_MSGH_BITS(MACH_MSG_TYPE_COPY_SEND, 0), 0, s,
	       MACH_PORT_NULL, 1234);
	m.t1 = type_of(MACH_MSG_TYPE_INTEGER_32, 32, 1);
	m.v = 42;
	m.t2 = type_of(MACH_MSG_TYPE_CHAR, 8, 5);
	memcpy(m.s, "graft\0\0", 8);
	KTEST_EXPECT_EQ(t, send(p.b, &m, sizeof(m)), MACH_MSG_SUCCESS);

	memset(&in, 0xaa, sizeof(in));
	KTEST_EXPECT_EQ(t, recv(p.a, r, &in, sizeof(in), 0), MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, in.h.msgh_size, sizeof(m));
	KTEST_EXPECT_EQ(t, in.h.msgh_id, 1234);
	KTEST_EXPECT_EQ(t, in.h.msgh_bits,
			MACH_MSGH_BITS(0, MACH_MSG_TYPE_PORT_SEND));
	KTEST_EXPECT_EQ(t, in.h.msgh_local_port, r);
	KTEST_EXPECT_EQ(t, in.h.msgh_remote_port, MACH_PORT_NULL);
	KTEST_EXPECT_EQ(t, in.h.msgh_seqno, 0);
	KTEST_EXPECT_EQ(t, got->v, 42);
	KTEST_EXPECT_MEMEQ(t, got->s, "graft", 6);
	/* The sender kept its send right (COPY_SEND). */
	KTEST_EXPECT_EQ(t, refs(p.b, s, MACH_PORT_RIGHT_SEND), 1);
	/* Sequence numbers count receives. */
	KTEST_EXPECT_EQ(t, send_int(p.b, s, 1, 1), MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, recv(p.a, r, &in, sizeof(in), 0), MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, in.h.msgh_seqno, 1);
	pair_close(t, &p);
}

static void rcv_too_large_reports_size(struct ktest *t)
{
	struct pair p;
	mach_port_name_t r, s;
	struct msg_buf in;

	pair_open(t, &p);
	r = new_port(t, p.a);
	s = give_send(t, p.a, r, p.b);

	/* MACH_RCV_LARGE: the message stays, its size is reported. */
	KTEST_EXPECT_EQ(t, send_int(p.b, s, 7, 99), MACH_MSG_SUCCESS);
	memset(&in, 0, sizeof(in));
	KTEST_EXPECT_EQ(t, mach_msg_kernel(p.a, &in,
					   MACH_RCV_MSG | MACH_RCV_LARGE |
						   MACH_RCV_TIMEOUT,
					   0, sizeof(mach_msg_header_t), r, 0),
			MACH_RCV_TOO_LARGE);
	KTEST_EXPECT_EQ(t, in.h.msgh_size, sizeof(struct msg_int));
	KTEST_EXPECT_EQ(t, recv(p.a, r, &in, sizeof(in), 0), MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, in.h.msgh_id, 7);

	/* Without it (GNU Mach): dequeued, header only, rest destroyed. */
	KTEST_EXPECT_EQ(t, send_int(p.b, s, 8, 99), MACH_MSG_SUCCESS);
	memset(&in, 0, sizeof(in));
	KTEST_EXPECT_EQ(t, recv(p.a, r, &in, sizeof(mach_msg_header_t), 0),
			MACH_RCV_TOO_LARGE);
	KTEST_EXPECT_EQ(t, in.h.msgh_size, sizeof(struct msg_int));
	KTEST_EXPECT_EQ(t, in.h.msgh_id, 8);
	KTEST_EXPECT_EQ(t, in.h.msgh_local_port, r);
	KTEST_EXPECT_EQ(t, recv(p.a, r, &in, sizeof(in), 0),
			MACH_RCV_TIMED_OUT);
	pair_close(t, &p);
}

static void send_to_bad_name_is_invalid_dest(struct ktest *t)
{
	struct pair p;
	mach_port_name_t dead;

	pair_open(t, &p);
	KTEST_EXPECT_EQ(t, send_int(p.b, 0x777, 1, 1), MACH_SEND_INVALID_DEST);
	KTEST_EXPECT_EQ(t, send_int(p.b, MACH_PORT_NULL, 1, 1),
			MACH_SEND_INVALID_DEST);
	KTEST_EXPECT_EQ(t, send_int(p.b, MACH_PORT_DEAD, 1, 1),
			MACH_SEND_INVALID_DEST);
	KTEST_EXPECT_EQ(t, mach_port_allocate(p.b, MACH_PORT_RIGHT_DEAD_NAME,
					      &dead),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, send_int(p.b, dead, 1, 1), MACH_SEND_INVALID_DEST);
	KTEST_EXPECT_EQ(t, refs(p.b, dead, MACH_PORT_RIGHT_DEAD_NAME), 1);
	pair_close(t, &p);
}

static void send_without_right_is_invalid_dest_or_right(struct ktest *t)
{
	struct pair p;
	mach_port_name_t r, s, mine, set;
	struct msg_port m;
	struct msg_int mi;
	struct msg_ool mo;

	pair_open(t, &p);
	r = new_port(t, p.a);
	s = give_send(t, p.a, r, p.b);
	mine = new_port(t, p.b);
	KTEST_EXPECT_EQ(t, mach_port_allocate(p.b, MACH_PORT_RIGHT_PORT_SET,
					      &set),
			KERN_SUCCESS);

	/* A receive right is no send right; a port set is neither. */
	KTEST_EXPECT_EQ(t, send_int(p.b, mine, 1, 1), MACH_SEND_INVALID_DEST);
	KTEST_EXPECT_EQ(t, send_int(p.b, set, 1, 1), MACH_SEND_INVALID_DEST);

	/* A body right the sender lacks. */
	header(&m.h, MACH_MSGH_BITS_COMPLEX |
			     MACH_MSGH_BITS(MACH_MSG_TYPE_COPY_SEND, 0),
	       0, s, MACH_PORT_NULL, 2);
	m.t = type_of(MACH_MSG_TYPE_MOVE_SEND, 32, 1);
	m.name = mine;
	KTEST_EXPECT_EQ(t, send(p.b, &m, sizeof(m)), MACH_SEND_INVALID_RIGHT);
	m.t = type_of(MACH_MSG_TYPE_MOVE_RECEIVE, 32, 1);
	m.name = s;
	KTEST_EXPECT_EQ(t, send(p.b, &m, sizeof(m)), MACH_SEND_INVALID_RIGHT);
	/* Port rights must be 32-bit names in the user layout. */
	m.t = type_of(MACH_MSG_TYPE_COPY_SEND, 64, 1);
	m.name = s;
	KTEST_EXPECT_EQ(t, send(p.b, &m, sizeof(m)), MACH_SEND_INVALID_TYPE);
	/* Data running past the end. */
	m.t = type_of(MACH_MSG_TYPE_INTEGER_32, 32, 2);
	KTEST_EXPECT_EQ(t, send(p.b, &m, sizeof(m)), MACH_SEND_MSG_TOO_SMALL);
	KTEST_EXPECT_EQ(t, send(p.b, &m, sizeof(m) - 2),
			MACH_SEND_MSG_TOO_SMALL);
	KTEST_EXPECT_EQ(t, send(p.b, &m, 24), MACH_SEND_MSG_TOO_SMALL);

	/* Reply rights are checked too, and the header bits. */
	header(&mi.h, MACH_MSGH_BITS(MACH_MSG_TYPE_COPY_SEND,
				     MACH_MSG_TYPE_MAKE_SEND_ONCE),
	       0, s, 0x4242, 3);
	mi.t = type_of(MACH_MSG_TYPE_INTEGER_32, 32, 1);
	KTEST_EXPECT_EQ(t, send(p.b, &mi, sizeof(mi)), MACH_SEND_INVALID_REPLY);
	mi.h.msgh_bits = MACH_MSGH_BITS(MACH_MSG_TYPE_COPY_SEND, 0) |
			 MACH_MSGH_BITS_CIRCULAR;
	mi.h.msgh_local_port = MACH_PORT_NULL;
	KTEST_EXPECT_EQ(t, send(p.b, &mi, sizeof(mi)),
			MACH_SEND_INVALID_HEADER);
	mi.h.msgh_bits = MACH_MSGH_BITS(MACH_MSG_TYPE_PORT_NAME, 0);
	KTEST_EXPECT_EQ(t, send(p.b, &mi, sizeof(mi)),
			MACH_SEND_INVALID_HEADER);

	/* Out-of-line memory cannot come from a kernel buffer. */
	header(&mo.h, MACH_MSGH_BITS_COMPLEX |
			      MACH_MSGH_BITS(MACH_MSG_TYPE_COPY_SEND, 0),
	       0, s, MACH_PORT_NULL, 4);
	memset(&mo.t, 0, sizeof(mo.t));
	mo.t.msgtl_header.msgt_longform = 1;
	mo.t.msgtl_name = MACH_MSG_TYPE_BYTE;
	mo.t.msgtl_size = 8;
	mo.t.msgtl_number = 100;
	mo.addr = 0x400000;
	KTEST_EXPECT_EQ(t, send(p.b, &mo, sizeof(mo)), MACH_SEND_INVALID_TYPE);

	/* Nothing was taken or queued. */
	KTEST_EXPECT_EQ(t, type_or_zero(p.b, mine), MACH_PORT_TYPE_RECEIVE);
	KTEST_EXPECT_EQ(t, refs(p.b, s, MACH_PORT_RIGHT_SEND), 1);
	KTEST_EXPECT_EQ(t, recv(p.a, r, &mi, sizeof(mi), 0),
			MACH_RCV_TIMED_OUT);
	pair_close(t, &p);
}

static void move_send_transfers_right(struct ktest *t)
{
	struct pair p;
	mach_port_name_t r1, r2, s1, s2;
	struct msg_port m;
	struct msg_buf in;
	struct msg_port *got = (struct msg_port *)(void *)&in;

	pair_open(t, &p);
	r1 = new_port(t, p.a);
	r2 = new_port(t, p.a);
	s1 = give_send(t, p.a, r1, p.b);
	s2 = give_send(t, p.a, r2, p.b);
	header(&m.h, MACH_MSGH_BITS_COMPLEX |
			     MACH_MSGH_BITS(MACH_MSG_TYPE_COPY_SEND, 0),
	       0, s1, MACH_PORT_NULL, 5);
	m.t = type_of(MACH_MSG_TYPE_MOVE_SEND, 32, 1);
	m.name = s2;
	KTEST_EXPECT_EQ(t, send(p.b, &m, sizeof(m)), MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, type_or_zero(p.b, s2), 0);	/* moved away */

	KTEST_EXPECT_EQ(t, recv(p.a, r1, &in, sizeof(in), 0), MACH_MSG_SUCCESS);
	KTEST_EXPECT_TRUE(t, in.h.msgh_bits & MACH_MSGH_BITS_COMPLEX);
	KTEST_EXPECT_EQ(t, got->t.msgt_name, MACH_MSG_TYPE_PORT_SEND);
	KTEST_EXPECT_EQ(t, got->t.msgt_size, 32);
	/* The receiver names the port as it names its receive right. */
	KTEST_EXPECT_EQ(t, got->name, r2);
	KTEST_EXPECT_EQ(t, type_or_zero(p.a, r2),
			MACH_PORT_TYPE_SEND_RECEIVE);
	KTEST_EXPECT_EQ(t, refs(p.a, r2, MACH_PORT_RIGHT_SEND), 1);

	/* And send it back: b gets a fresh name with one reference. */
	m.h.msgh_remote_port = give_send(t, p.b, new_port(t, p.b), p.a);
	m.name = r2;
	KTEST_EXPECT_EQ(t, send(p.a, &m, sizeof(m)), MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, type_or_zero(p.a, r2), MACH_PORT_TYPE_RECEIVE);
	pair_close(t, &p);
}

static void make_send_once_reply_round_trip(struct ktest *t)
{
	struct pair p;
	mach_port_name_t service, reply, s, so;
	struct msg_int m;
	struct msg_buf in;
	mach_port_status_t st;

	pair_open(t, &p);
	service = new_port(t, p.a);
	reply = new_port(t, p.b);
	s = give_send(t, p.a, service, p.b);

	header(&m.h, MACH_MSGH_BITS(MACH_MSG_TYPE_COPY_SEND,
				    MACH_MSG_TYPE_MAKE_SEND_ONCE),
	       0, s, reply, 3000);
	m.t = type_of(MACH_MSG_TYPE_INTEGER_32, 32, 1);
	m.v = 6;
	KTEST_EXPECT_EQ(t, send(p.b, &m, sizeof(m)), MACH_MSG_SUCCESS);

	KTEST_EXPECT_EQ(t, recv(p.a, service, &in, sizeof(in), 0),
			MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, in.h.msgh_bits,
			MACH_MSGH_BITS(MACH_MSG_TYPE_PORT_SEND_ONCE,
				       MACH_MSG_TYPE_PORT_SEND));
	so = in.h.msgh_remote_port;
	KTEST_EXPECT_EQ(t, type_or_zero(p.a, so), MACH_PORT_TYPE_SEND_ONCE);

	/* The server answers through the send-once right, consuming it. */
	header(&m.h, MACH_MSGH_BITS(MACH_MSG_TYPE_MOVE_SEND_ONCE, 0), 0, so,
	       MACH_PORT_NULL, 3100);
	m.v = 7;
	KTEST_EXPECT_EQ(t, send(p.a, &m, sizeof(m)), MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, type_or_zero(p.a, so), 0);
	/* It cannot be used twice. */
	KTEST_EXPECT_EQ(t, send(p.a, &m, sizeof(m)), MACH_SEND_INVALID_DEST);

	KTEST_EXPECT_EQ(t, recv(p.b, reply, &in, sizeof(in), 0),
			MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, in.h.msgh_id, 3100);
	KTEST_EXPECT_EQ(t, in.h.msgh_local_port, reply);
	KTEST_EXPECT_EQ(t, in.h.msgh_bits,
			MACH_MSGH_BITS(0, MACH_MSG_TYPE_PORT_SEND_ONCE));
	KTEST_EXPECT_EQ(t, ((struct msg_int *)(void *)&in)->v, 7);
	KTEST_EXPECT_EQ(t, mach_port_get_receive_status(p.b, reply, &st),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, st.mps_sorights, 0);
	pair_close(t, &p);
}

static void port_right_array_with_bad_entry_is_refused(struct ktest *t)
{
	struct pair p;
	mach_port_name_t r, s, good;
	struct msg_ports m;
	struct msg_buf in;
	struct msg_ports *got = (struct msg_ports *)(void *)&in;
	struct counts before;

	pair_open(t, &p);
	r = new_port(t, p.a);
	s = give_send(t, p.a, r, p.b);
	good = give_send(t, p.a, new_port(t, p.a), p.b);

	header(&m.h, MACH_MSGH_BITS_COMPLEX |
			     MACH_MSGH_BITS(MACH_MSG_TYPE_COPY_SEND, 0),
	       0, s, MACH_PORT_NULL, 6);
	memset(&m.t, 0, sizeof(m.t));
	m.t.msgtl_header.msgt_inline = 1;
	m.t.msgtl_header.msgt_longform = 1;
	m.t.msgtl_name = MACH_MSG_TYPE_MOVE_SEND;
	m.t.msgtl_size = 32;
	m.t.msgtl_number = 2;
	m.names[0] = good;
	m.names[1] = 0x9999;

	counts_take(&before);
	KTEST_EXPECT_EQ(t, send(p.b, &m, sizeof(m)), MACH_SEND_INVALID_RIGHT);
	EXPECT_COUNTS_BACK(t, &before);
	KTEST_EXPECT_EQ(t, refs(p.b, good, MACH_PORT_RIGHT_SEND), 1);

	/* Moving one reference twice is refused the same way... */
	m.names[1] = good;
	KTEST_EXPECT_EQ(t, send(p.b, &m, sizeof(m)), MACH_SEND_INVALID_RIGHT);
	EXPECT_COUNTS_BACK(t, &before);
	KTEST_EXPECT_EQ(t, refs(p.b, good, MACH_PORT_RIGHT_SEND), 1);
	KTEST_EXPECT_EQ(t, recv(p.a, r, &in, sizeof(in), 0),
			MACH_RCV_TIMED_OUT);

	/* ... and works with two references. */
	KTEST_EXPECT_EQ(t, mach_port_mod_refs(p.b, good, MACH_PORT_RIGHT_SEND,
					      1),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, send(p.b, &m, sizeof(m)), MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, type_or_zero(p.b, good), 0);
	KTEST_EXPECT_EQ(t, recv(p.a, r, &in, sizeof(in), 0), MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, got->t.msgtl_name, MACH_MSG_TYPE_PORT_SEND);
	KTEST_EXPECT_EQ(t, got->names[0], got->names[1]);
	KTEST_EXPECT_EQ(t, refs(p.a, got->names[0], MACH_PORT_RIGHT_SEND), 2);
	pair_close(t, &p);
}

static void receive_times_out(struct ktest *t)
{
	struct pair p;
	mach_port_name_t r;
	struct msg_buf in;
	uint64_t start;

	pair_open(t, &p);
	r = new_port(t, p.a);
	KTEST_EXPECT_EQ(t, recv(p.a, r, &in, sizeof(in), 0),
			MACH_RCV_TIMED_OUT);
	start = clock_ticks();
	KTEST_EXPECT_EQ(t, recv(p.a, r, &in, sizeof(in), 50),
			MACH_RCV_TIMED_OUT);
	KTEST_EXPECT_GE(t, clock_ticks() - start, 4);
	KTEST_EXPECT_EQ(t, recv(p.a, 0x1234, &in, sizeof(in), 0),
			MACH_RCV_INVALID_NAME);
	pair_close(t, &p);
}

static void send_times_out_when_queue_full(struct ktest *t)
{
	struct pair p;
	mach_port_name_t r, s, reply;
	struct msg_int m;
	struct msg_buf in;
	mach_port_status_t st;
	uint64_t start;

	pair_open(t, &p);
	r = new_port(t, p.a);
	s = give_send(t, p.a, r, p.b);
	reply = new_port(t, p.b);
	KTEST_EXPECT_EQ(t, mach_port_set_qlimit(p.a, r,
						MACH_PORT_QLIMIT_MAX + 1),
			KERN_INVALID_VALUE);
	KTEST_EXPECT_EQ(t, mach_port_set_qlimit(p.a, r, 2), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, send_int(p.b, s, 1, 0), MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, send_int(p.b, s, 2, 0), MACH_MSG_SUCCESS);

	header(&m.h, MACH_MSGH_BITS(MACH_MSG_TYPE_COPY_SEND,
				    MACH_MSG_TYPE_MAKE_SEND_ONCE),
	       0, s, reply, 3);
	m.t = type_of(MACH_MSG_TYPE_INTEGER_32, 32, 1);
	start = clock_ticks();
	KTEST_EXPECT_EQ(t, mach_msg_kernel(p.b, &m,
					   MACH_SEND_MSG | MACH_SEND_TIMEOUT,
					   sizeof(m), 0, MACH_PORT_NULL, 30),
			MACH_SEND_TIMED_OUT);
	KTEST_EXPECT_GE(t, clock_ticks() - start, 2);
	KTEST_EXPECT_EQ(t, mach_msg_kernel(p.b, &m,
					   MACH_SEND_MSG | MACH_SEND_TIMEOUT,
					   sizeof(m), 0, MACH_PORT_NULL, 0),
			MACH_SEND_TIMED_OUT);
	/* The failed sends took nothing: no send-once right was made. */
	KTEST_EXPECT_EQ(t, mach_port_get_receive_status(p.b, reply, &st),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, st.mps_sorights, 0);
	KTEST_EXPECT_EQ(t, mach_port_get_receive_status(p.a, r, &st),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, st.mps_msgcount, 2);

	/* A send-once right always gets through. */
	header(&m.h, MACH_MSGH_BITS(MACH_MSG_TYPE_MAKE_SEND_ONCE, 0), 0, r,
	       MACH_PORT_NULL, 4);
	KTEST_EXPECT_EQ(t, mach_msg_kernel(p.a, &m,
					   MACH_SEND_MSG | MACH_SEND_TIMEOUT,
					   sizeof(m), 0, MACH_PORT_NULL, 0),
			MACH_MSG_SUCCESS);
	/* Room again after a receive. */
	KTEST_EXPECT_EQ(t, recv(p.a, r, &in, sizeof(in), 0), MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, recv(p.a, r, &in, sizeof(in), 0), MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, send_int(p.b, s, 5, 0), MACH_MSG_SUCCESS);
	pair_close(t, &p);
}

/* A kernel thread receiving once on @name of @space. */
struct receiver {
	struct ipc_space *space;
	mach_port_name_t name;
	volatile int done;
	volatile mach_msg_return_t mr;
	struct msg_buf in;
};

static void receive_thread(void *arg)
{
	struct receiver *rc = arg;

	rc->mr = recv(rc->space, rc->name, &rc->in, sizeof(rc->in), 5000);
	rc->done = 1;
}

/* Sleep in 1-tick steps until *flag is set or @ticks pass. */
static int wait_for(volatile int *flag, uint64_t ticks)
{
	uint64_t end = clock_ticks() + ticks;

	while (!*flag && clock_ticks() < end)
		thread_sleep_ticks(1);
	return *flag;
}

static void start_receiver(struct ktest *t, struct receiver *rc,
			   struct ipc_space *space, mach_port_name_t name)
{
	rc->space = space;
	rc->name = name;
	rc->done = 0;
	rc->mr = 0;
	KTEST_EXPECT_EQ(t, kernel_thread_create("ipc-rcv", HIGH,
						receive_thread, rc, NULL),
			KERN_SUCCESS);
	/* It ran first (higher priority) and is blocked now. */
	KTEST_EXPECT_FALSE(t, rc->done);
}

static void receive_on_dead_port(struct ktest *t)
{
	static struct receiver rc;
	struct pair p;
	mach_port_name_t r, set;
	struct msg_buf in;

	pair_open(t, &p);
	r = new_port(t, p.a);
	start_receiver(t, &rc, p.a, r);
	KTEST_EXPECT_EQ(t, mach_port_destroy(p.a, r), KERN_SUCCESS);
	KTEST_EXPECT_TRUE(t, wait_for(&rc.done, 100));
	KTEST_EXPECT_EQ(t, rc.mr, MACH_RCV_PORT_DIED);
	thread_sleep_ticks(1);	/* let the thread be freed */

	/* A receiver whose port joins a set is told so. */
	r = new_port(t, p.a);
	KTEST_EXPECT_EQ(t, mach_port_allocate(p.a, MACH_PORT_RIGHT_PORT_SET,
					      &set),
			KERN_SUCCESS);
	start_receiver(t, &rc, p.a, r);
	KTEST_EXPECT_EQ(t, mach_port_move_member(p.a, r, set), KERN_SUCCESS);
	KTEST_EXPECT_TRUE(t, wait_for(&rc.done, 100));
	KTEST_EXPECT_EQ(t, rc.mr, MACH_RCV_PORT_CHANGED);
	thread_sleep_ticks(1);
	KTEST_EXPECT_EQ(t, recv(p.a, r, &in, sizeof(in), 0), MACH_RCV_IN_SET);

	/* A dead name is no receive right. */
	KTEST_EXPECT_EQ(t, mach_port_destroy(p.a, r), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, recv(p.a, r, &in, sizeof(in), 0),
			MACH_RCV_INVALID_NAME);
	pair_close(t, &p);
}

static void receive_from_port_set(struct ktest *t)
{
	struct pair p;
	mach_port_name_t set, p1, p2, s1, s2, members[4];
	unsigned int n = 0;
	struct msg_buf in;

	pair_open(t, &p);
	KTEST_EXPECT_EQ(t, mach_port_allocate(p.a, MACH_PORT_RIGHT_PORT_SET,
					      &set),
			KERN_SUCCESS);
	p1 = new_port(t, p.a);
	p2 = new_port(t, p.a);
	s1 = give_send(t, p.a, p1, p.b);
	s2 = give_send(t, p.a, p2, p.b);
	/* A message queued before joining is received through the set. */
	KTEST_EXPECT_EQ(t, send_int(p.b, s2, 20, 0), MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, mach_port_move_member(p.a, p1, set), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, mach_port_move_member(p.a, p2, set), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, mach_port_get_set_status(p.a, set, members, 4, &n),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, n, 2);
	KTEST_EXPECT_EQ(t, send_int(p.b, s1, 10, 0), MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, send_int(p.b, s2, 21, 0), MACH_MSG_SUCCESS);

	/* Oldest first, whichever member it came to. */
	KTEST_EXPECT_EQ(t, recv(p.a, set, &in, sizeof(in), 0),
			MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, in.h.msgh_id, 20);
	KTEST_EXPECT_EQ(t, in.h.msgh_local_port, p2);
	KTEST_EXPECT_EQ(t, recv(p.a, set, &in, sizeof(in), 0),
			MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, in.h.msgh_id, 10);
	KTEST_EXPECT_EQ(t, in.h.msgh_local_port, p1);
	KTEST_EXPECT_EQ(t, recv(p.a, p1, &in, sizeof(in), 0), MACH_RCV_IN_SET);
	KTEST_EXPECT_EQ(t, recv(p.a, set, &in, sizeof(in), 0),
			MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, in.h.msgh_id, 21);
	KTEST_EXPECT_EQ(t, recv(p.a, set, &in, sizeof(in), 0),
			MACH_RCV_TIMED_OUT);

	/* Out of the set, the port receives alone again. */
	KTEST_EXPECT_EQ(t, mach_port_move_member(p.a, p1, MACH_PORT_NULL),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, mach_port_move_member(p.a, p1, MACH_PORT_NULL),
			KERN_NOT_IN_SET);
	KTEST_EXPECT_EQ(t, mach_port_move_member(p.a, set, p1),
			KERN_INVALID_RIGHT);
	KTEST_EXPECT_EQ(t, send_int(p.b, s1, 11, 0), MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, recv(p.a, p1, &in, sizeof(in), 0), MACH_MSG_SUCCESS);
	/* Destroying the set leaves its members alone. */
	KTEST_EXPECT_EQ(t, mach_port_destroy(p.a, set), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, send_int(p.b, s2, 22, 0), MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, recv(p.a, p2, &in, sizeof(in), 0), MACH_MSG_SUCCESS);
	pair_close(t, &p);
}

/* Request notification @msgid about @name of @s, to receive right @notify
 * of @s by MAKE_SEND_ONCE. */
static kern_return_t request(struct ipc_space *s, mach_port_name_t name,
			     mach_msg_id_t msgid, mach_port_mscount_t sync,
			     mach_port_name_t notify)
{
	mach_port_name_t previous = MACH_PORT_NULL;
	kern_return_t kr;

	kr = mach_port_request_notification(s, name, msgid, sync, notify,
					    MACH_MSG_TYPE_MAKE_SEND_ONCE,
					    &previous);
	if (kr == KERN_SUCCESS && previous != MACH_PORT_NULL)
		(void)mach_port_deallocate(s, previous);
	return kr;
}

static void dead_name_notification_when_receiver_dies(struct ktest *t)
{
	struct pair p;
	mach_port_name_t r, s, notify;
	struct msg_buf in;
	mach_dead_name_notification_t *n = (void *)&in;

	pair_open(t, &p);
	r = new_port(t, p.a);
	s = give_send(t, p.a, r, p.b);
	notify = new_port(t, p.b);
	KTEST_EXPECT_EQ(t, request(p.b, s, MACH_NOTIFY_DEAD_NAME, 0, notify),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, type_or_zero(p.b, s),
			MACH_PORT_TYPE_SEND | MACH_PORT_TYPE_DNREQUEST);
	KTEST_EXPECT_EQ(t, request(p.b, s, MACH_NOTIFY_DEAD_NAME + 77, 0,
				   notify),
			KERN_INVALID_VALUE);

	KTEST_EXPECT_EQ(t, mach_port_mod_refs(p.a, r, MACH_PORT_RIGHT_RECEIVE,
					      -1),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, recv(p.b, notify, &in, sizeof(in), 0),
			MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, in.h.msgh_id, MACH_NOTIFY_DEAD_NAME);
	KTEST_EXPECT_EQ(t, in.h.msgh_size, sizeof(*n));
	KTEST_EXPECT_EQ(t, n->not_type.msgt_name, MACH_MSG_TYPE_PORT_NAME);
	KTEST_EXPECT_EQ(t, n->not_port, s);
	KTEST_EXPECT_EQ(t, in.h.msgh_remote_port, MACH_PORT_NULL);
	/* The send right is a dead name now, with the notification's
	 * reference added. */
	KTEST_EXPECT_EQ(t, type_or_zero(p.b, s), MACH_PORT_TYPE_DEAD_NAME);
	KTEST_EXPECT_EQ(t, refs(p.b, s, MACH_PORT_RIGHT_DEAD_NAME), 2);
	KTEST_EXPECT_EQ(t, send_int(p.b, s, 1, 1), MACH_SEND_INVALID_DEST);
	/* On a dead name, an immediate request fires at once. */
	KTEST_EXPECT_EQ(t, request(p.b, s, MACH_NOTIFY_DEAD_NAME, 0, notify),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, request(p.b, s, MACH_NOTIFY_DEAD_NAME, 1, notify),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, recv(p.b, notify, &in, sizeof(in), 0),
			MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, in.h.msgh_id, MACH_NOTIFY_DEAD_NAME);
	KTEST_EXPECT_EQ(t, refs(p.b, s, MACH_PORT_RIGHT_DEAD_NAME), 3);
	pair_close(t, &p);
}

static void no_senders_notification_when_last_send_right_goes(struct ktest *t)
{
	struct pair p;
	mach_port_name_t r, s, notify, set;
	struct msg_buf in;
	mach_no_senders_notification_t *n = (void *)&in;
	mach_port_status_t st;

	pair_open(t, &p);
	r = new_port(t, p.a);
	notify = new_port(t, p.a);
	s = give_send(t, p.a, r, p.b);
	KTEST_EXPECT_EQ(t, request(p.a, r, MACH_NOTIFY_NO_SENDERS, 0, notify),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, mach_port_get_receive_status(p.a, r, &st),
			KERN_SUCCESS);
	KTEST_EXPECT_TRUE(t, st.mps_nsrequest && st.mps_srights);
	KTEST_EXPECT_EQ(t, recv(p.a, notify, &in, sizeof(in), 0),
			MACH_RCV_TIMED_OUT);

	KTEST_EXPECT_EQ(t, mach_port_deallocate(p.b, s), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, recv(p.a, notify, &in, sizeof(in), 0),
			MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, in.h.msgh_id, MACH_NOTIFY_NO_SENDERS);
	KTEST_EXPECT_EQ(t, in.h.msgh_size, sizeof(*n));
	KTEST_EXPECT_EQ(t, n->not_type.msgt_name, MACH_MSG_TYPE_INTEGER_32);
	KTEST_EXPECT_EQ(t, n->not_count, st.mps_mscount);
	KTEST_EXPECT_EQ(t, mach_port_get_receive_status(p.a, r, &st),
			KERN_SUCCESS);
	KTEST_EXPECT_FALSE(t, st.mps_nsrequest || st.mps_srights);
	/* Without senders and sync <= make-send count: at once. */
	KTEST_EXPECT_EQ(t, request(p.a, r, MACH_NOTIFY_NO_SENDERS, 0, notify),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, recv(p.a, notify, &in, sizeof(in), 0),
			MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, in.h.msgh_id, MACH_NOTIFY_NO_SENDERS);
	/* Only receive rights take it. */
	KTEST_EXPECT_EQ(t, mach_port_allocate(p.a, MACH_PORT_RIGHT_PORT_SET,
					      &set),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, request(p.a, set, MACH_NOTIFY_NO_SENDERS, 0,
				   notify),
			KERN_INVALID_RIGHT);
	KTEST_EXPECT_EQ(t, request(p.a, 0x4444, MACH_NOTIFY_NO_SENDERS, 0,
				   notify),
			KERN_INVALID_NAME);
	pair_close(t, &p);
}

static void port_deleted_notification(struct ktest *t)
{
	struct pair p;
	mach_port_name_t r, s, notify;
	struct msg_buf in;
	mach_port_deleted_notification_t *n = (void *)&in;

	pair_open(t, &p);
	r = new_port(t, p.a);
	s = give_send(t, p.a, r, p.b);
	notify = new_port(t, p.b);
	KTEST_EXPECT_EQ(t, request(p.b, s, MACH_NOTIFY_DEAD_NAME, 0, notify),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, mach_port_deallocate(p.b, s), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, recv(p.b, notify, &in, sizeof(in), 0),
			MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, in.h.msgh_id, MACH_NOTIFY_PORT_DELETED);
	KTEST_EXPECT_EQ(t, n->not_port, s);
	KTEST_EXPECT_EQ(t, type_or_zero(p.b, s), 0);
	/* The port's death later says nothing more. */
	KTEST_EXPECT_EQ(t, mach_port_destroy(p.a, r), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, recv(p.b, notify, &in, sizeof(in), 0),
			MACH_RCV_TIMED_OUT);
	pair_close(t, &p);
}

static void port_destroyed_notification_returns_receive_right(
	struct ktest *t)
{
	struct pair p;
	mach_port_name_t r, s, notify;
	struct msg_buf in;
	mach_port_destroyed_notification_t *n = (void *)&in;
	mach_port_status_t st;

	pair_open(t, &p);
	r = new_port(t, p.a);
	notify = new_port(t, p.a);
	s = give_send(t, p.a, r, p.b);
	KTEST_EXPECT_EQ(t, request(p.a, r, MACH_NOTIFY_PORT_DESTROYED, 1,
				   notify),
			KERN_INVALID_VALUE);
	KTEST_EXPECT_EQ(t, request(p.a, r, MACH_NOTIFY_PORT_DESTROYED, 0,
				   notify),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, mach_port_get_receive_status(p.a, r, &st),
			KERN_SUCCESS);
	KTEST_EXPECT_TRUE(t, st.mps_pdrequest);
	KTEST_EXPECT_EQ(t, send_int(p.b, s, 30, 0), MACH_MSG_SUCCESS);

	/* Let go of the receive right: it comes back, queue and all. */
	KTEST_EXPECT_EQ(t, mach_port_mod_refs(p.a, r, MACH_PORT_RIGHT_RECEIVE,
					      -1),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, type_or_zero(p.b, s), MACH_PORT_TYPE_SEND);
	KTEST_EXPECT_EQ(t, recv(p.a, notify, &in, sizeof(in), 0),
			MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, in.h.msgh_id, MACH_NOTIFY_PORT_DESTROYED);
	KTEST_EXPECT_EQ(t, in.h.msgh_size, sizeof(*n));
	KTEST_EXPECT_TRUE(t, in.h.msgh_bits & MACH_MSGH_BITS_COMPLEX);
	KTEST_EXPECT_EQ(t, n->not_type.msgt_name, MACH_MSG_TYPE_PORT_RECEIVE);
	KTEST_EXPECT_EQ(t, n->not_type.msgt_size, 32);
	KTEST_EXPECT_EQ(t, type_or_zero(p.a, n->not_port),
			MACH_PORT_TYPE_RECEIVE);
	KTEST_EXPECT_EQ(t, recv(p.a, n->not_port, &in, sizeof(in), 0),
			MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, in.h.msgh_id, 30);
	pair_close(t, &p);
}

static void send_once_notification(struct ktest *t)
{
	struct pair p;
	mach_port_name_t r, so = 0x500;
	struct ipc_port *port;
	mach_msg_type_name_t type;
	struct msg_buf in;

	pair_open(t, &p);
	r = new_port(t, p.b);
	KTEST_EXPECT_EQ(t, mach_port_extract_right(p.b, r,
						   MACH_MSG_TYPE_MAKE_SEND_ONCE,
						   &port, &type),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, type, MACH_MSG_TYPE_PORT_SEND_ONCE);
	KTEST_EXPECT_EQ(t, mach_port_insert_right(p.a, so, port, type),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, mach_port_insert_right(p.a, so, port, type),
			KERN_NAME_EXISTS);
	KTEST_EXPECT_EQ(t, type_or_zero(p.a, so), MACH_PORT_TYPE_SEND_ONCE);
	KTEST_EXPECT_EQ(t, mach_port_mod_refs(p.a, so,
					      MACH_PORT_RIGHT_SEND_ONCE, 1),
			KERN_INVALID_VALUE);
	KTEST_EXPECT_EQ(t, mach_port_deallocate(p.a, so), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, recv(p.b, r, &in, sizeof(in), 0), MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, in.h.msgh_id, MACH_NOTIFY_SEND_ONCE);
	KTEST_EXPECT_EQ(t, in.h.msgh_size,
			sizeof(mach_send_once_notification_t));
	KTEST_EXPECT_EQ(t, in.h.msgh_local_port, r);
	KTEST_EXPECT_EQ(t, in.h.msgh_bits,
			MACH_MSGH_BITS(0, MACH_MSG_TYPE_PORT_SEND_ONCE));
	pair_close(t, &p);
}

static void blocked_receiver_wakes_on_send(struct ktest *t)
{
	static struct receiver rc;
	struct pair p;
	mach_port_name_t r, s;

	pair_open(t, &p);
	r = new_port(t, p.a);
	s = give_send(t, p.a, r, p.b);
	start_receiver(t, &rc, p.a, r);
	KTEST_EXPECT_EQ(t, send_int(p.b, s, 4321, 5), MACH_MSG_SUCCESS);
	KTEST_EXPECT_TRUE(t, wait_for(&rc.done, 100));
	KTEST_EXPECT_EQ(t, rc.mr, MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, rc.in.h.msgh_id, 4321);
	KTEST_EXPECT_EQ(t, ((struct msg_int *)(void *)&rc.in)->v, 5);
	thread_sleep_ticks(1);
	pair_close(t, &p);
}

static void space_destroy_releases_everything(struct ktest *t)
{
	struct pair p;
	mach_port_name_t r, s, set, dead, notify, watched, so = 0x700;
	struct ipc_space *c;
	struct ipc_port *port;
	mach_msg_type_name_t type;
	struct msg_port m;
	struct msg_buf in;

	pair_open(t, &p);
	c = ipc_space_create();
	/* a: ports with queued messages that carry rights, a set, names. */
	r = new_port(t, p.a);
	s = give_send(t, p.a, r, p.b);
	KTEST_EXPECT_EQ(t, mach_port_allocate(p.a, MACH_PORT_RIGHT_PORT_SET,
					      &set),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, mach_port_move_member(p.a, r, set), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, mach_port_allocate(p.a, MACH_PORT_RIGHT_DEAD_NAME,
					      &dead),
			KERN_SUCCESS);
	for (int i = 0; i < 3; i++) {
		header(&m.h, MACH_MSGH_BITS_COMPLEX |
				     MACH_MSGH_BITS(MACH_MSG_TYPE_COPY_SEND,
					       MACH_MSG_TYPE_MAKE_SEND_ONCE),
		       0, s, new_port(t, p.b), 9);
		m.t = type_of(MACH_MSG_TYPE_MAKE_SEND, 32, 1);
		m.name = new_port(t, p.b);
		KTEST_EXPECT_EQ(t, send(p.b, &m, sizeof(m)), MACH_MSG_SUCCESS);
	}
	/* c watches a's port r with a dead-name request. */
	watched = give_send(t, p.a, r, c);
	notify = new_port(t, c);
	KTEST_EXPECT_EQ(t, request(c, watched, MACH_NOTIFY_DEAD_NAME, 0,
				   notify),
			KERN_SUCCESS);
	/* a holds a send-once right to one of c's ports. */
	KTEST_EXPECT_EQ(t, mach_port_extract_right(c, notify,
						   MACH_MSG_TYPE_MAKE_SEND_ONCE,
						   &port, &type),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, mach_port_insert_right(p.a, so, port, type),
			KERN_SUCCESS);

	ipc_space_destroy(p.a);
	/* c learns: r died (dead name), its send-once right was dropped. */
	KTEST_EXPECT_EQ(t, recv(c, notify, &in, sizeof(in), 0),
			MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, recv(c, notify, &in, sizeof(in), 0),
			MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, recv(c, notify, &in, sizeof(in), 0),
			MACH_RCV_TIMED_OUT);
	KTEST_EXPECT_EQ(t, type_or_zero(c, watched), MACH_PORT_TYPE_DEAD_NAME);
	/* b's queued reply rights came back as send-once notifications. */
	KTEST_EXPECT_EQ(t, type_or_zero(p.b, s), MACH_PORT_TYPE_DEAD_NAME);
	KTEST_EXPECT_EQ(t, mach_port_allocate(p.a, MACH_PORT_RIGHT_RECEIVE,
					      &r),
			KERN_INVALID_TASK);
	KTEST_EXPECT_EQ(t, send_int(p.a, s, 0, 0), MACH_SEND_INVALID_DEST);

	ipc_space_destroy(p.b);
	ipc_space_destroy(c);
	EXPECT_COUNTS_BACK(t, &p.start);
}

static void mach_port_allocate_deallocate_and_refs_errors(struct ktest *t)
{
	struct pair p;
	mach_port_name_t r, set, dead, s, names[8];
	mach_port_type_t types[8];
	unsigned int n;
	mach_port_urefs_t u;

	pair_open(t, &p);
	r = new_port(t, p.a);
	KTEST_EXPECT_EQ(t, mach_port_allocate(p.a, 99, &set),
			KERN_INVALID_VALUE);
	KTEST_EXPECT_EQ(t, mach_port_allocate(p.a, MACH_PORT_RIGHT_SEND, &set),
			KERN_INVALID_VALUE);
	KTEST_EXPECT_EQ(t, mach_port_allocate(p.a, MACH_PORT_RIGHT_PORT_SET,
					      &set),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, mach_port_allocate_name(p.a,
						   MACH_PORT_RIGHT_DEAD_NAME,
						   0x300),
			KERN_SUCCESS);
	dead = 0x300;
	KTEST_EXPECT_EQ(t, mach_port_allocate_name(p.a, MACH_PORT_RIGHT_RECEIVE,
						   0x300),
			KERN_NAME_EXISTS);
	KTEST_EXPECT_EQ(t, mach_port_allocate_name(p.a, MACH_PORT_RIGHT_RECEIVE,
						   MACH_PORT_NULL),
			KERN_INVALID_VALUE);
	KTEST_EXPECT_EQ(t, mach_port_allocate_name(p.a, MACH_PORT_RIGHT_RECEIVE,
						   MACH_PORT_DEAD),
			KERN_INVALID_VALUE);
	KTEST_EXPECT_EQ(t, mach_port_names(p.a, names, types, 8, &n),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, n, 3);

	/* deallocate */
	KTEST_EXPECT_EQ(t, mach_port_deallocate(p.a, 0x4444),
			KERN_INVALID_NAME);
	KTEST_EXPECT_EQ(t, mach_port_deallocate(p.a, r), KERN_INVALID_RIGHT);
	KTEST_EXPECT_EQ(t, mach_port_deallocate(p.a, set), KERN_INVALID_RIGHT);

	/* get_refs */
	KTEST_EXPECT_EQ(t, mach_port_get_refs(p.a, r, MACH_PORT_RIGHT_NUMBER,
					      &u),
			KERN_INVALID_VALUE);
	KTEST_EXPECT_EQ(t, mach_port_get_refs(p.a, 0x4444, MACH_PORT_RIGHT_SEND,
					      &u),
			KERN_INVALID_NAME);
	KTEST_EXPECT_EQ(t, refs(p.a, r, MACH_PORT_RIGHT_RECEIVE), 1);
	KTEST_EXPECT_EQ(t, refs(p.a, r, MACH_PORT_RIGHT_SEND), 0);
	KTEST_EXPECT_EQ(t, refs(p.a, set, MACH_PORT_RIGHT_PORT_SET), 1);
	KTEST_EXPECT_EQ(t, refs(p.a, dead, MACH_PORT_RIGHT_DEAD_NAME), 1);

	/* mod_refs */
	KTEST_EXPECT_EQ(t, mach_port_mod_refs(p.a, r, MACH_PORT_RIGHT_SEND, 1),
			KERN_INVALID_RIGHT);
	KTEST_EXPECT_EQ(t, mach_port_mod_refs(p.a, r, MACH_PORT_RIGHT_RECEIVE,
					      1),
			KERN_INVALID_VALUE);
	KTEST_EXPECT_EQ(t, mach_port_mod_refs(p.a, r, 77, 0),
			KERN_INVALID_VALUE);
	KTEST_EXPECT_EQ(t, mach_port_mod_refs(p.a, dead,
					      MACH_PORT_RIGHT_DEAD_NAME, 4),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, refs(p.a, dead, MACH_PORT_RIGHT_DEAD_NAME), 5);
	KTEST_EXPECT_EQ(t, mach_port_mod_refs(p.a, dead,
					      MACH_PORT_RIGHT_DEAD_NAME, -6),
			KERN_INVALID_VALUE);
	KTEST_EXPECT_EQ(t, mach_port_mod_refs(p.a, dead,
					      MACH_PORT_RIGHT_DEAD_NAME,
					      0x10000),
			KERN_UREFS_OVERFLOW);
	KTEST_EXPECT_EQ(t, mach_port_deallocate(p.a, dead), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, mach_port_mod_refs(p.a, dead,
					      MACH_PORT_RIGHT_DEAD_NAME, -4),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, type_or_zero(p.a, dead), 0);

	/* Send rights: user references, and the entry they share with the
	 * receive right. */
	s = give_send(t, p.a, r, p.b);
	KTEST_EXPECT_EQ(t, give_send(t, p.a, r, p.b), s);
	KTEST_EXPECT_EQ(t, refs(p.b, s, MACH_PORT_RIGHT_SEND), 2);
	KTEST_EXPECT_EQ(t, mach_port_mod_refs(p.b, s, MACH_PORT_RIGHT_SEND, -3),
			KERN_INVALID_VALUE);
	KTEST_EXPECT_EQ(t, mach_port_mod_refs(p.b, s, MACH_PORT_RIGHT_SEND, -2),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, type_or_zero(p.b, s), 0);
	KTEST_EXPECT_EQ(t, give_send(t, p.a, r, p.a), r);
	KTEST_EXPECT_EQ(t, type_or_zero(p.a, r), MACH_PORT_TYPE_SEND_RECEIVE);
	KTEST_EXPECT_EQ(t, mach_port_deallocate(p.a, r), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, type_or_zero(p.a, r), MACH_PORT_TYPE_RECEIVE);

	/* Destroy and rename. */
	KTEST_EXPECT_EQ(t, mach_port_rename(p.a, r, 0x900), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, type_or_zero(p.a, 0x900), MACH_PORT_TYPE_RECEIVE);
	KTEST_EXPECT_EQ(t, mach_port_rename(p.a, 0x900, set), KERN_NAME_EXISTS);
	KTEST_EXPECT_EQ(t, mach_port_destroy(p.a, 0x900), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, mach_port_destroy(p.a, 0x900), KERN_INVALID_NAME);
	KTEST_EXPECT_EQ(t, mach_port_mod_refs(p.a, set,
					      MACH_PORT_RIGHT_PORT_SET, -1),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, mach_port_names(p.a, names, types, 8, &n),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, n, 0);
	KTEST_EXPECT_EQ(t, mach_port_allocate(NULL, MACH_PORT_RIGHT_RECEIVE,
					      &r),
			KERN_INVALID_TASK);
	pair_close(t, &p);
}

static void move_receive_transfers_port_and_circular_dies(struct ktest *t)
{
	struct pair p;
	mach_port_name_t ra, to_a, rb, sb, got;
	struct msg_port m;
	struct msg_buf in;
	struct msg_port *gm = (void *)&in;

	pair_open(t, &p);
	ra = new_port(t, p.a);
	to_a = give_send(t, p.a, ra, p.b);
	rb = new_port(t, p.b);
	sb = give_send(t, p.b, rb, p.b);	/* b keeps a send right */
	KTEST_EXPECT_EQ(t, sb, rb);
	header(&m.h, MACH_MSGH_BITS_COMPLEX |
			     MACH_MSGH_BITS(MACH_MSG_TYPE_COPY_SEND, 0),
	       0, to_a, MACH_PORT_NULL, 10);
	m.t = type_of(MACH_MSG_TYPE_MOVE_RECEIVE, 32, 1);
	m.name = rb;
	KTEST_EXPECT_EQ(t, send(p.b, &m, sizeof(m)), MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, type_or_zero(p.b, sb), MACH_PORT_TYPE_SEND);
	/* While in transit, messages to it queue. */
	KTEST_EXPECT_EQ(t, send_int(p.b, sb, 11, 0), MACH_MSG_SUCCESS);

	KTEST_EXPECT_EQ(t, recv(p.a, ra, &in, sizeof(in), 0), MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, gm->t.msgt_name, MACH_MSG_TYPE_PORT_RECEIVE);
	got = gm->name;
	KTEST_EXPECT_EQ(t, type_or_zero(p.a, got), MACH_PORT_TYPE_RECEIVE);
	/* The new owner gets what was queued meanwhile. */
	KTEST_EXPECT_EQ(t, recv(p.a, got, &in, sizeof(in), 0),
			MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, in.h.msgh_id, 11);

	/* A receive right sent to itself would be lost in its own queue:
	 * the message is destroyed, and the port with it. */
	header(&m.h, MACH_MSGH_BITS_COMPLEX |
			     MACH_MSGH_BITS(MACH_MSG_TYPE_MAKE_SEND, 0),
	       0, got, MACH_PORT_NULL, 12);
	m.t = type_of(MACH_MSG_TYPE_MOVE_RECEIVE, 32, 1);
	m.name = got;
	KTEST_EXPECT_EQ(t, send(p.a, &m, sizeof(m)), MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, type_or_zero(p.a, got), 0);
	KTEST_EXPECT_EQ(t, type_or_zero(p.b, sb), MACH_PORT_TYPE_DEAD_NAME);
	pair_close(t, &p);
}

/* A kernel object answering every request with its id doubled. */
#define IKOT_TEST	7

static int kobject_of_test;

static mach_msg_return_t test_handler(struct ipc_kmsg *request,
				      struct ipc_kmsg **reply)
{
	unsigned int kotype;
	struct ipc_kmsg *k = ipc_kmsg_alloc(sizeof(mig_reply_header_t));
	mig_reply_header_t *r;
	mach_msg_type_t rt = type_of(MACH_MSG_TYPE_INTEGER_32, 32, 1);

	if (k == NULL)
		return KERN_RESOURCE_SHORTAGE;
	k->header.bits = MACH_MSGH_BITS(MACH_MSGH_BITS_LOCAL(
						request->header.bits), 0);
	k->header.remote = request->header.local;
	k->header.id = request->header.id + 100;
	r = (mig_reply_header_t *)(void *)ipc_kmsg_msg(k);
	r->RetCodeType = rt;
	r->RetCode = ipc_port_kobject(request->header.remote, &kotype) ==
				     &kobject_of_test && kotype == IKOT_TEST ?
			     request->header.id * 2 : -1;
	*reply = k;
	return MACH_MSG_SUCCESS;
}

/* Send @m (an RPC) from @s and receive the reply on @reply into @in. */
static mach_msg_return_t rpc(struct ipc_space *s, const struct msg_int *m,
			     struct msg_buf *in, mach_port_name_t reply)
{
	memset(in, 0, sizeof(*in));
	memcpy(in, m, sizeof(*m));
	return mach_msg_kernel(s, in,
			       MACH_SEND_MSG | MACH_RCV_MSG | MACH_RCV_TIMEOUT,
			       sizeof(*m), sizeof(*in), reply, 0);
}

static void kernel_port_requests_get_replies(struct ktest *t)
{
	struct pair p;
	struct ipc_port *kport;
	mach_port_name_t s, reply;
	struct msg_int m;
	struct msg_buf in;
	mig_reply_header_t *r = (void *)&in;

	pair_open(t, &p);
	kport = ipc_port_alloc_kernel(&kobject_of_test, IKOT_TEST);
	KTEST_EXPECT_TRUE(t, kport != NULL);
	KTEST_EXPECT_EQ(t, ipc_space_insert_send(p.b, kport, &s),
			KERN_SUCCESS);
	reply = new_port(t, p.b);
	header(&m.h, MACH_MSGH_BITS(MACH_MSG_TYPE_COPY_SEND,
				    MACH_MSG_TYPE_MAKE_SEND_ONCE),
	       0, s, reply, 2800);
	m.t = type_of(MACH_MSG_TYPE_INTEGER_32, 32, 1);
	m.v = 0;

	/* No handler: MIG_BAD_ID, as a MIG server says. */
	KTEST_EXPECT_EQ(t, rpc(p.b, &m, &in, reply), MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, in.h.msgh_id, 2900);
	KTEST_EXPECT_EQ(t, in.h.msgh_size, sizeof(mig_reply_header_t));
	KTEST_EXPECT_EQ(t, r->RetCodeType.msgt_name, MACH_MSG_TYPE_INTEGER_32);
	KTEST_EXPECT_EQ(t, r->RetCode, MIG_BAD_ID);

	/* With one: its reply. */
	ipc_kobject_set_handler(IKOT_TEST, test_handler);
	m.h.msgh_id = 21;
	KTEST_EXPECT_EQ(t, rpc(p.b, &m, &in, reply), MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, in.h.msgh_id, 121);
	KTEST_EXPECT_EQ(t, r->RetCode, 42);
	ipc_kobject_set_handler(IKOT_TEST, NULL);

	/* The kernel drops the object: the name dies. */
	ipc_port_dealloc_kernel(kport);
	KTEST_EXPECT_EQ(t, type_or_zero(p.b, s), MACH_PORT_TYPE_DEAD_NAME);
	pair_close(t, &p);
}

/*
 * The trap on user memory: the thread borrows a task made of space b (or
 * a) and an address space activated for the case.
 */
#pragma pack(push, 4)
struct msg_user {
	mach_msg_header_t h;
	mach_msg_type_long_t t1;	/* out-of-line bytes */
	uint64_t data;
	mach_msg_type_long_t t2;	/* out-of-line send rights */
	uint64_t names;
	mach_msg_type_t t3;		/* an inline integer */
	uint32_t v;
};
#pragma pack(pop)

#define OOL_BYTES	5000

static mach_msg_type_long_t long_type(mach_msg_type_name_t name,
				      unsigned int size, unsigned int number,
				      bool is_inline, bool dealloc)
{
	mach_msg_type_long_t t;

	memset(&t, 0, sizeof(t));
	t.msgtl_header.msgt_inline = is_inline;
	t.msgtl_header.msgt_longform = 1;
	t.msgtl_header.msgt_deallocate = dealloc;
	t.msgtl_name = name;
	t.msgtl_size = size;
	t.msgtl_number = number;
	return t;
}

static mach_msg_return_t trap_as(struct task *task, struct ipc_space *s,
				 uint64_t msg, mach_msg_option_t option,
				 mach_msg_size_t send_size,
				 mach_msg_size_t rcv_size,
				 mach_port_name_t rcv_name)
{
	struct thread *self = thread_current();
	struct task *saved = self->task;
	mach_msg_return_t mr;

	task->itk_space = s;
	self->task = task;
	mr = mach_msg_trap((mach_msg_header_t *)msg, option, send_size,
			   rcv_size, rcv_name, 0, MACH_PORT_NULL);
	self->task = saved;
	return mr;
}

static void user_message_with_out_of_line_memory_and_ports(struct ktest *t)
{
	static uint8_t pattern[OOL_BYTES], back[OOL_BYTES];
	struct task fake = { .name = "ipc-test" };
	struct pair p;
	struct vm_map *map;
	mach_port_name_t r, s, names[2], got[2];
	uint64_t base = 0, msg, rcv, data, narr;
	struct msg_user m, in;

	pair_open(t, &p);
	map = vm_map_create();
	if (map == NULL) {
		ktest_fail(t, "vm_map_create failed");
		pair_close(t, &p);
		return;
	}
	vm_map_activate(map);
	fake.map = map;
	KTEST_EXPECT_EQ(t, vm_map_allocate(map, &base, 4 * 4096 + OOL_BYTES,
					   true),
			KERN_SUCCESS);
	msg = base;
	rcv = base + 4096;
	narr = base + 2 * 4096;
	data = base + 4 * 4096;
	for (int i = 0; i < OOL_BYTES; i++)
		pattern[i] = (uint8_t)(i * 13 + 5);
	KTEST_EXPECT_EQ(t, copyout(pattern, (void *)data, OOL_BYTES), 0);

	r = new_port(t, p.a);
	s = give_send(t, p.a, r, p.b);
	names[0] = s;
	names[1] = MACH_PORT_NULL;
	KTEST_EXPECT_EQ(t, copyout(names, (void *)narr, sizeof(names)), 0);
	header(&m.h, MACH_MSGH_BITS_COMPLEX |
			     MACH_MSGH_BITS(MACH_MSG_TYPE_COPY_SEND, 0),
	       0, s, MACH_PORT_NULL, 77);
	m.t1 = long_type(MACH_MSG_TYPE_BYTE, 8, OOL_BYTES, false, true);
	m.data = data;
	m.t2 = long_type(MACH_MSG_TYPE_COPY_SEND, 32, 2, false, false);
	m.names = narr;
	m.t3 = type_of(MACH_MSG_TYPE_INTEGER_32, 32, 1);
	m.v = 0x1234;

	/* Bad addresses: the message, the region, the name array. */
	KTEST_EXPECT_EQ(t, trap_as(&fake, p.b, 0x10, MACH_SEND_MSG,
				   sizeof(m), 0, 0),
			MACH_SEND_INVALID_DATA);
	m.data = 0x7000000000;
	KTEST_EXPECT_EQ(t, copyout(&m, (void *)msg, sizeof(m)), 0);
	KTEST_EXPECT_EQ(t, trap_as(&fake, p.b, msg, MACH_SEND_MSG, sizeof(m),
				   0, 0),
			MACH_SEND_INVALID_MEMORY);
	m.data = data;
	m.names = 0x7000000000;
	KTEST_EXPECT_EQ(t, copyout(&m, (void *)msg, sizeof(m)), 0);
	KTEST_EXPECT_EQ(t, trap_as(&fake, p.b, msg, MACH_SEND_MSG, sizeof(m),
				   0, 0),
			MACH_SEND_INVALID_MEMORY);
	KTEST_EXPECT_EQ(t, copyin((void *)data, back, OOL_BYTES), 0);

	/* A receive into unwritable memory loses the message. */
	KTEST_EXPECT_EQ(t, send_int(p.b, s, 5, 0), MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, trap_as(&fake, p.a, 0x7000000000, MACH_RCV_MSG,
				   0, sizeof(in), r),
			MACH_RCV_INVALID_DATA);

	/* The real one; the region was sent with msgt_deallocate. */
	m.names = narr;
	KTEST_EXPECT_EQ(t, copyout(&m, (void *)msg, sizeof(m)), 0);
	KTEST_EXPECT_EQ(t, trap_as(&fake, p.b, msg, MACH_SEND_MSG, sizeof(m),
				   0, 0),
			MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, copyin((void *)data, back, 1), -1);
	KTEST_EXPECT_EQ(t, trap_as(&fake, p.a, rcv,
				   MACH_RCV_MSG | MACH_RCV_TIMEOUT, 0,
				   sizeof(in), r),
			MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, copyin((void *)rcv, &in, sizeof(in)), 0);
	KTEST_EXPECT_EQ(t, in.h.msgh_size, sizeof(in));
	KTEST_EXPECT_EQ(t, in.h.msgh_id, 77);
	KTEST_EXPECT_EQ(t, in.t1.msgtl_number, OOL_BYTES);
	KTEST_EXPECT_EQ(t, in.t2.msgtl_name, MACH_MSG_TYPE_PORT_SEND);
	KTEST_EXPECT_EQ(t, in.t2.msgtl_size, 32);
	KTEST_EXPECT_EQ(t, in.v, 0x1234);
	KTEST_EXPECT_TRUE(t, in.data != 0 && in.names != 0);
	memset(back, 0, sizeof(back));
	KTEST_EXPECT_EQ(t, copyin((void *)in.data, back, OOL_BYTES), 0);
	KTEST_EXPECT_MEMEQ(t, back, pattern, OOL_BYTES);
	KTEST_EXPECT_EQ(t, copyin((void *)in.names, got, sizeof(got)), 0);
	KTEST_EXPECT_EQ(t, got[0], r);	/* a names its own port so */
	KTEST_EXPECT_EQ(t, got[1], MACH_PORT_NULL);
	KTEST_EXPECT_EQ(t, type_or_zero(p.a, r), MACH_PORT_TYPE_SEND_RECEIVE);
	KTEST_EXPECT_EQ(t, recv(p.a, r, &in, sizeof(in), 0),
			MACH_RCV_TIMED_OUT);

	/* A kernel buffer cannot take out-of-line items: they arrive as 0. */
	m.t1 = long_type(MACH_MSG_TYPE_BYTE, 8, 100, false, false);
	m.data = narr;
	KTEST_EXPECT_EQ(t, copyout(&m, (void *)msg, sizeof(m)), 0);
	KTEST_EXPECT_EQ(t, trap_as(&fake, p.b, msg, MACH_SEND_MSG, sizeof(m),
				   0, 0),
			MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, recv(p.a, r, &in, sizeof(in), 0),
			MACH_RCV_BODY_ERROR | MACH_MSG_VM_SPACE);
	KTEST_EXPECT_EQ(t, in.data, 0);
	KTEST_EXPECT_EQ(t, in.names, 0);

	vm_map_activate(NULL);
	vm_map_destroy(map);
	pair_close(t, &p);
}

/* A kernel object that checks the out-of-line bytes of a request
 * against few_bytes and answers 1 if they match, 0 if not; it takes
 * the copy, as a MIG routine does. */
static uint8_t few_bytes[60];

static mach_msg_return_t bytes_handler(struct ipc_kmsg *request,
				       struct ipc_kmsg **reply)
{
	uint8_t *slot = ipc_kmsg_body(request) + sizeof(mach_msg_type_long_t);
	struct ipc_kmsg *k = ipc_kmsg_alloc(sizeof(mig_reply_header_t));
	struct vm_map_copy *copy;
	mig_reply_header_t *r;
	uint8_t got[sizeof(few_bytes)];

	memcpy(&copy, slot, sizeof(copy));
	memset(slot, 0, sizeof(copy));
	if (k == NULL) {
		vm_map_copy_discard(copy);
		return KERN_RESOURCE_SHORTAGE;
	}
	vm_map_copy_kernel_read(copy, 0, got, sizeof(got));
	vm_map_copy_discard(copy);
	k->header.bits = MACH_MSGH_BITS(MACH_MSGH_BITS_LOCAL(
						request->header.bits), 0);
	k->header.remote = request->header.local;
	k->header.id = request->header.id + 100;
	r = (mig_reply_header_t *)(void *)ipc_kmsg_msg(k);
	r->RetCodeType = type_of(MACH_MSG_TYPE_INTEGER_32, 32, 1);
	r->RetCode = memcmp(got, few_bytes, sizeof(got)) == 0;
	*reply = k;
	return MACH_MSG_SUCCESS;
}

#pragma pack(push, 4)
struct msg_bytes {
	mach_msg_header_t h;
	mach_msg_type_long_t t;
	uint64_t data;
};
#pragma pack(pop)

/* Out-of-line bytes to a kernel object travel as bytes (no page); a
 * bad or unreadable source is MACH_SEND_INVALID_MEMORY, as to a task. */
static void kernel_port_takes_few_out_of_line_bytes(struct ktest *t)
{
	struct task fake = { .name = "ipc-test" };
	mach_port_name_t s, reply;
	struct ipc_port *kport;
	struct vm_map *map;
	uint64_t base = 0, msg, data, pages, heap;
	struct msg_bytes m;
	mig_reply_header_t in;
	struct pair p;

	pair_open(t, &p);
	map = vm_map_create();
	kport = ipc_port_alloc_kernel(&kobject_of_test, IKOT_TEST);
	if (map == NULL || kport == NULL) {
		ktest_fail(t, "no map or no kernel port");
		goto out;
	}
	vm_map_activate(map);
	fake.map = map;
	KTEST_EXPECT_EQ(t, vm_map_allocate(map, &base, 4 * 4096, true),
			KERN_SUCCESS);
	msg = base;
	data = base + 2 * 4096 + 4060;	/* across a page boundary */
	for (unsigned int i = 0; i < sizeof(few_bytes); i++)
		few_bytes[i] = (uint8_t)(i * 7 + 3);
	KTEST_EXPECT_EQ(t, copyout(few_bytes, (void *)data,
				   sizeof(few_bytes)), 0);
	KTEST_EXPECT_EQ(t, ipc_space_insert_send(p.b, kport, &s),
			KERN_SUCCESS);
	reply = new_port(t, p.b);
	ipc_kobject_set_handler(IKOT_TEST, bytes_handler);
	header(&m.h, MACH_MSGH_BITS_COMPLEX |
			     MACH_MSGH_BITS(MACH_MSG_TYPE_COPY_SEND,
					    MACH_MSG_TYPE_MAKE_SEND_ONCE),
	       0, s, reply, 400);
	m.t = long_type(MACH_MSG_TYPE_BYTE, 8, sizeof(few_bytes), false,
			false);
	m.data = data;
	KTEST_EXPECT_EQ(t, copyout(&m, (void *)msg, sizeof(m)), 0);
	pages = user_task_free_pages();
	heap = kalloc_bytes_in_use();
	KTEST_EXPECT_EQ(t, trap_as(&fake, p.b, msg,
				   MACH_SEND_MSG | MACH_RCV_MSG, sizeof(m),
				   sizeof(in), reply), MACH_MSG_SUCCESS);
	KTEST_EXPECT_EQ(t, copyin((void *)msg, &in, sizeof(in)), 0);
	KTEST_EXPECT_EQ(t, in.Head.msgh_id, 500);
	KTEST_EXPECT_EQ(t, in.RetCode, 1);
	KTEST_EXPECT_EQ(t, user_task_free_pages(), pages);
	KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(), heap);

	/* Unmapped, then unreadable: refused, nothing sent or kept. */
	m.data = base + 8 * 4096;
	KTEST_EXPECT_EQ(t, copyout(&m, (void *)msg, sizeof(m)), 0);
	KTEST_EXPECT_EQ(t, trap_as(&fake, p.b, msg, MACH_SEND_MSG, sizeof(m),
				   0, 0), MACH_SEND_INVALID_MEMORY);
	KTEST_EXPECT_EQ(t, vm_map_protect(map, base + 3 * 4096, 4096, false,
					  VM_PROT_NONE), KERN_SUCCESS);
	m.data = data;
	KTEST_EXPECT_EQ(t, copyout(&m, (void *)msg, sizeof(m)), 0);
	KTEST_EXPECT_EQ(t, trap_as(&fake, p.b, msg, MACH_SEND_MSG, sizeof(m),
				   0, 0), MACH_SEND_INVALID_MEMORY);
	ipc_kobject_set_handler(IKOT_TEST, NULL);
	vm_map_activate(NULL);
out:
	if (kport != NULL)
		ipc_port_dealloc_kernel(kport);
	if (map != NULL)
		vm_map_destroy(map);
	pair_close(t, &p);
}

/*
 * Destroying a queued complex message with 4-byte inline items must leave
 * the items after them, and the memory after the message, alone (the
 * ipc-fuzz suite found clean_body() clearing 8 bytes at every item).
 * Two messages: one whose second descriptor followed a short item, and
 * several that end exactly at the end of their heap object.
 */
static void destroying_queued_short_inline_items_is_clean(struct ktest *t)
{
	struct pair p;
	struct {
		mach_msg_header_t h;
		mach_msg_type_t t1;
		uint32_t v1;
		mach_msg_type_t t2;
		uint32_t v2;
	} two;
	struct msg_int one;
	mach_port_name_t port;

	pair_open(t, &p);
	port = new_port(t, p.a);
	KTEST_EXPECT_EQ(t, mach_port_set_qlimit(p.a, port, 16), KERN_SUCCESS);
	header(&two.h, MACH_MSGH_BITS_COMPLEX |
		       MACH_MSGH_BITS(MACH_MSG_TYPE_MAKE_SEND, 0),
	       sizeof(two), port, MACH_PORT_NULL, 1);
	two.t1 = type_of(MACH_MSG_TYPE_INTEGER_32, 32, 1);
	two.v1 = 0x11111111;
	two.t2 = type_of(MACH_MSG_TYPE_INTEGER_32, 32, 1);
	two.v2 = 0x22222222;
	KTEST_EXPECT_EQ(t, send(p.a, &two, sizeof(two)), MACH_MSG_SUCCESS);
	for (int i = 0; i < 12; i++) {
		header(&one.h, MACH_MSGH_BITS_COMPLEX |
			       MACH_MSGH_BITS(MACH_MSG_TYPE_MAKE_SEND, 0),
		       sizeof(one), port, MACH_PORT_NULL, 100 + i);
		one.t = type_of(MACH_MSG_TYPE_INTEGER_32, 32, 1);
		one.v = 0x11111111;
		KTEST_EXPECT_EQ(t, send(p.a, &one, sizeof(one)),
				MACH_MSG_SUCCESS);
	}
	/* Destroys the 13 queued messages: no panic, nothing left. */
	KTEST_EXPECT_EQ(t, mach_port_destroy(p.a, port), KERN_SUCCESS);
	pair_close(t, &p);
}

static const struct ktest_case ipc_cases[] = {
	{ "destroying_queued_short_inline_items_is_clean",
	  destroying_queued_short_inline_items_is_clean },
	{ "send_and_receive_inline_data", send_and_receive_inline_data },
	{ "rcv_too_large_reports_size", rcv_too_large_reports_size },
	{ "send_to_bad_name_is_invalid_dest",
	  send_to_bad_name_is_invalid_dest },
	{ "send_without_right_is_invalid_dest_or_right",
	  send_without_right_is_invalid_dest_or_right },
	{ "move_send_transfers_right", move_send_transfers_right },
	{ "make_send_once_reply_round_trip", make_send_once_reply_round_trip },
	{ "port_right_array_with_bad_entry_is_refused",
	  port_right_array_with_bad_entry_is_refused },
	{ "receive_times_out", receive_times_out },
	{ "send_times_out_when_queue_full", send_times_out_when_queue_full },
	{ "receive_on_dead_port", receive_on_dead_port },
	{ "receive_from_port_set", receive_from_port_set },
	{ "dead_name_notification_when_receiver_dies",
	  dead_name_notification_when_receiver_dies },
	{ "no_senders_notification_when_last_send_right_goes",
	  no_senders_notification_when_last_send_right_goes },
	{ "port_deleted_notification", port_deleted_notification },
	{ "port_destroyed_notification_returns_receive_right",
	  port_destroyed_notification_returns_receive_right },
	{ "send_once_notification", send_once_notification },
	{ "blocked_receiver_wakes_on_send", blocked_receiver_wakes_on_send },
	{ "space_destroy_releases_everything",
	  space_destroy_releases_everything },
	{ "mach_port_allocate_deallocate_and_refs_errors",
	  mach_port_allocate_deallocate_and_refs_errors },
	{ "move_receive_transfers_port_and_circular_dies",
	  move_receive_transfers_port_and_circular_dies },
	{ "kernel_port_requests_get_replies",
	  kernel_port_requests_get_replies },
	{ "user_message_with_out_of_line_memory_and_ports",
	  user_message_with_out_of_line_memory_and_ports },
	{ "kernel_port_takes_few_out_of_line_bytes",
	  kernel_port_takes_few_out_of_line_bytes },
};
KTEST_SUITE(ipc_suite, "ipc", ipc_cases);
