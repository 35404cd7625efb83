/*
 * names.c - see names.h.  Open addressing with linear probing over a power
 * of two of slots, at least twice the names it may hold, so that it is never
 * more than half full and a look ends within a few slots.
 */
#include "lib/names.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

int names_init(struct names *t, size_t n)
{
	size_t slots = 16;

	while (slots < 2 * n)
		slots *= 2;
	t->slot = calloc(slots, sizeof(*t->slot));
	t->mask = slots - 1;
	return t->slot ? 0 : -1;
}

void names_free(struct names *t)
{
	free(t->slot);
	t->slot = NULL;
}

/* The slot that holds name, or the empty one where it would go. */
static struct names_slot *slot_of(const struct names *t, const char *name, uint64_t hash)
{
	size_t i = (size_t)hash & t->mask;

	while (t->slot[i].name && (t->slot[i].hash != hash || strcmp(t->slot[i].name, name) != 0))
		i = (i + 1) & t->mask;
	return &t->slot[i];
}

void *names_find(const struct names *t, const char *name)
{
	return slot_of(t, name, XXH3_64bits(name, strlen(name)))->data;
}

void names_add(struct names *t, const char *name, void *data)
{
	uint64_t hash = XXH3_64bits(name, strlen(name));

	*slot_of(t, name, hash) = (struct names_slot){ name, hash, data };
}
