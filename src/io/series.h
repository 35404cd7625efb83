/*
 * series.h - what happened inside a repeat, interval by interval.
 *
 * A worker's series has a fixed number of slots, each an interval of time
 * with, per direction, its units, bytes and a latency histogram of its own,
 * so that an interval's percentiles are computed from its own samples
 * (never averaged from anything).  Everything is allocated before the
 * repeat; counting is an add and a compare, and at an interval boundary
 * a division.  A repeat longer than the slots allow is coarsened: adjacent
 * pairs of slots are merged and the interval doubles (said in the result),
 * so memory stays bounded.  Workers' series are merged after the repeat on
 * the same time grid (the coarsest interval of them).
 */
#ifndef IOSWEEP_SERIES_H
#define IOSWEEP_SERIES_H

#include <stdbool.h>
#include <stdint.h>

#include "io/engines/engine.h"
#include "io/steady.h"
#include "lib/hist.h"

#define SERIES_SLOTS 32
/*
 * The shortest interval a job may ask for (0 aside: no series).  Each
 * boundary costs the loop a publication for the progress line and a flush
 * of the batched latencies (about 3 us with the caches they evict), each
 * coarsening merges 32 slots of histograms (40-100 us), and a repeat pays
 * up to one boundary per interval and a coarsening at every doubling: at
 * most about 3 us / interval + 100 us / (64 intervals).  Measured on the
 * development VM (cached 4 KiB reads, 0.25 to 64 MiB, the fastest tenth of
 * alternating repeats): 1 ns, 14 to 22 coarsenings, made the time to end
 * 1.1 to 4.6 times that of interval = 0; 100 us cost 2 to 3%, 250 us 1 to
 * 1.5%, 1 ms nothing the noise (1-2%) showed.  1 ms keeps the worst case
 * near 0.5%, with room under the 3% a series may cost.
 */
#define SERIES_MIN_INTERVAL_NS 1000000ULL
/* A run with more threads has no series: each thread's slots hold
 * 2 * SERIES_SLOTS histograms (about 2.2 MiB). */
#define SERIES_MAX_THREADS 64

struct series_slot {
	uint64_t ops[IO_DIRS], bytes[IO_DIRS];
	double resident;          /* page-cache share of the file at the slot's start; < 0: unknown */
	struct hist *h[IO_DIRS];
	/* under a rate limit (series_init_resp), else NULL and 0: response times
	 * (due -> completion), and units issued more than IO_LATE_NS after due */
	struct hist *resp[IO_DIRS];
	uint64_t late[IO_DIRS];
};

/*
 * The live view: the latest interval a worker completed, for the progress
 * line (another thread).  A triple buffer: the worker fills iv[back] at an
 * interval boundary and swaps it with the middle one, the reader swaps the
 * middle one with iv[front] when it is new.  The swaps are atomic and each
 * buffer belongs to one side at a time, so neither ever reads what the
 * other is writing, and the worker never waits.
 */
struct series_live_iv {
	uint64_t repeat;          /* the worker's repeat number (series_live.repeat) */
	uint64_t end_ns, len_ns;  /* the interval, from the series' t0 */
	uint64_t bytes;           /* both directions */
	bool last;                /* the worker's loop ended in it (it did not go on after) */
	struct hist *lat;         /* latencies of its units, both directions */
};

#define SERIES_LIVE_BUFS 3

struct series_live {
	struct series_live_iv iv[SERIES_LIVE_BUFS];
	unsigned middle;          /* atomic: index of the middle buffer, | SERIES_LIVE_NEW */
	unsigned back, front;     /* the worker's; the reader's */
	uint64_t repeat;          /* atomic: repeats the worker started (0: none) */
};

/*
 * What to watch for at every boundary (not timed beyond the arithmetic):
 * a steady state, the window of complete intervals that ends there judged
 * (steady.h), and/or a cliff, the complete intervals so far searched for a
 * lasting change of throughput or mean latency (steady_cliffs_in).  Once
 * either is found the loop stops (ioloop.c).  Judged at the interval asked
 * only: such a job never has more intervals than slots (plan.c).
 */
struct series_watch {
	bool steady;              /* ss: metric, dir and spec */
	enum steady_metric metric;
	int dir;                  /* IO_READ, IO_WRITE, or -1: both together */
	struct steady_spec spec;  /* window and ramp in intervals */
	bool cliff;               /* stop_at_cliff */
	unsigned from;            /* the first interval after the job's startdelay (rounded
				   * up): those before are the group's, not the job's */
};

struct series {
	uint64_t t0_ns;           /* start of slot 0 */
	uint64_t interval_ns;     /* as asked, times 2^coarsened */
	uint64_t next_ns;         /* end of the current slot */
	unsigned cur;             /* the current slot */
	unsigned coarsened;       /* times pairs were merged */
	int fd;                   /* residency at boundaries: a file to ask cachestat about, or -1 */
	uint64_t size;
	uint64_t resid_cost_ns;   /* what asking it once took (at series_start) */
	uint64_t resid_every;     /* it is asked at every resid_every-th boundary only */
	struct series_live *live; /* published at every boundary, or NULL */
	const struct series_watch *watch; /* what to watch for, or NULL */
	bool attained;            /* the watch's steady state was attained */
	bool cliffed;             /* the watch's cliff was found */
	bool ended;               /* either: the loop ends at its next unit */
	struct series_slot slot[SERIES_SLOTS];
};

