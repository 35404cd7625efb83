/*
 * tally.c - what a repeat adds up to: the workers' results of this rank,
 * then every rank's (run/dist.h: nothing to do on a single host), into the
 * repeat's figures and series.  Not timed: it runs after the repeat's
 * timed part ended everywhere.
 */
#define _GNU_SOURCE
#include "run/tally.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/cache.h"
#include "io/pattern.h"
#include "io/series.h"
#include "lib/error.h"
#include "run/dist.h"
#include "run/dist_run.h"

static uint64_t tv_us(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000 + (uint64_t)tv.tv_usec;
}

/* What a repeat adds up to over the workers of this rank, then over all
 * ranks (dist.h: nothing to do on a single host).  Times are taken with
 * the monotonic clock; first and last are carried over to the wall clock
 * so that ranks can be compared: on one host exactly, across hosts as well
 * as their clocks agree (NTP, PTP), as with IOR. */
struct tally {
	struct { /* summed */
		uint64_t ops[IO_DIRS], bytes[IO_DIRS], sum, flushes, trims, trim_bytes, user_us, sys_us, major, minor,
			vcsw, ivcsw, dirty, late, skipped, workers;
	} add;                         /* workers: those that did something */
	/* earliest first issue, wall-clock ns; the same of each worker's first
	 * issue less its place in a rate limit's schedule (in.phase); and the
	 * earliest end of a worker that did something */
	uint64_t first, first_asked, first_done;
	struct { /* largest */
		uint64_t last, first_last, interrupted, runtime_limited, not_as_asked, behind,
			dirty_unknown, dirty_system_wide, behind_max;
	} max;                         /* first_last: the latest first issue less its place */
	double resident[2];            /* before, after: the mean over the ranks, or -1
				        * when a rank cannot know */
};

static void tally_local(struct runner *r, struct repeat_result *rr, uint64_t t0, uint64_t wall0,
			const struct rusage *ru0, const struct rusage *ru1, struct tally *tl)
{
	memset(tl, 0, sizeof(*tl));
	tl->first = tl->first_asked = tl->first_done = UINT64_MAX;
	hist_reset(r->total);
	hist_reset(r->dir_total[IO_READ]);
	hist_reset(r->dir_total[IO_WRITE]);
	hist_reset(r->flush_total);
	hist_reset(r->trim_total);
	hist_reset(r->resp_total);
	for (unsigned t = 0; t < r->nw; t++) {
		const struct io_results *res = &r->w[t].res;
		bool did = io_results_ops(res) != 0;
		const struct io_inputs *in = &r->w[t].in;
		uint64_t first = wall0 + res->t_first_ns - t0, last = wall0 + res->t_last_ns - t0;
		/* less the worker's place in a rate limit's schedule; none after a
		 * ramp, where every worker's time starts with the measured part */
		uint64_t asked = first - (in->ramp_ns ? 0 : (uint64_t)(in->phase * in->period_ns));

		if (did && first < tl->first)
			tl->first = first;
		if (did && asked < tl->first_asked)
			tl->first_asked = asked;
		if (did && asked > tl->max.first_last)
			tl->max.first_last = asked;
		if (did && last > tl->max.last)
			tl->max.last = last;
		if (did && last < tl->first_done)
			tl->first_done = last;
		tl->add.workers += did;
		r->mine[t].from = r->first + share_start(r->end - r->first, t, r->nw);
		r->mine[t].to = r->mine[t].from + io_results_ops(res);
		/* time_based: a share read more than once covers it once */
		if (r->mine[t].to > r->first + share_start(r->end - r->first, t + 1, r->nw))
			r->mine[t].to = r->first + share_start(r->end - r->first, t + 1, r->nw);
		for (int d = 0; d < IO_DIRS; d++) {
			tl->add.ops[d] += res->ops[d];
			tl->add.bytes[d] += res->bytes[d];
		}
		tl->add.sum += res->sum;
		tl->max.interrupted |= res->truncated && *r->stop;
		/* a time_based repeat ends at its runtime: that is not a cut */
		tl->max.runtime_limited |= res->truncated && !*r->stop && !r->w[t].in.wrap;
		r->thread_s[t] = did ? (double)(res->t_last_ns - res->t_first_ns) / 1e9 : 0;
		hist_merge(r->total, r->w[t].hist);
		hist_merge(r->dir_total[IO_READ], r->w[t].dir_hist[IO_READ]);
		hist_merge(r->dir_total[IO_WRITE], r->w[t].dir_hist[IO_WRITE]);
		hist_merge(r->flush_total, r->w[t].flush_hist);
		tl->add.flushes += res->flushes;
		hist_merge(r->trim_total, r->w[t].trim_hist);
		tl->add.trims += res->trims;
		tl->add.trim_bytes += res->trim_bytes;
		for (int k = 0; k < DIRSCAN__SKIPS; k++)
			tl->add.skipped += res->tree_skipped[k];
		hist_merge(r->resp_total, r->w[t].resp_hist);
		if (res->behind_ns > tl->max.behind)
			tl->max.behind = res->behind_ns;
		if (res->behind_max_ns > tl->max.behind_max)
			tl->max.behind_max = res->behind_max_ns;
		tl->add.late += res->late;
	}
	tl->add.user_us = tv_us(ru1->ru_utime) - tv_us(ru0->ru_utime);
	tl->add.sys_us = tv_us(ru1->ru_stime) - tv_us(ru0->ru_stime);
	tl->add.major = (uint64_t)(ru1->ru_majflt - ru0->ru_majflt);
	tl->add.minor = (uint64_t)(ru1->ru_minflt - ru0->ru_minflt);
	tl->add.vcsw = (uint64_t)(ru1->ru_nvcsw - ru0->ru_nvcsw);
	tl->add.ivcsw = (uint64_t)(ru1->ru_nivcsw - ru0->ru_nivcsw);
	tl->max.not_as_asked = !rr->cache_as_asked;
	tl->resident[0] = rr->resident_before;
	tl->resident[1] = rr->resident_after;
}

