/* SPDX-License-Identifier: GPL-2.0-only */
/* A client of devices a driver server published (proxy.defs): device.defs through the kernel's proxy. */
/*
 * "proxy_probe mode=M device=${device-port}" (suite "device-proxy"),
 * started with tests/user/proxy_server.c in the same mode; it waits
 * until the server's names open, checks, then sends PROXY_QUIT on the
 * shared bootstrap port.
 *   serve  proxy_publish's refusals; fake0: get_status from the kept
 *          status, inband and out-of-line writes read back, synchronous
 *          and _request forms, a set_status round trip; fakeeth0: its
 *          status, a filter, a written frame coming back as net_rcv_msg;
 *          GRAFT_DEV_INFO of both, forwarded and stamped by the kernel
 *   bad    each misbehaving reply answered with its code, and the device
 *          still serving afterwards; each malformed GRAFT_DEV_INFO
 *          answered D_IO_ERROR, then a good one relayed
 *   die    two requests in flight when the server exits answer
 *          D_DEVICE_DOWN, later calls too, a new open D_NO_SUCH_DEVICE
 *   lend   (the server named a direct map) an out-of-line write from
 *          memory that starts inside a page and spans three, read back
 *          whole; an inband read of the same; the misbehaving replies of
 *          bad to lent requests answered with their codes; a read the
 *          server keeps when it exits answers D_DEVICE_DOWN
 *   flaky  (suite proxy-retry; the server supervised, no bootstrap
 *          port) a failure before any call worked, and a failure while
 *          the record that worked still does (the device's), answer the
 *          server's code, as does an error of the call's arguments
 *          (not checked); once the server fails everything, a read is
 *          served by its next instance; an out-of-line write whose
 *          data went to the server answers its failure
 *   liar   (suite proxy-verify; the server supervised with verify=1)
 *          writes and reads checked against what was written: a write
 *          the server stores wrongly and a read it answers wrongly are
 *          served right by its next instance; a write that reads back
 *          wrong at every instance answers D_IO_ERROR, and its record is
 *          then unknown (not checked)
 * Checks print "USER-PASS name" or "USER-FAIL ...", then "USER-DONE n".
 */
#include <device/bpf.h>
#include <device/device.h>
#include <device/device_request.h>
#include <mach/message.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "graft/dev_info.h"
#include "graft/proxy.h"
#include "graft_user.h"
#include "proxy_protocol.h"
#include "user_device.h"
#include "user_info.h"

#define RECORD		512
#define FRAME		60	/* bytes of the looped-back frame */

/* Open @name, waiting up to 5 s for the server to publish it. */
static kern_return_t open_wait(mach_port_t master, const char *name,
			       mach_port_t *dev)
{
	mach_port_t idle = new_receive();
	mach_msg_header_t h;
	kern_return_t kr = D_NO_SUCH_DEVICE;

	for (int i = 0; i < 500 && kr == D_NO_SUCH_DEVICE; i++) {
		kr = device_open(master, D_READ | D_WRITE, (char *)name, dev);
		if (kr == D_NO_SUCH_DEVICE)
			mach_msg(&h, MACH_RCV_MSG | MACH_RCV_TIMEOUT, 0,
				 sizeof(h), idle, 10, MACH_PORT_NULL);
	}
	mach_port_destroy(mach_task_self(), idle);
	return kr;
}

static void quit_server(void)
{
	mach_port_t boot = MACH_PORT_NULL;
	mach_msg_header_t h = {
		.msgh_bits = MACH_MSGH_BITS(MACH_MSG_TYPE_COPY_SEND, 0),
		.msgh_size = sizeof(h),
		.msgh_id = PROXY_QUIT,
	};

	task_get_bootstrap_port(mach_task_self(), &boot);
	h.msgh_remote_port = boot;
	check("server_told_to_quit", MACH_MSG_SUCCESS,
	      mach_msg(&h, MACH_SEND_MSG, sizeof(h), 0, MACH_PORT_NULL, 0,
		       MACH_PORT_NULL));
}

