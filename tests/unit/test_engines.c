/*
 * test_engines.c - unit tests of the read engines (src/engine_*.c).
 *
 * Each engine runs under the I/O core (ioloop.c) on a worker built here the
 * way the runner builds one,
 * over a file of a few MiB whose size is not a multiple of 4096 (so the
 * last dense block is short), created with pseudo-random content in
 * ${IOSWEEP_TEST_DIR:-/var/tmp} (mkstemp, unlinked once open, so nothing
 * is left behind even by a failing test).  For every pattern
 * (sequential dense, sparse, reverse, random), block size, iodepth (1 and
 * 16 for the queued engines) and cache mode (buffered and, where the file
 * system allows it, O_DIRECT for sync/aio/uring) the reads, bytes and
 * checksum must equal a reference computed here with plain pread(2) and
 * XXH3_64bits_withSeed(block, len, offset).  The reference offsets are
 * computed independently of pattern.c except for random reads, whose
 * offsets are taken from pattern_next().
 *
 * Also: a deadline of 0 or a raised stop flag stops after exactly one
 * counted read; a file truncated after setup fails at the new end of file
 * (sync, the queued engines, and mmap through its SIGBUS handler); reading
 * an empty file is zero reads; split shares add up to the whole run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <liburing.h>
#include <xxhash.h>

#include "io/consume.h"
#include "io/engines/engine.h"
#include "lib/error.h"
#include "lib/hist.h"
#include "io/ioloop.h"
#include "job/options.h"
#include "io/pattern.h"
#include "testutil.h"

#define MIB (1024ull * 1024ull)
#define FILE_SIZE (3 * MIB + 5000)  /* not a multiple of 4096 nor of any bs below */
#define TRUNC_SIZE (1 * MIB + 8192) /* page aligned, inside a 16 KiB block */
#define DIO_MASK 4095ull            /* a multiple of every logical block size */
#define SEED 0x5eedull
#define QDEPTH 16u

static const uint64_t all_bs[] = { 4096, 16384, 65536, 10000 };

/* The file is unlinked as soon as it is open, so that a failing test
 * (cmocka longjmps out of it) leaves nothing behind. */
struct tfile {
	int fd, dfd;      /* buffered (read-write); O_DIRECT or -1 when not supported */
	uint64_t size;
};

static struct tfile main_file;
static unsigned char *ref_buf;       /* reference reads, 64 KiB */
static volatile atomic_int stop_flag;
static char what[256];               /* the case being run, for failure messages */

/* xorshift64*: reproducible file content. */
static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

static int tfile_create(struct tfile *f, uint64_t size, uint64_t seed)
{
	unsigned char chunk[65536];
	char path[4096];
	uint64_t left = size;

	f->fd = test_file_in(test_dir(), "engines", path, sizeof(path));
	if (f->fd < 0)
		return -1;
	f->dfd = open(path, O_RDONLY | O_DIRECT);
	if (unlink(path) < 0 || (f->dfd < 0 && errno != EINVAL))
		return -1;
	f->size = size;
	while (left) {
		size_t n = left < sizeof(chunk) ? (size_t)left : sizeof(chunk);

		for (size_t i = 0; i < n; i += 8) {
			uint64_t r = rng_next(&seed);

			memcpy(chunk + i, &r, n - i < 8 ? n - i : 8);
		}
		if (write_all(f->fd, chunk, n) < 0)
			return -1;
		left -= n;
	}
	/* written back, so that O_DIRECT reads come from the device */
	return fsync(f->fd);
}

static void tfile_remove(struct tfile *f)
{
	if (f->dfd >= 0)
		assert_int_equal(close(f->dfd), 0);
	assert_int_equal(close(f->fd), 0);
}

static int group_setup(void **state)
{
	(void)state;
	ref_buf = malloc(65536);
	if (!ref_buf)
		return -1;
	return tfile_create(&main_file, FILE_SIZE, 0x1234567ull);
}

static int group_teardown(void **state)
{
	(void)state;
	tfile_remove(&main_file);
	free(ref_buf);
	return 0;
}

/* ---- the reference: plain pread of the same offsets ---- */

struct job {
	const char *engine;
	enum pattern_kind kind;
	uint64_t bs, spacing, count;
	unsigned iodepth;
	bool direct;
	int hint;
};

struct expect {
	uint64_t reads, bytes, sum;
};

static void ref_read(int fd, uint64_t off, uint64_t len)
{
	uint64_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, ref_buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			fail_msg("reference pread at %llu: %s", (unsigned long long)(off + done),
				 n ? strerror(errno) : "end of file");
		done += (uint64_t)n;
	}
}

