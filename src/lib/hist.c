/*
 * hist.c - log-linear latency histogram (see hist.h).
 *
 * Layout: values 0..255 get one bucket each; above that, every power of two
 * [2^e, 2^(e+1)) is split into 128 equal sub-buckets of width 2^(e-7).  A
 * bucket's width is therefore at most 1/128 of its lower bound, and its
 * midpoint is within 1/256 (0.39%) of any value in it.  The index is
 *
 *	shift = msb(v | 255) - 7;  index = shift * 128 + (v >> shift)
 *
 * which needs no branch for the small values (shift is 0 there).  The top
 * tracked value is 2^40 - 1 ns (about 18 minutes): 4352 buckets, 34 KiB,
 * embedded in the struct so that a histogram is a single allocation.
 * Larger values are clamped into the top bucket; min, max, count and the
 * sum (128-bit, so it cannot overflow) are kept exactly beside the buckets.
 */
#include "lib/hist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SUB_BITS HIST_SUB_BITS
#define SUB_COUNT ((size_t)1 << SUB_BITS)
#define N_BUCKETS HIST_BUCKETS

_Static_assert(N_BUCKETS == 4352, "bucket layout changed: update the comment");

/* A value representative of bucket i: its midpoint, rounded down (so exact
 * below 256, where buckets are one value wide). */
static uint64_t bucket_value(size_t i)
{
	unsigned shift = i < 2 * SUB_COUNT ? 0 : (unsigned)(i >> SUB_BITS) - 1;
	uint64_t sub = i - ((size_t)shift << SUB_BITS);

	return (sub << shift) + (((UINT64_C(1) << shift) - 1) >> 1);
}

struct hist *hist_new(void)
{
	struct hist *h = malloc(sizeof(*h));

	if (h)
		hist_reset(h);
	return h;
}

size_t hist_size(void)
{
	return sizeof(struct hist);
}

void hist_free(struct hist *h)
{
	free(h);
}

void hist_reset(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	if (src->count == 0)
		return;
	for (size_t i = 0; i < N_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t hist_count(const struct hist *h)
{
	return h->count;
}

uint64_t hist_min(const struct hist *h)
{
	return h->count ? h->min : 0;
}

uint64_t hist_max(const struct hist *h)
{
	return h->max;
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

/*
 * 1-based rank of the p-th percentile: ceil(p/100 * count), in 1..count.
 * The product is nudged down by a few ulps so that e.g. 99.9% of 1000 is
 * rank 999 and not 1000 because 99.9 has no exact binary form.
 */
static uint64_t percentile_rank(uint64_t count, double p)
{
	double x = p / 100.0 * (double)count;
	double r = ceil(x - x * 1e-12);

	if (r < 1.0)
		return 1;
	if (r >= (double)count)
		return count;
	return (uint64_t)r;
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, cum = 0, v;
	size_t i;

	if (h->count == 0)
		return 0;
	if (!(p > 0.0))
		return h->min;
	rank = percentile_rank(h->count, p);
	for (i = 0; i < N_BUCKETS - 1; i++) {
		cum += h->buckets[i];
		if (cum >= rank)
			break;
	}
	v = bucket_value(i);
	if (v < h->min)
		return h->min;
	if (v > h->max)
		return h->max;
	return v;
}
