/*
 * main.c - iosweep: finds the command in the table of commands (cli.h,
 * commands.c) and hands it its arguments, or its help when they ask for it.
 * Everything else lives in the command files (cmd_*.c) and the pipeline
 * modules they call.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "lib/version.h"
#include "run/dist.h"

static int dispatch(int argc, char **argv)
{
	const struct cli_command *c;

	if (argc < 2) {
		help_overview(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		printf("iosweep %s\n", IOSWEEP_VERSION);
		return EXIT_OK;
	}
	/* iosweep --help [COMMAND] is iosweep help [COMMAND] */
	c = cli_command_find(strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ?
				     "help" : argv[1]);
	if (!c) {
		cli_error("no command '%s' (see 'iosweep help')", argv[1]);
		return EXIT_USAGE;
	}
	if (help_wanted(c->name, argc - 1, argv + 1))
		return help_print(c->name, stdout) < 0 ? EXIT_USAGE : EXIT_OK;
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
