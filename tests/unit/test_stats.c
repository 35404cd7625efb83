/*
 * test_stats.c - unit tests of the summary statistics and the Mann-Whitney
 * U test (src/stats.c).
 *
 * Every expected value is worked out by hand in a comment next to it (the
 * larger ones were checked with exact rational arithmetic), so a test
 * pins the exact definition: sample sd with n - 1, the median of an even n
 * as the mean of the middle two, the order statistics bounding the median's
 * interval, and the exact versus normal U distributions.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/stats.h"

#define EPS 1e-12   /* relative: p-values can be tiny */

#define assert_close(got, want) assert_double_close((got), (want), __LINE__)

static void assert_double_close(double got, double want, int line)
{
	if (!(fabs(got - want) <= EPS * fabs(want)))
		fail_msg("line %d: got %.17g, want %.17g", line, got, want);
}

/* Fills v[0..n-1] with start, start + step, ... in a scrambled order (7 is
 * coprime with every n used here), so that nothing relies on sorted input. */
static void scrambled(double *v, size_t n, double start, double step)
{
	for (size_t i = 0; i < n; i++)
		v[(i * 7 + 3) % n] = start + step * (double)i;
}

static void test_summary_empty(void **state)
{
	struct summary s;

	(void)state;
	memset(&s, 0xff, sizeof(s));
	stats_summarize(NULL, 0, &s);
	assert_int_equal(s.n, 0);
	assert_true(s.mean == 0 && s.sd == 0 && s.min == 0 && s.median == 0 && s.max == 0);
	assert_false(s.has_ci);
}

static void test_summary_one(void **state)
{
	const double x[] = { 3.5 };
	struct summary s;

	(void)state;
	stats_summarize(x, 1, &s);
	assert_int_equal(s.n, 1);
	assert_close(s.mean, 3.5);
	assert_close(s.sd, 0.0);
	assert_close(s.min, 3.5);
	assert_close(s.median, 3.5);
	assert_close(s.max, 3.5);
	assert_false(s.has_ci);
}

/* x = {5, 1, 4, 2, 3}: mean 3, deviations 2 -2 1 -1 0, sum of squares 10,
 * sd = sqrt(10 / 4) = sqrt(2.5); median 3.  n = 5: no interval, since
 * [x(1), x(5)] covers the median with probability 1 - 2/32 = 0.9375. */
static void test_summary_odd(void **state)
{
	const double x[] = { 5, 1, 4, 2, 3 };
	const double copy[] = { 5, 1, 4, 2, 3 };
	struct summary s;

	(void)state;
	stats_summarize(x, 5, &s);
	assert_int_equal(s.n, 5);
	assert_close(s.mean, 3.0);
	assert_close(s.sd, sqrt(2.5));
	assert_close(s.min, 1.0);
	assert_close(s.median, 3.0);
	assert_close(s.max, 5.0);
	assert_false(s.has_ci);
	assert_memory_equal(x, copy, sizeof(x));   /* input left alone */
}

/* x = {4, 1, 3, 2}: mean 2.5, squares 2.25 2.25 0.25 0.25 = 5,
 * sd = sqrt(5 / 3); median (2 + 3) / 2 = 2.5. */
static void test_summary_even(void **state)
{
	const double x[] = { 4, 1, 3, 2 };
	struct summary s;

	(void)state;
	stats_summarize(x, 4, &s);
	assert_close(s.mean, 2.5);
	assert_close(s.sd, sqrt(5.0 / 3.0));
	assert_close(s.min, 1.0);
	assert_close(s.median, 2.5);
	assert_close(s.max, 4.0);
	assert_false(s.has_ci);
}

/* n = 6, B ~ binomial(6, 1/2): P(B <= 0) = 1/64, P(B <= 1) = 7/64.
 * k = 1: coverage 1 - 2/64 = 0.96875 >= 0.95; k = 2: 1 - 14/64 = 0.78125.
 * So the interval is [x(1), x(6)] = [10, 60]; median (30 + 40) / 2. */
static void test_ci_n6(void **state)
{
	const double x[] = { 60, 10, 50, 20, 40, 30 };
	struct summary s;

	(void)state;
	stats_summarize(x, 6, &s);
	assert_close(s.median, 35.0);
	assert_true(s.has_ci);
	assert_close(s.ci95_low, 10.0);
	assert_close(s.ci95_high, 60.0);
}

