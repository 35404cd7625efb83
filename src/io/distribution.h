/*
 * distribution.h - skewed random offsets: fio's random_distribution.
 *
 * A distribution maps a random read's number to a block of the file, like
 * pattern=random-replace (independent draws from splitmix64 of the seed and
 * the read number, so any share of the reads is generated on its own), but
 * with fio's families instead of a uniform draw:
 *
 *   zipf:θ[:c]    fio's lib/zipf.c (Gray et al.'s generator): rank 1 + ...
 *   pareto:h[:c]  fio's lib/zipf.c: rank (n-1) * u^(log h / log(1-h))
 *   normal:d[:c]  fio's lib/gauss.c: the mean of 12 uniform draws over the
 *                 blocks, plus a uniform deviation of d percent of them
 *   zoned:A/S:... A percent of the reads fall in the next S percent of the
 *                 blocks, uniformly (fio's io_u.c)
 *   zoned_abs:A/S:...  the same with S in bytes
 *
 * As in fio, the rank a zipf, pareto or normal draw gives is scattered over
 * the file by a multiplicative hash (rank * 0x61C8864680B583EB, fio's
 * __hash_u64), then shifted by an offset (from the seed; with c, c * the
 * blocks) and taken modulo the blocks, so the hot blocks are not the first
 * ones.  Everything a draw needs is computed once, before the loop
 * (randdist_prepare); a draw is a few multiplications and, for zipf and
 * pareto, one pow().
 */
#ifndef IOSWEEP_DISTRIBUTION_H
#define IOSWEEP_DISTRIBUTION_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/splitmix.h"

enum randdist_kind { RANDDIST_UNIFORM, RANDDIST_ZIPF, RANDDIST_PARETO, RANDDIST_NORMAL, RANDDIST_ZONED, RANDDIST_ZONED_ABS };

#define RANDDIST_ZONES_MAX 256 /* fio's ZONESPLIT_MAX */

/* A random_distribution as the job writes it, parsed and checked. */
struct randdist_spec {
	enum randdist_kind kind;
	double param;  /* zipf's θ, pareto's h, normal's deviation (percent) */
	double center; /* 0..1, or -1: none given */
	unsigned nzones;
	struct {
		unsigned access; /* percent of the reads */
		uint64_t size;   /* percent of the blocks (zoned) or bytes (zoned_abs) */
	} zone[RANDDIST_ZONES_MAX];
};

/* A distribution prepared for a file of n blocks: what a draw needs. */
struct randdist {
	enum randdist_kind kind;
	uint64_t n, rand_off;
	double zetan, zeta2, alpha, eta, two_at; /* zipf */
	double pow;                              /* pareto */
	int64_t stddev;                          /* normal, in blocks */
	struct {
		uint64_t start, len;
	} pick[100]; /* zoned: the zone of percent v (0..99): its first block and length */
};

/* Parses "zipf:1.2", "zoned:60/10:40/90"... with fio's rules; -1 with why
 * (the value quoted, and what fio accepts) in err. */
int randdist_parse(const char *text, struct randdist_spec *s, char *err);

/* Prepares s for nblocks blocks of bs bytes with seed; -1 with why when s
 * does not fit the file (zoned_abs zones beyond its end). */
int randdist_prepare(struct randdist *d, const struct randdist_spec *s, uint64_t nblocks, uint64_t bs,
		 uint64_t seed, char *err);

/* The j-th 64-bit random number of read k. */
static inline uint64_t randdist_rand(uint64_t seed, uint64_t k, uint64_t j)
{
	return splitmix64((seed ^ splitmix64(k)) + j * 0x9e3779b97f4a7c15ULL);
}

/* The block read k reads. */
uint64_t randdist_block(const struct randdist *d, uint64_t seed, uint64_t k);

#endif
