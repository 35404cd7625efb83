/*
 * cmd_compare.c - `iosweep compare OLD.json NEW.json`: for every run found in
 * both result files and each headline figure, the old and new medians with
 * their spread, the change in percent and whether it is significant.
 *
 * Modelled on Go's benchstat: the test is a two-sided Mann-Whitney U test
 * over the repeats (no assumption of normality), a change that is not
 * significant prints as `~`, and a geometric mean of the new/old ratios
 * sums up each figure.  Everything is computed first into an array of
 * pairs; the four output formats (table, csv, json, md) only print it.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/compare.h"
#include "cli/help.h"
#include "lib/error.h"
#include "lib/jsontext.h"
#include "lib/stats.h"
#include "lib/texttable.h"
#include "lib/units.h"
#include "report/figures.h"
#include "report/report.h"
#include "results/resultfile.h"

#define NFIG 9
#define MAX_KEYS 64
#define MAX_NOTE_SIZES 4

/* The figures compared (their titles, units and scales are the figure
 * table's).  The first four are every run's; the others only a run's that
 * has them and the figure they need (a readwrite run's per-direction
 * figures, a run's flushes), and are left out of the output where no run
 * has them. */
static const struct shown_figure {
	const char *name;
	const char *needs; /* NULL: always shown */
} shown[NFIG] = {
	{ "time_to_end_s", NULL },
	{ "throughput_Bps", NULL },
	{ "iops", NULL },
	{ "lat_p99_ns", NULL },
	{ "read_throughput_Bps", "write_bytes" },
	{ "write_throughput_Bps", "read_bytes" },
	{ "read_lat_p99_ns", "write_bytes" },
	{ "write_lat_p99_ns", "read_bytes" },
	{ "flush_lat_p99_ns", "flushes" },
};

/* What the output shows of one side's repeats: the median and the interval
 * around it, its 95% CI, else min..max (kept apart from struct summary, twice
 * the size, because a cell is kept for every figure of every pair). */
struct side {
	double median, lo, hi;
	size_t n;                /* 0: no repeats (or no such run) */
	bool has_ci;
	bool absent;             /* n is 0 but the run has completed repeats: the file
				    has not the figure (a fio mixed job's p99 of both
				    directions together) */
};

struct cell {
	bool applies;            /* the figure is the run's (shown_figure.needs) */
	struct side old, new;
	double change_pct;       /* NAN when it cannot be computed */
	double p;
};

struct pair {
	const struct resultfile_run *old, *new; /* NULL: the run is only in the other file */
	size_t at;               /* the labelled run (old, else new) in comparison.all */
	size_t nearest;          /* unmatched: the other file's run (in comparison.all)
				    that differs in the fewest parameters; SIZE_MAX: none */
	char *label;             /* malloc'd */
	struct cell cell[NFIG];
};

struct geomean {
	size_t n;                /* matched runs it is over */
	double old, new, change_pct;
};

struct comparison {
	struct resultfile file[2];
	struct resultfile_run **all; /* the runs of both files, old then new */
	struct runset set;       /* over all */
	double alpha;
	struct pair *pairs;      /* old file's order, then runs only in the new one */
	size_t npairs, nmatched;
	bool fio;                /* either file is a fio result: matched on what both say */
	bool same_file;          /* OLD and NEW are one file */
	struct geomean geo[NFIG];
	bool any[NFIG];          /* some matched run has the figure: it is shown */
	size_t few[MAX_NOTE_SIZES][2]; /* repeat counts that can never be significant */
	size_t nfew;
	bool range;              /* some spread is min..max, not a CI */
	bool wide;               /* some spread is over 100% of its median */
};

static bool significant(const struct cell *c, double alpha)
{
	return c->p <= alpha && isfinite(c->change_pct);
}

/* Whether run i of c->all says nothing of set key k: a parameter a fio
 * result cannot say (resultfile_fio.c leaves it out) is not compared. */
static bool unsaid(const struct comparison *c, size_t i, size_t k)
{
	size_t no = c->file[0].nruns;

	return c->file[i < no ? 0 : 1].from_fio &&
	       !resultfile_param(c->all[i], c->set.keys[k]);
}

/* Whether key k of the set is compared: every identity parameter, and the
 * job's name unless a fio result is in the comparison (a fio job may be
 * one of a list in the iosweep job). */
static bool compared(const struct comparison *c, size_t k)
{
	return !(c->fio && strcmp(c->set.keys[k], "job") == 0);
}

/* The parameters runs i and j of c->all differ in: their number, and the
 * first max of them (set key indexes) into diff. */
static size_t differences(const struct comparison *c, size_t i, size_t j, size_t *diff,
			  size_t max)
{
	size_t n = 0;

	for (size_t k = 0; k < c->set.nkeys; k++) {
		if (!compared(c, k) || c->set.id[k][i] == c->set.id[k][j] || unsaid(c, i, k) ||
		    unsaid(c, j, k))
			continue;
		if (n < max)
			diff[n] = k;
		n++;
	}
	return n;
}

/* With a fio result (a few runs, some parameters unsaid): each old run
 * takes the first new run that no earlier one took and that differs in
 * nothing both say. */
