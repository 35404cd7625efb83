/*
 * cmd_report.c - `iosweep report RESULT.json... -o FILE.html`: one
 * self-contained HTML page of result files, for a reader without iosweep.
 *
 * Per file: the job file and the overrides, the host facts, the table of
 * every run (medians, the repeats counted, interrupted and failed runs
 * marked, notes and errors), each run's repeats as a strip of dots, and the
 * charts of `iosweep plot` (and of `plot --over time` when repeats have
 * series), drawn by the plot code into memory and embedded as SVG data
 * URIs; then, given several files, compare's table of the first against
 * each other.  It reads result files through the result reader, so a file
 * that reader refuses (another schema, a hostile value) is refused here the
 * same way, before anything is written; it never re-runs anything.
 *
 * Everything taken from the files (job text, names, notes, paths) is
 * HTML-escaped, control characters and bytes that are not UTF-8 written as
 * C escapes; the page has inline CSS only (tables scroll sideways on a
 * narrow screen; print styles), no script, no external resource.  A
 * signal while it is written leaves no temporary file and the old page.
 */
#define _GNU_SOURCE
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "cli/plot.h"
#include "lib/error.h"
#include "lib/output.h"
#include "lib/stats.h"
#include "lib/texttable.h"
#include "report/figures.h"
#include "results/resultfile.h"

/* The figures of the run table, the first one also the strip of repeats. */
static const char *const shown[] = { "time_to_end_s", "throughput_Bps", "iops", "lat_p50_ns",
				     "lat_p99_ns" };
static const char *const shown_title[] = { "time to end", "throughput", "IOPS", "p50",
					   "p99" };
#define NSHOWN (sizeof(shown) / sizeof(shown[0]))

/* The length of the UTF-8 character at p (1..4), or 0 when it is not one. */
static size_t utf8_len(const unsigned char *p)
{
	size_t n = *p < 0x80 ? 1 : (*p & 0xe0) == 0xc0 ? 2 : (*p & 0xf0) == 0xe0 ? 3
			   : (*p & 0xf8) == 0xf0 ? 4 : 0;

	if (n == 2 && *p < 0xc2)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* s as HTML text or attribute value; in a <pre> (pre), its line breaks and
 * tabs as they are. */
static void html_text(FILE *f, const char *s, bool pre)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		char esc[8];
		size_t len = pre && (*p == '\n' || *p == '\t') ? 0 : tt_control(p, esc), n;

		if (len) {
			fputs(esc, f);
			p += len;
		} else if ((n = utf8_len(p)) == 0) {
			fprintf(f, "\\x%02x", *p++);
		} else if (strchr("&<>\"'", *p)) {
			fprintf(f, "&#%d;", *p++);
		} else {
			fwrite(p, 1, n, f);
			p += n;
		}
	}
}

static void html_put(FILE *f, const char *s)
{
	html_text(f, s, false);
}

/* A JSON value as text: a string as it is, anything else as JSON. */
static void html_json(FILE *f, const json_t *v)
{
	char *text;

	if (json_is_string(v)) {
		html_put(f, json_string_value(v));
		return;
	}
	text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(10));
	html_put(f, text ? text : "?");
	free(text);
}

static void base64(FILE *f, const unsigned char *p, size_t n)
{
	static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
			     (i + 2 < n ? p[i + 2] : 0);

		fputc(a[v >> 18], f);
		fputc(a[(v >> 12) & 63], f);
		fputc(i + 1 < n ? a[(v >> 6) & 63] : '=', f);
		fputc(i + 2 < n ? a[v & 63] : '=', f);
	}
}

