/*
 * intmath.h - integer arithmetic shared by the floors: the greatest common
 * divisor, for the granule of a block-size mix (pattern.c) and for a
 * multiplier coprime with the number of files, which makes each round of
 * a file set's random service a permutation (fileset.c).
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

#endif
