/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "proxy-verify": a disk's data a supervised server with verify=1 answers is checked against what its clients wrote, and wrong data goes to the server's next instance instead of the client. */
/*
 * tests/user/proxy_server.c in mode=liar (restart=10 verify=1 on its
 * line) stores writes or answers reads with their first byte flipped
 * when told, and always answers record PROXY_LIAR_ALWAYS so;
 * tests/user/proxy_probe.c in mode=liar checks what its calls answered.
 * This side checks what only the kernel sees: the wrong answers caught,
 * and one restart for each, none for the read of a record no longer
 * known.
 */
#include <stdbool.h>
#include <stdint.h>

#include "device/dev_proxy.h"
#include "device/dev_proxy_fwd.h"
#include "device/dev_proxy_sums.h"
#include "kern/ktest.h"
#include "kern/string.h"
#include "kern/supervise.h"
#include "tests/kernel/user_task.h"

static char server_console[8192], console[16384];

static void get_bytes(const void *src, size_t off, void *dst, size_t len)
{
	memcpy(dst, (const char *)src + off, len);
}

/* Only whole records of a size the checksum reads 8 bytes at a time are
 * checked. */
static void sums_take_whole_records(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, dev_proxy_sums_records(1024, 512), 2);
	KTEST_EXPECT_EQ(t, dev_proxy_sums_records(4096, 4096), 1);
	KTEST_EXPECT_EQ(t, dev_proxy_sums_records(1000, 512), 0);
	KTEST_EXPECT_EQ(t, dev_proxy_sums_records(0, 512), 0);
	KTEST_EXPECT_EQ(t, dev_proxy_sums_records(1024, 0), 0);
	KTEST_EXPECT_EQ(t, dev_proxy_sums_records(1020, 510), 0);
}

/* A flipped byte, a moved word or another record size changes a
 * checksum; none is 0 ("not known"). */
static void sums_tell_data_apart(struct ktest *t)
{
	static char a[1024], b[1024];
	uint32_t sa[2], sb[2];

	for (size_t i = 0; i < sizeof(a); i++)
		a[i] = (char)((i * 13 + 5) ^ (i >> 9));
	memcpy(b, a, sizeof(b));
	dev_proxy_sums_compute(get_bytes, a, 2, 512, sa);
	dev_proxy_sums_compute(get_bytes, b, 2, 512, sb);
	KTEST_EXPECT_EQ(t, sa[0], sb[0]);
	KTEST_EXPECT_NE(t, sa[0], sa[1]);
	KTEST_EXPECT_NE(t, sa[0], 0);
	b[700] ^= 1;
	dev_proxy_sums_compute(get_bytes, b, 2, 512, sb);
	KTEST_EXPECT_EQ(t, sa[0], sb[0]);
	KTEST_EXPECT_NE(t, sa[1], sb[1]);
	memcpy(b, a + 8, 8);		/* two words swapped */
	memcpy(b + 8, a, 8);
	dev_proxy_sums_compute(get_bytes, b, 1, 512, sb);
	KTEST_EXPECT_NE(t, sa[0], sb[0]);
	dev_proxy_sums_compute(get_bytes, a, 1, 1024, sb);
	KTEST_EXPECT_NE(t, sa[0], sb[0]);
}

/* Known records are compared, unknown ones (never set, forgotten, a 0
 * in the list) are not; the table grows past its first chunks. */
static void sums_check_known_records(struct ktest *t)
{
	struct dev_proxy_sums *s = dev_proxy_sums_create();
	uint32_t set[3] = { 3, 5, 7 }, other[3] = { 3, 9, 7 };
	uint32_t skip[3] = { 3, 0, 7 };
	recnum_t far = 5 * DEV_PROXY_SUMS_CHUNK + 10;

	if (s == NULL) {
		ktest_fail(t, "no memory for a table");
		return;
	}
	KTEST_EXPECT_EQ(t, dev_proxy_sums_differ(s, 100, 3, other), 0);
	dev_proxy_sums_set(s, 100, 3, set);
	KTEST_EXPECT_EQ(t, dev_proxy_sums_differ(s, 100, 3, set), 0);
	KTEST_EXPECT_EQ(t, dev_proxy_sums_differ(s, 100, 3, other), 1);
	KTEST_EXPECT_EQ(t, dev_proxy_sums_differ(s, 99, 3, other), 2);
	KTEST_EXPECT_EQ(t, dev_proxy_sums_differ(s, 100, 3, skip), 0);
	dev_proxy_sums_forget(s, 101, 1);
	KTEST_EXPECT_EQ(t, dev_proxy_sums_differ(s, 100, 3, other), 0);
	/* across a chunk's end, and far past the first chunks */
	dev_proxy_sums_set(s, DEV_PROXY_SUMS_CHUNK - 1, 3, set);
	KTEST_EXPECT_EQ(t, dev_proxy_sums_differ(s, DEV_PROXY_SUMS_CHUNK - 1,
						 3, other), 1);
	dev_proxy_sums_set(s, far, 3, set);
	KTEST_EXPECT_EQ(t, dev_proxy_sums_differ(s, far, 3, other), 1);
	KTEST_EXPECT_EQ(t, dev_proxy_sums_differ(s, 100, 3, set), 0);
	KTEST_EXPECT_EQ(t, dev_proxy_sums_differ(s, 99, 3, other), 1);
	dev_proxy_sums_forget(s, 50 * DEV_PROXY_SUMS_CHUNK, 3);	/* none */
	dev_proxy_sums_destroy(s);
	dev_proxy_sums_destroy(NULL);
}

static void wrong_data_sent_again(struct ktest *t)
{
	struct supervision *sup;

	sup = user_task_start_server(t, "proxy_liar ", server_console,
				     sizeof(server_console));
	if (sup == NULL)
		return;
	if (!supervise_verifies(sup)) {
		ktest_fail(t, "the lying server is not started with verify=1");
		return;
	}
	user_task_client_done(t, "probe_liar ", console, sizeof(console));
	user_task_expect_checks(t, console, 25);
	/* caught: the wrong write's read-back, the wrong read, the
	 * misplaced write's read-back (by the record before it), and the
	 * always-wrong record's read-back at the first instance and
	 * DEV_PROXY_TRIES new ones; each but the last restarted it */
	KTEST_EXPECT_EQ(t, dev_proxy_wrong_data("fake0"),
			3 + 1 + DEV_PROXY_TRIES);
	KTEST_EXPECT_EQ(t, supervise_restarts(sup), 3 + DEV_PROXY_TRIES);
	/* the console says why (klog keeps a few lines a second) */
	KTEST_EXPECT_GE(t, user_task_count_text(console, "answered other "
						"data than was written; its "
						"server is started again"), 1);
	/* the two failed reads were checked; the verified one went to the
	 * same instance once more */
	KTEST_EXPECT_EQ(t, dev_proxy_checks("fake0"), 2);
	KTEST_EXPECT_EQ(t, dev_proxy_repeated("fake0"), 1);
	KTEST_EXPECT_FALSE(t, supervise_gave_up(sup));
}

static const struct ktest_case proxy_verify_cases[] = {
	{ "sums_take_whole_records", sums_take_whole_records },
	{ "sums_tell_data_apart", sums_tell_data_apart },
	{ "sums_check_known_records", sums_check_known_records },
	{ "wrong_data_sent_again", wrong_data_sent_again },
};
KTEST_SUITE(proxy_verify_suite, "proxy-verify", proxy_verify_cases);
