/*
 * test_figures.c - the figure table (src/report/figures.c) says what every
 * figure is: its title, its unit and the scale to that unit, and every
 * reader prints a value through it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/units.h"
#include "report/figures.h"

/* Every figure has a title and a scale; a name in ns is a latency in
 * seconds at 1e-9, one in _s seconds at 1, one in _Bps a rate. */
static void test_every_figure_says_its_unit(void **state)
{
	(void)state;
	for (size_t i = 0; i < figure_count; i++) {
		const struct figure *f = &figure_table[i];
		size_t len = strlen(f->name);

		assert_non_null(f->title);
		assert_true(f->title[0] != '\0');
		assert_true(f->scale > 0);
		if (len > 3 && strcmp(f->name + len - 3, "_ns") == 0) {
			assert_int_equal(f->unit, FU_SECONDS);
			assert_true(f->scale == 1e-9);
		} else if (len > 2 && strcmp(f->name + len - 2, "_s") == 0) {
			assert_int_equal(f->unit, FU_SECONDS);
			assert_true(f->scale == 1);
		} else if (len > 4 && strcmp(f->name + len - 4, "_Bps") == 0) {
			assert_int_equal(f->unit, FU_RATE);
		}
	}
}

/* figure_format is the unit's formatter of value x scale. */
static void test_format_applies_the_scale(void **state)
{
	char got[64], want[64];

	(void)state;
	figure_format(figure_find("lat_p99_ns"), 1.5e6, got, sizeof(got));
	units_fmt_seconds(1.5e-3, want, sizeof(want));
	assert_string_equal(got, want);
	figure_format(figure_find("throughput_Bps"), 2.5e9, got, sizeof(got));
	units_fmt_rate(2.5e9, want, sizeof(want));
	assert_string_equal(got, want);
	figure_format(figure_find("resident_before"), 0.25, got, sizeof(got));
	assert_string_equal(got, "25%");
	assert_string_equal(figure_find("lat_p99_ns")->title, "p99 latency");
	assert_string_equal(figure_find("flush_lat_p99_ns")->title, "flush p99 latency");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_figure_says_its_unit),
		cmocka_unit_test(test_format_applies_the_scale),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
