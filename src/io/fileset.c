/*
 * fileset.c - a job's file set: its names and the map of units to files
 * (see fileset.h).  Everything here runs before the timed loop, which only
 * calls the inline fileset_map().
 */
#define _GNU_SOURCE
#include "io/fileset.h"
#include "lib/intmath.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const fileset_service_names[] = { [FILESET_ROUNDROBIN] = "roundrobin",
					      [FILESET_SEQUENTIAL] = "sequential",
					      [FILESET_RANDOM] = "random",
					      [FILESET_SHUFFLE] = "shuffle", NULL };

void fileset_map_init(struct fileset_map *m, unsigned n, uint64_t size, uint64_t bs,
		      enum fileset_service service, uint64_t seed, const int *fds)
{
	*m = (struct fileset_map){ .n = n, .size = size, .bs = bs, .per_file = size / bs,
				   .seed = splitmix64(seed ^ 0x66696c6573ULL), .mult = 1,
				   .service = service, .fds = fds };
	/* a multiplier coprime with n, drawn from the seed: each round's
	 * shuffle is then a permutation of the files */
	if (n > 2)
		for (uint64_t c = 1 + m->seed % (n - 1);; c = c % (n - 1) + 1)
			if (gcd_u64(c, n) == 1) {
				m->mult = c;
				break;
			}
}

static char *replace(const char *s, const char *key, const char *with)
{
	const char *at = strstr(s, key);
	char *out;

	if (!at)
		return strdup(s);
	if (asprintf(&out, "%.*s%s%s", (int)(at - s), s, with, at + strlen(key)) < 0)
		return NULL;
	return out;
}

int fileset_path(const char *template, unsigned k, char *buf, size_t n)
{
	char num[16], *p;
	int len;

	snprintf(num, sizeof(num), "%u", k);
	p = replace(template, "$filenum", num);
	if (!p)
		return -1;
	len = snprintf(buf, n, "%s", p);
	free(p);
	return len < 0 || (size_t)len >= n ? -1 : 0;
}

char *fileset_template(const char *dir, const char *fmt, const char *jobname)
{
	char *name = strdup(fmt), *out;

	/* every $jobname, one at a time */
	while (name && strstr(name, "$jobname")) {
		char *next = replace(name, "$jobname", jobname);

		free(name);
		name = next;
	}
	if (!name)
		return NULL;
	if (asprintf(&out, "%s/%s", dir, name) < 0)
		out = NULL;
	free(name);
	return out;
}

bool fileset_template_distinct(const char *template, unsigned n)
{
	const char *last = strrchr(template, '/');

	return n <= 1 || strstr(last ? last + 1 : template, "$filenum") != NULL;
}
