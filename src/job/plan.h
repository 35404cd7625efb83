/*
 * plan.h - the ordered list of runs a job file asks for.
 *
 * Every list-valued option multiplies its job into one run per value
 * (cartesian product, options in the order they were declared, the first
 * one varying slowest; jobs in file order).  A value that does not apply to
 * a combination (iodepth for an engine that is not queued, spacing for
 * random reads) does not multiply it.  Each run holds typed values only:
 * nothing downstream parses option text again.
 */
#ifndef IOSWEEP_PLAN_H
#define IOSWEEP_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "io/ioloop.h"
#include "io/mdtree.h"
#include "job/job.h"
#include "job/options.h"

#define PLAN_MAX_RUNS 100000

/* How a group of jobs that run together ends (option group_end): when
 * every job has ended, when the first has (the others are cut), or a time
 * after the start line (every job still running is cut). */
enum group_end_kind { GROUP_END_ALL, GROUP_END_FIRST, GROUP_END_TIME };
extern const char *const group_end_names[]; /* "all", "first", "time" */

struct run {
	size_t index;              /* position in the plan */
	const struct job *job;
	union optval v[OPT__COUNT]; /* v[OPT_FILENAME].s is owned by the plan */
	uint64_t reads, bytes;     /* per repeat, all threads together: every I/O, both ways */
	uint64_t write_bytes;      /* of them written (op=readwrite: at most, as each block's
				    * direction is drawn from seed when it comes) */
	uint64_t precond_bytes;    /* precondition: written by its passes, once per run (not
				    * in bytes, write_bytes: not measured) */
	uint64_t set_bytes;        /* a file set (nrfiles > 1): its files' bytes (size is then
				    * each file's, or with filesize drawn the largest's) */
	bool exists;               /* the file exists (else it will be created) */
	bool per_rank;             /* filename had {rank} or {host}: one file per rank */
	bool rank_file;            /* filename had {rank}: no other rank opens it */
	bool blockdev;
	bool cache_default;        /* cache was not set: fadvise, or keep where nothing can be evicted */
	bool ours;                 /* the file exists and iosweep made it */
	bool device;               /* a block device written with the job's consent */
	uint64_t trace_writes;     /* read_iolog: of reads, the trace's writes */
	uint64_t trace_syncs;      /* read_iolog: the trace's syncs and datasyncs */
	uint64_t trace_trims, trace_trim_bytes; /* read_iolog: its trims (not in reads, bytes) */
	uint64_t trace_ns;         /* read_iolog: from its first I/O to its last one's issue */
	/* Jobs that run together (option group): a group run is group_jobs runs
	 * side by side in the plan, one per job of the group in file order
	 * (group_pos), which the runner starts at one start line.  group is
	 * NULL for a job that runs alone. */
	const char *group;
	size_t group_run;          /* which run of its group (0, 1, ...: one per combination
				    * of its jobs' lists) */
	unsigned group_jobs, group_pos;
	enum group_end_kind group_end;
	uint64_t group_time_ns;    /* GROUP_END_TIME: how long after the start line */
	/* offset, offset_increment: the pattern runs over regions of region_len
	 * bytes of the file; region k starts at region_off + k * region_inc.
	 * One region (regions 1) shared by the threads in shares, or one per
	 * thread (regions = threads, when offset_increment is set), each the
	 * whole pattern over its own region.  Without them: one region, the
	 * file (set) from 0. */
	uint64_t region_off, region_inc, region_len;
	unsigned regions;
	/* opendir: the regular files found under it when the plan was made (the
	 * run's units: one a file, read whole; size is their bytes) */
	uint64_t tree_files;
	/* tree: its directories and the files in each (io/mdtree.h); the run's
	 * units are its op's items, the directories or the files */
	uint32_t md_dirs, md_files;
};

_Static_assert(OP_RMDIR - OP_MKDIR == MD_RMDIR && OP_READDIR - OP_MKDIR == MD_READDIR &&
		       OP_SYNCFS - OP_MKDIR == MD_SYNCFS && OP_STATDIR - OP_MKDIR == MD_STATDIR,
	       "op's phases in enum md_op's order");
