/*
 * progress.h - one updating line on stderr while a plan runs: run i/N, job,
 * phase, how far the repeat is (by bytes, or by time where time ends it),
 * the latest interval's throughput and p99 (the last quarter second's
 * throughput without a series), ETA of the whole plan.
 * Only on a terminal: nothing in a pipe or a log.
 */
#ifndef IOSWEEP_PROGRESS_H
#define IOSWEEP_PROGRESS_H

#include "job/plan.h"
#include "run/run.h"

struct progress;

/* NULL (and nothing shown) when stderr is not a terminal or quiet is set. */
struct progress *progress_start(const struct plan *plan, struct run_status *status, bool quiet);
/* Tells it the run in status is done (for the ETA). */
void progress_run_done(struct progress *p);
/* Clears the line so that a message can be printed (it is drawn again later). */
void progress_clear(struct progress *p);
/* Stops the thread and clears the line. */
void progress_stop(struct progress *p);

#endif