static void match_fio_runs(struct comparison *c, bool *used)
{
	size_t no = c->file[0].nruns, nn = c->file[1].nruns;

	for (size_t i = 0; i < no; i++) {
		struct pair *p = &c->pairs[c->npairs++];

		p->old = c->all[i];
		p->at = i;
		for (size_t j = 0; j < nn; j++)
			if (!used[j] && differences(c, i, no + j, NULL, 0) == 0) {
				used[j] = true;
				p->new = c->all[no + j];
				/* labelled by the run that says every parameter */
				if (c->file[0].from_fio && !c->file[1].from_fio)
					p->at = no + j;
				c->nmatched++;
				break;
			}
	}
}

#define NEAREST_MAX 20 /* unmatched runs given a nearest counterpart */

/* Each unmatched run's nearest counterpart (the first run of the other
 * file that differs in the fewest parameters), for the first NEAREST_MAX
 * unmatched runs, when no run matched: a search over every run of the
 * other file, so bounded. */
static void find_nearest(struct comparison *c)
{
	size_t no = c->file[0].nruns, nn = c->file[1].nruns, done = 0;

	for (size_t i = 0; i < c->npairs; i++) {
		struct pair *p = &c->pairs[i];
		size_t from = p->old ? no : 0, n = p->old ? nn : no, best = SIZE_MAX;

		p->nearest = SIZE_MAX;
		if ((p->old && p->new) || c->nmatched || done >= NEAREST_MAX)
			continue;
		for (size_t j = from; j < from + n; j++) {
			size_t d = differences(c, p->at, j, NULL, 0);

			if (d < best) {
				best = d;
				p->nearest = j;
			}
		}
		done++;
	}
}

/* The runs of both files, old then new, numbered by job and identity
 * parameters (struct runset; a fio run by its translated parameters alone:
 * its job may have become one of a list in the iosweep job, see
 * resultfile_fio.c): an old run takes the first new run with the same
 * number that no earlier old run took, found through per-number lists. */
static int match_runs(struct comparison *c)
{
	size_t no = c->file[0].nruns, nn = c->file[1].nruns;
	size_t *head = NULL, *next = NULL;
	bool *used = NULL;
	int rc = -1;

	c->all = calloc(no + nn + 1, sizeof(*c->all));
	c->pairs = calloc(no + nn + 1, sizeof(*c->pairs));
	if (!c->all || !c->pairs)
		return -1;
	if (no) /* (runs is NULL in a file without any) */
		memcpy(c->all, c->file[0].runs, no * sizeof(*c->all));
	if (nn)
		memcpy(c->all + no, c->file[1].runs, nn * sizeof(*c->all));
	c->fio = c->file[0].from_fio || c->file[1].from_fio;
	if (runset_init(&c->set, c->all, no + nn, !c->fio) < 0)
		return -1;
	head = calloc(c->set.nrun_ids + 1, sizeof(*head)); /* new run index + 1; 0: none */
	next = calloc(nn + 1, sizeof(*next));
	used = calloc(nn + 1, sizeof(*used));
	if (!head || !next || !used)
		goto out;
	if (c->fio) {
		match_fio_runs(c, used);
		goto unmatched;
	}
	for (size_t j = nn; j-- > 0;) {
		uint32_t id = c->set.run_id[no + j];

		next[j] = head[id];
		head[id] = j + 1;
	}
	for (size_t i = 0; i < no; i++) {
		struct pair *p = &c->pairs[c->npairs++];
		uint32_t id = c->set.run_id[i];

		p->old = c->all[i];
		p->at = i;
		if (head[id]) {
			used[head[id] - 1] = true;
			p->new = c->all[no + head[id] - 1];
			head[id] = next[head[id] - 1];
			c->nmatched++;
		}
	}
unmatched:
	for (size_t j = 0; j < nn; j++)
		if (!used[j]) {
			c->pairs[c->npairs].new = c->all[no + j];
			c->pairs[c->npairs++].at = no + j;
		}
	find_nearest(c);
	rc = 0;
out:
	free(head);
	free(next);
	free(used);
	return rc;
}

/* Whether the runs of file f (in c->all from first) differ in key. */
static bool varies_in_file(const struct comparison *c, int f, size_t first, const char *key)
{
	for (size_t i = 1; i < c->file[f].nruns; i++)
		if (resultfile_value_id(&c->set, key, first + i) !=
		    resultfile_value_id(&c->set, key, first))
			return true;
	return false;
}

/* Drops from keys[0..nkeys) each that a fio file says for none of its
 * runs (fill, and time_based when fio's JSON leaves it out), unless it
 * tells the other file's runs apart: absent, it would tell a fio run from
 * every other.  The new count. */
static size_t said_keys(const struct comparison *c, const char **keys, size_t nkeys)
{
	size_t kept = 0;

	for (size_t k = 0; k < nkeys; k++) {
		bool said[2] = { !c->file[0].from_fio, !c->file[1].from_fio };

		for (int f = 0; f < 2; f++)
			for (size_t i = 0; !said[f] && i < c->file[f].nruns; i++)
				said[f] = resultfile_param(c->file[f].runs[i], keys[k]) != NULL;
		if ((said[0] && said[1]) || (said[0] && varies_in_file(c, 0, 0, keys[k])) ||
		    (said[1] && varies_in_file(c, 1, c->file[0].nruns, keys[k])))
			keys[kept++] = keys[k];
	}
	return kept;
}

