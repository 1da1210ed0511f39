/* SPDX-License-Identifier: GPL-2.0-only */
/* A user task that drives a Linux NIC driver's eth0 through device.defs. */
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
 * NET_FLAGS: promiscuous and all-multicast modes set and cleared, each
 * shown by which of the peer's frames to another station and to a
 * multicast group reach the filter (modes_checks).  Then the bad inputs:
 * sizes, flavours, filters, flags; and what GRAFT_DEV_INFO tells of the
 * driver, its counters and the probes (info_checks).  mode= runs one of the checks the
 * kernel makes eth0 busy for instead (tests/kernel/net_eth0_test.c):
 * flags (NET_FLAGS while the rtnl lock is held), close (writes queued
 * when eth0 is closed), stalled (a stopped transmit queue), linkdown (no
 * carrier).  bench=N and rate=SECONDS are the benchmark modes (see
 * bench() and rate()).
 */
#include <device/bpf.h>
#include <device/device.h>
#include <device/device_request.h>
#include <device/net_status.h>
#include <mach/message.h>
#include <mach/mig_errors.h>
#include <mach/time_value.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graft_user.h"
#include "mach_host.h"
#include "user_bench.h"
#include "test_frame.h"
#include "user_check.h"
#include "user_device.h"
#include "user_info.h"

#define ETH_TYPE_MODES_ASK	0x88b6	/* to the peer: send a mode step */
#define ETH_TYPE_MODES	0x88b7	/* the peer's mode step frames */
#define IFF_UP		0x1	/* Linux's IFF_* bits, as GNU Mach's glue */
#define IFF_PROMISC	0x100
#define IFF_ALLMULTI	0x200
#define FRAME_MAX	1514
#define FRAMES		4

static uint8_t my_mac[6];

/* The test frame of @len bytes from this station (test_frame.h). */
static void build_frame(uint8_t *f, unsigned int len)
{
	build_test_frame(f, len, my_mac);
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
	n = 1;
	check("net_flags_get", D_SUCCESS,
	      device_get_status(d, NET_FLAGS, st, &n));
	check("net_flags_get_count", 1, n);
	n = 2;
	check("net_flags_get_count_2", D_INVALID_SIZE,
	      device_get_status(d, NET_FLAGS, st, &n));
}

/*
 * GRAFT_DEV_INFO (graft/dev_info.h), after the frames above went both
 * ways: a short buffer refused, then the record: a known mode whose host
 * agrees (the kernel, or the driver server's task: named after its
 * module, "lxdrv.elf" from QEMU, "mod0" from GRUB), a Linux driver's
 * name, Linux's eight counters with frames counted, and the glue's three
 * probes (the kernel's, or their twins in the server) timed: the
 * server's on every frame written, the kernel's on at least one (it
 * times the first 128 of each span since boot, then one in 16).
 */
