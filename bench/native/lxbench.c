/* SPDX-License-Identifier: GPL-2.0-only */
/* The native-Linux baseline's probes: BENCH lines from inside Linux. */
/*
 * Built statically on the host and run by bench/native/init inside
 * Debian's Linux 6.1 on the same QEMU machine as Graft's benchmarks.
 * Each command prints BENCH lines (docs/testing.md) named linux.*:
 *
 *   syscall N MODE      N getppid() system calls, one fenced TSC pair each
 *   nettx N MODE        N frames of 60 bytes written with AF_PACKET
 *                       sendto() on eth0, each timed, each followed by the
 *                       receipt of the host peer's echo (net_probe's loop),
 *                       whose way up is timed too: from the kernel's
 *                       receive timestamp (SO_TIMESTAMPNS, taken where
 *                       the driver's frame enters the stack) to recvmsg()
 *                       returned, in TSC ticks (the clock's nanoseconds
 *                       scaled by the ticks per nanosecond measured over
 *                       the loop)
 *   disk N MODE         N O_DIRECT preads and N pwrites of 4 and 64 KiB on
 *                       /dev/sda1 at offset 0, each timed
 *   seq MODE            sequential O_DIRECT throughput, MiB/s: 2 MiB read
 *                       from /dev/sda2 and written to /dev/sda1 in requests
 *                       of 4 KiB to 1 MiB, again until the pass took
 *                       50 ms, 9 passes each
 *   rate SECONDS MODE   60-byte AF_PACKET sendto() stream for SECONDS,
 *                       frames per second over 1-second passes
 *   pktgen CLONE COUNT MODE
 *                       Linux's pktgen on eth0: COUNT 60-byte frames,
 *                       clone_skb CLONE, 5 passes, frames per second
 *   tcpsink PORT MODE   a TCP server on PORT that reads and drops what
 *                       each connection sends, one connection at a time,
 *                       until QEMU is stopped (an iperf 2 client's
 *                       stream; "lxbench: tcpsink ready" once listening)
 *   exit PASS           writes to QEMU's isa-debug-exit port: status 33 if
 *                       PASS is 1, else 35
 *
 * MODE is "icount" or "wall", as for Graft's BENCH lines.  Under QEMU's
 * -icount shift=0 the TSC counts guest instructions.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <fcntl.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/io.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "user_bench.h"	/* tests/user/ */
#include "test_frame.h"

#define FRAME_LEN	60
#define MIB		(1024.0 * 1024.0)
#define SEQ_BYTES	(2 << 20)	/* a sweep */
#define SEQ_PASSES	9
#define SEQ_PASS_MIN	0.05		/* seconds: sweeps until this long */
#define PKTGEN_PASSES	5
#define DEBUG_EXIT_PORT	0x501

