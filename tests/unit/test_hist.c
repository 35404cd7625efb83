/*
 * test_hist.c - unit tests of the latency histogram (src/hist.c).
 *
 * Percentiles are checked against the exact percentile of the same data
 * (the value of rank ceil(p/100 * n) in sorted order), both exactly where
 * buckets are exact (below 256 ns) and within the 1% promised by hist.h
 * elsewhere.  The data come from a fixed-seed PRNG so failures reproduce.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "lib/hist.h"

#define MAX_REL_ERR 0.01

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

/* xorshift64*: a fixed, portable sequence. */
static uint64_t rng_next(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

/* Uniform in (0, 1]. */
static double rng_unit(void)
{
	return ((double)(rng_next() >> 11) + 1.0) / 9007199254740992.0;
}

/* Exponential with the given mean, at least 1 ns. */
static uint64_t rng_exp_ns(double mean)
{
	uint64_t v = (uint64_t)(-mean * log(rng_unit()));

	return v ? v : 1;
}

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return (a > b) - (a < b);
}

/* Exact percentile of sorted v[0..n-1] for p = pm / 100 (pm in 1..10000). */
static uint64_t exact_percentile(const uint64_t *v, uint64_t n, uint64_t pm)
{
	uint64_t rank = (pm * n + 9999) / 10000;

	return v[(rank ? rank : 1) - 1];
}

static double rel_err(uint64_t got, uint64_t want)
{
	return fabs((double)got - (double)want) / (double)want;
}

static void assert_within(uint64_t got, uint64_t want)
{
	double e = rel_err(got, want);

	if (e > MAX_REL_ERR)
		fail_msg("got %llu, want %llu (relative error %g)",
			 (unsigned long long)got, (unsigned long long)want, e);
}

static int setup(void **state)
{
	*state = hist_new();
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	hist_free(*state);
	return 0;
}

static void test_empty(void **state)
{
	struct hist *h = *state;

	assert_int_equal(hist_count(h), 0);
	assert_int_equal(hist_min(h), 0);
	assert_int_equal(hist_max(h), 0);
	assert_true(hist_mean(h) == 0.0);
	assert_int_equal(hist_percentile(h, 50), 0);
	assert_int_equal(hist_percentile(h, 100), 0);
}

static void test_constant(void **state)
{
	struct hist *h = *state;

	for (int i = 0; i < 1000; i++)
		hist_record(h, 12345);
	assert_int_equal(hist_count(h), 1000);
	assert_int_equal(hist_min(h), 12345);
	assert_int_equal(hist_max(h), 12345);
	assert_true(hist_mean(h) == 12345.0);
	/* Every percentile is the one value: the bucket midpoint is clamped. */
	assert_int_equal(hist_percentile(h, 0.1), 12345);
	assert_int_equal(hist_percentile(h, 50), 12345);
	assert_int_equal(hist_percentile(h, 100), 12345);
}

/* Buckets below 256 ns are exact, so the rank rule can be checked exactly,
 * including p whose p/100 * n is not exact in binary (7% of 100). */
static void test_rank_rule(void **state)
{
	struct hist *h = *state;

	for (uint64_t v = 1; v <= 100; v++)
		hist_record(h, v);
	for (uint64_t p = 1; p <= 100; p++)
		assert_int_equal(hist_percentile(h, (double)p), p);
	assert_int_equal(hist_percentile(h, 0.5), 1);   /* ceil(0.5) = 1 */
	assert_int_equal(hist_percentile(h, 1.01), 2);  /* ceil(1.01) = 2 */
	assert_int_equal(hist_percentile(h, 99.9), 100);

	hist_reset(h);
	for (uint64_t v = 1; v <= 200; v++)
		hist_record(h, v);
	for (uint64_t pm = 5; pm <= 1000; pm += 5)      /* p = 0.5, 1.0, ... 100 */
		assert_int_equal(hist_percentile(h, (double)pm / 10.0), pm / 5);
}

static void test_uniform(void **state)
{
	struct hist *h = *state;
	const uint64_t n = 1000000;
	double sum = 0;

	for (uint64_t v = 1; v <= n; v++) {
		hist_record(h, v);
		sum += (double)v;
	}
	assert_int_equal(hist_count(h), n);
	assert_int_equal(hist_min(h), 1);
	assert_int_equal(hist_max(h), n);
	assert_true(hist_mean(h) == sum / (double)n);   /* 500000.5 */
	/* Sorted values are 1..n, so the exact percentile is the rank itself. */
	for (uint64_t pm = 1; pm <= 10000; pm++)
		assert_within(hist_percentile(h, (double)pm / 100.0), (pm * n + 9999) / 10000);
	assert_int_equal(hist_percentile(h, 100), n);
}

