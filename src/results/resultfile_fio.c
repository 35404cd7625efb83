/*
 * resultfile_fio.c - see resultfile_fio.h.
 *
 * The parameters of a fio job are found the way a user would find them:
 * its options (fio writes them into the result, [global] ones apart) go
 * through `iosweep import`'s translation (fio.c, fio_import.c), and the
 * jobs it makes are planned as `iosweep run` would plan them, so that a
 * fio job and the iosweep run of its translation have the same params.
 * They are handed over as data (import_jobfile), not as job-file text: a
 * value is read as fio gave it, even one a job file's line could not hold.  A job that
 * cannot be translated or planned here (a file in a directory this machine
 * lacks) has no params: it is no run, but named in "fio_unknown" with why,
 * so that it is matched with nothing (by its name alone least of all).
 *
 * fio reports a job once for all its loops: the one repeat here is the
 * average of them (time, bytes and reads divided by loops, rates as fio
 * gives them).  Its reads and writes are those of the directions the
 * translation does (its op): a write job's reads in fio are its verify
 * phase, which iosweep does not time.  Clones of numjobs without group_reporting are reported one
 * by one: their bytes, reads and rates are summed, their time is the
 * longest, and their latency percentiles, which cannot be combined, are
 * left out.
 */
#define _GNU_SOURCE
#include "results/resultfile_fio.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio/fio.h"
#include "fio/fio_import.h"
#include "job/fio_words.h"
#include "job/job.h"
#include "job/options.h"
#include "job/plan.h"
#include "lib/error.h"
#include "lib/version.h"

bool resultfile_is_fio(json_t *doc)
{
	return json_is_string(json_object_get(doc, "fio version"));
}

/* Appends the string options of obj to names/values. */
static int add_options(json_t *obj, const char ***names, const char ***values, size_t *n)
{
	const char *key;
	json_t *v;

	json_object_foreach(obj, key, v) {
		const char **nn, **vv;

		if (!json_is_string(v))
			continue;
		nn = realloc(*names, (*n + 1) * sizeof(*nn));
		if (nn)
			*names = nn;
		vv = nn ? realloc(*values, (*n + 1) * sizeof(*vv)) : NULL;
		if (!vv)
			return -1;
		*values = vv;
		nn[*n] = key;
		vv[*n] = json_string_value(v);
		(*n)++;
	}
	return 0;
}

/* Whether the fio job (its options or the global ones) sets option name. */
static bool fio_sets(json_t *global, json_t *job, const char *name)
{
	return json_object_get(job, name) || json_object_get(global, name);
}

/* Leaves out of params what a fio result cannot say, so that it is not
 * compared (cmd_compare.c): how a file was filled (fill: whether fio's file
 * is on this machine now), whether fio's writes laid the file out or
 * overwrote it (alloc, when the translation is both runs: whether the file
 * was there when fio ran), what an option fio takes bare decides when
 * fio's JSON leaves it out (fio writes no option set without a value: a
 * bare time_based, norandommap, hipri ...; the table of fio's words says
 * which), and the size when only the file fio found could say it. */
static void drop_unknown(json_t *params, const struct import *im, json_t *global, json_t *job,
			 bool size_unknown)
{
	const char *alloc = im->njobs ? im->jobs[0].val[OPT_ALLOC] : NULL;
	const struct fio_word *w;

	json_object_del(params, "fill");
	if (alloc && strchr(alloc, ','))
		json_object_del(params, "alloc");
	for (size_t i = 0; (w = fio_word_at(i)) != NULL; i++) {
		const char *v = json_string_value(json_object_get(params, w->unsaid ? w->unsaid : ""));

		/* (norandommap makes only a random pattern another) */
		if (w->unsaid && !fio_sets(global, job, w->fio) &&
		    (strcmp(w->unsaid, "pattern") != 0 || (v && strcmp(v, "random") == 0)))
			json_object_del(params, w->unsaid);
	}
	if (size_unknown)
		json_object_del(params, "size");
}