static void page_head(FILE *f, const struct cli *cl)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>iosweep report: ", f);
	html_put(f, cl->files[0]);
	fprintf(f, "%s</title>\n<style>\n", cl->nfiles > 1 ? " and others" : "");
	fputs("body{font-family:system-ui,sans-serif;margin:0 auto;max-width:72em;padding:0 1em;"
	      "line-height:1.4;color:#111;background:#fff}\n"
	      ".scroll{overflow-x:auto;max-width:100%}\n"
	      "table{border-collapse:collapse;font-variant-numeric:tabular-nums}\n"
	      "th,td{border:1px solid #bbb;padding:.2em .5em;text-align:left;vertical-align:top;overflow-wrap:anywhere}\n"
	      "td.n{text-align:right;white-space:nowrap}\n"
	      "pre{background:#f4f4f4;padding:.5em;overflow-x:auto;white-space:pre}\n"
	      "img{max-width:100%;height:auto}\n"
	      ".warn{color:#a00;font-weight:bold}\n"
	      "@media print{body{max-width:none}.scroll,pre{overflow:visible;white-space:pre-wrap}"
	      "section,figure,tr{page-break-inside:avoid}}\n"
	      "</style>\n</head>\n<body>\n<h1>iosweep report</h1>\n", f);
}

static void job_section(FILE *f, const struct resultfile *rf)
{
	const json_t *jf = json_object_get(rf->doc, "job_file"), *ov, *v;
	size_t i;

	fputs("<h3>Job file</h3>\n", f);
	if (json_is_string(json_object_get(jf, "path"))) {
		fputs("<p>", f);
		html_json(f, json_object_get(jf, "path"));
		fputs("</p>\n", f);
	}
	if (json_is_string(json_object_get(jf, "text"))) {
		fputs("<pre>", f);
		html_text(f, json_string_value(json_object_get(jf, "text")), true);
		fputs("</pre>\n", f);
	} else {
		fputs("<p>(not in the result file)</p>\n", f);
	}
	ov = json_object_get(rf->doc, "overrides");
	if (json_array_size(ov)) {
		fputs("<p>--set:", f);
		json_array_foreach(ov, i, v) {
			fputs(" <code>", f);
			html_json(f, v);
			fputs("</code>", f);
		}
		fputs("</p>\n", f);
	}
}

/* The host facts: one row per field, a nested object's fields dotted. */
static void host_rows(FILE *f, const char *prefix, const json_t *o, int depth)
{
	const char *key;
	const json_t *v;

	json_object_foreach((json_t *)o, key, v) {
		char name[256];

		snprintf(name, sizeof(name), "%s%s%s", prefix, *prefix ? "." : "", key);
		if (json_is_object(v) && depth < 3) {
			host_rows(f, name, v, depth + 1);
			continue;
		}
		fputs("<tr><th>", f);
		html_put(f, name);
		fputs("</th><td>", f);
		html_json(f, v);
		fputs("</td></tr>\n", f);
	}
}

static void host_section(FILE *f, const struct resultfile *rf)
{
	const json_t *host = json_object_get(rf->doc, "host");

	fputs("<h3>Host</h3>\n", f);
	if (!json_is_object(host)) {
		fputs("<p>(not in the result file)</p>\n", f);
		return;
	}
	fputs("<div class=\"scroll\"><table>\n", f);
	host_rows(f, "", host, 0);
	fputs("</table></div>\n", f);
}

/* The repeats of a run as dots on a line from the smallest to the largest. */
static void strip(FILE *f, const double *v, size_t n)
{
	double lo = INFINITY, hi = -INFINITY;

	for (size_t i = 0; i < n; i++) {
		lo = fmin(lo, v[i]);
		hi = fmax(hi, v[i]);
	}
	fputs("<svg width=\"120\" height=\"14\" viewBox=\"0 0 120 14\" role=\"img\">"
	      "<line x1=\"4\" y1=\"7\" x2=\"116\" y2=\"7\" stroke=\"#bbb\"/>", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "<circle cx=\"%.1f\" cy=\"7\" r=\"3\" fill=\"#1f5fa8\" "
			   "fill-opacity=\"0.6\"/>", hi > lo ? 4 + 112 * (v[i] - lo) / (hi - lo) : 60);
	fputs("</svg>", f);
}

/* The median of figure name over run's completed repeats, formatted into
 * buf ("" when it has none); its values in *v (malloc'd, *n of them) when v. */
