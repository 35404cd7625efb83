/*
 * pattern.c - offset generators: sequential (dense or strided), reverse and
 * seeded random.  See pattern.h for why they are arithmetic, not lists.
 */
#define _GNU_SOURCE
#include "pattern.h"

/* Sequential and reverse: read k starts at k * spacing.  Dense reads
 * (spacing == bs) cover the file and the last one may be short; sparse reads
 * stop at the last whole block that fits. */
uint64_t pattern_reads(enum pattern_kind kind, uint64_t size, uint64_t bs, uint64_t spacing,
		       uint64_t count)
{
	if (kind == PATTERN_RANDOM)
		return size >= bs ? (count ? count : size / bs + (size % bs != 0)) : 0;
	if (spacing == bs)
		return size / bs + (size % bs != 0);
	return size >= bs ? (size - bs) / spacing + 1 : 0;
}

uint64_t pattern_bytes(enum pattern_kind kind, uint64_t size, uint64_t bs, uint64_t spacing,
		       uint64_t count)
{
	uint64_t n = pattern_reads(kind, size, bs, spacing, count);

	if (kind != PATTERN_RANDOM && spacing == bs)
		return size;
	return n * bs;
}

static inline uint64_t block_len(const struct pattern *p, uint64_t off)
{
	uint64_t left = p->size - off;

	return left < p->bs ? left : p->bs;
}

static bool next_forward(struct pattern *p, uint64_t *off, uint64_t *len)
{
	if (p->i >= p->end)
		return false;
	*off = p->i++ * p->step;
	*len = block_len(p, *off);
	return true;
}

static bool next_reverse(struct pattern *p, uint64_t *off, uint64_t *len)
{
	if (p->i >= p->end)
		return false;
	*off = (p->total - 1 - p->i++) * p->step;
	*len = block_len(p, *off);
	return true;
}

static inline uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static bool next_random(struct pattern *p, uint64_t *off, uint64_t *len)
{
	if (p->i >= p->end)
		return false;
	/* multiply-shift maps the 64-bit draw onto [0, nblocks) without a division */
	uint64_t r = splitmix64(p->seed ^ splitmix64(p->i++));
	*off = (uint64_t)(((unsigned __int128)r * p->nblocks) >> 64) * p->bs;
	*len = p->bs;
	return true;
}

void pattern_init(struct pattern *p, enum pattern_kind kind, uint64_t size, uint64_t bs,
		  uint64_t spacing, uint64_t count, uint64_t seed, uint64_t first, uint64_t end)
{
	p->size = size;
	p->bs = bs;
	p->step = spacing;
	p->seed = seed;
	p->nblocks = size / bs;
	p->i = first;
	p->end = end;
	p->total = pattern_reads(kind, size, bs, spacing, count);
	p->next = kind == PATTERN_RANDOM ? next_random
		: kind == PATTERN_REVERSE ? next_reverse : next_forward;
}
