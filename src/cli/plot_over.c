/*
 * plot_over.c - `iosweep plot RESULT.json --over time|bytes`: throughput
 * and p99 latency inside repeats, interval by interval, from the series
 * that `run` records (the job option interval), against time or against
 * the bytes transferred so far (which shows where a cache fills).
 *
 * Each interval is drawn at its middle, where its average belongs: its
 * throughput is its bytes over its length (the last interval of a repeat
 * lasts as long as the repeat went on into it), its p99 is that of the
 * interval's own I/Os; an interval without I/O has a throughput of 0 and no
 * p99, which breaks the line.  A coarsened series is drawn with the
 * interval it has.  Each direction of each chosen repeat is one line, drawn
 * in two panels over the same x axis, the key naming it by run, repeat and
 * direction.  The series were checked by resultfile.c, with their place in
 * the file, when it was read (compare refuses the same files).
 */
#define _GNU_SOURCE
#include "cli/plot_over.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/engines/engine.h"
#include "lib/units.h"

/* More lines than this are not told apart: the rest are left out, said. */
#define MAX_LINES 16
#define TITLE_MAX 512
#define NOTE_MAX 400

static const char *const dir_name[IO_DIRS] = { [IO_READ] = "read", [IO_WRITE] = "write" };

struct line {
	size_t run, rep;         /* positions in the file's runs and the run's repeats */
	int dir;
	size_t first, n;         /* its points */
	char title[TITLE_MAX];
};

struct opoint {
	double t_s, bytes;       /* the middle of the interval: in time, in bytes so far */
	double Bps, p99_ns;      /* p99: NAN for an interval without I/O */
};

struct over {
	const struct resultfile *rf;
	const struct cli *cl;
	bool by_bytes;
	struct line line[MAX_LINES];
	size_t nlines, dropped;  /* lines drawn; lines left out for MAX_LINES */
	unsigned dirs;           /* of the lines: bit per direction */
	struct opoint *pts;
	size_t npts, cap;
	struct plot_unit xunit, tpunit, latunit;
	bool loglat;
	double interval_s;       /* of every line, or 0 when they differ or one is coarsened */
	char left_out[NOTE_MAX]; /* chosen but without a series */
	size_t nleft_out;
};

/* --- the options --- */

/* A decimal number: digits only. */
static int parse_number(const char *opt, const char *s, const char *what, size_t *out)
{
	if (isdigit((unsigned char)s[0])) {
		char *end;
		unsigned long long v;

		errno = 0;
		v = strtoull(s, &end, 10);
		if (*end == '\0' && errno == 0 && v <= SIZE_MAX) {
			*out = (size_t)v;
			return 0;
		}
	}
	cli_error("plot: %s '%s': expected %s", opt, s, what);
	return -1;
}

#define RUN_WHAT "a run number (the # column of the table)"
#define REPEAT_WHAT "a repeat number (0 is the first)"

int plot_over_check_args(const struct cli *cl)
{
	size_t n;

	if (!cl->over) {
		if (cl->nrun_nums || cl->nrepeat_nums) {
			cli_error("plot: --run and --repeat choose the lines of --over time|bytes");
			return -1;
		}
		return 0;
	}
	if (strcmp(cl->over, "time") != 0 && strcmp(cl->over, "bytes") != 0) {
		cli_error("plot: --over '%s': expected time or bytes", cl->over);
		return -1;
	}
	if (cl->x || cl->y) {
		cli_error("plot: --%s does not go with --over, which draws throughput and p99 "
			  "latency against %s", cl->x ? "x" : "y", cl->over);
		return -1;
	}
	for (size_t k = 0; k < cl->nrun_nums; k++)
		if (parse_number("--run", cl->run_nums[k], RUN_WHAT, &n) < 0)
			return -1;
	for (size_t k = 0; k < cl->nrepeat_nums; k++)
		if (parse_number("--repeat", cl->repeat_nums[k], REPEAT_WHAT, &n) < 0)
			return -1;
	return 0;
}

static json_t *repeats_of(const struct resultfile *rf, size_t i)
{
	return rf->runs[i]->repeats;
}

