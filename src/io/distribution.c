/*
 * distribution.c - fio's random distributions over a file's blocks (see
 * distribution.h).  Parsing follows fio's options.c (str_random_distribution_cb,
 * zone_split_ddir), drawing fio's lib/zipf.c, lib/gauss.c and io_u.c, with
 * splitmix64 of the seed and the read number as the uniform source.
 */
#define _GNU_SOURCE
#include "io/distribution.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/error.h"
#include "lib/units.h"

#define GOLDEN_RATIO_64 0x61C8864680B583EBULL /* fio's __hash_u64 */
#define GAUSS_ITERS 12                         /* fio's lib/gauss.c */
#define ZETA_EXACT 10000 /* zeta's terms added one by one; the rest in closed form */

static const struct {
	const char *name;
	enum randdist_kind kind;
	double def; /* fio's default parameter */
} families[] = {
	{ "random", RANDDIST_UNIFORM, 0 },	{ "zipf", RANDDIST_ZIPF, 1.1 },	{ "pareto", RANDDIST_PARETO, 0.2 },
	{ "normal", RANDDIST_NORMAL, 0 },	{ "zoned", RANDDIST_ZONED, 0 },	{ "zoned_abs", RANDDIST_ZONED_ABS, 0 },
};

static int parse_double(const char *s, const char *end, double *v)
{
	char buf[64], *e;
	size_t len = (size_t)(end - s);

	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*v = strtod(buf, &e);
	return *e || errno || !isfinite(*v) ? -1 : 0;
}

/* "θ[:c]" after zipf:, pareto:, normal:. */
static int parse_param(const char *text, const char *p, struct randdist_spec *s, char *err)
{
	const char *colon = strchr(p, ':');

	if (parse_double(p, colon ? colon : p + strlen(p), &s->param) < 0 ||
	    (colon && parse_double(colon + 1, colon + strlen(colon), &s->center) < 0))
		return err_set(err, "'%s': not a number where fio takes one (e.g. zipf:1.2 or "
				    "zipf:1.2:0.25)", text);
	if (colon && (s->center < 0 || s->center > 1))
		return err_set(err, "'%s': the center must be between 0 and 1 (fio's rule)", text);
	if (s->kind == RANDDIST_ZIPF && (s->param <= 0 || s->param == 1.0))
		return err_set(err, "'%s': zipf's theta must be greater than 0 and not 1 "
				    "(e.g. zipf:1.2)", text);
	if (s->kind == RANDDIST_PARETO && (s->param <= 0 || s->param >= 1))
		return err_set(err, "'%s': pareto's h must be between 0 and 1, both excluded "
				    "(fio's rule; e.g. pareto:0.2)", text);
	if (s->kind == RANDDIST_NORMAL && (s->param < 0 || s->param >= 100))
		return err_set(err, "'%s': normal's deviation must be at least 0 and below 100 "
				    "(percent; fio's rule)", text);
	return 0;
}

/* One zone "A/S" (S missing: a share of what the others leave); size
 * UINT64_MAX while missing. */
static int parse_zone(const char *text, const char *z, const char *end, bool abs,
		      struct randdist_spec *s, char *err)
{
	const char *slash = memchr(z, '/', (size_t)(end - z));
	char num[64], why[ERR_MAX], *e;
	unsigned long a;
	size_t len = (size_t)((slash ? slash : end) - z);

	if (s->nzones == RANDDIST_ZONES_MAX)
		return err_set(err, "'%s': more than %d zones (fio's limit)", text, RANDDIST_ZONES_MAX);
	if (len == 0 || len >= sizeof(num))
		return err_set(err, "'%s': a zone is ACCESS%%/SIZE (e.g. zoned:60/10:40/90)", text);
	memcpy(num, z, len);
	num[len] = '\0';
	errno = 0;
	a = strtoul(num, &e, 10);
	if (*e || errno || a > 100 || num[0] == '-' || num[0] == '+')
		return err_set(err, "'%s': '%s' is not a percentage of the accesses (0 to 100)",
			       text, num);
	s->zone[s->nzones].access = (unsigned)a;
	s->zone[s->nzones].size = UINT64_MAX;
	if (slash) {
		uint64_t v;

		len = (size_t)(end - slash - 1);
		if (len == 0) { /* "A/": as fio, a share of what the others leave */
			s->nzones++;
			return 0;
		}
		if (len >= sizeof(num))
			return err_set(err, "'%s': zone size '%.*s' is too long", text, (int)len,
				       slash + 1);
		memcpy(num, slash + 1, len);
		num[len] = '\0';
		if (abs ? units_parse_size(num, &v, why) < 0 : units_parse_uint(num, &v, why) < 0)
			return err_set(err, "'%s': zone size '%s': %s", text, num, abs ? why : "not a "
				       "whole percentage");
		if (v == 0 || (!abs && v > 100))
			return err_set(err, "'%s': zone size '%s' must be %s", text, num,
				       abs ? "greater than zero" : "a percentage from 1 to 100");
		s->zone[s->nzones].size = v;
	}
	s->nzones++;
	return 0;
}

