/*
 * pattern.h - the offsets a run reads, generated on the fly.
 *
 * A run's reads are numbered 0..n-1; a pattern maps a read's number to an
 * offset and a length with a little arithmetic, so nothing proportional to
 * the file size is ever stored, and any contiguous share of the reads (one
 * per thread or rank) can be generated on its own.
 *
 * pattern=random is a seeded permutation of the file's whole blocks: read
 * k of a pass of n blocks reads block perm(k), perm a bijection of [0, n)
 * (a Feistel network over the next even power of two, cycle-walked back
 * into [0, n)), so each pass reads every block exactly once, in an order
 * that depends only on the seed and the pass number.  Disjoint shares of the
 * read numbers therefore read disjoint blocks.  pattern=random-replace draws
 * every block independently (splitmix64 of seed and read number), blocks
 * repeating as they come: fio's norandommap.  Both are the same for every
 * engine, thread count and repeat.  A random_distribution other than
 * random (distribution.h) makes either random pattern draw independently
 * from that distribution (fio turns its random map off for them too).
 *
 * percentage_random below 100 (fio's) mixes in sequential units: unit k is
 * random when splitmix64(key ^ k) % 100 < the percentage, key being
 * splitmix64(seed ^ PCT_SALT), and then reads the block the random pattern
 * gives unit k; otherwise it reads the block after the previous unit's,
 * wrapping at the region's end (unit 0, when sequential, reads block 0).  A
 * share starting at unit first walks back at setup to the nearest random unit
 * before it: a few units (100 / percentage on average).
 */
#ifndef IOSWEEP_PATTERN_H
#define IOSWEEP_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/bsmix.h"
#include "io/distribution.h"

struct trace_reader;

/* The values of the job option `pattern`, in its order (job/options.c). */
enum pattern_kind { PATTERN_SEQUENTIAL, PATTERN_REVERSE, PATTERN_RANDOM, PATTERN_RANDOM_REPLACE };

struct pattern {
	uint64_t size, bs, step, seed, nblocks;
	uint64_t i, end;       /* next read number, one past the last */
	uint64_t total;        /* reads of the whole run */
	/* pattern=random: position in the current pass and that pass's keys */
	uint64_t pass, in_pass, half_mask;
	unsigned half_bits;
	uint64_t key[4];
	struct randdist dist; /* a skewed random_distribution (pattern_skew) */
	const char *dist_text; /* its text, for pattern_mix */
	uint64_t count;        /* count as given (0: one pass) */
	/* a block-size mix (pattern_mix): each unit's length from mix, random
	 * offsets in steps of mix.align (nblocks of them, bs = mix.align) */
	struct bsmix mix;
	uint64_t pos;          /* sequential mix: the offset of unit i */
	uint64_t mix_dir_key;  /* readwrite: the direction of the unit at off */
	unsigned mix_rwmixread;
	int mix_dir;           /* 0 reads, 1 writes, -1 by offset (readwrite) */
	/* the generator; NULL for sequential, which pattern_next() inlines */
	bool (*next)(struct pattern *p, uint64_t *off, uint64_t *len);
	/* read_iolog (trace.h): the trace the units come from, else NULL; the
	 * due time (ns after the loop's start) and direction (enum io_dir) of
	 * the unit drawn last; and, when next() answers false before the trace
	 * ends, the flush the trace asks for first (TRACE_SYNC, TRACE_DATASYNC);
	 * trim: the unit drawn last is a trim (the trace's trim lines) */
	struct trace_reader *trace;
	uint64_t due_ns;
	unsigned dir, flush;
	bool trim;
	/* offset, offset_increment: where the share's region starts in the
	 * file; the generators draw offsets in the region [0, size) and
	 * pattern_next() adds it (0 by pattern_init; a trace's are the file's) */
	uint64_t base;
	/* percentage_random (pattern_percent): pct_random, 100 by default; below,
	 * pct_key decides which units are random, pct_prev is the block of unit
	 * i - 1 and pct_kind the random pattern's draw (enum in pattern.c) */
	unsigned pct_random, pct_kind;
	uint64_t pct_key, pct_prev;
};

static inline bool pattern_is_random(uint64_t kind)
{
	return kind == PATTERN_RANDOM || kind == PATTERN_RANDOM_REPLACE;
}

/* Reads and bytes of one repeat of the whole run. */
uint64_t pattern_reads(enum pattern_kind kind, uint64_t size, uint64_t bs, uint64_t spacing,
		       uint64_t count);
