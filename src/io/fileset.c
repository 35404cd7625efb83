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

#define SHUFFLE_KEY 0x66696c6573ULL

/* A multiplier coprime with n, drawn from the (keyed) seed: each round's
 * shuffle is then a permutation of the files. */
static uint64_t coprime(uint64_t seed, uint64_t n)
{
	if (n <= 2)
		return 1;
	for (uint64_t c = 1 + seed % (n - 1);; c = c % (n - 1) + 1)
		if (gcd_u64(c, n) == 1)
			return c;
}

void fileset_map_init(struct fileset_map *m, unsigned n, uint64_t size, uint64_t bs,
		      enum fileset_service service, uint64_t seed, const int *fds,
		      const struct fileset_layout *lay)
{
	*m = (struct fileset_map){ .n = n, .size = size, .bs = bs, .per_file = size / bs,
				   .seed = splitmix64(seed ^ SHUFFLE_KEY), .service = service,
				   .fds = fds, .lay = lay };
	m->mult = coprime(m->seed, n);
}

/* qsort_r over start: most bytes first, then file order */
static int by_size(const void *a, const void *b, void *arg)
{
	const uint64_t *start = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t bx = start[x + 1] - start[x], by = start[y + 1] - start[y];

	return bx != by ? (bx < by ? 1 : -1) : (x > y) - (x < y);
}

int fileset_layout_init(struct fileset_layout *l, unsigned n, uint64_t bs, uint64_t seed,
			uint64_t (*size)(unsigned k, const void *arg), const void *arg)
{
	uint64_t key = splitmix64(seed ^ SHUFFLE_KEY), first = 0, depth = 0;

	*l = (struct fileset_layout){ .n = n, .start = malloc((n + 1) * sizeof(uint64_t)),
				      .order = malloc(n * sizeof(uint32_t)),
				      .seg = malloc(n * sizeof(struct fileset_seg)) };
	if (!l->start || !l->order || !l->seg) {
		fileset_layout_free(l);
		return -1;
	}
	l->start[0] = 0;
	for (unsigned k = 0; k < n; k++) {
		l->start[k + 1] = l->start[k] + size(k, arg);
		l->order[k] = k;
	}
	qsort_r(l->order, n, sizeof(uint32_t), by_size, l->start);
	/* segment: the rounds between two distinct block counts, from the
	 * smallest file up; order[0 .. active-1] are the files longer than depth */
	for (unsigned active = n; active > 0;) {
		uint32_t last = l->order[active - 1];
		uint64_t blocks = (l->start[last + 1] - l->start[last]) / bs;
		unsigned same = active;

		if (blocks > depth) {
			l->seg[l->nseg++] = (struct fileset_seg){
				.first = first, .depth = depth, .active = active,
				.mult = coprime(key, active) };
			first += (blocks - depth) * active;
			depth = blocks;
		}
		while (same > 0 && (l->start[l->order[same - 1] + 1] -
				    l->start[l->order[same - 1]]) / bs == blocks)
			same--;
		active = same;
	}
	return 0;
}

void fileset_layout_free(struct fileset_layout *l)
{
	free(l->start);
	free(l->order);
	free(l->seg);
	*l = (struct fileset_layout){ 0 };
}

unsigned fileset_map_drawn(const struct fileset_map *m, uint64_t off, uint64_t *set_off)
{
	const struct fileset_layout *l = m->lay;
	uint64_t b = off / m->bs, rest = off % m->bs, r, d, i;
	unsigned lo = 0, hi;
	const struct fileset_seg *s;

	if (m->service == FILESET_SEQUENTIAL) { /* the last file starting at or before off */
		for (hi = l->n; hi - lo > 1;) {
			unsigned mid = lo + (hi - lo) / 2;

			if (l->start[mid] <= off)
				lo = mid;
			else
				hi = mid;
		}
		*set_off = off;
		return lo;
	}
	for (hi = l->nseg; hi - lo > 1;) {
		unsigned mid = lo + (hi - lo) / 2;

		if (l->seg[mid].first <= b)
			lo = mid;
		else
			hi = mid;
	}
	s = &l->seg[lo];
	r = b - s->first;
	d = s->depth + r / s->active;
	i = r % s->active;
	if (m->service == FILESET_RANDOM)
		i = (i * s->mult + splitmix64(m->seed ^ d) % s->active) % s->active;
	*set_off = l->start[l->order[i]] + d * m->bs + rest;
	return l->order[i];
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
