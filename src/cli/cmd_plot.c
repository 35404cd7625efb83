/*
 * cmd_plot.c - `iosweep plot RESULT.json`: one figure (median over the
 * repeats, with error bars) against one run parameter, drawn by gnuplot;
 * with --over, a repeat's series against time or bytes (plot_over.c).
 *
 * The choices a person would make are made from the results: x is the
 * parameter with the most distinct values, and each line is one
 * combination of the parameters that still tell runs apart at the same x
 * (plus the job).  A figure that has a figure per direction (throughput,
 * IOPS, latency) is drawn per direction once a run writes, each line named
 * by its direction.  Every line has its own colour, point shape and dash
 * pattern, so lines on top of each other stay visible; a run that is
 * incomplete (failed, interrupted, or fewer repeats than asked) is ringed
 * and labelled with what it has.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "cli/plot.h"
#include "cli/plot_over.h"
#include "lib/error.h"
#include "report/figures.h"
#include "results/resultfile.h"

#include <xxhash.h>

#define MAX_KEYS 64
#define LABEL_MAX 512
#define MARK_MAX 64
/* A linear axis of at most this many values gets a tic at each. */
#define MAX_VALUE_TICS 16

static const char *const dir_name[IO_DIRS] = { [IO_READ] = "read", [IO_WRITE] = "write" };

struct point {
	size_t series;
	double x, y, lo, hi;
};

/* A run that is incomplete: where it is drawn and what it has. */
struct mark {
	double x, y;
	long series;             /* the series of its point; -1: none */
	bool has_y;              /* no y: no completed repeat, marked at the bottom */
	char text[MARK_MAX];
};

struct chart {
	struct resultfile rf;
	struct resultfile_run **runs; /* the runs of the chosen jobs */
	size_t nruns;
	const struct figure *fig;
	const struct figure *dir_fig[IO_DIRS]; /* per direction, when drawn so; else NULL */
	bool dirs_seen[IO_DIRS]; /* directions of the points drawn */
	struct runset set;       /* over runs */
	const char *x;           /* a params key, or "job" */
	bool numeric, logx, logy;
	double xlo, xhi;         /* numeric x: its range */
	struct plot_unit xunit, yunit;
	json_t **cats;           /* non-numeric x: the values, in first-seen order */
	size_t ncats;
	uint32_t *cat_of;        /* a value number of x (set) -> its category */
	const char *keys[MAX_KEYS]; /* what the series are told apart by */
	size_t nkeys;
	char (*series)[LABEL_MAX];
	size_t nseries, series_cap;
	uint32_t *series_slot;   /* hash table of series labels: index + 1; 0: empty */
	size_t nslots;
	struct point *pts;
	size_t npts, nci;        /* points, and how many have a CI (the others: min..max) */
	struct mark *marks;
	size_t nmarks;
};

/* --- choosing what to draw --- */

/* Whether every run is time-based: their time to end is their runtime. */
static bool all_time_based(const struct chart *ch)
{
	for (size_t i = 0; i < ch->nruns; i++) {
		const char *tb = json_string_value(resultfile_param(ch->runs[i], "time_based"));

		if (!tb || strcmp(tb, "1") != 0)
			return false;
	}
	return ch->nruns > 0;
}

/* Whether some completed repeat of run counted some units of figure name
 * (reads or writes: kept at load). */
static bool run_did(const struct resultfile_run *run, const char *name)
{
	size_t n = 0;
	double *x = resultfile_values(run, figure_find(name), &n);
	bool did = false;

	for (size_t j = 0; j < n; j++)
		did |= x[j] > 0;
	free(x);
	return did;
}

/* The directions a run does: from its repeats' counts, else its op. */
static unsigned run_dirs(const struct resultfile_run *run)
{
	const char *op = json_string_value(resultfile_param(run, "op"));
	unsigned dirs = (run_did(run, "reads") ? 1u << IO_READ : 0) |
			(run_did(run, "writes") ? 1u << IO_WRITE : 0);

	if (!dirs && op && strcmp(op, "write") == 0)
		dirs = 1u << IO_WRITE;
	else if (!dirs && op && strcmp(op, "readwrite") == 0)
		dirs = 1u << IO_READ | 1u << IO_WRITE;
	return dirs ? dirs : 1u << IO_READ;
}