static void test_exponential(void **state)
{
	struct hist *h = *state;
	const uint64_t n = 200000;
	uint64_t *v = malloc(n * sizeof(*v));
	double sum = 0;

	assert_non_null(v);
	for (uint64_t i = 0; i < n; i++) {
		v[i] = rng_exp_ns(100000.0);            /* mean 100 us */
		hist_record(h, v[i]);
		sum += (double)v[i];
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	assert_int_equal(hist_min(h), v[0]);
	assert_int_equal(hist_max(h), v[n - 1]);
	assert_true(fabs(hist_mean(h) - sum / (double)n) < 1e-6);
	for (uint64_t pm = 1; pm <= 10000; pm++)
		assert_within(hist_percentile(h, (double)pm / 100.0), exact_percentile(v, n, pm));
	assert_int_equal(hist_percentile(h, 100), v[n - 1]);
	free(v);
}

static void test_extremes(void **state)
{
	struct hist *h = *state;
	const uint64_t hundred_s = 100000000000ull;

	hist_record(h, 1);
	hist_record(h, hundred_s);
	assert_int_equal(hist_min(h), 1);
	assert_int_equal(hist_max(h), hundred_s);
	assert_true(hist_mean(h) == (1.0 + 1e11) / 2.0);
	assert_int_equal(hist_percentile(h, 50), 1);
	assert_int_equal(hist_percentile(h, 100), hundred_s);   /* clamped to max */

	/* 100 s as the middle of three values: not clamped, within 1%. */
	hist_record(h, 2 * hundred_s);
	assert_within(hist_percentile(h, 60), hundred_s);
}

/* Values beyond the tracked range land in the top bucket; min, max and mean
 * stay exact, even for sums that overflow 64 bits. */
static void test_above_range(void **state)
{
	struct hist *h = *state;
	const uint64_t big = 10000000000000ull;         /* 1e13 ns, ~2.8 h */

	hist_record(h, 5);
	hist_record(h, big);
	assert_int_equal(hist_count(h), 2);
	assert_int_equal(hist_min(h), 5);
	assert_int_equal(hist_max(h), big);
	assert_true(hist_mean(h) == (5.0 + 1e13) / 2.0);
	assert_true(hist_percentile(h, 100) <= big);
	assert_true(hist_percentile(h, 100) >= 100000000000ull);

	hist_reset(h);
	hist_record(h, UINT64_MAX);
	hist_record(h, UINT64_MAX);
	assert_int_equal(hist_max(h), UINT64_MAX);
	assert_int_equal(hist_min(h), UINT64_MAX);
	assert_true(hist_mean(h) == (double)UINT64_MAX);
	assert_int_equal(hist_percentile(h, 50), UINT64_MAX);
}

/* Records one value v between 0 and UINT64_MAX so that the median is v's
 * bucket value, unclamped; returns its relative error. */
static double resolution_at(struct hist *h, uint64_t v)
{
	hist_reset(h);
	hist_record(h, 0);
	hist_record(h, v);
	hist_record(h, UINT64_MAX);
	return rel_err(hist_percentile(h, 50), v);
}

static void test_resolution(void **state)
{
	struct hist *h = *state;
	double worst = 0, e;
	uint64_t worst_v = 0;

	for (uint64_t v = 1; v <= 20000; v++) {
		e = resolution_at(h, v);
		if (e > worst) {
			worst = e;
			worst_v = v;
		}
	}
	for (double x = 20000; x < 1.09e12; x *= 1.0007) {
		e = resolution_at(h, (uint64_t)x);
		if (e > worst) {
			worst = e;
			worst_v = (uint64_t)x;
		}
	}
	for (int b = 8; b < 40; b++) {
		for (int d = -1; d <= 1; d++) {
			uint64_t v = (1ull << b) + (uint64_t)(int64_t)d;

			e = resolution_at(h, v);
			if (e > worst) {
				worst = e;
				worst_v = v;
			}
		}
	}
	print_message("worst relative error %.5f%% at %llu ns\n", 100 * worst,
		      (unsigned long long)worst_v);
	assert_true(worst <= MAX_REL_ERR);
	assert_true(resolution_at(h, 1) == 0.0);
	assert_true(resolution_at(h, 255) == 0.0);
}

static void record_exponential(struct hist *a, struct hist *b, int n)
{
	for (int i = 0; i < n; i++) {
		uint64_t v = rng_exp_ns(i % 2 ? 2000.0 : 5e6);

		hist_record(a, v);
		hist_record(b, v);
	}
}

static void assert_same(const struct hist *a, const struct hist *b)
{
	assert_int_equal(hist_count(a), hist_count(b));
	assert_int_equal(hist_min(a), hist_min(b));
	assert_int_equal(hist_max(a), hist_max(b));
	assert_true(hist_mean(a) == hist_mean(b));
	for (int pm = 1; pm <= 10000; pm++)
		assert_int_equal(hist_percentile(a, pm / 100.0), hist_percentile(b, pm / 100.0));
}

static void test_merge(void **state)
{
	struct hist *all = *state, *x = hist_new(), *y = hist_new(), *e = hist_new();

	assert_non_null(x);
	assert_non_null(y);
	assert_non_null(e);
	record_exponential(x, all, 30000);
	for (uint64_t v = 1000; v <= 50000; v += 7) {
		hist_record(y, v);
		hist_record(all, v);
	}
	hist_record(y, 3);
	hist_record(all, 3);
	hist_merge(x, y);
	assert_same(x, all);

	/* Merging an empty histogram changes nothing ... */
	hist_merge(x, e);
	assert_same(x, all);
	/* ... and merging into an empty one copies (min included). */
	hist_merge(e, all);
	assert_same(e, all);

	hist_free(x);
	hist_free(y);
	hist_free(e);
}

static void test_reset(void **state)
{
	struct hist *h = *state;

	hist_record(h, 10);
	hist_record(h, 1000000);
	hist_reset(h);
	assert_int_equal(hist_count(h), 0);
	assert_int_equal(hist_min(h), 0);
	assert_int_equal(hist_max(h), 0);
	assert_int_equal(hist_percentile(h, 50), 0);
	hist_record(h, 500);
	assert_int_equal(hist_min(h), 500);
	assert_int_equal(hist_max(h), 500);
	assert_int_equal(hist_percentile(h, 1), 500);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_constant, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rank_rule, setup, teardown),
		cmocka_unit_test_setup_teardown(test_uniform, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exponential, setup, teardown),
		cmocka_unit_test_setup_teardown(test_extremes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_above_range, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resolution, setup, teardown),
		cmocka_unit_test_setup_teardown(test_merge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reset, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