/* A repeat's series, or NULL (none, or null). */
static json_t *series_of(json_t *rep)
{
	json_t *s = json_object_get(rep, "series");

	return json_is_null(s) ? NULL : s;
}

/* How many repeats of the file have a series (resultfile.c checked them). */
static size_t count_series(const struct resultfile *rf)
{
	size_t count = 0;

	for (size_t i = 0; i < rf->nruns; i++) {
		json_t *rep;
		size_t j;

		json_array_foreach(repeats_of(rf, i), j, rep)
			count += series_of(rep) != NULL;
	}
	return count;
}

/* --- choosing the lines --- */

/* The run's number: its index, as the table and the CSV show it. */
static size_t run_number(const struct resultfile *rf, size_t i)
{
	return rf->runs[i]->index >= 0 ? (size_t)rf->runs[i]->index : i;
}

static bool listed(char *const *nums, size_t n, size_t x)
{
	for (size_t k = 0; k < n; k++)
		if (strtoull(nums[k], NULL, 10) == x)
			return true;
	return n == 0;
}

static bool run_chosen(const struct over *o, size_t i)
{
	return plot_job_chosen(o->cl, o->rf->runs[i]) &&
	       listed(o->cl->run_nums, o->cl->nrun_nums, run_number(o->rf, i));
}

/* Each --run names a run of the file, and some run is chosen. */
static int check_runs(const struct over *o)
{
	size_t chosen = 0;

	for (size_t k = 0; k < o->cl->nrun_nums; k++) {
		size_t want = strtoull(o->cl->run_nums[k], NULL, 10), i;

		for (i = 0; i < o->rf->nruns && run_number(o->rf, i) != want; i++)
			;
		if (i == o->rf->nruns) {
			cli_error("plot: --run %zu: no such run in %s (runs %zu to %zu)", want,
				  o->rf->path, run_number(o->rf, 0),
				  run_number(o->rf, o->rf->nruns - 1));
			return -1;
		}
	}
	for (size_t i = 0; i < o->rf->nruns; i++)
		chosen += run_chosen(o, i);
	if (!chosen) {
		cli_error("plot: %s: no run is both of the --job and of the --run given",
			  o->rf->path);
		return -1;
	}
	return 0;
}

/* Says once, later, that run i (repeat j, or its first completed one when
 * j is SIZE_MAX) was chosen but has no series. */
static void note_left_out(struct over *o, size_t i, size_t j)
{
	size_t len = strlen(o->left_out);

	if (o->nleft_out++ < 8 && len < sizeof(o->left_out))
		snprintf(o->left_out + len, sizeof(o->left_out) - len,
			 j == SIZE_MAX ? "%srun %zu" : "%srun %zu repeat %zu", len ? ", " : "",
			 run_number(o->rf, i), j);
}

static void add_repeat(struct over *o, size_t i, size_t j)
{
	json_t *rep = json_array_get(repeats_of(o->rf, i), j), *s = series_of(rep), *pt;
	unsigned dirs = 0;
	size_t k;

	if (!s) {
		note_left_out(o, i, j);
		return;
	}
	json_array_foreach(json_object_get(s, "intervals"), k, pt)
		dirs |= 1u << (strcmp(json_string_value(json_object_get(pt, "dir")), "write") == 0
				       ? IO_WRITE : IO_READ);
	for (int d = 0; d < IO_DIRS; d++) {
		if (!(dirs & 1u << d))
			continue;
		if (o->nlines == MAX_LINES) {
			o->dropped++;
			continue;
		}
		o->line[o->nlines++] = (struct line){ .run = i, .rep = j, .dir = d };
		o->dirs |= 1u << d;
	}
}

/* The first repeat of run i that completed and has a series, else the first
 * interrupted one that has a series; SIZE_MAX when none has. */
