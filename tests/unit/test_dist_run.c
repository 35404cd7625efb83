/*
 * test_dist_run.c - unit tests of the shares of a file read by several ranks
 * and of consume=ints across the cuts between shares (src/dist_run.c).
 *
 * The ints tests cut texts into shares at every kind of place (inside a
 * number, next to one, a number over several cuts, numbers longer than 20
 * digits that wrap mod 2^64) and check that the shares' sums, each counted
 * on its own as the timed loop counts it, plus the corrections, equal the
 * sum of the whole text computed here independently.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "run/dist_run.h"
#include "lib/error.h"
#include "testutil.h"

/* The sum mod 2^64 of the maximal digit runs of s[0..n): consume=ints. */
static uint64_t ints_sum(const unsigned char *s, size_t n)
{
	uint64_t sum = 0, acc = 0;
	bool open = false;

	for (size_t i = 0; i < n; i++) {
		if (s[i] >= '0' && s[i] <= '9') {
			acc = acc * 10 + (uint64_t)(s[i] - '0');
			open = true;
		} else if (open) {
			sum += acc;
			acc = 0;
			open = false;
		}
	}
	return open ? sum + acc : sum;
}

/* Shares cut at the given offsets, each summed alone, then corrected from
 * the window dist_ints_correction reads around its start. */
static uint64_t shares_sum(const unsigned char *s, size_t n, const size_t *cut, size_t ncut)
{
	uint64_t sum = 0;

	for (size_t k = 0; k <= ncut; k++) {
		size_t at = k ? cut[k - 1] : 0, end = k < ncut ? cut[k] : n;
		size_t nb = at < DIST_INTS_WINDOW ? at : DIST_INTS_WINDOW;
		size_t na = end - at < DIST_INTS_WINDOW ? end - at : DIST_INTS_WINDOW;

		sum += ints_sum(s + at, end - at);
		if (at > 0 && end > at)
			sum += dist_ints_join(s + at - nb, nb, s + at, na);
	}
	return sum;
}

static void test_share_covers_everything(void **state)
{
	(void)state;
	for (uint64_t n = 0; n < 40; n++)
		for (int ranks = 1; ranks <= 7; ranks++) {
			uint64_t prev = 0;

			for (int k = 0; k < ranks; k++) {
				uint64_t first, end;

				dist_share(n, k, ranks, &first, &end);
				assert_int_equal(first, prev);
				assert_true(end >= first && end - first <= n / (uint64_t)ranks + 1);
				prev = end;
			}
			assert_int_equal(prev, n);
		}
}

static void test_share_huge(void **state)
{
	uint64_t first, end;

	(void)state;
	/* n * k does not overflow 64 bits */
	dist_share(UINT64_MAX, 2, 3, &first, &end);
	assert_int_equal(first, UINT64_MAX / 3 * 2);
	assert_int_equal(end, UINT64_MAX);
}

static void test_join_cases(void **state)
{
	const unsigned char *t = (const unsigned char *)"12\n345\n6\n";
	(void)state;
	/* "3|45": 3 + 45 counted, 345 wanted: 3 * (100 - 1) */
	assert_int_equal(dist_ints_join(t, 4, t + 4, 5), 297);
	/* "345\n|6": nothing cut */
	assert_int_equal(dist_ints_join(t, 7, t + 7, 2), 0);
	/* "12|\n345": nothing cut */
	assert_int_equal(dist_ints_join(t, 2, t + 2, 4), 0);
	assert_int_equal(dist_ints_join(t, 0, t, 3), 0);
}

static void test_join_every_cut(void **state)
{
	const unsigned char *t = (const unsigned char *)"7 123456 0 99999 18446744073709551615 x"
							"184467440737095516161234567890123 42";
	size_t n = strlen((const char *)t);

	(void)state;
	for (size_t a = 1; a < n; a++) {
		assert_int_equal(shares_sum(t, n, &a, 1), ints_sum(t, n));
		for (size_t b = a + 1; b < n; b++) {
			size_t cut[2] = { a, b };

			assert_int_equal(shares_sum(t, n, cut, 2), ints_sum(t, n));
		}
	}
}

static void test_join_random(void **state)
{
	enum { N = 3000 };
	unsigned char t[N];
	unsigned seed = 12345;

	(void)state;
	for (int round = 0; round < 200; round++) {
		size_t cut[8], ncut = 1 + (size_t)(rand_r(&seed) % 8);

		/* long digit runs (up to 200 digits) and short gaps */
		for (size_t i = 0; i < N;) {
			size_t len = 1 + (size_t)(rand_r(&seed) % (round % 2 ? 200 : 12));

			for (size_t k = 0; k < len && i < N; k++)
				t[i++] = (unsigned char)('0' + rand_r(&seed) % 10);
			if (i < N)
				t[i++] = rand_r(&seed) % 2 ? '\n' : ' ';
		}
		for (size_t k = 0; k < ncut; k++)
			cut[k] = (size_t)((uint64_t)N * (k + 1) / (ncut + 1)) +
				 (size_t)(rand_r(&seed) % 5);
		assert_int_equal(shares_sum(t, N, cut, ncut), ints_sum(t, N));
	}
}

/* The same through a file, as the runner calls it. */
static void test_correction_from_file(void **state)
{
	char path[PATH_MAX], err[ERR_MAX];
	const char *text = "1000\n2000\n3000\n";
	int fd = test_file_in(test_dir(), "dist-run", path, sizeof(path));
	uint64_t add = 1;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	/* "10|00": 10 + 0 counted, 1000 wanted */
	assert_int_equal(dist_ints_correction(path, 2, 15, &add, err), 0);
	assert_int_equal(add, 990);
	assert_int_equal(dist_ints_correction(path, 0, 15, &add, err), 0);
	assert_int_equal(add, 0);
	unlink(path);
	assert_int_equal(dist_ints_correction(path, 2, 15, &add, err), -1);
	assert_non_null(strstr(err, "consume=ints"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_share_covers_everything),
		cmocka_unit_test(test_share_huge),
		cmocka_unit_test(test_join_cases),
		cmocka_unit_test(test_join_every_cut),
		cmocka_unit_test(test_join_random),
		cmocka_unit_test(test_correction_from_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
