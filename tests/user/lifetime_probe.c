/* SPDX-License-Identifier: GPL-2.0-only */
/* What a task's requests hold in the kernel is released with the right it hangs on, and bounded per task. */
/*
 * "lifetime_probe mode=M device=${device-port}" (suite "device-lifetime",
 * a boot with "linux", e1000 and rd0).  Each mode ends by exiting with
 * what it still holds; the kernel suite then checks that nothing is left.
 *   lines     an interrupt registration ends the moment its port dies;
 *             at most 4 lines per task (D_NO_MEMORY beyond)
 *   rtc       the same for a line waiting for its acknowledgement: the
 *             RTC's line 8 (programmed through I/O ports 0x70-0x71)
 *             notifies, its port dies unacknowledged, and the line is
 *             free and interrupts again for the next registration
 *   kports    kernel objects' ports (devices, the task, the host) are
 *             refused as notification ports
 *   selfreply console reads whose reply port is the console's own port
 *             (and the task's port): refused, so they hold nothing
 *   bound     queued reads are bounded per task (32 MiB of data,
 *             1024 requests), and a reply port's death cancels its
 *             waiting reads at once
 *   filters   at most 64 packet filters per task; a filter goes the
 *             moment its port dies
 *   ioperm    at most 64 I/O permission objects per task
 *   flood     50 refused NET_FLAGS and 50 calls of an unimplemented
 *             routine: the kernel prints at most a burst of each
 *   warmup    eth0's first session (what Linux keeps from it is not a
 *             leak: the suite counts from after it)
 * Checks print "USER-PASS name" or "USER-FAIL ...", then "USER-DONE n".
 */
#include <device/bpf.h>
#include <device/device.h>
#include <device/device_request.h>
#include <device/net_status.h>
#include <device/notify.h>
#include <mach/message.h>
#include <mach/thread_switch.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "graft_user.h"
#include "mach_host.h"
#include "mach_i386.h"
#include "user_device.h"
#include "user_io.h"

#define CMOS_INDEX	0x70
#define CMOS_DATA	0x71
#define RTC_IRQ		8
#define QUIET_LINES	{ 3, 5, 10, 12 }	/* no device on them */
#define SPARE_LINE	13
#define BIG_READ	(16 << 20)		/* DEV_IO_MAX */
#define TASK_REQUESTS	1024			/* kern/ledger.c's limits */
#define TASK_FILTERS	64
#define TASK_IO_PERMS	64
#define FLOOD		50

/* device.defs message ids (subsystem 2800). */
#define ID_DEVICE_READ		2804
#define ID_DEVICE_READ_INBAND	2805

static mach_port_t open_device(mach_port_t master, const char *name,
			       dev_mode_t mode)
{
	mach_port_t dev = MACH_PORT_NULL;
	char check_name[64];

	snprintf(check_name, sizeof(check_name), "open_%s", name);
	check(check_name, D_SUCCESS, device_open(master, mode, name, &dev));
	return dev;
}

static kern_return_t register_line(mach_port_t irq, int line,
				   mach_port_t port,
				   mach_msg_type_name_t type)
{
	return device_intr_register(irq, line, 0, port, type);
}

static void destroy(mach_port_t port)
{
	mach_port_destroy(mach_task_self(), port);
}

/* Registrations die with their ports, whatever the line, again and
 * again; a task holds four lines at most. */
static void lines(mach_port_t master)
{
	static const int quiet[] = QUIET_LINES;
	mach_port_t irq = open_device(master, "irq", 0), ports[4], spare;
	int refused = 0;

	for (int round = 0; round < 20; round++) {
		int line = quiet[round % 4];
		mach_port_t p = new_receive();

		refused += register_line(irq, line, p,
					 MACH_MSG_TYPE_MAKE_SEND) != D_SUCCESS;
		destroy(p);
	}
	check("line_free_again_each_time_its_port_died", 0, refused);
	for (int i = 0; i < 4; i++) {
		ports[i] = new_receive();
		check("register_within_the_task_limit", D_SUCCESS,
		      register_line(irq, quiet[i], ports[i],
				    MACH_MSG_TYPE_MAKE_SEND));
	}
	spare = new_receive();
	check("fifth_line_is_beyond_the_task_limit", D_NO_MEMORY,
	      register_line(irq, SPARE_LINE, spare, MACH_MSG_TYPE_MAKE_SEND));
	destroy(ports[0]);
	check("a_dead_registration_gives_its_share_back", D_SUCCESS,
	      register_line(irq, SPARE_LINE, spare, MACH_MSG_TYPE_MAKE_SEND));
	/* The task exits holding four lines: they go with its ports. */
}

