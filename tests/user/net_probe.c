/* SPDX-License-Identifier: GPL-2.0-only */
/* A user task that drives the Linux e1000 driver's eth0 through device.defs. */
/*
 * Suite "net-e1000" (tests/kernel/net_e1000_test.c): QEMU's e1000 is
 * connected to a peer the harness runs on the host
 * (tests/harness/net_peer.py).  This program opens eth0, reads its
 * status, installs a BPF filter for Ethernet type 0x88b5, and writes
 * frames of 60, 256 and 1514 bytes (and one of 60 inband) whose bytes
 * both sides compute the same way.  For every frame the peer captures it
 * compares it byte for byte with that pattern and answers with a frame
 * of a type the filter refuses (0x0800, must never arrive) and a verdict
 * of type 0x88b5: the frame's number, its length as captured, whether it
 * matched, its CRC-32.  The program checks each verdict against what it
 * wrote, and a NETF_OUT filter must see each frame as written.  Then
 * the bad inputs: sizes, flavours, filters.
 */
#include <device/bpf.h>
#include <device/device.h>
#include <device/net_status.h>
#include <mach/message.h>
#include <mach/mig_errors.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graft_user.h"
#include "user_check.h"
#include "user_device.h"

#define ETH_TYPE_TEST	0x88b5
#define FRAME_MAX	1514
#define FRAMES		4

static const uint8_t peer_mac[6] = { 0x02, 'G', 'R', 'A', 'F', 'T' };
static uint8_t my_mac[6];

/* The frame of @len bytes both sides build: to the peer, from us, type
 * 0x88b5, then byte i is (i * 7 + len * 3) mod 256. */
