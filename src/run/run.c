/*
 * run.c - one run of the plan: file, cache state, workers, figures.
 *
 * Everything that can be decided before the timed loop is: descriptors,
 * buffers, histograms and engine state (an aio context, a ring) are set up
 * once per run outside the timing; per repeat only the cache policy, the
 * hints and the pattern shares are redone.  One worker per thread; the
 * calling thread is worker 0, and all workers wait at one start line, so
 * none starts before the others are ready.  The I/O itself is the I/O
 * core's (ioloop.c).
 */
#define _GNU_SOURCE
#include "run/run.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <pthread.h>
#include <limits.h>
#include <sched.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/cache.h"
#include "io/consume.h"
#include "io/devstat.h"
#include "io/dirscan.h"
#include "io/engines/engine.h"
#include "io/fileset.h"
#include "io/ioloop.h"
#include "io/pattern.h"
#include "io/prepare.h"
#include "io/series.h"
#include "io/steady.h"
#include "io/wtarget.h"
#include "lib/error.h"
#include "lib/hist.h"
#include "lib/stats.h"
#include "lib/threads.h"
#include "run/dist.h"
#include "run/dist_run.h"
#include "run/tally.h"


static void set_status(struct run_status *st, int phase, uint64_t done, uint64_t total)
{
	if (!st)
		return;
	__atomic_store_n(&st->done, done, __ATOMIC_RELAXED);
	__atomic_store_n(&st->total, total, __ATOMIC_RELAXED);
	__atomic_store_n(&st->phase, phase, __ATOMIC_RELEASE);
}

/* Leaves the measuring phase (or any other): once the progress line has
 * seen this, it no longer reads the snapshots, and this waits until it has
 * let go of them (seq_cst: the reader sets `reading` before it loads the
 * phase, this stores the phase before it loads `reading`).  Not timed. */
static void status_idle(struct run_status *st)
{
	if (!st)
		return;
	__atomic_store_n(&st->phase, PHASE_IDLE, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&st->reading, __ATOMIC_SEQ_CST))
		sched_yield();
}

static void create_progress(uint64_t done, uint64_t total, void *arg)
{
	set_status(arg, PHASE_CREATE, done, total);
}


/* The engine options of a run, as the engine sees them. */
static unsigned run_knobs(const struct run *run, const struct engine_ops *e)
{
	unsigned knobs = 0;

	for (int i = 0; i < OPT__COUNT; i++)
		if (option_knob(i) >= 0 && option_engine_takes(e, i) && run->v[i].u != FLAG_OFF)
			knobs |= KNOB(option_knob(i));
	return knobs;
}

/* A write run's file: opened for writing as wtarget.h allows (O_DSYNC or
 * O_SYNC for sync=dsync|osync, O_DIRECT for cache=direct), and still the
 * file the run began with. */
static int open_for_writing(const struct runner *r, const char *path, const struct prepare_id *id,
			    char *err)
{
	const union optval *v = r->run->v;
	int flags = (r->direct ? O_DIRECT : 0) | (v[OPT_SYNC].u == SYNC_DSYNC ? O_DSYNC : 0) |
		    (v[OPT_SYNC].u == SYNC_OSYNC ? O_SYNC : 0);
	struct stat st;
	int fd = r->claimed ? wtarget_reopen(r->claim_fd, path, flags, err)
			    : wtarget_open(path, flags, v[OPT_ALLOW_WRITE].s, err);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || st.st_dev != id->dev || st.st_ino != id->ino) {
		close(fd);
		return err_set(err, "%s was replaced during the run: it is no longer the file the "
				    "run started with", path);
	}
	if (r->direct && (v[OPT_BS].u % cache_fd_direct_alignment(fd) ||
			  v[OPT_SIZE].u % cache_fd_direct_alignment(fd))) {
		close(fd);
		return err_set(err, "%s: cache=direct writes need bs and size to be multiples of %u "
				    "here (the O_DIRECT alignment of its device)", path,
			       cache_fd_direct_alignment(fd));
	}
	return fd;
}

/* The ns between a worker's due times under the job's rate limits (the
 * stricter of rate and rate_iops), which are split over every worker of
 * every rank; 0 without a limit. */
static double rate_period_ns(const union optval *v, unsigned nw)
{
	double workers = (double)nw * (double)dist_size(), p = 0;

	if (v[OPT_RATE].u)
		p = workers * (double)v[OPT_BS].u * 1e9 / (double)v[OPT_RATE].u;
	if (v[OPT_RATE_IOPS].u)
		p = fmax(p, workers * 1e9 / (double)v[OPT_RATE_IOPS].u);
	return p;
}

/* A series, allocated for a run (not timed); worker 0 reads residency
 * at the boundaries.  NULL on out of memory. */
static struct series *series_alloc(int fd, uint64_t size, bool rated)
{
	struct series *s = calloc(1, sizeof(*s));

	if (s && (series_init(s) < 0 || (rated && series_init_resp(s) < 0))) {
		series_free(s);
		free(s);
		return NULL;
	}
	if (s) {
		s->fd = fd;
		s->size = size;
	}
	return s;
}

/* The interval of the run's series, or 0: none (series_on). */
static uint64_t series_interval_ns(const union optval *v)
{
	return series_on(v[OPT_INTERVAL].u, v[OPT_THREADS].u, dist_size()) ? v[OPT_INTERVAL].u : 0;
}

/* read_iolog: worker t's reader: the whole trace's for one worker, its
 * thread's with replay_threads (plan.c). */
static struct trace_reader *worker_reader(const struct runner *r, unsigned t)
{
	return r->readers ? &r->readers[t] : (struct trace_reader *)&r->trace;
}

/* Units [first, end) of the run, as a pattern. */
static void units_pattern(const struct runner *r, uint64_t first, uint64_t end,
			  struct pattern *p)
{
	char err[ERR_MAX];

	(void)plan_pattern(r->run, first, end, p, err); /* the plan checked it */
}

/* Worker t's share of this rank's units: [*first, *end). */
static void worker_range(const struct runner *r, unsigned t, uint64_t *first, uint64_t *end)
{
	uint64_t units = r->end - r->first;

	*first = r->first + share_start(units, t, r->nw);
	*end = r->first + share_start(units, t + 1, r->nw);
}

static void worker_share(const struct runner *r, unsigned t, struct pattern *p)
{
	uint64_t first, end;

	if (r->traced) {
		/* read_iolog: worker t's reader, rewound; a failure (the trace
		 * cannot be read again) is the reader's error, which
		 * repeat_setup() returns */
		struct trace_reader *tr = worker_reader(r, t);
		char err[ERR_MAX];

		if (trace_pattern(p, tr, err) < 0) {
			tr->bad = true;
			snprintf(tr->error, sizeof(tr->error), "%s", err);
		}
		return;
	}
	worker_range(r, t, &first, &end);
	units_pattern(r, first, end, p);
}

/* fileset_layout_init's sizes: file k's bytes */
static uint64_t set_file_bytes(unsigned k, const void *arg)
{
	const struct runner *r = arg;

	return RUNNER_FILE_BYTES(r, k);
}

/* File k of the set: its path into buf (PATH_MAX). */
static const char *set_path(const struct runner *r, unsigned k, char *buf)
{
	if (fileset_path(r->run->v[OPT_FILENAME].s, k, buf, PATH_MAX) < 0)
		snprintf(buf, PATH_MAX, "%s", r->run->v[OPT_FILENAME].s);
	return buf;
}

/* Opens the file and sets up one worker for the whole run (not timed). */
/* What thread t's units reach besides one file (a file set, a tree to make
 * or to read), and the think time between them. */
static void worker_reach(struct runner *r, unsigned t)
{
	const union optval *v = r->run->v;

	if (r->nset)
		fileset_map_init(&r->w[t].in.set, r->nset, v[OPT_SIZE].u, v[OPT_BS].u,
				 (enum fileset_service)v[OPT_FILE_SERVICE_TYPE].u, v[OPT_SEED].u,
				 r->set_fds, r->sizes_p ? &r->lay : NULL);
	if (r->md) {
		r->w[t].in.md = r->md;
		r->w[t].in.md_op = run_md_op(r->run);
	}
	if (r->treed) {
		r->w[t].in.tree = &r->tree;
		r->w[t].in.tree_order = r->order;
		r->w[t].reader.direct = r->direct;
	}
	r->w[t].in.think_ns = v[OPT_THINKTIME].u;
	r->w[t].in.think_spin_ns = v[OPT_THINKTIME_SPIN].u;
	r->w[t].in.think_blocks = v[OPT_THINKTIME_BLOCKS].u;
}

static int worker_init(struct runner *r, unsigned t, uint64_t align, char *err)
{
	const union optval *v = r->run->v;
	struct io_engine shape = {
		.size = v[OPT_SIZE].u,
		.bs = v[OPT_BS].u,
		.iodepth = (unsigned)v[OPT_IODEPTH].u,
		/* a readwrite run's units go both ways: its file is open for writing */
		.dir = r->writes ? IO_WRITE : IO_READ,
		.direct = r->direct,
		.sparse = pattern_is_random(v[OPT_PATTERN].u) || v[OPT_SPACING].u > v[OPT_BS].u,
		.hint = (int)v[OPT_HINT].u,
		.knobs = run_knobs(r->run, r->engine),
		.datasync = v[OPT_SYNC].u == SYNC_FDATASYNC,
	};
	bool flushes = v[OPT_SYNC].u == SYNC_FSYNC || v[OPT_SYNC].u == SYNC_FDATASYNC;
	struct pattern share;

	worker_share(r, t, &share);
	shape.span = pattern_span(&share, &shape.span_off);
	/* read-only, O_DIRECT for cache=direct, and still the file the run began with */
	char path0[PATH_MAX];
	const char *path = r->nset ? set_path(r, 0, path0) : v[OPT_FILENAME].s;

	/* opendir: each unit opens its own file (ioloop.h) */
	shape.fd = r->treed || r->md ? -1
		   : r->writes ? open_for_writing(r, path, &r->id, err)
			       : prepare_open(path, v[OPT_CACHE].u == CACHE_DIRECT, v[OPT_BS].u,
					      v[OPT_SPACING].u, &r->id, err);
	if (shape.fd < 0 && !r->treed && !r->md)
		return -1;
	r->ready = t + 1;
	if (ioloop_init(&r->w[t], r->engine, &shape, (enum consume_kind)v[OPT_CONSUME].u,
			&r->snaps[t], err) < 0)
		return -1;
	r->w[t].in.align_mask = align - 1;
	r->w[t].in.runtime_ns = v[OPT_RUNTIME].u;
	r->w[t].in.period_ns = r->period_ns;
	r->w[t].in.phase = (double)((unsigned)dist_rank() * r->nw + t) /
			   ((double)r->nw * dist_size());
	r->w[t].in.interval_ns = series_interval_ns(v);
	r->w[t].in.wrap = v[OPT_TIME_BASED].u == FLAG_ON;
	r->w[t].in.ramp_ns = v[OPT_RAMP].u;
	r->w[t].in.delay_ns = v[OPT_STARTDELAY].u;
	if (r->w[t].in.interval_ns) {
		r->w[t].series = series_alloc(t == 0 && !r->nset ? shape.fd : -1, v[OPT_SIZE].u, r->rated);
		if (!r->w[t].series || series_live_init(&r->snaps[t].live) < 0)
			return err_set(err, "out of memory for the series of %u threads", r->nw);
		r->w[t].series->live = &r->snaps[t].live; /* for the progress line */
		r->w[t].series->watch = r->watching ? &r->watch : NULL; /* threads = 1 (plan.c) */
	}
	r->w[t].in.trace_timed = r->traced && r->rated;
	r->w[t].late_hist = !r->traced || !r->rated ? NULL : r->late ? r->late[t] : r->issue_late;
	if (r->rated)
		r->w[t].min_batch = 1; /* reap as soon as one completes: the next may be due */
	r->w[t].in.stop = r->stop;
	/* op=trim writes no data: only trimwrite's blocks are written after their trim */
	r->w[t].in.gen = r->writes && v[OPT_OP].u != OP_TRIM ? &r->gen : NULL;
	r->w[t].in.op = (enum op_kind)v[OPT_OP].u;
	/* read_iolog: the trace's trim lines (trace.h) */
	r->w[t].in.trim = (v[OPT_OP].u != OP_TRIM && v[OPT_OP].u != OP_TRIMWRITE &&
			   !r->run->trace_trims) ? NULL
			  : r->run->blockdev ? io_trim_device
					     : io_trim_file;
	r->w[t].in.rwmixread = (unsigned)v[OPT_RWMIXREAD].u;
	r->w[t].in.sync = (enum sync_kind)v[OPT_SYNC].u;
	r->w[t].in.sync_every = flushes ? v[OPT_SYNC_EVERY].u : UINT64_MAX;
	r->w[t].in.sync_inflight = flushes && v[OPT_SYNC_MODE].u == SYNC_MODE_INFLIGHT;
	worker_reach(r, t);
	return 0;
}