static unsigned char cmos_read(unsigned char reg)
{
	outb(CMOS_INDEX, reg);
	return inb(CMOS_DATA);
}

static void cmos_write(unsigned char reg, unsigned char v)
{
	outb(CMOS_INDEX, reg);
	outb(CMOS_DATA, v);
}

/* The RTC's periodic interrupt at 1024 Hz on or off; reading register C
 * ends the interrupt it raised (the device's own acknowledgement). */
static void rtc_periodic(int on)
{
	cmos_write(0x0a, (cmos_read(0x0a) & 0xf0) | 6);
	cmos_write(0x0b, on ? cmos_read(0x0b) | 0x40 : cmos_read(0x0b) & ~0x40);
	(void)cmos_read(0x0c);
}

/* A line notified and masked, waiting for its acknowledgement, when its
 * port dies: the next driver gets it, and its interrupts. */
static void rtc(mach_port_t master)
{
	mach_port_t irq = open_device(master, "irq", 0);
	mach_port_t first = new_receive(), second = new_receive();
	io_perm_t perm = MACH_PORT_NULL;

	check("cmos_ports", KERN_SUCCESS,
	      i386_io_perm_create(master, CMOS_INDEX, CMOS_DATA, &perm));
	check("cmos_ports_granted", KERN_SUCCESS,
	      i386_io_perm_modify(mach_task_self(), perm, 1));
	check("register_rtc_line", D_SUCCESS,
	      register_line(irq, RTC_IRQ, first, MACH_MSG_TYPE_MAKE_SEND));
	rtc_periodic(1);
	check("rtc_interrupt_notified", RTC_IRQ, receive_intr(first));
	/* Not acknowledged: the line stays masked ... until the port dies. */
	destroy(first);
	check("line_free_after_its_port_died_unacknowledged", D_SUCCESS,
	      register_line(irq, RTC_IRQ, second, MACH_MSG_TYPE_MAKE_SEND));
	(void)cmos_read(0x0c);
	check("line_interrupts_again", RTC_IRQ, receive_intr(second));
	check("ack", D_SUCCESS,
	      device_intr_ack(irq, second, MACH_MSG_TYPE_MAKE_SEND));
	rtc_periodic(0);
	destroy(second);
	check("line_free_after_the_second_port_died", D_SUCCESS,
	      register_line(irq, RTC_IRQ, first = new_receive(),
			    MACH_MSG_TYPE_MAKE_SEND));
}

static void kports(mach_port_t master)
{
	mach_port_t irq = open_device(master, "irq", 0);
	mach_port_t rd0 = open_device(master, "rd0", D_READ);
	mach_port_t con = open_device(master, "console", D_WRITE);
	static const struct {
		const char *name;
		int which;
	} cases[] = {
		{ "rd0_port_refused_as_notification_port", 0 },
		{ "irq_port_refused_as_notification_port", 1 },
		{ "console_port_refused_as_notification_port", 2 },
		{ "task_port_refused_as_notification_port", 3 },
		{ "host_port_refused_as_notification_port", 4 },
	};
	mach_port_t ports[] = { rd0, irq, con, mach_task_self(),
				mach_host_self() };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check(cases[i].name, D_INVALID_OPERATION,
		      register_line(irq, 10, ports[cases[i].which],
				    MACH_MSG_TYPE_COPY_SEND));
	/* rd0, irq and the console stay open until the task exits. */
}

/* Send a device_read (@id) request of @bytes to @dev whose reply right
 * is a copy of the send right @reply, built by hand: MIG's user stubs
 * only make send-once reply rights from receive rights. */
