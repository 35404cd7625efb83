/*
 * report_table.c - the human report: one row per run, aligned.
 *
 * Only the parameters that vary across the plan get columns; the others
 * are said once above the table.  Figures are medians over the measured
 * repeats, time to end with the same spread as `compare` shows (its 95%
 * confidence interval, or min..max for few repeats, in % of the median), in
 * human units.  Rows are printed at the end (also after an interruption) so the
 * columns can be aligned; JSON and CSV are the incremental formats.
 */
#define _GNU_SOURCE
#include <math.h>
#include <string.h>

#include "io/cache.h"
#include "io/engines/engine.h"
#include "io/ioloop.h"
#include "io/steady.h"
#include "lib/error.h"
#include "lib/stats.h"
#include "lib/texttable.h"
#include "lib/units.h"
#include "report/figures.h"
#include "report/plan_text.h"
#include "report/report.h"

struct columns {
	bool job, baseline, consume, dirty;
	bool group; /* some run is in a group: NAME RUN, the block of rows it shares */
	bool device; /* the dev/app column (dropped when the table would be too wide) */
	bool mixed; /* some run is op=readwrite: its cells are per direction */
	bool timed; /* some run is time_based: its time is the runtime, not a time to end */
	bool depth; /* some run's engine queues: the mean depth it had */
	bool rated; /* some run has a rate limit: response time, late I/Os, behind */
	bool steady; /* some run asks for a steady state (ss): its verdict and window */
};

static bool run_rated(const struct run *run)
{
	return run->v[OPT_RATE].u || run->v[OPT_RATE_IOPS].u;
}

static void find_columns(const struct report *r, struct columns *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < r->plan->n; i++) {
		const struct run *run = &r->plan->runs[i];

		c->job |= run->job != r->plan->runs[0].job;
		c->group |= run->group != NULL;
		c->baseline |= run->job->opt[OPT_BASELINE].n > 0;
		c->consume |= run->v[OPT_CONSUME].u != CONSUME_NONE;
		c->timed |= run->v[OPT_TIME_BASED].u == FLAG_ON;
		c->depth |= (engine_find(option_table[OPT_ENGINE].values[run->v[OPT_ENGINE].u])->flags &
			     ENGINE_QUEUED) != 0;
		c->rated |= run_rated(run);
		c->steady |= run->v[OPT_SS].s != NULL;
	}
	c->dirty = r->plan->writes;
	c->mixed = r->plan->mixed;
}

static double median_of(const char *figure, const struct run_result *res)
{
	struct summary s;

	figure_summary(figure_find(figure), res, &s);
	return s.median;
}

static void header(struct texttable *t, const struct report *r, const struct columns *c)
{
	tt_add(t, "#");
	if (c->job)
		tt_add(t, "job");
	if (c->group)
		tt_add(t, "group");
	for (int i = 0; i < OPT__COUNT; i++)
		if (plan_column(r->plan, i))
			tt_add(t, "%s", option_table[i].name);
	tt_add(t, c->timed ? "time" : "time to end");
	if (c->steady)
		tt_add(t, "steady");
	tt_add(t, "throughput");
	tt_add(t, "IOPS");
	tt_add(t, "p50");
	tt_add(t, "p99");
	if (c->rated) {
		tt_add(t, "resp p99");
		tt_add(t, "late");
		tt_add(t, "behind");
	}
	if (c->depth)
		tt_add(t, "depth");
	tt_add(t, "cached");
	if (c->device)
		tt_add(t, "dev/app");
	if (c->dirty)
		tt_add(t, "dirty");
	if (c->baseline)
		tt_add(t, "vs baseline");
	if (c->consume)
		tt_add(t, "checksum");
}

/* Whether the plan has more than one run of job: then a ratio must say
 * which of them it is against. */
static bool several_runs(const struct plan *plan, const struct job *job)
{
	size_t n = 0;

	for (size_t i = 0; i < plan->n && n < 2; i++)
		n += plan->runs[i].job == job;
	return n > 1;
}

/* "2.10× slower vs 0": the ratio to the baseline run, named by its number
 * when the baseline job has several; "baseline" on the run the others of its
 * job are compared with. */
static void ratio_text(const struct report *r, const struct run_result *res, char *buf, size_t n)
{
	const struct run_result *base = figure_baseline(res, r->plan, r->results, r->ndone);
	double x = figure_speedup(res, base);
	char vs[32] = "";

	if (!base) {
		snprintf(buf, n, "%s", res->run->job->opt[OPT_BASELINE].n ? "n/a" : "");
		return;
	}
	if (several_runs(r->plan, base->run->job))
		snprintf(vs, sizeof(vs), " vs %zu", base->run->index);
	if (base == res)
		snprintf(buf, n, "%s", "baseline");
	else if (x <= 0)
		snprintf(buf, n, "n/a%s", vs);
	else if (x >= 1)
		snprintf(buf, n, "%.*f× faster%s", x >= 10 ? 1 : 2, x, vs);
	else
		snprintf(buf, n, "%.*f× slower%s", 1 / x >= 10 ? 1 : 2, 1 / x, vs);
}

/* The page cache before the repeats: the residency of the file, as one
 * value when every repeat saw the same, else as min–max; `?` when it could
 * not be read for any; `!` when a repeat did not start as the policy asks. */
static void cached_text(const struct run_result *res, struct report_legend *lg, char *buf, size_t n)
{
	double lo = INFINITY, hi = -1;
	bool missed = false;

	/* O_DIRECT reads bypass the page cache: what it holds says nothing of them */
	if (res->run->v[OPT_CACHE].u == CACHE_DIRECT) {
		snprintf(buf, n, "%s", "bypassed");
		return;
	}
	/* a phase of a tree with no file bytes to find cached (run.c) */
	if (res->run->v[OPT_TREE].s && res->run->v[OPT_CACHE].u != CACHE_DROP &&
	    (md_op_needs(run_md_op(res->run)) != MD_FILES || !res->run->v[OPT_SIZE].u)) {
		snprintf(buf, n, "%s", "-");
		return;
	}
	/* a dropped tree's is not read (run.c); its dentries tell (tree_notes) */
	if ((res->run->v[OPT_OPENDIR].s || res->run->v[OPT_TREE].s) &&
	    res->run->v[OPT_CACHE].u == CACHE_DROP) {
		for (size_t k = 0; k < res->nrep; k++)
			missed |= !res->rep[k].cache_as_asked;
		lg->missed |= missed;
		snprintf(buf, n, "dropped%s", missed ? " !" : "");
		return;
	}
	for (size_t k = 0; k < res->nrep; k++) {
		double x = res->rep[k].resident_before;

		missed |= !res->rep[k].cache_as_asked;
		if (x < 0)
			continue;
		lo = fmin(lo, round(100 * x));
		hi = fmax(hi, round(100 * x));
	}
	lg->missed |= missed;
	if (hi < 0) {
		lg->unknown = true;
		snprintf(buf, n, "%s", "?");
	} else if (lo == hi) {
		snprintf(buf, n, "%.0f%%%s", lo, missed ? " !" : "");
	} else {
		snprintf(buf, n, "%.0f–%.0f%%%s", lo, hi, missed ? " !" : "");
	}
}

