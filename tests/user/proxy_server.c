/* SPDX-License-Identifier: GPL-2.0-only */
/* A fake driver server: publishes a RAM disk and a loop-back NIC through proxy.defs and serves device.defs. */
/*
 * "proxy_server mode=M device=${device-port}" (suite "device-proxy",
 * started with tests/user/proxy_probe.c as its client; both share a
 * bootstrap port whose receive right is this task's).
 *   serve  publishes "fake0" (a RAM disk of 64 records of 512 bytes,
 *          DEV_GET_SIZE, DEV_GET_RECORDS and flavour 77 as its status; set_status of 77
 *          republishes the status with the new value; GRAFT_DEV_INFO
 *          answered with a record that says "kernel") and "fakeeth0"
 *          (writes looped back as proxy_net_input frames; GRAFT_DEV_INFO
 *          refused); sends the
 *          kernel two frames of bad sizes; serves until the client's
 *          PROXY_QUIT message on the bootstrap port
 *   bad    publishes "fake0" and answers reads and writes wrongly by
 *          record: 1 a write's reply to a read, 2 more bytes than asked,
 *          3 more bytes written than given, 4 the reply right destroyed,
 *          5 a code outside D_*; other records as serve; and
 *          GRAFT_DEV_INFO wrongly by call (PROXY_INFO_*), then well
 *   die    publishes "fake0", keeps the first two requests unanswered,
 *          then exits
 *   lend   claims the VGA function (nobody's: no Linux world runs) with
 *          bus mastering on and names its direct map through the claim
 *          (claim_direct_map), so the kernel lends it the pages of
 *          fake0's reads and writes (proxy_pages.defs), which it serves
 *          in place; misbehaves at records 3, 4 and 5 as bad does, then
 *          finds its function's bus mastering switched off (the kernel
 *          stops a server's devices when a lent request ends unanswered);
 *          keeps the request of record PROXY_LEND_HOLD and exits
 *   flaky  (supervised: restart=N) publishes "fake0" and "fakeeth0"
 *          (its frames marked as in flaky_frame) and answers
 *          D_IO_ERROR to the first read or write of PROXY_FLAKY_ONCE
 *          this instance gets and to every one of PROXY_FLAKY_ALWAYS,
 *          D_NO_SUCH_DEVICE to every one of PROXY_FLAKY_GONE and,
 *          after a set_status of PROXY_FLAKY_BREAK or a call of
 *          PROXY_FLAKY_POISON, to every one, D_IO_ERROR to every
 *          write after one of PROXY_FLAKY_BREAK_WRITES,
 *          D_INVALID_RECNUM to every one of PROXY_FLAKY_RANGE;
 *          serves until it is ended
 *   liar   (supervised: restart=N verify=1) publishes "fake0", whose
 *          records start with proxy_liar_pattern's bytes, with its direct
 *          map named as in lend; after a set_status of PROXY_LIAR_WRITES
 *          it flips the first byte of every write it stores, after one of
 *          PROXY_LIAR_READS of every read it answers, and always of the
 *          reads of PROXY_LIAR_ALWAYS, answering success all the same;
 *          after one of PROXY_LIAR_FAIL it fails the next read or write
 *          with D_IO_ERROR; after one of PROXY_LIAR_MISPLACE it reads
 *          and writes every record one record further;
 *          serves until it is ended
 * Its own failures print "SERVER-FAIL ..."; "SERVER-READY" once
 * published, "SERVER-DONE" at the end.
 */
#include <device/device.h>
#include <device/device_reply.h>
#include <device/device_server.h>
#include <mach/message.h>
#include <mach/mig_errors.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graft/claim.h"
#include "graft/dev_info.h"
#include "graft/proxy.h"
#include "graft/proxy_pages_server.h"
#include "graft_user.h"
#include "mach_host.h"
#include "mach_interface.h"
#include "proxy_protocol.h"
#include "user_port.h"

boolean_t device_server(mach_msg_header_t *in, mach_msg_header_t *out);
boolean_t proxy_pages_server(mach_msg_header_t *in, mach_msg_header_t *out);

