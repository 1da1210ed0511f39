/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "pktgen": servers/pktgen's runs and its refusals of bad arguments. */
/*
 * The kernel boots with "linux"; QEMU's e1000 is linked to the harness's
 * capturing peer (net_peer.Capture), which keeps every frame.  Each good
 * run (a module named pg_<what>, its own dst_mac) must end with
 * pktgen's result line: the frames asked for sent, no error.  The host
 * side (tests/harness/pktgen_check.py) then checks each run's frames
 * field by field.  Each bad run must print the error that names its
 * word and send nothing.
 */
#include "kern/ktest.h"
#include "kern/string.h"
#include "mach-glue/net/dev_lxnet.h"
#include "tests/kernel/user_task.h"

static char console[16384];

/* A good run: its module's word and the "N (Sbyte" its result names. */
struct good_run {
	const char *word;
	const char *sent;
};

static const struct good_run good_runs[] = {
	{ "pg_default", ", 20 (60byte,0frags)" },
	{ "pg_ranges", ", 24 (60-63byte,0frags)" },
	{ "pg_random", ", 100 (60-1514byte,0frags)" },
	{ "pg_clone", ", 30 (60byte,0frags)" },
	{ "pg_flows", ", 40 (60byte,0frags)" },
	{ "pg_delay", ", 10 (60byte,0frags)" },
};

static void run_good(struct ktest *t, const struct good_run *r)
{
	if (!user_task_run(t, r->word, 60, console, sizeof(console)))
		return;
	if (user_task_text_after(console, "Result: OK: ") == NULL)
		ktest_fail(t, "%s: no \"Result: OK:\" line", r->word);
	if (user_task_text_after(console, r->sent) == NULL)
		ktest_fail(t, "%s: expected \"%s\" in its result", r->word,
			   r->sent);
	if (user_task_text_after(console, "pps ") == NULL ||
	    user_task_text_after(console, "Mb/sec (") == NULL)
		ktest_fail(t, "%s: no rate in its result", r->word);
	if (user_task_text_after(console, " errors: 0") == NULL)
		ktest_fail(t, "%s: expected errors: 0", r->word);
	if (user_task_text_after(console, "pktgen: done") == NULL)
		ktest_fail(t, "%s: no \"pktgen: done\"", r->word);
}

static void default_run_sends_udp_to_port_9(struct ktest *t)
{
	run_good(t, &good_runs[0]);
}

static void ranges_are_cycled(struct ktest *t)
{
	run_good(t, &good_runs[1]);
}

static void random_flags_stay_in_range(struct ktest *t)
{
	run_good(t, &good_runs[2]);
}

static void clone_skb_repeats_each_frame(struct ktest *t)
{
	run_good(t, &good_runs[3]);
}

static void flows_keep_their_tuple_for_flowlen(struct ktest *t)
{
	run_good(t, &good_runs[4]);
}

/* delay=20 ms between 10 frames: the result's d part holds the 9 gaps,
 * less the writes' own time (well under 5 ms each). */
static void delay_spaces_the_frames(struct ktest *t)
{
	const char *d;
	uint64_t idle = 0;

	run_good(t, &good_runs[5]);
	d = user_task_text_after(console, "Result: OK: ");
	if (d == NULL || !user_task_number_after(d, "+d", &idle))
		ktest_fail(t, "pg_delay: no d part in its result");
	KTEST_EXPECT_GE(t, idle, 9 * (20000 - 5000));
}

/* A bad argument: the module's word and the error it must print. */
struct bad_run {
	const char *word;
	const char *error;
};

static const struct bad_run bad_runs[] = {
	{ "pg_bad01", "pktgen: error: pkt_sz=60: unknown argument" },
	{ "pg_bad02", "pktgen: error: count=12x: not a number" },
	{ "pg_bad03", "pktgen: error: pkt_size=59: out of range 60-1514" },
	{ "pg_bad04", "pktgen: error: pkt_size=1515: out of range 60-1514" },
	{ "pg_bad05", "pktgen: error: dst=10.0.0.256: not an IPv4 address" },
	{ "pg_bad06", "pktgen: error: dst_mac=02:00:00:00:00: not a MAC "
		      "address" },
	{ "pg_bad07", "pktgen: error: flag=IPDST_RANDOM: unknown flag" },
	{ "pg_bad08", "pktgen: error: pkt_size: minimum above maximum" },
	{ "pg_bad09", "pktgen: error: flows=4: needs flowlen" },
	{ "pg_bad10", "pktgen: error: udp_dst_min=70000: out of range "
		      "0-65535" },
	{ "pg_bad11", "pktgen: error: flows=2000: out of range 0-1024" },
	{ "pg_bad12", "pktgen: error: dst: minimum above maximum" },
	{ "pg_bad13", "pktgen: error: runs=3: needs a count" },
};

/* Every bad argument is refused by name, before anything is sent. */
static void bad_arguments_are_refused(struct ktest *t)
{
	struct dev_lxnet_stats before, after;

	KTEST_EXPECT_EQ(t, dev_lxnet_stats("eth0", &before), 0);
	for (size_t i = 0; i < sizeof(bad_runs) / sizeof(*bad_runs); i++) {
		const struct bad_run *r = &bad_runs[i];

		if (!user_task_run(t, r->word, 30, console, sizeof(console)))
			continue;
		if (user_task_text_after(console, r->error) == NULL)
			ktest_fail(t, "%s: expected \"%s\"", r->word,
				   r->error);
		if (user_task_text_after(console, "Result:") != NULL)
			ktest_fail(t, "%s: ran despite its bad argument",
				   r->word);
	}
	KTEST_EXPECT_EQ(t, dev_lxnet_stats("eth0", &after), 0);
	KTEST_EXPECT_EQ(t, after.tx_frames, before.tx_frames);
}

static const struct ktest_case pktgen_cases[] = {
	{ "default_run_sends_udp_to_port_9", default_run_sends_udp_to_port_9 },
	{ "ranges_are_cycled", ranges_are_cycled },
	{ "random_flags_stay_in_range", random_flags_stay_in_range },
	{ "clone_skb_repeats_each_frame", clone_skb_repeats_each_frame },
	{ "flows_keep_their_tuple_for_flowlen",
	  flows_keep_their_tuple_for_flowlen },
	{ "delay_spaces_the_frames", delay_spaces_the_frames },
	{ "bad_arguments_are_refused", bad_arguments_are_refused },
};
KTEST_SUITE(pktgen_suite, "pktgen", pktgen_cases);
