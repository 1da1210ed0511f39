/* SPDX-License-Identifier: GPL-2.0-only */
/* lwIP's netif over a Mach Ethernet device (device.defs, net_rcv_msg). */
/*
 * Frames go out with device_write, one call per frame, padded to 60
 * bytes; the call returns once the driver has taken the frame.  Frames
 * come in as net_rcv_msg messages to NETD_RX_PORTS ports of netd's own,
 * each with a BPF program installed with device_set_filter; together
 * they pass ARP, IPv4 and IPv6 (lwIP checks addresses itself), each
 * frame to one port (install_filter).  A net_rcv_msg holds the Ethernet
 * header apart from the rest; both are copied into one pbuf for
 * ethernet_input.
 *
 * lwIP acknowledges every second segment of a stream, and each ACK is a
 * device_write.  A pure ACK (no data, no other flag) that only moves a
 * connection's acknowledgement forward, by less than NETD_ACK_HOLD_BYTES
 * since the last one sent, is held instead; a later one of the same
 * connection replaces it (acks_merged), as does a segment with data of
 * that connection, and the loop sends it (netd_eth_flush) as soon as no
 * message waits, before any other frame goes out, or when a newer one
 * reaches NETD_ACK_HOLD_BYTES.  Duplicate ACKs and window updates (the
 * same number) go out at once after it, so a sender's fast retransmit
 * still sees them.
 */
#include <device/bpf.h>
#include <device/device.h>
#include <device/net_status.h>
#include <mach/thread_switch.h>
#include <stdio.h>
#include <string.h>

#include "graft_user.h"
#include "lwip/etharp.h"
#include "lwip/ethip6.h"
#include "lwip/netif.h"
#include "lwip/pbuf.h"
#include "lwip/stats.h"
#include "netd.h"
#include "netif/ethernet.h"

#define NETD_ETH_HLEN	14
#define NETD_ETH_ZLEN	60
#define NETD_FRAME_MAX	1514
#define NETD_OPEN_TRIES	3000	/* 10 ms apart: 30 s */

/*
 * The filter of receive port @i: ARP (0x0806) and IPv6 (0x86dd) frames
 * to port 0, IPv4 (0x0800) frames to the port their IP identification
 * names modulo NETD_RX_PORTS, whole; nothing else.  Exactly one port
 * accepts a frame.  A TCP sender numbers its datagrams one after the
 * other, so a stream's frames take the ports in turn and a burst of
 * NETD_RX_PORTS * 16 frames fits in their queues (the kernel drops a
 * frame for a full port); a port set hands out its ports' messages in
 * the order they were queued, so the frames stay in order.
 */
static kern_return_t install_filter(struct netd_eth *eth, unsigned int i)
{
	uint8_t mine = i == 0;	/* ARP and IPv6: jump 1 further to accept */
	struct bpf_insn f[] = {
		{ NETF_BPF | NETF_IN, 0, 0, 0 },
		/* 0 */ { BPF_LD | BPF_H | BPF_ABS, 0, 0, 12 },
		/* 1 */ { BPF_JMP | BPF_JEQ | BPF_K, 0, 4, ETHTYPE_IP },
		/* 2 */ { BPF_LD | BPF_H | BPF_ABS, 0, 0, 18 },
		/* 3 */ { BPF_ALU | BPF_AND | BPF_K, 0, 0, NETD_RX_PORTS - 1 },
		/* 4 */ { BPF_JMP | BPF_JEQ | BPF_K, 4, 0, i },
		/* 5 */ { BPF_RET | BPF_K, 0, 0, 0 },
		/* 6 */ { BPF_JMP | BPF_JEQ | BPF_K, 1 + mine, 0, ETHTYPE_ARP },
		/* 7 */ { BPF_JMP | BPF_JEQ | BPF_K, mine, 0, ETHTYPE_IPV6 },
		/* 8 */ { BPF_RET | BPF_K, 0, 0, 0 },
		/* 9 */ { BPF_RET | BPF_K, 0, 0, NETD_FRAME_MAX },
	};

	return device_set_filter(eth->device, eth->rx[i],
				 MACH_MSG_TYPE_MAKE_SEND, 0, (filter_t *)f,
				 sizeof(f) / (sizeof(filter_t)));
}

