/*
 * cmd_plot.c - `iosweep plot RESULT.json`: one figure (median over the
 * repeats, with error bars) against one run parameter, drawn by gnuplot.
 *
 * The choices a person would make are made from the results: x is the
 * parameter with the most distinct values, and each line is one
 * combination of the parameters that still tell runs apart at the same x
 * (plus the job).  The data and the script go to a private temporary
 * directory, and gnuplot runs there with fixed relative file names, so no
 * user-supplied name ever reaches a shell or a gnuplot string except as
 * quoted text; the finished chart is then copied atomically to its
 * destination.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "help.h"
#include "error.h"
#include "figures.h"
#include "options.h"
#include "output.h"
#include "resultfile.h"
#include "units.h"

#include <xxhash.h>

#define MAX_KEYS 64
#define LABEL_MAX 512
#define TMPFILE_MAX (PATH_MAX + 32) /* a file of the temporary directory */

extern char **environ;

struct point {
	size_t series;
	double x, y, lo, hi;
};

struct chart {
	struct resultfile rf;
	const struct figure *fig;
	char *out;               /* destination (malloc'd) */
	struct output dest;      /* out, checked */
	bool png;
	struct runset set;       /* over rf.runs */
	const char *x;           /* a params key, or "job" */
	bool numeric, size, logx, logy;
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
};

/* --- choosing what to draw --- */

/* -o FILE.svg|FILE.png, or RESULT.svg beside the input. */
static int choose_output(struct chart *ch, const struct cli *cl)
{
	const char *in = cl->files[0], *ext;
	size_t len = strlen(in);
	int rc;

	if (cl->nout > 1) {
		cli_error("plot: one -o at most");
		return -1;
	}
	if (cl->nout == 0) {
		if (len > 5 && strcasecmp(in + len - 5, ".json") == 0)
			len -= 5;
		rc = asprintf(&ch->out, "%.*s.svg", (int)len, in);
	} else if (cl->out[0].path) { /* cli_parse split the name at a colon */
		rc = asprintf(&ch->out, "%s:%s", cl->out[0].format, cl->out[0].path);
	} else {
		rc = asprintf(&ch->out, "%s", cl->out[0].format);
	}
	if (rc < 0) {
		ch->out = NULL;
		cli_error("plot: out of memory");
		return -1;
	}
	ext = strrchr(ch->out, '.');
	if (!ext || (strcasecmp(ext, ".svg") != 0 && strcasecmp(ext, ".png") != 0)) {
		cli_error("plot: -o %s: the chart's name must end in .svg or .png", ch->out);
		return -1;
	}
	ch->png = strcasecmp(ext, ".png") == 0;
	return 0;
}

/* The output is a regular file (or absent), not the result file: found
 * before any work. */
static int check_output(struct chart *ch, const char *in)
{
	char err[ERR_MAX];

	if (output_check(ch->out, &ch->dest, err) < 0) {
		cli_error("plot: %s", err);
		return -1;
	}
	if (output_names(&ch->dest, in)) {
		cli_error("plot: cannot write %s: it is the result file", ch->out);
		return -1;
	}
	return 0;
}