static void ref_add(struct expect *e, int fd, uint64_t off, uint64_t len)
{
	ref_read(fd, off, len);
	e->sum += XXH3_64bits_withSeed(ref_buf, (size_t)len, off);
	e->reads++;
	e->bytes += len;
}

/* Offset k * spacing for k in [0, n): dense reads cover the file (the last
 * one short), sparse reads are whole blocks that fit. */
static uint64_t ref_count(const struct job *j, uint64_t size)
{
	uint64_t n = 0;

	for (uint64_t off = 0; off < size; off += j->spacing) {
		if (j->spacing != j->bs && off + j->bs > size)
			break;
		n++;
	}
	return n;
}

static void reference(const struct job *j, uint64_t size, uint64_t first, uint64_t end,
		      struct expect *e)
{
	memset(e, 0, sizeof(*e));
	if (j->kind == PATTERN_RANDOM) {
		struct pattern p;
		uint64_t off, len;

		pattern_init(&p, j->kind, size, j->bs, j->spacing, j->count, SEED, first, end);
		while (pattern_next(&p, &off, &len)) {
			assert_true(off % j->bs == 0 && off + j->bs <= size);
			ref_add(e, main_file.fd, off, j->bs);
		}
		return;
	}
	uint64_t n = ref_count(j, size);

	for (uint64_t i = first; i < end && i < n; i++) {
		uint64_t k = j->kind == PATTERN_REVERSE ? n - 1 - i : i;
		uint64_t off = k * j->spacing;
		uint64_t len = size - off < j->bs ? size - off : j->bs;

		ref_add(e, main_file.fd, off, len);
	}
}

/* ---- building and running a worker ---- */

static void check(uint64_t got, uint64_t want, const char *field)
{
	if (got != want)
		fail_msg("%s: %s is %llu, expected %llu", what, field, (unsigned long long)got,
			 (unsigned long long)want);
}

/* The worker, set up (engine included) and advised, ready to run. */
static void worker_init(struct io_worker *w, const struct job *j, int fd, uint64_t size,
			uint64_t first, uint64_t end)
{
	static struct io_snapshot snap;
	const struct engine_ops *e = engine_find(j->engine);
	struct io_engine shape = {
		.fd = fd, .size = size, .bs = j->bs, .iodepth = j->iodepth, .dir = IO_READ,
		.direct = j->direct, .hint = j->hint,
		.sparse = j->kind == PATTERN_RANDOM || j->spacing > j->bs,
	};
	struct pattern share;
	char err[ERR_MAX] = "";

	assert_non_null(e);
	pattern_init(&share, j->kind, size, j->bs, j->spacing, j->count, SEED, first, end);
	shape.span = pattern_span(&share, &shape.span_off);
	if (ioloop_init(w, e, &shape, CONSUME_CHECKSUM, &snap, err) < 0)
		fail_msg("%s: setup: %s", what, err);
	memset(w->eng.bufs, 0xa5, w->eng.bufs_len);
	w->in.align_mask = j->direct ? DIO_MASK : 0;
	w->in.pat = share;
	stop_flag = 0;
	w->in.stop = &stop_flag;
	if (ioloop_advise(w, err) < 0)
		fail_msg("%s: advise: %s", what, err);
}

static void worker_done(struct io_worker *w)
{
	ioloop_free(w);
}

static const struct engine_ops *engine(const char *name)
{
	const struct engine_ops *e = engine_find(name);

	assert_non_null(e);
	return e;
}

/* Runs units [first, end) of job j on the main file. */
static int run_share(const struct job *j, uint64_t first, uint64_t end, struct io_worker *w)
{
	worker_init(w, j, j->direct ? main_file.dfd : main_file.fd, main_file.size, first, end);
	return ioloop_run(w);
}

static void describe(const struct job *j)
{
	static const char *const kinds[] = { "sequential", "reverse", "random" };

	snprintf(what, sizeof(what), "%s %s bs=%llu spacing=%llu count=%llu iodepth=%u %s hint=%d",
		 j->engine, kinds[j->kind], (unsigned long long)j->bs,
		 (unsigned long long)j->spacing, (unsigned long long)j->count, j->iodepth,
		 j->direct ? "direct" : "buffered", j->hint);
}