static void info_checks(mach_port_t d, unsigned int written)
{
	static const char *const drivers[] = {
		"e1000", "ne2k-pci", "ne", "pcnet32", "8139cp", "e1000e",
		"e100", "tulip", "virtio_net",
		"vmxnet3",
	};
	static const char *const spans[] = { "tx", "rx", "txdone" };
	int st[DEV_STATUS_MAX];
	mach_msg_type_number_t n = GRAFT_DEV_INFO_COUNT - 1;
	struct graft_dev_info info;
	const char *prefix;
	char name[GRAFT_DEV_PROBE_NAME_MAX];
	int known = 0;

	check("info_short_count", D_INVALID_SIZE,
	      device_get_status(d, GRAFT_DEV_INFO, st, &n));
	n = 0;
	check("info_zero_count", D_INVALID_SIZE,
	      device_get_status(d, GRAFT_DEV_INFO, st, &n));
	n = DEV_STATUS_MAX;
	check("info_unknown_graft_flavour", D_INVALID_OPERATION,
	      device_get_status(d, GRAFT_DEV_INFO + 1, st, &n));
	check("info", D_SUCCESS, info_read(d, &info, &n));
	check("info_count", GRAFT_DEV_INFO_COUNT, n);
	check("info_mode_known", 1, info.mode == GRAFT_DEV_KERNEL ||
				    info.mode == GRAFT_DEV_SERVER);
	check("info_host_of_mode", 1, info.mode == GRAFT_DEV_KERNEL ?
	      strcmp(info.host, "kernel") == 0 :
	      info.host[0] != '\0' && strcmp(info.host, "kernel") != 0);
	for (unsigned int i = 0; i < sizeof(drivers) / sizeof(drivers[0]);
	     i++)
		known |= strcmp(info.driver, drivers[i]) == 0;
	check("info_driver_is_the_linux_driver", 1, known);
	printf("# eth0: %s, %s (%s)\n", info.driver,
	       info.mode == GRAFT_DEV_KERNEL ? "in the kernel" : "in a server",
	       info.host);
	check("info_counters", 8, info.ncounters);
	check("info_tx_packets_counted", 1,
	      info_counter(&info, "tx_packets") >= 1);
	check("info_rx_packets_counted", 1,
	      info_counter(&info, "rx_packets") >= 1);
	/* a frame of at least 60 bytes, of which drivers count the whole
	 * or what follows the 14-byte header (8139cp) */
	check("info_rx_bytes_counted", 1, info_counter(&info, "rx_bytes") >=
	      46 * info_counter(&info, "rx_packets"));
	check("info_tx_errors_named", 1,
	      info_counter(&info, "tx_errors") >= 0);
	check("info_probes", 3, info.nprobes);
	check("info_window", 128, info.window);
	prefix = info.mode == GRAFT_DEV_KERNEL ? "" : "server.";
	for (unsigned int i = 0; i < 3 && i < info.nprobes; i++) {
		const struct graft_dev_probe *p = &info.probes[i];
		char what[48];

		snprintf(name, sizeof(name), "%snet.%s.glue", prefix, spans[i]);
		snprintf(what, sizeof(what), "info_probe_%s_named", spans[i]);
		check(what, 0, strncmp(p->name, name, sizeof(p->name)));
		snprintf(what, sizeof(what), "info_probe_%s_timed", spans[i]);
		check(what, 1, info_probe_ok(p, i == 0 && *prefix != '\0' ?
					       written : 1));
		printf("# %s: %llu samples, min %llu median %llu p99 %llu "
		       "max %llu\n", name, (unsigned long long)p->count,
		       (unsigned long long)p->min,
		       (unsigned long long)p->median,
		       (unsigned long long)p->p99,
		       (unsigned long long)p->max);
	}
}

/* Install on @port a BPF filter taking received frames of Ethernet
 * type @type. */
static kern_return_t filter_type(mach_port_t d, mach_port_t port,
				 uint16_t type)
{
	struct bpf_insn prog[] = {
		{ NETF_BPF | NETF_IN, 0, 0, 0 },
		{ BPF_LD | BPF_H | BPF_ABS, 0, 0, 12 },
		{ BPF_JMP | BPF_JEQ | BPF_K, 0, 1, type },
		{ BPF_RET | BPF_K, 0, 0, 262144 },
		{ BPF_RET | BPF_K, 0, 0, 0 },
	};

	return device_set_filter(d, port, MACH_MSG_TYPE_MAKE_SEND, 0,
				 (filter_t *)prog,
				 sizeof(prog) / (sizeof(filter_t)));
}

