/* SPDX-License-Identifier: GPL-2.0-only */
/* A client of a NIC or a disk while its driver server is killed (or hangs, or has faults injected) and is started again (suites restart-net-e1000, restart-root-disk, restart-give-up, restart-hang, fault-inject, fault-inject-disk). */
/*
 * "restart_probe mode=M [name=DEV] device=${device-port}" (DEV: eth0 by
 * default):
 *   net   eth0 set promiscuous (NET_FLAGS), then 60-byte frames written
 *         one at a time for RUN_SECONDS while the suite kills the server
 *         twice: every write is answered D_SUCCESS with its length (the
 *         calls at the dead server go to the next one); afterwards eth0
 *         is still promiscuous (the setting replayed to the new
 *         instance)
 *   disk  (name=hd0s1) for seconds=S (8 by default), 64 KiB written at one of 32
 *         places of the partition and read back, each with its own
 *         pattern (round n's 32-bit words are n * 65536 plus their
 *         offset, at place n % 32), while the suite kills the server
 *         again and again or injects faults into it: every call
 *         answered, every read equal to what was written ("USER-INFO
 *         rounds N failed M wrong_data W", W of the M failed rounds
 *         being ones whose write and read answered D_SUCCESS but read
 *         back other data; the harness checks the image afterwards);
 *         with failures=count a failed round is named ("USER-INFO
 *         failed round N: ...", the first 100) and counted, not checked,
 *         and each place whose last round failed is named at the end
 *         ("USER-INFO place P: its last round failed")
 *   load  (seconds=S) frames written one at a time for S seconds while
 *         faults are injected into the server (suite fault-inject):
 *         the calls that fail are counted, not checked ("USER-INFO
 *         frames N failed M"; the first LOAD_NAMED named with their
 *         code); what is checked is that the client ends
 *   down  frames written until one fails (the suite kills a server that
 *         may restart once, twice, or the server hangs twice): it fails
 *         D_DEVICE_DOWN, never hangs; a new open of the device answers
 *         D_NO_SUCH_DEVICE
 * Checks print "USER-PASS name" or "USER-FAIL ...", then "USER-DONE n";
 * "USER-INFO frames N" says how many frames were written.
 */
#include <device/device.h>
#include <device/net_status.h>
#include <mach/time_value.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "mach_host.h"
#include "user_device.h"
#include "user_port.h"

#define FRAME		60
#define IFF_UP		0x1
#define IFF_PROMISC	0x100
#define RUN_SECONDS	8
#define DOWN_SECONDS	60
#define LOAD_NAMED	20	/* failed frames named, at most */

/* A broadcast frame of a local experimental type (0x88b5). */
static void frame_fill(io_buf_ptr_inband_t f, unsigned int n)
{
	memset(f, 0, FRAME);
	memset(f, 0xff, 6);
	f[12] = (char)0x88;
	f[13] = (char)0xb5;
	memcpy(f + 14, "restart_probe", 13);
	memcpy(f + 28, &n, sizeof(n));
}

/* The host port, asked for once: each mach_host_self() adds a
 * reference to the right. */
static mach_port_t host;

static long seconds_now(void)
{
	time_value_t now;

	if (host == MACH_PORT_NULL)
		host = mach_host_self();
	if (host_get_time(host, &now) != KERN_SUCCESS)
		return 0;
	return now.seconds;
}

/* Wait @ms milliseconds (a receive that times out). */
static void pause_ms(unsigned int ms)
{
	mach_port_t idle = new_receive();
	mach_msg_header_t h;

	(void)mach_msg(&h, MACH_RCV_MSG | MACH_RCV_TIMEOUT, 0, sizeof(h), idle,
		       ms, MACH_PORT_NULL);
	mach_port_destroy(mach_task_self(), idle);
}

static int flags_of(mach_port_t dev)
{
	int st[1] = { 0 };
	mach_msg_type_number_t n = 1;

	if (device_get_status(dev, NET_FLAGS, st, &n) != D_SUCCESS || n != 1)
		return -1;
	return st[0];
}

static void net(mach_port_t dev)
{
	io_buf_ptr_inband_t frame;
	int word = IFF_UP | IFF_PROMISC, written = 0, failed = 0;
	unsigned int n = 0;
	long end = seconds_now() + RUN_SECONDS;

	check("promiscuous", D_SUCCESS,
	      device_set_status(dev, NET_FLAGS, &word, 1));
	while (seconds_now() < end) {
		kern_return_t kr;

		frame_fill(frame, n);
		kr = device_write_inband(dev, 0, 0, frame, FRAME, &written);
		if (kr != D_SUCCESS || written != FRAME) {
			if (failed++ == 0)
				printf("USER-FAIL write_answered: frame %u: "
				       "code %#x, %d bytes\n", n, kr, written);
		}
		n++;
	}
	printf("USER-INFO frames %u\n", n);
	check("every_write_answered_whole", 0, failed);
	/* The new instance publishes its flags as it refreshes them. */
	for (int i = 0; i < 50 && (flags_of(dev) & IFF_PROMISC) == 0; i++)
		pause_ms(100);
	check("still_promiscuous", IFF_PROMISC, flags_of(dev) & IFF_PROMISC);
}

#define CHUNK		65536
#define PLACES		32

/* The offset of the first byte @in (@count bytes) and @out differ
 * at, -1 if none. */