static mach_msg_return_t read_replying_to(mach_port_t dev, mach_port_t reply,
					  mach_msg_id_t id, int bytes)
{
	const mach_msg_type_t int_type = {
		.msgt_name = MACH_MSG_TYPE_INTEGER_32,
		.msgt_size = 32,
		.msgt_number = 1,
		.msgt_inline = 1,
	};
	const mach_msg_type_t recnum_type = {
		.msgt_name = MACH_MSG_TYPE_INTEGER_64,
		.msgt_size = 64,
		.msgt_number = 1,
		.msgt_inline = 1,
	};
#pragma pack(push, 4)	/* MIG's layout: recnum is not 8-aligned */
	struct {
		mach_msg_header_t h;
		mach_msg_type_t mode_type;
		dev_mode_t mode;
		mach_msg_type_t recnum_type;
		recnum_t recnum;
		mach_msg_type_t bytes_type;
		int bytes;
	} m = {
		.h = {
			.msgh_bits = MACH_MSGH_BITS(MACH_MSG_TYPE_COPY_SEND,
						    MACH_MSG_TYPE_COPY_SEND),
			.msgh_size = sizeof(m),
			.msgh_remote_port = dev,
			.msgh_local_port = reply,
			.msgh_id = id,
		},
		.mode_type = int_type, .mode = 0,
		.recnum_type = recnum_type, .recnum = 0,
		.bytes_type = int_type, .bytes = bytes,
	};
#pragma pack(pop)

	_Static_assert(sizeof(m) == 60, "device_read's request as MIG lays it out");
	return mach_msg(&m.h, MACH_SEND_MSG, sizeof(m), 0, MACH_PORT_NULL,
			MACH_MSG_TIMEOUT_NONE, MACH_PORT_NULL);
}

/* A read kept waiting with a right to its own device's port would keep
 * the device open for ever: such reads are refused. */
static void selfreply(mach_port_t master)
{
	mach_port_t con = open_device(master, "console", D_READ);

	check("inband_read_replying_to_the_console_sent", MACH_MSG_SUCCESS,
	      read_replying_to(con, con, ID_DEVICE_READ_INBAND, 16));
	check("read_replying_to_the_console_sent", MACH_MSG_SUCCESS,
	      read_replying_to(con, con, ID_DEVICE_READ, BIG_READ));
	check("read_replying_to_the_task_port_sent", MACH_MSG_SUCCESS,
	      read_replying_to(con, mach_task_self(), ID_DEVICE_READ, 4096));
	/* The kernel suite checks that the console closes when this task
	 * drops its right, and that no request is left. */
	check("drop_console", KERN_SUCCESS,
	      mach_port_deallocate(mach_task_self(), con));
}

/* The error a request's reply on @port carried (5 s at most), or the
 * receive's failure. */
static kern_return_t error_reply(mach_port_t port)
{
	mach_msg_return_t mr = receive_reply(port, device_reply_server);

	/* An error reply is a bare mig_reply_header_t, which the demux
	 * refuses. */
	if (mr == MIG_BAD_ID || mr == MIG_BAD_ARGUMENTS)
		return received.error.RetCode;
	return mr == MACH_MSG_SUCCESS ? reply.rc : mr;
}

/* No reply within @ms milliseconds on @port: MACH_RCV_TIMED_OUT. */
static mach_msg_return_t no_reply(mach_port_t port, unsigned int ms)
{
	return mach_msg(&received.head, MACH_RCV_MSG | MACH_RCV_TIMEOUT, 0,
			sizeof(received), port, ms, MACH_PORT_NULL);
}

static void bound(mach_port_t master)
{
	mach_port_t con = open_device(master, "console", D_READ);
	mach_port_t live = new_receive(), again = new_receive();
	int sent = 0;

	/* Console reads wait for input that never comes. */
	check("first_big_read_queued", KERN_SUCCESS,
	      device_read_request(con, live, 0, 0, BIG_READ));
	check("second_big_read_queued", KERN_SUCCESS,
	      device_read_request(con, live, 0, 0, BIG_READ));
	check("third_big_read_sent", KERN_SUCCESS,
	      device_read_request(con, live, 0, 0, BIG_READ));
	check("third_big_read_is_beyond_the_task_limit", D_NO_MEMORY,
	      error_reply(live));
	for (int i = 2; i < TASK_REQUESTS; i++)
		sent += device_read_request_inband(con, live, 0, 0, 1) ==
			KERN_SUCCESS;
	check("requests_up_to_the_task_limit_sent", TASK_REQUESTS - 2, sent);
	check("requests_up_to_the_task_limit_queued", MACH_RCV_TIMED_OUT,
	      no_reply(live, 200));
	check("one_request_more_sent", KERN_SUCCESS,
	      device_read_request_inband(con, live, 0, 0, 1));
	check("one_request_more_is_beyond_the_task_limit", D_WOULD_BLOCK,
	      error_reply(live));
	/* The reply port dies: its reads are cancelled at once, and give
	 * the task its share back. */
	destroy(live);
	check("big_read_after_the_port_died_queued", KERN_SUCCESS,
	      device_read_request(con, again, 0, 0, BIG_READ));
	check("second_big_read_after_the_port_died_queued", KERN_SUCCESS,
	      device_read_request(con, again, 0, 0, BIG_READ));
	check("both_wait", MACH_RCV_TIMED_OUT, no_reply(again, 200));
	/* The task exits with both in flight. */
}

