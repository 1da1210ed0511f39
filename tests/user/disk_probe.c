/* SPDX-License-Identifier: GPL-2.0-only */
/* A user task that reads, writes and mistreats hd0 and its partitions. */
/*
 * Built against gnumach-dev's headers, MIG user stubs and newlib only.
 * The disk is the harness's image (tests/harness/suites.py): every
 * sector stamped with generation 0 of tests/user/disk_pattern.h, an MBR
 * with two partitions (blocks=, p1=START:COUNT, p2=START:COUNT on the
 * command line, in 512-byte sectors).  mode=check (the default):
 *  1. hd0, opened read-only: its size, then the whole disk read back in
 *     requests of 512 B to 1 MiB, every sector checked (but bad=LBA, the
 *     sector the emulator fails, when given); writes refused;
 *  2. bad=LBA: a read over it fails D_IO_ERROR, reads around it work;
 *  3. hd0s2 read-only: its first blocks, writes refused;
 *  4. hd0s1 read-write: untouched memory written (zeros arrive), then
 *     generation 1 written over all of it, in requests of every size,
 *     from page-aligned and misaligned buffers, then read back; two
 *     requests in flight at once; the bad inputs; GRAFT_DEV_INFO.
 * The harness checks the image after the guest shut down: partition 1
 * holds generation 1, everything else generation 0.
 * mode=lat count=N: N reads and N writes of 512 B, 4, 8, 16 and 64 KiB
 * on hd0s1 for the kernel's disk.cmd.glue / disk.int.glue samples (and,
 * with bench_mode=, the user's view of each call: disk.*.instr/<size>).
 * mode=tput: sequential read (hd0s2: device_read, and device_read_into
 * where the device takes it) and write (hd0s1) throughput for requests
 * of 4 KiB to 1 MiB, BENCH lines in MiB/s (host_get_time).
 */
#include <device/device.h>
#include <device/device_reply_server.h>
#include <device/device_request.h>
#include <mach/message.h>
#include <mach/mig_errors.h>
#include <mach/time_value.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graft/device_direct.h"
#include "graft_user.h"
#include "mach_host.h"
#include "disk_pattern.h"
#include "user_bench.h"
#include "user_check.h"
#include "user_device.h"
#include "user_info.h"

#define S		DISK_SECTOR
#define MIB		(1024 * 1024)

static mach_port_t master;
/* bench_prefix=P: P before the benchmark names (server.: the disk is
 * served by a driver server); bench_disk=D: D/ after the path in the
 * latency names (disk.read.instr/D/4096: the controller's driver). */
static const char *bench_prefix = "", *bench_disk = "";
static unsigned long blocks, p1_start, p1_count, p2_start, p2_count;
static long bad_lba = -1;

/* "START:COUNT" into two numbers; 0 if malformed. */
static int parse_range(const char *s, unsigned long *start,
		       unsigned long *count)
{
	char *end;

	*start = strtoul(s, &end, 10);
	if (*end != ':')
		return 0;
	*count = strtoul(end + 1, &end, 10);
	return *end == '\0' && *count > 0;
}

static mach_port_t open_disk(const char *name, dev_mode_t mode)
{
	mach_port_t dev = MACH_PORT_NULL;
	char what[32];

	snprintf(what, sizeof(what), "open_%s", name);
	check(what, D_SUCCESS, device_open(master, mode, (char *)name, &dev));
	return dev;
}

/* Check @dev's DEV_GET_SIZE and DEV_GET_RECORDS against @records. */
static void check_size(const char *name, mach_port_t dev,
		       unsigned long records)
{
	int status[DEV_STATUS_MAX];
	mach_msg_type_number_t count = DEV_STATUS_MAX;
	char what[48];

	snprintf(what, sizeof(what), "%s_get_size", name);
	check(what, D_SUCCESS,
	      device_get_status(dev, DEV_GET_SIZE, status, &count));
	snprintf(what, sizeof(what), "%s_size_is_records_times_512", name);
	check(what, (long)(records * S), status[DEV_GET_SIZE_DEVICE_SIZE]);
	snprintf(what, sizeof(what), "%s_record_size", name);
	check(what, S, status[DEV_GET_SIZE_RECORD_SIZE]);
	count = DEV_STATUS_MAX;
	snprintf(what, sizeof(what), "%s_get_records", name);
	check(what, D_SUCCESS,
	      device_get_status(dev, DEV_GET_RECORDS, status, &count));
	snprintf(what, sizeof(what), "%s_records", name);
	check(what, (long)records, status[DEV_GET_RECORDS_DEVICE_RECORDS]);
}

