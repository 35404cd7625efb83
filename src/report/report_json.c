/*
 * report_json.c - results as JSON (jansson), in the shape DESIGN.md fixes.
 *
 * A file is kept valid while the plan runs: each finished run is turned
 * into text once (one line, dumped by jansson) and appended to an unlinked
 * spool file, and the document (head, then the spool's runs) is rewritten
 * atomically at most about once a second, so the cost over a sweep grows
 * with the runs and the memory does not grow at all; a run killed halfway
 * leaves a valid file holding the runs that finished, marked "complete":
 * false.  The last document is written at the end (also after an
 * interruption); to stdout it is written then only.  Text of any bytes goes
 * through json_text().  64-bit counters are JSON integers (exact); the
 * checksum is 16 hex digits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/jsontext.h"
#include "lib/version.h"
#include "report/figures.h"
#include "report/report.h"

static json_t *figure_json(const struct figure *f, const struct repeat_result *rr)
{
	if (!figure_known(f, rr))
		return json_null();
	if (f->type == FIG_U64)
		return json_integer((json_int_t)figure_value(f, rr));
	return json_real(figure_value(f, rr));
}

static int set(json_t *obj, const char *key, json_t *v)
{
	return v ? json_object_set_new_nocheck(obj, key, v) : -1;
}

/* A count or a time in ns measured only under a rate limit: null without. */
static json_t *maybe_int(double v)
{
	return isnan(v) ? json_null() : json_integer((json_int_t)v);
}

/* What a repeat of run was planned to do, in I/Os or bytes: one pass, or
 * its runtime at its rate; null for a time_based run without a rate, whose
 * count is not known before it runs. */
static json_t *planned_json(const struct run *run, bool bytes)
{
	struct plan_dirs d;

	plan_run_dirs(run, &d);
	if (d.bound == BOUND_RUNTIME)
		return json_null();
	return json_integer(bytes ? (json_int_t)d.read_bytes + (json_int_t)d.write_bytes
				  : (json_int_t)d.reads + (json_int_t)d.writes);
}

/* An interval's device figures: {"ios", "bytes", "await_ns", "busy_s",
 * "queue_depth"}, or null when it has none. */
static json_t *point_device(const struct series_point *p)
{
	if (isnan(p->dev_ios))
		return json_null();
	return json_pack("{s:I, s:I, s:o, s:f, s:f}", "ios", (json_int_t)p->dev_ios, "bytes",
			 (json_int_t)p->dev_bytes, "await_ns",
			 isnan(p->dev_await_ns) ? json_null() : json_real(p->dev_await_ns), "busy_s",
			 p->dev_busy_s, "queue_depth", p->dev_queue_depth);
}

/* {"interval_s", "coarsened", "intervals": [one per interval and direction]} */
static json_t *series_json(const struct repeat_result *rr)
{
	static const char *const dir_name[IO_DIRS] = { [IO_READ] = "read", [IO_WRITE] = "write" };
	json_t *list = json_array();

	for (size_t i = 0; list && i < rr->nseries; i++) {
		const struct series_point *p = &rr->series[i];
		json_t *pt = json_pack("{s:f, s:s, s:I, s:I, s:I, s:I, s:I}", "start_s", p->start_s,
				       "dir", dir_name[p->dir], "ops", (json_int_t)p->ops, "bytes",
				       (json_int_t)p->bytes, "lat_p50_ns", (json_int_t)p->lat_p50_ns,
				       "lat_p99_ns", (json_int_t)p->lat_p99_ns, "lat_max_ns",
				       (json_int_t)p->lat_max_ns);

		if (!pt || set(pt, "resident", p->resident < 0 ? json_null()
							       : json_real(p->resident)) < 0 ||
		    set(pt, "resp_p99_ns", maybe_int(p->resp_p99_ns)) < 0 ||
		    set(pt, "resp_max_ns", maybe_int(p->resp_max_ns)) < 0 ||
		    set(pt, "late_ops", maybe_int(p->late_ops)) < 0 ||
		    set(pt, "device", point_device(p)) < 0 ||
		    json_array_append_new(list, pt) < 0) {
			json_decref(list);
			return NULL;
		}
	}
	return list ? json_pack("{s:f, s:I, s:o}", "interval_s", rr->series_interval_s,
				"coarsened", (json_int_t)rr->series_coarsened, "intervals", list)
		    : NULL;
}

