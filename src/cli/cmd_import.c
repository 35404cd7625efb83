/*
 * cmd_import.c - `iosweep import FILE.fio... [-o PATH] [--no-merge] [--job
 * NAME]...` and `iosweep import -- fio ARGS...`: a fio job (files or a
 * command line) as an iosweep job file.
 *
 * Reading fio's dialect is fio.c's work and the option-by-option translation
 * fio_import.c's; this file checks the command's arguments and the output
 * before reading anything, reads every file and translates every job
 * before saying what is refused (each refusal on its own line, so that one
 * try shows them all), says once on stderr which settings were not
 * translated as written, checks that the text it made parses as an iosweep
 * job file, and writes it: to stdout, or to -o PATH replaced atomically as
 * `run -o` replaces its outputs (lib/output.h), never the fio job's own
 * files.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "fio/fio_import.h"
#include "lib/error.h"
#include "lib/output.h"
#include "lib/texttable.h"

static int usage_error(const char *msg)
{
	cli_error("import: %s (usage: iosweep %s)", msg, help_usage("import"));
	return EXIT_USAGE;
}

/* The fio job files, or the fio command line after "--" (c->rest). */
static int parse_args(int argc, char **argv, struct cli *c)
{
	int rc = cli_parse("import", argc, argv, c);

	if (rc)
		return rc;
	if (c->out_path && strcmp(c->out_path, "-") == 0)
		c->out_path = NULL;
	if (c->rest && (c->nrest == 0 || strcmp(c->rest[0], "fio") != 0))
		return usage_error("'--' must be followed by a fio command line starting with "
				   "'fio'");
	if (!c->nfiles && !c->rest)
		return usage_error("no fio job file or command line");
	if (c->nfiles && c->rest)
		return usage_error("give fio job files or a fio command line, not both (a fio "
				   "command line may name job files itself)");
	return 0;
}

/* What the import refuses: each refusal one line, whatever a value or a
 * name held, and each line said once (a setting of [global] is refused in
 * every job that inherits it, with the same FILE:LINE). */
#define REFUSALS_SAID 1024
struct refusals {
	size_t n;                      /* refusals, said or not */
	size_t nsaid;
	uint64_t said[REFUSALS_SAID];  /* the lines said (their hashes) */
};

static void refuse(void *arg, const char *why)
{
	struct refusals *r = arg;
	char line[ERR_MAX];
	uint64_t h;

	snprintf(line, sizeof(line), "%s", why);
	for (char *p = line; *p; p++)
		if ((unsigned char)*p < 0x20)
			*p = ' ';
	r->n++;
	h = XXH3_64bits(line, strlen(line));
	for (size_t i = 0; i < r->nsaid; i++)
		if (r->said[i] == h)
			return;
	if (r->nsaid < REFUSALS_SAID)
		r->said[r->nsaid++] = h;
	cli_error("%s", line);
}

/* Every fio job file (or the command line) into in: a file that cannot be
 * read is said (refused) and its jobs left out, and the next one read. */
static void read_all(const struct cli *c, struct fio_input *in, struct refusals *refused)
{
	char err[ERR_MAX];

	for (size_t i = 0; i < c->nfiles; i++) {
		size_t before = in->njobs;

		if (fio_read_file(in, c->files[i], err) < 0) {
			refuse(refused, err);
			fio_input_drop_jobs(in, before);
		}
	}
	if (c->rest && fio_read_cmdline(in, c->nrest, c->rest, err) < 0)
		refuse(refused, err);
}

/* -o PATH, checked before anything is read: what `run -o` takes, and none
 * of the files the fio job is read from or names. */
static int check_output(const char *path, struct output *o)
{
	char err[ERR_MAX];

	if (output_check(path, o, err) < 0) {
		cli_error("import: %s", err);
		return -1;
	}
	return 0;
}

static int output_is_input(const struct output *o, const char *path, const struct fio_input *in,
			   const struct import *im)
{
	for (size_t i = 0; i < in->nfiles; i++)
		if (output_names(o, in->files[i])) {
			cli_error("import: cannot write %s: it is %s, which the fio job is read from or "
				  "names", path, in->files[i]);
			return -1;
		}
	for (size_t i = 0; i < im->njobs; i++)
		if (im->jobs[i].val[OPT_FILENAME] && output_names(o, im->jobs[i].val[OPT_FILENAME])) {
			cli_error("import: cannot write %s: it is the data file of job '%s'", path,
				  im->jobs[i].name);
			return -1;
		}
	return 0;
}

