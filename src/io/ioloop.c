/*
 * ioloop.c - the I/O core: one timed loop for every engine (see ioloop.h).
 *
 * Shaped like fio's backend.c + io_u.c, small: the loop owns time,
 * accounting and direction, the engine only moves units.  Everything the
 * loop needs is allocated and decided in ioloop_init(); inside ioloop_run()
 * nothing is allocated and the only branches are on what the engine and the
 * pattern answer.  io_begin() and io_end() are the one place where every
 * unit starts and ends: per-interval series and rate limits belong there.
 */
#define _GNU_SOURCE
#include "io/ioloop.h"
#include "io/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "lib/error.h"

/* The loop's own state during one repeat. */
struct loop {
	unsigned nfree, nretry;
	unsigned queued;   /* given to the engine, not yet committed */
	unsigned inflight; /* committed, not yet reaped */
	uint64_t deadline_ns;
	uint64_t t0_ns;    /* the loop's start (rate limit: see in.phase) */
	uint64_t nbegun;   /* rate limit: new units begun */
	uint64_t next_due; /* rate limit: when the next new unit is due */
	uint64_t recent_ns; /* the latest time the loop read: now is no earlier */
	struct pattern pat0; /* time_based: the pattern as the repeat began */
	uint64_t held_off, held_len; /* rate limit: the next unit, drawn, not yet due */
	bool held;
	bool exhausted;    /* the pattern has no more units */
	bool stopping;     /* issue nothing more: stopped or failed */
	bool failed;
	uint64_t unflushed; /* writes issued since the last flush */
	bool flush_due;     /* sync_every writes issued: drain, then flush */
	bool flush_next;    /* sync_mode=inflight: sync_every writes issued, the next
			     * unit is a flush, queued with the others in flight */
	uint64_t since_think; /* thinktime: units begun since the last think period */
	bool think_due;       /* thinktime: think before the next new unit */
};

/* The worker's histograms, IO_HISTS of them: ioloop_init() allocates,
 * ioloop_free() frees and ioloop_worker_memory() counts this list. */
static void worker_hists(struct io_worker *w, struct hist **h[IO_HISTS])
{
	struct hist **all[] = { &w->hist, &w->dir_hist[IO_READ], &w->dir_hist[IO_WRITE],
				&w->flush_hist, &w->resp_hist, &w->trim_hist };

	_Static_assert(sizeof(all) / sizeof(all[0]) == IO_HISTS, "IO_HISTS is the list's length");
	memcpy(h, all, sizeof(all));
}

/* The units' buffers: iodepth blocks of bs, in whole pages. */
static size_t bufs_bytes(const struct io_engine *shape)
{
	return (size_t)io_round_up((uint64_t)shape->iodepth * shape->bs, 4095);
}

/* A unit's bookkeeping: the unit, its places in the free and retry stacks. */
#define UNIT_BYTES (sizeof(struct io_unit) + 2 * sizeof(unsigned))

const char *const io_mem_part_names[IO_MEM__COUNT] = {
	[IO_MEM_BUFFERS] = "buffers", [IO_MEM_HISTS] = "histograms", [IO_MEM_SERIES] = "series",
	[IO_MEM_ENGINE] = "engine state", [IO_MEM_OTHER] = "other",
};

void ioloop_worker_memory(const struct engine_ops *ops, const struct io_engine *shape, bool series,
			  struct io_memory *m)
{
	m->part[IO_MEM_BUFFERS] += bufs_bytes(shape);
	m->part[IO_MEM_HISTS] += IO_HISTS * hist_size();
	m->part[IO_MEM_ENGINE] += ops->state_bytes ? ops->state_bytes(shape) : 0;
	m->part[IO_MEM_OTHER] += shape->iodepth * UNIT_BYTES;
	if (series)
		m->part[IO_MEM_SERIES] += series_bytes() + series_live_bytes();
}

/*
 * What the runner (run/run.c, runner_init) holds for a run besides its
 * workers: per worker an io_worker, an io_snapshot, its time to end and its
 * ranges done (one per rank, and its own); the totals, one of each of a
 * worker's IO_HISTS histograms; with a series, their sum; on rank 0 of
 * several, every rank's histogram to merge; the data generator's pool; and
 * verify=after's block.  Not counted: the pages the threads' stacks touch
 * (a few KiB each) and the results, some bytes a repeat (64 threads with
 * a series: 164 MB held, 163.5 MB counted; tests/cli/memory.bats).
 */
void ioloop_run_memory(const struct engine_ops *ops, const struct io_engine *shape,
		       const struct io_run_shape *run, struct io_memory *m)
{
	struct io_memory one = { 0 };

	ioloop_worker_memory(ops, shape, run->series, &one);
	one.part[IO_MEM_OTHER] += sizeof(struct io_worker) + sizeof(struct io_snapshot) +
				  sizeof(double) +
				  ((uint64_t)run->ranks + 1) * sizeof(struct pattern_range);
	for (int k = 0; k < IO_MEM__COUNT; k++)
		m->part[k] += run->threads * one.part[k];
	m->part[IO_MEM_HISTS] += IO_HISTS * hist_size();
	if (run->ranks > 1)
		m->part[IO_MEM_HISTS] += (uint64_t)run->ranks * hist_size();
	if (run->series)
		m->part[IO_MEM_SERIES] += series_bytes();
	if (run->series && run->rated)
		m->part[IO_MEM_SERIES] += (run->threads + 1ULL) * series_resp_bytes();
	if (run->data)
		m->part[IO_MEM_OTHER] += data_gen_bytes(run->data_kind);
	if (run->verify)
		m->part[IO_MEM_OTHER] += shape->bs;
}

