/*
 * progress.c - the progress line.  A thread wakes four times a second and
 * reads the run status and the workers' snapshots (atomics, and the live
 * view's buffers of series.h), so the I/O loop itself never prints or
 * checks the clock for it, and the line never reads what a worker writes.
 *
 * Of the repeat being measured it shows:
 *  - how far it is: by bytes; by time for time_based (it ends at its ramp
 *    plus runtime); with runtime but not time_based, the further of the two,
 *    since whichever reaches its end first ends the repeat;
 *  - with a series, the throughput and p99 latency of the latest interval
 *    that every worker completed, all directions together (as lat_ns),
 *    from the merge of the workers' histograms of that interval; without
 *    a series (or before its first interval), the throughput of the last
 *    quarter of a second, and no p99: there is nothing to take it from;
 *  - the ETA of the plan: every repeat still to come takes its bytes at the
 *    rate so far (all bytes over all the time since the plan started, so
 *    that creating files and setting caches count), or its startdelay +
 *    ramp + runtime when time_based, or the smaller of the two with runtime alone;
 *    "estimating" until a repeat was measured, unless every repeat left is
 *    time_based: then it is known from the start.
 */
#define _GNU_SOURCE
#include "report/progress.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "io/ioloop.h"
#include "lib/texttable.h"
#include "lib/threads.h"
#include "lib/units.h"

struct progress {
	const struct plan *plan;
	struct run_status *st;
	pthread_t tid;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool quit;
	uint64_t started_ns;
	size_t runs_done;
	uint64_t done_bytes;         /* moved by the runs done, warmups included */
	/* the throughput of the last quarter of a second (< 0: none yet) */
	uint64_t last_bytes, last_ns;
	double rate_Bps;
	/* the live view: the interval shown (live_len_ns 0: none), of which repeat */
	const struct run *live_run;
	unsigned live_repeat;
	uint64_t live_end_ns, live_len_ns;
	double live_Bps;
	uint64_t live_p99_ns, live_ops;
	struct hist *live_lat;       /* the workers' histograms of it, merged */
	const struct series_live_iv *iv[SERIES_MAX_THREADS];
};

/* The time a repeat of run that has moved `bytes` in elapsed_s still needs,
 * at rate_Bps: by its bytes, or by its time where time is what ends it. */
static double repeat_left_s(const struct run *run, double rate_Bps, uint64_t bytes,
			    double elapsed_s)
{
	const union optval *v = run->v;
	double by_bytes = (double)(run->bytes > bytes ? run->bytes - bytes : 0) / rate_Bps;
	double by_time = (double)(v[OPT_RAMP].u + v[OPT_RUNTIME].u) / 1e9 - elapsed_s;
	/* a repeat not begun waits its startdelay first (elapsed_s counts from
	 * its first I/O); the rate by bytes has the waits of the plan in it */
	double delay = bytes || elapsed_s > 0 ? 0 : (double)v[OPT_STARTDELAY].u / 1e9;

	if (by_time < 0)
		by_time = 0;
	if (v[OPT_TIME_BASED].u == FLAG_ON)
		return by_time + delay;
	return v[OPT_RUNTIME].u && by_time < by_bytes ? by_time : by_bytes;
}

/* How far a repeat is, between 0 and 1, by the same rule. */
static double repeat_fraction(const struct run *run, uint64_t bytes, double elapsed_s)
{
	const union optval *v = run->v;
	double by_bytes = run->bytes ? (double)bytes / (double)run->bytes : 0;
	double by_time = v[OPT_RUNTIME].u
				 ? elapsed_s * 1e9 / (double)(v[OPT_RAMP].u + v[OPT_RUNTIME].u) : 0;
	double f = v[OPT_TIME_BASED].u == FLAG_ON ? by_time
		   : by_time > by_bytes		  ? by_time
						  : by_bytes;

	return f < 0 ? 0 : f > 1 ? 1 : f;
}

static uint64_t run_repeats(const struct run *run)
{
	return plan_repeats(run) + run->v[OPT_WARMUP].u;
}

