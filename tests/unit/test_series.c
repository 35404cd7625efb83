/*
 * test_series.c - unit tests of the per-interval series (src/series.c).
 *
 * A known set of samples (completion time, latency, direction) is recorded
 * into two series as two workers would; the merged series must sum exactly
 * to the samples, put each sample in the interval of its completion time,
 * and give per-interval percentiles within the histogram's 1% of the exact
 * percentile of that interval's own samples.  Coarsening merges pairs and
 * doubles the interval without losing a sample.  The live view gets the
 * latest interval completed, whole, and nothing of an earlier repeat.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "io/series.h"
#include "testutil.h"

#define N 20000
#define MS 1000000ULL

struct sample {
	uint64_t t, lat;
	int dir;
};

static struct sample samples[N];

static uint64_t rng = 88172645463325252ULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The exact percentile: the value of rank ceil(p/100 n) of the sorted values. */
static uint64_t exact(uint64_t *v, size_t n, double p)
{
	size_t rank = (size_t)((p / 100.0) * (double)n + 0.999999);

	qsort(v, n, sizeof(*v), cmp_u64);
	return v[(rank ? rank : 1) - 1];
}

static void within_1pct(uint64_t got, uint64_t want)
{
	double d = (double)got - (double)want;

	assert_true(d <= 0.01 * (double)want && -d <= 0.01 * (double)want);
}

static int cmp_t(const void *a, const void *b)
{
	return cmp_u64(&((const struct sample *)a)->t, &((const struct sample *)b)->t);
}

/* Samples over 20 intervals of 10 ms, interval 7 much slower (a stall), in
 * the order of their completion times as a worker records them. */
static void make_samples(void)
{
	for (size_t i = 0; i < N; i++) {
		samples[i].t = 1000 + next() % (200 * MS);
		samples[i].lat = 1000 + next() % 100000;
		if (samples[i].t / (10 * MS) == 7)
			samples[i].lat += 50 * MS;
		samples[i].dir = (int)(next() % 4 == 0); /* a quarter writes */
	}
	qsort(samples, N, sizeof(*samples), cmp_t);
}

static void record_two_workers(struct series *a, struct series *b)
{
	series_start(a, 0, 10 * MS);
	series_start(b, 0, 10 * MS);
	for (size_t i = 0; i < N; i++)
		series_record(i % 2 ? a : b, samples[i].dir, samples[i].t, samples[i].lat, 4096);
	series_merge(a, b);
}

static void test_sums_and_percentiles(void **state)
{
	struct series *a = calloc(2, sizeof(*a)), *b = a + 1;
	static uint64_t vals[N];

	(void)state;
	make_samples();
	assert_int_equal(series_init(a), 0);
	assert_int_equal(series_init(b), 0);
	record_two_workers(a, b);
	assert_int_equal(a->coarsened, 0);
	assert_int_equal(series_used(a), 20);
	uint64_t ops = 0, bytes = 0;
	for (unsigned k = 0; k < 20; k++)
		for (int d = 0; d < IO_DIRS; d++) {
			size_t n = 0;

			for (size_t i = 0; i < N; i++)
				if (samples[i].t / (10 * MS) == k && samples[i].dir == d)
					vals[n++] = samples[i].lat;
			assert_int_equal(a->slot[k].ops[d], n);
			assert_true(n > 0);
			ops += a->slot[k].ops[d];
			bytes += a->slot[k].bytes[d];
			within_1pct(hist_percentile(a->slot[k].h[d], 50), exact(vals, n, 50));
			within_1pct(hist_percentile(a->slot[k].h[d], 99), exact(vals, n, 99));
			assert_int_equal(hist_max(a->slot[k].h[d]), exact(vals, n, 100));
			/* the stall is in its interval and no other */
			assert_true((hist_percentile(a->slot[k].h[d], 50) > 50 * MS) == (k == 7));
		}
	assert_int_equal(ops, N);
	assert_int_equal(bytes, (uint64_t)N * 4096);
	series_free(a);
	series_free(b);
	free(a);
}

static void test_coarsening(void **state)
{
	struct series *a = calloc(2, sizeof(*a)), *b = a + 1;
	uint64_t ops = 0;

	(void)state;
	assert_int_equal(series_init(a), 0);
	assert_int_equal(series_init(b), 0);
	series_start(a, 0, MS);
	series_start(b, 0, MS);
	/* 100 ms at 1 ms needs 100 slots: coarsened twice to 4 ms (25 slots) */
	for (uint64_t t = 0; t < 100 * MS; t += MS / 2)
		series_record(a, IO_READ, t, 10, 1);
	assert_int_equal(a->coarsened, 2);
	assert_int_equal(a->interval_ns, 4 * MS);
	assert_int_equal(series_used(a), 25);
	for (unsigned k = 0; k < 25; k++)
		assert_int_equal(a->slot[k].ops[IO_READ], 8);
	/* a finer worker is brought to the coarser one's interval before merging */
	series_record(b, IO_READ, 3 * MS, 10, 1);
	series_merge(b, a);
	assert_int_equal(b->interval_ns, 4 * MS);
	for (unsigned k = 0; k < SERIES_SLOTS; k++)
		ops += b->slot[k].ops[IO_READ];
	assert_int_equal(ops, 201);
	assert_int_equal(b->slot[0].ops[IO_READ], 9);
	series_free(a);
	series_free(b);
	free(a);
}