/* Whether the @n sectors at @data are generation @gen from disk LBA
 * @lba (sector 0 of the disk: its boot code part, then the signature);
 * prints the first difference. */
static int sectors_are(const uint8_t *data, unsigned long lba,
		       unsigned long n, int gen)
{
	for (unsigned long k = 0; k < n; k++) {
		const uint8_t *s = data + k * S;
		int at;

		if (lba + k == 0)
			at = s[510] != 0x55 || s[511] != 0xaa ? 510 :
			     disk_pattern_diff(s, 0, gen, 0, 446);
		else
			at = disk_pattern_diff(s, lba + k, gen, 0, S);
		if (at >= 0) {
			printf("  LBA %lu byte %d: 0x%02x, generation %d "
			       "wants 0x%02x\n", lba + k, at, s[at], gen,
			       disk_pattern_byte(lba + k, (unsigned int)at,
						 gen));
			return 0;
		}
	}
	return 1;
}

/* Read @n records at @rec of @dev; whether it worked and they are
 * generation @gen of disk LBA @base + @rec. */
static int read_and_check(mach_port_t dev, unsigned long base,
			  unsigned long rec, unsigned long n, int gen)
{
	io_buf_ptr_t data = 0;
	mach_msg_type_number_t got = 0;
	kern_return_t kr;
	int ok;

	kr = device_read(dev, 0, (recnum_t)rec, (int)(n * S), &data, &got);
	if (kr != D_SUCCESS || got != n * S) {
		printf("  read of %lu records at %lu: 0x%x, %u bytes\n", n, rec,
		       kr, got);
		return 0;
	}
	ok = sectors_are((const uint8_t *)data, base + rec, n, gen);
	vm_deallocate(mach_task_self(), (vm_address_t)data, got);
	return ok;
}

/* Request sizes (records) the whole-disk read and the write cycle through. */
static const unsigned long sizes[] = { 1, 8, 16, 32, 128, 2048, 3, 7 };
#define NSIZES	(sizeof(sizes) / sizeof(sizes[0]))

static void whole_disk(mach_port_t hd0)
{
	unsigned long rec = 0, bad = 0, k = 0;
	int ok = 1;

	check_size("hd0", hd0, blocks);
	while (rec < blocks) {
		unsigned long n = sizes[k++ % NSIZES];

		if (n > blocks - rec)
			n = blocks - rec;
		if (bad_lba >= 0 && rec <= (unsigned long)bad_lba &&
		    (unsigned long)bad_lba < rec + n) {
			/* Read around the emulator's bad sector. */
			n = (unsigned long)bad_lba - rec;
			bad = 1;
		}
		if (n > 0 && !read_and_check(hd0, 0, rec, n, 0))
			ok = 0;
		rec += n + bad;
		bad = 0;
	}
	check("hd0_reads_back_the_image_everywhere", 1, ok);
}

static void media_error(mach_port_t hd0)
{
	io_buf_ptr_t data = 0;
	mach_msg_type_number_t got = 0;
	unsigned long lba = (unsigned long)bad_lba;

	check("read_over_the_bad_sector_is_io_error", D_IO_ERROR,
	      device_read(hd0, 0, (recnum_t)(lba - 3), 8 * S, &data, &got));
	check("read_after_the_media_error_works", 1,
	      read_and_check(hd0, 0, lba + 1, 8, 0));
	check("read_before_the_bad_sector_works", 1,
	      read_and_check(hd0, 0, lba - 8, 8, 0));
	check("the_bad_sector_fails_again", D_IO_ERROR,
	      device_read(hd0, 0, (recnum_t)lba, S, &data, &got));
}

