/*
 * consume.h - what is done with the bytes of each completed read.
 *
 * checksum: the sum, modulo 2^64, of XXH3_64bits_withSeed(block, length,
 * seed = the block's file offset) over every read.  Addition commutes, so
 * the result does not depend on completion order: every engine, iodepth and
 * thread count gives the same checksum for the same reads, and anyone can
 * recompute it.  ints: the sum of the non-negative decimal integers in a
 * file read densely and in order (anything that is not a digit separates
 * numbers).  none: nothing.
 *
 * A consume step keeps its own state (the sum, and the ints parser's number
 * in progress); the I/O core calls it inside the timed region.
 */
#ifndef IOSWEEP_CONSUME_H
#define IOSWEEP_CONSUME_H

#include <stdbool.h>
#include <stdint.h>


/* The values of the job option `consume`, in its order (job/options.c). */
enum consume_kind { CONSUME_NONE, CONSUME_CHECKSUM, CONSUME_INTS };

struct consume;
typedef void (*consume_fn)(struct consume *c, const unsigned char *buf, uint64_t len,
			   uint64_t off);

struct consume {
	consume_fn step;  /* NULL: consume=none */
	uint64_t sum;     /* checksum (sum of xxh3) or sum of integers */
	uint64_t int_acc; /* ints: the number being parsed */
	bool int_open;    /* ints: inside a number */
};

/* A consume step of the given kind, its state at the start of a stream. */
void consume_init(struct consume *c, enum consume_kind kind);
/* Starts a new stream (a repeat) with the same step. */
void consume_reset(struct consume *c);
/* Ends the stream (ints: adds the number the file ends with). */
void consume_finish(struct consume *c);

#endif
