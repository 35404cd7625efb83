/*
 * plot_over.h - `iosweep plot RESULT.json --over time|bytes`: what
 * happened inside repeats, from their series (see plot_over.c).
 */
#ifndef IOSWEEP_PLOT_OVER_H
#define IOSWEEP_PLOT_OVER_H

#include "cli/cli.h"
#include "cli/plot.h"
#include "results/resultfile.h"

/* The options that belong to --over: --over's value, --run and --repeat
 * numbers, and no --x or --y with it (nor --run or --repeat without it).
 * -1 after saying why. */
int plot_over_check_args(const struct cli *cl);
/* Draws the chosen repeats of rf into dest; an exit code. */
int plot_over(const struct resultfile *rf, const struct cli *cl, struct plot_dest *dest);

#endif
