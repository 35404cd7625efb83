/*
 * cli.h - what the commands share: their argument parsing, the path from a
 * job file to a plan, and error printing with the program's name.
 * Each command is one function, cmd_NAME(argc, argv), returning an exit code.
 */
#ifndef IOSWEEP_CLI_H
#define IOSWEEP_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "job/job.h"
#include "job/plan.h"
#include "lib/version.h"


enum exit_code { EXIT_OK = 0, EXIT_RUN = 1, EXIT_USAGE = 2, EXIT_INTERRUPTED = 130 };

#define CLI_MAX_OUTPUTS 8

struct cli_output {
	const char *format;
	const char *path; /* NULL: stdout */
};

struct cli {
	char **files;            /* positional arguments */
	size_t nfiles;
	char **sets;             /* --set KEY=VALUE */
	size_t nsets;
	char **jobs;             /* --job NAME */
	size_t njobs;
	struct cli_output out[CLI_MAX_OUTPUTS];
	size_t nout;
	bool quiet;
	const char *x, *y;       /* plot axes */
	const char *over;        /* plot --over time|bytes */
	char **run_nums, **repeat_nums; /* plot --run N, --repeat N */
	size_t nrun_nums, nrepeat_nums;
	double alpha;            /* compare */
};

void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Parses a command's arguments; 0, or EXIT_USAGE after printing why. */
int cli_parse(const char *cmd, int argc, char **argv, struct cli *c);
void cli_free(struct cli *c);
/* On every rank of a multi-host run: EXIT_USAGE when any rank failed,
 * after err was printed once (by rank 0 when all failed alike, else by each
 * failing rank with its rank and host); 0 when none did. */
int cli_agree(int failed, const char *err);
/* Job file -> overrides -> selected jobs -> plan; 0, or EXIT_USAGE after printing. */
int cli_load(const struct cli *c, const char *path, struct jobfile *jf, struct plan *plan);

int cmd_run(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_options(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_import(int argc, char **argv);

#endif
