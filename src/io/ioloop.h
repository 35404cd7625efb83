/*
 * ioloop.h - the I/O core: the one timed loop every engine runs under.
 *
 * A worker is one thread's share of a run.  The loop draws the next offset
 * from the worker's pattern, takes a free I/O unit, gives it to the
 * engine's queue() (committing each one at once: fio's default
 * iodepth_batch_submit=1), and reaps completions when every unit is busy or
 * the pattern is done.  It alone stamps times (CLOCK_MONOTONIC), records
 * latency, continues short transfers, retries EINTR, rounds O_DIRECT
 * requests to whole logical blocks, honours stop and deadline, and runs the
 * consume step inside the timed region.
 *
 * Definitions, the same for every engine:
 *   issue      the moment a unit is handed to the engine (first attempt);
 *   completion the moment the engine's result is seen (for a queued engine
 *              once per reaped batch);
 *   latency    completion - issue;
 *   t_first_ns the issue of the worker's first unit;
 *   t_last_ns  the moment the worker's last counted unit has been consumed
 *              (consume step included; for a stopped worker, before it
 *              waits for the units still in flight, which are not counted).
 * A worker's time to end is t_last_ns - t_first_ns.
 *
 * Under a rate limit the schedule is open-loop: unit i of a repeat is due
 * i * period_ns after the loop starts, whatever happened to the units before
 * it.  A unit is not issued before it is due; when the device falls behind,
 * it is issued late.  Then, besides latency (service: issue -> completion),
 *   response   completion - due,
 * which counts the wait a slow unit caused the units due after it
 * (coordinated omission); hist has the one, resp_hist the other.  A replayed
 * trace (read_iolog, io/trace.h) is the same loop with each unit's due time
 * its pattern's (pat.due_ns after the start), its direction the trace's, and
 * its syncs flushes made once the units before them are done.
 */
#ifndef IOSWEEP_IOLOOP_H
#define IOSWEEP_IOLOOP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "io/consume.h"
#include "io/data.h"
#include "io/dirscan.h"
#include "io/engines/engine.h"
#include "io/fileset.h"
#include "io/mdtree.h"
#include "io/pattern.h"
#include "io/series.h"
#include "lib/hist.h"

/* The values of the job options `op` and `sync`, in their order (job/options.c). */
enum op_kind { OP_READ, OP_WRITE, OP_READWRITE, OP_TRIM, OP_TRIMWRITE,
	       /* the metadata phases of a tree iosweep makes (io/mdtree.h), in
		* enum md_op's order from mkdir (read is OP_READ there) */
	       OP_MKDIR, OP_CREATE, OP_FSYNC, OP_STAT, OP_READDIR, OP_RENAME, OP_UNLINK,
	       OP_RMDIR, OP_FSYNCDIR, OP_SYNCFS, OP_STATDIR };

/*
 * Discard (op=trim, and op=trimwrite: each block trimmed, then written, as
 * fio's rw=trimwrite).  A trim is a synchronous call in every engine: no
 * engine here has a discard unit (libaio has none; io_uring's only came
 * with kernel 6.12's block-device commands, which liburing here does not
 * have), so the core makes the call itself, timed issue -> return like any
 * unit: BLKDISCARD on a block device, fallocate(PUNCH_HOLE | KEEP_SIZE) on
 * a file (io_trim_device, io_trim_file).  A trim is neither read nor
 * written: it has its own count, bytes and latency, as the flushes do.
 */
typedef int (*io_trim_fn)(int fd, uint64_t off, uint64_t len);
int io_trim_device(int fd, uint64_t off, uint64_t len);
int io_trim_file(int fd, uint64_t off, uint64_t len);
enum sync_kind { SYNC_NONE, SYNC_END, SYNC_FSYNC, SYNC_FDATASYNC, SYNC_DSYNC, SYNC_OSYNC };
/* The values of `sync_mode`: how a flush every sync_every writes is issued. */
enum sync_mode { SYNC_MODE_DRAIN, SYNC_MODE_INFLIGHT };

/* Under a rate limit, a unit issued more than this long after it was due is late. */
#define IO_LATE_NS 1000000ULL