/* " (2 of 3)" when a figure is over fewer completed repeats than asked. */
static const char *repeats_text(const struct run_result *res, char *buf, size_t n)
{
	size_t done = figure_ncompleted(res), asked = (size_t)plan_repeats(res->run);

	if (done >= asked)
		return "";
	snprintf(buf, n, " (%zu of %zu)", done, asked);
	return buf;
}

/* The median share of the bytes written that were still only in memory
 * (dirty or under writeback) when a repeat ended; < 0: unknown or no writes. */
static double dirty_share(const struct run_result *res)
{
	double bytes = median_of("write_bytes", res), dirty = median_of("dirty_end_bytes", res);

	if (bytes <= 0 || !figure_known(figure_find("dirty_end_bytes"), &res->rep[0]))
		return -1;
	return dirty < bytes ? dirty / bytes : 1;
}

static const char *dirty_text(const struct run_result *res, char *buf, size_t n)
{
	double share = dirty_share(res);

	if (res->run->v[OPT_TREE].s && run_md_op(res->run) != MD_CREATE)
		return "-"; /* a phase that writes no data */
	if (res->memory_fs && res->run->v[OPT_OP].u != OP_READ)
		return res->memory_fs; /* all of it, whatever the page cache says */
	if (share < 0)
		return res->run->v[OPT_OP].u == OP_READ ? "" : "?";
	snprintf(buf, n, "%.0f%%%s", 100 * share, res->rep[0].dirty_system_wide ? " sys" : "");
	return buf;
}

/* The repeats of res whose steady state was attained (ss). */
static size_t steady_count(const struct run_result *res)
{
	struct summary s;

	figure_summary(figure_find("steady_iops"), res, &s);
	return s.n;
}

/* A figure's median in its unit, and with spread (a steady window's, over
 * the repeats that attained one) the spread over them as the time's: "1.2
 * GB/s ± 3%". */
static void figure_text(const char *name, const struct run_result *res, bool spread, char *buf,
			size_t n)
{
	const struct figure *f = figure_find(name);
	struct summary s;
	bool range = false;
	double pct;
	char a[48];

	figure_summary(f, res, &s);
	figure_format(f, s.median, a, sizeof(a));
	pct = spread ? figure_spread_pct(&s, &range) : NAN;
	if (isnan(pct))
		snprintf(buf, n, "%s", a);
	else
		snprintf(buf, n, "%s ± %.0f%%%s", a, pct, range ? " ¹" : "");
}

/* The median of a figure in its unit; for a readwrite run each
 * direction's, compactly: "r 36.2 MB/s w 84.1 MB/s" (the figure of both
 * together mixes two kinds of I/O).  A run with a steady window shows the
 * window's figures (steady_*), never the whole repeat's in their place. */
static void figure_cell(struct texttable *t, const struct run_result *res, const char *name)
{
	char a[64], b[64], dir[64];
	bool window = steady_count(res) > 0;
	const char *pre = window ? "steady_" : "";
	/* the spread on the rates only: the latencies' would not fit */
	bool spread = window && strstr(name, "lat_") != name;

	if (res->run->v[OPT_OP].u != OP_READWRITE) {
		snprintf(dir, sizeof(dir), "%s%s", pre, name);
		figure_text(dir, res, spread, a, sizeof(a));
		tt_add(t, "%s", a);
		return;
	}
	snprintf(dir, sizeof(dir), "%sread_%s", pre, name);
	figure_text(dir, res, spread, a, sizeof(a));
	snprintf(dir, sizeof(dir), "%swrite_%s", pre, name);
	figure_text(dir, res, spread, b, sizeof(b));
	tt_add(t, "r %s w %s", a, b);
}

/* ss: "steady (window 240–300 s)" when every completed repeat attained the
 * same window, "steady in 2 of 3 (window 240–300 s, …)" (the earliest and
 * the latest) otherwise, "not steady" when none did; blank without ss. */
static void steady_text(const struct run_result *res, char *buf, size_t n)
{
	double lo = INFINITY, hi = -INFINITY, first_end = NAN;
	size_t done = figure_ncompleted(res), got = 0;
	bool same = true;
	char of[64] = "";

	buf[0] = '\0';
	if (!res->run->v[OPT_SS].s)
		return;
	for (size_t k = 0; k < res->nrep; k++) {
		const struct steady_result *st = &res->rep[k].steady;

		if (res->rep[k].interrupted || !st->attained)
			continue;
		if (!got++)
			first_end = st->window_end_s;
		same &= st->window_end_s == first_end;
		lo = fmin(lo, st->window_start_s);
		hi = fmax(hi, st->window_end_s);
	}
	if (!got) {
		snprintf(buf, n, "%s", "not steady");
		return;
	}
	if (got < done)
		snprintf(of, sizeof(of), " in %zu of %zu", got, done);
	if (same)
		snprintf(buf, n, "steady%s (window %g–%g s)", of, lo, hi);
	else
		snprintf(buf, n, "steady%s (windows %g…%g s)", of, lo, hi);
}

/* The device's bytes over the run's, per direction the run moved: "1.00×",
 * "r 1.00× w 2.10×"; "-" where the device's counters are not known. */
static void device_text(const struct run_result *res, char *buf, size_t n)
{
	static const char *const names[2] = { "dev_read_amp", "dev_write_amp" };
	const struct repeat_result *rr = figure_completed_at(res, 0);
	size_t len = 0;
	bool both = rr && rr->ops[IO_READ] && rr->ops[IO_WRITE];

	buf[0] = '\0';
	for (int d = 0; rr && d < 2 && len < n; d++) {
		const struct figure *f = figure_find(names[d]);
		struct summary s;

		figure_summary(f, res, &s);
		if (!s.n)
			continue;
		len += (size_t)snprintf(buf + len, n - len, "%s%s%.2f×", len ? " " : "",
					both ? (d ? "w " : "r ") : "", s.median);
	}
	if (!buf[0])
		snprintf(buf, n, "%s", "-");
}

