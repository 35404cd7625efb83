/*
 * report_json.c - results as JSON (jansson), in the shape DESIGN.md fixes.
 *
 * The whole document is rebuilt and rewritten atomically after each run, so
 * a run killed halfway leaves a valid file holding the runs that finished.
 * To stdout it is written once, at the end.  64-bit counters are JSON
 * integers (exact); the checksum is 16 hex digits.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "figures.h"
#include "report.h"

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
	return v ? json_object_set_new(obj, key, v) : -1;
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
	rc |= set(o, "interrupted", json_boolean(rr->interrupted));
	if (rc) {
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
		/* no repeat (a run that failed or was interrupted): nothing measured,
		 * so no numbers, not zeros */
		json_t *f = s.n == 0
			? json_pack("{s:I, s:n, s:n, s:n, s:n, s:n}", "n", (json_int_t)0, "mean", "sd",
				    "min", "median", "max")
			: json_pack("{s:I, s:f, s:f, s:f, s:f, s:f}", "n", (json_int_t)s.n, "mean",
				    s.mean, "sd", s.sd, "min", s.min, "median", s.median, "max",
				    s.max);
		if (f && s.has_ci)
			json_object_update_new(f, json_pack("{s:f, s:f}", "ci95_low", s.ci95_low,
							    "ci95_high", s.ci95_high));
		else if (f)
			json_object_update_new(f, json_pack("{s:n, s:n}", "ci95_low", "ci95_high"));
		if (set(o, figure_table[i].name, f) < 0) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

static json_t *run_json(const struct report *r, const struct run_result *res)
{
	const struct run *run = res->run;
	const struct run_result *base = figure_baseline(res, r->plan, r->results, r->ndone);
	json_t *reps = json_array(), *o;

	for (size_t i = 0; reps && i < res->nrep; i++)
		if (json_array_append_new(reps, repeat_json(res, &res->rep[i], r->ranks)) < 0) {
			json_decref(reps);
			reps = NULL;
		}
	o = json_pack("{s:s, s:I, s:s?, s:o, s:I, s:I, s:o?, s:o, s:b, s:s?, s:s?}", "job",
		      run->job->name, "index", (json_int_t)run->index, "description",
		      run->v[OPT_DESCRIPTION].s, "params", options_params_json(run->v),
		      "planned_reads", (json_int_t)run->reads, "planned_bytes",
		      (json_int_t)run->bytes, "repeats", reps, "summary", summary_json(res),
		      "failed", res->failed, "error", res->failed ? res->error : NULL, "note",
		      res->note);
	if (o)
		set(o, "cold_pages_from_host", json_boolean(figure_cold_from_host(res)));
	if (o && (base || run->job->opt[OPT_BASELINE].n))
		set(o, "baseline",
		    base ? json_pack("{s:s, s:I, s:f}", "job", base->run->job->name, "run",
				     (json_int_t)base->run->index, "ratio",
				     figure_speedup(res, base))
			 : json_pack("{s:s, s:n, s:n}", "job",
				     run->job->opt[OPT_BASELINE].v[0].s, "run", "ratio"));
	return o;
}

static json_t *report_json_doc(const struct report *r)
{
	const struct jobfile *jf = r->jf;
	json_t *runs = json_array(), *overrides = json_array();

	for (size_t i = 0; overrides && i < jf->noverrides; i++)
		json_array_append_new(overrides, json_string(jf->overrides[i]));
	for (size_t i = 0; runs && i < r->ndone; i++)
		if (json_array_append_new(runs, run_json(r, &r->results[i])) < 0) {
			json_decref(runs);
			runs = NULL;
		}
	return json_pack("{s:{s:s, s:i}, s:s, s:O?, s:i, s:O?, s:O?, s:{s:s, s:s}, s:o?, s:b, s:o?}",
			 "iosweep", "version", IOSWEEP_VERSION, "schema", IOSWEEP_SCHEMA,
			 "started", r->started, "host", r->host, "ranks", r->ranks, "hosts",
			 r->hosts, "rank_hosts", r->rank_hosts, "job_file", "path", jf->path, "text", jf->text, "overrides",
			 overrides, "interrupted", r->interrupted, "runs", runs);
}

static int write_doc(struct report_sink *s, const struct report *r, char *err)
{
	json_t *doc = report_json_doc(r);
	char *text = doc ? json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) : NULL;
	int rc;

	json_decref(doc);
	if (!text)
		return err_set(err, "out of memory for the JSON report");
	if (s->path) {
		rc = report_write_atomic(s->path, text, strlen(text), err);
	} else {
		rc = fputs(text, stdout) < 0 || fputc('\n', stdout) < 0 ? -1 : 0;
		if (rc < 0)
			err_set(err, "writing JSON to stdout failed");
	}
	free(text);
	return rc;
}

/* Writing the empty document now proves the destination is writable. */
static int json_begin(struct report_sink *s, const struct report *r, char *err)
{
	return s->path ? write_doc(s, r, err) : 0;
}

static int json_add(struct report_sink *s, const struct report *r, size_t i, char *err)
{
	(void)i;
	return s->path ? write_doc(s, r, err) : 0;
}

static int json_end(struct report_sink *s, const struct report *r, char *err)
{
	return write_doc(s, r, err);
}

const struct reporter report_json = {
	.name = "json",
	.begin = json_begin,
	.add = json_add,
	.end = json_end,
	.snapshot = json_begin, /* the whole document, when it goes to a file */
};
