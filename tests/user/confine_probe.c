/* SPDX-License-Identifier: GPL-2.0-only */
/* The client of a driver server's rogue0 (tests/drivers/rogue): served while the server runs, D_DEVICE_DOWN once it faulted. */
/*
 * "confine_probe mode=M device=${device-port}" (suite "server-confine"),
 * started once the test server published rogue0:
 *   serve  (a server whose driver was refused what it reached for, and
 *          went on) rogue0 opens, a written frame is answered D_SUCCESS
 *          with its length, its NET_STATUS comes from the server
 *   fault  (a server that faults on its first transmit) the write in
 *          flight when it dies answers D_DEVICE_DOWN, later calls on the
 *          same device port too, a new open D_NO_SUCH_DEVICE
 * Checks print "USER-PASS name" or "USER-FAIL ...", then "USER-DONE n".
 */
#include <device/device.h>
#include <device/net_status.h>
#include <string.h>

#include "user_device.h"

#define FRAME		60
#define ETH_ALEN	6

/* A broadcast frame of a local experimental type (0x88b5). */
static void frame_fill(io_buf_ptr_inband_t f)
{
	memset(f, 0, FRAME);
	memset(f, 0xff, ETH_ALEN);
	f[12] = (char)0x88;
	f[13] = (char)0xb5;
	memcpy(f + 14, "confine_probe", 13);
}

static void serve(mach_port_t dev)
{
	io_buf_ptr_inband_t frame;
	int written = 0, status[NET_STATUS_COUNT];
	mach_msg_type_number_t count = NET_STATUS_COUNT;

	frame_fill(frame);
	check("write_answered", D_SUCCESS,
	      device_write_inband(dev, 0, 0, frame, FRAME, &written));
	check("write_whole_frame", FRAME, written);
	check("net_status", D_SUCCESS,
	      device_get_status(dev, NET_STATUS, status, &count));
	check("net_status_count", NET_STATUS_COUNT, count);
}

static void fault(mach_port_t master, mach_port_t dev)
{
	io_buf_ptr_inband_t frame;
	int written = 0, status[NET_STATUS_COUNT];
	mach_msg_type_number_t count = NET_STATUS_COUNT;
	mach_port_t again = MACH_PORT_NULL;

	frame_fill(frame);
	check("write_in_flight_device_down", D_DEVICE_DOWN,
	      device_write_inband(dev, 0, 0, frame, FRAME, &written));
	check("later_write_device_down", D_DEVICE_DOWN,
	      device_write_inband(dev, 0, 0, frame, FRAME, &written));
	check("later_get_status_device_down", D_DEVICE_DOWN,
	      device_get_status(dev, NET_STATUS, status, &count));
	status[0] = 0;
	check("later_set_status_device_down", D_DEVICE_DOWN,
	      device_set_status(dev, NET_FLAGS, status, 1));
	check("name_unpublished", D_NO_SUCH_DEVICE,
	      device_open(master, D_READ | D_WRITE, "rogue0", &again));
}

int main(int argc, char **argv)
{
	mach_port_t master = graft_arg_port(argc, argv, "device");
	const char *mode = graft_arg(argc, argv, "mode", "");
	mach_port_t dev = MACH_PORT_NULL;

	check("open_rogue0", D_SUCCESS,
	      device_open(master, D_READ | D_WRITE, "rogue0", &dev));
	if (dev != MACH_PORT_NULL && strcmp(mode, "serve") == 0)
		serve(dev);
	else if (dev != MACH_PORT_NULL && strcmp(mode, "fault") == 0)
		fault(master, dev);
	else
		check("known_mode_and_device", 0, 1);
	if (dev != MACH_PORT_NULL) {
		device_close(dev);
		mach_port_deallocate(mach_task_self(), dev);
	}
	printf("USER-DONE %d\n", checks);
	fflush(stdout);
	return 0;
}
