/*
 * progress.h - one updating line on stderr while a plan runs: run i/N, job,
 * phase, percent of bytes, current throughput, ETA of the whole plan.
 * Only on a terminal: nothing in a pipe or a log.
 */
#ifndef IOSWEEP_PROGRESS_H
#define IOSWEEP_PROGRESS_H

#include "plan.h"
#include "run.h"

struct progress;

/* NULL (and nothing shown) when stderr is not a terminal or quiet is set. */
struct progress *progress_start(const struct plan *plan, struct run_status *status, bool quiet);
/* Tells it a run is done (for the ETA). */
void progress_run_done(struct progress *p, const struct run *run);
/* Clears the line so that a message can be printed (it is drawn again later). */
void progress_clear(struct progress *p);
/* Stops the thread and clears the line. */
void progress_stop(struct progress *p);

#endif
