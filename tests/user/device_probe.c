/* SPDX-License-Identifier: GPL-2.0-only */
/* A user task that opens, uses and closes devices through device.defs. */
/*
 * mode=sync (suite "device"): device_open and its errors, the console
 * written out of line and inband, sharing and closing a device.
 * mode=async (suite "device-async"): console reads that wait for input
 * (device_read_request: MIG_NO_REPLY in the kernel, a later reply), one
 * of them to a reply port that died before the input came; then the
 * task ends with reads still in flight, which the kernel must complete
 * and drop.  The kernel suites feed the input and count what is left.
 * mode=share hold=MS (suite "device", two tasks): one console shared.
 * mode=intr (suite "device-async" too): device_intr_register and
 * device_intr_ack on the "irq" device.
 */
#include <device/device.h>
#include <device/device_reply_server.h>
#include <device/device_request.h>
#include <device/notify.h>
#include <mach/message.h>
#include <mach/mig_errors.h>
#include <mach/thread_switch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graft_user.h"
#include "user_check.h"
#include "user_device.h"



static void open_errors(mach_port_t master)
{
	mach_port_t d = MACH_PORT_NULL;
	dev_name_t long_name;

	check("unknown_name", D_NO_SUCH_DEVICE,
	      device_open(master, D_READ, "nosuch0", &d));
	check("empty_name", D_NO_SUCH_DEVICE,
	      device_open(master, D_READ, "", &d));
	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	check("long_unknown_name", D_NO_SUCH_DEVICE,
	      device_open(master, D_READ, long_name, &d));
	check("rd0_without_image", D_NO_SUCH_DEVICE,
	      device_open(master, D_READ, "rd0", &d));
	check("bad_open_mode", D_INVALID_OPERATION,
	      device_open(master, 0x4000, "console", &d));
	check("open_on_task_port_is_bad_id", MIG_BAD_ID,
	      device_open(mach_task_self(), D_READ, "console", &d));
}

static void console_sync(mach_port_t master)
{
	static const char text[] = "device_probe: hello through device_write\n";
	static char text2[IO_INBAND_MAX] =
		"device_probe: and through write_inband\n";
	static char empty[IO_INBAND_MAX];
	mach_port_t con = MACH_PORT_NULL, con2 = MACH_PORT_NULL, d;
	char buf[IO_INBAND_MAX];
	mach_msg_type_number_t n = sizeof(buf);
	int status[4];
	mach_msg_type_number_t count = 4;
	filter_t filter[1] = { 0 };
	mach_port_t pager;
	int written = 0;

	check("open_console", D_SUCCESS,
	      device_open(master, D_READ | D_WRITE, "console", &con));
	check("open_on_device_port", D_INVALID_OPERATION,
	      device_open(con, D_READ, "console", &d));
	check("console_write", D_SUCCESS,
	      device_write(con, 0, 0, (io_buf_ptr_t)text, sizeof(text) - 1,
			   &written));
	check("console_write_count", sizeof(text) - 1, written);
	check("console_write_inband", D_SUCCESS,
	      device_write_inband(con, 0, 0, text2, strlen(text2),
				  &written));
	check("console_read_nowait_without_input", D_WOULD_BLOCK,
	      device_read_inband(con, D_NOWAIT, 0, 10, buf, &n));
	check("console_huge_read", D_INVALID_SIZE,
	      device_read_inband(con, 0, 0, 1000, buf, &n));
	check("console_status_unknown", D_INVALID_OPERATION,
	      device_get_status(con, DEV_GET_SIZE, status, &count));
	check("console_set_filter_refused", D_INVALID_OPERATION,
	      device_set_filter(con, mach_task_self(),
				MACH_MSG_TYPE_COPY_SEND, 0, filter, 1));
	check("console_map_refused", D_INVALID_OPERATION,
	      device_map(con, VM_PROT_READ, 0, 4096, &pager, 0));
	check("open_again", D_SUCCESS,
	      device_open(master, D_WRITE, "console", &con2));
	check("open_again_is_same_port", con, con2);
	check("close_once", D_SUCCESS, device_close(con));
	check("still_open_after_one_close", D_SUCCESS,
	      device_write_inband(con, 0, 0, empty, 0, &written));
	check("close_twice", D_SUCCESS, device_close(con));
	check("closed_device_is_dead", MACH_SEND_INVALID_DEST,
	      device_write_inband(con, 0, 0, empty, 0, &written));
	mach_port_deallocate(mach_task_self(), con);
	mach_port_deallocate(mach_task_self(), con);
	check("reopen_after_close", D_SUCCESS,
	      device_open(master, D_WRITE, "console", &con));
	check("reopened_console_writes", D_SUCCESS,
	      device_write_inband(con, 0, 0, empty, 0, &written));
	/* The last send right goes: no-senders closes it (the kernel
	 * suite checks no device is left open). */
	check("deallocate_device_port", KERN_SUCCESS,
	      mach_port_deallocate(mach_task_self(), con));
}

