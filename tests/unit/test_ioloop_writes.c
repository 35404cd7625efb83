/*
 * test_ioloop_writes.c - the I/O core's writes, with a fake engine whose
 * "file" is memory, so that what the loop does is seen apart from any
 * kernel:
 *
 * - op=write puts data_produce()'s bytes at every block, and the checksum is
 *   the one a reader of those blocks computes;
 * - op=readwrite sends each block the way io_mix_dir() says, reads see the
 *   old content and writes leave the new;
 * - sync_every=N flushes after every N writes issued, never with a unit in
 *   flight, once more at the end for the rest, and the worker's time to end
 *   ends after the last flush; sync=end flushes once, after every write;
 *   sync=none never; a failing flush stops the worker and is named; the
 *   flushes of a ramp are not counted, as its units are not;
 * - every repeat's histograms hold that repeat's units and flushes only;
 * - each latency lands in its unit's direction and in the series' interval
 *   its unit completed in, though the loop buckets them in batches.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <xxhash.h>

#include "io/consume.h"
#include "io/data.h"
#include "io/engines/engine.h"
#include "lib/error.h"
#include "lib/hist.h"
#include "io/ioloop.h"
#include "io/pattern.h"
#include "io/series.h"

#define FSIZE (1u << 20)
#define MAXQ 64

static struct {
	unsigned char file[FSIZE], before[FSIZE];
	struct io_unit *fly[MAXQ], *done[MAXQ];
	unsigned nfly, ndone, max_fly;
	unsigned flushes, flushes_in_flight, writes_since_flush, most_between_flushes;
	int flush_errno;
	uint64_t t_last_flush;
	uint64_t spin_ns; /* > 0: a read takes at least this long, a write twice that */
} fk;

static void attempt(struct io_unit *u)
{
	uint64_t until = now_ns() + (u->dir == IO_WRITE ? 2 : 1) * fk.spin_ns;

	while (fk.spin_ns && now_ns() < until)
		;
	if (u->dir == IO_WRITE) {
		memcpy(fk.file + u->off, io_unit_buf(u), io_unit_left(u));
		if (++fk.writes_since_flush > fk.most_between_flushes)
			fk.most_between_flushes = fk.writes_since_flush;
	} else {
		memcpy(io_unit_buf(u), fk.file + u->off, io_unit_left(u));
	}
	u->res = (long)io_unit_left(u);
}

static enum io_queued fake_queue(struct io_engine *e, struct io_unit *u)
{
	(void)e;
	assert_true(fk.nfly < MAXQ);
	fk.fly[fk.nfly++] = u;
	if (fk.nfly > fk.max_fly)
		fk.max_fly = fk.nfly;
	return IO_QUEUED;
}

static int fake_commit(struct io_engine *e)
{
	(void)e;
	return 1;
}

/* Completes everything in flight, last submitted first. */
static int fake_reap(struct io_engine *e, unsigned min)
{
	(void)e;
	assert_true(min >= 1 && min <= fk.nfly);
	fk.ndone = 0;
	while (fk.nfly) {
		struct io_unit *u = fk.fly[--fk.nfly];

		attempt(u);
		fk.done[fk.ndone++] = u;
	}
	return (int)fk.ndone;
}

static struct io_unit *fake_event(struct io_engine *e, unsigned i)
{
	(void)e;
	return fk.done[i];
}

static int fake_flush(struct io_engine *e, bool data_only)
{
	(void)data_only;
	fk.flushes++;
	fk.flushes_in_flight += fk.nfly;
	fk.writes_since_flush = 0;
	fk.t_last_flush = now_ns();
	if (fk.flush_errno) {
		e->what = "fake flush";
		errno = fk.flush_errno;
		return -1;
	}
	return 0;
}

static const struct engine_ops fake_engine = {
	.name = "fake",
	.flags = ENGINE_QUEUED,
	.queue = fake_queue,
	.commit = fake_commit,
	.reap = fake_reap,
	.event = fake_event,
	.flush = fake_flush,
};

