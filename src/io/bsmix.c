/*
 * bsmix.c - parsing fio's bssplit and bsrange into a block-size mix (see
 * bsmix.h for the draw and the rules, fio's, for the weights).
 */
#define _GNU_SOURCE
#include "io/bsmix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/error.h"
#include "lib/units.h"

/* One SIZE, copied out of [s, e) for the size parser: 0 with *out > 0, or
 * -1, said here rather than through err_set's return: the callers read
 * *out, and divide by it, after a 0 only. */
static int size_of(const char *s, size_t n, uint64_t *out, char *err)
{
	char buf[64], why[ERR_MAX];

	if (n == 0 || n >= sizeof(buf)) {
		err_set(err, "'%.*s' is not a size", (int)(n < 40 ? n : 40), s);
		return -1;
	}
	memcpy(buf, s, n);
	buf[n] = 0;
	if (units_parse_size(buf, out, why) < 0 || *out == 0) {
		err_set(err, "'%s' is not a size (4k, 64k, 1m...)", buf);
		return -1;
	}
	return 0;
}

/* "4k/10:64k/:32k/40" into x.  The sizes are counted in a local, x->n set
 * at the end: size_of writes x->size[i] through a pointer, which to the
 * analyzer could as well have changed x->n. */
static int parse_split(struct bsmix_dir *x, const char *s, size_t len, char *err)
{
	unsigned weight[BSMIX_MAX], given = 0, blanks = 0, best = 0, nsizes = 0;
	bool blank[BSMIX_MAX];
	const char *end = s + len;

	x->n = 0;
	while (s < end) {
		const char *c = memchr(s, ':', (size_t)(end - s)), *e = c ? c : end;
		const char *slash = memchr(s, '/', (size_t)(e - s));
		unsigned i = nsizes;

		if (i == BSMIX_MAX)
			return err_set(err, "more than %d sizes (fio's limit)", BSMIX_MAX);
		if (size_of(s, (size_t)((slash ? slash : e) - s), &x->size[i], err) < 0)
			return -1;
		blank[i] = !slash || slash + 1 == e;
		weight[i] = 0;
		if (!blank[i]) {
			char num[8], *stop;
			size_t n = (size_t)(e - slash - 1);
			unsigned long w;

			if (n >= sizeof(num))
				return err_set(err, "weight '%.*s' is not a percentage (0 to 100)",
					       (int)(n < 20 ? n : 20), slash + 1);
			memcpy(num, slash + 1, n);
			num[n] = 0;
			w = strtoul(num, &stop, 10);
			if (*stop || num[0] < '0' || num[0] > '9' || w > 100)
				return err_set(err, "weight '%s' is not a percentage (0 to 100)", num);
			weight[i] = (unsigned)w;
			given += (unsigned)w;
		} else {
			blanks++;
		}
		nsizes++;
		s = c ? c + 1 : end;
		if (c && s == end)
			return err_set(err, "a ':' with no size after it");
	}
	if (given > 100)
		return err_set(err, "the weights add up to %u%%, more than 100 (fio refuses it too)",
			       given);
	/* len > 0 (bsmix_parse refuses an empty part): nsizes >= 1, and a blank
	 * weight was counted in blanks */
	for (unsigned i = 0; i < nsizes; i++) {
		if (blank[i])
			weight[i] = (100 - given) / blanks;
		x->cum[i] = (i ? x->cum[i - 1] : 0) + weight[i];
		if (weight[i] >= weight[best])
			best = i;
	}
	x->n = nsizes;
	x->rest = best;
	return 0;
}

static int parse_range(struct bsmix_dir *x, const char *s, size_t len, uint64_t align,
		       char *err)
{
	const char *dash = memchr(s, '-', len);
	uint64_t lo, hi, a;

	x->n = 0;
	if (!dash)
		return err_set(err, "'%.*s' is not MIN-MAX (e.g. 4k-64k)", (int)(len < 40 ? len : 40),
			       s);
	if (size_of(s, (size_t)(dash - s), &lo, err) < 0 ||
	    size_of(dash + 1, (size_t)(s + len - dash - 1), &hi, err) < 0)
		return -1;
	if (lo > hi)
		return err_set(err, "'%.*s': the smallest size is larger than the largest (MIN-MAX)",
			       (int)(len < 40 ? len : 40), s);
	a = align ? align : lo;
	x->lo = lo;
	x->step = a;
	x->steps = (hi - lo) / a + 1;
	return 0;
}