/* n = 10: P(B <= 0) = 1/1024, P(B <= 1) = 11/1024, P(B <= 2) = 56/1024.
 * k = 2: coverage 1 - 22/1024 = 0.978515625; k = 3: 1 - 112/1024 =
 * 0.890625 < 0.95.  So [x(2), x(9)] = [20, 90] for x = 10, 20, ... 100. */
static void test_ci_n10(void **state)
{
	double x[10];
	struct summary s;

	(void)state;
	scrambled(x, 10, 10, 10);
	stats_summarize(x, 10, &s);
	assert_close(s.mean, 55.0);
	assert_close(s.median, 55.0);
	assert_true(s.has_ci);
	assert_close(s.ci95_low, 20.0);
	assert_close(s.ci95_high, 90.0);
}

/* Larger n (checked with exact binomial sums):
 * n = 20:   k = 6,   [x(6), x(15)],     coverage 0.95861;
 * n = 100:  k = 40,  [x(40), x(61)],    coverage 0.96480 (the textbook pair);
 * n = 2000: k = 956, [x(956), x(1045)], coverage 0.95345 (2^-2000 underflows
 * a double, so this also checks that the sum is done in log space). */
static void test_ci_large(void **state)
{
	static double x[2000];
	const size_t n[] = { 20, 100, 2000 }, k[] = { 6, 40, 956 };
	struct summary s;

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		scrambled(x, n[i], 1, 1);                /* x(j) = j */
		stats_summarize(x, n[i], &s);
		assert_true(s.has_ci);
		assert_close(s.ci95_low, (double)k[i]);
		assert_close(s.ci95_high, (double)(n[i] - k[i] + 1));
	}
}

static void test_min_n_for_ci(void **state)
{
	const double x[] = { 1, 2, 3, 4, 5, 6 };
	struct summary s;

	(void)state;
	assert_int_equal(stats_min_n_for_ci(), 6);
	stats_summarize(x, 5, &s);
	assert_false(s.has_ci);
	stats_summarize(x, 6, &s);
	assert_true(s.has_ci);
}

/* a = {1,2,3}, b = {4,5,6}: U = 0, the least of C(6,3) = 20 equally likely
 * orderings: p = 2 * 1/20 = 0.1, whichever sample comes first. */
static void test_mw_separated_3(void **state)
{
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };

	(void)state;
	assert_close(stats_mann_whitney_p(a, 3, b, 3), 0.1);
	assert_close(stats_mann_whitney_p(b, 3, a, 3), 0.1);
}

/* a = {1..5}, b = {6..10}: p = 2 / C(10,5) = 2/252. */
static void test_mw_separated_5(void **state)
{
	const double a[] = { 3, 1, 5, 2, 4 }, b[] = { 10, 6, 9, 7, 8 };

	(void)state;
	assert_close(stats_mann_whitney_p(a, 5, b, 5), 2.0 / 252.0);
	assert_close(stats_mann_whitney_p(b, 5, a, 5), 2.0 / 252.0);
}

/* a = {1,3,5}, b = {2,4,6}: U(a) = #(a > b) = 0 + 1 + 2 = 3.  The numbers of
 * orderings with U = 0..9 are 1 1 2 3 3 3 3 2 1 1 (total 20), so
 * P(U <= 3) = 7/20 and p = 0.7.  a = {1,2}, b = {3,4,5}: U = 0, p = 2/10. */
static void test_mw_interleaved(void **state)
{
	const double a[] = { 1, 3, 5 }, b[] = { 2, 4, 6 };
	const double c[] = { 1, 2 }, d[] = { 3, 4, 5 };

	(void)state;
	assert_close(stats_mann_whitney_p(a, 3, b, 3), 0.7);
	assert_close(stats_mann_whitney_p(c, 2, d, 3), 0.2);
	assert_close(stats_mann_whitney_p(d, 3, c, 2), 0.2);
}

/* Exact test at its size limit, na = nb = 50: a = 0..49, b = 20.5..69.5.
 * U(a) = sum over a of #(b < a) = 1 + 2 + ... + 29 = 435; the exact count of
 * orderings with U <= 435 (from f(m,n,u) = f(m-1,n,u-n) + f(m,n-1,u) in
 * exact integers) gives p = 3.3553375012889068e-09. */
