/*
 * plot.c - see plot.h: the destination, gnuplot, axis units and line
 * styles that both charts of `iosweep plot` use.
 *
 * gnuplot runs through posix_spawnp (no shell) in a mkdtemp directory with
 * fixed relative file names; the finished chart is then copied to its
 * destination by the output writer (src/output.c), replaced atomically.
 */
#define _GNU_SOURCE
#include "cli/plot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "job/options.h"
#include "lib/error.h"

#define TMPFILE_MAX (PATH_MAX + 32) /* a file of the temporary directory */

extern char **environ;

/* --- the destination --- */

int plot_dest_open(struct plot_dest *d, const struct cli *cl)
{
	const char *in = cl->files[0], *ext;
	char err[ERR_MAX];
	size_t len = strlen(in);
	int rc;

	if (cl->nout > 1) {
		cli_error("plot: one -o at most");
		return -1;
	}
	if (cl->nout == 0) {
		if (len > 5 && strcasecmp(in + len - 5, ".json") == 0)
			len -= 5;
		rc = asprintf(&d->out, "%.*s.svg", (int)len, in);
	} else if (cl->out[0].path) { /* cli_parse split the name at a colon */
		rc = asprintf(&d->out, "%s:%s", cl->out[0].format, cl->out[0].path);
	} else {
		rc = asprintf(&d->out, "%s", cl->out[0].format);
	}
	if (rc < 0) {
		d->out = NULL;
		cli_error("plot: out of memory");
		return -1;
	}
	ext = strrchr(d->out, '.');
	if (!ext || (strcasecmp(ext, ".svg") != 0 && strcasecmp(ext, ".png") != 0)) {
		cli_error("plot: -o %s: the chart's name must end in .svg or .png", d->out);
		return -1;
	}
	d->png = strcasecmp(ext, ".png") == 0;
	if (output_check(d->out, &d->dest, err) < 0) {
		cli_error("plot: %s", err);
		return -1;
	}
	if (output_names(&d->dest, in)) {
		cli_error("plot: cannot write %s: it is the result file", d->out);
		return -1;
	}
	return 0;
}

void plot_dest_free(struct plot_dest *d)
{
	output_free(&d->dest);
	free(d->out);
	d->out = NULL;
	free(d->svg);
	d->svg = NULL;
}

/* --- the runs --- */

bool plot_job_chosen(const struct cli *cl, const struct resultfile_run *run)
{
	const char *job = json_string_value(run->job);

	for (size_t j = 0; j < cl->njobs; j++)
		if (strcmp(cl->jobs[j], job) == 0)
			return true;
	return cl->njobs == 0;
}

int plot_check_jobs(const struct cli *cl, const struct resultfile *rf)
{
	char known[512];

	for (size_t j = 0; j < cl->njobs; j++) {
		size_t len = 0, i;

		for (i = 0; i < rf->nruns; i++)
			if (strcmp(cl->jobs[j], json_string_value(rf->runs[i]->job)) == 0)
				break;
		if (i < rf->nruns)
			continue;
		known[0] = '\0';
		/* a job's runs are consecutive: each name once */
		for (i = 0; i < rf->nruns && len < sizeof(known); i++) {
			const char *job = json_string_value(rf->runs[i]->job);

			if (!i || strcmp(job, json_string_value(rf->runs[i - 1]->job)) != 0)
				len += (size_t)snprintf(known + len, sizeof(known) - len, "%s%s",
							len ? ", " : "", job);
		}
		cli_error("plot: --job '%s': no such job in %s (jobs: %s)", cl->jobs[j], rf->path,
			  known);
		return -1;
	}
	return 0;
}

/* --- gnuplot --- */

void plot_quote(FILE *f, const char *s)
{
	/* '' is the only escape of a single-quoted string; lines are joined */
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
	}
	fputc('\'', f);
}

