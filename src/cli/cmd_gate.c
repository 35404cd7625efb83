/*
 * cmd_gate.c - `iosweep gate NEW.json --against OLD.json | --history N`: a
 * regression gate for CI.  Each run of NEW is compared with the same run of
 * OLD (matched as compare matches them, compare.h), or with the repeats of
 * the same run in the last N results of the history database from the
 * same host, and judged on one figure:
 *
 *   slower        p <= alpha and worse by more than --max-slowdown  (exit 1)
 *   inconclusive  too few repeats for any p to reach alpha, or nothing to
 *                 compare with in the history                        (exit 3)
 *   interrupted   a repeat of either side was interrupted, or the run
 *                 failed: never judged as if complete                 (exit 3)
 *   faster, within threshold, no change                              (exit 0)
 *
 * Which way is worse is the figure's direction (figure_better).  The
 * verdicts are printed as Markdown, for a CI log or a pull-request comment.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/compare.h"
#include "cli/help.h"
#include "lib/error.h"
#include "lib/stats.h"
#include "report/figures.h"
#include "results/history.h"
#include "results/resultfile.h"

#define EXIT_INCONCLUSIVE 3

enum verdict { V_NO_CHANGE, V_FASTER, V_WITHIN, V_SLOWER, V_INCONCLUSIVE, V_NO_HISTORY,
	       V_INTERRUPTED, V_FAILED };

static const char *const verdict_name[] = {
	[V_NO_CHANGE] = "no change", [V_FASTER] = "faster", [V_WITHIN] = "within threshold",
	[V_SLOWER] = "**slower**", [V_INCONCLUSIVE] = "inconclusive",
	[V_NO_HISTORY] = "inconclusive (no history)", [V_INTERRUPTED] = "interrupted",
	[V_FAILED] = "failed",
};

struct row {
	const char *label;
	const struct figure *f;
	struct summary old, new;
	size_t nresults;     /* --history: the results the old repeats come from */
	double change_pct;   /* of the median, NAN when unknown */
	double p;            /* NAN: no test */
	enum verdict v;
};

struct gate {
	const struct cli *cl;
	struct resultfile file[2]; /* OLD (--against only), NEW */
	struct compare_pair *pairs;
	size_t npairs;
	struct row *rows;
	size_t nrows;
	struct history *db;
	char new_hash[17], host_key[HOST_NFIELDS * 128 + 8];
};

/* The figure judged for run: --figure, else throughput for a time_based
 * run (its time is fixed), else time to end. */
static const struct figure *figure_for(const struct cli *cl, const struct resultfile_run *run)
{
	const json_t *tb = resultfile_param(run, "time_based");

	if (cl->figure)
		return figure_find(cl->figure);
	if (json_is_string(tb) && strcmp(json_string_value(tb), "1") == 0)
		return figure_find("throughput_Bps");
	return figure_find("time_to_end_s");
}

static bool cut_short(const struct resultfile_run *run)
{
	return run && run->ninterrupted > 0;
}

/* The verdict on a run from its old and new values. */
static void judge(struct row *r, const struct cli *cl, const double *a, size_t na,
		  const double *b, size_t nb)
{
	double slowdown;

	stats_summarize(a, na, &r->old);
	stats_summarize(b, nb, &r->new);
	r->p = na && nb ? stats_mann_whitney_p(a, na, b, nb) : NAN;
	r->change_pct = NAN;
	if (na && nb && r->old.median > 0)
		r->change_pct = (r->new.median / r->old.median - 1) * 100;
	if (na < 2 || nb < 2 || stats_mann_whitney_min_p(na, nb) > cl->alpha ||
	    !isfinite(r->change_pct)) {
		r->v = V_INCONCLUSIVE;
		return;
	}
	slowdown = -figure_better(r->f) * r->change_pct;
	if (r->p > cl->alpha)
		r->v = V_NO_CHANGE;
	else if (slowdown > cl->max_slowdown_pct)
		r->v = V_SLOWER;
	else
		r->v = slowdown > 0 ? V_WITHIN : V_FASTER;
}

/* The old values of new's run: of the matched old run, or pooled from the
 * history; -1 when out of memory or the database failed. */
static int old_values(struct gate *g, const struct compare_pair *p, struct row *r,
		      double **a, size_t *na)
{
	char err[ERR_MAX];
	char *key;
	int rc;

	if (!g->db) {
		*a = resultfile_values(p->old, r->f, na);
		return *a ? 0 : -1;
	}
	key = history_run_key(p->new);
	if (!key)
		return -1;
	rc = history_previous(g->db, g->host_key, key, g->new_hash, g->cl->history_last,
			      r->f->name, a, na, &r->nresults, err);
	free(key);
	if (rc < 0)
		cli_error("gate: %s", err);
	return rc;
}