/* A rated run's response-time p99, the I/Os issued more than 1 ms after
 * they were due, and the most any was behind; blank for a run without. */
static void rate_cells(struct texttable *t, const struct run_result *res)
{
	static const char *const names[] = { "resp_p99_ns", "late_ops", "behind_max_s" };
	char a[64];

	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		const struct figure *f = figure_find(names[k]);

		if (!run_rated(res->run)) {
			tt_add(t, "%s", "");
			continue;
		}
		figure_format(f, median_of(names[k], res), a, sizeof(a));
		tt_add(t, "%s", a);
	}
}

/* Repeats of a job of a group that the group's end rule cut. */
static size_t group_cuts(const struct run_result *res)
{
	size_t n = 0;

	for (size_t k = 0; k < res->nrep; k++)
		n += res->rep[k].group_cut;
	return n;
}

/* Whether run reads what consume consumes: a tree's phases other than read
 * read no data. */
static bool consumes(const struct run *run)
{
	return !run->v[OPT_TREE].s || run_md_op(run) == MD_READ;
}

/* The group cell: the group and which of its runs ("pair 1"), the rows of
 * one group run side by side; "cut" when the group's end cut the job. */
static void group_cell(struct texttable *t, const struct run_result *res)
{
	const struct run *run = res->run;

	if (!run->group)
		tt_add(t, "%s", "");
	else
		tt_add(t, "%s %zu%s", run->group, run->group_run, group_cuts(res) ? " cut" : "");
}

static void row(struct texttable *t, const struct report *r, const struct columns *c,
		const struct run_result *res, struct report_legend *lg)
{
	const struct run *run = res->run;
	char a[64], b[64], val[512];
	struct summary tte;
	double pct;

	tt_add(t, "%zu", run->index);
	if (c->job)
		tt_add(t, "%s", run->job->name);
	if (c->group)
		group_cell(t, res);
	for (int i = 0; i < OPT__COUNT; i++)
		if (plan_column(r->plan, i))
			tt_add(t, "%s", plan_cell(run, i, val, sizeof(val)));
	if (figure_ncompleted(res) == 0) {
		tt_add(t, "%s", res->failed ? "failed" : res->nrep ? "interrupted" : "not run");
		for (int k = 0; k < 5 + c->steady + c->device + 3 * c->rated + c->depth + c->dirty +
					    c->baseline + c->consume;
		     k++)
			tt_add(t, "%s", "");
		return;
	}
	figure_summary(figure_find("time_to_end_s"), res, &tte);
	units_fmt_seconds(tte.median, a, sizeof(a));
	pct = figure_spread_pct(&tte, &lg->range);
	if (isnan(pct))
		b[0] = '\0';
	else
		snprintf(b, sizeof(b), " ± %.0f%%%s%s", pct, tte.has_ci ? "" : " ¹",
			 pct > 100 ? " ²" : "");
	lg->wide |= pct > 100;
	tt_add(t, "%s%s%s%s", a, b, repeats_text(res, val, sizeof(val)),
	       res->failed || res->interrupted ? " !" : "");
	if (c->steady) {
		steady_text(res, val, sizeof(val));
		tt_add(t, "%s", val);
	}
	if (run->v[OPT_TREE].s && !run->bytes)
		tt_add(t, "-"); /* a phase that moves no data */
	else
		figure_cell(t, res, "throughput_Bps");
	figure_cell(t, res, "iops");
	figure_cell(t, res, "lat_p50_ns");
	figure_cell(t, res, "lat_p99_ns");
	if (c->rated)
		rate_cells(t, res);
	if (c->depth)
		tt_add(t, "%.1f", median_of("mean_depth", res));
	cached_text(res, lg, a, sizeof(a));
	tt_add(t, "%s", a);
	if (c->device) {
		device_text(res, a, sizeof(a));
		tt_add(t, "%s", a);
	}
	if (c->dirty)
		tt_add(t, "%s", dirty_text(res, a, sizeof(a)));
	if (c->baseline) {
		ratio_text(r, res, a, sizeof(a));
		tt_add(t, "%s", a);
	}
	if (c->consume && !consumes(run)) {
		tt_add(t, "-");
	} else if (c->consume) {
		report_consume_text(run, figure_completed_at(res, 0)->sum, a, sizeof(a));
		tt_add(t, "%s", a);
	}
}

/* Ranks of a multi-host run finish at different times: first-done,
 * median and last-done of the middle completed repeat, and who was last
 * (nothing for a run without one: its row says interrupted). */
static void rank_spread(FILE *f, const struct report *r, const struct run_result *res)
{
	const struct repeat_result *rr = figure_completed_at(res, figure_ncompleted(res) / 2);
	char a[32], b[32], c[32];
	struct summary s;
	int last = 0;
	const char *host;

	if (!rr)
		return;
	for (int k = 1; k < r->ranks; k++)
		if (rr->rank_time_s[k] > rr->rank_time_s[last])
			last = k;
	host = json_string_value(json_array_get(r->rank_hosts, (size_t)last));
	stats_summarize(rr->rank_time_s, (size_t)r->ranks, &s);
	units_fmt_seconds(s.min, a, sizeof(a));
	units_fmt_seconds(s.median, b, sizeof(b));
	units_fmt_seconds(s.max, c, sizeof(c));
	fprintf(f, "run %zu: %d ranks, time to end of each: first done %s, median %s, "
		   "last done %s (rank %d on %s)\n", res->run->index, r->ranks, a, b, c, last,
		host ? host : "?");
}

/* How far an interrupted plan got: the runs done whole, and those the signal
 * cut short (written, marked interrupted: their rows say so). */
static void interrupted_note(FILE *f, const struct report *r)
{
	size_t cut = 0;

	for (size_t i = 0; i < r->ndone; i++)
		cut += r->results[i].interrupted;
	fprintf(f, "interrupted: %zu of %zu runs done", r->ndone - cut, r->plan->n);
	if (cut)
		fprintf(f, ", %zu cut short (marked interrupted)", cut);
	fputc('\n', f);
}

/* Once for the table: the runs whose cold buffered reads or writes got their
 * pages back from the host (figure_cold_from_host). */