uint64_t pattern_bytes(enum pattern_kind kind, uint64_t size, uint64_t bs, uint64_t spacing,
		       uint64_t count);

/* Prepares reads [first, end) of the run. */
void pattern_init(struct pattern *p, enum pattern_kind kind, uint64_t size, uint64_t bs,
		  uint64_t spacing, uint64_t count, uint64_t seed, uint64_t first, uint64_t end);

/* Makes p's random reads draw from random_distribution text (NULL or
 * "random": uniform, nothing changes); -1 with why when the text is not a
 * distribution or does not fit the file. */
int pattern_skew(struct pattern *p, const char *text, char *err);

/* percentage_random: makes pct percent of p's units random and the others
 * follow the unit before them (see above); p made by pattern_init and
 * pattern_skew.  Nothing changes for 100, or for a pattern that is not
 * random. */
void pattern_percent(struct pattern *p, unsigned pct);

/* The salt of percentage_random's key (pattern.h's header comment). */
#define PCT_SALT 0x70657263656e74ULL

/* Gives p's units the lengths of mix (bsmix.h), p made by pattern_init
 * (and pattern_skew) for the same run: dir 0 when every unit reads, 1 when
 * every unit writes, -1 when io_mix_dir(rwmixread) decides by the offset
 * (dir_key: data_mix_key(seed)).  total: the run's units when known (the
 * plan's), 0: counted here.  The units: sequential, one after the other
 * from offset 0 to the end of the file (the last cut there); random, count
 * of them or, by default, as many as make the file's size in bytes (fio's
 * io_size), each at a random multiple of mix.align and cut at the end of
 * the file.  Sequential shares walk the lengths before theirs (a few ns a
 * unit), and counting walks the run once; the loop only draws.  -1 with why
 * for a pattern a mix does not take (reverse, spacing, percentage_random). */
int pattern_mix(struct pattern *p, const struct bsmix *mix, int dir, unsigned rwmixread,
		uint64_t dir_key, uint64_t total, char *err);

/* A mixed pattern's units and bytes from its first unit to its end (the
 * plan's figures): walks them. */
void pattern_mix_totals(const struct pattern *p, uint64_t *units, uint64_t *bytes);

/* Whether p has a block-size mix. */
static inline bool pattern_mixed(const struct pattern *p)
{
	return p->mix.max != 0;
}

/* The bytes from the first to the last byte that p's reads may touch, and
 * into *first the offset of the first in the file: the region for the
 * random patterns. */
uint64_t pattern_span(const struct pattern *p, uint64_t *first);

/* The length of the read at off: a block, or what is left of the file. */
static inline uint64_t pattern_block_len(const struct pattern *p, uint64_t off)
{
	uint64_t left = p->size - off;

	return left < p->bs ? left : p->bs;
}

/* The next read of the share, its offset in the file; false when the
 * share is done. */
static inline bool pattern_next(struct pattern *p, uint64_t *off, uint64_t *len)
{
	if (p->next) {
		if (!p->next(p, off, len))
			return false;
		*off += p->base;
		return true;
	}
	if (p->i >= p->end)
		return false;
	*off = p->i++ * p->step;
	*len = pattern_block_len(p, *off);
	*off += p->base;
	return true;
}

/* Read numbers [from, to) of a run. */
struct pattern_range {
	uint64_t from, to;
};

/* The distinct bytes that units range[0..n) of a random mixed pattern
 * touch (mixed: the run's pattern, as pattern_mix left it), for
 * coverage_Bps; UINT64_MAX when out of memory for its bitmap. */
uint64_t pattern_mix_covered(const struct pattern *mixed, const struct pattern_range *range,
			     size_t n);

/* How many distinct blocks reads range[0..n) of a random run read (the
 * ranges do not overlap), dist its random_distribution (or NULL); for
 * coverage_Bps.  UINT64_MAX when out of memory for the bitmap that some
 * cases need (one bit per block). */
uint64_t pattern_distinct_blocks(enum pattern_kind kind, uint64_t size, uint64_t bs,
				 uint64_t seed, const char *dist, const struct pattern_range *range,
				 size_t n);
/* The same with percentage_random pct (100: pattern_distinct_blocks). */
uint64_t pattern_distinct_blocks_pct(enum pattern_kind kind, uint64_t size, uint64_t bs,
				     uint64_t seed, const char *dist, unsigned pct,
				     const struct pattern_range *range, size_t n);

#endif
