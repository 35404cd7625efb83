/*
 * engine.c - the table of engines.  Adding an engine is one file and one
 * line here; nothing else in iosweep names an engine.
 */
#define _GNU_SOURCE
#include "engine.h"

#include <string.h>

extern const struct engine_ops engine_sync, engine_aio, engine_mmap, engine_uring;

static const struct engine_ops *const engines[] = {
	&engine_sync, &engine_aio, &engine_mmap, &engine_uring,
};

const struct engine_ops *engine_find(const char *name)
{
	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		if (strcmp(engines[i]->name, name) == 0)
			return engines[i];
	return NULL;
}
