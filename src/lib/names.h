/*
 * names.h - a table of names (file paths), each with a pointer of the
 * caller's: "has this name been seen, and what was found then".
 *
 * glibc's hsearch_r, used for this before, hashes only about the first
 * eight characters of a key (each character is shifted four bits further,
 * out of 32): every file of one directory hashed alike, each look compared
 * strings with every name before it, and `check` of 100 000 jobs on files
 * of one directory took 70 s.  Here each name is hashed whole (XXH3).
 */
#ifndef IOSWEEP_NAMES_H
#define IOSWEEP_NAMES_H

#include <stddef.h>
#include <stdint.h>

struct names {
	struct names_slot {
		const char *name; /* the caller's: it outlives the table; NULL: empty */
		uint64_t hash;
		void *data;
	} *slot;
	size_t mask;
};

/* A table with room for n names, never more (the callers know how many they
 * can add).  -1 on out of memory; names_free() is due either way. */
int names_init(struct names *t, size_t n);
void names_free(struct names *t);
/* The data added with name, or NULL when it was not. */
void *names_find(const struct names *t, const char *name);
/* Adds name, which the table has not (names_find), with data (not NULL). */
void names_add(struct names *t, const char *name, void *data);

#endif