/* The plan's time still to come, in s, from repeat `repeat` (1-based; 0:
 * none started) of run, which has moved `bytes` in elapsed_s. */
static double plan_left_s(const struct progress *p, const struct run *run, unsigned repeat,
			  uint64_t bytes, double elapsed_s, double rate_Bps)
{
	double left = 0;

	if (repeat > 0)
		left = repeat_left_s(run, rate_Bps, bytes, elapsed_s);
	left += (double)(run_repeats(run) - (repeat > 0 ? repeat : 0)) *
		repeat_left_s(run, rate_Bps, 0, 0);
	for (size_t i = run->index + 1; i < p->plan->n; i++)
		left += (double)run_repeats(&p->plan->runs[i]) *
			repeat_left_s(&p->plan->runs[i], rate_Bps, 0, 0);
	return left;
}

/*
 * The live view: the latest interval of this repeat that every worker has
 * completed (a worker whose loop ended before it counts as nothing in it),
 * summed over the workers, into p->live_*.  When the workers are not all
 * there yet, what was shown stays.
 */
static void live_update(struct progress *p, struct io_snapshot *snaps, unsigned n)
{
	uint64_t end = 0, len = 0, bytes = 0;

	if (n > SERIES_MAX_THREADS)
		return; /* no series */
	for (unsigned t = 0; t < n; t++) {
		p->iv[t] = series_live_take(&snaps[t].live);
		if (!p->iv[t])
			return;
		if (!p->iv[t]->last && p->iv[t]->end_ns > end) {
			end = p->iv[t]->end_ns;
			len = p->iv[t]->len_ns;
		}
	}
	if (!end || (end == p->live_end_ns && len == p->live_len_ns))
		return;
	for (unsigned t = 0; t < n; t++) {
		const struct series_live_iv *iv = p->iv[t];
		bool same = iv->end_ns == end && iv->len_ns == len;

		if (!same && !(iv->last && iv->end_ns + len <= end))
			return; /* behind, or on a grid not yet coarsened like the others' */
	}
	hist_reset(p->live_lat);
	for (unsigned t = 0; t < n; t++)
		if (p->iv[t]->end_ns == end) {
			hist_merge(p->live_lat, p->iv[t]->lat);
			bytes += p->iv[t]->bytes;
		}
	p->live_end_ns = end;
	p->live_len_ns = len;
	p->live_Bps = (double)bytes * 1e9 / (double)len;
	p->live_ops = hist_count(p->live_lat);
	p->live_p99_ns = hist_percentile(p->live_lat, 99);
}

/* "812 MB/s p99 1.30 ms": the live interval, with its age when it ended
 * more than two intervals ago (a stall: nothing else completed since). */
static void live_text(const struct progress *p, uint64_t origin_ns, uint64_t now, char *buf,
		      size_t n)
{
	char rate[32], p99[32] = "", age[48] = "";
	uint64_t ended = origin_ns + p->live_end_ns;

	units_fmt_rate(p->live_Bps, rate, sizeof(rate));
	if (p->live_ops) {
		memcpy(p99, " p99 ", 6);
		units_fmt_seconds((double)p->live_p99_ns / 1e9, p99 + 5, sizeof(p99) - 5);
	}
	if (now > ended + 2 * p->live_len_ns) {
		memcpy(age, " (", 3);
		units_fmt_seconds((double)(now - ended) / 1e9, age + 2, sizeof(age) - 2);
		strcat(age, " ago)");
	}
	snprintf(buf, n, " %s%s%s", rate, p99, age);
}

/* "bs=4KiB engine=mmap": the run's values of the options that vary. */
static void run_label(const struct plan *plan, const struct run *run, char *buf, size_t n)
{
	char val[256];
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < OPT__COUNT && used < n; i++)
		if (plan_column(plan, i)) {
			option_format(i, run->v[i], val, sizeof(val));
			used += (size_t)snprintf(buf + used, n - used, " %s=%s", option_table[i].name,
						 val);
		}
}

/* The line for the run's current phase: which run into head, how far into
 * tail (n bytes each); the snapshots are read only while measuring, and
 * only here. */