static void median_text(const struct resultfile_run *run, const char *name, char *buf,
			size_t len, double **v, size_t *n)
{
	const struct figure *fig = figure_find(name);
	size_t nv = 0;
	double *val = fig ? resultfile_values(run, fig, &nv) : NULL;
	struct summary s;

	buf[0] = '\0';
	if (val && nv) {
		stats_summarize(val, nv, &s);
		figure_format(fig, s.median, buf, len);
	}
	if (v) {
		*v = val;
		*n = val ? nv : 0;
	} else {
		free(val);
	}
}

/* The repeats' time to end: the strip and its min … max. */
static void strip_cell(FILE *f, const double *v, size_t n)
{
	const struct figure *fig = figure_find(shown[0]);
	struct summary s;
	char a[64], b[64];

	fputs("<td class=\"n\">", f);
	if (n) {
		stats_summarize(v, n, &s);
		figure_format(fig, s.min, a, sizeof(a));
		figure_format(fig, s.max, b, sizeof(b));
		strip(f, v, n);
		fputs(" ", f);
		html_put(f, a);
		fputs(" … ", f);
		html_put(f, b);
	}
	fputs("</td>", f);
}

/* The cell of shown[k]; a readwrite run's reads and writes apart, as the
 * table of `iosweep run` shows them. */
static void figure_cell(FILE *f, const struct resultfile_run *run, size_t k, bool mixed)
{
	char a[64], b[64], name[64];

	fputs("<td class=\"n\">", f);
	if (!mixed || k == 0) {
		median_text(run, shown[k], a, sizeof(a), NULL, NULL);
		html_put(f, a);
	} else {
		snprintf(name, sizeof(name), "read_%s", shown[k]);
		median_text(run, name, a, sizeof(a), NULL, NULL);
		snprintf(name, sizeof(name), "write_%s", shown[k]);
		median_text(run, name, b, sizeof(b), NULL, NULL);
		if (a[0] || b[0])
			fprintf(f, "r %s w %s", a, b);
	}
	fputs("</td>", f);
}

static bool is_mixed(const struct resultfile_run *run)
{
	const json_t *op = resultfile_param(run, "op");

	return json_is_string(op) && strcmp(json_string_value(op), "readwrite") == 0;
}

static void notes_cell(FILE *f, const struct resultfile_run *run)
{
	fputs("<td>", f);
	if (run->failed) {
		fputs("<span class=\"warn\">failed</span>", f);
		if (run->error) {
			fputs(": ", f);
			html_json(f, run->error);
		}
		fputs("<br>", f);
	}
	if (run->ninterrupted)
		fprintf(f, "<span class=\"warn\">interrupted</span> (%zu of %zu repeats, left out of "
			   "the figures)<br>", run->ninterrupted, run->nrepeats);
	if (run->note)
		html_json(f, run->note);
	fputs("</td>", f);
}

static void run_row(FILE *f, const struct runset *set, size_t i, const char *const *keys,
		    size_t nkeys)
{
	const struct resultfile_run *run = set->runs[i];
	char text[512];
	double *v;
	size_t n;

	fprintf(f, "<tr><td class=\"n\">%lld</td><td>", run->index >= 0 ? run->index : (long long)i);
	html_json(f, run->job);
	fputs("</td>", f);
	for (size_t k = 0; k < nkeys; k++) {
		json_t *v = resultfile_param(run, keys[k]);

		resultfile_param_text(keys[k], v, text, sizeof(text));
		fputs("<td class=\"n\">", f);
		html_put(f, v ? text : "");
		fputs("</td>", f);
	}
	fprintf(f, "<td class=\"n\">%zu</td>", run->nrepeats - run->ninterrupted);
	figure_cell(f, run, 0, false);
	median_text(run, shown[0], text, sizeof(text), &v, &n);
	strip_cell(f, v, n);
	free(v);
	for (size_t k = 1; k < NSHOWN; k++)
		figure_cell(f, run, k, is_mixed(run));
	notes_cell(f, run);
	fputs("</tr>\n", f);
}