/* Labels name the job and the parameters that tell its runs apart, in
 * either file; -1 when out of memory. */
static int label_pairs(struct comparison *c)
{
	const char *keys[MAX_KEYS];
	size_t nkeys = resultfile_keys(&c->set, keys, MAX_KEYS);
	char label[512];

	nkeys = resultfile_independent(&c->set, keys, nkeys);
	nkeys = said_keys(c, keys, nkeys);
	for (size_t i = 0; i < c->npairs; i++) {
		resultfile_label(&c->set, c->pairs[i].at, true, keys, nkeys, label, sizeof(label));
		c->pairs[i].label = strdup(label);
		if (!c->pairs[i].label)
			return -1;
	}
	return 0;
}

/* Whether run has figure f and the figure it needs: positive medians. */
static int run_has(const struct resultfile_run *run, const struct figure *f,
		   const struct figure *needs, bool *has)
{
	struct summary s;
	size_t n = 0;
	double *x;

	*has = false;
	for (int k = 0; run && k < 2; k++) {
		x = resultfile_values(run, k ? needs : f, &n);
		if (!x)
			return -1;
		stats_summarize(x, n, &s);
		free(x);
		if (!(s.n && s.median > 0))
			return 0;
	}
	*has = run != NULL;
	return 0;
}

static void side_set(struct side *d, const struct summary *s)
{
	d->n = s->n;
	d->median = s->median;
	d->has_ci = s->has_ci;
	d->lo = s->has_ci ? s->ci95_low : s->min;
	d->hi = s->has_ci ? s->ci95_high : s->max;
}

static int compute_cell(struct cell *c, const struct resultfile_run *old,
			const struct resultfile_run *new, const struct figure *f,
			const struct figure *needs)
{
	size_t na = 0, nb = 0;
	double *a = old ? resultfile_values(old, f, &na) : NULL;
	double *b = new ? resultfile_values(new, f, &nb) : NULL;
	bool has_old = true, has_new = true;
	struct summary so, sn;
	int rc = 0;

	if ((old && !a) || (new && !b) ||
	    (needs && (run_has(old, f, needs, &has_old) < 0 ||
		       run_has(new, f, needs, &has_new) < 0))) {
		rc = -1;
		goto out;
	}
	c->applies = has_old || has_new;
	stats_summarize(a, na, &so);
	stats_summarize(b, nb, &sn);
	side_set(&c->old, &so);
	side_set(&c->new, &sn);
	c->old.absent = old && !na && old->nrepeats > old->ninterrupted;
	c->new.absent = new && !nb && new->nrepeats > new->ninterrupted;
	/* one repeat on a side (a fio result): no test, and no p to print */
	c->p = na < 2 || nb < 2 ? NAN : stats_mann_whitney_p(a, na, b, nb);
	c->change_pct = NAN;
	if (na && nb && c->old.median > 0)
		c->change_pct = (c->new.median / c->old.median - 1) * 100;
out:
	free(a);
	free(b);
	return rc;
}

/* Remembers repeat counts with which no change can reach alpha, once each. */
static void note_few(struct comparison *c, size_t na, size_t nb)
{
	if (na < 2 || nb < 2 || stats_mann_whitney_min_p(na, nb) <= c->alpha)
		return; /* (one repeat: no test at all, said as such) */
	for (size_t i = 0; i < c->nfew; i++)
		if (c->few[i][0] == na && c->few[i][1] == nb)
			return;
	if (c->nfew < MAX_NOTE_SIZES) {
		c->few[c->nfew][0] = na;
		c->few[c->nfew++][1] = nb;
	}
}

static int compute_geomean(struct geomean *g, const struct comparison *c, size_t fig)
{
	double *ratio = malloc((c->npairs + 1) * 3 * sizeof(*ratio));
	double *old, *new;

	if (!ratio)
		return -1;
	old = ratio + c->npairs + 1; /* not before the check: arithmetic on NULL is undefined */
	new = old + c->npairs + 1;
	g->n = 0;
	for (size_t i = 0; i < c->npairs; i++) {
		const struct cell *cell = &c->pairs[i].cell[fig];

		if (!c->pairs[i].old || !c->pairs[i].new || !cell->applies || !(cell->old.median > 0) ||
		    !(cell->new.median > 0) || !cell->old.n || !cell->new.n)
			continue;
		old[g->n] = cell->old.median;
		new[g->n] = cell->new.median;
		ratio[g->n++] = cell->new.median / cell->old.median;
	}
	g->old = stats_geomean(old, g->n);
	g->new = stats_geomean(new, g->n);
	g->change_pct = g->n ? (stats_geomean(ratio, g->n) - 1) * 100 : NAN;
	free(ratio);
	return 0;
}