/* A write run's bytes still only in memory at the end of the repeat (after
 * every rank's timed part ended), each copy of a file in a page cache
 * counted once: by the one rank that stands for it (dist_run.h), so that
 * ranks sharing a file do not count it once each, and each {rank} file is
 * counted.  Unknown when it is for any of those. */
static void tally_dirty(struct runner *r, struct tally *tl)
{
	bool system_wide;
	int64_t dirty;

	if (!r->writes)
		return;
	dirty = cache_dirty_bytes(r->w[0].eng.fd, r->nset ? RUNNER_FILE_BYTES(r, 0)
							    : r->run->v[OPT_SIZE].u, &system_wide);
	/* a file set: every file's (system_wide: the whole system's, once) */
	for (unsigned k = 1; dirty >= 0 && !system_wide && k < r->nset; k++) {
		int64_t more = cache_dirty_bytes(r->set_fds[k], RUNNER_FILE_BYTES(r, k), &system_wide);

		dirty = more < 0 || system_wide ? more : dirty + more;
	}
	if (!dist_counts_cached_copy(r->run, system_wide))
		return;
	tl->add.dirty = dirty < 0 ? 0 : (uint64_t)dirty;
	tl->max.dirty_unknown = dirty < 0;
	tl->max.dirty_system_wide = system_wide;
}

/* Every rank's h, merged into rank 0's (collective). */
static void gather_hist(struct runner *r, struct hist *h)
{
	dist_gather(h, hist_size(), r->hists ? r->hists : (unsigned char *)h);
	if (r->hists) {
		hist_reset(h);
		for (int k = 0; k < dist_size(); k++)
			hist_merge(h, (const struct hist *)(r->hists + hist_size() * (size_t)k));
	}
}

/* resident[2] (before, after) as the mean over the ranks: of one file, the
 * same share (up to when each rank looked); of a file per rank, the share of
 * all of them (they are the same size).  -1 when a rank could not know
 * (collective). */
static void ranks_mean_residency(double *resident)
{
	enum { SCALE = 1000000000 };
	uint64_t v[4];

	if (dist_size() == 1)
		return; /* (not rounded to the scale) */
	for (int k = 0; k < 2; k++) {
		v[k] = resident[k] < 0 ? 0 : (uint64_t)llround(resident[k] * SCALE);
		v[2 + k] = resident[k] < 0;
	}
	dist_sum_u64(v, 4);
	for (int k = 0; k < 2; k++)
		resident[k] = v[2 + k] ? -1 : (double)v[k] / SCALE / dist_size();
}

