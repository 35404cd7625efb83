/*
 * pattern.c - offset generators: sequential (dense or strided), reverse,
 * random (a seeded permutation of the blocks per pass), random-replace
 * (independent draws) and skewed draws (random_distribution: the draw is
 * distribution.c's).  See pattern.h for why they are arithmetic, not
 * lists.
 */
#define _GNU_SOURCE
#include "io/pattern.h"
#include "lib/error.h"
#include "lib/intmath.h"
#include "lib/splitmix.h"

#include <stdlib.h>

#define FEISTEL_ROUNDS 4

/* Sequential and reverse: read k starts at k * spacing.  Dense reads
 * (spacing == bs) cover the file and the last one may be short; sparse reads
 * stop at the last whole block that fits.  Random reads read whole blocks
 * only: by default one pass over them. */
uint64_t pattern_reads(enum pattern_kind kind, uint64_t size, uint64_t bs, uint64_t spacing,
		       uint64_t count)
{
	if (pattern_is_random(kind))
		return size >= bs ? (count ? count : size / bs) : 0;
	if (spacing == bs)
		return size / bs + (size % bs != 0);
	return size >= bs ? (size - bs) / spacing + 1 : 0;
}

uint64_t pattern_bytes(enum pattern_kind kind, uint64_t size, uint64_t bs, uint64_t spacing,
		       uint64_t count)
{
	uint64_t n = pattern_reads(kind, size, bs, spacing, count);

	if (!pattern_is_random(kind) && spacing == bs)
		return size;
	return n * bs;
}

static bool next_reverse(struct pattern *p, uint64_t *off, uint64_t *len)
{
	if (p->i >= p->end)
		return false;
	*off = (p->total - 1 - p->i++) * p->step;
	*len = pattern_block_len(p, *off);
	return true;
}

/* random-replace: read k reads block splitmix64(seed ^ splitmix64(k)) mapped
 * onto [0, nblocks) by multiply-shift (no division). */
static inline uint64_t replace_block(uint64_t seed, uint64_t nblocks, uint64_t k)
{
	uint64_t r = splitmix64(seed ^ splitmix64(k));

	return (uint64_t)(((unsigned __int128)r * nblocks) >> 64);
}

static bool next_replace(struct pattern *p, uint64_t *off, uint64_t *len)
{
	if (p->i >= p->end)
		return false;
	*off = replace_block(p->seed, p->nblocks, p->i++) * p->bs;
	*len = p->bs;
	return true;
}

/*
 * random: a balanced Feistel network over 2 * half_bits bits, the smallest
 * even width that holds every block number, is a bijection of [0, 4^h); the
 * round function is splitmix64 of the right half and the round's key.
 * Values at or beyond nblocks are walked along their cycle until one falls
 * inside (the domain is under 4 * nblocks, so a few steps on average), which
 * makes a bijection of [0, nblocks).  Keys: splitmix64(splitmix64(seed) ^
 * (pass * 4 + round)).
 */
static void set_pass(struct pattern *p, uint64_t pass)
{
	uint64_t base = splitmix64(p->seed);

	p->pass = pass;
	for (unsigned r = 0; r < FEISTEL_ROUNDS; r++)
		p->key[r] = splitmix64(base ^ (pass * FEISTEL_ROUNDS + r));
}

static inline uint64_t feistel(const struct pattern *p, uint64_t x)
{
	uint64_t l = x >> p->half_bits, r = x & p->half_mask;

	for (unsigned k = 0; k < FEISTEL_ROUNDS; k++) {
		uint64_t t = l ^ (splitmix64(r ^ p->key[k]) & p->half_mask);

		l = r;
		r = t;
	}
	return l << p->half_bits | r;
}

static inline uint64_t permute(const struct pattern *p, uint64_t k)
{
	uint64_t x = feistel(p, k);

	while (x >= p->nblocks)
		x = feistel(p, x);
	return x;
}

/* A skewed distribution: read k reads randdist_block(k). */
static bool next_skewed(struct pattern *p, uint64_t *off, uint64_t *len)
{
	if (p->i >= p->end)
		return false;
	*off = randdist_block(&p->dist, p->seed, p->i++) * p->bs;
	*len = p->bs;
	return true;
}