static int add_size(const char *size, const char ***names, const char ***values, size_t *n)
{
	const char **nn = realloc(*names, (*n + 1) * sizeof(*nn)), **vv;

	if (nn)
		*names = nn;
	vv = nn ? realloc(*values, (*n + 1) * sizeof(*vv)) : NULL;
	if (!vv)
		return -1;
	*values = vv;
	nn[*n] = "size";
	vv[*n] = size;
	(*n)++;
	return 0;
}

static int allow_writes(struct import *im)
{
	for (size_t i = 0; i < im->njobs; i++) {
		struct import_job *ij = &im->jobs[i];

		if (ij->val[OPT_FILENAME] && !ij->val[OPT_ALLOW_WRITE] &&
		    !(ij->val[OPT_ALLOW_WRITE] = strdup(ij->val[OPT_FILENAME])))
			return -1;
	}
	return 0;
}

/* The params iosweep records for the translation of one fio job; NULL with
 * why when it cannot be translated or planned.  size_bytes, when not 0, is
 * a size to plan with where the job gives none (its file is gone): the
 * params then leave the size out. */
static json_t *job_params(json_t *global, json_t *job, const char *name, const char *path,
			  uint64_t size_bytes, uint64_t *loops, char *why)
{
	const char **names = NULL, **values = NULL;
	struct fio_input in = { 0 };
	struct import im = { 0 };
	struct jobfile jf = { 0 };
	struct plan plan = { 0 };
	json_t *params = NULL;
	size_t n = 0;
	char size[32];

	snprintf(size, sizeof(size), "%llu", (unsigned long long)size_bytes);
	if (add_options(global, &names, &values, &n) < 0 ||
	    add_options(job, &names, &values, &n) < 0 ||
	    (size_bytes && add_size(size, &names, &values, &n) < 0)) {
		err_set(why, "out of memory");
		goto out;
	}
	if (fio_add_job(&in, name, names, values, n, path, why) < 0 ||
	    import_translate(&in, &im, why) < 0)
		goto out;
	/* nothing is written here: the write-target check, which asks for
	 * allow_write before a file iosweep did not make is written, is no
	 * question about what fio measured */
	if (allow_writes(&im) < 0) {
		err_set(why, "out of memory");
		goto out;
	}
	if (import_jobfile(&im, path, &jf, why) < 0 ||
	    plan_expand(&plan, &jf, PLAN_ALONE, why) < 0) {
		/* "PATH:LINE: " names no line of the result */
		size_t at = strlen(path);

		if (strlen(why) > at && memcmp(why, path, at) == 0 && why[at] == ':') {
			at += 1 + strspn(why + at + 1, "0123456789");
			if (why[at] == ':' && why[at + 1] == ' ')
				memmove(why, why + at + 2, strlen(why + at + 2) + 1);
		}
		goto out;
	}
	params = options_params_json(plan.runs[0].v);
	if (params)
		drop_unknown(params, &im, global, job, size_bytes != 0);
	*loops = plan.runs[0].v[OPT_REPEAT].u;
	plan_free(&plan);
out:
	jobfile_free(&jf);
	import_free(&im);
	fio_input_free(&in);
	free(names);
	free(values);
	return params;
}

static double number(json_t *obj, const char *key)
{
	return json_number_value(json_object_get(obj, key));
}

/* Latency of one direction of a fio job in iosweep's shape: min, mean and
 * max of fio's total latency, percentiles of it when fio kept them
 * (lat_percentiles=1), else of its completion latency. */