static void build_frame(uint8_t *f, unsigned int len)
{
	memcpy(f, peer_mac, 6);
	memcpy(f + 6, my_mac, 6);
	f[12] = ETH_TYPE_TEST >> 8;
	f[13] = ETH_TYPE_TEST & 0xff;
	for (unsigned int i = 14; i < len; i++)
		f[i] = (uint8_t)(i * 7 + len * 3);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void status_checks(mach_port_t d, const char *mac_arg)
{
	int st[DEV_STATUS_MAX];
	mach_msg_type_number_t n = NET_STATUS_COUNT;
	struct net_status *ns = (struct net_status *)st;
	int ok = 1;

	check("net_status", D_SUCCESS, device_get_status(d, NET_STATUS, st, &n));
	check("net_status_count", NET_STATUS_COUNT, n);
	check("net_status_min_packet", 14, ns->min_packet_size);
	check("net_status_max_packet", 1514, ns->max_packet_size);
	check("net_status_header_format", HDR_ETHERNET, ns->header_format);
	check("net_status_header_size", 14, ns->header_size);
	check("net_status_address_size", 6, ns->address_size);
	n = NET_STATUS_COUNT - 1;
	check("net_status_short_count", D_INVALID_OPERATION,
	      device_get_status(d, NET_STATUS, st, &n));

	n = 2;
	check("net_address", D_SUCCESS,
	      device_get_status(d, NET_ADDRESS, st, &n));
	check("net_address_count", 2, n);
	/* Each word in network order: ntohl gives the bytes in order. */
	for (int w = 0; w < 2; w++) {
		uint32_t v = __builtin_bswap32((uint32_t)st[w]);

		memcpy(my_mac + 4 * w, &v, w == 0 ? 4 : 2);
		if (w == 1 && (v >> 16) != 0)
			ok = 0;	/* the padding must be zero */
	}
	for (int i = 0; i < 6; i++) {
		unsigned int byte = 0;

		sscanf(mac_arg + 2 * i, "%2x", &byte);
		if (my_mac[i] != byte)
			ok = 0;
	}
	check("net_address_is_the_mac", 1, ok);
	n = 1;
	check("net_address_short_count", D_INVALID_OPERATION,
	      device_get_status(d, NET_ADDRESS, st, &n));
	n = DEV_STATUS_MAX;
	check("unknown_flavour", D_INVALID_OPERATION,
	      device_get_status(d, ('n' << 16) + 77, st, &n));
	st[0] = 0;
	check("net_flags_not_served", D_INVALID_OPERATION,
	      device_set_status(d, NET_FLAGS, st, 1));
}

static void filter_checks(mach_port_t d, mach_port_t rx, mach_port_t out)
{
	struct bpf_insn sent[] = {
		{ NETF_BPF | NETF_OUT, 0, 0, 0 },
		{ BPF_RET | BPF_K, 0, 0, 262144 },
	};
	struct bpf_insn good[] = {
		{ NETF_BPF | NETF_IN, 0, 0, 0 },
		{ BPF_LD | BPF_H | BPF_ABS, 0, 0, 12 },
		{ BPF_JMP | BPF_JEQ | BPF_K, 0, 1, ETH_TYPE_TEST },
		{ BPF_RET | BPF_K, 0, 0, 262144 },
		{ BPF_RET | BPF_K, 0, 0, 0 },
	};
	struct bpf_insn no_ret[] = {
		{ NETF_BPF | NETF_IN, 0, 0, 0 },
		{ BPF_LD | BPF_H | BPF_ABS, 0, 0, 12 },
	};
	filter_t no_direction[] = { 0 };

	check("filter_empty", D_INVALID_OPERATION,
	      device_set_filter(d, rx, MACH_MSG_TYPE_MAKE_SEND, 0,
				no_direction, 0));
	check("filter_without_direction", D_INVALID_OPERATION,
	      device_set_filter(d, rx, MACH_MSG_TYPE_MAKE_SEND, 0,
				no_direction, 1));
	check("filter_bpf_without_ret", D_INVALID_OPERATION,
	      device_set_filter(d, rx, MACH_MSG_TYPE_MAKE_SEND, 0,
				(filter_t *)no_ret,
				sizeof(no_ret) / (sizeof(filter_t))));
	check("filter_bpf_type_88b5", D_SUCCESS,
	      device_set_filter(d, rx, MACH_MSG_TYPE_MAKE_SEND, 0,
				(filter_t *)good,
				sizeof(good) / (sizeof(filter_t))));
	if (out != MACH_PORT_NULL)
		check("filter_bpf_sent_frames", D_SUCCESS,
		      device_set_filter(d, out, MACH_MSG_TYPE_MAKE_SEND, 0,
					(filter_t *)sent,
					sizeof(sent) / (sizeof(filter_t))));
}

static uint32_t sent_crc[FRAMES];
static unsigned int sent_len[FRAMES];

static void write_checks(mach_port_t d)
{
	static uint8_t frame[FRAME_MAX + 1];
	static const unsigned int lens[FRAMES] = { 60, 60, 256, 1514 };
	int written = -1;

	for (int i = 0; i < FRAMES; i++) {
		char name[40];
		kern_return_t kr;

		build_frame(frame, lens[i]);
		sent_len[i] = lens[i];
		sent_crc[i] = crc32_update(0, frame, lens[i]);
		written = -1;
		if (i == 0)
			kr = device_write_inband(d, 0, 0, (char *)frame,
						 lens[i], &written);
		else
			kr = device_write(d, 0, 0, (char *)frame, lens[i],
					  &written);
		snprintf(name, sizeof(name), "write_%u%s", lens[i],
			 i == 0 ? "_inband" : "");
		check(name, D_SUCCESS, kr);
		snprintf(name, sizeof(name), "written_%u%s", lens[i],
			 i == 0 ? "_inband" : "");
		check(name, (long)lens[i], written);
	}
	build_frame(frame, FRAME_MAX + 1);
	check("write_13_bytes", D_INVALID_SIZE,
	      device_write(d, 0, 0, (char *)frame, 13, &written));
	check("write_inband_0_bytes", D_INVALID_SIZE,
	      device_write_inband(d, 0, 0, (char *)frame, 0, &written));
	check("write_1515_bytes", D_INVALID_SIZE,
	      device_write(d, 0, 0, (char *)frame, 1515, &written));
	check("read_not_served", D_INVALID_OPERATION,
	      device_read_inband(d, 0, 0, 64, (char *)frame,
				 (mach_msg_type_number_t *)&written));
}

/* The peer's verdicts, one per frame written, and nothing else. */
static void receive_checks(mach_port_t rx)
{
	static union {
		struct net_rcv_msg m;
		char bytes[sizeof(struct net_rcv_msg) + 64];
	} msg;
	unsigned int seen = 0, good = 0, foreign = 0;

	for (int i = 0; i < FRAMES; i++) {
		const struct packet_header *ph;
		const uint8_t *v;
		mach_msg_return_t mr;
		uint32_t index;

		mr = mach_msg(&msg.m.msg_hdr, MACH_RCV_MSG | MACH_RCV_TIMEOUT,
			      0, sizeof(msg), rx, 5000, MACH_PORT_NULL);
		if (mr != MACH_MSG_SUCCESS) {
			check("verdict_received", MACH_MSG_SUCCESS, mr);
			break;
		}
		seen++;
		ph = (const struct packet_header *)msg.m.packet;
		v = (const uint8_t *)(ph + 1);
		if (msg.m.msg_hdr.msgh_id != NET_RCV_MSG_ID ||
		    ph->type != __builtin_bswap16(ETH_TYPE_TEST) ||
		    memcmp(v, "GRAFTPEER", 9) != 0) {
			foreign++;
			continue;
		}
		/* v: "GRAFTPEER", frame number, length, match, CRC (BE). */
		index = be32(v + 9) % FRAMES;
		if (be32(v + 13) == sent_len[index] && be32(v + 17) == 1 &&
		    be32(v + 21) == sent_crc[index] &&
		    memcmp(msg.m.header + 6, peer_mac, 6) == 0)
			good++;
		else
			printf("net_probe: verdict %u: len %u match %u crc "
			       "0x%08x, wrote %u bytes crc 0x%08x\n",
			       be32(v + 9), be32(v + 13), be32(v + 17),
			       be32(v + 21), sent_len[index],
			       sent_crc[index]);
	}
	check("verdicts_received", FRAMES, seen);
	check("frames_captured_as_written", FRAMES, good);
	check("filtered_frames_kept_out", 0, foreign);
}

/* The frames sent, as the NETF_OUT filter installed on @out saw them:
 * each the one written, in order. */
static void sent_frames_checks(mach_port_t out)
{
	static union {
		struct net_rcv_msg m;
		char bytes[sizeof(struct net_rcv_msg) + 64];
	} msg;
	int good = 0;

	for (int i = 0; i < FRAMES; i++) {
		const struct packet_header *ph;
		uint32_t crc;

		if (mach_msg(&msg.m.msg_hdr, MACH_RCV_MSG | MACH_RCV_TIMEOUT,
			     0, sizeof(msg), out, 5000, MACH_PORT_NULL) !=
		    MACH_MSG_SUCCESS)
			break;
		ph = (const struct packet_header *)msg.m.packet;
		crc = crc32_update(0, msg.m.header, 14);
		crc = crc32_update(crc, ph + 1, ph->length - sizeof(*ph));
		if (ph->length - sizeof(*ph) + 14 == sent_len[i] &&
		    crc == sent_crc[i])
			good++;
	}
	check("sent_frames_seen_by_out_filter", FRAMES, good);
}

/* Once frames went out the device is up with a link: IFF_UP and
 * IFF_RUNNING (0x1, 0x40, Linux's bits as GNU Mach's glue reports). */
static void flags_checks(mach_port_t d)
{
	int st[DEV_STATUS_MAX];
	mach_msg_type_number_t n = NET_STATUS_COUNT;

	check("net_status_again", D_SUCCESS,
	      device_get_status(d, NET_STATUS, st, &n));
	check("net_status_up_running", 0x41,
	      ((struct net_status *)st)->flags & 0x41);
}

/*
 * Before the benchmark samples: wait (up to 5 s, in 10 ms sleeps) for
 * eth0 to be up with a link (IFF_UP|IFF_RUNNING; lx-net waits for
 * e1000's link after bringing it up), so that no sampled write waits for
 * it.  Whether it came is a check.
 */
static void wait_link(mach_port_t d)
{
	mach_port_t sleeper = new_receive();
	int flags = 0;

	for (int i = 0; i < 500; i++) {
		int st[DEV_STATUS_MAX];
		mach_msg_type_number_t n = NET_STATUS_COUNT;
		mach_msg_header_t h;

		if (device_get_status(d, NET_STATUS, st, &n) == D_SUCCESS)
			flags = ((struct net_status *)st)->flags & 0x41;
		if (flags == 0x41)
			break;
		mach_msg(&h, MACH_RCV_MSG | MACH_RCV_TIMEOUT, 0, sizeof(h),
			 sleeper, 10, MACH_PORT_NULL);
	}
	mach_port_destroy(mach_task_self(), sleeper);
	check("bench_link_up_before_sampling", 0x41, flags);
}

/*
 * bench=N (suite "bench"): the peer echoes every frame back (net_peer.py,
 * echo mode); N frames of each of 60, 256 and 1500 bytes are written,
 * each followed by the receipt of its echo, while the kernel records
 * net.tx.glue and net.rx.glue (dev_lxnet_bench_start).  Each echo must
 * be the frame written, its addresses swapped.
 */
static void bench(mach_port_t d, mach_port_t rx, int n)
{
	static const unsigned int lens[] = { 60, 256, 1500 };
	static uint8_t frame[FRAME_MAX];
	static union {
		struct net_rcv_msg m;
		char bytes[sizeof(struct net_rcv_msg) + 64];
	} msg;
	int echoed = 0, written_ok = 0;

	for (int k = 0; k < 3; k++) {
		build_frame(frame, lens[k]);
		for (int i = 0; i < n; i++) {
			const struct packet_header *ph;
			int written = -1;

			if (device_write(d, 0, 0, (char *)frame, lens[k],
					 &written) == D_SUCCESS &&
			    written == (int)lens[k])
				written_ok++;
			/* No timeout: under -icount sleep=off guest time
			 * races ahead of the host; the harness bounds it. */
			if (mach_msg(&msg.m.msg_hdr, MACH_RCV_MSG, 0,
				     sizeof(msg), rx, 0, MACH_PORT_NULL) !=
			    MACH_MSG_SUCCESS)
				break;
			ph = (const struct packet_header *)msg.m.packet;
			if (ph->length == lens[k] - 14 + sizeof(*ph) &&
			    memcmp(msg.m.header, my_mac, 6) == 0 &&
			    memcmp(msg.m.header + 6, peer_mac, 6) == 0 &&
			    memcmp(ph + 1, frame + 14, lens[k] - 14) == 0)
				echoed++;
		}
	}
	check("bench_frames_written", 3 * n, written_ok);
	check("bench_frames_echoed", 3 * n, echoed);
}

int main(int argc, char **argv)
{
	mach_port_t master = port_argument(argc, argv, "device");
	const char *mac = word_argument(argc, argv, "mac", "525400123456");
	mach_port_t d = MACH_PORT_NULL, rx = new_receive();
	int benchmark = atoi(word_argument(argc, argv, "bench", "0"));
	mach_port_t out = benchmark > 0 ? MACH_PORT_NULL : new_receive();

	check("open_unknown_eth", D_NO_SUCH_DEVICE,
	      device_open(master, D_READ | D_WRITE, "eth9", &d));
	check("open_eth0", D_SUCCESS,
	      device_open(master, D_READ | D_WRITE, "eth0", &d));
	status_checks(d, mac);
	filter_checks(d, rx, out);
	if (benchmark > 0) {
		wait_link(d);
		bench(d, rx, benchmark);
		check("close_eth0", D_SUCCESS, device_close(d));
		printf("USER-DONE %d\n", checks);
		return 0;
	}
	write_checks(d);
	receive_checks(rx);
	sent_frames_checks(out);
	flags_checks(d);
	check("close_eth0", D_SUCCESS, device_close(d));
	mach_port_deallocate(mach_task_self(), d);
	mach_port_destroy(mach_task_self(), rx);
	mach_port_destroy(mach_task_self(), out);
	printf("USER-DONE %d\n", checks);
	return 0;
}
