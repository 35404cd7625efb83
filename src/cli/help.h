/*
 * help.h - each command's usage, options and example, for `iosweep help`,
 * `iosweep COMMAND --help` and the usage inside error messages, as the
 * table of commands (cli.h, commands.c) says them.
 */
#ifndef IOSWEEP_HELP_H
#define IOSWEEP_HELP_H

#include <stdbool.h>
#include <stdio.h>

/* The usage line of a command, after "iosweep " (never shortened). */
const char *help_usage(const char *cmd);
/* A command's full help; -1 for an unknown command. */
int help_print(const char *cmd, FILE *out);
/* The list of commands. */
void help_overview(FILE *out);
/* Whether the arguments after command cmd ask for help (-h, --help), not
 * counting the values of its flags and anything after "--". */
bool help_wanted(const char *cmd, int argc, char **argv);

#endif
