/* File sets (io/fileset.h): the map from the pattern's offsets to a file
 * and an offset in it is a bijection of the set's blocks for every service
 * type, and each one goes where the man page says; the set's names. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "io/fileset.h"

static const int fds[7] = { 10, 11, 12, 13, 14, 15, 16 };

/* Every block of n files of `blocks` blocks is reached exactly once. */
static void bijection(unsigned n, uint64_t blocks, enum fileset_service service, uint64_t seed)
{
	struct fileset_map m;
	uint64_t bs = 4096, total = n * blocks;
	unsigned char *seen = calloc(total, 1);

	assert_non_null(seen);
	fileset_map_init(&m, n, blocks * bs, bs, service, seed, fds, NULL);
	for (uint64_t b = 0; b < total; b++) {
		uint64_t set_off;
		unsigned file = fileset_map(&m, b * bs, &set_off);

		assert_true(file < n);
		assert_int_equal(set_off % bs, 0);
		/* the set offset lies in the file the unit goes to */
		assert_int_equal(set_off / (blocks * bs), file);
		assert_int_equal(seen[set_off / bs], 0);
		seen[set_off / bs] = 1;
	}
	free(seen);
}

static void test_every_service_reaches_every_block_once(void **state)
{
	(void)state;
	for (unsigned n = 1; n <= 7; n++)
		for (uint64_t blocks = 1; blocks <= 9; blocks += 4)
			for (int s = 0; s < 3; s++)
				for (uint64_t seed = 0; seed < 4; seed++)
					bijection(n, blocks, (enum fileset_service)s, seed);
}

static void test_roundrobin_and_sequential_go_where_the_man_page_says(void **state)
{
	struct fileset_map m;
	uint64_t set_off;

	(void)state;
	fileset_map_init(&m, 3, 4 * 4096, 4096, FILESET_ROUNDROBIN, 1, fds, NULL);
	/* block 4: file 4 mod 3 = 1, its block 4 / 3 = 1 */
	assert_int_equal(fileset_map(&m, 4 * 4096, &set_off), 1);
	assert_int_equal(set_off, 1 * 4 * 4096 + 1 * 4096);
	fileset_map_init(&m, 3, 4 * 4096, 4096, FILESET_SEQUENTIAL, 1, fds, NULL);
	assert_int_equal(fileset_map(&m, 5 * 4096, &set_off), 1);
	assert_int_equal(set_off, 5 * 4096);
}

static void test_random_serves_each_file_once_a_round_in_a_seeded_order(void **state)
{
	struct fileset_map a, b;
	bool differs = false;

	(void)state;
	fileset_map_init(&a, 7, 8 * 4096, 4096, FILESET_RANDOM, 1, fds, NULL);
	fileset_map_init(&b, 7, 8 * 4096, 4096, FILESET_RANDOM, 2, fds, NULL);
	for (uint64_t round = 0; round < 8; round++) {
		unsigned hit = 0;

		for (uint64_t k = 0; k < 7; k++) {
			uint64_t off;
			unsigned fa = fileset_map(&a, (round * 7 + k) * 4096, &off);

			assert_int_equal(off % (8 * 4096), round * 4096); /* the round's block */
			hit |= 1U << fa;
			differs |= fa != fileset_map(&b, (round * 7 + k) * 4096, &off);
		}
		assert_int_equal(hit, 0x7f);
	}
	assert_true(differs);
}

/* files of their own sizes: n files, file k blocks[k] blocks */
static uint64_t size_of(unsigned k, const void *arg)
{
	return ((const uint64_t *)arg)[k] * 4096;
}

/* Every block of files of sizes of their own is reached once, each in the
 * file the unit goes to; roundrobin and random rounds hold one block of
 * every file still longer than the round's depth. */