/* Adds up the tallies and histograms of all ranks (collective). */
static void tally_ranks(struct runner *r, struct repeat_result *rr, struct tally *tl)
{
	double mine = tl->max.last > tl->first ? (double)(tl->max.last - tl->first) / 1e9 : 0;

	dist_sum_u64(tl->add.ops, sizeof(tl->add) / sizeof(uint64_t));
	dist_min_u64(&tl->first, 3);
	dist_max_u64(&tl->max.last, sizeof(tl->max) / sizeof(uint64_t));
	ranks_mean_residency(tl->resident);
	dist_gather(&mine, sizeof(mine), rr->rank_time_s);
	dist_gather(r->mine, r->nw * sizeof(*r->mine), r->done);
	dist_gather(r->thread_s, r->nw * sizeof(double), rr->thread_time_s);
	gather_hist(r, r->total);
	gather_hist(r, r->dir_total[IO_READ]);
	gather_hist(r, r->dir_total[IO_WRITE]);
	gather_hist(r, r->flush_total);
	gather_hist(r, r->trim_total);
	if (r->rated)
		gather_hist(r, r->resp_total);
}

/*
 * The span of the file(s) the reads went over.  In order: the share of the
 * file the reads done stand for.  Random: the distinct blocks read, so that
 * a block read twice counts once (rank 0 has every worker's reads done:
 * their union over a shared file, their sum over one file per rank).
 * NAN when the bitmap that needs could not be had.
 */
static double covered_bytes(struct runner *r, uint64_t ops)
{
	const struct run *run = r->run;
	const union optval *v = run->v;
	uint64_t ranks = (uint64_t)dist_size(), blocks = 0;

	if (!pattern_is_random(v[OPT_PATTERN].u)) {
		uint64_t planned = run->reads * (run->per_rank ? ranks : 1);

		if (ops > planned)
			ops = planned; /* time_based: the file once, however often it was read */
		return (double)run_region_bytes(run) * run->regions * (double)ops /
		       (double)planned * (double)(run->per_rank ? ranks : 1);
	}
	if (v[OPT_BSSPLIT].s || v[OPT_BSRANGE].s) {
		struct pattern p;
		char err[ERR_MAX];
		double bytes = 0;

		(void)plan_pattern(run, 0, 0, &p, err); /* the plan checked it */
		for (uint64_t k = 0; k < (run->per_rank ? ranks : 1); k++) {
			uint64_t c = pattern_mix_covered(&p, r->done + k * r->nw,
							 run->per_rank ? r->nw : r->nw * ranks);

			if (c == UINT64_MAX)
				return NAN;
			bytes += (double)c;
		}
		return bytes;
	}
	for (uint64_t k = 0; k < (run->per_rank ? ranks : 1); k++) {
		size_t n = run->per_rank ? r->nw : r->nw * ranks;
		uint64_t d = 0;

		/* a region per thread (offset_increment): each share is its region's */
		for (size_t i = 0; i < n && run->regions > 1 && d != UINT64_MAX; i++) {
			uint64_t per = run->reads / run->regions, from = r->done[k * r->nw + i].from;
			struct pattern_range one = { from % per, from % per + r->done[k * r->nw + i].to -
									from };
			uint64_t c = pattern_distinct_blocks_pct(
				v[OPT_PATTERN].u, run->region_len, v[OPT_BS].u, v[OPT_SEED].u,
				v[OPT_RANDOM_DISTRIBUTION].s, (unsigned)v[OPT_PERCENTAGE_RANDOM].u,
				&one, 1);

			d = c == UINT64_MAX ? c : d + c;
		}
		if (run->regions <= 1)
			d = pattern_distinct_blocks_pct(v[OPT_PATTERN].u, run_region_bytes(run),
							v[OPT_BS].u, v[OPT_SEED].u,
							v[OPT_RANDOM_DISTRIBUTION].s,
							(unsigned)v[OPT_PERCENTAGE_RANDOM].u,
							r->done + k * r->nw, n);
		if (d == UINT64_MAX)
			return NAN;
		blocks += d;
	}
	return (double)blocks * (double)v[OPT_BS].u;
}