int ioloop_init(struct io_worker *w, const struct engine_ops *ops, const struct io_engine *shape,
		enum consume_kind consume, struct io_snapshot *snap, char *err)
{
	struct io_engine *e = &w->eng;
	unsigned n = shape->iodepth;
	struct hist **h[IO_HISTS];
	bool hists = true;

	memset(w, 0, sizeof(*w));
	w->in.ops = ops;
	w->snap = snap;
	*e = *shape;
	e->units = NULL;
	e->bufs = NULL;
	e->priv = NULL;
	consume_init(&w->cons, consume);
	if (n == 0)
		return err_set(err, "%s: iodepth must be at least 1", ops->name);
	w->min_batch = n / 4 ? n / 4 : 1;
	e->bufs_len = bufs_bytes(shape);
	e->units = calloc(n, sizeof(*e->units));
	w->free_units = calloc(n, sizeof(*w->free_units));
	w->retry_units = calloc(n, sizeof(*w->retry_units));
	worker_hists(w, h);
	for (unsigned k = 0; k < IO_HISTS; k++)
		hists &= (*h[k] = hist_new()) != NULL;
	if (!e->units || !w->free_units || !w->retry_units || !hists ||
	    posix_memalign((void **)&e->bufs, 4096, e->bufs_len)) {
		e->bufs = NULL;
		return err_set(err, "out of memory for %zu bytes of buffers", e->bufs_len);
	}
	/* touch the buffers now so that their page faults are not measured */
	memset(e->bufs, 0, e->bufs_len);
	for (unsigned k = 0; k < n; k++) {
		e->units[k].idx = k;
		e->units[k].dir = e->dir;
		e->units[k].buf = e->bufs + (size_t)k * (size_t)e->bs;
		e->units[k].fd = e->fd;
	}
	if (ops->setup && ops->setup(e, err) < 0)
		return -1;
	w->engine_ready = true;
	return 0;
}

void ioloop_free(struct io_worker *w)
{
	struct hist **h[IO_HISTS];

	if (w->engine_ready && w->in.ops->teardown)
		w->in.ops->teardown(&w->eng);
	w->engine_ready = false;
	free(w->eng.units);
	free(w->eng.bufs);
	free(w->free_units);
	free(w->retry_units);
	worker_hists(w, h);
	for (unsigned k = 0; k < IO_HISTS; k++) {
		hist_free(*h[k]);
		*h[k] = NULL;
	}
	if (w->series)
		series_free(w->series);
	free(w->series);
	w->series = NULL;
	w->eng.units = NULL;
	w->eng.bufs = NULL;
	w->free_units = w->retry_units = NULL;
}

static int fadvise_advice(int hint)
{
	static const int advice[] = {
		[HINT_NONE] = POSIX_FADV_NORMAL,     [HINT_SEQUENTIAL] = POSIX_FADV_SEQUENTIAL,
		[HINT_RANDOM] = POSIX_FADV_RANDOM,   [HINT_WILLNEED] = POSIX_FADV_WILLNEED,
		[HINT_NOREUSE] = POSIX_FADV_NOREUSE,
	};
	return advice[hint];
}

void ioloop_finish(struct io_worker *w)
{
	if (w->in.ops->finish)
		w->in.ops->finish(&w->eng);
}

int ioloop_advise(struct io_worker *w, char *err)
{
	struct io_engine *e = &w->eng;
	int rc;

	if (w->in.ops->advise)
		return w->in.ops->advise(e, err);
	if (e->direct || e->hint == HINT_NONE)
		return 0;
	rc = posix_fadvise(e->fd, 0, 0, fadvise_advice(e->hint));
	for (unsigned k = 0; rc == 0 && k < w->in.set.n; k++)
		rc = posix_fadvise(w->in.set.fds[k], 0, 0, fadvise_advice(e->hint));
	if (rc)
		return err_set(err, "posix_fadvise: %s", strerror(rc));
	return 0;
}

/* Discards [off, off + len) of a block device: its blocks read zeros or
 * what the device returns for discarded blocks.  0 or -1 with errno. */
int io_trim_device(int fd, uint64_t off, uint64_t len)
{
	uint64_t range[2] = { off, len };

	return ioctl(fd, BLKDISCARD, range);
}

/* Punches [off, off + len) out of a file, its size kept: the range reads
 * zeros and holds no blocks.  0 or -1 with errno. */
int io_trim_file(int fd, uint64_t off, uint64_t len)
{
	return fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len);
}

/* ---- the hooks: every unit begins and ends here ---- */

static inline void io_begin(struct io_worker *w, struct io_unit *u, uint64_t t)
{
	u->t_issue = t;
	w->res.t_last_issue_ns = t;
	if (w->rated) {
		uint64_t behind = t > u->t_due ? t - u->t_due : 0;

		w->res.behind_ns = behind;
		if (w->late_hist)
			hist_record(w->late_hist, behind);
		if (behind > w->res.behind_max_ns)
			w->res.behind_max_ns = behind;
	}
}

