/*
 * cmd_history.c - `iosweep history add|list|show|trend`: result files kept
 * in a SQLite database (src/results/history.c) and read back: a list of
 * them, one of them with its runs, and the trend of one figure of a job's
 * runs over the results, per host, as a table and (with -o) a chart drawn
 * by gnuplot through plot.c, as `iosweep plot` draws its charts.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "cli/plot.h"
#include "lib/error.h"
#include "lib/stats.h"
#include "lib/texttable.h"
#include "report/figures.h"
#include "results/history.h"

enum sub { SUB_ADD, SUB_LIST, SUB_SHOW, SUB_TREND, NSUBS };

static const char *const sub_name[NSUBS] = { "add", "list", "show", "trend" };

/* The flags each subcommand takes (1 << FLAG_...); --db is everyone's. */
static const unsigned long sub_flags[NSUBS] = {
	[SUB_ADD] = 1ul << FLAG_LABEL,
	[SUB_LIST] = 1ul << FLAG_LABEL | 1ul << FLAG_JOB | 1ul << FLAG_HOST | 1ul << FLAG_SINCE |
		     1ul << FLAG_UNTIL,
	[SUB_SHOW] = 1ul << FLAG_FIGURE,
	[SUB_TREND] = 1ul << FLAG_LABEL | 1ul << FLAG_JOB | 1ul << FLAG_HOST | 1ul << FLAG_SINCE |
		      1ul << FLAG_UNTIL | 1ul << FLAG_FIGURE | 1ul << FLAG_OUTPUT,
};

/* Which flags were given. */
static unsigned long given_flags(const struct cli *cl)
{
	return (cl->label ? 1ul << FLAG_LABEL : 0) | (cl->njobs ? 1ul << FLAG_JOB : 0) |
	       (cl->host ? 1ul << FLAG_HOST : 0) | (cl->since ? 1ul << FLAG_SINCE : 0) |
	       (cl->until ? 1ul << FLAG_UNTIL : 0) | (cl->figure ? 1ul << FLAG_FIGURE : 0) |
	       (cl->nout ? 1ul << FLAG_OUTPUT : 0);
}

/* YYYY-MM-DD, optionally followed by THH, THH:MM or THH:MM:SS. */
static bool date_ok(const char *d)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd";
	size_t n = strlen(d);

	if (n != 10 && n != 13 && n != 16 && n != 19)
		return false;
	for (size_t i = 0; i < n; i++)
		if (shape[i] == 'd' ? !(d[i] >= '0' && d[i] <= '9') : d[i] != shape[i])
			return false;
	return true;
}

/* The subcommand and its flags, checked; -1 after saying why. */
static int check_args(const struct cli *cl, enum sub *sub)
{
	unsigned long extra;
	const char *dates[] = { cl->since, cl->until };

	for (*sub = 0; cl->nfiles && *sub < NSUBS; (*sub)++)
		if (strcmp(cl->files[0], sub_name[*sub]) == 0)
			break;
	if (!cl->nfiles || *sub == NSUBS) {
		cli_error("history: expected add, list, show or trend (usage: iosweep %s)",
			  help_usage("history"));
		return -1;
	}
	extra = given_flags(cl) & ~sub_flags[*sub];
	for (int f = 0; extra && f < NFLAGS; f++)
		if (extra & 1ul << f) {
			cli_error("history %s does not take --%s", sub_name[*sub],
				  cli_flags[f].long_name);
			return -1;
		}
	for (size_t i = 0; i < 2; i++)
		if (dates[i] && !date_ok(dates[i])) {
			cli_error("history: --%s '%s': expected a date, YYYY-MM-DD or "
				  "YYYY-MM-DDTHH:MM:SS", i ? "until" : "since", dates[i]);
			return -1;
		}
	if (cl->njobs > 1) {
		cli_error("history %s: one --job at most", sub_name[*sub]);
		return -1;
	}
	if ((*sub == SUB_ADD && cl->nfiles < 2) || (*sub == SUB_LIST && cl->nfiles > 1) ||
	    (*sub == SUB_SHOW && cl->nfiles != 2) || (*sub == SUB_TREND && cl->nfiles > 1)) {
		cli_error("history %s: %s (usage: iosweep %s)", sub_name[*sub],
			  *sub == SUB_ADD ? "expected result files" : *sub == SUB_SHOW ?
			  "expected one result's id or hash" : "takes no file", help_usage("history"));
		return -1;
	}
	if (*sub == SUB_TREND && !cl->njobs) {
		cli_error("history trend: --job NAME is required (the job drawn)");
		return -1;
	}
	return 0;
}

