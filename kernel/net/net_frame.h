/* SPDX-License-Identifier: GPL-2.0-only */
/* A received frame split the way struct net_rcv_msg carries it. */
#ifndef NET_NET_FRAME_H
#define NET_NET_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include <device/device_types.h>
#include <device/net_status.h>

/*
 * A frame of @hlen link-header bytes and some data bytes, laid out as the
 * two arrays of struct net_rcv_msg: @header holds the link header,
 * zero-padded to NET_HDW_HDR_MAX; @packet holds a struct packet_header
 * (length = data bytes + 4, in host order; type = the two bytes that end
 * the link header, the Ethernet type field when @hlen is 14) and then the
 * data.  @count is the bytes used in @packet (4 + data).  Filter programs
 * run on this (net_program.h) and messages are copied from it.
 */
struct net_frame {
	uint8_t header[NET_HDW_HDR_MAX];
	unsigned int hlen;
	unsigned int count;
	uint8_t packet[NET_RCV_MAX];
};

/* Data bytes a frame can carry after its link header. */
#define NET_FRAME_DATA_MAX	(NET_RCV_MAX - sizeof(struct packet_header))

/*
 * net_frame_fill - split the @len bytes at @bytes, a frame whose link
 * header is @hlen bytes (at most NET_HDW_HDR_MAX), into @f.  Returns
 * D_SUCCESS, or D_INVALID_SIZE when @len is below @hlen or the data would
 * exceed NET_FRAME_DATA_MAX (@f is then unspecified).  Pure; no locks.
 */
io_return_t net_frame_fill(struct net_frame *f, const void *bytes, size_t len,
			   unsigned int hlen);

/* Data bytes of @f (after the link header). */
static inline unsigned int net_frame_data_len(const struct net_frame *f)
{
	return f->count - (unsigned int)sizeof(struct packet_header);
}

/* The data of @f (after the struct packet_header). */
static inline const uint8_t *net_frame_data(const struct net_frame *f)
{
	return f->packet + sizeof(struct packet_header);
}

#endif
