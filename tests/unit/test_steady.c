/*
 * test_steady.c - unit tests of the steady-state and cliff detector
 * (src/io/steady.c).
 *
 * Synthetic series with known onsets: a series that drifts by a fixed
 * share per interval and then holds its level (with noise) is found steady
 * within one round of the first window wholly after the onset, by fio's
 * range and slope criteria and by SNIA's rule; 1000 series that drift
 * throughout are never found steady; a level that falls for good is a
 * cliff found within one interval of where it fell, a single slow interval
 * is none.  Then fio's own verdicts: the windows fio 3.33 judged (its JSON,
 * recorded in tests/data/fio_ss) give fio's criterion and verdict here.
 */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "io/steady.h"
#include "lib/error.h"

#define LEN 80

static uint64_t rng = 88172645463325252ULL;

/* uniform in [-1, 1) */
static double noise(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / (double)(1ULL << 52) - 1.0;
}

static struct steady_spec spec_of(const char *text, size_t window)
{
	struct steady_spec sp;
	enum steady_metric m;
	char err[ERR_MAX];

	assert_int_equal(steady_parse(text, &m, &sp, err), 0);
	if (sp.rule != STEADY_SNIA)
		sp.window = window;
	return sp;
}

/* Drifts by step (a share) per interval until onset, then holds with
 * noise of +-amp (a share). */
static void drift_then_hold(double *y, size_t onset, double step, double amp)
{
	double level = 1e6;

	for (size_t i = 0; i < LEN; i++) {
		if (i < onset)
			level *= 1 + step;
		y[i] = level * (1 + amp * noise());
	}
}

static void check_onset(const char *crit, double step)
{
	double y[LEN];

	for (int k = 0; k < 100; k++) {
		struct steady_spec sp = spec_of(crit, 5);
		struct steady_verdict v;
		size_t onset = 10 + (size_t)k % 40;

		drift_then_hold(y, onset, k % 2 ? step : -step, 0.002);
		steady_judge(&sp, y, LEN, &v, NULL);
		assert_true(v.attained);
		/* the first window wholly in the level ends at onset + window */
		assert_in_range(v.end, onset + sp.window - 1, onset + sp.window + 1);
	}
}

static void steady_found_within_a_round_of_the_onset(void **state)
{
	(void)state;
	check_onset("iops:2%", 0.05);
	check_onset("iops_slope:1%", 0.10);
	check_onset("bw_snia", 0.30);
}

static void drifting_series_are_never_steady(void **state)
{
	const char *const crits[] = { "iops:2%", "iops_slope:1%", "iops_snia" };
	unsigned attained = 0;
	double y[LEN];

	(void)state;
	for (int k = 0; k < 1000; k++) {
		double step = (0.04 + 0.06 * (noise() + 1) / 2) * (k % 2 ? 1 : -1);

		drift_then_hold(y, LEN, step, 0.01);
		for (int c = 0; c < 3; c++) {
			struct steady_spec sp = spec_of(crits[c], 5 + (size_t)k % 20);
			struct steady_verdict v;

			steady_judge(&sp, y, LEN, &v, NULL);
			attained += v.attained;
		}
	}
	assert_int_equal(attained, 0);
}

static void criterion_per_round_and_ramp(void **state)
{
	double y[12] = { 50, 40, 30, 100, 101, 99, 100, 100, 100, 100, 100, 100 };
	double crit[12];
	struct steady_spec sp = spec_of("iops:5%", 4);
	struct steady_verdict v;

	(void)state;
	sp.ramp = 3;
	steady_judge(&sp, y, 12, &v, crit);
	assert_true(v.attained);
	assert_int_equal(v.end, 7); /* the window 100 101 99 100 */
	assert_true(isnan(crit[5]));
	assert_float_equal(crit[6], 1.0, 1e-9);
	assert_float_equal(v.mean, 100.0, 1e-9);
	/* t(3) = 3.182, sd = sqrt(2/3) */
	assert_float_equal(v.ci95, 3.182 * sqrt(2.0 / 3.0) / 2.0, 1e-9);
}

