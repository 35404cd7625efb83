/*
 * test_pattern.c - the offset generators (src/pattern.c), random ones
 * above all: pattern=random reads every block exactly once per pass, in an
 * order spread evenly over the file, whatever the size, seed and split into
 * shares; pattern=random-replace draws with replacement; and the distinct
 * blocks behind coverage_Bps are counted exactly.  tests/cli/offsets.py
 * checks the same permutation against an independent Python version.
 */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "io/pattern.h"

#define BS 4096

static const uint64_t sizes[] = { 1, 2, 3, 7, 64, 1000, 4097, 65537 };
static const uint64_t seeds[] = { 0, 1, 42, UINT64_C(0x7fffffffffffffff) };
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Block numbers of reads [first, end) of a random run of nblocks blocks. */
static void blocks(enum pattern_kind kind, uint64_t nblocks, uint64_t count, uint64_t seed,
		   uint64_t first, uint64_t end, uint64_t *out)
{
	struct pattern p;
	uint64_t off, len, n = 0;

	pattern_init(&p, kind, nblocks * BS, BS, BS, count, seed, first, end);
	while (pattern_next(&p, &off, &len)) {
		assert_int_equal(off % BS, 0);
		assert_int_equal(len, BS);
		assert_true(off / BS < nblocks);
		out[n++] = off / BS;
	}
	assert_int_equal(n, end - first);
}

/* Two passes, split into 1, 2 and 3 contiguous shares as threads split them:
 * every pass reads each block exactly once. */
static void test_random_reads_each_block_once_per_pass(void **state)
{
	(void)state;
	for (size_t s = 0; s < NELEM(sizes); s++)
		for (size_t k = 0; k < NELEM(seeds); k++)
			for (uint64_t shares = 1; shares <= 3; shares++) {
				uint64_t n = sizes[s], total = 2 * n;
				uint64_t *b = calloc(total, sizeof(*b));
				unsigned char *seen = calloc(2 * n, 1);

				assert_non_null(b);
				assert_non_null(seen);
				for (uint64_t t = 0; t < shares; t++)
					blocks(PATTERN_RANDOM, n, total, seeds[k], total * t / shares,
					       total * (t + 1) / shares, b + total * t / shares);
				for (uint64_t i = 0; i < total; i++)
					seen[(i / n) * n + b[i]]++;
				for (uint64_t i = 0; i < 2 * n; i++)
					if (seen[i] != 1)
						fail_msg("%llu blocks, seed %llu, %llu shares: block "
							 "%llu of pass %llu read %d times",
							 (unsigned long long)n,
							 (unsigned long long)seeds[k],
							 (unsigned long long)shares,
							 (unsigned long long)(i % n),
							 (unsigned long long)(i / n), seen[i]);
				free(b);
				free(seen);
			}
}

/*
 * Uniformity: the first half of a pass puts into each eighth of the file a
 * count within 4 standard deviations of its share (hypergeometric), and
 * ascents (block k+1 above block k) number (n-1)/2 within 4 sd (variance
 * (n+1)/12 for a random permutation); the identity order would fail both.
 */
static void test_random_order_is_spread_evenly(void **state)
{
	(void)state;
	for (size_t s = 4; s < NELEM(sizes); s++)
		for (size_t k = 0; k < NELEM(seeds); k++) {
			uint64_t n = sizes[s], half = n / 2, ascents = 0;
			uint64_t *b = calloc(n, sizeof(*b));

			assert_non_null(b);
			blocks(PATTERN_RANDOM, n, 0, seeds[k], 0, n, b);
			for (int e = 0; e < 8; e++) {
				uint64_t lo = n * (uint64_t)e / 8, hi = n * (uint64_t)(e + 1) / 8, c = 0;
				double share = (double)(hi - lo) / (double)n;
				double mean = (double)half * share;
				double sd = sqrt((double)half * share * (1 - share) *
						 (double)(n - half) / (double)(n - 1));

				for (uint64_t i = 0; i < half; i++)
					c += b[i] >= lo && b[i] < hi;
				if (fabs((double)c - mean) > 4 * sd)
					fail_msg("%llu blocks, seed %llu: eighth %d got %llu of the "
						 "first half, expected %.1f ± %.1f",
						 (unsigned long long)n, (unsigned long long)seeds[k], e,
						 (unsigned long long)c, mean, sd);
			}
			for (uint64_t i = 0; i + 1 < n; i++)
				ascents += b[i + 1] > b[i];
			assert_true(fabs((double)ascents - (double)(n - 1) / 2) <=
				    4 * sqrt((double)(n + 1) / 12));
			free(b);
		}
}

/* The same seed gives the same order; another seed or pass another one. */
static void test_random_order_is_seeded(void **state)
{
	uint64_t a[1000], b[1000], c[2000];

	(void)state;
	blocks(PATTERN_RANDOM, 1000, 0, 7, 0, 1000, a);
	blocks(PATTERN_RANDOM, 1000, 0, 7, 0, 1000, b);
	assert_memory_equal(a, b, sizeof(a));
	blocks(PATTERN_RANDOM, 1000, 0, 8, 0, 1000, b);
	assert_memory_not_equal(a, b, sizeof(a));
	blocks(PATTERN_RANDOM, 1000, 2000, 7, 0, 2000, c);
	assert_memory_equal(a, c, sizeof(a));
	assert_memory_not_equal(a, c + 1000, sizeof(a));
	/* a share starting mid-way reads what the whole run reads there */
	blocks(PATTERN_RANDOM, 1000, 2000, 7, 1500, 2000, b);
	assert_memory_equal(b, c + 1500, 500 * sizeof(*b));
}