static void cold_from_host_note(FILE *f, const struct report *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->ndone; i++) {
		size_t j = i;

		if (!figure_cold_from_host(&r->results[i]))
			continue;
		/* consecutive runs as a range: "runs 0-9, 12" */
		while (j + 1 < r->ndone && figure_cold_from_host(&r->results[j + 1]))
			j++;
		fprintf(f, "%s%zu", n++ ? ", " : j > i ? "runs " : "run ", r->results[i].run->index);
		if (j > i)
			fprintf(f, "-%zu", r->results[j].run->index);
		i = j;
	}
	if (n)
		fputs(": cold buffered reads or writes on a VM whose balloon returns freed "
		      "pages to the host\n  (virtio free page reporting): the pages they read "
		      "into or write come back from host\n  memory, so these figures are not the "
		      "disk's alone; cache=direct reads and writes the disk alone\n", f);
}

/* Start skew above this share of the time to end is worth a note. */
#define SKEW_NOTED 0.05
/* A run whose first worker was done before this share of its time to end
 * (medians over the repeats) is noted: the rest of the time fewer ran. */
#define FIRST_DONE_NOTED 0.8

static void first_done_note(FILE *f, const struct run_result *res)
{
	double first, last = median_of("time_to_end_s", res);
	struct summary s;
	char a[32], b[32];

	figure_summary(figure_find("first_done_s"), res, &s);
	first = s.median;
	if (!s.n || !(last > 0) || first >= FIRST_DONE_NOTED * last)
		return;
	units_fmt_seconds_as(first, last, a, sizeof(a));
	units_fmt_seconds(last, b, sizeof(b));
	fprintf(f, "run %zu: its first worker was done at %s, the last at %s (first_done_s, "
		   "time_to_end_s in JSON): the rate is over the whole time, fewer ran at its end\n",
		res->run->index, a, b);
}

/* repeat = auto: how many repeats it took, and whether the median is known
 * as well as asked. */
static void auto_note(FILE *f, const struct run_result *res)
{
	if (res->run->v[OPT_REPEAT].u != 0 || res->auto_stop == REPEAT_FIXED)
		return;
	fprintf(f, "run %zu: repeat=auto: %zu measured repeat%s, ", res->run->index, res->nrep,
		res->nrep == 1 ? "" : "s");
	if (res->auto_stop == REPEAT_TARGET)
		fprintf(f, "± %.1f%%, within the target ± %.0f%%\n", res->auto_spread_pct,
			REPEAT_AUTO_TARGET_PCT);
	else if (res->auto_stop == REPEAT_COUNT)
		fprintf(f, "± %.1f%%: NOT within the target ± %.0f%% after %d repeats\n",
			res->auto_spread_pct, REPEAT_AUTO_TARGET_PCT, REPEAT_AUTO_MAX);
	else
		fprintf(f, "± %.1f%%: NOT within the target ± %.0f%% when %.0f s of repeats were "
			   "spent\n", res->auto_spread_pct, REPEAT_AUTO_TARGET_PCT,
			REPEAT_AUTO_BUDGET_S);
}

/* read_iolog: a repeat's replay beside its trace (repeat.h): the I/Os,
 * bytes, trims and syncs (which must match), the issue lateness, and the span from
 * the first I/O to the last one's issue, recorded and replayed. */
static void replay_note(FILE *f, const struct run_result *res, size_t k)
{
	const struct repeat_result *rr = &res->rep[k];
	const struct figure *ns = figure_find("lat_p50_ns");
	uint64_t ops = rr->ops[IO_READ] + rr->ops[IO_WRITE] + rr->trims;
	uint64_t rec = rr->rec_ops[IO_READ] + rr->rec_ops[IO_WRITE] + rr->rec_trims;
	bool same = rr->ops[IO_READ] == rr->rec_ops[IO_READ] &&
		    rr->ops[IO_WRITE] == rr->rec_ops[IO_WRITE] && rr->trims == rr->rec_trims &&
		    rr->dir_bytes[IO_READ] == rr->rec_bytes[IO_READ] &&
		    rr->dir_bytes[IO_WRITE] == rr->rec_bytes[IO_WRITE] &&
		    rr->trim_bytes == rr->rec_trim_bytes && rr->flushes == rr->rec_syncs;
	char a[32], b[32], c[32], t[64] = "";

	if (rr->rec_trims || rr->trims)
		snprintf(t, sizeof(t), ", t %llu of %llu", (unsigned long long)rr->trims,
			 (unsigned long long)rr->rec_trims);
	fprintf(f, "run %zu: replay %zu of %s:\n  %llu of %llu I/Os (r %llu of %llu, w %llu of "
		   "%llu%s), %llu of %llu bytes, %llu of %llu syncs: %s\n", res->run->index, k + 1,
		res->run->v[OPT_READ_IOLOG].s, (unsigned long long)ops, (unsigned long long)rec,
		(unsigned long long)rr->ops[IO_READ], (unsigned long long)rr->rec_ops[IO_READ],
		(unsigned long long)rr->ops[IO_WRITE], (unsigned long long)rr->rec_ops[IO_WRITE], t,
		(unsigned long long)rr->bytes,
		(unsigned long long)rr->rec_bytes[IO_READ] + rr->rec_bytes[IO_WRITE] +
			rr->rec_trim_bytes,
		(unsigned long long)rr->flushes, (unsigned long long)rr->rec_syncs,
		rr->replay_cut ? "cut short by a bad line" : same ? "as recorded" : "NOT as recorded");
	if (isfinite(rr->late_max_ns)) {
		figure_format(ns, rr->late_p50_ns, a, sizeof(a));
		figure_format(ns, rr->late_p99_ns, b, sizeof(b));
		figure_format(ns, rr->late_max_ns, c, sizeof(c));
		fprintf(f, "  issued late p50 %s, p99 %s, max %s\n  first to last issue %.6f s, "
			   "recorded %.6f s (x %u%%: %.6f s)\n", a, b, c, rr->replay_span_s,
			rr->rec_span_s, (unsigned)res->run->v[OPT_REPLAY_TIME_SCALE].u,
			rr->rec_span_s * 100 / (double)res->run->v[OPT_REPLAY_TIME_SCALE].u);
	} else {
		fprintf(f, "  as fast as possible (replay_no_stall): first to last issue %.6f s, "
			   "recorded %.6f s\n", rr->replay_span_s, rr->rec_span_s);
	}
}

/* A buffered write run whose data was mostly only in memory at its end
 * measured the page cache; flushes have their own latency. */