static struct io_snapshot snap;
static volatile atomic_int stop_flag;
static struct data_gen gen;

static void worker(struct io_worker *w, enum op_kind op, unsigned rwmixread, enum sync_kind sync,
		   uint64_t every, unsigned depth, enum pattern_kind pat)
{
	struct io_engine shape = { .fd = -1, .size = FSIZE, .bs = 4096, .iodepth = depth,
				   .dir = IO_WRITE };
	char err[ERR_MAX] = "";

	memset(&fk, 0, sizeof(fk)); /* a failed test's assertion skipped its done() */
	for (size_t i = 0; i < FSIZE; i++)
		fk.file[i] = (unsigned char)(i * 7 + 3);
	memcpy(fk.before, fk.file, FSIZE);
	assert_int_equal(data_gen_init(&gen, DATA_RANDOM, 0, 5, err), 0);
	assert_int_equal(ioloop_init(w, &fake_engine, &shape, CONSUME_CHECKSUM, &snap, err), 0);
	stop_flag = 0;
	w->in.stop = &stop_flag;
	w->in.gen = &gen;
	w->in.op = op;
	w->in.rwmixread = rwmixread;
	w->in.sync = sync;
	w->in.sync_every = every;
	pattern_init(&w->in.pat, pat, FSIZE, 4096, 4096, 0, 5, 0,
		     pattern_reads(pat, FSIZE, 4096, 4096, 0));
}

static void done(struct io_worker *w)
{
	ioloop_free(w);
	data_gen_free(&gen);
	memset(&fk, 0, sizeof(fk));
}

static void test_writes_put_the_generated_data(void **state)
{
	static unsigned char want[FSIZE];
	struct io_worker w;
	uint64_t sum = 0;

	(void)state;
	worker(&w, OP_WRITE, 0, SYNC_NONE, UINT64_MAX, 8, PATTERN_REVERSE);
	assert_int_equal(ioloop_run(&w), 0);
	data_produce(&gen, want, FSIZE, 0);
	assert_memory_equal(fk.file, want, FSIZE);
	for (uint64_t off = 0; off < FSIZE; off += 4096)
		sum += XXH3_64bits_withSeed(want + off, 4096, off);
	assert_int_equal(w.res.sum, sum);
	assert_int_equal(w.res.ops[IO_WRITE], FSIZE / 4096);
	assert_int_equal(w.res.ops[IO_READ], 0);
	assert_int_equal(hist_count(w.dir_hist[IO_WRITE]), FSIZE / 4096);
	assert_int_equal(hist_count(w.dir_hist[IO_READ]), 0);
	assert_int_equal(w.res.flushes, 0);
	assert_int_equal(fk.flushes, 0);
	assert_true(fk.max_fly > 1);
	done(&w);
}

static void test_readwrite_splits_by_offset(void **state)
{
	static unsigned char want[4096];
	struct io_worker w;
	uint64_t reads = 0, sum = 0;

	(void)state;
	worker(&w, OP_READWRITE, 30, SYNC_NONE, UINT64_MAX, 4, PATTERN_SEQUENTIAL);
	assert_int_equal(ioloop_run(&w), 0);
	for (uint64_t off = 0; off < FSIZE; off += 4096) {
		if (io_mix_dir(&gen, 30, off) == IO_READ) {
			reads++;
			assert_memory_equal(fk.file + off, fk.before + off, 4096);
			sum += XXH3_64bits_withSeed(fk.before + off, 4096, off);
		} else {
			data_produce(&gen, want, 4096, off);
			assert_memory_equal(fk.file + off, want, 4096);
			sum += XXH3_64bits_withSeed(want, 4096, off);
		}
	}
	/* about 30% of 256 blocks, and exactly the ones drawn */
	assert_in_range(reads, 50, 110);
	assert_int_equal(w.res.ops[IO_READ], reads);
	assert_int_equal(w.res.ops[IO_WRITE], FSIZE / 4096 - reads);
	assert_int_equal(w.res.bytes[IO_READ], reads * 4096);
	assert_int_equal(hist_count(w.dir_hist[IO_READ]), reads);
	assert_int_equal(w.res.sum, sum);
	done(&w);
}

