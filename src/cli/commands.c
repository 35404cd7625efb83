/*
 * commands.c - the table of commands and of their command-line flags.
 *
 * Each flag is declared once here (its spellings, whether it takes a value,
 * its help), and each command once (its function, the flags it takes, its
 * usage line, help and example).  Everything asks this table: main.c
 * dispatches by it, cli_parse takes a command's own flags only (any other is
 * an error), and help prints it.  The man page's SYNOPSIS and its flags per
 * command are tested against the help it prints (tests/cli/docs.bats), so
 * the three cannot drift apart.
 */
#include <string.h>

#include "cli/cli.h"

/* spellings, the value help names (NULL: takes none), help */
const struct cli_flag cli_flags[NFLAGS] = {
	[FLAG_OUTPUT] = { 'o', "output", "FORMAT[:PATH]",
		"table (the default), json, csv, md (the table as Markdown), or series (one CSV\n"
		"row per interval of a repeat: see the interval option); to PATH, or to stdout without one (or with\n"
		"'-'); may be given several times, but only one format may take stdout.  The\n"
		"table stays on stdout when the other formats go to files, unless --quiet" },
	[FLAG_OUTPUT_PATH] = { 'o', "output", "PATH",
		"write the job file to PATH, replaced atomically as run -o does; never one of\n"
		"the fio job's own files (default: stdout)" },
	[FLAG_NO_MERGE] = { 0, "no-merge", NULL,
		"keep fio jobs that differ in one option as separate jobs instead of one job\n"
		"with a list" },
	[FLAG_SET] = { 0, "set", "KEY=VALUE",
		"set a job option in every job, over what the job file says (size=16m,\n"
		"engine=sync,mmap); may be given several times; recorded in the results" },
	[FLAG_JOB] = { 0, "job", "NAME",
		"only this job (a [section] of the job file); may be given several times" },
	[FLAG_QUIET] = { 'q', "quiet", NULL,
		"no progress line and no plan totals; with -o to files, no table on\n"
		"stdout either (unless -o table asks for it)" },
	[FLAG_ALPHA] = { 0, "alpha", "A",
		"significance level of the Mann-Whitney U test (default 0.05)" },
	[FLAG_X] = { 0, "x", "OPTION",
		"the x axis: a run parameter (bs, spacing, engine, ...) or job" },
	[FLAG_Y] = { 0, "y", "FIGURE",
		"the figure drawn: time_to_end_s (the default; throughput_Bps when every run\n"
		"is time_based), throughput_Bps, coverage_Bps, iops, lat_p99_ns, cpu_sys_s,\n"
		"... (any per-repeat figure of the JSON); once a run writes, throughput,\n"
		"IOPS and latency are drawn per direction, each line named by it" },
	[FLAG_OVER] = { 0, "over", "time|bytes",
		"instead, what happened inside repeats: throughput and p99 latency of each\n"
		"interval of their series (the job option interval) against the time in the\n"
		"repeat, or against the bytes transferred so far; one line per direction of\n"
		"each chosen repeat (at most 16, and a note says how many more there were)" },
	[FLAG_RUN] = { 0, "run", "N",
		"with --over: only run N (the # column of the table); "
		"may be given several times" },
	[FLAG_REPEAT] = { 0, "repeat", "N",
		"with --over: repeat N of each chosen run (0 is the first; default: the first\n"
		"that completed); may be given several times" },
	[FLAG_DB] = { 0, "db", "PATH",
		"the history database (default: $IOSWEEP_HISTORY, else\n"
		"$XDG_DATA_HOME/iosweep/history.db, else ~/.local/share/iosweep/history.db);\n"
		"a symbolic link is refused" },
	[FLAG_LABEL] = { 0, "label", "TEXT",
		"history add: a label kept with each result added (a git commit, a version);\n"
		"history list, trend: only results of this label" },
	[FLAG_HOST] = { 0, "host", "NAME",
		"history list, trend: only results of the host of this name" },
	[FLAG_SINCE] = { 0, "since", "DATE",
		"history list, trend: only results started on or after DATE\n"
		"(YYYY-MM-DD, or YYYY-MM-DDTHH:MM:SS, UTC)" },
	[FLAG_UNTIL] = { 0, "until", "DATE",
		"history list, trend: only results started on or before DATE" },
	[FLAG_FIGURE] = { 0, "figure", "FIGURE",
		"the figure: time_to_end_s (the default; throughput_Bps for a time_based\n"
		"run), throughput_Bps, iops, lat_p99_ns, ... (a figure that has a better\n"
		"direction: a time, a rate)" },
	[FLAG_AGAINST] = { 0, "against", "OLD.json",
		"the result NEW is gated against, run by run (runs matched as compare\n"
		"matches them)" },
	[FLAG_HISTORY] = { 0, "history", "N",
		"instead of --against: each run against the repeats of the same run in the\n"
		"last N results of the history database from the same host (machine, kernel,\n"
		"CPU, file system, device model), pooled" },
	[FLAG_MAX_SLOWDOWN] = { 0, "max-slowdown", "P%",
		"the slowdown a run may show before it fails the gate (default 5%): time up\n"
		"or throughput down by more than P% of the old median" },
	[FLAG_ANY_HOST] = { 0, "any-host", NULL,
		"gate against a result from another host (by default refused, naming the\n"
		"difference)" },
	[FLAG_ALLOW_INCONCLUSIVE] = { 0, "allow-inconclusive", NULL,
		"exit 0 instead of 3 when some run has too few repeats to decide (or was\n"
		"interrupted) and none got slower" },
	[FLAG_ANONYMIZE] = { 0, "anonymize", NULL,
		"name each file in the trace by a stable id instead of its path\n"
		"(iosweep-<16 hex digits>, a hash of its device and inode: the same file\n"
		"gets the same id in every recording on this machine); the meta file keeps\n"
		"no path and of the command only the program's name" },
};

