/*
 * plan_text.h - what a plan says before it runs, as text: the totals, the
 * cache notes, the options every run shares, the files it writes.  `plan`,
 * `check` and `run` print them, and the table reporter prints the constants
 * above its table; the plan itself (job/plan.c) only decides.
 */
#ifndef IOSWEEP_PLAN_TEXT_H
#define IOSWEEP_PLAN_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "job/plan.h"

/* Says once per file, on out, why runs left at the default cache policy
 * cannot start cold and verified (a file on tmpfs keeps its pages: keep is
 * used; another user's file: fadvise cannot be verified); "iosweep: " is
 * written before each line. */
void plan_cache_notes(const struct plan *plan, FILE *out);

/* Before a plan that creates 64 MiB or more or does 1 GiB of I/O or more: one line
 * on out with the bytes it will create, read and write ("iosweep: " first),
 * and true; nothing for smaller plans, and false. */
bool plan_print_totals(const struct plan *plan, FILE *out);

/* "name=value" of the options that are the same in every run (those worth
 * saying), wrapped before 110 columns: the line above a plan or a table. */
void plan_print_constants(const struct plan *plan, FILE *out);
/* One line per file the plan writes: which, whose, how many bytes; -1 on
 * out of memory. */
int plan_print_writes(const struct plan *plan, FILE *out);

#endif
