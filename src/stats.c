/*
 * stats.c - summaries of repeats and the Mann-Whitney U test (see stats.h).
 *
 * The number of repeats is small (a handful to a few hundred), so the code
 * favours exactness over speed: order statistics come from a sorted copy,
 * the median's interval from the exact binomial(n, 1/2) distribution, and
 * the U test from the exact null distribution of U (counted by dynamic
 * programming) whenever there are no ties and both samples are small.
 * Nothing here prints: when memory runs out, the figures that needed it
 * come back as NAN, which the caller shows rather than misreads.
 */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CI_LEVEL 0.95
#define MW_EXACT_MAX 50   /* largest sample size for the exact U test */

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

static double *sorted_copy(const double *x, size_t n)
{
	double *s = malloc(n * sizeof(*s));

	if (!s)
		return NULL;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	return s;
}

/*
 * The largest k such that [x_(k), x_(n-k+1)] covers the median with
 * probability >= CI_LEVEL, i.e. P(B <= k-1) <= (1 - CI_LEVEL)/2 for
 * B ~ binomial(n, 1/2); 0 when not even k = 1 does.  The pmf is summed in
 * log space so that 2^-n cannot underflow for large n.
 */
static size_t median_ci_k(size_t n)
{
	double tail = (1.0 - CI_LEVEL) / 2.0 + 1e-12;
	double logpmf = -(double)n * log(2.0), cdf = 0.0;
	size_t j;

	for (j = 0; j < n; j++) {
		cdf += exp(logpmf);
		if (cdf > tail)
			break;
		logpmf += log((double)(n - j)) - log((double)(j + 1));
	}
	return j;
}

static void moments(const double *x, size_t n, struct summary *out)
{
	double sum = 0.0, ss = 0.0;

	for (size_t i = 0; i < n; i++)
		sum += x[i];
	out->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - out->mean) * (x[i] - out->mean);
	out->sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0;
}

static void order_stats(const double *s, size_t n, struct summary *out)
{
	size_t k = median_ci_k(n);

	out->min = s[0];
	out->max = s[n - 1];
	out->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
	out->has_ci = k > 0;
	if (out->has_ci) {
		out->ci95_low = s[k - 1];
		out->ci95_high = s[n - k];
	}
}

static void min_max(const double *x, size_t n, struct summary *out)
{
	out->min = out->max = x[0];
	for (size_t i = 1; i < n; i++) {
		if (x[i] < out->min)
			out->min = x[i];
		if (x[i] > out->max)
			out->max = x[i];
	}
}

void stats_summarize(const double *x, size_t n, struct summary *out)
{
	double *s;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return;
	out->n = n;
	moments(x, n, out);
	s = sorted_copy(x, n);
	if (!s) {
		min_max(x, n, out);
		out->median = NAN;
		return;
	}
	order_stats(s, n, out);
	free(s);
}

size_t stats_min_n_for_ci(void)
{
	size_t n = 1;

	while (median_ci_k(n) == 0)
		n++;
	return n;
}

/* One observation of the pooled sample: its value and which sample it is from. */
struct obs {
	double v;
	int from_a;
};

static int cmp_obs(const void *pa, const void *pb)
{
	return cmp_double(&((const struct obs *)pa)->v, &((const struct obs *)pb)->v);
}

/* What the U test needs from the pooled, ranked sample. */
struct ranked {
	double u;        /* U of sample a: pairs (a_i, b_j) with a_i > b_j, ties count 1/2 */
	double ties;     /* sum over groups of tied values of t^3 - t */
};

/* Ranks the pooled sample (mid-ranks for ties); -1 when out of memory. */
static int rank_pooled(const double *a, size_t na, const double *b, size_t nb,
		       struct ranked *r)
{
	size_t n = na + nb, i, j;
	struct obs *o = malloc(n * sizeof(*o));
	double rank_sum = 0.0;

