/*
 * steady.h - judgements over a series of numbers: steady state and cliffs.
 *
 * Pure arithmetic over one value per interval (IOPS, bytes/s or latency),
 * so that the same code judges a repeat's series after it, a live series
 * at an interval boundary, a synthetic series in a test and fio's own
 * recorded window.  Nothing here knows where the numbers came from.
 *
 * Steady state, fio's way (steadystate.c, matched to its arithmetic): over
 * a rolling window of `window` values, either every value lies within
 * `limit` of the window's mean (range; the criterion is the largest
 * deviation) or the least-squares slope (per interval) is below `limit`
 * (slope); a limit in percent is of the window's mean, which fio truncates
 * to a whole number for the slope (kept, so that verdicts agree).  The
 * criterion must be strictly below the limit, as fio's.  SNIA's PTS rule:
 * over 5 rounds, the data excursion (max - min) is at most 20% of the
 * window's mean and the slope excursion (the fitted line's change across
 * the window) at most 10%.
 *
 * A cliff: a change of level that lasts.  Binary segmentation with the
 * CUSUM statistic finds the split; it counts only when each side has at
 * least STEADY_CLIFF_MIN values, the medians of the sides differ by at
 * least STEADY_CLIFF_CHANGE of the larger one, and at least 80% of each
 * side lies on its own side of the midpoint between them (a single slow
 * interval moves no median and no 80%).
 */
#ifndef IOSWEEP_STEADY_H
#define IOSWEEP_STEADY_H

#include <stdbool.h>
#include <stddef.h>

enum steady_rule { STEADY_RANGE, STEADY_SLOPE, STEADY_SNIA };
/* what is judged: units per second, bytes per second, mean latency (ns) */
enum steady_metric { STEADY_IOPS, STEADY_BW, STEADY_LAT };
extern const char *const steady_metric_names[]; /* "iops", "bw", "lat" */

#define STEADY_SNIA_WINDOW 5
#define STEADY_SNIA_DATA_PCT 20.0
#define STEADY_SNIA_SLOPE_PCT 10.0

struct steady_spec {
	enum steady_rule rule;
	bool pct;        /* limit in percent of the window's mean, else absolute */
	double limit;    /* range/slope: the criterion must be below it */
	size_t window;   /* values in the window (SNIA: 5) */
	size_t ramp;     /* values left out at the start */
};

struct steady_verdict {
	bool attained;
	size_t end;       /* the window judged last is [end - window, end); 0: none judged */
	double mean, ci95; /* the window's mean and its 95% confidence half-width */
	double criterion; /* range/slope: as fio; SNIA: the data excursion in % */
	double slope;     /* per interval, least squares over the window */
	double excursion; /* SNIA: the slope excursion in %; else the largest deviation */
};

/* Parses fio's criterion ("iops:10%", "bw_slope:1%", "iops_slope:20")
 * and iosweep's SNIA rule ("iops_snia", no limit) into *m and sp's rule,
 * pct and limit; -1 with the reason in err (ERR_MAX). */
int steady_parse(const char *text, enum steady_metric *m, struct steady_spec *sp, char *err);

/* The verdict over one window of w values. */
void steady_window(const struct steady_spec *sp, const double *y, size_t w,
		   struct steady_verdict *v);
/* Rounds from the first full window after the ramp: stops at the first
 * attained (v->attained) or judges every round.  crit (n values, or NULL)
 * gets each round's criterion at the index of its window's last value, NAN
 * where no round ended. */
void steady_judge(const struct steady_spec *sp, const double *y, size_t n,
		  struct steady_verdict *v, double *crit);

#define STEADY_CLIFF_MIN ((size_t)3)
#define STEADY_CLIFF_CHANGE 0.25
#define STEADY_CLIFF_MAX 8

struct steady_cliff {
	size_t at;              /* the first value of the new level */
	double before, after;   /* the levels (medians) on each side */
};

/* The cliffs of y[0..n), in order of time; returns how many (at most max). */
size_t steady_cliffs(const double *y, size_t n, struct steady_cliff *out, size_t max);
/* Where within the intervals a cliff's level changed, in intervals from
 * y[0]: the change happened in the interval at - 1 or at, whichever lies
 * farther from its own side's level, and its value is taken as a mix of the
 * two levels in time (before for a share f of it, after for the rest), so
 * the change is at that interval's start + f.  Between at - 1 and at + 1. */
double steady_cliff_when(const double *y, size_t n, const struct steady_cliff *c);
/* The same with tmp (n values) as its scratch, allocating nothing: for a
 * look at an interval boundary.  With max = 1, the earliest cliff. */
size_t steady_cliffs_in(const double *y, size_t n, struct steady_cliff *out, size_t max,
			double *tmp);

#endif