static void write_notes(FILE *f, const struct run_result *res)
{
	double share = dirty_share(res), flushes = median_of("flushes", res);
	char a[32], b[32];

	auto_note(f, res);
	for (size_t k = 0; k < res->nrep && res->rep[k].replay; k++)
		replay_note(f, res, k);
	if (res->memory_fs && res->run->v[OPT_OP].u != OP_READ)
		fprintf(f, "run %zu: its file is on %s, which keeps it only in memory: nothing it "
			   "wrote is durable,\n  whatever sync says, and its time to end is not a "
			   "disk's\n", res->run->index, res->memory_fs);
	else if (share > 0.5 && !res->rep[0].dirty_system_wide)
		fprintf(f, "run %zu: %.0f%% of the written bytes were still only in memory at the "
			   "end: it timed the page cache, not the disk\n", res->run->index,
			100 * share);
	for (size_t k = 0; res->run->v[OPT_VERIFY].u == VERIFY_AFTER && k < res->nrep; k++) {
		const struct repeat_result *rr = &res->rep[k];
		uint64_t due = rr->dir_bytes[res->run->v[OPT_OP].u == OP_READ ? IO_READ : IO_WRITE];

		if (rr->interrupted || rr->runtime_limited || rr->verified_bytes >= due)
			continue;
		units_fmt_size(rr->verified_bytes, a, sizeof(a));
		units_fmt_size(due, b, sizeof(b));
		fprintf(f, "run %zu: verify of repeat %zu was stopped after %s of %s\n",
			res->run->index, k + 1, a, b);
	}
	if (flushes > 0) {
		figure_format(figure_find("flush_lat_p50_ns"), median_of("flush_lat_p50_ns", res), a,
			      sizeof(a));
		figure_format(figure_find("flush_lat_p99_ns"), median_of("flush_lat_p99_ns", res), b,
			      sizeof(b));
		const char *why = res->run->v[OPT_READ_IOLOG].s
					  ? "the trace's syncs"
					  : option_table[OPT_SYNC].values[res->run->v[OPT_SYNC].u];

		if (flushes == 1) /* its p50 is its p99: one latency a repeat */
			fprintf(f, "run %zu: 1 flush per repeat (%s), taking %s (median of the repeats)\n",
				res->run->index, why, a);
		else
			fprintf(f, "run %zu: %.0f flushes per repeat (%s), p50 %s, p99 %s\n",
				res->run->index, flushes, why, a, b);
	}
}

/* tree: what a phase's items are and how they are timed, once for the
 * runs of one tree; a dropped phase that found its names cached. */
static void mdtree_notes(FILE *f, const struct run_result *res, const char **last_root)
{
	const struct run *run = res->run;
	double added = median_of("dentries_added", res);
	char size[160], all[32];
	uint64_t each;

	if (!res->nrep)
		return;
	if (run->v[OPT_CACHE].u == CACHE_DROP && !res->rep[0].cache_as_asked) {
		if (res->memory_fs)
			fprintf(f, "run %zu: cache=drop, but the tree is on %s, whose dentries "
				   "cannot be dropped: not cold\n", run->index, res->memory_fs);
		else
			fprintf(f, "run %zu: cache=drop, but its lookups added %.0f dentries "
				   "(median) for %llu items: not cold (dentries_added in JSON)\n",
				run->index, added, (unsigned long long)run->reads);
	}
	if (*last_root && strcmp(*last_root, run->v[OPT_FILENAME].s) == 0)
		return;
	*last_root = run->v[OPT_FILENAME].s;
	/* filesize: the one size, or where each file's is drawn from */
	if (!run->v[OPT_FILESIZE].s || plain_filesize(run->v[OPT_FILESIZE].s, &each)) {
		units_fmt_size(run->v[OPT_FILESIZE].s ? each : 0, size, sizeof(size));
	} else {
		units_fmt_size(run->v[OPT_SIZE].u, all, sizeof(all));
		snprintf(size, sizeof(size), "sizes drawn from %.100s (%s in all)",
			 run->v[OPT_FILESIZE].s, all);
	}
	fprintf(f, "run %zu and others of its tree: tree = %s: %u directories of %u files of %s, "
		   "made by iosweep in %s; each phase (op) is one pass over its items, the "
		   "directories (mkdir, statdir, readdir, fsyncdir, rmdir) or the files (syncfs: its one "
		   "call), each timed as one I/O: IOPS is items/s; what a phase needs is made or "
		   "removed untimed before each repeat; the tree is removed at the end\n",
		run->index, run->v[OPT_TREE].s, run->md_dirs, run->md_files, size,
		run->v[OPT_FILENAME].s);
}

/* opendir: what a read is, what the scan left out, and the metadata cache
 * a dropped tree was read with. */
static void tree_notes(FILE *f, const struct run_result *res, const char **last_root)
{
	const struct run *run = res->run;
	double added = median_of("dentries_added", res), skipped = median_of("files_skipped", res);
	bool said = false;

	if (run->v[OPT_TREE].s)
		mdtree_notes(f, res, last_root);
	if (!run->v[OPT_OPENDIR].s)
		return;
	if (run->v[OPT_CACHE].u == CACHE_DROP && res->memory_fs && run->tree_files)
		fprintf(f, "run %zu: cache=drop, but the tree is on %s, whose dentries cannot be "
			   "dropped: not a cold tree\n", run->index, res->memory_fs);
	else if (run->v[OPT_CACHE].u == CACHE_DROP && !isnan(added) &&
		 added < (double)run->tree_files / 2)
		fprintf(f, "run %zu: cache=drop, but its lookups added %.0f dentries (median) for "
			   "%llu files: not a cold tree (dentries_added in JSON)\n", run->index,
			added, (unsigned long long)run->tree_files);
	if (skipped > 0)
		fprintf(f, "run %zu: %.0f file%s per repeat could not be opened (gone, unreadable "
			   "or special since the scan)\n", run->index, skipped, skipped == 1 ? "" : "s");
	if (res->tree_noatime_refused)
		fprintf(f, "run %zu: some files are not the user's: opened without O_NOATIME, "
			   "their access times moved\n", run->index);
	/* what the tree is: once for the runs of one tree */
	if (*last_root && strcmp(*last_root, run->v[OPT_OPENDIR].s) == 0)
		return;
	*last_root = run->v[OPT_OPENDIR].s;
	fprintf(f, "run %zu and others of its tree: opendir: each read is one of the %llu files "
		   "under\n  %s (%llu director%s), opened, read whole and closed; latency is all "
		   "three\n",
		run->index, (unsigned long long)run->tree_files, run->v[OPT_OPENDIR].s,
		(unsigned long long)res->tree_dirs, res->tree_dirs == 1 ? "y" : "ies");
	for (int k = 0; k < DIRSCAN__SKIPS; k++) {
		if (!res->tree_skipped[k])
			continue;
		fprintf(f, "%s %llu %s (", said ? "," : "  not read:",
			(unsigned long long)res->tree_skipped[k], dirscan_skip_names[k]);
		tt_put(f, res->tree_first_skip[k]);
		fputc(')', f);
		said = true;
	}
	if (said)
		fputc('\n', f);
	if (run->v[OPT_CACHE].u == CACHE_DROP)
		fprintf(f, "  cached \"dropped\": what cache=drop leaves of a tree is not read "
			   "before a repeat (its files would be opened);\n  a cold tree's lookups add "
			   "a dentry a file (dentries_added in JSON), and ! marks a repeat whose did not\n");
}

