/* SPDX-License-Identifier: GPL-2.0-only */
/* Device fuzzer: device.defs and claim.defs messages to every device, then proof they work. */
/*
 * "device_fuzz device=PORT [seed=N] [count=N] [dump=N]" opens every
 * device the boot offers (console, irq, rd0, eth0, hd0, hd0s1, hd0s2),
 * waits for eth0's link, then sends count device.defs and claim.defs
 * messages that device_fuzz_msg.c makes, each with a zero timeout: nothing waits for
 * an answer.  Every 16 to 127 messages it keeps house: drains its ports
 * (counting the codes of the replies, giving back the rights and memory
 * they bring), opens, closes (device_close) or drops (its send rights)
 * devices, claims a PCI function (QEMU's VGA, mostly) or lets it go, re-creates the ports and send-once rights that messages took
 * and, one time in eight, all its ports (with the filters, interrupt
 * registrations and reply rights the kernel holds of them), tops up its
 * task, host and master rights, and now and then pauses 10 to 99 ms for
 * what is in flight (links coming up, disk transfers).
 *
 * It prints "FUZZ-RESULT name n" per send result and per reply code,
 * "FUZZ-ODD" for a code outside mach_msg's, MIG's and device_types.h's
 * (kern_return.h's, for replies to ids outside device.defs),
 * "FUZZ-ALIVE" if afterwards a clean console open and write, an rd0 read
 * and their closes work, "FUZZ-DONE sent=N" last; dump=N prints every
 * message from the N-th on.  "mode=warmup" only opens each device, uses
 * it once cleanly (eth0 until its link is up) and closes it: a Linux
 * driver may keep memory from its first use, which the kernel suite
 * leaves out of its baseline so.
 */
#include <device/bpf.h>
#include <device/device.h>
#include <device/device_types.h>
#include <device/net_status.h>
#include <device/notify.h>
#include <mach/message.h>
#include <mach/mig_errors.h>
#include <mach/mig_support.h>
#include <mach/notify.h>
#include <mach/thread_switch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_fuzz.h"
#include "graft/claim.h"
#include "graft_user.h"
#include "user_msg_item.h"

#define RCV_SIZE	(64u << 10)
#define IFF_RUNNING	0x40	/* NET_FLAGS: the link is up */

const char *const dev_names[NDEVS] = {
	"console", "irq", "rd0", "eth0", "hd0", "hd0s1", "hd0s2",
};
struct fuzz_held held;
struct fuzz_memory mem;
uint64_t rng;

static uint8_t rbuf[RCV_SIZE] __attribute__((aligned(8)));