/* A buffer of @n records of generation 1 for disk LBA @lba, @shift bytes
 * into a fresh allocation (*@base, to free). */
static uint8_t *gen1_buffer(unsigned long lba, unsigned long n, size_t shift,
			    void **base)
{
	uint8_t *b = malloc(n * S + shift + 4096);
	uint8_t *p;

	*base = b;
	if (b == NULL)
		return NULL;
	p = (uint8_t *)(((uintptr_t)b + 4095) & ~(uintptr_t)4095) + shift;
	for (unsigned long k = 0; k < n; k++)
		disk_pattern_fill(p + k * S, lba + k, 1);
	return p;
}

/* Write generation 1 over @n records at @rec of hd0s1 from a buffer
 * @shift bytes past a page boundary; whether it worked. */
static int write_gen1(mach_port_t p1, unsigned long rec, unsigned long n,
		      size_t shift)
{
	void *base;
	uint8_t *buf = gen1_buffer(p1_start + rec, n, shift, &base);
	int written = -1;
	kern_return_t kr;

	if (buf == NULL)
		return 0;
	kr = device_write(p1, 0, (recnum_t)rec, (io_buf_ptr_t)buf,
			  (mach_msg_type_number_t)(n * S), &written);
	free(base);
	if (kr != D_SUCCESS || written != (int)(n * S)) {
		printf("  write of %lu records at %lu: 0x%x, %d bytes\n", n,
		       rec, kr, written);
		return 0;
	}
	return 1;
}

/* Memory the task never touched travels as no page at all: written, it
 * must reach the disk as zeros (the next writes cover it again). */
static void untouched_pages_write_zeros(mach_port_t p1)
{
	vm_address_t fresh = 0;
	io_buf_ptr_t data = 0;
	mach_msg_type_number_t got = 0;
	int written = -1, zeros = 1;

	check("allocate_untouched_pages", KERN_SUCCESS,
	      vm_allocate(mach_task_self(), &fresh, 4 * 4096, 1));
	check("write_of_untouched_pages", D_SUCCESS,
	      device_write(p1, 0, 16, (io_buf_ptr_t)fresh, 4 * 4096,
			   &written));
	check("read_back_untouched_pages", D_SUCCESS,
	      device_read(p1, 0, 16, 4 * 4096, &data, &got));
	for (mach_msg_type_number_t i = 0; i < got; i++)
		zeros &= ((const uint8_t *)data)[i] == 0;
	check("untouched_pages_reach_the_disk_as_zeros", 1,
	      zeros && got == 4 * 4096);
	vm_deallocate(mach_task_self(), (vm_address_t)data, got);
	vm_deallocate(mach_task_self(), fresh, 4 * 4096);
}

static void partition_1(mach_port_t p1)
{
	static const size_t shifts[] = { 0, 512, 0, 101, 0, 4000 };
	unsigned long rec = 0, k = 0;
	int ok = 1;

	check_size("hd0s1", p1, p1_count);
	check("hd0s1_starts_at_its_first_sector", 1,
	      read_and_check(p1, p1_start, 0, 4, 0));
	untouched_pages_write_zeros(p1);
	while (rec < p1_count) {
		unsigned long n = sizes[k % NSIZES];

		if (n > p1_count - rec)
			n = p1_count - rec;
		if (!write_gen1(p1, rec, n, shifts[k % 6]))
			ok = 0;
		rec += n;
		k++;
	}
	check("hd0s1_written_in_requests_of_every_size", 1, ok);
	ok = 1;
	for (rec = 0; rec < p1_count; rec += 2048) {
		unsigned long n = p1_count - rec < 2048 ? p1_count - rec : 2048;

		if (!read_and_check(p1, p1_start, rec, n, 1))
			ok = 0;
	}
	check("hd0s1_reads_back_what_was_written", 1, ok);
}

/* Two reads in flight at once on @p1, each answered once with its own
 * data.  The module submits them in order; a disk with command queuing
 * (a SCSI disk's tags, NCQ) may finish them in either order. */