/* The mean number of units in flight per thread over its time to end:
 * integrated over time, the number in flight is the sum of the time each
 * unit spent in flight, its latency (issue -> completion, a flush's too),
 * which the histograms already add up exactly: nothing more is read in the
 * timed loop.  Units that straddle the ends of the measured time (a ramp, a
 * stop) count whole or not at all: the figure is within one latency of
 * iodepth units of the time-weighted mean.  NAN when no time was measured. */
static double mean_depth(const struct runner *r, const struct repeat_result *rr)
{
	size_t n = dist_rank() == 0 ? (size_t)r->nw * (size_t)dist_size() : r->nw;
	double busy_ns = hist_mean(r->total) * (double)hist_count(r->total) +
			 hist_mean(r->flush_total) * (double)hist_count(r->flush_total);
	double time_s = 0;

	for (size_t k = 0; k < n; k++)
		time_s += rr->thread_time_s[k];
	return time_s > 0 ? busy_ns / 1e9 / time_s : NAN;
}

/* rr's latencies and response times, from the merged histograms, and the
 * per-direction and trim rates beside them (after fill_figures' times). */
static void fill_latencies(const struct runner *r, struct repeat_result *rr,
			   const struct tally *tl)
{
	const struct hist *h = r->total;

	rr->lat_min_ns = hist_min(h);
	rr->lat_mean_ns = hist_mean(h);
	rr->lat_p50_ns = hist_percentile(h, 50);
	rr->lat_p90_ns = hist_percentile(h, 90);
	rr->lat_p99_ns = hist_percentile(h, 99);
	rr->lat_p999_ns = hist_percentile(h, 99.9);
	rr->lat_max_ns = hist_max(h);
	for (int d = 0; d < IO_DIRS; d++) {
		const struct hist *hd = r->dir_total[d];

		rr->dir[d].lat_mean_ns = hist_mean(hd);
		rr->dir[d].lat_p50_ns = hist_percentile(hd, 50);
		rr->dir[d].lat_p99_ns = hist_percentile(hd, 99);
		rr->dir[d].lat_max_ns = hist_max(hd);
		if (rr->time_to_end_s > 0) {
			rr->dir[d].throughput_Bps = (double)rr->dir_bytes[d] / rr->time_to_end_s;
			rr->dir[d].iops = (double)rr->ops[d] / rr->time_to_end_s;
		}
	}
	rr->flush.lat_mean_ns = hist_mean(r->flush_total);
	rr->flush.lat_p50_ns = hist_percentile(r->flush_total, 50);
	rr->flush.lat_p99_ns = hist_percentile(r->flush_total, 99);
	rr->flush.lat_max_ns = hist_max(r->flush_total);
	rr->trim.lat_mean_ns = hist_mean(r->trim_total);
	rr->trim.lat_p50_ns = hist_percentile(r->trim_total, 50);
	rr->trim.lat_p99_ns = hist_percentile(r->trim_total, 99);
	rr->trim.lat_max_ns = hist_max(r->trim_total);
	if (rr->time_to_end_s > 0) {
		rr->trim.throughput_Bps = (double)rr->trim_bytes / rr->time_to_end_s;
		rr->trim.iops = (double)rr->trims / rr->time_to_end_s;
	}
	rr->resp_p50_ns = rr->resp_p90_ns = rr->resp_p99_ns = rr->resp_p999_ns = rr->resp_max_ns = NAN;
	rr->behind_schedule_s = rr->behind_max_s = rr->late_ops = NAN;
	if (r->rated) {
		rr->behind_max_s = (double)tl->max.behind_max / 1e9;
		rr->late_ops = (double)tl->add.late;
		rr->resp_p50_ns = (double)hist_percentile(r->resp_total, 50);
		rr->resp_p90_ns = (double)hist_percentile(r->resp_total, 90);
		rr->resp_p99_ns = (double)hist_percentile(r->resp_total, 99);
		rr->resp_p999_ns = (double)hist_percentile(r->resp_total, 99.9);
		rr->resp_max_ns = (double)hist_max(r->resp_total);
		rr->behind_schedule_s = (double)tl->max.behind / 1e9;
	}
}

/* rr's counts, times, rates and usage, added up over workers and ranks
 * (tl); its latencies are fill_latencies'. */