static json_t *latency(json_t *dir)
{
	static const char *const keys[][2] = {
		{ "p50", "50.000000" }, { "p90", "90.000000" },
		{ "p99", "99.000000" }, { "p99.9", "99.900000" },
	};
	json_t *lat = json_object_get(dir, "lat_ns"), *pct = json_object_get(lat, "percentile");
	json_t *out;

	if (!pct)
		pct = json_object_get(json_object_get(dir, "clat_ns"), "percentile");
	out = json_pack("{s:f, s:f, s:f}", "min", number(lat, "min"), "mean", number(lat, "mean"),
			"max", number(lat, "max"));
	for (size_t i = 0; out && pct && i < sizeof(keys) / sizeof(keys[0]); i++)
		if (json_is_number(json_object_get(pct, keys[i][1])))
			json_object_set_new(out, keys[i][0],
					    json_real(number(pct, keys[i][1])));
	return out;
}

/* fio's figures of one direction, summed over clones */
struct fio_dir {
	double bytes, ios, bw, iops, runtime_ms;
};

static const char *const dir_names[2] = { "read", "write" };

/* The one repeat of a fio run, in iosweep's figures: both directions
 * summed where the translation does both, per direction as iosweep names
 * them.  Latency percentiles of two directions (or of several clones)
 * cannot be combined: lat_ns is given for one direction of one job only,
 * read_lat_ns and write_lat_ns for each direction of one job. */
static json_t *fio_repeat(json_t *job, const struct fio_dir *d, const bool *used, size_t n,
			  uint64_t loops)
{
	static const char *const fig[2][4] = {
		{ "read_bytes", "read_throughput_Bps", "read_iops", "read_lat_ns" },
		{ "write_bytes", "write_throughput_Bps", "write_iops", "write_lat_ns" },
	};
	double bytes = 0, bw = 0, iops = 0, runtime_ms = 0, l = (double)loops;
	json_t *rep;

	for (int k = 0; k < 2; k++) {
		if (!used[k])
			continue;
		bytes += d[k].bytes;
		bw += d[k].bw;
		iops += d[k].iops;
		if (d[k].runtime_ms > runtime_ms)
			runtime_ms = d[k].runtime_ms;
	}
	if (runtime_ms <= 0)
		return NULL;
	rep = json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:b, s:I}", "time_to_end_s",
			runtime_ms / 1000 / l, "bytes", bytes / l, "reads",
			used[0] ? d[0].ios / l : 0.0, "writes", used[1] ? d[1].ios / l : 0.0,
			"throughput_Bps", bw, "iops", iops, "interrupted", 0, "fio_loops_averaged",
			(json_int_t)loops);
	for (int k = 0; rep && k < 2; k++) {
		if (!used[k])
			continue;
		json_object_set_new(rep, fig[k][0], json_real(d[k].bytes / l));
		json_object_set_new(rep, fig[k][1], json_real(d[k].bw));
		json_object_set_new(rep, fig[k][2], json_real(d[k].iops));
		if (n == 1)
			json_object_set_new(rep, fig[k][3],
					    latency(json_object_get(job, dir_names[k])));
		if (n == 1 && !used[1 - k])
			json_object_set_new(rep, "lat_ns", latency(json_object_get(job, dir_names[k])));
	}
	return rep;
}

/* job_params of a fio job; when it gives no size (nor filesize) and its
 * file is not here now, the size fio found is not known either: it is
 * planned with the bytes one loop moved and compared without a size. */
static json_t *fio_params(json_t *global, json_t *job, const char *name, const char *path,
			  uint64_t *loops, char *why)
{
	json_t *opts = json_object_get(job, "job options"), *params;
	char first[ERR_MAX];
	double bytes = number(json_object_get(job, "read"), "io_bytes") +
		       number(json_object_get(job, "write"), "io_bytes");
	uint64_t loop_bytes;

	params = job_params(global, opts, name, path, 0, loops, why);
	if (params || fio_sets(global, opts, "size") || fio_sets(global, opts, "filesize") ||
	    !(bytes >= 1 && bytes < 1e18))
		return params;
	snprintf(first, sizeof(first), "%s", why);
	/* loops are read from the options when the plan is made: a second
	 * pass with the bytes of one loop */
	params = job_params(global, opts, name, path, (uint64_t)bytes, loops, why);
	if (params && *loops > 1) {
		json_decref(params);
		loop_bytes = (uint64_t)bytes / *loops;
		params = loop_bytes ? job_params(global, opts, name, path, loop_bytes, loops, why)
				    : NULL;
	}
	if (!params)
		snprintf(why, ERR_MAX, "%s", first);
	return params;
}

