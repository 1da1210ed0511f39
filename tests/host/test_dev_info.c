/* SPDX-License-Identifier: GPL-2.0-only */
/* Host tests of the live probes' rings (probe_ring) and the GRAFT_DEV_INFO record (dev_info). */

#include <string.h>

#include "device/dev_info.h"
#include "kern/ktest.h"
#include "kern/probe_ring.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void empty_ring_has_no_summary(struct ktest *t)
{
	struct probe_ring r = { 0 };
	struct stats st;

	memset(&st, 0xa5, sizeof(st));
	KTEST_EXPECT_EQ(t, probe_ring_summary(&r, &st), -1);
	KTEST_EXPECT_EQ(t, st.count, 0xa5a5a5a5a5a5a5a5ull);
}

static void few_samples_are_all_summarised(struct ktest *t)
{
	struct probe_ring r = { 0 };
	struct stats st;

	probe_ring_add(&r, 30);
	probe_ring_add(&r, 10);
	probe_ring_add(&r, 20);
	KTEST_EXPECT_EQ(t, probe_ring_summary(&r, &st), 0);
	KTEST_EXPECT_EQ(t, r.count, 3u);
	KTEST_EXPECT_EQ(t, st.count, 3u);
	KTEST_EXPECT_EQ(t, st.min, 10u);
	KTEST_EXPECT_EQ(t, st.median, 20u);
	KTEST_EXPECT_EQ(t, st.max, 30u);
	/* The ring is left in the order it was filled. */
	KTEST_EXPECT_EQ(t, r.v[0], 30u);
}

/* 1..200 added: count says 200, the statistics cover 73..200. */
static void full_ring_keeps_the_last_samples(struct ktest *t)
{
	static struct probe_ring r;
	struct stats st;

	for (uint64_t i = 1; i <= 200; i++)
		probe_ring_add(&r, i);
	KTEST_EXPECT_EQ(t, probe_ring_summary(&r, &st), 0);
	KTEST_EXPECT_EQ(t, r.count, 200u);
	KTEST_EXPECT_EQ(t, st.count, (uint64_t)PROBE_RING_SIZE);
	KTEST_EXPECT_EQ(t, st.min, 73u);
	KTEST_EXPECT_EQ(t, st.median, 136u);	/* sorted[63] */
	KTEST_EXPECT_EQ(t, st.p99, 199u);	/* sorted[128 - 1 - 1] */
	KTEST_EXPECT_EQ(t, st.max, 200u);
}

static void init_cuts_names_and_zeroes(struct ktest *t)
{
	struct graft_dev_info info;

	memset(&info, 0xff, sizeof(info));
	dev_info_init(&info, GRAFT_DEV_KERNEL, "a_driver_name_too_long",
		      "kernel");
	KTEST_EXPECT_EQ(t, info.mode, (uint32_t)GRAFT_DEV_KERNEL);
	KTEST_EXPECT_STREQ(t, info.driver, "a_driver_name_t");
	KTEST_EXPECT_STREQ(t, info.host, "kernel");
	KTEST_EXPECT_EQ(t, info.window, (uint32_t)PROBE_RING_SIZE);
	KTEST_EXPECT_EQ(t, info.ncounters, 0u);
	KTEST_EXPECT_EQ(t, info.nprobes, 0u);
	KTEST_EXPECT_EQ(t, info.counters[7].value, 0u);
	dev_info_where(&info, GRAFT_DEV_SERVER, "lxdrv.elf");
	KTEST_EXPECT_EQ(t, info.mode, (uint32_t)GRAFT_DEV_SERVER);
	KTEST_EXPECT_STREQ(t, info.host, "lxdrv.elf");
	KTEST_EXPECT_STREQ(t, info.driver, "a_driver_name_t");
}

static void counters_and_probes_stop_when_full(struct ktest *t)
{
	struct graft_dev_info info;
	struct probe_ring r = { 0 }, none = { 0 };

	probe_ring_add(&r, 5);
	dev_info_init(&info, GRAFT_DEV_KERNEL, "e1000", "kernel");
	for (int i = 0; i < GRAFT_DEV_COUNTERS + 1; i++)
		dev_info_counter(&info, i == 0 ? "rx_packets" : "c", i + 100);
	KTEST_EXPECT_EQ(t, info.ncounters, (uint32_t)GRAFT_DEV_COUNTERS);
	KTEST_EXPECT_STREQ(t, info.counters[0].name, "rx_packets");
	KTEST_EXPECT_EQ(t, info.counters[0].value, 100u);
	KTEST_EXPECT_EQ(t, info.counters[7].value, 107u);
	dev_info_probe(&info, "net.tx.glue", &r);
	dev_info_probe(&info, "net.rx.glue", &none);
	for (int i = 0; i < GRAFT_DEV_PROBES; i++)
		dev_info_probe(&info, "more", &r);
	KTEST_EXPECT_EQ(t, info.nprobes, (uint32_t)GRAFT_DEV_PROBES);
	KTEST_EXPECT_STREQ(t, info.probes[0].name, "net.tx.glue");
	KTEST_EXPECT_EQ(t, info.probes[0].count, 1u);
	KTEST_EXPECT_EQ(t, info.probes[0].median, 5u);
	KTEST_EXPECT_EQ(t, info.probes[1].count, 0u);
	KTEST_EXPECT_EQ(t, info.probes[1].max, 0u);
}

