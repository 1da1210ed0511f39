/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers the device test programs share: arguments, replies, CRC. */
#ifndef TESTS_USER_USER_DEVICE_H
#define TESTS_USER_USER_DEVICE_H

#include <mach/message.h>
#include <mach/mig_errors.h>
#include <mach/port.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mach_interface.h"
#include "mach_port.h"
#include "user_args.h"
#include "user_check.h"
#include "user_port.h"
#include <device/device.h>
#include <device/device_reply_server.h>
#include <device/notify.h>

/* device_reply.defs's demux (the generated header does not declare it). */
boolean_t device_reply_server(mach_msg_header_t *in, mach_msg_header_t *out);

/* The last message receive_reply took (a MIG error reply is only a
 * mig_reply_header_t, which the device_reply demux refuses, as on GNU
 * Mach: its RetCode is read here). */
static union {
	mach_msg_header_t head;
	mig_reply_header_t error;
	char bytes[8192];
} received;

/* Receive one message on @port (5 s at most) and hand it to @demux;
 * MIG_BAD_ARGUMENTS if @demux refused it (see received). */
__attribute__((unused))
static mach_msg_return_t receive_reply(mach_port_t port,
				       boolean_t (*demux)(mach_msg_header_t *,
							  mach_msg_header_t *))
{
	static union {
		mig_reply_header_t head;
		char bytes[256];
	} out;
	mach_msg_return_t mr;

	mr = mach_msg(&received.head, MACH_RCV_MSG | MACH_RCV_TIMEOUT, 0,
		      sizeof(received), port, 5000, MACH_PORT_NULL);
	if (mr != MACH_MSG_SUCCESS)
		return mr;
	if (!demux(&received.head, &out.head.Head))
		return MIG_BAD_ID;
	return out.head.RetCode == MIG_NO_REPLY ? MACH_MSG_SUCCESS :
	       out.head.RetCode;
}

/*
 * The status calls a block device refuses: DEV_GET_SIZE into a count
 * of 1 (D_INVALID_SIZE), an unknown flavor (D_INVALID_OPERATION) and
 * device_set_status (D_INVALID_OPERATION).
 */
__attribute__((unused))
static void check_status_refusals(mach_port_t dev)
{
	int status[4] = { 0 };
	mach_msg_type_number_t count = 1;

	check("status_count_too_small", D_INVALID_SIZE,
	      device_get_status(dev, DEV_GET_SIZE, status, &count));
	count = 4;
	check("unknown_status_flavor", D_INVALID_OPERATION,
	      device_get_status(dev, 77, status, &count));
	check("set_status_refused", D_INVALID_OPERATION,
	      device_set_status(dev, DEV_GET_SIZE, status, 2));
}

/* Receive an interrupt notification on @port (5 s at most): its line,
 * or -1. */
__attribute__((unused))
static int receive_intr(mach_port_t port)
{
	union {
		device_intr_notification_t n;
		char bytes[256];
	} msg;

	if (mach_msg(&msg.n.intr_header, MACH_RCV_MSG | MACH_RCV_TIMEOUT, 0,
		     sizeof(msg), port, 5000, MACH_PORT_NULL) !=
	    MACH_MSG_SUCCESS ||
	    msg.n.intr_header.msgh_id != DEVICE_INTR_NOTIFY)
		return -1;
	return msg.n.id;
}

/* CRC-32 (IEEE, as zlib's crc32) of @n bytes, continuing from @crc. */
__attribute__((unused))
static uint32_t crc32_update(uint32_t crc, const void *data, size_t n)
{
	const unsigned char *p = data;

	crc = ~crc;
	while (n-- > 0) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
	}
	return ~crc;
}

/*
 * The device_reply.defs routines device_reply_server calls: each stores
 * what came in @reply.  Out-of-line data stays mapped at reply.data for
 * the caller to check and vm_deallocate.
 */
static struct {
	kern_return_t rc;
	mach_port_t device;
	int written;
	char *data;
	mach_msg_type_number_t count;
	char inband[IO_INBAND_MAX];
} reply;

kern_return_t device_open_reply(mach_port_t port, kern_return_t rc,
				mach_port_t device)
{
	(void)port;
	reply.rc = rc;
	reply.device = device;
	return KERN_SUCCESS;
}

kern_return_t device_write_reply(mach_port_t port, kern_return_t rc,
				 int written)
{
	(void)port;
	reply.rc = rc;
	reply.written = written;
	return KERN_SUCCESS;
}

kern_return_t device_write_reply_inband(mach_port_t port, kern_return_t rc,
					int written)
{
	return device_write_reply(port, rc, written);
}

kern_return_t device_read_reply(mach_port_t port, kern_return_t rc,
				io_buf_ptr_t data, mach_msg_type_number_t count)
{
	(void)port;
	reply.rc = rc;
	reply.data = data;
	reply.count = count;
	return KERN_SUCCESS;
}

kern_return_t device_read_reply_inband(mach_port_t port, kern_return_t rc,
				       const io_buf_ptr_inband_t data,
				       mach_msg_type_number_t count)
{
	(void)port;
	reply.rc = rc;
	reply.count = count;
	memcpy(reply.inband, data, count);
	return KERN_SUCCESS;
}

#endif