static void test_flush_every_n_writes_with_nothing_in_flight(void **state)
{
	static const uint64_t every[] = { 1, 7, 100, 256, 1000 };

	(void)state;
	for (size_t i = 0; i < sizeof(every) / sizeof(every[0]); i++) {
		struct io_worker w;
		uint64_t writes = FSIZE / 4096;

		worker(&w, OP_WRITE, 0, SYNC_FDATASYNC, every[i], 16, PATTERN_RANDOM);
		assert_int_equal(ioloop_run(&w), 0);
		assert_int_equal(w.res.flushes, (writes + every[i] - 1) / every[i]);
		assert_int_equal(fk.flushes, w.res.flushes);
		assert_int_equal(hist_count(w.flush_hist), w.res.flushes);
		assert_int_equal(fk.flushes_in_flight, 0);
		assert_true(fk.most_between_flushes <= every[i]);
		/* the last flush is inside the time to end */
		assert_true(w.res.t_last_ns >= fk.t_last_flush);
		done(&w);
	}
}

static void test_sync_end_flushes_once_after_the_last_write(void **state)
{
	struct io_worker w;

	(void)state;
	worker(&w, OP_WRITE, 0, SYNC_END, UINT64_MAX, 8, PATTERN_SEQUENTIAL);
	assert_int_equal(ioloop_run(&w), 0);
	assert_int_equal(fk.flushes, 1);
	assert_int_equal(fk.writes_since_flush, 0);
	assert_int_equal(fk.most_between_flushes, FSIZE / 4096);
	assert_true(w.res.t_last_ns >= fk.t_last_flush);
	done(&w);
	/* a readwrite run that happens to write nothing flushes no less */
	worker(&w, OP_READWRITE, 100, SYNC_END, UINT64_MAX, 8, PATTERN_SEQUENTIAL);
	assert_int_equal(ioloop_run(&w), 0);
	assert_int_equal(w.res.ops[IO_WRITE], 0);
	assert_int_equal(fk.flushes, 1);
	done(&w);
}

/* time_based with a ramp: the flushes done during the ramp are neither
 * counted nor timed, as its writes are not; with sync_every=1 the counted
 * flushes are the counted writes (one more when a write of the ramp is
 * flushed after it), and the final flush is still inside the time to end. */
static void test_ramp_flushes_are_not_counted(void **state)
{
	struct io_worker w;

	(void)state;
	worker(&w, OP_WRITE, 0, SYNC_FDATASYNC, 1, 1, PATTERN_SEQUENTIAL);
	fk.spin_ns = 20000; /* a write takes 40 us */
	w.in.wrap = true;
	/* 100 ms each: at least 10 writes of 40 us even when the machine is
	 * loaded enough to leave this thread a few ms of each (3 ms were not) */
	w.in.ramp_ns = 100000000;
	w.in.runtime_ns = 100000000;
	assert_int_equal(ioloop_run(&w), 0);
	assert_true(w.res.ops[IO_WRITE] > 10);
	assert_in_range(w.res.flushes, w.res.ops[IO_WRITE], w.res.ops[IO_WRITE] + 1);
	assert_int_equal(hist_count(w.flush_hist), w.res.flushes);
	assert_true(fk.flushes > w.res.flushes + 10); /* the ramp's */
	assert_true(w.res.t_last_ns >= fk.t_last_flush);
	done(&w);
}

static void test_failed_flush_stops_the_worker(void **state)
{
	struct io_worker w;

	(void)state;
	worker(&w, OP_WRITE, 0, SYNC_FSYNC, 10, 4, PATTERN_SEQUENTIAL);
	fk.flush_errno = EIO;
	assert_int_equal(ioloop_run(&w), -1);
	assert_int_equal(fk.flushes, 1);
	assert_int_equal(w.res.ops[IO_WRITE], 10);
	assert_int_equal(w.res.error, EIO);
	assert_string_equal(w.res.error_what, "fake flush");
	done(&w);
}