/* The device saw I/O the run cannot explain (devstat_excess): another
 * process used it during the measurement. */
static void device_notes(FILE *f, const struct run_result *res)
{
	static const char *const names[2] = { "dev_read_excess_bytes", "dev_write_excess_bytes" };
	static const char *const what[2] = { "read", "wrote" };
	char a[32];

	for (int d = 0; d < 2; d++) {
		const struct figure *fig = figure_find(names[d]);
		struct summary s;

		figure_summary(fig, res, &s);
		if (!s.n || !(s.max > 0))
			continue;
		figure_format(fig, s.max, a, sizeof(a));
		fprintf(f, "run %zu: its device (%s) %s up to %s more than the run's I/O explains:\n"
			   "  another process used it during the measurement (%s in JSON)\n",
			res->run->index, res->device, what[d], a, fig->name);
	}
}

/* Once per reason: why some runs have no device figures. */
static void device_absent_note(FILE *f, const struct report *r)
{
	const char *last = NULL;

	for (size_t i = 0; i < r->ndone; i++) {
		const struct run_result *res = &r->results[i];

		if (!res->device_absent[0] || !figure_ncompleted(res) ||
		    (last && strcmp(last, res->device_absent) == 0))
			continue;
		last = res->device_absent;
		fprintf(f, "dev/app -: run %zu%s: no device statistics: %s\n", res->run->index,
			i + 1 < r->ndone ? " and others like it" : "", last);
	}
}

/* Response time far above latency: the I/Os waited for their turn (a
 * stall, or a rate the device cannot keep), which latency does not show. */
#define RESP_NOTED 10

/* What a queued or rated run's figures hide: a queue that was mostly empty
 * (mean depth below half of iodepth), I/Os that waited behind their due
 * time. */
static void queue_notes(FILE *f, const struct run_result *res)
{
	const struct run *run = res->run;
	double depth = median_of("mean_depth", res), iodepth = (double)run->v[OPT_IODEPTH].u;
	double resp = median_of("resp_p99_ns", res), lat = median_of("lat_p99_ns", res);
	char a[32], b[32];

	if (iodepth > 1 && depth < iodepth / 2)
		fprintf(f, "run %zu: a mean of %.1f I/Os were in flight, of iodepth %.0f%s\n",
			run->index, depth, iodepth,
			run->v[OPT_SYNC_MODE].u == SYNC_MODE_DRAIN &&
					(run->v[OPT_SYNC].u == SYNC_FSYNC ||
					 run->v[OPT_SYNC].u == SYNC_FDATASYNC)
				? ": each flush waits for every I/O in flight (sync_mode=drain)"
				: "");
	if (run_rated(run) && lat > 0 && resp > RESP_NOTED * lat) {
		figure_format(figure_find("resp_p99_ns"), resp, a, sizeof(a));
		figure_format(figure_find("lat_p99_ns"), lat, b, sizeof(b));
		fprintf(f, "run %zu: p99 response time %s is %.0f× the p99 latency %s: I/Os waited "
			   "behind their due time (a stall, or a rate the device cannot keep)\n",
			run->index, a, resp / lat, b);
	}
}

/* The window's figure in the metric's unit: IOPS, a rate, a latency. */
static void steady_figure(const struct run_result *res, double x, char *buf, size_t n)
{
	char tmp[24];
	enum steady_metric m;
	struct steady_spec sp;
	char err[ERR_MAX];

	if (steady_parse(res->run->v[OPT_SS].s, &m, &sp, err) < 0 || m == STEADY_IOPS) {
		units_fmt_count(x, tmp, sizeof(tmp));
		snprintf(buf, n, "%s IOPS", tmp);
	} else if (m == STEADY_BW) {
		units_fmt_rate(x, buf, n);
	} else {
		units_fmt_seconds(x / 1e9, buf, n);
	}
}

/* ss: "steady (window 240–300 s): MEAN ± CI" or "not steady", per repeat */
static void steady_notes(FILE *f, const struct run_result *res)
{
	for (size_t k = 0; res->run->v[OPT_SS].s && k < res->nrep; k++) {
		const struct steady_result *st = &res->rep[k].steady;
		char m[48], ci[48];

		if (!st->asked || res->rep[k].interrupted)
			continue; /* an interrupted repeat is in the JSON and CSV, marked */
		if (!st->attained) {
			fprintf(f, "run %zu repeat %zu: not steady (%s)\n", res->run->index, k + 1,
				res->run->v[OPT_SS].s);
			continue;
		}
		steady_figure(res, st->mean, m, sizeof(m));
		steady_figure(res, st->ci95, ci, sizeof(ci));
		fprintf(f, "run %zu repeat %zu: steady (window %g–%g s, %s): %s ± %s over the "
			   "window (the row's figures are the windows', not the whole repeats')\n",
			res->run->index, k + 1, st->window_start_s, st->window_end_s,
			res->run->v[OPT_SS].s, m, ci);
	}
}

/* "throughput fell from 1.9 GB/s to 410 MB/s after 12.3 GiB written (41 s)" */
static void cliff_notes(FILE *f, const struct run_result *res)
{
	const char *moved = res->run->v[OPT_OP].u == OP_READ    ? "read"
			    : res->run->v[OPT_OP].u == OP_WRITE ? "written"
								 : "read and written";

	for (size_t k = 0; k < res->nrep; k++)
		for (size_t i = 0; !res->rep[k].interrupted && i < res->rep[k].ncliffs; i++) {
			const struct cliff_result *c = &res->rep[k].cliffs[i];
			char a[32], b[32], at[32], when[32];
			bool tp = c->figure == CLIFF_THROUGHPUT;

			if (tp) {
				units_fmt_rate(c->before, a, sizeof(a));
				units_fmt_rate(c->after, b, sizeof(b));
			} else {
				units_fmt_seconds(c->before / 1e9, a, sizeof(a));
				units_fmt_seconds(c->after / 1e9, b, sizeof(b));
			}
			units_fmt_size_about(c->at_bytes, at, sizeof(at));
			units_fmt_seconds(c->at_s, when, sizeof(when));
			fprintf(f, "run %zu repeat %zu: %s %s from %s to %s after %s %s (at %s)\n",
				res->run->index, k + 1, tp ? "throughput" : "mean latency",
				(c->after < c->before) ? "fell" : "rose", a, b, at, moved, when);
		}
}

