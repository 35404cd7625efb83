/*
 * help.h - each command's usage, options and example, for `iosweep help`,
 * `iosweep COMMAND --help` and the usage inside error messages.
 */
#ifndef IOSWEEP_HELP_H
#define IOSWEEP_HELP_H

#include <stdbool.h>
#include <stdio.h>

/* where `make install` puts the example jobs (the Makefile passes PREFIX) */
#ifndef IOSWEEP_JOBS_DIR
#define IOSWEEP_JOBS_DIR "/usr/local/share/iosweep/jobs"
#endif

/* The usage line of a command, after "iosweep " (never shortened). */
const char *help_usage(const char *cmd);
/* A command's full help; -1 for an unknown command. */
int help_print(const char *cmd, FILE *out);
/* The list of commands. */
void help_overview(FILE *out);
/* Whether the arguments after the command ask for help (-h, --help), not
 * counting the values of options and anything after "--". */
bool help_wanted(int argc, char **argv);

#endif
