/*
 * help.c - what `iosweep help`, `iosweep COMMAND -h` and the usage inside
 * error messages say about each command.
 *
 * Each command is described once here (its usage line, a summary, the
 * command-line options it takes and one example); each command-line option
 * once too.  The man page's SYNOPSIS is tested against the usage lines
 * (tests/cli/docs.bats), so the two cannot drift apart.
 */
#include "cli/help.h"

#include <stdio.h>
#include <string.h>

/* command-line options, each described once */
enum {
	H_OUTPUT = 1 << 0,
	H_OUTPUT_PLAN = 1 << 1,
	H_OUTPUT_COMPARE = 1 << 2,
	H_OUTPUT_PLOT = 1 << 3,
	H_SET = 1 << 4,
	H_JOB = 1 << 5,
	H_QUIET = 1 << 6,
	H_ALPHA = 1 << 7,
	H_X = 1 << 8,
	H_Y = 1 << 9,
	H_OUTPUT_IMPORT = 1 << 10,
	H_NO_MERGE = 1 << 11,
	H_OVER = 1 << 12,
	H_RUN = 1 << 13,
	H_REPEAT = 1 << 14,
};

struct option_doc {
	unsigned id;
	const char *flags;
	const char *text;
};

static const struct option_doc option_docs[] = {
	{ H_OUTPUT, "-o, --output FORMAT[:PATH]",
	  "table (the default), json, csv, or series (one CSV row per interval of a\n"
	  "repeat: see the interval option); to PATH, or to stdout without one (or with\n"
	  "'-'); may be given several times, but only one format may take stdout.  The\n"
	  "table stays on stdout when the other formats go to files, unless --quiet" },
	{ H_OUTPUT_PLAN, "-o, --output table|json", "the plan as text (the default) or as JSON, to stdout" },
	{ H_OUTPUT_COMPARE, "-o, --output table|csv|json", "the format of the comparison (default table), to stdout" },
	{ H_OUTPUT_PLOT, "-o, --output FILE.svg|FILE.png",
	  "the chart, SVG or PNG by its extension (default: RESULT.svg beside RESULT.json)" },
	{ H_OUTPUT_IMPORT, "-o, --output PATH",
	  "write the job file to PATH, a new file: an existing PATH (even a symlink) is\n"
	  "refused, never replaced (default: stdout)" },
	{ H_NO_MERGE, "--no-merge",
	  "keep fio jobs that differ in one option as separate jobs instead of one job\n"
	  "with a list" },
	{ H_SET, "--set KEY=VALUE",
	  "set a job option in every job, over what the job file says (size=16m,\n"
	  "engine=sync,mmap); may be given several times; recorded in the results" },
	{ H_JOB, "--job NAME", "only this job (a [section] of the job file); may be given several times" },
	{ H_QUIET, "-q, --quiet",
	  "no progress line and no plan totals; with -o to files, no table on\n"
	  "stdout either (unless -o table asks for it)" },
	{ H_ALPHA, "--alpha A", "significance level of the Mann-Whitney U test (default 0.05)" },
	{ H_X, "--x OPTION", "the x axis: a run parameter (bs, spacing, engine, ...) or job" },
	{ H_Y, "--y FIGURE",
	  "the figure drawn: time_to_end_s (the default; throughput_Bps when every run\n"
	  "is time_based), throughput_Bps, coverage_Bps, iops, lat_p99_ns, cpu_sys_s,\n"
	  "... (any per-repeat figure of the JSON); once a run writes, throughput,\n"
	  "IOPS and latency are drawn per direction, each line named by it" },
	{ H_OVER, "--over time|bytes",
	  "instead, what happened inside repeats: throughput and p99 latency of each\n"
	  "interval of their series (the job option interval) against the time in the\n"
	  "repeat, or against the bytes transferred so far; one line per direction of\n"
	  "each chosen repeat (at most 16, and a note says how many more there were)" },
	{ H_RUN, "--run N", "with --over: only run N (the # column of the table); may be given several times" },
	{ H_REPEAT, "--repeat N",
	  "with --over: repeat N of each chosen run (0 is the first; default: the first\n"
	  "that completed); may be given several times" },
};