/* fio's fsync/fdatasync calls of one job (its "sync" object: fio counts
 * them in lat_ns.N, its total_ios stays 0) as iosweep's flush figures. */
static void fio_flushes(json_t *rep, json_t *job, uint64_t loops)
{
	json_t *lat = json_object_get(json_object_get(job, "sync"), "lat_ns");
	json_t *pct = json_object_get(lat, "percentile"), *out;
	double n = number(lat, "N");

	if (!(n > 0))
		return;
	out = json_pack("{s:f, s:f}", "mean", number(lat, "mean"), "max", number(lat, "max"));
	if (out && json_is_number(json_object_get(pct, "50.000000")))
		json_object_set_new(out, "p50", json_real(number(pct, "50.000000")));
	if (out && json_is_number(json_object_get(pct, "99.000000")))
		json_object_set_new(out, "p99", json_real(number(pct, "99.000000")));
	json_object_set_new(rep, "flushes", json_real(n / (double)loops));
	json_object_set_new(rep, "flush_lat_ns", out);
}

/* One run from jobs[first..first+n) (clones of one fio job); NULL with
 * *unknown set to {"job", "why"} when the job's parameters cannot be known
 * (it cannot be translated or planned here): such a run is matched with
 * nothing, least of all by its name alone. */
static json_t *fio_run(json_t *jobs, size_t first, size_t n, json_t *global, const char *path,
		       json_t **unknown)
{
	json_t *job = json_array_get(jobs, first), *params, *rep, *run;
	const char *name = json_string_value(json_object_get(job, "jobname")), *op;
	struct fio_dir d[2] = { { 0 } };
	bool failed = false, used[2];
	uint64_t loops = 1;
	char why[ERR_MAX] = "", note[200] = "";

	params = fio_params(global, job, name ? name : "fio", path, &loops, why);
	if (!params) {
		*unknown = json_pack("{s:s, s:s}", "job", name ? name : "fio", "why", why);
		return NULL;
	}
	for (size_t i = first; i < first + n; i++) {
		for (int k = 0; k < 2; k++) {
			json_t *r = json_object_get(json_array_get(jobs, i), dir_names[k]);

			d[k].bytes += number(r, "io_bytes");
			d[k].ios += number(r, "total_ios");
			d[k].bw += number(r, "bw_bytes");
			d[k].iops += number(r, "iops");
			if (number(r, "runtime") > d[k].runtime_ms)
				d[k].runtime_ms = number(r, "runtime");
		}
		failed |= json_integer_value(json_object_get(json_array_get(jobs, i), "error")) != 0;
	}
	/* the directions the translation does */
	op = json_string_value(json_object_get(params, "op"));
	used[0] = !op || strcmp(op, "write") != 0;
	used[1] = op && strcmp(op, "read") != 0;
	if (!used[0] && d[0].ios > 0)
		snprintf(note, sizeof(note), "fio's %.0f reads (its verify phase) are left out: "
					     "iosweep's verify = after is not timed", d[0].ios);
	rep = fio_repeat(job, d, used, n, loops);
	if (rep && n == 1 && used[1])
		fio_flushes(rep, job, loops);
	run = json_pack("{s:s, s:o, s:[], s:b, s:b, s:I}", "job", name ? name : "fio", "params",
			params, "repeats", "from_fio", 1, "failed", failed, "fio_clones",
			(json_int_t)n);
	if (run && *note)
		json_object_set_new(run, "note", json_string(note));
	if (run && rep && !failed)
		json_array_append_new(json_object_get(run, "repeats"), rep);
	else
		json_decref(rep);
	return run;
}