static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

/* ss: {"criterion", "dir", "attained", "window_start_s", "window_end_s",
 * "window_mean", "window_ci95", "window_criterion", "window_slope",
 * "rounds": [{"end_s", "criterion"}: one per window judged]} */
static json_t *steady_json(const struct run *run, const struct repeat_result *rr)
{
	const struct steady_result *st = &rr->steady;
	json_t *o = json_object(), *rounds = json_array();
	int rc = o && rounds ? 0 : -1;

	for (size_t k = 0; rounds && k < st->ncrit; k++)
		if (!isnan(st->crit[k]))
			rc |= json_array_append_new(rounds, json_pack("{s:f, s:f}", "end_s",
					(double)(k + 1) * rr->series_interval_s, "criterion", st->crit[k]));
	rc |= set(o, "criterion", json_text(run->v[OPT_SS].s));
	rc |= set(o, "dir", json_string(option_table[OPT_SS_DIR].values[run->v[OPT_SS_DIR].u]));
	rc |= set(o, "attained", json_boolean(st->attained));
	rc |= set(o, "window_start_s", num(st->window_start_s));
	rc |= set(o, "window_end_s", num(st->window_end_s));
	rc |= set(o, "window_mean", num(st->mean));
	rc |= set(o, "window_ci95", num(st->ci95));
	rc |= set(o, "window_criterion", num(st->criterion));
	rc |= set(o, "window_slope", num(st->slope));
	rc |= set(o, "rounds", rounds);
	if (rc) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* [{"figure", "at_s", "at_bytes", "before", "after"}], in order of time */
static json_t *cliffs_json(const struct repeat_result *rr)
{
	static const char *const name[] = { [CLIFF_THROUGHPUT] = "throughput_Bps",
					     [CLIFF_LATENCY] = "lat_mean_ns" };
	json_t *list = json_array();

	for (size_t i = 0; list && i < rr->ncliffs; i++) {
		const struct cliff_result *c = &rr->cliffs[i];

		if (json_array_append_new(list, json_pack("{s:s, s:f, s:I, s:f, s:f}", "figure",
							  name[c->figure], "at_s", c->at_s, "at_bytes",
							  (json_int_t)c->at_bytes, "before", c->before,
							  "after", c->after)) < 0) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}

/* read_iolog: {"recorded": {...}, "replayed": {...}, "as_recorded", "cut",
 * "issue_late_p50_ns", "issue_late_p99_ns", "issue_late_max_ns" (null
 * replayed as fast as possible), "rate": {"interval_s", "intervals":
 * [{"start_s", "recorded_ops", "replayed_ops"}]} (with a series)}. */
static json_t *replay_json(const struct repeat_result *rr)
{
	json_t *rec = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:f}", "reads",
				(json_int_t)rr->rec_ops[IO_READ], "writes",
				(json_int_t)rr->rec_ops[IO_WRITE], "trims", (json_int_t)rr->rec_trims,
				"read_bytes", (json_int_t)rr->rec_bytes[IO_READ], "write_bytes",
				(json_int_t)rr->rec_bytes[IO_WRITE], "trim_bytes",
				(json_int_t)rr->rec_trim_bytes, "syncs", (json_int_t)rr->rec_syncs,
				"span_s", rr->rec_span_s);
	json_t *rep = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:f}", "reads",
				(json_int_t)rr->ops[IO_READ], "writes", (json_int_t)rr->ops[IO_WRITE],
				"trims", (json_int_t)rr->trims, "read_bytes",
				(json_int_t)rr->dir_bytes[IO_READ], "write_bytes",
				(json_int_t)rr->dir_bytes[IO_WRITE], "trim_bytes",
				(json_int_t)rr->trim_bytes, "syncs", (json_int_t)rr->flushes,
				"span_s", rr->replay_span_s);
	bool same = rr->ops[IO_READ] == rr->rec_ops[IO_READ] &&
		    rr->ops[IO_WRITE] == rr->rec_ops[IO_WRITE] && rr->trims == rr->rec_trims &&
		    rr->dir_bytes[IO_READ] == rr->rec_bytes[IO_READ] &&
		    rr->dir_bytes[IO_WRITE] == rr->rec_bytes[IO_WRITE] &&
		    rr->trim_bytes == rr->rec_trim_bytes && rr->flushes == rr->rec_syncs;
	json_t *o = json_object(), *list = json_array();
	int rc = !rec || !rep || !o || !list;

	rc |= set(o, "recorded", rec);
	rc |= set(o, "replayed", rep);
	rc |= set(o, "as_recorded", json_boolean(same && !rr->replay_cut));
	rc |= set(o, "cut", json_boolean(rr->replay_cut));
	rc |= set(o, "issue_late_p50_ns", maybe_int(rr->late_p50_ns));
	rc |= set(o, "issue_late_p99_ns", maybe_int(rr->late_p99_ns));
	rc |= set(o, "issue_late_max_ns", maybe_int(rr->late_max_ns));
	for (size_t k = 0; list && k < rr->nreplay_rate; k++)
		rc |= json_array_append_new(list, json_pack("{s:f, s:I, s:I}", "start_s",
							    rr->replay_rate[k].start_s,
							    "recorded_ops",
							    (json_int_t)rr->replay_rate[k].recorded,
							    "replayed_ops",
							    (json_int_t)rr->replay_rate[k].replayed));
	if (rr->nreplay_rate)
		rc |= set(o, "rate", json_pack("{s:f, s:o}", "interval_s", rr->rate_interval_s,
					       "intervals", list));
	else
		json_decref(list);
	if (rc) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *repeat_json(const struct run_result *res, const struct repeat_result *rr,
			   int ranks)
{
	const struct run *run = res->run;
	json_t *o = json_object(), *threads = json_array();
	char sum[32];
	int rc = 0;

	for (size_t i = 0; o && i < figure_count; i++) {
		const struct figure *f = &figure_table[i];
		json_t *group = o;

		if (f->group) {
			group = json_object_get(o, f->group);
			if (!group && set(o, f->group, json_object()) == 0)
				group = json_object_get(o, f->group);
		}
		rc |= group ? set(group, f->key, figure_json(f, rr)) : -1;
	}
	/* every rank's threads, rank after rank */
	for (uint64_t t = 0; threads && t < run->v[OPT_THREADS].u * (uint64_t)ranks; t++)
		rc |= json_array_append_new(threads, json_real(rr->thread_time_s[t]));
	rc |= set(o, "thread_time_to_end_s", threads);
	if (ranks > 1) {
		json_t *per_rank = json_array();

		for (int k = 0; per_rank && k < ranks; k++)
			rc |= json_array_append_new(per_rank, json_real(rr->rank_time_s[k]));
		rc |= set(o, "rank_time_to_end_s", per_rank);
	}
	report_consume_text(run, rr->sum, sum, sizeof(sum));
	if (run->v[OPT_CONSUME].u == CONSUME_CHECKSUM)
		rc |= set(o, "checksum", json_string(sum));
	else if (run->v[OPT_CONSUME].u == CONSUME_INTS)
		rc |= set(o, "int_sum", json_integer((json_int_t)rr->sum));
	rc |= set(o, "cache_as_asked", json_boolean(rr->cache_as_asked));
	rc |= set(o, "runtime_limited", json_boolean(rr->runtime_limited));
	if (run->v[OPT_STOP_AT_CLIFF].u == FLAG_ON)
		rc |= set(o, "cliff_stopped", json_boolean(rr->cliff_stopped));
	rc |= set(o, "interrupted", json_boolean(rr->interrupted));
	if (run->group) { /* only a job of a group has them: a job alone's shape is kept */
		rc |= set(o, "group_cut", json_boolean(rr->group_cut));
		rc |= set(o, "group_start_skew_s", json_real(rr->group_start_skew_s));
	}
	if (rr->series)
		rc |= set(o, "series", series_json(rr));
	if (rr->series)
		rc |= set(o, "cliffs", cliffs_json(rr));
	if (rr->steady.asked)
		rc |= set(o, "steady", steady_json(run, rr));
	if (rr->replay)
		rc |= set(o, "replay", replay_json(rr));
	if (rc) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* {"n", "mean", "sd", "min", "median", "max", "ci95_low", "ci95_high"}: null
 * where nothing was measured (no completed repeat), not zeros.  Built key
 * by key (json_pack parses its format and checks every key again). */
static json_t *stat_json(const struct summary *s)
{
	const double v[] = { s->mean, s->sd, s->min, s->median, s->max, s->ci95_low, s->ci95_high };
	static const char *const key[] = { "mean", "sd", "min", "median", "max", "ci95_low",
					   "ci95_high" };
	json_t *o = json_object();
	int rc = o ? json_object_set_new_nocheck(o, "n", json_integer((json_int_t)s->n)) : -1;

	for (size_t k = 0; rc == 0 && k < sizeof(v) / sizeof(v[0]); k++)
		rc = json_object_set_new_nocheck(o, key[k], s->n == 0 || (k >= 5 && !s->has_ci)
								    ? json_null() : json_real(v[k]));
	if (rc < 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *summary_json(const struct run_result *res)
{
	json_t *o = json_object();
	struct summary s;

	for (size_t i = 0; o && i < figure_count; i++) {
		figure_summary(&figure_table[i], res, &s);
		if (json_object_set_new_nocheck(o, figure_table[i].name, stat_json(&s)) < 0) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

/* {"name", "run", "jobs", "position", "end", "end_s"}: the group run a job
 * of a group is in (the runs of the same name and run are its jobs). */
static json_t *group_json(const struct run *run)
{
	return json_pack("{s:o, s:I, s:I, s:I, s:s, s:o}", "name", json_text(run->group), "run",
			 (json_int_t)run->group_run, "jobs", (json_int_t)run->group_jobs,
			 "position", (json_int_t)run->group_pos, "end",
			 group_end_names[run->group_end], "end_s",
			 run->group_end == GROUP_END_TIME ? json_real((double)run->group_time_ns / 1e9)
							  : json_null());
}

/* [{"name", "run", "end", "end_s", "runs": [index...], "start_skew_s":
 * [per repeat]}]: each group run of the runs done, with the indexes of
 * its jobs' runs (whose figures are theirs), or NULL without groups. */
static json_t *groups_json(const struct report *r)
{
	json_t *a = NULL;

	for (size_t i = 0; i < r->ndone; i++) {
		const struct run *run = r->results[i].run;
		json_t *g, *runs, *skew;

		if (!run->group || run->group_pos != 0)
			continue;
		runs = json_array();
		skew = json_array();
		if (!a)
			a = json_array();
		for (size_t j = i; runs && j < i + run->group_jobs && j < r->ndone; j++)
			json_array_append_new(runs, json_integer((json_int_t)r->results[j].run->index));
		for (size_t k = 0; skew && k < r->results[i].nrep; k++)
			json_array_append_new(skew, json_real(r->results[i].rep[k].group_start_skew_s));
		g = group_json(run);
		if (g) {
			json_object_del(g, "jobs");
			json_object_del(g, "position");
			set(g, "runs", runs);
			set(g, "start_skew_s", skew);
		} else {
			json_decref(runs);
			json_decref(skew);
		}
		if (!a || json_array_append_new(a, g) < 0)
			return a;
	}
	return a;
}

/* precondition: [{"pass", "times", "bs", "bytes", "time_s", "throughput_Bps",
 * "failed", "interrupted", "repeats": [{"bytes", "time_s", "throughput_Bps",
 * "series"?}]}], one per pass, each repeat one time over the file; measured
 * apart, in none of the run's own figures. */
static json_t *precondition_json(const struct run_result *res)
{
	json_t *list = json_array();

	for (size_t k = 0; list && k < res->npre; k++) {
		const struct precond_result *q = &res->pre[k];
		json_t *reps = json_array(), *o;
		uint64_t bytes = 0;
		double t = 0;

		for (size_t i = 0; reps && i < q->res.nrep; i++) {
			const struct repeat_result *rr = &q->res.rep[i];
			json_t *one = json_pack("{s:I, s:f, s:f}", "bytes", (json_int_t)rr->bytes,
						"time_s", rr->time_to_end_s, "throughput_Bps",
						rr->throughput_Bps);

			bytes += rr->bytes;
			t += rr->time_to_end_s;
			if (one && rr->series)
				set(one, "series", series_json(rr));
			if (!one || json_array_append_new(reps, one) < 0) {
				json_decref(reps);
				reps = NULL;
			}
		}
		o = json_pack("{s:s, s:I, s:I, s:I, s:f, s:o, s:b, s:b, s:o}", "pass",
			      precond_names[q->pass.kind], "times", (json_int_t)q->pass.times, "bs",
			      (json_int_t)q->run.v[OPT_BS].u, "bytes", (json_int_t)bytes, "time_s", t,
			      "throughput_Bps", t > 0 ? json_real((double)bytes / t) : json_null(),
			      "failed", q->res.failed, "interrupted", q->res.interrupted, "repeats",
			      reps);
		if (!o || json_array_append_new(list, o) < 0) {
			json_decref(list);
			list = NULL;
		}
	}
	return list;
}

/* opendir: the tree as the run's scan found it. */
static json_t *tree_json(const struct run_result *res)
{
	json_t *skipped = json_object();

	for (int k = 0; skipped && k < DIRSCAN__SKIPS; k++)
		set(skipped, dirscan_skip_names[k], json_integer((json_int_t)res->tree_skipped[k]));
	return json_pack("{s:o, s:I, s:I, s:I, s:o, s:b}", "root",
			 json_text(res->run->v[OPT_OPENDIR].s), "files",
			 (json_int_t)res->run->tree_files, "bytes",
			 (json_int_t)res->run->v[OPT_SIZE].u, "dirs", (json_int_t)res->tree_dirs,
			 "skipped", skipped, "noatime_refused", res->tree_noatime_refused);
}

/* tree: the phase, its items and the tree it works on: filesize, each
 * file's, or null with filesizes, what they are drawn from; bytes, all
 * the files'; shift, how many ranks on each rank's items were (0: its
 * own). */
static json_t *phase_json(const struct run *run, int ranks)
{
	enum md_op op = run_md_op(run);
	const char *sizes = run->v[OPT_FILESIZE].s;
	uint64_t each = 0;
	bool plain = !sizes || plain_filesize(sizes, &each);

	return json_pack("{s:s, s:I, s:s, s:o, s:I, s:I, s:o, s:o, s:I, s:I}", "op",
			 md_op_names[op], "items", (json_int_t)run->reads, "items_are",
			 md_op_dirs(op) ? "directories" : "files", "root",
			 json_text(run->v[OPT_FILENAME].s), "dirs", (json_int_t)run->md_dirs,
			 "files_per_dir", (json_int_t)run->md_files, "filesize",
			 plain ? json_integer((json_int_t)each) : json_null(), "filesizes",
			 json_text(plain ? NULL : sizes), "bytes", (json_int_t)run->v[OPT_SIZE].u,
			 "shift", (json_int_t)run_md_shift(run, ranks));
}

static json_t *run_json(const struct report *r, const struct run_result *res)
{
	const struct run *run = res->run;
	/* figure_baseline looks at every run: only where there are baselines */
	const struct run_result *base =
		r->baselines ? figure_baseline(res, r->plan, r->results, r->ndone) : NULL;
	json_t *reps = json_array(), *o;

	for (size_t i = 0; reps && i < res->nrep; i++)
		if (json_array_append_new(reps, repeat_json(res, &res->rep[i], r->ranks)) < 0) {
			json_decref(reps);
			reps = NULL;
		}
	o = json_pack("{s:o, s:I, s:o, s:o, s:o, s:o, s:o?, s:o, s:b, s:o, s:o}", "job",
		      json_text(run->job->name), "index", (json_int_t)run->index, "description",
		      json_text(run->v[OPT_DESCRIPTION].s), "params", options_params_json(run->v),
		      "planned_reads", planned_json(run, false), "planned_bytes",
		      planned_json(run, true), "repeats", reps, "summary", summary_json(res),
		      "failed", res->failed, "error", json_text(res->failed ? res->error : NULL),
		      "note", json_text(res->note));
	if (o)
		set(o, "cold_pages_from_host", json_boolean(figure_cold_from_host(res)));
	if (o)
		set(o, "memory_fs", json_text(res->memory_fs));
	/* repeat = auto: why the repeats stopped (null: interrupted) and how
	 * well the median is known, against the target */
	if (o && run->v[OPT_REPEAT].u == 0)
		set(o, "repeat_auto",
		    json_pack("{s:o, s:o, s:f}", "stopped_by",
			      json_text(repeat_stop_names[res->auto_stop]), "spread_pct",
			      isnan(res->auto_spread_pct) ? json_null()
							  : json_real(res->auto_spread_pct),
			      "target_pct", REPEAT_AUTO_TARGET_PCT));
	if (o && run->group)
		set(o, "group", group_json(run));
	if (o && res->npre)
		set(o, "precondition", precondition_json(res));
	if (o && run->v[OPT_OPENDIR].s)
		set(o, "tree", tree_json(res));
	if (o && run->v[OPT_TREE].s)
		set(o, "phase", phase_json(run, r->ranks));
	/* a file set: its files' bytes (params.size is each file's, or with
	 * filesize drawn the largest's) */
	if (o && run->v[OPT_NRFILES].u > 1)
		set(o, "set_bytes", json_integer((json_int_t)run_set_bytes(run)));
	if (o)
		set(o, "device", json_text(res->device[0] ? res->device : NULL));
	if (o)
		set(o, "device_absent", json_text(res->device_absent[0] ? res->device_absent : NULL));
	if (o && (base || run->job->opt[OPT_BASELINE].n))
		set(o, "baseline",
		    base ? json_pack("{s:o, s:I, s:f}", "job", json_text(base->run->job->name),
				     "run", (json_int_t)base->run->index, "ratio",
				     figure_speedup(res, base))
			 : json_pack("{s:o, s:n, s:n}", "job",
				     json_text(run->job->opt[OPT_BASELINE].v[0].s), "run", "ratio"));
	return o;
}

/* Everything but the runs. */
static json_t *doc_head(const struct report *r, bool complete)
{
	const struct jobfile *jf = r->jf;
	json_t *overrides = json_array();

	for (size_t i = 0; overrides && i < jf->noverrides; i++)
		if (json_array_append_new(overrides, json_text(jf->overrides[i])) < 0) {
			json_decref(overrides);
			overrides = NULL;
		}
	json_t *head = json_pack("{s:{s:s, s:i}, s:s, s:O?, s:i, s:O?, s:O?, s:{s:o, s:o}, s:o, s:b, "
			 "s:o, s:b}",
			 "iosweep", "version", IOSWEEP_VERSION, "schema", IOSWEEP_SCHEMA,
			 "started", r->started, "host", r->host, "ranks", r->ranks, "hosts",
			 r->hosts, "rank_hosts", r->rank_hosts, "job_file", "path",
			 json_text(jf->path), "text", json_text(jf->text), "overrides", overrides,
			 "interrupted", r->interrupted, "stopped_by", json_text(r->stopped_by),
			 "complete", complete);
	json_t *groups = head ? groups_json(r) : NULL;

	if (groups) /* only a plan with groups has them: a plan without keeps its shape */
		set(head, "groups", groups);
	return head;
}

/* The runs already turned into text, one a line, in an unlinked file (the
 * spool) so that memory does not grow with them: each rewrite copies it. */
struct json_priv {
	FILE *spool;
	size_t nruns;          /* runs in the spool */
	size_t written_runs;   /* runs in the file as last rewritten */
	double last_write_s;   /* monotonic time of that rewrite */
	double next_write_s;   /* the earliest time of the next one */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* An unlinked temporary file in the destination's directory (beside the
 * file it will be copied into), or in TMPDIR for stdout. */
static FILE *spool_open(const char *path, char *err)
{
	const char *tmp = getenv("TMPDIR");
	char *copy = path ? strdup(path) : NULL, *name = NULL;
	const char *dir = path ? (copy ? dirname(copy) : NULL) : tmp && *tmp ? tmp : "/tmp";
	FILE *f = NULL;
	int fd = dir ? open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600) : -1;

	/* file systems without O_TMPFILE: a named one, unlinked at once */
	if (fd < 0 && dir && errno != ENOENT && errno != EACCES &&
	    asprintf(&name, "%s/.iosweep-json.XXXXXX", dir) >= 0) {
		fd = mkostemp(name, O_CLOEXEC);
		if (fd >= 0)
			unlink(name);
	}
	if (fd >= 0)
		f = fdopen(fd, "w+");
	if (!f) {
		err_set(err, "cannot create a temporary file for the JSON report in %s: %s",
			dir ? dir : "?", dir ? strerror(errno) : "out of memory");
		if (fd >= 0)
			close(fd);
	}
	free(name);
	free(copy);
	return f;
}

/* Turns run i into one line of text at the end of the spool. */
static int append_run(struct json_priv *p, const struct report *r, size_t i)
{
	json_t *o = run_json(r, &r->results[i]);
	char *text = o ? json_dumps(o, JSON_REAL_PRECISION(10)) : NULL;
	int rc;

	json_decref(o);
	if (!text)
		return -1;
	rc = fprintf(p->spool, "%s    %s", p->nruns ? ",\n" : "\n", text) < 0 ? -1 : 0;
	p->nruns += rc == 0;
	free(text);
	return rc;
}

/* Copies the spool to f. */
static int copy_spool(struct json_priv *p, FILE *f)
{
	char buf[1 << 16];
	off_t at = 0;
	ssize_t n;

	if (fflush(p->spool) != 0)
		return -1;
	while ((n = pread(fileno(p->spool), buf, sizeof(buf), at)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || fwrite(buf, 1, (size_t)n, f) != (size_t)n)
			return -1;
		at += n;
	}
	return 0;
}

/* The whole document: the head, then the runs' text. */
static int write_doc(FILE *f, const struct report *r, struct json_priv *p, bool complete)
{
	json_t *head = doc_head(r, complete);
	char *text = head ? json_dumps(head, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) : NULL;
	size_t n = text ? strlen(text) : 0;
	int rc;

	json_decref(head);
	if (n < 2)
		return -1;
	/* "...\n}" becomes "...,\n  \"runs\": [RUNS\n  ]\n}\n" */
	rc = fwrite(text, 1, n - 2, f) == n - 2 && fputs(",\n  \"runs\": [", f) >= 0 &&
	     copy_spool(p, f) == 0 && fputs(p->nruns ? "\n  ]\n}\n" : "]\n}\n", f) >= 0
		? 0 : -1;
	free(text);
	return rc;
}

/* What the messages call the destination. */
static const char *doc_name(const struct report_sink *s)
{
	return s->path ? s->path : "JSON to stdout";
}

/* Writes the document to s (a temporary file renamed into place, or stdout). */
static int put_doc(struct report_sink *s, const struct report *r, bool final, bool complete,
		   char *err)
{
	struct json_priv *p = s->priv;

	s->out.no_sync = !final; /* a crash loses an interim version, not the last */
	if (report_open(s, err) < 0)
		return -1;
	if (write_doc(s->f, r, p, complete) < 0) {
		const char *why = ferror(s->f) || ferror(p->spool) ? strerror(errno)
								   : "out of memory";

		err_set(err, "writing %s: %s", doc_name(s), why);
		if (s->path)
			output_discard(&s->out);
		s->f = NULL;
		return -1;
	}
	return report_close(s, err);
}

/* After the end, or a failure (the sink is then told nothing more). */
static int release(struct report_sink *s, int rc)
{
	struct json_priv *p = s->priv;

	if (p && p->spool)
		fclose(p->spool);
	free(p);
	s->priv = NULL;
	return rc;
}

/* A temporary file beside the destination, made and removed, proves it
 * writable; the destination itself is left as it is until there is a run to
 * put in it (a failure later, a full disk, must not leave an empty document
 * where the previous file was). */
static int json_begin(struct report_sink *s, const struct report *r, char *err)
{
	struct json_priv *p = calloc(1, sizeof(struct json_priv));

	(void)r;
	s->priv = p;
	if (!p)
		return err_set(err, "out of memory");
	p->spool = spool_open(s->path ? s->out.path : NULL, err);
	if (!p->spool || (s->path && output_begin(&s->out, err) < 0))
		return release(s, -1);
	if (s->path)
		output_discard(&s->out);
	return 0;
}

/* Runs up to n turned into text; -1 with why. */
static int append_runs(struct report_sink *s, const struct report *r, size_t n, char *err)
{
	struct json_priv *p = s->priv;

	while (p->nruns < n)
		if (append_run(p, r, p->nruns) < 0)
			return ferror(p->spool)
				? err_set(err, "writing %s: %s", doc_name(s), strerror(errno))
				: err_set(err, "out of memory for the JSON report");
	return 0;
}

/* A file is kept valid and up to date as runs complete: each run is turned
 * into text once, and the file is rewritten between runs (never during a
 * measured repeat), at most once a second and for at most about a tenth of
 * the time; and once the runs since the last rewrite are fewer than half
 * of those in it, only every RESTATE_S seconds, so that the bytes written
 * over a sweep stay a small multiple of the last document's. */
#define RESTATE_S 30.0

static int json_add(struct report_sink *s, const struct report *r, size_t i, char *err)
{
	struct json_priv *p = s->priv;
	double t0 = now_s();

	if (append_runs(s, r, i + 1, err) < 0)
		return release(s, -1);
	if (!s->path || t0 < p->next_write_s ||
	    (2 * p->nruns < 3 * p->written_runs && t0 < p->last_write_s + RESTATE_S))
		return 0;
	if (put_doc(s, r, false, false, err) < 0)
		return release(s, -1);
	p->written_runs = p->nruns;
	p->last_write_s = now_s();
	p->next_write_s = p->last_write_s + fmax(1.0, 10 * (p->last_write_s - t0));
	return 0;
}

/* The document as it stands, at once (another rank stopped the run), when
 * it goes to a file. */
static int json_snapshot(struct report_sink *s, const struct report *r, char *err)
{
	if (!s->path || !s->priv)
		return 0;
	return append_runs(s, r, r->ndone, err) < 0 ? -1 : put_doc(s, r, false, false, err);
}

/* The last document, marked complete when the whole plan ran; a write
 * that fails leaves the previous one, marked incomplete.  Where the plan
 * has baselines, runs are turned into text again (a baseline may have run
 * after the run compared with it); otherwise they are as they were written. */
static int json_end(struct report_sink *s, const struct report *r, char *err)
{
	struct json_priv *p = s->priv;
	bool complete = !r->interrupted && r->ndone == r->plan->n;

	if (r->baselines) {
		if (fflush(p->spool) != 0 || ftruncate(fileno(p->spool), 0) < 0 ||
		    fseeko(p->spool, 0, SEEK_SET) != 0)
			return release(s, err_set(err, "writing %s: %s", doc_name(s),
						  strerror(errno)));
		p->nruns = 0;
	}
	if (append_runs(s, r, r->ndone, err) < 0)
		return release(s, -1);
	return release(s, put_doc(s, r, true, complete, err));
}

static void json_abandon(struct report_sink *s)
{
	(void)release(s, 0);
}

const struct reporter report_json = {
	.name = "json",
	.begin = json_begin,
	.add = json_add,
	.end = json_end,
	.snapshot = json_snapshot,
	.abandon = json_abandon,
};