static void test_mw_exact_50(void **state)
{
	double a[50], b[50];

	(void)state;
	scrambled(a, 50, 0, 1);
	scrambled(b, 50, 20.5, 1);
	assert_double_close(stats_mann_whitney_p(a, 50, b, 50), 3.3553375012889068e-09, __LINE__);
	/* the normal approximation would give 1.97e-8: this is the exact path */
}

/*
 * Ties, exact: the p-value is that of the permutation distribution of a's
 * rank sum given the tied values (every choice of which observations are
 * a's equally likely), not the normal approximation.
 *
 * The case: a = {18,18,18}, b = {19,19,19} (p99s quantised to the
 * same histogram bucket).  Ranks 2,2,2 and 5,5,5; R(a) = 6 is the least of
 * the C(6,3) = 20 choices (only a = the three 18s gives it), R = 15 the
 * greatest: p = 2/20 = 0.1 (the normal approximation said 0.0469).
 *
 * a = {1,2,2,3}, b = {2,3,4,5}: mid-ranks 1; 3,3,3; 5.5,5.5; 7; 8.
 * R(a) = 12.5, mean 4*9/2 = 18.  Of the C(8,4) = 70 choices, R <= 12.5
 * needs the 1: {1,3,3,3} = 10 (1 way), {1,3,3,5.5} = 12.5 (3*2 = 6 ways);
 * without the 1 the least is 14.5.  By symmetry p = 2 * 7/70 = 0.2.
 *
 * a = {1,1,2}, b = {2,3,3}: mid-ranks 1.5,1.5; 3.5,3.5; 5.5,5.5.
 * R(a) = 6.5, mean 10.5; only {1.5,1.5,3.5} (2 ways) is that low, so
 * p = 2 * 2/20 = 0.2.
 */
static void test_mw_ties_exact(void **state)
{
	const double a[] = { 18, 18, 18 }, b[] = { 19, 19, 19 };
	const double c[] = { 1, 2, 2, 3 }, d[] = { 2, 3, 4, 5 };
	const double e[] = { 1, 1, 2 }, f[] = { 2, 3, 3 };

	(void)state;
	assert_close(stats_mann_whitney_p(a, 3, b, 3), 0.1);
	assert_close(stats_mann_whitney_p(b, 3, a, 3), 0.1);
	assert_close(stats_mann_whitney_p(c, 4, d, 4), 0.2);
	assert_close(stats_mann_whitney_p(d, 4, c, 4), 0.2);
	assert_close(stats_mann_whitney_p(e, 3, f, 3), 0.2);
	assert_close(stats_mann_whitney_p(f, 3, e, 3), 0.2);
}

/*
 * Ties, exact at 20+20: a = eight 0s, seven 1s, five 2s; b = three 0s,
 * seven 1s, ten 2s.  Groups of 11, 14 and 15 with mid-ranks 6, 18.5, 33;
 * R(a) = 48 + 129.5 + 165 = 342.5 against a mean of 20*41/2 = 410.
 * p = sum over x0 + x1 + x2 = 20 with |6 x0 + 18.5 x1 + 33 x2 - 410| >= 67.5
 * of C(11,x0) C(14,x1) C(15,x2) / C(40,20) = 30719321/447553665 (summed in
 * exact rationals).
 */
static void test_mw_ties_exact_20(void **state)
{
	double a[20], b[20];

	(void)state;
	for (size_t i = 0; i < 20; i++) {
		a[i] = i < 8 ? 0 : i < 15 ? 1 : 2;
		b[19 - i] = i < 3 ? 0 : i < 10 ? 1 : 2;
	}
	assert_close(stats_mann_whitney_p(a, 20, b, 20), 30719321.0 / 447553665.0);
	assert_close(stats_mann_whitney_p(b, 20, a, 20), 30719321.0 / 447553665.0);
}

/*
 * Ties beyond the exact limit: a = thirty 0s and thirty 1s, b = twenty 0s
 * and forty 1s.  Groups of 50 and 70, mid-ranks 25.5 and 85.5; R(a) = 765 +
 * 2565 = 3330, U = 3330 - 60*61/2 = 1500, mean 1800.  Tie term 50^3 - 50 +
 * 70^3 - 70 = 467880, var = 3600/12 * (121 - 467880/(120*119)) =
 * 26470.58823529412, z = (300 - 0.5) / sqrt(var) = 1.8408357099728132,
 * p = erfc(z / sqrt 2) = 0.0656456380069376.
 */
