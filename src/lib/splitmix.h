/*
 * splitmix.h - splitmix64 (Steele, Lea, Flood 2014; Vigna's constants):
 * a bijective 64-bit mixer, the one source of pseudo-random numbers for
 * random offsets (pattern.c) and random file content (prepare.c).  Both
 * call it with a counter, so any part of a sequence can be had on its own.
 */
#ifndef IOSWEEP_SPLITMIX_H
#define IOSWEEP_SPLITMIX_H

#include <stdint.h>

static inline uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

#endif