/* tree: run r's phase (its op). */
static inline enum md_op run_md_op(const struct run *r)
{
	return r->v[OPT_OP].u == OP_READ ? MD_READ : (enum md_op)(r->v[OPT_OP].u - OP_MKDIR);
}
/* tree: the sizes of its files (filesize's text, NULL: 0), drawn from seed
 * (io/bsmix.h): true with m, or false with *fixed. */
bool plan_filesizes(const char *text, uint64_t seed, struct bsmix *m, uint64_t *fixed);
/* tree over `ranks` ranks: how many ranks on each rank's items of r's phase
 * are (shift, for a phase that finds what another made); 0: its own. */
static inline unsigned run_md_shift(const struct run *r, int ranks)
{
	return r->v[OPT_TREE].s && md_op_finds(run_md_op(r)) && ranks > 1
		       ? (unsigned)(r->v[OPT_SHIFT].u % (unsigned)ranks)
		       : 0;
}

/* The bytes a run's pattern covers: its file, or its file set laid end to
 * end (io/fileset.h). */
static inline uint64_t run_set_bytes(const struct run *r)
{
	return r->v[OPT_NRFILES].u > 1 ? r->set_bytes : r->v[OPT_SIZE].u;
}

/* A file set's file sizes: drawn from filesize and seed (returns true, m),
 * else each v[OPT_SIZE] bytes. */
bool plan_set_sizes(const union optval *v, struct bsmix *m);
/* The bytes file k of r's set holds (m from plan_set_sizes when drawn). */
static inline uint64_t run_file_bytes(const struct run *r, const struct bsmix *m, unsigned k)
{
	return m ? bsmix_len(m, 0, k) : r->v[OPT_SIZE].u;
}

/* The bytes each of r's regions holds: the pattern's size. */
static inline uint64_t run_region_bytes(const struct run *r)
{
	return r->regions ? r->region_len : run_set_bytes(r);
}

/* Units [first, end) of run r as a pattern: pattern_init, its
 * random_distribution and its block-size mix (bssplit, bsrange), with r's
 * options; -1 with why only for what the plan refuses (check_distribution,
 * check_mix), so 0 for a planned run. */
struct pattern;
int plan_pattern(const struct run *r, uint64_t first, uint64_t end, struct pattern *p, char *err);

/* Pass p of run r's precondition as a run of its own (*d): r's file, engine,
 * cache, threads and interval, op=write, bs 128 KiB sequential (fill) or r's
 * bs random (random), repeat = p's times, nothing else of r's workload. */
void plan_precond_run(const struct run *r, struct precond_pass p, struct run *d);

/* repeat = auto: at least REPEAT_AUTO_MIN measured repeats (a 95% confidence
 * interval of the median needs 6), then more until that interval is within
 * REPEAT_AUTO_TARGET_PCT of the median, REPEAT_AUTO_MAX repeats were
 * measured, or they took REPEAT_AUTO_BUDGET_S: hyperfine's minimum runs and
 * time, with a stop when the median is known well enough.  The plan counts
 * the minimum. */
enum { REPEAT_AUTO_MIN = 6, REPEAT_AUTO_MAX = 30 };
#define REPEAT_AUTO_MIN_TEXT "6"
_Static_assert(REPEAT_AUTO_MIN == 6, "REPEAT_AUTO_MIN_TEXT says it");
#define REPEAT_AUTO_TARGET_PCT 5.0
#define REPEAT_AUTO_BUDGET_S 60.0

/* The measured repeats run r is planned with: repeat, or for repeat = auto
 * the least it will do. */
static inline uint64_t plan_repeats(const struct run *r)
{
	return r->v[OPT_REPEAT].u ? r->v[OPT_REPEAT].u : REPEAT_AUTO_MIN;
}

/* Who expands the plan: the rank, of how many, and its host name, for
 * {rank} and {host} in file names and for the totals every rank adds to the
 * memory a run needs.  The caller knows (run/dist.h); a plan does not ask. */