static size_t first_completed(const struct over *o, size_t i)
{
	json_t *rep;
	size_t j, interrupted = SIZE_MAX;

	json_array_foreach(repeats_of(o->rf, i), j, rep) {
		if (!series_of(rep))
			continue;
		if (!json_is_true(json_object_get(rep, "interrupted")))
			return j;
		if (interrupted == SIZE_MAX)
			interrupted = j; /* drawn when no repeat completed, named so */
	}
	return interrupted;
}

/* The lines: for each chosen run, the --repeat repeats it has, else its
 * first completed repeat; each direction of their series. */
static int choose_lines(struct over *o)
{
	const struct cli *cl = o->cl;

	for (size_t i = 0; i < o->rf->nruns; i++) {
		size_t nrep = json_array_size(repeats_of(o->rf, i)), j;

		if (!run_chosen(o, i))
			continue;
		if (!cl->nrepeat_nums) {
			j = first_completed(o, i);
			if (j == SIZE_MAX)
				note_left_out(o, i, SIZE_MAX);
			else
				add_repeat(o, i, j);
			continue;
		}
		for (j = 0; j < nrep; j++)
			if (listed(cl->repeat_nums, cl->nrepeat_nums, j))
				add_repeat(o, i, j);
	}
	for (size_t k = 0; k < cl->nrepeat_nums; k++) {
		size_t want = strtoull(cl->repeat_nums[k], NULL, 10), i;

		for (i = 0; i < o->rf->nruns; i++)
			if (run_chosen(o, i) && want < json_array_size(repeats_of(o->rf, i)))
				break;
		if (i == o->rf->nruns) {
			cli_error("plot: --repeat %zu: no chosen run of %s has a repeat %zu", want,
				  o->rf->path, want);
			return -1;
		}
	}
	return 0;
}

/* --- the points --- */

static double num(json_t *obj, const char *key)
{
	return json_number_value(json_object_get(obj, key));
}

static int push_point(struct over *o, const struct opoint *p)
{
	if (o->npts == o->cap) {
		size_t cap = o->cap ? 2 * o->cap : 256;
		struct opoint *grown = realloc(o->pts, cap * sizeof(*grown));

		if (!grown)
			return -1;
		o->pts = grown;
		o->cap = cap;
	}
	o->pts[o->npts++] = *p;
	return 0;
}

/* A line's points: for each interval of its direction, its middle (in
 * time, and in the bytes of both directions so far), throughput and p99. */
static int add_points(struct over *o, struct line *l)
{
	json_t *rep = json_array_get(repeats_of(o->rf, l->run), l->rep), *s = series_of(rep);
	json_t *list = json_object_get(s, "intervals");
	double interval = num(s, "interval_s"), tte = num(rep, "time_to_end_s"), before = 0;
	size_t n = json_array_size(list), g;

	l->first = o->npts;
	for (size_t k = 0; k < n; k = g) {
		double start = num(json_array_get(list, k), "start_s"), bytes = 0, len = interval;

		/* the intervals that start together: one per direction */
		for (g = k; g < n && num(json_array_get(list, g), "start_s") == start; g++)
			bytes += num(json_array_get(list, g), "bytes");
		if (tte > start && tte - start < interval) /* the last, partly used */
			len = tte - start > 1e-9 ? tte - start : 1e-9;
		for (size_t e = k; e < g; e++) {
			json_t *pt = json_array_get(list, e);
			const char *dir = json_string_value(json_object_get(pt, "dir"));
			struct opoint p = {
				.t_s = start + len / 2,
				.bytes = before + bytes / 2,
				.Bps = num(pt, "bytes") / len,
				.p99_ns = num(pt, "ops") > 0 ? num(pt, "lat_p99_ns") : NAN,
			};

			if (strcmp(dir, dir_name[l->dir]) == 0 && push_point(o, &p) < 0)
				return -1;
		}
		before += bytes;
	}
	l->n = o->npts - l->first;
	return 0;
}

