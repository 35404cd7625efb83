/*
 * stats.c - summaries of repeats and the Mann-Whitney U test (see stats.h).
 *
 * The number of repeats is small (a handful to a few hundred), so the code
 * favours exactness over speed: order statistics come from a sorted copy,
 * the median's interval from the exact binomial(n, 1/2) distribution, and
 * the U test from the exact null distribution of the rank sum given the
 * ties (counted by dynamic programming) whenever both samples are small.
 * Nothing here prints: when memory runs out, the figures that needed it
 * come back as NAN, which the caller shows rather than misreads.
 */
#include "lib/stats.h"

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

void stats_mean_sd(const double *x, size_t n, double *mean, double *sd)
{
	double sum = 0.0, ss = 0.0;

	for (size_t i = 0; i < n; i++)
		sum += x[i];
	*mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	*sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0;
}

static void moments(const double *x, size_t n, struct summary *out)
{
	stats_mean_sd(x, n, &out->mean, &out->sd);
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

/*
 * What the U test needs from the pooled, ranked sample.  Ranks are kept
 * doubled, so that mid-ranks of ties ((i + 1 + j) / 2 for a group at sorted
 * positions i..j-1) are integers and the exact test compares integers.
 */
struct ranked {
	size_t na, n;
	size_t ngroups;
	size_t *size;      /* tie groups in value order: how many observations */
	size_t *rank2;     /* and their doubled mid-rank */
	size_t rank2_a;    /* doubled rank sum of sample a */
	double u;          /* U of sample a: pairs (a_i, b_j) with a_i > b_j, ties count 1/2 */
	double ties;       /* sum over groups of tied values of t^3 - t */
};

static void ranked_free(struct ranked *r)
{
	free(r->size);
	free(r->rank2);
}

static struct obs *pooled(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = na + nb;
	struct obs *o = malloc(n * sizeof(*o));

	if (!o)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		o[i].from_a = i < na;
		o[i].v = i < na ? a[i] : b[i - na];
	}
	qsort(o, n, sizeof(*o), cmp_obs);
	return o;
}

/* Ranks the pooled sample (mid-ranks for ties); -1 when out of memory. */
static int rank_pooled(const double *a, size_t na, const double *b, size_t nb,
		       struct ranked *r)
{
	size_t n = na + nb, i, j;
	struct obs *o = pooled(a, na, b, nb);

	memset(r, 0, sizeof(*r));
	r->size = malloc(n * sizeof(*r->size));
	r->rank2 = malloc(n * sizeof(*r->rank2));
	if (!o || !r->size || !r->rank2) {
		free(o);
		ranked_free(r);
		return -1;
	}
	r->na = na;
	r->n = n;
	for (i = 0; i < n; i = j) {
		double t;

		for (j = i + 1; j < n && o[j].v == o[i].v; j++)
			;
		t = (double)(j - i);
		r->ties += t * t * t - t;
		r->size[r->ngroups] = j - i;
		r->rank2[r->ngroups++] = i + 1 + j;
		for (size_t m = i; m < j; m++)
			r->rank2_a += o[m].from_a ? i + 1 + j : 0;
	}
	free(o);
	r->u = (double)r->rank2_a / 2.0 - (double)na * (double)(na + 1) / 2.0;
	return 0;
}

/*
 * The exact null distribution of a's doubled rank sum given the tie groups
 * (the conditional permutation distribution): every one of the C(n, na)
 * ways to choose which observations are a's is equally likely, and a choice
 * of x of a group of t tied ones (C(t, x) ways) adds x times its doubled
 * mid-rank.  Counted by dynamic programming over the groups as
 * c[k * w + s]: ways with k a's so far and doubled rank sum s.  Doubles hold
 * the counts (up to C(100, 50) ~ 1e29) to ~1e-16 relative.
 */
static double *rank_sum_counts(const struct ranked *r, size_t w)
{
	size_t na = r->na, cells = (na + 1) * w, seen = 0, smax = 0;
	double *mem = calloc(2 * cells, sizeof(*mem)), *c = mem, *next, *tmp;

	if (!mem)
		return NULL;
	next = mem + cells; /* not before the check: arithmetic on NULL is undefined */
	c[0] = 1.0;
	for (size_t g = 0; g < r->ngroups; g++) {
		size_t t = r->size[g], m = r->rank2[g];

		memset(next, 0, cells * sizeof(*next));
		for (size_t k = 0; k <= na && k <= seen; k++)
			for (size_t s = 0; s <= smax; s++) {
				double ways = c[k * w + s], choose = 1.0;

				if (ways == 0.0)
					continue;
				for (size_t x = 0; x <= t && k + x <= na; x++) {
					next[(k + x) * w + s + x * m] += ways * choose;
					choose = choose * (double)(t - x) / (double)(x + 1);
				}
			}
		seen += t;
		smax += t * m;
		tmp = c;
		c = next;
		next = tmp;
	}
	if (c != mem)
		memcpy(mem, c, cells * sizeof(*mem));
	return mem;
}

/* Exact two-sided p: the probability of a doubled rank sum at least as far
 * from its mean as the one observed; -1 when out of memory. */
static double mw_exact_p(const struct ranked *r)
{
	size_t w = r->n * (r->n + 1) + 1, mean2 = r->na * (r->n + 1);
	size_t dev = r->rank2_a > mean2 ? r->rank2_a - mean2 : mean2 - r->rank2_a;
	double *c = rank_sum_counts(r, w), *dist, extreme = 0.0, total = 0.0, p;

	if (!c)
		return -1.0;
	dist = c + r->na * w;
	for (size_t s = 0; s < w; s++) {
		total += dist[s];
		if ((s > mean2 ? s - mean2 : mean2 - s) >= dev)
			extreme += dist[s];
	}
	free(c);
	p = extreme / total;
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
	double p = -1.0;

	if (na == 0 || nb == 0)
		return 1.0;
	if (rank_pooled(a, na, b, nb, &r) < 0)
		return NAN;
	if (na <= MW_EXACT_MAX && nb <= MW_EXACT_MAX)
		p = mw_exact_p(&r);
	if (p < 0.0)
		p = mw_normal_p(na, nb, &r);
	ranked_free(&r);
	return p;
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