kern_return_t netd_eth_open(struct netd_eth *eth, mach_port_t master,
			    const char *name)
{
	int st[DEV_STATUS_MAX];
	mach_msg_type_number_t n = 2;
	kern_return_t kr;

	snprintf(eth->name, sizeof(eth->name), "%s", name);
	/* A driver server publishes its NIC once its driver probed it,
	 * which may be after netd starts: ask again for a while. */
	for (int i = 0;; i++) {
		kr = device_open(master, D_READ | D_WRITE, eth->name,
				 &eth->device);
		if (kr != D_NO_SUCH_DEVICE || i == NETD_OPEN_TRIES)
			break;
		thread_switch(MACH_PORT_NULL, SWITCH_OPTION_WAIT, 10);
	}
	if (kr != D_SUCCESS)
		return kr;
	kr = device_get_status(eth->device, NET_ADDRESS, st, &n);
	if (kr != D_SUCCESS)
		return kr;
	for (int w = 0; w < 2; w++) {
		uint32_t v = __builtin_bswap32((uint32_t)st[w]);

		memcpy(eth->mac + 4 * w, &v, w == 0 ? 4 : 2);
	}
	/* Frames beyond a port's queue limit are dropped by the kernel:
	 * take the most Mach allows, on each port. */
	for (unsigned int i = 0; i < NETD_RX_PORTS; i++) {
		kr = mach_port_allocate(netd_task, MACH_PORT_RIGHT_RECEIVE,
					&eth->rx[i]);
		if (kr != KERN_SUCCESS)
			return kr;
		kr = mach_port_set_qlimit(netd_task, eth->rx[i],
					  MACH_PORT_QLIMIT_MAX);
		if (kr != KERN_SUCCESS)
			return kr;
		kr = install_filter(eth, i);
		if (kr != D_SUCCESS)
			return kr;
	}
	return D_SUCCESS;
}

kern_return_t netd_eth_join(struct netd_eth *eth, mach_port_t set)
{
	kern_return_t kr = KERN_SUCCESS;

	for (unsigned int i = 0; i < NETD_RX_PORTS && kr == KERN_SUCCESS;
	     i++)
		kr = mach_port_move_member(netd_task, eth->rx[i], set);
	return kr;
}

/* IPv6 neighbour discovery needs multicast frames (solicited-node
 * groups): take them all (IFF_ALLMULTI through NET_FLAGS), as device.defs
 * has no call for a list of groups.  0 on success. */
kern_return_t netd_eth_allmulti(struct netd_eth *eth)
{
	int flags;
	mach_msg_type_number_t n = 1;
	kern_return_t kr;

	kr = device_get_status(eth->device, NET_FLAGS, &flags, &n);
	if (kr != D_SUCCESS)
		return kr;
	flags |= 0x200;		/* IFF_ALLMULTI */
	return device_set_status(eth->device, NET_FLAGS, &flags, 1);
}

/* Wait up to 5 s (10 ms sleeps) for the device to be up with a link
 * (IFF_UP | IFF_RUNNING, 0x41), so that the first frames are not lost. */
void netd_eth_wait_link(struct netd_eth *eth)
{
	for (int i = 0; i < 500; i++) {
		int st[DEV_STATUS_MAX];
		mach_msg_type_number_t n = NET_STATUS_COUNT;

		if (device_get_status(eth->device, NET_STATUS, st, &n) ==
		    D_SUCCESS &&
		    (((struct net_status *)st)->flags & 0x41) == 0x41)
			return;
		thread_switch(MACH_PORT_NULL, SWITCH_OPTION_WAIT, 10);
	}
}

