/*
 * progress.c - the progress line.  A thread wakes four times a second and
 * reads the run status (atomics written by the runner), so the read loop
 * itself never prints or checks the clock for it.
 */
#define _GNU_SOURCE
#include "progress.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ioloop.h"
#include "units.h"

struct progress {
	const struct plan *plan;
	struct run_status *st;
	pthread_t tid;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool quit;
	uint64_t plan_bytes, done_bytes; /* all repeats, warmups included */
	uint64_t started_ns;
	uint64_t last_bytes, last_ns;
	double rate_Bps;
};

static uint64_t run_bytes(const struct run *run)
{
	return run->bytes * (run->v[OPT_REPEAT].u + run->v[OPT_WARMUP].u);
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

static void draw(struct progress *p)
{
	static const char *const phases[] = { "", "creating file", "setting cache", "measuring" };
	const struct run *run = p->st->run;
	int phase = __atomic_load_n(&p->st->phase, __ATOMIC_ACQUIRE);
	unsigned repeat = __atomic_load_n(&p->st->repeat, __ATOMIC_RELAXED);
	uint64_t done = 0, total = 0, now = now_ns(), current = 0;
	char rate[32] = "", eta[32] = "estimating", label[160], pct[16] = "";

	if (!run || phase == PHASE_IDLE)
		return;
	if (phase == PHASE_MEASURE) {
		for (unsigned t = 0; t < p->st->nsnaps; t++)
			done += __atomic_load_n(&p->st->snaps[t].bytes, __ATOMIC_RELAXED);
		total = run->bytes;
		current = done + run->bytes * (repeat - 1);
		/* bytes of the whole plan grow across repeats and runs: a rate from them
		 * does not break when a new repeat starts */
		uint64_t all = p->done_bytes + current;
		if (now > p->last_ns && all >= p->last_bytes && p->last_ns)
			p->rate_Bps = (double)(all - p->last_bytes) * 1e9 / (double)(now - p->last_ns);
		p->last_bytes = all;
		p->last_ns = now;
		if (p->rate_Bps > 0) {
			units_fmt_rate(p->rate_Bps, rate + 1, sizeof(rate) - 1);
			rate[0] = ' ';
		}
	} else if (phase == PHASE_CREATE) {
		done = __atomic_load_n(&p->st->done, __ATOMIC_RELAXED);
		total = __atomic_load_n(&p->st->total, __ATOMIC_RELAXED);
	}
	if (total)
		snprintf(pct, sizeof(pct), " %3.0f%%", 100.0 * (double)done / (double)total);
	uint64_t all = p->done_bytes + current;
	/* no ETA before a whole repeat was measured: creation, cache setting and a
	 * repeat's first moments say little about the rest */
	if ((p->done_bytes > 0 || repeat > 1) && all > 0 && now > p->started_ns)
		units_fmt_seconds((double)(now - p->started_ns) / 1e9 *
					  (double)(p->plan_bytes - all) / (double)all,
				  eta, sizeof(eta));
	run_label(p->plan, run, label, sizeof(label));
	fprintf(stderr, "\r\033[K[%zu/%zu] %s%s  repeat %u/%llu  %s%s%s  ETA %s", run->index + 1,
		p->plan->n, run->job->name, label, repeat,
		(unsigned long long)run->v[OPT_REPEAT].u + run->v[OPT_WARMUP].u, phases[phase],
		pct, rate, eta);
	fflush(stderr);
}

static void *progress_thread(void *arg)
{
	struct progress *p = arg;
	struct timespec ts;

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
	for (size_t i = 0; i < plan->n; i++)
		p->plan_bytes += run_bytes(&plan->runs[i]);
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->wake, NULL);
	if (pthread_create(&p->tid, NULL, progress_thread, p) != 0) {
		free(p);
		return NULL;
	}
	return p;
}

void progress_run_done(struct progress *p, const struct run *run)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->done_bytes += run_bytes(run);
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
	free(p);
}