static bool next_permuted(struct pattern *p, uint64_t *off, uint64_t *len)
{
	if (p->i >= p->end)
		return false;
	*off = permute(p, p->in_pass) * p->bs;
	*len = p->bs;
	p->i++;
	if (++p->in_pass == p->nblocks) {
		p->in_pass = 0;
		set_pass(p, p->pass + 1);
	}
	return true;
}

static void init_permutation(struct pattern *p, uint64_t first)
{
	unsigned bits = 0;

	while (bits < 64 && (p->nblocks - 1) >> bits)
		bits++;
	p->half_bits = bits / 2 + bits % 2;
	if (p->half_bits == 0)
		p->half_bits = 1;
	p->half_mask = (1ULL << p->half_bits) - 1;
	p->in_pass = p->nblocks ? first % p->nblocks : 0;
	set_pass(p, p->nblocks ? first / p->nblocks : 0);
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
	p->trace = NULL;
	p->flush = 0;
	p->base = 0;
	p->total = pattern_reads(kind, size, bs, spacing, count);
	p->count = count;
	p->dist_text = NULL;
	p->mix.max = 0;
	p->pct_random = 100;
	p->next = kind == PATTERN_RANDOM ? next_permuted
		: kind == PATTERN_RANDOM_REPLACE ? next_replace
		: kind == PATTERN_REVERSE ? next_reverse : NULL;
	if (kind == PATTERN_RANDOM)
		init_permutation(p, first);
}

int pattern_skew(struct pattern *p, const char *text, char *err)
{
	struct randdist_spec spec;

	if (!text || !p->nblocks || (p->next != next_permuted && p->next != next_replace))
		return 0;
	if (randdist_parse(text, &spec, err) < 0)
		return -1;
	if (spec.kind == RANDDIST_UNIFORM)
		return 0;
	if (randdist_prepare(&p->dist, &spec, p->nblocks, p->bs, p->seed, err) < 0)
		return -1;
	p->next = next_skewed;
	p->dist_text = text;
	return 0;
}

/* ---- percentage_random ---- */

/* The random pattern a percentage_random mixes with: how its units draw. */
enum pct_kind { PCT_PERMUTED, PCT_REPLACE, PCT_SKEWED };

/* Whether unit k is random (pattern.h). */
static inline bool pct_unit_random(const struct pattern *p, uint64_t k)
{
	return splitmix64(p->pct_key ^ k) % 100 < p->pct_random;
}

/* The block random unit k draws; a permutation at its pass and place
 * (p->pass, p->in_pass) for k. */
static inline uint64_t pct_draw(const struct pattern *p, uint64_t k)
{
	if (p->pct_kind == PCT_PERMUTED)
		return permute(p, p->in_pass);
	if (p->pct_kind == PCT_SKEWED)
		return randdist_block(&p->dist, p->seed, k);
	return replace_block(p->seed, p->nblocks, k);
}

static bool next_pct(struct pattern *p, uint64_t *off, uint64_t *len)
{
	uint64_t k = p->i, b;

	if (k >= p->end)
		return false;
	if (pct_unit_random(p, k))
		b = pct_draw(p, k);
	else
		b = p->pct_prev + 1 == p->nblocks ? 0 : p->pct_prev + 1;
	p->pct_prev = b;
	p->i++;
	if (p->pct_kind == PCT_PERMUTED && ++p->in_pass == p->nblocks) {
		p->in_pass = 0;
		set_pass(p, p->pass + 1);
	}
	*off = b * p->bs;
	*len = p->bs;
	return true;
}

/* The block of unit first - 1 (nblocks - 1 before unit 0, so that a
 * sequential unit 0 reads block 0): from the nearest random unit before
 * first, the units after it being sequential. */
static uint64_t pct_start(struct pattern *p, uint64_t first)
{
	uint64_t j = p->pct_random ? first : 0, b;

	while (j > 0 && !pct_unit_random(p, j - 1))
		j--;
	if (j == 0)
		return (p->nblocks - 1 + first % p->nblocks) % p->nblocks;
	if (p->pct_kind == PCT_PERMUTED)
		init_permutation(p, j - 1);
	b = pct_draw(p, j - 1);
	if (p->pct_kind == PCT_PERMUTED)
		init_permutation(p, first);
	return (b + (first - j) % p->nblocks) % p->nblocks;
}

