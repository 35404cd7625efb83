/*
 * stats.h - summary statistics over the repeats of a run, and the
 * Mann-Whitney U test used by `iosweep compare`.
 *
 * Nothing here assumes normality: the confidence interval is that of the
 * median, from order statistics (binomial), and the comparison test is rank
 * based.
 */
#ifndef IOSWEEP_STATS_H
#define IOSWEEP_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct summary {
	size_t n;
	double mean, sd; /* sd: sample standard deviation (n-1); 0 when n < 2 */
	double min, median, max;
	bool has_ci;     /* false when n is too small for a 95% interval */
	double ci95_low, ci95_high;
};

/* The mean and the sample standard deviation (n-1; 0 when n < 2) of
 * x[0..n-1], n > 0; allocates nothing. */
void stats_mean_sd(const double *x, size_t n, double *mean, double *sd);

/* Summarizes x[0..n-1] (x is not modified).  n == 0 gives a zeroed summary.
 * Out of memory (for a sorted copy): median is NAN and has_ci false. */
void stats_summarize(const double *x, size_t n, struct summary *out);

/* Smallest n for which stats_summarize gives a 95% interval of the median. */
size_t stats_min_n_for_ci(void);

/* Two-sided p-value of the Mann-Whitney U test of a against b: exact (the
 * permutation distribution given the ties, tied values included) when
 * na and nb are at most 50, the normal approximation with tie correction
 * beyond.  1.0 when either is empty;
 * NAN when out of memory. */
double stats_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb);

/* Smallest two-sided p-value reachable with samples of these sizes (no
 * ties): lets compare say "too few repeats to ever be significant". */
double stats_mann_whitney_min_p(size_t na, size_t nb);

/* Geometric mean of x[0..n-1] (all > 0); 0 when n == 0. */
double stats_geomean(const double *x, size_t n);

#endif