static void filter_checks(mach_port_t d, mach_port_t rx, mach_port_t out)
{
	struct bpf_insn sent[] = {
		{ NETF_BPF | NETF_OUT, 0, 0, 0 },
		{ BPF_RET | BPF_K, 0, 0, 262144 },
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
	      filter_type(d, rx, ETH_TYPE_TEST));
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

/* The device's flags (NET_FLAGS), or -1. */
static int flags_of(mach_port_t d)
{
	int st[DEV_STATUS_MAX];
	mach_msg_type_number_t n = 1;

	if (device_get_status(d, NET_FLAGS, st, &n) != D_SUCCESS || n != 1)
		return -1;
	return st[0];
}

static kern_return_t flags_set(mach_port_t d, int word)
{
	return device_set_status(d, NET_FLAGS, &word, 1);
}

/* What a receive-mode step let through to the guest's filter. */
#define SEEN_UNICAST	1	/* the frame to another station's MAC */
#define SEEN_MULTICAST	2	/* the frame to a group nobody joined */
#define SEEN_STALE	4	/* a frame of another step */

/*
 * One receive-mode step: ask the peer (type 0x88b6, step number) to send
 * a frame to another station's MAC, one to a multicast group, then one
 * to us (the marker), all of type 0x88b7, in that order; receive on
 * @port (its filter takes 0x88b7) until the marker of @step: the SEEN_*
 * bits of what came before it, or -1 if no marker came within 5 s.
 */
static int modes_step(mach_port_t d, mach_port_t port, unsigned int step)
{
	static union {
		struct net_rcv_msg m;
		char bytes[sizeof(struct net_rcv_msg) + 64];
	} msg;
	uint8_t f[60] = { 0 };
	int written = 0, seen = 0;

	memcpy(f, peer_mac, 6);
	memcpy(f + 6, my_mac, 6);
	f[12] = ETH_TYPE_MODES_ASK >> 8;
	f[13] = ETH_TYPE_MODES_ASK & 0xff;
	memcpy(f + 14, "GRAFTMODES", 10);
	f[24] = (uint8_t)step;
	if (device_write(d, 0, 0, (char *)f, sizeof(f), &written) !=
	    D_SUCCESS)
		return -1;
	for (;;) {
		const struct packet_header *ph;
		const uint8_t *v;

		if (mach_msg(&msg.m.msg_hdr, MACH_RCV_MSG | MACH_RCV_TIMEOUT,
			     0, sizeof(msg), port, 5000, MACH_PORT_NULL) !=
		    MACH_MSG_SUCCESS)
			return -1;
		ph = (const struct packet_header *)msg.m.packet;
		v = (const uint8_t *)(ph + 1);	/* "GRAFTPEER", kind, step */
		if (memcmp(v, "GRAFTPEER", 9) != 0 || v[10] != step) {
			seen |= SEEN_STALE;
			continue;
		}
		if (v[9] == 'K')
			return seen;
		seen |= v[9] == 'U' ? SEEN_UNICAST :
			v[9] == 'M' ? SEEN_MULTICAST : SEEN_STALE;
	}
}

/*
 * NET_FLAGS: promiscuous and all-multicast modes set and cleared, each
 * shown by what reaches the filter (modes_step) and by the flags read
 * back.  @filtered_link: the link itself passes only frames for our MAC
 * (Bochs' socket module), so nothing foreign can arrive in any mode.
 * Then the bad inputs.
 */
static void modes_checks(mach_port_t d, int filtered_link)
{
	static const struct {
		const char *name;
		int word;		/* set first (0: nothing set) */
		int modes;		/* IFF_PROMISC/ALLMULTI read back */
		int seen;		/* what passes the NIC's filter */
	} steps[] = {
		{ "modes_none_at_open", 0, 0, 0 },
		{ "modes_promisc", IFF_UP | IFF_PROMISC, IFF_PROMISC,
		  SEEN_UNICAST | SEEN_MULTICAST },
		{ "modes_allmulti", IFF_UP | IFF_ALLMULTI, IFF_ALLMULTI,
		  SEEN_MULTICAST },
		{ "modes_cleared", IFF_UP, 0, 0 },
	};
	mach_port_t port = new_receive();
	char name[48];
	int st[2] = { 0, 0 };

	check("modes_filter", D_SUCCESS,
	      filter_type(d, port, ETH_TYPE_MODES));
	for (unsigned int i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (steps[i].word != 0) {
			snprintf(name, sizeof(name), "%s_set", steps[i].name);
			check(name, D_SUCCESS, flags_set(d, steps[i].word));
		}
		snprintf(name, sizeof(name), "%s_read_back", steps[i].name);
		check(name, steps[i].modes | IFF_UP,
		      flags_of(d) & (IFF_PROMISC | IFF_ALLMULTI | IFF_UP));
		snprintf(name, sizeof(name), "%s_received", steps[i].name);
		check(name, filtered_link ? 0 : steps[i].seen,
		      modes_step(d, port, i));
	}
	check("net_flags_count_0", D_INVALID_SIZE,
	      device_set_status(d, NET_FLAGS, st, 0));
	st[0] = IFF_UP;
	check("net_flags_count_2", D_INVALID_SIZE,
	      device_set_status(d, NET_FLAGS, st, 2));
	check("net_flags_unknown_bit", D_INVALID_OPERATION,
	      flags_set(d, IFF_UP | (int)0x80000000));
	check("net_flags_debug_bit", D_INVALID_OPERATION,
	      flags_set(d, IFF_UP | 0x4));
	check("net_flags_down_refused", D_INVALID_OPERATION,
	      flags_set(d, IFF_PROMISC));
	check("net_flags_unchanged_by_refusals", IFF_UP,
	      flags_of(d) & (IFF_PROMISC | IFF_ALLMULTI | IFF_UP));
	check("net_status_unknown_flavour_set", D_INVALID_OPERATION,
	      device_set_status(d, NET_STATUS, st, 1));
	mach_port_destroy(mach_task_self(), port);
}

/*
 * Wait (up to 5 s, in 10 ms sleeps) for eth0 to be up with a link
 * (IFF_UP|IFF_RUNNING; lx-net waits for the link after bringing it up):
 * before the benchmark samples, so that no sampled write waits for it,
 * and before the busy checks.  Whether it came is check @name.
 */
static void wait_link(mach_port_t d, const char *name)
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
	check(name, 0x41, flags);
}