void pattern_percent(struct pattern *p, unsigned pct)
{
	if (pct >= 100 || !p->nblocks ||
	    (p->next != next_permuted && p->next != next_replace && p->next != next_skewed))
		return;
	p->pct_random = pct;
	p->pct_kind = p->next == next_permuted ? PCT_PERMUTED
		      : p->next == next_skewed ? PCT_SKEWED : PCT_REPLACE;
	p->pct_key = splitmix64(p->seed ^ PCT_SALT);
	p->pct_prev = pct_start(p, p->i);
	p->next = next_pct;
}

/* ---- block-size mixes ---- */

/* The direction of the unit at off, as the loop decides it (io_mix_dir
 * with data_draw_percent: the same formula). */
static inline unsigned mix_dir(const struct pattern *p, uint64_t off)
{
	if (p->mix_dir >= 0)
		return (unsigned)p->mix_dir;
	return (unsigned)(((unsigned __int128)splitmix64(p->mix_dir_key ^ off) * 100) >> 64) <
			       p->mix_rwmixread
		       ? 0
		       : 1;
}

/* Unit k at off: its length, cut at the end of the file. */
static inline uint64_t mix_len(const struct pattern *p, uint64_t off, uint64_t k)
{
	uint64_t len = bsmix_len(&p->mix, mix_dir(p, off), k), left = p->size - off;

	return len < left ? len : left;
}

static bool next_mix_seq(struct pattern *p, uint64_t *off, uint64_t *len)
{
	if (p->i >= p->end || p->pos >= p->size)
		return false;
	*off = p->pos;
	*len = mix_len(p, p->pos, p->i++);
	p->pos += *len;
	return true;
}

static bool next_mix_perm(struct pattern *p, uint64_t *off, uint64_t *len)
{
	if (p->i >= p->end)
		return false;
	*off = permute(p, p->in_pass) * p->bs;
	*len = mix_len(p, *off, p->i++);
	if (++p->in_pass == p->nblocks) {
		p->in_pass = 0;
		set_pass(p, p->pass + 1);
	}
	return true;
}

static bool next_mix_replace(struct pattern *p, uint64_t *off, uint64_t *len)
{
	if (p->i >= p->end)
		return false;
	*off = replace_block(p->seed, p->nblocks, p->i) * p->bs;
	*len = mix_len(p, *off, p->i++);
	return true;
}

static bool next_mix_skewed(struct pattern *p, uint64_t *off, uint64_t *len)
{
	if (p->i >= p->end)
		return false;
	*off = randdist_block(&p->dist, p->seed, p->i) * p->bs;
	*len = mix_len(p, *off, p->i++);
	return true;
}

/* Units [p->i, p->end) of a mixed pattern, walked on a copy: how many, how
 * many bytes, and where the next would start; for the random ones, stopping
 * once the bytes reach bytes_max. */
static uint64_t mix_walk(const struct pattern *p, uint64_t bytes_max, uint64_t *bytes,
			 uint64_t *pos)
{
	struct pattern q = *p;
	uint64_t n = 0, off, len;

	*bytes = 0;
	while (*bytes < bytes_max && q.next(&q, &off, &len)) {
		n++;
		*bytes += len;
	}
	*pos = q.pos;
	return n;
}

int pattern_mix(struct pattern *p, const struct bsmix *mix, int dir, unsigned rwmixread,
		uint64_t dir_key, uint64_t total, char *err)
{
	uint64_t first = p->i, end = p->end, bytes;
	bool skewed = p->next == next_skewed;
	struct randdist_spec spec;

	if (p->next == next_pct)
		return err_set(err, "a block-size mix is either in order or at random: not with "
			       "percentage_random below 100");
	if (p->next == next_reverse || (!p->next && p->step != p->bs))
		return err_set(err, "a block-size mix reads in order or at random: not with %s",
			       p->next ? "pattern = reverse" : "spacing");
	p->mix = *mix;
	p->mix_dir = mix->same ? 0 : dir;
	p->mix_rwmixread = rwmixread;
	p->mix_dir_key = dir_key;
	if (!p->next) {
		p->next = next_mix_seq;
		p->i = 0;
		p->pos = 0;
		p->end = UINT64_MAX;
		p->total = total ? total : mix_walk(p, UINT64_MAX, &bytes, &p->pos);
		p->pos = 0;
		p->end = first;
		if (first)
			(void)mix_walk(p, UINT64_MAX, &bytes, &p->pos);
		p->i = first;
		p->end = end;
		return 0;
	}
	/* random: offsets in steps of align, at least the smallest length before the end */
	p->bs = mix->align;
	p->nblocks = p->size >= mix->min ? (p->size - mix->min) / mix->align + 1 : 0;
	if (!p->nblocks)
		return err_set(err, "the file is smaller than the smallest block size");
	if (skewed) {
		if (randdist_parse(p->dist_text, &spec, err) < 0 ||
		    randdist_prepare(&p->dist, &spec, p->nblocks, p->bs, p->seed, err) < 0)
			return -1;
		p->next = next_mix_skewed;
	} else if (p->next == next_permuted) {
		p->next = next_mix_perm;
		init_permutation(p, first);
	} else {
		p->next = next_mix_replace;
	}
	p->total = total ? total : p->count;
	if (!p->total) {
		struct pattern q = *p;

		q.i = 0;
		q.end = UINT64_MAX;
		if (q.next == next_mix_perm)
			init_permutation(&q, 0);
		p->total = mix_walk(&q, p->size, &bytes, &q.pos);
	}
	return 0;
}