/* precondition: each pass, its bytes, time and throughput (not in the
 * run's figures) */
static void precondition_notes(FILE *f, const struct run_result *res)
{
	for (size_t k = 0; k < res->npre; k++) {
		const struct precond_result *q = &res->pre[k];
		uint64_t bytes = 0;
		double t = 0;
		char a[32], b[32], c[32];

		for (size_t i = 0; i < q->res.nrep; i++) {
			bytes += q->res.rep[i].bytes;
			t += q->res.rep[i].time_to_end_s;
		}
		units_fmt_size(bytes, a, sizeof(a));
		units_fmt_seconds(t, b, sizeof(b));
		if (t > 0)
			units_fmt_rate((double)bytes / t, c, sizeof(c));
		else
			snprintf(c, sizeof(c), "-");
		fprintf(f, "run %zu: preconditioned (not in its figures): %s:%u wrote %s in %s "
			   "(%s)%s\n", res->run->index, precond_names[q->pass.kind], q->pass.times,
			a, b, c, q->res.failed ? ", failed" : q->res.interrupted ? ", interrupted" : "");
	}
}

/* stop_at_cliff: the repeats that ended at their first cliff */
static void cliff_stop_notes(FILE *f, const struct run_result *res)
{
	for (size_t k = 0; k < res->nrep; k++)
		if (res->rep[k].cliff_stopped && !res->rep[k].interrupted)
			fprintf(f, "run %zu repeat %zu: ended at its first cliff (stop_at_cliff)\n",
				res->run->index, k + 1);
}

/* A group run's notes, below its first job: how far apart its jobs started,
 * and which of them its end rule cut. */
static void group_notes(FILE *f, const struct report *r, size_t i)
{
	const struct run *run = r->results[i].run;
	double skew = 0;
	bool delayed = false;
	char a[32];

	if (!run->group || run->group_pos != 0 || i + run->group_jobs > r->ndone)
		return;
	for (size_t j = i; j < i + run->group_jobs; j++) {
		delayed |= r->results[j].run->v[OPT_STARTDELAY].u != 0;
		for (size_t k = 0; k < r->results[j].nrep; k++)
			skew = fmax(skew, r->results[j].rep[k].group_start_skew_s);
	}
	units_fmt_seconds(skew, a, sizeof(a));
	fprintf(f, "group %s %zu (runs %zu-%zu): its jobs started at one start line, their first "
		   "I/Os at most %s apart%s (group_start_skew_s in JSON)\n", run->group,
		run->group_run, run->index, run->index + run->group_jobs - 1, a,
		delayed ? " besides their startdelay" : "");
	for (size_t j = i; j < i + run->group_jobs; j++) {
		const struct run_result *res = &r->results[j];
		size_t cuts = group_cuts(res);

		if (cuts)
			fprintf(f, "run %zu (job '%s'): cut in %zu of %zu repeats by group_end = %s\n",
				res->run->index, res->run->job->name, cuts, res->nrep,
				res->run->job->opt[OPT_GROUP_END].n
					? res->run->job->opt[OPT_GROUP_END].v[0].s
					: group_end_names[res->run->group_end]);
	}
}

static void notes(FILE *f, const struct report *r)
{
	const char *last_note = NULL, *last_root = NULL;

	for (size_t i = 0; i < r->ndone; i++) {
		const struct run_result *res = &r->results[i];
		bool cold_miss = false, cut = false;
		double skew = 0; /* the largest start skew, as a share of its time to end */

		group_notes(f, r, i);
		precondition_notes(f, res);
		steady_notes(f, res);
		cliff_notes(f, res);
		cliff_stop_notes(f, res);

		for (size_t k = 0; k < res->nrep; k++) {
			const struct repeat_result *rr = &res->rep[k];

			cold_miss |= !rr->cache_as_asked;
			cut |= rr->runtime_limited;
			if (!rr->interrupted && rr->time_to_end_s > 0 &&
			    rr->start_skew_s / rr->time_to_end_s > skew)
				skew = rr->start_skew_s / rr->time_to_end_s;
		}
		if (res->failed) {
			fprintf(f, "run %zu failed: ", res->run->index);
			tt_put(f, res->error);
			fputc('\n', f);
		}
		if (res->note && res->note != last_note)
			fprintf(f, "run %zu and others like it: %s\n", res->run->index,
				last_note = res->note);
		if (cold_miss)
			fprintf(f, "run %zu: the cache state before a repeat was not what "
				   "cache=%s asks for (see resident_before in JSON)\n", res->run->index,
				option_table[OPT_CACHE].values[res->run->v[OPT_CACHE].u]);
		if (cut)
			fprintf(f, "run %zu: stopped by runtime before the end of the file\n",
				res->run->index);
		/* replay_threads: each thread's first I/O is due when the trace's was */
		if (skew > SKEW_NOTED && res->run->v[OPT_REPLAY_THREADS].u != FLAG_ON)
			fprintf(f, "run %zu: the threads' first %s were up to %.0f%% of the time "
				   "to end apart (start_skew_s in JSON)\n", res->run->index,
				res->run->v[OPT_OP].u == OP_READ ? "reads" : "I/Os", 100 * skew);
		first_done_note(f, res);
		if (r->ranks > 1 && res->nrep)
			rank_spread(f, r, res);
		if (res->nrep)
			write_notes(f, res);
		tree_notes(f, res, &last_root);
		if (res->nrep)
			device_notes(f, res);
		if (figure_ncompleted(res))
			queue_notes(f, res);
	}
	device_absent_note(f, r);
	cold_from_host_note(f, r);
	if (r->interrupted)
		interrupted_note(f, r);
}

static int table_begin(struct report_sink *s, const struct report *r, char *err)
{
	(void)r;
	return report_open(s, err);
}

static int table_add(struct report_sink *s, const struct report *r, size_t i, char *err)
{
	(void)s;
	(void)r;
	(void)i;
	(void)err;
	return 0;
}