static int choose_figure(struct chart *ch, const struct cli *cl)
{
	const char *name = cl->y ? cl->y : "time_to_end_s";
	char known[1024];
	size_t len = 0;

	ch->fig = figure_find(name);
	if (ch->fig)
		return 0;
	known[0] = '\0';
	for (size_t i = 0; i < figure_count && len < sizeof(known); i++)
		len += (size_t)snprintf(known + len, sizeof(known) - len, "%s%s", i ? ", " : "",
					figure_table[i].name);
	cli_error("plot: --y '%s': unknown figure (known: %s)", name, known);
	return -1;
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

static bool is_size_option(const char *key)
{
	int id = option_find(key);

	return id >= 0 && option_table[id].type == T_SIZE;
}

/* Numeric x (sizes on a log2 axis, spans of 2 decades on a log10 one), or
 * categories in the order they first appear. */
static int classify_x(struct chart *ch)
{
	double lo = 0, hi = 0;
	bool first = true;

	ch->numeric = true;
	for (size_t i = 0; i < ch->rf.nruns; i++) {
		json_t *v = resultfile_param(ch->rf.runs[i], ch->x);

		if (v && !json_is_number(v))
			ch->numeric = false;
		if (!json_is_number(v))
			continue;
		lo = first || json_number_value(v) < lo ? json_number_value(v) : lo;
		hi = first || json_number_value(v) > hi ? json_number_value(v) : hi;
		first = false;
	}
	ch->size = ch->numeric && is_size_option(ch->x);
	ch->logx = ch->numeric && lo > 0 && (ch->size || hi >= 100 * lo);
	ch->cats = calloc(ch->rf.nruns + 1, sizeof(*ch->cats));
	ch->cat_of = malloc((resultfile_distinct(&ch->set, ch->x) + 1) * sizeof(*ch->cat_of));
	if (!ch->cats || !ch->cat_of)
		return -1;
	memset(ch->cat_of, 0xff, (resultfile_distinct(&ch->set, ch->x) + 1) * sizeof(*ch->cat_of));
	for (size_t i = 0; !ch->numeric && i < ch->rf.nruns; i++) {
		json_t *v = resultfile_param(ch->rf.runs[i], ch->x);
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

/* The series of run i: its label's number, found in a hash table of the
 * labels seen so far (first seen, first numbered); -1 when out of memory. */
static long series_of(struct chart *ch, size_t i)
{
	char label[LABEL_MAX];
	size_t h;

	resultfile_label(&ch->set, i, strcmp(ch->x, "job") != 0, ch->keys, ch->nkeys, label,
			 sizeof(label));
	if (!label[0])
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

/* How y is drawn: values * scale, in unit ("" for plain numbers). */
static const char *y_unit(const struct figure *f, double *scale)
{
	size_t len = strlen(f->name);

	*scale = 1;
	if (f->type == FIG_FRACTION) {
		*scale = 100;
		return "%";
	}
	if (len > 3 && strcmp(f->name + len - 3, "_ns") == 0) {
		*scale = 1e-9;
		return "s";
	}
	if (len > 2 && strcmp(f->name + len - 2, "_s") == 0)
		return "s";
	if (len > 4 && strcmp(f->name + len - 4, "_Bps") == 0)
		return "B/s";
	return strcmp(f->name, "bytes") == 0 ? "B" : "";
}

static int add_point(struct chart *ch, size_t i)
{
	json_t *run = ch->rf.runs[i], *xv = resultfile_param(run, ch->x);
	struct point *p = &ch->pts[ch->npts];
	struct summary s;
	double scale;
	long series;
	size_t n;
	double *v;

	if (!xv)
		return 0;
	v = resultfile_values(run, ch->fig, &n);
	if (!v)
		return -1;
	stats_summarize(v, n, &s);
	free(v);
	if (n == 0)
		return 0;
	y_unit(ch->fig, &scale);
	series = series_of(ch, i);
	if (series < 0)
		return -1;
	p->series = (size_t)series;
	p->x = x_of(ch, xv, i);
	p->y = s.median * scale;
	p->lo = (s.has_ci ? s.ci95_low : s.min) * scale;
	p->hi = (s.has_ci ? s.ci95_high : s.max) * scale;
	ch->nci += s.has_ci;
	ch->npts++;
	return 0;
}

static int cmp_point(const void *pa, const void *pb)
{
	const struct point *a = pa, *b = pb;

	if (a->series != b->series)
		return a->series < b->series ? -1 : 1;
	return (a->x > b->x) - (a->x < b->x);
}

static int collect_points(struct chart *ch)
{
	double lo = 0, hi = 0;

	ch->nslots = 16;
	while (ch->nslots < 2 * ch->rf.nruns)
		ch->nslots *= 2;
	ch->pts = calloc(ch->rf.nruns + 1, sizeof(*ch->pts));
	ch->series_slot = calloc(ch->nslots, sizeof(*ch->series_slot));
	if (!ch->pts || !ch->series_slot)
		return -1;
	for (size_t i = 0; i < ch->rf.nruns; i++)
		if (add_point(ch, i) < 0)
			return -1;
	qsort(ch->pts, ch->npts, sizeof(*ch->pts), cmp_point);
	for (size_t i = 0; i < ch->npts; i++) {
		lo = !i || ch->pts[i].lo < lo ? ch->pts[i].lo : lo;
		hi = !i || ch->pts[i].hi > hi ? ch->pts[i].hi : hi;
	}
	ch->logy = lo > 0 && hi >= 100 * lo;
	return 0;
}

/* --- gnuplot --- */

/* A gnuplot single-quoted string: '' is its only escape; lines are joined. */
static void gp_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
	}
	fputc('\'', f);
}

/* fclose, and whether every write before it succeeded too. */
static int close_checked(FILE *f)
{
	bool failed = ferror(f);

	return fclose(f) == 0 && !failed ? 0 : -1;
}

static int write_data(const struct chart *ch, const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	for (size_t i = 0; i < ch->npts; i++) {
		const struct point *p = &ch->pts[i];

		if (i && p->series != ch->pts[i - 1].series)
			fputs("\n\n", f);
		fprintf(f, "%.17g %.17g %.17g %.17g\n", p->x, p->y, p->lo, p->hi);
	}
	return close_checked(f);
}

static const char *error_bar_note(const struct chart *ch)
{
	if (ch->nci == ch->npts)
		return "error bars: 95% confidence interval of the median";
	if (ch->nci == 0)
		return "error bars: min..max of the repeats (too few for a 95% confidence interval)";
	return "error bars: 95% CI of the median, or min..max where too few repeats";
}

static void write_title(const struct chart *ch, FILE *f)
{
	json_t *desc = json_object_get(ch->rf.runs[0], "description");
	const char *title = json_string_value(desc);

	if (!title)
		title = json_string_value(json_object_get(json_object_get(ch->rf.doc, "job_file"),
							  "path"));
	fputs("set title ", f);
	gp_quote(f, title ? title : ch->rf.path);
	fputs(" . \"\\n\" . ", f);
	gp_quote(f, error_bar_note(ch));
	fputc('\n', f);
}

/* Sizes get "4KiB" tics at their values; categories their names. */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sizes get "4KiB" tics at their values (each once); categories their names. */
static void write_xtics(const struct chart *ch, FILE *f)
{
	size_t n = ch->numeric ? ch->npts : ch->ncats;
	double *xs = malloc((n + 1) * sizeof(*xs));
	char label[256];
	bool first = true;

	if ((ch->numeric && !ch->size) || !xs) {
		free(xs);
		return;
	}
	for (size_t i = 0; i < n; i++)
		xs[i] = ch->numeric ? ch->pts[i].x : (double)i;
	if (ch->numeric)
		qsort(xs, n, sizeof(*xs), cmp_double);
	fputs("set xtics (", f);
	for (size_t i = 0; i < n; i++) {
		if (i && xs[i] == xs[i - 1])
			continue;
		if (ch->numeric)
			units_fmt_size((uint64_t)xs[i], label, sizeof(label));
		else
			resultfile_param_text(ch->x, ch->cats[i], label, sizeof(label));
		fputs(first ? "" : ", ", f);
		gp_quote(f, label);
		fprintf(f, " %.17g", xs[i]);
		first = false;
	}
	free(xs);
	fputs(")\n", f);
	if (!ch->numeric)
		fprintf(f, "set xrange [-0.5:%zu.5]\n", ch->ncats ? ch->ncats - 1 : 0);
}

static void write_axes(const struct chart *ch, FILE *f)
{
	int id = option_find(ch->x);
	double scale;
	const char *unit = y_unit(ch->fig, &scale);
	char label[256];

	snprintf(label, sizeof(label), "%s%s", ch->x,
		 ch->size ? " (bytes)" : id >= 0 && option_table[id].type == T_DURATION ? " (s)" : "");
	fputs("set xlabel ", f);
	gp_quote(f, label);
	snprintf(label, sizeof(label), "median %s%s%s%s", ch->fig->name, *unit ? " (" : "", unit,
		 *unit ? ")" : "");
	fputs("\nset ylabel ", f);
	gp_quote(f, label);
	fputs("\nset format y ", f);
	snprintf(label, sizeof(label), "%%.%ds %%c%s", ch->logy ? 0 : 1, unit);
	gp_quote(f, strcmp(unit, "%") == 0 ? "%g%%" : label);
	fputc('\n', f);
	if (ch->logx)
		fprintf(f, "set logscale x %d\n", ch->size ? 2 : 10);
	if (ch->logy)
		fputs("set logscale y 10\n", f);
	if (ch->numeric)
		fputs("set offsets graph 0.05, graph 0.05, 0, 0\n", f);
	write_xtics(ch, f);
}

static void write_plot(const struct chart *ch, FILE *f)
{
	fputs("plot ", f);
	for (size_t s = 0; s < ch->nseries; s++) {
		fprintf(f, "%s'data.dat' index %zu using 1:2:3:4 with yerrorlines title ",
			s ? ", \\\n     " : "", s);
		gp_quote(f, ch->series[s]);
	}
	fputc('\n', f);
}

static int write_script(const struct chart *ch, const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs("set encoding utf8\nset micro\n", f);
	if (ch->png)
		fputs("if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
		      "\tset terminal pngcairo size 1024,600 noenhanced\n"
		      "} else {\n"
		      "\tset terminal png size 1024,600 noenhanced\n"
		      "}\n"
		      "set output 'out.png'\n", f);
	else
		fputs("set terminal svg size 1024,600 dynamic noenhanced background 'white'\n"
		      "set output 'out.svg'\n", f);
	write_title(ch, f);
	write_axes(ch, f);
	fputs("set key outside right top\nset grid\n", f);
	write_plot(ch, f);
	return close_checked(f);
}

/* Runs `gnuplot plot.gp` in dir; 0, or -1 after saying why. */
static int run_gnuplot(const char *dir)
{
	char *const argv[] = { "gnuplot", "plot.gp", NULL };
	posix_spawn_file_actions_t fa;
	int rc, status;
	pid_t pid;

	if (posix_spawn_file_actions_init(&fa) != 0) {
		cli_error("plot: out of memory");
		return -1;
	}
	rc = posix_spawn_file_actions_addchdir_np(&fa, dir);
	if (rc == 0)
		rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (rc == 0)
		rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc == ENOENT) {
		cli_error("plot: gnuplot not found; install it (Debian: apt-get install gnuplot-nox)");
		return -1;
	}
	if (rc != 0) {
		cli_error("plot: cannot run gnuplot: %s", strerror(rc));
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			cli_error("plot: waiting for gnuplot: %s", strerror(errno));
			return -1;
		}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		cli_error("plot: gnuplot failed (%s %d)", WIFEXITED(status) ? "exit status" : "signal",
			  WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return -1;
	}
	return 0;
}

/* The whole of a file, malloc'd; NULL when it cannot be read or is empty. */
static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	char *data = NULL;

	if (f && fstat(fileno(f), &st) == 0 && st.st_size > 0) {
		data = malloc((size_t)st.st_size);
		*len = data ? fread(data, 1, (size_t)st.st_size, f) : 0;
		if (data && *len != (size_t)st.st_size) {
			free(data);
			data = NULL;
		}
	}
	if (f)
		fclose(f);
	return data;
}

