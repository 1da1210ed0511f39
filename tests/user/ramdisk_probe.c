/* SPDX-License-Identifier: GPL-2.0-only */
/* A user task that reads and writes rd0 through device.defs, as on GNU Mach. */
/*
 * Built against gnumach-dev's headers, MIG user stubs and newlib only.
 * It prints "RD0-CRC 0x........" (CRC-32 of the image as read, for the
 * ramdisk suite to compare with the one the harness computed), then
 * writes a pattern and reads it back through every path: device_read
 * (out of line), device_read_inband, and the asynchronous
 * device_read_request / device_write_request with replies taken apart by
 * device_reply.defs's server stubs.  Then the bad inputs.  With bench=N
 * it times N device_read calls of 4 KiB and of 64 KiB (BENCH lines).
 */
#include <device/device.h>
#include <device/device_reply_server.h>
#include <device/device_request.h>
#include <mach/message.h>
#include <mach/mig_errors.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graft/device_direct.h"
#include "graft_user.h"
#include "user_bench.h"
#include "user_check.h"
#include "user_device.h"

#define RECORD		512
#define AREA_RECORD	8		/* where the pattern goes */
#define AREA_SIZE	(64 * RECORD)

static mach_port_t dev;

static unsigned char pattern(size_t i)
{
	return (unsigned char)(i * 7 + (i >> 9) + 0x5a);
}

/* The image as found: its CRC for the harness, read whole and in parts. */
static uint64_t image_crc(void)
{
	int status[DEV_STATUS_MAX];
	mach_msg_type_number_t count = DEV_STATUS_MAX;
	io_buf_ptr_t data = 0;
	mach_msg_type_number_t n = 0;
	uint32_t whole, parts = 0;
	long size, records;

	check("get_size", D_SUCCESS,
	      device_get_status(dev, DEV_GET_SIZE, status, &count));
	check("get_size_count", 2, count);
	check("get_size_record_size", RECORD,
	      status[DEV_GET_SIZE_RECORD_SIZE]);
	size = status[DEV_GET_SIZE_DEVICE_SIZE];
	count = DEV_STATUS_MAX;
	check("get_records", D_SUCCESS,
	      device_get_status(dev, DEV_GET_RECORDS, status, &count));
	records = status[DEV_GET_RECORDS_DEVICE_RECORDS];
	check("records_times_record_size_is_size", size, records * RECORD);
	check("read_whole_image", D_SUCCESS,
	      device_read(dev, 0, 0, (int)size, &data, &n));
	check("read_whole_image_count", size, n);
	whole = crc32_update(0, data, n);
	vm_deallocate(mach_task_self(), (vm_address_t)data, n);
	for (long rec = 0; rec < records; rec += 128) {
		long c = records - rec < 128 ? records - rec : 128;

		n = 0;
		if (device_read(dev, 0, rec, (int)(c * RECORD), &data, &n) !=
		    D_SUCCESS || n != c * RECORD) {
			check("read_image_in_parts", D_SUCCESS, -1);
			return size;
		}
		parts = crc32_update(parts, data, n);
		vm_deallocate(mach_task_self(), (vm_address_t)data, n);
	}
	check("whole_and_parts_agree", whole, parts);
	printf("RD0-CRC 0x%08lx\n", (unsigned long)whole);
	return size;
}

