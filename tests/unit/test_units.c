/* Sizes, durations and integers as job files write them, and the user's
 * bytes as the terminal is to see them. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "lib/error.h"
#include "lib/texttable.h"
#include "lib/units.h"

static uint64_t size_of(const char *s)
{
	char err[ERR_MAX];
	uint64_t v = 0;

	assert_int_equal(units_parse_size(s, &v, err), 0);
	return v;
}

static void size_fails(const char *s, const char *why)
{
	char err[ERR_MAX];
	uint64_t v;

	assert_int_equal(units_parse_size(s, &v, err), -1);
	assert_non_null(strstr(err, why));
}

static void test_binary_and_decimal_units(void **state)
{
	(void)state;
	assert_int_equal(size_of("512"), 512);
	assert_int_equal(size_of("4k"), 4096);
	assert_int_equal(size_of("4K"), 4096);
	assert_int_equal(size_of("4KiB"), 4096);
	assert_int_equal(size_of("4kib"), 4096);
	assert_int_equal(size_of("4KB"), 4000);
	assert_int_equal(size_of("4kb"), 4000);
	assert_int_equal(size_of("1m"), 1048576);
	assert_int_equal(size_of("1MiB"), 1048576);
	assert_int_equal(size_of("10GB"), 10000000000ULL);
	assert_int_equal(size_of("1g"), 1ULL << 30);
	assert_int_equal(size_of("2t"), 2ULL << 40);
	assert_int_equal(size_of("3TB"), 3000000000000ULL);
	assert_int_equal(size_of("512b"), 512);
}

static void test_whitespace_is_allowed(void **state)
{
	(void)state;
	assert_int_equal(size_of(" 4 KiB "), 4096);
	assert_int_equal(size_of("8\tm"), 8ULL << 20);
}

static void test_bad_sizes_are_refused(void **state)
{
	(void)state;
	size_fails("4x", "unknown unit 'x'");
	size_fails("-1", "negative");
	size_fails("", "not a size");
	size_fails("k", "not a size");
	size_fails("1.5g", "fractions");
	size_fails("4 k b", "unknown unit");
	size_fails("18446744073709551616", "too large");
	size_fails("16777216t", "too large");
	size_fails("99999999999999999999999", "too large");
}

static void test_largest_size(void **state)
{
	(void)state;
	assert_true(size_of("18446744073709551615") == UINT64_MAX);
	assert_true(size_of("16777215t") == 16777215ULL << 40);
}

static void test_durations(void **state)
{
	char err[ERR_MAX];
	uint64_t v;

	(void)state;
	assert_int_equal(units_parse_duration_ns("500ms", &v, err), 0);
	assert_true(v == 500000000ULL);
	assert_int_equal(units_parse_duration_ns("10s", &v, err), 0);
	assert_true(v == 10000000000ULL);
	assert_int_equal(units_parse_duration_ns("2m", &v, err), 0);
	assert_true(v == 120000000000ULL);
	assert_int_equal(units_parse_duration_ns("3", &v, err), 0);
	assert_true(v == 3000000000ULL);
	assert_int_equal(units_parse_duration_ns("250us", &v, err), 0);
	assert_true(v == 250000ULL);
	assert_int_equal(units_parse_duration_ns("1h", &v, err), 0);
	assert_true(v == 3600000000000ULL);
	assert_int_equal(units_parse_duration_ns("5 parsecs", &v, err), -1);
	assert_int_equal(units_parse_duration_ns("-2s", &v, err), -1);
}

static void test_integers_take_no_unit(void **state)
{
	char err[ERR_MAX];
	uint64_t v;

	(void)state;
	assert_int_equal(units_parse_uint("100000", &v, err), 0);
	assert_true(v == 100000);
	assert_int_equal(units_parse_uint("10k", &v, err), -1);
	assert_int_equal(units_parse_uint("0x10", &v, err), -1);
}

static void test_printing(void **state)
{
	char buf[64];

	(void)state;
	units_fmt_size(4096, buf, sizeof(buf));
	assert_string_equal(buf, "4KiB");
	units_fmt_size(8ULL << 20, buf, sizeof(buf));
	assert_string_equal(buf, "8MiB");
	units_fmt_size(1000, buf, sizeof(buf));
	assert_string_equal(buf, "1000");
	units_fmt_size(3ULL << 30, buf, sizeof(buf));
	assert_string_equal(buf, "3GiB");
	units_fmt_seconds(14.13, buf, sizeof(buf));
	assert_string_equal(buf, "14.1 s");
	units_fmt_seconds(4.1e-6, buf, sizeof(buf));
	assert_string_equal(buf, "4.10 µs");
	units_fmt_seconds(0.250, buf, sizeof(buf));
	assert_string_equal(buf, "250 ms");
	units_fmt_rate(724e6, buf, sizeof(buf));
	assert_string_equal(buf, "724 MB/s");
	units_fmt_rate(1.26e9, buf, sizeof(buf));
	assert_string_equal(buf, "1.26 GB/s");
	units_fmt_count(132000, buf, sizeof(buf));
	assert_string_equal(buf, "132 k");
	units_fmt_count(17, buf, sizeof(buf));
	assert_string_equal(buf, "17");
}

/* What tt_put writes for s, and the columns it says it took. */
static size_t put(const char *s, char *out, size_t n)
{
	FILE *f = fmemopen(out, n, "w");
	size_t cols;

	assert_non_null(f);
	cols = tt_put(f, s);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(tt_width(s), cols);
	return cols;
}

static void test_control_characters_are_escaped(void **state)
{
	char out[128];

	(void)state;
	/* C0 (named ones by name), DEL, and C1 (CSI, U+009B) in UTF-8 */
	assert_int_equal(put("a\nb\rc\td\x1b[2Je\x7f\xc2\x9b" "f", out, sizeof(out)), 29);
	assert_string_equal(out, "a\\nb\\rc\\td\\x1b[2Je\\x7f\\u009bf");
	/* printable UTF-8 is one column a character, and bytes that are not
	 * UTF-8 pass as they are */
	assert_int_equal(put("\xc2\xb5s \xc2\xa0 caf\xe9", out, sizeof(out)), 9);
	assert_string_equal(out, "\xc2\xb5s \xc2\xa0 caf\xe9");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_binary_and_decimal_units),
		cmocka_unit_test(test_whitespace_is_allowed),
		cmocka_unit_test(test_bad_sizes_are_refused),
		cmocka_unit_test(test_largest_size),
		cmocka_unit_test(test_durations),
		cmocka_unit_test(test_integers_take_no_unit),
		cmocka_unit_test(test_printing),
		cmocka_unit_test(test_control_characters_are_escaped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
