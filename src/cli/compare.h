/*
 * compare.h - compare's run matching, for the other readers of two result
 * files (gate): the same rules (job and identity parameters, see
 * cmd_compare.c) and the same labels, kept in one place.
 */
#ifndef IOSWEEP_COMPARE_H
#define IOSWEEP_COMPARE_H

#include <stddef.h>

#include "results/resultfile.h"

struct compare_pair {
	const struct resultfile_run *old, *new; /* NULL: the run is only in the other file */
	char *label;                            /* "JOB key=value ...", malloc'd */
};

/* The runs of old and new matched as compare matches them, old's order
 * first, then the runs only in new: a malloc'd array of *n; NULL when out
 * of memory.  Free with compare_pairs_free. */
struct compare_pair *compare_pairs(const struct resultfile *old, const struct resultfile *new,
				   size_t *n);
void compare_pairs_free(struct compare_pair *p, size_t n);

#endif