static const struct figure *figure_of(const struct cli *cl, const char *cmd)
{
	const struct figure *f = figure_find(cl->figure ? cl->figure : "time_to_end_s");

	if (!f || !figure_better(f))
		cli_error("history %s: --figure %s: %s (time_to_end_s, throughput_Bps, iops, "
			  "lat_p99_ns, ...)", cmd, cl->figure, f ? "not a figure the history keeps "
			  "(neither better higher nor lower)" : "no such figure");
	return f && figure_better(f) ? f : NULL;
}

/* --- add --- */

/* Each file read, then stored; the database is opened (made) once the
 * first file has been read, so a bad file leaves nothing behind. */
static int cmd_add(struct history **db, const char *path, const struct cli *cl)
{
	struct history_pending p;
	char err[ERR_MAX];
	long long id = 0;
	int rc = 0;

	for (size_t i = 1; i < cl->nfiles && rc >= 0; i++) {
		if (history_read(&p, cl->files[i], err) < 0) {
			cli_error("%s", err);
			return EXIT_USAGE;
		}
		if (!*db && (rc = history_open(db, path, true, err)) < 0) {
			history_pending_free(&p);
			cli_error("history: %s", err);
			return rc == -1 ? EXIT_RUN : EXIT_USAGE;
		}
		rc = history_store(*db, &p, cl->label, &id, err);
		history_pending_free(&p);
		if (rc < 0)
			cli_error("%s", err);
		else
			printf(rc ? "added %s as %lld\n" : "%s is already in the history as %lld\n",
			       cl->files[i], id);
	}
	return rc < 0 ? EXIT_RUN : EXIT_OK;
}

/* --- list --- */

static int list_row(void *ctx, const struct history_result *r)
{
	struct texttable *t = ctx;
	char runs[64];

	snprintf(runs, sizeof(runs), "%lld%s", r->nruns, r->ninterrupted ? " (interrupted)" : "");
	tt_add(t, "%lld", r->id);
	tt_add(t, "%.16s", r->hash);
	tt_add(t, "%s", r->started);
	tt_add(t, "%s", r->host.field[0]);
	tt_add(t, "%s", r->label);
	tt_add(t, "%s", r->jobs);
	tt_add(t, "%s", runs);
	return 0;
}

static void filter_of(const struct cli *cl, struct history_filter *f)
{
	*f = (struct history_filter){ .job = cl->njobs ? cl->jobs[0] : NULL, .host = cl->host,
				      .label = cl->label, .since = cl->since, .until = cl->until };
}

static int cmd_list(struct history *db, const struct cli *cl)
{
	static const char *const head[] = { "id", "hash", "started", "host", "label", "jobs",
					    "runs" };
	struct history_filter f;
	struct texttable t;
	char err[ERR_MAX];
	int rc;

	filter_of(cl, &f);
	tt_init(&t, 7);
	for (size_t i = 0; i < 7; i++)
		tt_add(&t, "%s", head[i]);
	rc = history_list(db, &f, list_row, &t, err);
	if (rc == 0)
		tt_print(&t, stdout, "");
	else
		cli_error("%s", err);
	tt_free(&t);
	return rc ? EXIT_RUN : EXIT_OK;
}

/* --- show --- */

struct show {
	const struct figure *f;
	struct texttable t;
	size_t n;
};