void pattern_mix_totals(const struct pattern *p, uint64_t *units, uint64_t *bytes)
{
	uint64_t pos;

	*units = mix_walk(p, UINT64_MAX, bytes, &pos);
}

uint64_t pattern_span(const struct pattern *p, uint64_t *first)
{
	uint64_t lo, hi; /* the lowest and highest offset / step of reads [i, end) */
	uint64_t span;

	*first = p->base;
	if (p->trace)
		return p->size;
	if (p->next == next_permuted || p->next == next_replace || p->next == next_skewed ||
	    p->next == next_pct || pattern_mixed(p))
		return p->size;
	if (p->end <= p->i)
		return 0;
	lo = p->next == next_reverse ? p->total - p->end : p->i;
	hi = lo + (p->end - p->i) - 1;
	*first = lo * p->step;
	span = hi * p->step + pattern_block_len(p, hi * p->step) - *first;
	*first += p->base;
	return span;
}

static int cmp_range(const void *a, const void *b)
{
	uint64_t x = ((const struct pattern_range *)a)->from;
	uint64_t y = ((const struct pattern_range *)b)->from;

	return (x > y) - (x < y);
}

/* Counts the blocks of the reads in range[0..n), one bit per block. */
static uint64_t distinct_by_bitmap(struct pattern *p, enum pattern_kind kind,
				   const struct pattern_range *range, size_t n)
{
	uint64_t *seen = calloc(p->nblocks / 64 + 1, sizeof(*seen)), distinct = 0;

	if (!seen)
		return UINT64_MAX;
	for (size_t k = 0; k < n && distinct < p->nblocks; k++) {
		if (kind == PATTERN_RANDOM)
			init_permutation(p, range[k].from);
		for (uint64_t i = range[k].from; i < range[k].to && distinct < p->nblocks; i++) {
			uint64_t b = kind == PATTERN_RANDOM	? permute(p, p->in_pass)
				     : p->next == next_skewed ? randdist_block(&p->dist, p->seed, i)
							      : replace_block(p->seed, p->nblocks, i);

			if (!(seen[b / 64] >> (b % 64) & 1)) {
				seen[b / 64] |= 1ULL << (b % 64);
				distinct++;
			}
			if (kind == PATTERN_RANDOM && ++p->in_pass == p->nblocks) {
				p->in_pass = 0;
				set_pass(p, p->pass + 1);
			}
		}
	}
	free(seen);
	return distinct;
}

/* Counts the blocks of units range[0..n) of a percentage_random pattern
 * (p: the run's, from unit 0), one bit per block, generating each range as
 * its share would. */
static uint64_t distinct_by_walk(const struct pattern *p, unsigned pct,
				 const struct pattern_range *range, size_t n)
{
	uint64_t *seen = calloc(p->nblocks / 64 + 1, sizeof(*seen)), distinct = 0, off, len;

	if (!seen)
		return UINT64_MAX;
	for (size_t k = 0; k < n && distinct < p->nblocks; k++) {
		struct pattern q = *p;

		q.i = range[k].from;
		q.end = range[k].to;
		if (q.next == next_permuted)
			init_permutation(&q, q.i);
		pattern_percent(&q, pct);
		while (distinct < q.nblocks && q.next(&q, &off, &len)) {
			uint64_t b = off / q.bs;

			if (!(seen[b / 64] >> (b % 64) & 1)) {
				seen[b / 64] |= 1ULL << (b % 64);
				distinct++;
			}
		}
	}
	free(seen);
	return distinct;
}