static int difference(const char *in, const char *out,
		      mach_msg_type_number_t count)
{
	for (mach_msg_type_number_t i = 0; in != NULL && i < count; i++)
		if (in[i] != out[i])
			return (int)i;
	return -1;
}

#define FAILED_NAMED	100	/* failed rounds named, at most */

/* @failures_count: a failed round is counted and named (a campaign of
 * faults), not a failed check. */
static void disk(mach_port_t dev, long seconds, bool failures_count)
{
	static char out[CHUNK];
	static bool last_failed[PLACES];	/* each place's last round */
	unsigned int n = 0, failed = 0, wrong = 0;
	long start = seconds_now(), end = start + seconds, said = start;

	while (seconds_now() < end) {
		recnum_t recnum = (n % PLACES) * (CHUNK / 512);
		io_buf_ptr_t in = NULL;
		mach_msg_type_number_t count = 0;
		int written = 0;
		kern_return_t wr, rd = D_SUCCESS;

		for (unsigned int i = 0; i < CHUNK; i += 4)
			memcpy(out + i, &(unsigned int){ n * CHUNK + i }, 4);
		wr = device_write(dev, 0, recnum, out, CHUNK, &written);
		if (wr == D_SUCCESS && written == CHUNK)
			rd = device_read(dev, 0, recnum, CHUNK, &in, &count);
		last_failed[n % PLACES] = wr != D_SUCCESS ||
			written != CHUNK || rd != D_SUCCESS || count != CHUNK ||
			difference(in, out, count) >= 0;
		if (last_failed[n % PLACES]) {
			if (failed < FAILED_NAMED &&
			    (failures_count || failed == 0))
				printf("%s round %u: write %d (%d bytes), "
				       "read %d (%u bytes), first difference "
				       "at %d\n", failures_count ?
				       "USER-INFO failed" :
				       "USER-FAIL write_read_back:",
				       n, wr, written, rd, count,
				       difference(in, out, count));
			failed++;
			wrong += wr == D_SUCCESS && written == CHUNK &&
				 rd == D_SUCCESS && count == CHUNK;
		}
		if (in != NULL)
			vm_deallocate(mach_task_self(), (vm_address_t)in,
				      count);
		n++;
		if (seconds_now() >= said + 10) {
			said = seconds_now();
			printf("USER-INFO %ld s: %u rounds\n", said - start, n);
		}
	}
	printf("USER-INFO rounds %u failed %u wrong_data %u\n", n, failed,
	       wrong);
	for (unsigned int p = 0; p < PLACES && p < n; p++)
		if (last_failed[p])
			printf("USER-INFO place %u: its last round failed\n", p);
	if (!failures_count)
		check("every_round_read_back", 0, failed);
}

static void load(mach_port_t dev, long seconds)
{
	io_buf_ptr_inband_t frame;
	int written = 0;
	unsigned int n = 0, failed = 0;
	long end = seconds_now() + seconds;

	while (seconds_now() < end) {
		kern_return_t kr;

		frame_fill(frame, n++);
		kr = device_write_inband(dev, 0, 0, frame, FRAME, &written);
		if (kr == D_SUCCESS && written == FRAME)
			continue;
		if (failed++ < LOAD_NAMED)
			printf("USER-INFO frame %u failed: code %d, %d bytes "
			       "written\n", n - 1, kr, written);
	}
	printf("USER-INFO frames %u failed %u\n", n, failed);
}

static void down(mach_port_t master, mach_port_t dev, const char *name)
{
	io_buf_ptr_inband_t frame;
	int written = 0;
	unsigned int n = 0;
	long end = seconds_now() + DOWN_SECONDS;
	kern_return_t kr = D_SUCCESS;
	mach_port_t again = MACH_PORT_NULL;

	while (kr == D_SUCCESS && seconds_now() < end) {
		frame_fill(frame, n++);
		kr = device_write_inband(dev, 0, 0, frame, FRAME, &written);
	}
	printf("USER-INFO frames %u\n", n);
	check("ends_device_down", D_DEVICE_DOWN, kr);
	check("name_gone", D_NO_SUCH_DEVICE,
	      device_open(master, D_READ | D_WRITE, (char *)name, &again));
}

int main(int argc, char **argv)
{
	mach_port_t master = graft_arg_port(argc, argv, "device");
	const char *mode = graft_arg(argc, argv, "mode", "");
	const char *name = graft_arg(argc, argv, "name", "eth0");
	mach_port_t dev = MACH_PORT_NULL;

	check("open_device", D_SUCCESS,
	      device_open(master, D_READ | D_WRITE, (char *)name, &dev));
	if (dev != MACH_PORT_NULL && strcmp(mode, "net") == 0)
		net(dev);
	else if (dev != MACH_PORT_NULL && strcmp(mode, "disk") == 0)
		disk(dev, strtol(graft_arg(argc, argv, "seconds", "8"), NULL,
				 10),
		     strcmp(graft_arg(argc, argv, "failures", ""), "count") ==
		     0);
	else if (dev != MACH_PORT_NULL && strcmp(mode, "load") == 0)
		load(dev, strtol(graft_arg(argc, argv, "seconds", "10"), NULL,
				 10));
	else if (dev != MACH_PORT_NULL && strcmp(mode, "down") == 0)
		down(master, dev, name);
	else
		check("known_mode_and_device", 0, 1);
	printf("USER-DONE %d\n", checks);
	fflush(stdout);
	return 0;
}