/* proxy_publish's refusals, each with its code. */
static void publish_refusals(mach_port_t master)
{
	int status[5] = { DEV_GET_SIZE, PROXY_STATUS_AT_LEAST_SIZE, 2, 4096,
			  RECORD };
	int bad[4] = { DEV_GET_SIZE, PROXY_STATUS_AT_LEAST_SIZE, 5, 1 };
	int bad_rule[5] = { DEV_GET_SIZE, 7, 2, 4096, RECORD };
	mach_port_t port = new_receive(), proxy = MACH_PORT_NULL;
	mach_port_t con = MACH_PORT_NULL;

	mach_port_insert_right(mach_task_self(), port, port,
			       MACH_MSG_TYPE_MAKE_SEND);
	check("publish_empty_name", D_INVALID_OPERATION,
	      proxy_publish(master, "", port, RECORD, status, 5, &proxy));
	check("publish_published_name", D_ALREADY_OPEN,
	      proxy_publish(master, "fake0", port, RECORD, status, 5,
			    &proxy));
	check("publish_another_modules_name", D_ALREADY_OPEN,
	      proxy_publish(master, "console", port, RECORD, status, 5,
			    &proxy));
	check("publish_malformed_status", D_INVALID_SIZE,
	      proxy_publish(master, "fake9", port, RECORD, bad, 4, &proxy));
	check("publish_status_bad_rule", D_INVALID_SIZE,
	      proxy_publish(master, "fake9", port, RECORD, bad_rule, 5,
			    &proxy));
	check("publish_odd_status", D_INVALID_SIZE,
	      proxy_publish(master, "fake9", port, RECORD, bad, 1, &proxy));
	check("publish_record_size_zero", D_INVALID_SIZE,
	      proxy_publish(master, "fake9", port, 0, status, 5, &proxy));
	check("publish_dead_server_port", D_INVALID_OPERATION,
	      proxy_publish(master, "fake9", MACH_PORT_DEAD, RECORD, status,
			    5, &proxy));
	check("publish_null_server_port", D_INVALID_OPERATION,
	      proxy_publish(master, "fake9", MACH_PORT_NULL, RECORD, status,
			    5, &proxy));
	check("publish_kernel_object_port", D_INVALID_OPERATION,
	      proxy_publish(master, "fake9", mach_task_self(), RECORD,
			    status, 5, &proxy));
	check("open_console", D_SUCCESS,
	      device_open(master, D_WRITE, "console", &con));
	check("publish_through_a_device_port", D_INVALID_OPERATION,
	      proxy_publish(con, "fake9", port, RECORD, status, 5, &proxy));
	check("publish_through_the_task_port", MIG_BAD_ID,
	      proxy_publish(mach_task_self(), "fake9", port, RECORD, status,
			    5, &proxy));
	check("refused_name_not_published", D_NO_SUCH_DEVICE,
	      device_open(master, D_READ, "fake9", &proxy));
	device_close(con);
	mach_port_deallocate(mach_task_self(), con);
	mach_port_destroy(mach_task_self(), port);
}

/* Whether @info says "served by a server" from the kernel: mode and
 * host stamped whatever the server said (this suite's server is the
 * task of proxy_server.elf). */
static int stamped(const struct graft_dev_info *info)
{
	return info->mode == GRAFT_DEV_SERVER &&
	       strncmp(info->host, "proxy_server", 12) == 0;
}

/* GRAFT_DEV_INFO through the proxy: a short buffer refused by the
 * kernel, fake0's record relayed with the kernel's mode and host,
 * fakeeth0's (whose server does not know the flavour) made by the
 * kernel alone. */
static void info_checks(mach_port_t dev, mach_port_t eth)
{
	struct graft_dev_info info;
	int status[4];
	mach_msg_type_number_t count = 4;

	check("info_short_count", D_INVALID_SIZE,
	      device_get_status(dev, GRAFT_DEV_INFO, status, &count));
	count = 4;
	check("info_unknown_graft_flavour_not_forwarded", D_INVALID_OPERATION,
	      device_get_status(dev, GRAFT_DEV_INFO + 1, status, &count));
	check("info_relayed", D_SUCCESS, info_read(dev, &info, &count));
	check("info_relayed_count", GRAFT_DEV_INFO_COUNT, count);
	check("info_relayed_stamped", 1, stamped(&info));
	check("info_relayed_driver", 0, strcmp(info.driver, "fakedisk"));
	check("info_relayed_counter", 1, info.ncounters == 1 &&
	      strcmp(info.counters[0].name, "calls") == 0 &&
	      info.counters[0].value == 1);
	check("info_kernel_only", D_SUCCESS, info_read(eth, &info, &count));
	check("info_kernel_only_count", GRAFT_DEV_INFO_COUNT, count);
	check("info_kernel_only_stamped", 1, stamped(&info));
	check("info_kernel_only_empty", 1, info.driver[0] == '\0' &&
	      info.ncounters == 0 && info.nprobes == 0);
}