#define RECORD		512
#define RECORDS		PROXY_DISK_RECORDS
#define DISK_BYTES	(RECORD * RECORDS)

#define PAGE		4096ul
#define VGA_SLOT	2		/* QEMU's -M pc: 00:02.0 */
#define PCI_COMMAND	0x04
#define COMMAND_MASTER	0x4
#define DIRECT_BASE	(1ul << 40)
#define SECTION		(128ul << 20)

static char disk[DISK_BYTES];
static mach_port_t disk_port, eth_port, eth_proxy, disk_proxy, vga;
static int mode_bad, mode_die, mode_lend, mode_flaky, mode_liar, held;
static int flavor77, dropped, flaky_once_seen, flaky_broken;
static int flaky_writes_broken, flaky_frame_once_seen;
static int liar_writes, liar_reads, liar_fail_next, liar_misplace;

static void server_expect(const char *what, long expected, long got)
{
	if (expected != got)
		printf("SERVER-FAIL %s: expected %ld, got %ld\n", what,
		       expected, got);
	fflush(stdout);
}

#define DISK_STATUS_INTS	14

static void disk_status(int *s)
{
	s[0] = DEV_GET_SIZE;
	s[1] = PROXY_STATUS_AT_LEAST_SIZE;
	s[2] = 2;
	s[3] = DISK_BYTES;
	s[4] = RECORD;
	s[5] = DEV_GET_RECORDS;
	s[6] = PROXY_STATUS_AT_LEAST_SIZE;
	s[7] = 2;
	s[8] = RECORDS;
	s[9] = RECORD;
	s[10] = PROXY_TEST_FLAVOR;
	s[11] = PROXY_STATUS_AT_LEAST_SIZE;
	s[12] = 1;
	s[13] = flavor77;
}

/* In die mode, and in lend mode for record PROXY_LEND_HOLD: hold the
 * request (its reply right stays ours). */
static int hold(recnum_t recnum)
{
	if (!mode_die && !(mode_lend && recnum == PROXY_LEND_HOLD))
		return 0;
	held++;
	return 1;
}

/* D_SUCCESS if @count bytes at record @recnum lie on the disk. */
static kern_return_t disk_range(recnum_t recnum, size_t count)
{
	if (recnum >= RECORDS || count > DISK_BYTES - recnum * RECORD)
		return D_INVALID_RECNUM;
	return D_SUCCESS;
}

/* Misbehave for @recnum in bad mode, answering through @reply: the
 * code to return (MIG_NO_REPLY when answered here), or 0 to serve. */
static kern_return_t misbehave(mach_port_t reply, mach_msg_type_name_t poly,
			       recnum_t recnum)
{
	if (!mode_bad && !mode_lend)
		return 0;
	if (recnum == PROXY_BAD_WRONG_ID) {
		server_expect("wrong_id_sent", KERN_SUCCESS,
			      ds_device_write_reply(reply, poly, D_SUCCESS,
						    0));
		return MIG_NO_REPLY;
	}
	if (recnum == PROXY_BAD_DROP) {
		mach_port_deallocate(mach_task_self(), reply);
		dropped = 1;
		return MIG_NO_REPLY;
	}
	if (recnum == PROXY_BAD_CODE)
		return 12345;
	return 0;
}

/* In flaky mode, the code this instance fails a call at @recnum with
 * (a write if @write), or 0. */
static kern_return_t flaky(recnum_t recnum, int write)
{
	if (!mode_flaky)
		return 0;
	if (recnum == PROXY_FLAKY_POISON)
		flaky_broken = 1;
	if (flaky_broken || recnum == PROXY_FLAKY_GONE)
		return D_NO_SUCH_DEVICE;
	if (write && flaky_writes_broken)
		return D_IO_ERROR;
	if (recnum == PROXY_FLAKY_RANGE)
		return D_INVALID_RECNUM;
	if (recnum == PROXY_FLAKY_ONCE && flaky_once_seen++ == 0)
		return D_IO_ERROR;
	return recnum == PROXY_FLAKY_ALWAYS ? D_IO_ERROR : 0;
}

