/*
 * run.h - executing one run of the plan: its warmup and measured repeats.
 *
 * Per run: each worker opens the file and sets up its engine (not timed).
 * Per repeat: the cache state is set, the hints are given and the
 * residency is read (not timed), then the workers, released together, run
 * the I/O core's timed loop (ioloop.h); time to end goes from the first
 * I/O issued by any worker to the moment the last block has been consumed
 * by every worker.
 *
 * A run with a precondition (options.h) first runs each of its passes as a
 * run of its own (plan_precond_run), before it opens its file: the passes'
 * results are kept beside the run's, never among its repeats.
 */
#ifndef IOSWEEP_RUN_H
#define IOSWEEP_RUN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "job/plan.h"
#include "lib/error.h"
#include "run/repeat.h"

struct io_snapshot;

struct precond_result;

struct run_result {
	const struct run *run;
	struct repeat_result *rep; /* measured repeats done */
	size_t nrep;
	size_t nalloc;             /* entries of rep allocated (repeat) */
	bool failed;
	char error[ERR_MAX];
	bool interrupted;          /* a signal stopped it */
	const char *note;          /* the engine's caveat for this run, or NULL */
	const char *memory_fs;     /* "tmpfs", "ramfs": the file system of the file keeps it
				    * only in memory, so nothing written is durable; or NULL */
	/* repeat = auto (plan.h): why the repeats stopped, and the farther end of
	 * the 95% confidence interval of the median, in % of it, when they did */
	enum repeat_stop { REPEAT_FIXED, REPEAT_TARGET, REPEAT_COUNT, REPEAT_BUDGET } auto_stop;
	double auto_spread_pct;
	char device[128];          /* the block device(s) sampled ("loop0"), or "" */
	char device_absent[160];   /* why none was, or "" */
	/* opendir: the directories the run's scan read and the names it did not
	 * read, by why (io/dirscan.h), the first of each; and whether an open
	 * was refused O_NOATIME (files not the user's: their access times moved) */
	uint64_t tree_dirs, tree_skipped[DIRSCAN__SKIPS];
	char tree_first_skip[DIRSCAN__SKIPS][256];
	bool tree_noatime_refused;
	/* tree: what its open removed of a tree a run cut short left, or NULL */
	const char *tree_swept;
	/* precondition: its passes, run before the warmup and repeats, each
	 * timed and tallied apart (never in rep) */
	struct precond_result *pre;
	size_t npre;
};

/* One pass of a run's precondition: the pass as a run (plan_precond_run),
 * and its result, one repeat per time over the file. */
struct precond_result {
	struct precond_pass pass;
	struct run run;
	struct run_result res;
};
/* "target", "count", "budget" by enum repeat_stop (REPEAT_FIXED: NULL) */
extern const char *const repeat_stop_names[];
/* repeat = auto (plan.h): whether measured repeats, of which the n complete
 * ones have the headline figures x and took spent_s, are enough, and why
 * (REPEAT_FIXED: not yet); *spread_pct is the farther end of the 95%
 * confidence interval of their median, in % of it (NAN without one). */
enum repeat_stop repeat_auto_stop(const double *x, size_t n, size_t measured, double spent_s,
				  double *spread_pct);

enum run_phase { PHASE_IDLE, PHASE_CREATE, PHASE_CACHE, PHASE_MEASURE };

/* What a run is doing, written by run_execute and read by the progress line
 * from another thread (hence the atomics).  Zeroed before the first run. */
struct run_status {
	const struct run *run;
	int phase;                /* enum run_phase */
	unsigned repeat;          /* 1-based, counting warmups */
	uint64_t done, total;     /* bytes of the current phase */
	uint64_t bytes_done;      /* moved by the run's repeats done, warmups included */
	struct io_snapshot *snaps; /* while measuring: one per worker */
	unsigned nsnaps;
	/* set by the reader while it looks at snaps: once measuring ends, the
	 * runner waits for it to be 0 before the snapshots change hands */
	int reading;
};

/* Runs every repeat of run into res (release it with run_result_free).
 * Returns 0, or -1 with res->failed and res->error set; stops early, with
 * res->interrupted, when *stop is set.  status may be NULL. */
int run_execute(const struct run *run, struct run_result *res, volatile atomic_int *stop,
		struct run_status *status);

/* Runs the n runs of a group run (plan.h: runs[k].group_pos == k) at the
 * same time, into res[0..n): each job's workers are set up as a job
 * alone's, and per repeat every job's cache is set, then all the jobs'
 * workers leave one start line together, are timed from one t0, and end
 * by the group's rule; each job is tallied alone.  The group repeats as
 * its first job says (the plan checked that its jobs agree).  Returns 0,
 * or -1 with every res failed (the failing job's error in its res, the
 * others naming it).  run_execute() is the group of one. */
int run_execute_group(const struct run *runs, size_t n, struct run_result *res,
		      volatile atomic_int *stop, struct run_status *status);

void run_result_free(struct run_result *res);

/* tree (io/mdtree.h): the tree the last runs worked on, emptied and
 * removed; the runner keeps it from run to run, so the plan's end calls
 * this (after a stop too).  0, or -1 with err when something was left. */
int run_tree_release(char *err);

#endif