static void fill(char *buf, size_t n, int seed)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = (char)(i * 7 + seed);
}

static void disk_checks(mach_port_t dev)
{
	static char data[4 * RECORD], back[4 * RECORD];
	int status[8] = { 0 };
	mach_msg_type_number_t count = 8;
	io_buf_ptr_t got = NULL;
	mach_port_t rp = new_receive();
	int written = 0;

	check("get_size", D_SUCCESS,
	      device_get_status(dev, DEV_GET_SIZE, status, &count));
	check("get_size_count", 2, count);
	check("get_size_bytes", 64 * RECORD, status[0]);
	check("get_size_record", RECORD, status[1]);
	count = 1;
	check("get_size_count_too_small", D_INVALID_SIZE,
	      device_get_status(dev, DEV_GET_SIZE, status, &count));
	count = 8;
	check("get_unknown_flavor", D_INVALID_OPERATION,
	      device_get_status(dev, 99, status, &count));

	fill(data, sizeof(data), 3);
	check("write_inband", D_SUCCESS,
	      device_write_inband(dev, 0, 1, data, 100, &written));
	check("write_inband_count", 100, written);
	count = sizeof(back);
	check("read_inband", D_SUCCESS,
	      device_read_inband(dev, 0, 1, 100, back, &count));
	check("read_inband_data", 0,
	      count == 100 ? memcmp(back, data, 100) : -1);
	check("write_ool", D_SUCCESS,
	      device_write(dev, 0, 8, data, sizeof(data), &written));
	check("write_ool_count", (long)sizeof(data), written);
	check("read_ool", D_SUCCESS,
	      device_read(dev, 0, 8, sizeof(data), &got, &count));
	check("read_ool_data", 0,
	      count == sizeof(data) ? memcmp(got, data, sizeof(data)) : -1);
	vm_deallocate(mach_task_self(), (vm_address_t)got, count);
	check("read_past_the_end_refused_by_server", D_INVALID_RECNUM,
	      device_read(dev, 0, 64, RECORD, &got, &count));

	fill(data, sizeof(data), 9);
	check("write_request", D_SUCCESS,
	      device_write_request(dev, rp, 0, 20, data, 2 * RECORD));
	check("write_request_reply", D_SUCCESS,
	      receive_reply(rp, device_reply_server));
	check("write_request_written", 2 * RECORD,
	      reply.rc == D_SUCCESS ? reply.written : reply.rc);
	check("read_request", D_SUCCESS,
	      device_read_request(dev, rp, 0, 20, 2 * RECORD));
	check("read_request_reply", D_SUCCESS,
	      receive_reply(rp, device_reply_server));
	check("read_request_data", 0,
	      reply.rc == D_SUCCESS && reply.count == 2 * RECORD ?
	      memcmp(reply.data, data, 2 * RECORD) : -1);
	vm_deallocate(mach_task_self(), (vm_address_t)reply.data,
		      reply.count);
	check("write_request_inband", D_SUCCESS,
	      device_write_request_inband(dev, rp, 0, 30, data, 64));
	check("write_request_inband_reply", D_SUCCESS,
	      receive_reply(rp, device_reply_server));
	check("write_request_inband_written", 64, reply.written);
	check("read_request_inband", D_SUCCESS,
	      device_read_request_inband(dev, rp, 0, 30, 64));
	check("read_request_inband_reply", D_SUCCESS,
	      receive_reply(rp, device_reply_server));
	check("read_request_inband_data", 0,
	      reply.count == 64 ? memcmp(reply.inband, data, 64) : -1);

	status[0] = 4242;
	check("set_status_forwarded", D_SUCCESS,
	      device_set_status(dev, PROXY_TEST_FLAVOR, status, 1));
	count = 8;
	status[0] = 0;
	check("get_status_after_set", D_SUCCESS,
	      device_get_status(dev, PROXY_TEST_FLAVOR, status, &count));
	check("status_round_trip", 4242, status[0]);
	check("set_status_server_refusal", D_INVALID_OPERATION,
	      device_set_status(dev, 78, status, 1));
	mach_port_destroy(mach_task_self(), rp);
}

