/*
 * repeat.h - what one measured repeat of a run adds up to: its figures,
 * per direction and for the flushes, and its series.  Filled by the run
 * floor (tally.c), read by the reporters.
 */
#ifndef IOSWEEP_REPEAT_H
#define IOSWEEP_REPEAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/engines/engine.h"

/* Latency of one kind of operation (a direction, the flushes, the trims). */
struct op_figures {
	double throughput_Bps, iops; /* directions and trims only */
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
	/* rate limit only (NAN without): this interval's response-time p99 and max,
	 * and its units issued more than 1 ms after they were due */
	double resp_p99_ns, resp_max_ns, late_ops;
	/* what the block device under the file did in the interval, read at its
	 * boundaries (NAN: no figure, as for a repeat's): this direction's
	 * requests completed, bytes and mean time per request (await); the
	 * device's busy time and mean queue depth, both directions */
	double dev_ios, dev_bytes, dev_await_ns, dev_busy_s, dev_queue_depth;
};

/* The headline figures of a steady window, from its intervals' counts and
 * latencies (both directions, or one); NAN where the window was not attained
 * or moved nothing that way. */
struct window_figures {
	double throughput_Bps, iops, lat_mean_ns, lat_p50_ns, lat_p99_ns;
};

/* A steady state asked (ss): the verdict over the repeat's complete
 * intervals, judged as the loop judged them (io/steady.h). */
struct steady_result {
	bool asked, attained;
	double window_start_s, window_end_s; /* the window attained, or judged last */
	double mean, ci95;         /* the window's figure (metric's unit) */
	double criterion, slope;   /* of that window */
	struct window_figures win;            /* the attained window's, both directions */
	struct window_figures win_dir[IO_DIRS]; /* and per direction */
	double *crit;              /* each interval's round: the criterion of the window
				    * ending with it, NAN where none did; ncrit values */
	size_t ncrit;
};

/* A lasting change of level in the series (io/steady.h). */
struct cliff_result {
	int figure;                /* CLIFF_THROUGHPUT or CLIFF_LATENCY */
	double at_s;               /* start of the first interval of the new level */
	uint64_t at_bytes;         /* bytes moved before it */
	double before, after;      /* the levels: bytes/s or mean latency in ns */
};

enum { CLIFF_THROUGHPUT, CLIFF_LATENCY };
#define REPEAT_CLIFFS 8