static void fill_figures(struct runner *r, struct repeat_result *rr, const struct tally *tl)
{
	for (int d = 0; d < IO_DIRS; d++) {
		rr->ops[d] = tl->add.ops[d];
		rr->dir_bytes[d] = tl->add.bytes[d];
	}
	rr->trims = tl->add.trims;
	rr->trim_bytes = tl->add.trim_bytes;
	rr->files_skipped = r->run->v[OPT_OPENDIR].s ? (double)tl->add.skipped : NAN;
	rr->dentries_before = rr->dentries_added = NAN; /* opendir's runner reads them */
	rr->inodes_before = rr->inodes_added = NAN;
	/* a trim moves no data, but it is a unit of the run: op=trim's throughput
	 * and IOPS are its trims' */
	rr->bytes = tl->add.bytes[IO_READ] + tl->add.bytes[IO_WRITE] + tl->add.trim_bytes;
	rr->sum = tl->add.sum;
	rr->interrupted = tl->max.interrupted;
	rr->runtime_limited = tl->max.runtime_limited;
	rr->cache_as_asked = !tl->max.not_as_asked;
	rr->resident_before = tl->resident[0];
	rr->resident_after = tl->resident[1];
	rr->time_to_end_s = tl->max.last > tl->first ? (double)(tl->max.last - tl->first) / 1e9 : 0;
	rr->start_skew_s = tl->max.first_last > tl->first_asked
				   ? (double)(tl->max.first_last - tl->first_asked) / 1e9 : 0;
	rr->first_done_s = tl->add.workers < 2 ? NAN
			   : tl->first_done > tl->first ? (double)(tl->first_done - tl->first) / 1e9
							: 0;
	if (rr->time_to_end_s > 0) {
		uint64_t ops = rr->ops[IO_READ] + rr->ops[IO_WRITE] + rr->trims;

		rr->throughput_Bps = (double)rr->bytes / rr->time_to_end_s;
		rr->iops = (double)ops / rr->time_to_end_s;
		rr->coverage_Bps = covered_bytes(r, ops - (rr->ops[IO_WRITE] ? rr->trims : 0)) /
				   rr->time_to_end_s;
	}
	rr->flushes = tl->add.flushes;
	rr->dirty_end_bytes = !r->writes || tl->max.dirty_unknown ? NAN : (double)tl->add.dirty;
	rr->dirty_system_wide = tl->max.dirty_system_wide;
	rr->mean_depth = mean_depth(r, rr);
	fill_latencies(r, rr, tl);
	rr->cpu_user_s = (double)tl->add.user_us / 1e6;
	rr->cpu_sys_s = (double)tl->add.sys_us / 1e6;
	rr->major_faults = tl->add.major;
	rr->minor_faults = tl->add.minor;
	rr->ctx_voluntary = tl->add.vcsw;
	rr->ctx_involuntary = tl->add.ivcsw;
}

/* a / b, or NAN for nothing moved the run's way */
static double ratio_or_nan(double a, uint64_t b)
{
	return b ? a / (double)b : NAN;
}

/* Point p's device figures, of slot k of n of the merged series: from the
 * sampler's samples at the slot's boundaries (the sample after the timed
 * part ends the last slot); NAN where one is missing, unreadable, or the
 * counters went backwards. */
static void series_point_device(const struct runner *r, struct series_point *p, unsigned k,
				unsigned n)
{
	uint64_t f = r->dev_iv_ns ? r->series->interval_ns / r->dev_iv_ns : 0;
	const struct devstat_sample *a, *b;
	uint64_t ta, tb;
	struct devstat_delta d;

	p->dev_ios = p->dev_bytes = p->dev_await_ns = p->dev_busy_s = p->dev_queue_depth = NAN;
	/* the samples on the series' grid: the series may have coarsened more */
	if (!r->dev_iv_ok || !r->dev_ok || f == 0 || f * r->dev_iv_ns != r->series->interval_ns ||
	    k * f >= r->ndev_iv)
		return;
	a = &r->dev_iv[k * f];
	ta = k ? r->dev_iv_t[k * f] : r->dev_ns[0];
	if ((k + 1) * f < r->ndev_iv) {
		b = &r->dev_iv[(k + 1) * f];
		tb = r->dev_iv_t[(k + 1) * f];
	} else if (k + 1 == n) {
		b = &r->dev_at[1];
		tb = r->dev_ns[1];
	} else {
		return;
	}
	if (devstat_diff(a, b, &d) < 0 || tb <= ta)
		return;
	p->dev_ios = (double)d.ios[p->dir];
	p->dev_bytes = (double)d.bytes[p->dir];
	p->dev_await_ns = ratio_or_nan((double)d.ticks_ms[p->dir] * 1e6, d.ios[p->dir]);
	p->dev_busy_s = (double)d.busy_ms / 1e3;
	p->dev_queue_depth = (double)d.queue_ms * 1e6 / (double)(tb - ta);
}