static void nic_checks(mach_port_t master, mach_port_t dev)
{
	static union {
		struct net_rcv_msg m;
		char bytes[sizeof(struct net_rcv_msg) + 64];
	} msg;
	struct bpf_insn prog[] = {
		{ NETF_BPF | NETF_IN, 0, 0, 0 },
		{ BPF_RET | BPF_K, 0, 0, 262144 },
	};
	char frame[IO_INBAND_MAX];
	int status[16] = { 0 };
	mach_msg_type_number_t count = 16;
	mach_port_t eth = MACH_PORT_NULL, rx = new_receive();
	int written = 0;
	const struct packet_header *ph;

	check("open_fakeeth0", D_SUCCESS,
	      open_wait(master, "fakeeth0", &eth));
	check("net_status", D_SUCCESS,
	      device_get_status(eth, NET_STATUS, status, &count));
	check("net_status_max_packet", ETH_MAX,
	      count == NET_STATUS_COUNT ? status[1] : -1);
	count = 16;
	check("net_address", D_SUCCESS,
	      device_get_status(eth, NET_ADDRESS, status, &count));
	check("net_address_word0", PROXY_MAC_WORD0, status[0]);
	check("set_filter_local", D_SUCCESS,
	      device_set_filter(eth, rx, MACH_MSG_TYPE_MAKE_SEND, 0,
				(filter_t *)prog,
				sizeof(prog) / (sizeof(filter_t))));
	memset(frame, 0xff, 6);
	fill(frame + 6, sizeof(frame) - 6, 5);
	frame[12] = 0x88;
	frame[13] = 0xb5;
	check("write_frame", D_SUCCESS,
	      device_write_inband(eth, 0, 0, frame, FRAME, &written));
	check("write_frame_count", FRAME, written);
	check("looped_frame_received", MACH_MSG_SUCCESS,
	      mach_msg(&msg.m.msg_hdr, MACH_RCV_MSG | MACH_RCV_TIMEOUT, 0,
		       sizeof(msg), rx, 5000, MACH_PORT_NULL));
	ph = (const struct packet_header *)msg.m.packet;
	check("looped_frame_is_net_rcv_msg", NET_RCV_MSG_ID,
	      msg.m.msg_hdr.msgh_id);
	check("looped_frame_data", 0,
	      ph->length == FRAME - 14 + sizeof(*ph) ?
	      memcmp(ph + 1, frame + 14, FRAME - 14) : -1);
	check("looped_frame_header", 0, memcmp(msg.m.header, frame, 14));
	info_checks(dev, eth);
	device_close(eth);
	mach_port_deallocate(mach_task_self(), eth);
	mach_port_destroy(mach_task_self(), rx);
}

static void serve(mach_port_t master)
{
	mach_port_t dev = MACH_PORT_NULL;

	check("open_fake0", D_SUCCESS, open_wait(master, "fake0", &dev));
	publish_refusals(master);
	disk_checks(dev);
	nic_checks(master, dev);
	check("close_fake0", D_SUCCESS, device_close(dev));
	mach_port_deallocate(mach_task_self(), dev);
}

static void bad(mach_port_t master)
{
	mach_port_t dev = MACH_PORT_NULL;
	static char buf[RECORD];
	char inband[IO_INBAND_MAX];
	io_buf_ptr_t got = NULL;
	mach_msg_type_number_t count = 0;
	struct graft_dev_info info;
	int written = 0;

	check("open_fake0", D_SUCCESS, open_wait(master, "fake0", &dev));
	check("reply_of_another_kind", D_IO_ERROR,
	      device_read(dev, 0, PROXY_BAD_WRONG_ID, RECORD, &got, &count));
	check("read_more_than_asked", D_INVALID_SIZE,
	      device_read(dev, 0, PROXY_BAD_MORE, RECORD, &got, &count));
	count = sizeof(inband);
	check("read_inband_more_than_asked", D_INVALID_SIZE,
	      device_read_inband(dev, 0, PROXY_BAD_MORE, 16, inband, &count));
	check("wrote_more_than_given", D_INVALID_SIZE,
	      device_write(dev, 0, PROXY_BAD_WRITTEN, buf, RECORD, &written));
	check("reply_right_dropped", D_IO_ERROR,
	      device_read(dev, 0, PROXY_BAD_DROP, RECORD, &got, &count));
	check("code_outside_d_codes", D_IO_ERROR,
	      device_write(dev, 0, PROXY_BAD_CODE, buf, RECORD, &written));
	check("info_one_int_short", D_IO_ERROR, info_read(dev, &info, &count));
	check("info_one_int_more", D_IO_ERROR, info_read(dev, &info, &count));
	check("info_name_without_nul", D_IO_ERROR,
	      info_read(dev, &info, &count));
	check("info_counters_out_of_range", D_IO_ERROR,
	      info_read(dev, &info, &count));
	check("info_code_outside_d_codes", D_IO_ERROR,
	      info_read(dev, &info, &count));
	check("info_still_served", D_SUCCESS, info_read(dev, &info, &count));
	check("info_still_served_stamped", 1, stamped(&info));
	check("still_serving", D_SUCCESS,
	      device_read(dev, 0, 0, RECORD, &got, &count));
	vm_deallocate(mach_task_self(), (vm_address_t)got, count);
	device_close(dev);
	mach_port_deallocate(mach_task_self(), dev);
}