/* In flaky mode, the code this instance fails a frame of @count bytes
 * at @data with, or 0: its first byte after the Ethernet header marks
 * it as a record number marks a disk's call, and PROXY_FLAKY_GONE's
 * frames are answered D_DEVICE_DOWN (no link). */
static kern_return_t flaky_frame(const char *data, size_t count)
{
	unsigned char mark;

	if (!mode_flaky || count <= ETH_MIN)
		return 0;
	mark = (unsigned char)data[ETH_MIN];
	if (mark == PROXY_FLAKY_GONE)
		return D_DEVICE_DOWN;
	if (mark == PROXY_FLAKY_ONCE && flaky_frame_once_seen++ == 0)
		return D_INVALID_SIZE;
	return mark == PROXY_FLAKY_ALWAYS ? D_IO_ERROR : 0;
}

/* In liar mode, whether this instance flips a read of @recnum. */
static int lies_reading(recnum_t recnum)
{
	return mode_liar && (liar_reads || recnum == PROXY_LIAR_ALWAYS);
}

/* In liar mode, where this instance reads and writes record @recnum:
 * one record further once told to misplace. */
static recnum_t placed(recnum_t recnum)
{
	return mode_liar && liar_misplace && recnum + 1 < RECORDS ?
	       recnum + 1 : recnum;
}

/* In liar mode, a write at @recnum stored: flipped if told to. */
static void liar_stored(recnum_t recnum)
{
	if (mode_liar && liar_writes)
		disk[recnum * RECORD] ^= (char)0xff;
}

/* The start of a read or write: MIG_NO_REPLY (held, or answered by a
 * misbehaviour), a misbehaviour's code, or 0 to serve it. */
static kern_return_t begin(mach_port_t reply, mach_msg_type_name_t poly,
			   recnum_t recnum, int write)
{
	kern_return_t fails = flaky(recnum, write);

	if (mode_liar && liar_fail_next) {
		liar_fail_next = 0;
		fails = D_IO_ERROR;
	}
	if (hold(recnum))
		return MIG_NO_REPLY;
	if (fails != 0)
		return fails;
	return misbehave(reply, poly, recnum);
}

kern_return_t ds_device_open(mach_port_t master, mach_port_t reply,
			     mach_msg_type_name_t poly, dev_mode_t mode,
			     const_dev_name_t name, mach_port_t *device,
			     mach_msg_type_name_t *devicePoly)
{
	(void)master; (void)reply; (void)poly; (void)mode; (void)name;
	(void)device; (void)devicePoly;
	printf("SERVER-FAIL the kernel forwarded an open\n");
	return D_INVALID_OPERATION;
}

kern_return_t ds_device_close(mach_port_t device)
{
	(void)device;
	printf("SERVER-FAIL the kernel forwarded a close\n");
	return D_INVALID_OPERATION;
}

/* Write @count bytes of @data at @recnum; *@written set. */
static kern_return_t do_write(mach_port_t device, recnum_t recnum,
			      const char *data, size_t count, int *written)
{
	if (device == eth_port) {
		kern_return_t fails = flaky_frame(data, count);

		if (fails != 0)
			return fails;
		/* looped back: the frame as received */
		proxy_net_input(eth_proxy, (char *)data, count);
		*written = (int)count;
		return D_SUCCESS;
	}
	recnum = placed(recnum);
	if (disk_range(recnum, count) != D_SUCCESS)
		return D_INVALID_RECNUM;
	memcpy(disk + recnum * RECORD, data, count);
	liar_stored(recnum);
	*written = (int)count + (mode_bad && recnum == PROXY_BAD_WRITTEN);
	return D_SUCCESS;
}

kern_return_t ds_device_write(mach_port_t device, mach_port_t reply,
			      mach_msg_type_name_t poly, dev_mode_t mode,
			      recnum_t recnum, io_buf_ptr_t data,
			      mach_msg_type_number_t count, int *written)
{
	kern_return_t kr;

	(void)mode;
	if (mode_lend)
		printf("SERVER-FAIL a write came without its pages lent\n");
	kr = begin(reply, poly, recnum, 1);
	if (kr == 0)
		kr = do_write(device, recnum, data, count, written);
	vm_deallocate(mach_task_self(), (vm_address_t)data, count);
	return kr;
}