/* What a worker is asked to do; set by the runner (pat per repeat). */
struct io_inputs {
	const struct engine_ops *ops;
	struct pattern pat;          /* this worker's share of the units */
	uint64_t align_mask;         /* O_DIRECT: logical block size - 1; else 0 */
	uint64_t runtime_ns;         /* stop issuing after this long; 0: no limit */
	double period_ns;            /* rate limit: ns between due times; 0: no limit */
	double phase;                /* rate limit: unit i is due (i + phase) periods after the
				      * start; worker k of n (over every rank) has k / n, so
				      * that the job's units are due evenly, not n at once */
	uint64_t interval_ns;        /* series: the interval asked; 0: no series */
	bool wrap;                   /* time_based: a done pattern starts again */
	uint64_t ramp_ns;            /* time_based: unmeasured time before runtime_ns */
	uint64_t delay_ns;           /* startdelay: idle time before the loop, in no figure;
				      * the series still starts where the wait began */
	volatile atomic_int *stop;   /* set by a signal handler or another thread */
	/* writes (op=write or readwrite; gen NULL for reads): each unit's
	 * direction, the data it writes (produced inside the timed region,
	 * before the unit is issued), and when writes are made durable */
	const struct data_gen *gen;
	enum op_kind op;
	unsigned rwmixread;          /* op=readwrite: percent of units read */
	enum sync_kind sync;         /* none, end: one flush after the last unit; fsync,
				      * fdatasync: every sync_every writes and at the end */
	uint64_t sync_every;         /* UINT64_MAX: no flush in the loop */
	struct fileset_map set;      /* a file set: which file each unit goes to; set.n == 0:
				      * one file, e->fd */
	bool trace_timed;            /* read_iolog: unit i is due pat.due_ns after the loop's
				      * start (trace.h), as under a rate limit */
	bool sync_inflight;          /* sync_mode=inflight: the flush is a unit queued with
				      * the others in flight (the engine's own, ENGINE_FLUSH_QUEUED),
				      * not a call made once the queue has drained */
	/* thinktime: after every think_blocks units begun, before the next, the
	 * loop waits for those in flight, then spins think_spin_ns and sleeps
	 * the rest of think_ns (fio's thinktime, thinktime_spin,
	 * thinktime_blocks): inside the time to end, outside every latency.
	 * think_ns 0: none (a copy of the loop without it) */
	uint64_t think_ns, think_spin_ns, think_blocks;
	io_trim_fn trim;             /* op=trim, trimwrite: how a block is trimmed; else NULL */
	/* opendir: unit k (its offset) is file tree_order[k] of the tree,
	 * opened, read whole bs at a time through the engine (one that
	 * completes in queue) and closed, timed issue -> close as one read of
	 * the file's bytes (tree_unit in ioloop.c); NULL: not a tree */
	const struct dirscan *tree;
	const uint32_t *tree_order;
	/* tree: unit k (its offset) is item k of phase md_op on md (mdtree.h),
	 * timed issue -> return as one unit, a write when the phase changes
	 * the tree (a read else), of the bytes it wrote or read; NULL: none */
	const struct mdtree *md;
	enum md_op md_op;
};

/* What a worker measured in one repeat. */
struct io_results {
	uint64_t ops[IO_DIRS], bytes[IO_DIRS]; /* completed units, per direction */
	uint64_t t_first_ns, t_last_ns;        /* see the definitions above */
	uint64_t t_last_issue_ns;              /* the issue of the last unit begun */
	uint64_t sum;                          /* the consume result */
	uint64_t flushes;                      /* fsync/fdatasync/msync calls made */
	uint64_t thinks;                       /* thinktime: think periods taken */
	uint64_t trims, trim_bytes;            /* trims completed, and their bytes */
	uint64_t tree_skipped[DIRSCAN__SKIPS]; /* opendir: files not read, by why */
	bool truncated;                        /* stopped by runtime or a signal */
	uint64_t behind_ns;                    /* rate limit: the last unit issued this
						* long after it was due */
	uint64_t behind_max_ns;                /* rate limit: the latest any unit was issued */
	uint64_t late;                         /* rate limit: units issued more than
						* IO_LATE_NS after they were due */
	/* a failed unit: error_what is set ("read", "unexpected end of file"),
	 * error is its errno or 0 when there is none (end of file) */
	int error;
	uint64_t error_off;
	const char *error_what;
};

/* Published for the progress line, which reads it from another thread:
 * atomics, and the live view's buffers (series.h). */
struct io_snapshot {
	uint64_t bytes;          /* of this repeat, all directions */
	uint64_t t0_ns;          /* when this repeat's loop started; 0: not yet */
	struct series_live live; /* with a series: its latest interval */
};

/* Latencies recorded at once, then bucketed together (see ioloop.c). */
#define IO_LAT_BATCH 64

struct io_worker {
	struct io_inputs in;
	struct io_engine eng;        /* the engine's view of the worker, and its state */
	struct consume cons;         /* the consume step and its state */
	struct hist *hist;           /* latencies of this repeat (added up after the loop) */
	struct hist *dir_hist[IO_DIRS]; /* the same, per direction (recorded here without a
					 * series, else added up from its intervals) */
	struct hist *flush_hist;     /* latencies of the flushes */
	struct hist *trim_hist;      /* latencies of the trims */
	struct hist *resp_hist;      /* response times of this repeat (rate limit) */
	struct series *series;       /* per interval (interval_ns), or NULL */
	struct hist *late_hist;      /* read_iolog: issue lateness (issue - due) of this repeat;
				      * the runner's, or NULL: not kept */
	uint64_t measure_ns;         /* units completed before this are not counted (ramp) */
	struct io_results res;
	uint64_t lat[IO_LAT_BATCH];  /* latencies not yet in a histogram, as 2 * ns + direction */
	unsigned nlat;
	struct io_snapshot *snap;    /* published: the runner's, for the progress line */
	struct dirscan_reader reader; /* opendir: how this worker opens the tree's files */
	unsigned *free_units;        /* stack of free unit numbers */
	unsigned *retry_units;       /* units whose remainder is to be queued again */
	unsigned min_batch;          /* completions to wait for while the queue is full */
	bool engine_ready;           /* setup succeeded: teardown is due */
	bool produce;                /* writes need data_produce() */
	bool rated;                  /* in.period_ns > 0 or in.trace_timed */
};