/* fio's zone_split_ddir: access percentages sum to 100, size percentages
 * to at most 100; missing sizes share what the others leave. */
static int parse_zones(const char *text, const char *p, bool abs, struct randdist_spec *s,
		       char *err)
{
	unsigned access = 0, missing = 0;
	uint64_t sizes = 0;

	while (*p) {
		const char *end = strchr(p, ':');

		if (!end)
			end = p + strlen(p);
		if (parse_zone(text, p, end, abs, s, err) < 0)
			return -1;
		p = *end ? end + 1 : end;
	}
	if (s->nzones == 0)
		return err_set(err, "'%s': no zones (e.g. zoned:60/10:40/90)", text);
	for (unsigned i = 0; i < s->nzones; i++) {
		access += s->zone[i].access;
		if (s->zone[i].size == UINT64_MAX)
			missing++;
		else if (!abs)
			sizes += s->zone[i].size;
	}
	if (access != 100)
		return err_set(err, "'%s': the access percentages add up to %u, not 100 (fio's rule)",
			       text, access);
	if (sizes > 100)
		return err_set(err, "'%s': the zones' sizes add up to %llu%%, more than the file",
			       text, (unsigned long long)sizes);
	if (missing && abs)
		return err_set(err, "'%s': zoned_abs needs every zone's size (e.g. 60/20g)", text);
	if (missing && (100 - sizes) / missing == 0)
		return err_set(err, "'%s': no room left for the zones without a size", text);
	for (unsigned i = 0; missing && i < s->nzones; i++)
		if (s->zone[i].size == UINT64_MAX)
			s->zone[i].size = (100 - sizes) / missing;
	return 0;
}

int randdist_parse(const char *text, struct randdist_spec *s, char *err)
{
	size_t nlen = strcspn(text, ":");

	memset(s, 0, sizeof(*s));
	s->center = -1;
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		if (strlen(families[i].name) != nlen || strncmp(families[i].name, text, nlen) != 0)
			continue;
		s->kind = families[i].kind;
		s->param = families[i].def;
		if (s->kind == RANDDIST_ZONED || s->kind == RANDDIST_ZONED_ABS)
			return parse_zones(text, text[nlen] ? text + nlen + 1 : text + nlen,
					   s->kind == RANDDIST_ZONED_ABS, s, err);
		if (!text[nlen])
			return 0;
		if (s->kind == RANDDIST_UNIFORM)
			return err_set(err, "'%s': random takes no parameter", text);
		return parse_param(text, text + nlen + 1, s, err);
	}
	return err_set(err, "'%s': unknown distribution (random, zipf:THETA, pareto:H, normal:DEV, "
			    "zoned:A/S:..., zoned_abs:A/SIZE:...)", text);
}

/* zeta(n, θ) = sum of i^-θ for i = 1..n: the first ZETA_EXACT terms one by
 * one (as fio adds them), the rest by Euler-Maclaurin (integral, end terms
 * and the first derivative's correction; the next term is below 1e-15). */
static double zeta(uint64_t n, double theta)
{
	uint64_t m = n < ZETA_EXACT ? n : ZETA_EXACT;
	double z = 0, M = (double)m, N = (double)n;

	for (uint64_t i = 0; i < m; i++)
		z += pow(1.0 / (double)(i + 1), theta);
	if (n > m)
		z += (pow(N, 1.0 - theta) - pow(M, 1.0 - theta)) / (1.0 - theta) +
		     (pow(N, -theta) - pow(M, -theta)) / 2.0 -
		     theta * (pow(N, -theta - 1.0) - pow(M, -theta - 1.0)) / 12.0;
	return z;
}

static int prepare_zones(struct randdist *d, const struct randdist_spec *s, uint64_t bs, char *err)
{
	uint64_t size_prev = 0, v = 0;

	for (unsigned i = 0; i < s->nzones; i++) {
		uint64_t size = size_prev + s->zone[i].size, start, end;
		char a[32], b[32];

		if (s->kind == RANDDIST_ZONED) {
			start = size_prev * d->n / 100;
			end = size * d->n / 100;
		} else {
			if (size < size_prev || size / bs > d->n) {
				units_fmt_size(size < size_prev ? UINT64_MAX : size, a, sizeof(a));
				units_fmt_size(d->n * bs, b, sizeof(b));
				return err_set(err, "zoned_abs: the zones end at %s, beyond the %s of "
						    "whole blocks the file has", a, b);
			}
			start = size_prev / bs;
			end = size / bs;
		}
		if (start >= d->n)
			start = d->n - 1;
		if (end < start)
			end = start;
		for (unsigned k = 0; k < s->zone[i].access; k++, v++) {
			d->pick[v].start = start;
			d->pick[v].len = end - start;
		}
		size_prev = size;
	}
	return 0;
}