#define LEND_RECNUM	8
#define LEND_BYTES	(9 * RECORD)
#define LEND_OFFSET	3584		/* into the buffer's first page */

static void lend(mach_port_t master)
{
	mach_port_t dev = MACH_PORT_NULL;
	io_buf_ptr_t got = NULL;
	io_buf_ptr_inband_t inband;
	mach_msg_type_number_t count = 0;
	vm_address_t buf = 0;
	char *data;
	int written = 0;

	check("buffer", KERN_SUCCESS,
	      vm_allocate(mach_task_self(), &buf, 3 * 4096, TRUE));
	data = (char *)buf + LEND_OFFSET;
	fill(data, LEND_BYTES, 9);
	check("open_fake0", D_SUCCESS, open_wait(master, "fake0", &dev));
	check("lent_write", D_SUCCESS,
	      device_write(dev, 0, LEND_RECNUM, data, LEND_BYTES, &written));
	check("lent_write_whole", LEND_BYTES, written);
	check("lent_read", D_SUCCESS,
	      device_read(dev, 0, LEND_RECNUM, LEND_BYTES, &got, &count));
	check("lent_read_whole", LEND_BYTES, count);
	check("lent_read_back", 0,
	      got != NULL && count == LEND_BYTES ?
	      memcmp(got, data, LEND_BYTES) : -1);
	if (got != NULL)
		vm_deallocate(mach_task_self(), (vm_address_t)got, count);
	count = sizeof(inband);
	check("inband_read_not_lent", D_SUCCESS,
	      device_read_inband(dev, 0, LEND_RECNUM, sizeof(inband), inband,
				 &count));
	check("inband_read_back", 0, memcmp(inband, data, sizeof(inband)));
	check("lent_wrote_more_than_given", D_INVALID_SIZE,
	      device_write(dev, 0, PROXY_BAD_WRITTEN, data, RECORD,
			   &written));
	check("lent_reply_right_dropped", D_IO_ERROR,
	      device_read(dev, 0, PROXY_BAD_DROP, RECORD, &got, &count));
	check("lent_code_outside_d_codes", D_IO_ERROR,
	      device_write(dev, 0, PROXY_BAD_CODE, data, RECORD, &written));
	check("lent_read_held_device_down", D_DEVICE_DOWN,
	      device_read(dev, 0, PROXY_LEND_HOLD, RECORD, &got, &count));
	device_close(dev);
	mach_port_deallocate(mach_task_self(), dev);
	vm_deallocate(mach_task_self(), buf, 3 * 4096);
}

static void die(mach_port_t master)
{
	mach_port_t dev = MACH_PORT_NULL, rp = new_receive();
	char one[IO_INBAND_MAX] = "x";
	io_buf_ptr_t got = NULL;
	mach_msg_type_number_t count = 0;
	int status[4];

	check("open_fake0", D_SUCCESS, open_wait(master, "fake0", &dev));
	check("read_request_held", D_SUCCESS,
	      device_read_request(dev, rp, 0, 0, RECORD));
	check("write_request_held", D_SUCCESS,
	      device_write_request_inband(dev, rp, 0, 0, one, 1));
	for (int i = 0; i < PROXY_DIE_AFTER; i++) {
		reply.rc = D_SUCCESS;
		check("in_flight_answered", D_SUCCESS,
		      receive_reply(rp, device_reply_server));
		check("in_flight_device_down", D_DEVICE_DOWN, reply.rc);
	}
	check("later_read_device_down", D_DEVICE_DOWN,
	      device_read(dev, 0, 0, RECORD, &got, &count));
	count = 4;
	check("later_get_status_device_down", D_DEVICE_DOWN,
	      device_get_status(dev, DEV_GET_SIZE, status, &count));
	check("later_set_status_device_down", D_DEVICE_DOWN,
	      device_set_status(dev, PROXY_TEST_FLAVOR, status, 1));
	check("name_unpublished", D_NO_SUCH_DEVICE,
	      device_open(master, D_READ, "fake0", &rp));
	device_close(dev);
	mach_port_deallocate(mach_task_self(), dev);
}

