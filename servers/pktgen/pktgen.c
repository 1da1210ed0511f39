/* SPDX-License-Identifier: GPL-2.0-only */
/* pktgen: a user-mode transmit generator with the knobs of Linux's pktgen, one device_write a frame. */
/*
 * Arguments (boot-script words key=value; docs/pktgen.md says what each
 * does): device=${device-port}, and optionally dev, count, pkt_size,
 * min_pkt_size, max_pkt_size, clone_skb, delay, dst, dst_min, dst_max,
 * src_min, src_max, dst_mac, src_mac, udp_src_min, udp_src_max,
 * udp_dst_min, udp_dst_max, flows, flowlen, flag, seed, runs.  Every word is checked before anything is sent: a bad
 * one prints "pktgen: error: ..." and exits 2.  Each frame is Ethernet,
 * IPv4 and UDP (to port 9, discard, by default) with the pktgen header
 * in its payload (magic, sequence number, time); a run ends with
 * pktgen's result line.
 */
#include <device/device.h>
#include <device/net_status.h>
#include <mach/message.h>
#include <mach/time_value.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graft_user.h"
#include "mach_host.h"
#include "pktgen.h"

#define ETH_HLEN	14
#define IP_HLEN		20
#define UDP_HLEN	8
#define PG_MAGIC	0xbe9be955u
#define ETH_P_IP	0x0800
/* The clock (an RPC) is read for the pktgen header's time once in this
 * many frames, not to slow the stream. */
#define PG_STAMP_FRAMES	256

