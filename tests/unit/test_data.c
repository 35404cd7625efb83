/* The data writes put on disk: deterministic, incompressible, recognizable. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "io/data.h"
#include "lib/error.h"
#include "io/pattern.h"
#include "testutil.h"

#define LEN (64u << 10)

static void gen(struct data_gen *g, enum data_kind kind, unsigned compress, uint64_t seed)
{
	char err[ERR_MAX];

	assert_int_equal(data_gen_init(g, kind, compress, seed, err), 0);
}

static void test_pieces_equal_the_whole(void **state)
{
	static unsigned char whole[LEN], piece[LEN];
	static const uint64_t cuts[] = { 1, 7, 31, 4095, 4097, 513, 12288, 3 };
	struct data_gen g;
	uint64_t off = 0;

	(void)state;
	gen(&g, DATA_RANDOM, 0, 42);
	data_produce(&g, whole, LEN, 0);
	for (size_t k = 0; off < LEN; k++) {
		uint64_t n = cuts[k % 8] < LEN - off ? cuts[k % 8] : LEN - off;

		data_produce(&g, piece + off, n, off);
		off += n;
	}
	assert_memory_equal(whole, piece, LEN);
	/* and the same again: nothing depends on what was produced before */
	data_produce(&g, piece, LEN, 0);
	assert_memory_equal(whole, piece, LEN);
	data_gen_free(&g);
}