/* The units of the three axes, from the points. */
static void choose_units(struct over *o)
{
	double xmax = 0, tpmax = 0, latmin = INFINITY, latmax = 0;

	for (size_t k = 0; k < o->npts; k++) {
		const struct opoint *p = &o->pts[k];
		double x = o->by_bytes ? p->bytes : p->t_s;

		xmax = x > xmax ? x : xmax;
		tpmax = p->Bps > tpmax ? p->Bps : tpmax;
		if (!isnan(p->p99_ns)) {
			latmin = p->p99_ns < latmin ? p->p99_ns : latmin;
			latmax = p->p99_ns > latmax ? p->p99_ns : latmax;
		}
	}
	plot_unit_choose(o->by_bytes ? PQ_SIZE : PQ_SECONDS, xmax, xmax, &o->xunit);
	plot_unit_choose(PQ_RATE, 0, tpmax, &o->tpunit);
	plot_unit_choose(PQ_NS, 0, latmax, &o->latunit);
	o->loglat = latmin > 0 && latmax >= 100 * latmin;
}

/* The interval every line has, or 0 when they differ or one is coarsened. */
static double common_interval(const struct over *o)
{
	double common = 0;

	for (size_t k = 0; k < o->nlines; k++) {
		json_t *rep = json_array_get(repeats_of(o->rf, o->line[k].run), o->line[k].rep);
		json_t *s = series_of(rep);
		double iv = num(s, "interval_s");

		if (num(s, "coarsened") > 0 || (k && iv != common))
			return 0;
		common = iv;
	}
	return common;
}

/* "#3 scan bs=4KiB, repeat 1, write, 200 ms intervals (coarsened) (interrupted)":
 * the run's number and label, then only what tells this line apart. */
static void line_title(const struct over *o, const struct runset *set, size_t in_set,
		       struct line *l)
{
	const char *keys[RUNSET_MAX_KEYS], *all[RUNSET_MAX_KEYS];
	size_t nall = resultfile_keys(set, all, RUNSET_MAX_KEYS), nkeys = 0, len;
	json_t *rep = json_array_get(repeats_of(o->rf, l->run), l->rep);
	json_t *s = series_of(rep);
	char label[TITLE_MAX], iv[32];

	for (size_t k = 0; k < nall; k++)
		if (resultfile_varies(set, all[k], NULL))
			keys[nkeys++] = all[k];
	nkeys = resultfile_independent(set, keys, nkeys);
	resultfile_label(set, in_set, true, keys, nkeys, label, sizeof(label));
	len = (size_t)snprintf(l->title, sizeof(l->title), "#%zu %s", run_number(o->rf, l->run),
			       label);
	if (o->cl->nrepeat_nums || l->rep != 0)
		len += (size_t)snprintf(l->title + len, sizeof(l->title) - len, ", repeat %zu",
					l->rep);
	if (o->dirs != 1u << l->dir && len < sizeof(l->title))
		len += (size_t)snprintf(l->title + len, sizeof(l->title) - len, ", %s",
					dir_name[l->dir]);
	if (o->interval_s == 0 && len < sizeof(l->title)) {
		units_fmt_seconds(num(s, "interval_s"), iv, sizeof(iv));
		len += (size_t)snprintf(l->title + len, sizeof(l->title) - len, ", %s intervals%s",
					iv, num(s, "coarsened") > 0 ? " (coarsened)" : "");
	}
	if (json_is_true(json_object_get(rep, "interrupted")) && len < sizeof(l->title))
		len += (size_t)snprintf(l->title + len, sizeof(l->title) - len, " (interrupted)");
	if (o->rf->runs[l->run]->failed && len < sizeof(l->title))
		snprintf(l->title + len, sizeof(l->title) - len, " (run failed)");
}

/* Every line's title, naming only what differs between the runs drawn. */
static int title_lines(struct over *o)
{
	struct resultfile_run *runs[MAX_LINES] = { NULL };
	size_t nruns = 0, in_set[MAX_LINES] = { 0 };
	struct runset set;

	for (size_t k = 0; k < o->nlines; k++) {
		size_t r = 0;

		while (r < nruns && runs[r] != o->rf->runs[o->line[k].run])
			r++;
		if (r == nruns)
			runs[nruns++] = o->rf->runs[o->line[k].run];
		in_set[k] = r;
	}
	if (runset_init(&set, runs, nruns, true) < 0)
		return -1;
	o->interval_s = common_interval(o);
	for (size_t k = 0; k < o->nlines; k++)
		line_title(o, &set, in_set[k], &o->line[k]);
	runset_free(&set);
	return 0;
}