/* --y, or time to end (throughput for time-based runs); per direction when
 * the figure has one per direction and some run writes. */
static int choose_figure(struct chart *ch, const struct cli *cl)
{
	const char *name = cl->y ? cl->y : all_time_based(ch) ? "throughput_Bps" : "time_to_end_s";
	char known[1024], dir_fig[128];
	bool writes = false;
	size_t len = 0;

	ch->fig = figure_find(name);
	if (!ch->fig) {
		known[0] = '\0';
		for (size_t i = 0; i < figure_count && len < sizeof(known); i++)
			len += (size_t)snprintf(known + len, sizeof(known) - len, "%s%s",
						i ? ", " : "", figure_table[i].name);
		cli_error("plot: --y '%s': unknown figure (known: %s)", name, known);
		return -1;
	}
	for (size_t i = 0; i < ch->nruns && !writes; i++)
		writes = run_dirs(ch->runs[i]) & 1u << IO_WRITE;
	for (int d = 0; writes && d < IO_DIRS; d++) {
		snprintf(dir_fig, sizeof(dir_fig), "%s_%s", dir_name[d], name);
		ch->dir_fig[d] = figure_find(dir_fig);
	}
	if (!ch->dir_fig[IO_READ] || !ch->dir_fig[IO_WRITE])
		ch->dir_fig[IO_READ] = ch->dir_fig[IO_WRITE] = NULL;
	return 0;
}

/* --x, or the identity parameter with the most distinct values (the job
 * names when no parameter varies). */
static int choose_x(struct chart *ch, const struct cli *cl)
{
	const char *keys[MAX_KEYS], *best = "job";
	size_t nkeys = resultfile_keys(&ch->set, keys, MAX_KEYS), most = 1;
	char known[1024];
	size_t len;

	if (!cl->x) {
		for (size_t k = 0; k < nkeys; k++) {
			size_t d = resultfile_distinct(&ch->set, keys[k]);

			if (d > most) {
				most = d;
				best = keys[k];
			}
		}
		ch->x = best;
		return 0;
	}
	len = (size_t)snprintf(known, sizeof(known), "job");
	for (size_t k = 0; k < nkeys; k++) {
		if (strcmp(keys[k], cl->x) == 0) {
			ch->x = keys[k];
			return 0;
		}
		if (len < sizeof(known))
			len += (size_t)snprintf(known + len, sizeof(known) - len, ", %s", keys[k]);
	}
	if (strcmp(cl->x, "job") == 0) {
		ch->x = "job";
		return 0;
	}
	cli_error("plot: --x '%s': not a run parameter (known: %s)", cl->x, known);
	return -1;
}

/* Numeric x of two values or more (sizes on a log2 axis, spans of two
 * decades on a log10 one), or categories in the order they first appear. */
static int classify_x(struct chart *ch)
{
	enum plot_quantity q = plot_param_quantity(ch->x);
	size_t ndistinct = resultfile_distinct(&ch->set, ch->x);
	bool first = true;

	ch->numeric = ndistinct >= 2;
	for (size_t i = 0; i < ch->nruns; i++) {
		json_t *v = resultfile_param(ch->runs[i], ch->x);
		double x = json_number_value(v);

		if (v && !json_is_number(v))
			ch->numeric = false;
		if (!json_is_number(v))
			continue;
		ch->xlo = first || x < ch->xlo ? x : ch->xlo;
		ch->xhi = first || x > ch->xhi ? x : ch->xhi;
		first = false;
	}
	ch->numeric = ch->numeric && ch->xhi > ch->xlo;
	ch->logx = ch->numeric && ch->xlo > 0 && (q == PQ_SIZE || ch->xhi >= 100 * ch->xlo);
	plot_unit_choose(ch->numeric ? q : PQ_NUMBER, ch->xlo, ch->xhi, &ch->xunit);
	ch->cats = calloc(ch->nruns + 1, sizeof(*ch->cats));
	ch->cat_of = malloc((ndistinct + 1) * sizeof(*ch->cat_of));
	if (!ch->cats || !ch->cat_of)
		return -1;
	memset(ch->cat_of, 0xff, (ndistinct + 1) * sizeof(*ch->cat_of));
	for (size_t i = 0; !ch->numeric && i < ch->nruns; i++) {
		json_t *v = resultfile_param(ch->runs[i], ch->x);
		uint32_t id = resultfile_value_id(&ch->set, ch->x, i);

		if (v && ch->cat_of[id] == UINT32_MAX) {
			ch->cat_of[id] = (uint32_t)ch->ncats;
			ch->cats[ch->ncats++] = v;
		}
	}
	return 0;
}