/* -1 when out of memory. */
static int runs_section(FILE *f, const struct resultfile *rf)
{
	const char *all[RUNSET_MAX_KEYS], *keys[RUNSET_MAX_KEYS];
	size_t nall, nkeys = 0;
	struct runset set;

	fputs("<h3>Runs</h3>\n", f);
	if (runset_init(&set, rf->runs, rf->nruns, true) < 0)
		return -1;
	nall = resultfile_keys(&set, all, RUNSET_MAX_KEYS);
	for (size_t k = 0; k < nall; k++)
		if (resultfile_distinct(&set, all[k]) > 1)
			keys[nkeys++] = all[k];
	nkeys = resultfile_independent(&set, keys, nkeys);
	fputs("<div class=\"scroll\"><table>\n<thead><tr><th>#</th><th>job</th>", f);
	for (size_t k = 0; k < nkeys; k++) {
		fputs("<th>", f);
		html_put(f, keys[k]);
		fputs("</th>", f);
	}
	fputs("<th>repeats</th><th>time to end</th><th>repeats' time to end</th>", f);
	for (size_t k = 1; k < NSHOWN; k++)
		fprintf(f, "<th>%s</th>", shown_title[k]);
	fputs("<th>notes</th></tr></thead>\n<tbody>\n", f);
	for (size_t i = 0; i < set.n; i++)
		run_row(f, &set, i, keys, nkeys);
	fputs("</tbody></table></div>\n<p>Figures are medians over the repeats that were not "
	      "interrupted; the dots are those repeats' times to end, from the smallest to the "
	      "largest.</p>\n", f);
	runset_free(&set);
	return 0;
}

/* Whether some completed repeat of rf has a figure, and some repeat a series. */
static void what_to_draw(const struct resultfile *rf, bool *measured, bool *series)
{
	*measured = *series = false;
	for (size_t i = 0; i < rf->nruns; i++) {
		const struct resultfile_run *run = rf->runs[i];
		size_t k;
		json_t *rep;

		*measured |= run->nfigs && run->nval[0] > 0;
		json_array_foreach(run->repeats, k, rep)
			*series |= json_is_object(json_object_get(rep, "series"));
	}
}

/* One chart of `iosweep plot` (over: --over time), drawn into memory. */
static void chart(FILE *f, const char *path, const char *over, const char *caption)
{
	struct cli cl = { .nfiles = 1, .files = (char *[]){ (char *)path }, .over = over };
	struct plot_dest d = { .to_memory = true };

	fputs("<figure>\n", f);
	if (plot_chart(&cl, &d) == EXIT_OK && d.svg) {
		fputs("<img alt=\"", f);
		html_put(f, caption);
		fputs("\" width=\"1024\" src=\"data:image/svg+xml;base64,", f);
		base64(f, (const unsigned char *)d.svg, d.svg_len);
		fputs("\">\n", f);
	} else {
		fputs("<p class=\"warn\">This chart could not be drawn: iosweep said why on its "
		      "standard error.</p>\n", f);
	}
	fputs("<figcaption>", f);
	html_put(f, caption);
	fputs("</figcaption>\n</figure>\n", f);
	plot_dest_free(&d);
}

static void charts_section(FILE *f, const struct resultfile *rf)
{
	bool measured, series;

	what_to_draw(rf, &measured, &series);
	if (!measured && !series)
		return;
	fputs("<h3>Charts</h3>\n", f);
	if (measured)
		chart(f, rf->path, NULL, "the median of each run with its spread (iosweep plot)");
	if (series)
		chart(f, rf->path, "time", "throughput and p99 latency of each interval of the "
					   "repeats (iosweep plot --over time)");
}

/* A file's heading: its path, when and by what it was written, and whether
 * it holds everything its job asked for. */