/* --- gnuplot --- */

static int write_data(const struct over *o, FILE *f)
{
	for (size_t k = 0; k < o->nlines; k++) {
		const struct line *l = &o->line[k];

		for (size_t p = l->first; p < l->first + l->n; p++) {
			const struct opoint *pt = &o->pts[p];

			fprintf(f, "%.17g %.17g ", (o->by_bytes ? pt->bytes : pt->t_s) * o->xunit.scale,
				pt->Bps * o->tpunit.scale);
			if (isnan(pt->p99_ns))
				fputs("NaN\n", f);
			else
				fprintf(f, "%.17g\n", pt->p99_ns * o->latunit.scale);
		}
		fputs("\n\n", f);
	}
	return ferror(f) ? -1 : 0;
}

/* One panel: column col of every line, with the key in the first. */
static void write_panel(const struct over *o, FILE *f, int col, bool key)
{
	fputs("plot ", f);
	for (size_t k = 0; k < o->nlines; k++) {
		fprintf(f, "%s'data.dat' index %zu using 1:%d with linespoints ", k ? ", \\\n     " : "",
			k, col);
		plot_line_style(f, k);
		if (key) {
			fputs(" title ", f);
			plot_quote(f, o->line[k].title);
		} else {
			fputs(" notitle", f);
		}
	}
	fputc('\n', f);
}

static void write_label(FILE *f, const char *axis, const char *name, const struct plot_unit *u)
{
	char label[256];

	plot_axis_label(label, sizeof(label), name, u, NULL);
	fprintf(f, "set %slabel ", axis);
	plot_quote(f, label);
	fputc('\n', f);
}

/* A finite number at key of obj, or NAN (a result file is read, not trusted). */
static double mark_num(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return json_is_number(v) && isfinite(json_number_value(v)) ? json_number_value(v) : NAN;
}

/* The marks of the lines' repeats: the window of an attained steady state,
 * shaded (over time only: a window is a span of time), and every cliff, a
 * dashed line at its time or bytes. */
static void write_marks(const struct over *o, FILE *f)
{
	for (size_t k = 0; k < o->nlines; k++) {
		json_t *rep = json_array_get(repeats_of(o->rf, o->line[k].run), o->line[k].rep);
		json_t *st = json_object_get(rep, "steady"), *cl = json_object_get(rep, "cliffs"), *c;
		double a = mark_num(st, "window_start_s"), b = mark_num(st, "window_end_s");
		size_t i;

		if (!o->by_bytes && json_is_true(json_object_get(st, "attained")) && a >= 0 && b > a)
			fprintf(f, "set object rect from %.17g, graph 0 to %.17g, graph 1 behind "
				   "fillcolor rgb '#e0e0e0' fillstyle solid noborder\n"
				   "set label 'steady' at %.17g, graph 0.95 center\n",
				a * o->xunit.scale, b * o->xunit.scale, (a + b) / 2 * o->xunit.scale);
		json_array_foreach(cl, i, c) {
			double x = mark_num(c, o->by_bytes ? "at_bytes" : "at_s");

			if (x >= 0)
				fprintf(f, "set arrow from %.17g, graph 0 to %.17g, graph 1 nohead "
					   "dashtype 2 linecolor rgb '#c00000'\n",
					x * o->xunit.scale, x * o->xunit.scale);
		}
	}
}