static uint8_t my_mac[6];
static const char *mode = "icount";

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void die(const char *what)
{
	printf("lxbench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t *samples(unsigned long n)
{
	uint64_t *v = calloc(n, sizeof(*v));

	if (v == NULL)
		die("calloc");
	return v;
}

static void null_syscalls(unsigned long n)
{
	uint64_t *v = samples(n);

	for (unsigned long i = 0; i < n; i++) {
		uint64_t t0 = tsc();

		syscall(SYS_getppid);
		v[i] = tsc() - t0;
	}
	bench_print("linux.syscall.null", mode, v, n);
	free(v);
}

/* An AF_PACKET socket on eth0 for type 0x88b5; fills @to and my_mac. */
static int packet_socket(struct sockaddr_ll *to)
{
	struct ifreq ifr;
	int s = socket(AF_PACKET, SOCK_RAW, htons(ETH_TYPE_TEST));

	if (s < 0)
		die("socket(AF_PACKET)");
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "eth0");
	if (ioctl(s, SIOCGIFINDEX, &ifr) < 0)
		die("SIOCGIFINDEX eth0");
	memset(to, 0, sizeof(*to));
	to->sll_family = AF_PACKET;
	to->sll_protocol = htons(ETH_TYPE_TEST);
	to->sll_ifindex = ifr.ifr_ifindex;
	to->sll_halen = 6;
	memcpy(to->sll_addr, peer_mac, 6);
	if (bind(s, (struct sockaddr *)to, sizeof(*to)) < 0)
		die("bind eth0");
	if (ioctl(s, SIOCGIFHWADDR, &ifr) < 0)
		die("SIOCGIFHWADDR eth0");
	memcpy(my_mac, ifr.ifr_hwaddr.sa_data, 6);
	return s;
}

/* The test frame of @len bytes from this station (test_frame.h). */
static void build_frame(uint8_t *f, unsigned int len)
{
	build_test_frame(f, len, my_mac);
}

/* CLOCK_REALTIME in nanoseconds (the receive timestamps' clock). */
static int64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Receive the peer's echo of @frame on @s: whether it is one, and the
 * nanoseconds from its kernel timestamp to now in *@up (-1: none). */
static int receive_echo(int s, const uint8_t *frame, int64_t *up)
{
	uint8_t echo[2048];
	char control[CMSG_SPACE(sizeof(struct timespec))];
	struct iovec iov = { echo, sizeof(echo) };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control, .msg_controllen = sizeof(control),
	};
	ssize_t got = recvmsg(s, &mh, 0);
	int64_t now = realtime_ns();
	struct cmsghdr *c;

	*up = -1;
	for (c = CMSG_FIRSTHDR(&mh); got > 0 && c; c = CMSG_NXTHDR(&mh, c)) {
		if (c->cmsg_level == SOL_SOCKET &&
		    c->cmsg_type == SCM_TIMESTAMPNS) {
			struct timespec ts;

			memcpy(&ts, CMSG_DATA(c), sizeof(ts));
			*up = now - ((int64_t)ts.tv_sec * 1000000000 +
				     ts.tv_nsec);
		}
	}
	return got >= FRAME_LEN && memcmp(echo, my_mac, 6) == 0 &&
	       memcmp(echo + 14, frame + 14, FRAME_LEN - 14) == 0;
}

static void net_tx(unsigned long n)
{
	struct sockaddr_ll to;
	int s = packet_socket(&to), one = 1;
	uint8_t frame[FRAME_LEN];
	uint64_t *v = samples(n), *rx = samples(n), tsc0, tsc1;
	int64_t *up = calloc(n, sizeof(*up)), ns0, ns1;
	unsigned long echoed = 0, stamped = 0;

	if (up == NULL ||
	    setsockopt(s, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one)) != 0)
		die("SO_TIMESTAMPNS");
	build_frame(frame, FRAME_LEN);
	tsc0 = tsc();
	ns0 = realtime_ns();
	for (unsigned long i = 0; i < n; i++) {
		uint64_t t0 = tsc();
		ssize_t sent = sendto(s, frame, FRAME_LEN, 0,
				      (struct sockaddr *)&to, sizeof(to));

		v[i] = tsc() - t0;
		if (sent != FRAME_LEN)
			die("sendto");
		echoed += receive_echo(s, frame, &up[i]);
	}
	tsc1 = tsc();
	ns1 = realtime_ns();
	bench_print("linux.net.tx.instr/60", mode, v, n);
	printf("# linux.net.tx.instr/60: %lu of %lu frames echoed\n", echoed,
	       n);
	/* ticks per nanosecond over the loop: 1 under -icount shift=0 */
	for (unsigned long i = 0; i < n; i++)
		if (up[i] >= 0 && ns1 > ns0)
			rx[stamped++] = (uint64_t)((double)up[i] *
						   (double)(tsc1 - tsc0) /
						   (double)(ns1 - ns0) + 0.5);
	printf("# linux.net.rx.instr/60: %lu of %lu echoes stamped, %.4f "
	       "ticks a nanosecond\n", stamped, n,
	       ns1 > ns0 ? (double)(tsc1 - tsc0) / (double)(ns1 - ns0) : 0.0);
	if (stamped != n)
		die("a receive timestamp missing");
	bench_print("linux.net.rx.instr/60", mode, rx, n);
	free(v);
	free(rx);
	free(up);
	close(s);
}

static void net_rate(int seconds)
{
	struct sockaddr_ll to;
	int s = packet_socket(&to);
	uint8_t frame[FRAME_LEN];
	double rate[64];
	unsigned long refused = 0;
	int passes = seconds < 64 ? seconds : 64;

	build_frame(frame, FRAME_LEN);
	for (int p = 0; p < passes; p++) {
		double t0 = now_s(), t1;
		unsigned long sent = 0;

		do {
			for (int i = 0; i < 64; i++) {
				if (sendto(s, frame, FRAME_LEN, 0,
					   (struct sockaddr *)&to,
					   sizeof(to)) == FRAME_LEN)
					sent++;
				else
					refused++;
			}
			t1 = now_s();
		} while (t1 - t0 < 1.0);
		rate[p] = (double)sent / (t1 - t0);
	}
	bench_print_rates("linux.net.tx.rate/60", "frames/s", rate, passes);
	printf("# linux.net.tx.rate/60: %lu sendto calls refused\n", refused);
	close(s);
}

