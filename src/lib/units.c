/*
 * units.c - parsing and printing of sizes, durations and counts.
 *
 * The job-file rules live here alone so that every option, `--set` and the
 * reports agree on what "4k" means (4096 bytes) and what "4KB" means (4000).
 */
#define _GNU_SOURCE
#include "lib/units.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "lib/error.h"

struct unit {
	const char *suffix;
	uint64_t factor;
};

static const struct unit size_units[] = {
	{ "", 1 },          { "b", 1 },
	{ "k", 1ULL << 10 }, { "kib", 1ULL << 10 }, { "kb", 1000ULL },
	{ "m", 1ULL << 20 }, { "mib", 1ULL << 20 }, { "mb", 1000000ULL },
	{ "g", 1ULL << 30 }, { "gib", 1ULL << 30 }, { "gb", 1000000000ULL },
	{ "t", 1ULL << 40 }, { "tib", 1ULL << 40 }, { "tb", 1000000000000ULL },
	{ NULL, 0 },
};

static const struct unit duration_units[] = {
	{ "", 1000000000ULL },  { "s", 1000000000ULL }, { "ns", 1 },
	{ "us", 1000ULL },      { "µs", 1000ULL },      { "ms", 1000000ULL },
	{ "m", 60000000000ULL }, { "min", 60000000000ULL }, { "h", 3600000000000ULL },
	{ NULL, 0 },
};

/* Leading decimal digits of s into *v; returns the end, or NULL on overflow
 * or when there is no digit. */
static const char *parse_digits(const char *s, uint64_t *v)
{
	const char *p = s;

	*v = 0;
	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		if (*v > (UINT64_MAX - d) / 10)
			return NULL;
		*v = *v * 10 + d;
	}
	return p == s ? NULL : p;
}

/* "'10sec' has an unknown unit 'sec' (units: s, ns, ...)": the units named
 * (for durations, whose units people spell in many ways). */
static int unknown_unit(const char *s, const char *end, size_t len, const struct unit *units,
			char *err)
{
	char known[160] = "";
	size_t used = 0;

	for (const struct unit *u = units; u->suffix && used < sizeof(known); u++)
		if (*u->suffix)
			used += (size_t)snprintf(known + used, sizeof(known) - used, "%s%s",
						 used ? ", " : "", u->suffix);
	return err_set(err, "'%s' has an unknown unit '%.*s' (units: %s)", s, (int)len, end, known);
}

static int parse_with_units(const char *s, const struct unit *units, const char *what,
			    uint64_t *out, char *err)
{
	const char *p = s, *end;
	uint64_t v;
	size_t len;

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '-')
		return err_set(err, "'%s' is negative; a %s must be positive", s, what);
	if (!isdigit((unsigned char)*p))
		return err_set(err, "'%s' is not a %s", s, what);
	end = parse_digits(p, &v);
	if (!end)
		return err_set(err, "'%s' is too large", s);
	if (*end == '.')
		return err_set(err, "'%s': fractions are not supported; use a smaller unit", s);
	while (isspace((unsigned char)*end))
		end++;
	len = strlen(end);
	while (len > 0 && isspace((unsigned char)end[len - 1]))
		len--;
	for (const struct unit *u = units; u->suffix; u++) {
		if (strlen(u->suffix) != len || strncasecmp(end, u->suffix, len) != 0)
			continue;
		if (v != 0 && u->factor > UINT64_MAX / v)
			return err_set(err, "'%s' is too large", s);
		*out = v * u->factor;
		return 0;
	}
	if (units != duration_units)
		return err_set(err, "'%s' has an unknown unit '%.*s'", s, (int)len, end);
	return unknown_unit(s, end, len, units, err);
}

int units_parse_size(const char *s, uint64_t *out, char *err)
{
	return parse_with_units(s, size_units, "size", out, err);
}

int units_parse_duration_ns(const char *s, uint64_t *out, char *err)
{
	return parse_with_units(s, duration_units, "duration", out, err);
}

int units_parse_uint(const char *s, uint64_t *out, char *err)
{
	static const struct unit none[] = { { "", 1 }, { NULL, 0 } };

	return parse_with_units(s, none, "whole number", out, err);
}

void units_fmt_size(uint64_t bytes, char *buf, size_t n)
{
	static const char *const names[] = { "KiB", "MiB", "GiB", "TiB" };
	int i = -1;

	while (i < 3 && bytes >= 1024 && bytes % 1024 == 0) {
		bytes /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, n, "%llu", (unsigned long long)bytes);
	else
		snprintf(buf, n, "%llu%s", (unsigned long long)bytes, names[i]);
}

void units_fmt_size_about(uint64_t bytes, char *buf, size_t n)
{
	static const char *const names[] = { "", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double x = (double)bytes;
	int i = 0;

	while (i < 5 && x >= 1024) {
		x /= 1024;
		i++;
	}
	if (x == (double)(uint64_t)x)
		snprintf(buf, n, "%llu%s", (unsigned long long)x, names[i]);
	else if (x >= 99.5)
		snprintf(buf, n, "%.0f%s", x, names[i]);
	else if (x >= 9.95)
		snprintf(buf, n, "%.1f%s", x, names[i]);
	else
		snprintf(buf, n, "%.2f%s", x, names[i]);
}

/* Three significant digits of x followed by a unit. */
static void fmt3(double x, const char *unit, char *buf, size_t n)
{
	const char *sep = *unit ? " " : "";

	if (x >= 99.95)
		snprintf(buf, n, "%.0f%s%s", x, sep, unit);
	else if (x >= 9.995)
		snprintf(buf, n, "%.1f%s%s", x, sep, unit);
	else
		snprintf(buf, n, "%.2f%s%s", x, sep, unit);
}

void units_fmt_seconds_as(double s, double like, char *buf, size_t n)
{
	if (like >= 1 || like == 0)
		fmt3(s, "s", buf, n);
	else if (like >= 1e-3)
		fmt3(s * 1e3, "ms", buf, n);
	else if (like >= 1e-6)
		fmt3(s * 1e6, "µs", buf, n);
	else
		fmt3(s * 1e9, "ns", buf, n);
}

void units_fmt_seconds(double s, char *buf, size_t n)
{
	units_fmt_seconds_as(s, s, buf, n);
}

/* Decimal prefixes, as storage vendors and fio's MB/s print them. */
static void fmt_decimal(double x, const char *unit, char *buf, size_t n)
{
	static const char *const prefixes[] = { "", "k", "M", "G", "T", "P" };
	char u[16];
	int i = 0;

	while (x >= 999.5 && i < 5) {
		x /= 1000;
		i++;
	}
	snprintf(u, sizeof(u), "%s%s", prefixes[i], unit);
	if (i == 0 && x == (double)(uint64_t)x)
		snprintf(buf, n, "%.0f%s%s", x, *unit ? " " : "", u);
	else
		fmt3(x, u, buf, n);
}

void units_fmt_rate(double bytes_per_s, char *buf, size_t n)
{
	fmt_decimal(bytes_per_s, "B/s", buf, n);
}

void units_fmt_bytes(double bytes, char *buf, size_t n)
{
	fmt_decimal(bytes, "B", buf, n);
}

void units_fmt_count(double x, char *buf, size_t n)
{
	fmt_decimal(x, "", buf, n);
}