struct repeat_result {
	double time_to_end_s, throughput_Bps, coverage_Bps, iops;
	uint64_t bytes;              /* both directions */
	uint64_t ops[IO_DIRS];       /* completed units per direction (ops[IO_READ]: "reads") */
	uint64_t dir_bytes[IO_DIRS];
	struct op_figures dir[IO_DIRS]; /* per direction */
	uint64_t flushes;            /* fsync/fdatasync/msync calls in the timed loop */
	struct op_figures flush;     /* their latencies */
	uint64_t trims, trim_bytes;  /* op=trim, trimwrite: discards done, and their bytes */
	struct op_figures trim;      /* their latencies, throughput and IOPS */
	double dirty_end_bytes;      /* written but only in memory when the repeat ended
				      * (dirty or under writeback); NAN: unknown or no writes */
	bool dirty_system_wide;      /* that figure is the whole system's (no cachestat) */
	uint64_t verified_bytes;     /* verify=after: bytes read back and found good */
	/* opendir (NAN otherwise): files the repeat could not open (gone,
	 * unreadable, a special file since the scan: dirscan.h), and the
	 * kernel's dentries and inodes in use (/proc/sys/fs/dentry-state,
	 * inode-nr) before the repeat and how many more there were after it: a
	 * cold tree's lookups add about one of each per file */
	double files_skipped;
	double dentries_before, dentries_added, inodes_before, inodes_added;
	double start_skew_s;         /* latest first issue of a worker - earliest */
	double first_done_s;         /* earliest end of a worker that did something -
				      * earliest first issue (elbencho's first done; the
				      * time to end is the last done); NaN with one */
	uint64_t lat_min_ns, lat_p50_ns, lat_p90_ns, lat_p99_ns, lat_p999_ns, lat_max_ns;
	double lat_mean_ns;
	/* rate limit only (NAN without): response time (due -> completion), and how
	 * long after it was due the last unit was issued */
	double resp_p50_ns, resp_p90_ns, resp_p99_ns, resp_p999_ns, resp_max_ns, behind_schedule_s;
	/* rate limit only (NAN without): the longest any unit was issued after it was
	 * due, and how many were issued more than IO_LATE_NS after */
	double behind_max_s, late_ops;
	/* the mean number of units (reads, writes, flushes) in flight per thread over
	 * its time to end (Little's law: the sum of their latencies / that time) */
	double mean_depth;
	double cpu_user_s, cpu_sys_s;
	uint64_t major_faults, minor_faults, ctx_voluntary, ctx_involuntary;
	double resident_before, resident_after; /* fraction; < 0: unknown */
	/* what the block device under the file did between the samples taken just
	 * before and just after the timed part (io/devstat.h), NAN where there is
	 * no figure: no block device, several ranks, counters unreadable or gone
	 * backwards.  The amplifications are device bytes / the run's bytes (NAN:
	 * the run moved none that way); the excess, the device bytes beyond what
	 * the run can explain (devstat_excess) */
	double dev_reads, dev_writes, dev_read_bytes, dev_write_bytes;
	double dev_read_merges, dev_write_merges, dev_busy_s, dev_queue_depth;
	double dev_read_await_ns, dev_write_await_ns, dev_read_amp, dev_write_amp;
	double dev_read_excess_bytes, dev_write_excess_bytes;
	bool cache_as_asked;   /* residency before matched the policy */
	uint64_t sum;          /* checksum or integer sum (consume) */
	bool interrupted;      /* cut short by a signal, or by a failed I/O (kept_failed) */
	bool kept_failed;      /* an I/O failed in it: the units done before are kept */
	bool runtime_limited;  /* cut short by `runtime` */
	bool cliff_stopped;    /* ended at its first cliff (stop_at_cliff) */
	/* a job of a group (plan.h): cut by the group's end rule (another job
	 * ended first, or the group's time came), and the start skew of the
	 * whole group: the latest first I/O of any of its workers less the
	 * earliest (0 alone) */
	bool group_cut;
	double group_start_skew_s;
	double *thread_time_s; /* time to end of each thread, rank after rank (rank 0
				* holds threads * dist_size() entries, the others their own) */
	double *rank_time_s;   /* time to end of each rank (dist_size() entries on rank 0) */
	/* per interval and direction with reads in the repeat; NULL: no series
	 * (interval 0, a repeat shorter than three intervals, or several ranks) */
	struct series_point *series;
	size_t nseries;
	double series_interval_s;  /* interval asked, doubled at each coarsening */
	unsigned series_coarsened;
	struct steady_result steady;
	struct cliff_result cliffs[REPEAT_CLIFFS]; /* in order of time */
	size_t ncliffs;	/* read_iolog only (replay false without): what the trace recorded, to
	 * set beside what was replayed (ops, dir_bytes, flushes); the issue
	 * lateness of the units (issue - due; NAN replayed as fast as possible);
	 * the recorded time from the first I/O to the last one's issue, and the
	 * same span replayed (the first issue to the last); replay_cut: a bad
	 * line stopped the replay, which is kept as far as it went */
	bool replay, replay_cut;
	uint64_t rec_ops[IO_DIRS], rec_bytes[IO_DIRS], rec_syncs, rec_trims, rec_trim_bytes;
	double rec_span_s, replay_span_s;
	double late_p50_ns, late_p99_ns, late_max_ns;
	/* with a series: per interval of rate_interval_s (the series', or longer),
	 * the I/Os the trace issued in it (due times) and those that completed */
	struct replay_point {
		double start_s;
		uint64_t recorded, replayed;
	} *replay_rate;
	size_t nreplay_rate;
	double rate_interval_s;
};

#endif