/* Whether fio jobs a and b have the same key (absent from both is the same). */
static bool same(json_t *a, json_t *b, const char *key)
{
	json_t *x = json_object_get(a, key), *y = json_object_get(b, key);

	return x == y || json_equal(x, y);
}

/* A job's numjobs: its own option, else the global one, else 1. */
static size_t numjobs(json_t *job, json_t *global)
{
	json_t *v = json_object_get(json_object_get(job, "job options"), "numjobs");
	unsigned long long n;
	char *end;

	if (!v)
		v = json_object_get(global, "numjobs");
	if (!json_is_string(v))
		return 1;
	n = strtoull(json_string_value(v), &end, 10);
	return *end || n == 0 || n > SIZE_MAX ? 1 : (size_t)n;
}

/* --- the fields of fio's result that are read, checked before anything is read ---
 * as resultfile.c checks iosweep's own: of the type fio writes, finite and
 * in range, named by their place ("jobs[2].read.iops"), so that a hostile
 * file is refused rather than read (a string as 0, a negative runtime as no
 * repeat). */

#define FIO_NUMBER_MAX 18446744073709551616.0 /* 2^64: fio's counters are 64-bit */
#define FIO_WHERE_MAX 160

/* v at where is a number fio writes there: finite, 0 <= x <= 2^64, whole
 * for a count; absent only when not needed. */
static int fio_number(const char *path, const char *where, json_t *v, bool need, bool whole,
		      char *err)
{
	double x = json_number_value(v);

	if (!v && !need)
		return 0;
	if (!json_is_number(v))
		return err_set(err, "%s: %s: %s", path, where, v ? "not a number" : "missing");
	if (!isfinite(x) || x < 0 || x > FIO_NUMBER_MAX)
		return err_set(err, "%s: %s: %g is out of range (0 to %g); not a result fio wrote",
			       path, where, x, FIO_NUMBER_MAX);
	if (whole && x != floor(x))
		return err_set(err, "%s: %s: %g is not a whole number; not a result fio wrote", path,
			       where, x);
	return 0;
}

/* A percentile map of fio ({"99.000000": ns, ...}): keys from 0 to 100, values
 * whole nanoseconds. */
static int fio_percentiles(const char *path, const char *at, json_t *pct, char *err)
{
	char where[FIO_WHERE_MAX];
	const char *key;
	json_t *v;

	if (!json_is_object(pct))
		return err_set(err, "%s: %s.percentile: not an object", path, at);
	json_object_foreach(pct, key, v) {
		char *end;
		double p = strtod(key, &end);

		snprintf(where, sizeof(where), "%s.percentile.%.32s", at, key);
		if (end == key || *end || !isfinite(p) || p < 0 || p > 100)
			return err_set(err, "%s: %s: not a percentile (a number from 0 to 100); not a "
				       "result fio wrote", path, where);
		if (fio_number(path, where, v, true, true, err) < 0)
			return -1;
	}
	return 0;
}

/* A latency object of fio's (lat_ns, clat_ns): min, mean, max, percentiles. */
static int fio_latency(const char *path, const char *at, json_t *lat, char *err)
{
	static const char *const keys[] = { "min", "mean", "max" };
	char where[FIO_WHERE_MAX];

	if (!lat)
		return 0;
	if (!json_is_object(lat))
		return err_set(err, "%s: %s: not an object", path, at);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		snprintf(where, sizeof(where), "%s.%s", at, keys[i]);
		if (fio_number(path, where, json_object_get(lat, keys[i]), false, i != 1, err) < 0)
			return -1;
	}
	if (json_object_get(lat, "percentile"))
		return fio_percentiles(path, at, json_object_get(lat, "percentile"), err);
	return 0;
}

