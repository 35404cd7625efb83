/*
 * test_names.c - unit tests of the table of names (src/lib/names.c): names
 * that differ only in their last characters (the files of one directory)
 * are told apart, each found with its own data, and a name never added is
 * not found, however much it shares with those that were.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/names.h"

#define N 20000
#define DIR "/var/tmp/a-directory-with-a-long-name/and-another-level/of-many-files-"

static void test_names_of_one_directory(void **state)
{
	static char name[N][128];
	static int data[N];
	struct names t;

	(void)state;
	assert_int_equal(names_init(&t, N), 0);
	for (int i = 0; i < N; i++) {
		snprintf(name[i], sizeof(name[i]), DIR "%06d.dat", i);
		assert_null(names_find(&t, name[i]));
		names_add(&t, name[i], &data[i]);
	}
	/* full to its room: every name found, with its own data */
	for (int i = 0; i < N; i++)
		assert_ptr_equal(names_find(&t, name[i]), &data[i]);
	/* found by its text, not by the pointer it was added with */
	assert_ptr_equal(names_find(&t, DIR "012345.dat"), &data[12345]);
	assert_null(names_find(&t, DIR "020000.dat"));
	assert_null(names_find(&t, DIR "00000.dat"));
	assert_null(names_find(&t, DIR "000000.dat "));
	assert_null(names_find(&t, DIR));
	assert_null(names_find(&t, ""));
	names_free(&t);
}

static void test_names_empty_table(void **state)
{
	struct names t;

	(void)state;
	assert_int_equal(names_init(&t, 0), 0);
	assert_null(names_find(&t, "a"));
	names_add(&t, "a", &t);
	assert_ptr_equal(names_find(&t, "a"), &t);
	names_free(&t);
	names_free(&t); /* twice: harmless */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_of_one_directory),
		cmocka_unit_test(test_names_empty_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