static int show_result(void *ctx, const struct history_result *r)
{
	(void)ctx;
	printf("id:           %lld\nhash:         %s\nfile:         %s\nlabel:        %s\n"
	       "started:      %s\nadded:        %s\niosweep:      %s\ncomplete:     %s\n", r->id, r->hash, r->path, r->label,
	       r->started, r->added, r->version, r->complete ? "yes" : "no (interrupted)");
	for (size_t i = 0; i < HOST_NFIELDS; i++)
		printf("%-14s%s\n", history_host_fields[i], r->host.field[i]);
	printf("runs:         %lld\n\n", r->nruns);
	return 0;
}

/* "1.25 ms ± 3%": the median and its interval's farther end, in percent. */
static void median_text(const struct figure *f, const struct summary *s, char *buf, size_t n)
{
	char v[64];
	double pct = figure_spread_pct(s, &(bool){ false });

	if (!s->n) {
		snprintf(buf, n, "-");
		return;
	}
	figure_format(f, s->median, v, sizeof(v));
	if (isnan(pct))
		snprintf(buf, n, "%s", v);
	else
		snprintf(buf, n, "%s ± %.0f%%", v, pct);
}

static void run_note(const struct history_run *r, char *buf, size_t n)
{
	if (r->failed)
		snprintf(buf, n, "failed");
	else if (r->ninterrupted)
		snprintf(buf, n, "%lld of %lld repeats interrupted", r->ninterrupted, r->nrepeats);
	else
		buf[0] = '\0';
}

static int show_run(void *ctx, const struct history_run *r)
{
	struct show *s = ctx;
	struct summary sum;
	char med[128], note[128];

	stats_summarize(r->val, r->nval, &sum);
	median_text(s->f, &sum, med, sizeof(med));
	run_note(r, note, sizeof(note));
	tt_add(&s->t, "%zu", s->n++);
	tt_add(&s->t, "%s", r->label);
	tt_add(&s->t, "%zu", r->nval);
	tt_add(&s->t, "%s", med);
	tt_add(&s->t, "%s", note);
	return 0;
}

static long long found_id;

static int remember_id(void *ctx, const struct history_result *r)
{
	(void)ctx;
	found_id = r->id;
	return show_result(NULL, r);
}

static int cmd_show(struct history *db, const struct cli *cl)
{
	struct show s = { .f = figure_of(cl, "show") };
	char err[ERR_MAX];
	int rc;

	if (!s.f)
		return EXIT_USAGE;
	rc = history_find(db, cl->files[1], remember_id, NULL, err);
	if (rc == 0)
		cli_error("history show: no result '%s' in the history (see 'iosweep history list')",
			  cl->files[1]);
	if (rc <= 0) {
		if (rc < 0)
			cli_error("%s", err);
		return rc < 0 ? EXIT_RUN : EXIT_USAGE;
	}
	tt_init(&s.t, 5);
	tt_add(&s.t, "#");
	tt_add(&s.t, "run");
	tt_add(&s.t, "n");
	tt_add(&s.t, "%s", s.f->title);
	tt_add(&s.t, "note");
	rc = history_runs(db, found_id, s.f->name, show_run, &s, err);
	if (rc == 0)
		tt_print(&s.t, stdout, "");
	else
		cli_error("%s", err);
	tt_free(&s.t);
	return rc ? EXIT_RUN : EXIT_OK;
}

/* --- trend --- */

struct tpoint {
	size_t series;
	long long result;
	size_t x;            /* the result's place among all, by date */
	char *started, *label, *note;
	struct summary s;
};

struct trend {
	const struct figure *f;
	struct tpoint *pts;
	size_t npts, cap;
	char **series;       /* "run label @ host" */
	size_t nseries;
	char *key;           /* the last series' host and run key */
	size_t nx;
	bool failed;
	struct plot_unit unit;
};

