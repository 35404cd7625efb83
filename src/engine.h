/*
 * engine.h - how reads are issued: one engine per file behind one table.
 *
 * The runner prepares a worker (descriptor, buffers, its share of the
 * pattern, histogram, consume step) and calls the engine's run(), which is
 * the timed loop.  Each engine reports every completed read through
 * worker_complete(), so latency, byte counts and the consume step are the
 * same code for all of them.  The core finds an engine by name and never
 * mentions one.
 */
#ifndef IOSWEEP_ENGINE_H
#define IOSWEEP_ENGINE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "hist.h"
#include "pattern.h"

#define ENGINE_QUEUED 0x1 /* keeps iodepth reads in flight */
#define ENGINE_DIRECT 0x2 /* can read with O_DIRECT */

struct worker;
typedef void (*consume_fn)(struct worker *w, const unsigned char *buf, uint64_t len,
			   uint64_t off);

struct worker {
	/* set by the runner before setup() */
	int fd;
	uint64_t size;           /* file size */
	uint64_t bs;
	unsigned iodepth;        /* 1 for engines that are not queued */
	int hint;                /* enum hint_kind */
	uint64_t align_mask;     /* O_DIRECT: logical block size - 1; else 0 */
	struct pattern pat;      /* this worker's share of the reads */
	unsigned char *buf;      /* iodepth buffers of bs bytes, 4 KiB aligned */
	struct hist *hist;
	consume_fn consume;
	uint64_t deadline_ns;    /* stop issuing reads after this (UINT64_MAX: none) */
	volatile sig_atomic_t *stop; /* set by a signal handler */
	void *priv;              /* the engine's own state */

	/* results */
	uint64_t reads, bytes;
	uint64_t t_first_ns, t_last_ns; /* first read issued, last completed */
	uint64_t sum;            /* checksum (sum of xxh3) or sum of integers */
	uint64_t int_acc;        /* consume=ints: the number being parsed */
	bool int_open;           /* consume=ints: inside a number */
	bool truncated;          /* stopped by runtime or a signal */
	/* a failed read: error_what is set ("read", "unexpected end of file"),
	 * error is its errno or 0 when there is none (end of file) */
	int error;
	uint64_t error_off;
	const char *error_what;
};

struct engine_ops {
	const char *name;
	unsigned flags;
	const char *note;        /* shown with its runs when not NULL */
	int (*setup)(struct worker *w, char *err);  /* not timed */
	int (*run)(struct worker *w);               /* the timed loop; -1 sets w->error */
	void (*teardown)(struct worker *w);
};

const struct engine_ops *engine_find(const char *name);

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Records one completed read; false when the worker must stop issuing.
 * Queued engines then wait for the reads still in flight but do not count
 * them.  Their completion time is taken once per reaped batch, so a read's
 * latency may include waiting for the rest of its batch. */
static inline bool worker_complete(struct worker *w, const unsigned char *buf, uint64_t off,
				   uint64_t len, uint64_t t_issue, uint64_t t_done)
{
	hist_record(w->hist, t_done - t_issue);
	w->consume(w, buf, len, off);
	w->reads++;
	/* the progress line reads bytes from another thread */
	__atomic_store_n(&w->bytes, w->bytes + len, __ATOMIC_RELAXED);
	w->t_last_ns = t_done;
	if (__builtin_expect(t_done >= w->deadline_ns || *w->stop, 0)) {
		w->truncated = true;
		return false;
	}
	return true;
}

/* Records a failed read; always returns -1 for the engine to return. */
static inline int worker_fail(struct worker *w, int error, uint64_t off, const char *what)
{
	w->error = error;
	w->error_off = off;
	w->error_what = what;
	return -1;
}

#endif
