/*
 * pattern.h - the offsets a run reads, generated on the fly.
 *
 * A run's reads are numbered 0..n-1; a pattern maps a read's number to an
 * offset and a length with a little arithmetic, so nothing proportional to
 * the file size is ever stored, and any contiguous share of the reads (one
 * per thread) can be generated on its own.  Random offsets come from a
 * counter-based generator (splitmix64 of seed and read number): the same
 * reads for every engine, thread count and repeat.
 */
#ifndef IOSWEEP_PATTERN_H
#define IOSWEEP_PATTERN_H

#include <stdbool.h>
#include <stdint.h>

#include "options.h"

struct pattern {
	uint64_t size, bs, step, seed, nblocks;
	uint64_t i, end;       /* next read number, one past the last */
	uint64_t total;        /* reads of the whole run */
	bool (*next)(struct pattern *p, uint64_t *off, uint64_t *len);
};

/* Reads and bytes of one repeat of the whole run. */
uint64_t pattern_reads(enum pattern_kind kind, uint64_t size, uint64_t bs, uint64_t spacing,
		       uint64_t count);
uint64_t pattern_bytes(enum pattern_kind kind, uint64_t size, uint64_t bs, uint64_t spacing,
		       uint64_t count);

/* Prepares reads [first, end) of the run. */
void pattern_init(struct pattern *p, enum pattern_kind kind, uint64_t size, uint64_t bs,
		  uint64_t spacing, uint64_t count, uint64_t seed, uint64_t first, uint64_t end);

/* The next read of the share; false when the share is done. */
static inline bool pattern_next(struct pattern *p, uint64_t *off, uint64_t *len)
{
	return p->next(p, off, len);
}

#endif
