/* SPDX-License-Identifier: GPL-2.0-only */
/* pingd: answers ARP requests and ICMP echo requests for one IPv4 address. */
/*
 * Arguments: ip=A.B.C.D, device=N (the device master port's name, from
 * ${device-port}), optionally count=N (exit after N echo replies; 0, the
 * default, serves for ever).  pingd opens eth0, reads its MAC
 * (NET_ADDRESS), installs one BPF filter that passes ARP requests for ip
 * and IPv4 ICMP datagrams to ip, and answers each ARP request with an
 * is-at reply and each valid echo request with an echo reply (same id,
 * sequence and payload, fresh IPv4 and ICMP checksums) by device_write.
 * Anything else that passes the filter (bad checksum, fragment, other
 * ICMP type) is counted and dropped.  It prints one line per reply and a
 * last line "pingd: done replies=N" when count is reached.
 */
#include <device/bpf.h>
#include <device/device.h>
#include <device/net_status.h>
#include <mach/message.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graft_user.h"

#define ETH_HLEN	14
#define ETH_ZLEN	60
#define ETH_P_ARP	0x0806
#define ETH_P_IP	0x0800
#define FRAME_MAX	1514

static uint8_t my_mac[6];
static uint32_t my_ip;		/* host order */

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v & 0xffff);
}

