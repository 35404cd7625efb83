/*
 * trace.h - a recorded trace as the source of a run's I/O (read_iolog).
 *
 * A trace is fio's iolog, version 2 or 3: a first line "fio version N
 * iolog", then one action a line, "[TIME] FILE add|open|close" or
 * "[TIME] FILE read|write|sync|datasync|trim|wait OFFSET LENGTH" (TIME, in
 * microseconds from the recording's start, in version 3 only; wait, a pause
 * of OFFSET microseconds, in version 2 only).  A version 3 I/O line (read,
 * write, sync, datasync, trim) may carry a sixth field, THREAD: the index of
 * the thread that did it (iosweep record writes it, 0-based in the order of
 * TRACE.meta.json's "threads"; fio reads five fields and ignores the rest).
 *
 * Or blkparse's text output (of blktrace; blkparse -i DEV merges the
 * per-CPU files by time): its queue events (Q) are the I/Os, each device
 * ("8,0") a file of the trace, sectors of 512 bytes, a flush (F without a
 * sector) a sync, a discard a trim; the time is the event's, the thread its
 * PID.
 *
 * Or the kernel's blk tracer's text, recorded without blktrace (tracefs:
 * current_tracer = blk, /sys/block/DEV/trace/enable = 1), its trace file
 * (headed "# tracer: blk") or trace_pipe: ftrace's "TASK-PID [CPU] FLAGS
 * SECONDS.MICROS:" before the event blkparse would write from DEV on
 * ("8,0 Q WS 2048 + 8 [dd]"), read as blkparse's; comments and other
 * tracers' lines are not events; a lost-events line ("CPU:1 [LOST 12
 * EVENTS]") is refused: the trace is not whole.  The thread is TASK-PID's PID.
 *
 * Threads: every I/O line of a trace names its thread, or none does (fio's
 * own iologs); the scan lists them in the order of their first I/O line.
 * With replay_threads each is replayed by a worker of its own, through a
 * reader of its own that streams the whole trace and keeps that thread's
 * lines (trace_reader.thread): N threads, N times the parsing and N
 * buffers.
 *
 * It is read twice, never held whole: trace_scan() reads it once before
 * the plan is made, checks every line (a bad one is TRACE:LINE, before any
 * I/O) and counts what it asks (I/Os, bytes and syncs per kind, the largest
 * length, how far each of its files reaches); the run then streams it
 * through a reader with a fixed buffer (TRACE_BUF_BYTES), parsing a line
 * when the loop draws its unit, as the other patterns compute theirs.  A
 * trace of any length replays in the same memory.
 *
 * A trim line is a unit of the loop like a read or a write: the job's file
 * is trimmed there (fallocate PUNCH_HOLE, or BLKDISCARD on a device), timed
 * into the trim figures, and the job needs the consent a write needs.
 *
 * The trace's files become regions of the one file the job runs on, laid
 * end to end in the order the trace adds them, each as long as the trace
 * reaches into it, rounded up to 4 KiB: file k's offset x is the job file's
 * base[k] + x.  A unit's due time is its TIME less the first I/O's, times
 * 100 / replay_time_scale, after the loop's start: one absolute schedule,
 * so a late unit does not delay the ones after it.
 */
#ifndef IOSWEEP_TRACE_H
#define IOSWEEP_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/pattern.h"

/* trace_scan.version of blkparse's text output and of the kernel's blk
 * tracer's (fio's iologs are 2 and 3). */
#define TRACE_BLKPARSE 1
#define TRACE_BLK_TRACER 4

/* What a line asks; the I/Os and flushes are counted per kind. */
enum trace_act { TRACE_READ, TRACE_WRITE, TRACE_SYNC, TRACE_DATASYNC, TRACE_TRIM, TRACE_ACTS };

extern const char *const trace_act_names[TRACE_ACTS];

/* The largest length one line may ask: bs's bound (job/options.c). */
#define TRACE_MAX_LEN (1ULL << 30)
/* The reader's buffer: lines are parsed from it, and it is refilled with one
 * read(2) when what is left of it is less than a line (a line is at most
 * TRACE_LINE_MAX bytes). */
