/* SPDX-License-Identifier: GPL-2.0-only */
/* Host tests of stats_compute() and stats_sort() against hand-worked tables. */

#include <string.h>

#include "kern/ktest.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#include "kern/stats.h"

#define MAX_SAMPLES 8

struct stats_case {
	const char *name;
	size_t n;
	uint64_t samples[MAX_SAMPLES];
	struct stats want;
};

#define WANT(cnt, mn, med, p, mx, mean, var)				\
	{ .count = (cnt), .min = (mn), .median = (med), .p99 = (p),	\
	  .max = (mx), .mean_milli = (mean), .variance_milli = (var) }

/*
 * Worked by hand.  median = sorted[(n - 1) / 2]; p99 = sorted[n - n/100 - 1]
 * (which is sorted[n - 1] for n < 100); mean and population variance are in
 * thousandths, rounded down.
 */
static const struct stats_case tables[] = {
	/* mean 7, variance 0 */
	{ "one_sample", 1, { 7 }, WANT(1, 7, 7, 7, 7, 7000, 0) },
	/* sorted 4 10; median is the lower middle; mean 7; var (9+9)/2 */
	{ "two_samples", 2, { 10, 4 }, WANT(2, 4, 4, 10, 10, 7000, 9000) },
	/* sorted 1..5; mean 3; var (4+1+0+1+4)/5 = 2 */
	{ "odd_count_unsorted", 5, { 5, 1, 4, 2, 3 },
	  WANT(5, 1, 3, 5, 5, 3000, 2000) },
	/* sorted 1..4; median sorted[1]; mean 2.5; var (2.25+.25)*2/4 */
	{ "even_count_takes_lower_middle", 4, { 3, 1, 4, 2 },
	  WANT(4, 1, 2, 4, 4, 2500, 1250) },
	{ "all_equal_has_zero_variance", 6, { 9, 9, 9, 9, 9, 9 },
	  WANT(6, 9, 9, 9, 9, 9000, 0) },
	/* mean 4/3 = 1.333..; var (1/9+1/9+4/9)/3 = 2/9 = 0.222.. */
	{ "mean_and_variance_round_down", 3, { 2, 1, 1 },
	  WANT(3, 1, 1, 2, 2, 1333, 222) },
	/* mean 5/3; var (4/9+1/9+1/9)/3 = 2/9 */
	{ "fractional_mean_above_half", 3, { 2, 1, 2 },
	  WANT(3, 1, 2, 2, 2, 1666, 222) },
	/* duplicates and reverse order; sorted 1 1 2 3 3 8 8 9 */
	{ "reverse_with_duplicates", 8, { 9, 8, 8, 3, 3, 2, 1, 1 },
	  WANT(8, 1, 3, 9, 9, 4375, 9984) },
	/* large values close together: mean 2^40 + 1, var 1 */
	{ "large_close_values_keep_precision", 2,
	  { (1ULL << 40) + 2, 1ULL << 40 },
	  WANT(2, 1ULL << 40, 1ULL << 40, (1ULL << 40) + 2, (1ULL << 40) + 2,
	       ((1ULL << 40) + 1) * 1000, 1000) },
	/* var (2^27)^2 = 2^54; times 1000 still fits in 64 bits */
	{ "wide_spread_fits", 2, { 0, 1ULL << 28 },
	  WANT(2, 0, 0, 1ULL << 28, 1ULL << 28, (1ULL << 27) * 1000,
	       (1ULL << 54) * 1000) },
	/* var 2^64: too large, so UINT64_MAX; mean 2^32 */
	{ "huge_variance_saturates", 2, { 0, 1ULL << 33 },
	  WANT(2, 0, 0, 1ULL << 33, 1ULL << 33, (1ULL << 32) * 1000,
	       UINT64_MAX) },
	/* the sum needs 66 bits; the mean times 1000 saturates */
	{ "max_values_do_not_overflow", 3,
	  { UINT64_MAX, UINT64_MAX - 1, UINT64_MAX },
	  WANT(3, UINT64_MAX - 1, UINT64_MAX, UINT64_MAX, UINT64_MAX,
	       UINT64_MAX, 222) },
};

/*
 * Derivation of reverse_with_duplicates: sum 35, mean 4.375; squares of
 * the deviations sum to 2 * 3.375^2 + 2.375^2 + 2 * 1.375^2 + 2 * 3.625^2
 * + 4.625^2 = 79.875, and 79.875 / 8 = 9.984375.
 */