static bool title_taken(const struct trend *t, const char *title)
{
	for (size_t i = 0; i < t->nseries; i++)
		if (strncmp(t->series[i], title, strlen(title)) == 0)
			return true;
	return false;
}

/* "Linux 9, ext4, disk": the kernel, file system and device model of a
 * host key (its fields after machine; CPU left out), in a static buffer. */
static const char *host_rest(const char *host_key)
{
	static char buf[512];
	const char *p = host_key;
	size_t len = 0;

	for (int field = 0; *p && len < sizeof(buf) - 3; p++) {
		if (*p == '\x1f') {
			field++;
			if (field > 2 && field != 3 && len)
				buf[len++] = ',', buf[len++] = ' ';
			continue;
		}
		if (field == 2 || field == 4 || field == 5)
			buf[len++] = *p;
	}
	buf[len < sizeof(buf) ? len : sizeof(buf) - 1] = '\0';
	return buf;
}

static int new_series(struct trend *t, const struct history_run *r)
{
	char **more = realloc(t->series, (t->nseries + 1) * sizeof(*more));
	char *key = NULL, *title = NULL;

	if (!more || asprintf(&key, "%s\n%s", r->host_key, r->run_key) < 0 ||
	    asprintf(&title, "%s @ %s", r->label, r->hostname) < 0) {
		t->series = more ? more : t->series;
		free(key);
		return -1;
	}
	t->series = more;
	if (title_taken(t, title)) { /* the same host name, another kernel, ... */
		char *longer = NULL;

		if (asprintf(&longer, "%s (%s)", title, host_rest(r->host_key)) < 0) {
			free(title);
			free(key);
			return -1;
		}
		free(title);
		title = longer;
	}
	t->series[t->nseries++] = title;
	free(t->key);
	t->key = key;
	return 0;
}

static bool same_series(const struct trend *t, const struct history_run *r)
{
	size_t hl = strlen(r->host_key);

	return t->key && strncmp(t->key, r->host_key, hl) == 0 && t->key[hl] == '\n' &&
	       strcmp(t->key + hl + 1, r->run_key) == 0;
}

static int trend_run(void *ctx, const struct history_run *r)
{
	struct trend *t = ctx;
	struct tpoint *p;
	char note[128];

	if (!same_series(t, r) && new_series(t, r) < 0)
		goto oom;
	if (t->npts == t->cap) {
		struct tpoint *more = realloc(t->pts, (2 * t->cap + 16) * sizeof(*more));

		if (!more)
			goto oom;
		t->pts = more;
		t->cap = 2 * t->cap + 16;
	}
	p = &t->pts[t->npts];
	memset(p, 0, sizeof(*p));
	run_note(r, note, sizeof(note));
	p->series = t->nseries - 1;
	p->result = r->result;
	p->started = strdup(r->started);
	p->label = strdup(r->result_label);
	p->note = strdup(note);
	t->npts++;
	if (!p->started || !p->label || !p->note)
		goto oom;
	stats_summarize(r->val, r->nval, &p->s);
	return 0;
oom:
	t->failed = true;
	return 1;
}

static int by_date(const void *a, const void *b)
{
	const struct tpoint *p = *(const struct tpoint *const *)a, *q = *(const struct tpoint *const *)b;
	int c = strcmp(p->started, q->started);

	return c ? c : (p->result > q->result) - (p->result < q->result);
}

/* x: each result's place among the results drawn, oldest first. */
static int place_results(struct trend *t)
{
	struct tpoint **order = calloc(t->npts + 1, sizeof(*order));

	if (!order)
		return -1;
	for (size_t i = 0; i < t->npts; i++)
		order[i] = &t->pts[i];
	qsort(order, t->npts, sizeof(*order), by_date);
	for (size_t i = 0; i < t->npts; i++) {
		if (i && order[i]->result != order[i - 1]->result)
			t->nx++;
		order[i]->x = t->nx;
	}
	t->nx += t->npts > 0;
	free(order);
	return 0;
}

