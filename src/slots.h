/*
 * slots.h - the bookkeeping the queued engines (aio, uring) share.
 *
 * A queued engine keeps up to iodepth reads in flight.  Slot k owns buffer
 * w->buf + k * bs and the read in it.  Free slots wait on a stack; a read
 * that came back short waits to be resubmitted for its remainder (keeping
 * its issue time); slots_complete() says what a completion means: a read
 * done (worker_complete), a remainder to resubmit, an error, or a result to
 * drop once the worker is stopping.  The engines keep only what is their
 * own: how reads are queued, submitted and reaped.
 */
#ifndef IOSWEEP_SLOTS_H
#define IOSWEEP_SLOTS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine.h"

struct slot {
	uint64_t off, len;   /* the read as the pattern gave it */
	uint64_t want, done; /* bytes asked (O_DIRECT rounds up), bytes read so far */
	uint64_t t_issue;
};

struct slots {
	struct slot *slot;   /* n of them */
	unsigned *free;      /* stack of free slot numbers */
	unsigned *retry;     /* slots whose remainder is to be resubmitted */
	unsigned n, nfree, nretry;
	bool exhausted;      /* the pattern has no more reads */
	bool stopping;       /* issue nothing more: stopped or failed */
	bool failed;
};

/* Allocates n slots (not timed); -1 when out of memory. */
int slots_init(struct slots *q, unsigned n);
void slots_free(struct slots *q);
/* Every slot free, before a run. */
void slots_reset(struct slots *q);
/* The next slot to submit: a remainder first, else a new read from the
 * pattern into a free slot; -1 when there is nothing to submit now. */
int slots_next(struct slots *q, struct worker *w);
/* A completion of slot k with result res (bytes, or -errno) at t_done;
 * false once the worker must stop issuing. */
bool slots_complete(struct slots *q, struct worker *w, unsigned k, long res, uint64_t t_done);
/* Records the first error and stops issuing; always false. */
bool slots_fail(struct slots *q, struct worker *w, int error, uint64_t off, const char *what);

/* Where the rest of slot k's read goes. */
static inline unsigned char *slot_dest(const struct worker *w, const struct slots *q, unsigned k)
{
	return w->buf + (uint64_t)k * w->bs + q->slot[k].done;
}

#endif