/* my_mac from NET_ADDRESS (each int in network order). */
static void mac_of(mach_port_t d)
{
	int st[DEV_STATUS_MAX];
	mach_msg_type_number_t n = 2;

	if (device_get_status(d, NET_ADDRESS, st, &n) != D_SUCCESS)
		return;
	for (int w = 0; w < 2; w++) {
		uint32_t v = __builtin_bswap32((uint32_t)st[w]);

		memcpy(my_mac + 4 * w, &v, w == 0 ? 4 : 2);
	}
}

/* Sleep @ms milliseconds (a receive that times out). */
static void sleep_ms(unsigned int ms)
{
	mach_port_t sleeper = new_receive();
	mach_msg_header_t h;

	mach_msg(&h, MACH_RCV_MSG | MACH_RCV_TIMEOUT, 0, sizeof(h), sleeper,
		 ms, MACH_PORT_NULL);
	mach_port_destroy(mach_task_self(), sleeper);
}

/*
 * mode=flags (tests/kernel/net_eth0_test.c holds Linux's rtnl lock for
 * 500 ms once eth0 has its link): NET_FLAGS cannot be applied from the
 * op then; lx-net applies it when the lock is free and only then does
 * the reply come, with the result.
 */
static void busy_flags_checks(mach_port_t master)
{
	mach_port_t d = MACH_PORT_NULL;

	check("busy_open_eth0", D_SUCCESS,
	      device_open(master, D_READ | D_WRITE, "eth0", &d));
	wait_link(d, "busy_link_up");
	sleep_ms(100);		/* the kernel takes the lock meanwhile */
	check("busy_promisc_set", D_SUCCESS,
	      flags_set(d, IFF_UP | IFF_PROMISC));
	check("busy_promisc_read_back", IFF_PROMISC,
	      flags_of(d) & (IFF_PROMISC | IFF_ALLMULTI));
	check("busy_modes_cleared", D_SUCCESS, flags_set(d, IFF_UP));
	check("busy_modes_cleared_read_back", 0,
	      flags_of(d) & (IFF_PROMISC | IFF_ALLMULTI));
	check("busy_close_eth0", D_SUCCESS, device_close(d));
	mach_port_deallocate(mach_task_self(), d);
}

#define CLOSE_FRAMES	16

/*
 * One round of mode=close: CLOSE_FRAMES writes sent without waiting
 * (device_write_request) while the kernel holds the rtnl lock (each is
 * queued for lx-net, which waits for the lock), then eth0 closed by
 * device_close (@drop_right 0) or by the last send right going (1).
 * Every write must be answered: sent (D_SUCCESS, 60 bytes) or failed
 * D_DEVICE_DOWN (0 bytes), at least one of them failed.
 */