static void filters(mach_port_t master)
{
	struct bpf_insn none[] = {
		{ NETF_BPF | NETF_IN, 0, 0, 0 },
		{ BPF_RET | BPF_K, 0, 0, 0 },
	};
	mach_port_t eth = open_device(master, "eth0", D_READ | D_WRITE);
	mach_port_t ports[TASK_FILTERS], spare = new_receive();
	const unsigned int words = sizeof(none) / (sizeof(filter_t));
	int ok = 0;

	for (int i = 0; i < TASK_FILTERS; i++) {
		ports[i] = new_receive();
		ok += device_set_filter(eth, ports[i], MACH_MSG_TYPE_MAKE_SEND,
					0, (filter_t *)none, words) == D_SUCCESS;
	}
	check("filters_up_to_the_task_limit", TASK_FILTERS, ok);
	check("one_filter_more_is_beyond_the_task_limit", D_NO_MEMORY,
	      device_set_filter(eth, spare, MACH_MSG_TYPE_MAKE_SEND, 0,
				(filter_t *)none, words));
	check("replacing_a_filter_stays_within_the_limit", D_SUCCESS,
	      device_set_filter(eth, ports[1], MACH_MSG_TYPE_MAKE_SEND, 0,
				(filter_t *)none, words));
	destroy(ports[0]);
	check("a_dead_port_s_filter_gives_its_share_back", D_SUCCESS,
	      device_set_filter(eth, spare, MACH_MSG_TYPE_MAKE_SEND, 0,
				(filter_t *)none, words));
}

static void ioperm(mach_port_t master)
{
	io_perm_t perms[TASK_IO_PERMS], spare = MACH_PORT_NULL;
	int ok = 0;

	for (int i = 0; i < TASK_IO_PERMS; i++)
		ok += i386_io_perm_create(master, 0x80, 0x80, &perms[i]) ==
		      KERN_SUCCESS;
	check("io_perms_up_to_the_task_limit", TASK_IO_PERMS, ok);
	check("one_io_perm_more_is_beyond_the_task_limit",
	      KERN_RESOURCE_SHORTAGE,
	      i386_io_perm_create(master, 0x80, 0x80, &spare));
	mach_port_deallocate(mach_task_self(), perms[0]);
	check("a_freed_io_perm_gives_its_share_back", KERN_SUCCESS,
	      i386_io_perm_create(master, 0x80, 0x80, &spare));
}

/* eth0's first session: what Linux sets up then for good (a workqueue
 * worker, the link) is in place before the other modes count. */
static void warmup(mach_port_t master)
{
	mach_port_t eth = open_device(master, "eth0", D_READ | D_WRITE);

	thread_switch(MACH_PORT_NULL, SWITCH_OPTION_WAIT, 3000);
	check("close_eth0", D_SUCCESS, device_close(eth));
}

static void flood(mach_port_t master)
{
	mach_port_t eth = open_device(master, "eth0", D_READ | D_WRITE);
	int zero = 0, refused = 0, failed = 0;
	kernel_boot_info_t info;

	for (int i = 0; i < FLOOD; i++)
		refused += device_set_status(eth, NET_FLAGS, &zero, 1) ==
			   D_INVALID_OPERATION;
	check("net_flags_refused_every_time", FLOOD, refused);
	for (int i = 0; i < FLOOD; i++)
		failed += host_get_boot_info(mach_host_self(), info) ==
			  KERN_FAILURE;
	check("unimplemented_routine_fails_every_time", FLOOD, failed);
	printf("LIFETIME-FLOOD-DONE\n");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *mode;
		void (*run)(mach_port_t master);
	} modes[] = {
		{ "warmup", warmup },
		{ "lines", lines }, { "rtc", rtc }, { "kports", kports },
		{ "selfreply", selfreply }, { "bound", bound },
		{ "filters", filters }, { "ioperm", ioperm },
		{ "flood", flood },
	};
	mach_port_t master = graft_arg_port(argc, argv, "device");
	const char *mode = graft_arg(argc, argv, "mode", "");

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (strcmp(mode, modes[i].mode) != 0)
			continue;
		modes[i].run(master);
		printf("USER-DONE %d\n", checks);
		return 0;
	}
	printf("USER-FAIL unknown_mode: %s\n", mode);
	return 1;
}