static void dir_bounds(const struct bsmix_dir *x, uint64_t *min, uint64_t *max)
{
	if (!x->n) {
		*min = x->lo;
		*max = x->lo + x->step * (x->steps - 1);
		return;
	}
	*min = UINT64_MAX;
	*max = 0;
	for (unsigned i = 0; i < x->n; i++) {
		bool drawn = x->cum[i] > (i ? x->cum[i - 1] : 0) || (i == x->rest && x->cum[x->n - 1] < 100);

		if (!drawn)
			continue; /* a weight of 0: never read */
		*min = x->size[i] < *min ? x->size[i] : *min;
		*max = x->size[i] > *max ? x->size[i] : *max;
	}
}

int bsmix_parse(struct bsmix *m, const char *bssplit, const char *bsrange, uint64_t blockalign,
		uint64_t seed, char *err)
{
	const char *text = bssplit ? bssplit : bsrange;
	const char *comma;
	size_t n0;
	uint64_t lo[2], hi[2];
	char why[ERR_MAX];

	memset(m, 0, sizeof(*m));
	if (!text)
		return err_set(err, "no sizes given");
	comma = strchr(text, ',');
	n0 = comma ? (size_t)(comma - text) : strlen(text);
	if (comma && strchr(comma + 1, ','))
		return err_set(err, "%s: at most two parts, reads,writes (iosweep does not trim)",
			       text);
	for (unsigned d = 0; d < 2; d++) {
		const char *s = d == 0 || !comma ? text : comma + 1;
		size_t len = d == 0 || !comma ? n0 : strlen(comma + 1);
		int rc;

		if (len == 0)
			return err_set(err, "%s: an empty part: give the %s' sizes too (READS,WRITES)",
				       text, d ? "writes" : "reads");
		rc = bssplit ? parse_split(&m->dir[d], s, len, why)
			     : parse_range(&m->dir[d], s, len, blockalign, why);
		if (rc < 0)
			return err_set(err, "%s: %s", text, why);
		dir_bounds(&m->dir[d], &lo[d], &hi[d]);
	}
	m->same = !comma || (n0 == strlen(comma + 1) && strncmp(text, comma + 1, n0) == 0);
	m->key = splitmix64(seed ^ BSMIX_KEY);
	m->min = lo[0] < lo[1] ? lo[0] : lo[1];
	m->max = hi[0] > hi[1] ? hi[0] : hi[1];
	m->align = blockalign ? blockalign : m->min;
	return 0;
}

int bsmix_filesizes(struct bsmix *m, const char *text, uint64_t seed, uint64_t *fixed,
		    char *err)
{
	char why[ERR_MAX];
	bool split;

	*fixed = 0;
	if (!text) /* not set: 0 */
		return 0;
	if (units_parse_size(text, fixed, why) == 0)
		return 0;
	split = strchr(text, '/') || strchr(text, ':');
	if (strchr(text, ','))
		return err_set(err, "%s: a size, MIN-MAX or SIZE/PERCENT:...: a file has one size, "
				    "read or written (no ',')", text);
	if (!split && !strchr(text, '-'))
		return err_set(err, "%s", why);
	if (bsmix_parse(m, split ? text : NULL, split ? NULL : text, 0, seed, err) < 0)
		return -1;
	m->key = splitmix64(seed ^ BSMIX_FILESIZE_KEY);
	return 1;
}

bool bsmix_multiple(const struct bsmix *m, uint64_t a)
{
	for (unsigned d = 0; d < 2; d++) {
		const struct bsmix_dir *x = &m->dir[d];

		if (!x->n && (x->lo % a || (x->steps > 1 && x->step % a)))
			return false;
		for (unsigned i = 0; i < x->n; i++)
			if (x->size[i] % a)
				return false;
	}
	return true;
}