static void test_mw_ties_normal(void **state)
{
	double a[60], b[60];

	(void)state;
	for (size_t i = 0; i < 60; i++) {
		a[i] = i % 2;
		b[i] = i % 3 != 0;
	}
	assert_double_close(stats_mann_whitney_p(a, 60, b, 60), 0.0656456380069376, __LINE__);
}

/* Beyond the exact limit, no ties: a = 0..59, b = 30.5..89.5.  U = 1 + ... +
 * 29 = 435, mean 1800, var = 3600 * 121 / 12 = 36300,
 * z = (1365 - 0.5) / sqrt(36300) = 7.1617676573567675,
 * p = erfc(z / sqrt 2) = 7.964332670470494e-13. */
static void test_mw_normal_large(void **state)
{
	double a[60], b[60];

	(void)state;
	scrambled(a, 60, 0, 1);
	scrambled(b, 60, 30.5, 1);
	assert_double_close(stats_mann_whitney_p(a, 60, b, 60), 7.964332670470494e-13, __LINE__);
}

static void test_mw_identical(void **state)
{
	const double a[] = { 1, 2, 3, 4, 5 }, same[] = { 7, 7, 7 };

	(void)state;
	assert_close(stats_mann_whitney_p(a, 5, a, 5), 1.0);
	assert_close(stats_mann_whitney_p(same, 3, same, 2), 1.0);   /* zero variance */
	assert_close(stats_mann_whitney_p(a, 0, a, 5), 1.0);
	assert_close(stats_mann_whitney_p(a, 5, a, 0), 1.0);
}

/* 2 / C(na+nb, na): C(6,3) = 20, C(10,5) = 252, C(5,2) = 10, C(20,10) =
 * 184756; 1 when that exceeds 1 (C(2,1) = 2) or a sample is empty. */
static void test_mw_min_p(void **state)
{
	const double a[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	const double b[] = { 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 };

	(void)state;
	assert_close(stats_mann_whitney_min_p(3, 3), 0.1);
	assert_close(stats_mann_whitney_min_p(5, 5), 2.0 / 252.0);
	assert_close(stats_mann_whitney_min_p(2, 3), 0.2);
	assert_close(stats_mann_whitney_min_p(3, 2), 0.2);
	assert_close(stats_mann_whitney_min_p(10, 10), 2.0 / 184756.0);
	assert_close(stats_mann_whitney_min_p(1, 1), 1.0);
	assert_close(stats_mann_whitney_min_p(0, 5), 1.0);
	/* completely separated samples reach it */
	assert_close(stats_mann_whitney_p(a, 10, b, 10), stats_mann_whitney_min_p(10, 10));
}

/* (1 * 4 * 16)^(1/3) = 4, (2 * 8)^(1/2) = 4. */
static void test_geomean(void **state)
{
	const double x[] = { 1, 4, 16 }, y[] = { 2, 8 }, z[] = { 0.5 };

	(void)state;
	assert_close(stats_geomean(x, 3), 4.0);
	assert_close(stats_geomean(y, 2), 4.0);
	assert_close(stats_geomean(z, 1), 0.5);
	assert_close(stats_geomean(NULL, 0), 0.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_empty),
		cmocka_unit_test(test_summary_one),
		cmocka_unit_test(test_summary_odd),
		cmocka_unit_test(test_summary_even),
		cmocka_unit_test(test_ci_n6),
		cmocka_unit_test(test_ci_n10),
		cmocka_unit_test(test_ci_large),
		cmocka_unit_test(test_min_n_for_ci),
		cmocka_unit_test(test_mw_separated_3),
		cmocka_unit_test(test_mw_separated_5),
		cmocka_unit_test(test_mw_interleaved),
		cmocka_unit_test(test_mw_exact_50),
		cmocka_unit_test(test_mw_ties_exact),
		cmocka_unit_test(test_mw_ties_exact_20),
		cmocka_unit_test(test_mw_ties_normal),
		cmocka_unit_test(test_mw_normal_large),
		cmocka_unit_test(test_mw_identical),
		cmocka_unit_test(test_mw_min_p),
		cmocka_unit_test(test_geomean),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