/*
 * Latencies go into their histogram IO_LAT_BATCH at a time.  Bucketing one
 * is a chain of dependent steps (leading zeros, shift, the bucket's load,
 * add and store: some 15 cycles), and the clock read that starts the next
 * unit (lfence; rdtsc) waits for all of it: 5-6 ns per unit at 4 KiB
 * cached mmap (bench: time per read outside its latency).  Kept, a latency
 * is one store; bucketed together, the chains overlap.  The batch goes
 * before the series moves to its next interval and after the loop.
 */
__attribute__((noinline)) static void lat_flush(struct io_worker *w)
{
	struct hist *h[IO_DIRS] = {
		w->series ? series_hist(w->series, IO_READ) : w->dir_hist[IO_READ],
		w->series ? series_hist(w->series, IO_WRITE) : w->dir_hist[IO_WRITE],
	};

	for (unsigned i = 0; i < w->nlat; i++)
		hist_record(h[w->lat[i] & 1], w->lat[i] >> 1);
	w->nlat = 0;
}

/* Rate limit: a counted unit's response time, and whether it was issued
 * late, into the series' interval when there is one (its histograms are
 * added up after the loop, as latencies are). */
__attribute__((noinline)) static void resp_record(struct io_worker *w, const struct io_unit *u,
						  uint64_t t)
{
	struct series *s = w->series;
	bool late = u->t_issue > u->t_due + IO_LATE_NS;

	w->res.late += late;
	if (!s) {
		hist_record(w->resp_hist, t - u->t_due);
		return;
	}
	hist_record(s->slot[s->cur].resp[u->dir], t - u->t_due);
	s->slot[s->cur].late[u->dir] += late;
}

/* A unit done at t counted: its latency, its bytes, the series. */
__attribute__((always_inline)) static inline void io_count(struct io_worker *w, const struct io_unit *u,
							 uint64_t t, uint64_t *deadline_ns)
{
	struct io_results *r = &w->res;
	struct series *s = w->series;

	if (__builtin_expect(t < w->measure_ns, 0))
		return; /* during the ramp: consumed, not counted */
	/* one histogram per unit: the series' interval, or the direction's;
	 * the repeat's are added up from them after the loop (hists_collect) */
	if (s) {
		if (__builtin_expect(t >= s->next_ns, 0)) {
			lat_flush(w);
			series_advance(s, t);
			if (s->ended)
				*deadline_ns = t; /* steady or a cliff: this unit is the last */
		}
		series_count(s, u->dir, u->len);
	}
	w->lat[w->nlat++] = (t - u->t_issue) << 1 | (uint64_t)u->dir;
	if (__builtin_expect(w->nlat == IO_LAT_BATCH, 0))
		lat_flush(w);
	if (w->rated)
		resp_record(w, u, t);
	r->ops[u->dir]++;
	r->bytes[u->dir] += u->len;
	/* the progress line reads the snapshot from another thread */
	__atomic_store_n(&w->snap->bytes, w->snap->bytes + u->len, __ATOMIC_RELAXED);
}

__attribute__((always_inline)) static inline void io_end(struct io_worker *w, const struct io_unit *u,
						       uint64_t t, uint64_t *deadline_ns)
{
	if (w->cons.step)
		w->cons.step(&w->cons, u->buf, u->len, u->off);
	io_count(w, u, t, deadline_ns);
}

/* After the loop (not timed): the per-direction histograms from the series'
 * intervals, when the units were recorded there, and the repeat's from both
 * directions. */
static void hists_collect(struct io_worker *w)
{
	if (w->series)
		for (int d = 0; d < IO_DIRS; d++)
			for (unsigned k = 0; k < SERIES_SLOTS; k++)
				hist_merge(w->dir_hist[d], w->series->slot[k].h[d]);
	if (w->series && w->rated)
		for (int d = 0; d < IO_DIRS; d++)
			for (unsigned k = 0; k < SERIES_SLOTS; k++)
				hist_merge(w->resp_hist, w->series->slot[k].resp[d]);
	hist_merge(w->hist, w->dir_hist[IO_READ]);
	hist_merge(w->hist, w->dir_hist[IO_WRITE]);
	hist_merge(w->hist, w->trim_hist);
}

/* ---- the loop ---- */

/* Stops issuing: by the deadline or the stop flag, right after the last
 * counted unit was consumed, which is where this worker's time ends. */
static void stop_now(struct io_worker *w, struct loop *L)
{
	if (!w->res.truncated)
		w->res.t_last_ns = now_ns();
	w->res.truncated = true;
	L->stopping = true;
}

static void loop_fail(struct io_worker *w, struct loop *L, int error, uint64_t off,
		      const char *what)
{
	if (!L->failed) {
		w->res.error = error;
		w->res.error_off = off;
		w->res.error_what = what;
	}
	L->failed = L->stopping = true;
}

/* Rate limit, the unit not due by the loop's latest time: whether it is due
 * now.  When it is not, and units are in flight, the loop reaps them
 * meanwhile; when none is, it sleeps until the unit is due, or stops at the
 * deadline or on the stop flag. */