static void two_in_flight(mach_port_t p1)
{
	mach_port_t port = new_receive();
	int ok = 1, seen[2] = { 0, 0 };
	unsigned long which;
	uint64_t lba;

	check("first_read_request_sent", KERN_SUCCESS,
	      device_read_request(p1, port, 0, 0, 64 * S));
	check("second_read_request_sent", KERN_SUCCESS,
	      device_read_request(p1, port, 0, 64, 64 * S));
	for (int i = 0; i < 2; i++) {
		if (receive_reply(port, device_reply_server) !=
		    MACH_MSG_SUCCESS || reply.rc != D_SUCCESS ||
		    reply.count != 64 * S) {
			ok = 0;
			continue;
		}
		/* which request: the first sector's LBA stamp says */
		memcpy(&lba, reply.data, sizeof(lba));
		which = lba == p1_start + 64;
		if (sectors_are((const uint8_t *)reply.data,
				p1_start + 64 * which, 64, 1))
			seen[which]++;
		vm_deallocate(mach_task_self(), (vm_address_t)reply.data,
			      reply.count);
	}
	check("two_requests_in_flight_each_answered_with_its_data", 1,
	      ok && seen[0] == 1 && seen[1] == 1);
	mach_port_destroy(mach_task_self(), port);
}

static void bad_inputs(mach_port_t p1)
{
	io_buf_ptr_t data = 0;
	mach_msg_type_number_t got = 0;
	static uint8_t page[2 * S];
	char inband[IO_INBAND_MAX];
	int written = -1;
	vm_address_t big = 0;

	check("read_at_the_end_is_bad_recnum", D_INVALID_RECNUM,
	      device_read(p1, 0, (recnum_t)p1_count, S, &data, &got));
	check("read_across_the_end_is_bad_recnum", D_INVALID_RECNUM,
	      device_read(p1, 0, (recnum_t)(p1_count - 1), 2 * S, &data,
			  &got));
	check("read_far_past_the_end_is_bad_recnum", D_INVALID_RECNUM,
	      device_read(p1, 0, 0xfffffff0u, S, &data, &got));
	/* Would land on partition 2's first sector: the host checks it
	 * did not. */
	check("write_across_the_end_is_bad_recnum", D_INVALID_RECNUM,
	      device_write(p1, 0, (recnum_t)(p1_count - 1),
			   (io_buf_ptr_t)page, 2 * S, &written));
	check("unaligned_read_size_is_bad_size", D_INVALID_SIZE,
	      device_read(p1, 0, 0, 100, &data, &got));
	check("unaligned_write_size_is_bad_size", D_INVALID_SIZE,
	      device_write(p1, 0, 0, (io_buf_ptr_t)page, S + 1, &written));
	check("zero_read_is_bad_size", D_INVALID_SIZE,
	      device_read(p1, 0, 0, 0, &data, &got));
	check("zero_write_is_bad_size", D_INVALID_SIZE,
	      device_write(p1, 0, 0, (io_buf_ptr_t)page, 0, &written));
	check("read_of_64_mib_is_bad_size", D_INVALID_SIZE,
	      device_read(p1, 0, 0, 64 * MIB, &data, &got));
	check("allocate_64_mib", KERN_SUCCESS,
	      vm_allocate(mach_task_self(), &big, 64 * MIB, 1));
	check("write_of_64_mib_is_bad_size", D_INVALID_SIZE,
	      device_write(p1, 0, 0, (io_buf_ptr_t)big, 64 * MIB, &written));
	vm_deallocate(mach_task_self(), big, 64 * MIB);
	got = sizeof(inband);
	check("inband_read", D_SUCCESS,
	      device_read_inband(p1, 0, 5, 100, inband, &got));
	check("inband_read_count", 100, got);
	check("inband_read_is_the_start_of_the_record", 1,
	      disk_pattern_diff((const uint8_t *)inband, p1_start + 5, 1, 0,
				100) < 0);
	check("inband_read_past_the_end_is_bad_recnum", D_INVALID_RECNUM,
	      device_read_inband(p1, 0, (recnum_t)p1_count, 100, inband,
				 &got));
	check("inband_write_is_bad_size", D_INVALID_SIZE,
	      device_write_inband(p1, 0, 0, inband, 100, &written));
	check_status_refusals(p1);
	check("no_such_partition", D_NO_SUCH_DEVICE,
	      device_open(master, D_READ, "hd0s3", &p1));
}