/* Series keys: parameters other than x that differ between runs at the
 * same x and within a job (the job itself names the series). */
static void choose_series_keys(struct chart *ch)
{
	const char *keys[MAX_KEYS];
	size_t nkeys = resultfile_keys(&ch->set, keys, MAX_KEYS);

	for (size_t k = 0; k < nkeys; k++)
		if (strcmp(keys[k], ch->x) != 0 && resultfile_varies(&ch->set, keys[k], ch->x) &&
		    resultfile_varies(&ch->set, keys[k], "job"))
			ch->keys[ch->nkeys++] = keys[k];
	ch->nkeys = resultfile_independent(&ch->set, ch->keys, ch->nkeys);
}

/* --- the points --- */

/* The series of run i (in direction dir, or -1 for both together): its
 * label's number, found in a hash table of the labels seen so far (first
 * seen, first numbered); -1 when out of memory. */
static long series_of(struct chart *ch, size_t i, int dir)
{
	char label[LABEL_MAX];
	size_t h, len;

	resultfile_label(&ch->set, i, strcmp(ch->x, "job") != 0, ch->keys, ch->nkeys, label,
			 sizeof(label));
	len = strlen(label);
	if (dir >= 0)
		snprintf(label + len, sizeof(label) - len, "%s%s", len ? " " : "", dir_name[dir]);
	else if (!label[0])
		snprintf(label, sizeof(label), "%s", "median");
	h = (size_t)XXH3_64bits(label, strlen(label)) & (ch->nslots - 1);
	for (; ch->series_slot[h]; h = (h + 1) & (ch->nslots - 1))
		if (strcmp(ch->series[ch->series_slot[h] - 1], label) == 0)
			return (long)ch->series_slot[h] - 1;
	if (ch->nseries == ch->series_cap) {
		size_t cap = ch->series_cap ? 2 * ch->series_cap : 16;
		char (*grown)[LABEL_MAX] = realloc(ch->series, cap * sizeof(*grown));

		if (!grown)
			return -1;
		ch->series = grown;
		ch->series_cap = cap;
	}
	memcpy(ch->series[ch->nseries], label, sizeof(label));
	ch->series_slot[h] = (uint32_t)++ch->nseries;
	return (long)ch->nseries - 1;
}

static double x_of(const struct chart *ch, json_t *v, size_t i)
{
	if (ch->numeric)
		return json_number_value(v);
	return (double)ch->cat_of[resultfile_value_id(&ch->set, ch->x, i)];
}

/* What an incomplete run has, in text[MARK_MAX] ("interrupted: 2 of 3
 * repeats"); false when the run is complete. */
static bool incomplete(const struct resultfile_run *run, char *text)
{
	json_t *asked = resultfile_param(run, "repeat");
	size_t done = run->nrepeats - run->ninterrupted, want = run->nrepeats;
	bool interrupted = run->ninterrupted > 0, failed = run->failed;

	if (json_is_integer(asked))
		want = (size_t)json_integer_value(asked);
	if (!failed && !interrupted && done >= want)
		return false;
	snprintf(text, MARK_MAX, "%s%zu of %zu repeats", failed ? "failed: "
			: interrupted ? "interrupted: " : "", done, want);
	return true;
}

/* The point of run i in direction dir (-1: the figure of both), and the
 * mark of an incomplete run; -1 when out of memory. */