/* The series of the repeat, over its workers (not timed): for a repeat of
 * three intervals or more.  -1 on out of memory. */
static int fill_series(struct runner *r, struct repeat_result *rr)
{
	struct series *s = r->series;
	uint64_t interval = r->w[0].in.interval_ns;
	unsigned n;

	rr->series = NULL;
	rr->nseries = 0;
	/* three intervals of its timeline at least (a startdelay's are on it) */
	if (!s || rr->time_to_end_s * 1e9 + (double)r->w[0].in.delay_ns < 3.0 * (double)interval)
		return 0;
	series_start(s, 0, interval);
	for (unsigned t = 0; t < r->nw; t++)
		series_merge(s, r->w[t].series);
	n = series_used(s);
	rr->series = calloc((size_t)n * IO_DIRS, sizeof(*rr->series));
	if (!rr->series)
		return -1;
	rr->series_interval_s = (double)s->interval_ns / 1e9;
	rr->series_coarsened = s->coarsened;
	for (unsigned k = 0; k < n; k++)
		for (int d = 0; d < IO_DIRS; d++) {
			const struct series_slot *sl = &s->slot[k];
			struct series_point *p = &rr->series[rr->nseries];

			if (!rr->ops[d])
				continue; /* a direction the repeat did not do */
			p->start_s = (double)k * rr->series_interval_s;
			p->dir = d;
			p->ops = sl->ops[d];
			p->bytes = sl->bytes[d];
			p->lat_p50_ns = hist_percentile(sl->h[d], 50);
			p->lat_p99_ns = hist_percentile(sl->h[d], 99);
			p->lat_max_ns = hist_max(sl->h[d]);
			p->resident = sl->resident;
			series_point_device(r, p, k, n);
			p->resp_p99_ns = p->resp_max_ns = p->late_ops = NAN;
			if (sl->resp[d]) {
				p->resp_p99_ns = (double)hist_percentile(sl->resp[d], 99);
				p->resp_max_ns = (double)hist_max(sl->resp[d]);
				p->late_ops = (double)sl->late[d];
			}
			rr->nseries++;
		}
	return 0;
}

/* The device's figures of a repeat from its samples before and after the
 * timed part (runner.dev_at); NAN where there are none.  After the repeat's
 * bytes are added up. */
static void tally_device(const struct runner *r, struct repeat_result *rr)
{
	uint64_t elapsed_ns = r->dev_ns[1] - r->dev_ns[0];
	const uint64_t app[2] = { rr->dir_bytes[IO_READ], rr->dir_bytes[IO_WRITE] };
	struct devstat_delta d;
	uint64_t excess[2], explained[2] = { app[0], app[1] };

	/* a repeat cut short (a signal, runtime) leaves units in flight that the
	 * device completes and the run does not count: at most every unit of
	 * every worker (the loop's units are of bs at most) */
	if (rr->interrupted || rr->runtime_limited)
		for (int k = 0; k < 2; k++) {
			uint64_t unit = r->run->v[OPT_BS].u, n = (uint64_t)r->nw * r->w[0].eng.iodepth;

			if (__builtin_mul_overflow(unit, n, &unit) ||
			    __builtin_add_overflow(explained[k], unit, &explained[k]))
				explained[k] = UINT64_MAX;
		}
	rr->dev_reads = rr->dev_writes = rr->dev_read_bytes = rr->dev_write_bytes = NAN;
	rr->dev_read_merges = rr->dev_write_merges = rr->dev_busy_s = rr->dev_queue_depth = NAN;
	rr->dev_read_await_ns = rr->dev_write_await_ns = rr->dev_read_amp = NAN;
	rr->dev_write_amp = rr->dev_read_excess_bytes = rr->dev_write_excess_bytes = NAN;
	if (!r->dev_ok || devstat_diff(&r->dev_at[0], &r->dev_at[1], &d) < 0)
		return;
	devstat_excess(&d, explained, rr->ops[IO_READ], !r->direct, r->dev.readahead_bytes, excess);
	rr->dev_reads = (double)d.ios[0];
	rr->dev_writes = (double)d.ios[1];
	rr->dev_read_bytes = (double)d.bytes[0];
	rr->dev_write_bytes = (double)d.bytes[1];
	rr->dev_read_merges = (double)d.merges[0];
	rr->dev_write_merges = (double)d.merges[1];
	rr->dev_busy_s = (double)d.busy_ms / 1e3;
	rr->dev_queue_depth = elapsed_ns ? (double)d.queue_ms * 1e6 / (double)elapsed_ns : NAN;
	rr->dev_read_await_ns = ratio_or_nan((double)d.ticks_ms[0] * 1e6, d.ios[0]);
	rr->dev_write_await_ns = ratio_or_nan((double)d.ticks_ms[1] * 1e6, d.ios[1]);
	rr->dev_read_amp = ratio_or_nan((double)d.bytes[0], app[0]);
	rr->dev_write_amp = ratio_or_nan((double)d.bytes[1], app[1]);
	rr->dev_read_excess_bytes = (double)excess[0];
	rr->dev_write_excess_bytes = (double)excess[1];
}