static void file_heading(FILE *f, const struct resultfile *rf, size_t i)
{
	const json_t *id = json_object_get(rf->doc, "iosweep");

	fprintf(f, "<section id=\"result%zu\">\n<h2>", i + 1);
	html_put(f, rf->path);
	fputs("</h2>\n<p>", f);
	if (rf->from_fio) {
		fputs("a fio JSON result, read as one run per fio job with one repeat", f);
	} else {
		fputs("started ", f);
		html_json(f, json_object_get(rf->doc, "started"));
		fputs(" by iosweep ", f);
		html_json(f, json_object_get(id, "version"));
	}
	fprintf(f, "; %zu run%s</p>\n", rf->nruns, rf->nruns == 1 ? "" : "s");
	if (json_is_true(json_object_get(rf->doc, "interrupted"))) {
		fputs("<p class=\"warn\">Interrupted (", f);
		html_json(f, json_object_get(rf->doc, "stopped_by"));
		fputs("): the runs below are those done; an interrupted repeat is marked and left "
		      "out of the figures.</p>\n", f);
	} else if (json_is_false(json_object_get(rf->doc, "complete"))) {
		fputs("<p class=\"warn\">Incomplete: the file was written before its plan had "
		      "run whole.</p>\n", f);
	}
}

/* -1 when out of memory. */
static int file_section(FILE *f, const struct resultfile *rf, size_t i)
{
	file_heading(f, rf, i);
	if (!rf->from_fio) {
		job_section(f, rf);
		host_section(f, rf);
	}
	if (runs_section(f, rf) < 0)
		return -1;
	charts_section(f, rf);
	fputs("</section>\n", f);
	return 0;
}

/* compare's table of the first file against each other one. */
static int compare_section(FILE *f, const struct cli *cl)
{
	char *text = NULL;
	size_t len = 0;

	if (cl->nfiles < 2)
		return 0;
	fputs("<section id=\"comparison\">\n<h2>Comparison</h2>\n", f);
	for (size_t i = 1; i < cl->nfiles; i++) {
		FILE *m = open_memstream(&text, &len);
		int rc;

		if (!m)
			return -1;
		rc = compare_files(cl->files[0], cl->files[i], cl->alpha, m);
		if (fclose(m) != 0 || rc != EXIT_OK) {
			free(text);
			return rc == EXIT_OK ? -1 : rc;
		}
		fputs("<h3>", f);
		html_put(f, cl->files[0]);
		fputs(" → ", f);
		html_put(f, cl->files[i]);
		fputs(" (iosweep compare)</h3>\n<pre>", f);
		html_text(f, text, true);
		fputs("</pre>\n", f);
		free(text);
		text = NULL;
	}
	fputs("</section>\n", f);
	return 0;
}

/* The result files, each read and checked by the result reader. */
static int load_all(struct resultfile *rf, const struct cli *cl)
{
	const struct figure *figs[3 * NSHOWN];
	size_t nf = 0;
	char err[ERR_MAX], name[64];

	for (size_t k = 0; k < NSHOWN; k++)
		for (int d = 0; d < 3; d++) {
			snprintf(name, sizeof(name), "%s%s", d == 0 ? "" : d == 1 ? "read_" : "write_",
				 shown[k]);
			if ((figs[nf] = figure_find(name)) != NULL)
				nf++;
		}
	for (size_t i = 0; i < cl->nfiles; i++)
		if (resultfile_load(&rf[i], cl->files[i], figs, nf, RESULTFILE_SERIES, err) < 0) {
			cli_error("%s", err);
			return -1;
		}
	return 0;
}

/* The destination, checked before anything is read: -o FILE.html, not one
 * of the result files. */
static int check_dest(const struct cli *cl, struct output *dest)
{
	char err[ERR_MAX];

	if (!cl->out_path) {
		cli_error("report: -o FILE.html is needed (usage: iosweep %s)", help_usage("report"));
		return -1;
	}
	if (strcmp(cl->out_path, "-") == 0)
		return 0;
	if (output_check(cl->out_path, dest, err) < 0) {
		cli_error("report: %s", err);
		return -1;
	}
	for (size_t i = 0; i < cl->nfiles; i++)
		if (output_names(dest, cl->files[i])) {
			cli_error("report: cannot write %s: it is the result file %s", cl->out_path,
				  cl->files[i]);
			return -1;
		}
	return 0;
}

