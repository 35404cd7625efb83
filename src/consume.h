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
 */
#ifndef IOSWEEP_CONSUME_H
#define IOSWEEP_CONSUME_H

#include "engine.h"
#include "options.h"

consume_fn consume_select(enum consume_kind kind);
/* Ends the worker's stream (ints: adds the number the file ends with). */
void consume_finish(struct worker *w);

#endif