/* An out-of-line read of one record at @recnum: its code; *@zero
 * whether it came back whole and all zero. */
static kern_return_t read_record(mach_port_t dev, recnum_t recnum, int *zero)
{
	io_buf_ptr_t got = NULL;
	mach_msg_type_number_t count = 0;
	kern_return_t kr = device_read(dev, 0, recnum, RECORD, &got, &count);

	*zero = kr == D_SUCCESS && count == RECORD;
	for (mach_msg_type_number_t i = 0; *zero && i < count; i++)
		*zero = got[i] == 0;
	if (got != NULL && count != 0)
		vm_deallocate(mach_task_self(), (vm_address_t)got, count);
	return kr;
}

/* A frame of FRAME bytes on fakeeth0 marked @mark (proxy_server.c's
 * flaky_frame): its write's code. */
static kern_return_t write_marked(mach_port_t eth, unsigned char mark)
{
	io_buf_ptr_inband_t frame;
	int written = 0;

	memset(frame, 0xff, 6);
	fill(frame + 6, FRAME - 6, 7);
	frame[12] = 0x88;
	frame[13] = 0xb5;
	frame[14] = (char)mark;
	return device_write_inband(eth, 0, 0, frame, FRAME, &written);
}

/* A NIC has no check: a frame failed for no fault of its size goes to
 * the same instance once more, then to the next instance (@disk, fake0,
 * breaks the instance's writes). */
static void flaky_frames(mach_port_t master, mach_port_t disk)
{
	mach_port_t eth = MACH_PORT_NULL;
	int one = 1;

	check("open_fakeeth0", D_SUCCESS, open_wait(master, "fakeeth0", &eth));
	/* nothing is sent again before a frame worked */
	check("frame_works", D_SUCCESS, write_marked(eth, 0));
	check("frame_failed_once_sent_again", D_SUCCESS,
	      write_marked(eth, PROXY_FLAKY_ONCE));
	check("frame_without_link_answered", D_DEVICE_DOWN,
	      write_marked(eth, PROXY_FLAKY_GONE));
	check("frame_failing_at_two_instances_answered", D_IO_ERROR,
	      write_marked(eth, PROXY_FLAKY_ALWAYS));
	check("break_the_frames", D_INVALID_OPERATION,
	      device_set_status(disk, PROXY_FLAKY_BREAK_WRITES, &one, 1));
	check("frame_failing_twice_served_by_a_new_instance", D_SUCCESS,
	      write_marked(eth, 0));
	device_close(eth);
	mach_port_deallocate(mach_task_self(), eth);
}