/* Codes, by the set they belong to. */
#define CODE(c) { c, #c }
struct code {
	int code;
	const char *name;
};
static const struct code send_codes[] = {
	CODE(MACH_MSG_SUCCESS), CODE(MACH_SEND_INVALID_DATA),
	CODE(MACH_SEND_INVALID_DEST), CODE(MACH_SEND_TIMED_OUT),
	CODE(MACH_SEND_MSG_TOO_SMALL), CODE(MACH_SEND_INVALID_REPLY),
	CODE(MACH_SEND_INVALID_RIGHT), CODE(MACH_SEND_INVALID_NOTIFY),
	CODE(MACH_SEND_INVALID_MEMORY), CODE(MACH_SEND_NO_BUFFER),
	CODE(MACH_SEND_INVALID_TYPE), CODE(MACH_SEND_INVALID_HEADER),
};
static const struct code device_codes[] = {
	CODE(D_SUCCESS), CODE(D_IO_ERROR), CODE(D_WOULD_BLOCK),
	CODE(D_NO_SUCH_DEVICE), CODE(D_ALREADY_OPEN), CODE(D_DEVICE_DOWN),
	CODE(D_INVALID_OPERATION), CODE(D_INVALID_RECNUM),
	CODE(D_INVALID_SIZE), CODE(D_NO_MEMORY), CODE(D_READ_ONLY),
};
static const struct code mig_codes[] = {
	CODE(MIG_TYPE_ERROR), CODE(MIG_REPLY_MISMATCH),
	CODE(MIG_REMOTE_ERROR), CODE(MIG_BAD_ID), CODE(MIG_BAD_ARGUMENTS),
	CODE(MIG_NO_REPLY), CODE(MIG_EXCEPTION), CODE(MIG_ARRAY_TOO_LARGE),
	CODE(MIG_SERVER_DIED), CODE(MIG_DESTROY_REQUEST),
};
static const struct code kern_codes[] = {
	CODE(KERN_SUCCESS), CODE(KERN_INVALID_ADDRESS),
	CODE(KERN_PROTECTION_FAILURE), CODE(KERN_NO_SPACE),
	CODE(KERN_INVALID_ARGUMENT), CODE(KERN_FAILURE),
	CODE(KERN_RESOURCE_SHORTAGE), CODE(KERN_NOT_RECEIVER),
	CODE(KERN_NO_ACCESS), CODE(KERN_MEMORY_FAILURE),
	CODE(KERN_MEMORY_ERROR), CODE(KERN_NOT_IN_SET),
	CODE(KERN_NAME_EXISTS), CODE(KERN_ABORTED), CODE(KERN_INVALID_NAME),
	CODE(KERN_INVALID_TASK), CODE(KERN_INVALID_RIGHT),
	CODE(KERN_INVALID_VALUE), CODE(KERN_UREFS_OVERFLOW),
	CODE(KERN_INVALID_CAPABILITY), CODE(KERN_RIGHT_EXISTS),
	CODE(KERN_INVALID_HOST), CODE(KERN_MEMORY_PRESENT),
	CODE(KERN_WRITE_PROTECTION_FAILURE), CODE(KERN_TERMINATED),
	CODE(KERN_TIMEDOUT), CODE(KERN_INTERRUPTED),
};
static unsigned long n_send[COUNT_OF(send_codes)];
static unsigned long n_device[COUNT_OF(device_codes)];
static unsigned long n_mig[COUNT_OF(mig_codes)];
static unsigned long n_kern[COUNT_OF(kern_codes)];
static unsigned long sent, odd, replies, notices, frames, interrupts;
static unsigned long n_rights, regions, opens, closes, drops, claims;

/* Count @code in @set (@n entries, counters @count); false if absent. */
static int tally(const struct code *set, unsigned long *count, size_t n,
		 int code)
{
	for (size_t i = 0; i < n; i++) {
		if (set[i].code == code) {
			count[i]++;
			return 1;
		}
	}
	return 0;
}

#define TALLY(set, count, code) \
	tally(set, count, COUNT_OF(set), code)

static void report_odd(const char *what, int code)
{
	if (odd++ < 8) {
		printf("FUZZ-ODD %s after %lu sends: %d (0x%x)\n", what, sent,
		       code, (unsigned int)code);
		fflush(stdout);
	}
}

/* A send's result, without the flags of MACH_MSG_MASK. */
static void count_send(mach_msg_return_t mr)
{
	mr &= ~MACH_MSG_MASK;
	if (!TALLY(send_codes, n_send, (int)mr))
		report_odd("send", (int)mr);
}

/* The return code of a reply to a device.defs request, or to another. */
static void count_reply(int code, int device_reply)
{
	replies++;
	if (TALLY(mig_codes, n_mig, code))
		return;
	if (device_reply ? TALLY(device_codes, n_device, code) :
			   TALLY(kern_codes, n_kern, code))
		return;
	report_odd(device_reply ? "device reply" : "reply", code);
}

static void print_codes(const struct code *set, const unsigned long *count,
			size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (count[i] != 0)
			printf("FUZZ-RESULT %s %lu\n", set[i].name, count[i]);
}

/* --- Receiving --- */

static void release_right(mach_port_t name, unsigned int type)
{
	if (!MACH_PORT_VALID(name))
		return;
	n_rights++;
	if (type != MACH_MSG_TYPE_PORT_RECEIVE)
		(void)mach_port_deallocate(held.self, name);
	else if (!fuzz_is_own(name))
		(void)mach_port_mod_refs(held.self, name,
					 MACH_PORT_RIGHT_RECEIVE, -1);
}