/* Whether a run keeps series: an interval asked, one host (merging them
 * across ranks is not done) and SERIES_MAX_THREADS threads at most. */
static inline bool series_on(uint64_t interval_ns, uint64_t threads, int ranks)
{
	return interval_ns && ranks == 1 && threads <= SERIES_MAX_THREADS;
}

/* The number of intervals of interval_ns that start before t_ns from the
 * start of slot 0: a job's startdelay fills that many, the job's own
 * intervals start after them (ioloop.c). */
static inline uint64_t series_slots_before(uint64_t t_ns, uint64_t interval_ns)
{
	return (t_ns + interval_ns - 1) / interval_ns;
}

/* The memory of one series (the struct and what series_init() allocates)
 * and of one live view (series_live_init()), in bytes. */
uint64_t series_bytes(void);
uint64_t series_live_bytes(void);
/* What series_init_resp() adds to a series, in bytes. */
uint64_t series_resp_bytes(void);

/* Allocates the slots' histograms (not timed).  -1 on out of memory;
 * series_free() is due either way. */
int series_init(struct series *s);
/* After series_init, for a run with a rate limit: the slots' response-time
 * histograms (not timed).  -1 on out of memory; series_free() frees them. */
int series_init_resp(struct series *s);
void series_free(struct series *s);
/* Empties the series for a repeat starting at t0_ns, with intervals of
 * interval_ns (> 0).  With s->fd >= 0 (set once, -1 by series_init), the
 * residency of its first s->size bytes is read at the boundaries
 * (cachestat only; unknown without it): at every one, or at every
 * resid_every-th where one look costs more than 1% of an interval.  With
 * s->live set (by the owner,
 * NULL by series_init), every boundary publishes the interval that ended
 * there, and this starts a new repeat for the reader. */
void series_start(struct series *s, uint64_t t0_ns, uint64_t interval_ns);

/* Moves slot 0 to start at t0_ns: series_start() empties the slots before
 * the timed loop, this sets its start once it has one. */
static inline void series_origin(struct series *s, uint64_t t0_ns)
{
	s->t0_ns = t0_ns;
	s->next_ns = t0_ns + s->interval_ns;
}

void series_advance(struct series *s, uint64_t t_ns);

/* One unit of dir, moving bytes, counted in the current slot (after
 * series_advance() when it completed at or after s->next_ns); its latency
 * goes to series_hist().  The I/O loop records latencies in batches
 * (ioloop.c); series_record() is the same for one unit at once. */
static inline void series_count(struct series *s, int dir, uint64_t bytes)
{
	s->slot[s->cur].ops[dir]++;
	s->slot[s->cur].bytes[dir] += bytes;
}

static inline struct hist *series_hist(struct series *s, int dir)
{
	return s->slot[s->cur].h[dir];
}

/* One unit of dir that completed at t_ns after lat_ns, moving bytes. */
static inline void series_record(struct series *s, int dir, uint64_t t_ns, uint64_t lat_ns,
				 uint64_t bytes)
{
	if (__builtin_expect(t_ns >= s->next_ns, 0))
		series_advance(s, t_ns);
	series_count(s, dir, bytes);
	hist_record(series_hist(s, dir), lat_ns);
}

/* The figure a watch judges of one slot (interval_ns long): units or bytes
 * per second, or mean latency in ns (NAN for an interval without a unit). */
double series_value(const struct series_slot *sl, enum steady_metric m, int dir,
		    uint64_t interval_ns);
/* The watch's verdict on the complete slots [0, n): the first window
 * attained, or the last judged; crit as steady_judge(). */
void series_judge(const struct series *s, unsigned n, struct steady_verdict *v, double *crit);

/* The live view's buffers (not timed): -1 on out of memory; series_live_free()
 * is due either way. */
int series_live_init(struct series_live *l);
void series_live_free(struct series_live *l);
/* The worker: its loop ended at t_ns; publishes the interval it ended in. */
void series_live_end(struct series *s, uint64_t t_ns);
/* The reader: the latest interval published in the worker's current repeat,
 * or NULL.  It stays the reader's until the next call. */
const struct series_live_iv *series_live_take(struct series_live *l);

/* Number of slots with something in them, or before one that has: the
 * slots a report shows. */
unsigned series_used(const struct series *s);
/* Adds src into dst (both started): the finer of the two is coarsened to
 * the other's interval first.  Slots are aligned on their own t0 (the
 * workers of a repeat start together). */
void series_merge(struct series *dst, struct series *src);
/* Merges adjacent pairs of slots: the interval doubles. */
void series_coarsen(struct series *s);

#endif
