/*
 * figures.h - the measured figures of a repeat, declared once.
 *
 * Reporters and statistics walk this table instead of naming fields, so a
 * figure added here appears in JSON, CSV and the summaries together.
 */
#ifndef IOSWEEP_FIGURES_H
#define IOSWEEP_FIGURES_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/stats.h"
#include "run/run.h"

enum figure_type {
	FIG_U64, FIG_DOUBLE,
	FIG_FRACTION, /* < 0: unknown (null) */
	FIG_MAYBE,    /* a double; NAN: not measured in this run (null) */
};

/* What a figure's value measures once multiplied by its scale: the one
 * word every reader (table, compare, plot) prints it by. */
enum figure_unit {
	FU_SECONDS,
	FU_RATE,       /* bytes per second */
	FU_BYTES,
	FU_PER_SECOND, /* operations per second */
	FU_COUNT,
	FU_FRACTION,   /* 0..1 */
};

struct figure {
	const char *name;   /* flat name: CSV column, summary key */
	const char *group;  /* JSON object it sits in ("lat_ns"), or NULL */
	const char *key;    /* its name inside the group */
	size_t offset;      /* in struct repeat_result */
	const char *title;  /* what a person reads: "p99 latency" */
	double scale;       /* value x scale is in unit (a latency in ns: 1e-9 s) */
	enum figure_type type;
	enum figure_unit unit;
};

extern const struct figure figure_table[];
extern const size_t figure_count;

const struct figure *figure_find(const char *name);
/* Which way f is better, from its unit: +1 higher (throughput, IOPS), -1
 * lower (times and latencies), 0 neither (bytes, counts, fractions: what
 * was done, not how well).  `gate` calls a change "slower" by it. */
int figure_better(const struct figure *f);
/* A value of f (as stored, before its scale) as text in its unit:
 * "1.25 ms", "3.2 GB/s", "12.5k". */
void figure_format(const struct figure *f, double value, char *buf, size_t n);
double figure_value(const struct figure *f, const struct repeat_result *rr);
bool figure_known(const struct figure *f, const struct repeat_result *rr);
/* A repeat that did not run to its end (or to its runtime) is kept and
 * reported, but left out of every summary, ratio and table cell. */
size_t figure_ncompleted(const struct run_result *res);
/* The completed repeat k of res (0: the first), or NULL. */
const struct repeat_result *figure_completed_at(const struct run_result *res, size_t k);
/* Summary of a figure over a run's completed repeats (unknown values left out). */
void figure_summary(const struct figure *f, const struct run_result *res, struct summary *out);

/* Whether res read or wrote a file that was not in the page cache, through
 * the cache, on a machine whose balloon returns freed pages to the host:
 * the pages it faults in (reads) or takes for the blocks it writes then
 * come back from the host, so its figures measure host memory too. */
bool figure_cold_from_host(const struct run_result *res);

/* The spread shown after a median by the table and by compare: the farther
 * end of its 95% confidence interval from it, in percent of it, or of the
 * min..max of the repeats when they are too few for an interval (*range is
 * then set).  NAN when there is nothing to show: fewer than two repeats, or
 * a median that is not positive. */
double figure_spread_pct(const struct summary *s, bool *range);
/* The same from a median and the ends of its interval, over n repeats. */
double figure_interval_pct(size_t n, double median, double lo, double hi);

/* The run res's ratio is against, among results[0..n): for a job with a
 * baseline, that job's run with res's values of the parameters that vary
 * in the baseline job and that res's job sets too, else its first run; for
 * the baseline job's own runs, its first run.  Only runs with completed
 * repeats count.  NULL when res has no baseline or it was not run. */
const struct run_result *figure_baseline(const struct run_result *res, const struct plan *plan,
					 const struct run_result *results, size_t n);
/* Median time to end of the baseline / median of res: > 1 means faster.
 * 0 when it cannot be computed. */
double figure_speedup(const struct run_result *res, const struct run_result *base);

#endif