#define NOPTION_DOCS (sizeof(option_docs) / sizeof(option_docs[0]))

struct command_doc {
	const char *name;
	const char *usage;   /* after "iosweep " */
	const char *summary; /* one line, for `iosweep help` */
	const char *text;    /* what it does, a few lines */
	unsigned options;
	const char *example;
};

static const struct command_doc command_docs[] = {
	{ "run", "run JOB.ini [-o FORMAT[:PATH]]... [--set KEY=VALUE]... [--job NAME]... [--quiet]",
	  "run the plan of a job file and report the results (FORMAT: table, json, csv, series)",
	  "Runs every run of the job file's plan, each repeated as the job says, and\n"
	  "reports the results.  A JOB.ini that is not found as given and has no '/' is\n"
	  "also looked for in the installed jobs directory (" IOSWEEP_JOBS_DIR ").\n"
	  "A run stopped by a signal writes what it measured, marked interrupted: in\n"
	  "JSON \"interrupted\": true; in CSV a last row with interrupted=true (the\n"
	  "repeat that was cut, or the one that was next, without figures).",
	  H_OUTPUT | H_SET | H_JOB | H_QUIET,
	  "iosweep run jobs/demo.ini --set size=16m -o json:demo.json" },
	{ "plan", "plan JOB.ini [-o table|json] [--set KEY=VALUE]... [--job NAME]...",
	  "print the runs a job file expands to, with their reads and bytes; run nothing",
	  "Prints one line per run with the parameters that vary, the reads (and for\n"
	  "a job that writes, the writes and the bytes written) and bytes of one repeat,\n"
	  "and the totals; nothing is run and no file is created.",
	  H_OUTPUT_PLAN | H_SET | H_JOB, "iosweep plan jobs/demo.ini --set size=10g -o json" },
	{ "check", "check JOB.ini... [--set KEY=VALUE]... [--job NAME]...",
	  "validate job files: silent with exit 0 when they are fine",
	  "Parses each job file, applies --set and --job, and expands the plan.\n"
	  "Silent, with exit status 0, when every file is fine.",
	  H_SET | H_JOB, "iosweep check jobs/*.ini" },
	{ "options", "options", "list every job option with its type, default and help",
	  "Lists every option a job file may use, with its type, default and meaning.", 0,
	  "iosweep options" },
	{ "compare", "compare OLD.json NEW.json [--alpha A] [-o table|csv|json]",
	  "compare two result files run by run, with a Mann-Whitney U test",
	  "Matches the runs of two result files by job and parameters and prints, per\n"
	  "figure, the old and new medians, the change and its significance (a readwrite\n"
	  "run's reads and writes apart, a run's flushes too).  Exits 2 when the files\n"
	  "have no run in common.  A fio JSON result is read as one run per fio job\n"
	  "with one repeat, matched by the parameters of its translation.",
	  H_ALPHA | H_OUTPUT_COMPARE, "iosweep compare before.json after.json --alpha 0.01" },
	{ "plot", "plot RESULT.json [-o FILE.svg|FILE.png] [--x OPTION] [--y FIGURE] [--job NAME]... "
		  "[--over time|bytes [--run N]... [--repeat N]...]",
	  "draw a chart of a result file with gnuplot",
	  "Draws the median of one figure against one run parameter, one line per\n"
	  "combination of the other parameters that vary, with error bars; a run that\n"
	  "failed, was interrupted or has fewer repeats than asked is ringed and\n"
	  "labelled.  With --over, draws repeats' series over time or bytes instead.",
	  H_OUTPUT_PLOT | H_X | H_Y | H_JOB | H_OVER | H_RUN | H_REPEAT,
	  "iosweep plot demo.json -o demo.png --x engine --y iops" },
	{ "import", "import [-o PATH] [--no-merge] (FILE.fio... | -- fio ARGS...)",
	  "translate fio job files or a fio command line into an iosweep job file",
	  "Reads fio job files, or the fio command line after '--', as fio 3.x reads\n"
	  "them and writes the iosweep job file that measures the same.  Options not\n"
	  "translated as written are listed in its comments and in one warning; one\n"
	  "that changes what is measured and cannot be translated (trims, a verify\n"
	  "pattern, an offset, ...) is refused with FILE:LINE and exit status 2.\n"
	  "A write job never gets allow_write: the warning says when to add it.",
	  H_OUTPUT_IMPORT | H_NO_MERGE,
	  "iosweep import -o rand.ini -- fio --name=r --rw=randread --size=1g --direct=1" },
	{ "help", "help [COMMAND]", "show the commands, or one command's usage and options",
	  "Without COMMAND, lists the commands; with one, its usage, options and an\n"
	  "example (the same as 'iosweep COMMAND --help').",
	  0, "iosweep help run" },
};