static void check_stats(struct ktest *t, const char *name,
			const struct stats *got, const struct stats *want)
{
#define CHECK_FIELD(f)							\
	do {								\
		if (got->f != want->f)					\
			ktest_fail(t, "%s: " #f " is %llu, want %llu", name, \
				   (unsigned long long)got->f,		\
				   (unsigned long long)want->f);	\
	} while (0)

	CHECK_FIELD(count);
	CHECK_FIELD(min);
	CHECK_FIELD(median);
	CHECK_FIELD(p99);
	CHECK_FIELD(max);
	CHECK_FIELD(mean_milli);
	CHECK_FIELD(variance_milli);
#undef CHECK_FIELD
}

static void hand_computed_tables(struct ktest *t)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tables); i++) {
		const struct stats_case *c = &tables[i];
		uint64_t v[MAX_SAMPLES];
		struct stats st;

		memcpy(v, c->samples, sizeof(v));
		if (stats_compute(v, c->n, &st) != 0) {
			ktest_fail(t, "%s: stats_compute failed", c->name);
			continue;
		}
		check_stats(t, c->name, &st, &c->want);
	}
}

static void zero_samples_fail_and_leave_out_alone(struct ktest *t)
{
	struct stats st, before;
	uint64_t v[1] = { 5 };

	memset(&st, 0xa5, sizeof(st));
	before = st;
	KTEST_EXPECT_EQ(t, stats_compute(v, 0, &st), -1);
	KTEST_EXPECT_MEMEQ(t, &st, &before, sizeof(st));
	KTEST_EXPECT_EQ(t, v[0], 5u);
}

/* Fills @v with a permutation of 1..n (a fixed pseudo-random shuffle). */
static void shuffled_range(uint64_t *v, size_t n)
{
	uint64_t seed = 0x2545f4914f6cdd1dULL;
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = i + 1;
	for (i = n - 1; i > 0; i--) {
		size_t j;
		uint64_t tmp;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		j = (size_t)((seed >> 33) % (i + 1));
		tmp = v[i];
		v[i] = v[j];
		v[j] = tmp;
	}
}

/*
 * For 1..n: median is (n + 1) / 2 rounded down for even n (the lower
 * middle), p99 is n - n/100, mean (n + 1) / 2, variance (n^2 - 1) / 12.
 */
static void p99_of_100_samples_is_99th(struct ktest *t)
{
	uint64_t v[100];
	struct stats st;

	shuffled_range(v, 100);
	KTEST_EXPECT_EQ(t, stats_compute(v, 100, &st), 0);
	KTEST_EXPECT_EQ(t, st.min, 1u);
	KTEST_EXPECT_EQ(t, st.median, 50u);
	KTEST_EXPECT_EQ(t, st.p99, 99u);
	KTEST_EXPECT_EQ(t, st.max, 100u);
	KTEST_EXPECT_EQ(t, st.mean_milli, 50500u);
	/* 9999 / 12 = 833.25 */
	KTEST_EXPECT_EQ(t, st.variance_milli, 833250u);
}

static void p99_of_1000_samples_is_990th(struct ktest *t)
{
	uint64_t v[1000];
	struct stats st;

	shuffled_range(v, 1000);
	KTEST_EXPECT_EQ(t, stats_compute(v, 1000, &st), 0);
	KTEST_EXPECT_EQ(t, st.count, 1000u);
	KTEST_EXPECT_EQ(t, st.median, 500u);
	KTEST_EXPECT_EQ(t, st.p99, 990u);
	KTEST_EXPECT_EQ(t, st.mean_milli, 500500u);
	/* 999999 / 12 = 83333.25 */
	KTEST_EXPECT_EQ(t, st.variance_milli, 83333250u);
}

/* ceil(0.99 * 101) = 100, so the 100th of 101 sorted samples. */
static void p99_rounds_rank_up(struct ktest *t)
{
	uint64_t v[101];
	struct stats st;

	shuffled_range(v, 101);
	KTEST_EXPECT_EQ(t, stats_compute(v, 101, &st), 0);
	KTEST_EXPECT_EQ(t, st.p99, 100u);
	KTEST_EXPECT_EQ(t, st.median, 51u);
}