static int judge_pair(struct gate *g, const struct compare_pair *p, struct row *r)
{
	double *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;
	int rc = 0;

	r->label = p->label;
	r->f = figure_for(g->cl, p->new);
	if (!r->f || old_values(g, p, r, &a, &na) < 0)
		return -1;
	b = resultfile_values(p->new, r->f, &nb);
	if (!b) {
		free(a);
		return -1;
	}
	judge(r, g->cl, a, na, b, nb);
	if (g->db && r->nresults == 0)
		r->v = V_NO_HISTORY;
	if (cut_short(p->old) || cut_short(p->new))
		r->v = V_INTERRUPTED;
	if ((p->old && p->old->failed) || p->new->failed)
		r->v = V_FAILED;
	free(a);
	free(b);
	return rc;
}

/* A Markdown table cell: '|' and '\' escaped, control characters as '?'. */
static void md_cell(FILE *f, const char *s)
{
	fputs("| ", f);
	for (; s && *s; s++) {
		if (*s == '|' || *s == '\\' || *s == '*' || *s == '_' || *s == '`')
			fputc('\\', f);
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
	}
	fputc(' ', f);
}

/* "1.25 ms ± 3% (n=5)": the median, its interval's farther end, the repeats. */
static void side_text(const struct row *r, const struct summary *s, char *buf, size_t n)
{
	char v[64];
	double pct = figure_spread_pct(s, &(bool){ false });

	if (!s->n) {
		snprintf(buf, n, "no repeats");
		return;
	}
	figure_format(r->f, s->median, v, sizeof(v));
	if (isnan(pct))
		snprintf(buf, n, "%s (n=%zu)", v, s->n);
	else
		snprintf(buf, n, "%s ± %.0f%% (n=%zu)", v, pct, s->n);
}

static void print_row(FILE *f, const struct row *r)
{
	char a[128], b[128], ch[32] = "n/a", p[32] = "n/a";

	if (!r->f) /* (every row is judged before it is printed) */
		return;
	side_text(r, &r->old, a, sizeof(a));
	side_text(r, &r->new, b, sizeof(b));
	if (isfinite(r->change_pct))
		snprintf(ch, sizeof(ch), "%+.2f%%", r->change_pct);
	if (isfinite(r->p) && r->old.n >= 2 && r->new.n >= 2)
		snprintf(p, sizeof(p), "%.3g", r->p);
	md_cell(f, r->label);
	md_cell(f, r->f->title);
	fprintf(f, "| %s | %s | %s | %s | %s |\n", a, b, ch, p, verdict_name[r->v]);
}

/* Smallest equal repeat count with which a change can be significant. */
static size_t repeats_needed(double alpha)
{
	size_t r = 2;

	while (r < 1000 && stats_mann_whitney_min_p(r, r) > alpha)
		r++;
	return r;
}

static size_t count(const struct gate *g, enum verdict lo, enum verdict hi)
{
	size_t n = 0;

	for (size_t i = 0; i < g->nrows; i++)
		n += g->rows[i].v >= lo && g->rows[i].v <= hi;
	return n;
}

/* The Markdown summary; returns the exit status it states. */
static int print_summary(const struct gate *g, FILE *f)
{
	const struct cli *cl = g->cl;
	size_t slower = count(g, V_SLOWER, V_SLOWER), undecided = count(g, V_INCONCLUSIVE, V_FAILED);
	int rc = slower ? EXIT_RUN : undecided && !cl->allow_inconclusive ? EXIT_INCONCLUSIVE : 0;

	if (g->db)
		fprintf(f, "### iosweep gate: `%s` against the last %zu results of this host in "
			   "the history\n\n", g->file[1].path, cl->history_last);
	else
		fprintf(f, "### iosweep gate: `%s` against `%s`\n\n", g->file[1].path,
			g->file[0].path);
	fprintf(f, "| run | figure | old | new | change | p | verdict |\n"
		   "|:--|:--|--:|--:|--:|--:|:--|\n");
	for (size_t i = 0; i < g->nrows; i++)
		print_row(f, &g->rows[i]);
	fprintf(f, "\n**%s**: %zu of %zu runs slower by more than %g%% (p <= %g, two-sided "
		   "Mann-Whitney U test over the repeats)", slower ? "slower" : undecided ?
		   "inconclusive" : "pass", slower, g->nrows, cl->max_slowdown_pct, cl->alpha);
	if (undecided)
		fprintf(f, "; %zu could not be decided%s", undecided,
			cl->allow_inconclusive && !slower ? " (allowed)" : "");
	fprintf(f, ".\n");
	if (count(g, V_INCONCLUSIVE, V_INCONCLUSIVE))
		fprintf(f, "\ninconclusive: too few repeats for any change to be significant at "
			   "alpha=%g; use repeat >= %zu\n", cl->alpha, repeats_needed(cl->alpha));
	if (count(g, V_INTERRUPTED, V_FAILED))
		fprintf(f, "\ninterrupted, failed: a run with an interrupted repeat (on either "
			   "side) or that failed is not judged\n");
	for (size_t i = 0; !g->db && i < g->npairs; i++)
		if (!g->pairs[i].old || !g->pairs[i].new)
			fprintf(f, "\nonly in %s, not gated: %s", g->pairs[i].old ? "OLD" : "NEW",
				g->pairs[i].label);
	return rc;
}