static int compute(struct comparison *c)
{
	const struct figure *f[NFIG], *needs[NFIG];

	for (size_t k = 0; k < NFIG; k++) {
		f[k] = figure_find(shown[k].name);
		needs[k] = shown[k].needs ? figure_find(shown[k].needs) : NULL;
		c->any[k] = !needs[k];
	}
	if (match_runs(c) < 0 || label_pairs(c) < 0)
		return -1;
	for (size_t i = 0; i < c->npairs; i++)
		for (size_t k = 0; k < NFIG; k++) {
			struct cell *cell = &c->pairs[i].cell[k];
			bool both = c->pairs[i].old && c->pairs[i].new;

			if (compute_cell(cell, c->pairs[i].old, c->pairs[i].new, f[k], needs[k]) < 0)
				return -1;
			c->any[k] |= both && cell->applies;
			if (both && cell->applies)
				note_few(c, cell->old.n, cell->new.n);
		}
	for (size_t k = 0; k < NFIG; k++)
		if (compute_geomean(&c->geo[k], c, k) < 0)
			return -1;
	return 0;
}

/* "25.5 ms ± 4%": the median, and the farther end of its interval from it in
 * percent of it (benchstat's habit: one number, no unit to repeat). */
static void side_text(const struct figure *f, const struct side *s, bool *range, bool *wide,
		      char *buf, size_t n)
{
	double pct;
	char v[64];

	if (s->n == 0) {
		snprintf(buf, n, "%s", s->absent ? "not in the file" : "no repeats");
		return;
	}
	figure_format(f, s->median, v, sizeof(v));
	pct = figure_interval_pct(s->n, s->median, s->lo, s->hi);
	if (isnan(pct)) {
		snprintf(buf, n, "%s", v);
		return;
	}
	*range |= !s->has_ci;
	*wide |= pct > 100;
	snprintf(buf, n, "%s ± %.0f%%%s%s", v, pct, s->has_ci ? "" : " ¹", pct > 100 ? " ²" : "");
}

static void change_text(const struct cell *c, double alpha, char *buf, size_t n)
{
	char pct[32];

	if (!isfinite(c->change_pct)) {
		snprintf(buf, n, "%s", "n/a");
		return;
	}
	snprintf(pct, sizeof(pct), "%+.2f%%", c->change_pct);
	if (c->old.n < 2 || c->new.n < 2) {
		/* one repeat on a side (a fio result): a change, no test of it */
		snprintf(buf, n, "%s (n=%zu+%zu, no test)", pct, c->old.n, c->new.n);
		return;
	}
	snprintf(buf, n, "%s (p=%.3g n=%zu+%zu)", significant(c, alpha) ? pct : "~", c->p,
		 c->old.n, c->new.n);
}

static void table_section(struct texttable *t, struct comparison *c, size_t k)
{
	const struct figure *f = figure_find(shown[k].name);
	const struct geomean *g = &c->geo[k];
	char a[128], b[128], ch[128];

	tt_add(t, "%s", f->title);
	tt_add(t, "OLD");
	tt_add(t, "NEW");
	tt_add(t, "change");
	for (size_t i = 0; i < c->npairs; i++) {
		const struct pair *p = &c->pairs[i];

		if (!p->old || !p->new || !p->cell[k].applies)
			continue;
		side_text(f, &p->cell[k].old, &c->range, &c->wide, a, sizeof(a));
		side_text(f, &p->cell[k].new, &c->range, &c->wide, b, sizeof(b));
		change_text(&p->cell[k], c->alpha, ch, sizeof(ch));
		tt_add(t, "%s", p->label);
		tt_add(t, "%s", a);
		tt_add(t, "%s", b);
		tt_add(t, "%s", ch);
	}
	if (g->n) {
		figure_format(f, g->old, a, sizeof(a));
		figure_format(f, g->new, b, sizeof(b));
		tt_add(t, "geomean");
		tt_add(t, "%s", a);
		tt_add(t, "%s", b);
		tt_add(t, "%+.2f%%", g->change_pct);
	}
}

/* Smallest equal repeat count with which a change can be significant. */
static size_t repeats_needed(double alpha)
{
	size_t r = 2;

	while (r < 1000 && stats_mann_whitney_min_p(r, r) > alpha)
		r++;
	return r;
}

static void few_text(const struct comparison *c, char *buf, size_t n)
{
	size_t len = (size_t)snprintf(buf, n, "with ");

	for (size_t i = 0; i < c->nfew && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%zu+%zu", i ? " or " : "",
					c->few[i][0], c->few[i][1]);
	if (len < n)
		snprintf(buf + len, n - len, " repeats no change can be significant at alpha=%g; "
			 "use repeat >= %zu", c->alpha, repeats_needed(c->alpha));
}

/* "what: text", text as the terminal is to see it (tt_put) */
static void print_line(FILE *f, const char *what, const char *text, const char *after)
{
	fputs(what, f);
	tt_put(f, text);
	fprintf(f, "%s\n", after);
}

/* The fio jobs of either file whose parameters cannot be known
 * (resultfile_fio.h): left out, never matched by name alone.  Each as
 * "OLD: fio job 'r' is left out: ..." into buf; false after the last. */
static bool unknown_note(const struct comparison *c, size_t *at, char *buf, size_t n)
{
	for (size_t which = 0, i = *at; which < 2; which++) {
		json_t *list = json_object_get(c->file[which].doc, "fio_unknown");
		size_t len = json_array_size(list);

		if (i >= len) {
			i -= len;
			continue;
		}
		json_t *u = json_array_get(list, i);

		if (snprintf(buf, n, "%s: fio job '%.100s' is left out: its parameters cannot be known "
				 "here (%.300s), and a run is never matched by its name alone",
			 which ? "NEW" : "OLD", json_string_value(json_object_get(u, "job")),
			 json_string_value(json_object_get(u, "why"))) < 0)
			buf[0] = '\0';
		(*at)++;
		return true;
	}
	return false;
}