__attribute__((noinline)) static bool due_wait(struct io_worker *w, struct loop *L, uint64_t when)
{
	struct timespec ts;

	if (now_ns() >= when)
		return true;
	if (L->inflight)
		return false;
	if (when > L->deadline_ns)
		when = L->deadline_ns;
	/* in naps of at most 50 ms: the signal that stops the run may go to
	 * another thread, and a slow rate may be minutes between reads */
	for (;;) {
		uint64_t t = now_ns(), until = when - t < 50000000ULL ? when : t + 50000000ULL;

		if (*w->in.stop || t >= L->deadline_ns) {
			stop_now(w, L);
			return false;
		}
		if (t >= when)
			return true;
		ts.tv_sec = (time_t)(until / 1000000000ULL);
		ts.tv_nsec = (long)(until % 1000000000ULL);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
}

/* Rate limit: whether the next new unit is due.  A unit that is late by
 * the time the loop last read costs no clock read (a rate the device
 * cannot reach makes every unit late). */
static inline bool due(struct io_worker *w, struct loop *L)
{
	uint64_t when = w->in.trace_timed
				? L->t0_ns + w->in.pat.due_ns
				: L->t0_ns + (uint64_t)(((double)L->nbegun + w->in.phase) * w->in.period_ns);

	L->next_due = when;
	return L->recent_ns >= when || due_wait(w, L, when);
}

/*
 * `one` is a constant in each copy of the loop (see ioloop_run): true for an
 * engine that completes in queue(), which has one unit, so that the stacks of
 * free units and of remainders are a count of 0 or 1 and unit 0.
 */

/* The unit that is free again, or whose remainder is to be queued again. */
__attribute__((always_inline)) static inline void unit_free(struct io_worker *w, struct loop *L,
							  const struct io_unit *u, const bool one)
{
	if (!one)
		w->free_units[L->nfree] = u->idx;
	L->nfree++;
}

__attribute__((always_inline)) static inline void unit_retry(struct io_worker *w, struct loop *L,
							   const struct io_unit *u, const bool one)
{
	if (!one)
		w->retry_units[L->nretry] = u->idx;
	L->nretry++;
}

/* The pattern's next offset and length; false when it has no more. */
__attribute__((always_inline)) static inline bool draw(struct io_worker *w, struct loop *L,
						      uint64_t *off, uint64_t *len)
{
	if (pattern_next(&w->in.pat, off, len))
		return true;
	/* read_iolog: a sync in the trace, made once what is in flight is done */
	if (__builtin_expect(w->in.pat.flush, 0)) {
		L->flush_due = true;
		return false;
	}
	/* time_based: round the file again, until the deadline */
	if (w->in.wrap)
		w->in.pat = L->pat0;
	if (!w->in.wrap || !pattern_next(&w->in.pat, off, len)) {
		L->exhausted = true;
		return false;
	}
	return true;
}

/* Rate limit: the next unit into u once it is due.  It is drawn first, so
 * that the loop never waits for a unit the pattern does not have (the time
 * to end would gain a rate period, or a runtime limit's cut, after the last
 * unit); drawn and not yet due, it is held until it is. */
__attribute__((noinline)) static bool draw_due(struct io_worker *w, struct loop *L,
					       struct io_unit *u)
{
	if (!L->held && !draw(w, L, &L->held_off, &L->held_len))
		return false;
	L->held = true;
	if (!due(w, L))
		return false;
	L->held = false;
	u->off = L->held_off;
	u->len = L->held_len;
	return true;
}

/* sync_mode=inflight: unit u, free, becomes a flush of the file, queued with
 * the units in flight (it makes durable what completed before it started,
 * as fio's fsync=N on an asynchronous engine).  Never late: due when issued. */
__attribute__((noinline)) static struct io_unit *flush_unit(struct loop *L, struct io_unit *u)
{
	L->flush_next = false;
	L->unflushed = 0;
	L->nfree--;
	u->flush = true;
	u->off = u->len = u->want = u->done = 0;
	u->t_due = UINT64_MAX;
	return u;
}

/* A file set (io/fileset.h): the file the pattern's offset goes to, and
 * the unit's offset made the set offset. */
static inline void set_unit(const struct fileset_map *m, struct io_unit *u)
{
	unsigned file = fileset_map(m, u->off, &u->off);

	u->fd = m->fds[file];
	u->base = fileset_start(m, file);
}

static void reap(struct io_worker *w, struct loop *L, unsigned min);

/* thinktime: the units in flight are waited for (their completions
 * handled as ever), then the worker spins think_spin_ns and sleeps the rest
 * of think_ns, in naps of at most 50 ms, stopping at the deadline or on the
 * stop flag.  No unit is in flight meanwhile: the period is in no latency,
 * and in the time to end.  With a rate limit the due times stay where they
 * were: units issued late after it are measured from when they were due. */
__attribute__((noinline)) static void think_now(struct io_worker *w, struct loop *L)
{
	uint64_t t0, end, spin_end;
	struct timespec ts;

	L->think_due = false;
	while (L->inflight && !L->stopping)
		reap(w, L, L->inflight);
	if (L->stopping || L->nretry)
		return;
	t0 = now_ns();
	end = t0 + w->in.think_ns;
	spin_end = t0 + w->in.think_spin_ns;
	w->res.thinks++;
	for (uint64_t t = t0;; t = now_ns()) {
		uint64_t until = end - t < 50000000ULL ? end : t + 50000000ULL;

		if (*w->in.stop || t >= L->deadline_ns) {
			stop_now(w, L);
			return;
		}
		if (t >= end)
			break;
		if (t < spin_end)
			continue; /* thinktime_spin: busy */
		ts.tv_sec = (time_t)(until / 1000000000ULL);
		ts.tv_nsec = (long)(until % 1000000000ULL);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	L->recent_ns = now_ns();
}

/* The next unit to queue: a remainder first, else a new one from the
 * pattern in a free unit; NULL when there is nothing to queue now. */
__attribute__((always_inline)) static inline struct io_unit *next_unit(struct io_worker *w,
								     struct loop *L, const bool one,
								     const bool think)
{
	struct io_unit *u;

	if (L->stopping)
		return NULL;
	if (L->nretry) {
		L->nretry--;
		return &w->eng.units[one ? 0 : w->retry_units[L->nretry]];
	}
	/* not after the last unit: a pattern that ends does not think at its end */
	if (think && __builtin_expect(L->think_due, 0) && !L->flush_due &&
	    (w->in.wrap || w->in.pat.i < w->in.pat.end)) {
		think_now(w, L);
		if (L->stopping || L->nretry)
			return NULL;
	}
	if (!L->nfree || L->flush_due)
		return NULL;
	u = &w->eng.units[one ? 0 : w->free_units[L->nfree - 1]];
	if (__builtin_expect(L->flush_next, 0))
		return flush_unit(L, u);
	if (L->exhausted || (w->rated ? !draw_due(w, L, u) : !draw(w, L, &u->off, &u->len)))
		return NULL;
	if (__builtin_expect(w->in.set.n != 0, 0))
		set_unit(&w->in.set, u);
	u->flush = false;
	/* read_iolog: the trace says which units are trims (in.trim is set when
	 * it has any); else every unit of op=trim, trimwrite */
	u->trim = w->in.trim != NULL && (!w->in.pat.trace || w->in.pat.trim);
	u->t_due = L->next_due;
	L->nbegun++;
	if (think && ++L->since_think >= w->in.think_blocks) {
		L->since_think = 0;
		L->think_due = true;
	}
	/* O_DIRECT needs whole logical blocks; the end of the file cuts the transfer */
	u->want = io_round_up(u->len, w->in.align_mask);
	u->done = 0;
	L->nfree--;
	if (w->in.gen) {
		/* not timed as the unit's latency, but inside the time to end */
		u->dir = w->in.pat.trace	     ? (enum io_dir)w->in.pat.dir
			 : w->in.op == OP_READWRITE ? io_mix_dir(w->in.gen, w->in.rwmixread, u->off)
						    : IO_WRITE;
		if (u->dir == IO_WRITE) {
			if (w->produce)
				data_produce(w->in.gen, u->buf, u->len, u->off);
			/* the sync_every-th write since the last flush: issue nothing
			 * more until it and all before it are done and flushed; or
			 * (sync_mode=inflight) queue a flush next, as fio does */
			if (++L->unflushed >= w->in.sync_every) {
				L->flush_due = !w->in.sync_inflight;
				L->flush_next = w->in.sync_inflight;
			}
		}
	}
	return u;
}

/* A flush unit's result (sync_mode=inflight): timed into the flush
 * histogram, issue -> completion, like the draining flush's call. */
__attribute__((noinline)) static void flush_done(struct io_worker *w, struct loop *L,
						 struct io_unit *u, uint64_t t, const bool one)
{
	if (!L->stopping && u->res == -EINTR && !*w->in.stop) {
		unit_retry(w, L, u, one);
		return;
	}
	unit_free(w, L, u, one);
	if (L->stopping)
		return;
	if (u->res < 0) {
		loop_fail(w, L, (int)-u->res, 0,
			  u->what ? u->what : w->eng.datasync ? "fdatasync" : "fsync");
		return;
	}
	if (t >= w->measure_ns) {
		hist_record(w->flush_hist, t - u->t_issue);
		w->res.flushes++;
	}
	if (__builtin_expect(t >= L->deadline_ns || *w->in.stop, 0))
		stop_now(w, L);
}

/* op=trim, trimwrite, a trace's trim: trims unit u's block (a synchronous call in every
 * engine, see ioloop.h), timed issue -> return into the trim histogram.
 * true when u goes on to be written (trimwrite: its write is issued now),
 * false when it is done (trim), failed or the worker stops. */
__attribute__((noinline)) static bool trim_unit(struct io_worker *w, struct loop *L,
					       struct io_unit *u, const bool one)
{
	uint64_t t;
	int rc;

	u->trim = false;
	do
		rc = w->in.trim(w->eng.fd, u->off, u->len);
	while (rc < 0 && errno == EINTR && !*w->in.stop);
	t = L->recent_ns = now_ns();
	if (rc < 0) {
		unit_free(w, L, u, one);
		if (errno == EINTR)
			stop_now(w, L); /* interrupted by the signal that stops us */
		else
			loop_fail(w, L, errno, u->off,
				  w->in.trim == io_trim_device ? "discard (BLKDISCARD)"
							       : "trim (fallocate PUNCH_HOLE)");
		return false;
	}
	if (t >= w->measure_ns) {
		hist_record(w->trim_hist, t - u->t_issue);
		w->res.trims++;
		w->res.trim_bytes += u->len;
		__atomic_store_n(&w->snap->bytes, w->snap->bytes + u->len, __ATOMIC_RELAXED);
	}
	if (__builtin_expect(t >= L->deadline_ns || *w->in.stop, 0))
		stop_now(w, L);
	/* a trace's trim is done: only trimwrite writes the block it trimmed */
	if (!w->in.gen || L->stopping || w->in.pat.trace) {
		unit_free(w, L, u, one);
		return false;
	}
	u->t_issue = t; /* the write's own latency starts now */
	return true;
}

/* opendir: unit u's file (u->off: its place in the order) opened, read
 * whole bs bytes at a time through the engine, each block consumed (seeded
 * by its offset in the file) and closed, timed issue -> close as one read of
 * the file's bytes.  A file that cannot be opened is counted by why and not
 * read (dirscan.h); a read that fails fails the worker. */
__attribute__((noinline)) static void tree_unit(struct io_worker *w, struct loop *L,
					       struct io_unit *u, const bool one)
{
	struct dirscan_reader *rd = &w->reader;
	enum dirscan_skip why;
	uint64_t got = 0, t, bs = w->eng.bs;
	int fd = dirscan_open(w->in.tree, w->in.tree_order[u->off], rd, &why);

	if (fd < 0) {
		unit_free(w, L, u, one);
		w->res.tree_skipped[why]++;
		if (__builtin_expect(now_ns() >= L->deadline_ns || *w->in.stop, 0))
			stop_now(w, L);
		return;
	}
	u->fd = fd;
	u->base = 0;
	u->dir = IO_READ;
	for (;;) {
		u->off = got;
		u->len = u->want = bs;
		u->done = 0;
		u->res = 0;
		u->what = NULL;
		(void)w->in.ops->queue(&w->eng, u); /* completes in queue (plan.c) */
		if (u->res == -EINTR && !*w->in.stop)
			continue;
		if (u->res <= 0)
			break;
		if (w->cons.step)
			w->cons.step(&w->cons, u->buf, (uint64_t)u->res, got);
		got += (uint64_t)u->res;
		if (got >= rd->size)
			break;
	}
	close(fd);
	t = L->recent_ns = now_ns();
	unit_free(w, L, u, one);
	if (u->res < 0) {
		if (u->res == -EINTR)
			stop_now(w, L); /* interrupted by the signal that stops us */
		else
			loop_fail(w, L, (int)-u->res, got, u->what ? u->what : "read");
		return;
	}
	u->len = got;
	io_count(w, u, t, &L->deadline_ns);
	if (__builtin_expect(t >= L->deadline_ns || *w->in.stop, 0))
		stop_now(w, L);
}

/* tree: item u->off of the worker's phase, timed issue -> return as one
 * unit (mdtree.h); read opens the file, reads it whole bs bytes at a time,
 * each block consumed (seeded by its offset in the file), and closes it.  A
 * call that fails fails the worker (an item that should be there is not:
 * the tree changed under the run, or the file system is full). */
__attribute__((noinline)) static void md_unit(struct io_worker *w, struct loop *L,
					     struct io_unit *u, const bool one)
{
	const struct mdtree *m = w->in.md;
	const enum md_op op = w->in.md_op;
	unsigned char list[32768];
	uint64_t k = u->off, got = 0, t;
	long rc;

	if (op == MD_READ) {
		int fd = mdtree_open_file(m, k);

		rc = fd < 0 ? fd : 0;
		while (fd >= 0) {
			ssize_t n = read(fd, u->buf, w->eng.bs);

			if (n < 0 && errno == EINTR && !*w->in.stop)
				continue;
			if (n <= 0) {
				rc = n < 0 ? -errno : 0;
				break;
			}
			if (w->cons.step)
				w->cons.step(&w->cons, u->buf, (uint64_t)n, got);
			got += (uint64_t)n;
		}
		if (fd >= 0)
			close(fd);
	} else {
		rc = mdtree_do(m, op, k, list, sizeof(list));
		got = op == MD_CREATE ? mdtree_size(m, k) : 0;
	}
	t = L->recent_ns = now_ns();
	unit_free(w, L, u, one);
	if (rc < 0) {
		if (rc == -EINTR)
			stop_now(w, L); /* interrupted by the signal that stops us */
		else
			loop_fail(w, L, (int)-rc, k, md_op_names[op]);
		return;
	}
	u->dir = md_op_writes(op) ? IO_WRITE : IO_READ;
	u->len = got;
	io_count(w, u, t, &L->deadline_ns);
	if (__builtin_expect(t >= L->deadline_ns || *w->in.stop, 0))
		stop_now(w, L);
}

/* What a result means: a unit done (counted and consumed), a remainder to
 * queue again, a failure, or, once the worker is stopping, nothing. */
__attribute__((always_inline)) static inline void complete(struct io_worker *w, struct loop *L,
							 struct io_unit *u, uint64_t t, const bool one)
{
	long res = u->res;

	if (__builtin_expect(u->flush, 0)) {
		flush_done(w, L, u, t, one);
		return;
	}
	if (__builtin_expect(L->stopping || res <= 0, 0)) {
		if (!L->stopping && res == -EINTR && !*w->in.stop) {
			unit_retry(w, L, u, one); /* interrupted: ask again */
			return;
		}
		if (!L->stopping && res == -EINTR)
			stop_now(w, L); /* interrupted by the signal that stops us */
		unit_free(w, L, u, one);
		if (L->stopping)
			return; /* in flight when the worker stopped: not counted */
		if (res < 0)
			loop_fail(w, L, (int)-res, io_unit_off(u),
				  u->what ? u->what : u->dir == IO_WRITE ? "write" : "read");
		else
			loop_fail(w, L, 0, io_unit_off(u), u->what ? u->what : "unexpected end of file");
		return;
	}
	u->done += (uint64_t)res;
	if (u->done < u->len) {
		unit_retry(w, L, u, one); /* short: the rest keeps its issue time */
		return;
	}
	unit_free(w, L, u, one);
	io_end(w, u, t, &L->deadline_ns);
	if (__builtin_expect(t >= L->deadline_ns || *w->in.stop, 0))
		stop_now(w, L);
}

/* Makes the writes completed so far durable: fsync, fdatasync or the
 * engine's own (msync), timed into the flush histogram; as a unit, one
 * completed during the ramp is neither counted nor timed. */
static void flush(struct io_worker *w, struct loop *L)
{
	bool data_only = w->in.sync == SYNC_FDATASYNC || w->in.pat.flush == TRACE_DATASYNC;
	uint64_t t0 = now_ns(), t;
	int rc;

	do
		rc = w->in.ops->flush ? w->in.ops->flush(&w->eng, data_only)
		     : data_only      ? fdatasync(w->eng.fd)
				      : fsync(w->eng.fd);
	while (rc < 0 && errno == EINTR);
	/* a file set: every file of it, one flush (the set's writes may be in any) */
	for (unsigned k = 0; rc == 0 && k < w->in.set.n; k++)
		do
			rc = data_only ? fdatasync(w->in.set.fds[k]) : fsync(w->in.set.fds[k]);
		while (rc < 0 && errno == EINTR);
	t = now_ns();
	if (t >= w->measure_ns) {
		hist_record(w->flush_hist, t - t0);
		w->res.flushes++;
	}
	L->unflushed = 0;
	L->flush_due = false;
	w->in.pat.flush = 0;
	if (rc < 0)
		loop_fail(w, L, errno, 0,
			  w->in.ops->flush ? (w->eng.what ? w->eng.what : "flush")
			  : data_only	   ? "fdatasync"
					   : "fsync");
}

/* Hands what is queued to the kernel; leaves the rest queued when the
 * engine says to reap first and something is in flight. */
static void commit(struct io_worker *w, struct loop *L)
{
	while (L->queued) {
		int n = w->in.ops->commit(&w->eng);

		if (n > 0) {
			L->queued -= (unsigned)n < L->queued ? (unsigned)n : L->queued;
			L->inflight += (unsigned)n;
		} else if (n == -EINTR) {
			continue;
		} else if ((n == 0 || n == -EAGAIN) && L->inflight) {
			return;
		} else {
			loop_fail(w, L, n ? -n : EAGAIN, 0, w->eng.what ? w->eng.what : "submit");
			L->queued = 0; /* dropped with the engine at teardown */
			return;
		}
	}
}

/* Waits for at least min completions and handles every one that is there;
 * one completion time for the batch. */
static void reap(struct io_worker *w, struct loop *L, unsigned min)
{
	const struct engine_ops *ops = w->in.ops;
	int n;
	uint64_t t;

	do
		n = ops->reap(&w->eng, min);
	while (n == -EINTR && !*w->in.stop);
	if (n == -EINTR) {
		/* a signal stops a wait that may never end (a hung device): what is in
		 * flight is left to the engine's teardown, and not counted */
		stop_now(w, L);
		L->inflight = 0;
		return;
	}
	if (n < 0) {
		/* what is in flight cannot be waited for here: the engine's teardown will */
		loop_fail(w, L, -n, 0, w->eng.what ? w->eng.what : "reap");
		L->inflight = 0;
		return;
	}
	t = L->recent_ns = now_ns();
	L->inflight -= (unsigned)n < L->inflight ? (unsigned)n : L->inflight;
	for (int i = 0; i < n; i++)
		complete(w, L, ops->event(&w->eng, (unsigned)i), t, false);
}

/* The repeat's first I/O, at t: its time starts here, and so does a
 * runtime without a ramp, so that a time_based repeat's time is never
 * short of its runtime by what came before its first I/O (the loop's
 * setup: milliseconds under a sanitizer).  After a ramp, time starts where
 * the ramp ends, and so does the runtime (see ioloop_run). */
static void first_io(struct io_worker *w, struct loop *L, uint64_t t)
{
	w->res.t_first_ns = t;
	if (w->in.runtime_ns && !w->in.ramp_ns &&
	    __builtin_add_overflow(t, w->in.runtime_ns, &L->deadline_ns))
		L->deadline_ns = UINT64_MAX;
}

/* Queues every unit there is room for.  A unit the engine completes at
 * once is handled here; a queued one is committed at once. */
__attribute__((always_inline)) static inline void issue(struct io_worker *w, struct loop *L,
						       const bool one, const bool think)
{
	const struct engine_ops *ops = w->in.ops;
	struct io_unit *u;

	while ((u = next_unit(w, L, one, think)) != NULL) {
		uint64_t t = L->recent_ns = now_ns();

		if (__builtin_expect(!w->res.t_first_ns, 0))
			first_io(w, L, t);
		if (!u->done)
			io_begin(w, u, t);
		if (__builtin_expect(u->trim, 0) && !trim_unit(w, L, u, one))
			continue;
		if (__builtin_expect(w->in.tree != NULL || w->in.md != NULL, 0)) {
			if (w->in.md)
				md_unit(w, L, u, one);
			else
				tree_unit(w, L, u, one);
			continue;
		}
		u->res = 0;
		u->what = NULL;
		switch (ops->queue(&w->eng, u)) {
		case IO_DONE:
			complete(w, L, u, L->recent_ns = now_ns(), one);
			break;
		case IO_QUEUED:
			L->queued++;
			commit(w, L);
			break;
		case IO_BUSY:
			unit_retry(w, L, u, one);
			return;
		}
	}
}

/* Issues, commits, flushes and reaps until the pattern is done or the
 * worker stops. */
__attribute__((always_inline)) static inline void drive(struct io_worker *w, struct loop *L,
						       const bool one, const bool think)
{
	for (;;) {
		issue(w, L, one, think);
		if (L->queued)
			commit(w, L);
		if (!L->inflight && L->flush_due && !L->stopping && !L->nretry) {
			flush(w, L);
			continue;
		}
		if (!L->inflight) {
			/* units the engine holds back with nothing in flight would wait forever */
			if (L->queued || (L->nretry && !L->stopping))
				loop_fail(w, L, EAGAIN, 0, w->eng.what ? w->eng.what : "queue");
			break;
		}
		reap(w, L,
		     L->stopping || L->flush_due ? L->inflight
		     : L->inflight > w->min_batch ? w->min_batch : 1);
	}
}

/* startdelay: sleeps until until_ns, looking for a stop every millisecond
 * (a group's cut, a signal); true when stopped first. */
static bool start_delay(const struct io_worker *w, uint64_t until_ns)
{
	for (uint64_t t; !*w->in.stop && (t = now_ns()) < until_ns;) {
		uint64_t left = until_ns - t < 1000000 ? until_ns - t : 1000000;
		struct timespec ts = { 0, (long)left };

		(void)nanosleep(&ts, NULL);
	}
	return *w->in.stop != 0;
}

int ioloop_run(struct io_worker *w)
{
	struct io_engine *e = &w->eng;
	struct loop L = { .deadline_ns = UINT64_MAX };
	uint64_t line_ns;
	bool cut = false;

	memset(&w->res, 0, sizeof(w->res));
	/* zeros written from buffers nothing else writes to (ioloop_init zeroed
	 * them) are there already */
	w->produce = w->in.gen && (w->in.gen->kind != DATA_ZERO || w->in.op == OP_READWRITE);
	w->rated = w->in.period_ns > 0 || w->in.trace_timed;
	consume_reset(&w->cons);
	hist_reset(w->hist);
	hist_reset(w->dir_hist[IO_READ]);
	hist_reset(w->dir_hist[IO_WRITE]);
	hist_reset(w->flush_hist);
	hist_reset(w->resp_hist);
	hist_reset(w->trim_hist);
	if (w->late_hist)
		hist_reset(w->late_hist);
	__atomic_store_n(&w->snap->bytes, 0, __ATOMIC_RELAXED);
	w->nlat = 0;
	for (unsigned k = e->iodepth; k-- > 0;)
		w->free_units[L.nfree++] = k;
	if (w->rated)
		prctl(PR_SET_TIMERSLACK, 1UL); /* wake when a unit is due, not 50 µs later */
	if (w->series)
		series_start(w->series, 0, w->in.interval_ns); /* empties 2 MiB: not timed */
	line_ns = now_ns();
	if (w->in.delay_ns)
		cut = start_delay(w, line_ns + w->in.delay_ns);
	L.pat0 = w->in.pat;
	L.t0_ns = L.recent_ns = now_ns();
	__atomic_store_n(&w->snap->t0_ns, L.t0_ns, __ATOMIC_RELAXED);
	w->measure_ns = w->in.ramp_ns ? L.t0_ns + w->in.ramp_ns : 0;
	/* saturated: runtime and ramp may each be up to 2^63 - 1 ns */
	if (w->in.runtime_ns &&
	    __builtin_add_overflow(L.t0_ns, w->in.ramp_ns + w->in.runtime_ns, &L.deadline_ns))
		L.deadline_ns = UINT64_MAX;
	/* the series of a group's jobs share the start line's timeline */
	if (w->series)
		series_origin(w->series, (w->in.delay_ns ? line_ns : L.t0_ns) + w->in.ramp_ns);
	/* four copies of the loop: one unit or a queue, think time or none */
	if (cut)
		stop_now(w, &L); /* stopped during its startdelay: no I/O */
	else if (!w->in.ops->commit && e->iodepth == 1 && !w->in.think_ns)
		drive(w, &L, true, false); /* completes in queue: one unit */
	else if (!w->in.ops->commit && e->iodepth == 1)
		drive(w, &L, true, true);
	else if (!w->in.think_ns)
		drive(w, &L, false, false);
	else
		drive(w, &L, false, true);
	lat_flush(w);
	/* durable time to end: the last flush is part of it (after a runtime
	 * limit too; not after a failure or a signal) */
	if (!L.failed && !*w->in.stop &&
	    (w->in.sync == SYNC_END ||
	     (w->in.sync_every != UINT64_MAX && (L.unflushed || w->in.sync_inflight)))) {
		flush(w, &L);
		if (w->res.truncated && !L.failed)
			w->res.t_last_ns = now_ns();
	}
	/* after a ramp, time starts where the measured part did */
	if (w->measure_ns && w->res.t_first_ns && w->res.t_first_ns < w->measure_ns)
		w->res.t_first_ns = w->measure_ns;
	consume_finish(&w->cons);
	w->res.sum = w->cons.sum;
	if (!w->res.truncated)
		w->res.t_last_ns = now_ns();
	hists_collect(w);
	if (w->series)
		series_live_end(w->series, w->res.t_last_ns); /* after the time: a copy */
	return L.failed ? -1 : 0;
}
