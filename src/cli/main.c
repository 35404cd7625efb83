/*
 * main.c - iosweep: subcommand dispatch and help.  Everything else lives in
 * the command files (cmd_*.c) and the pipeline modules they call.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "run/dist.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
};

/* what each command says about itself is in help.c */
static const struct command commands[] = {
	{ "run", cmd_run },	    { "plan", cmd_plan },	{ "check", cmd_check },
	{ "options", cmd_options }, { "compare", cmd_compare }, { "plot", cmd_plot },
	{ "import", cmd_import },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct command *find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

/* iosweep help [COMMAND] */
static int help(int argc, char **argv)
{
	if (argc < 2) {
		help_overview(stdout);
		return EXIT_OK;
	}
	if (help_wanted(argc, argv))
		return help(2, (char *[]){ "help", "help", NULL });
	if (argc > 2) {
		cli_error("help: expected at most one command (usage: iosweep %s)",
			  help_usage("help"));
		return EXIT_USAGE;
	}
	if (help_print(argv[1], stdout) < 0) {
		cli_error("no command '%s' (see 'iosweep help')", argv[1]);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int dispatch(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		help_overview(stderr);
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
	if (help_wanted(argc - 1, argv + 1))
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
