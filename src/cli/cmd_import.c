/*
 * cmd_import.c - `iosweep import FILE.fio... [-o PATH] [--no-merge]` and
 * `iosweep import -- fio ARGS...`: a fio job (files or a command line) as
 * an iosweep job file.
 *
 * Reading fio's dialect is fio.c's work and the option-by-option translation
 * fio_import.c's; this file checks the command's arguments, says once on
 * stderr which settings were not translated as written, checks that the
 * text it made parses as an iosweep job file, and writes it: to stdout, or
 * to a new file that is never an existing one (created under a temporary
 * name and renamed into place only if nothing is there, not even a symlink).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "fio/fio_import.h"
#include "lib/error.h"
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

/* Creates path with data, only if nothing (not even a dangling symlink) is
 * there: a temporary file in the same directory, renamed with
 * RENAME_NOREPLACE, or linked where the file system cannot do that. */
static int write_new_file(const char *path, const char *data, size_t len, char *err)
{
	struct stat st;
	char *tmp;
	int fd, rc = 0;

	if (lstat(path, &st) == 0)
		return err_set(err, "%s exists: iosweep import never replaces a file; remove it or "
				    "choose another path", path);
	if (asprintf(&tmp, "%s.iosweep-tmp.XXXXXX", path) < 0)
		return err_set(err, "out of memory");
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		err_set(err, "cannot write %s: %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	for (size_t done = 0; done < len && rc == 0;) {
		ssize_t n = write(fd, data + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			rc = err_set(err, "writing %s: %s", path, n < 0 ? strerror(errno) : "short write");
		else
			done += (size_t)n;
	}
	if (rc == 0 && (fchmod(fd, 0644) < 0 || fsync(fd) < 0))
		rc = err_set(err, "writing %s: %s", path, strerror(errno));
	if (close(fd) < 0 && rc == 0)
		rc = err_set(err, "writing %s: %s", path, strerror(errno));
	if (rc == 0 && renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) < 0) {
		if (errno == EINVAL || errno == ENOSYS) {
			/* no RENAME_NOREPLACE here: link() refuses an existing name too */
			if (link(tmp, path) < 0)
				rc = err_set(err, "cannot create %s: %s", path, strerror(errno));
		} else if (errno == EEXIST) {
			rc = err_set(err, "%s exists: iosweep import never replaces a file", path);
		} else {
			rc = err_set(err, "cannot create %s: %s", path, strerror(errno));
		}
	}
	unlink(tmp); /* gone after a rename; the spare name after link() */
	free(tmp);
	return rc;
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

int cmd_import(int argc, char **argv)
{
	struct cli c;
	struct fio_input in = { 0 };
	struct import im = { 0 };
	char err[ERR_MAX], *text = NULL, *sources = NULL;
	size_t len = 0;
	int rc = parse_args(argc, argv, &c);

	if (rc) {
		cli_free(&c);
		return rc;
	}
	for (size_t i = 0; rc == 0 && i < c.nfiles; i++)
		if (fio_read_file(&in, c.files[i], err) < 0)
			rc = EXIT_USAGE;
	if (rc == 0 && c.rest && fio_read_cmdline(&in, c.nrest, c.rest, err) < 0)
		rc = EXIT_USAGE;
	if (rc == 0 && (import_translate(&in, &im, err) < 0 ||
			(!c.no_merge && import_merge(&im, err) < 0)))
		rc = EXIT_USAGE;
	if (rc) {
		/* one line, whatever a value or a name held */
		for (char *p = err; *p; p++)
			if ((unsigned char)*p < 0x20)
				*p = ' ';
		cli_error("%s", err);
	}
	if (rc == 0) {
		sources = sources_text(&c);
		rc = sources ? render(&im, sources, &text, &len) : -1;
		if (rc < 0)
			rc = EXIT_RUN;
	}
	if (rc == 0) {
		warn_notes(&im);
		if (c.out_path && write_new_file(c.out_path, text, len, err) < 0) {
			cli_error("import: %s", err);
			rc = EXIT_USAGE;
		} else if (!c.out_path &&
			   (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0)) {
			cli_error("import: writing to stdout failed");
			rc = EXIT_RUN;
		}
	}
	free(text);
	free(sources);
	import_free(&im);
	fio_input_free(&in);
	cli_free(&c);
	return rc;
}