	if (!o)
		return -1;
	for (i = 0; i < n; i++) {
		o[i].from_a = i < na;
		o[i].v = i < na ? a[i] : b[i - na];
	}
	qsort(o, n, sizeof(*o), cmp_obs);
	r->ties = 0.0;
	for (i = 0; i < n; i = j) {
		double t, mid;

		for (j = i + 1; j < n && o[j].v == o[i].v; j++)
			;
		t = (double)(j - i);
		mid = (double)(i + 1 + j) / 2.0;
		r->ties += t * t * t - t;
		for (size_t m = i; m < j; m++)
			rank_sum += o[m].from_a ? mid : 0.0;
	}
	free(o);
	r->u = rank_sum - (double)na * (double)(na + 1) / 2.0;
	return 0;
}

/*
 * Number of orderings of na a's and nb b's giving each U = 0..na*nb, as
 * c[j * (na*nb + 1) + u] after placing the pooled positions one by one:
 * putting the j-th a at position k (1-based) puts k - j b's below it.
 * Doubles hold the counts (up to C(100, 50) ~ 1e29) to ~1e-16 relative.
 */
static double *u_counts(size_t na, size_t nb)
{
	size_t w = na * nb + 1, n = na + nb;
	double *c = calloc((na + 1) * w, sizeof(*c));

	if (!c)
		return NULL;
	c[0] = 1.0;
	for (size_t k = 1; k <= n; k++) {
		size_t jmax = k < na ? k : na;

		for (size_t j = jmax; j >= 1 && k - j <= nb; j--) {
			size_t add = k - j;
			double *dst = c + j * w, *src = c + (j - 1) * w;

			for (size_t u = w - 1; u + 1 > add; u--)
				dst[u] += src[u - add];
		}
	}
	return c;
}

/* Exact two-sided p of U = u; -1 when out of memory. */
static double mw_exact_p(size_t na, size_t nb, double u)
{
	size_t w = na * nb + 1;
	double *c = u_counts(na, nb), *dist, lo = 0.0, hi = 0.0, total = 0.0, p;

	if (!c)
		return -1.0;
	dist = c + na * w;
	for (size_t i = 0; i < w; i++) {
		total += dist[i];
		if ((double)i <= u)
			lo += dist[i];
		if ((double)i >= u)
			hi += dist[i];
	}
	free(c);
	p = 2.0 * (lo < hi ? lo : hi) / total;
	return p < 1.0 ? p : 1.0;
}

/* Normal approximation with tie and continuity corrections. */
static double mw_normal_p(size_t na, size_t nb, const struct ranked *r)
{
	double n1 = (double)na, n2 = (double)nb, n = n1 + n2;
	double mu = n1 * n2 / 2.0;
	double var = n1 * n2 / 12.0 * ((n + 1.0) - r->ties / (n * (n - 1.0)));
	double z, p;

	if (!(var > 0.0))
		return 1.0;
	z = (fabs(r->u - mu) - 0.5) / sqrt(var);
	if (z <= 0.0)
		return 1.0;
	p = erfc(z / sqrt(2.0));
	return p < 1.0 ? p : 1.0;
}

double stats_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb)
{
	struct ranked r;
	double p;

	if (na == 0 || nb == 0)
		return 1.0;
	if (rank_pooled(a, na, b, nb, &r) < 0)
		return NAN;
	if (r.ties == 0.0 && na <= MW_EXACT_MAX && nb <= MW_EXACT_MAX) {
		p = mw_exact_p(na, nb, r.u);
		if (p >= 0.0)
			return p;
	}
	return mw_normal_p(na, nb, &r);
}

double stats_mann_whitney_min_p(size_t na, size_t nb)
{
	size_t small = na < nb ? na : nb, big = na < nb ? nb : na;
	double c = 1.0;

	for (size_t i = 1; i <= small; i++)
		c = c * (double)(big + i) / (double)i;
	return c > 2.0 ? 2.0 / c : 1.0;
}

double stats_geomean(const double *x, size_t n)
{
	double s = 0.0;

	if (n == 0)
		return 0.0;
	for (size_t i = 0; i < n; i++)
		s += log(x[i]);
	return exp(s / (double)n);
}