static void bad_criteria_are_refused(void **state)
{
	const char *const bad[] = { "iops", "iops_slope:0", "iops_slope:-1%", "bw:x",
				    "bw:1%%", "latency:1%", "iops_snia:20%", "iops:nan" };
	struct steady_spec sp;
	enum steady_metric m;
	char err[ERR_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(steady_parse(bad[i], &m, &sp, err), -1);
	assert_int_equal(steady_parse("LAT_SLOPE:20", &m, &sp, err), 0);
	assert_int_equal(m, STEADY_LAT);
	assert_false(sp.pct);
	assert_float_equal(sp.limit, 20, 0);
}

static void cliffs_found_within_one_interval(void **state)
{
	double y[LEN];

	(void)state;
	for (int k = 0; k < 200; k++) {
		struct steady_cliff c[STEADY_CLIFF_MAX];
		size_t onset = 8 + (size_t)k % 60, slow = (onset + 37) % LEN, n;

		for (size_t i = 0; i < LEN; i++)
			y[i] = (i < onset ? 1.9e9 : 4.1e8) * (1 + 0.05 * noise());
		y[slow] *= 0.3; /* one slow interval: no cliff */
		n = steady_cliffs(y, LEN, c, STEADY_CLIFF_MAX);
		assert_int_equal(n, 1);
		assert_in_range(c[0].at, onset - 1, onset + 1);
		assert_float_equal(c[0].before, 1.9e9, 1.9e9 * 0.05);
		assert_float_equal(c[0].after, 4.1e8, 4.1e8 * 0.05);
	}
}

static void flat_series_have_no_cliff(void **state)
{
	double y[LEN];
	size_t found = 0;

	(void)state;
	for (int k = 0; k < 1000; k++) {
		struct steady_cliff c[STEADY_CLIFF_MAX];

		for (size_t i = 0; i < LEN; i++)
			y[i] = 1e6 * (1 + 0.1 * noise());
		y[k % LEN] *= 0.2;
		y[(k * 7 + 3) % LEN] *= 3;
		found += steady_cliffs(y, LEN, c, STEADY_CLIFF_MAX);
	}
	assert_int_equal(found, 0);
}

/* stop_at_cliff's look at a boundary: the first cliff of two, with the
 * scratch given, the same cliff and levels as the full search; none while
 * the new level has fewer than STEADY_CLIFF_MIN intervals. */
static void first_cliff_at_a_boundary(void **state)
{
	double y[LEN], tmp[LEN];

	(void)state;
	for (int k = 0; k < 100; k++) {
		struct steady_cliff all[STEADY_CLIFF_MAX], first;
		size_t a = 8 + (size_t)k % 20, b = a + 20, n;

		for (size_t i = 0; i < LEN; i++)
			y[i] = (i < a ? 1.9e9 : i < b ? 8e8 : 2e8) * (1 + 0.05 * noise());
		n = steady_cliffs(y, LEN, all, STEADY_CLIFF_MAX);
		assert_int_equal(n, 2);
		assert_int_equal(steady_cliffs_in(y, LEN, &first, 1, tmp), 1);
		assert_int_equal(first.at, all[0].at);
		assert_in_range(first.at, a - 1, a + 1);
		/* as the series grows: nothing until 3 intervals of the new level */
		assert_int_equal(steady_cliffs_in(y, a + STEADY_CLIFF_MIN - 1, &first, 1, tmp), 0);
		assert_int_equal(steady_cliffs_in(y, a + STEADY_CLIFF_MIN + 2, &first, 1, tmp), 1);
	}
}

/* A change of level inside an interval: that interval is the mix of the
 * two levels in time, and the change is placed where the mix says, within
 * 2% of an interval on a series without noise; a change at a boundary is
 * placed on it. */
static void cliff_placed_within_its_interval(void **state)
{
	double y[LEN], tmp[LEN];

	(void)state;
	for (int k = 0; k < 50; k++) {
		struct steady_cliff c;
		size_t onset = 6 + (size_t)k % 20;
		double f = (double)(k % 10) / 10; /* share of the onset interval still fast */

		for (size_t i = 0; i < LEN; i++)
			y[i] = i < onset ? 8e6 : 1e6;
		y[onset] = f * 8e6 + (1 - f) * 1e6;
		assert_int_equal(steady_cliffs_in(y, LEN, &c, 1, tmp), 1);
		assert_float_equal(steady_cliff_when(y, LEN, &c), (double)onset + f, 0.02);
	}
}

/* ---- fio's verdicts ---- */

static const char *data_dir(void)
{
	const char *d = getenv("IOSWEEP_DATA");

	return d ? d : "tests/data";
}

/* fio's JSON steadystate: the window it judged last, its criterion, its verdict */
static void check_fio_verdict(const char *name)
{
	char path[512], err[ERR_MAX], crit[64];
	json_error_t jerr;
	json_t *root, *ss, *data;
	struct steady_spec sp;
	struct steady_verdict v;
	enum steady_metric m;
	double y[64];
	size_t n;

	snprintf(path, sizeof(path), "%s/fio_ss/%s.json", data_dir(), name);
	root = json_load_file(path, 0, &jerr);
	assert_non_null(root);
	ss = json_object_get(json_array_get(json_object_get(root, "jobs"), 0), "steadystate");
	assert_non_null(ss);
	/* fio writes its limit as "iops_slope:2.000000%" */
	snprintf(crit, sizeof(crit), "%s", json_string_value(json_object_get(ss, "ss")));
	assert_int_equal(steady_parse(crit, &m, &sp, err), 0);
	sp.window = (size_t)json_integer_value(json_object_get(ss, "duration"));
	data = json_object_get(json_object_get(ss, "data"), m == STEADY_BW ? "bw" : "iops");
	n = json_array_size(data);
	assert_int_equal(n, sp.window);
	for (size_t i = 0; i < n; i++)
		y[i] = (double)json_integer_value(json_array_get(data, i));
	steady_window(&sp, y, n, &v);
	assert_int_equal(v.attained, json_integer_value(json_object_get(ss, "attained")));
	/* fio prints its criterion with 6 decimals */
	assert_float_equal(v.criterion,
			   strtod(json_string_value(json_object_get(ss, "criterion")), NULL),
			   1e-5 * fmax(1, fabs(v.criterion)));
	if (sp.rule == STEADY_SLOPE)
		assert_float_equal(v.slope, json_real_value(json_object_get(ss, "slope")), 1e-4);
	json_decref(root);
}

static void fio_verdicts_agree(void **state)
{
	(void)state;
	check_fio_verdict("slope_attained");
	check_fio_verdict("slope_strict");
	check_fio_verdict("iops_range");
	check_fio_verdict("bw_slope_abs");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(steady_found_within_a_round_of_the_onset),
		cmocka_unit_test(drifting_series_are_never_steady),
		cmocka_unit_test(criterion_per_round_and_ramp),
		cmocka_unit_test(bad_criteria_are_refused),
		cmocka_unit_test(cliffs_found_within_one_interval),
		cmocka_unit_test(flat_series_have_no_cliff),
		cmocka_unit_test(first_cliff_at_a_boundary),
		cmocka_unit_test(cliff_placed_within_its_interval),
		cmocka_unit_test(fio_verdicts_agree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