/* A file set: every file identified and opened read-only before anything is
 * timed, as the single file is (prepare.h), the descriptors shared by the
 * workers.  Running out of descriptors says so with the limit. */
static int set_open(struct runner *r, char *err)
{
	const union optval *v = r->run->v;
	char path[PATH_MAX];
	struct rlimit rl;

	r->set_fds = malloc(r->nset * sizeof(int));
	r->set_ids = calloc(r->nset, sizeof(*r->set_ids));
	if (!r->set_fds || !r->set_ids)
		return err_set(err, "out of memory for a set of %u files", r->nset);
	r->sizes_p = plan_set_sizes(v, &r->sizes) ? &r->sizes : NULL;
	if (r->sizes_p && fileset_layout_init(&r->lay, r->nset, v[OPT_BS].u, v[OPT_SEED].u,
					      set_file_bytes, r) < 0)
		return err_set(err, "out of memory for a set of %u files", r->nset);
	for (unsigned k = 0; k < r->nset; k++)
		r->set_fds[k] = -1;
	for (unsigned k = 0; k < r->nset; k++) {
		set_path(r, k, path);
		if (prepare_identify(path, &r->set_ids[k], err) < 0)
			return -1;
		r->set_ids[k].watch_content &= !r->writes; /* its own writes change it */
		r->set_fds[k] = r->writes ? open_for_writing(r, path, &r->set_ids[k], err)
				: prepare_open(path, r->direct, v[OPT_BS].u, v[OPT_SPACING].u,
					       &r->set_ids[k], err);
		if (r->set_fds[k] < 0 && errno == EMFILE && getrlimit(RLIMIT_NOFILE, &rl) == 0)
			return err_set(err, "%s: cannot open file %u of the set's %u: too many "
					    "open files (ulimit -n is %llu: raise it, or lower "
					    "nrfiles)", path, k + 1, r->nset,
				       (unsigned long long)rl.rlim_cur);
		if (r->set_fds[k] < 0)
			return -1;
	}
	return 0;
}

static void set_close(struct runner *r)
{
	fileset_layout_free(&r->lay);
	for (unsigned k = 0; r->set_fds && k < r->nset; k++)
		if (r->set_fds[k] >= 0)
			close(r->set_fds[k]);
	free(r->set_fds);
	free(r->set_ids);
	r->set_fds = NULL;
	r->set_ids = NULL;
}

/* The totals, one of each of a worker's histograms: what the plan counts
 * for them (ioloop_run_memory, which also counts what else this file
 * allocates for a run). */
static void total_hists(struct runner *r, struct hist **h[IO_HISTS])
{
	struct hist **all[] = { &r->total, &r->dir_total[IO_READ], &r->dir_total[IO_WRITE],
				&r->flush_total, &r->resp_total, &r->trim_total };

	_Static_assert(sizeof(all) / sizeof(all[0]) == IO_HISTS, "IO_HISTS is the list's length");
	memcpy(h, all, sizeof(all));
}

/* ss and stop_at_cliff: what worker 0's series watches for (plan.c checked
 * them: one worker, one rank, the window and ramp whole intervals). */
static void watch_init(struct runner *r, const union optval *v)
{
	struct series_watch *w = &r->watch;
	char err[ERR_MAX];

	w->cliff = v[OPT_STOP_AT_CLIFF].u == FLAG_ON;
	w->steady = v[OPT_SS].s && steady_parse(v[OPT_SS].s, &w->metric, &w->spec, err) == 0;
	r->watching = w->steady || w->cliff;
	if (!r->watching)
		return;
	/* a startdelay's intervals are empty: judged as part of no window
	 * (they and the runtime's fit the slots: plan.c) */
	w->from = (unsigned)series_slots_before(v[OPT_STARTDELAY].u, v[OPT_INTERVAL].u);
	if (!w->steady) {
		r->series->watch = w;
		return;
	}
	w->dir = v[OPT_SS_DIR].u == SS_DIR_READ ? IO_READ : v[OPT_SS_DIR].u == SS_DIR_WRITE ? IO_WRITE : -1;
	if (w->spec.rule != STEADY_SNIA)
		w->spec.window = v[OPT_SS_DUR].u / v[OPT_INTERVAL].u;
	w->spec.ramp = v[OPT_SS_RAMP].u / v[OPT_INTERVAL].u + w->from;
	r->series->watch = w; /* the merged series is judged as worker 0's was */
}

/* read_iolog with replay_threads: a reader per worker, each keeping its
 * thread's lines of the whole trace it streams (N times the parsing, N
 * buffers of TRACE_BUF_BYTES), and a lateness histogram per worker (one
 * shared would be written by every worker at once); trace, read once for
 * the recorded rate, is closed. */
static int trace_open_threads(struct runner *r, char *err)
{
	const struct run *run = r->run;
	const char *path = run->v[OPT_READ_IOLOG].s;

	if (r->trace_scan.nthreads != r->nw)
		return err_set(err, "%s: the trace changed since the plan was made", path);
	trace_reader_close(&r->trace);
	r->readers = calloc(r->nw, sizeof(*r->readers));
	r->late = calloc(r->nw, sizeof(*r->late));
	if (!r->readers || !r->late)
		return err_set(err, "out of memory for %u readers of the trace", r->nw);
	for (unsigned t = 0; t < r->nw; t++)
		r->readers[t].fd = -1;
	for (unsigned t = 0; t < r->nw; t++) {
		if (trace_reader_open(&r->readers[t], path, &r->trace_scan,
				      (unsigned)run->v[OPT_REPLAY_TIME_SCALE].u, err) < 0)
			return -1;
		r->readers[t].thread = (int)t;
		r->late[t] = hist_new();
		if (!r->late[t])
			return err_set(err, "out of memory");
	}
	return 0;
}

/* read_iolog: the trace scanned again (the plan's scan was of the file as it
 * was then: a trace changed since is refused) and opened for streaming. */
static int trace_open(struct runner *r, char *err)
{
	const struct run *run = r->run;
	const char *path = run->v[OPT_READ_IOLOG].s;
	struct trace_scan *ts = &r->trace_scan;

	r->trace.fd = -1;
	if (trace_scan(path, ts, err) < 0)
		return -1;
	if (ts->n[TRACE_READ] + ts->n[TRACE_WRITE] != run->reads ||
	    ts->n[TRACE_WRITE] != run->trace_writes || ts->n[TRACE_TRIM] != run->trace_trims || ts->size > run->v[OPT_SIZE].u)
		return err_set(err, "%s: the trace changed since the plan was made", path);
	r->issue_late = hist_new();
	if (!r->issue_late)
		return err_set(err, "out of memory");
	if (trace_reader_open(&r->trace, path, ts, (unsigned)run->v[OPT_REPLAY_TIME_SCALE].u,
			      err) < 0)
		return -1;
	/* the recorded rate: of the whole trace, every thread's lines */
	r->rec_rate_ns = series_interval_ns(run->v);
	if (trace_rate(&r->trace, &r->rec_rate_ns, &r->rec_rate, &r->nrec_rate, err) < 0)
		return -1;
	return run->v[OPT_REPLAY_THREADS].u == FLAG_ON ? trace_open_threads(r, err) : 0;
}

/* read_iolog with a series: per interval of the series (or of the trace's
 * counts, when they are coarser), the I/Os recorded and replayed. */
static int replay_rate(const struct runner *r, struct repeat_result *rr)
{
	uint64_t rec_ns = r->rec_rate_ns, ser_ns = (uint64_t)llround(rr->series_interval_s * 1e9);
	uint64_t step = ser_ns > rec_ns ? ser_ns : rec_ns;
	size_t n = 0;

	if (!rr->series || !r->nrec_rate || !step)
		return 0;
	for (size_t i = 0; i < rr->nseries; i++) {
		size_t k = (size_t)((uint64_t)llround(rr->series[i].start_s * 1e9) / step) + 1;

		n = k > n ? k : n;
	}
	if ((uint64_t)(r->nrec_rate - 1) * rec_ns / step + 1 > n)
		n = (size_t)((uint64_t)(r->nrec_rate - 1) * rec_ns / step + 1);
	/* n >= 1: the trace's counts fill one interval at least; 0 intervals
	 * would be no table, as without a series */
	if (!n)
		return 0;
	rr->replay_rate = calloc(n, sizeof(*rr->replay_rate));
	if (!rr->replay_rate)
		return -1;
	rr->nreplay_rate = n;
	rr->rate_interval_s = (double)step / 1e9;
	for (size_t k = 0; k < n; k++)
		rr->replay_rate[k].start_s = (double)k * rr->rate_interval_s;
	for (size_t k = 0; k < r->nrec_rate; k++)
		rr->replay_rate[(uint64_t)k * rec_ns / step].recorded += r->rec_rate[k];
	for (size_t i = 0; i < rr->nseries; i++)
		rr->replay_rate[(uint64_t)llround(rr->series[i].start_s * 1e9) / step].replayed +=
			rr->series[i].ops;
	return 0;
}

/* The device sampler's lock, and its condition: the sampler's sleep, on
 * the loop's clock. */
static int sampler_init(struct runner *r, char *err)
{
	pthread_condattr_t ca;

	/* after the runner's memset: a zeroed condition waits on CLOCK_REALTIME,
	 * and a monotonic deadline is then long past, so the sampler spun
	 * instead of sleeping */
	if (pthread_condattr_init(&ca) != 0 ||
	    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) != 0 ||
	    pthread_cond_init(&r->dev_iv_wake, &ca) != 0 ||
	    pthread_mutex_init(&r->dev_iv_lock, NULL) != 0)
		return err_set(err, "cannot set up the device sampler");
	pthread_condattr_destroy(&ca);
	r->dev_iv_inited = true;
	return 0;
}

/* The runner's memory: workers, histograms, series, data, the shares and
 * the arrays the repeats fill (its files are runner_files'). */
