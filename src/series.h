/*
 * series.h - what happened inside a repeat, interval by interval.
 *
 * A worker's series has a fixed number of slots, each an interval of time
 * with, per direction, its units, bytes and a latency histogram of its own,
 * so that an interval's percentiles are computed from its own samples
 * (never averaged from anything).  Everything is allocated before the
 * repeat; recording is an add and a compare, and at an interval boundary
 * a division.  A repeat longer than the slots allow is coarsened: adjacent
 * pairs of slots are merged and the interval doubles (said in the result),
 * so memory stays bounded.  Workers' series are merged after the repeat on
 * the same time grid (the coarsest interval of them).
 */
#ifndef IOSWEEP_SERIES_H
#define IOSWEEP_SERIES_H

#include <stdint.h>

#include "engine.h"
#include "hist.h"

#define SERIES_SLOTS 32
/* A run with more threads has no series: each thread's slots hold
 * 2 * SERIES_SLOTS histograms (about 2.2 MiB). */
#define SERIES_MAX_THREADS 64

struct series_slot {
	uint64_t ops[IO_DIRS], bytes[IO_DIRS];
	double resident;          /* page-cache share of the file at the slot's start; < 0: unknown */
	struct hist *h[IO_DIRS];
};

struct series {
	uint64_t t0_ns;           /* start of slot 0 */
	uint64_t interval_ns;     /* as asked, times 2^coarsened */
	uint64_t next_ns;         /* end of the current slot */
	unsigned cur;             /* the current slot */
	unsigned coarsened;       /* times pairs were merged */
	int fd;                   /* residency at boundaries: a file to ask cachestat about, or -1 */
	uint64_t size;
	struct series_slot slot[SERIES_SLOTS];
};

/* Allocates the slots' histograms (not timed).  -1 on out of memory;
 * series_free() is due either way. */
int series_init(struct series *s);
void series_free(struct series *s);
/* Empties the series for a repeat starting at t0_ns, with intervals of
 * interval_ns (> 0).  With s->fd >= 0 (set once, -1 by series_init), the
 * residency of its first s->size bytes is read at every boundary
 * (cachestat only; unknown without it). */
void series_start(struct series *s, uint64_t t0_ns, uint64_t interval_ns);

/* Moves slot 0 to start at t0_ns: series_start() empties the slots before
 * the timed loop, this sets its start once it has one. */
static inline void series_origin(struct series *s, uint64_t t0_ns)
{
	s->t0_ns = t0_ns;
	s->next_ns = t0_ns + s->interval_ns;
}

void series_advance(struct series *s, uint64_t t_ns);

/* One unit of dir that completed at t_ns after lat_ns, moving bytes. */
static inline void series_record(struct series *s, int dir, uint64_t t_ns, uint64_t lat_ns,
				 uint64_t bytes)
{
	struct series_slot *sl;

	if (__builtin_expect(t_ns >= s->next_ns, 0))
		series_advance(s, t_ns);
	sl = &s->slot[s->cur];
	sl->ops[dir]++;
	sl->bytes[dir] += bytes;
	hist_record(sl->h[dir], lat_ns);
}

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