/* Count what a message received into @b brought and give it back. */
static void release(uint8_t *b)
{
	mach_msg_header_t *h = (mach_msg_header_t *)(void *)b;
	size_t off = sizeof(*h), end = h->msgh_size;
	mach_msg_type_t t;
	struct msg_item it;
	int32_t code;

	if (end < off || end > RCV_SIZE)
		return;
	if (h->msgh_id == DEVICE_INTR_NOTIFY)
		interrupts++;
	else if (h->msgh_id == NET_RCV_MSG_ID)
		frames++;
	else if (h->msgh_id >= MACH_NOTIFY_FIRST &&
		 h->msgh_id <= MACH_NOTIFY_LAST)
		notices++;
	else if (end >= off + 8) {
		/* A reply starts with its code: INTEGER_32, 32, 1, inline
		 * (requests it sent itself are not replies). */
		memcpy(&t, b + off, 4);
		memcpy(&code, b + off + 4, 4);
		if (t.msgt_name == MACH_MSG_TYPE_INTEGER_32 &&
		    t.msgt_size == 32 && t.msgt_number == 1 &&
		    t.msgt_inline && !t.msgt_longform &&
		    (h->msgh_id < ID_FIRST || h->msgh_id >= ID_END) &&
		    (h->msgh_id < CLAIM_FIRST || h->msgh_id >= CLAIM_END))
			count_reply(code, (h->msgh_id >= ID_FIRST + 100 &&
					   h->msgh_id < ID_END + 100) ||
					  (h->msgh_id >= CLAIM_FIRST + 100 &&
					   h->msgh_id < CLAIM_END + 100));
	}
	release_right(h->msgh_remote_port, MACH_MSGH_BITS_REMOTE(h->msgh_bits));
	if (!(h->msgh_bits & MACH_MSGH_BITS_COMPLEX))
		return;
	for (; off < end && msg_item_parse(b, off, end, &it) == 0;
	     off = it.next) {
		uint64_t a = rd64(b + it.data);

		for (uint32_t i = 0; it.port && i < it.number; i++) {
			mach_port_t name = 0;

			if (it.is_inline)
				memcpy(&name, b + it.data + 4 * i, 4);
			else if (a != 0)
				name = ((mach_port_t *)a)[i];
			release_right(name, it.name);
		}
		if (!it.is_inline && a != 0) {
			regions++;
			(void)vm_deallocate(held.self, a, it.port ?
					    4ull * it.number : it.bytes);
		}
	}
}

static void drain(mach_port_t name)
{
	for (int i = 0; i < 10000; i++) {
		mach_msg_return_t mr = mach_msg((void *)rbuf, MACH_RCV_MSG |
						MACH_RCV_TIMEOUT, 0, RCV_SIZE,
						name, 0, MACH_PORT_NULL);

		if (mr == MACH_MSG_SUCCESS)
			release(rbuf);
		else if (mr != MACH_RCV_TOO_LARGE)
			return;
	}
}

/* --- Housekeeping --- */

/* Keep 10000 to 40000 user references on a send right, so that rights
 * moved by messages and our own calls neither empty nor overflow it. */
static void top_up(mach_port_t name)
{
	mach_port_urefs_t refs = 0;

	if (mach_port_get_refs(held.self, name, MACH_PORT_RIGHT_SEND, &refs) ==
	    KERN_SUCCESS && (refs < 10000 || refs > 40000))
		mach_port_mod_refs(held.self, name, MACH_PORT_RIGHT_SEND,
				   20000 - (int)refs);
}

static mach_port_type_t type_of(mach_port_t name)
{
	mach_port_type_t type = 0;

	if (!MACH_PORT_VALID(name) ||
	    mach_port_type(held.self, name, &type) != KERN_SUCCESS)
		return 0;
	return type;
}

/* A receive right with 51 send rights; a message may move it away. */
static void make_port(mach_port_t *p)
{
	*p = MACH_PORT_NULL;
	mach_port_allocate(held.self, MACH_PORT_RIGHT_RECEIVE, p);
	mach_port_insert_right(held.self, *p, *p, MACH_MSG_TYPE_MAKE_SEND);
	mach_port_mod_refs(held.self, *p, MACH_PORT_RIGHT_SEND, 50);
}

/* Send-once rights to our ports, under names of their own: sent to
 * ports[0] in one message, then received. */
