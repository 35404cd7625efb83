/*
 * steady.c - steady state and cliffs over a series (see steady.h).
 */
#include "io/steady.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "lib/error.h"
#include "lib/stats.h"

const char *const steady_metric_names[] = { "iops", "bw", "lat", NULL };

/* "NAME[_slope|_snia]" into *m and the rule; false: no such name. */
static bool parse_name(const char *name, size_t len, enum steady_metric *m, enum steady_rule *r)
{
	static const char *const rules[] = { "", "_slope", "_snia" };

	for (int k = 0; steady_metric_names[k]; k++)
		for (int j = 0; j < 3; j++) {
			char word[16];

			snprintf(word, sizeof(word), "%s%s", steady_metric_names[k], rules[j]);
			if (strlen(word) == len && strncasecmp(word, name, len) == 0) {
				*m = (enum steady_metric)k;
				*r = (enum steady_rule)j;
				return true;
			}
		}
	return false;
}

int steady_parse(const char *text, enum steady_metric *m, struct steady_spec *sp, char *err)
{
	const char *colon = strchr(text, ':');
	size_t len = colon ? (size_t)(colon - text) : strlen(text);
	char *end;

	memset(sp, 0, sizeof(*sp));
	if (!parse_name(text, len, m, &sp->rule))
		return err_set(err, "'%s' is no criterion (iops, iops_slope, bw, bw_slope, lat, "
				    "lat_slope with :LIMIT as fio writes them, e.g. iops_slope:1%%; "
				    "or iops_snia, bw_snia, lat_snia)", text);
	if (sp->rule == STEADY_SNIA) {
		sp->window = STEADY_SNIA_WINDOW;
		if (colon)
			return err_set(err, "'%s': the SNIA rule has its own limits (20%% data, 10%% "
					    "slope excursion): leave out ':%s'", text, colon + 1);
		return 0;
	}
	if (!colon || !colon[1])
		return err_set(err, "'%s' needs a limit, as fio writes it (e.g. %.*s:1%%)", text,
			       (int)len, text);
	sp->limit = strtod(colon + 1, &end);
	sp->pct = *end == '%';
	if (end == colon + 1 || end[sp->pct] != '\0' || !isfinite(sp->limit))
		return err_set(err, "'%s': the limit '%s' is not a number (e.g. 1%% or 20)", text,
			       colon + 1);
	if (sp->limit <= 0)
		return err_set(err, "'%s': a limit of %s is never met (greater than 0, e.g. 1%%)",
			       text, colon + 1);
	return 0;
}

/* Student's t, two-sided 95%, for 1 to 30 degrees of freedom; 1.96 beyond. */
static double t95(size_t df)
{
	static const double t[] = { 0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
				    2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
				    2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
				    2.060, 2.056, 2.052, 2.048, 2.045, 2.042 };

	return df < sizeof(t) / sizeof(t[0]) ? t[df] : 1.96;
}

/* fio's slope: least squares over x = 0..w-1, from sums (exact for whole
 * numbers below 2^53, as fio's integer sums are). */
static double slope_of(const double *y, size_t w)
{
	double sum_x = (double)w * (double)(w - 1) / 2;
	double sum_x_sq = (double)(w - 1) * (double)w * (double)(2 * w - 1) / 6;
	double sum_y = 0, sum_xy = 0;

	for (size_t i = 0; i < w; i++) {
		sum_y += y[i];
		sum_xy += (double)i * y[i];
	}
	return (sum_xy - sum_x * sum_y / (double)w) / (sum_x_sq - sum_x * sum_x / (double)w);
}

static void window_stats(const double *y, size_t w, struct steady_verdict *v)
{
	double sd;

	stats_mean_sd(y, w, &v->mean, &sd);
	v->ci95 = w > 1 ? t95(w - 1) * sd / sqrt((double)w) : NAN;
	v->slope = w > 1 ? slope_of(y, w) : 0;
}

static void judge_range(const struct steady_spec *sp, const double *y, size_t w,
			struct steady_verdict *v)
{
	double dev = 0;

	for (size_t i = 0; i < w; i++)
		dev = fmax(dev, fabs(y[i] - v->mean));
	v->excursion = dev;
	v->criterion = sp->pct ? 100.0 * dev / v->mean : dev;
	v->attained = v->criterion < sp->limit;
}

static void judge_slope(const struct steady_spec *sp, const double *y, size_t w,
			struct steady_verdict *v)
{
	double sum_y = 0;

	for (size_t i = 0; i < w; i++)
		sum_y += y[i];
	v->excursion = 0;
	/* fio divides by the mean truncated to a whole number (uint64_t) */
	v->criterion = sp->pct ? 100.0 * v->slope / floor(sum_y / (double)w) : v->slope;
	v->attained = fabs(v->criterion) < sp->limit;
}

static void judge_snia(const double *y, size_t w, struct steady_verdict *v)
{
	double lo = y[0], hi = y[0];

	for (size_t i = 1; i < w; i++) {
		lo = fmin(lo, y[i]);
		hi = fmax(hi, y[i]);
	}
	v->criterion = 100.0 * (hi - lo) / v->mean;
	v->excursion = 100.0 * fabs(v->slope) * (double)(w - 1) / v->mean;
	v->attained = v->mean > 0 && v->criterion <= STEADY_SNIA_DATA_PCT &&
		      v->excursion <= STEADY_SNIA_SLOPE_PCT;
}

