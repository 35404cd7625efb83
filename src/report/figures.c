/*
 * figures.c - the figure table and what is computed from it across repeats:
 * summaries and baseline ratios.
 */
#define _GNU_SOURCE
#include "report/figures.h"

#include "io/cache.h"
#include "lib/host.h"
#include "lib/units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define F(n, g, k, t, field, title, unit, scale) \
	{ n, g, k, offsetof(struct repeat_result, field), title, scale, t, unit }

const struct figure figure_table[] = {
	F("time_to_end_s", NULL, "time_to_end_s", FIG_DOUBLE, time_to_end_s,
	  "time to end", FU_SECONDS, 1),
	F("bytes", NULL, "bytes", FIG_U64, bytes, "bytes", FU_BYTES, 1),
	F("reads", NULL, "reads", FIG_U64, ops[IO_READ], "reads", FU_COUNT, 1),
	F("throughput_Bps", NULL, "throughput_Bps", FIG_DOUBLE, throughput_Bps,
	  "throughput", FU_RATE, 1),
	F("coverage_Bps", NULL, "coverage_Bps", FIG_DOUBLE, coverage_Bps, "coverage", FU_RATE, 1),
	F("iops", NULL, "iops", FIG_DOUBLE, iops, "IOPS", FU_PER_SECOND, 1),
	F("lat_min_ns", "lat_ns", "min", FIG_U64, lat_min_ns, "min latency", FU_SECONDS, 1e-9),
	F("lat_mean_ns", "lat_ns", "mean", FIG_DOUBLE, lat_mean_ns,
	  "mean latency", FU_SECONDS, 1e-9),
	F("lat_p50_ns", "lat_ns", "p50", FIG_U64, lat_p50_ns, "p50 latency", FU_SECONDS, 1e-9),
	F("lat_p90_ns", "lat_ns", "p90", FIG_U64, lat_p90_ns, "p90 latency", FU_SECONDS, 1e-9),
	F("lat_p99_ns", "lat_ns", "p99", FIG_U64, lat_p99_ns, "p99 latency", FU_SECONDS, 1e-9),
	F("lat_p99.9_ns", "lat_ns", "p99.9", FIG_U64, lat_p999_ns,
	  "p99.9 latency", FU_SECONDS, 1e-9),
	F("lat_max_ns", "lat_ns", "max", FIG_U64, lat_max_ns, "max latency", FU_SECONDS, 1e-9),
	F("resp_p50_ns", "response_ns", "p50", FIG_MAYBE, resp_p50_ns,
	  "p50 response time", FU_SECONDS, 1e-9),
	F("resp_p90_ns", "response_ns", "p90", FIG_MAYBE, resp_p90_ns,
	  "p90 response time", FU_SECONDS, 1e-9),
	F("resp_p99_ns", "response_ns", "p99", FIG_MAYBE, resp_p99_ns,
	  "p99 response time", FU_SECONDS, 1e-9),
	F("resp_p99.9_ns", "response_ns", "p99.9", FIG_MAYBE, resp_p999_ns,
	  "p99.9 response time", FU_SECONDS, 1e-9),
	F("resp_max_ns", "response_ns", "max", FIG_MAYBE, resp_max_ns,
	  "max response time", FU_SECONDS, 1e-9),
	F("behind_schedule_s", NULL, "behind_schedule_s", FIG_MAYBE, behind_schedule_s,
	  "behind schedule", FU_SECONDS, 1),
	F("behind_max_s", NULL, "behind_max_s", FIG_MAYBE, behind_max_s,
	  "most behind schedule", FU_SECONDS, 1),
	F("late_ops", NULL, "late_ops", FIG_MAYBE, late_ops, "issued late", FU_COUNT, 1),
	F("mean_depth", NULL, "mean_depth", FIG_MAYBE, mean_depth, "mean depth", FU_COUNT, 1),
	F("cpu_user_s", NULL, "cpu_user_s", FIG_DOUBLE, cpu_user_s, "user CPU", FU_SECONDS, 1),
	F("cpu_sys_s", NULL, "cpu_sys_s", FIG_DOUBLE, cpu_sys_s, "system CPU", FU_SECONDS, 1),
	F("major_faults", NULL, "major_faults", FIG_U64, major_faults, "major faults", FU_COUNT, 1),
	F("minor_faults", NULL, "minor_faults", FIG_U64, minor_faults, "minor faults", FU_COUNT, 1),
	F("ctx_voluntary", NULL, "ctx_voluntary", FIG_U64, ctx_voluntary,
	  "voluntary switches", FU_COUNT, 1),
	F("ctx_involuntary", NULL, "ctx_involuntary", FIG_U64, ctx_involuntary,
	  "involuntary switches", FU_COUNT, 1),
	F("resident_before", NULL, "resident_before", FIG_FRACTION, resident_before,
	  "cached before", FU_FRACTION, 1),
	F("resident_after", NULL, "resident_after", FIG_FRACTION, resident_after,
	  "cached after", FU_FRACTION, 1),
	F("start_skew_s", NULL, "start_skew_s", FIG_DOUBLE, start_skew_s,
	  "start skew", FU_SECONDS, 1),
	F("first_done_s", NULL, "first_done_s", FIG_MAYBE, first_done_s,
	  "first done", FU_SECONDS, 1),
	/* per direction (reads and writes of the same repeat), and the flushes */
	F("writes", NULL, "writes", FIG_U64, ops[IO_WRITE], "writes", FU_COUNT, 1),
	F("read_bytes", NULL, "read_bytes", FIG_U64, dir_bytes[IO_READ], "read bytes", FU_BYTES, 1),
	F("write_bytes", NULL, "write_bytes", FIG_U64, dir_bytes[IO_WRITE],
	  "write bytes", FU_BYTES, 1),
	F("read_throughput_Bps", NULL, "read_throughput_Bps", FIG_DOUBLE,
	  dir[IO_READ].throughput_Bps, "read throughput", FU_RATE, 1),
	F("write_throughput_Bps", NULL, "write_throughput_Bps", FIG_DOUBLE,
	  dir[IO_WRITE].throughput_Bps, "write throughput", FU_RATE, 1),
	F("read_iops", NULL, "read_iops", FIG_DOUBLE, dir[IO_READ].iops,
	  "read IOPS", FU_PER_SECOND, 1),
	F("write_iops", NULL, "write_iops", FIG_DOUBLE, dir[IO_WRITE].iops,
	  "write IOPS", FU_PER_SECOND, 1),
	F("read_lat_mean_ns", "read_lat_ns", "mean", FIG_DOUBLE, dir[IO_READ].lat_mean_ns,
	  "read mean latency", FU_SECONDS, 1e-9),
	F("read_lat_p50_ns", "read_lat_ns", "p50", FIG_U64, dir[IO_READ].lat_p50_ns,
	  "read p50 latency", FU_SECONDS, 1e-9),
	F("read_lat_p99_ns", "read_lat_ns", "p99", FIG_U64, dir[IO_READ].lat_p99_ns,
	  "read p99 latency", FU_SECONDS, 1e-9),
	F("read_lat_max_ns", "read_lat_ns", "max", FIG_U64, dir[IO_READ].lat_max_ns,
	  "read max latency", FU_SECONDS, 1e-9),
	F("write_lat_mean_ns", "write_lat_ns", "mean", FIG_DOUBLE, dir[IO_WRITE].lat_mean_ns,
	  "write mean latency", FU_SECONDS, 1e-9),
	F("write_lat_p50_ns", "write_lat_ns", "p50", FIG_U64, dir[IO_WRITE].lat_p50_ns,
	  "write p50 latency", FU_SECONDS, 1e-9),
	F("write_lat_p99_ns", "write_lat_ns", "p99", FIG_U64, dir[IO_WRITE].lat_p99_ns,
	  "write p99 latency", FU_SECONDS, 1e-9),
	F("write_lat_max_ns", "write_lat_ns", "max", FIG_U64, dir[IO_WRITE].lat_max_ns,
	  "write max latency", FU_SECONDS, 1e-9),
	F("flushes", NULL, "flushes", FIG_U64, flushes, "flushes", FU_COUNT, 1),
	F("flush_lat_mean_ns", "flush_lat_ns", "mean", FIG_DOUBLE, flush.lat_mean_ns,
	  "flush mean latency", FU_SECONDS, 1e-9),
	F("flush_lat_p50_ns", "flush_lat_ns", "p50", FIG_U64, flush.lat_p50_ns,
	  "flush p50 latency", FU_SECONDS, 1e-9),
	F("flush_lat_p99_ns", "flush_lat_ns", "p99", FIG_U64, flush.lat_p99_ns,
	  "flush p99 latency", FU_SECONDS, 1e-9),
	F("flush_lat_max_ns", "flush_lat_ns", "max", FIG_U64, flush.lat_max_ns,
	  "flush max latency", FU_SECONDS, 1e-9),
	/* op=trim, trimwrite: the discards (a trim is neither read nor written) */
	F("trims", NULL, "trims", FIG_U64, trims, "trims", FU_COUNT, 1),
	F("trim_bytes", NULL, "trim_bytes", FIG_U64, trim_bytes, "trim bytes", FU_BYTES, 1),
	F("trim_throughput_Bps", NULL, "trim_throughput_Bps", FIG_DOUBLE, trim.throughput_Bps,
	  "trim throughput", FU_RATE, 1),
	F("trim_iops", NULL, "trim_iops", FIG_DOUBLE, trim.iops, "trim IOPS", FU_PER_SECOND, 1),
	F("trim_lat_mean_ns", "trim_lat_ns", "mean", FIG_DOUBLE, trim.lat_mean_ns,
	  "trim mean latency", FU_SECONDS, 1e-9),
	F("trim_lat_p50_ns", "trim_lat_ns", "p50", FIG_U64, trim.lat_p50_ns,
	  "trim p50 latency", FU_SECONDS, 1e-9),
	F("trim_lat_p99_ns", "trim_lat_ns", "p99", FIG_U64, trim.lat_p99_ns,
	  "trim p99 latency", FU_SECONDS, 1e-9),
	F("trim_lat_max_ns", "trim_lat_ns", "max", FIG_U64, trim.lat_max_ns,
	  "trim max latency", FU_SECONDS, 1e-9),
	F("dirty_end_bytes", NULL, "dirty_end_bytes", FIG_MAYBE, dirty_end_bytes,
	  "dirty at end", FU_BYTES, 1),
	F("verified_bytes", NULL, "verified_bytes", FIG_U64, verified_bytes,
	  "verified", FU_BYTES, 1),
	/* opendir: files not read, and the dentry and inode caches (null otherwise) */
	F("files_skipped", "tree", "files_skipped", FIG_MAYBE, files_skipped,
	  "files skipped", FU_COUNT, 1),
	F("dentries_before", "tree", "dentries_before", FIG_MAYBE, dentries_before,
	  "dentries before", FU_COUNT, 1),
	F("dentries_added", "tree", "dentries_added", FIG_MAYBE, dentries_added,
	  "dentries added", FU_COUNT, 1),
	F("inodes_before", "tree", "inodes_before", FIG_MAYBE, inodes_before,
	  "inodes before", FU_COUNT, 1),
	F("inodes_added", "tree", "inodes_added", FIG_MAYBE, inodes_added,
	  "inodes added", FU_COUNT, 1),
	/* what the block device under the file did (null: no block device) */
	F("dev_reads", "device", "reads", FIG_MAYBE, dev_reads, "device reads", FU_COUNT, 1),
	F("dev_writes", "device", "writes", FIG_MAYBE, dev_writes, "device writes", FU_COUNT, 1),
	F("dev_read_bytes", "device", "read_bytes", FIG_MAYBE, dev_read_bytes,
	  "device read bytes", FU_BYTES, 1),
	F("dev_write_bytes", "device", "write_bytes", FIG_MAYBE, dev_write_bytes,
	  "device write bytes", FU_BYTES, 1),
	F("dev_read_merges", "device", "read_merges", FIG_MAYBE, dev_read_merges,
	  "device read merges", FU_COUNT, 1),
	F("dev_write_merges", "device", "write_merges", FIG_MAYBE, dev_write_merges,
	  "device write merges", FU_COUNT, 1),
	F("dev_busy_s", "device", "busy_s", FIG_MAYBE, dev_busy_s, "device busy", FU_SECONDS, 1),
	F("dev_queue_depth", "device", "queue_depth", FIG_MAYBE, dev_queue_depth,
	  "device queue depth", FU_COUNT, 1),
	F("dev_read_await_ns", "device", "read_await_ns", FIG_MAYBE, dev_read_await_ns,
	  "device read await", FU_SECONDS, 1e-9),
	F("dev_write_await_ns", "device", "write_await_ns", FIG_MAYBE, dev_write_await_ns,
	  "device write await", FU_SECONDS, 1e-9),
	F("dev_read_amp", "device", "read_amp", FIG_MAYBE, dev_read_amp,
	  "device/app read bytes", FU_COUNT, 1),
	F("dev_write_amp", "device", "write_amp", FIG_MAYBE, dev_write_amp,
	  "device/app write bytes", FU_COUNT, 1),
	F("dev_read_excess_bytes", "device", "read_excess_bytes", FIG_MAYBE, dev_read_excess_bytes,
	  "device reads unexplained", FU_BYTES, 1),
	F("dev_write_excess_bytes", "device", "write_excess_bytes", FIG_MAYBE,
	  dev_write_excess_bytes, "device writes unexplained", FU_BYTES, 1),
	/* ss: the attained steady window's figures, the headline of such a run
	 * (null: no ss, or not attained) */
	/* a window's figure sits at the window's offset (base) plus its own in
	 * struct window_figures: two offsetof, since a macro argument cannot be
	 * parenthesized in front of ".field" */
#define W(pre, key, base, field, title, unit, scale)                                    \
	{ "steady_" pre key, "steady_window", pre key,                                  \
	  (base) + offsetof(struct window_figures, field), title, scale, FIG_MAYBE, unit }
#define WINDOW(pre, part, what)                                                         \
	W(pre, "throughput_Bps", offsetof(struct repeat_result, part), throughput_Bps,  \
	  "steady " what "throughput", FU_RATE, 1),                                     \
	W(pre, "iops", offsetof(struct repeat_result, part), iops,                      \
	  "steady " what "IOPS", FU_PER_SECOND, 1),                                     \
	W(pre, "lat_mean_ns", offsetof(struct repeat_result, part), lat_mean_ns,        \
	  "steady " what "mean latency", FU_SECONDS, 1e-9),                             \
	W(pre, "lat_p50_ns", offsetof(struct repeat_result, part), lat_p50_ns,          \
	  "steady " what "p50 latency", FU_SECONDS, 1e-9),                              \
	W(pre, "lat_p99_ns", offsetof(struct repeat_result, part), lat_p99_ns,          \
	  "steady " what "p99 latency", FU_SECONDS, 1e-9)
	WINDOW("", steady.win, ""),
	WINDOW("read_", steady.win_dir[IO_READ], "read "),
	WINDOW("write_", steady.win_dir[IO_WRITE], "write "),
#undef WINDOW
#undef W
};

