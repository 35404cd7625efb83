/*
 * hist.h - latency histogram in constant memory.
 *
 * Log-linear buckets (HdrHistogram-like): each power of two from 1 ns up to
 * at least 100 s is split into equal sub-buckets so that any recorded value
 * is reported with a relative error of at most 1%.  Recording is a few
 * integer operations and never allocates, so it can sit in the read loop.
 * Per-thread histograms are merged by adding their counts.
 */
#ifndef IOSWEEP_HIST_H
#define IOSWEEP_HIST_H

#include <stddef.h>
#include <stdint.h>

struct hist;

struct hist *hist_new(void);               /* zeroed; NULL on out of memory */
void hist_free(struct hist *h);
void hist_reset(struct hist *h);
void hist_record(struct hist *h, uint64_t ns);
void hist_merge(struct hist *dst, const struct hist *src);
/* A histogram is one plain block of hist_size() bytes, with no pointers:
 * processes of the same build can send it to each other as bytes. */
size_t hist_size(void);

uint64_t hist_count(const struct hist *h);
uint64_t hist_min(const struct hist *h);   /* exact; 0 when empty */
uint64_t hist_max(const struct hist *h);   /* exact; 0 when empty */
double hist_mean(const struct hist *h);    /* exact (from a running sum); 0 when empty */
/* Value at percentile p (0 < p <= 100), within 1%; 0 when empty. */
uint64_t hist_percentile(const struct hist *h, double p);

#endif