const struct cli_command cli_commands[] = {
	{ .name = "run",
	  .fn = cmd_run,
	  .usage = "run JOB.ini [-o FORMAT[:PATH]]... [--set KEY=VALUE]... [--job NAME]... "
		   "[--quiet]",
	  .summary = "run the plan of a job file and report the results (FORMAT: table, json, csv, "
		     "series, md)",
	  .text = "Runs every run of the job file's plan, each repeated as the job says, and\n"
		  "reports the results.  A JOB.ini that is not found as given and has no '/' is\n"
		  "also looked for in the installed jobs directory (" IOSWEEP_JOBS_DIR ").\n"
		  "A run stopped by a signal writes what it measured, marked interrupted: in\n"
		  "JSON \"interrupted\": true; in CSV a last row with interrupted=true (the\n"
		  "repeat that was cut, or the one that was next, without figures).",
	  .example = "iosweep run jobs/demo.ini --set size=16m -o json:demo.json",
	  .flags = { { .flag = FLAG_OUTPUT }, { .flag = FLAG_SET }, { .flag = FLAG_JOB },
		     { .flag = FLAG_QUIET } } },
	{ .name = "plan",
	  .fn = cmd_plan,
	  .usage = "plan JOB.ini [-o table|json] [--set KEY=VALUE]... [--job NAME]...",
	  .summary = "print the runs a job file expands to, with their reads and bytes; "
		     "run nothing",
	  .text = "Prints one line per run with the parameters that vary, the reads (and for\n"
		  "a job that writes, the writes and the bytes written) and bytes of one repeat,\n"
		  "and the totals; nothing is run and no file is created.",
	  .example = "iosweep plan jobs/demo.ini --set size=10g -o json",
	  .flags = { { .flag = FLAG_OUTPUT,
		       .value = "table|json",
		       .help = "the plan as text (the default) or as JSON, to stdout" },
		     { .flag = FLAG_SET }, { .flag = FLAG_JOB } } },
	{ .name = "check",
	  .fn = cmd_check,
	  .usage = "check JOB.ini... [--set KEY=VALUE]... [--job NAME]...",
	  .summary = "validate job files: silent with exit 0 when they are fine",
	  .text = "Parses each job file, applies --set and --job, and expands the plan.\n"
		  "Silent, with exit status 0, when every file is fine.",
	  .example = "iosweep check jobs/*.ini",
	  .flags = { { .flag = FLAG_SET }, { .flag = FLAG_JOB } } },
	{ .name = "options",
	  .fn = cmd_options,
	  .usage = "options",
	  .summary = "list every job option with its type, default and help",
	  .text = "Lists every option a job file may use, with its type, default and meaning;\n"
		  "then the engines, and fio's options with what iosweep import makes of each.",
	  .example = "iosweep options" },
	{ .name = "compare",
	  .fn = cmd_compare,
	  .usage = "compare OLD.json NEW.json [--alpha A] [-o table|csv|json|md]",
	  .summary = "compare two result files run by run, with a Mann-Whitney U test",
	  .text = "Matches the runs of two result files by job and parameters and prints, per\n"
		  "figure, the old and new medians, the change and its significance (a readwrite\n"
		  "run's reads and writes apart, a run's flushes too).  Exits 2 when the files\n"
		  "have no run in common.  A fio JSON result is read as one run per fio job\n"
		  "with one repeat, matched by the parameters of its translation.",
	  .example = "iosweep compare before.json after.json --alpha 0.01",
	  .flags = { { .flag = FLAG_OUTPUT,
		       .value = "table|csv|json|md",
		       .help = "the format of the comparison (default table; md: Markdown), to stdout" },
		     { .flag = FLAG_ALPHA } } },
	{ .name = "plot",
	  .fn = cmd_plot,
	  .usage = "plot RESULT.json [-o FILE.svg|FILE.png] [--x OPTION] [--y FIGURE] "
		   "[--job NAME]... [--over time|bytes [--run N]... [--repeat N]...]",
	  .summary = "draw a chart of a result file with gnuplot",
	  .text = "Draws the median of one figure against one run parameter, one line per\n"
		  "combination of the other parameters that vary, with error bars; a run that\n"
		  "failed, was interrupted or has fewer repeats than asked is ringed and\n"
		  "labelled.  With --over, draws repeats' series over time or bytes instead.",
	  .example = "iosweep plot demo.json -o demo.png --x engine --y iops",
	  .flags = { { .flag = FLAG_OUTPUT,
		       .value = "FILE.svg|FILE.png",
		       .help = "the chart, SVG or PNG by its extension (default: RESULT.svg beside "
			       "RESULT.json)" },
		     { .flag = FLAG_JOB }, { .flag = FLAG_X }, { .flag = FLAG_Y },
		     { .flag = FLAG_OVER }, { .flag = FLAG_RUN }, { .flag = FLAG_REPEAT } } },
	{ .name = "import",
	  .fn = cmd_import,
	  .usage = "import [-o PATH] [--no-merge] [--job NAME]... (FILE.fio... | -- fio ARGS...)",
	  .summary = "translate fio job files or a fio command line into an iosweep job file",
	  .text = "Reads fio job files, or the fio command line after '--', as fio 3.x reads\n"
		  "them and writes the iosweep job file that measures the same.  Options not\n"
		  "translated as written are listed in its comments and in one warning; one\n"
		  "that changes what is measured and cannot be translated (a verify job's\n"
		  "trims, a verify pattern, an offset, ...) is refused with FILE:LINE and exit status 2;\n"
		  "every refusal of every job and file is said at once, one line each, and\n"
		  "nothing is written.  -o PATH is replaced atomically, as run -o does.\n"
		  "A write job never gets allow_write: the warning says when to add it.",
	  .example = "iosweep import -o rand.ini -- fio --name=r --rw=randread --size=1g "
		     "--direct=1",
	  .rest = true,
	  .flags = { { .flag = FLAG_OUTPUT_PATH }, { .flag = FLAG_NO_MERGE },
		     { .flag = FLAG_JOB,
		       .help = "only this fio job (its [NAME] or --name=NAME); may be given "
			       "several times" } } },
	{ .name = "report",
	  .fn = cmd_report,
	  .usage = "report RESULT.json... -o FILE.html [--alpha A]",
	  .summary = "write one self-contained HTML page of result files",
	  .text = "Writes one HTML file, with nothing to fetch (no script, no font, no\n"
		  "network): per result file the job file, the host facts, the table of every\n"
		  "run with its notes and its repeats, and the charts of iosweep plot (and of\n"
		  "plot --over time for runs with series); given several files, compare's table\n"
		  "of the first against each other.  Interrupted runs are kept and marked.",
	  .example = "iosweep report before.json after.json -o report.html",
	  .flags = { { .flag = FLAG_OUTPUT_PATH,
		       .value = "FILE.html",
		       .help = "the page (needed; '-': stdout); an existing FILE.html is replaced\n"
			       "atomically, as run -o replaces its outputs" },
		     { .flag = FLAG_ALPHA } } },
	{ .name = "history",
	  .fn = cmd_history,
	  .usage = "history add|list|show|trend [RESULT.json...|ID] [--db PATH] [--label TEXT] "
		   "[--job NAME] [--host NAME] [--since DATE] [--until DATE] [--figure FIGURE] "
		   "[-o FILE.svg|FILE.png]",
	  .summary = "keep result files in a database; list them, show one, draw a trend",
	  .text = "add RESULT.json...: stores each result (once: a file already stored is said\n"
		  "so and left as it is), one transaction each, with its host and --label.\n"
		  "list: the stored results, oldest first, filtered by --job, --host, --label,\n"
		  "--since, --until.  show ID: one result (its id, or 4 or more digits of its\n"
		  "hash) and its runs.  trend --job NAME: the median of --figure of each run of\n"
		  "the job, with its 95% confidence interval, result by result, one line per\n"
		  "host and run; with -o, drawn as a chart too.  A run with interrupted repeats\n"
		  "is kept and marked, its interrupted repeats left out.",
	  .example = "iosweep history add demo.json --label $(git rev-parse --short HEAD)",
	  .flags = { { .flag = FLAG_DB }, { .flag = FLAG_LABEL },
		     { .flag = FLAG_JOB,
		       .help = "list: only results with a run of this job; trend: the job drawn "
			       "(required)" },
		     { .flag = FLAG_HOST }, { .flag = FLAG_SINCE }, { .flag = FLAG_UNTIL },
		     { .flag = FLAG_FIGURE },
		     { .flag = FLAG_OUTPUT,
		       .value = "FILE.svg|FILE.png",
		       .help = "trend: draw the chart too, SVG or PNG by its extension" } } },
	{ .name = "gate",
	  .fn = cmd_gate,
	  .usage = "gate NEW.json --against OLD.json | --history N [--max-slowdown P%] "
		   "[--alpha A] [--figure FIGURE] [--any-host] [--allow-inconclusive] [--db PATH]",
	  .summary = "fail (exit 1) when a run got significantly slower: a regression gate for CI",
	  .text = "Compares each run of NEW with the same run of OLD (or of the history) and\n"
		  "prints a Markdown table, one line per run: old and new medians, the change,\n"
		  "the p-value of a two-sided Mann-Whitney U test and the verdict.  A run is\n"
		  "slower when both p <= alpha and it is slower by more than --max-slowdown.\n"
		  "Exit 1 when some run is slower; else 3 when some run cannot be decided (too\n"
		  "few repeats for any p to reach alpha, or interrupted repeats, or a failed\n"
		  "run), unless --allow-inconclusive; else 0.",
	  .example = "iosweep gate new.json --history 5 --max-slowdown 5%",
	  .flags = { { .flag = FLAG_AGAINST }, { .flag = FLAG_HISTORY },
		     { .flag = FLAG_MAX_SLOWDOWN }, { .flag = FLAG_ALPHA },
		     { .flag = FLAG_FIGURE }, { .flag = FLAG_ANY_HOST },
		     { .flag = FLAG_ALLOW_INCONCLUSIVE }, { .flag = FLAG_DB } } },
	{ .name = "record",
	  .fn = cmd_record,
	  .usage = "record [-o TRACE] [--anonymize] -- COMMAND [ARGS...]",
	  .summary = "run a command and record its file I/O as a fio iolog (read_iolog replays it)",
	  .text = "Runs COMMAND with an LD_PRELOAD interposer (libiosweep-record.so, beside\n"
		  "the iosweep binary or in PREFIX/lib/iosweep) that records every open,\n"
		  "close, read, write, fsync, fdatasync, lseek, ftruncate, fallocate and mmap\n"
		  "of a file, in every thread and child process, with its time, offset, size\n"
		  "and file (path, dev:ino).  TRACE is a fio version 3 iolog; TRACE.meta.json\n"
		  "holds what an iolog cannot (threads, durations, lseeks, mmaps, the command,\n"
		  "its exit status, what the interposer cannot see).  Both are replaced\n"
		  "atomically.  The exit status is the command's; a failing command keeps its\n"
		  "trace, marked failed.  Notes (mmap'ed files, stdio streams, a program not\n"
		  "followed) are said on stderr and kept in the meta file.",
	  .example = "iosweep record -o app.iolog -- python3 app.py input.dat",
	  .rest = true,
	  .flags = { { .flag = FLAG_OUTPUT_PATH,
		       .value = "TRACE",
		       .help = "the trace (default iosweep.iolog), and TRACE.meta.json beside it" },
		     { .flag = FLAG_ANONYMIZE } } },
	{ .name = "help",
	  .fn = cmd_help,
	  .usage = "help [COMMAND]",
	  .summary = "show the commands, or one command's usage and options",
	  .text = "Without COMMAND, lists the commands; with one, its usage, options and an\n"
		  "example (the same as 'iosweep COMMAND --help').",
	  .example = "iosweep help run" },
};

const size_t cli_ncommands = sizeof(cli_commands) / sizeof(cli_commands[0]);

const struct cli_command *cli_command_find(const char *name)
{
	for (size_t i = 0; i < cli_ncommands; i++)
		if (strcmp(cli_commands[i].name, name) == 0)
			return &cli_commands[i];
	return NULL;
}

const struct cli_use *cli_command_use(const struct cli_command *cmd, enum cli_flag_id f)
{
	for (const struct cli_use *u = cmd->flags; u < cmd->flags + CLI_MAX_USES && u->flag; u++)
		if (u->flag == f)
			return u;
	return NULL;
}