static void flaky(mach_port_t master)
{
	mach_port_t dev = MACH_PORT_NULL;
	char data[RECORD], back[IO_INBAND_MAX];
	mach_msg_type_number_t count = sizeof(back);
	int written = 0, zero = 0, one = 1;

	check("open_fake0", D_SUCCESS, open_wait(master, "fake0", &dev));
	/* nothing worked yet: nothing to check the server with */
	check("failure_before_any_success_answered", D_IO_ERROR,
	      read_record(dev, PROXY_FLAKY_ALWAYS, &zero));
	check("read_works", D_SUCCESS,
	      device_read_inband(dev, 0, 5, 16, back, &count));
	/* the device's error: the check read of record 5 works */
	check("device_error_answered", D_IO_ERROR,
	      read_record(dev, PROXY_FLAKY_ALWAYS, &zero));
	check("device_gone_checked_then_answered", D_NO_SUCH_DEVICE,
	      read_record(dev, PROXY_FLAKY_GONE, &zero));
	/* an error of the call's own arguments: not checked */
	check("argument_error_answered", D_INVALID_RECNUM,
	      read_record(dev, PROXY_DISK_RECORDS, &zero));
	/* the same code for a record within the disk: checked first */
	check("range_error_within_the_disk_checked_then_answered",
	      D_INVALID_RECNUM, read_record(dev, PROXY_FLAKY_RANGE, &zero));
	/* the driver's: the check fails too, a new instance serves it */
	check("break_the_server", D_INVALID_OPERATION,
	      device_set_status(dev, PROXY_FLAKY_BREAK, &one, 1));
	check("read_served_by_a_new_instance", D_SUCCESS,
	      read_record(dev, PROXY_FLAKY_ONCE + 1, &zero));
	check("new_instance_disk_is_its_own", 1, zero);
	fill(data, sizeof(data), 5);
	/* a write the instance fails once: its check works, so it goes to
	 * the same instance once more, and works there */
	check("write_failed_once_sent_again", D_SUCCESS,
	      device_write_inband(dev, 0, PROXY_FLAKY_ONCE, data, 100,
				  &written));
	check("write_again", D_SUCCESS,
	      device_write_inband(dev, 0, PROXY_FLAKY_ONCE, data, 100,
				  &written));
	count = sizeof(back);
	check("read_back", D_SUCCESS,
	      device_read_inband(dev, 0, PROXY_FLAKY_ONCE, 100, back,
				 &count));
	check("read_back_data", 0, count != 100 || memcmp(back, data, 100));
	/* an instance that fails every write, its reads working: the write
	 * fails twice there, checked each time, and goes to a new instance */
	check("break_the_writes", D_INVALID_OPERATION,
	      device_set_status(dev, PROXY_FLAKY_BREAK_WRITES, &one, 1));
	fill(data, sizeof(data), 6);
	check("write_failing_twice_served_by_a_new_instance", D_SUCCESS,
	      device_write_inband(dev, 0, PROXY_FLAKY_ONCE + 1, data, 100,
				  &written));
	count = sizeof(back);
	check("read_back_from_the_new_instance", D_SUCCESS,
	      device_read_inband(dev, 0, PROXY_FLAKY_ONCE + 1, 100, back,
				 &count));
	check("read_back_from_the_new_instance_data", 0,
	      count != 100 || memcmp(back, data, 100));
	/* one every instance fails so: failed twice at two instances, the
	 * device's error, answered */
	check("write_failing_at_two_instances_answered", D_IO_ERROR,
	      device_write_inband(dev, 0, PROXY_FLAKY_ALWAYS, data, 100,
				  &written));
	flaky_frames(master, dev);
	check("write_given_away_answers_its_failure", D_IO_ERROR,
	      device_write(dev, 0, PROXY_FLAKY_ALWAYS, data, RECORD,
			   &written));
	/* breaks every instance it reaches: checked and sent on at each
	 * until the server's restarts run out, then answered */
	check("poison_answered_when_restarts_run_out", D_NO_SUCH_DEVICE,
	      read_record(dev, PROXY_FLAKY_POISON, &zero));
	device_close(dev);
	mach_port_deallocate(mach_task_self(), dev);
}

/* Whether @n bytes at record @recnum of fake0 read back as @want: the
 * read's code, *@same set. */
static kern_return_t read_same(mach_port_t dev, recnum_t recnum,
			       const char *want, size_t n, int *same)
{
	io_buf_ptr_t got = NULL;
	mach_msg_type_number_t count = 0;
	kern_return_t kr = device_read(dev, 0, recnum, (int)n, &got, &count);

	*same = kr == D_SUCCESS && count == n && memcmp(got, want, n) == 0;
	if (got != NULL && count != 0)
		vm_deallocate(mach_task_self(), (vm_address_t)got, count);
	return kr;
}