static int add_point(struct chart *ch, size_t i, int dir, double x, const char *mark)
{
	const struct figure *f = dir >= 0 ? ch->dir_fig[dir] : ch->fig;
	struct point *p = &ch->pts[ch->npts];
	struct mark *m = &ch->marks[ch->nmarks];
	struct summary s;
	long series;
	size_t n;
	double *v = resultfile_values(ch->runs[i], f, &n);

	if (!v)
		return -1;
	stats_summarize(v, n, &s);
	free(v);
	series = n ? series_of(ch, i, dir) : -1;
	if (n && series < 0)
		return -1;
	if (mark) {
		m->x = x;
		m->y = s.median;
		m->series = series;
		m->has_y = n > 0;
		snprintf(m->text, sizeof(m->text), "%s", mark);
		ch->nmarks++;
	}
	if (n == 0)
		return 0;
	p->series = (size_t)series;
	p->x = x;
	p->y = s.median;
	p->lo = s.has_ci ? s.ci95_low : s.min;
	p->hi = s.has_ci ? s.ci95_high : s.max;
	ch->nci += s.has_ci;
	if (dir >= 0)
		ch->dirs_seen[dir] = true;
	ch->npts++;
	return 0;
}

/* Run i's points: one per direction when drawn so, else one. */
static int add_run(struct chart *ch, size_t i)
{
	json_t *xv = resultfile_param(ch->runs[i], ch->x);
	unsigned dirs = ch->dir_fig[IO_READ] ? run_dirs(ch->runs[i]) : 0;
	char mark[MARK_MAX];
	bool inc = incomplete(ch->runs[i], mark);
	double x;

	if (!xv)
		return 0;
	x = x_of(ch, xv, i);
	if (!dirs)
		return add_point(ch, i, -1, x, inc ? mark : NULL);
	for (int d = 0; d < IO_DIRS; d++)
		if (dirs & 1u << d) {
			if (add_point(ch, i, d, x, inc ? mark : NULL) < 0)
				return -1;
			inc = false; /* one mark per run */
		}
	return 0;
}

static int cmp_point(const void *pa, const void *pb)
{
	const struct point *a = pa, *b = pb;

	if (a->series != b->series)
		return a->series < b->series ? -1 : 1;
	return (a->x > b->x) - (a->x < b->x);
}

/* The y axis: log when the values span two decades, its unit from its range. */
static void choose_y(struct chart *ch)
{
	double lo = 0, hi = 0;

	for (size_t i = 0; i < ch->npts; i++) {
		lo = !i || ch->pts[i].lo < lo ? ch->pts[i].lo : lo;
		hi = !i || ch->pts[i].hi > hi ? ch->pts[i].hi : hi;
	}
	ch->logy = lo > 0 && hi >= 100 * lo;
	plot_unit_choose(plot_figure_quantity(ch->fig), lo, hi, &ch->yunit);
}

/* Categories are not a scale: the series of one category stand side by
 * side around it (so that their error bars do not hide each other), and
 * are drawn as points, never joined by lines across categories. */
static double dodge_of(const struct chart *ch, long series)
{
	double w = ch->nseries > 1 ? fmin(0.6 / (double)ch->nseries, 0.2) : 0;

	return series < 0 ? 0 : ((double)series - ((double)ch->nseries - 1) / 2) * w;
}

static void dodge(struct chart *ch)
{
	if (ch->numeric)
		return;
	for (size_t i = 0; i < ch->npts; i++)
		ch->pts[i].x += dodge_of(ch, (long)ch->pts[i].series);
	for (size_t i = 0; i < ch->nmarks; i++)
		ch->marks[i].x += dodge_of(ch, ch->marks[i].series);
}

static int collect_points(struct chart *ch)
{
	size_t cap = 2 * ch->nruns + 1;

	ch->nslots = 16;
	while (ch->nslots < 2 * cap)
		ch->nslots *= 2;
	ch->pts = calloc(cap, sizeof(*ch->pts));
	ch->marks = calloc(cap, sizeof(*ch->marks));
	ch->series_slot = calloc(ch->nslots, sizeof(*ch->series_slot));
	if (!ch->pts || !ch->marks || !ch->series_slot)
		return -1;
	for (size_t i = 0; i < ch->nruns; i++)
		if (add_run(ch, i) < 0)
			return -1;
	dodge(ch);
	qsort(ch->pts, ch->npts, sizeof(*ch->pts), cmp_point);
	choose_y(ch);
	return 0;
}

/* --- gnuplot --- */