kern_return_t ds_device_write_inband(mach_port_t device, mach_port_t reply,
				     mach_msg_type_name_t poly,
				     dev_mode_t mode, recnum_t recnum,
				     const io_buf_ptr_inband_t data,
				     mach_msg_type_number_t count,
				     int *written)
{
	kern_return_t kr;

	(void)mode;
	kr = begin(reply, poly, recnum, 1);
	return kr != 0 ? kr : do_write(device, recnum, data, count, written);
}

kern_return_t ds_device_read(mach_port_t device, mach_port_t reply,
			     mach_msg_type_name_t poly, dev_mode_t mode,
			     recnum_t recnum, int wanted, io_buf_ptr_t *data,
			     mach_msg_type_number_t *count)
{
	kern_return_t kr;
	size_t n = (size_t)wanted;
	vm_address_t buf = 0;

	(void)mode;
	if (mode_lend)
		printf("SERVER-FAIL a read came without its pages lent\n");
	kr = begin(reply, poly, recnum, 0);
	if (kr != 0)
		return kr;
	recnum = placed(recnum);
	if (device != disk_port || wanted < 0 ||
	    disk_range(recnum, n) != D_SUCCESS)
		return D_INVALID_RECNUM;
	if (mode_bad && recnum == PROXY_BAD_MORE && n + RECORD <= DISK_BYTES)
		n += RECORD;
	/* The reply takes the pages (device.defs deallocates them). */
	if (n > 0 && vm_allocate(mach_task_self(), &buf, n, TRUE) !=
	    KERN_SUCCESS)
		return D_NO_MEMORY;
	memcpy((char *)buf, disk + recnum * RECORD, n);
	if (n > 0 && lies_reading(recnum))
		*(char *)buf ^= (char)0xff;
	*data = (io_buf_ptr_t)buf;
	*count = (mach_msg_type_number_t)n;
	return D_SUCCESS;
}

kern_return_t ds_device_read_inband(mach_port_t device, mach_port_t reply,
				    mach_msg_type_name_t poly, dev_mode_t mode,
				    recnum_t recnum, int wanted,
				    io_buf_ptr_inband_t data,
				    mach_msg_type_number_t *count)
{
	kern_return_t kr;
	size_t n = (size_t)wanted;

	(void)mode;
	kr = begin(reply, poly, recnum, 0);
	if (kr != 0)
		return kr;
	recnum = placed(recnum);
	if (device != disk_port || wanted < 0 || n > IO_INBAND_MAX ||
	    disk_range(recnum, n) != D_SUCCESS)
		return D_INVALID_RECNUM;
	if (mode_bad && recnum == PROXY_BAD_MORE && n < IO_INBAND_MAX)
		n++;
	memcpy(data, disk + recnum * RECORD, n);
	if (n > 0 && lies_reading(recnum))
		data[0] ^= (char)0xff;
	*count = (mach_msg_type_number_t)n;
	return D_SUCCESS;
}

/* Flavour 77 of fake0: its new value republished as the kept status. */
kern_return_t ds_device_set_status(mach_port_t device, dev_flavor_t flavor,
				   const dev_status_t status,
				   mach_msg_type_number_t count)
{
	int s[DISK_STATUS_INTS];

	if (hold(0))
		return MIG_NO_REPLY;
	if (mode_flaky && device == disk_port &&
	    (flavor == PROXY_FLAKY_BREAK ||
	     flavor == PROXY_FLAKY_BREAK_WRITES)) {
		flaky_broken |= flavor == PROXY_FLAKY_BREAK;
		flaky_writes_broken |= flavor == PROXY_FLAKY_BREAK_WRITES;
		return D_INVALID_OPERATION;
	}
	if (mode_liar && device == disk_port &&
	    (flavor == PROXY_LIAR_WRITES || flavor == PROXY_LIAR_READS ||
	     flavor == PROXY_LIAR_FAIL || flavor == PROXY_LIAR_MISPLACE)) {
		liar_writes |= flavor == PROXY_LIAR_WRITES;
		liar_reads |= flavor == PROXY_LIAR_READS;
		liar_fail_next |= flavor == PROXY_LIAR_FAIL;
		liar_misplace |= flavor == PROXY_LIAR_MISPLACE;
		return D_INVALID_OPERATION;
	}
	if (device != disk_port || flavor != PROXY_TEST_FLAVOR || count != 1)
		return D_INVALID_OPERATION;
	flavor77 = status[0];
	disk_status(s);
	proxy_status_set(disk_proxy, s, DISK_STATUS_INTS);
	return D_SUCCESS;
}