/* The time of the host's clock in microseconds (host_get_time). */
static uint64_t now_us(void)
{
	time_value_t t;

	if (host_get_time(mach_host_self(), &t) != KERN_SUCCESS)
		return 0;
	return (uint64_t)t.seconds * 1000000u + (uint64_t)t.microseconds;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

/* The Internet checksum (RFC 1071) of @len bytes at @p (@len even). */
static uint16_t inet_checksum(const uint8_t *p, size_t len)
{
	uint32_t sum = 0;

	for (size_t i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* xorshift64: the random flags' numbers, from seed= */
static uint64_t rng_state;

static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

/* A field that runs over [min, max]: in turn, or at random with @rnd_flag
 * among @flags. */
static uint32_t next_in(const struct pg_range *r, uint32_t *cur,
			unsigned int flags, unsigned int rnd_flag)
{
	uint32_t v;

	if (r->max <= r->min)
		return r->min;
	if (flags & rnd_flag)
		return r->min + rnd() % (r->max - r->min + 1);
	v = *cur;
	*cur = v >= r->max ? r->min : v + 1;
	return v;
}

/* What varies from frame to frame: one flow's addresses and ports. */
struct pg_tuple {
	uint32_t src, dst;
	uint16_t sport, dport;
};

struct pg_state {
	uint32_t cur_src, cur_dst, cur_sport, cur_dport, cur_size;
	struct pg_tuple *flows;		/* cfg.flows of them, or NULL */
	uint32_t *flow_left;		/* frames each flow still sends */
	unsigned int flow;		/* the flow in turn */
};

static struct pg_tuple next_tuple(const struct pg_config *c,
				  struct pg_state *s)
{
	struct pg_tuple t;

	t.src = next_in(&c->src, &s->cur_src, c->flags, PG_IPSRC_RND);
	t.dst = next_in(&c->dst, &s->cur_dst, c->flags, PG_IPDST_RND);
	t.sport = (uint16_t)next_in(&c->udp_src, &s->cur_sport, c->flags,
				    PG_UDPSRC_RND);
	t.dport = (uint16_t)next_in(&c->udp_dst, &s->cur_dport, c->flags,
				    PG_UDPDST_RND);
	return t;
}

/* The tuple of the next frame: with flows, each of the flows in turn
 * keeps its tuple for flowlen frames, then draws a new one. */
static struct pg_tuple frame_tuple(const struct pg_config *c,
				   struct pg_state *s)
{
	unsigned int f;

	if (c->flows == 0)
		return next_tuple(c, s);
	f = s->flow;
	if (s->flow_left[f] == 0) {
		s->flows[f] = next_tuple(c, s);
		s->flow_left[f] = c->flowlen;
	}
	s->flow_left[f]--;
	if (s->flow_left[f] == 0)
		s->flow = (f + 1) % c->flows;
	return s->flows[f];
}

/* Build frame number @seq of @len bytes with @t into @frame, stamped
 * @us (microseconds). */
static void build(const struct pg_config *c, const uint8_t *src_mac,
		  const struct pg_tuple *t, uint32_t seq, size_t len,
		  uint64_t us, uint8_t *frame)
{
	uint8_t *ip = frame + ETH_HLEN, *udp = ip + IP_HLEN;
	uint8_t *pg = udp + UDP_HLEN;

	memset(frame, 0, len);
	memcpy(frame, c->dst_mac, 6);
	memcpy(frame + 6, src_mac, 6);
	put16(frame + 12, ETH_P_IP);
	ip[0] = 0x45;
	put16(ip + 2, (uint16_t)(len - ETH_HLEN));
	put16(ip + 4, (uint16_t)seq);
	ip[8] = 32;			/* TTL */
	ip[9] = 17;			/* UDP */
	put32(ip + 12, t->src);
	put32(ip + 16, t->dst);
	put16(ip + 10, inet_checksum(ip, IP_HLEN));
	put16(udp, t->sport);
	put16(udp + 2, t->dport);
	put16(udp + 4, (uint16_t)(len - ETH_HLEN - IP_HLEN));
	/* UDP checksum 0: none, as pktgen sends by default. */
	if (len >= ETH_HLEN + IP_HLEN + UDP_HLEN + 16) {
		put32(pg, PG_MAGIC);
		put32(pg + 4, seq);
		put32(pg + 8, (uint32_t)(us / 1000000u));
		put32(pg + 12, (uint32_t)(us % 1000000u));
	}
}

/* One run of @c on @d, its result line printed. */
static void run(const struct pg_config *c, mach_port_t d,
		  const uint8_t *src_mac)
{
	static uint8_t frame[PG_FRAME_MAX];
	struct pg_state s = {
		.cur_src = c->src.min, .cur_dst = c->dst.min,
		.cur_sport = c->udp_src.min, .cur_dport = c->udp_dst.min,
		.cur_size = c->size.min,
	};
	struct pg_tuple flows[PG_FLOWS_MAX];
	uint32_t flow_left[PG_FLOWS_MAX] = { 0 };
	uint64_t sent = 0, errors = 0, idle = 0, t0, t1, last = 0, stamp = 0;
	uint64_t stamped = 0;	/* the frame the clock was read for */
	uint32_t clones = 0;
	size_t len = 0;

	s.flows = flows;
	s.flow_left = flow_left;
	t0 = now_us();
	for (uint64_t i = 0; c->count == 0 || i < c->count; i++) {
		int written = 0;

		if (i == 0 || clones == c->clone_skb) {
			struct pg_tuple t = frame_tuple(c, &s);

			len = next_in(&c->size, &s.cur_size, c->flags,
				      PG_TXSIZE_RND);
			if (i == 0 || i - stamped >= PG_STAMP_FRAMES) {
				stamp = now_us();
				stamped = i;
			}
			build(c, src_mac, &t, (uint32_t)i, len, stamp, frame);
			clones = 0;
		} else {
			clones++;
		}
		if (c->delay_ns != 0 && i != 0) {
			uint64_t w = now_us(), start = w;

			while ((w - last) * 1000u < c->delay_ns)
				w = now_us();
			idle += w - start;
		}
		if (c->delay_ns != 0)
			last = now_us();
		if (device_write(d, 0, 0, (char *)frame, len, &written) ==
		    D_SUCCESS && (size_t)written == len)
			sent++;
		else
			errors++;
	}
	t1 = now_us();
	pg_result(t1 - t0, idle, sent, errors, c->size.min, c->size.max);
}

int main(int argc, char **argv)
{
	struct pg_config c;
	mach_port_t master, d = MACH_PORT_NULL;
	uint8_t mac[6];
	kern_return_t kr;

	if (pg_config_parse(argc, argv, &c) != 0)
		return 2;
	master = graft_arg_port(argc, argv, "device");
	kr = device_open(master, D_READ | D_WRITE, c.dev, &d);
	if (kr != D_SUCCESS) {
		printf("pktgen: error: device_open(%s): %d\n", c.dev, kr);
		return 1;
	}
	kr = graft_net_mac(d, mac);
	if (kr != D_SUCCESS) {
		printf("pktgen: error: NET_ADDRESS of %s: %d\n", c.dev, kr);
		return 1;
	}
	if (c.src_mac_set)
		memcpy(mac, c.src_mac, 6);
	(void)graft_net_wait_link(d, 5000);
	rng_state = c.seed ? c.seed : 1;
	for (unsigned int r = 0; r < c.runs; r++)
		run(&c, d, mac);
	printf("pktgen: done\n");
	fflush(stdout);
	device_close(d);
	return 0;
}