/* Whether run and every run after it are time_based: the time they take is
 * their ramps and runtimes, whatever rate the plan goes at. */
static bool time_bound_rest(const struct progress *p, const struct run *run)
{
	for (size_t i = run->index; i < p->plan->n; i++)
		if (p->plan->runs[i].v[OPT_TIME_BASED].u != FLAG_ON)
			return false;
	return true;
}

static void compose(struct progress *p, const struct run *run, int phase, char *head,
		    char *tail, size_t n)
{
	static const char *const phases[] = { "", "creating file", "setting cache", "measuring" };
	const struct run_status *st = p->st;
	unsigned repeat = __atomic_load_n(&st->repeat, __ATOMIC_RELAXED);
	uint64_t now = now_ns(), bytes = 0, t0 = 0;
	double elapsed_s = 0, fraction = -1;
	const char *what = phases[phase];
	char rate[96] = "", eta[32] = "estimating", label[160], pct[16] = "";

	if (p->live_run != run || p->live_repeat != repeat) {
		p->live_run = run;
		p->live_repeat = repeat;
		p->live_end_ns = p->live_len_ns = 0;
		p->last_ns = 0;
	}
	if (phase == PHASE_MEASURE) {
		for (unsigned t = 0; t < st->nsnaps; t++) {
			uint64_t w0 = __atomic_load_n(&st->snaps[t].t0_ns, __ATOMIC_RELAXED);

			bytes += __atomic_load_n(&st->snaps[t].bytes, __ATOMIC_RELAXED);
			if (w0 && (!t0 || w0 < t0))
				t0 = w0;
		}
		elapsed_s = t0 && now > t0 ? (double)(now - t0) / 1e9 : 0;
		fraction = repeat_fraction(run, bytes, elapsed_s);
		if (elapsed_s * 1e9 < (double)run->v[OPT_RAMP].u)
			what = "ramping";
		live_update(p, st->snaps, st->nsnaps);
	} else if (phase == PHASE_CREATE) {
		uint64_t done = __atomic_load_n(&st->done, __ATOMIC_RELAXED);
		uint64_t total = __atomic_load_n(&st->total, __ATOMIC_RELAXED);

		fraction = total ? (double)done / (double)total : -1;
	}
	/* bytes of the whole plan only grow: a rate from them does not break
	 * when a repeat or a run starts */
	uint64_t all = p->done_bytes + __atomic_load_n(&st->bytes_done, __ATOMIC_RELAXED) + bytes;
	if (phase == PHASE_MEASURE) {
		p->rate_Bps = -1; /* none before the second look */
		if (p->last_ns && now > p->last_ns && all >= p->last_bytes)
			p->rate_Bps = (double)(all - p->last_bytes) * 1e9 /
				      (double)(now - p->last_ns);
		p->last_bytes = all;
		p->last_ns = now;
		if (p->live_len_ns)
			live_text(p, t0 + run->v[OPT_RAMP].u, now, rate, sizeof(rate));
		else if (p->rate_Bps >= 0) {
			units_fmt_rate(p->rate_Bps, rate + 1, sizeof(rate) - 1);
			rate[0] = ' ';
		}
	}
	if (fraction >= 0)
		snprintf(pct, sizeof(pct), " %3.0f%%", 100.0 * fraction);
	/* no ETA before a whole repeat was measured: creation, cache setting and a
	 * repeat's first moments say little about the rest; unless time is all
	 * that ends what is left (time_based), which is known from the start */
	if (((p->runs_done > 0 || repeat > 1) && all > 0 && now > p->started_ns) ||
	    time_bound_rest(p, run))
		units_fmt_seconds(plan_left_s(p, run, repeat, bytes, elapsed_s,
					      all > 0 && now > p->started_ns
						      ? (double)all * 1e9 / (double)(now - p->started_ns)
						      : 1),
				  eta, sizeof(eta));
	run_label(p->plan, run, label, sizeof(label));
	snprintf(head, n, "[%zu/%zu] %s%s", run->index + 1, p->plan->n, run->job->name, label);
	snprintf(tail, n, "  repeat %u/%llu  %s%s%s  ETA %s", repeat,
		 (unsigned long long)run_repeats(run), what, pct, rate, eta);
}