const size_t figure_count = sizeof(figure_table) / sizeof(figure_table[0]);

int figure_better(const struct figure *f)
{
	switch (f->unit) {
	case FU_RATE:
	case FU_PER_SECOND:
		return 1;
	case FU_SECONDS:
		return -1;
	default:
		return 0;
	}
}

const struct figure *figure_find(const char *name)
{
	for (size_t i = 0; i < figure_count; i++)
		if (strcmp(figure_table[i].name, name) == 0)
			return &figure_table[i];
	return NULL;
}

void figure_format(const struct figure *f, double value, char *buf, size_t n)
{
	double x = value * f->scale;

	switch (f->unit) {
	case FU_SECONDS:
		units_fmt_seconds(x, buf, n);
		break;
	case FU_RATE:
		units_fmt_rate(x, buf, n);
		break;
	case FU_BYTES:
		units_fmt_bytes(x, buf, n);
		break;
	case FU_FRACTION:
		snprintf(buf, n, "%.0f%%", x * 100);
		break;
	case FU_PER_SECOND:
	case FU_COUNT:
		units_fmt_count(x, buf, n);
		break;
	}
}

double figure_value(const struct figure *f, const struct repeat_result *rr)
{
	const char *p = (const char *)rr + f->offset;

	/* f->offset is offsetof() a field of this type: the casts are exact */
	if (f->type == FIG_U64)
		return (double)*(const uint64_t *)p;
	// cppcheck-suppress invalidPointerCast
	return *(const double *)p;
}