/* Data blocks: one per series (x, y, low, high), then the rings of the
 * marks that have a y. */
static int write_data(const struct chart *ch, FILE *f)
{
	double ys = ch->yunit.scale, xs = ch->numeric ? ch->xunit.scale : 1;

	for (size_t i = 0; i < ch->npts; i++) {
		const struct point *p = &ch->pts[i];

		if (i && p->series != ch->pts[i - 1].series)
			fputs("\n\n", f);
		fprintf(f, "%.17g %.17g %.17g %.17g\n", p->x * xs, p->y * ys, p->lo * ys,
			p->hi * ys);
	}
	fputs("\n\n", f);
	for (size_t i = 0; i < ch->nmarks; i++)
		if (ch->marks[i].has_y)
			fprintf(f, "%.17g %.17g\n", ch->marks[i].x * xs, ch->marks[i].y * ys);
	return ferror(f) ? -1 : 0;
}

static const char *error_bar_note(const struct chart *ch)
{
	if (ch->nci == ch->npts)
		return "error bars: 95% confidence interval of the median";
	if (ch->nci == 0)
		return "error bars: min..max of the repeats (too few for a 95% confidence interval)";
	return "error bars: 95% CI of the median, or min..max where too few repeats";
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Categories get their names as tics; sizes, and linear axes of a few
 * values, a tic at each value in the axis's unit. */
static void write_xtics(const struct chart *ch, FILE *f)
{
	size_t n = ch->numeric ? ch->npts + ch->nmarks : ch->ncats, ndistinct = 0;
	double *xs = malloc((n + 1) * sizeof(*xs));
	char label[256];

	if (!xs)
		return;
	for (size_t i = 0; i < n; i++)
		xs[i] = !ch->numeric ? (double)i : i < ch->npts ? ch->pts[i].x
								: ch->marks[i - ch->npts].x;
	qsort(xs, n, sizeof(*xs), cmp_double);
	for (size_t i = 0; i < n; i++)
		if (!i || xs[i] != xs[i - 1])
			xs[ndistinct++] = xs[i];
	if (ch->numeric && plot_param_quantity(ch->x) != PQ_SIZE &&
	    (ch->logx || ndistinct > MAX_VALUE_TICS)) {
		free(xs);
		return;
	}
	fputs("set xtics (", f);
	for (size_t i = 0; i < ndistinct; i++) {
		if (ch->numeric)
			snprintf(label, sizeof(label), "%g", xs[i] * ch->xunit.scale);
		else
			resultfile_param_text(ch->x, ch->cats[i], label, sizeof(label));
		fputs(i ? ", " : "", f);
		plot_quote(f, label);
		fprintf(f, " %.17g", ch->numeric ? xs[i] * ch->xunit.scale : xs[i]);
	}
	free(xs);
	fputs(")\n", f);
}

static void write_axes(const struct chart *ch, FILE *f)
{
	char label[256], name[160];
	double pad;

	plot_axis_label(label, sizeof(label), ch->x, &ch->xunit,
			ch->numeric && strcmp(ch->x, "rate") == 0 ? "/s" : NULL);
	fputs("set xlabel ", f);
	plot_quote(f, label);
	if (!ch->dir_fig[IO_READ])
		snprintf(name, sizeof(name), "median %s", ch->fig->name);
	else if (ch->dirs_seen[IO_READ] != ch->dirs_seen[IO_WRITE])
		snprintf(name, sizeof(name), "median %s",
			 ch->dir_fig[ch->dirs_seen[IO_WRITE] ? IO_WRITE : IO_READ]->name);
	else
		snprintf(name, sizeof(name), "median %s per direction", ch->fig->name);
	plot_axis_label(label, sizeof(label), name, &ch->yunit, NULL);
	fputs("\nset ylabel ", f);
	plot_quote(f, label);
	fputs("\nset format y '%g'\n", f);
	if (ch->logx)
		fprintf(f, "set logscale x %d\n", plot_param_quantity(ch->x) == PQ_SIZE ? 2 : 10);
	if (ch->logy)
		fputs("set logscale y 10\n", f);
	else
		fputs("set yrange [0:*]\n", f);
	/* the range of every run, also those drawn only as a mark; a linear axis
	 * starts at its smallest value, not at a round tic below it, a log axis
	 * leaves a twentieth of its span either side */
	pad = ch->logx ? pow(ch->xhi / ch->xlo, 0.05) : 1;
	if (!ch->numeric)
		fprintf(f, "set xrange [-0.5:%zu.5]\n", ch->ncats ? ch->ncats - 1 : 0);
	else
		fprintf(f, "set xrange [%.17g:%.17g]\n", ch->xlo * ch->xunit.scale / pad,
			ch->xhi * ch->xunit.scale * pad);
	write_xtics(ch, f);
}

/* The labels of incomplete runs, above their ring: left-aligned in the
 * left third of the axis, right-aligned in the right third, so that none
 * runs off the chart; a run without a completed repeat gets its ring here,
 * on the x axis. */
static void write_marks(const struct chart *ch, FILE *f)
{
	double xs = ch->numeric ? ch->xunit.scale : 1;

	for (size_t i = 0; i < ch->nmarks; i++) {
		const struct mark *m = &ch->marks[i];
		double x = m->x, lo = ch->numeric ? ch->xlo : -0.5;
		double hi = ch->numeric ? ch->xhi : (double)ch->ncats - 0.5, at;

		if (ch->logx) {
			x = log(x);
			lo = log(lo);
			hi = log(hi);
		}
		at = hi > lo ? (x - lo) / (hi - lo) : 0.5;
		fputs("set label ", f);
		plot_quote(f, m->text);
		if (m->has_y)
			fprintf(f, " at first %.17g, first %.17g", m->x * xs, m->y * ch->yunit.scale);
		else
			fprintf(f, " at first %.17g, graph 0.04", m->x * xs);
		fprintf(f, " %s front offset %s,1.8%s\n", at < 1 / 3.0 ? "left" : at > 2 / 3.0
			? "right" : "center", at < 1 / 3.0 ? "-1" : at > 2 / 3.0 ? "1" : "0",
			m->has_y ? "" : " point " PLOT_MARK_STYLE);
	}
}

static size_t marks_with_y(const struct chart *ch)
{
	size_t n = 0;

	for (size_t i = 0; i < ch->nmarks; i++)
		n += ch->marks[i].has_y;
	return n;
}

static void write_plot(const struct chart *ch, FILE *f)
{
	fputs("plot ", f);
	for (size_t s = 0; s < ch->nseries; s++) {
		fprintf(f, "%s'data.dat' index %zu using 1:2:3:4 with %s ", s ? ", \\\n     " : "",
			s, ch->numeric ? "yerrorlines" : "yerrorbars");
		plot_line_style(f, s);
		fputs(" title ", f);
		plot_quote(f, ch->series[s]);
	}
	if (marks_with_y(ch))
		fprintf(f, ", \\\n     'data.dat' index %zu using 1:2 with points " PLOT_MARK_STYLE
			   " notitle", ch->nseries);
	if (ch->nmarks)
		fputs(", \\\n     keyentry with points " PLOT_MARK_STYLE " title 'incomplete run'", f);
	fputc('\n', f);
}

static int write_chart(const void *chart, FILE *data, FILE *script)
{
	const struct chart *ch = chart;

	if (write_data(ch, data) < 0)
		return -1;
	fputs("set title ", script);
	plot_title(script, &ch->rf, error_bar_note(ch));
	fputc('\n', script);
	write_axes(ch, script);
	fputs("set key outside right top\nset grid\nset border back\n", script);
	write_marks(ch, script);
	write_plot(ch, script);
	return ferror(script) ? -1 : 0;
}

/* --- the command --- */

/* The runs of the jobs --job names (every run without --job); a --job
 * that names no job of the file is refused. */
static int choose_runs(struct chart *ch, const struct cli *cl)
{
	ch->runs = calloc(ch->rf.nruns + 1, sizeof(*ch->runs));
	if (!ch->runs) {
		cli_error("plot: out of memory");
		return -1;
	}
	for (size_t i = 0; i < ch->rf.nruns; i++)
		if (plot_job_chosen(cl, ch->rf.runs[i]))
			ch->runs[ch->nruns++] = ch->rf.runs[i];
	return plot_check_jobs(cl, &ch->rf);
}

static int prepare(struct chart *ch, const struct cli *cl)
{
	if (choose_runs(ch, cl) < 0)
		return -1;
	if (runset_init(&ch->set, ch->runs, ch->nruns, true) < 0) {
		cli_error("plot: out of memory");
		return -1;
	}
	return choose_figure(ch, cl) < 0 ? -1 : choose_x(ch, cl);
}

/* x, the series and the points; -1 when out of memory. */
static int collect(struct chart *ch)
{
	if (classify_x(ch) < 0)
		return -1;
	choose_series_keys(ch);
	return collect_points(ch);
}

static void chart_free(struct chart *ch)
{
	runset_free(&ch->set);
	resultfile_free(&ch->rf);
	free(ch->runs);
	free(ch->cats);
	free(ch->cat_of);
	free(ch->series);
	free(ch->series_slot);
	free(ch->pts);
	free(ch->marks);
}

/* The figures a chart may draw, kept at load: --y or the two defaults
 * (choose_figure picks among them), each per direction, and the counts
 * that tell the directions apart; *n of them. */
static void load_figures(const struct cli *cl, const struct figure **f, size_t *n)
{
	const char *y[] = { cl->y ? cl->y : "time_to_end_s", cl->y ? NULL : "throughput_Bps" };
	char name[128];

	*n = 0;
	f[(*n)++] = figure_find("reads");
	f[(*n)++] = figure_find("writes");
	for (size_t k = 0; k < 2 && y[k]; k++)
		for (int d = -1; d < IO_DIRS; d++) {
			snprintf(name, sizeof(name), "%s%s%s", d < 0 ? "" : dir_name[d],
				 d < 0 ? "" : "_", y[k]);
			if ((f[*n] = figure_find(name)) != NULL)
				(*n)++;
		}
}

/* The result file, loaded, with runs; -1 after saying why. */
static int load(struct resultfile *rf, const struct cli *cl)
{
	const struct figure *f[8];
	char err[ERR_MAX];
	size_t n;

	load_figures(cl, f, &n);
	if (resultfile_load(rf, cl->files[0], f, n, cl->over ? RESULTFILE_SERIES : 0, err) < 0) {
		cli_error("%s", err);
		return -1;
	}
	if (rf->nruns == 0) {
		cli_error("plot: %s: no runs to plot", rf->path);
		return -1;
	}
	return 0;
}

/* Without --over: a figure against a parameter. */
static int plot_params(struct chart *ch, const struct cli *cl, struct plot_dest *d)
{
	if (prepare(ch, cl) < 0)
		return EXIT_USAGE;
	if (collect(ch) < 0) {
		cli_error("plot: out of memory");
		return EXIT_RUN;
	}
	if (ch->npts == 0) {
		cli_error("plot: %s: no measured repeats to plot", ch->rf.path);
		return EXIT_USAGE;
	}
	return plot_draw(d, 1024, 600, write_chart, ch) < 0 ? EXIT_RUN : EXIT_OK;
}

int plot_chart(const struct cli *cl, struct plot_dest *d)
{
	struct chart ch;
	int rc;

	memset(&ch, 0, sizeof(ch));
	if (load(&ch.rf, cl) < 0)
		rc = EXIT_USAGE;
	else if (cl->over)
		rc = plot_over(&ch.rf, cl, d);
	else
		rc = plot_params(&ch, cl, d);
	chart_free(&ch);
	return rc;
}

int cmd_plot(int argc, char **argv)
{
	struct plot_dest dest;
	struct cli cl;
	int rc = cli_parse("plot", argc, argv, &cl);

	if (rc)
		return rc;
	memset(&dest, 0, sizeof(dest));
	if (cl.nfiles != 1) {
		cli_error("plot: expected one result file (usage: iosweep %s)", help_usage("plot"));
		rc = EXIT_USAGE;
	} else if (plot_over_check_args(&cl) < 0 || plot_dest_open(&dest, &cl) < 0) {
		rc = EXIT_USAGE;
	} else {
		rc = plot_chart(&cl, &dest);
	}
	plot_dest_free(&dest);
	cli_free(&cl);
	return rc;
}