/* One direction of jobs[i] (an object): what fio_run and latency() read. */
static int fio_direction(const char *path, size_t i, const char *dir, json_t *r, char *err)
{
	static const struct {
		const char *key;
		bool need, whole;
	} fields[] = {
		{ "io_bytes", true, true }, { "total_ios", true, true }, { "runtime", true, true },
		{ "bw_bytes", true, false }, { "iops", true, false }, { "bw", false, false },
	};
	char where[FIO_WHERE_MAX];

	for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); f++) {
		snprintf(where, sizeof(where), "jobs[%zu].%s.%s", i, dir, fields[f].key);
		if (fio_number(path, where, json_object_get(r, fields[f].key), fields[f].need,
			       fields[f].whole, err) < 0)
			return -1;
	}
	snprintf(where, sizeof(where), "jobs[%zu].%s.lat_ns", i, dir);
	if (fio_latency(path, where, json_object_get(r, "lat_ns"), err) < 0)
		return -1;
	snprintf(where, sizeof(where), "jobs[%zu].%s.clat_ns", i, dir);
	return fio_latency(path, where, json_object_get(r, "clat_ns"), err);
}

/* A job's "sync" figures (its fsync/fdatasync calls, read by fio_flushes):
 * their latency as a direction's, and their count N whole. */
static int fio_sync(const char *path, size_t i, json_t *sync, char *err)
{
	char where[FIO_WHERE_MAX];
	json_t *lat = json_object_get(sync, "lat_ns");

	if (!sync)
		return 0;
	if (!json_is_object(sync))
		return err_set(err, "%s: jobs[%zu].sync: not an object", path, i);
	snprintf(where, sizeof(where), "jobs[%zu].sync.lat_ns", i);
	if (fio_latency(path, where, lat, err) < 0)
		return -1;
	snprintf(where, sizeof(where), "jobs[%zu].sync.lat_ns.N", i);
	return fio_number(path, where, json_object_get(lat, "N"), false, true, err);
}

/* fio writes every option as a string; numjobs, read as a number here, is
 * one fio took (1 or more), unless it is not a plain number (left to import). */
static int fio_options(const char *path, const char *at, json_t *opts, char *err)
{
	const char *key, *num = json_string_value(json_object_get(opts, "numjobs"));
	json_t *v;

	if (!opts)
		return 0;
	if (!json_is_object(opts))
		return err_set(err, "%s: %s: not an object", path, at);
	json_object_foreach(opts, key, v)
		if (!json_is_string(v))
			return err_set(err, "%s: %s.%.64s: not a string; not a result fio wrote", path,
				       at, key);
	if (num) {
		char *end;
		long long n;

		errno = 0;
		n = strtoll(num, &end, 10);
		if (end != num && !*end && (errno == ERANGE || n < 1 || n > INT_MAX))
			return err_set(err, "%s: %s.numjobs: %.32s is out of range (1 to %d); not a "
				       "result fio wrote", path, at, num, INT_MAX);
	}
	return 0;
}

/* Every job of a fio result: the figures read of both directions, its error
 * code and its options; and the global options.  A job without a jobname
 * or without read and write figures is left for resultfile_from_fio to say. */
static int fio_check_fields(json_t *doc, const char *path, char *err)
{
	char where[FIO_WHERE_MAX];
	json_t *job;
	size_t i;

	if (fio_options(path, "global options", json_object_get(doc, "global options"), err) < 0)
		return -1;
	json_array_foreach(json_object_get(doc, "jobs"), i, job) {
		json_t *error = json_object_get(job, "error");

		for (int k = 0; k < 2; k++) {
			json_t *r = json_object_get(job, dir_names[k]);

			if (json_is_object(r) && fio_direction(path, i, dir_names[k], r, err) < 0)
				return -1;
		}
		if (fio_sync(path, i, json_object_get(job, "sync"), err) < 0)
			return -1;
		if (error && !json_is_integer(error))
			return err_set(err, "%s: jobs[%zu].error: not an integer; not a result fio "
				       "wrote", path, i);
		snprintf(where, sizeof(where), "jobs[%zu].job options", i);
		if (fio_options(path, where, json_object_get(job, "job options"), err) < 0)
			return -1;
	}
	return 0;
}