/*
 * device_read_into (defs/device_direct.defs) on hd0s2: the data lands in
 * the caller's own memory, untouched or written, at any offset in a
 * page, and nothing around it changes; every bad input is refused with
 * its D_* code.  A disk a driver server serves does not take it (the
 * proxy's reads bring the server's data): D_INVALID_OPERATION, the
 * answer of every device without dev_ops.read_into.
 */
static void read_into(mach_port_t p2)
{
	vm_address_t fresh = 0, ro = 0;
	uint8_t *buf = malloc(3 * 4096);
	int got = -1, around = 1;
	mach_msg_type_number_t n = GRAFT_DEV_INFO_COUNT;
	struct graft_dev_info info;

	check("allocate_untouched_memory", KERN_SUCCESS,
	      vm_allocate(mach_task_self(), &fresh, 4 * 4096, 1));
	if (info_read(p2, &info, &n) == D_SUCCESS &&
	    info.mode == GRAFT_DEV_SERVER) {
		check("read_into_a_servers_disk_is_invalid_operation",
		      D_INVALID_OPERATION,
		      device_read_into(p2, 0, 0, fresh, 16 * S, &got));
		vm_deallocate(mach_task_self(), fresh, 4 * 4096);
		free(buf);
		return;
	}
	check("read_into_untouched_memory", D_SUCCESS,
	      device_read_into(p2, 0, 0, fresh, 16 * S, &got));
	check("read_into_untouched_memory_count", 16 * S, got);
	check("read_into_untouched_memory_data", 1,
	      sectors_are((const uint8_t *)fresh, p2_start, 16, 0));
	if (buf != NULL) {
		memset(buf, 0xee, 3 * 4096);
		check("read_into_misaligned_memory", D_SUCCESS,
		      device_read_into(p2, 0, 16, (vm_address_t)buf + 100,
				       8 * S, &got));
		check("read_into_misaligned_memory_data", 1,
		      sectors_are(buf + 100, p2_start + 16, 8, 0));
		for (size_t i = 0; i < 100; i++)
			around &= buf[i] == 0xee &&
				  buf[100 + 8 * S + i] == 0xee;
		check("read_into_leaves_the_bytes_around", 1, around);
	}
	check("read_into_master_port_is_no_device", D_NO_SUCH_DEVICE,
	      device_read_into(master, 0, 0, fresh, S, &got));
	check("read_into_bad_mode_is_invalid_operation",
	      D_INVALID_OPERATION,
	      device_read_into(p2, 0x100, 0, fresh, S, &got));
	check("read_into_zero_bytes_is_bad_size", D_INVALID_SIZE,
	      device_read_into(p2, 0, 0, fresh, 0, &got));
	check("read_into_negative_bytes_is_bad_size", D_INVALID_SIZE,
	      device_read_into(p2, 0, 0, fresh, -S, &got));
	check("read_into_unaligned_size_is_bad_size", D_INVALID_SIZE,
	      device_read_into(p2, 0, 0, fresh, 100, &got));
	check("read_into_64_mib_is_bad_size", D_INVALID_SIZE,
	      device_read_into(p2, 0, 0, fresh, 64 * MIB, &got));
	check("read_into_past_the_end_is_bad_recnum", D_INVALID_RECNUM,
	      device_read_into(p2, 0, (recnum_t)p2_count, fresh, S, &got));
	check("read_into_past_the_memory_is_bad_size", D_INVALID_SIZE,
	      device_read_into(p2, 0, 0, fresh + 3 * 4096, 2 * 4096,
			       &got));
	check("read_into_kernel_space_is_bad_size", D_INVALID_SIZE,
	      device_read_into(p2, 0, 0, (vm_address_t)0xffff800000000000ull,
			       S, &got));
	check("allocate_read_only_memory", KERN_SUCCESS,
	      vm_allocate(mach_task_self(), &ro, 4096, 1));
	check("protect_read_only_memory", KERN_SUCCESS,
	      vm_protect(mach_task_self(), ro, 4096, 0, VM_PROT_READ));
	check("read_into_read_only_memory_is_read_only", D_READ_ONLY,
	      device_read_into(p2, 0, 0, ro, S, &got));
	vm_deallocate(mach_task_self(), ro, 4096);
	vm_deallocate(mach_task_self(), fresh, 4 * 4096);
	free(buf);
}