/* GRAFT_DEV_INFO, the one flavour the kernel forwards: fake0's record
 * says "kernel" (the kernel must say where it is served), counting the
 * calls; fakeeth0 does not know it (the kernel answers alone).  In bad
 * mode the calls answer wrongly in turn (PROXY_INFO_*), then well. */
kern_return_t ds_device_get_status(mach_port_t device, dev_flavor_t flavor,
				   dev_status_t status,
				   mach_msg_type_number_t *count)
{
	static unsigned int calls;
	struct graft_dev_info info;
	mach_msg_type_number_t n = GRAFT_DEV_INFO_COUNT;

	if (flavor != GRAFT_DEV_INFO) {
		printf("SERVER-FAIL the kernel forwarded flavour %d\n",
		       flavor);
		return D_INVALID_OPERATION;
	}
	server_expect("info_room", GRAFT_DEV_INFO_COUNT, *count);
	if (device != disk_port)
		return D_INVALID_OPERATION;
	memset(&info, 0, sizeof(info));
	info.mode = GRAFT_DEV_KERNEL;
	strcpy(info.driver, "fakedisk");
	strcpy(info.host, "kernel");
	info.ncounters = 1;
	strcpy(info.counters[0].name, "calls");
	info.counters[0].value = ++calls;
	if (mode_bad && calls == PROXY_INFO_SHORT)
		n--;
	if (mode_bad && calls == PROXY_INFO_LONG)
		n++;
	if (mode_bad && calls == PROXY_INFO_NAME)
		memset(info.driver, 'x', sizeof(info.driver));
	if (mode_bad && calls == PROXY_INFO_RANGE)
		info.ncounters = GRAFT_DEV_COUNTERS + 1;
	if (mode_bad && calls == PROXY_INFO_CODE)
		return 12345;
	memcpy(status, &info, sizeof(info));
	*count = n;
	return D_SUCCESS;
}

kern_return_t ds_device_set_filter(mach_port_t device, mach_port_t port,
				   int priority, const filter_array_t filter,
				   mach_msg_type_number_t count)
{
	(void)device; (void)port; (void)priority; (void)filter; (void)count;
	printf("SERVER-FAIL the kernel forwarded a set_filter\n");
	return D_INVALID_OPERATION;
}

/* lend mode: the VGA function claimed, bus mastering on, the direct
 * map named (RAM up to the machine's, rounded up to 128 MiB). */
static void direct_map(mach_port_t master)
{
	struct host_basic_info info;
	mach_msg_type_number_t count = HOST_BASIC_INFO_COUNT;
	int command = 0;
	unsigned long top = 0;

	server_expect("claim_vga", D_SUCCESS,
		      claim_pci(master, 0, VGA_SLOT, 0, &vga));
	server_expect("vga_command", D_SUCCESS,
		      claim_pci_config_read(vga, PCI_COMMAND, 2, &command));
	server_expect("vga_mastering_on", D_SUCCESS,
		      claim_pci_config_write(vga, PCI_COMMAND, 2,
					     command | COMMAND_MASTER));
	if (host_info(mach_host_self(), HOST_BASIC_INFO, (host_info_t)&info,
		      &count) == KERN_SUCCESS)
		top = ((unsigned long)info.memory_size + SECTION - 1) &
		      ~(SECTION - 1);
	server_expect("direct_map", D_SUCCESS,
		      claim_direct_map(vga, DIRECT_BASE, top));
}