#define DIFF_MAX 8 /* differences named for a nearest counterpart */

/* "time_based 0 vs 1, bs 4KiB vs 64KiB": what run a (of c->all) has that
 * run b has otherwise; with its parameters as a job file writes them. */
static void differences_text(const struct comparison *c, size_t a, size_t b, char *buf,
			     size_t n)
{
	size_t diff[DIFF_MAX], nd = differences(c, a, b, diff, DIFF_MAX), len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < nd && i < DIFF_MAX && len < n; i++) {
		const char *key = c->set.keys[diff[i]];
		char va[64], vb[64];

		resultfile_param_text(key, resultfile_param(c->all[a], key), va, sizeof(va));
		resultfile_param_text(key, resultfile_param(c->all[b], key), vb, sizeof(vb));
		len += (size_t)snprintf(buf + len, n - len, "%s%s %s vs %s", i ? ", " : "", key, va,
					vb);
	}
	if (nd > DIFF_MAX && len < n)
		snprintf(buf + len, n - len, " and %zu more", nd - DIFF_MAX);
}

/* The nearest counterpart's line of an unmatched pair: "job: what differs". */
static void nearest_text(const struct comparison *c, const struct pair *p, char *buf, size_t n)
{
	char diff[512];
	const char *job = json_string_value(c->all[p->nearest]->job);

	differences_text(c, p->at, p->nearest, diff, sizeof(diff));
	snprintf(buf, n, "%.100s: %s", job ? job : "?", diff);
}

static void print_unmatched(const struct comparison *c, FILE *f)
{
	char text[700];

	for (int side = 0; side < 2; side++)
		for (size_t i = 0; i < c->npairs; i++) {
			const struct pair *p = &c->pairs[i];

			if (side ? p->old != NULL : p->new != NULL)
				continue;
			print_line(f, side ? "only in NEW: " : "only in OLD: ", p->label, "");
			if (p->nearest == SIZE_MAX)
				continue;
			nearest_text(c, p, text, sizeof(text));
			print_line(f, side ? "  nearest in OLD: " : "  nearest in NEW: ", text, "");
		}
}

static const char fio_note[] =
	"a fio result is one run per fio job with one repeat: fio's loops averaged into it; its "
	"p99 is of completion latency unless lat_percentiles=1 (and left out for numjobs clones "
	"reported one by one); runs are matched by the parameters of the job 'iosweep import' "
	"makes of it, all but the job's name, filename, repeat, warmup and what a fio result "
	"cannot say: fill (whether fio's file is here now), alloc of a write job (whether fio "
	"found its file), what an option fio's JSON leaves out when it is set bare decides "
	"(time_based, norandommap, zero_buffers, hipri, fixedbufs, registerfiles, "
	"sqthread_poll) and the size of a file that fio found and is gone";
static const char same_note[] = "OLD and NEW are the same file: every change is 0";

/* What follows the table: its legend, the notes, the unmatched runs. */
static void print_after(struct comparison *c, FILE *f)
{
	char note[512];

	if (c->nmatched) {
		fprintf(f, "±: the farther end of the 95%% confidence interval of the median, "
			   "in percent of it\n");
		if (c->range)
			fprintf(f, "¹: min..max of the repeats instead: a confidence interval "
				   "needs %zu repeats or more\n", stats_min_n_for_ci());
		if (c->wide)
			fprintf(f, "²: ± over 100%%: the repeats differ by more than the median "
				   "itself, so no change can be told from noise there\n");
		fprintf(f, "~: no significant change at alpha=%g (two-sided Mann-Whitney U test "
			   "over the repeats)\n", c->alpha);
	}
	if (c->nfew) {
		few_text(c, note, sizeof(note));
		fprintf(f, "note: %s\n", note);
	}
	if (c->fio)
		fprintf(f, "note: %s\n", fio_note);
	if (c->same_file)
		fprintf(f, "note: %s\n", same_note);
	for (size_t at = 0; unknown_note(c, &at, note, sizeof(note));)
		print_line(f, "note: ", note, "");
	print_unmatched(c, f);
}

static void print_table(struct comparison *c, FILE *f)
{
	struct texttable t;

	print_line(f, "OLD: ", c->file[0].path, c->file[0].from_fio ? " (fio)" : "");
	print_line(f, "NEW: ", c->file[1].path, c->file[1].from_fio ? " (fio)" : "");
	fputc('\n', f);
	if (c->nmatched == 0) {
		fprintf(f, "no run is in both files\n");
	} else {
		tt_init(&t, 4);
		t.right[1] = t.right[2] = true;
		for (size_t k = 0; k < NFIG; k++) {
			if (!c->any[k])
				continue;
			if (k)
				for (int i = 0; i < 4; i++)
					tt_add(&t, "%s", "");
			table_section(&t, c, k);
		}
		tt_print(&t, f, "");
		tt_free(&t);
		fputc('\n', f);
	}
	print_after(c, f);
}