/* The sources, for the header comment: "a.fio b.fio" or the fio command. */
static char *sources_text(const struct cli *c)
{
	char **list = c->rest ? c->rest : c->files;
	size_t n = c->rest ? (size_t)c->nrest : c->nfiles, len = 0;
	char *s = NULL;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		return NULL;
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? " " : "", list[i]);
	if (fclose(f) != 0) {
		free(s);
		return NULL;
	}
	/* one comment line: a newline in an argument would end it */
	for (char *p = s; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	return s;
}

static void warn_notes(const struct import *im)
{
	if (!im->nnotes)
		return;
	fflush(stdout);
	fprintf(stderr, "iosweep: warning: %zu fio setting%s not translated as written "
			"(also listed in the output's comments):\n", im->nnotes,
		im->nnotes == 1 ? "" : "s");
	for (size_t i = 0; i < im->nnotes; i++) {
		fputs("  ", stderr);
		tt_put(stderr, im->notes[i].where);
		fputs(": ", stderr);
		tt_put(stderr, im->notes[i].setting);
		fputs(*im->notes[i].setting ? ": " : "", stderr);
		tt_put(stderr, im->notes[i].why);
		fputc('\n', stderr);
	}
}

/* The translation, as text that parses as an iosweep job file: 0, -1
 * after saying why, or EXIT_USAGE after saying what a job file cannot hold. */
static int render(const struct import *im, const char *sources, char **text, size_t *len)
{
	struct jobfile jf;
	char err[ERR_MAX];
	FILE *f = open_memstream(text, len);
	int rc;

	if (!f)
		return -1;
	rc = import_write(im, sources, f, err);
	if (fclose(f) != 0)
		return -1;
	if (rc < 0) {
		cli_error("import: %s", err);
		return EXIT_USAGE;
	}
	if (jobfile_parse(&jf, "(translation)", *text, *len, err) < 0) {
		cli_error("import: internal error: the translation does not parse: %s", err);
		jobfile_free(&jf);
		return -1;
	}
	jobfile_free(&jf);
	return 0;
}

/* Reads, selects (--job), translates and merges: 0, or EXIT_USAGE after
 * saying every refusal. */
static int translate_all(const struct cli *c, struct fio_input *in, struct import *im)
{
	char err[ERR_MAX];
	static struct refusals refused; /* (8 KiB: not on the stack) */
	int n;

	refused.n = refused.nsaid = 0;
	read_all(c, in, &refused);
	if (c->njobs && fio_select_jobs(in, c->jobs, c->njobs, err) < 0) {
		if (!refused.n) /* (else the job may be in a file that could not be read) */
			refuse(&refused, err);
		return EXIT_USAGE;
	}
	if (refused.n && in->njobs == 0)
		return EXIT_USAGE;
	n = import_translate_each(in, im, refuse, &refused, err);
	if (n < 0)
		refuse(&refused, err);
	if (refused.n)
		return EXIT_USAGE;
	if (!c->no_merge && import_merge(im, err) < 0) {
		refuse(&refused, err);
		return EXIT_USAGE;
	}
	return 0;
}

static int write_out(const struct cli *c, struct output *o, const char *text, size_t len)
{
	char err[ERR_MAX];

	if (c->out_path && output_write(o, text, len, err) < 0) {
		cli_error("import: %s", err);
		return EXIT_USAGE;
	}
	if (!c->out_path && (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0)) {
		cli_error("import: writing to stdout failed");
		return EXIT_RUN;
	}
	return 0;
}

int cmd_import(int argc, char **argv)
{
	struct cli c;
	struct fio_input in = { 0 };
	struct import im = { 0 };
	struct output o = { 0 };
	char *text = NULL, *sources = NULL;
	size_t len = 0;
	int rc = parse_args(argc, argv, &c);

	if (rc) {
		cli_free(&c);
		return rc;
	}
	if (c.out_path && check_output(c.out_path, &o) < 0)
		rc = EXIT_USAGE;
	if (rc == 0)
		rc = translate_all(&c, &in, &im);
	if (rc == 0 && c.out_path && output_is_input(&o, c.out_path, &in, &im) < 0)
		rc = EXIT_USAGE;
	if (rc == 0) {
		sources = sources_text(&c);
		rc = sources ? render(&im, sources, &text, &len) : -1;
		if (rc < 0)
			rc = EXIT_RUN;
	}
	if (rc == 0) {
		warn_notes(&im);
		rc = write_out(&c, &o, text, len);
	}
	free(text);
	free(sources);
	output_free(&o);
	import_free(&im);
	fio_input_free(&in);
	cli_free(&c);
	return rc;
}