static void close_round(mach_port_t master, mach_port_t replies,
			int drop_right, const char *tag)
{
	static uint8_t frame[60];
	mach_port_t d = MACH_PORT_NULL;
	int sent = 0, down = 0, other = 0, requested = 0;
	char name[48];

	snprintf(name, sizeof(name), "%s_open", tag);
	check(name, D_SUCCESS,
	      device_open(master, D_READ | D_WRITE, "eth0", &d));
	snprintf(name, sizeof(name), "%s_link_up", tag);
	wait_link(d, name);
	sleep_ms(100);		/* the kernel takes the lock meanwhile */
	mac_of(d);
	build_frame(frame, sizeof(frame));
	for (int i = 0; i < CLOSE_FRAMES; i++)
		if (device_write_request(d, replies, 0, 0,
					 (io_buf_ptr_t)frame,
					 sizeof(frame)) == KERN_SUCCESS)
			requested++;
	snprintf(name, sizeof(name), "%s_writes_sent", tag);
	check(name, CLOSE_FRAMES, requested);
	if (!drop_right) {
		snprintf(name, sizeof(name), "%s_close", tag);
		check(name, D_SUCCESS, device_close(d));
	}
	mach_port_deallocate(mach_task_self(), d);
	for (int i = 0; i < requested; i++) {
		if (receive_reply(replies, device_reply_server) !=
		    MACH_MSG_SUCCESS)
			break;
		if (reply.rc == D_SUCCESS && reply.written == sizeof(frame))
			sent++;
		else if (reply.rc == D_DEVICE_DOWN && reply.written == 0)
			down++;
		else
			other++;
	}
	printf("net_probe: %s: %d sent, %d failed D_DEVICE_DOWN, %d other\n",
	       tag, sent, down, other);
	snprintf(name, sizeof(name), "%s_every_write_answered", tag);
	check(name, CLOSE_FRAMES, sent + down);
	snprintf(name, sizeof(name), "%s_queued_writes_failed", tag);
	check(name, 1, down > 0);
	snprintf(name, sizeof(name), "%s_no_other_answer", tag);
	check(name, 0, other);
}

/*
 * mode=stalled (the kernel stops eth0's transmit queue for 500 ms once it
 * has its link): the write waits for the queue's wake-up and is sent.
 * mode=linkdown (the kernel turns the carrier off once it has its link,
 * until a write failed): the write fails D_DEVICE_DOWN after lx-net's
 * 3 s wait for the link; one after the carrier is back is sent.
 */
static void stalled_checks(mach_port_t master, int link_down)
{
	static uint8_t frame[60];
	mach_port_t d = MACH_PORT_NULL;
	int written = -1;

	check("stalled_open_eth0", D_SUCCESS,
	      device_open(master, D_READ | D_WRITE, "eth0", &d));
	wait_link(d, "stalled_link_up");
	sleep_ms(100);		/* the kernel stops the queue meanwhile */
	mac_of(d);
	build_frame(frame, sizeof(frame));
	if (link_down) {
		check("no_link_write_fails", D_DEVICE_DOWN,
		      device_write(d, 0, 0, (char *)frame, sizeof(frame),
				   &written));
		sleep_ms(200);	/* the kernel gives the carrier back */
	}
	check(link_down ? "link_back_write" : "stopped_queue_write",
	      D_SUCCESS, device_write(d, 0, 0, (char *)frame, sizeof(frame),
				      &written));
	check(link_down ? "link_back_written" : "stopped_queue_written",
	      sizeof(frame), written);
	check("stalled_close_eth0", D_SUCCESS, device_close(d));
	mach_port_deallocate(mach_task_self(), d);
}

/* mode=close: two rounds, then eth0 opened again must send a frame. */
static void close_checks(mach_port_t master)
{
	static uint8_t frame[60];
	mach_port_t replies = new_receive();
	mach_port_t d = MACH_PORT_NULL;
	int written = -1;

	close_round(master, replies, 0, "closed");
	close_round(master, replies, 1, "right_dropped");
	check("reopen_eth0", D_SUCCESS,
	      device_open(master, D_READ | D_WRITE, "eth0", &d));
	wait_link(d, "reopen_link_up");
	build_frame(frame, sizeof(frame));
	check("reopen_write", D_SUCCESS,
	      device_write(d, 0, 0, (char *)frame, sizeof(frame), &written));
	check("reopen_written", sizeof(frame), written);
	check("reopen_close", D_SUCCESS, device_close(d));
	mach_port_deallocate(mach_task_self(), d);
	mach_port_destroy(mach_task_self(), replies);
}