static void console_async(mach_port_t master)
{
	mach_port_t con = MACH_PORT_NULL;
	mach_port_t dead = new_receive(), live = new_receive();

	check("open_console", D_SUCCESS,
	      device_open(master, D_READ, "console", &con));
	check("read_request_to_doomed_port", KERN_SUCCESS,
	      device_read_request_inband(con, dead, 0, 0, 1));
	check("reply_port_destroyed", KERN_SUCCESS,
	      mach_port_destroy(mach_task_self(), dead));
	check("read_request_out_of_line", KERN_SUCCESS,
	      device_read_request(con, live, 0, 0, 8));
	printf("DEVICE-PROBE waiting for input\n");
	check("reply_after_input", MACH_MSG_SUCCESS,
	      receive_reply(live, device_reply_server));
	check("reply_after_input_rc", D_SUCCESS, reply.rc);
	/* The read to the destroyed port was cancelled when the port died,
	 * so every byte comes here. */
	check("reply_after_input_count", 4, reply.count);
	check("reply_after_input_data", 0, memcmp(reply.data, "abcd", 4));
	vm_deallocate(mach_task_self(), (vm_address_t)reply.data, reply.count);
	check("inband_request_in_flight", KERN_SUCCESS,
	      device_read_request_inband(con, live, 0, 0, 4));
	check("ool_request_in_flight", KERN_SUCCESS,
	      device_read_request(con, live, 0, 0, 4096));
}

/* One of two tasks sharing the console: open it, write, keep it @hold
 * ms, write again (the other task may have gone meanwhile), let it go. */
static void share(mach_port_t master, int hold)
{
	static char text[IO_INBAND_MAX];
	mach_port_t con = MACH_PORT_NULL;
	int written = 0;

	check("share_open_console", D_SUCCESS,
	      device_open(master, D_WRITE, "console", &con));
	snprintf(text, sizeof(text), "device_probe: holding the console %d ms\n",
		 hold);
	check("share_write_before", D_SUCCESS,
	      device_write_inband(con, 0, 0, text, strlen(text), &written));
	thread_switch(MACH_PORT_NULL, SWITCH_OPTION_WAIT, hold);
	snprintf(text, sizeof(text), "device_probe: console open after %d ms\n",
		 hold);
	check("share_write_after", D_SUCCESS,
	      device_write_inband(con, 0, 0, text, strlen(text), &written));
	check("share_release", KERN_SUCCESS,
	      mach_port_deallocate(mach_task_self(), con));
}

/*
 * IRQ 8 (the RTC's periodic interrupt, which the kernel suite raises) as
 * messages: the line is masked from the interrupt until device_intr_ack;
 * this task waits 300 ms before acknowledging so that the suite can see
 * a second interrupt held back meanwhile.
 */
static void interrupts(mach_port_t master)
{
	mach_port_t irq = MACH_PORT_NULL, con = MACH_PORT_NULL;
	mach_port_t port = new_receive();

	check("open_irq", D_SUCCESS, device_open(master, 0, "irq", &irq));
	check("open_console", D_SUCCESS,
	      device_open(master, D_READ, "console", &con));
	check("register_kernel_line_refused", D_INVALID_OPERATION,
	      device_intr_register(irq, 0, 0, port, MACH_MSG_TYPE_MAKE_SEND));
	check("register_line_out_of_range", D_INVALID_OPERATION,
	      device_intr_register(irq, 16, 0, port, MACH_MSG_TYPE_MAKE_SEND));
	check("register_unknown_flags", D_INVALID_OPERATION,
	      device_intr_register(irq, 8, 1, port, MACH_MSG_TYPE_MAKE_SEND));
	check("register_on_console_refused", D_INVALID_OPERATION,
	      device_intr_register(con, 8, 0, port, MACH_MSG_TYPE_MAKE_SEND));
	check("register_line_of_a_kernel_handler_refused", D_ALREADY_OPEN,
	      device_intr_register(irq, 10, 0, port, MACH_MSG_TYPE_MAKE_SEND));
	check("register_irq8", D_SUCCESS,
	      device_intr_register(irq, 8, 0, port, MACH_MSG_TYPE_MAKE_SEND));
	check("register_twice", D_ALREADY_OPEN,
	      device_intr_register(irq, 8, 0, port, MACH_MSG_TYPE_MAKE_SEND));
	check("ack_before_interrupt", D_INVALID_OPERATION,
	      device_intr_ack(irq, port, MACH_MSG_TYPE_MAKE_SEND));
	check("first_interrupt_notified", 8, receive_intr(port));
	thread_switch(MACH_PORT_NULL, SWITCH_OPTION_WAIT, 300);
	check("ack_first", D_SUCCESS,
	      device_intr_ack(irq, port, MACH_MSG_TYPE_MAKE_SEND));
	check("held_interrupt_notified_after_ack", 8, receive_intr(port));
	check("ack_second", D_SUCCESS,
	      device_intr_ack(irq, port, MACH_MSG_TYPE_MAKE_SEND));
	check("ack_without_interrupt_refused", D_INVALID_OPERATION,
	      device_intr_ack(irq, port, MACH_MSG_TYPE_MAKE_SEND));
}

int main(int argc, char **argv)
{
	mach_port_t master = graft_arg_port(argc, argv, "device");
	const char *mode = graft_arg(argc, argv, "mode", "sync");

	if (strcmp(mode, "share") == 0) {
		share(master, atoi(graft_arg(argc, argv, "hold", "0")));
		printf("USER-DONE %d\n", checks);
		return 0;
	}
	if (strcmp(mode, "intr") == 0) {
		interrupts(master);
		printf("USER-DONE %d\n", checks);
		/* The registration's port dies with the task. */
		return 0;
	}
	if (strcmp(mode, "async") == 0) {
		console_async(master);
		printf("USER-DONE %d\n", checks);
		/* Ends with two reads in flight and the console open. */
		task_terminate(mach_task_self());
		return 1;
	}
	open_errors(master);
	console_sync(master);
	printf("USER-DONE %d\n", checks);
	return 0;
}