#define NCOMMAND_DOCS (sizeof(command_docs) / sizeof(command_docs[0]))

static const struct command_doc *find(const char *cmd)
{
	for (size_t i = 0; i < NCOMMAND_DOCS; i++)
		if (strcmp(command_docs[i].name, cmd) == 0)
			return &command_docs[i];
	return NULL;
}

const char *help_usage(const char *cmd)
{
	const struct command_doc *d = find(cmd);

	return d ? d->usage : cmd;
}

/* text, its continuation lines indented to column `indent` */
static void print_indented(FILE *out, const char *text, int indent)
{
	for (const char *p = text; *p; p++) {
		fputc(*p, out);
		if (*p == '\n')
			fprintf(out, "%*s", indent, "");
	}
	fputc('\n', out);
}

int help_print(const char *cmd, FILE *out)
{
	const struct command_doc *d = find(cmd);

	if (!d)
		return -1;
	fprintf(out, "usage: iosweep %s\n\n%s\n\noptions:\n", d->usage, d->text);
	for (size_t i = 0; i < NOPTION_DOCS; i++) {
		if (!(d->options & option_docs[i].id))
			continue;
		fprintf(out, "  %s\n      ", option_docs[i].flags);
		print_indented(out, option_docs[i].text, 6);
	}
	fprintf(out, "  -h, --help\n      this help\n\nexample:\n  %s\n", d->example);
	return 0;
}

void help_overview(FILE *out)
{
	fprintf(out, "usage: iosweep COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMAND_DOCS; i++)
		fprintf(out, "  %-8s %s\n", command_docs[i].name, command_docs[i].summary);
	fprintf(out, "\n'iosweep help COMMAND' or 'iosweep COMMAND --help' shows a command's usage;\n"
		     "'man iosweep' and 'man iosweep-job' say more.\n"
		     "exit codes: 0 ok, 1 a run failed, 2 bad usage or job file, 130 interrupted "
		     "(Ctrl-C), 143 SIGTERM, 129 SIGHUP, 141 stdout closed\n");
}

/* the options that take a value as the next argument */
static bool takes_value(const char *arg)
{
	static const char *const with_value[] = { "-o",  "--output", "--set",  "--job",
						  "--x", "--y",      "--alpha", "--over",
						  "--run", "--repeat" };
	/* (import takes -- fio ARGS..., which help_wanted already stops at) */

	for (size_t i = 0; i < sizeof(with_value) / sizeof(with_value[0]); i++)
		if (strcmp(arg, with_value[i]) == 0)
			return true;
	return false;
}

bool help_wanted(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return false;
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
			return true;
		if (takes_value(argv[i]))
			i++;
	}
	return false;
}
