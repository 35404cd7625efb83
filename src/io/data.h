/*
 * data.h - what iosweep writes, and how it recognizes it when read back.
 *
 * Written data is a function of (seed, byte position) only, laid out in
 * 4 KiB units on a grid of absolute file offsets.  A unit starts with a
 * 32-byte header (magic, the unit's offset, the seed, a check word derived
 * from both) followed by generator bytes; `compress` percent of each unit's
 * tail are zeros, and `zero` data is all zeros (no header).  Because the
 * content does not depend on block size, engine or order, a read run of the
 * same blocks reports the checksum the write run reported, and a file can
 * be verified with any block layout.
 *
 * data_produce() is the write-side analogue of the consume step: it runs in
 * the timed loop, allocates nothing, and only reads the generator, so one
 * generator serves every thread.
 */
#ifndef IOSWEEP_DATA_H
#define IOSWEEP_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/pattern.h"
#include "lib/splitmix.h"

/* The values of the job option `data`, in its order (job/options.c). */
enum data_kind { DATA_RANDOM, DATA_ZERO };

#define DATA_UNIT 4096u
#define DATA_HEADER 32u

struct data_gen {
	enum data_kind kind;
	uint64_t seed, key;
	uint64_t mix_key;       /* op=readwrite: which blocks are read */
	unsigned random_bytes;  /* of a unit's bytes after the header; the rest are zeros */
	uint64_t *pool;         /* words the units are cut from */
};

/* The memory data_gen_init() allocates for kind, in bytes. */
size_t data_gen_bytes(enum data_kind kind);
/* Builds the generator (allocates its pool); -1 with err. */
int data_gen_init(struct data_gen *g, enum data_kind kind, unsigned compress_pct, uint64_t seed,
		  char *err);
void data_gen_free(struct data_gen *g);

/* A number 0..99 drawn from (seed, off): which blocks of a mixed run are
 * read.  The same for the same seed and offset, whatever order or thread. */
static inline unsigned data_draw_percent(const struct data_gen *g, uint64_t off)
{
	return (unsigned)(((unsigned __int128)splitmix64(g->mix_key ^ off) * 100) >> 64);
}

/* The key data_draw_percent draws with for seed (a data_gen's mix_key),
 * for those that draw directions without a generator (pattern_mix). */
uint64_t data_mix_key(uint64_t seed);

/* Fills buf with the len bytes that belong at file offset off. */
void data_produce(const struct data_gen *g, unsigned char *buf, uint64_t len, uint64_t off);

/* What a bad block holds, in the words a report uses. */
enum data_fault_kind {
	FAULT_NONE,
	FAULT_CORRUPT,   /* our unit, a few bytes differ (a flipped bit, a bad copy) */
	FAULT_TORN,      /* some sectors are ours, the others hold something else */
	FAULT_STALE,     /* a whole unit of iosweep data for this offset, another seed */
	FAULT_MISPLACED, /* a whole unit of iosweep data that belongs at another offset */
	FAULT_ZEROS,     /* zeros where data was expected (a hole, a lost write) */
	FAULT_FOREIGN,   /* nothing iosweep wrote */
};

struct data_fault {
	enum data_fault_kind kind;
	uint64_t off;        /* file offset of the first byte that differs */
	uint64_t unit_off;   /* file offset of the unit it is in */
	uint64_t bytes;      /* bytes of that unit (within the block) that differ */
	uint64_t other;      /* stale: the seed found; misplaced: the offset found */
	unsigned first_sector, last_sector; /* torn: 512-byte sectors of the unit that differ */
};

/* Compares buf (len bytes read at file offset off) with what data_produce
 * writes there.  true when equal; else false with the first bad unit
 * described in *f. */
bool data_check(const struct data_gen *g, const unsigned char *buf, uint64_t len, uint64_t off,
		struct data_fault *f);

/* One line: "offset 12288: torn: sectors 4-7 of the 4 KiB unit at 12288 are not
 * this write's". */
void data_fault_describe(const struct data_fault *f, char *buf, size_t n);

/* Reads back the blocks of a pattern share from fd (buffered: the caller
 * flushes and evicts the file first so that the blocks come from storage)
 * and checks them; not timed.  Blocks an op=readwrite run with this
 * rwmixread reads are skipped (0: none is).  0 when all are good; 1 with
 * *f at the first bad one; -1 with err when a read fails.  buf holds at
 * least bs bytes.  *checked counts the bytes checked. */
int data_verify(const struct data_gen *g, int fd, struct pattern *p, unsigned rwmixread,
		unsigned char *buf, struct data_fault *f, uint64_t *checked, char *err);

#endif