/* Write the pattern out of line, read it back out of line. */
static void sync_paths(unsigned char *buf)
{
	io_buf_ptr_t data = 0;
	mach_msg_type_number_t n = 0;
	int written = 0;
	char inband[IO_INBAND_MAX];

	for (size_t i = 0; i < AREA_SIZE; i++)
		buf[i] = pattern(i);
	check("write_out_of_line", D_SUCCESS,
	      device_write(dev, 0, AREA_RECORD, (io_buf_ptr_t)buf, AREA_SIZE,
			   &written));
	check("write_out_of_line_count", AREA_SIZE, written);
	check("read_out_of_line", D_SUCCESS,
	      device_read(dev, 0, AREA_RECORD, AREA_SIZE, &data, &n));
	check("read_out_of_line_count", AREA_SIZE, n);
	check("read_out_of_line_is_pattern", 0, memcmp(data, buf, AREA_SIZE));
	vm_deallocate(mach_task_self(), (vm_address_t)data, n);
	n = sizeof(inband);
	check("read_inband", D_SUCCESS,
	      device_read_inband(dev, 0, AREA_RECORD + 3, 100, inband, &n));
	check("read_inband_count", 100, n);
	check("read_inband_is_pattern", 0,
	      memcmp(inband, buf + 3 * RECORD, 100));
	memset(inband, 0xee, sizeof(inband));
	check("write_inband", D_SUCCESS,
	      device_write_inband(dev, 0, AREA_RECORD + 5, inband, 128,
				  &written));
	check("write_inband_count", 128, written);
	memset(buf + 5 * RECORD, 0xee, 128);
	check("read_after_inband_write", D_SUCCESS,
	      device_read(dev, 0, AREA_RECORD, AREA_SIZE, &data, &n));
	check("inband_write_landed", 0, memcmp(data, buf, AREA_SIZE));
	vm_deallocate(mach_task_self(), (vm_address_t)data, n);
	/* device_read_into, answered at once (rd0 never waits) */
	data = malloc(AREA_SIZE + 7);
	if (data != NULL) {
		check("read_into", D_SUCCESS,
		      device_read_into(dev, 0, AREA_RECORD,
				       (vm_address_t)data + 7, AREA_SIZE,
				       &written));
		check("read_into_count", AREA_SIZE, written);
		check("read_into_is_pattern", 0,
		      memcmp(data + 7, buf, AREA_SIZE));
		check("read_into_zero_bytes", D_SUCCESS,
		      device_read_into(dev, 0, AREA_RECORD,
				       (vm_address_t)data, 0, &written));
		check("read_into_zero_bytes_count", 0, written);
		free(data);
	}
}



static void async_paths(mach_port_t master, const unsigned char *buf,
			mach_port_t port)
{
	static unsigned char twice[AREA_SIZE];

	check("open_request_sent", KERN_SUCCESS,
	      device_open_request(master, port, D_READ, "rd0"));
	check("open_reply", MACH_MSG_SUCCESS,
	      receive_reply(port, device_reply_server));
	check("open_reply_rc", D_SUCCESS, reply.rc);
	check("open_reply_is_the_open_device", dev, reply.device);
	mach_port_deallocate(mach_task_self(), reply.device);

	for (size_t i = 0; i < AREA_SIZE; i++)
		twice[i] = pattern(i * 2);
	check("write_request_sent", KERN_SUCCESS,
	      device_write_request(dev, port, 0, AREA_RECORD,
				   (io_buf_ptr_t)twice, AREA_SIZE));
	check("write_reply", MACH_MSG_SUCCESS,
	      receive_reply(port, device_reply_server));
	check("write_reply_rc", D_SUCCESS, reply.rc);
	check("write_reply_count", AREA_SIZE, reply.written);
	check("read_request_sent", KERN_SUCCESS,
	      device_read_request(dev, port, 0, AREA_RECORD, AREA_SIZE));
	check("read_reply", MACH_MSG_SUCCESS,
	      receive_reply(port, device_reply_server));
	check("read_reply_rc", D_SUCCESS, reply.rc);
	check("read_reply_count", AREA_SIZE, reply.count);
	check("read_reply_is_written_data", 0,
	      reply.count == AREA_SIZE ? memcmp(reply.data, twice, AREA_SIZE) :
	      -1);
	vm_deallocate(mach_task_self(), (vm_address_t)reply.data, reply.count);
	check("read_inband_request_sent", KERN_SUCCESS,
	      device_read_request_inband(dev, port, 0, AREA_RECORD + 1, 64));
	check("read_inband_reply", MACH_MSG_SUCCESS,
	      receive_reply(port, device_reply_server));
	check("read_inband_reply_rc", D_SUCCESS, reply.rc);
	check("read_inband_reply_data", 0,
	      memcmp(reply.inband, twice + RECORD, 64));
	check("write_inband_request_sent", KERN_SUCCESS,
	      device_write_request_inband(dev, port, 0, AREA_RECORD,
					  (const char *)buf, 32));
	check("write_inband_reply", MACH_MSG_SUCCESS,
	      receive_reply(port, device_reply_server));
	check("write_inband_reply_count", 32, reply.written);
	check("read_request_beyond_end_sent", KERN_SUCCESS,
	      device_read_request(dev, port, 0, 1u << 30, RECORD));
	/* The error comes back at once as MIG's short error reply. */
	check("read_reply_beyond_end_is_short", MIG_BAD_ARGUMENTS,
	      receive_reply(port, device_reply_server));
	check("read_reply_beyond_end_rc", D_INVALID_RECNUM,
	      received.error.RetCode);
}