/* Length of the UTF-8 sequence of a printable character at s (not a
 * control character as tt_control() tells them, not a broken sequence),
 * or 0. */
static size_t printable_len(const unsigned char *s)
{
	size_t len = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3
					  : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
	char esc[8];

	if (!len || tt_control(s, esc))
		return 0;
	for (size_t k = 1; k < len; k++)
		if ((s[k] & 0xc0) != 0x80)
			return 0;
	return len;
}

/* Copies in to out (n bytes) as the terminal is to see it, up to max
 * columns (SIZE_MAX: all): job names and values are the user's bytes, so
 * what could move the cursor or change the terminal becomes '?'.  Returns
 * the columns copied (one per character: wide ones are rare here). */
static size_t sanitize(const char *in, char *out, size_t n, size_t max)
{
	size_t cols = 0, used = 0;

	for (const unsigned char *s = (const unsigned char *)in; *s && cols < max && used + 5 < n;
	     cols++) {
		size_t len = printable_len(s);

		if (len) {
			memcpy(out + used, s, len);
			used += len;
			s += len;
		} else {
			out[used++] = '?';
			s++;
		}
	}
	out[used] = '\0';
	return cols;
}

/* Draws head (which run) and tail (how far) on one line cut to the
 * terminal's width, so that \r goes back to its start: the head gives way
 * first. */
static void put_line(const char *head, const char *tail)
{
	struct winsize ws;
	size_t width = SIZE_MAX;
	char h[512], t[512];

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		width = ws.ws_col - 1u;
	width -= sanitize(tail, t, sizeof(t), width);
	sanitize(head, h, sizeof(h), width);
	fprintf(stderr, "\r\033[K%s%s", h, t);
	fflush(stderr);
}

static void draw(struct progress *p)
{
	struct run_status *st = p->st;
	const struct run *run;
	char head[512] = "", tail[512] = "";
	int phase;

	/* seq_cst with the runner's status_idle(): while this is set, the
	 * snapshots it may read stay where they are */
	__atomic_store_n(&st->reading, 1, __ATOMIC_SEQ_CST);
	phase = __atomic_load_n(&st->phase, __ATOMIC_SEQ_CST);
	run = __atomic_load_n(&st->run, __ATOMIC_ACQUIRE);
	if (run && phase != PHASE_IDLE)
		compose(p, run, phase, head, tail, sizeof(head));
	__atomic_store_n(&st->reading, 0, __ATOMIC_RELEASE);
	if (tail[0])
		put_line(head, tail);
}

static void *progress_thread(void *arg)
{
	struct progress *p = arg;
	struct timespec ts;

	thread_own_files((const int[]){ STDERR_FILENO }, 1); /* draws on stderr only; see lib/threads.h */
	pthread_mutex_lock(&p->lock);
	while (!p->quit) {
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 250000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&p->wake, &p->lock, &ts);
		if (!p->quit)
			draw(p);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct progress *progress_start(const struct plan *plan, struct run_status *status, bool quiet)
{
	struct progress *p;

	if (quiet || !isatty(STDERR_FILENO))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->plan = plan;
	p->st = status;
	p->started_ns = now_ns();
	p->live_lat = hist_new();
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->wake, NULL);
	if (!p->live_lat || pthread_create(&p->tid, NULL, progress_thread, p) != 0) {
		hist_free(p->live_lat);
		free(p);
		return NULL;
	}
	return p;
}

void progress_run_done(struct progress *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->runs_done++;
	p->done_bytes += __atomic_load_n(&p->st->bytes_done, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&p->lock);
}

void progress_clear(struct progress *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	fputs("\r\033[K", stderr);
	fflush(stderr);
	pthread_mutex_unlock(&p->lock);
}

void progress_stop(struct progress *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->quit = true;
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->tid, NULL);
	fputs("\r\033[K", stderr);
	fflush(stderr);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->wake);
	hist_free(p->live_lat);
	free(p);
}
