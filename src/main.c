/*
 * main.c - iosweep: subcommand dispatch and help.  Everything else lives in
 * the command files (cmd_*.c) and the pipeline modules they call.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "dist.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
	const char *help;
};

static const struct command commands[] = {
	{ "run", cmd_run,
	  "run JOB.ini [-o FORMAT[:PATH]]... [--set KEY=VALUE]... [--job NAME]... [--quiet]",
	  "run the plan of a job file and report the results (FORMAT: table, json, csv)" },
	{ "plan", cmd_plan, "plan JOB.ini [-o json] [--set KEY=VALUE]... [--job NAME]...",
	  "print the runs a job file expands to, with their reads and bytes; run nothing" },
	{ "check", cmd_check, "check JOB.ini... [--set KEY=VALUE]...",
	  "validate job files: silent with exit 0 when they are fine" },
	{ "options", cmd_options, "options", "list every job option with its type, default and help" },
	{ "compare", cmd_compare, "compare OLD.json NEW.json [--alpha A] [-o table|csv|json]",
	  "compare two result files run by run, with a Mann-Whitney U test" },
	{ "plot", cmd_plot, "plot RESULT.json [-o FILE.svg|FILE.png] [--x OPTION] [--y FIGURE]",
	  "draw a chart of a result file with gnuplot" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
	fprintf(out, "usage: iosweep COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].help);
	fprintf(out, "\n'iosweep help COMMAND' shows a command's usage; "
		     "'man iosweep' and 'man iosweep-job' say more.\n"
		     "exit codes: 0 ok, 1 a run failed, 2 bad usage or job file, 130 interrupted\n");
}

static const struct command *find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

static int help(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		usage(stdout);
		return EXIT_OK;
	}
	c = find(argv[1]);
	if (!c) {
		cli_error("no command '%s' (see 'iosweep help')", argv[1]);
		return EXIT_USAGE;
	}
	printf("usage: iosweep %s\n\n%s\n", c->usage, c->help);
	return EXIT_OK;
}

static int dispatch(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		printf("iosweep %s\n", IOSWEEP_VERSION);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0)
		return help(argc - 1, argv + 1);
	c = find(argv[1]);
	if (!c) {
		cli_error("no command '%s' (see 'iosweep help')", argv[1]);
		return EXIT_USAGE;
	}
	return c->fn(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	int rc;

	/* iosweep-mpi: every rank starts here (single host: nothing to do) */
	if (dist_init(&argc, &argv) < 0)
		return EXIT_RUN;
	rc = dispatch(argc, argv);
	dist_finish();
	return rc;
}