/* Complete intervals of the merged series: those that ended before the
 * repeat's time did (a steady stop ends it just after a boundary). */
static unsigned complete_slots(const struct series *s, const struct repeat_result *rr,
			       uint64_t delay_ns, unsigned n)
{
	/* the timeline holds the job's startdelay before its time */
	double k = floor((rr->time_to_end_s * 1e9 + (double)delay_ns) / (double)s->interval_ns);

	return k < (double)n ? (unsigned)k : n;
}

/* The figures of slots [from, to) of dir (-1: both), from their counts and
 * latency histograms (h: scratch); NAN for a way nothing moved. */
static void window_figures(const struct series *s, unsigned from, unsigned to, int dir,
			   struct hist *h, struct window_figures *wf)
{
	double secs = (double)(to - from) * (double)s->interval_ns / 1e9;
	uint64_t ops = 0, bytes = 0;

	hist_reset(h);
	for (unsigned k = from; k < to; k++)
		for (int d = 0; d < IO_DIRS; d++)
			if (dir < 0 || d == dir) {
				ops += s->slot[k].ops[d];
				bytes += s->slot[k].bytes[d];
				hist_merge(h, s->slot[k].h[d]);
			}
	if (!ops) {
		*wf = (struct window_figures){ NAN, NAN, NAN, NAN, NAN };
		return;
	}
	wf->throughput_Bps = (double)bytes / secs;
	wf->iops = (double)ops / secs;
	wf->lat_mean_ns = hist_mean(h);
	wf->lat_p50_ns = (double)hist_percentile(h, 50);
	wf->lat_p99_ns = (double)hist_percentile(h, 99);
}

/* The attained window's headline figures, both directions and each. */
static int fill_window(const struct series *s, struct steady_result *st, unsigned end)
{
	unsigned from = end - (unsigned)s->watch->spec.window;
	struct hist *h = hist_new();

	if (!h)
		return -1;
	window_figures(s, from, end, -1, h, &st->win);
	for (int d = 0; d < IO_DIRS; d++)
		window_figures(s, from, end, d, h, &st->win_dir[d]);
	hist_free(h);
	return 0;
}

static void no_window(struct steady_result *st)
{
	st->win = (struct window_figures){ NAN, NAN, NAN, NAN, NAN };
	for (int d = 0; d < IO_DIRS; d++)
		st->win_dir[d] = st->win;
}

/* ss: the verdict over the complete intervals, as worker 0 judged them;
 * the attained window's figures are the repeat's headline (report_table). */
static int fill_steady(const struct series *s, unsigned n, struct repeat_result *rr)
{
	struct steady_result *st = &rr->steady;
	struct steady_verdict v;
	double iv_s = (double)s->interval_ns / 1e9;

	st->asked = true;
	st->crit = calloc(n ? n : 1, sizeof(*st->crit));
	if (!st->crit)
		return -1;
	st->ncrit = n;
	series_judge(s, n, &v, st->crit);
	st->attained = v.attained;
	st->window_end_s = v.end ? (double)v.end * iv_s : NAN;
	st->window_start_s = v.end ? (double)(v.end - s->watch->spec.window) * iv_s : NAN;
	st->mean = v.mean;
	st->ci95 = v.ci95;
	st->criterion = v.criterion;
	st->slope = v.slope;
	no_window(st);
	return v.attained ? fill_window(s, st, (unsigned)v.end) : 0;
}