/* One whole run must match the reference exactly. */
static void check_job(const struct job *j)
{
	uint64_t n = pattern_reads(j->kind, main_file.size, j->bs, j->spacing, j->count);
	struct expect e;
	struct io_worker w;
	int rc;

	describe(j);
	reference(j, main_file.size, 0, n, &e);
	check(e.reads, n, "reference reads (pattern_reads)");
	check(e.bytes, pattern_bytes(j->kind, main_file.size, j->bs, j->spacing, j->count),
	      "reference bytes (pattern_bytes)");
	rc = run_share(j, 0, n, &w);
	if (rc != 0)
		fail_msg("%s: run failed: %s at %llu: %s", what, w.res.error_what,
			 (unsigned long long)w.res.error_off, strerror(w.res.error));
	check((uint64_t)w.res.error, 0, "error");
	check(w.res.ops[IO_READ], e.reads, "reads");
	check(w.res.bytes[IO_READ], e.bytes, "bytes");
	check(w.res.sum, e.sum, "checksum");
	check(hist_count(w.hist), e.reads, "latencies recorded");
	check(w.res.truncated, 0, "truncated");
	if (e.reads && (!w.res.t_first_ns || w.res.t_first_ns > w.res.t_last_ns))
		fail_msg("%s: t_first_ns %llu, t_last_ns %llu", what,
			 (unsigned long long)w.res.t_first_ns, (unsigned long long)w.res.t_last_ns);
	/* every read was issued after t_first_ns and completed by t_last_ns */
	if (e.reads && hist_max(w.hist) > w.res.t_last_ns - w.res.t_first_ns)
		fail_msg("%s: latency %llu ns > run time %llu ns", what,
			 (unsigned long long)hist_max(w.hist),
			 (unsigned long long)(w.res.t_last_ns - w.res.t_first_ns));
	worker_done(&w);
}

/* Every pattern for one engine, block size, iodepth and cache mode. */
static void check_patterns(struct job j)
{
	/* sequential dense, sparse, reverse, reverse sparse, random, random whole */
	static const struct {
		enum pattern_kind kind;
		bool sparse;
		uint64_t count;
	} pats[] = {
		{ PATTERN_SEQUENTIAL, false, 0 }, { PATTERN_SEQUENTIAL, true, 0 },
		{ PATTERN_REVERSE, false, 0 },    { PATTERN_REVERSE, true, 0 },
		{ PATTERN_RANDOM, false, 333 },   { PATTERN_RANDOM, false, 0 },
	};

	for (size_t i = 0; i < sizeof(pats) / sizeof(pats[0]); i++) {
		j.kind = pats[i].kind;
		j.spacing = pats[i].sparse ? 2 * j.bs + 4096 : j.bs;
		j.count = pats[i].count;
		check_job(&j);
	}
}

static bool uring_available(void)
{
	struct io_uring ring;

	if (io_uring_queue_init(1, &ring, 0) < 0)
		return false;
	io_uring_queue_exit(&ring);
	return true;
}

/* Every block size, iodepth and cache mode the engine supports. */
static void check_engine(const char *name)
{
	const struct engine_ops *e = engine(name);
	struct job j = { .engine = name, .hint = HINT_NONE };

	for (size_t b = 0; b < sizeof(all_bs) / sizeof(all_bs[0]); b++) {
		j.bs = all_bs[b];
		for (int depth = 0; depth < ((e->flags & ENGINE_QUEUED) ? 2 : 1); depth++) {
			j.iodepth = depth ? QDEPTH : 1;
			j.direct = false;
			check_patterns(j);
			if (!(e->flags & ENGINE_DIRECT) || main_file.dfd < 0 || j.bs % 4096)
				continue;
			j.direct = true;
			check_patterns(j);
		}
	}
}

static void test_engine_table(void **state)
{
	(void)state;
	assert_int_equal(engine("sync")->flags, ENGINE_DIRECT);
	assert_int_equal(engine("aio")->flags, ENGINE_QUEUED | ENGINE_DIRECT | ENGINE_FLUSH_QUEUED);
	assert_int_equal(engine("uring")->flags,
			 ENGINE_QUEUED | ENGINE_DIRECT | ENGINE_HIPRI_DIRECT | ENGINE_FLUSH_QUEUED);
	assert_int_equal(engine("mmap")->flags, ENGINE_MAPPED);
	assert_int_equal(engine("psync2")->flags, ENGINE_DIRECT);
	assert_non_null(engine("aio")->note);
	assert_non_null(engine("aio")->setup);
	assert_non_null(engine("uring")->setup);
	assert_non_null(engine("mmap")->setup);
	assert_null(engine_find("nosuch"));
}

static void test_sync_reads(void **state)
{
	(void)state;
	check_engine("sync");
}

static void test_psync2_reads(void **state)
{
	(void)state;
	check_engine("psync2");
}

static void test_aio_reads(void **state)
{
	(void)state;
	check_engine("aio");
}

static void test_uring_reads(void **state)
{
	(void)state;
	if (!uring_available())
		skip();
	check_engine("uring");
}