/*
 * bench=N (suite "bench"): the peer echoes every frame back (net_peer.py,
 * echo mode); N frames of each of 60, 256 and 1500 bytes are written,
 * each followed by the receipt of its echo, while the kernel records
 * net.tx.glue and net.rx.glue (at the probe hook).  Each echo must
 * be the frame written, its addresses swapped.  Each device_write is
 * timed here too, from the call to its reply (one fenced TSC pair):
 * net.tx.instr/<size>, or net.tx.instr/<nic>/<size> with bench_nic=NIC.
 * The TSC when each echo's receive returned is printed after the loop,
 * frame by frame in the order above ("RX-T1 <tsc> ...", 16 a line): the
 * kernel's bench suite ends net.rx.instr there.  bench_prefix=P puts P before the names of bench=
 * and rate= (server.: eth0 served by a driver server).
 */
#define BENCH_MAX	1024

static const char *bench_prefix = "";

static void bench(mach_port_t d, mach_port_t rx, int n, const char *nic)
{
	static const unsigned int lens[] = { 60, 256, 1500 };
	static uint8_t frame[FRAME_MAX];
	static uint64_t ticks[BENCH_MAX], t1[3][BENCH_MAX];
	static union {
		struct net_rcv_msg m;
		char bytes[sizeof(struct net_rcv_msg) + 64];
	} msg;
	int echoed = 0, written_ok = 0;

	if (n > BENCH_MAX)
		n = BENCH_MAX;
	for (int k = 0; k < 3; k++) {
		char name[64];

		build_frame(frame, lens[k]);
		for (int i = 0; i < n; i++) {
			const struct packet_header *ph;
			int written = -1;
			uint64_t t0 = tsc();
			kern_return_t kr = device_write(d, 0, 0, (char *)frame,
							lens[k], &written);

			ticks[i] = tsc() - t0;
			if (kr == D_SUCCESS && written == (int)lens[k])
				written_ok++;
			/* No timeout: under -icount sleep=off guest time
			 * races ahead of the host; the harness bounds it. */
			if (mach_msg(&msg.m.msg_hdr, MACH_RCV_MSG, 0,
				     sizeof(msg), rx, 0, MACH_PORT_NULL) !=
			    MACH_MSG_SUCCESS)
				break;
			t1[k][i] = tsc();
			ph = (const struct packet_header *)msg.m.packet;
			if (ph->length == lens[k] - 14 + sizeof(*ph) &&
			    memcmp(msg.m.header, my_mac, 6) == 0 &&
			    memcmp(msg.m.header + 6, peer_mac, 6) == 0 &&
			    memcmp(ph + 1, frame + 14, lens[k] - 14) == 0)
				echoed++;
		}
		snprintf(name, sizeof(name), "%snet.tx.instr/%s%s%u",
			 bench_prefix, nic, *nic ? "/" : "", lens[k]);
		bench_print(name, "icount", ticks, (unsigned long)n);
	}
	for (int k = 0; k < 3; k++)
		for (int i = 0; i < n; i++)
			printf("%s%llu%s", i % 16 == 0 ? "RX-T1 " : " ",
			       (unsigned long long)t1[k][i],
			       i % 16 == 15 || i == n - 1 ? "\n" : "");
	check("bench_frames_written", 3 * n, written_ok);
	check("bench_frames_echoed", 3 * n, echoed);
}

static double now_s(void)
{
	time_value_t t;

	if (host_get_time(mach_host_self(), &t) != KERN_SUCCESS)
		return 0;
	return (double)t.seconds + (double)t.microseconds * 1e-6;
}