static int write_chart(const void *chart, FILE *data, FILE *script)
{
	const struct over *o = chart;
	/* one direction drawn: the labels name it, else the key does */
	const char *dir = o->dirs == 1u << IO_READ ? "read " : o->dirs == 1u << IO_WRITE ? "write "
											     : "";
	char note[256], iv[32], name[128];

	if (write_data(o, data) < 0)
		return -1;
	units_fmt_seconds(o->interval_s, iv, sizeof(iv));
	snprintf(note, sizeof(note), "per %s%s of each repeat's series: throughput, and p99 "
		 "latency of the interval's own I/Os", o->interval_s > 0 ? iv : "interval",
		 o->interval_s > 0 ? " interval" : " (as in the key)");
	fputs("set multiplot layout 2,1 title ", script);
	plot_title(script, o->rf, note);
	fputs("\nset key at screen 0.70, screen 0.88 left top reverse Left\nset grid\nset border back\n"
	      "set lmargin 12\nset rmargin at screen 0.68\n"
	      "set format x '%g'\nset format y '%g'\nset xrange [0:*]\nset yrange [0:*]\n", script);
	write_marks(o, script);
	snprintf(name, sizeof(name), "%sthroughput", dir);
	write_label(script, "y", name, &o->tpunit);
	write_panel(o, script, 2, true);
	fputs("unset key\n", script);
	if (o->by_bytes)
		snprintf(name, sizeof(name), "bytes %s so far",
			 *dir ? (o->dirs == 1u << IO_READ ? "read" : "written") : "read and written");
	else
		snprintf(name, sizeof(name), "time in the repeat");
	write_label(script, "x", name, &o->xunit);
	snprintf(name, sizeof(name), "%sp99 latency", dir);
	write_label(script, "y", name, &o->latunit);
	if (o->loglat)
		fputs("set logscale y 10\nset yrange [*:*]\n", script);
	write_panel(o, script, 3, false);
	fputs("unset multiplot\n", script);
	return ferror(script) ? -1 : 0;
}

/* --- the command --- */

/* What was left out, said once each. */
static void say_left_out(const struct over *o)
{
	if (o->nleft_out)
		cli_error("plot: note: left out, without a series: %s%s", o->left_out,
			  o->nleft_out > 8 ? " and more" : "");
	if (o->dropped)
		cli_error("plot: note: drew the first %d lines of %zu; choose others with --run, "
			  "--job or --repeat", MAX_LINES, MAX_LINES + o->dropped);
}

/* Whether some point has a latency (an interval with I/O). */
static bool any_latency(const struct over *o)
{
	for (size_t k = 0; k < o->npts; k++)
		if (!isnan(o->pts[k].p99_ns))
			return true;
	return false;
}

int plot_over(const struct resultfile *rf, const struct cli *cl, struct plot_dest *dest)
{
	struct over o = { .rf = rf, .cl = cl, .by_bytes = strcmp(cl->over, "bytes") == 0 };
	size_t nseries = count_series(rf);
	int rc = EXIT_USAGE;

	if (plot_check_jobs(cl, rf) < 0 || check_runs(&o) < 0 ||
	    choose_lines(&o) < 0)
		return EXIT_USAGE;
	if (nseries == 0) {
		cli_error("plot: %s: no repeat has a series to plot over %s; record one with the "
			  "job option interval (for example interval = 100ms): a repeat shorter "
			  "than three intervals has none", rf->path, cl->over);
		return EXIT_USAGE;
	}
	if (o.nlines == 0) {
		cli_error("plot: %s: the chosen repeats have no series (%s); choose others with "
			  "--run, --job or --repeat", rf->path, o.left_out);
		return EXIT_USAGE;
	}
	for (size_t k = 0; k < o.nlines; k++)
		if (add_points(&o, &o.line[k]) < 0)
			goto oom;
	if (!any_latency(&o)) {
		/* (gnuplot cannot draw a panel without a point) */
		cli_error("plot: %s: no interval of the chosen repeats has I/O with a latency: "
			  "nothing to plot; choose others with --run, --job or --repeat", rf->path);
		free(o.pts);
		return EXIT_USAGE;
	}
	if (title_lines(&o) < 0)
		goto oom;
	choose_units(&o);
	say_left_out(&o);
	rc = plot_draw(dest, 1024, 800, write_chart, &o) < 0 ? EXIT_RUN : EXIT_OK;
	free(o.pts);
	return rc;
oom:
	cli_error("plot: out of memory");
	free(o.pts);
	return EXIT_RUN;
}