/* mmap: every hint must give the same bytes. */
static void test_mmap_reads(void **state)
{
	struct job j = { .engine = "mmap", .iodepth = 1 };

	(void)state;
	for (int hint = HINT_NONE; hint <= HINT_NOREUSE; hint++) {
		j.hint = hint;
		for (size_t b = 0; b < sizeof(all_bs) / sizeof(all_bs[0]); b++) {
			j.bs = all_bs[b];
			check_patterns(j);
		}
	}
}

/* Two shares of one run (as two threads would get) add up to the run; with
 * 10000-byte blocks the second share starts inside a page (mmap maps each
 * share from the page its first block starts in). */
static void test_shares(void **state)
{
	static const char *const names[] = { "sync", "aio", "mmap", "uring", "psync2" };
	static const enum pattern_kind kinds[] = { PATTERN_SEQUENTIAL, PATTERN_REVERSE,
						   PATTERN_RANDOM };

	(void)state;
	for (size_t i = 0; i < 5; i++) {
		if (strcmp(names[i], "uring") == 0 && !uring_available())
			continue;
		for (size_t k = 0; k < 6; k++) {
			uint64_t bs = k < 3 ? 16384 : 10000;
			struct job j = { .engine = names[i], .kind = kinds[k % 3], .bs = bs,
					 .spacing = bs, .count = 101,
					 .iodepth = (engine(names[i])->flags & ENGINE_QUEUED) ? 4 : 1 };
			uint64_t n = pattern_reads(j.kind, main_file.size, j.bs, j.spacing, j.count);
			struct expect e;
			struct io_worker a, b;

			describe(&j);
			reference(&j, main_file.size, 0, n, &e);
			assert_int_equal(run_share(&j, 0, n / 3, &a), 0);
			assert_int_equal(run_share(&j, n / 3, n, &b), 0);
			check(a.res.ops[IO_READ] + b.res.ops[IO_READ], e.reads, "reads of the shares");
			check(a.res.bytes[IO_READ] + b.res.bytes[IO_READ], e.bytes, "bytes of the shares");
			check(a.res.sum + b.res.sum, e.sum, "checksum of the shares");
			worker_done(&a);
			worker_done(&b);
		}
	}
}

/* A run that must stop after its first completed read. */
static void check_stops(const struct job *j, bool by_deadline)
{
	uint64_t n = pattern_reads(j->kind, main_file.size, j->bs, j->spacing, j->count);
	struct io_worker w;
	bool found = false;

	describe(j);
	worker_init(&w, j, j->direct ? main_file.dfd : main_file.fd, main_file.size, 0, n);
	if (by_deadline)
		w.in.runtime_ns = 1; /* over before the first unit completes */
	else
		stop_flag = 1;
	assert_int_equal(ioloop_run(&w), 0);
	check((uint64_t)w.res.error, 0, "error");
	check(w.res.truncated, 1, "truncated");
	check(w.res.ops[IO_READ], 1, "reads");
	check(w.res.bytes[IO_READ], j->bs, "bytes");
	check(hist_count(w.hist), 1, "latencies recorded");
	/* the one read counted is one of the first iodepth reads issued */
	for (uint64_t k = 0; k < j->iodepth && !found; k++) {
		ref_read(main_file.fd, k * j->bs, j->bs);
		found = w.res.sum == XXH3_64bits_withSeed(ref_buf, (size_t)j->bs, k * j->bs);
	}
	if (!found)
		fail_msg("%s: checksum of the one read matches none of the first blocks", what);
	worker_done(&w);
}

static void test_deadline(void **state)
{
	static const char *const names[] = { "sync", "aio", "mmap", "uring", "psync2" };

	(void)state;
	for (size_t i = 0; i < 5; i++) {
		const struct engine_ops *e = engine(names[i]);
		struct job j = { .engine = names[i], .kind = PATTERN_SEQUENTIAL, .bs = 16384,
				 .spacing = 16384, .iodepth = 1 };

		if (strcmp(names[i], "uring") == 0 && !uring_available())
			continue;
		for (int depth = 0; depth < ((e->flags & ENGINE_QUEUED) ? 2 : 1); depth++) {
			j.iodepth = depth ? QDEPTH : 1;
			for (int direct = 0; direct < 2; direct++) {
				j.direct = direct;
				if (direct && (!(e->flags & ENGINE_DIRECT) || main_file.dfd < 0))
					continue;
				check_stops(&j, true);
				check_stops(&j, false);
			}
		}
	}
}