/* A 1 MiB buffer aligned for O_DIRECT, filled with @byte. */
static uint8_t *direct_buffer(int byte)
{
	void *p;

	if (posix_memalign(&p, 4096, 1 << 20) != 0)
		die("posix_memalign");
	memset(p, byte, 1 << 20);
	return p;
}

static int open_direct(const char *path, int flags)
{
	int fd = open(path, flags | O_DIRECT);

	if (fd < 0)
		die(path);
	return fd;
}

static void disk_instr(unsigned long n)
{
	static const size_t lens[] = { 4096, 65536 };
	int fd = open_direct("/dev/sda1", O_RDWR);
	uint8_t *buf = direct_buffer(0x5a);
	uint64_t *rd = samples(n), *wr = samples(n);
	char name[64];

	for (int k = 0; k < 2; k++) {
		for (unsigned long i = 0; i < n; i++) {
			uint64_t t0 = tsc(), t1, t2;

			if (pread(fd, buf, lens[k], 0) != (ssize_t)lens[k])
				die("pread /dev/sda1");
			t1 = tsc();
			if (pwrite(fd, buf, lens[k], 0) != (ssize_t)lens[k])
				die("pwrite /dev/sda1");
			t2 = tsc();
			rd[i] = t1 - t0;
			wr[i] = t2 - t1;
		}
		snprintf(name, sizeof(name), "linux.disk.read.instr/%zu",
			 lens[k]);
		bench_print(name, mode, rd, n);
		snprintf(name, sizeof(name), "linux.disk.write.instr/%zu",
			 lens[k]);
		bench_print(name, mode, wr, n);
	}
	free(rd);
	free(wr);
	free(buf);
	close(fd);
}

static void disk_seq(void)
{
	static const size_t lens[] = { 4096, 16384, 65536, 262144, 1048576 };
	int rfd = open_direct("/dev/sda2", O_RDONLY);
	int wfd = open_direct("/dev/sda1", O_WRONLY);
	uint8_t *buf = direct_buffer(0xa5);
	double rate[SEQ_PASSES];
	char name[64];

	for (int k = 0; k < 5; k++) {
		for (int w = 0; w < 2; w++) {
			for (int p = 0; p < SEQ_PASSES; p++) {
				double t0 = now_s(), t1;
				double moved = 0;

				do {
					for (off_t off = 0; off < SEQ_BYTES;
					     off += lens[k]) {
						ssize_t got = w ?
							pwrite(wfd, buf,
							       lens[k], off) :
							pread(rfd, buf,
							      lens[k], off);

						if (got != (ssize_t)lens[k])
							die(w ? "pwrite sda1" :
								"pread sda2");
					}
					moved += SEQ_BYTES;
					t1 = now_s();
				} while (t1 - t0 < SEQ_PASS_MIN);
				rate[p] = moved / MIB / (t1 - t0);
			}
			snprintf(name, sizeof(name), "linux.disk.%s.seq/%zu",
				 w ? "write" : "read", lens[k]);
			bench_print_rates(name, "MiB/s", rate, SEQ_PASSES);
		}
	}
	free(buf);
	close(rfd);
	close(wfd);
}

/* Write @line and a newline to the pktgen control file @file (pgctrl
 * drops the last byte written); false on failure. */
static int pg_write(const char *file, const char *line)
{
	char path[64];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/proc/net/pktgen/%s", file);
	f = fopen(path, "w");
	if (f == NULL)
		return 0;
	ok = fprintf(f, "%s\n", line) > 0;
	return fclose(f) == 0 && ok;
}