static void print_trend(const struct trend *t)
{
	struct texttable tt;
	char med[128], ci[160], lo[64], hi[64];

	tt_init(&tt, 7);
	tt_add(&tt, "run @ host");
	tt_add(&tt, "result");
	tt_add(&tt, "started");
	tt_add(&tt, "label");
	tt_add(&tt, "n");
	tt_add(&tt, "%s (median)", t->f->title);
	tt_add(&tt, "95%% CI");
	for (size_t i = 0; i < t->npts; i++) {
		const struct tpoint *p = &t->pts[i];

		median_text(t->f, &p->s, med, sizeof(med));
		figure_format(t->f, p->s.ci95_low, lo, sizeof(lo));
		figure_format(t->f, p->s.ci95_high, hi, sizeof(hi));
		snprintf(ci, sizeof(ci), "%s", p->s.has_ci ? lo : "-");
		if (p->s.has_ci)
			snprintf(ci, sizeof(ci), "%s .. %s", lo, hi);
		tt_add(&tt, "%s", t->series[p->series]);
		tt_add(&tt, "%lld", p->result);
		tt_add(&tt, "%s", p->started);
		tt_add(&tt, "%s", p->label);
		tt_add(&tt, "%zu%s%s", p->s.n, *p->note ? ", " : "", p->note);
		tt_add(&tt, "%s", med);
		tt_add(&tt, "%s", ci);
	}
	tt_print(&tt, stdout, "");
	tt_free(&tt);
}

/* One block a series ("x median low high", in the axis's unit), then the
 * marked points (interrupted repeats, a failed run) as the last block. */
static void write_trend_data(const struct trend *t, FILE *data)
{
	for (size_t s = 0; s <= t->nseries; s++) {
		for (size_t i = 0; i < t->npts; i++) {
			const struct tpoint *p = &t->pts[i];
			double k = t->unit.scale;

			if (!p->s.n || (s < t->nseries ? p->series != s : !*p->note))
				continue;
			fprintf(data, "%zu %.10g %.10g %.10g\n", p->x, p->s.median * k,
				(p->s.has_ci ? p->s.ci95_low : p->s.median) * k,
				(p->s.has_ci ? p->s.ci95_high : p->s.median) * k);
		}
		fputs("\n\n", data);
	}
}

/* At most 20 x tics, each the result's label, else its date. */
static void write_trend_xtics(const struct trend *t, FILE *f)
{
	size_t step = t->nx / 20 + 1, last = (size_t)-1;
	const char *sep = "";

	fputs("set xtics rotate by -30 (", f);
	for (size_t i = 0; i < t->npts; i++) {
		const struct tpoint *p = &t->pts[i];
		char date[17];

		if (p->x % step || p->x == last)
			continue;
		snprintf(date, sizeof(date), "%s", p->started);
		fputs(sep, f);
		plot_quote(f, *p->label ? p->label : date);
		fprintf(f, " %zu", p->x);
		sep = ", ";
		last = p->x;
	}
	fputs(")\n", f);
}

static int write_trend_chart(const void *chart, FILE *data, FILE *script)
{
	const struct trend *t = chart;
	char ylabel[128];

	write_trend_data(t, data);
	plot_axis_label(ylabel, sizeof(ylabel), t->f->title, &t->unit, NULL);
	fputs("set title ", script);
	plot_quote(script, t->f->title);
	fputs(" . ' over the results in the history (median, 95% CI)'\nset ylabel ", script);
	plot_quote(script, ylabel);
	fprintf(script, "\nset xlabel 'result (label, else date started)'\nset xrange [-0.5:%g]\n"
			"set yrange [0:*]\nset key outside right top\nset grid\nset border back\n",
		(double)t->nx - 0.5);
	write_trend_xtics(t, script);
	fputs("plot ", script);
	for (size_t s = 0; s < t->nseries; s++) {
		fprintf(script, "%s'data.dat' index %zu using 1:2:3:4 with yerrorlines ",
			s ? ", \\\n     " : "", s);
		plot_line_style(script, s);
		fputs(" title ", script);
		plot_quote(script, t->series[s]);
	}
	for (size_t i = 0; i < t->npts; i++)
		if (*t->pts[i].note && t->pts[i].s.n) {
			fprintf(script, ", \\\n     'data.dat' index %zu using 1:2 with points "
				PLOT_MARK_STYLE " title 'interrupted or failed'", t->nseries);
			break;
		}
	fputc('\n', script);
	return ferror(data) || ferror(script) ? -1 : 0;
}

