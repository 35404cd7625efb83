/*
 * dist_run.h - what the ranks of one run do together around its I/O:
 * create a test file once, split the reads into shares, and keep
 * consume=ints exact where shares meet.  With one rank each of these is
 * what a single host does.
 */
#ifndef IOSWEEP_DIST_RUN_H
#define IOSWEEP_DIST_RUN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/prepare.h"
#include "job/plan.h"

/* Creates the run's file where it is missing, once per file, and checks
 * that every rank sees it as asked (dist.h: the prepare step of the
 * protocol).  Returns the same on every rank: 0, 1 when stopped, -1 with
 * err (on rank 0: the failing rank's message). */
int dist_prepare(const struct run *run, volatile atomic_int *stop,
		 prepare_progress_fn progress, void *arg, char *err);

/* Reads [*first, *end) of n, this rank's contiguous share of a file that
 * `ranks` ranks read together (the whole of n when each has its own). */
void dist_share(uint64_t n, int rank, int ranks, uint64_t *first, uint64_t *end);

/* rc (0, 1 when stopped, -1 with err) agreed by every rank: the same on
 * every rank, with on rank 0 the failing rank's message. */
int dist_agreed(int rc, char *err);

/* Whether this rank tells, for every rank that shares it, what the page
 * cache of its host holds of the run's file: the host's first rank does
 * for a file the ranks of a host share (each host caches its own copy of
 * a shared file), every rank for a {rank} file of its own; for a figure
 * of the whole system (system_wide), only the host's first rank. */
bool dist_counts_cached_copy(const struct run *run, bool system_wide);

/* consume=ints counts, in each share, the digit runs it sees; a number cut
 * by the start of a share is counted as two.  What to add to the sum of
 * the share that starts at byte `at` (its bytes up to `end`) of path so
 * that the sums of all shares add up to the sum of the whole file: 0 for
 * the first share; -1 with err when path cannot be read. */
int dist_ints_correction(const char *path, uint64_t at, uint64_t end, uint64_t *add,
			 char *err);
/* The same from the bytes around the cut: up to 64 before it (at most
 * DIST_INTS_WINDOW), and up to 64 from it, no further than the share's end. */
#define DIST_INTS_WINDOW 64
uint64_t dist_ints_join(const unsigned char *before, size_t nbefore,
			const unsigned char *after, size_t nafter);

#endif