/* One outlier among 100 samples is above p99; two reach it. */
static void p99_ignores_one_outlier_in_100(struct ktest *t)
{
	uint64_t v[100];
	struct stats st;
	size_t i;

	for (i = 0; i < 100; i++)
		v[i] = 10;
	v[37] = 1000000;
	KTEST_EXPECT_EQ(t, stats_compute(v, 100, &st), 0);
	KTEST_EXPECT_EQ(t, st.p99, 10u);
	KTEST_EXPECT_EQ(t, st.max, 1000000u);
	for (i = 0; i < 100; i++)
		v[i] = 10;
	v[3] = 1000000;
	v[80] = 1000000;
	KTEST_EXPECT_EQ(t, stats_compute(v, 100, &st), 0);
	KTEST_EXPECT_EQ(t, st.p99, 1000000u);
}

static bool is_sorted(const uint64_t *v, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (v[i - 1] > v[i])
			return false;
	return true;
}

struct sort_case {
	const char *name;
	size_t n;
	uint64_t in[MAX_SAMPLES];
	uint64_t want[MAX_SAMPLES];
};

static const struct sort_case sort_tables[] = {
	{ "empty", 0, { 0 }, { 0 } },
	{ "single", 1, { 42 }, { 42 } },
	{ "pair_swapped", 2, { 2, 1 }, { 1, 2 } },
	{ "already_sorted", 5, { 1, 2, 3, 4, 5 }, { 1, 2, 3, 4, 5 } },
	{ "reversed", 6, { 6, 5, 4, 3, 2, 1 }, { 1, 2, 3, 4, 5, 6 } },
	{ "duplicates", 7, { 3, 1, 3, 0, 1, 3, 0 }, { 0, 0, 1, 1, 3, 3, 3 } },
	{ "extremes", 4, { UINT64_MAX, 0, UINT64_MAX - 1, 1 },
	  { 0, 1, UINT64_MAX - 1, UINT64_MAX } },
};

static void sort_tables_give_ascending_order(struct ktest *t)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sort_tables); i++) {
		const struct sort_case *c = &sort_tables[i];
		uint64_t v[MAX_SAMPLES];

		memcpy(v, c->in, sizeof(v));
		stats_sort(v, c->n);
		if (memcmp(v, c->want, c->n * sizeof(v[0])) != 0)
			ktest_fail(t, "%s: not sorted as expected", c->name);
		if (memcmp(v + c->n, c->in + c->n,
			   (MAX_SAMPLES - c->n) * sizeof(v[0])) != 0)
			ktest_fail(t, "%s: wrote past the end", c->name);
	}
}

/* A shuffled 1..n comes back as exactly 1..n, for every n up to 300. */
static void sort_shuffled_ranges_gives_identity(struct ktest *t)
{
	uint64_t v[300];
	size_t n, i;

	for (n = 1; n <= 300; n++) {
		shuffled_range(v, n);
		stats_sort(v, n);
		for (i = 0; i < n; i++) {
			if (v[i] != i + 1) {
				ktest_fail(t, "n=%zu: v[%zu] is %llu", n, i,
					   (unsigned long long)v[i]);
				return;
			}
		}
	}
	KTEST_EXPECT_TRUE(t, is_sorted(v, 300));
}

static void compute_sorts_in_place(struct ktest *t)
{
	uint64_t v[5] = { 50, 10, 40, 20, 30 };
	const uint64_t want[5] = { 10, 20, 30, 40, 50 };
	struct stats st;

	KTEST_EXPECT_EQ(t, stats_compute(v, 5, &st), 0);
	KTEST_EXPECT_MEMEQ(t, v, want, sizeof(v));
}

static const struct ktest_case stats_cases[] = {
	{ "hand_computed_tables", hand_computed_tables },
	{ "zero_samples_fail_and_leave_out_alone",
	  zero_samples_fail_and_leave_out_alone },
	{ "p99_of_100_samples_is_99th", p99_of_100_samples_is_99th },
	{ "p99_of_1000_samples_is_990th", p99_of_1000_samples_is_990th },
	{ "p99_rounds_rank_up", p99_rounds_rank_up },
	{ "p99_ignores_one_outlier_in_100", p99_ignores_one_outlier_in_100 },
	{ "sort_tables_give_ascending_order",
	  sort_tables_give_ascending_order },
	{ "sort_shuffled_ranges_gives_identity",
	  sort_shuffled_ranges_gives_identity },
	{ "compute_sorts_in_place", compute_sorts_in_place },
};

KTEST_SUITE(stats_suite, "stats", stats_cases);