bool figure_known(const struct figure *f, const struct repeat_result *rr)
{
	if (f->type == FIG_MAYBE)
		return !isnan(figure_value(f, rr));
	return f->type != FIG_FRACTION || figure_value(f, rr) >= 0;
}

/* Whether a repeat ran to its end (or to its runtime): the one test. */
static bool figure_completed(const struct repeat_result *rr)
{
	return !rr->interrupted;
}

size_t figure_ncompleted(const struct run_result *res)
{
	size_t n = 0;

	for (size_t i = 0; i < res->nrep; i++)
		n += figure_completed(&res->rep[i]);
	return n;
}

const struct repeat_result *figure_completed_at(const struct run_result *res, size_t k)
{
	for (size_t i = 0; i < res->nrep; i++)
		if (figure_completed(&res->rep[i]) && k-- == 0)
			return &res->rep[i];
	return NULL;
}

void figure_summary(const struct figure *f, const struct run_result *res, struct summary *out)
{
	double x[res->nrep ? res->nrep : 1];
	size_t n = 0;

	for (size_t i = 0; i < res->nrep; i++)
		if (figure_completed(&res->rep[i]) && figure_known(f, &res->rep[i]))
			x[n++] = figure_value(f, &res->rep[i]);
	stats_summarize(x, n, out);
}