/* The page into dest->f; an exit code. */
static int write_page(FILE *f, const struct resultfile *rf, const struct cli *cl)
{
	int rc;

	page_head(f, cl);
	for (size_t i = 0; i < cl->nfiles; i++)
		if (file_section(f, &rf[i], i) < 0)
			return EXIT_RUN;
	rc = compare_section(f, cl);
	if (rc != 0)
		return rc < 0 ? EXIT_RUN : rc;
	fputs("</body>\n</html>\n", f);
	return EXIT_OK;
}

/* SIGINT, SIGTERM and SIGHUP, but those ignored (nohup) */
static void stop_signals(sigset_t *set)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	sigemptyset(set);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], NULL, &sa) == 0 && sa.sa_handler != SIG_IGN)
			sigaddset(set, sigs[i]);
}

static bool stop_pending(const sigset_t *stops, const sigset_t *pending)
{
	return (sigismember(stops, SIGINT) && sigismember(pending, SIGINT)) ||
	       (sigismember(stops, SIGTERM) && sigismember(pending, SIGTERM)) ||
	       (sigismember(stops, SIGHUP) && sigismember(pending, SIGHUP));
}

/* The page to dest, replaced atomically; an exit code.  SIGINT, SIGTERM
 * and SIGHUP (those not ignored) wait (in gnuplot too, which inherits the mask) until the page
 * is whole: then, when one came, the temporary file is removed, the old
 * page left as it was, and the signal ends iosweep with 128 + its number. */
static int to_file(const struct resultfile *rf, const struct cli *cl, struct output *dest)
{
	char err[ERR_MAX] = "";
	sigset_t stops, old, pending;
	int rc;

	stop_signals(&stops);
	sigprocmask(SIG_BLOCK, &stops, &old);
	rc = output_begin(dest, err) < 0 ? EXIT_RUN : write_page(dest->f, rf, cl);
	sigpending(&pending);
	if (stop_pending(&stops, &pending)) {
		output_discard(dest);
		rc = EXIT_INTERRUPTED;
	} else if (rc == EXIT_OK && output_commit(dest, err) < 0) {
		rc = EXIT_RUN;
	} else if (rc != EXIT_OK) {
		output_discard(dest);
	}
	sigprocmask(SIG_SETMASK, &old, NULL); /* a pending stop ends iosweep here */
	if (rc == EXIT_RUN)
		cli_error("report: %s", err[0] ? err : "out of memory");
	return rc;
}

/* -o -: the page to stdout; an exit code. */
static int to_stdout(const struct resultfile *rf, const struct cli *cl)
{
	int rc = write_page(stdout, rf, cl);

	if (rc == EXIT_OK && (fflush(stdout) != 0 || ferror(stdout))) {
		cli_error("report: writing to stdout failed");
		rc = EXIT_RUN;
	}
	return rc;
}

static int report(const struct cli *cl, struct output *dest)
{
	struct resultfile *rf = calloc(cl->nfiles, sizeof(*rf));
	int rc;

	if (!rf) {
		cli_error("report: out of memory");
		return EXIT_RUN;
	}
	if (load_all(rf, cl) < 0)
		rc = EXIT_USAGE;
	else if (strcmp(cl->out_path, "-") == 0)
		rc = to_stdout(rf, cl);
	else
		rc = to_file(rf, cl, dest);
	for (size_t i = 0; i < cl->nfiles; i++)
		resultfile_free(&rf[i]);
	free(rf);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct output dest;
	struct cli cl;
	int rc = cli_parse("report", argc, argv, &cl);

	if (rc)
		return rc;
	memset(&dest, 0, sizeof(dest));
	if (cl.nfiles == 0) {
		cli_error("report: expected one or more result files (usage: iosweep %s)",
			  help_usage("report"));
		rc = EXIT_USAGE;
	} else if (check_dest(&cl, &dest) < 0) {
		rc = EXIT_USAGE;
	} else {
		rc = report(&cl, &dest);
	}
	output_free(&dest);
	cli_free(&cl);
	return rc;
}