static void refill_sonce(void)
{
	struct {
		mach_msg_header_t h;
		mach_msg_type_t t;
		mach_port_t names[NSONCE];
	} msg;

	for (int i = 0; i < NSONCE; i++) {
		if (type_of(held.sonce[i]) & MACH_PORT_TYPE_SEND_ONCE)
			(void)mach_port_deallocate(held.self, held.sonce[i]);
		held.sonce[i] = MACH_PORT_NULL;
		msg.names[i] = held.ports[i % NPORTS];
	}
	memset(&msg.h, 0, sizeof(msg.h));
	msg.h.msgh_bits = MACH_MSGH_BITS_COMPLEX |
			  MACH_MSGH_BITS(MACH_MSG_TYPE_MAKE_SEND, 0);
	msg.h.msgh_size = sizeof(msg);
	msg.h.msgh_remote_port = held.ports[0];
	msg.t = (mach_msg_type_t){ MACH_MSG_TYPE_MAKE_SEND_ONCE, 32, NSONCE,
				   1, 0, 0, 0 };
	if (mach_msg(&msg.h, MACH_SEND_MSG | MACH_SEND_TIMEOUT, sizeof(msg), 0,
		     MACH_PORT_NULL, 0, MACH_PORT_NULL) != MACH_MSG_SUCCESS)
		return;
	memset(&msg, 0, sizeof(msg));
	if (mach_msg(&msg.h, MACH_RCV_MSG | MACH_RCV_TIMEOUT, 0, sizeof(msg),
		     held.ports[0], 0, MACH_PORT_NULL) == MACH_MSG_SUCCESS &&
	    msg.h.msgh_size == sizeof(msg))
		memcpy(held.sonce, msg.names, sizeof(held.sonce));
}

static void open_dev(int d)
{
	mach_port_t p = MACH_PORT_NULL;

	if (device_open(held.master, below(4), dev_names[d], &p) != D_SUCCESS)
		return;
	opens++;
	if (held.devs[d] != MACH_PORT_NULL && held.devs[d] != p) {
		(void)mach_port_deallocate(held.self, p);	/* keep one name */
		return;
	}
	held.devs[d] = p;
	/* A few references, so that one moved right does not drop it. */
	(void)mach_port_mod_refs(held.self, p, MACH_PORT_RIGHT_SEND, 3);
}

/* Open, close or drop device @d, or leave it; forget a name that no
 * longer is one of its send rights (closed or moved by a message). */
static void churn_dev(int d)
{
	mach_port_type_t type = type_of(held.devs[d]);

	if (held.devs[d] != MACH_PORT_NULL &&
	    (!(type & MACH_PORT_TYPE_SEND) || (type & MACH_PORT_TYPE_RECEIVE))) {
		if (type & MACH_PORT_TYPE_DEAD_NAME)
			(void)mach_port_destroy(held.self, held.devs[d]);
		held.devs[d] = MACH_PORT_NULL;
	}
	if (held.devs[d] == MACH_PORT_NULL) {
		if (chance(2))
			open_dev(d);
		return;
	}
	switch (below(24)) {
	case 0 ... 1:
		open_dev(d);		/* once more */
		break;
	case 2:
		closes++;
		(void)device_close(held.devs[d]);
		break;
	case 3:
		drops++;
		(void)mach_port_destroy(held.self, held.devs[d]);
		held.devs[d] = MACH_PORT_NULL;
		break;
	default:
		break;
	}
}

/* Claim a PCI function now and then (mostly one that can be: QEMU's
 * VGA at 00:02.0), keep it a while, let it go (its claim then ends). */
static void churn_claim(void)
{
	mach_port_t c = MACH_PORT_NULL;

	if (held.claim != MACH_PORT_NULL &&
	    !(type_of(held.claim) & MACH_PORT_TYPE_SEND))
		held.claim = MACH_PORT_NULL;	/* moved away by a message */
	if (held.claim == MACH_PORT_NULL) {
		if (chance(2) && claim_pci(held.master, 0, chance(4) ?
					   below(32) : 2, 0, &c) ==
		    D_SUCCESS) {
			held.claim = c;
			claims++;
			(void)mach_port_mod_refs(held.self, c,
						 MACH_PORT_RIGHT_SEND, 3);
		}
		return;
	}
	if (chance(16)) {
		(void)mach_port_destroy(held.self, held.claim);
		held.claim = MACH_PORT_NULL;
	}
}

