/*
 * run.h - executing one run of the plan: its warmup and measured repeats.
 *
 * Per run: each worker opens the file and sets up its engine (not timed).
 * Per repeat: the cache state is set, the hints are given and the
 * residency is read (not timed), then the workers, released together, run
 * the I/O core's timed loop (ioloop.h); time to end goes from the first
 * I/O issued by any worker to the moment the last block has been consumed
 * by every worker.
 */
#ifndef IOSWEEP_RUN_H
#define IOSWEEP_RUN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "io/engines/engine.h"
#include "job/plan.h"
#include "lib/error.h"

/* Latency of one kind of operation (a direction, the flushes). */
struct op_figures {
	double throughput_Bps, iops; /* directions only */
	double lat_mean_ns;
	uint64_t lat_p50_ns, lat_p99_ns, lat_max_ns;
};

/* One interval and direction of a repeat's series. */
struct series_point {
	double start_s;            /* from the start of the repeat */
	int dir;                   /* enum io_dir */
	uint64_t ops, bytes;
	uint64_t lat_p50_ns, lat_p99_ns, lat_max_ns; /* of this interval's own reads */
	double resident;           /* of the file at the interval's start; < 0: unknown */
};

struct repeat_result {
	double time_to_end_s, throughput_Bps, coverage_Bps, iops;
	uint64_t bytes;              /* both directions */
	uint64_t ops[IO_DIRS];       /* completed units per direction (ops[IO_READ]: "reads") */
	uint64_t dir_bytes[IO_DIRS];
	struct op_figures dir[IO_DIRS]; /* per direction */
	uint64_t flushes;            /* fsync/fdatasync/msync calls in the timed loop */
	struct op_figures flush;     /* their latencies */
	double dirty_end_bytes;      /* written but only in memory when the repeat ended
				      * (dirty or under writeback); NAN: unknown or no writes */
	bool dirty_system_wide;      /* that figure is the whole system's (no cachestat) */
	uint64_t verified_bytes;     /* verify=after: bytes read back and found good */
	double start_skew_s;         /* latest first issue of a worker - earliest */
	uint64_t lat_min_ns, lat_p50_ns, lat_p90_ns, lat_p99_ns, lat_p999_ns, lat_max_ns;
	double lat_mean_ns;
	/* rate limit only (NAN without): response time (due -> completion), and how
	 * long after it was due the last unit was issued */
	double resp_p50_ns, resp_p90_ns, resp_p99_ns, resp_p999_ns, resp_max_ns, behind_schedule_s;
	double cpu_user_s, cpu_sys_s;
	uint64_t major_faults, minor_faults, ctx_voluntary, ctx_involuntary;
	double resident_before, resident_after; /* fraction; < 0: unknown */
	bool cache_as_asked;   /* residency before matched the policy */
	uint64_t sum;          /* checksum or integer sum (consume) */
	bool interrupted;      /* cut short by a signal */
	bool runtime_limited;  /* cut short by `runtime` */
	double *thread_time_s; /* time to end of each thread, rank after rank (rank 0
				* holds threads * dist_size() entries, the others their own) */
	double *rank_time_s;   /* time to end of each rank (dist_size() entries on rank 0) */
	/* per interval and direction with reads in the repeat; NULL: no series
	 * (interval 0, a repeat shorter than three intervals, or several ranks) */
	struct series_point *series;
	size_t nseries;
	double series_interval_s;  /* interval asked, doubled at each coarsening */
	unsigned series_coarsened;
};

struct io_snapshot;

struct run_result {
	const struct run *run;
	struct repeat_result *rep; /* measured repeats done */
	size_t nrep;
	size_t nalloc;             /* entries of rep allocated (repeat) */
	bool failed;
	char error[ERR_MAX];
	bool interrupted;          /* a signal stopped it */
	const char *note;          /* the engine's caveat for this run, or NULL */
};

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

void run_result_free(struct run_result *res);

#endif
