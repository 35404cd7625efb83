/*
 * units.h - sizes and durations as people write them in job files, and as
 * reports print them.
 *
 * Sizes: k m g t and KiB MiB GiB TiB are powers of 1024, KB MB GB TB powers
 * of 1000, case does not matter, a bare number is bytes.  Durations: ns us ms
 * s m h, a bare number is seconds.  Parsing is strict: no fractions, no
 * signs, no trailing garbage, no overflow.
 */
#ifndef IOSWEEP_UNITS_H
#define IOSWEEP_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* 0 and *out set, or -1 and a message in err (ERR_MAX bytes). */
int units_parse_size(const char *s, uint64_t *out, char *err);
int units_parse_duration_ns(const char *s, uint64_t *out, char *err);
int units_parse_uint(const char *s, uint64_t *out, char *err);

/* Exact compact size for job-like text: "4KiB", "8MiB", "1000" (bytes). */
void units_fmt_size(uint64_t bytes, char *buf, size_t n);
/* bytes in the binary units of units_fmt_size, exact when it is a whole
 * number of its largest unit ("64MiB"), else to three significant digits
 * ("231MiB", "1.52GiB"): for totals, beside sizes written by units_fmt_size. */
void units_fmt_size_about(uint64_t bytes, char *buf, size_t n);
/* Human figures with three significant digits: "14.1 s", "4.10 µs",
 * "724 MB/s", "1.26 GB", "132 k" (counts). */
void units_fmt_seconds(double s, char *buf, size_t n);
/* s in the unit units_fmt_seconds would choose for `like` ("0.21 ms"). */
void units_fmt_seconds_as(double s, double like, char *buf, size_t n);
void units_fmt_rate(double bytes_per_s, char *buf, size_t n);
void units_fmt_bytes(double bytes, char *buf, size_t n);
void units_fmt_count(double x, char *buf, size_t n);

#endif
