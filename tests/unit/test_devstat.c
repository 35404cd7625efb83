/*
 * test_devstat.c - unit tests of the device statistics (src/io/devstat.c).
 *
 * A stat file is parsed strictly: the kernel's three layouts (11, 15 and
 * 17 fields) are read field by field, and hostile text -- a short line,
 * a number beyond 64 bits, a sign, letters, a second line -- is no sample.
 * A difference whose counters went backwards (a device reset) or whose
 * bytes do not fit 64 bits is no figure.  The rule for I/O the run cannot
 * explain is checked at its edges.  Device discovery: tmpfs has no block
 * device and says so; a device node is its own device.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "io/devstat.h"

/* Linux 5.5 and later: 17 fields */
static const char line17[] =
	"     585        3   180992      295       78       17    10704       39        0      "
	"164      370        2        0    32776        0       60       35\n";

static void parses_the_kernels_layouts(void **state)
{
	struct devstat_sample s;

	(void)state;
	assert_int_equal(devstat_parse(line17, &s), 0);
	assert_int_equal(s.n, 17);
	assert_int_equal(s.v[DS_READ_IOS], 585);
	assert_int_equal(s.v[DS_READ_MERGES], 3);
	assert_int_equal(s.v[DS_READ_SECTORS], 180992);
	assert_int_equal(s.v[DS_WRITE_SECTORS], 10704);
	assert_int_equal(s.v[DS_IO_TICKS], 164);
	assert_int_equal(s.v[DS_TIME_IN_QUEUE], 370);
	assert_int_equal(s.v[DS_FLUSH_TICKS], 35);
	assert_int_equal(devstat_parse("1 2 3 4 5 6 7 8 9 10 11\n", &s), 0);
	assert_int_equal(s.n, 11);
	assert_int_equal(s.v[DS_TIME_IN_QUEUE], 11);
	assert_int_equal(devstat_parse("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", &s), 0);
	assert_int_equal(s.n, 15);
	/* the largest counter there is */
	assert_int_equal(devstat_parse("18446744073709551615 0 0 0 0 0 0 0 0 0 0\n", &s), 0);
	assert_true(s.v[0] == UINT64_MAX);
}

static void hostile_lines_are_no_sample(void **state)
{
	static const char *const bad[] = {
		"",
		"\n",
		"1 2 3 4 5 6 7 8 9 10\n",                      /* short */
		"18446744073709551616 0 0 0 0 0 0 0 0 0 0\n", /* 2^64 */
		"99999999999999999999999 0 0 0 0 0 0 0 0 0 0\n",
		"-1 2 3 4 5 6 7 8 9 10 11\n",
		"+1 2 3 4 5 6 7 8 9 10 11\n",
		"1 2 3 4 5 6 7 8 9 10 x11\n",
		"1 2 3 4 5 6 7 8 9 10 11x\n",
		"1 2 3 4 5 6 7 8 9 10 0x11\n",
		"1 2 3 4 5 6 7 8 9 10 1.5\n",
		"1 2 3 4 5 6 7 8 9 10 11\n1 2 3 4 5 6 7 8 9 10 11\n", /* two lines */
		"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18\n",     /* too many */
		"1 2 3 4 5 6 7 8 9 10 \xff\xfe\n",
	};
	struct devstat_sample s;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		print_message("%zu\n", i);
		assert_int_equal(devstat_parse(bad[i], &s), -1);
	}
}

static void sample_of(struct devstat_sample *s, uint64_t base)
{
	memset(s, 0, sizeof(*s));
	s->n = DS__COUNT;
	for (int k = 0; k < DS__COUNT; k++)
		s->v[k] = base * (uint64_t)(k + 1);
}

static void differences_are_exact(void **state)
{
	struct devstat_sample a, b;
	struct devstat_delta d;

	(void)state;
	sample_of(&a, 10);
	sample_of(&b, 30);
	b.v[DS_IN_FLIGHT] = 0; /* a level: it may go down */
	assert_int_equal(devstat_diff(&a, &b, &d), 0);
	assert_int_equal(d.ios[0], 20);
	assert_int_equal(d.merges[0], 40);
	assert_int_equal(d.bytes[0], 60 * 512);
	assert_int_equal(d.ticks_ms[0], 80);
	assert_int_equal(d.ios[1], 100);
	assert_int_equal(d.merges[1], 120);
	assert_int_equal(d.bytes[1], 140 * 512);
	assert_int_equal(d.ticks_ms[1], 160);
	assert_int_equal(d.busy_ms, 200);
	assert_int_equal(d.queue_ms, 220);
}

