/*
 * test_distribution.c - random_distribution (src/io/distribution.c): fio's
 * rules for the values it takes, zones laid out as written, every draw a
 * block of the file, the same for a seed and read number whatever the share,
 * and skew that shows (zipf's hottest block far above uniform's).
 * tests/cli/shapes.bats checks the draws against an independent Python
 * version and the distributions' probabilities.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "io/distribution.h"
#include "io/pattern.h"
#include "lib/error.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static void accepts_what_fio_accepts(void **state)
{
	static const char *const good[] = { "random",	  "zipf",	 "zipf:1.2",   "zipf:0.8:0.25",
					    "pareto",	  "pareto:0.2", "normal",     "normal:5",
					    "normal:0:1", "zoned:60/10:30/20:8/30:2/40", "zoned:60:40",
					    "zoned:100/10", "zoned_abs:50/1m:50/3m" };
	struct randdist_spec s;
	char err[ERR_MAX];

	(void)state;
	for (size_t i = 0; i < NELEM(good); i++)
		assert_int_equal(randdist_parse(good[i], &s, err), 0);
	assert_int_equal(randdist_parse("zipf", &s, err), 0);
	assert_true(s.kind == RANDDIST_ZIPF && s.param == 1.1 && s.center == -1);
	assert_int_equal(randdist_parse("zoned:60:40", &s, err), 0);
	assert_int_equal(s.nzones, 2);
	assert_int_equal(s.zone[0].size, 50);
	assert_int_equal(s.zone[1].size, 50);
}

static void refuses_what_fio_refuses(void **state)
{
	static const char *const bad[] = { "zipf:1",	 "zipf:0",	"pareto:1",	  "pareto:0",
					   "normal:100", "normal:-1",	"zipf:1.2:2",	  "zipf:x",
					   "zipf:",	 "zoned:50/10:40/10", "zoned:60/50:40/60",
					   "zoned:101/10", "zoned:60/0:40/10", "zoned:", "gauss:5",
					   "random:1",	 "zoned_abs:60:40/1m", "zoned:60/10/2:40" };
	struct randdist_spec s;
	char err[ERR_MAX];

	(void)state;
	for (size_t i = 0; i < NELEM(bad); i++) {
		err[0] = '\0';
		assert_int_equal(randdist_parse(bad[i], &s, err), -1);
		assert_non_null(strstr(err, bad[i]));
	}
}

static void zones_are_laid_out_in_order(void **state)
{
	struct randdist_spec s;
	struct randdist d;
	char err[ERR_MAX];

	(void)state;
	assert_int_equal(randdist_parse("zoned:60/10:30/20:10/70", &s, err), 0);
	assert_int_equal(randdist_prepare(&d, &s, 1000, 4096, 1, err), 0);
	assert_int_equal(d.pick[0].start, 0);
	assert_int_equal(d.pick[59].len, 100);
	assert_int_equal(d.pick[60].start, 100);
	assert_int_equal(d.pick[89].len, 200);
	assert_int_equal(d.pick[99].start, 300);
	assert_int_equal(d.pick[99].len, 700);
	assert_int_equal(randdist_parse("zoned_abs:50/1m:50/3m", &s, err), 0);
	assert_int_equal(randdist_prepare(&d, &s, 1024, 4096, 1, err), 0);
	assert_int_equal(d.pick[50].start, 256);
	assert_int_equal(d.pick[50].len, 768);
	assert_int_equal(randdist_prepare(&d, &s, 1023, 4096, 1, err), -1);
	assert_non_null(strstr(err, "beyond"));
}

/* Every draw is a block; the draws depend only on seed and read number, so
 * a share generated on its own reads what the whole run reads there. */
static void draws_are_blocks_and_shares_agree(void **state)
{
	static const char *const dists[] = { "zipf:1.2", "zipf:0.5:0.5", "pareto:0.1", "normal:30",
					     "normal:10:0", "zoned:90/1:10/99", "zoned:100/100" };
	static const uint64_t nblocks[] = { 1, 2, 3, 100, 4097 };
	char err[ERR_MAX];

	(void)state;
	for (size_t i = 0; i < NELEM(dists); i++)
		for (size_t n = 0; n < NELEM(nblocks); n++) {
			struct pattern whole, share;
			uint64_t off, len, off2, len2, k = 0;

			pattern_init(&whole, PATTERN_RANDOM, nblocks[n] * 512, 512, 512, 3000, 9, 0,
				     3000);
			pattern_init(&share, PATTERN_RANDOM, nblocks[n] * 512, 512, 512, 3000, 9, 1000,
				     2000);
			assert_int_equal(pattern_skew(&whole, dists[i], err), 0);
			assert_int_equal(pattern_skew(&share, dists[i], err), 0);
			while (pattern_next(&whole, &off, &len)) {
				assert_true(off / 512 < nblocks[n]);
				assert_int_equal(off % 512, 0);
				assert_int_equal(len, 512);
				if (k >= 1000 && k < 2000) {
					assert_true(pattern_next(&share, &off2, &len2));
					assert_int_equal(off, off2);
				}
				k++;
			}
			assert_int_equal(k, 3000);
			assert_false(pattern_next(&share, &off2, &len2));
		}
}

/* zipf:1.2's hottest of 1000 blocks takes some 30% of 20000 reads (its
 * zeta is ~5.2, so rank 1 ~1/5.2); uniform's well under 1%. */
static void zipf_is_skewed(void **state)
{
	static unsigned hits[1000];
	const char *dists[] = { "zipf:1.2", "random" };
	char err[ERR_MAX];

	(void)state;
	for (size_t i = 0; i < NELEM(dists); i++) {
		struct pattern p;
		uint64_t off, len;
		unsigned top = 0;

		memset(hits, 0, sizeof(hits));
		pattern_init(&p, PATTERN_RANDOM_REPLACE, 1000ULL * 512, 512, 512, 20000, 3, 0, 20000);
		assert_int_equal(pattern_skew(&p, dists[i], err), 0);
		while (pattern_next(&p, &off, &len))
			hits[off / 512]++;
		for (size_t b = 0; b < 1000; b++)
			top = hits[b] > top ? hits[b] : top;
		if (i == 0)
			assert_true(top > 3000 && top < 5000);
		else
			assert_true(top < 100);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(accepts_what_fio_accepts),
		cmocka_unit_test(refuses_what_fio_refuses),
		cmocka_unit_test(zones_are_laid_out_in_order),
		cmocka_unit_test(draws_are_blocks_and_shares_agree),
		cmocka_unit_test(zipf_is_skewed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