struct plan_where {
	int rank, ranks;
	const char *host;
};
#define PLAN_ALONE (&(const struct plan_where){ .rank = 0, .ranks = 1, .host = "" })

/* Combinations of a job's lists that cannot run together (engine=mmap with
 * cache=direct, from engine and cache lists) are skipped, not refused: what
 * was skipped, and how many runs. */
struct plan_skip {
	const struct job *job;
	char what[96];
	uint64_t n;
};

struct plan {
	const struct jobfile *jf;
	struct run *runs;
	size_t n, cap;
	uint64_t total_reads, total_bytes; /* over all runs and measured repeats */
	uint64_t total_write_bytes;
	bool writes;               /* some run writes */
	bool mixed;                /* some run is op=readwrite */
	bool varies[OPT__COUNT];   /* the option takes more than one value in the plan */
	bool sparse;               /* some run has spacing != bs */
	uint64_t mem_available;    /* bytes a run's buffers may take (UINT64_MAX: no bound known) */
	const char *mem_what;      /* where that bound comes from */
	struct plan_where where;
	struct plan_skip *skips;
	size_t nskips;
};

/* Expands the (selected) jobs of jf as where's rank; -1 with
 * "FILE:LINE: message" in err. */
int plan_expand(struct plan *plan, const struct jobfile *jf, const struct plan_where *where,
		char *err);
void plan_free(struct plan *plan);

/* What bounds one repeat of a run: one pass over its units (r->reads); its
 * runtime at its rate, fewer than a pass (or, time_based, any number of
 * passes); or, time_based without a rate, its runtime alone, when how many
 * I/Os it does is not known before it runs. */
enum plan_bound { BOUND_PASS, BOUND_RATE, BOUND_RUNTIME };

/* Run r's bound, the I/Os it is expected to do in a repeat (*units: r->reads
 * for BOUND_PASS, runtime x rate for BOUND_RATE, 0 for BOUND_RUNTIME) and,
 * under a rate limit, how long that takes at the rate (*seconds; 0 without
 * a rate). */
enum plan_bound plan_run_bound(const struct run *r, uint64_t *units, double *seconds);

/* What one repeat of a run reads and writes, in I/Os and bytes: for a run
 * bounded by its rate, the share of one pass's that the rate allows (more
 * than one pass when time_based); for one bounded by runtime alone, one
 * pass's, and bound says they are not a bound. */
struct plan_dirs {
	uint64_t reads, writes, read_bytes, write_bytes;
	uint64_t trims, trim_bytes; /* op=trim, trimwrite (each block trimmed, then written) */
	enum plan_bound bound;
};

/* The reads and writes of one repeat of run r (all threads and, on a
 * shared file, all ranks together).  op=readwrite draws each block's
 * direction from the seed and its offset (data.h): they are counted by
 * going over the run's blocks once, as the run will, so the split is
 * exact, at the cost of one draw per block. */
void plan_run_dirs(const struct run *r, struct plan_dirs *d);
/* Adds n repeats of d to *total. */
void plan_dirs_add(struct plan_dirs *total, const struct plan_dirs *d, uint64_t n);

/* The memory run r holds while it runs, as rank of ranks (the totals'
 * gather on rank 0), by what holds it; plan_expand() refuses a run whose
 * total does not fit in plan->mem_available. */
void plan_run_memory(const struct run *r, int ranks, struct io_memory *m);

/* The text of option id's cell in a row for run r: its value, or "" where it
 * does not apply.  Returns buf. */
const char *plan_cell(const struct run *r, enum opt_id id, char *buf, size_t n);

/* Whether reports give option id a column: it varies, and is not spacing
 * that merely follows bs. */
bool plan_column(const struct plan *plan, enum opt_id id);
/* Whether option id is the same in every run and worth saying above a
 * plan or a table (plan_print_constants). */
bool plan_constant(const struct plan *plan, enum opt_id id);

#endif