uint64_t pattern_distinct_blocks(enum pattern_kind kind, uint64_t size, uint64_t bs,
				 uint64_t seed, const char *dist, const struct pattern_range *range,
				 size_t n)
{
	return pattern_distinct_blocks_pct(kind, size, bs, seed, dist, 100, range, n);
}

/*
 * A permutation needs no bitmap in the common cases: reads within one pass
 * are distinct blocks, and a whole pass is every block.  Ranges are merged
 * first, since threads' shares are contiguous.  A percentage_random below
 * 100 breaks both: its units are walked.
 */
uint64_t pattern_distinct_blocks_pct(enum pattern_kind kind, uint64_t size, uint64_t bs,
				     uint64_t seed, const char *dist, unsigned pct,
				     const struct pattern_range *range, size_t n)
{
	struct pattern p;
	struct pattern_range *m = malloc((n + 1) * sizeof(*m));
	uint64_t reads = 0, nb = bs ? size / bs : 0, d;
	size_t nm = 0, w = 0;
	char err[ERR_MAX];

	if (!m)
		return UINT64_MAX;
	for (size_t k = 0; k < n; k++)
		if (range[k].to > range[k].from)
			m[nm++] = range[k];
	qsort(m, nm, sizeof(*m), cmp_range);
	for (size_t k = 0; k < nm; k++)
		if (w == 0 || m[k].from > m[w - 1].to)
			m[w++] = m[k];
		else if (m[k].to > m[w - 1].to)
			m[w - 1].to = m[k].to;
	nm = w;
	for (size_t k = 0; k < nm; k++)
		reads += m[k].to - m[k].from;
	if (nb == 0 || nm == 0) {
		free(m);
		return 0;
	}
	pattern_init(&p, kind, size, bs, bs, 0, seed, 0, 0);
	if (pattern_skew(&p, dist, err) < 0) {
		free(m);
		return UINT64_MAX; /* refused before any run: not reached */
	}
	if (pct < 100) {
		d = distinct_by_walk(&p, pct, m, nm);
		free(m);
		return d;
	}
	if (p.next == next_skewed)
		kind = PATTERN_RANDOM_REPLACE;
	if (kind == PATTERN_RANDOM) {
		bool one_pass = m[0].from / nb == (m[nm - 1].to - 1) / nb;
		bool whole_pass = false;

		for (size_t k = 0; k < nm; k++)
			whole_pass |= (m[k].from + nb - 1) / nb * nb + nb <= m[k].to;
		if (one_pass || whole_pass) {
			free(m);
			return whole_pass ? nb : reads;
		}
	}
	d = distinct_by_bitmap(&p, kind, m, nm);
	free(m);
	return d;
}

/* A random mix's units cover granules of the gcd of the alignment and
 * every size: one bit each. */
uint64_t pattern_mix_covered(const struct pattern *mixed, const struct pattern_range *range,
			     size_t n)
{
	struct pattern q = *mixed;
	uint64_t g = q.mix.align, ng, *seen, covered = 0, off, len;

	for (unsigned d = 0; d < 2; d++) {
		const struct bsmix_dir *x = &q.mix.dir[d];

		if (!x->n)
			g = gcd_u64(gcd_u64(g, x->lo), x->step);
		for (unsigned i = 0; i < x->n; i++)
			g = gcd_u64(g, x->size[i]);
	}
	ng = q.size / g + 1;
	seen = calloc(ng / 64 + 1, sizeof(*seen));
	if (!seen)
		return UINT64_MAX;
	for (size_t k = 0; k < n; k++) {
		q.i = range[k].from;
		q.end = range[k].to;
		if (q.next == next_mix_perm)
			init_permutation(&q, range[k].from);
		while (q.next(&q, &off, &len))
			for (uint64_t b = off / g; b * g < off + len; b++)
				if (!(seen[b / 64] >> (b % 64) & 1)) {
					seen[b / 64] |= 1ULL << (b % 64);
					covered += q.size - b * g < g ? q.size - b * g : g;
				}
	}
	free(seen);
	return covered;
}