static int runner_alloc(struct runner *r, const struct run *run, char *err)
{
	const union optval *v = run->v;
	struct hist **h[IO_HISTS];
	bool hists = true;

	r->w = calloc(r->nw, sizeof(*r->w));
	r->snaps = calloc(r->nw, sizeof(*r->snaps));
	r->period_ns = rate_period_ns(v, r->nw);
	r->traced = v[OPT_READ_IOLOG].s != NULL;
	r->rated = r->period_ns > 0 || (r->traced && v[OPT_REPLAY_NO_STALL].u != FLAG_ON);
	if (r->traced && trace_open(r, err) < 0)
		return -1;
	total_hists(r, h);
	for (unsigned k = 0; k < IO_HISTS; k++)
		hists &= (*h[k] = hist_new()) != NULL;
	r->writes = v[OPT_OP].u != OP_READ && !v[OPT_TREE].s; /* a tree's phases: md_unit */
	if (series_interval_ns(v)) {
		r->series = series_alloc(-1, 0, r->rated);
		if (!r->series)
			return err_set(err, "out of memory for a series");
		watch_init(r, v);
	}
	if (!r->w || !r->snaps || !hists)
		return err_set(err, "out of memory");
	if ((r->writes || v[OPT_VERIFY].u == VERIFY_AFTER) &&
	    data_gen_init(&r->gen, (enum data_kind)v[OPT_DATA].u, (unsigned)v[OPT_COMPRESS].u,
			  v[OPT_SEED].u, err) < 0)
		return -1;
	/* ranks reading one shared file each take a contiguous share, like
	 * threads; a tree's phase that finds what another made, rank + shift's */
	dist_share(run->reads,
		   run->per_rank ? 0
				 : (int)(((unsigned)dist_rank() + run_md_shift(run, dist_size())) %
					 (unsigned)dist_size()),
		   run->per_rank ? 1 : dist_size(), &r->first, &r->end);
	r->thread_s = calloc(r->nw, sizeof(double));
	if (!r->thread_s)
		return err_set(err, "out of memory");
	if (dist_size() > 1 && dist_rank() == 0) {
		r->hists = malloc(hist_size() * (size_t)dist_size());
		if (!r->hists)
			return err_set(err, "out of memory");
	}
	r->done = calloc((size_t)r->nw * ((size_t)dist_size() + 1), sizeof(*r->done));
	if (!r->done)
		return err_set(err, "out of memory");
	r->mine = r->done + (size_t)r->nw * (size_t)dist_size();
	return 0;
}

/* opendir: the tree scanned again (the plan's scan counted its files: the
 * run's units), and room for the order of its files. */
static int tree_open(struct runner *r, const struct run *run, char *err)
{
	const char *root = run->v[OPT_OPENDIR].s;

	int rc = dirscan_scan(root, &r->tree, r->stop, err);

	if (rc != 0)
		return rc; /* 1: stopped by a signal (run_open says so) */
	r->treed = true;
	if (r->tree.nfiles != run->tree_files)
		return err_set(err, "%s: the tree changed since the plan was made: %llu files "
				    "then, %u now (a run reads the files the plan counted); run "
				    "it again", root, (unsigned long long)run->tree_files,
			       r->tree.nfiles);
	r->order = malloc((size_t)r->tree.nfiles * sizeof(*r->order));
	if (!r->order)
		return err_set(err, "out of memory for the order of %u files", r->tree.nfiles);
	return 0;
}

/* tree: the trees held, one a job, each kept from run to run of its job
 * (a phase finds it as the phase before left it) and removed when its job
 * comes with another shape, when a run comes that does not run beside it
 * (another job, not of its group), or when the plan ends
 * (run_tree_release).  The jobs of a group run at once, each on its own. */
struct md_slot {
	struct mdtree t;
	const struct job *job;
	uint32_t dirs, files;
	const char *filesize; /* the job's text, and the sizes it gives */
	struct bsmix sizes;
	bool drawn;
	uint64_t fixed;
	char swept[PATH_MAX + 160]; /* what the open removed, for the run's result */
};
static struct md_slot **md_slots;
static size_t md_nslots;

static void md_swept(const char *msg, void *arg)
{
	struct md_slot *s = arg;

	snprintf(s->swept, sizeof(s->swept), "%s", msg);
}

/* tree: a step every rank takes on it, agreed (mdtree_agree_fn). */
static int md_agree(int rc, void *arg, char *err)
{
	(void)arg;
	return dist_agreed(rc, err);
}

/* tree: rank 0 opens (makes) it, and under MPI the other ranks then join
 * it, each to make its share of the untimed passes.  0 or -1 with err,
 * agreed. */
static int md_open(struct md_slot *s, const struct run *run, const char *dir, char *err)
{
	char *token = s->t.token;
	size_t len;
	int rc = 0;

	s->t = (struct mdtree){ .parentfd = -1, .rootfd = -1, .lockfd = -1 };
	if (dist_rank() == 0)
		rc = mdtree_open(&s->t, dir, run->job->name, run->md_dirs, run->md_files, s->fixed,
				 md_swept, s, err);
	if (dist_size() == 1 || dist_agreed(rc, err) < 0)
		return rc;
	len = strlen(token);
	rc = dist_broadcast(&token, &len);
	if (rc == 0 && dist_rank() != 0)
		rc = mdtree_join(&s->t, dir, run->job->name, run->md_dirs, run->md_files, s->fixed,
				 token, err);
	if (dist_rank() != 0)
		free(token);
	s->t.part = (uint32_t)dist_rank();
	s->t.parts = (uint32_t)dist_size();
	s->t.state = MD_EMPTY; /* rank 0's open swept it */
	return dist_agreed(rc, err);
}

/* Removes held tree k (the last takes its place): 0, or -1 with err. */
static int md_release(size_t k, char *err)
{
	int rc = mdtree_close(&md_slots[k]->t, err);

	free(md_slots[k]);
	md_slots[k] = md_slots[--md_nslots];
	return rc;
}

int run_tree_release(char *err)
{
	char later[ERR_MAX] = ""; /* the first failure is the one said */
	int rc = 0;

	while (md_nslots > 0)
		if (md_release(md_nslots - 1, rc < 0 ? later : err) < 0)
			rc = -1;
	free(md_slots);
	md_slots = NULL;
	return rc;
}

/* Whether tree slot s is held by run's job, with the shape it asks. */
static bool md_same(const struct md_slot *s, const struct run *run, bool drawn,
		    const struct bsmix *sizes, uint64_t fixed)
{
	const char *text = run->v[OPT_FILESIZE].s;

	return s->dirs == run->md_dirs && s->files == run->md_files && s->drawn == drawn &&
	       s->fixed == fixed &&
	       (!drawn || (s->sizes.key == sizes->key && strcmp(s->filesize, text) == 0));
}

/* The trees held that do not go with run: another job's, unless it runs
 * beside run's (its group), and its job's of another shape.  *mine: the
 * one it keeps, or NULL.  0, or -1 with err. */
static int md_sweep_held(const struct run *run, bool drawn, const struct bsmix *sizes,
			 uint64_t fixed, struct md_slot **mine, char *err)
{
	*mine = NULL;
	for (size_t k = md_nslots; k-- > 0;) {
		const struct job *j = md_slots[k]->job;
		bool beside = run->group && j->opt[OPT_GROUP].n &&
			      strcmp(j->opt[OPT_GROUP].v[0].s, run->group) == 0;

		if (j == run->job && md_same(md_slots[k], run, drawn, sizes, fixed))
			*mine = md_slots[k];
		else if ((j == run->job || !beside) && md_release(k, err) < 0)
			return -1;
	}
	return 0;
}

/* tree: the run's tree, the one its job holds when it is of the same
 * shape, else made (trees that do not go with it removed first); and what
 * create writes, made once. */
static int md_attach(struct runner *r, const struct run *run, char *err)
{
	const union optval *v = run->v;
	const char *env = getenv("IOSWEEP_DIR");
	const char *dir = v[OPT_DIRECTORY].s ? v[OPT_DIRECTORY].s : env && *env ? env : "/var/tmp";
	struct data_gen gen;
	struct bsmix sizes;
	struct md_slot *s, **grown;
	uint64_t fixed;
	bool drawn = plan_filesizes(v[OPT_FILESIZE].s, v[OPT_SEED].u, &sizes, &fixed);

	if (md_sweep_held(run, drawn, &sizes, fixed, &s, err) < 0)
		return -1;
	if (!s) {
		grown = realloc(md_slots, (md_nslots + 1) * sizeof(*md_slots));
		s = calloc(1, sizeof(*s));
		if (grown)
			md_slots = grown;
		if (!grown || !s) {
			free(s);
			return err_set(err, "out of memory");
		}
		*s = (struct md_slot){ .job = run->job, .dirs = run->md_dirs,
				       .files = run->md_files, .filesize = v[OPT_FILESIZE].s,
				       .sizes = sizes, .drawn = drawn, .fixed = fixed };
		if (md_open(s, run, dir, err) < 0) {
			char why[ERR_MAX];

			memcpy(why, err, ERR_MAX);
			/* closed; nothing removed: the lock was not this run's */
			(void)mdtree_close(&s->t, err);
			memcpy(err, why, ERR_MAX);
			free(s);
			return -1;
		}
		s->t.sizes = drawn ? &s->sizes : NULL;
		md_slots[md_nslots++] = s;
		r->md_swept = s->swept[0] ? s->swept : NULL;
	}
	r->md = &s->t;
	r->md_data = malloc(v[OPT_BS].u);
	if (!r->md_data)
		return err_set(err, "out of memory");
	if (data_gen_init(&gen, (enum data_kind)v[OPT_DATA].u, (unsigned)v[OPT_COMPRESS].u,
			  v[OPT_SEED].u, err) < 0)
		return -1;
	data_produce(&gen, r->md_data, v[OPT_BS].u, 0);
	data_gen_free(&gen);
	r->md->data = r->md_data;
	r->md->bs = v[OPT_BS].u;
	return 0;
}

/* tree: before a repeat (not timed), the tree brought to the state the
 * phase needs, then the cache policy: drop (the page cache, dentries and
 * inodes) or fadvise (each file's pages).  Its state is unknown until the
 * repeat has ended well (md_after). */
static int md_before(struct runner *r, char *err)
{
	const union optval *v = r->run->v;
	enum md_op op = run_md_op(r->run);
	mdtree_agree_fn agree = dist_size() > 1 ? md_agree : NULL;
	/* a sync phase flushes files written just before it, not ones long clean */
	int rc = md_op_syncs(op) && r->md->state == MD_FILES
			 ? mdtree_bring(r->md, MD_DIRS, agree, NULL, r->stop, err)
			 : 0;

	if (rc == 0)
		rc = mdtree_bring(r->md, md_op_needs(op), agree, NULL, r->stop, err);
	/* each host's caches once, by its first rank */
	if (rc == 0 && v[OPT_CACHE].u == CACHE_DROP && dist_host_leader())
		rc = cache_apply(CACHE_DROP, r->md->root, 0, r->stop, err);
	else if (rc == 0 && v[OPT_CACHE].u == CACHE_FADVISE && r->md->state == MD_FILES &&
		 dist_host_leader())
		rc = mdtree_evict(r->md, r->stop, err);
	if (rc == 0)
		r->md->state = MD_UNKNOWN;
	return rc;
}

/* tree: a repeat that ended well left the tree as its phase leaves it
 * (a rename's files have their other names). */
static void md_after(struct runner *r, const struct repeat_result *rr)
{
	enum md_op op = run_md_op(r->run);
	struct mdtree *m = r->md;

	if (rr->interrupted || rr->runtime_limited)
		return; /* MD_UNKNOWN: the next bring sweeps it */
	m->state = md_op_leaves(op);
	if (op == MD_RENAME)
		m->renamed = !m->renamed;
}

/* The runner's files: a file set's or the file's identity, a written
 * device's claim, every worker's engine on its file, and the record that
 * writes began (after runner_alloc). */