static void counters_gone_backwards_are_no_figure(void **state)
{
	struct devstat_sample a, b;
	struct devstat_delta d;

	(void)state;
	for (int k = 0; k < DEVSTAT_MIN_FIELDS; k++) {
		if (k == DS_IN_FLIGHT)
			continue;
		sample_of(&a, 10);
		sample_of(&b, 30);
		b.v[k] = a.v[k] - 1; /* the device was reset between the samples */
		assert_int_equal(devstat_diff(&a, &b, &d), -1);
	}
	/* sectors whose bytes do not fit 64 bits */
	sample_of(&a, 0);
	sample_of(&b, 0);
	b.v[DS_READ_SECTORS] = UINT64_MAX / 256;
	assert_int_equal(devstat_diff(&a, &b, &d), -1);
	/* a sample too short */
	sample_of(&b, 30);
	a.n = DEVSTAT_MIN_FIELDS - 1;
	assert_int_equal(devstat_diff(&a, &b, &d), -1);
}

static void excess_is_what_the_run_cannot_explain(void **state)
{
	struct devstat_delta d = { 0 };
	const uint64_t app[2] = { 8 << 20, 0 };
	uint64_t x[2];

	(void)state;
	/* a cold read that found part in the cache: less is never foreign */
	d.bytes[0] = 1 << 20;
	devstat_excess(&d, app, 128, false, 0, x);
	assert_true(x[0] == 0 && x[1] == 0);
	/* direct: its own bytes and the slack */
	d.bytes[0] = (8 << 20) + DEVSTAT_SLACK_BYTES;
	devstat_excess(&d, app, 128, false, 0, x);
	assert_true(x[0] == 0);
	d.bytes[0] += 4096;
	devstat_excess(&d, app, 128, false, 0, x);
	assert_true(x[0] == 4096);
	/* buffered: plus a read-ahead window per read */
	d.bytes[0] = (8 << 20) + DEVSTAT_SLACK_BYTES + 128ULL * 131072;
	devstat_excess(&d, app, 128, true, 131072, x);
	assert_true(x[0] == 0);
	d.bytes[0] += 512;
	devstat_excess(&d, app, 128, true, 131072, x);
	assert_true(x[0] == 512);
	/* writes during a read-only run beyond the slack */
	d.bytes[1] = DEVSTAT_SLACK_BYTES + 1;
	devstat_excess(&d, app, 128, true, 131072, x);
	assert_true(x[1] == 1);
	/* twice the run's writes (a journal) is explained */
	{
		const uint64_t w[2] = { 0, 1 << 20 };

		d.bytes[0] = 0;
		d.bytes[1] = (2 << 20) + DEVSTAT_SLACK_BYTES;
		devstat_excess(&d, w, 0, true, 131072, x);
		assert_true(x[0] == 0 && x[1] == 0);
	}
	/* huge counts saturate, never wrap to a small bound */
	{
		const uint64_t huge[2] = { UINT64_MAX - 1, UINT64_MAX / 2 + 1 };

		d.bytes[0] = d.bytes[1] = UINT64_MAX;
		devstat_excess(&d, huge, UINT64_MAX, true, UINT64_MAX, x);
		assert_true(x[0] == 0 && x[1] == 0);
	}
}

static void tmpfs_has_no_block_device(void **state)
{
	char path[] = "/dev/shm/iosweep-devstat-XXXXXX";
	struct devstat d;
	int fd = mkstemp(path);

	(void)state;
	if (fd < 0)
		skip();
	unlink(path);
	devstat_open(&d, fd);
	close(fd);
	assert_int_equal(d.n, 0);
	assert_string_equal(d.why, "its file system (tmpfs) has no block device");
	devstat_close(&d);
}

static void a_device_node_is_its_own_device(void **state)
{
	struct devstat d;
	struct devstat_sample s;
	struct stat st;
	int fd = open("/dev/loop0", O_RDONLY | O_CLOEXEC);

	(void)state;
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		skip();
	}
	devstat_open(&d, fd);
	close(fd);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.name, "loop0");
	assert_int_equal(devstat_sample(&d, &s), 0);
	assert_true(s.n >= DEVSTAT_MIN_FIELDS);
	devstat_close(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_the_kernels_layouts),
		cmocka_unit_test(hostile_lines_are_no_sample),
		cmocka_unit_test(differences_are_exact),
		cmocka_unit_test(counters_gone_backwards_are_no_figure),
		cmocka_unit_test(excess_is_what_the_run_cannot_explain),
		cmocka_unit_test(tmpfs_has_no_block_device),
		cmocka_unit_test(a_device_node_is_its_own_device),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
