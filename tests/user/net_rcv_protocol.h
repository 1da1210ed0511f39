/* SPDX-License-Identifier: GPL-2.0-only */
/* The frames the netfilter suite delivers to net_rcv, and their bytes. */
#ifndef TESTS_USER_NET_RCV_PROTOCOL_H
#define TESTS_USER_NET_RCV_PROTOCOL_H

#include <stdint.h>

/* Ethernet frames: (type, length), delivered in this order. */
static const struct net_rcv_frame {
	unsigned int type, len;
} net_rcv_frames[] = {
	{ 0x0806, 60 },
	{ 0x0800, 1514 },
	{ 0x86dd, 70 },
};

#define NET_RCV_FRAMES	(sizeof(net_rcv_frames) / sizeof(net_rcv_frames[0]))
#define NET_RCV_HLEN	14

/* Byte @i of a frame of Ethernet type @type: the type field at 12 and
 * 13, a pattern elsewhere. */
static inline uint8_t net_rcv_byte(unsigned int i, unsigned int type)
{
	if (i == 12)
		return (uint8_t)(type >> 8);
	if (i == 13)
		return (uint8_t)type;
	return (uint8_t)(i * 13 + type);
}

#endif
