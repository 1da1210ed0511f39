/* SPDX-License-Identifier: GPL-2.0-only */
/* What pktgen's files share: its configuration, parsed from its arguments, and its result line. */
#ifndef SERVERS_PKTGEN_PKTGEN_H
#define SERVERS_PKTGEN_PKTGEN_H

#include <stdint.h>

#define PG_FRAME_MIN	60	/* ETH_ZLEN: Ethernet's shortest, no FCS */
#define PG_FRAME_MAX	1514	/* MTU 1500 + the Ethernet header */
#define PG_FLOWS_MAX	1024
#define PG_RUNS_MAX	1000
#define PG_DEV_MAX	32

/* flag= words. */
enum {
	PG_IPSRC_RND = 1 << 0,
	PG_IPDST_RND = 1 << 1,
	PG_UDPSRC_RND = 1 << 2,
	PG_UDPDST_RND = 1 << 3,
	PG_TXSIZE_RND = 1 << 4,
};

/* A value that runs from @min to @max (equal: fixed). */
struct pg_range {
	uint32_t min, max;
};

struct pg_config {
	char dev[PG_DEV_MAX];		/* dev=, "eth0" */
	uint64_t count;			/* frames a run; 0: for ever */
	struct pg_range size;		/* frame bytes, no FCS */
	uint32_t clone_skb;		/* times each frame is sent again */
	uint64_t delay_ns;		/* gap between frames */
	struct pg_range src, dst;	/* IPv4, host order */
	struct pg_range udp_src, udp_dst;
	uint8_t dst_mac[6], src_mac[6];
	int src_mac_set;		/* src_mac= given, else the device's */
	uint32_t flows, flowlen;
	unsigned int flags;		/* PG_*_RND */
	uint64_t seed;
	unsigned int runs;		/* runs, each with its result line */
};

/*
 * pg_config_parse - fill @c from the words of @argv[1..] (key=value;
 * @argv[1] may be a name without '=', the module's, which is skipped):
 * the defaults of docs/pktgen.md for what is not given.  0; or -1 after
 * printing "pktgen: error: ..." naming the first bad word (an unknown
 * key, a value that is no number, address or flag, out of range, a
 * minimum above its maximum, flows without flowlen, more than one run
 * with count 0).
 */
int pg_config_parse(int argc, char **argv, struct pg_config *c);

/*
 * pg_result - print pktgen's result line for a run of @usec
 * microseconds, @idle of them in delays, @sent frames of @min_size to
 * @max_size bytes and @errors writes refused.
 */
void pg_result(uint64_t usec, uint64_t idle, uint64_t sent,
	       uint64_t errors, uint32_t min_size, uint32_t max_size);

#endif