static void liar(mach_port_t master)
{
	mach_port_t dev = MACH_PORT_NULL;
	vm_address_t buf = 0;
	char *data;
	int written = 0, same = 0, one = 1;

	check("buffer", KERN_SUCCESS,
	      vm_allocate(mach_task_self(), &buf, 4096, TRUE));
	data = (char *)buf;
	check("open_fake0", D_SUCCESS, open_wait(master, "fake0", &dev));
	proxy_liar_pattern(data, 2 * RECORD, 12 * RECORD);
	check("write_read_back", D_SUCCESS,
	      device_write(dev, 0, 12, data, 2 * RECORD, &written));
	check("read_checked", D_SUCCESS,
	      read_same(dev, 12, data, 2 * RECORD, &same));
	check("read_checked_data", 1, same);
	/* a read of verified records the instance fails once: its check
	 * works, so it goes to the same instance once more */
	check("fail_next_call", D_INVALID_OPERATION,
	      device_set_status(dev, PROXY_LIAR_FAIL, &one, 1));
	check("verified_read_failed_once_sent_again", D_SUCCESS,
	      read_same(dev, 12, data, 2 * RECORD, &same));
	check("verified_read_data", 1, same);
	/* one of records never written: the device's error, answered */
	check("fail_next_call_again", D_INVALID_OPERATION,
	      device_set_status(dev, PROXY_LIAR_FAIL, &one, 1));
	check("unverified_read_failure_answered", D_IO_ERROR,
	      read_same(dev, 20, data, RECORD, &same));
	/* this instance stores wrongly: the read-back tells */
	check("lie_in_writes", D_INVALID_OPERATION,
	      device_set_status(dev, PROXY_LIAR_WRITES, &one, 1));
	proxy_liar_pattern(data, RECORD, 16 * RECORD);
	check("wrong_write_served_by_a_new_instance", D_SUCCESS,
	      device_write(dev, 0, 16, data, RECORD, &written));
	check("its_read", D_SUCCESS, read_same(dev, 16, data, RECORD, &same));
	check("its_read_data", 1, same);
	/* this instance answers reads wrongly: the checksums tell */
	check("lie_in_reads", D_INVALID_OPERATION,
	      device_set_status(dev, PROXY_LIAR_READS, &one, 1));
	proxy_liar_pattern(data, 2 * RECORD, 12 * RECORD);
	check("wrong_read_served_by_a_new_instance", D_SUCCESS,
	      read_same(dev, 12, data, 2 * RECORD, &same));
	check("wrong_read_served_data", 1, same);
	/* a write next to a verified record: its read-back reads that
	 * record too */
	proxy_liar_pattern(data, RECORD, 17 * RECORD);
	check("write_next_to_a_known_record", D_SUCCESS,
	      device_write(dev, 0, 17, data, RECORD, &written));
	/* this instance reads and writes one record further: a write and
	 * its read-back agree, the known record before them does not */
	check("misplace", D_INVALID_OPERATION,
	      device_set_status(dev, PROXY_LIAR_MISPLACE, &one, 1));
	proxy_liar_pattern(data, RECORD, 18 * RECORD);
	check("misplaced_write_served_by_a_new_instance", D_SUCCESS,
	      device_write(dev, 0, 18, data, RECORD, &written));
	check("misplaced_write_read", D_SUCCESS,
	      read_same(dev, 18, data, RECORD, &same));
	check("misplaced_write_read_data", 1, same);
	/* every instance reads this record wrongly: given up, an error */
	proxy_liar_pattern(data, RECORD, PROXY_LIAR_ALWAYS * RECORD);
	check("always_wrong_answers_io_error", D_IO_ERROR,
	      device_write(dev, 0, PROXY_LIAR_ALWAYS, data, RECORD,
			   &written));
	/* ... and its record is no longer known: not checked */
	check("unknown_record_read", D_SUCCESS,
	      read_same(dev, PROXY_LIAR_ALWAYS, data, RECORD, &same));
	check("unknown_record_not_checked", 0, same);
	device_close(dev);
	mach_port_deallocate(mach_task_self(), dev);
	vm_deallocate(mach_task_self(), buf, 4096);
}

int main(int argc, char **argv)
{
	mach_port_t master = graft_arg_port(argc, argv, "device");
	const char *mode = graft_arg(argc, argv, "mode", "");

	if (strcmp(mode, "serve") == 0)
		serve(master);
	else if (strcmp(mode, "bad") == 0)
		bad(master);
	else if (strcmp(mode, "die") == 0)
		die(master);
	else if (strcmp(mode, "lend") == 0)
		lend(master);
	else if (strcmp(mode, "flaky") == 0)
		flaky(master);
	else if (strcmp(mode, "liar") == 0)
		liar(master);
	else
		check("known_mode", 0, 1);
	if (strcmp(mode, "die") != 0 && strcmp(mode, "lend") != 0 &&
	    strcmp(mode, "flaky") != 0 && strcmp(mode, "liar") != 0)
		quit_server();
	printf("USER-DONE %d\n", checks);
	fflush(stdout);
	return 0;
}