/* The table as Markdown, for a pull-request comment: the files as two
 * lines, a table per figure (its title the first column's head), then the
 * legend, notes and unmatched runs as a list.  Every text from the files
 * (paths, job names, parameters) is escaped (report_md_text). */
static int print_md(struct comparison *c, FILE *f)
{
	char *after = NULL;
	size_t n;
	FILE *mem;

	fputs("OLD: ", f);
	report_md_text(f, c->file[0].path, false);
	fputs(c->file[0].from_fio ? " (fio)  \nNEW: " : "  \nNEW: ", f);
	report_md_text(f, c->file[1].path, false);
	fputs(c->file[1].from_fio ? " (fio)\n\n" : "\n\n", f);
	if (c->nmatched == 0)
		fputs("no run is in both files\n\n", f);
	for (size_t k = 0; c->nmatched && k < NFIG; k++) {
		struct texttable t;

		if (!c->any[k])
			continue;
		tt_init(&t, 4);
		t.right[1] = t.right[2] = true;
		table_section(&t, c, k);
		report_md_table(f, &t);
		fputc('\n', f);
		tt_free(&t);
	}
	mem = open_memstream(&after, &n);
	if (!mem)
		return -1;
	print_after(c, mem);
	if (fclose(mem) != 0) {
		free(after);
		return -1;
	}
	report_md_lines(f, after, true);
	free(after);
	return 0;
}

/* RFC 4180: quoted when it holds a comma, a quote or a line break. */
static void csv_number(FILE *f, double x, bool known)
{
	char buf[64] = "";

	if (known && isfinite(x))
		snprintf(buf, sizeof(buf), "%.10g", x);
	report_csv_field(f, buf, false);
}

static void csv_side(FILE *f, const struct side *s)
{
	char n[32];

	snprintf(n, sizeof(n), "%zu", s->n);
	report_csv_field(f, n, false);
	csv_number(f, s->median, s->n);
	csv_number(f, s->lo, s->n);
	csv_number(f, s->hi, s->n);
	report_csv_field(f, !s->n ? "" : s->has_ci ? "ci95" : "range", false);
}

static void csv_row(FILE *f, const struct comparison *c, const struct pair *p, size_t k)
{
	const struct cell *cell = &p->cell[k];
	bool both = p->old && p->new;

	report_csv_field(f, json_string_value((p->old ? p->old : p->new)->job), false);
	report_csv_field(f, p->label, false);
	report_csv_field(f, shown[k].name, false);
	csv_side(f, &cell->old);
	csv_side(f, &cell->new);
	csv_number(f, cell->change_pct, both);
	csv_number(f, cell->p, both);
	report_csv_field(f, !both ? "" : significant(cell, c->alpha) ? "true" : "false", true);
}

static void print_csv(const struct comparison *c, FILE *f)
{
	static const char *const header[] = {
		"job", "label", "figure", "old_n", "old_median", "old_low", "old_high",
		"old_interval", "new_n", "new_median", "new_low", "new_high", "new_interval",
		"change_pct", "p", "significant",
	};
	const size_t ncols = sizeof(header) / sizeof(header[0]);

	for (size_t i = 0; i < ncols; i++)
		report_csv_field(f, header[i], i + 1 == ncols);
	for (size_t i = 0; i < c->npairs; i++)
		for (size_t k = 0; k < NFIG; k++)
			if (!shown[k].needs || (c->any[k] && c->pairs[i].cell[k].applies))
				csv_row(f, c, &c->pairs[i], k);
	for (size_t k = 0; k < NFIG; k++) {
		const struct geomean *g = &c->geo[k];
		char n[32];

		if (!c->any[k])
			continue;
		snprintf(n, sizeof(n), "%zu", g->n);
		report_csv_field(f, "", false);
		report_csv_field(f, "geomean", false);
		report_csv_field(f, shown[k].name, false);
		for (int side = 0; side < 2; side++) {
			report_csv_field(f, n, false);
			csv_number(f, side ? g->new : g->old, g->n);
			fputs(",,,", f);
		}
		csv_number(f, g->change_pct, g->n);
		report_csv_field(f, "", false);
		report_csv_field(f, "", true);
	}
}

/* A number, or null when it is not finite (JSON has no NaN). */
static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *side_json(const struct side *s)
{
	if (!s->n)
		return json_pack("{s:i}", "n", 0);
	return json_pack("{s:I, s:o, s:o, s:o, s:s}", "n", (json_int_t)s->n, "median",
			 num(s->median), "low", num(s->lo), "high", num(s->hi), "interval",
			 s->has_ci ? "ci95" : "range");
}

static json_t *figures_json(const struct comparison *c, const struct pair *p)
{
	json_t *figs = json_object();

	for (size_t k = 0; figs && k < NFIG; k++) {
		const struct cell *cell = &p->cell[k];

		if (!cell->applies)
			continue;
		if (json_object_set_new(figs, shown[k].name,
					json_pack("{s:o, s:o, s:o, s:o, s:b}", "old",
						  side_json(&cell->old), "new",
						  side_json(&cell->new), "change_pct",
						  num(cell->change_pct), "p", num(cell->p),
						  "significant", significant(cell, c->alpha))) < 0) {
			json_decref(figs);
			figs = NULL;
		}
	}
	return figs;
}

