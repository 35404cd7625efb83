/*
 * test_bssplit.c - block-size mixes (src/io/bsmix.c and pattern_mix): fio's
 * weight rules (blanks share what is left, short of 100 goes to the largest
 * weight, over 100 refused), bsrange's steps, and a mixed pattern whose
 * shares, generated on their own, are the whole run's units in order.
 * tests/cli/bssplit.bats checks the units against an independent Python
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

static void weights_follow_fios_rules(void **state)
{
	struct bsmix m;
	char err[ERR_MAX];

	(void)state;
	assert_int_equal(bsmix_parse(&m, "4k/50:1k/:32k/", NULL, 0, 1, err), 0);
	assert_int_equal(m.dir[0].n, 3);
	assert_int_equal(m.dir[0].cum[0], 50);
	assert_int_equal(m.dir[0].cum[1], 75);
	assert_int_equal(m.dir[0].cum[2], 100);
	assert_true(m.same);
	assert_int_equal(m.min, 1024);
	assert_int_equal(m.max, 32768);
	assert_int_equal(m.align, 1024);
	/* 70 given: the 30 left go to 64k, the largest weight */
	assert_int_equal(bsmix_parse(&m, "4k/10:64k/60", NULL, 0, 1, err), 0);
	assert_int_equal(m.dir[0].rest, 1);
	assert_int_equal(m.dir[0].cum[1], 70);
	/* per direction */
	assert_int_equal(bsmix_parse(&m, "2k/50:4k/50,4k/90:8k/10", NULL, 0, 1, err), 0);
	assert_false(m.same);
	assert_int_equal(m.dir[1].size[1], 8192);
	assert_int_equal(m.min, 2048);
	assert_int_equal(m.max, 8192);
	assert_int_equal(bsmix_parse(&m, "4k/60:8k/50", NULL, 0, 1, err), -1);
	assert_non_null(strstr(err, "more than 100"));
	assert_int_equal(bsmix_parse(&m, ",8k/100", NULL, 0, 1, err), -1);
	assert_int_equal(bsmix_parse(&m, NULL, "16k-4k", 0, 1, err), -1);
}

static void every_length_is_a_size_of_the_mix(void **state)
{
	struct bsmix m;
	char err[ERR_MAX];
	unsigned seen[5] = { 0 };

	(void)state;
	assert_int_equal(bsmix_parse(&m, NULL, "4k-20k", 4096, 7, err), 0);
	assert_int_equal(m.dir[0].steps, 5);
	for (uint64_t k = 0; k < 10000; k++) {
		uint64_t len = bsmix_len(&m, 0, k);

		assert_true(len >= 4096 && len <= 20480 && len % 4096 == 0);
		seen[len / 4096 - 1]++;
	}
	for (int i = 0; i < 5; i++)
		assert_in_range(seen[i], 1700, 2300); /* 2000 each, uniform */
}

/* Shares of a sequential mix, each set up on its own, are the run's units. */
static void shares_are_the_runs_units(void **state)
{
	struct bsmix m;
	struct pattern all, part;
	char err[ERR_MAX];
	uint64_t off, len, off2, len2, n = 0;

	(void)state;
	assert_int_equal(bsmix_parse(&m, "4k/50:8k/30:64k/", NULL, 0, 3, err), 0);
	pattern_init(&all, PATTERN_SEQUENTIAL, 1 << 20, m.max, m.max, 0, 3, 0, 0);
	assert_int_equal(pattern_mix(&all, &m, 0, 0, 0, 0, err), 0);
	all.end = all.total;
	assert_true(all.total > 16);
	for (uint64_t first = 0; first < all.total; first += 7) {
		pattern_init(&part, PATTERN_SEQUENTIAL, 1 << 20, m.max, m.max, 0, 3, first,
			     first + 7 < all.total ? first + 7 : all.total);
		assert_int_equal(pattern_mix(&part, &m, 0, 0, 0, all.total, err), 0);
		while (pattern_next(&part, &off2, &len2)) {
			assert_true(pattern_next(&all, &off, &len));
			assert_int_equal(off, off2);
			assert_int_equal(len, len2);
			n++;
		}
	}
	assert_int_equal(n, all.total);
	assert_int_equal(off + len, 1 << 20); /* the last is cut at the end of the file */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(weights_follow_fios_rules),
		cmocka_unit_test(every_length_is_a_size_of_the_mix),
		cmocka_unit_test(shares_are_the_runs_units),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