/* fio 2's JSON ("fio-2.21") has another layout: io_bytes in KiB, latency
 * in µs ("lat", "clat"), no bw_bytes; read as fio 3's, its numbers would
 * mean other things, so it is refused, as is a job in that layout under
 * another version string. */
static int fio_check_version(json_t *doc, const char *path, char *err)
{
	const char *v = json_string_value(json_object_get(doc, "fio version"));
	json_t *read = json_object_get(json_array_get(json_object_get(doc, "jobs"), 0), "read");

	if (strncmp(v, "fio-", 4) == 0 && v[4] >= '0' && v[4] <= '2' && v[5] == '.')
		return err_set(err, "%s: a result of %.32s: fio 2's JSON layout (bytes in KiB, latency "
				    "in microseconds) is not read; iosweep reads fio 3's "
				    "(--output-format=json or json+)", path, v);
	if (json_is_object(read) && !json_object_get(read, "bw_bytes") &&
	    !json_object_get(read, "lat_ns") && json_object_get(read, "clat"))
		return err_set(err, "%s: jobs[0].read has fio 2's layout (clat in microseconds, no "
				    "bw_bytes or lat_ns): not read; iosweep reads fio 3's "
				    "(--output-format=json or json+)", path);
	return 0;
}

int resultfile_from_fio(json_t **doc, const char *path, char *err)
{
	json_t *jobs = json_object_get(*doc, "jobs"), *global = json_object_get(*doc, "global options");
	json_t *runs = json_array(), *unknowns = json_array(), *out;
	size_t njobs = json_array_size(jobs);

	if (fio_check_version(*doc, path, err) < 0) {
		json_decref(runs);
		json_decref(unknowns);
		return -1;
	}
	if (!json_is_array(jobs) || !runs || !unknowns) {
		json_decref(runs);
		json_decref(unknowns);
		return err_set(err, "%s: a fio result without a \"jobs\" array", path);
	}
	if (fio_check_fields(*doc, path, err) < 0) {
		json_decref(runs);
		json_decref(unknowns);
		return -1;
	}
	for (size_t i = 0; i < njobs;) {
		json_t *job = json_array_get(jobs, i), *run, *unknown = NULL;
		size_t n = 1;

		if (!json_is_string(json_object_get(job, "jobname")) ||
		    !json_is_object(json_object_get(job, "read")) ||
		    !json_is_object(json_object_get(job, "write"))) {
			json_decref(runs);
			json_decref(unknowns);
			return err_set(err, "%s: fio job %zu has no jobname or read and write figures",
				       path, i);
		}
		/* numjobs clones follow each other, at most numjobs of them, in one
		 * group (ran together: a stonewall starts another), with the same
		 * name and options */
		while (i + n < njobs && n < numjobs(job, global) &&
		       same(json_array_get(jobs, i + n), job, "jobname") &&
		       same(json_array_get(jobs, i + n), job, "groupid") &&
		       same(json_array_get(jobs, i + n), job, "job options"))
			n++;
		run = fio_run(jobs, i, n, global, path, &unknown);
		if (run ? json_array_append_new(runs, run) < 0 :
			  json_array_append_new(unknowns, unknown) < 0) {
			json_decref(runs);
			json_decref(unknowns);
			return err_set(err, "%s: out of memory", path);
		}
		i += n;
	}
	out = json_pack("{s:{s:s, s:i, s:s, s:O}, s:o, s:o}", "iosweep", "version",
			IOSWEEP_VERSION, "schema", IOSWEEP_SCHEMA, "source", "fio", "fio_version",
			json_object_get(*doc, "fio version"), "runs", runs, "fio_unknown",
			unknowns);
	if (!out)
		return err_set(err, "%s: out of memory", path);
	json_decref(*doc);
	*doc = out;
	return 0;
}