/* Empty file: no reads, no error. */
static void test_empty_file(void **state)
{
	static const char *const names[] = { "sync", "aio", "mmap", "uring", "psync2" };
	struct tfile f;

	(void)state;
	assert_int_equal(tfile_create(&f, 0, 1), 0);
	for (size_t i = 0; i < 5; i++) {
		const struct engine_ops *e = engine(names[i]);
		struct job j = { .engine = names[i], .kind = PATTERN_SEQUENTIAL, .bs = 4096,
				 .spacing = 4096, .iodepth = (e->flags & ENGINE_QUEUED) ? 4 : 1 };
		struct io_worker w;

		if (strcmp(names[i], "uring") == 0 && !uring_available())
			continue;
		describe(&j);
		worker_init(&w, &j, f.fd, 0, 0, pattern_reads(j.kind, 0, 4096, 4096, 0));
		assert_int_equal(ioloop_run(&w), 0);
		check(w.res.ops[IO_READ], 0, "reads");
		check((uint64_t)w.res.error, 0, "error");
		worker_done(&w);
	}
	tfile_remove(&f);
}

/*
 * Truncates a fresh copy of the file to TRUNC_SIZE between setup and run:
 * a dense sequential run must stop with "unexpected end of file" (error 0)
 * at TRUNC_SIZE, the blocks before it read and counted.  With several reads
 * in flight the first failure seen may be any of them.
 */
static void check_truncated(const char *name, unsigned iodepth, bool direct)
{
	struct job j = { .engine = name, .kind = PATTERN_SEQUENTIAL, .bs = 16384,
			 .spacing = 16384, .iodepth = iodepth, .direct = direct };
	uint64_t n = pattern_reads(j.kind, FILE_SIZE, j.bs, j.spacing, 0);
	uint64_t whole = TRUNC_SIZE / j.bs;
	struct expect ref;
	struct tfile f;
	struct io_worker w;
	int rc;

	describe(&j);
	/* same seed as the main file: same bytes, so the reference reads those */
	assert_int_equal(tfile_create(&f, FILE_SIZE, 0x1234567ull), 0);
	if (direct && f.dfd < 0) {
		tfile_remove(&f);
		return;
	}
	reference(&j, TRUNC_SIZE, 0, whole, &ref);
	worker_init(&w, &j, direct ? f.dfd : f.fd, FILE_SIZE, 0, n);
	assert_int_equal(ftruncate(f.fd, TRUNC_SIZE), 0);
	rc = ioloop_run(&w);
	assert_int_equal(rc, -1);
	check((uint64_t)w.res.error, 0, "error");
	assert_non_null(w.res.error_what);
	assert_non_null(strstr(w.res.error_what, "unexpected end of file"));
	if (strcmp(name, "mmap") == 0)
		assert_non_null(strstr(w.res.error_what, "SIGBUS"));
	if (iodepth == 1) {
		check(w.res.error_off, TRUNC_SIZE, "error offset");
		check(w.res.ops[IO_READ], whole, "reads");
		check(w.res.bytes[IO_READ], whole * j.bs, "bytes");
		check(w.res.sum, ref.sum, "checksum");
	} else if (w.res.error_off < TRUNC_SIZE || w.res.error_off >= TRUNC_SIZE + iodepth * j.bs) {
		fail_msg("%s: error offset %llu", what, (unsigned long long)w.res.error_off);
	}
	check(w.res.truncated, 0, "truncated");
	worker_done(&w);
	tfile_remove(&f);
}

static void test_truncated_sync(void **state)
{
	(void)state;
	check_truncated("sync", 1, false);
	check_truncated("sync", 1, true);
}

static void test_truncated_mmap(void **state)
{
	(void)state;
	check_truncated("mmap", 1, false);
	/* the handler is gone after teardown and works again for a new setup */
	check_truncated("mmap", 1, false);
}

static void test_truncated_queued(void **state)
{
	static const char *const names[] = { "aio", "uring" };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		if (strcmp(names[i], "uring") == 0 && !uring_available())
			continue;
		for (int direct = 0; direct < 2; direct++) {
			check_truncated(names[i], 1, direct);
			check_truncated(names[i], QDEPTH, direct);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_engine_table),
		cmocka_unit_test(test_sync_reads),
		cmocka_unit_test(test_psync2_reads),
		cmocka_unit_test(test_aio_reads),
		cmocka_unit_test(test_mmap_reads),
		cmocka_unit_test(test_uring_reads),
		cmocka_unit_test(test_shares),
		cmocka_unit_test(test_deadline),
		cmocka_unit_test(test_empty_file),
		cmocka_unit_test(test_truncated_sync),
		cmocka_unit_test(test_truncated_mmap),
		cmocka_unit_test(test_truncated_queued),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