/* Write @len bytes of @frame to the device, counting it. */
static err_t write_frame(struct netd_eth *eth, const uint8_t *frame,
			 size_t len)
{
	int written = 0;
	kern_return_t kr;

	kr = device_write(eth->device, 0, 0, (char *)frame, len, &written);
	if (kr != D_SUCCESS) {
		eth->tx_errors++;
		LINK_STATS_INC(link.err);
		return ERR_IF;
	}
	LINK_STATS_INC(link.xmit);
	eth->tx_frames++;
	eth->tx_bytes += len;
	return ERR_OK;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/*
 * Whether @frame is an IPv4 TCP segment with ACK set; if so its
 * connection (addresses and ports) into @key, its acknowledgement number
 * into *@ackno and whether it is a pure ACK (no data, no other flag)
 * into *@pure.
 */
static int tcp_ack_of(const uint8_t *frame, size_t len, uint8_t key[12],
		      uint32_t *ackno, int *pure)
{
	const uint8_t *ip = frame + NETD_ETH_HLEN, *tcp;
	size_t ihl, total;

	if (len < NETD_ETH_HLEN + 40 || frame[12] != 0x08 ||
	    frame[13] != 0x00 || ip[9] != 6)
		return 0;
	ihl = (size_t)(ip[0] & 0xf) * 4;
	total = (size_t)ip[2] << 8 | ip[3];
	if (ihl < 20 || NETD_ETH_HLEN + ihl + 20 > len || total < ihl + 20)
		return 0;
	tcp = ip + ihl;
	if (!(tcp[13] & 0x10))
		return 0;
	memcpy(key, ip + 12, 8);
	memcpy(key + 8, tcp, 4);
	*ackno = be32(tcp + 8);
	*pure = tcp[13] == 0x10 && total == ihl + (size_t)(tcp[12] >> 4) * 4;
	return 1;
}

static err_t eth_linkoutput(struct netif *netif, struct pbuf *p)
{
	static uint8_t frame[NETD_FRAME_MAX];
	struct netd_eth *eth = netif->state;
	size_t len = p->tot_len;
	uint8_t key[12];
	uint32_t ackno;
	int tcp, pure, same;

	if (len > NETD_FRAME_MAX) {
		eth->tx_errors++;
		LINK_STATS_INC(link.err);
		return ERR_BUF;
	}
	pbuf_copy_partial(p, frame, (u16_t)len, 0);
	if (len < NETD_ETH_ZLEN) {
		memset(frame + len, 0, NETD_ETH_ZLEN - len);
		len = NETD_ETH_ZLEN;
	}
	tcp = tcp_ack_of(frame, len, key, &ackno, &pure);
	same = tcp && eth->ack_known &&
	       memcmp(key, eth->ack_key, sizeof(key)) == 0;
	if (same && pure && (int32_t)(ackno - eth->ack_sent) > 0 &&
	    ackno - eth->ack_sent < NETD_ACK_HOLD_BYTES &&
	    len <= sizeof(eth->ack_frame)) {
		if (eth->ack_held)
			eth->acks_merged++;
		memcpy(eth->ack_frame, frame, len);
		eth->ack_len = len;
		eth->ack_held_no = ackno;
		eth->ack_held = 1;
		return ERR_OK;
	}
	/* Data, or an ACK past the held one, carries what it would say. */
	if (same && eth->ack_held && (int32_t)(ackno - eth->ack_held_no) >=
	    (pure ? 1 : 0)) {
		eth->ack_held = 0;
		eth->acks_merged++;
	}
	netd_eth_flush(eth);
	if (tcp) {
		memcpy(eth->ack_key, key, sizeof(key));
		eth->ack_sent = ackno;
		eth->ack_known = 1;
	}
	return write_frame(eth, frame, len);
}

void netd_eth_flush(struct netd_eth *eth)
{
	if (!eth->ack_held)
		return;
	eth->ack_held = 0;
	eth->ack_sent = eth->ack_held_no;
	write_frame(eth, eth->ack_frame, eth->ack_len);
}

err_t netd_eth_netif_init(struct netif *netif)
{
	struct netd_eth *eth = netif->state;

	netif->name[0] = 'e';
	netif->name[1] = 'n';
	netif->output = etharp_output;
	netif->output_ip6 = ethip6_output;
	netif->linkoutput = eth_linkoutput;
	netif->mtu = 1500;
	netif->hwaddr_len = ETH_HWADDR_LEN;
	memcpy(netif->hwaddr, eth->mac, ETH_HWADDR_LEN);
	netif->flags = NETIF_FLAG_BROADCAST | NETIF_FLAG_ETHARP |
		       NETIF_FLAG_ETHERNET | NETIF_FLAG_MLD6;
	return ERR_OK;
}

void netd_eth_input(struct netd_eth *eth, const void *msg)
{
	const struct net_rcv_msg *m = msg;
	const struct packet_header *ph = (const void *)m->packet;
	struct pbuf *p;
	size_t len;

	if (ph->length < sizeof(*ph) || ph->length > NET_RCV_MAX) {
		eth->rx_dropped++;
		return;
	}
	len = ph->length - sizeof(*ph);
	if (NETD_ETH_HLEN + len > NETD_FRAME_MAX) {
		eth->rx_dropped++;
		return;
	}
	p = pbuf_alloc(PBUF_RAW, (u16_t)(NETD_ETH_HLEN + len), PBUF_POOL);
	if (p == NULL) {
		eth->rx_dropped++;
		LINK_STATS_INC(link.memerr);
		return;
	}
	pbuf_take(p, m->header, NETD_ETH_HLEN);
	pbuf_take_at(p, ph + 1, (u16_t)len, NETD_ETH_HLEN);
	LINK_STATS_INC(link.recv);
	eth->rx_frames++;
	eth->rx_bytes += NETD_ETH_HLEN + len;
	if (netd_netif.input(p, &netd_netif) != ERR_OK) {
		eth->rx_dropped++;
		pbuf_free(p);
	}
}