void steady_window(const struct steady_spec *sp, const double *y, size_t w,
		   struct steady_verdict *v)
{
	for (size_t i = 0; i < w; i++)
		if (isnan(y[i])) {
			/* an interval without a figure (no unit, no latency): no verdict */
			v->mean = v->ci95 = v->criterion = v->slope = v->excursion = NAN;
			v->attained = false;
			return;
		}
	window_stats(y, w, v);
	if (sp->rule == STEADY_RANGE)
		judge_range(sp, y, w, v);
	else if (sp->rule == STEADY_SLOPE)
		judge_slope(sp, y, w, v);
	else
		judge_snia(y, w, v);
}

void steady_judge(const struct steady_spec *sp, const double *y, size_t n,
		  struct steady_verdict *v, double *crit)
{
	memset(v, 0, sizeof(*v));
	v->mean = v->ci95 = v->criterion = v->slope = v->excursion = NAN;
	for (size_t i = 0; crit && i < n; i++)
		crit[i] = NAN;
	if (sp->window < 2)
		return;
	for (size_t end = sp->ramp + sp->window; end <= n; end++) {
		steady_window(sp, y + end - sp->window, sp->window, v);
		v->end = end;
		if (crit)
			crit[end - 1] = v->criterion;
		if (v->attained)
			return;
	}
}

/* ---- cliffs ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of y[0..n), n <= max (tmp: scratch of n). */
static double median_of(const double *y, size_t n, double *tmp)
{
	memcpy(tmp, y, n * sizeof(*y));
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	return n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
}

/* The split k of y[0..n) with the largest CUSUM statistic
 * |mean(left) - mean(right)| * sqrt(k (n - k) / n), each side at least
 * STEADY_CLIFF_MIN long; 0 when n is too short. */
static size_t best_split(const double *y, size_t n)
{
	double total = 0, left = 0, best = -1;
	size_t at = 0;

	for (size_t i = 0; i < n; i++)
		total += y[i];
	for (size_t k = 1; k < n; k++) {
		left += y[k - 1];
		if (k < STEADY_CLIFF_MIN || n - k < STEADY_CLIFF_MIN)
			continue;
		double d = fabs(left / (double)k - (total - left) / (double)(n - k)) *
			   sqrt((double)k * (double)(n - k) / (double)n);

		if (d > best) {
			best = d;
			at = k;
		}
	}
	return at;
}

/* Share of y[0..n) on the side of mid where level lies. */
static double share_on_side(const double *y, size_t n, double mid, double level)
{
	size_t in = 0;

	for (size_t i = 0; i < n; i++)
		in += level >= mid ? y[i] >= mid : y[i] < mid;
	return (double)in / (double)n;
}

/* Whether splitting y[0..n) at k is a lasting change of level. */
static bool is_cliff(const double *y, size_t n, size_t k, double *tmp, struct steady_cliff *c)
{
	double mid;

	c->before = median_of(y, k, tmp);
	c->after = median_of(y + k, n - k, tmp);
	mid = (c->before + c->after) / 2;
	if (fabs(c->after - c->before) < STEADY_CLIFF_CHANGE * fmax(fabs(c->before), fabs(c->after)))
		return false;
	return share_on_side(y, k, mid, c->before) >= 0.8 &&
	       share_on_side(y + k, n - k, mid, c->after) >= 0.8;
}

struct segs {
	struct steady_cliff *out;
	size_t n, max;
	double *tmp;
};

static void segment(const double *y, size_t off, size_t n, struct segs *s, unsigned depth)
{
	struct steady_cliff c;
	size_t k;

	if (depth > 16 || n < 2 * STEADY_CLIFF_MIN)
		return;
	k = best_split(y + off, n);
	if (!k || !is_cliff(y + off, n, k, s->tmp, &c))
		return;
	segment(y, off, k, s, depth + 1);
	if (s->n < s->max) {
		c.at = off + k;
		s->out[s->n++] = c;
	}
	segment(y, off + k, n - k, s, depth + 1);
}

/* The share of an interval of value v at the level before (0..1). */
static double share_before(double v, const struct steady_cliff *c)
{
	double f = (v - c->after) / (c->before - c->after);

	return isfinite(f) ? fmin(1, fmax(0, f)) : 0;
}

double steady_cliff_when(const double *y, size_t n, const struct steady_cliff *c)
{
	double last_old, first_new;

	if (c->at == 0 || c->at >= n)
		return (double)c->at;
	last_old = share_before(y[c->at - 1], c);  /* 1: all at the old level */
	first_new = share_before(y[c->at], c);     /* 0: all at the new level */
	if (1 - last_old > first_new)
		return (double)(c->at - 1) + last_old;
	return (double)c->at + first_new;
}

size_t steady_cliffs_in(const double *y, size_t n, struct steady_cliff *out, size_t max,
			double *tmp)
{
	struct segs s = { out, 0, max, tmp };

	if (n < 2 * STEADY_CLIFF_MIN || !max)
		return 0;
	/* the left part is searched before a split is kept: the first kept is the earliest */
	segment(y, 0, n, &s, 0);
	/* the levels of each cliff are those of its neighbours' segments */
	for (size_t i = 0; i < s.n; i++) {
		size_t from = i ? out[i - 1].at : 0, to = i + 1 < s.n ? out[i + 1].at : n;

		out[i].before = median_of(y + from, out[i].at - from, tmp);
		out[i].after = median_of(y + out[i].at, to - out[i].at, tmp);
	}
	return s.n;
}

size_t steady_cliffs(const double *y, size_t n, struct steady_cliff *out, size_t max)
{
	double *tmp;
	size_t k;

	if (n < 2 * STEADY_CLIFF_MIN)
		return 0;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return 0;
	k = steady_cliffs_in(y, n, out, max, tmp);
	free(tmp);
	return k;
}