/* By default a random run is one pass over the whole blocks; a partial last
 * block is not read. */
static void test_random_reads_whole_blocks(void **state)
{
	(void)state;
	assert_int_equal(pattern_reads(PATTERN_RANDOM, 10 * BS + 5, BS, BS, 0), 10);
	assert_int_equal(pattern_bytes(PATTERN_RANDOM, 10 * BS + 5, BS, BS, 0), 10 * BS);
	assert_int_equal(pattern_reads(PATTERN_RANDOM_REPLACE, 10 * BS + 5, BS, BS, 0), 10);
	assert_int_equal(pattern_reads(PATTERN_RANDOM, 10 * BS, BS, BS, 25), 25);
	assert_int_equal(pattern_reads(PATTERN_RANDOM, BS - 1, BS, BS, 0), 0);
}

static uint64_t distinct_of(const uint64_t *b, uint64_t n, uint64_t nblocks)
{
	unsigned char *seen = calloc(nblocks, 1);
	uint64_t d = 0;

	assert_non_null(seen);
	for (uint64_t i = 0; i < n; i++)
		d += !seen[b[i]]++;
	free(seen);
	return d;
}

/* random-replace: blocks repeat within a pass (1000 draws of 1000 blocks
 * leave about 1000/e unread), and the distinct count behind coverage_Bps is
 * exact; pattern=random's is too, in one pass, over passes and in pieces. */
static void test_distinct_blocks(void **state)
{
	uint64_t b[3000];
	struct pattern_range whole = { 0, 1000 }, two[2] = { { 600, 1000 }, { 1000, 1300 } };
	struct pattern_range gaps[3] = { { 0, 300 }, { 1100, 1500 }, { 2200, 2300 } };
	struct pattern_range split[2] = { { 500, 1000 }, { 0, 500 } };

	(void)state;
	blocks(PATTERN_RANDOM_REPLACE, 1000, 0, 3, 0, 1000, b);
	assert_true(distinct_of(b, 1000, 1000) < 700);
	assert_int_equal(pattern_distinct_blocks(PATTERN_RANDOM_REPLACE, 1000 * BS, BS, 3, NULL, &whole, 1),
			 distinct_of(b, 1000, 1000));

	blocks(PATTERN_RANDOM, 1000, 3000, 3, 0, 3000, b);
	assert_int_equal(pattern_distinct_blocks(PATTERN_RANDOM, 1000 * BS, BS, 3, NULL, &whole, 1), 1000);
	assert_int_equal(pattern_distinct_blocks(PATTERN_RANDOM, 1000 * BS, BS, 3, NULL, split, 2), 1000);
	/* reads 600..1300: the end of pass 0 and the start of pass 1 overlap */
	assert_int_equal(pattern_distinct_blocks(PATTERN_RANDOM, 1000 * BS, BS, 3, NULL, two, 2),
			 distinct_of(b + 600, 700, 1000));
	uint64_t pieces[800];
	memcpy(pieces, b, 300 * sizeof(*b));
	memcpy(pieces + 300, b + 1100, 400 * sizeof(*b));
	memcpy(pieces + 700, b + 2200, 100 * sizeof(*b));
	assert_int_equal(pattern_distinct_blocks(PATTERN_RANDOM, 1000 * BS, BS, 3, NULL, gaps, 3),
			 distinct_of(pieces, 800, 1000));
	/* one pass, partly read: each read a different block */
	assert_int_equal(pattern_distinct_blocks(PATTERN_RANDOM, 1000 * BS, BS, 3, NULL, gaps, 1), 300);
}

/* The span of a share covers every byte its reads touch, and no more:
 * sequential and reverse shares of a file whose last block is short,
 * sparse ones, and the random patterns (the file, wherever they go). */
static void test_span_covers_the_reads(void **state)
{
	static const enum pattern_kind kinds[] = { PATTERN_SEQUENTIAL, PATTERN_REVERSE,
						   PATTERN_RANDOM, PATTERN_RANDOM_REPLACE };
	static const uint64_t spacings[] = { BS, 3 * BS, 1 << 20 };
	const uint64_t size = (8 << 20) + 100;

	(void)state;
	for (size_t k = 0; k < NELEM(kinds); k++)
		for (size_t s = 0; s < NELEM(spacings); s++) {
			uint64_t spacing = pattern_is_random(kinds[k]) ? BS : spacings[s];
			uint64_t n = pattern_reads(kinds[k], size, BS, spacing, 0);

			for (uint64_t parts = 1; parts <= 5; parts++)
				for (uint64_t i = 0; i < parts; i++) {
					struct pattern p;
					uint64_t off, len, lo = UINT64_MAX, hi = 0, first, span;

					pattern_init(&p, kinds[k], size, BS, spacing, 0, 1, n * i / parts,
						     n * (i + 1) / parts);
					span = pattern_span(&p, &first);
					while (pattern_next(&p, &off, &len)) {
						lo = off < lo ? off : lo;
						hi = off + len > hi ? off + len : hi;
					}
					if (pattern_is_random(kinds[k])) {
						assert_int_equal(first, 0);
						assert_int_equal(span, size);
					} else if (hi) {
						assert_int_equal(first, lo);
						assert_int_equal(span, hi - lo);
					} else {
						assert_int_equal(span, 0);
					}
				}
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_reads_each_block_once_per_pass),
		cmocka_unit_test(test_random_order_is_spread_evenly),
		cmocka_unit_test(test_random_order_is_seeded),
		cmocka_unit_test(test_random_reads_whole_blocks),
		cmocka_unit_test(test_distinct_blocks),
		cmocka_unit_test(test_span_covers_the_reads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