void plot_title(FILE *f, const struct resultfile *rf, const char *note)
{
	json_t *desc = rf->nruns ? rf->runs[0]->description : NULL;
	const char *title = json_string_value(desc), *by;
	char line[256];

	if (!title)
		title = json_string_value(json_object_get(json_object_get(rf->doc, "job_file"),
							  "path"));
	plot_quote(f, title ? title : rf->path);
	fputs(" . \"\\n\" . ", f);
	plot_quote(f, note);
	by = json_string_value(json_object_get(rf->doc, "stopped_by"));
	if (json_is_true(json_object_get(rf->doc, "interrupted"))) {
		snprintf(line, sizeof(line), "interrupted%s%s: runs not started are missing",
			 by ? " by " : "", by ? by : "");
		fputs(" . \"\\n\" . ", f);
		plot_quote(f, line);
	} else if (json_is_false(json_object_get(rf->doc, "complete"))) {
		fputs(" . \"\\n\" . ", f);
		plot_quote(f, "incomplete result file: runs may be missing");
	}
}

/* fclose, and whether every write before it succeeded too. */
static int close_checked(FILE *f)
{
	bool failed = ferror(f);

	return fclose(f) == 0 && !failed ? 0 : -1;
}

static void write_terminal(FILE *f, bool png, int width, int height)
{
	fputs("set encoding utf8\nset micro\n", f);
	if (png)
		fprintf(f, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
			   "\tset terminal pngcairo size %d,%d noenhanced\n"
			   "} else {\n"
			   "\tset terminal png size %d,%d noenhanced\n"
			   "}\n"
			   "set output 'out.png'\n", width, height, width, height);
	else
		fprintf(f, "set terminal svg size %d,%d dynamic noenhanced background 'white'\n"
			   "set output 'out.svg'\n", width, height);
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
static int deliver(struct plot_dest *d, const char *dir)
{
	char path[TMPFILE_MAX], err[ERR_MAX];
	size_t len = 0;
	char *data;
	int rc;

	snprintf(path, sizeof(path), "%s/out.%s", dir, d->png ? "png" : "svg");
	data = read_all(path, &len);
	if (!data) {
		cli_error("plot: gnuplot wrote no chart");
		return -1;
	}
	if (d->to_memory) {
		d->svg = data;
		d->svg_len = len;
		return 0;
	}
	rc = output_write(&d->dest, data, len, err);
	if (rc < 0)
		cli_error("plot: %s", err);
	else if (d->dest.path) /* where it went: a default name is not obvious */
		fprintf(stderr, "plot: wrote %s\n", d->out);
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

/* The data and the script, written by the chart's writer. */
static int write_files(const char *dir, const struct plot_dest *d, int width, int height,
		       plot_writer write, const void *chart)
{
	char data_path[TMPFILE_MAX], script_path[TMPFILE_MAX];
	FILE *data, *script;
	int rc;

	snprintf(data_path, sizeof(data_path), "%s/data.dat", dir);
	snprintf(script_path, sizeof(script_path), "%s/plot.gp", dir);
	data = fopen(data_path, "w");
	script = data ? fopen(script_path, "w") : NULL;
	if (!script) {
		cli_error("plot: cannot write %s: %s", data ? script_path : data_path,
			  strerror(errno));
		if (data)
			fclose(data);
		return -1;
	}
	write_terminal(script, d->png, width, height);
	rc = write(chart, data, script);
	if (close_checked(data) < 0)
		rc = -1;
	if (close_checked(script) < 0)
		rc = -1;
	if (rc < 0)
		cli_error("plot: cannot write the chart's files in %s: %s", dir, strerror(errno));
	return rc;
}

int plot_draw(struct plot_dest *d, int width, int height, plot_writer write, const void *chart)
{
	const char *tmp = getenv("TMPDIR");
	char dir[PATH_MAX];
	int rc = -1;

	snprintf(dir, sizeof(dir), "%s/iosweep-plot.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		cli_error("plot: cannot create a temporary directory in %s: %s",
			  tmp && *tmp ? tmp : "/tmp", strerror(errno));
		return -1;
	}
	if (write_files(dir, d, width, height, write, chart) == 0 && run_gnuplot(dir) == 0 &&
	    deliver(d, dir) == 0)
		rc = 0;
	remove_dir(dir);
	return rc;
}

/* --- units --- */

enum plot_quantity plot_figure_quantity(const struct figure *f)
{
	switch (f->unit) {
	case FU_SECONDS:
		return f->scale == 1e-9 ? PQ_NS : PQ_SECONDS;
	case FU_RATE:
		return PQ_RATE;
	case FU_BYTES:
		return PQ_BYTES;
	case FU_FRACTION:
		return PQ_PERCENT;
	case FU_PER_SECOND:
	case FU_COUNT:
		break;
	}
	return PQ_COUNT;
}

enum plot_quantity plot_param_quantity(const char *key)
{
	int id = option_find(key);

	if (id < 0)
		return PQ_NUMBER;
	if (option_table[id].type == T_SIZE)
		return PQ_SIZE;
	return option_table[id].type == T_DURATION ? PQ_SECONDS : PQ_NUMBER;
}

/* Decimal prefixes: the one in which hi has at most three digits. */
static void decimal_unit(double hi, const char *const *names, struct plot_unit *u)
{
	int i = 0;

	while (i < 5 && hi * u->scale >= 999.5) {
		u->scale /= 1000;
		i++;
	}
	snprintf(u->name, sizeof(u->name), "%s", names[i]);
}

static void seconds_unit(double hi, struct plot_unit *u)
{
	static const char *const names[] = { "s", "ms", "µs", "ns" };
	int i = 0;

	/* as units_fmt_seconds_as chooses for a value like hi */
	while (i < 3 && hi > 0 && hi * u->scale < 1) {
		u->scale *= 1000;
		i++;
	}
	snprintf(u->name, sizeof(u->name), "%s", names[i]);
}

/* Binary units: the largest that lo reaches, then larger while hi would
 * need five digits. */
static void size_unit(double lo, double hi, struct plot_unit *u)
{
	static const char *const names[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
	int i = 0;

	while (i < 4 && lo >= 1024 * (1 / u->scale)) {
		u->scale /= 1024;
		i++;
	}
	while (i < 4 && hi * u->scale >= 10000) {
		u->scale /= 1024;
		i++;
	}
	snprintf(u->name, sizeof(u->name), "%s", names[i]);
}

void plot_unit_choose(enum plot_quantity q, double lo, double hi, struct plot_unit *u)
{
	static const char *const rate[] = { "B/s", "kB/s", "MB/s", "GB/s", "TB/s", "PB/s" };
	static const char *const bytes[] = { "B", "kB", "MB", "GB", "TB", "PB" };
	static const char *const count[] = { "", "thousands", "millions", "billions",
					     "trillions", "quadrillions" };

	u->scale = 1;
	u->name[0] = '\0';
	switch (q) {
	case PQ_NUMBER:
		break;
	case PQ_COUNT:
		decimal_unit(hi, count, u);
		break;
	case PQ_NS:
		u->scale = 1e-9;
		seconds_unit(hi, u);
		break;
	case PQ_SECONDS:
		seconds_unit(hi, u);
		break;
	case PQ_RATE:
		decimal_unit(hi, rate, u);
		break;
	case PQ_BYTES:
		decimal_unit(hi, bytes, u);
		break;
	case PQ_SIZE:
		size_unit(lo, hi, u);
		break;
	case PQ_PERCENT:
		u->scale = 100;
		snprintf(u->name, sizeof(u->name), "%%");
		break;
	}
}

void plot_axis_label(char *buf, size_t n, const char *name, const struct plot_unit *u,
		     const char *suffix)
{
	if (u->name[0] || suffix)
		snprintf(buf, n, "%s (%s%s)", name, u->name, suffix ? suffix : "");
	else
		snprintf(buf, n, "%s", name);
}

/* --- lines --- */

void plot_line_style(FILE *f, size_t i)
{
	/* open shapes (and +, x, *): a point under another still shows */
	static const int shapes[] = { 6, 4, 8, 10, 12, 14, 1, 2, 3 };
	size_t nshapes = sizeof(shapes) / sizeof(shapes[0]);

	/* 7 colours (gnuplot's 8th is black, the mark of incomplete runs),
	 * 9 shapes and 5 dash patterns: all different up to 315 lines, and
	 * shape and dash alone differ up to 45 */
	fprintf(f, "lc %zu pt %d dt %zu ps 1.3", i % 7 + 1, shapes[i % nshapes], i % 5 + 1);
}