static void read_only(mach_port_t dev, const char *name)
{
	static uint8_t page[S];
	int written = -1;
	char what[48];

	snprintf(what, sizeof(what), "write_to_%s_opened_read_only", name);
	check(what, D_READ_ONLY,
	      device_write(dev, 0, 1, (io_buf_ptr_t)page, S, &written));
}

/*
 * GRAFT_DEV_INFO of hd0s1 after the reads and writes above: a short
 * buffer refused; in the kernel, the adapter's driver (ata_piix, ahci,
 * sym53c8xx, vmw_pvscsi, virtio_scsi, virtio_blk, nvme, floppy,
 * usb-storage (a USB disk's adapter is its interface), or the lxblk suite's
 * disk_fake), the partition's own counters and its disk's two probes
 * timing the requests; through a driver
 * server, the server's mode and a host name at least (the kernel says
 * those; the rest is the server's to tell).
 */
static void info_checks(mach_port_t p1)
{
	int st[DEV_STATUS_MAX];
	mach_msg_type_number_t n = GRAFT_DEV_INFO_COUNT - 1;
	struct graft_dev_info info;
	const struct graft_dev_probe *p;

	check("info_short_count", D_INVALID_SIZE,
	      device_get_status(p1, GRAFT_DEV_INFO, st, &n));
	check("info", D_SUCCESS, info_read(p1, &info, &n));
	check("info_count", GRAFT_DEV_INFO_COUNT, n);
	printf("# hd0s1: %s, mode %u (%s)\n", info.driver, info.mode,
	       info.host);
	if (info.mode == GRAFT_DEV_SERVER) {
		check("info_server_named", 1, info.host[0] != '\0' &&
		      strcmp(info.host, "kernel") != 0);
		return;
	}
	check("info_mode_kernel", GRAFT_DEV_KERNEL, info.mode);
	check("info_host_kernel", 0, strcmp(info.host, "kernel"));
	check("info_driver_is_the_adapters", 1,
	      strcmp(info.driver, "ata_piix") == 0 ||
	      strcmp(info.driver, "ahci") == 0 ||
	      strcmp(info.driver, "virtio_scsi") == 0 ||
	      strcmp(info.driver, "virtio_blk") == 0 ||
	      strcmp(info.driver, "nvme") == 0 ||
	      strcmp(info.driver, "floppy") == 0 ||
	      strcmp(info.driver, "sym53c8xx") == 0 ||
	      strcmp(info.driver, "vmw_pvscsi") == 0 ||
	      strcmp(info.driver, "usb-storage") == 0 ||
	      strcmp(info.driver, "disk_fake") == 0);
	check("info_reads_counted", 1, info_counter(&info, "reads") > 0 &&
	      info_counter(&info, "read_bytes") >= S * info_counter(&info, "reads"));
	check("info_writes_counted", 1, info_counter(&info, "writes") > 0 &&
	      info_counter(&info, "write_bytes") >= S * info_counter(&info, "writes"));
	check("info_errors_named", 1, info_counter(&info, "errors") >= 0);
	check("info_probes", 2, info.nprobes);
	for (uint32_t i = 0; i < 2 && i < info.nprobes; i++) {
		char what[48];

		p = &info.probes[i];
		snprintf(what, sizeof(what), "info_probe_%s", i ? "int" : "cmd");
		check(what, 0, strcmp(p->name, i ? "disk.int.glue" :
					       "disk.cmd.glue"));
		snprintf(what, sizeof(what), "info_probe_%s_timed",
			 i ? "int" : "cmd");
		check(what, 1, info_probe_ok(p, 1));
		printf("# %s: %llu samples, median %llu\n", p->name,
		       (unsigned long long)p->count,
		       (unsigned long long)p->median);
	}
}