static int draw_trend(struct trend *t, const struct cli *cl)
{
	struct plot_dest d;
	double hi = 0;
	int rc;

	memset(&d, 0, sizeof(d));
	for (size_t i = 0; i < t->npts; i++)
		if (t->pts[i].s.n)
			hi = fmax(hi, t->pts[i].s.has_ci ? t->pts[i].s.ci95_high : t->pts[i].s.median);
	plot_unit_choose(plot_figure_quantity(t->f), 0, hi, &t->unit);
	rc = plot_dest_open(&d, cl) < 0 ? EXIT_USAGE :
	     plot_draw(&d, 1024, 600, write_trend_chart, t) < 0 ? EXIT_RUN : EXIT_OK;
	plot_dest_free(&d);
	return rc;
}

static void trend_free(struct trend *t)
{
	for (size_t i = 0; i < t->npts; i++) {
		free(t->pts[i].started);
		free(t->pts[i].label);
		free(t->pts[i].note);
	}
	for (size_t i = 0; i < t->nseries; i++)
		free(t->series[i]);
	free(t->pts);
	free(t->series);
	free(t->key);
}

static int cmd_trend(struct history *db, const struct cli *cl)
{
	struct trend t = { .f = figure_of(cl, "trend") };
	struct history_filter f;
	char err[ERR_MAX];
	int rc = EXIT_OK;

	if (!t.f)
		return EXIT_USAGE;
	filter_of(cl, &f);
	if (history_trend(db, &f, t.f->name, trend_run, &t, err) < 0) {
		cli_error("%s", err);
		rc = EXIT_RUN;
	} else if (t.failed || place_results(&t) < 0) {
		cli_error("history trend: out of memory");
		rc = EXIT_RUN;
	} else if (t.npts == 0) {
		cli_error("history trend: no run of job '%s' in the history%s", cl->jobs[0],
			  f.host || f.label || f.since || f.until ? " (with these filters)" : "");
		rc = EXIT_USAGE;
	} else {
		print_trend(&t);
		if (cl->nout)
			rc = draw_trend(&t, cl);
	}
	trend_free(&t);
	return rc;
}

int cmd_history(int argc, char **argv)
{
	struct history *db = NULL;
	char path[4096], err[ERR_MAX];
	struct cli cl;
	enum sub sub;
	int rc = cli_parse("history", argc, argv, &cl);

	if (rc)
		return rc;
	if (check_args(&cl, &sub) < 0) {
		rc = EXIT_USAGE;
	} else if (history_path(cl.db, sub == SUB_ADD, path, sizeof(path), err) < 0) {
		cli_error("history: %s", err);
		rc = EXIT_USAGE;
	} else if (sub == SUB_ADD) {
		rc = cmd_add(&db, path, &cl);
	} else if ((rc = history_open(&db, path, false, err)) < 0) {
		cli_error("history: %s", err);
		rc = rc == -1 ? EXIT_RUN : EXIT_USAGE;
	} else {
		int (*fn[NSUBS])(struct history *, const struct cli *) = {
			NULL, cmd_list, cmd_show, cmd_trend,
		};

		rc = fn[sub](db, &cl);
	}
	if (rc == EXIT_OK && (fflush(stdout) != 0 || ferror(stdout))) {
		cli_error("history: writing to stdout failed");
		rc = EXIT_RUN;
	}
	history_close(db);
	cli_free(&cl);
	return rc;
}
