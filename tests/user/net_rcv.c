/* SPDX-License-Identifier: GPL-2.0-only */
/* Receives with mach_msg the net_rcv_msg messages a filter table sent to its bootstrap port. */
/*
 * The netfilter suite gives this task a receive right and a send right to
 * one port (its bootstrap port names it), installs a catch-all filter for
 * that port, and delivers the frames of net_rcv_protocol.h before the
 * task starts.  The task receives them into a struct net_rcv_msg, as a
 * Hurd network server does, and checks every field and byte: one
 * "USER-PASS"/"USER-FAIL" line per check, "USER-DONE n" at the end.
 */
#include <device/net_status.h>
#include <mach/message.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "graft_user.h"
#include "net_rcv_protocol.h"
#include "user_check.h"

static struct net_rcv_msg msg;

/* Bytes of @n at @p that differ from the frame's, from frame offset @at. */
static long mismatches(const char *p, unsigned int n, unsigned int at,
		       unsigned int type)
{
	long bad = 0;

	for (unsigned int i = 0; i < n; i++)
		bad += (uint8_t)p[i] != net_rcv_byte(at + i, type);
	return bad;
}

static void check_message(const struct net_rcv_frame *f)
{
	unsigned int data = f->len - NET_RCV_HLEN;
	unsigned int count = data + sizeof(struct packet_header);
	struct packet_header ph;
	long zeros = 0;

	check("msgh_id", NET_RCV_MSG_ID, msg.msg_hdr.msgh_id);
	check("msgh_size", (offsetof(struct net_rcv_msg, packet) + count + 7) &
		  ~7ul, msg.msg_hdr.msgh_size);
	check("header_type_byte", MACH_MSG_TYPE_BYTE,
	      msg.header_type.msgt_name);
	check("header_type_number", NET_HDW_HDR_MAX,
	      msg.header_type.msgt_number);
	check("packet_type_byte", MACH_MSG_TYPE_BYTE,
	      msg.packet_type.msgt_name);
	check("packet_type_number", count, msg.packet_type.msgt_number);
	check("header_bytes", 0, mismatches(msg.header, NET_RCV_HLEN, 0,
					    f->type));
	for (unsigned int i = NET_RCV_HLEN; i < NET_HDW_HDR_MAX; i++)
		zeros += msg.header[i] != 0;
	check("header_padding_zero", 0, zeros);
	memcpy(&ph, msg.packet, sizeof(ph));
	check("packet_header_length", count, ph.length);
	check("packet_header_type", (f->type >> 8) | ((f->type & 0xff) << 8),
	      ph.type);
	check("packet_data", 0, mismatches(msg.packet + sizeof(ph), data,
					   NET_RCV_HLEN, f->type));
}

int main(void)
{
	mach_port_t port = MACH_PORT_NULL;

	if (task_get_bootstrap_port(mach_task_self(), &port) != KERN_SUCCESS ||
	    port == MACH_PORT_NULL) {
		printf("USER-FAIL no bootstrap port\n");
		return 1;
	}
	for (unsigned int i = 0; i < NET_RCV_FRAMES; i++) {
		mach_msg_return_t mr;

		memset(&msg, 0xa5, sizeof(msg));
		mr = mach_msg(&msg.msg_hdr, MACH_RCV_MSG | MACH_RCV_TIMEOUT, 0,
			      sizeof(msg), port, 1000, MACH_PORT_NULL);
		check("receive", MACH_MSG_SUCCESS, mr);
		if (mr != MACH_MSG_SUCCESS)
			break;
		check_message(&net_rcv_frames[i]);
	}
	printf("USER-DONE %d\n", checks);
	return 0;
}
