/* cmd_compare.c - placeholder until compare and plot land. */
#include "cli.h"

int cmd_compare(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("compare: not built yet");
	return EXIT_USAGE;
}

int cmd_plot(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("plot: not built yet");
	return EXIT_USAGE;
}
