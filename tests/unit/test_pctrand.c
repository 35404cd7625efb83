/*
 * test_pctrand.c - percentage_random (src/io/pattern.c): about N percent of
 * the units are random and the others read the block after the unit before
 * them; any split into contiguous shares reads what the whole run reads;
 * 0 is in order from block 0 and 100 changes nothing; the distinct blocks
 * behind coverage_Bps are counted exactly; a block-size mix refuses it.
 * tests/cli/pctrand_ref.py checks the offsets against an independent Python
 * version.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "io/bsmix.h"
#include "io/pattern.h"
#include "lib/error.h"

#define BS 4096
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static const enum pattern_kind kinds[] = { PATTERN_RANDOM, PATTERN_RANDOM_REPLACE };
static const char *const dists[] = { NULL, "zipf:1.1" };

/* Block numbers of units [first, end) of a run of nblocks blocks. */
static void blocks(enum pattern_kind kind, const char *dist, unsigned pct, uint64_t nblocks,
		   uint64_t count, uint64_t seed, uint64_t first, uint64_t end, uint64_t *out)
{
	struct pattern p;
	uint64_t off, len, n = 0;
	char err[ERR_MAX];

	pattern_init(&p, kind, nblocks * BS, BS, BS, count, seed, first, end);
	assert_int_equal(pattern_skew(&p, dist, err), 0);
	pattern_percent(&p, pct);
	while (pattern_next(&p, &off, &len)) {
		assert_int_equal(off % BS, 0);
		assert_int_equal(len, BS);
		assert_true(off / BS < nblocks);
		out[n++] = off / BS;
	}
	assert_int_equal(n, end - first);
}

/* Over many units, the share that follow the unit before them is 100 - N
 * percent (within 1 point: 4 standard deviations are 0.45 at most). */
static void test_share_of_sequential_units(void **state)
{
	static const unsigned pcts[] = { 0, 1, 30, 50, 99 };
	const uint64_t nblocks = 1 << 20, n = 200000;
	uint64_t *b = calloc(n, sizeof(*b));

	(void)state;
	assert_non_null(b);
	for (size_t k = 0; k < NELEM(kinds); k++)
		for (size_t i = 0; i < NELEM(pcts); i++) {
			uint64_t seq = 0;
			double share;

			blocks(kinds[k], NULL, pcts[i], nblocks, n, 7, 0, n, b);
			for (uint64_t u = 1; u < n; u++)
				seq += b[u] == (b[u - 1] + 1) % nblocks;
			share = 100.0 * (double)seq / (double)(n - 1);
			if (share < 99.0 - pcts[i] || share > 101.0 - pcts[i])
				fail_msg("percentage_random=%u: %.2f%% of the units sequential", pcts[i],
					 share);
		}
	free(b);
}

/* Split into 1 to 5 contiguous shares, over more than a pass: the same
 * blocks unit by unit as the whole run. */
static void test_shares_read_what_the_run_reads(void **state)
{
	static const unsigned pcts[] = { 0, 1, 30, 70 };
	static const uint64_t sizes[] = { 1, 7, 1000 };

	(void)state;
	for (size_t k = 0; k < NELEM(kinds); k++)
		for (size_t d = 0; d < NELEM(dists); d++)
			for (size_t s = 0; s < NELEM(sizes); s++)
				for (size_t i = 0; i < NELEM(pcts); i++) {
					uint64_t n = sizes[s], total = 3 * n + 5;
					uint64_t *whole = calloc(total, sizeof(*whole));
					uint64_t *part = calloc(total, sizeof(*part));

					assert_non_null(whole);
					assert_non_null(part);
					blocks(kinds[k], dists[d], pcts[i], n, total, 3, 0, total, whole);
					for (uint64_t shares = 2; shares <= 5; shares++) {
						for (uint64_t t = 0; t < shares; t++)
							blocks(kinds[k], dists[d], pcts[i], n, total, 3,
							       total * t / shares, total * (t + 1) / shares,
							       part + total * t / shares);
						assert_memory_equal(whole, part, total * sizeof(*part));
					}
					free(whole);
					free(part);
				}
}

/* 0: unit k reads block k mod nblocks; 100: what the pattern reads without
 * percentage_random. */
static void test_the_ends(void **state)
{
	const uint64_t n = 1000, total = 2500;
	uint64_t *a = calloc(total, sizeof(*a)), *b = calloc(total, sizeof(*b));
	struct pattern p;
	uint64_t off, len, u = 0;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	for (size_t k = 0; k < NELEM(kinds); k++) {
		blocks(kinds[k], NULL, 0, n, total, 5, 0, total, a);
		for (uint64_t i = 0; i < total; i++)
			assert_int_equal(a[i], i % n);
		blocks(kinds[k], NULL, 100, n, total, 5, 0, total, a);
		pattern_init(&p, kinds[k], n * BS, BS, BS, total, 5, 0, total);
		for (u = 0; pattern_next(&p, &off, &len); u++)
			b[u] = off / BS;
		assert_int_equal(u, total);
		assert_memory_equal(a, b, total * sizeof(*a));
	}
	free(a);
	free(b);
}

/* The distinct blocks of any ranges of units, as a bitmap of the blocks
 * they read counts them. */
static void test_distinct_blocks(void **state)
{
	static const unsigned pcts[] = { 0, 10, 60 };
	const uint64_t n = 1000, total = 1500;
	uint64_t *b = calloc(total, sizeof(*b));
	struct pattern_range r[2] = { { 100, 400 }, { 700, 1500 } };

	(void)state;
	assert_non_null(b);
	for (size_t k = 0; k < NELEM(kinds); k++)
		for (size_t i = 0; i < NELEM(pcts); i++) {
			unsigned char seen[1000] = { 0 };
			uint64_t want = 0;

			blocks(kinds[k], NULL, pcts[i], n, total, 9, 0, total, b);
			for (size_t j = 0; j < NELEM(r); j++)
				for (uint64_t u = r[j].from; u < r[j].to; u++) {
					want += !seen[b[u]];
					seen[b[u]] = 1;
				}
			assert_int_equal(pattern_distinct_blocks_pct(kinds[k], n * BS, BS, 9, NULL,
								     pcts[i], r, NELEM(r)),
					 want);
		}
	free(b);
}

/* A block-size mix is in order or at random: not both. */
static void test_mix_refuses_it(void **state)
{
	struct pattern p;
	struct bsmix m;
	char err[ERR_MAX];

	(void)state;
	assert_int_equal(bsmix_parse(&m, "4k/50:8k/50", NULL, 0, 1, err), 0);
	pattern_init(&p, PATTERN_RANDOM, 1 << 20, 8192, 8192, 0, 1, 0, 0);
	pattern_percent(&p, 50);
	assert_int_equal(pattern_mix(&p, &m, 0, 50, 0, 0, err), -1);
	assert_non_null(strstr(err, "percentage_random"));
	pattern_init(&p, PATTERN_RANDOM, 1 << 20, 8192, 8192, 0, 1, 0, 0);
	pattern_percent(&p, 100);
	assert_int_equal(pattern_mix(&p, &m, 0, 50, 0, 0, err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_share_of_sequential_units),
		cmocka_unit_test(test_shares_read_what_the_run_reads),
		cmocka_unit_test(test_the_ends),
		cmocka_unit_test(test_distinct_blocks),
		cmocka_unit_test(test_mix_refuses_it),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