static void housekeeping(int recreate)
{
	vm_address_t a = SCRATCH_ADDR;

	mig_dealloc_reply_port(mig_get_reply_port()); /* drops stray mail */
	held.self = mach_task_self();
	held.host = mach_host_self();
	top_up(held.self);
	top_up(held.host);
	top_up(held.master);
	for (int i = 0; i < NPORTS; i++)
		drain(held.ports[i]);
	for (int d = 0; d < NDEVS; d++)
		churn_dev(d);
	churn_claim();
	/* Ports a message moved away, or all of them with what the kernel
	 * holds of them (filters, registrations, requests' replies). */
	for (int i = 0; i < NPORTS; i++) {
		mach_port_type_t type = type_of(held.ports[i]);

		if (recreate || !(type & MACH_PORT_TYPE_RECEIVE)) {
			if (type != 0)
				(void)mach_port_destroy(held.self,
							held.ports[i]);
			make_port(&held.ports[i]);
		}
	}
	refill_sonce();
	if (!(type_of(held.dead) & MACH_PORT_TYPE_DEAD_NAME)) {
		make_port(&held.dead);
		mach_port_mod_refs(held.self, held.dead,
				   MACH_PORT_RIGHT_RECEIVE, -1);
	}
	/* Fresh scratch pages (messages may have taken some). */
	(void)vm_deallocate(held.self, a, SCRATCH_SIZE);
	mem.scratch_ok = vm_allocate(held.self, &a, SCRATCH_SIZE, FALSE) ==
			 KERN_SUCCESS && a == SCRATCH_ADDR;
	for (size_t i = 0; mem.scratch_ok && i < SCRATCH_SIZE / 8; i++)
		((uint64_t *)a)[i] = rnd();
}

/* --- After fuzzing; the warm-up --- */

/* A clean console open and write, an rd0 read and both closes. */
static int alive(void)
{
	static const char line[] = "device_fuzz: the console still writes\n";
	mach_port_t con = MACH_PORT_NULL, rd0 = MACH_PORT_NULL;
	io_buf_ptr_t data = NULL;
	mach_msg_type_number_t n = 0;
	int written = 0, ok;

	mig_dealloc_reply_port(mig_get_reply_port());
	ok = device_open(held.master, D_READ | D_WRITE, "console", &con) ==
	     D_SUCCESS &&
	     device_write(con, 0, 0, (io_buf_ptr_t)line, sizeof(line) - 1,
			  &written) == D_SUCCESS &&
	     written == sizeof(line) - 1 &&
	     device_open(held.master, D_READ, "rd0", &rd0) == D_SUCCESS &&
	     device_read(rd0, 0, 0, 512, &data, &n) == D_SUCCESS && n == 512;
	if (data != NULL)
		(void)vm_deallocate(held.self, (vm_address_t)data, n);
	ok = ok && device_close(rd0) == D_SUCCESS &&
	     device_close(con) == D_SUCCESS;
	(void)mach_port_deallocate(held.self, rd0);
	(void)mach_port_deallocate(held.self, con);
	return ok;
}

/* Wait (5 s at most) until eth0 reports its link up (IFF_RUNNING). */
static int link_up(mach_port_t eth)
{
	for (int i = 0; i < 50; i++) {
		int flags = 0;
		mach_msg_type_number_t n = 1;

		if (device_get_status(eth, NET_FLAGS, &flags, &n) ==
		    D_SUCCESS && (flags & IFF_RUNNING))
			return 1;
		thread_switch(MACH_PORT_NULL, SWITCH_OPTION_WAIT, 100);
	}
	return 0;
}

/* Each device once, cleanly: open, a status or a read, eth0's link up
 * and a filter on it, close. */
static int warm_up(void)
{
	struct bpf_insn all[] = {
		{ NETF_BPF | NETF_IN, 0, 0, 0 },
		{ BPF_RET | BPF_K, 0, 0, 262144 },
	};
	mach_port_t port = MACH_PORT_NULL;
	int failed = 0;

	make_port(&port);
	for (int d = 0; d < NDEVS; d++) {
		mach_port_t p = MACH_PORT_NULL;
		int st[DEV_STATUS_MAX];
		mach_msg_type_number_t n = DEV_STATUS_MAX;
		char buf[IO_INBAND_MAX];

		if (device_open(held.master, D_READ, dev_names[d], &p) !=
		    D_SUCCESS) {
			printf("FUZZ-WARMUP %s does not open\n", dev_names[d]);
			failed = 1;
			continue;
		}
		(void)device_get_status(p, d == ETH0 ? NET_STATUS :
					DEV_GET_SIZE, st, &n);
		n = sizeof(buf);
		if (d >= RD0 && d != ETH0)
			(void)device_read_inband(p, 0, 0, 64, buf, &n);
		if (d == ETH0 && !link_up(p)) {
			printf("FUZZ-WARMUP eth0 has no link\n");
			failed = 1;
		}
		if (d == ETH0)
			(void)device_set_filter(p, port,
						MACH_MSG_TYPE_MAKE_SEND, 0,
						(filter_t *)all, sizeof(all) /
						(sizeof(filter_t)));
		(void)device_close(p);
		(void)mach_port_deallocate(held.self, p);
	}
	(void)mach_port_destroy(held.self, port);
	return failed;
}

