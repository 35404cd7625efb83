/*
 * report_series.c - the per-interval series as long-format CSV: a header,
 * then one row per interval and direction of every measured repeat that
 * has a series (RFC 4180 quoting, rows flushed as each run completes).
 * Long format so that one row is one observation: a spreadsheet or
 * gnuplot filters it by job, run, repeat and dir.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>

#include "report/report.h"

static int series_begin(struct report_sink *s, const struct report *r, char *err)
{
	static const char *const cols[] = { "job", "run", "repeat", "interval_s", "coarsened",
					     "start_s", "dir", "ops", "bytes", "lat_p50_ns",
					     "lat_p99_ns", "lat_max_ns", "resident", "resp_p99_ns",
					     "resp_max_ns", "late_ops", "dev_ios", "dev_bytes",
					     "dev_await_ns", "dev_busy_s", "dev_queue_depth" };
	size_t n = sizeof(cols) / sizeof(cols[0]);

	(void)r;
	if (report_open(s, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		report_csv_field(s->f, cols[i], i + 1 == n);
	return report_csv_flush(s, err);
}

static int series_add(struct report_sink *s, const struct report *r, size_t idx, char *err)
{
	const struct run_result *res = &r->results[idx];
	char buf[512];

	for (size_t k = 0; k < res->nrep; k++) {
		const struct repeat_result *rr = &res->rep[k];

		for (size_t i = 0; i < rr->nseries; i++) {
			const struct series_point *p = &rr->series[i];
			char resident[32] = "", resp[96] = ",,", dev[160] = ",,,,";

			if (p->resident >= 0)
				snprintf(resident, sizeof(resident), "%.6g", p->resident);
			/* a rate limit's figures; empty cells without one */
			if (!isnan(p->resp_p99_ns))
				snprintf(resp, sizeof(resp), "%.0f,%.0f,%.0f", p->resp_p99_ns,
					 p->resp_max_ns, p->late_ops);
			report_csv_field(s->f, res->run->job->name, false);
			snprintf(buf, sizeof(buf), "%zu,%zu,%.9g,%u,%.9g,%s,%llu,%llu,%llu,%llu,%llu",
				 res->run->index, k, rr->series_interval_s, rr->series_coarsened,
				 p->start_s, p->dir == IO_WRITE ? "write" : "read",
				 (unsigned long long)p->ops, (unsigned long long)p->bytes,
				 (unsigned long long)p->lat_p50_ns, (unsigned long long)p->lat_p99_ns,
				 (unsigned long long)p->lat_max_ns);
			fprintf(s->f, "%s,", buf);
			/* the device's figures; empty cells without them */
			if (!isnan(p->dev_ios)) {
				char aw[32] = "";

				if (!isnan(p->dev_await_ns))
					snprintf(aw, sizeof(aw), "%.0f", p->dev_await_ns);
				snprintf(dev, sizeof(dev), "%.0f,%.0f,%s,%.9g,%.9g", p->dev_ios,
					 p->dev_bytes, aw, p->dev_busy_s, p->dev_queue_depth);
			}
			report_csv_field(s->f, resident, false);
			fprintf(s->f, "%s,%s\r\n", resp, dev);
		}
	}
	return report_csv_flush(s, err);
}

const struct reporter report_series = {
	.name = "series",
	.begin = series_begin,
	.add = series_add,
	.end = report_csv_end,
};
