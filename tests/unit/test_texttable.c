/*
 * test_texttable.c - tt_fold: the notes under a table fold at a space to
 * fit a terminal's width, counting UTF-8 characters, and nothing else moves.
 */
#define _GNU_SOURCE
#include "lib/texttable.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* tt_fold of text at width, as a string to be freed */
static char *folded(const char *text, size_t width)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	assert_non_null(f);
	tt_fold(f, text, width);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void expect_fold(const char *text, size_t width, const char *want)
{
	char *got = folded(text, width);

	assert_string_equal(got, want);
	free(got);
}

static void lines_that_fit_are_untouched(void **state)
{
	(void)state;
	expect_fold("run 0: short\n  indented note\n\nlast\n", 20, "run 0: short\n  indented note\n\nlast\n");
	/* exactly the width fits */
	expect_fold("abcde fghij\n", 11, "abcde fghij\n");
	/* a last line without its newline gets one */
	expect_fold("abc", 10, "abc\n");
	expect_fold("", 10, "");
}

static void a_long_line_folds_at_its_last_space_that_fits(void **state)
{
	(void)state;
	expect_fold("aaa bbb ccc ddd\n", 11, "aaa bbb ccc\n  ddd\n");
	/* the continuation is indented and folds again */
	expect_fold("aaaa bbbb cccc dddd eeee\n", 10, "aaaa bbbb\n  cccc\n  dddd\n  eeee\n");
	/* runs of spaces at a fold are dropped, not carried over */
	expect_fold("aaa bbb   ccc\n", 8, "aaa bbb\n  ccc\n");
}

static void width_counts_characters_not_bytes(void **state)
{
	(void)state;
	/* "µs ± 3% ×" is 9 characters in 13 bytes */
	expect_fold("12 µs ± 3% × two\n", 12, "12 µs ± 3% ×\n  two\n");
}

static void a_word_wider_than_the_line_is_written_whole(void **state)
{
	(void)state;
	expect_fold("/a/very/long/path/without/spaces\n", 10, "/a/very/long/path/without/spaces\n");
	expect_fold("x /a/very/long/path\n", 10, "x\n  /a/very/long/path\n");
	/* an indent alone is not a place to fold */
	expect_fold("  /a/very/long/path\n", 10, "  /a/very/long/path\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lines_that_fit_are_untouched),
		cmocka_unit_test(a_long_line_folds_at_its_last_space_that_fits),
		cmocka_unit_test(width_counts_characters_not_bytes),
		cmocka_unit_test(a_word_wider_than_the_line_is_written_whole),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