/* The samples of interval k (of 10 ms), both directions: count and bytes. */
static uint64_t count_in(unsigned k)
{
	uint64_t n = 0;

	for (size_t i = 0; i < N; i++)
		n += samples[i].t / (10 * MS) == k;
	return n;
}

static void test_live(void **state)
{
	struct series *a = calloc(1, sizeof(*a));
	struct series_live *l = calloc(1, sizeof(*l));
	const struct series_live_iv *iv;
	size_t i = 0;

	(void)state;
	make_samples();
	assert_int_equal(series_init(a), 0);
	assert_int_equal(series_live_init(l), 0);
	a->live = l;
	series_start(a, 0, 10 * MS);
	assert_null(series_live_take(l));
	/* up to the first sample of interval 4: interval 3 is the latest completed */
	for (; samples[i].t < 40 * MS; i++)
		series_record(a, samples[i].dir, samples[i].t, samples[i].lat, 4096);
	iv = series_live_take(l); /* interval 3 has not ended yet: 2 is the latest */
	assert_non_null(iv);
	assert_int_equal(iv->end_ns, 30 * MS);
	assert_int_equal(iv->bytes, count_in(2) * 4096);
	series_record(a, samples[i].dir, samples[i].t, samples[i].lat, 4096);
	iv = series_live_take(l);
	assert_non_null(iv);
	assert_int_equal(iv->end_ns, 40 * MS);
	assert_int_equal(iv->len_ns, 10 * MS);
	assert_false(iv->last);
	assert_int_equal(iv->bytes, count_in(3) * 4096);
	assert_int_equal(hist_count(iv->lat), count_in(3));
	uint64_t rmax = hist_max(a->slot[3].h[IO_READ]), wmax = hist_max(a->slot[3].h[IO_WRITE]);
	assert_int_equal(hist_max(iv->lat), rmax > wmax ? rmax : wmax);
	/* taken again with nothing new: the same */
	assert_ptr_equal(series_live_take(l), iv);
	/* nothing in intervals 5..9: the latest completed is 9, empty */
	series_record(a, IO_READ, 105 * MS, 10, 4096);
	iv = series_live_take(l);
	assert_int_equal(iv->end_ns, 100 * MS);
	assert_int_equal(iv->bytes, 0);
	assert_int_equal(hist_count(iv->lat), 0);
	/* the worker ends in interval 10: that one, marked last */
	series_live_end(a, 107 * MS);
	iv = series_live_take(l);
	assert_true(iv->last);
	assert_int_equal(iv->end_ns, 110 * MS);
	assert_int_equal(iv->bytes, 4096);
	/* a new repeat: nothing of the last one */
	series_start(a, 0, 10 * MS);
	assert_null(series_live_take(l));
	/* past 32 slots the series is coarsened: the interval published doubles */
	series_record(a, IO_READ, 325 * MS, 10, 4096);
	iv = series_live_take(l);
	assert_int_equal(iv->end_ns, 320 * MS);
	assert_int_equal(iv->len_ns, 10 * MS);
	series_record(a, IO_READ, 345 * MS, 10, 4096);
	iv = series_live_take(l);
	assert_int_equal(iv->len_ns, 20 * MS);
	assert_int_equal(iv->end_ns, 340 * MS);
	assert_int_equal(iv->bytes, 4096);
	series_live_free(l);
	series_free(a);
	free(l);
	free(a);
}

/* Residency is asked at every boundary where that is cheap, and where one
 * look costs more than 1% of an interval only at every Nth boundary: N
 * from what the look cost (measured at series_start), and again when the
 * interval doubles. */
static void test_residency_is_paced(void **state)
{
	struct series *s = calloc(1, sizeof(*s));
	int fd = test_scratch("series");

	(void)state;
	assert_non_null(s);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "a 16-byte file.\n", 16), 16);
	assert_int_equal(series_init(s), 0);
	s->fd = fd;
	s->size = 16;
	/* a 16-byte file: far below 1% of 10 s (of 10 ms it was not, 1 time in
	 * 60, when the look was descheduled on a loaded machine) */
	series_start(s, 0, 10000 * MS);
	assert_int_equal(s->resid_every, 1);
	for (uint64_t k = 1; k < 8; k++) {
		series_record(s, 0, k * 10000 * MS + 1, 1000, 4096);
		assert_true(s->slot[k].resident >= 0 || s->slot[0].resident < 0);
	}
	/* as if one look took 0.25 ms: 2.5% of 10 ms, so every 3rd boundary */
	series_start(s, 0, 10 * MS);
	s->resid_cost_ns = 250000;
	s->resid_every = 1 + s->resid_cost_ns * 100 / s->interval_ns;
	assert_int_equal(s->resid_every, 3);
	for (uint64_t k = 1; k < 16; k++) {
		series_record(s, 0, k * 10 * MS + 1, 1000, 4096);
		if (k % 3)
			assert_true(s->slot[k].resident < 0);
	}
	/* coarsened: 20 ms intervals, 1.25%: every 2nd */
	series_coarsen(s);
	assert_int_equal(s->resid_every, 2);
	close(fd);
	series_free(s);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sums_and_percentiles),
		cmocka_unit_test(test_coarsening),
		cmocka_unit_test(test_live),
		cmocka_unit_test(test_residency_is_paced),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