static int runner_files(struct runner *r, const struct run *run, char *err)
{
	const union optval *v = run->v;

	if (v[OPT_TREE].s) {
		if (md_attach(r, run, err) < 0)
			return -1;
		for (unsigned t = 0; t < r->nw; t++)
			if (worker_init(r, t, 1, err) < 0)
				return -1;
		return 0;
	}
	if (v[OPT_OPENDIR].s) {
		int rc = tree_open(r, run, err);

		if (rc != 0)
			return rc;
		for (unsigned t = 0; t < r->nw; t++)
			if (worker_init(r, t, r->direct ? cache_logical_block_size(v[OPT_OPENDIR].s)
							: 1, err) < 0)
				return -1;
		return 0;
	}
	if (v[OPT_NRFILES].u > 1) {
		r->nset = (unsigned)v[OPT_NRFILES].u;
		if (set_open(r, err) < 0)
			return -1;
		r->id = r->set_ids[0]; /* the workers' own descriptor is of file 0 */
	} else if (prepare_identify(v[OPT_FILENAME].s, &r->id, err) < 0) {
		return -1;
	}
	r->id.watch_content &= !r->writes; /* its own writes change what is watched */
	/* a device is claimed (O_EXCL) before the first write, until the run ends */
	if (r->writes && run->blockdev) {
		r->claim_fd = wtarget_claim(v[OPT_FILENAME].s, v[OPT_ALLOW_WRITE].s,
					    v[OPT_ALLOW_OVERWRITE_SIGNATURE].s, err);
		if (r->claim_fd < 0)
			return -1;
		r->claimed = true;
	}
	char path0[PATH_MAX];
	const char *first = r->nset ? set_path(r, 0, path0) : v[OPT_FILENAME].s;
	uint64_t align = r->direct ? cache_logical_block_size(first) : 1;
	for (unsigned t = 0; t < r->nw; t++)
		if (worker_init(r, t, align, err) < 0)
			return -1;
	/* before the first write: a run cut short has written some blocks too */
	if (r->writes && !run->blockdev && !r->nset && (run->per_rank || !dist_rank()) &&
	    prepare_record_written(r->w[0].eng.fd, v[OPT_FILENAME].s, v[OPT_SIZE].u, err) < 0)
		return -1;
	for (unsigned k = 0; r->writes && k < r->nset && (run->per_rank || !dist_rank()); k++)
		if (prepare_record_written(r->set_fds[k], set_path(r, k, path0),
					   RUNNER_FILE_BYTES(r, k), err) < 0)
			return -1;
	return 0;
}

/* Workers, their engines and buffers, histograms: once per run.  The
 * runner's engine is set before anything that can fail. */
static int runner_init(struct runner *r, const struct run *run, volatile atomic_int *stop,
		       struct run_status *status, char *err)
{
	const union optval *v = run->v;

	memset(r, 0, sizeof(*r));
	r->run = run;
	r->stop = stop;
	r->status = status;
	r->engine = engine_at(v[OPT_ENGINE].u);
	r->direct = v[OPT_CACHE].u == CACHE_DIRECT;
	r->nw = (unsigned)v[OPT_THREADS].u;
	if (sampler_init(r, err) < 0 || runner_alloc(r, run, err) < 0)
		return -1;
	return runner_files(r, run, err); /* 1: a tree's scan was stopped */
}