/*
 * Prepares a worker for a whole run (not timed): e's shape (fd, size, bs,
 * iodepth, dir, direct, sparse, hint, knobs) must be set; allocates the
 * units, their buffers (touched, so their page faults are not measured) and
 * the histogram, then runs the engine's setup.  snap is where the worker
 * publishes its progress.  -1 with a message in err;
 * ioloop_free() is due either way.
 */
int ioloop_init(struct io_worker *w, const struct engine_ops *ops, const struct io_engine *shape,
		enum consume_kind consume, struct io_snapshot *snap, char *err);
void ioloop_free(struct io_worker *w);

/* A worker's histograms: latency, per direction (2), flushes, response
 * times, trims.  The runner's totals are one of each. */
#define IO_HISTS 6

/* The memory a run holds while it runs, in bytes, by what holds it. */
enum io_mem_part {
	IO_MEM_BUFFERS, /* the units' buffers */
	IO_MEM_HISTS,   /* latency histograms: the workers', the totals, rank 0's gather */
	IO_MEM_SERIES,  /* the series: the workers', their live views, their sum */
	IO_MEM_ENGINE,  /* the engines' state: rings, contexts, mapped file pages */
	IO_MEM_OTHER,   /* the units' bookkeeping, per-worker records, data to write */
	IO_MEM__COUNT
};

struct io_memory {
	uint64_t part[IO_MEM__COUNT];
};

/* The parts' names, for messages: "buffers", "histograms", ... */
extern const char *const io_mem_part_names[IO_MEM__COUNT];

static inline uint64_t io_memory_total(const struct io_memory *m)
{
	uint64_t sum = 0;

	for (int k = 0; k < IO_MEM__COUNT; k++)
		sum += m->part[k];
	return sum;
}

static inline enum io_mem_part io_memory_largest(const struct io_memory *m)
{
	enum io_mem_part big = IO_MEM_BUFFERS;

	for (int k = 0; k < IO_MEM__COUNT; k++)
		if (m->part[k] > m->part[big])
			big = (enum io_mem_part)k;
	return big;
}

/* What a run's memory depends on besides its workers' shape. */
struct io_run_shape {
	unsigned threads;
	int ranks;
	bool series;      /* every worker keeps a series (series_on) */
	bool rated;       /* a rate limit: the series keep response times too */
	bool data;        /* writes or verify=after: a data generator of data_kind */
	enum data_kind data_kind;
	bool verify;      /* verify=after: a block to read back into */
};

/* Adds to *m what ioloop_init() allocates for a worker of this shape (e's
 * fields as ioloop_init() takes them; the span its share covers), its
 * engine's state (engine_ops.state_bytes) and, with a series, its series
 * and live view, computed by the functions that size those allocations. */
void ioloop_worker_memory(const struct engine_ops *ops, const struct io_engine *shape, bool series,
			  struct io_memory *m);
/* Adds to *m what a whole run holds: run->threads workers of this shape
 * (the largest share's) and what the runner holds besides them. */
void ioloop_run_memory(const struct engine_ops *ops, const struct io_engine *shape,
		       const struct io_run_shape *run, struct io_memory *m);

/* Before a repeat (not timed): the engine's hints, or posix_fadvise of
 * e->hint when the engine has no advise(); nothing with O_DIRECT, which
 * does not go through the page cache. */
int ioloop_advise(struct io_worker *w, char *err);

/* The direction of the unit at file offset off in an op=readwrite run:
 * fixed per offset by the seed, rwmixread percent of them reads. */
static inline enum io_dir io_mix_dir(const struct data_gen *g, unsigned rwmixread, uint64_t off)
{
	return data_draw_percent(g, off) < rwmixread ? IO_READ : IO_WRITE;
}

/* The timed loop over w->in.pat: 0, or -1 with w->res.error* set. */
int ioloop_run(struct io_worker *w);

/* After a repeat (not timed): the engine lets go of the file's pages, so
 * that the next repeat's cache policy can evict them. */
void ioloop_finish(struct io_worker *w);

/* The one clock every time of the loop is read from. */
static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The pattern's blocks done and their bytes: the units completed in both
 * directions, or the trims where there are more of them (op=trim; a
 * trimwrite block is trimmed, then written: one block). */
static inline uint64_t io_results_ops(const struct io_results *r)
{
	uint64_t rw = r->ops[IO_READ] + r->ops[IO_WRITE];

	return r->trims > rw ? r->trims : rw;
}

static inline uint64_t io_results_bytes(const struct io_results *r)
{
	uint64_t rw = r->bytes[IO_READ] + r->bytes[IO_WRITE];

	return r->trim_bytes > rw ? r->trim_bytes : rw;
}

#endif
