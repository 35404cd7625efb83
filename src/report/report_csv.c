/*
 * report_csv.c - tidy CSV: a header, then one row per measured repeat with
 * the run's parameters and that repeat's figures (RFC 4180 quoting).  Rows
 * are written and flushed as each run completes: to stdout, or to a
 * temporary file beside the destination that is renamed over it at the end
 * (also after an interruption), when every row was written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/figures.h"
#include "report/report.h"

void report_csv_field(FILE *f, const char *s, bool last)
{
	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputs(last ? "\r\n" : ",", f);
}

int report_csv_flush(struct report_sink *s, char *err)
{
	return fflush(s->f) == 0 ? 0
				 : err_set(err, "writing %s: %s", s->path ? s->path : "CSV to stdout",
					   strerror(errno));
}

/* ss (empty without one) and the cliffs: the window, its figure, each
 * round's criterion as END_S:CRITERION separated by ';'; the cliffs as
 * FIGURE@AT_S:AT_BYTES:BEFORE:AFTER separated by ';'; whether the repeat
 * ended at its first cliff (stop_at_cliff; empty without). */
static const char *const steady_fields[] = { "steady", "steady_window_start_s",
					     "steady_window_end_s", "steady_window_mean",
					     "steady_window_ci95", "steady_rounds", "cliffs",
					     "cliff_stopped" };
#define CSV_STEADY_FIELDS (sizeof(steady_fields) / sizeof(steady_fields[0]))

static void csv_num(FILE *f, double x)
{
	char buf[32] = "";

	if (isfinite(x))
		snprintf(buf, sizeof(buf), "%.10g", x);
	report_csv_field(f, buf, false);
}

/* A plan with groups (plan.h) has four more fields before interrupted: the
 * group, which of its runs, whether its end cut the job, and its start
 * skew; a plan without keeps its columns. */
static const char *const group_fields[] = { "group", "group_run", "group_cut",
					    "group_start_skew_s" };
#define CSV_GROUP_FIELDS (sizeof(group_fields) / sizeof(group_fields[0]))

static bool plan_grouped(const struct plan *plan)
{
	for (size_t i = 0; i < plan->n; i++)
		if (plan->runs[i].group)
			return true;
	return false;
}

static void csv_group(FILE *f, const struct run *run, const struct repeat_result *rr)
{
	char buf[32] = "";

	report_csv_field(f, run->group ? run->group : "", false);
	if (run->group)
		snprintf(buf, sizeof(buf), "%zu", run->group_run);
	report_csv_field(f, buf, false);
	report_csv_field(f, !run->group || !rr ? "" : rr->group_cut ? "true" : "false", false);
	csv_num(f, run->group && rr ? rr->group_start_skew_s : NAN);
}

static int csv_begin(struct report_sink *s, const struct report *r, char *err)
{
	if (report_open(s, err) < 0)
		return -1;
	report_csv_field(s->f, "job", false);
	report_csv_field(s->f, "run", false);
	report_csv_field(s->f, "repeat", false);
	/* "repeat" is the repeat's number here: the option is the count, "repeats" */
	for (int i = 0; i < OPT__COUNT; i++)
		if (!option_table[i].per_job)
			report_csv_field(s->f, i == OPT_REPEAT ? "repeats" : option_table[i].name,
					 false);
	for (size_t i = 0; i < figure_count; i++)
		report_csv_field(s->f, figure_table[i].name, false);
	report_csv_field(s->f, "consume_result", false);
	report_csv_field(s->f, "cache_as_asked", false);
	report_csv_field(s->f, "runtime_limited", false);
	for (size_t i = 0; i < CSV_STEADY_FIELDS; i++)
		report_csv_field(s->f, steady_fields[i], false);
	for (size_t i = 0; plan_grouped(r->plan) && i < CSV_GROUP_FIELDS; i++)
		report_csv_field(s->f, group_fields[i], false);
	report_csv_field(s->f, "interrupted", true);
	return report_csv_flush(s, err);
}


static void csv_steady(FILE *f, const struct repeat_result *rr)
{
	const struct steady_result *st = &rr->steady;
	char buf[4096];
	size_t used = 0;

	report_csv_field(f, !st->asked ? "" : st->attained ? "attained" : "not attained", false);
	csv_num(f, st->asked ? st->window_start_s : NAN);
	csv_num(f, st->asked ? st->window_end_s : NAN);
	csv_num(f, st->asked ? st->mean : NAN);
	csv_num(f, st->asked ? st->ci95 : NAN);
	buf[0] = '\0';
	for (size_t k = 0; k < st->ncrit && used < sizeof(buf); k++)
		if (!isnan(st->crit[k]))
			used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%g:%.10g",
						 used ? ";" : "",
						 (double)(k + 1) * rr->series_interval_s, st->crit[k]);
	report_csv_field(f, buf, false);
	used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < rr->ncliffs && used < sizeof(buf); i++) {
		const struct cliff_result *c = &rr->cliffs[i];

		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s@%g:%llu:%.10g:%.10g",
					 used ? ";" : "",
					 c->figure == CLIFF_THROUGHPUT ? "throughput_Bps" : "lat_mean_ns",
					 c->at_s, (unsigned long long)c->at_bytes, c->before, c->after);
	}
	report_csv_field(f, buf, false);
}

