/*
 * tally.h - what a run holds while it runs, shared by the run floor's two
 * halves: run.c (workers, repeats: the doing) and tally.c (adding up what a
 * repeat did, over workers and ranks: the counting).  Nothing above the run
 * floor includes it (run.h is the public face).
 */
#ifndef IOSWEEP_TALLY_H
#define IOSWEEP_TALLY_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>

#include "io/devstat.h"
#include "io/ioloop.h"
#include "io/prepare.h"
#include "io/trace.h"
#include "lib/hist.h"
#include "lib/intmath.h"

struct run_status;
#include "job/plan.h"
#include "run/repeat.h"

/* The device's samples a repeat's series keeps at most (run.c). */
#define DEV_IV_MAX (2 * SERIES_SLOTS + 1)

/* The bytes file k of r's set holds. */
#define RUNNER_FILE_BYTES(r, k) run_file_bytes((r)->run, (r)->sizes_p, (k))

struct runner {
	const struct run *run;
	const struct engine_ops *engine;
	volatile atomic_int *stop;
	struct run_status *status;
	struct io_worker *w;
	struct io_snapshot *snaps; /* one per worker, read by the progress line */
	struct hist *total;    /* all workers' latencies of one repeat */
	struct hist *dir_total[IO_DIRS], *flush_total; /* per direction; of the flushes */
	struct hist *trim_total; /* of the trims (op=trim, trimwrite) */
	struct hist *resp_total; /* and their response times (rate limit) */
	struct data_gen gen;   /* what writes write, and what verify expects */
	double period_ns;      /* rate limit: each worker's ns between due times; 0: none */
	unsigned nw, ready;    /* workers, and how many were initialised */
	bool writes;           /* op=write or readwrite */
	bool direct;
	bool rated;            /* units have due times: a rate limit, or a trace replayed at
				* its recorded times (read_iolog) */
	bool traced;           /* read_iolog: the trace, scanned again, and its reader */
	struct trace_scan trace_scan;
	struct trace_reader trace;
	struct hist *issue_late; /* read_iolog: issue lateness (issue - due) of every worker */
	/* read_iolog with replay_threads: worker t's reader (the trace's thread t's
	 * lines) and its own issue lateness, merged into issue_late; NULL: worker
	 * 0 alone replays, through trace, into issue_late */
	struct trace_reader *readers;
	struct hist **late;
	uint64_t *rec_rate;    /* read_iolog with a series: the trace's I/Os per rec_rate_ns */
	size_t nrec_rate;
	uint64_t rec_rate_ns;
	struct series *series; /* all workers' series of one repeat, or NULL */
	struct series_watch watch; /* ss: what worker 0's series watches for */
	struct runner *line;   /* the runner whose arrived and go are the start line: itself,
				* or for a group (run.h) the group's first job's */
	struct group_state *group; /* a group's shared state, or NULL for a job alone */
	unsigned arrived;      /* the start line: workers there (atomic) */
	int go;                /* 0: wait, 1: start, -1: give up (atomic) */
	unsigned nline;        /* on line: the workers that wait there (every job's) */
	unsigned running;      /* group: this job's workers still in their loop (atomic) */
	int measure_rc;        /* -1: a worker of this job failed, or threads did not start */
	bool watching;         /* watch has something to watch for (steady, cliff) */
	bool ended_first;      /* group, end=first: this job's end cut the others */
	uint64_t first, end;   /* this rank's share of the units */
	struct prepare_id id;  /* the file the run started with */
	unsigned char *hists;  /* rank 0: every rank's histogram, for merging */
	struct pattern_range *done; /* rank 0: every worker's reads done, rank after rank,
				     * for coverage; this rank's own after them */
	struct pattern_range *mine;
	double *thread_s;      /* this rank's threads' times to end */
	int claim_fd;          /* a block device written: its O_EXCL claim (wtarget.h) */
	bool claimed;          /* claim_fd is open */
	struct devstat dev;    /* the block device under the file (one rank only) */
	struct devstat_sample dev_at[2]; /* its counters before and after the timed part */
	uint64_t dev_ns[2];    /* when they were read */
	bool dev_ok;           /* both were */
	/* a file set (nrfiles > 1): its files, open read-only for the whole run
	 * and shared by the workers, and the identity of each */
	unsigned nset;
	int *set_fds;
	struct prepare_id *set_ids;
	/* with filesize drawn file by file: the sizes, and where each file lies
	 * in the set (fileset.h); sizes_p NULL when every file is size bytes */
	struct bsmix sizes;
	const struct bsmix *sizes_p;
	struct fileset_layout lay;
	/* opendir: the tree as the run scanned it, the order of its files in
	 * this repeat (file_service_type), the repeats ordered so far, and the
	 * dentries and inodes in use before this repeat */
	bool treed;
	struct dirscan tree;
	uint32_t *order;
	unsigned epoch;
	double dentries0, inodes0;
	/* tree: the tree the run's phase works on (run.c keeps it from run to
	 * run), and what create writes to each file, bs bytes repeated */
	struct mdtree *md;
	unsigned char *md_data;
	const char *md_swept;  /* what opening it removed of a run cut short, or NULL */
	/* with a series: the device's counters at the series' boundaries, read by
	 * a thread of the runner's own that sleeps between them (never the
	 * workers, never in the per-I/O path); [0] is dev_at[0], [k] boundary k
	 * of dev_iv_ns (doubled, every other sample dropped, when they are
	 * DEV_IV_MAX) */
	struct devstat_sample dev_iv[DEV_IV_MAX];
	uint64_t dev_iv_t[DEV_IV_MAX]; /* when each was read */
	uint64_t dev_iv_ns;
	pthread_mutex_t dev_iv_lock;
	pthread_cond_t dev_iv_wake;
	unsigned ndev_iv;
	bool dev_iv_ok;        /* every sample was read */
	bool dev_iv_done;      /* the loop is over: the sampler stops (under dev_iv_lock) */
	bool dev_iv_inited;    /* the lock and the condition are initialised */
};

/* Adds up one measured repeat (collective: every rank calls it): the
 * workers' results and histograms of this rank (t0: the monotonic time the
 * repeat started at, wall0 the same instant on the wall clock; ru0, ru1:
 * the process's usage around it), the dirty bytes a write left, then every
 * rank's; fills rr's figures and its series.  -1 on out of memory. */
int tally_repeat(struct runner *r, struct repeat_result *rr, uint64_t t0, uint64_t wall0,
		 const struct rusage *ru0, const struct rusage *ru1);

#endif
