/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "net-ping": servers/pingd answers ARP and ICMP echo on eth0. */
/*
 * The kernel boots with "linux" and QEMU's e1000 is linked to the
 * harness's pinging peer (tests/harness/ping_peer.py).  pingd (ip=10.0.2.15
 * count=2) answers the peer's ARP requests and two echo requests; the
 * peer drops in one echo request with a bad ICMP checksum, which pingd
 * must drop.  The peer compares the ARP reply and the first echo reply
 * byte for byte with the frames it expects and sends its verdict as the
 * sequence number of the second echo request: 0x600d (24589) when both
 * matched, 0x0bad otherwise.  pingd prints the id and sequence of every
 * reply it sends; this side requires the good verdict.
 */
#include "kern/ktest.h"
#include "kern/string.h"
#include "mach-glue/net/dev_lxnet.h"
#include "tests/kernel/user_task.h"

static char console[16384];

/* Lines pingd must print, each exactly once (id 0x4752 is 18258). */
static const char *const pingd_lines[] = {
	"pingd: ready ip=10.0.2.15 mac=52:54:00:12:34:56",
	"pingd: echo reply 1 id 18258 seq 1",
	"pingd: echo reply 2 id 18258 seq 24589",
	"pingd: done replies=2 dropped=1",
};

/* How many lines of @console are @line (ended by \n or \r). */
static unsigned int count_exact_lines(const char *console, const char *line)
{
	size_t len = strlen(line);
	unsigned int n = 0;

	for (const char *p = console; *p != '\0'; p++)
		if ((p == console || p[-1] == '\n') &&
		    strncmp(p, line, len) == 0 &&
		    (p[len] == '\n' || p[len] == '\r'))
			n++;
	return n;
}

/* Run pingd and require each of @lines once and an ARP reply. */
static void expect_pingd_lines(struct ktest *t, const char *const *lines,
			       size_t n)
{
	struct dev_lxnet_stats s;

	if (!user_task_run(t, "pingd", 40, console, sizeof(console)))
		return;
	for (size_t i = 0; i < n; i++)
		if (count_exact_lines(console, lines[i]) != 1)
			ktest_fail(t, "expected the line \"%s\" once from "
				   "pingd", lines[i]);
	KTEST_EXPECT_GE(t, user_task_count_lines(console, "pingd: arp reply"),
			1);
	KTEST_EXPECT_EQ(t, dev_lxnet_stats("eth0", &s), 0);
	KTEST_EXPECT_EQ(t, s.tx_errors, 0);
}

static void pingd_answers_the_peer(struct ktest *t)
{
	expect_pingd_lines(t, pingd_lines,
			   sizeof(pingd_lines) / sizeof(*pingd_lines));
}

/*
 * Suite "net-ping-host": the host's ping (tests/harness/ping_host.py)
 * sends three echo requests from a tap device in a network namespace
 * and, only if all three came back, a fourth; pingd (count=4) ends after
 * the fourth reply, so its last line is the host's verdict.
 */
static const char *const pingd_host_lines[] = {
	"pingd: ready ip=10.0.2.15 mac=52:54:00:12:34:56",
	"pingd: done replies=4 dropped=0",
};

static void host_ping_gets_its_replies(struct ktest *t)
{
	expect_pingd_lines(t, pingd_host_lines,
			   sizeof(pingd_host_lines) /
			   sizeof(*pingd_host_lines));
	KTEST_EXPECT_EQ(t, user_task_count_lines(console,
						 "pingd: echo reply "), 4);
}

static const struct ktest_case net_ping_cases[] = {
	{ "pingd_answers_the_peer", pingd_answers_the_peer },
};
KTEST_SUITE(net_ping_suite, "net-ping", net_ping_cases);

static const struct ktest_case net_ping_host_cases[] = {
	{ "host_ping_gets_its_replies", host_ping_gets_its_replies },
};
KTEST_SUITE(net_ping_host_suite, "net-ping-host", net_ping_host_cases);
