/*
 * cli.h - what the commands share: the table of commands and of their flags,
 * argument parsing driven by it, the path from a job file to a plan, and
 * error printing with the program's name.
 * Each command is one function, cmd_NAME(argc, argv), returning an exit code.
 */
#ifndef IOSWEEP_CLI_H
#define IOSWEEP_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "job/job.h"
#include "job/plan.h"

/* where `make install` puts the example jobs (the Makefile passes PREFIX) */
#ifndef IOSWEEP_JOBS_DIR
#define IOSWEEP_JOBS_DIR "/usr/local/share/iosweep/jobs"
#endif

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
	const char *out_path;    /* import -o PATH */
	bool no_merge;           /* import --no-merge */
	const char *db;          /* history, gate: --db PATH */
	const char *label;       /* history: --label TEXT */
	const char *host, *since, *until; /* history: filters */
	const char *figure;      /* history trend, gate: --figure F */
	const char *against;     /* gate: --against OLD.json */
	size_t history_last;     /* gate: --history N (0: not given) */
	double max_slowdown_pct; /* gate: --max-slowdown P% */
	bool any_host;           /* gate: --any-host */
	bool allow_inconclusive; /* gate: --allow-inconclusive */
	bool anonymize;          /* record: --anonymize */
	char **rest;             /* after "--", for a command that takes "-- ARGS..." */
	int nrest;
};

/* The table of commands and their flags (cli_commands[], cli_flags[]) is
 * defined in commands.c and declared here, not in a header of its own: it
 * names the cmd_* functions below and cli_parse reads it, so the two headers
 * would include each other.  Each flag is declared once in cli_flags[]. */
enum cli_flag_id {
	FLAG_NONE, /* ends a command's list */
	FLAG_OUTPUT,
	FLAG_OUTPUT_PATH,
	FLAG_NO_MERGE,
	FLAG_SET,
	FLAG_JOB,
	FLAG_QUIET,
	FLAG_ALPHA,
	FLAG_X,
	FLAG_Y,
	FLAG_OVER,
	FLAG_RUN,
	FLAG_REPEAT,
	FLAG_DB,
	FLAG_LABEL,
	FLAG_HOST,
	FLAG_SINCE,
	FLAG_UNTIL,
	FLAG_FIGURE,
	FLAG_AGAINST,
	FLAG_HISTORY,
	FLAG_MAX_SLOWDOWN,
	FLAG_ANY_HOST,
	FLAG_ALLOW_INCONCLUSIVE,
	FLAG_ANONYMIZE,
	NFLAGS
};

/* Two flags may share a spelling when no command takes both: import's -o
 * names a file, the other commands' -o a format (and a path). */
struct cli_flag {
	char short_name;       /* 'o' for -o; 0: none */
	const char *long_name; /* "output" for --output */
	const char *value;     /* what it takes, as help names it; NULL: no value */
	const char *help;
};

/* A flag as one command takes it: -o names what that command writes. */
struct cli_use {
	enum cli_flag_id flag;
	const char *value; /* NULL: the flag's own */
	const char *help;  /* NULL: the flag's own */
};

#define CLI_MAX_USES 8

struct cli_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;   /* after "iosweep " */
	const char *summary; /* one line, for `iosweep help` */
	const char *text;    /* what it does, a few lines */
	const char *example;
	bool rest;           /* "-- ARGS...": what follows "--" is not files */
	struct cli_use flags[CLI_MAX_USES]; /* in help's order, to FLAG_NONE */
};

extern const struct cli_flag cli_flags[NFLAGS];
extern const struct cli_command cli_commands[];
extern const size_t cli_ncommands;

/* The command of that name; NULL when there is none. */
const struct cli_command *cli_command_find(const char *name);
/* What cmd takes of flag f; NULL when it does not take it. */
const struct cli_use *cli_command_use(const struct cli_command *cmd, enum cli_flag_id f);

void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Parses a command's arguments, taking only the flags its row of
 * cli_commands[] lists; 0, or EXIT_USAGE after printing why. */
int cli_parse(const char *cmd, int argc, char **argv, struct cli *c);
void cli_free(struct cli *c);
/* On every rank of a multi-host run: EXIT_USAGE when any rank failed,
 * after err was printed once (by rank 0 when all failed alike, else by each
 * failing rank with its rank and host); 0 when none did. */
int cli_agree(int failed, const char *err);
/* Job file -> overrides -> selected jobs -> plan; 0, or EXIT_USAGE after printing. */
int cli_load(const struct cli *c, const char *path, struct jobfile *jf, struct plan *plan);

/* compare's table of OLD against NEW at alpha, to out (the report's
 * comparisons); an exit code, after saying why when it is not EXIT_OK. */
int compare_files(const char *old, const char *new, double alpha, FILE *out);

int cmd_run(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_options(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_gate(int argc, char **argv);
int cmd_record(int argc, char **argv);

#endif
