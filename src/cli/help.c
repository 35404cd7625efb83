/*
 * help.c - what `iosweep help`, `iosweep COMMAND -h` and the usage inside
 * error messages say about each command: all of it read from the table of
 * commands and flags (commands.c), which says each thing once.
 */
#define _GNU_SOURCE
#include "cli/help.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

const char *help_usage(const char *cmd)
{
	const struct cli_command *c = cli_command_find(cmd);

	return c ? c->usage : cmd;
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

/* "  -o, --output FORMAT[:PATH]" and its help below it */
static void print_flag(FILE *out, const struct cli_use *u)
{
	const struct cli_flag *f = &cli_flags[u->flag];
	const char *value = u->value ? u->value : f->value;

	fputs("  ", out);
	if (f->short_name)
		fprintf(out, "-%c, ", f->short_name);
	fprintf(out, "--%s%s%s\n      ", f->long_name, value ? " " : "", value ? value : "");
	print_indented(out, u->help ? u->help : f->help, 6);
}

int help_print(const char *cmd, FILE *out)
{
	const struct cli_command *c = cli_command_find(cmd);

	if (!c)
		return -1;
	fprintf(out, "usage: iosweep %s\n\n%s\n\noptions:\n", c->usage, c->text);
	for (const struct cli_use *u = c->flags; u < c->flags + CLI_MAX_USES && u->flag; u++)
		print_flag(out, u);
	fprintf(out, "  -h, --help\n      this help\n\nexample:\n  %s\n", c->example);
	return 0;
}

/* Where the man pages are read: beside a build in the source tree (build/
 * next to man/), before `make install`, with man -l; else as installed. */
static void print_man_pointer(FILE *out)
{
	char exe[PATH_MAX], page[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			slash = strrchr(exe, '/');
		}
		if (slash) {
			slash[1] = '\0';
			snprintf(page, sizeof(page), "%sman/iosweep.1", exe);
			if (access(page, R_OK) == 0) {
				fprintf(out, "'man -l %s' and 'man -l %sman/iosweep-job.5' say more.\n",
					page, exe);
				return;
			}
		}
	}
	fputs("'man iosweep' and 'man iosweep-job' say more.\n", out);
}

void help_overview(FILE *out)
{
	fprintf(out, "usage: iosweep COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < cli_ncommands; i++)
		fprintf(out, "  %-8s %s\n", cli_commands[i].name, cli_commands[i].summary);
	fprintf(out, "\n'iosweep help COMMAND' or 'iosweep COMMAND --help' shows a command's usage;\n");
	print_man_pointer(out);
	fprintf(out, "exit codes: 0 ok, 1 a run failed (gate: a run got slower), 2 bad usage or job "
		     "file, 3 gate: a run could not be decided, 130 interrupted "
		     "(Ctrl-C), 143 SIGTERM, 129 SIGHUP, 141 stdout closed\n");
}

/* Whether arg is a flag of cmd that takes the next argument as its value. */
static bool takes_value(const struct cli_command *cmd, const char *arg)
{
	for (const struct cli_use *u = cmd->flags; u < cmd->flags + CLI_MAX_USES && u->flag; u++) {
		const struct cli_flag *f = &cli_flags[u->flag];

		if (!f->value)
			continue;
		if ((f->short_name && arg[0] == '-' && arg[1] == f->short_name && !arg[2]) ||
		    (strncmp(arg, "--", 2) == 0 && strcmp(arg + 2, f->long_name) == 0))
			return true;
	}
	return false;
}

bool help_wanted(const char *cmd, int argc, char **argv)
{
	const struct cli_command *c = cli_command_find(cmd);

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return false;
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
			return true;
		if (c && takes_value(c, argv[i]))
			i++;
	}
	return false;
}

/* iosweep help [COMMAND] (main.c answers `help --help` itself) */
int cmd_help(int argc, char **argv)
{
	struct cli c;
	int rc = cli_parse("help", argc, argv, &c);

	if (rc)
		return rc;
	if (c.nfiles == 0) {
		help_overview(stdout);
	} else if (c.nfiles > 1) {
		cli_error("help: expected at most one command (usage: iosweep %s)",
			  help_usage("help"));
		rc = EXIT_USAGE;
	} else if (help_print(c.files[0], stdout) < 0) {
		cli_error("no command '%s' (see 'iosweep help')", c.files[0]);
		rc = EXIT_USAGE;
	}
	cli_free(&c);
	return rc;
}