static unsigned long arg_ul(int argc, char **argv, const char *key,
			    unsigned long def)
{
	const char *v = graft_arg(argc, argv, key, NULL);

	return v != NULL ? strtoul(v, NULL, 0) : def;
}

int main(int argc, char **argv)
{
	unsigned long total = arg_ul(argc, argv, "count", 100000);
	unsigned long from = arg_ul(argc, argv, "dump", ~0ul), next = 0;
	vm_address_t region = 0, wregion = 0;

	rng = arg_ul(argc, argv, "seed", 1);
	held.self = mach_task_self();
	held.host = mach_host_self();
	held.master = graft_arg_port(argc, argv, "device");
	if (strcmp(graft_arg(argc, argv, "mode", "fuzz"), "warmup") == 0) {
		int failed = warm_up();

		printf("FUZZ-WARMUP %s\n", failed ? "failed" : "done");
		return failed;
	}
	printf("FUZZ-START seed=%lu count=%lu\n", (unsigned long)rng, total);
	fflush(stdout);
	if (vm_allocate(held.self, &region, SEND_REGION, TRUE) !=
	    KERN_SUCCESS ||
	    vm_allocate(held.self, &wregion, WRITE_REGION, TRUE) !=
	    KERN_SUCCESS)
		return 1;
	mem.send = (uint8_t *)region;
	mem.write = (uint8_t *)wregion;
	for (size_t i = 0; i < RANDOM_BYTES; i += 8) {
		uint64_t v = rnd();

		memcpy(mem.write + i, &v, 8);
	}
	for (size_t i = 0; i < sizeof(mem.text); i++)
		mem.text[i] = "device_fuzz: console write\n"[i % 27];
	for (int i = 0; i < NPORTS; i++)
		make_port(&held.ports[i]);
	for (int d = 0; d < NDEVS; d++)
		open_dev(d);
	if (held.devs[ETH0] != MACH_PORT_NULL)
		(void)link_up(held.devs[ETH0]);
	for (sent = 0; sent < total; sent++) {
		mach_msg_size_t size;
		mach_msg_option_t option;

		if (sent == next) {
			housekeeping(chance(8));
			next = sent + 16 + below(112);
			/* Now and then time for what is in flight: links
			 * coming up, disk transfers, deferred replies. */
			if (chance(64))
				thread_switch(MACH_PORT_NULL,
					      SWITCH_OPTION_WAIT,
					      10 + below(90));
		}
		fuzz_message(&size, &option);
		if (sent >= from)
			fuzz_dump(sent, size, option);
		count_send(mach_msg((void *)mem.send, option, size, 0,
				    MACH_PORT_NULL, 0, MACH_PORT_NULL));
	}
	housekeeping(0);
	for (int i = 0; i < NPORTS; i++)
		drain(held.ports[i]);
	/* A new line, whatever the console's last write left. */
	printf("\nFUZZ-RECEIVED %lu replies, %lu notifications, %lu frames, "
	       "%lu interrupts, %lu rights, %lu regions\n", replies, notices,
	       frames, interrupts, n_rights, regions);
	printf("FUZZ-DEVICES %lu opens, %lu closes, %lu drops, %lu claims\n",
	       opens, closes, drops, claims);
	print_codes(send_codes, n_send, COUNT_OF(send_codes));
	print_codes(device_codes, n_device, COUNT_OF(device_codes));
	print_codes(mig_codes, n_mig, COUNT_OF(mig_codes));
	print_codes(kern_codes, n_kern, COUNT_OF(kern_codes));
	fflush(stdout);
	if (alive())
		printf("FUZZ-ALIVE\n");
	printf("FUZZ-DONE sent=%lu\n", sent);
	fflush(stdout);
	return 0;
}