/* The frames per second of eth0's last pktgen run ("...  NNNpps ..."). */
static double pg_result(void)
{
	char text[4096], *p;
	size_t len;
	FILE *f = fopen("/proc/net/pktgen/eth0", "r");

	if (f == NULL)
		die("/proc/net/pktgen/eth0");
	len = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[len] = '\0';
	p = strstr(text, "Result: OK:");
	if (p == NULL || (p = strstr(p, "pps")) == NULL) {
		printf("lxbench: pktgen gave no result:\n%s\n", text);
		exit(1);
	}
	while (p > text && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return strtod(p, NULL);
}

static void pktgen(unsigned long clone, unsigned long count)
{
	char line[128], mac[32], name[64];
	double rate[PKTGEN_PASSES];

	snprintf(mac, sizeof(mac), "dst_mac %02x:%02x:%02x:%02x:%02x:%02x",
		 peer_mac[0], peer_mac[1], peer_mac[2], peer_mac[3],
		 peer_mac[4], peer_mac[5]);
	if (!pg_write("kpktgend_0", "rem_device_all") ||
	    !pg_write("kpktgend_0", "add_device eth0"))
		die("/proc/net/pktgen/kpktgend_0");
	snprintf(line, sizeof(line), "count %lu", count);
	if (!pg_write("eth0", line) || !pg_write("eth0", "pkt_size 60") ||
	    !pg_write("eth0", "delay 0") || !pg_write("eth0", mac))
		die("/proc/net/pktgen/eth0");
	snprintf(line, sizeof(line), "clone_skb %lu", clone);
	if (!pg_write("eth0", line))
		die("pktgen clone_skb");
	for (int p = 0; p < PKTGEN_PASSES; p++) {
		if (!pg_write("pgctrl", "start"))
			die("pktgen start");
		rate[p] = pg_result();
	}
	if (clone == 0)
		snprintf(name, sizeof(name), "linux.pktgen.rate/60");
	else
		snprintf(name, sizeof(name), "linux.pktgen.rate/clone%lu/60",
			 clone);
	bench_print_rates(name, "frames/s", rate, PKTGEN_PASSES);
}

static void debug_exit(int pass)
{
	fflush(stdout);
	if (ioperm(DEBUG_EXIT_PORT, 1, 1) < 0)
		die("ioperm");
	outb(pass ? 0x10 : 0x11, DEBUG_EXIT_PORT);
}

/* Serve TCP @port: accept, read until the peer closes, again. */
static void tcp_sink(unsigned long port)
{
	static char buf[65536];
	struct sockaddr_in at = {
		.sin_family = AF_INET,
		.sin_port = htons((uint16_t)port),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	int one = 1, s = socket(AF_INET, SOCK_STREAM, 0);

	if (s < 0 || port == 0 || port > 65535 ||
	    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
	    bind(s, (struct sockaddr *)&at, sizeof(at)) != 0 ||
	    listen(s, 4) != 0)
		die("tcpsink: socket, bind or listen");
	printf("lxbench: tcpsink ready on %lu\n", port);
	for (;;) {
		int c = accept(s, NULL, NULL);

		if (c < 0) {
			if (errno == EINTR)
				continue;
			die("tcpsink: accept");
		}
		while (read(c, buf, sizeof(buf)) > 0)
			;
		close(c);
	}
}

static unsigned long arg(int argc, char **argv, int i)
{
	if (i >= argc) {
		printf("lxbench: %s needs more arguments\n", argv[1]);
		exit(2);
	}
	return strtoul(argv[i], NULL, 10);
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 2)
		mode = argv[argc - 1];
	if (strcmp(cmd, "syscall") == 0)
		null_syscalls(arg(argc, argv, 2));
	else if (strcmp(cmd, "nettx") == 0)
		net_tx(arg(argc, argv, 2));
	else if (strcmp(cmd, "disk") == 0)
		disk_instr(arg(argc, argv, 2));
	else if (strcmp(cmd, "seq") == 0)
		disk_seq();
	else if (strcmp(cmd, "rate") == 0)
		net_rate((int)arg(argc, argv, 2));
	else if (strcmp(cmd, "pktgen") == 0)
		pktgen(arg(argc, argv, 2), arg(argc, argv, 3));
	else if (strcmp(cmd, "tcpsink") == 0)
		tcp_sink(arg(argc, argv, 2));
	else if (strcmp(cmd, "exit") == 0)
		debug_exit((int)arg(argc, argv, 2));
	else {
		printf("usage: lxbench syscall|nettx|disk|seq|rate|pktgen|"
		       "tcpsink|exit ...\n");
		return 2;
	}
	return 0;
}