/* Lasting changes of throughput and of mean latency, in order of time,
 * from the first interval that starts after the job's startdelay (the
 * ones before it are the group's timeline, not the job's: ioloop.c). */
static void fill_cliffs(const struct series *s, unsigned n, uint64_t delay_ns,
			struct repeat_result *rr)
{
	static const enum steady_metric metric[] = { [CLIFF_THROUGHPUT] = STEADY_BW,
						     [CLIFF_LATENCY] = STEADY_LAT };
	double y[SERIES_SLOTS], iv_s = (double)s->interval_ns / 1e9;
	struct steady_cliff c[REPEAT_CLIFFS];
	uint64_t skip = series_slots_before(delay_ns, s->interval_ns);
	unsigned m = skip < n ? n - (unsigned)skip : 0;

	rr->ncliffs = 0;
	for (int f = CLIFF_THROUGHPUT; f <= CLIFF_LATENCY; f++) {
		size_t nc;

		for (unsigned k = 0; k < m; k++)
			y[k] = series_value(&s->slot[skip + k], metric[f], -1, s->interval_ns);
		nc = steady_cliffs(y, m, c, REPEAT_CLIFFS - rr->ncliffs);
		for (size_t i = 0; i < nc; i++) {
			struct cliff_result *cr = &rr->cliffs[rr->ncliffs++];
			/* within the interval it happened in (steady_cliff_when): the
			 * bytes of its whole intervals before, and of that one the part
			 * moved at the old level, in proportion to the time */
			double when = (double)skip + steady_cliff_when(y, m, &c[i]);
			size_t whole = (size_t)when;
			double part = when - (double)whole;

			cr->figure = f;
			cr->at_s = when * (double)s->interval_ns / 1e9;
			cr->at_bytes = 0;
			for (size_t k = 0; k < whole; k++)
				cr->at_bytes += s->slot[k].bytes[IO_READ] + s->slot[k].bytes[IO_WRITE];
			if (whole < n && part > 0) {
				double b = (double)(s->slot[whole].bytes[IO_READ] +
						    s->slot[whole].bytes[IO_WRITE]);

				/* throughput: the old level for that share of the time */
				cr->at_bytes += (uint64_t)llround(
					f == CLIFF_THROUGHPUT ? fmin(b, part * c[i].before * iv_s)
							      : part * b);
			}
			cr->before = c[i].before;
			cr->after = c[i].after;
		}
	}
}

static int judge_series(struct runner *r, struct repeat_result *rr)
{
	unsigned n;

	memset(&rr->steady, 0, sizeof(rr->steady));
	no_window(&rr->steady);
	rr->ncliffs = 0;
	rr->cliff_stopped = false;
	if (!rr->series) {
		/* too short for a series (interrupted): asked, and nothing attained */
		rr->steady.asked = r->watch.steady;
		rr->steady.window_start_s = rr->steady.window_end_s = NAN;
		rr->steady.mean = rr->steady.ci95 = rr->steady.criterion = rr->steady.slope = NAN;
		no_window(&rr->steady);
		return 0;
	}
	n = complete_slots(r->series, rr, r->w[0].in.delay_ns, series_used(r->series));
	fill_cliffs(r->series, n, r->w[0].in.delay_ns, rr);
	/* worker 0's series watched (threads = 1, one rank: plan.c) */
	rr->cliff_stopped = r->watch.cliff && r->w[0].series && r->w[0].series->cliffed;
	return r->watch.steady ? fill_steady(r->series, n, rr) : 0;
}

int tally_repeat(struct runner *r, struct repeat_result *rr, uint64_t t0, uint64_t wall0,
		 const struct rusage *ru0, const struct rusage *ru1)
{
	struct tally tl;

	tally_local(r, rr, t0, wall0, ru0, ru1, &tl);
	tally_dirty(r, &tl);
	tally_ranks(r, rr, &tl);
	fill_figures(r, rr, &tl);
	tally_device(r, rr);
	if (fill_series(r, rr) < 0)
		return -1;
	return judge_series(r, rr);
}