static void run_checks(void)
{
	mach_port_t hd0 = open_disk("hd0", D_READ);
	mach_port_t p1, p2;

	whole_disk(hd0);
	read_only(hd0, "hd0");
	if (bad_lba >= 0)
		media_error(hd0);
	p2 = open_disk("hd0s2", D_READ);
	check_size("hd0s2", p2, p2_count);
	check("hd0s2_starts_at_its_first_sector", 1,
	      read_and_check(p2, p2_start, 0, 16, 0));
	read_only(p2, "hd0s2");
	read_into(p2);
	p1 = open_disk("hd0s1", D_READ | D_WRITE);
	partition_1(p1);
	two_in_flight(p1);
	bad_inputs(p1);
	info_checks(p1);
	check("hd0_still_reads_after_everything", 1,
	      read_and_check(hd0, 0, p2_start, 8, 0));
	device_close(hd0);
	device_close(p1);
	device_close(p2);
}

/*
 * mode=lat: reads and writes of each size for the kernel's samples.
 * With bench_mode=MODE each call is timed too, from the call to its
 * reply (one fenced TSC pair; a read's up to the deallocation of its
 * data returned, by the syscall_vm_deallocate trap: the client's whole
 * cost of a read, as Linux's pread into a buffer of its own):
 * disk.read.instr/<size> and
 * disk.write.instr/<size>.
 */
#define LAT_MAX	1024

static void latency(unsigned long n, const char *bench_mode)
{
	static const unsigned long lens[] = { 512, 4096, 8192, 16384, 65536 };
	static uint64_t rd[LAT_MAX], wr[LAT_MAX];
	mach_port_t p1 = open_disk("hd0s1", D_READ | D_WRITE);
	void *base;
	uint8_t *buf = gen1_buffer(p1_start, 128, 0, &base);
	int bad = 0;

	for (int s = 0; s < 5 && buf != NULL; s++) {
		char name[64];

		for (unsigned long i = 0; i < n; i++) {
			io_buf_ptr_t data = 0;
			mach_msg_type_number_t got = 0;
			int written = 0;
			uint64_t t0 = tsc(), t1;

			bad |= device_read(p1, 0, 0, (int)lens[s], &data,
					   &got);
			syscall_vm_deallocate(mach_task_self(),
					      (vm_address_t)data, got);
			t1 = tsc();
			bad |= device_write(p1, 0, 0, (io_buf_ptr_t)buf,
					    (mach_msg_type_number_t)lens[s],
					    &written);
			if (i < LAT_MAX) {
				rd[i] = t1 - t0;
				wr[i] = tsc() - t1;
			}
		}
		if (bench_mode == NULL || n == 0)
			continue;
		snprintf(name, sizeof(name), "%sdisk.read.instr/%s%s%lu",
			 bench_prefix, bench_disk, *bench_disk ? "/" : "",
			 lens[s]);
		bench_print(name, bench_mode, rd, n < LAT_MAX ? n : LAT_MAX);
		snprintf(name, sizeof(name), "%sdisk.write.instr/%s%s%lu",
			 bench_prefix, bench_disk, *bench_disk ? "/" : "",
			 lens[s]);
		bench_print(name, bench_mode, wr, n < LAT_MAX ? n : LAT_MAX);
	}
	check("latency_requests_succeed", 0, bad);
	free(base);
	device_close(p1);
}

static double now_us(void)
{
	time_value_t t;

	if (host_get_time(mach_host_self(), &t) != KERN_SUCCESS)
		return 0;
	return (double)t.seconds * 1e6 + (double)t.microseconds;
}

#define TPUT_PASSES	9
#define TPUT_BYTES	(2 * MIB)	/* a sweep */
#define TPUT_PASS_MIN	50000.0		/* µs: a pass sweeps until this long */

/* One request of a pass: device_read (@kind 0, the data out of line,
 * unmapped at once with the syscall_vm_deallocate trap), device_write
 * (1) or device_read_into @into (2). */
