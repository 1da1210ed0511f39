/* SPDX-License-Identifier: GPL-2.0-only */
/* Splitting a frame into the header and packet arrays of net_rcv_msg. */
#include <stddef.h>
#include <stdint.h>

#include "kern/string.h"
#include "net/net_frame.h"

io_return_t net_frame_fill(struct net_frame *f, const void *bytes, size_t len,
			   unsigned int hlen)
{
	const uint8_t *b = bytes;
	struct packet_header ph;
	size_t data;

	if (hlen > NET_HDW_HDR_MAX || len < hlen)
		return D_INVALID_SIZE;
	data = len - hlen;
	if (data > NET_FRAME_DATA_MAX)
		return D_INVALID_SIZE;
	memset(f->header, 0, sizeof(f->header));
	memcpy(f->header, b, hlen);
	f->hlen = hlen;
	ph.length = (unsigned short)(data + sizeof(ph));
	ph.type = 0;
	if (hlen >= sizeof(ph.type))
		memcpy(&ph.type, b + hlen - sizeof(ph.type), sizeof(ph.type));
	memcpy(f->packet, &ph, sizeof(ph));
	memcpy(f->packet + sizeof(ph), b + hlen, data);
	f->count = (unsigned int)(data + sizeof(ph));
	return D_SUCCESS;
}
