/* SPDX-License-Identifier: GPL-2.0-only */
/* The client of a driver server's rogue0 (tests/drivers/rogue): served while the server runs, D_DEVICE_DOWN once it faulted; and a task holding what a server holds, refused what is not its own. */
/*
 * "confine_probe mode=M device=${device-port}" (suite "server-confine"),
 * started once the test server published rogue0:
 *   serve  (a server whose driver was refused what it reached for, and
 *          went on) rogue0 opens, a written frame is answered D_SUCCESS
 *          with its length, its NET_STATUS comes from the server
 *   fault  (a server that faults on its first transmit) the write in
 *          flight when it dies answers D_DEVICE_DOWN, later calls on the
 *          same device port too, a new open D_NO_SUCH_DEVICE
 *   master (device=${driver-port}, the port a server is given) no
 *          kernel device opens through it, no I/O permission is made,
 *          the e1000 server's function cannot be claimed nor its eth0
 *          published again
 * Checks print "USER-PASS name" or "USER-FAIL ...", then "USER-DONE n".
 */
#include <device/device.h>
#include <device/net_status.h>
#include <string.h>

#include "graft/claim.h"
#include "graft/proxy.h"
#include "mach_i386.h"
#include "user_device.h"
#include "user_port.h"

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

#define NIC_SLOT	3		/* the e1000 server's function */

/* What a server holds gives it nothing of another's, nor the kernel's. */
static void holds_no_other(mach_port_t driver_port)
{
	static const char *const devices[] = { "eth0", "irq", "console" };
	mach_port_t port = MACH_PORT_NULL, proxy = MACH_PORT_NULL;
	mach_port_t mine = new_receive();
	int status[1] = { 0 };

	mach_port_insert_right(mach_task_self(), mine, mine,
			       MACH_MSG_TYPE_MAKE_SEND);
	for (size_t i = 0; i < sizeof(devices) / sizeof(*devices); i++)
		check("no_device_opens_through_the_driver_port",
		      D_INVALID_OPERATION,
		      device_open(driver_port, D_READ | D_WRITE,
				  (char *)devices[i], &port));
	check("no_io_permission_through_the_driver_port",
	      KERN_INVALID_ARGUMENT,
	      i386_io_perm_create(driver_port, 0x1f0, 0x1f7, &port));
	check("another_servers_function_refused", D_ALREADY_OPEN,
	      claim_pci(driver_port, 0, NIC_SLOT, 0, &port));
	check("another_servers_name_refused", D_ALREADY_OPEN,
	      proxy_publish(driver_port, "eth0", mine, 1, status, 0,
			    &proxy));
}

int main(int argc, char **argv)
{
	mach_port_t master = graft_arg_port(argc, argv, "device");
	const char *mode = graft_arg(argc, argv, "mode", "");
	mach_port_t dev = MACH_PORT_NULL;

	if (strcmp(mode, "master") == 0) {
		holds_no_other(master);
		printf("USER-DONE %d\n", checks);
		fflush(stdout);
		return 0;
	}
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