/* Whether the VGA function still masters the bus. */
static int vga_mastering(void)
{
	int command = 0;

	claim_pci_config_read(vga, PCI_COMMAND, 2, &command);
	return (command & COMMAND_MASTER) != 0;
}

/* Copy @count bytes between the disk at @at and the lent pages @frames
 * from @offset (@into_pages: into them), where the direct map has them. */
static void lent_copy(const rpc_phys_addr_t *frames, size_t offset, char *at,
		      size_t count, int into_pages)
{
	for (size_t pos = offset, done = 0; done < count;) {
		size_t n = PAGE - pos % PAGE;
		char *va = (char *)(DIRECT_BASE + frames[pos / PAGE] +
				    pos % PAGE);

		if (n > count - done)
			n = count - done;
		if (into_pages)
			memcpy(va, at + done, n);
		else
			memcpy(at + done, va, n);
		pos += n;
		done += n;
	}
}

/* A read or write of fake0 with its pages lent: answered as a write. */
static kern_return_t lent_request(mach_port_t device, mach_port_t reply,
				  mach_msg_type_name_t poly, recnum_t recnum,
				  int count, int offset,
				  const rpc_phys_addr_t *frames,
				  mach_msg_type_number_t n, int write)
{
	kern_return_t kr = begin(reply, poly, recnum, write);
	int done = count;

	if (kr == MIG_NO_REPLY)
		return kr;
	recnum = placed(recnum);
	if (dropped && recnum == PROXY_BAD_CODE)
		server_expect("quiesced_after_the_dropped_request", 0,
			      vga_mastering());
	server_expect("lent_offset_in_a_page", 1,
		      offset >= 0 && (size_t)offset < PAGE);
	server_expect("lent_pages_hold_the_data", 1,
		      count > 0 && n == ((size_t)offset + (size_t)count +
					 PAGE - 1) / PAGE);
	if (kr == 0 && (device != disk_port || count <= 0 ||
			disk_range(recnum, (size_t)count) != D_SUCCESS))
		kr = D_INVALID_RECNUM;
	if (kr == 0) {
		lent_copy(frames, (size_t)offset, disk + recnum * RECORD,
			  (size_t)count, !write);
		if (write)
			liar_stored(recnum);
		else if (lies_reading(recnum))
			*(char *)(DIRECT_BASE + frames[0] + (size_t)offset) ^=
				(char)0xff;
		done += recnum == PROXY_BAD_WRITTEN;
		kr = D_SUCCESS;
	}
	ds_device_write_reply(reply, poly, kr, kr == D_SUCCESS ? done : 0);
	return MIG_NO_REPLY;
}

kern_return_t lp_proxy_read_pages(mach_port_t device, mach_port_t reply,
				  mach_msg_type_name_t poly, dev_mode_t mode,
				  recnum_t recnum, int bytes_wanted,
				  int offset, const proxy_frames_t frames,
				  mach_msg_type_number_t n)
{
	(void)mode;
	return lent_request(device, reply, poly, recnum, bytes_wanted, offset,
			    frames, n, 0);
}

kern_return_t lp_proxy_write_pages(mach_port_t device, mach_port_t reply,
				   mach_msg_type_name_t poly, dev_mode_t mode,
				   recnum_t recnum, int bytes, int offset,
				   const proxy_frames_t frames,
				   mach_msg_type_number_t n)
{
	(void)mode;
	return lent_request(device, reply, poly, recnum, bytes, offset,
			    frames, n, 1);
}

/* A new receive right with a send right of the same name. */
static mach_port_t new_device_port(void)
{
	mach_port_t p = new_receive();

	mach_port_insert_right(mach_task_self(), p, p,
			       MACH_MSG_TYPE_MAKE_SEND);
	return p;
}

