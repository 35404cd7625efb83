/*
 * engine.c - the table of engines.  Adding an engine is one file and one
 * line here; nothing else in iosweep names an engine: the values of the
 * `engine` option, their help and the options each engine takes are read
 * from this table.
 */
#define _GNU_SOURCE
#include "io/engines/engine.h"

#include <string.h>

extern const struct engine_ops engine_sync, engine_aio, engine_mmap, engine_uring, engine_psync2;

static const struct engine_ops *const engines[] = {
	&engine_sync, &engine_aio, &engine_mmap, &engine_uring, &engine_psync2,
};

#define NENGINES (sizeof(engines) / sizeof(engines[0]))

const char *engine_names[NENGINES + 1];

/* The option table points at engine_names before main() runs. */
__attribute__((constructor)) static void engine_names_fill(void)
{
	for (size_t i = 0; i < NENGINES; i++)
		engine_names[i] = engines[i]->name;
}

const struct engine_ops *engine_at(size_t i)
{
	return i < NENGINES ? engines[i] : NULL;
}

const struct engine_ops *engine_find(const char *name)
{
	for (size_t i = 0; i < NENGINES; i++)
		if (strcmp(engines[i]->name, name) == 0)
			return engines[i];
	return NULL;
}
