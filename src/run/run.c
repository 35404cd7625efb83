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
#include "io/engines/engine.h"
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
static int open_for_writing(const struct runner *r, char *err)
{
	const union optval *v = r->run->v;
	const char *path = v[OPT_FILENAME].s;
	int flags = (r->direct ? O_DIRECT : 0) | (v[OPT_SYNC].u == SYNC_DSYNC ? O_DSYNC : 0) |
		    (v[OPT_SYNC].u == SYNC_OSYNC ? O_SYNC : 0);
	struct stat st;
	int fd = r->claimed ? wtarget_reopen(r->claim_fd, path, flags, err)
			    : wtarget_open(path, flags, v[OPT_ALLOW_WRITE].s, err);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || st.st_dev != r->id.dev || st.st_ino != r->id.ino) {
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

/* Units [first, end) of the run, as a pattern. */
static void units_pattern(const struct runner *r, uint64_t first, uint64_t end,
			  struct pattern *p)
{
	const union optval *v = r->run->v;
	char err[ERR_MAX];

	pattern_init(p, v[OPT_PATTERN].u, v[OPT_SIZE].u, v[OPT_BS].u, v[OPT_SPACING].u,
		     v[OPT_COUNT].u, v[OPT_SEED].u, first, end);
	(void)pattern_skew(p, v[OPT_RANDOM_DISTRIBUTION].s, err); /* the plan checked it */
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

	worker_range(r, t, &first, &end);
	units_pattern(r, first, end, p);
}

/* Opens the file and sets up one worker for the whole run (not timed). */
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
	shape.fd = r->writes ? open_for_writing(r, err) : prepare_open(v[OPT_FILENAME].s, v[OPT_CACHE].u == CACHE_DIRECT,
							      v[OPT_BS].u, v[OPT_SPACING].u, &r->id, err);
	if (shape.fd < 0)
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
	if (r->w[t].in.interval_ns) {
		r->w[t].series = series_alloc(t == 0 ? shape.fd : -1, v[OPT_SIZE].u, r->period_ns > 0);
		if (!r->w[t].series || series_live_init(&r->snaps[t].live) < 0)
			return err_set(err, "out of memory for the series of %u threads", r->nw);
		r->w[t].series->live = &r->snaps[t].live; /* for the progress line */
		r->w[t].series->watch = r->watching ? &r->watch : NULL; /* threads = 1 (plan.c) */
	}
	if (r->period_ns > 0)
		r->w[t].min_batch = 1; /* reap as soon as one completes: the next may be due */
	r->w[t].in.stop = r->stop;
	/* op=trim writes no data: only trimwrite's blocks are written after their trim */
	r->w[t].in.gen = r->writes && v[OPT_OP].u != OP_TRIM ? &r->gen : NULL;
	r->w[t].in.op = (enum op_kind)v[OPT_OP].u;
	r->w[t].in.trim = v[OPT_OP].u != OP_TRIM && v[OPT_OP].u != OP_TRIMWRITE ? NULL
			  : r->run->blockdev ? io_trim_device
					     : io_trim_file;
	r->w[t].in.rwmixread = (unsigned)v[OPT_RWMIXREAD].u;
	r->w[t].in.sync = (enum sync_kind)v[OPT_SYNC].u;
	r->w[t].in.sync_every = flushes ? v[OPT_SYNC_EVERY].u : UINT64_MAX;
	r->w[t].in.sync_inflight = flushes && v[OPT_SYNC_MODE].u == SYNC_MODE_INFLIGHT;
	return 0;
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

/* ss: the steady state worker 0's series watches for (plan.c checked it:
 * the window and ramp are whole intervals). */
static void watch_init(struct runner *r, const union optval *v)
{
	struct series_watch *w = &r->watch;
	char err[ERR_MAX];

	r->watching = v[OPT_SS].s && steady_parse(v[OPT_SS].s, &w->metric, &w->spec, err) == 0;
	if (!r->watching)
		return;
	w->dir = v[OPT_SS_DIR].u == SS_DIR_READ ? IO_READ : v[OPT_SS_DIR].u == SS_DIR_WRITE ? IO_WRITE : -1;
	if (w->spec.rule != STEADY_SNIA)
		w->spec.window = v[OPT_SS_DUR].u / v[OPT_INTERVAL].u;
	w->spec.ramp = v[OPT_SS_RAMP].u / v[OPT_INTERVAL].u;
	r->series->watch = w; /* the merged series is judged as worker 0's was */
}

/* Workers, their engines and buffers, histograms: once per run. */
static int runner_init(struct runner *r, const struct run *run, volatile atomic_int *stop,
		       struct run_status *status, char *err)
{
	const union optval *v = run->v;
	struct hist **h[IO_HISTS];
	bool hists = true;
	pthread_condattr_t ca;

	/* the device sampler's sleep, on the loop's clock */
	if (pthread_condattr_init(&ca) != 0 ||
	    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) != 0 ||
	    pthread_cond_init(&r->dev_iv_wake, &ca) != 0 ||
	    pthread_mutex_init(&r->dev_iv_lock, NULL) != 0)
		return err_set(err, "cannot set up the device sampler");
	pthread_condattr_destroy(&ca);
	r->dev_iv_inited = true;

	memset(r, 0, sizeof(*r));
	r->run = run;
	r->stop = stop;
	r->status = status;
	r->engine = engine_at(v[OPT_ENGINE].u);
	r->direct = v[OPT_CACHE].u == CACHE_DIRECT;
	r->nw = (unsigned)v[OPT_THREADS].u;
	r->w = calloc(r->nw, sizeof(*r->w));
	r->snaps = calloc(r->nw, sizeof(*r->snaps));
	r->period_ns = rate_period_ns(v, r->nw);
	total_hists(r, h);
	for (unsigned k = 0; k < IO_HISTS; k++)
		hists &= (*h[k] = hist_new()) != NULL;
	r->writes = v[OPT_OP].u != OP_READ;
	if (series_interval_ns(v)) {
		r->series = series_alloc(-1, 0, r->period_ns > 0);
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
	/* ranks reading one shared file each take a contiguous share, like threads */
	dist_share(run->reads, run->per_rank ? 0 : dist_rank(), run->per_rank ? 1 : dist_size(),
		   &r->first, &r->end);
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
	if (prepare_identify(v[OPT_FILENAME].s, &r->id, err) < 0)
		return -1;
	r->id.watch_content &= !r->writes; /* its own writes change what is watched */
	/* a device is claimed (O_EXCL) before the first write, until the run ends */
	if (r->writes && run->blockdev) {
		r->claim_fd = wtarget_claim(v[OPT_FILENAME].s, v[OPT_ALLOW_WRITE].s,
					    v[OPT_ALLOW_OVERWRITE_SIGNATURE].s, err);
		if (r->claim_fd < 0)
			return -1;
		r->claimed = true;
	}
	uint64_t align = r->direct ? cache_logical_block_size(v[OPT_FILENAME].s) : 1;
	for (unsigned t = 0; t < r->nw; t++)
		if (worker_init(r, t, align, err) < 0)
			return -1;
	/* before the first write: a run cut short has written some blocks too */
	if (r->writes && !run->blockdev && (run->per_rank || !dist_rank()) &&
	    prepare_record_written(r->w[0].eng.fd, v[OPT_FILENAME].s, v[OPT_SIZE].u, err) < 0)
		return -1;
	return 0;
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
	if (r->claimed)
		close(r->claim_fd);
}

/* Each worker's share of the units, and the hints, for one repeat (not
 * timed).  The hints come after the cache policy, so that what they do
 * (willneed reads ahead) is in the residency measured before the reads. */
static int repeat_setup(struct runner *r, char *err)
{
	const union optval *v = r->run->v;

	for (unsigned t = 0; t < r->nw; t++) {
		struct io_worker *w = &r->w[t];

		worker_share(r, t, &w->in.pat);
		if (ioloop_advise(w, err) < 0) {
			char why[ERR_MAX];

			memcpy(why, err, sizeof(why));
			return err_set(err, "%s: %s", v[OPT_FILENAME].s, why);
		}
	}
	return 0;
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
	int go;

	if (__atomic_add_fetch(&r->arrived, 1, __ATOMIC_ACQ_REL) == r->nw) {
		__atomic_store_n(&r->go, 1, __ATOMIC_RELEASE);
		start_wake(r);
		return 1;
	}
	for (unsigned spins = 0; (go = __atomic_load_n(&r->go, __ATOMIC_ACQUIRE)) == 0;) {
		if (++spins < START_SPINS)
			cpu_relax();
		else /* returns at once when go is no longer 0; EINTR: look again */
			(void)syscall(SYS_futex, &r->go, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
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
	pthread_setcanceltype(type, &type);
	pthread_setcancelstate(state, &state);
	return NULL;
}

/* The timed part: all workers at once, the first on this thread. */
static int repeat_measure(struct runner *r)
{
	struct thread_arg args[r->nw];
	pthread_t tid[r->nw];
	unsigned started = 1;
	int rc = 0;

	r->arrived = 0;
	r->go = 0;
	for (unsigned t = 0; t < r->nw; t++)
		args[t] = (struct thread_arg){ .r = r, .w = &r->w[t] };
	for (; started < r->nw; started++)
		if (pthread_create(&tid[started], NULL, worker_thread, &args[started]) != 0)
			break;
	if (started == r->nw) {
		worker_thread(&args[0]);
	} else {
		__atomic_store_n(&r->go, -1, __ATOMIC_RELEASE);
		start_wake(r);
		rc = -1;
	}
	for (unsigned t = 1; t < started; t++)
		pthread_join(tid[t], NULL);
	for (unsigned t = 0; t < r->nw; t++)
		// cppcheck-suppress uninitvar ; args[0..nw) were all set above
		if (args[t].rc < 0)
			rc = -1;
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
static int alloc_reset(struct runner *r, char *err)
{
	const union optval *v = r->run->v;
	const char *alloc = option_table[OPT_ALLOC].values[v[OPT_ALLOC].u];
	int fd = r->w[0].eng.fd, rc;

	if (!r->writes || v[OPT_ALLOC].u == ALLOC_OVERWRITE || (!r->run->per_rank && dist_rank()))
		return 0;
	if (ftruncate(fd, 0) < 0)
		return err_set(err, "%s: alloc=%s: ftruncate: %s", v[OPT_FILENAME].s, alloc,
			       strerror(errno));
	if (v[OPT_ALLOC].u == ALLOC_ALLOCATE) {
		rc = ftruncate(fd, (off_t)v[OPT_SIZE].u);
	} else {
		do
			rc = fallocate(fd, 0, 0, (off_t)v[OPT_SIZE].u);
		while (rc < 0 && errno == EINTR);
	}
	if (rc < 0)
		return err_set(err, "%s: alloc=%s: %s: %s%s", v[OPT_FILENAME].s, alloc,
			       v[OPT_ALLOC].u == ALLOC_ALLOCATE ? "ftruncate" : "fallocate",
			       strerror(errno),
			       errno == EOPNOTSUPP ? " (this file system cannot preallocate: use "
						     "alloc=allocate)" : "");
	return 0;
}

/* Units verify checks between two looks at the stop flag: a stop (Ctrl-C)
 * ends a verify of any size within one of them. */
#define VERIFY_UNITS 256

/* verify=after: every block the repeat wrote (or, for a read run, read) is
 * read back from storage -- flushed, then evicted from the page cache --
 * and checked (not timed).  The first bad one fails the run.  A stop ends
 * it early: verified_bytes then says how much was checked. */
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
 * driver gone (ENXIO, ENODEV). */
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
			for (unsigned k = 0; 2 * k < DEV_IV_MAX; k++) {
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

/* One repeat; 0, -1 with err, or 1 when stopped before it was measured.
 * Every rank reaches each of its agrees (dist.h). */
static int one_repeat(struct runner *r, struct repeat_result *rr, char *err)
{
	const union optval *v = r->run->v;
	const char *path = v[OPT_FILENAME].s;
	struct rusage ru0, ru1;
	struct timespec wall;
	uint64_t t0;
	int rc = 0, agreed;
	bool failed_io = false, sampling;
	pthread_t sampler;

	set_status(r->status, PHASE_CACHE, 0, 0);
	/* a cache step cut short by a signal returns 1: the stop is then agreed
	 * at the start line and the repeat is not measured */
	if (prepare_check(path, &r->id, err) < 0 || alloc_reset(r, err) < 0 ||
	    cache_apply(v[OPT_CACHE].u, path, v[OPT_SIZE].u, r->stop, err) < 0) {
		rc = -1;
	} else {
		/* whether the policy did its part, before a willneed hint reads ahead */
		rr->resident_before = cache_residency(path, v[OPT_SIZE].u);
		rr->cache_as_asked = cache_as_asked((int)v[OPT_CACHE].u, rr->resident_before,
						    v[OPT_SIZE].u, r->run->bytes);
		rc = repeat_setup(r, err);
	}
	/* the residency the reads meet: measured last before they start */
	if (rc == 0 && v[OPT_HINT].u == HINT_WILLNEED && !r->direct)
		rr->resident_before = cache_residency(path, v[OPT_SIZE].u);
	/* every rank's file and cache are ready: start together */
	agreed = dist_start_line(rc < 0 ? DIST_FAILED : 0, err);
	if (agreed != 0)
		return agreed & DIST_FAILED ? -1 : 1;
	if (r->status) {
		/* nothing of the repeat before: the line reads them once measuring */
		for (unsigned t = 0; t < r->nw; t++) {
			__atomic_store_n(&r->snaps[t].bytes, 0, __ATOMIC_RELAXED);
			__atomic_store_n(&r->snaps[t].t0_ns, 0, __ATOMIC_RELAXED);
		}
		r->status->snaps = r->snaps;
		r->status->nsnaps = r->nw;
	}
	set_status(r->status, PHASE_MEASURE, 0, r->run->bytes);
	device_sample(r, 0);
	sampling = dev_iv_start(r, &sampler) == 0;
	t0 = now_ns();
	clock_gettime(CLOCK_REALTIME, &wall);
	getrusage(RUSAGE_SELF, &ru0);
	rc = repeat_measure(r);
	getrusage(RUSAGE_SELF, &ru1);
	if (sampling)
		dev_iv_stop(r, sampler);
	device_sample(r, 1);
	for (unsigned t = 0; t < r->nw; t++)
		ioloop_finish(&r->w[t]);
	status_idle(r->status);
	for (unsigned t = 0; r->status && t < r->nw; t++)
		__atomic_add_fetch(&r->status->bytes_done, io_results_bytes(&r->w[t].res),
				   __ATOMIC_RELAXED);
	for (unsigned t = 0; rc < 0 && t < r->nw; t++) {
		const struct io_results *w = &r->w[t].res;

		if (w->error_what) {
			err_set(err, "%s: %s at offset %llu%s%s%s", path, w->error_what,
				(unsigned long long)w->error_off, w->error ? ": " : "",
				w->error ? strerror(w->error) : "",
				r->run->blockdev && device_gone(w->error)
					? " (the device failed or went away during the run: "
					  "what was measured before is kept, marked interrupted)"
					: "");
			failed_io = true;
			break;
		}
		if (t + 1 == r->nw)
			err_set(err, "%s: could not start %u threads", path, r->nw);
	}
	/* an I/O that failed (a device gone, a bad sector): the repeat's units done
	 * before it are tallied and kept, marked interrupted (so out of every
	 * summary), and the run fails.  One host only: the tally is collective */
	if (failed_io && dist_size() == 1) {
		char why[ERR_MAX];

		memcpy(why, err, sizeof(why));
		rr->resident_after = -1;
		if (tally_repeat(r, rr, t0,
				 (uint64_t)wall.tv_sec * 1000000000ULL + (uint64_t)wall.tv_nsec, &ru0,
				 &ru1) == 0)
			rr->interrupted = rr->kept_failed = true;
		memcpy(err, why, sizeof(why));
	}
	if (rc == 0 && prepare_check(path, &r->id, err) < 0)
		rc = -1;
	if (rc == 0)
		rc = join_cut_number(r, err);
	/* the timed part ended everywhere; a failure anywhere fails the run */
	if (dist_agree(rc < 0 ? DIST_FAILED : 0, err) & DIST_FAILED)
		return -1;
	rr->resident_after = cache_residency(path, v[OPT_SIZE].u);
	if (tally_repeat(r, rr, t0, (uint64_t)wall.tv_sec * 1000000000ULL + (uint64_t)wall.tv_nsec,
			 &ru0, &ru1) < 0)
		return err_set(err, "out of memory for a series");
	/* a repeat cut short wrote only part of its blocks: nothing to check
	 * (both flags were agreed by the tally: every rank takes this branch) */
	if (v[OPT_VERIFY].u == VERIFY_AFTER && !rr->interrupted && !rr->runtime_limited)
		return verify_agreed(verify_repeat(r, rr, err), rr, err);
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

int run_execute(const struct run *run, struct run_result *res, volatile atomic_int *stop,
		struct run_status *status)
{
	const union optval *v = run->v;
	unsigned warmup = (unsigned)v[OPT_WARMUP].u;
	unsigned repeat = v[OPT_REPEAT].u ? (unsigned)v[OPT_REPEAT].u : REPEAT_AUTO_MAX;
	unsigned nw = (unsigned)v[OPT_THREADS].u;
	struct runner r = { 0 };
	int rc, agreed;

	memset(res, 0, sizeof(*res));
	res->run = run;
	res->nalloc = repeat;
	if (status) {
		status_idle(status);
		__atomic_store_n(&status->repeat, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&status->bytes_done, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&status->run, run, __ATOMIC_RELEASE);
	}
	/* every rank leaves together on what all of them agreed (dist.h) */
	rc = dist_prepare(run, stop, create_progress, status, res->error);
	if (rc != 0) {
		res->failed = rc < 0;
		res->interrupted = rc > 0;
		status_idle(status);
		return rc < 0 ? -1 : 0;
	}
	rc = alloc_repeats(res, repeat, nw);
	if (rc < 0)
		err_set(res->error, "out of memory");
	else
		rc = runner_init(&r, run, stop, status, res->error);
	agreed = dist_agree(rc < 0 ? DIST_FAILED : 0, res->error);
	if (rc < 0 || agreed & DIST_FAILED) {
		res->failed = true;
		status_idle(status);
		runner_free(&r);
		return -1;
	}
	if (r.engine->note && !r.direct)
		res->note = r.engine->note;
	/* a device node lives on devtmpfs: its own statfs says nothing of the device */
	res->memory_fs = run->blockdev ? NULL : prepare_memory_fs(r.w[0].eng.fd);
	/* ranks on several hosts have several devices: none is the run's */
	if (dist_size() > 1)
		snprintf(r.dev.why, sizeof(r.dev.why), "%s", "it ran on several ranks");
	else if (v[OPT_RAMP].u) /* the device would count the unmeasured ramp as well */
		snprintf(r.dev.why, sizeof(r.dev.why), "%s", "its ramp is not measured, and the "
			 "device's counters cannot leave it out");
	else
		devstat_open(&r.dev, r.w[0].eng.fd);
	snprintf(res->device, sizeof(res->device), "%s", r.dev.n ? r.dev.name : "");
	snprintf(res->device_absent, sizeof(res->device_absent), "%s", r.dev.n ? "" : r.dev.why);
	for (unsigned i = 0; i < warmup + repeat; i++) {
		struct repeat_result scratch = { 0 }, *rr = i < warmup ? &scratch : &res->rep[i - warmup];
		double thread_s[nw * (size_t)dist_size()], rank_s[dist_size()];

		if (status)
			__atomic_store_n(&status->repeat, i + 1, __ATOMIC_RELAXED);
		if (i < warmup) {
			rr->thread_time_s = thread_s;
			rr->rank_time_s = rank_s;
		}
		rc = one_repeat(&r, rr, res->error);
		free(scratch.series);
		free(scratch.steady.crit);
		if (rc < 0)
			res->failed = true;
		if (rc < 0 && rr->kept_failed && i >= warmup)
			res->nrep++; /* what it measured before an I/O failed */
		if (rc != 0)
			break;
		if (i >= warmup)
			res->nrep++;
		/* a stop agreed by the repeat's last agree ends the run on every rank */
		if (rr->interrupted)
			break;
		if (!v[OPT_REPEAT].u && i >= warmup && auto_enough(res))
			break;
	}
	res->interrupted = *stop != 0;
	status_idle(status);
	runner_free(&r);
	return res->failed ? -1 : 0;
}

void run_result_free(struct run_result *res)
{
	for (size_t i = 0; res->rep && i < res->nalloc; i++) {
		free(res->rep[i].thread_time_s);
		free(res->rep[i].rank_time_s);
		free(res->rep[i].series);
		free(res->rep[i].steady.crit);
	}
	free(res->rep);
	memset(res, 0, sizeof(*res));
}