/* The Internet checksum (RFC 1071) of @len bytes at @p. */
static uint16_t inet_checksum(const uint8_t *p, size_t len)
{
	uint32_t sum = 0;

	for (size_t i = 0; i + 1 < len; i += 2)
		sum += get16(p + i);
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/*
 * One filter for both kinds of frame (offsets in the Ethernet frame):
 * type 0x0806 with ARP opcode 1 (20) and target address ip (38), or type
 * 0x0800 with protocol 1 (23) and destination ip (30).
 */
static kern_return_t install_filter(mach_port_t d, mach_port_t rx)
{
	struct bpf_insn f[] = {
		{ NETF_BPF | NETF_IN, 0, 0, 0 },
		/* 0 */ { BPF_LD | BPF_H | BPF_ABS, 0, 0, 12 },
		/* 1 */ { BPF_JMP | BPF_JEQ | BPF_K, 0, 4, ETH_P_ARP },
		/* 2 */ { BPF_LD | BPF_H | BPF_ABS, 0, 0, 20 },
		/* 3 */ { BPF_JMP | BPF_JEQ | BPF_K, 0, 8, 1 },
		/* 4 */ { BPF_LD | BPF_W | BPF_ABS, 0, 0, 38 },
		/* 5 */ { BPF_JMP | BPF_JEQ | BPF_K, 5, 6, my_ip },
		/* 6 */ { BPF_JMP | BPF_JEQ | BPF_K, 0, 5, ETH_P_IP },
		/* 7 */ { BPF_LD | BPF_B | BPF_ABS, 0, 0, 23 },
		/* 8 */ { BPF_JMP | BPF_JEQ | BPF_K, 0, 3, 1 },
		/* 9 */ { BPF_LD | BPF_W | BPF_ABS, 0, 0, 30 },
		/* 10 */ { BPF_JMP | BPF_JEQ | BPF_K, 0, 1, my_ip },
		/* 11 */ { BPF_RET | BPF_K, 0, 0, FRAME_MAX },
		/* 12 */ { BPF_RET | BPF_K, 0, 0, 0 },
	};

	return device_set_filter(d, rx, MACH_MSG_TYPE_MAKE_SEND, 0,
				 (filter_t *)f, sizeof(f) / (sizeof(filter_t)));
}

/* Send @len bytes of @frame (padded to ETH_ZLEN); D_SUCCESS or the error. */
static kern_return_t send_frame(mach_port_t d, uint8_t *frame, size_t len)
{
	int written = 0;

	if (len < ETH_ZLEN) {
		memset(frame + len, 0, ETH_ZLEN - len);
		len = ETH_ZLEN;
	}
	return device_write(d, 0, 0, (char *)frame, len, &written);
}

/*
 * The is-at reply to the ARP request @arp (@len bytes after the Ethernet
 * header) from @src, into @frame; its length, or 0 if @arp is no
 * Ethernet/IPv4 request for my_ip.
 */
static size_t arp_reply(const uint8_t *src, const uint8_t *arp, size_t len,
			uint8_t *frame)
{
	uint8_t *r = frame + ETH_HLEN;

	if (len < 28 || get16(arp) != 1 || get16(arp + 2) != ETH_P_IP ||
	    arp[4] != 6 || arp[5] != 4 || get16(arp + 6) != 1 ||
	    get32(arp + 24) != my_ip)
		return 0;
	memcpy(frame, src, 6);
	memcpy(frame + 6, my_mac, 6);
	put16(frame + 12, ETH_P_ARP);
	memcpy(r, arp, 6);		/* hardware/protocol types, sizes */
	put16(r + 6, 2);		/* is-at */
	memcpy(r + 8, my_mac, 6);
	put32(r + 14, my_ip);
	memcpy(r + 18, arp + 8, 10);	/* the asker's MAC and address */
	return ETH_HLEN + 28;
}

/*
 * The echo reply to the IPv4 datagram @ip (@len bytes) from @src, into
 * @frame; its length, or 0 if @ip is no valid unfragmented ICMP echo
 * request to my_ip (checksums included).
 */
static size_t echo_reply(const uint8_t *src, const uint8_t *ip, size_t len,
			 uint8_t *frame)
{
	size_t ihl, total, icmp_len;
	uint8_t *rip = frame + ETH_HLEN, *ricmp = rip + 20;
	const uint8_t *icmp;

	if (len < 20 || ip[0] >> 4 != 4)
		return 0;
	ihl = (size_t)(ip[0] & 0xf) * 4;
	total = get16(ip + 2);
	if (ihl < 20 || total < ihl + 8 || total > len ||
	    inet_checksum(ip, ihl) != 0 || (get16(ip + 6) & 0x3fff) != 0 ||
	    ip[9] != 1 || get32(ip + 16) != my_ip)
		return 0;
	icmp = ip + ihl;
	icmp_len = total - ihl;
	if (icmp[0] != 8 || icmp[1] != 0 ||
	    inet_checksum(icmp, icmp_len) != 0 ||
	    ETH_HLEN + 20 + icmp_len > FRAME_MAX)
		return 0;
	memcpy(frame, src, 6);
	memcpy(frame + 6, my_mac, 6);
	put16(frame + 12, ETH_P_IP);
	rip[0] = 0x45;
	rip[1] = ip[1];
	put16(rip + 2, (uint16_t)(20 + icmp_len));
	memcpy(rip + 4, ip + 4, 2);	/* identification */
	put16(rip + 6, 0);
	rip[8] = 64;
	rip[9] = 1;
	put16(rip + 10, 0);
	put32(rip + 12, my_ip);
	memcpy(rip + 16, ip + 12, 4);
	put16(rip + 10, inet_checksum(rip, 20));
	memcpy(ricmp, icmp, icmp_len);
	ricmp[0] = 0;
	put16(ricmp + 2, 0);
	put16(ricmp + 2, inet_checksum(ricmp, icmp_len));
	return ETH_HLEN + 20 + icmp_len;
}

int main(int argc, char **argv)
{
	static union {
		struct net_rcv_msg m;
		char bytes[sizeof(struct net_rcv_msg) + 64];
	} msg;
	static uint8_t frame[FRAME_MAX + ETH_ZLEN];
	mach_port_t master, d = MACH_PORT_NULL, rx = MACH_PORT_NULL;
	unsigned long count, replies = 0, dropped = 0;
	kern_return_t kr;

	master = graft_arg_port(argc, argv, "device");
	count = strtoul(graft_arg(argc, argv, "count", "0"), NULL, 10);
	if (graft_parse_ipv4(graft_arg(argc, argv, "ip", ""), &my_ip) != 0) {
		printf("pingd: needs ip=A.B.C.D\n");
		return 2;
	}
	kr = device_open(master, D_READ | D_WRITE, "eth0", &d);
	if (kr == D_SUCCESS)
		kr = graft_net_mac(d, my_mac);
	if (kr == D_SUCCESS)
		kr = mach_port_allocate(mach_task_self(),
					MACH_PORT_RIGHT_RECEIVE, &rx);
	if (kr == D_SUCCESS)
		kr = install_filter(d, rx);
	if (kr != D_SUCCESS) {
		printf("pingd: cannot serve eth0: error %d\n", kr);
		return 1;
	}
	(void)graft_net_wait_link(d, 5000);	/* "ready": frames flow */
	printf("pingd: ready ip=%s mac=%02x:%02x:%02x:%02x:%02x:%02x\n",
	       graft_arg(argc, argv, "ip", ""), my_mac[0], my_mac[1],
	       my_mac[2], my_mac[3], my_mac[4], my_mac[5]);
	while (count == 0 || replies < count) {
		const struct packet_header *ph;
		const uint8_t *payload;
		const uint8_t *src = (const uint8_t *)msg.m.header + 6;
		size_t len, out = 0;

		kr = mach_msg(&msg.m.msg_hdr, MACH_RCV_MSG, 0, sizeof(msg),
			      rx, 0, MACH_PORT_NULL);
		if (kr != MACH_MSG_SUCCESS) {
			printf("pingd: receive failed: 0x%x\n", kr);
			return 1;
		}
		if (msg.m.msg_hdr.msgh_id != NET_RCV_MSG_ID)
			continue;
		ph = (const struct packet_header *)msg.m.packet;
		payload = (const uint8_t *)(ph + 1);
		if (ph->length < sizeof(*ph) || ph->length > NET_RCV_MAX)
			continue;
		len = ph->length - sizeof(*ph);
		if (ph->type == __builtin_bswap16(ETH_P_ARP)) {
			out = arp_reply(src, payload, len, frame);
			if (out)
				printf("pingd: arp reply\n");
		} else if (ph->type == __builtin_bswap16(ETH_P_IP)) {
			out = echo_reply(src, payload, len, frame);
			if (out) {
				replies++;
				printf("pingd: echo reply %lu id %u seq %u\n",
				       replies, get16(frame + 38),
				       get16(frame + 40));
			}
		}
		if (!out) {
			dropped++;
			continue;
		}
		kr = send_frame(d, frame, out);
		if (kr != D_SUCCESS)
			printf("pingd: device_write failed: %d\n", kr);
	}
	printf("pingd: done replies=%lu dropped=%lu\n", replies, dropped);
	return 0;
}
