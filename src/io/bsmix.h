/*
 * bsmix.h - block-size mixes: fio's bssplit and bsrange.
 *
 * A mix gives each read or write its own length, drawn from the seed and
 * the unit's number (splitmix64, as every draw here), so any share of the
 * units is generated on its own and an outside reader can recompute every
 * length, hence the checksum, from (seed, offsets, lengths):
 *
 *   bssplit = 4k/10:64k/50:32k/40[,WRITES]  a unit's length is SIZE with
 *       probability WEIGHT percent: r = splitmix64(key ^ splitmix64(k)),
 *       v = r * 100 >> 64 (0..99), the first size in the order written
 *       whose running sum of weights exceeds v; fio's rules for the
 *       weights: a blank weight gets an even share of what the others leave
 *       of 100 (integer division), more than 100 is refused, and what is
 *       short of 100 goes to the size with the largest weight (the last
 *       written of equal ones), as fio's sorted table does
 *   bsrange = MIN-MAX[,WRITES]  MIN + A * (r * m >> 64), m = (MAX-MIN)/A + 1
 *       sizes from MIN in steps of blockalign A (default MIN)
 *
 * key = splitmix64(seed ^ 0x6273706c6974), k the unit's number in the
 * run.  The part after a comma is for writes (fio's r,w); none: the same
 * mix both ways.
 */
#ifndef IOSWEEP_BSMIX_H
#define IOSWEEP_BSMIX_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/splitmix.h"

#define BSMIX_MAX 64 /* fio's BSSPLIT_MAX */
#define BSMIX_KEY 0x6273706c6974ULL

/* One direction's mix: n sizes with cumulative weights, or a range. */
struct bsmix_dir {
	unsigned n;          /* sizes (bssplit); 0: a range */
	unsigned rest;       /* the size the weights short of 100 go to */
	uint64_t size[BSMIX_MAX];
	unsigned cum[BSMIX_MAX]; /* running sums of the weights */
	uint64_t lo, step, steps; /* bsrange: lo + step * j, j < steps */
};

struct bsmix {
	struct bsmix_dir dir[2]; /* reads, writes (io_dir's order) */
	bool same;               /* both directions draw alike */
	uint64_t key;
	uint64_t min, max;       /* the smallest and largest length */
	uint64_t align;          /* blockalign: random offsets' and bsrange's step */
};

/* Parses bssplit or bsrange text (exactly one of them non-NULL), with
 * blockalign (0: the smallest size); -1 with why in err, worded for the
 * job's line. */
int bsmix_parse(struct bsmix *m, const char *bssplit, const char *bsrange, uint64_t blockalign,
		uint64_t seed, char *err);

/* A tree's filesize (NULL: not set, 0): a plain size (*fixed, returns 0), or sizes drawn
 * file by file (m, returns 1): SIZE/PERCENT:... as bssplit, or MIN-MAX as
 * bsrange (steps of MIN), one direction; file k's is bsmix_len(m, 0, k),
 * keyed apart from the block sizes: splitmix64(seed ^ BSMIX_FILESIZE_KEY).
 * -1 with why in err. */
#define BSMIX_FILESIZE_KEY 0x66696c6573697aULL
int bsmix_filesizes(struct bsmix *m, const char *text, uint64_t seed, uint64_t *fixed,
		    char *err);

/* Whether every length m draws (both directions) is a multiple of a. */
bool bsmix_multiple(const struct bsmix *m, uint64_t a);

/* The length of unit k going in direction d (0 read, 1 write). */
static inline uint64_t bsmix_len(const struct bsmix *m, unsigned d, uint64_t k)
{
	const struct bsmix_dir *x = &m->dir[d];
	uint64_t r = splitmix64(m->key ^ splitmix64(k));
	unsigned v;

	if (!x->n)
		return x->lo + x->step * (uint64_t)(((unsigned __int128)r * x->steps) >> 64);
	v = (unsigned)(((unsigned __int128)r * 100) >> 64);
	for (unsigned i = 0; i < x->n; i++)
		if (v < x->cum[i])
			return x->size[i];
	return x->size[x->rest];
}

#endif