static void bad_inputs(long size)
{
	long records = size / RECORD;
	io_buf_ptr_t data = 0;
	mach_msg_type_number_t n = 0;
	int written = -1;
	filter_t filter[2] = { 0, 0 };
	mach_port_t pager = MACH_PORT_NULL;
	static char page[2 * RECORD];

	check("read_at_end_is_bad_recnum", D_INVALID_RECNUM,
	      device_read(dev, 0, records, RECORD, &data, &n));
	check("read_past_end_is_bad_size", D_INVALID_SIZE,
	      device_read(dev, 0, records - 1, 2 * RECORD, &data, &n));
	check("write_at_end_is_bad_recnum", D_INVALID_RECNUM,
	      device_write(dev, 0, records, page, RECORD, &written));
	check("write_past_end_is_bad_size", D_INVALID_SIZE,
	      device_write(dev, 0, records - 1, page, 2 * RECORD, &written));
	check("unaligned_read_is_bad_size", D_INVALID_SIZE,
	      device_read(dev, 0, 0, 100, &data, &n));
	check("unaligned_write_is_bad_size", D_INVALID_SIZE,
	      device_write(dev, 0, 0, page, 100, &written));
	check("negative_read_is_bad_size", D_INVALID_SIZE,
	      device_read(dev, 0, 0, -RECORD, &data, &n));
	check("huge_read_is_bad_size", D_INVALID_SIZE,
	      device_read(dev, 0, 0, 0x7ffffe00, &data, &n));
	check("inband_read_over_128_is_bad_size", D_INVALID_SIZE,
	      device_read_inband(dev, 0, 0, RECORD, (char *)page, &n));
	check("zero_read", D_SUCCESS, device_read(dev, 0, 0, 0, &data, &n));
	check("zero_read_count", 0, n);
	check("zero_write", D_SUCCESS,
	      device_write(dev, 0, 0, page, 0, &written));
	check("zero_write_count", 0, written);
	check("bad_mode_bits", D_INVALID_OPERATION,
	      device_read(dev, 0x100, 0, RECORD, &data, &n));
	check_status_refusals(dev);
	check("set_filter_refused", D_INVALID_OPERATION,
	      device_set_filter(dev, mach_task_self(),
				MACH_MSG_TYPE_COPY_SEND, 0, filter, 2));
	check("map_refused", D_INVALID_OPERATION,
	      device_map(dev, VM_PROT_READ, 0, RECORD, &pager, 0));
}

static void bench(unsigned long count, const char *mode)
{
	static const int sizes[] = { 4096, 65536 };
	uint64_t *v = malloc(count * sizeof(*v));
	int bad = 0;

	for (int s = 0; s < 2; s++) {
		char name[32];

		for (unsigned long i = 0; i < count; i++) {
			io_buf_ptr_t data = 0;
			mach_msg_type_number_t n = 0;
			uint64_t t0 = tsc();

			bad |= device_read(dev, 0, 0, sizes[s], &data, &n);
			v[i] = tsc() - t0;
			vm_deallocate(mach_task_self(), (vm_address_t)data, n);
		}
		snprintf(name, sizeof(name), "ramdisk.read/%d", sizes[s]);
		bench_print(name, mode, v, count);
	}
	check("bench_reads_succeed", 0, bad);
	free(v);
}

int main(int argc, char **argv)
{
	mach_port_t master = graft_arg_port(argc, argv, "device");
	unsigned long nbench = strtoul(graft_arg(argc, argv, "bench", "0"),
				       NULL, 10);
	mach_port_t reply_port = new_receive();
	unsigned char *buf = malloc(AREA_SIZE);
	long size;

	check("open_rd0", D_SUCCESS,
	      device_open(master, D_READ | D_WRITE, "rd0", &dev));
	size = image_crc();
	check("image_holds_the_test_area", 1,
	      size >= (AREA_RECORD + 64) * RECORD);
	sync_paths(buf);
	async_paths(master, buf, reply_port);
	bad_inputs(size);
	if (nbench > 0)
		bench(nbench, graft_arg(argc, argv, "mode", "wall"));
	printf("USER-DONE %d\n", checks);
	return 0;
}