/* An unmatched run's nearest counterpart: {"job", "differs":
 * {KEY: [this run's value, the counterpart's]}}, values as in "params". */
static json_t *nearest_json(const struct comparison *c, const struct pair *p)
{
	const struct resultfile_run *a = c->all[p->at], *b = c->all[p->nearest];
	size_t diff[RUNSET_MAX_KEYS], nd = differences(c, p->at, p->nearest, diff, RUNSET_MAX_KEYS);
	json_t *differs = json_object();

	for (size_t i = 0; differs && i < nd && i < RUNSET_MAX_KEYS; i++) {
		const char *key = c->set.keys[diff[i]];
		json_t *va = resultfile_param(a, key), *vb = resultfile_param(b, key);

		if (json_object_set_new(differs, key, json_pack("[OO]", va ? va : json_null(),
								vb ? vb : json_null())) < 0) {
			json_decref(differs);
			differs = NULL;
		}
	}
	return json_pack("{s:O, s:o}", "job", b->job, "differs", differs);
}

/* A matched run with its figures; an unmatched one without. */
static json_t *pair_json(const struct comparison *c, const struct pair *p)
{
	const struct resultfile_run *run = p->old ? p->old : p->new;
	json_t *o = json_pack("{s:O, s:s, s:o}", "job", run->job, "label", p->label, "params",
			      resultfile_params_json(run));

	if (o && p->old && p->new && json_object_set_new(o, "figures", figures_json(c, p)) < 0) {
		json_decref(o);
		return NULL;
	}
	if (o && !(p->old && p->new) && p->nearest != SIZE_MAX &&
	    json_object_set_new(o, "nearest", nearest_json(c, p)) < 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* Writes v (NULL: out of memory) compactly, on one line; -1 on failure. */
static int dump_line(FILE *f, const char *before, json_t *v)
{
	int rc = v && fputs(before, f) >= 0 &&
			 json_dumpf(v, f, JSON_ENCODE_ANY | JSON_REAL_PRECISION(10)) == 0 ? 0 : -1;

	json_decref(v);
	return rc;
}

/* The comparison as one JSON document, written piece by piece so that
 * memory does not grow with the runs: the files and alpha, then each list
 * ("runs", "only_in_old", "only_in_new") one run a line, the geomean and
 * the notes. */
static int print_json(const struct comparison *c, FILE *f)
{
	static const char *const list[] = { "runs", "only_in_old", "only_in_new" };
	json_t *geo = json_object(), *notes = json_array();
	char note[512];
	int rc = 0;

	rc |= dump_line(f, "{\n  \"old\": ", json_string(c->file[0].path));
	rc |= dump_line(f, ",\n  \"new\": ", json_string(c->file[1].path));
	rc |= dump_line(f, ",\n  \"alpha\": ", json_real(c->alpha));
	for (size_t which = 0; which < 3 && rc == 0; which++) {
		size_t n = 0;

		rc |= fprintf(f, ",\n  \"%s\": [", list[which]) < 0;
		for (size_t i = 0; i < c->npairs && rc == 0; i++) {
			const struct pair *p = &c->pairs[i];

			if (which == (p->old && p->new ? 0 : p->old ? 1 : 2))
				rc |= dump_line(f, n++ ? ",\n    " : "\n    ", pair_json(c, p));
		}
		rc |= fputs(n ? "\n  ]" : "]", f) < 0;
	}
	for (size_t k = 0; geo && k < NFIG; k++)
		if (c->any[k])
			rc |= json_object_set_new(geo, shown[k].name,
						  json_pack("{s:I, s:o, s:o, s:o}", "n",
							    (json_int_t)c->geo[k].n, "old",
							    num(c->geo[k].old), "new",
							    num(c->geo[k].new), "change_pct",
							    num(c->geo[k].change_pct)));
	if (c->nfew) {
		few_text(c, note, sizeof(note));
		rc |= json_array_append_new(notes, json_string(note));
	}
	if (c->fio)
		rc |= json_array_append_new(notes, json_string(fio_note));
	if (c->same_file)
		rc |= json_array_append_new(notes, json_string(same_note));
	for (size_t at = 0; unknown_note(c, &at, note, sizeof(note));)
		rc |= json_array_append_new(notes, json_text(note));
	rc |= dump_line(f, ",\n  \"geomean\": ", geo);
	rc |= dump_line(f, ",\n  \"notes\": ", notes);
	return rc || fputs("\n}\n", f) < 0 ? -1 : 0;
}

/* table (the default), csv or json, to stdout. */
static int output_format(const struct cli *cl, const char **format)
{
	*format = "table";
	if (cl->nout > 1) {
		cli_error("compare: one -o at most");
		return -1;
	}
	if (cl->nout == 0)
		return 0;
	*format = cl->out[0].format;
	if (cl->out[0].path) {
		cli_error("compare: -o %s:%s: compare writes to stdout only", *format,
			  cl->out[0].path);
		return -1;
	}
	if (strcmp(*format, "table") != 0 && strcmp(*format, "csv") != 0 &&
	    strcmp(*format, "json") != 0 && strcmp(*format, "md") != 0) {
		cli_error("compare: unknown output format '%s' (known: table, csv, json, md)",
			  *format);
		return -1;
	}
	return 0;
}

/* Adds fig to f[0..*n) unless it is there already (or NULL). */
static void keep_figure(const struct figure **f, size_t *n, const struct figure *fig)
{
	for (size_t j = 0; j < *n; j++)
		// cppcheck-suppress uninitvar ; f[0..*n) are set, and only pointers are compared
		if (f[j] == fig)
			return;
	if (fig)
		f[(*n)++] = fig;
}

static int load_files(struct comparison *c, const struct cli *cl)
{
	const struct figure *f[(size_t)2 * NFIG];
	size_t nf = 0;
	char err[ERR_MAX];
	struct stat st[2];

	/* the figures shown and those they need, each once */
	for (size_t k = 0; k < NFIG; k++) {
		keep_figure(f, &nf, figure_find(shown[k].name));
		if (shown[k].needs)
			keep_figure(f, &nf, figure_find(shown[k].needs));
	}
	for (int i = 0; i < 2; i++)
		if (resultfile_load(&c->file[i], cl->files[i], f, nf, 0, err) < 0) {
			cli_error("%s", err);
			return -1;
		}
	c->same_file = stat(cl->files[0], &st[0]) == 0 && stat(cl->files[1], &st[1]) == 0 &&
		       st[0].st_dev == st[1].st_dev && st[0].st_ino == st[1].st_ino;
	return 0;
}

static void comparison_free(struct comparison *c)
{
	runset_free(&c->set);
	free(c->all);
	resultfile_free(&c->file[0]);
	resultfile_free(&c->file[1]);
	for (size_t i = 0; c->pairs && i < c->npairs; i++)
		free(c->pairs[i].label);
	free(c->pairs);
}

static int print_comparison(struct comparison *c, const char *format)
{
	int rc = 0;

	if (strcmp(format, "json") == 0)
		rc = print_json(c, stdout);
	else if (strcmp(format, "csv") == 0)
		print_csv(c, stdout);
	else if (strcmp(format, "md") == 0)
		rc = print_md(c, stdout);
	else
		print_table(c, stdout);
	if (rc < 0 && !ferror(stdout)) {
		cli_error("compare: out of memory");
		return EXIT_RUN;
	}
	if (rc < 0 || fflush(stdout) != 0 || ferror(stdout)) {
		cli_error("compare: writing to stdout failed");
		return EXIT_RUN;
	}
	return EXIT_OK;
}

int compare_files(const char *old, const char *new, double alpha, FILE *out)
{
	struct comparison c;
	struct cli cl = { .nfiles = 2, .files = (char *[]){ (char *)old, (char *)new } };
	int rc = EXIT_OK;

	memset(&c, 0, sizeof(c));
	c.alpha = alpha;
	if (load_files(&c, &cl) < 0) {
		rc = EXIT_USAGE;
	} else if (compute(&c) < 0) {
		cli_error("compare: out of memory");
		rc = EXIT_RUN;
	} else {
		print_table(&c, out);
	}
	comparison_free(&c);
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	struct comparison c;
	struct cli cl;
	const char *format;
	int rc = cli_parse("compare", argc, argv, &cl);

	if (rc)
		return rc;
	memset(&c, 0, sizeof(c));
	c.alpha = cl.alpha;
	if (cl.nfiles != 2) {
		cli_error("compare: expected two result files (usage: iosweep %s)",
			  help_usage("compare"));
		rc = EXIT_USAGE;
	} else if (output_format(&cl, &format) < 0 || load_files(&c, &cl) < 0) {
		rc = EXIT_USAGE;
	} else if (compute(&c) < 0) {
		cli_error("compare: out of memory");
		rc = EXIT_RUN;
	} else {
		rc = print_comparison(&c, format);
		if (rc == EXIT_OK && c.nmatched == 0) {
			cli_error("compare: %s and %s have no run in common (%s)", cl.files[0],
				  cl.files[1], c.fio ? "runs match by the parameters both files say, "
				  "other than filename, repeat and warmup" :
				  "runs match by job name and parameters other than filename, repeat "
				  "and warmup");
			rc = EXIT_USAGE;
		}
	}
	comparison_free(&c);
	cli_free(&cl);
	return rc;
}

struct compare_pair *compare_pairs(const struct resultfile *old, const struct resultfile *new,
				   size_t *n)
{
	struct comparison c;
	struct compare_pair *out = NULL;

	memset(&c, 0, sizeof(c));
	c.file[0] = *old; /* shallow: matching reads the runs, never frees them */
	c.file[1] = *new;
	if (match_runs(&c) == 0 && label_pairs(&c) == 0)
		out = calloc(c.npairs + 1, sizeof(*out));
	for (size_t i = 0; out && i < c.npairs; i++) {
		out[i] = (struct compare_pair){ c.pairs[i].old, c.pairs[i].new, c.pairs[i].label };
		c.pairs[i].label = NULL;
	}
	*n = out ? c.npairs : 0;
	for (size_t i = 0; c.pairs && i < c.npairs; i++)
		free(c.pairs[i].label);
	runset_free(&c.set);
	free(c.all);
	free(c.pairs);
	return out;
}

void compare_pairs_free(struct compare_pair *p, size_t n)
{
	for (size_t i = 0; p && i < n; i++)
		free(p[i].label);
	free(p);
}
