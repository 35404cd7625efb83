/*
 * intmath.h - integer arithmetic shared by the floors: the greatest common
 * divisor, for the granule of a block-size mix (pattern.c) and for a
 * multiplier coprime with the number of files, which makes each round of
 * a file set's random service a permutation (fileset.c); and the
 * contiguous shares units are split into among ranks and threads (run.c),
 * and a tree's untimed passes among ranks (mdtree.c).
 */
#ifndef IOSWEEP_INTMATH_H
#define IOSWEEP_INTMATH_H

#include <stdint.h>

static inline uint64_t gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* Where share k of n units split into `parts` contiguous shares starts. */
static inline uint64_t share_start(uint64_t n, uint64_t k, uint64_t parts)
{
	return (uint64_t)((unsigned __int128)n * k / parts);
}

#endif
