/*
 * test_repeat_auto.c - unit tests of when repeat = auto stops
 * (repeat_auto_stop, src/run/run.c): at the target once a 95% confidence
 * interval of the median exists, else at the count or the time budget, and
 * never before the minimum.
 */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "job/plan.h"
#include "run/run.h"

static void test_steady_repeats_stop_at_the_minimum(void **state)
{
	double x[REPEAT_AUTO_MIN] = { 1.00, 1.01, 0.99, 1.00, 1.02, 0.98 }, pct;

	(void)state;
	assert_int_equal(repeat_auto_stop(x, REPEAT_AUTO_MIN, REPEAT_AUTO_MIN, 6, &pct),
			 REPEAT_TARGET);
	/* 6 repeats: the interval is min..max, 2% from the median of 1.00 */
	assert_true(fabs(pct - 2.0) < 1e-9);
}

static void test_fewer_than_the_minimum_go_on_however_close(void **state)
{
	double x[REPEAT_AUTO_MIN] = { 1, 1, 1, 1, 1, 1 }, pct;

	(void)state;
	for (size_t n = 0; n < REPEAT_AUTO_MIN; n++)
		assert_int_equal(repeat_auto_stop(x, n, n, 1000, &pct), REPEAT_FIXED);
	assert_true(isnan(pct));
}

static void test_noisy_repeats_go_on_until_the_count_or_the_budget(void **state)
{
	double x[REPEAT_AUTO_MAX], pct;

	(void)state;
	for (size_t i = 0; i < REPEAT_AUTO_MAX; i++)
		x[i] = i % 2 ? 1.0 : 2.0; /* the median is not known within 5% */
	assert_int_equal(repeat_auto_stop(x, 10, 10, 1, &pct), REPEAT_FIXED);
	assert_true(pct > REPEAT_AUTO_TARGET_PCT);
	assert_int_equal(repeat_auto_stop(x, 10, 10, REPEAT_AUTO_BUDGET_S, &pct), REPEAT_BUDGET);
	assert_int_equal(repeat_auto_stop(x, REPEAT_AUTO_MAX, REPEAT_AUTO_MAX, 1, &pct),
			 REPEAT_COUNT);
	/* interrupted repeats count against the cap, not towards the interval */
	assert_int_equal(repeat_auto_stop(x, 2, REPEAT_AUTO_MAX, 1, &pct), REPEAT_COUNT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steady_repeats_stop_at_the_minimum),
		cmocka_unit_test(test_fewer_than_the_minimum_go_on_however_close),
		cmocka_unit_test(test_noisy_repeats_go_on_until_the_count_or_the_budget),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