static void answer_needs_room_for_the_record(struct ktest *t)
{
	int status[GRAFT_DEV_INFO_COUNT + 4];
	struct graft_dev_info info;
	mach_msg_type_number_t count = GRAFT_DEV_INFO_COUNT - 1;

	dev_info_init(&info, GRAFT_DEV_KERNEL, "e1000", "kernel");
	memset(status, 0x5a, sizeof(status));
	KTEST_EXPECT_EQ(t, dev_info_answer(&info, status, &count),
			D_INVALID_SIZE);
	KTEST_EXPECT_EQ(t, count, GRAFT_DEV_INFO_COUNT - 1);
	KTEST_EXPECT_EQ(t, status[0], 0x5a5a5a5a);
	count = GRAFT_DEV_INFO_COUNT + 4;
	KTEST_EXPECT_EQ(t, dev_info_answer(&info, status, &count), D_SUCCESS);
	KTEST_EXPECT_EQ(t, count, GRAFT_DEV_INFO_COUNT);
	KTEST_EXPECT_MEMEQ(t, status, &info, sizeof(info));
}

/* A change to a good record, and whether dev_info_parse takes it. */
struct parse_case {
	const char *name;
	void (*change)(struct graft_dev_info *info, int *count);
	int want;
};

static void unchanged(struct graft_dev_info *i, int *c) { (void)i; (void)c; }
static void one_int_short(struct graft_dev_info *i, int *c) { (void)i; (*c)--; }
static void one_int_more(struct graft_dev_info *i, int *c) { (void)i; (*c)++; }
static void mode_zero(struct graft_dev_info *i, int *c) { (void)c; i->mode = 0; }
static void mode_three(struct graft_dev_info *i, int *c) { (void)c; i->mode = 3; }
static void counters_9(struct graft_dev_info *i, int *c)
{
	(void)c;
	i->ncounters = GRAFT_DEV_COUNTERS + 1;
}
static void probes_5(struct graft_dev_info *i, int *c)
{
	(void)c;
	i->nprobes = GRAFT_DEV_PROBES + 1;
}
static void driver_no_nul(struct graft_dev_info *i, int *c)
{
	(void)c;
	memset(i->driver, 'x', sizeof(i->driver));
}
static void host_no_nul(struct graft_dev_info *i, int *c)
{
	(void)c;
	memset(i->host, 'x', sizeof(i->host));
}
static void used_counter_no_nul(struct graft_dev_info *i, int *c)
{
	(void)c;
	memset(i->counters[0].name, 'x', sizeof(i->counters[0].name));
}
static void unused_counter_garbage(struct graft_dev_info *i, int *c)
{
	(void)c;
	memset(i->counters[5].name, 'x', sizeof(i->counters[5].name));
}
static void used_probe_no_nul(struct graft_dev_info *i, int *c)
{
	(void)c;
	memset(i->probes[0].name, 'x', sizeof(i->probes[0].name));
}

static const struct parse_case parse_cases[] = {
	{ "well_formed", unchanged, 0 },
	{ "one_int_short", one_int_short, -1 },
	{ "one_int_more", one_int_more, -1 },
	{ "mode_zero", mode_zero, -1 },
	{ "mode_unknown", mode_three, -1 },
	{ "more_counters_than_room", counters_9, -1 },
	{ "more_probes_than_room", probes_5, -1 },
	{ "driver_without_nul", driver_no_nul, -1 },
	{ "host_without_nul", host_no_nul, -1 },
	{ "used_counter_name_without_nul", used_counter_no_nul, -1 },
	{ "unused_counter_not_read", unused_counter_garbage, 0 },
	{ "used_probe_name_without_nul", used_probe_no_nul, -1 },
};

static void parse_takes_only_well_formed_records(struct ktest *t)
{
	for (size_t k = 0; k < ARRAY_SIZE(parse_cases); k++) {
		const struct parse_case *pc = &parse_cases[k];
		int status[GRAFT_DEV_INFO_COUNT + 1] = { 0 };
		struct graft_dev_info info, out;
		struct probe_ring r = { 0 };
		int count = GRAFT_DEV_INFO_COUNT;
		int got;

		dev_info_init(&info, GRAFT_DEV_SERVER, "e1000", "");
		dev_info_counter(&info, "rx_packets", 1);
		probe_ring_add(&r, 9);
		dev_info_probe(&info, "server.net.tx.glue", &r);
		pc->change(&info, &count);
		memcpy(status, &info, sizeof(info));
		got = dev_info_parse(&out, status,
				     (mach_msg_type_number_t)count);
		if (got != pc->want)
			ktest_fail(t, "%s: expected %d, got %d", pc->name,
				   pc->want, got);
	}
}

static const struct ktest_case dev_info_cases[] = {
	{ "empty_ring_has_no_summary", empty_ring_has_no_summary },
	{ "few_samples_are_all_summarised", few_samples_are_all_summarised },
	{ "full_ring_keeps_the_last_samples",
	  full_ring_keeps_the_last_samples },
	{ "init_cuts_names_and_zeroes", init_cuts_names_and_zeroes },
	{ "counters_and_probes_stop_when_full",
	  counters_and_probes_stop_when_full },
	{ "answer_needs_room_for_the_record",
	  answer_needs_room_for_the_record },
	{ "parse_takes_only_well_formed_records",
	  parse_takes_only_well_formed_records },
};

KTEST_SUITE(dev_info_suite, "dev-info", dev_info_cases);