#define TRACE_BUF_BYTES (1u << 20)
#define TRACE_LINE_MAX 4096
/* The threads a scan tells apart; a trace with more is replayed, but not
 * one worker a thread (replay_threads). */
#define TRACE_THREADS_MAX 256

struct trace_scan {
	int version;                   /* 2 or 3, TRACE_BLKPARSE or TRACE_BLK_TRACER */
	uint64_t lines;                /* lines read, the header included */
	uint64_t n[TRACE_ACTS];        /* lines of each kind */
	uint64_t bytes[TRACE_ACTS];    /* read, write and trim: their lengths added up */
	uint64_t max_len;              /* the longest read or write */
	uint64_t first_us, last_us;    /* TIME (v3) or waits so far (v2) of the first and
					* last read, write or trim */
	size_t nfiles;
	char **names;                  /* the trace's files, in the order they were added */
	uint64_t *reach;               /* how far the reads and writes reach into each */
	uint64_t *base;                /* where each begins in the job's file */
	uint64_t size;                 /* the job's file: every region, end to end */
	size_t nthreads;               /* the threads the I/O lines name, 0: none does */
	uint64_t *tids;                /* each one's id in the trace (a v3 line's THREAD, a
					* PID), in the order of its first I/O line */
	uint64_t *thread_units;        /* each one's reads, writes and trims */
	uint64_t threads_over_line;    /* the first line of a thread beyond
					* TRACE_THREADS_MAX (not counted), or 0 */
};

/* Reads and checks the whole trace at path.  0, or -1 with "PATH:LINE: why"
 * (or "PATH: why") in err; trace_scan_free() is due either way. */
int trace_scan(const char *path, struct trace_scan *s, char *err);
void trace_scan_free(struct trace_scan *s);

/* The recorded time from the first I/O to the last one's issue, in ns. */
static inline uint64_t trace_recorded_ns(const struct trace_scan *s)
{
	return (s->last_us - s->first_us) * 1000;
}

/* A trace being replayed. */
struct trace_reader {
	const struct trace_scan *scan;
	int fd;
	char *buf;                     /* TRACE_BUF_BYTES + 1 */
	size_t pos, len;
	bool eof;
	uint64_t line;                 /* of the line last parsed */
	size_t last_file;              /* the file the last line named: the next one likely */
	uint64_t wait_us;              /* v2: the waits so far */
	unsigned scale_pct;            /* replay_time_scale */
	uint64_t handed[TRACE_ACTS];   /* units and flushes handed to the loop this pass */
	uint64_t handed_bytes[TRACE_ACTS];
	bool bad;                      /* a line that is not what the scan found */
	char error[512];               /* then what it was: "PATH:LINE: why" */
	const char *path;
	int thread;                    /* -1 (trace_reader_open's): every line; k: only
					* those of the scan's thread k (replay_threads) */
};

/* Opens path for replay with scan's findings (after trace_scan() of the same
 * file), every thread's lines (set tr->thread before trace_pattern() for one
 * thread's).  0, or -1 with why in err; trace_reader_close() is due either
 * way. */
int trace_reader_open(struct trace_reader *tr, const char *path, const struct trace_scan *scan,
		      unsigned scale_pct, char *err);
void trace_reader_close(struct trace_reader *tr);

/* Makes p draw its units from tr, from the trace's first line again (not
 * timed: reads the first buffer).  0, or -1 with why in err. */
int trace_pattern(struct pattern *p, struct trace_reader *tr, char *err);

/* At most this many intervals in trace_rate()'s counts. */
#define TRACE_RATE_MAX (1u << 20)

/* The reads and writes tr's trace issues in each interval of *interval_ns
 * of its replay's schedule (due times, replay_time_scale applied): *n
 * counts into *count (malloc'd), *interval_ns doubled until there are at
 * most TRACE_RATE_MAX.  Reads the trace once more (not timed) and leaves
 * the reader to be rewound.  0, or -1 with why in err. */
int trace_rate(struct trace_reader *tr, uint64_t *interval_ns, uint64_t **count, size_t *n,
	       char *err);

#endif