static void legend(FILE *f, const struct report_legend *lg)
{
	if (lg->timed)
		fprintf(f, "time: time to end, or for time_based runs the time measured (runtime); "
			   "throughput and IOPS are over it\n");
	fprintf(f, "%s: median of the repeats ± the farther end of its 95%% confidence "
		   "interval, in %% of it; other figures: medians\n", lg->timed ? "time" : "time to end");
	if (lg->range)
		fprintf(f, "¹: ± spans the min..max of the repeats instead: a confidence interval "
			   "needs %zu repeats or more\n", stats_min_n_for_ci());
	if (lg->wide)
		fprintf(f, "²: ± over 100%%: the repeats differ by more than the median itself, "
			   "so the median says little; repeat more, or see each repeat in JSON\n");
	if (lg->steady)
		fprintf(f, "steady: ss's verdict; a steady run's throughput, IOPS, p50 and p99 are "
			   "its window's (median of the repeats that attained one; ± as for time)\n");
	if (lg->mixed)
		fprintf(f, "r … w …: a readwrite run's reads and its writes\n");
	if (lg->rated)
		fprintf(f, "resp p99: p99 response time (due -> completion); late: I/Os issued more "
			   "than 1 ms after they were due; behind: the most any was\n");
	if (lg->depth)
		fprintf(f, "depth: mean number of I/Os in flight per thread over its time (the sum "
			   "of their latencies / that time)\n");
	fprintf(f, "cached: share of the file in the page cache before each repeat (min–max "
		   "when they differ)\n");
	fprintf(f, "dev/app%s: bytes the block device under the file moved / bytes the run "
		   "moved\n", lg->device ? "" : " (below: no room in the table)");
	if (lg->unknown)
		fprintf(f, "?: the page-cache state of the file could not be read (cachestat and "
			   "mincore tell it only to the file's owner or root)\n");
	if (lg->missed)
		fprintf(f, "!: a repeat did not start in the state the cache policy asks for\n");
}

/* The widest a table may be: a terminal of 120 columns. */
#define TABLE_MAX_WIDTH 120

/* The columns the printed table takes. */
static size_t table_width(const struct texttable *t)
{
	size_t sum = 0;

	for (size_t col = 0; col < t->ncols; col++) {
		size_t w = 0;

		for (size_t k = col; k < t->ncells; k += t->ncols) {
			size_t x = tt_width(t->cells[k]);

			w = x > w ? x : w;
		}
		sum += w + (col ? 2 : 0);
	}
	return sum;
}

static void table_build(struct texttable *t, const struct report *r, const struct columns *c,
			struct report_legend *lg)
{
	/* one a cell header() and row() add */
	size_t ncols = 7 + c->job + c->group + c->steady + c->device + 3 * c->rated + c->depth +
		       c->dirty + c->baseline + c->consume;

	for (int i = 0; i < OPT__COUNT; i++)
		ncols += plan_column(r->plan, i);
	tt_init(t, ncols);
	for (size_t i = 1; i < ncols; i++)
		t->right[i] = true;
	t->right[c->job] = false;
	header(t, r, c);
	for (size_t i = 0; i < r->ndone; i++)
		row(t, r, c, &r->results[i], lg);
}

/* dev/app of each run that has one, when the table had no room for it: a
 * few a line. */
static void device_list(FILE *f, const struct report *r)
{
	char a[64];
	size_t shown = 0;

	for (size_t i = 0; i < r->ndone; i++) {
		if (!figure_ncompleted(&r->results[i]))
			continue;
		device_text(&r->results[i], a, sizeof(a));
		if (!strcmp(a, "-"))
			continue; /* the notes say why */
		fprintf(f, "%srun %zu %s", shown % 6 ? ", " : shown ? "\ndev/app: " : "dev/app: ",
			r->results[i].run->index, a);
		shown++;
	}
	if (shown)
		fputc('\n', f);
}

/* The table in at most TABLE_MAX_WIDTH columns where it can be: without
 * room, dev/app and then the checksums go below the legend, a few a line. */
void report_table_fill(const struct report *r, struct texttable *t, struct report_legend *lg)
{
	struct columns c;
	bool consume;

	find_columns(r, &c);
	consume = c.consume;
	c.device = true;
	for (int drop = 0;; drop++) {
		memset(lg, 0, sizeof(*lg));
		lg->timed = c.timed;
		lg->mixed = c.mixed;
		lg->rated = c.rated;
		lg->depth = c.depth;
		lg->steady = c.steady;
		table_build(t, r, &c, lg);
		if (drop == 2 || table_width(t) <= TABLE_MAX_WIDTH)
			break;
		tt_free(t);
		if (c.device)
			c.device = false;
		else
			c.consume = false;
	}
	lg->device = c.device;
	lg->checksums_below = consume && !c.consume;
}

/* The checksums (or sums) of the runs, when the table had no room for them. */
static void checksum_list(FILE *f, const struct report *r)
{
	char a[64];
	size_t shown = 0;

	for (size_t i = 0; i < r->ndone; i++) {
		const struct run_result *res = &r->results[i];

		if (!figure_ncompleted(res) || !consumes(res->run))
			continue;
		report_consume_text(res->run, figure_completed_at(res, 0)->sum, a, sizeof(a));
		fprintf(f, "%srun %zu %s", shown % 4 ? ", " : shown ? "\nchecksum: " : "checksum: ",
			res->run->index, a);
		shown++;
	}
	if (shown)
		fputc('\n', f);
}

static void after(FILE *f, const struct report *r, const struct report_legend *lg)
{
	legend(f, lg);
	if (!lg->device)
		device_list(f, r);
	if (lg->checksums_below)
		checksum_list(f, r);
	notes(f, r);
}

/* The legend, lists and notes, each line folded to the table's width: a
 * note's length depends on the figures and names in it. */
void report_table_after(FILE *f, const struct report *r, const struct report_legend *lg)
{
	char *text = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&text, &n);

	if (!m) {
		after(f, r, lg);
		return;
	}
	after(m, r, lg);
	if (fclose(m) == 0)
		tt_fold(f, text, TABLE_MAX_WIDTH);
	else
		after(f, r, lg);
	free(text);
}

static int table_end(struct report_sink *s, const struct report *r, char *err)
{
	struct report_legend lg;
	struct texttable t;
	FILE *f = s->f;

	report_table_fill(r, &t, &lg);
	plan_print_constants(r->plan, f);
	tt_print(&t, f, "");
	tt_free(&t);
	report_table_after(f, r, &lg);
	return report_close(s, err);
}

const struct reporter report_table = {
	.name = "table",
	.begin = table_begin,
	.add = table_add,
	.end = table_end,
};