/* A repeat's histograms hold its own units and flushes only, whether the
 * units were recorded per direction or in a series' intervals. */
static void test_every_repeat_starts_its_histograms_empty(void **state)
{
	(void)state;
	for (int with_series = 0; with_series < 2; with_series++) {
		struct io_worker w;
		struct pattern p0;
		struct series *s = calloc(1, sizeof(*s));

		assert_non_null(s);
		worker(&w, OP_READWRITE, 50, SYNC_FDATASYNC, 8, 4, PATTERN_SEQUENTIAL);
		if (with_series) {
			assert_int_equal(series_init(s), 0);
			w.series = s;
			w.in.interval_ns = 1000000000ULL;
		} else {
			free(s);
		}
		p0 = w.in.pat;
		for (int repeat = 0; repeat < 3; repeat++) {
			w.in.pat = p0; /* the runner's part, per repeat */
			assert_int_equal(ioloop_run(&w), 0);
			assert_int_equal(hist_count(w.dir_hist[IO_READ]), w.res.ops[IO_READ]);
			assert_int_equal(hist_count(w.dir_hist[IO_WRITE]), w.res.ops[IO_WRITE]);
			assert_int_equal(hist_count(w.hist), io_results_ops(&w.res));
			assert_int_equal(hist_count(w.flush_hist), w.res.flushes);
			assert_true(w.res.ops[IO_READ] > 0 && w.res.ops[IO_WRITE] > 0);
		}
		done(&w);
	}
}

/* The loop buckets latencies IO_LAT_BATCH at a time (ioloop.c): each still
 * lands in its unit's direction and in the interval its unit completed in,
 * where intervals end in the middle of a batch (256 units of 5-10 us in
 * intervals of 20 us, coarsened as they run out), with one unit in flight
 * or four. */
static void test_batched_latencies_land_in_their_interval(void **state)
{
	(void)state;
	for (unsigned depth = 1; depth <= 4; depth += 3) {
		struct io_worker w;
		struct series *s = calloc(1, sizeof(*s));
		unsigned used;

		assert_non_null(s);
		worker(&w, OP_READWRITE, 30, SYNC_NONE, UINT64_MAX, depth, PATTERN_SEQUENTIAL);
		fk.spin_ns = 5000;
		assert_int_equal(series_init(s), 0);
		w.series = s;
		w.in.interval_ns = 20000;
		assert_int_equal(ioloop_run(&w), 0);
		assert_int_equal(io_results_ops(&w.res), FSIZE / 4096);
		assert_true(w.res.ops[IO_READ] > 0 && w.res.ops[IO_WRITE] > 0);
		used = series_used(s);
		assert_true(used > 1);
		for (unsigned k = 0; k < used; k++)
			for (int d = 0; d < IO_DIRS; d++)
				assert_int_equal(hist_count(s->slot[k].h[d]), s->slot[k].ops[d]);
		assert_int_equal(hist_count(w.dir_hist[IO_READ]), w.res.ops[IO_READ]);
		assert_int_equal(hist_count(w.dir_hist[IO_WRITE]), w.res.ops[IO_WRITE]);
		assert_true(hist_min(w.dir_hist[IO_READ]) >= fk.spin_ns);
		assert_true(hist_min(w.dir_hist[IO_WRITE]) >= 2 * fk.spin_ns);
		done(&w);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_writes_put_the_generated_data),
		cmocka_unit_test(test_readwrite_splits_by_offset),
		cmocka_unit_test(test_flush_every_n_writes_with_nothing_in_flight),
		cmocka_unit_test(test_sync_end_flushes_once_after_the_last_write),
		cmocka_unit_test(test_ramp_flushes_are_not_counted),
		cmocka_unit_test(test_failed_flush_stops_the_worker),
		cmocka_unit_test(test_every_repeat_starts_its_histograms_empty),
		cmocka_unit_test(test_batched_latencies_land_in_their_interval),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