/* The job whose runs res is compared with: its own baseline option, else its
 * own job when that is some other job's baseline; NULL when neither. */
static const char *baseline_job(const struct run_result *res, const struct plan *plan)
{
	const struct job *job = res->run->job;

	if (job->opt[OPT_BASELINE].n)
		return job->opt[OPT_BASELINE].v[0].s;
	for (size_t i = 0; i < plan->n; i++) {
		const struct job_value *b = &plan->runs[i].job->opt[OPT_BASELINE];

		/* a job's runs are consecutive: look at each job once */
		if (i && plan->runs[i].job == plan->runs[i - 1].job)
			continue;
		if (b->n && strcmp(b->v[0].s, job->name) == 0)
			return job->name;
	}
	return NULL;
}

/* Whether run b of the baseline job has res's values of the parameters that
 * tell b's runs apart and that res's job sets too. */
static bool same_shared(const struct run_result *b, const struct run_result *res)
{
	const struct job *bj = b->run->job, *rj = res->run->job;

	for (int o = 0; o < OPT__COUNT; o++)
		if (bj->opt[o].n > 1 && rj->opt[o].n > 0 && !option_table[o].per_job &&
		    !option_value_equal(o, b->run->v[o], res->run->v[o]))
			return false;
	return true;
}

const struct run_result *figure_baseline(const struct run_result *res, const struct plan *plan,
					 const struct run_result *results, size_t n)
{
	const char *job = baseline_job(res, plan);
	bool own = job && strcmp(job, res->run->job->name) == 0;
	const struct run_result *first = NULL;

	for (size_t i = 0; job && i < n; i++) {
		const struct run_result *b = &results[i];

		if (!b->run || !figure_ncompleted(b) || strcmp(b->run->job->name, job) != 0)
			continue;
		if (!first)
			first = b;
		/* the baseline job's own runs are compared with its first */
		if (!own && same_shared(b, res))
			return b;
	}
	return first;
}