/* NEW and OLD ran on like hosts, unless --any-host; -1 after saying why. */
static int same_host(const struct gate *g)
{
	struct history_host a, b;
	int d;

	history_host_of(g->file[0].doc, &a);
	history_host_of(g->file[1].doc, &b);
	d = history_host_differs(&a, &b);
	if (d < 0 || g->cl->any_host)
		return 0;
	cli_error("gate: %s and %s are from different hosts: %s '%s' and '%s' (--any-host "
		  "to gate them anyway)", g->file[0].path, g->file[1].path,
		  history_host_fields[d], a.field[d], b.field[d]);
	return -1;
}

static int load(struct gate *g, const char *path, struct resultfile *rf)
{
	const struct figure *f[3] = { figure_find("time_to_end_s"), figure_find("throughput_Bps"),
				      g->cl->figure ? figure_find(g->cl->figure) : NULL };
	char err[ERR_MAX];

	if (resultfile_load(rf, path, f, f[2] ? 3 : 2, 0, err) == 0)
		return 0;
	cli_error("%s", err);
	return -1;
}

/* Everything checked before anything is judged: the arguments, the files,
 * the hosts; -1 after saying why. */
static int prepare(struct gate *g)
{
	const struct cli *cl = g->cl;
	const struct figure *f = cl->figure ? figure_find(cl->figure) : NULL;
	char err[ERR_MAX] = "", hash[17] = "", path[4096];
	struct history_host host;

	if (cl->nfiles != 1 || !cl->against == !cl->history_last) {
		cli_error("gate: expected one result file and either --against or --history "
			  "(usage: iosweep %s)", help_usage("gate"));
		return -1;
	}
	if (cl->figure && (!f || !figure_better(f))) {
		cli_error("gate: --figure %s: %s (time_to_end_s, throughput_Bps, iops, "
			  "lat_p99_ns, ...)", cl->figure, f ? "neither better higher nor lower: "
			  "not a figure to gate on" : "no such figure");
		return -1;
	}
	if (load(g, cl->files[0], &g->file[1]) < 0 ||
	    history_hash_file(cl->files[0], g->new_hash, err) < 0 ||
	    (cl->against && (load(g, cl->against, &g->file[0]) < 0 ||
			     history_hash_file(cl->against, hash, err) < 0))) {
		if (*err)
			cli_error("gate: %s", err);
		return -1;
	}
	if (cl->against && strcmp(hash, g->new_hash) == 0) {
		cli_error("gate: %s and %s are the same result (given twice: a result gated "
			  "against itself says nothing)", cl->against, cl->files[0]);
		return -1;
	}
	if (cl->against)
		return same_host(g);
	history_host_of(g->file[1].doc, &host);
	history_host_key(&host, g->host_key, sizeof(g->host_key));
	if (history_path(cl->db, false, path, sizeof(path), err) < 0 ||
	    history_open(&g->db, path, false, err) < 0) {
		cli_error("gate: %s", err);
		return -1;
	}
	return 0;
}

static int judge_all(struct gate *g)
{
	g->pairs = compare_pairs(&g->file[0], &g->file[1], &g->npairs);
	g->rows = calloc(g->npairs + 1, sizeof(*g->rows));
	if (!g->pairs || !g->rows)
		return -1;
	for (size_t i = 0; i < g->npairs; i++)
		if (g->pairs[i].new && (g->db || g->pairs[i].old) &&
		    judge_pair(g, &g->pairs[i], &g->rows[g->nrows++]) < 0)
			return -1;
	return 0;
}

int cmd_gate(int argc, char **argv)
{
	struct gate g;
	struct cli cl;
	int rc = cli_parse("gate", argc, argv, &cl);

	if (rc)
		return rc;
	memset(&g, 0, sizeof(g));
	g.cl = &cl;
	if (prepare(&g) < 0) {
		rc = EXIT_USAGE;
	} else if (judge_all(&g) < 0) {
		cli_error("gate: out of memory");
		rc = EXIT_RUN;
	} else if (g.nrows == 0) {
		if (cl.against)
			cli_error("gate: %s and %s have no run in common (runs match by job name "
				  "and parameters other than filename, repeat and warmup)",
				  cl.against, cl.files[0]);
		else
			cli_error("gate: %s: no runs", cl.files[0]);
		rc = EXIT_USAGE;
	} else {
		rc = print_summary(&g, stdout);
		if (fflush(stdout) != 0 || ferror(stdout)) {
			cli_error("gate: writing to stdout failed");
			rc = EXIT_RUN;
		}
	}
	compare_pairs_free(g.pairs, g.npairs);
	free(g.rows);
	history_close(g.db);
	resultfile_free(&g.file[0]);
	resultfile_free(&g.file[1]);
	cli_free(&cl);
	return rc;
}