static void test_content_depends_on_seed_and_offset(void **state)
{
	static unsigned char a[LEN], b[LEN];
	struct data_gen g1, g2;

	(void)state;
	gen(&g1, DATA_RANDOM, 0, 1);
	gen(&g2, DATA_RANDOM, 0, 2);
	data_produce(&g1, a, LEN, 0);
	data_produce(&g2, b, LEN, 0);
	/* only the magic word of each unit's header is the same */
	for (uint64_t u = 0; u < LEN; u += DATA_UNIT)
		assert_memory_not_equal(a + u + 8, b + u + 8, DATA_UNIT - 8);
	data_produce(&g1, b, LEN, DATA_UNIT);
	for (uint64_t u = 0; u + DATA_UNIT < LEN; u += DATA_UNIT)
		assert_memory_not_equal(a + u + 8, b + u + 8, DATA_UNIT - 8);
	data_gen_free(&g1);
	data_gen_free(&g2);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* No 8-byte word repeats outside the headers: nothing for a compressor or
 * deduplication to find. */
static void test_random_data_does_not_repeat(void **state)
{
	enum { N = 4u << 20 };
	unsigned char *buf = malloc(N);
	uint64_t *w = malloc(N), n = 0;
	struct data_gen g;

	(void)state;
	assert_non_null(buf);
	assert_non_null(w);
	gen(&g, DATA_RANDOM, 0, 7);
	data_produce(&g, buf, N, 1ULL << 40);
	for (uint64_t u = 0; u < N; u += DATA_UNIT)
		for (uint64_t i = DATA_HEADER; i < DATA_UNIT; i += 8)
			memcpy(&w[n++], buf + u + i, 8);
	qsort(w, n, sizeof(*w), cmp_u64);
	for (uint64_t i = 1; i < n; i++)
		assert_true(w[i] != w[i - 1]);
	data_gen_free(&g);
	free(w);
	free(buf);
}

static void test_compress_and_zero(void **state)
{
	static unsigned char buf[2 * DATA_UNIT];
	struct data_gen g;
	uint64_t zeros = 0;
	char err[ERR_MAX];

	(void)state;
	gen(&g, DATA_RANDOM, 50, 3);
	data_produce(&g, buf, sizeof(buf), 0);
	for (size_t i = 0; i < DATA_UNIT; i++)
		zeros += buf[i] == 0;
	/* half of the 4064 bytes after the header, and a few chance zeros */
	assert_in_range(g.random_bytes, 2000, 2064);
	assert_in_range(zeros, 4064 - g.random_bytes, 4064 - g.random_bytes + 30);
	assert_true(buf[DATA_UNIT - 1] == 0);
	data_gen_free(&g);
	gen(&g, DATA_ZERO, 0, 3);
	memset(buf, 0xff, sizeof(buf));
	data_produce(&g, buf, sizeof(buf), 100);
	for (size_t i = 0; i < sizeof(buf); i++)
		assert_int_equal(buf[i], 0);
	data_gen_free(&g);
	assert_int_equal(data_gen_init(&g, DATA_RANDOM, 100, 1, err), -1);
	assert_non_null(strstr(err, "compress"));
}

struct fixture {
	struct data_gen g, other;
	unsigned char buf[4 * DATA_UNIT];
	struct data_fault f;
};

static struct fixture *fresh(void)
{
	static struct fixture fx;

	data_gen_free(&fx.g);
	data_gen_free(&fx.other);
	gen(&fx.g, DATA_RANDOM, 0, 11);
	gen(&fx.other, DATA_RANDOM, 0, 12);
	data_produce(&fx.g, fx.buf, sizeof(fx.buf), 8 * DATA_UNIT);
	return &fx;
}

static void test_good_data_checks(void **state)
{
	struct fixture *fx = fresh();

	(void)state;
	assert_true(data_check(&fx->g, fx->buf, sizeof(fx->buf), 8 * DATA_UNIT, &fx->f));
	/* any piece of it, at its own offset */
	assert_true(data_check(&fx->g, fx->buf + 1000, 5000, 8 * DATA_UNIT + 1000, &fx->f));
	/* but not at another offset */
	assert_false(data_check(&fx->g, fx->buf, DATA_UNIT, 9 * DATA_UNIT, &fx->f));
	assert_int_equal(fx->f.kind, FAULT_MISPLACED);
	assert_int_equal(fx->f.other, 8 * DATA_UNIT);
	/* a whole unit that is not ours is named by its start */
	assert_int_equal(fx->f.off, 9 * DATA_UNIT);
}

static void test_flipped_byte_is_corrupt_at_its_offset(void **state)
{
	struct fixture *fx = fresh();
	char line[256];

	(void)state;
	fx->buf[DATA_UNIT + 100] ^= 0x01;
	assert_false(data_check(&fx->g, fx->buf, sizeof(fx->buf), 8 * DATA_UNIT, &fx->f));
	assert_int_equal(fx->f.kind, FAULT_CORRUPT);
	assert_int_equal(fx->f.off, 9 * DATA_UNIT + 100);
	assert_int_equal(fx->f.unit_off, 9 * DATA_UNIT);
	assert_int_equal(fx->f.bytes, 1);
	data_fault_describe(&fx->f, line, sizeof(line));
	assert_string_equal(line, "offset 36964: corrupt: 1 byte of the 4 KiB unit at 36864 differ");
	/* in a block smaller than a sector too */
	assert_false(data_check(&fx->g, fx->buf + DATA_UNIT + 64, 100, 9 * DATA_UNIT + 64, &fx->f));
	assert_int_equal(fx->f.kind, FAULT_CORRUPT);
	assert_int_equal(fx->f.off, 9 * DATA_UNIT + 100);
}

static void test_half_written_unit_is_torn(void **state)
{
	struct fixture *fx = fresh();
	unsigned char old[DATA_UNIT];

	(void)state;
	data_produce(&fx->other, old, DATA_UNIT, 10 * DATA_UNIT);
	memcpy(fx->buf + 2 * DATA_UNIT + 2048, old + 2048, 2048);
	assert_false(data_check(&fx->g, fx->buf, sizeof(fx->buf), 8 * DATA_UNIT, &fx->f));
	assert_int_equal(fx->f.kind, FAULT_TORN);
	assert_int_equal(fx->f.first_sector, 4);
	assert_int_equal(fx->f.last_sector, 7);
	assert_int_equal(fx->f.unit_off, 10 * DATA_UNIT);
	/* the new half lost instead: the header is the old one's, sectors 0-3 differ */
	fx = fresh();
	memcpy(fx->buf + 2 * DATA_UNIT, old, 2048);
	assert_false(data_check(&fx->g, fx->buf, sizeof(fx->buf), 8 * DATA_UNIT, &fx->f));
	assert_int_equal(fx->f.kind, FAULT_TORN);
	assert_int_equal(fx->f.first_sector, 0);
	assert_int_equal(fx->f.last_sector, 3);
}

static void test_other_seed_is_stale_and_zeros_are_zeros(void **state)
{
	struct fixture *fx = fresh();
	char line[256];

	(void)state;
	data_produce(&fx->other, fx->buf + DATA_UNIT, DATA_UNIT, 9 * DATA_UNIT);
	assert_false(data_check(&fx->g, fx->buf, sizeof(fx->buf), 8 * DATA_UNIT, &fx->f));
	assert_int_equal(fx->f.kind, FAULT_STALE);
	assert_int_equal(fx->f.other, 12);
	data_fault_describe(&fx->f, line, sizeof(line));
	assert_non_null(strstr(line, "stale: iosweep data of seed 12"));
	fx = fresh();
	memset(fx->buf + 3 * DATA_UNIT, 0, DATA_UNIT);
	assert_false(data_check(&fx->g, fx->buf, sizeof(fx->buf), 8 * DATA_UNIT, &fx->f));
	assert_int_equal(fx->f.kind, FAULT_ZEROS);
	assert_int_equal(fx->f.off, 11 * DATA_UNIT);
	fx = fresh();
	for (size_t i = 0; i < DATA_UNIT; i++)
		fx->buf[i] = (unsigned char)(i * 7 + 1);
	assert_false(data_check(&fx->g, fx->buf, sizeof(fx->buf), 8 * DATA_UNIT, &fx->f));
	assert_int_equal(fx->f.kind, FAULT_FOREIGN);
	assert_int_equal(fx->f.off, 8 * DATA_UNIT);
}

static void test_verify_reads_back_a_file(void **state)
{
	enum { SIZE = 1u << 20, BS = 12288 };
	static unsigned char data[SIZE], buf[BS];
	char err[ERR_MAX];
	struct data_gen g;
	struct data_fault f;
	struct pattern p;
	uint64_t checked;
	int fd = test_scratch("data");

	(void)state;
	assert_true(fd >= 0);
	gen(&g, DATA_RANDOM, 0, 5);
	data_produce(&g, data, SIZE, 0);
	assert_int_equal(pwrite(fd, data, SIZE, 0), SIZE);
	pattern_init(&p, PATTERN_SEQUENTIAL, SIZE, BS, BS, 0, 5, 0,
		     pattern_reads(PATTERN_SEQUENTIAL, SIZE, BS, BS, 0));
	assert_int_equal(data_verify(&g, fd, &p, 0, buf, &f, &checked, err), 0);
	assert_int_equal(checked, SIZE);
	assert_int_equal(pwrite(fd, "x", 1, 777777), 1);
	pattern_init(&p, PATTERN_SEQUENTIAL, SIZE, BS, BS, 0, 5, 0,
		     pattern_reads(PATTERN_SEQUENTIAL, SIZE, BS, BS, 0));
	assert_int_equal(data_verify(&g, fd, &p, 0, buf, &f, &checked, err), 1);
	assert_int_equal(f.off, 777777);
	assert_int_equal(f.kind, FAULT_CORRUPT);
	/* a file shorter than the pattern: an error, not a verdict */
	assert_int_equal(ftruncate(fd, SIZE / 2), 0);
	pattern_init(&p, PATTERN_REVERSE, SIZE, BS, BS, 0, 5, 0,
		     pattern_reads(PATTERN_REVERSE, SIZE, BS, BS, 0));
	assert_int_equal(data_verify(&g, fd, &p, 0, buf, &f, &checked, err), -1);
	assert_non_null(strstr(err, "unexpected end of file"));
	close(fd);
	data_gen_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pieces_equal_the_whole),
		cmocka_unit_test(test_content_depends_on_seed_and_offset),
		cmocka_unit_test(test_random_data_does_not_repeat),
		cmocka_unit_test(test_compress_and_zero),
		cmocka_unit_test(test_good_data_checks),
		cmocka_unit_test(test_flipped_byte_is_corrupt_at_its_offset),
		cmocka_unit_test(test_half_written_unit_is_torn),
		cmocka_unit_test(test_other_seed_is_stale_and_zeros_are_zeros),
		cmocka_unit_test(test_verify_reads_back_a_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