/*
 * rate=SECONDS (boot "graft-wall", wall clock): 60-byte frames written
 * back to back, one device_write at a time, for SECONDS passes of one
 * second each (host_get_time after every 64 frames, as lxbench's rate
 * reads its clock); net.tx.rate/60 in frames per second.
 */
#define RATE_PASSES_MAX	64

static void rate(mach_port_t d, int seconds)
{
	static uint8_t frame[60];
	double v[RATE_PASSES_MAX];
	char name[64];
	int passes = seconds < RATE_PASSES_MAX ? seconds : RATE_PASSES_MAX;
	int bad = 0;

	build_frame(frame, sizeof(frame));
	for (int p = 0; p < passes; p++) {
		double t0 = now_s(), t1;
		unsigned long sent = 0;

		do {
			for (int i = 0; i < 64; i++) {
				int written = -1;

				if (device_write(d, 0, 0, (char *)frame,
						 sizeof(frame), &written) ==
				    D_SUCCESS && written == sizeof(frame))
					sent++;
				else
					bad++;
			}
			t1 = now_s();
		} while (t1 - t0 < 1.0);
		v[p] = (double)sent / (t1 - t0);
	}
	check("rate_writes_succeed", 0, bad);
	if (passes < 1)
		return;
	snprintf(name, sizeof(name), "%snet.tx.rate/60", bench_prefix);
	bench_print_rates(name, "frames/s", v, passes);
}

int main(int argc, char **argv)
{
	mach_port_t master = graft_arg_port(argc, argv, "device");
	const char *mac = graft_arg(argc, argv, "mac", "525400123456");
	mach_port_t d = MACH_PORT_NULL, rx = new_receive();
	int benchmark = atoi(graft_arg(argc, argv, "bench", "0"));
	int seconds = atoi(graft_arg(argc, argv, "rate", "0"));
	const char *mode = graft_arg(argc, argv, "mode", "session");
	mach_port_t out;

	bench_prefix = graft_arg(argc, argv, "bench_prefix", "");
	if (strcmp(mode, "session") != 0) {
		if (strcmp(mode, "flags") == 0)
			busy_flags_checks(master);
		else if (strcmp(mode, "close") == 0)
			close_checks(master);
		else if (strcmp(mode, "stalled") == 0)
			stalled_checks(master, 0);
		else if (strcmp(mode, "linkdown") == 0)
			stalled_checks(master, 1);
		else
			check("known_mode", 0, 1);
		mach_port_destroy(mach_task_self(), rx);
		printf("USER-DONE %d\n", checks);
		return 0;
	}
	out = benchmark > 0 || seconds > 0 ? MACH_PORT_NULL : new_receive();

	check("open_unknown_eth", D_NO_SUCH_DEVICE,
	      device_open(master, D_READ | D_WRITE, "eth9", &d));
	check("open_eth0", D_SUCCESS,
	      device_open(master, D_READ | D_WRITE, "eth0", &d));
	if (seconds > 0) {
		wait_link(d, "rate_link_up_before_sampling");
		rate(d, seconds);
		check("close_eth0", D_SUCCESS, device_close(d));
		printf("USER-DONE %d\n", checks);
		return 0;
	}
	status_checks(d, mac);
	filter_checks(d, rx, out);
	if (benchmark > 0) {
		wait_link(d, "bench_link_up_before_sampling");
		bench(d, rx, benchmark,
		      graft_arg(argc, argv, "bench_nic", ""));
		check("close_eth0", D_SUCCESS, device_close(d));
		printf("USER-DONE %d\n", checks);
		return 0;
	}
	write_checks(d);
	receive_checks(rx);
	sent_frames_checks(out);
	flags_checks(d);
	modes_checks(d, atoi(graft_arg(argc, argv, "filtered_link", "0")));
	info_checks(d, FRAMES);
	check("close_eth0", D_SUCCESS, device_close(d));
	/* The port died with the last close: no device to set flags on. */
	check("net_flags_after_close", MACH_SEND_INVALID_DEST,
	      flags_set(d, IFF_UP));
	mach_port_deallocate(mach_task_self(), d);
	mach_port_destroy(mach_task_self(), rx);
	mach_port_destroy(mach_task_self(), out);
	printf("USER-DONE %d\n", checks);
	return 0;
}