static void publish(mach_port_t master)
{
	static const char tiny[10], big[1600];
	int s[DISK_STATUS_INTS];
	int eth_status[3 + NET_STATUS_COUNT + 3 + 2] = {
		NET_STATUS, PROXY_STATUS_AT_LEAST_OP, NET_STATUS_COUNT,
		ETH_MIN, ETH_MAX, HDR_ETHERNET, 14, 6, 0, 0,
		NET_ADDRESS, PROXY_STATUS_AT_LEAST_OP, 2, PROXY_MAC_WORD0,
		PROXY_MAC_WORD1,
	};

	disk_port = new_device_port();
	disk_status(s);
	server_expect("publish_fake0", D_SUCCESS,
		      proxy_publish(master, "fake0", disk_port, RECORD, s,
				    DISK_STATUS_INTS,
				    &disk_proxy));
	if (mode_bad || mode_die || mode_lend || mode_liar)
		return;
	eth_port = new_device_port();
	server_expect("publish_fakeeth0", D_SUCCESS,
		      proxy_publish(master, "fakeeth0", eth_port, 1,
				    eth_status, 3 + NET_STATUS_COUNT + 5,
				    &eth_proxy));
	if (mode_flaky)
		return;
	/* Dropped and counted by the kernel (the suite reads the count). */
	proxy_net_input(eth_proxy, (char *)tiny, sizeof(tiny));
	proxy_net_input(eth_proxy, (char *)big, sizeof(big));
}

int main(int argc, char **argv)
{
	mach_port_t master = graft_arg_port(argc, argv, "device");
	const char *mode = graft_arg(argc, argv, "mode", "serve");
	mach_port_t boot = MACH_PORT_NULL, set = MACH_PORT_NULL;
	static union {
		mach_msg_header_t head;
		char bytes[8192];
	} in, out;

	mode_bad = strcmp(mode, "bad") == 0;
	mode_die = strcmp(mode, "die") == 0;
	mode_lend = strcmp(mode, "lend") == 0;
	mode_flaky = strcmp(mode, "flaky") == 0;
	mode_liar = strcmp(mode, "liar") == 0;
	task_get_bootstrap_port(mach_task_self(), &boot);
	if (mode_liar)
		proxy_liar_pattern(disk, DISK_BYTES, 0);
	if (mode_lend || mode_liar)
		direct_map(master);
	publish(master);
	mach_port_allocate(mach_task_self(), MACH_PORT_RIGHT_PORT_SET, &set);
	mach_port_move_member(mach_task_self(), boot, set);
	mach_port_move_member(mach_task_self(), disk_port, set);
	if (eth_port != MACH_PORT_NULL)
		mach_port_move_member(mach_task_self(), eth_port, set);
	printf("SERVER-READY\n");
	fflush(stdout);
	for (;;) {
		mig_reply_header_t *r = (mig_reply_header_t *)&out.head;

		/* a supervised server waits for ever */
		if (mach_msg(&in.head, MACH_RCV_MSG |
			     (mode_flaky || mode_liar ? 0 : MACH_RCV_TIMEOUT),
			     0,
			     sizeof(in), set, 20000, MACH_PORT_NULL) !=
		    MACH_MSG_SUCCESS) {
			printf("SERVER-FAIL no message for 20 s\n");
			break;
		}
		if (in.head.msgh_local_port == boot) {
			if (in.head.msgh_id == PROXY_QUIT)
				break;
			continue;
		}
		if (!device_server(&in.head, &out.head) &&
		    !proxy_pages_server(&in.head, &out.head))
			printf("SERVER-FAIL message id %d not served\n",
			       in.head.msgh_id);
		if ((mode_die && held == PROXY_DIE_AFTER) ||
		    (mode_lend && held == 1))
			break;
		if (r->RetCode == MIG_NO_REPLY ||
		    out.head.msgh_remote_port == MACH_PORT_NULL)
			continue;
		server_expect("reply_sent", MACH_MSG_SUCCESS,
			      mach_msg(&out.head, MACH_SEND_MSG,
				       out.head.msgh_size, 0, MACH_PORT_NULL,
				       0, MACH_PORT_NULL));
	}
	printf("SERVER-DONE\n");
	fflush(stdout);
	return 0;
}