static void *worker_free(void *p)
{
	struct io_worker *w = p;
	int fd = w->eng.fd;

	ioloop_free(w);
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* The workers are freed at once, each on a thread of its own: aio's
 * io_destroy waits ~30 ms for the kernel, and 64 workers freed one after
 * the other took 2 s of every run. */
static void runner_free(struct runner *r)
{
	struct hist **h[IO_HISTS];
	pthread_t tid[r->ready + 1];
	unsigned started = 1;

	if (r->dev_iv_inited) {
		pthread_cond_destroy(&r->dev_iv_wake);
		pthread_mutex_destroy(&r->dev_iv_lock);
		r->dev_iv_inited = false;
	}

	for (; started < r->ready; started++)
		if (pthread_create(&tid[started], NULL, worker_free, &r->w[started]) != 0)
			break;
	for (unsigned t = started; t < r->ready; t++)
		worker_free(&r->w[t]);
	if (r->ready)
		worker_free(&r->w[0]);
	for (unsigned t = 1; t < started; t++)
		pthread_join(tid[t], NULL);
	free(r->w);
	for (unsigned t = 0; r->snaps && t < r->nw; t++)
		series_live_free(&r->snaps[t].live);
	free(r->snaps);
	free(r->hists);
	free(r->done);
	free(r->thread_s);
	total_hists(r, h);
	for (unsigned k = 0; k < IO_HISTS; k++)
		hist_free(*h[k]);
	data_gen_free(&r->gen);
	if (r->series)
		series_free(r->series);
	free(r->series);
	devstat_close(&r->dev);
	set_close(r);
	if (r->treed)
		dirscan_free(&r->tree);
	free(r->order);
	if (r->md)
		r->md->data = NULL;
	free(r->md_data);
	if (r->traced) {
		trace_reader_close(&r->trace);
		for (unsigned t = 0; r->readers && t < r->nw; t++)
			trace_reader_close(&r->readers[t]);
		for (unsigned t = 0; r->late && t < r->nw; t++)
			hist_free(r->late[t]);
		free(r->readers);
		free(r->late);
		r->readers = NULL;
		r->late = NULL;
		trace_scan_free(&r->trace_scan);
		hist_free(r->issue_late);
		free(r->rec_rate);
	}
	if (r->claimed)
		close(r->claim_fd);
}

/* opendir: file_service_type as the order of the tree's files. */
static enum dirscan_order tree_order_kind(const union optval *v)
{
	switch (v[OPT_FILE_SERVICE_TYPE].u) {
	case FILESET_RANDOM:
		return DIRSCAN_RANDOM;
	case FILESET_SHUFFLE:
		return DIRSCAN_SHUFFLE;
	default:
		return DIRSCAN_SEQUENTIAL;
	}
}

/* Each worker's share of the units, and the hints, for one repeat (not
 * timed).  The hints come after the cache policy, so that what they do
 * (willneed reads ahead) is in the residency measured before the reads. */
static int repeat_setup(struct runner *r, char *err)
{
	const union optval *v = r->run->v;

	if (r->treed) /* shuffle: a new order every repeat, warmups included */
		dirscan_order(&r->tree, tree_order_kind(v), v[OPT_SEED].u, r->epoch++, r->order);
	for (unsigned t = 0; t < r->nw; t++) {
		struct io_worker *w = &r->w[t];

		worker_share(r, t, &w->in.pat);
		if (r->treed || r->md)
			continue; /* no file to advise: each is opened as it is read */
		if (r->traced && worker_reader(r, t)->bad)
			return err_set(err, "%s", worker_reader(r, t)->error);
		if (ioloop_advise(w, err) < 0) {
			char why[ERR_MAX];

			memcpy(why, err, sizeof(why));
			return err_set(err, "%s: %s", v[OPT_FILENAME].s, why);
		}
	}
	return 0;
}

/* A group's jobs (run.h) share one stop flag, which their workers' loops
 * look at instead of the process's: the group's end rule sets it (the
 * first job done, a time), and a watcher thread carries a stop (a signal)
 * into it.  The loop is the same loop; only the flag it reads differs. */
struct group_state {
	atomic_int cut;        /* the workers' stop flag (their in.stop) */
	int cut_by_rule;       /* the end rule set it, not a stop (atomic) */
	int done;              /* the timed part ended: the watcher leaves (atomic) */
	enum group_end_kind end;
	uint64_t end_ns;       /* GROUP_END_TIME: the monotonic time the jobs are cut at */
	volatile atomic_int *stop;
};

static void group_cut(struct group_state *g)
{
	if (!atomic_load(&g->cut))
		__atomic_store_n(&g->cut_by_rule, 1, __ATOMIC_RELEASE);
	atomic_store(&g->cut, 1);
}

/* The last worker of a job leaves its loop: under end=first the group ends. */
static void group_job_ended(struct runner *r)
{
	if (__atomic_sub_fetch(&r->running, 1, __ATOMIC_ACQ_REL) == 0 &&
	    r->group->end == GROUP_END_FIRST) {
		r->ended_first = !atomic_load(&r->group->cut);
		group_cut(r->group);
	}
}

#define GROUP_WATCH_NS 1000000L /* how often the watcher looks: 1 ms */

/* The watcher: a stop, or the group's time, cuts every job (not timed: its
 * own thread, asleep but for a look every GROUP_WATCH_NS). */
static void *group_watch(void *p)
{
	struct group_state *g = p;
	const struct timespec nap = { 0, GROUP_WATCH_NS };

	while (!__atomic_load_n(&g->done, __ATOMIC_ACQUIRE) && !atomic_load(&g->cut)) {
		if (*g->stop)
			atomic_store(&g->cut, 1);
		else if (g->end == GROUP_END_TIME && now_ns() >= g->end_ns)
			group_cut(g);
		else
			nanosleep(&nap, NULL);
	}
	return NULL;
}

struct thread_arg {
	struct runner *r;
	struct io_worker *w;
	int rc;
};

#define START_SPINS 1024 /* pauses before a worker at the start line sleeps */

/* Wakes every worker asleep at the start line (after go was set). */
static void start_wake(struct runner *r)
{
	(void)syscall(SYS_futex, &r->go, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* The start line: every worker (the calling thread's too) waits here until
 * all are there, then all go at once.  A worker spins a little first, so
 * that workers arriving close together leave together without a wake-up
 * (a futex wake-up takes from microseconds to milliseconds per thread),
 * then sleeps on the futex, so that waiting workers do not take CPU from
 * the ones still on their way (more threads than CPUs). */
static int start_line(struct runner *r)
{
	struct runner *line = r->line;
	int go;

	if (__atomic_add_fetch(&line->arrived, 1, __ATOMIC_ACQ_REL) == line->nline) {
		__atomic_store_n(&line->go, 1, __ATOMIC_RELEASE);
		start_wake(line);
		return 1;
	}
	for (unsigned spins = 0; (go = __atomic_load_n(&line->go, __ATOMIC_ACQUIRE)) == 0;) {
		if (++spins < START_SPINS)
			cpu_relax();
		else /* returns at once when go is no longer 0; EINTR: look again */
			(void)syscall(SYS_futex, &line->go, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	}
	return go;
}

/*
 * glibc makes pread, pwrite, fsync, poll, nanosleep and more cancellation
 * points: once a process has a second thread, each such call sets and then
 * clears the thread's asynchronous-cancel bit with an atomic compare-and-swap
 * on either side of the system call (__pthread_enable_asynccancel and
 * __pthread_disable_asynccancel): 53 user-space instructions for a pread
 * instead of 8, about 15 ns of a cached 4 KiB read here (callgrind; stdout a
 * pipe, so that the stdout watcher is the second thread).  Nothing in iosweep
 * cancels a thread.  A worker turns cancellation off and makes its type
 * asynchronous for the time of its loop: the wrappers then find the bit set
 * already and skip both atomics; with cancellation off, the type changes
 * nothing else.
 */
static void *worker_thread(void *p)
{
	struct thread_arg *a = p;
	int state, type;

	if (a->w != &a->r->w[0])
		thread_own_files(NULL, 0); /* not timed: before the start line */
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &state);
	/* cancellation is off: the type only makes the wrappers skip their atomics */
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, &type); // NOLINT(cert-pos47-c)
	if (start_line(a->r) >= 0)
		a->rc = ioloop_run(a->w);
	if (a->r->group)
		group_job_ended(a->r);
	pthread_setcanceltype(type, &type);
	pthread_setcancelstate(state, &state);
	return NULL;
}

/* The timed part: all workers of the n runners (a job, or a group's jobs)
 * at once, the first on this thread. */
static int repeat_measure(struct runner *rs, size_t n)
{
	unsigned nall = rs[0].nline, t = 0, started = 1;
	struct thread_arg args[nall];
	pthread_t tid[nall];
	int rc = 0;

	rs[0].arrived = 0;
	rs[0].go = 0;
	for (size_t k = 0; k < n; k++) {
		rs[k].measure_rc = 0;
		rs[k].running = rs[k].nw;
		for (unsigned j = 0; j < rs[k].nw; j++)
			args[t++] = (struct thread_arg){ .r = &rs[k], .w = &rs[k].w[j] };
	}
	if (t != nall) { /* nline is every job's nw added up (run_execute_group) */
		for (size_t k = 0; k < n; k++)
			rs[k].measure_rc = -1;
		return -1;
	}
	for (; started < nall; started++)
		if (pthread_create(&tid[started], NULL, worker_thread, &args[started]) != 0)
			break;
	if (started == nall) {
		worker_thread(&args[0]);
	} else {
		__atomic_store_n(&rs[0].go, -1, __ATOMIC_RELEASE);
		start_wake(&rs[0]);
		rc = -1;
	}
	for (unsigned k = 1; k < started; k++)
		pthread_join(tid[k], NULL);
	for (unsigned k = 0; k < nall; k++)
		// cppcheck-suppress uninitvar ; args[0..nall) were all set above
		if (args[k].rc < 0) {
			args[k].r->measure_rc = -1;
			rc = -1;
		}
	if (rc < 0 && started < nall) /* every job is told it could not start */
		for (size_t k = 0; k < n; k++)
			rs[k].measure_rc = -1;
	return rc;
}

/* Whether the residency before the repeat is what the policy promises: at
 * most 1% of what the repeat transfers (of the file, when it goes over all
 * of it) may be in the cache for a cold policy, or missing from it for
 * warm.  So a sparse pass is held to the few blocks it reads, not to the
 * file: 1% of a 10 GiB file cached could be every block it reads. */
static bool cache_as_asked(int policy, double resident, uint64_t size, uint64_t bytes)
{
	double bound = size ? 0.01 * (double)(bytes < size ? bytes : size) / (double)size : 1;

	if (resident < 0)
		return true; /* unknown: nothing to say */
	if (policy == CACHE_FADVISE || policy == CACHE_DROP)
		return resident <= bound;
	if (policy == CACHE_WARM)
		return 1 - resident <= bound;
	return true;
}

/* alloc=allocate and prealloc: the file emptied and given its size back as a
 * hole or as unwritten extents, before every repeat (not timed).  With
 * ranks sharing one file, rank 0 does it for all (before the start line
 * that every rank waits at). */
static int alloc_reset_fd(const struct runner *r, int fd, const char *path, uint64_t size,
			  char *err)
{
	const union optval *v = r->run->v;
	const char *alloc = option_table[OPT_ALLOC].values[v[OPT_ALLOC].u];
	int rc;

	if (ftruncate(fd, 0) < 0)
		return err_set(err, "%s: alloc=%s: ftruncate: %s", path, alloc, strerror(errno));
	if (v[OPT_ALLOC].u == ALLOC_ALLOCATE) {
		rc = ftruncate(fd, (off_t)size);
	} else {
		do
			rc = fallocate(fd, 0, 0, (off_t)size);
		while (rc < 0 && errno == EINTR);
	}
	if (rc < 0)
		return err_set(err, "%s: alloc=%s: %s: %s%s", path, alloc,
			       v[OPT_ALLOC].u == ALLOC_ALLOCATE ? "ftruncate" : "fallocate",
			       strerror(errno),
			       errno == EOPNOTSUPP ? " (this file system cannot preallocate: use "
						     "alloc=allocate)" : "");
	return 0;
}

/* The run's file, or each file of its set. */
static int alloc_reset(struct runner *r, char *err)
{
	const union optval *v = r->run->v;
	char path[PATH_MAX];

	if (!r->writes || v[OPT_ALLOC].u == ALLOC_OVERWRITE || (!r->run->per_rank && dist_rank()))
		return 0;
	if (!r->nset)
		return alloc_reset_fd(r, r->w[0].eng.fd, v[OPT_FILENAME].s, v[OPT_SIZE].u, err);
	for (unsigned k = 0; k < r->nset; k++)
		if (alloc_reset_fd(r, r->set_fds[k], set_path(r, k, path), RUNNER_FILE_BYTES(r, k),
				   err) < 0)
			return -1;
	return 0;
}

/* Units verify checks between two looks at the stop flag: a stop (Ctrl-C)
 * ends a verify of any size within one of them. */
#define VERIFY_UNITS 256

/* verify=after: every block the repeat wrote (or, for a read run, read) is
 * read back from storage -- flushed, then evicted from the page cache --
 * and checked (not timed).  The first bad one fails the run.  A stop ends
 * it early: verified_bytes then says how much was checked. */
static int verify_set(struct runner *r, struct repeat_result *rr, char *err);

static int verify_repeat(struct runner *r, struct repeat_result *rr, char *err)
{
	const union optval *v = r->run->v;
	const char *path = v[OPT_FILENAME].s;
	struct data_fault f;
	struct pattern p;
	char proc[64], line[ERR_MAX - 100];
	unsigned char *buf;
	int fd, rc = 0;
	uint64_t checked;

	if (r->nset)
		return verify_set(r, rr, err);
	/* a buffered descriptor of the same file, whatever the run's flags */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", r->w[0].eng.fd);
	fd = open(proc, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set(err, "%s: verify: reopening: %s", path, strerror(errno));
	if ((r->writes && fdatasync(fd) < 0) ||
	    (rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)) != 0) {
		err_set(err, "%s: verify: %s: %s", path, rc ? "posix_fadvise" : "fdatasync",
			strerror(rc ? rc : errno));
		close(fd);
		return -1;
	}
	/* not the workers' buffers: data=zero writes from them as they are */
	buf = malloc(v[OPT_BS].u);
	if (!buf) {
		close(fd);
		return err_set(err, "out of memory");
	}
	rr->verified_bytes = 0;
	for (unsigned t = 0; t < r->nw && rc == 0; t++) {
		uint64_t first, end;

		worker_range(r, t, &first, &end);
		for (uint64_t at = first; at < end && rc == 0 && !*r->stop; at += VERIFY_UNITS) {
			units_pattern(r, at, end - at > VERIFY_UNITS ? at + VERIFY_UNITS : end, &p);
			rc = data_verify(&r->gen, fd, &p,
					 v[OPT_OP].u == OP_READWRITE ? (unsigned)v[OPT_RWMIXREAD].u
								     : 0,
					 buf, &f, &checked, err);
			rr->verified_bytes += checked;
		}
	}
	free(buf);
	close(fd);
	if (rc > 0) {
		data_fault_describe(&f, line, sizeof(line));
		return err_set(err, "%s: verify found a bad block: %s", path, line);
	}
	if (rc < 0) { /* data_verify does not know the file's name */
		char why[ERR_MAX];

		memcpy(why, err, sizeof(why));
		return err_set(err, "%s: %s", path, why);
	}
	return 0;
}

/* verify=after of a file set: each file flushed and evicted, then every unit
 * of every worker's share read back from its file (buffered descriptors of
 * the set's files) and checked at its set offset, which is what its data was
 * made from (io/fileset.h).  A bad block is named by its file and offset in
 * it. */
static int verify_set(struct runner *r, struct repeat_result *rr, char *err)
{
	const union optval *v = r->run->v;
	struct fileset_map m;
	struct data_fault f;
	struct pattern p;
	char proc[64], path[PATH_MAX], line[ERR_MAX / 2];
	unsigned char *buf = malloc(v[OPT_BS].u);
	int *fds = calloc(r->nset, sizeof(int)), rc = 0;
	unsigned k, file = 0;
	uint64_t off, len, set_off = 0;
	bool bad = false;

	if (!buf || !fds) {
		free(buf);
		free(fds);
		return err_set(err, "out of memory");
	}
	for (k = 0; k < r->nset && rc == 0; k++) {
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", r->set_fds[k]);
		fds[k] = open(proc, O_RDONLY | O_CLOEXEC);
		if (fds[k] < 0 || fdatasync(fds[k]) < 0 ||
		    (errno = posix_fadvise(fds[k], 0, 0, POSIX_FADV_DONTNEED)) != 0)
			rc = err_set(err, "%s: verify: %s", set_path(r, k, path), strerror(errno));
	}
	fileset_map_init(&m, r->nset, v[OPT_SIZE].u, v[OPT_BS].u,
			 (enum fileset_service)v[OPT_FILE_SERVICE_TYPE].u, v[OPT_SEED].u, fds,
			 r->sizes_p ? &r->lay : NULL);
	rr->verified_bytes = 0;
	for (unsigned t = 0; t < r->nw && rc == 0 && !bad; t++) {
		uint64_t first, end;

		worker_range(r, t, &first, &end);
		units_pattern(r, first, end, &p);
		while (rc == 0 && !bad && !*r->stop && pattern_next(&p, &off, &len)) {
			ssize_t got;

			file = fileset_map(&m, off, &set_off);
			if (v[OPT_OP].u == OP_READWRITE &&
			    data_draw_percent(&r->gen, set_off) < v[OPT_RWMIXREAD].u)
				continue;
			got = pread(fds[file], buf, len, (off_t)(set_off - fileset_start(&m, file)));
			if (got != (ssize_t)len)
				rc = err_set(err, "%s: verify: read at %llu: %s", set_path(r, file, path),
					     (unsigned long long)(set_off - fileset_start(&m, file)),
					     got < 0 ? strerror(errno) : "short read");
			else if (!data_check(&r->gen, buf, len, set_off, &f))
				bad = true;
			else
				rr->verified_bytes += len;
		}
	}
	for (k = 0; k < r->nset; k++)
		if (fds[k] > 0)
			close(fds[k]);
	free(fds);
	free(buf);
	if (bad) {
		data_fault_describe(&f, line, sizeof(line));
		return err_set(err, "%s: verify found a bad block (offsets in the set, file %u "
				    "starting at %llu): %s", set_path(r, file, path), file,
			       (unsigned long long)fileset_start(&m, file), line);
	}
	return rc;
}

/* Each rank verifies its own share: the bytes checked are summed over the
 * ranks, and a bad block on any rank fails the run on every rank, reported
 * by rank 0 with that rank's message (dist.h).  Collective. */
static int verify_agreed(int rc, struct repeat_result *rr, char *err)
{
	dist_sum_u64(&rr->verified_bytes, 1);
	return dist_agree(rc < 0 ? DIST_FAILED : 0, err) & DIST_FAILED ? -1 : 0;
}

/* Where this rank's share starts, for consume=ints: the number cut there is
 * joined up (dist_run.h).  Not timed. */
static int join_cut_number(struct runner *r, char *err)
{
	const union optval *v = r->run->v;
	uint64_t add = 0, size = v[OPT_SIZE].u;
	uint64_t at = r->first * v[OPT_BS].u, end = r->end * v[OPT_BS].u;

	if (v[OPT_CONSUME].u != CONSUME_INTS || r->run->per_rank || r->w[0].res.truncated)
		return 0;
	if (dist_ints_correction(v[OPT_FILENAME].s, at, end < size ? end : size, &add, err) < 0)
		return -1;
	r->w[0].res.sum += add; /* consume=ints runs one thread */
	return 0;
}

/* Errors of a block device that failed or went away during a run: a disk
 * unplugged or a loop device whose capacity dropped to 0 (a read: EIO, the
 * block layer's "beyond end of device"; a write: ENOSPC, past the end of a
 * device that had room when the run began, or a thin pool out of space), a
 * driver gone (ENXIO, ENODEV).  An unexpected end of file (no error) on a
 * device says the same: its size changed under the run. */
static bool device_gone(int error)
{
	return error == EIO || error == ENXIO || error == ENODEV || error == ENOSPC;
}

/* The device's counters just before (k = 0) and just after (1) the timed
 * part (not timed); r->dev_ok says whether both were read. */
static void device_sample(struct runner *r, int k)
{
	r->dev_ok = (k == 0 || r->dev_ok) && r->dev.n && devstat_sample(&r->dev, &r->dev_at[k]) == 0;
	r->dev_ns[k] = now_ns();
}

/* The run's files are still the ones it began with (prepare_check): the one
 * file, or every file of the set. */
static int files_check(const struct runner *r, char *err)
{
	char path[PATH_MAX];

	if (r->treed || r->md)
		return 0; /* each file is checked as it is opened (dirscan_open, mdtree.h) */
	if (!r->nset)
		return prepare_check(r->run->v[OPT_FILENAME].s, &r->id, err);
	for (unsigned k = 0; k < r->nset; k++)
		if (prepare_check(set_path(r, k, path), &r->set_ids[k], err) < 0)
			return -1;
	return 0;
}

/* The cache policy, on each file of a set (cache=drop, which drops every
 * file's pages at once, once). */
static int files_cache(const struct runner *r, char *err)
{
	const union optval *v = r->run->v;
	char path[PATH_MAX];
	int rc = 0;

	if (r->md)
		return md_before((struct runner *)r, err);
	if (r->treed && v[OPT_CACHE].u == CACHE_FADVISE)
		rc = dirscan_evict(&r->tree, r->stop, err);
	else if (r->treed && v[OPT_CACHE].u == CACHE_WARM)
		rc = dirscan_warm(&r->tree, r->stop, err);
	if (r->treed && v[OPT_CACHE].u != CACHE_DROP) {
		if (rc < 0) {
			memcpy(path, err, sizeof(path) < ERR_MAX ? sizeof(path) : ERR_MAX);
			path[PATH_MAX - 1] = '\0';
			return err_set(err, "%s: cache=%s: %s", v[OPT_OPENDIR].s,
				       cache_policy_names[v[OPT_CACHE].u], path);
		}
		return rc;
	}
	if (!r->nset || v[OPT_CACHE].u == CACHE_DROP)
		return cache_apply(v[OPT_CACHE].u, r->nset ? set_path(r, 0, path) : v[OPT_FILENAME].s,
				   v[OPT_SIZE].u, r->stop, err);
	for (unsigned k = 0; k < r->nset && rc == 0; k++)
		rc = cache_apply(v[OPT_CACHE].u, set_path(r, k, path), RUNNER_FILE_BYTES(r, k),
				 r->stop, err);
	return rc;
}

/* The share of the run's bytes in the page cache: of a set, over its files
 * weighed by their bytes; -1 when a file's is unknown. */
static double files_residency(const struct runner *r)
{
	const union optval *v = r->run->v;
	char path[PATH_MAX];
	double sum = 0;

	if (r->treed)
		return dirscan_residency(&r->tree, r->stop);
	if (r->md) /* of the files a phase finds there, if they hold bytes */
		return md_op_needs(run_md_op(r->run)) == MD_FILES ? mdtree_residency(r->md) : -1;
	if (!r->nset)
		return cache_residency(v[OPT_FILENAME].s, v[OPT_SIZE].u);
	for (unsigned k = 0; k < r->nset; k++) {
		double f = cache_residency(set_path(r, k, path), RUNNER_FILE_BYTES(r, k));

		if (f < 0)
			return -1;
		sum += f * (double)RUNNER_FILE_BYTES(r, k);
	}
	return sum / (double)run_set_bytes(r->run);
}

/* read_iolog: what the trace recorded beside what the repeat replayed; a
 * bad line met while streaming (the trace changed since it was scanned)
 * fails the run, the repeat kept and marked as far as it went. */
static int trace_fidelity(struct runner *r, struct repeat_result *rr, char *err)
{
	const struct trace_scan *ts = &r->trace_scan;
	const struct trace_reader *bad = NULL;
	uint64_t first = 0, last = 0, done = 0;

	/* every worker's (replay_threads: one a thread of the trace): the span
	 * from the earliest first issue to the latest last one, the I/Os done,
	 * the first bad line met */
	for (unsigned t = 0; t < r->nw; t++) {
		const struct io_results *res = &r->w[t].res;

		if (res->t_first_ns && (!first || res->t_first_ns < first))
			first = res->t_first_ns;
		if (res->t_last_issue_ns > last)
			last = res->t_last_issue_ns;
		done += res->ops[IO_READ] + res->ops[IO_WRITE] + res->trims;
		if (!bad && worker_reader(r, t)->bad)
			bad = worker_reader(r, t);
	}
	rr->replay = true;
	rr->rec_ops[IO_READ] = ts->n[TRACE_READ];
	rr->rec_ops[IO_WRITE] = ts->n[TRACE_WRITE];
	rr->rec_bytes[IO_READ] = ts->bytes[TRACE_READ];
	rr->rec_bytes[IO_WRITE] = ts->bytes[TRACE_WRITE];
	rr->rec_syncs = ts->n[TRACE_SYNC] + ts->n[TRACE_DATASYNC];
	rr->rec_trims = ts->n[TRACE_TRIM];
	rr->rec_trim_bytes = ts->bytes[TRACE_TRIM];
	rr->rec_span_s = (double)trace_recorded_ns(ts) / 1e9;
	rr->replay_span_s = first && last > first ? (double)(last - first) / 1e9 : 0;
	rr->late_p50_ns = rr->late_p99_ns = rr->late_max_ns = NAN;
	if (r->rated && r->late) {
		hist_reset(r->issue_late);
		for (unsigned t = 0; t < r->nw; t++)
			hist_merge(r->issue_late, r->late[t]);
	}
	if (r->rated) {
		rr->late_p50_ns = (double)hist_percentile(r->issue_late, 50);
		rr->late_p99_ns = (double)hist_percentile(r->issue_late, 99);
		rr->late_max_ns = (double)hist_max(r->issue_late);
	}
	if (replay_rate(r, rr) < 0)
		return err_set(err, "out of memory");
	if (!bad)
		return 0;
	rr->replay_cut = true;
	return err_set(err, "%s (the replay stopped there: %llu of %llu I/Os done, kept and "
			    "marked cut)", bad->error, (unsigned long long)done,
		       (unsigned long long)ts->n[TRACE_READ] + ts->n[TRACE_WRITE] +
			       ts->n[TRACE_TRIM]);
}

/*
 * The device's counters at the series' boundaries: a thread of the
 * runner's own, started after the sample before the timed part and stopped
 * before the one after, that sleeps until each boundary of worker 0's
 * series (its origin: the loop's start, published in snaps[0].t0_ns) and
 * reads the stat files once (a pread each).  The workers never wait for
 * it.  Woken early by dev_iv_wake when the loop is over.
 */
static bool dev_iv_sleep(struct runner *r, uint64_t until_ns)
{
	struct timespec ts = { .tv_sec = (time_t)(until_ns / 1000000000ULL),
			       .tv_nsec = (long)(until_ns % 1000000000ULL) };
	bool done;

	pthread_mutex_lock(&r->dev_iv_lock);
	while (!r->dev_iv_done && now_ns() < until_ns)
		pthread_cond_timedwait(&r->dev_iv_wake, &r->dev_iv_lock, &ts);
	done = r->dev_iv_done;
	pthread_mutex_unlock(&r->dev_iv_lock);
	return !done;
}

static void *dev_iv_sampler(void *arg)
{
	struct runner *r = arg;
	uint64_t t0;

	/* the loop's start: worker 0 publishes it as it begins */
	while (!(t0 = __atomic_load_n(&r->snaps[0].t0_ns, __ATOMIC_ACQUIRE)))
		if (!dev_iv_sleep(r, now_ns() + 1000000ULL))
			return NULL;
	r->dev_iv_t[0] = t0; /* dev_iv[0] is the sample just before it */
	while (dev_iv_sleep(r, t0 + r->ndev_iv * r->dev_iv_ns)) {
		if (r->ndev_iv == DEV_IV_MAX) {
			/* as the series coarsens: every other boundary, the interval doubled */
			for (size_t k = 0; 2 * k < DEV_IV_MAX; k++) {
				r->dev_iv[k] = r->dev_iv[2 * k];
				r->dev_iv_t[k] = r->dev_iv_t[2 * k];
			}
			r->ndev_iv = (DEV_IV_MAX + 1) / 2;
			r->dev_iv_ns *= 2;
			continue;
		}
		r->dev_iv_t[r->ndev_iv] = now_ns();
		r->dev_iv_ok &= devstat_sample(&r->dev, &r->dev_iv[r->ndev_iv]) == 0;
		r->ndev_iv++;
	}
	return NULL;
}

/* Starts the sampler for a repeat with a series and a device: 0, or -1 when
 * there is none to start (no series, no device, or no thread). */
static int dev_iv_start(struct runner *r, pthread_t *tid)
{
	r->ndev_iv = 0;
	r->dev_iv_ok = false;
	if (!r->series || !r->dev_ok)
		return -1;
	r->dev_iv[0] = r->dev_at[0];
	r->dev_iv_t[0] = 0;
	r->ndev_iv = 1;
	r->dev_iv_ns = r->w[0].in.interval_ns;
	r->dev_iv_ok = true;
	r->dev_iv_done = false;
	__atomic_store_n(&r->snaps[0].t0_ns, 0, __ATOMIC_RELEASE);
	if (pthread_create(tid, NULL, dev_iv_sampler, r) != 0) {
		r->dev_iv_ok = false;
		return -1;
	}
	return 0;
}

static void dev_iv_stop(struct runner *r, pthread_t tid)
{
	pthread_mutex_lock(&r->dev_iv_lock);
	r->dev_iv_done = true;
	pthread_cond_signal(&r->dev_iv_wake);
	pthread_mutex_unlock(&r->dev_iv_lock);
	pthread_join(tid, NULL);
}

/* Before the start line (not timed): the cache state, the hints, and the
 * residency the reads will meet.  0 or -1 with err. */
static int repeat_before(struct runner *r, struct repeat_result *rr, char *err)
{
	const union optval *v = r->run->v;
	int rc;

	set_status(r->status, PHASE_CACHE, 0, 0);
	/* a cache step cut short by a signal returns 1: the stop is then agreed
	 * at the start line and the repeat is not measured */
	if (files_check(r, err) < 0 || alloc_reset(r, err) < 0 || files_cache(r, err) < 0)
		return -1;
	/* whether the policy did its part, before a willneed hint reads ahead;
	 * not of a dropped tree (opendir's or one iosweep made), whose files it
	 * would have to open, bringing their metadata back: the dentries its
	 * lookups add tell (tree_caches) */
	rr->resident_before = (r->treed || r->md) && v[OPT_CACHE].u == CACHE_DROP
				      ? -1
				      : files_residency(r);
	rr->cache_as_asked = cache_as_asked((int)v[OPT_CACHE].u, rr->resident_before,
					    run_set_bytes(r->run), r->run->bytes);
	rc = repeat_setup(r, err);
	/* the residency the reads meet: measured last before they start */
	if (rc == 0 && v[OPT_HINT].u == HINT_WILLNEED && !r->direct)
		rr->resident_before = files_residency(r);
	if (r->treed || r->md) {
		r->dentries0 = dirscan_dentries();
		r->inodes0 = dirscan_inodes();
	}
	return rc;
}

/* Whether a job of a group was cut by the group's end rule (the first job
 * done, the group's time): a worker stopped while the rule had set the
 * flag, and the job is not the one whose end set it.  Agreed over ranks. */
static bool group_cut_job(const struct runner *r)
{
	uint64_t cut = 0;

	for (unsigned t = 0; t < r->nw; t++)
		cut |= r->w[t].res.truncated && !r->ended_first && !*r->stop &&
		       __atomic_load_n(&r->group->cut_by_rule, __ATOMIC_ACQUIRE);
	dist_max_u64(&cut, 1);
	return cut != 0;
}

/* How much a count grew from before to after: none when it fell (a tree's
 * unlink and rmdir free dentries), NaN when either is unknown. */
static double growth(double after, double before)
{
	double d = after - before;

	return d < 0 ? 0 : d;
}

/* opendir: the dentries and inodes in use before the repeat and what it
 * added (after: dentries1, inodes1).  A tree whose metadata was dropped
 * (cache=drop) adds a dentry and an inode for about every file it opens: a
 * repeat that added fewer than half as many dentries was not cold as
 * asked.  An inode the kernel evicted took its cached pages with it, so a
 * tree whose lookups brought its inodes back read its data cold too.  The
 * count is the host's: it is held to the lookups of this rank's workers
 * (its host's other ranks' only add to it). */
static void tree_caches(const struct runner *r, struct repeat_result *rr, double dentries1,
			double inodes1)
{
	double files = 0;

	/* of a tree's phase, one that only looks names up (one that makes or
	 * removes them adds dentries, cold or not: nothing to tell) */
	for (unsigned t = 0; t < r->nw && (!r->md || md_op_looks(run_md_op(r->run))); t++) {
		const struct io_results *w = &r->w[t].res;

		files += (double)w->ops[IO_READ] + (double)w->ops[IO_WRITE];
		for (int k = 0; k < DIRSCAN__SKIPS; k++)
			files += (double)w->tree_skipped[k];
	}

	rr->dentries_before = r->dentries0;
	rr->inodes_before = r->inodes0;
	/* net growth: none when the kernel freed more than the repeat added
	 * (a tree's unlink and rmdir free theirs) */
	rr->dentries_added = growth(dentries1, r->dentries0);
	rr->inodes_added = growth(inodes1, r->inodes0);
	/* a tree on tmpfs or ramfs keeps its dentries whatever is dropped: not
	 * cold, however many another process's lookups added meanwhile */
	if (r->run->v[OPT_CACHE].u == CACHE_DROP && files > 0 &&
	    (rr->dentries_added < files / 2 ||
	     prepare_memory_fs(r->treed ? r->tree.rootfd : r->md->rootfd)))
		rr->cache_as_asked = false;
}

/* After the timed part (mrc: how it went): errors, the checks, the figures,
 * verify.  0 or -1 with err.  Every rank reaches each of its agrees. */
static int repeat_after(struct runner *r, struct repeat_result *rr, int mrc, uint64_t t0,
			uint64_t wall0, const struct rusage *ru0, const struct rusage *ru1, char *err)
{
	const union optval *v = r->run->v;
	const char *path = v[OPT_FILENAME].s;
	int rc = mrc;
	bool failed_io = false;

	for (unsigned t = 0; rc < 0 && t < r->nw; t++) {
		const struct io_results *w = &r->w[t].res;

		if (w->error_what && r->md) {
			char item[64];

			mdtree_path(r->md, run_md_op(r->run), w->error_off, item);
			err_set(err, "%s/%s: %s: %s", r->md->root, item, w->error_what,
				strerror(w->error));
			failed_io = true;
			break;
		}
		if (w->error_what) {
			err_set(err, "%s: %s at offset %llu%s%s%s", path, w->error_what,
				(unsigned long long)w->error_off, w->error ? ": " : "",
				w->error ? strerror(w->error) : "",
				r->run->blockdev && (device_gone(w->error) || !w->error)
					? " (the device failed or went away during the run: "
					  "what was measured before is kept, marked interrupted)"
					: "");
			failed_io = true;
			break;
		}
		if (t + 1 == r->nw)
			err_set(err, "%s: could not start %u threads", path, r->nline);
	}
	/* an I/O that failed (a device gone, a bad sector): the repeat's units done
	 * before it are tallied and kept, marked interrupted (so out of every
	 * summary), and the run fails.  One host only: the tally is collective */
	if (failed_io && dist_size() == 1) {
		char why[ERR_MAX];

		memcpy(why, err, sizeof(why));
		rr->resident_after = -1;
		if (tally_repeat(r, rr, t0, wall0, ru0, ru1) == 0)
			rr->interrupted = rr->kept_failed = true;
		memcpy(err, why, sizeof(why));
	}
	if (rc == 0 && files_check(r, err) < 0)
		rc = -1;
	if (rc == 0)
		rc = join_cut_number(r, err);
	/* the timed part ended everywhere; a failure anywhere fails the run */
	if (dist_agree(rc < 0 ? DIST_FAILED : 0, err) & DIST_FAILED)
		return -1;
	double dentries1 = r->treed || r->md ? dirscan_dentries() : NAN,
	       inodes1 = r->treed || r->md ? dirscan_inodes() : NAN;

	rr->resident_after = files_residency(r);
	if (tally_repeat(r, rr, t0, wall0, ru0, ru1) < 0)
		return err_set(err, "out of memory for a series");
	if (r->treed || r->md)
		tree_caches(r, rr, dentries1, inodes1);
	if (r->md)
		md_after(r, rr);
	if (r->traced && trace_fidelity(r, rr, err) < 0)
		return -1;
	if (r->group && group_cut_job(r)) {
		rr->group_cut = true;
		rr->runtime_limited = false; /* cut by the group, not by its runtime */
	}
	/* a repeat cut short wrote only part of its blocks: nothing to check
	 * (the flags were agreed by the tally: every rank takes this branch) */
	if (v[OPT_VERIFY].u == VERIFY_AFTER && !rr->interrupted && !rr->runtime_limited &&
	    !rr->group_cut)
		return verify_agreed(verify_repeat(r, rr, err), rr, err);
	return 0;
}

/* The start skew of a group: the latest first issue of any worker of any
 * of its jobs, less the earliest, over every rank (collective). */
static double group_skew_s(const struct runner *rs, size_t n, uint64_t t0, uint64_t wall0)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	for (size_t k = 0; k < n; k++)
		for (unsigned t = 0; t < rs[k].nw; t++) {
			const struct io_results *res = &rs[k].w[t].res;
			/* a startdelay is meant: its first I/O is after it (ioloop.c) */
			uint64_t first = wall0 + res->t_first_ns - t0 - rs[k].w[t].in.delay_ns;

			if (!io_results_ops(res))
				continue;
			lo = first < lo ? first : lo;
			hi = first > hi ? first : hi;
		}
	dist_min_u64(&lo, 1);
	dist_max_u64(&hi, 1);
	return hi > lo && lo != UINT64_MAX ? (double)(hi - lo) / 1e9 : 0;
}

/* One repeat of the n runners: a job alone (n = 1), or the jobs of a group,
 * which set their caches one after the other, then all start at one start
 * line and are timed from one t0 (one timeline for their series).  0, -1
 * with err[k] of the job that failed (*bad = k), or 1 when stopped before
 * it was measured.  Every rank reaches each of its agrees (dist.h). */
static int one_repeat(struct runner *rs, size_t n, struct repeat_result *const *rr,
		      char (*err)[ERR_MAX], size_t *bad)
{
	struct group_state *g = rs[0].group;
	struct run_status *status = rs[0].status;
	struct rusage ru0, ru1;
	struct timespec wall;
	uint64_t t0, wall0;
	pthread_t watcher, sampler[n];
	bool watching = false, sampling[n];
	int rc = 0, agreed;

	*bad = 0;
	for (size_t k = 0; k < n; k++)
		if (repeat_before(&rs[k], rr[k], err[k]) < 0 && rc == 0) {
			rc = -1;
			*bad = k;
		}
	/* every rank's files and caches are ready: start together */
	agreed = dist_start_line(rc < 0 ? DIST_FAILED : 0, err[*bad]);
	if (agreed != 0)
		return agreed & DIST_FAILED ? -1 : 1;
	if (status) {
		/* nothing of the repeat before: the line reads them once measuring */
		for (unsigned t = 0; t < rs[0].nw; t++) {
			__atomic_store_n(&rs[0].snaps[t].bytes, 0, __ATOMIC_RELAXED);
			__atomic_store_n(&rs[0].snaps[t].t0_ns, 0, __ATOMIC_RELAXED);
		}
		status->snaps = rs[0].snaps;
		status->nsnaps = rs[0].nw;
	}
	set_status(status, PHASE_MEASURE, 0, rs[0].run->bytes);
	for (size_t k = 0; k < n; k++) {
		device_sample(&rs[k], 0);
		sampling[k] = dev_iv_start(&rs[k], &sampler[k]) == 0;
	}
	t0 = now_ns();
	clock_gettime(CLOCK_REALTIME, &wall);
	wall0 = (uint64_t)wall.tv_sec * 1000000000ULL + (uint64_t)wall.tv_nsec;
	getrusage(RUSAGE_SELF, &ru0);
	if (g) {
		atomic_store(&g->cut, 0);
		g->cut_by_rule = g->done = 0;
		for (size_t k = 0; k < n; k++)
			rs[k].ended_first = false;
		g->end_ns = t0 + rs[0].run->group_time_ns;
		watching = pthread_create(&watcher, NULL, group_watch, g) == 0;
	}
	rc = repeat_measure(rs, n);
	if (g) {
		__atomic_store_n(&g->done, 1, __ATOMIC_RELEASE);
		if (watching)
			pthread_join(watcher, NULL);
	}
	getrusage(RUSAGE_SELF, &ru1);
	for (size_t k = 0; k < n; k++) {
		if (sampling[k])
			dev_iv_stop(&rs[k], sampler[k]);
		device_sample(&rs[k], 1);
		for (unsigned t = 0; t < rs[k].nw; t++)
			ioloop_finish(&rs[k].w[t]);
	}
	status_idle(status);
	for (unsigned t = 0; status && t < rs[0].nw; t++)
		__atomic_add_fetch(&status->bytes_done, io_results_bytes(&rs[0].w[t].res),
				   __ATOMIC_RELAXED);
	for (size_t k = 0, failed = 0; k < n; k++)
		if (repeat_after(&rs[k], rr[k], rs[k].measure_rc < 0 ? -1 : 0, t0, wall0, &ru0, &ru1,
				 err[k]) < 0 && !failed++) {
			*bad = k;
			rc = -1;
		}
	if (rc < 0 || !g)
		return rc < 0 ? -1 : 0;
	double skew = group_skew_s(rs, n, t0, wall0);

	for (size_t k = 0; k < n; k++)
		rr[k]->group_start_skew_s = skew;
	return 0;
}

/* The per-rank and per-thread arrays of each measured repeat (rank 0 holds
 * every rank's; the others, their own). */
static int alloc_repeats(struct run_result *res, unsigned repeat, unsigned nw)
{
	size_t ranks = dist_rank() == 0 ? (size_t)dist_size() : 1;

	res->rep = calloc(repeat, sizeof(*res->rep));
	for (unsigned i = 0; res->rep && i < repeat; i++) {
		res->rep[i].rank_time_s = calloc(ranks, sizeof(double));
		res->rep[i].thread_time_s = calloc(ranks * nw, sizeof(double));
		if (!res->rep[i].rank_time_s || !res->rep[i].thread_time_s)
			return -1;
	}
	return res->rep ? 0 : -1;
}

const char *const repeat_stop_names[] = { [REPEAT_FIXED] = NULL, [REPEAT_TARGET] = "target",
					   [REPEAT_COUNT] = "count", [REPEAT_BUDGET] = "budget" };

enum repeat_stop repeat_auto_stop(const double *x, size_t n, size_t measured, double spent_s,
				  double *spread_pct)
{
	struct summary s;

	stats_summarize(x, n, &s);
	*spread_pct = s.has_ci && s.median > 0
		? 100 * fmax(s.ci95_high - s.median, s.median - s.ci95_low) / s.median : NAN;
	if (n >= REPEAT_AUTO_MIN && *spread_pct <= REPEAT_AUTO_TARGET_PCT)
		return REPEAT_TARGET;
	if (measured >= REPEAT_AUTO_MAX)
		return REPEAT_COUNT;
	if (n >= REPEAT_AUTO_MIN && spent_s >= REPEAT_AUTO_BUDGET_S)
		return REPEAT_BUDGET;
	return REPEAT_FIXED;
}

/* repeat = auto: the headline figure of the repeats measured so far (time
 * to end; throughput for time_based runs, whose time is their runtime), and
 * whether they are enough.  Rank 0, which holds every rank's figures,
 * decides; every rank follows. */
static bool auto_enough(struct run_result *res)
{
	bool tb = res->run->v[OPT_TIME_BASED].u != 0;
	double x[REPEAT_AUTO_MAX], spent_s = 0;
	size_t n = 0;
	int stop = REPEAT_FIXED;

	if (dist_rank() == 0) {
		for (size_t i = 0; i < res->nrep; i++)
			if (!res->rep[i].interrupted) {
				x[n++] = tb ? res->rep[i].throughput_Bps : res->rep[i].time_to_end_s;
				spent_s += res->rep[i].time_to_end_s;
			}
		stop = (int)repeat_auto_stop(x, n, res->nrep, spent_s, &res->auto_spread_pct);
	}
	res->auto_stop = (enum repeat_stop)dist_max_int(stop);
	return res->auto_stop != REPEAT_FIXED;
}

/* Sets up one job's run (prepare, repeats, runner); 0, 1 when stopped, or
 * -1 with res->error.  Every rank reaches each of its agrees. */
static int run_open(const struct run *run, struct runner *r, struct run_result *res,
		    volatile atomic_int *stop, struct run_status *status, bool grouped, bool *inited)
{
	const union optval *v = run->v;
	unsigned repeat = v[OPT_REPEAT].u ? (unsigned)v[OPT_REPEAT].u : REPEAT_AUTO_MAX;
	int rc, agreed;

	memset(res, 0, sizeof(*res));
	res->run = run;
	res->nalloc = repeat;
	/* every rank leaves together on what all of them agreed (dist.h) */
	rc = dist_prepare(run, stop, create_progress, status, res->error);
	if (rc != 0) {
		res->failed = rc < 0;
		res->interrupted = rc > 0;
		return rc < 0 ? -1 : 1;
	}
	rc = alloc_repeats(res, repeat, (unsigned)v[OPT_THREADS].u);
	if (rc < 0)
		err_set(res->error, "out of memory");
	else
		*inited = true;
	if (rc == 0)
		rc = runner_init(r, run, stop, status, res->error);
	agreed = dist_agree(rc < 0 ? DIST_FAILED : rc > 0 ? DIST_STOP : 0, res->error);
	if (rc < 0 || agreed & DIST_FAILED) {
		res->failed = true;
		return -1;
	}
	if (agreed & DIST_STOP) { /* stopped before anything was measured */
		res->interrupted = true;
		return 1;
	}
	if (r->engine->note && !r->direct)
		res->note = r->engine->note;
	/* a device node lives on devtmpfs: its own statfs says nothing of the device */
	int fd = r->treed ? r->tree.rootfd : r->md ? r->md->rootfd : r->w[0].eng.fd;

	res->memory_fs = run->blockdev ? NULL : prepare_memory_fs(fd);
	/* ranks on several hosts have several devices: none is the run's */
	if (dist_size() > 1)
		snprintf(r->dev.why, sizeof(r->dev.why), "%s", "it ran on several ranks");
	else if (v[OPT_RAMP].u) /* the device would count the unmeasured ramp as well */
		snprintf(r->dev.why, sizeof(r->dev.why), "%s", "its ramp is not measured, and the "
			 "device's counters cannot leave it out");
	else if (r->md) /* a phase's bytes are not what the device moves for it */
		snprintf(r->dev.why, sizeof(r->dev.why), "%s", "a tree's phases move metadata, "
			 "which the device counts and the run does not");
	else if (grouped) /* the device's counters are every job's */
		snprintf(r->dev.why, sizeof(r->dev.why), "%s", "it ran in a group: the device's "
			 "counters cannot tell its jobs apart");
	else
		devstat_open(&r->dev, fd);
	snprintf(res->device, sizeof(res->device), "%s", r->dev.n ? r->dev.name : "");
	snprintf(res->device_absent, sizeof(res->device_absent), "%s", r->dev.n ? "" : r->dev.why);
	return 0;
}

/* run's precondition (plan.h: plan_precond_run), pass after pass, each as a
 * run of its own, before the run opens its file: into *pre (npre passes
 * done), 0, 1 when stopped, or -1 with err naming the pass. */
static int precondition(const struct run *run, struct precond_result **pre, size_t *npre,
			volatile atomic_int *stop, struct run_status *status, char *err)
{
	struct precond_pass p[PRECOND_MAX];
	size_t n;
	int rc = 0;

	*pre = NULL;
	*npre = 0;
	if (!run->v[OPT_PRECONDITION].s)
		return 0;
	if (precondition_parse(run->v[OPT_PRECONDITION].s, p, &n, err) < 0)
		return -1;
	*pre = calloc(n, sizeof(**pre));
	if (!*pre)
		return err_set(err, "out of memory");
	for (size_t k = 0; k < n && rc == 0; k++) {
		struct precond_result *q = &(*pre)[k];

		q->pass = p[k];
		plan_precond_run(run, p[k], &q->run);
		rc = run_execute_group(&q->run, 1, &q->res, stop, status);
		(*npre)++;
		if (rc < 0)
			err_set(err, "precondition %s: %.200s", precond_names[p[k].kind],
				q->res.error);
		else if (q->res.interrupted)
			rc = 1;
	}
	if (status) {
		__atomic_store_n(&status->repeat, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&status->bytes_done, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&status->run, run, __ATOMIC_RELEASE);
	}
	return rc;
}

int run_execute(const struct run *run, struct run_result *res, volatile atomic_int *stop,
		struct run_status *status)
{
	return run_execute_group(run, 1, res, stop, status);
}

/* The repeats of a job's or a group's n open runners, warmups first (their
 * figures dropped), until every repeat is measured, one fails, a stop is
 * agreed or repeat = auto has enough: 0, 1 when stopped, or -1 with *bad
 * the job that failed (its error in res[*bad]). */
static int run_repeats(struct runner *r, size_t n, struct run_result *res, unsigned maxnw,
		       struct run_status *status, size_t *bad)
{
	const union optval *v = res[0].run->v;
	unsigned warmup = (unsigned)v[OPT_WARMUP].u;
	unsigned repeat = v[OPT_REPEAT].u ? (unsigned)v[OPT_REPEAT].u : REPEAT_AUTO_MAX;
	int rc = 0;

	for (unsigned i = 0; rc == 0 && i < warmup + repeat; i++) {
		struct repeat_result scratch[n], *rr[n];
		double thread_s[n][(size_t)maxnw * (size_t)dist_size()], rank_s[dist_size()];
		char errs[n][ERR_MAX];

		memset(scratch, 0, sizeof(scratch));
		memset(errs, 0, sizeof(errs));
		if (status)
			__atomic_store_n(&status->repeat, i + 1, __ATOMIC_RELAXED);
		for (size_t k = 0; k < n; k++) {
			rr[k] = i < warmup ? &scratch[k] : &res[k].rep[i - warmup];
			if (i < warmup) { /* a warmup's figures are dropped */
				rr[k]->thread_time_s = thread_s[k];
				rr[k]->rank_time_s = rank_s;
			}
		}
		rc = one_repeat(r, n, rr, errs, bad);
		for (size_t k = 0; k < n; k++) {
			free(scratch[k].series);
			free(scratch[k].steady.crit);
			free(scratch[k].replay_rate);
		}
		if (rc < 0)
			memcpy(res[*bad].error, errs[*bad], ERR_MAX);
		if (rc < 0 && rr[*bad]->replay_cut && i >= warmup)
			res[*bad].nrep++; /* kept, marked */
		if (rc < 0 && rr[*bad]->kept_failed && i >= warmup)
			res[*bad].nrep++; /* what it measured before an I/O failed */
		if (rc != 0)
			break;
		for (size_t k = 0; i >= warmup && k < n; k++)
			res[k].nrep++;
		/* a stop agreed by the repeat's last agree ends the run on every rank */
		if (rr[0]->interrupted)
			break;
		if (!v[OPT_REPEAT].u && i >= warmup && auto_enough(&res[0])) {
			for (size_t k = 1; k < n; k++)
				res[k].auto_stop = res[0].auto_stop;
			break;
		}
	}
	return rc;
}

/* opendir: what the run's scan found and its workers met, for the report. */
static void tree_result(const struct runner *r, struct run_result *res)
{
	res->tree_dirs = r->tree.dirs;
	memcpy(res->tree_skipped, r->tree.skipped, sizeof(res->tree_skipped));
	memcpy(res->tree_first_skip, r->tree.first_skip, sizeof(res->tree_first_skip));
	res->tree_noatime_refused = r->tree.noatime_refused;
	for (unsigned t = 0; t < r->ready; t++)
		res->tree_noatime_refused |= r->w[t].reader.noatime_refused;
}

int run_execute_group(const struct run *runs, size_t n, struct run_result *res,
		      volatile atomic_int *stop, struct run_status *status)
{
	struct runner r[n];
	struct group_state g = { .end = runs[0].group_end, .stop = stop };
	bool inited[n];
	unsigned nline = 0, maxnw = 1;
	size_t opened = 0, bad = 0;
	int rc = 0;

	memset(r, 0, sizeof(r));
	memset(inited, 0, sizeof(inited));
	for (size_t k = 0; k < n; k++) {
		memset(&res[k], 0, sizeof(res[k]));
		res[k].run = &runs[k];
	}
	if (status) {
		status_idle(status);
		__atomic_store_n(&status->repeat, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&status->bytes_done, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&status->run, &runs[0], __ATOMIC_RELEASE);
	}
	/* a run alone's precondition (the plan refused it in a group) */
	struct precond_result *pre = NULL;
	size_t npre = 0;
	char pre_err[ERR_MAX] = "";

	rc = n == 1 ? precondition(&runs[0], &pre, &npre, stop, status, pre_err) : 0;
	/* each job's file and workers (every rank the same: the results agreed) */
	for (; opened < n && rc == 0; opened++) {
		rc = run_open(&runs[opened], &r[opened], &res[opened], stop,
			      opened ? NULL : status, n > 1, &inited[opened]);
		if (rc != 0)
			bad = opened;
		nline += r[opened].nw;
		maxnw = r[opened].nw > maxnw ? r[opened].nw : maxnw;
	}
	for (size_t k = 0; k < n; k++) {
		r[k].line = &r[0];
		r[k].group = n > 1 ? &g : NULL;
		/* a job whose runner failed before its workers were allocated has none */
		for (unsigned t = 0; n > 1 && r[k].w && t < r[k].nw; t++)
			r[k].w[t].in.stop = &g.cut;
	}
	r[0].nline = nline;
	res[0].pre = pre;
	res[0].npre = npre;
	if (rc < 0 && pre_err[0])
		memcpy(res[0].error, pre_err, ERR_MAX);
	if (rc == 0)
		rc = run_repeats(r, n, res, maxnw, status, &bad);
	if (rc < 0)
		for (size_t k = 0; k < n; k++) {
			res[k].failed = true;
			if (k != bad && n > 1 && !res[k].error[0])
				err_set(res[k].error, "job '%s' of its group failed: %.200s",
					runs[bad].job->name, res[bad].error);
		}
	for (size_t k = 0; k < n; k++)
		res[k].interrupted |= *stop != 0;
	if (rc > 0 && npre) /* stopped while preconditioning */
		res[0].interrupted = true;
	status_idle(status);
	for (size_t k = 0; k < opened; k++) {
		if (r[k].treed)
			tree_result(&r[k], &res[k]);
		res[k].tree_swept = r[k].md_swept;
		if (inited[k])
			runner_free(&r[k]);
	}
	return rc < 0 ? -1 : 0;
}

void run_result_free(struct run_result *res)
{
	for (size_t i = 0; res->rep && i < res->nalloc; i++) {
		free(res->rep[i].thread_time_s);
		free(res->rep[i].rank_time_s);
		free(res->rep[i].series);
		free(res->rep[i].replay_rate);
		free(res->rep[i].steady.crit);
	}
	free(res->rep);
	for (size_t k = 0; k < res->npre; k++)
		run_result_free(&res->pre[k].res);
	free(res->pre);
	memset(res, 0, sizeof(*res));
}