/* Copies dir/out.EXT to the destination. */
static int deliver(struct chart *ch, const char *dir)
{
	char path[TMPFILE_MAX], err[ERR_MAX];
	size_t len = 0;
	char *data;
	int rc;

	snprintf(path, sizeof(path), "%s/out.%s", dir, ch->png ? "png" : "svg");
	data = read_all(path, &len);
	if (!data) {
		cli_error("plot: gnuplot wrote no chart");
		return -1;
	}
	rc = output_write(&ch->dest, data, len, err);
	if (rc < 0)
		cli_error("plot: %s", err);
	free(data);
	return rc;
}

static void remove_dir(const char *dir)
{
	static const char *const names[] = { "plot.gp", "data.dat", "out.svg", "out.png" };
	char path[TMPFILE_MAX];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (unlink(path) < 0 && errno != ENOENT)
			cli_error("plot: cannot remove %s: %s", path, strerror(errno));
	}
	if (rmdir(dir) < 0)
		cli_error("plot: cannot remove %s: %s", dir, strerror(errno));
}

static int draw(struct chart *ch)
{
	const char *tmp = getenv("TMPDIR");
	char dir[PATH_MAX], path[TMPFILE_MAX];
	int rc = -1;

	snprintf(dir, sizeof(dir), "%s/iosweep-plot.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		cli_error("plot: cannot create a temporary directory in %s: %s",
			  tmp && *tmp ? tmp : "/tmp", strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/data.dat", dir);
	if (write_data(ch, path) < 0) {
		cli_error("plot: cannot write %s: %s", path, strerror(errno));
		goto out;
	}
	snprintf(path, sizeof(path), "%s/plot.gp", dir);
	if (write_script(ch, path) < 0) {
		cli_error("plot: cannot write %s: %s", path, strerror(errno));
		goto out;
	}
	if (run_gnuplot(dir) == 0 && deliver(ch, dir) == 0)
		rc = 0;
out:
	remove_dir(dir);
	return rc;
}

/* --- the command --- */

static int prepare(struct chart *ch, const struct cli *cl)
{
	char err[ERR_MAX];

	if (cl->nfiles != 1) {
		cli_error("plot: expected one result file (usage: iosweep %s)",
			  help_usage("plot"));
		return -1;
	}
	if (choose_output(ch, cl) < 0 || check_output(ch, cl->files[0]) < 0 ||
	    choose_figure(ch, cl) < 0)
		return -1;
	if (resultfile_load(&ch->rf, cl->files[0], err) < 0) {
		cli_error("%s", err);
		return -1;
	}
	if (ch->rf.nruns == 0) {
		cli_error("plot: %s: no runs to plot", ch->rf.path);
		return -1;
	}
	if (runset_init(&ch->set, ch->rf.runs, ch->rf.nruns, true) < 0) {
		cli_error("plot: out of memory");
		return -1;
	}
	return choose_x(ch, cl);
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
	output_free(&ch->dest);
	free(ch->out);
	free(ch->cats);
	free(ch->cat_of);
	free(ch->series);
	free(ch->series_slot);
	free(ch->pts);
}

int cmd_plot(int argc, char **argv)
{
	struct chart ch;
	struct cli cl;
	int rc = cli_parse("plot", argc, argv, &cl);

	if (rc)
		return rc;
	memset(&ch, 0, sizeof(ch));
	if (prepare(&ch, &cl) < 0) {
		rc = EXIT_USAGE;
	} else if (collect(&ch) < 0) {
		cli_error("plot: out of memory");
		rc = EXIT_RUN;
	} else if (ch.npts == 0) {
		cli_error("plot: %s: no measured repeats to plot", ch.rf.path);
		rc = EXIT_USAGE;
	} else {
		rc = draw(&ch) < 0 ? EXIT_RUN : EXIT_OK;
	}
	chart_free(&ch);
	cli_free(&cl);
	return rc;
}