static void drawn(unsigned n, const uint64_t *blocks, enum fileset_service service, uint64_t seed)
{
	struct fileset_layout l;
	struct fileset_map m;
	uint64_t bs = 4096, total = 0;
	unsigned char *seen;

	for (unsigned k = 0; k < n; k++)
		total += blocks[k];
	seen = calloc(total, 1);
	assert_non_null(seen);
	assert_int_equal(fileset_layout_init(&l, n, bs, seed, size_of, blocks), 0);
	assert_int_equal(l.start[n], total * bs);
	fileset_map_init(&m, n, 0, bs, service, seed, fds, &l);
	for (uint64_t b = 0; b < total; b++) {
		uint64_t set_off;
		unsigned file = fileset_map(&m, b * bs, &set_off);

		assert_true(file < n);
		assert_true(set_off >= l.start[file] && set_off < l.start[file + 1]);
		assert_int_equal(seen[set_off / bs], 0);
		seen[set_off / bs] = 1;
		if (service != FILESET_SEQUENTIAL) { /* the round's depth: as many before it */
			uint64_t depth = (set_off - l.start[file]) / bs, before = 0;

			for (unsigned k = 0; k < n; k++)
				before += blocks[k] < depth ? blocks[k] : depth;
			assert_true(b >= before);
			for (unsigned k = 0; k < n; k++)
				before += blocks[k] > depth;
			assert_true(b < before);
		}
	}
	free(seen);
	fileset_layout_free(&l);
}

static void test_files_of_their_own_sizes(void **state)
{
	static const uint64_t sizes[][7] = { { 1 }, { 3, 1, 2 }, { 1, 1, 5, 1, 5, 2, 9 },
					     { 4, 4, 4, 4, 4, 4, 4 }, { 9, 8, 7, 6, 5, 4, 3 } };
	static const unsigned n[] = { 1, 3, 7, 7, 7 };

	(void)state;
	for (size_t i = 0; i < sizeof(n) / sizeof(n[0]); i++)
		for (int s = 0; s < 3; s++)
			for (uint64_t seed = 0; seed < 4; seed++)
				drawn(n[i], sizes[i], (enum fileset_service)s, seed);
}

/* With every file of one size the layout maps as the plain map does. */
static void test_one_size_layout_is_the_plain_map(void **state)
{
	static const uint64_t blocks[7] = { 5, 5, 5, 5, 5, 5, 5 };
	struct fileset_layout l;

	(void)state;
	for (int s = 0; s < 3; s++)
		for (uint64_t seed = 0; seed < 3; seed++) {
			struct fileset_map a, b;

			assert_int_equal(fileset_layout_init(&l, 7, 4096, seed, size_of, blocks), 0);
			assert_int_equal(l.nseg, 1);
			fileset_map_init(&a, 7, 5 * 4096, 4096, (enum fileset_service)s, seed, fds, NULL);
			fileset_map_init(&b, 7, 0, 4096, (enum fileset_service)s, seed, fds, &l);
			for (uint64_t k = 0; k < 35; k++) {
				uint64_t oa, ob;

				assert_int_equal(fileset_map(&a, k * 4096 + 7, &oa),
						 fileset_map(&b, k * 4096 + 7, &ob));
				assert_int_equal(oa, ob);
			}
			fileset_layout_free(&l);
		}
}

static void test_names(void **state)
{
	char buf[64], *t;

	(void)state;
	t = fileset_template("/d", "$jobname-$filenum.$jobname", "j");
	assert_string_equal(t, "/d/j-$filenum.j");
	assert_true(fileset_template_distinct(t, 2));
	assert_int_equal(fileset_path(t, 12, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/d/j-12.j");
	assert_int_equal(fileset_path(t, 1, buf, 5), -1);
	free(t);
	assert_false(fileset_template_distinct("/d/$filenum/x", 2));
	assert_true(fileset_template_distinct("/d/x", 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_service_reaches_every_block_once),
		cmocka_unit_test(test_roundrobin_and_sequential_go_where_the_man_page_says),
		cmocka_unit_test(test_random_serves_each_file_once_a_round_in_a_seeded_order),
		cmocka_unit_test(test_files_of_their_own_sizes),
		cmocka_unit_test(test_one_size_layout_is_the_plain_map),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
