/*
 * fileset.h - a job's file set: nrfiles files of filesize bytes, one address
 * space for the pattern, and which file each I/O goes to.
 *
 * The pattern draws offsets in [0, nrfiles * filesize) as it would in one
 * file of that size; before the unit is issued, fileset_map() turns the
 * offset into a file and an offset in it by arithmetic alone, decided by
 * file_service_type (fio's word):
 *   sequential  the set laid end to end in file order: each file done
 *               before the next;
 *   roundrobin  block b goes to file b mod n, block b / n of it: the next
 *               file each I/O, each file in the pattern's order;
 *   random      the same rounds of n blocks, each round a seeded shuffle of
 *               the files (an affine permutation keyed by the round), so
 *               every file is served once every n I/Os, in an order no one
 *               can guess; fio draws each file independently instead.
 * Nothing is stored per I/O and any share of the units maps on its own, so
 * threads and repeats work as on one file.
 *
 * A unit keeps as its offset the *set offset* file * filesize + offset in
 * the file: the checksum's seed (consume.h), a write's data and the mix of
 * directions are those of the set laid end to end, the same whichever
 * service type, engine or thread count.
 */
#ifndef IOSWEEP_FILESET_H
#define IOSWEEP_FILESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/engines/engine.h"
#include "lib/splitmix.h"

/* The values of the job option `file_service_type`, in its order. */
/* shuffle is opendir's only (a new order of its files every repeat: io/dirscan.h) */
enum fileset_service { FILESET_ROUNDROBIN, FILESET_SEQUENTIAL, FILESET_RANDOM, FILESET_SHUFFLE };
extern const char *const fileset_service_names[];

/* The most files a set may have (each is open for the whole run). */
#define FILESET_MAX 65536
/* Descriptors a run keeps besides its set's (outputs, engines, devices). */
#define FILESET_FD_SPARE 64

/*
 * A set whose files have sizes of their own (filesize drawn file by file:
 * MIN-MAX or SIZE/PERCENT:..., each a multiple of bs).  The set is still
 * laid end to end, file k from start[k]; sequential finds the file of an
 * offset by binary search.  Roundrobin and random go round by depth: round
 * d holds block d of every file that has more than d blocks, so a round
 * has fewer files once the smaller ones are done.  The rounds fall into
 * segments between the files' distinct block counts, each with as many
 * files (the largest ones: order[0 .. active-1]) and its own multiplier
 * for random's shuffle; a unit finds its segment by binary search.  With
 * every file of one size there is one segment, and the map is the plain
 * one's.
 */
struct fileset_seg {
	uint64_t first;      /* the roundrobin block it starts at */
	uint64_t depth;      /* the block of a file its first round is at */
	uint32_t active;     /* the files of each of its rounds */
	uint64_t mult;       /* random: coprime with active */
};
struct fileset_layout {
	unsigned n;
	uint64_t *start;     /* n + 1: where file k starts in the set; start[n]: its bytes */
	uint32_t *order;     /* the files, most blocks first (ties: file order) */
	struct fileset_seg *seg;
	unsigned nseg;
};

/* The layout of n files, file k size(k, arg) bytes (a multiple of bs, at
 * least bs); seed keys random's multipliers as fileset_map_init's.  0, or
 * -1 when out of memory.  Not timed: O(n log n). */
int fileset_layout_init(struct fileset_layout *l, unsigned n, uint64_t bs, uint64_t seed,
			uint64_t (*size)(unsigned k, const void *arg), const void *arg);
void fileset_layout_free(struct fileset_layout *l);

/* How a worker's units are spread over the set; n == 0: one file. */
struct fileset_map {
	unsigned n;          /* files */
	uint64_t size;       /* bytes per file, a multiple of bs */
	uint64_t bs;
	uint64_t per_file;   /* size / bs */
	uint64_t seed;       /* random: keys each round's shuffle */
	uint64_t mult;       /* random: a multiplier coprime with n */
	enum fileset_service service;
	const int *fds;      /* n descriptors, file order */
	const struct fileset_layout *lay; /* files of their own sizes, or NULL */
};

/* Prepares m for n files of size bytes (size % bs == 0) on fds, or, with
 * lay, of the sizes it holds (size is then ignored). */
void fileset_map_init(struct fileset_map *m, unsigned n, uint64_t size, uint64_t bs,
		      enum fileset_service service, uint64_t seed, const int *fds,
		      const struct fileset_layout *lay);

/* fileset_map() for files of their own sizes. */
unsigned fileset_map_drawn(const struct fileset_map *m, uint64_t off, uint64_t *set_off);

/* The file the pattern's offset off goes to; *set_off its set offset. */
static inline unsigned fileset_map(const struct fileset_map *m, uint64_t off, uint64_t *set_off)
{
	uint64_t b = off / m->bs, rest = off % m->bs, file, fb;

	if (m->lay)
		return fileset_map_drawn(m, off, set_off);
	if (m->service == FILESET_SEQUENTIAL) {
		*set_off = off;
		return (unsigned)(b / m->per_file);
	}
	fb = b / m->n;
	file = b % m->n;
	if (m->service == FILESET_RANDOM)
		file = (file * m->mult + splitmix64(m->seed ^ fb) % m->n) % m->n;
	*set_off = file * m->size + fb * m->bs + rest;
	return (unsigned)file;
}

/* Where file k starts in the set: its set offsets less this are offsets in it. */
static inline uint64_t fileset_start(const struct fileset_map *m, unsigned k)
{
	return m->lay ? m->lay->start[k] : (uint64_t)k * m->size;
}

/* The path of file k: template with $filenum replaced by k.  -1 when it
 * does not fit n bytes. */
int fileset_path(const char *template, unsigned k, char *buf, size_t n);

/* Expands $jobname in fmt and joins it to dir: the set's path template
 * (malloc'ed), or NULL on out of memory. */
char *fileset_template(const char *dir, const char *fmt, const char *jobname);

/* Whether a template names n different files: $filenum in its last name. */
bool fileset_template_distinct(const char *template, unsigned n);

#endif