double figure_speedup(const struct run_result *res, const struct run_result *base)
{
	const struct figure *tte = &figure_table[0];
	struct summary a, b;

	if (!base || !figure_ncompleted(res))
		return 0;
	figure_summary(tte, res, &a);
	figure_summary(tte, base, &b);
	return a.median > 0 ? b.median / a.median : 0;
}

double figure_interval_pct(size_t n, double median, double lo, double hi)
{
	if (n < 2 || !(median > 0))
		return NAN;
	return 100 * fmax(hi - median, median - lo) / median;
}

double figure_spread_pct(const struct summary *s, bool *range)
{
	double pct = figure_interval_pct(s->n, s->median, s->has_ci ? s->ci95_low : s->min,
					 s->has_ci ? s->ci95_high : s->max);

	if (!isnan(pct))
		*range |= !s->has_ci;
	return pct;
}

bool figure_cold_from_host(const struct run_result *res)
{
	uint64_t policy = res->run->v[OPT_CACHE].u;
	bool evicts = policy == CACHE_FADVISE || policy == CACHE_DROP, cold = false;

	/* reads fault in the pages of the blocks not cached; buffered writes
	 * take fresh pages for them, which the host may have taken back just
	 * the same (issue 28: the same buffered write measured 500 MB/s or
	 * 5.7 GB/s on the development VM, by what ran just before it): both
	 * directions are */
	if (policy == CACHE_DIRECT || !host_returns_freed_pages())
		return false;
	/* a repeat measured, and its file not all cached before it: as measured,
	 * or, where that could not be known, as its policy meant it */
	for (size_t i = 0; i < res->nrep; i++)
		cold |= figure_completed(&res->rep[i]) &&
			(res->rep[i].resident_before >= 0 ? res->rep[i].resident_before < 0.99
							  : evicts);
	return cold;
}
