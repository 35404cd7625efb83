/*
 * cmd_record.c - `iosweep record [-o TRACE] [--anonymize] -- COMMAND
 * [ARGS...]`: run a command and record its file I/O (io/record.h).
 *
 * This file checks the arguments and both outputs (TRACE and
 * TRACE.meta.json) before the command runs, finds the interposer library,
 * and passes the command's exit status through: a recording is a wrapper,
 * and a script that runs `iosweep record -- make test` must still see the
 * tests fail.  The interposer is looked for beside the iosweep binary (a
 * source build: build/libiosweep-record.so) and then in ../lib/iosweep
 * from it (make install: PREFIX/bin/iosweep, PREFIX/lib/iosweep/).
 */
#define _GNU_SOURCE
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "io/record.h"
#include "lib/error.h"
#include "lib/output.h"

#define DEFAULT_TRACE "iosweep.iolog"

static int usage_error(const char *msg)
{
	cli_error("record: %s (usage: iosweep %s)", msg, help_usage("record"));
	return EXIT_USAGE;
}

/* The interposer: beside the binary, or in ../lib/iosweep; NULL (err) when
 * neither is there. */
static char *find_preload(char *err)
{
	char exe[PATH_MAX], *dir, *path = NULL;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n < 0) {
		err_set(err, "cannot find %s: /proc/self/exe cannot be read", RECORD_PRELOAD_NAME);
		return NULL;
	}
	exe[n] = '\0';
	dir = dirname(exe);
	if (asprintf(&path, "%s/%s", dir, RECORD_PRELOAD_NAME) >= 0 && access(path, R_OK) == 0)
		return path;
	free(path);
	if (asprintf(&path, "%s/../lib/iosweep/%s", dir, RECORD_PRELOAD_NAME) >= 0 &&
	    access(path, R_OK) == 0)
		return path;
	free(path);
	err_set(err, "cannot find %s beside %s or in %s/../lib/iosweep (make builds it beside "
		"the binary, make install puts it in PREFIX/lib/iosweep)", RECORD_PRELOAD_NAME,
		exe, dir);
	return NULL;
}

static void say_note(const char *text)
{
	cli_error("record: note: %s", text);
}

int cmd_record(int argc, char **argv)
{
	struct cli c;
	struct output trace = { 0 }, meta = { 0 };
	struct record_summary s;
	char err[ERR_MAX], *meta_path = NULL, *preload = NULL;
	int rc = cli_parse("record", argc, argv, &c);

	if (rc)
		return rc;
	if (!c.rest || c.nrest == 0) {
		rc = usage_error(c.nfiles ? "the command goes after '--'" : "no command after '--'");
		goto out;
	}
	if (c.nfiles) {
		rc = usage_error("unexpected argument before '--'");
		goto out;
	}
	if (c.out_path && strcmp(c.out_path, "-") == 0) {
		rc = usage_error("-o -: the trace goes to a file (standard output is the command's)");
		goto out;
	}
	rc = EXIT_USAGE;
	if (asprintf(&meta_path, "%s.meta.json", c.out_path ? c.out_path : DEFAULT_TRACE) < 0) {
		meta_path = NULL;
		cli_error("record: out of memory");
		goto out;
	}
	if (output_check(c.out_path ? c.out_path : DEFAULT_TRACE, &trace, err) < 0 ||
	    output_check(meta_path, &meta, err) < 0 || !(preload = find_preload(err))) {
		cli_error("record: %s", err);
		goto out;
	}
	{
		const struct record_opts o = { .argv = c.rest, .preload = preload,
					       .anonymize = c.anonymize, .trace = &trace,
					       .meta = &meta, .note = say_note };

		if (record_run(&o, &s, err) < 0) {
			/* a command that could not be started: as a shell says it */
			cli_error("record: %s", err);
			rc = !s.started && s.exit_status ? s.exit_status : EXIT_RUN;
			goto out;
		}
	}
	fflush(stdout);
	fprintf(stderr, "iosweep: record: %llu I/Os (%llu reads, %llu bytes; %llu writes, %llu "
		"bytes; %llu syncs) on %llu files by %llu threads in %llu processes -> %s, %s\n",
		s.ios, s.reads, s.read_bytes, s.writes, s.write_bytes, s.syncs, s.files, s.threads,
		s.processes, trace.path, meta.path);
	rc = s.exit_status;
out:
	free(preload);
	free(meta_path);
	output_free(&trace);
	output_free(&meta);
	cli_free(&c);
	return rc;
}