int randdist_prepare(struct randdist *d, const struct randdist_spec *s, uint64_t nblocks, uint64_t bs,
		 uint64_t seed, char *err)
{
	memset(d, 0, sizeof(*d));
	d->kind = s->kind;
	d->n = nblocks ? nblocks : 1;
	d->rand_off = s->center >= 0 ? (uint64_t)((double)d->n * s->center) % d->n
				     : splitmix64(splitmix64(seed)) % d->n;
	switch (s->kind) {
	case RANDDIST_UNIFORM:
		return 0;
	case RANDDIST_ZIPF:
		d->zetan = zeta(d->n, s->param);
		d->zeta2 = pow(1.0, s->param) + pow(0.5, s->param);
		d->alpha = 1.0 / (1.0 - s->param);
		d->eta = (1.0 - pow(2.0 / (double)d->n, 1.0 - s->param)) / (1.0 - d->zeta2 / d->zetan);
		d->two_at = 1.0 + pow(0.5, s->param);
		return 0;
	case RANDDIST_PARETO:
		d->pow = log(s->param) / log(1.0 - s->param);
		return 0;
	case RANDDIST_NORMAL:
		if (s->param != 0.0) {
			d->stddev = (int64_t)ceil((double)d->n * s->param / 100.0);
			if ((uint64_t)d->stddev > d->n / 2)
				d->stddev = (int64_t)(d->n / 2);
		}
		/* fio: nranges * (center - 0.5), from the middle */
		d->rand_off = s->center < 0 ? 0
			      : (uint64_t)(((int64_t)((double)d->n * (s->center - 0.5)) % (int64_t)d->n +
					    (int64_t)d->n) % (int64_t)d->n);
		return 0;
	case RANDDIST_ZONED:
	case RANDDIST_ZONED_ABS:
		return prepare_zones(d, s, bs, err);
	}
	return 0;
}

static inline double unit_interval(uint64_t r)
{
	return (double)(r >> 11) * 0x1.0p-53;
}

static inline uint64_t scatter(const struct randdist *d, uint64_t rank)
{
	return (rank * GOLDEN_RATIO_64 + d->rand_off) % d->n;
}

static uint64_t zipf_rank(const struct randdist *d, double u)
{
	double z = u * d->zetan, x;

	if (z < 1.0)
		return 0;
	if (z < d->two_at)
		return 1;
	x = (double)d->n * pow(d->eta * u - d->eta + 1.0, d->alpha);
	return x < (double)d->n ? (uint64_t)x : d->n; /* NaN too */
}

static uint64_t normal_rank(const struct randdist *d, uint64_t seed, uint64_t k)
{
	uint64_t sum = 0;
	int64_t dev, s;

	/* fio takes each draw mod (n + 1); the multiply-shift is as uniform and
	 * saves 12 divisions a read */
	for (uint64_t j = 0; j < GAUSS_ITERS; j++)
		sum += (uint64_t)(((unsigned __int128)randdist_rand(seed, k, j) * (d->n + 1)) >> 64);
	sum = (sum + GAUSS_ITERS - 1) / GAUSS_ITERS;
	if (!d->stddev)
		return sum;
	s = (int64_t)sum;
	dev = (int64_t)((double)d->stddev * unit_interval(randdist_rand(seed, k, GAUSS_ITERS))) -
	      d->stddev / 2;
	while (dev != 0 && (s + dev < 0 || s + dev >= (int64_t)d->n))
		dev /= 2;
	return (uint64_t)(s + dev);
}

uint64_t randdist_block(const struct randdist *d, uint64_t seed, uint64_t k)
{
	uint64_t r = randdist_rand(seed, k, 0);

	switch (d->kind) {
	case RANDDIST_ZIPF:
		return scatter(d, zipf_rank(d, unit_interval(r)));
	case RANDDIST_PARETO:
		return scatter(d, (uint64_t)((double)(d->n - 1) * pow(unit_interval(r), d->pow)));
	case RANDDIST_NORMAL:
		return scatter(d, normal_rank(d, seed, k));
	case RANDDIST_ZONED:
	case RANDDIST_ZONED_ABS: {
		unsigned v = (unsigned)(((unsigned __int128)r * 100) >> 64);
		uint64_t r1 = randdist_rand(seed, k, 1);

		return d->pick[v].start +
		       (uint64_t)(((unsigned __int128)r1 * d->pick[v].len) >> 64);
	}
	case RANDDIST_UNIFORM:
		break;
	}
	return (uint64_t)(((unsigned __int128)r * d->n) >> 64);
}
