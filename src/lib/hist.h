/*
 * hist.h - latency histogram in constant memory.
 *
 * Log-linear buckets (HdrHistogram-like): each power of two from 1 ns up to
 * at least 100 s is split into equal sub-buckets so that any recorded value
 * is reported with a relative error of at most 1%.  Recording is a few
 * integer operations and never allocates, so it can sit in the read loop.
 * Per-thread histograms are merged by adding their counts.
 */
#ifndef IOSWEEP_HIST_H
#define IOSWEEP_HIST_H

#include <stddef.h>
#include <stdint.h>

/* The layout is described in hist.c; it is here only so that recording,
 * which sits in the timed loop, can be inlined there. */
#define HIST_SUB_BITS 7  /* 128 sub-buckets per power of two */
#define HIST_TOP_BITS 40 /* values tracked up to 2^40 - 1 ns */
#define HIST_MAX_TRACKED ((UINT64_C(1) << HIST_TOP_BITS) - 1)
#define HIST_BUCKETS ((HIST_TOP_BITS - HIST_SUB_BITS + 1) << HIST_SUB_BITS)

struct hist {
	uint64_t count;
	uint64_t min; /* UINT64_MAX while empty */
	uint64_t max;
	__extension__ unsigned __int128 sum;
	uint64_t buckets[HIST_BUCKETS];
};

struct hist *hist_new(void);               /* zeroed; NULL on out of memory */
void hist_free(struct hist *h);
void hist_reset(struct hist *h);
void hist_merge(struct hist *dst, const struct hist *src);
/* A histogram is one plain block of hist_size() bytes, with no pointers:
 * processes of the same build can send it to each other as bytes. */
size_t hist_size(void);

uint64_t hist_count(const struct hist *h);
uint64_t hist_min(const struct hist *h);   /* exact; 0 when empty */
uint64_t hist_max(const struct hist *h);   /* exact; 0 when empty */
double hist_mean(const struct hist *h);    /* exact (from a running sum); 0 when empty */
/* Value at percentile p (0 < p <= 100), within 1%; 0 when empty. */
uint64_t hist_percentile(const struct hist *h, double p);

/* The bucket of value v (<= HIST_MAX_TRACKED). */
static inline size_t hist_bucket(uint64_t v)
{
	unsigned shift = 63u - (unsigned)__builtin_clzll(v | ((UINT64_C(2) << HIST_SUB_BITS) - 1)) -
			 HIST_SUB_BITS;

	return ((size_t)shift << HIST_SUB_BITS) + (size_t)(v >> shift);
}

static inline void hist_record(struct hist *h, uint64_t ns)
{
	h->buckets[hist_bucket(ns < HIST_MAX_TRACKED ? ns : HIST_MAX_TRACKED)]++;
	h->count++;
	h->sum += ns;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
}

#endif