/* The start of a row: job, run, repeat and the run's parameters. */
static void csv_params(FILE *f, const struct run *run, size_t repeat)
{
	char buf[4096];

	report_csv_field(f, run->job->name, false);
	snprintf(buf, sizeof(buf), "%zu", run->index);
	report_csv_field(f, buf, false);
	snprintf(buf, sizeof(buf), "%zu", repeat);
	report_csv_field(f, buf, false);
	for (int i = 0; i < OPT__COUNT; i++) {
		if (option_table[i].per_job)
			continue;
		if (option_table[i].type == T_SIZE || option_table[i].type == T_UINT)
			snprintf(buf, sizeof(buf), "%llu", (unsigned long long)run->v[i].u);
		else
			option_format(i, run->v[i], buf, sizeof(buf));
		report_csv_field(f, buf, false);
	}
}

static int csv_add(struct report_sink *s, const struct report *r, size_t idx, char *err)
{
	const struct run_result *res = &r->results[idx];
	const struct run *run = res->run;
	char buf[64];

	for (size_t k = 0; k < res->nrep; k++) {
		const struct repeat_result *rr = &res->rep[k];

		csv_params(s->f, run, k);
		for (size_t i = 0; i < figure_count; i++) {
			const struct figure *f = &figure_table[i];

			if (!figure_known(f, rr))
				buf[0] = '\0';
			else if (f->type == FIG_U64)
				snprintf(buf, sizeof(buf), "%.0f", figure_value(f, rr));
			else
				snprintf(buf, sizeof(buf), "%.10g", figure_value(f, rr));
			report_csv_field(s->f, buf, false);
		}
		report_consume_text(run, rr->sum, buf, sizeof(buf));
		report_csv_field(s->f, buf, false);
		report_csv_field(s->f, rr->cache_as_asked ? "true" : "false", false);
		report_csv_field(s->f, rr->runtime_limited ? "true" : "false", false);
		csv_steady(s->f, rr);
		report_csv_field(s->f, res->run->v[OPT_STOP_AT_CLIFF].u != FLAG_ON ? ""
				       : rr->cliff_stopped ? "true" : "false", false);
		if (plan_grouped(r->plan))
			csv_group(s->f, run, rr);
		report_csv_field(s->f, rr->interrupted ? "true" : "false", true);
	}
	return report_csv_flush(s, err);
}

/* A file is renamed into place complete, or (after a failed write) not at all. */
int report_csv_end(struct report_sink *s, const struct report *r, char *err)
{
	(void)r;
	return report_close(s, err);
}

/* Where a stop cut the sweep, when no row says so yet (the stop fell
 * between repeats or between runs): the run and repeat that were next;
 * false when the last row is an interrupted repeat or nothing was left. */
static bool cut_at(const struct report *r, const struct run **run, size_t *repeat)
{
	const struct run_result *last = r->ndone ? &r->results[r->ndone - 1] : NULL;

	if (!r->interrupted || (last && last->nrep && last->rep[last->nrep - 1].interrupted))
		return false;
	if (last && last->interrupted && !last->failed &&
	    last->nrep < plan_repeats(last->run)) {
		*run = last->run;
		*repeat = last->nrep;
		return true;
	}
	if (r->ndone >= r->plan->n)
		return false;
	*run = &r->plan->runs[r->ndone];
	*repeat = 0;
	return true;
}

/* The end: after a stop that no row shows, a row for the repeat that was
 * next, with its parameters, no figures and interrupted=true, so that a
 * reader of the CSV alone sees that the sweep was cut, and where. */
static int csv_end(struct report_sink *s, const struct report *r, char *err)
{
	const struct run *run;
	size_t repeat;

	if (cut_at(r, &run, &repeat)) {
		csv_params(s->f, run, repeat);
		for (size_t i = 0; i < figure_count + 3 + CSV_STEADY_FIELDS; i++)
			report_csv_field(s->f, "", false);
		if (plan_grouped(r->plan))
			csv_group(s->f, run, NULL);
		report_csv_field(s->f, "true", true);
	}
	return report_csv_end(s, r, err);
}

const struct reporter report_csv = {
	.name = "csv",
	.begin = csv_begin,
	.add = csv_add,
	.end = csv_end,
};