static int tput_request(int kind, mach_port_t p1, mach_port_t p2,
			recnum_t rec, unsigned long len, uint8_t *buf,
			vm_address_t into)
{
	io_buf_ptr_t data = 0;
	mach_msg_type_number_t got = 0;
	int done = 0, bad;

	if (kind == 1)
		return device_write(p1, 0, rec, (io_buf_ptr_t)buf,
				    (mach_msg_type_number_t)len, &done);
	if (kind == 2)
		return device_read_into(p2, 0, rec, into, (int)len, &done);
	bad = device_read(p2, 0, rec, (int)len, &data, &got);
	syscall_vm_deallocate(mach_task_self(), (vm_address_t)data, got);
	return bad;
}

/*
 * mode=tput: sequential reads of hd0s2 (disk.read.seq: device_read;
 * disk.read.into.seq: device_read_into a buffer of the client's, when
 * the device takes it) and writes of hd0s1 (disk.write.seq): each pass
 * sweeps TPUT_BYTES again until it took TPUT_PASS_MIN, as lxbench's seq.
 */
static void throughput(void)
{
	static const unsigned long lens[] = { 4096, 16384, 65536, 262144,
					      1048576 };
	static const char *const kinds[] = { "read", "write", "read.into" };
	mach_port_t p1 = open_disk("hd0s1", D_READ | D_WRITE);
	mach_port_t p2 = open_disk("hd0s2", D_READ);
	void *base;
	uint8_t *buf = gen1_buffer(p1_start, 2048, 0, &base);
	vm_address_t into = 0;
	double rate[TPUT_PASSES];
	int bad = 0, got = 0, kinds_run = 2;

	if (vm_allocate(mach_task_self(), &into, MIB, 1) == KERN_SUCCESS &&
	    device_read_into(p2, 0, 0, into, S, &got) == D_SUCCESS)
		kinds_run = 3;
	for (int s = 0; s < 5 && buf != NULL; s++) {
		for (int w = 0; w < kinds_run; w++) {
			char name[64];

			for (int pass = 0; pass < TPUT_PASSES; pass++) {
				double t0 = now_us(), t1, moved = 0;

				do {
					for (unsigned long off = 0;
					     off < TPUT_BYTES; off += lens[s])
						bad |= tput_request(
							w, p1, p2,
							(recnum_t)(off / S),
							lens[s], buf, into);
					moved += TPUT_BYTES;
					t1 = now_us();
				} while (t1 - t0 < TPUT_PASS_MIN);
				rate[pass] = moved / (t1 - t0) * 1e6 / MIB;
			}
			snprintf(name, sizeof(name), "%sdisk.%s.seq/%lu",
				 bench_prefix, kinds[w], lens[s]);
			bench_print_rates(name, "MiB/s", rate, TPUT_PASSES);
		}
	}
	check("throughput_requests_succeed", 0, bad);
	vm_deallocate(mach_task_self(), into, MIB);
	free(base);
	device_close(p1);
	device_close(p2);
}

int main(int argc, char **argv)
{
	const char *mode = graft_arg(argc, argv, "mode", "check");
	const char *bad = graft_arg(argc, argv, "bad", NULL);

	master = graft_arg_port(argc, argv, "device");
	bench_prefix = graft_arg(argc, argv, "bench_prefix", "");
	bench_disk = graft_arg(argc, argv, "bench_disk", "");
	blocks = strtoul(graft_arg(argc, argv, "blocks", "0"), NULL, 10);
	if (bad != NULL)
		bad_lba = strtol(bad, NULL, 10);
	check("arguments_name_the_image", 1,
	      blocks > 0 &&
	      parse_range(graft_arg(argc, argv, "p1", ""), &p1_start,
			  &p1_count) &&
	      parse_range(graft_arg(argc, argv, "p2", ""), &p2_start,
			  &p2_count));
	if (strcmp(mode, "lat") == 0)
		latency(strtoul(graft_arg(argc, argv, "count", "100"),
				NULL, 10),
			graft_arg(argc, argv, "bench_mode", NULL));
	else if (strcmp(mode, "tput") == 0)
		throughput();
	else
		run_checks();
	printf("USER-DONE %d\n", checks);
	return 0;
}
