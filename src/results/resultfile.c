/*
 * resultfile.c - see resultfile.h.
 *
 * A result file of 100 000 runs is hundreds of megabytes of JSON, and its
 * jansson tree several times that, so it is never held whole: the file is
 * read in pieces, the top-level object key by key, and the "runs" array
 * element by element (json_loadb with JSON_DISABLE_EOF_CHECK says where a
 * value ended; a value cut by the end of a piece is parsed again with more).
 * Of each run only what compare and plot read is kept: its job and
 * parameters, each distinct value once per file (a hash table), and the
 * values of the figures asked for.  Every number that compare and plot
 * read is checked once, here, with the place it was found (finite, not
 * negative, within what a 64-bit counter holds, fractions at most 1), so
 * that a hostile file is refused instead of reaching undefined behaviour
 * in the arithmetic.  Questions over runs (which parameters vary, and
 * within what) are answered from each parameter's values numbered once
 * through a hash table (struct runset), so that two files of 100 000 runs
 * compare in seconds: nothing compares every pair of runs.
 */
#define _GNU_SOURCE
#include "results/resultfile.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "job/options.h"
#include "lib/error.h"
#include "lib/version.h"
#include "results/resultfile_fio.h"

#include <xxhash.h>

/* A distinct value of a file (a job name, a parameter's key or value),
 * held once.  Its text is what two values share only when they are equal
 * (a type letter, then the value): what struct runset numbers. */
struct rf_value {
	json_t *json;
	size_t len;
	char text[];
};

/* The distinct values of a file: a hash table on their text. */
struct rf_intern {
	struct rf_value **slot;
	size_t cap, n;
};

/* The text of v (a scalar: what check_params lets through), or of the
 * params key `key` when v is NULL, into buf (n bytes), or a malloc'd copy
 * when longer; NULL when out of memory.  *len is its length. */
static char *value_text(const json_t *v, const char *key, char *buf, size_t n, size_t *len)
{
	const char *s = key ? key : json_string_value(v);
	char *t = buf;
	int w;

	if (s) {
		*len = (key ? strlen(key) : json_string_length(v)) + 1;
		if (*len > n && !(t = malloc(*len)))
			return NULL;
		t[0] = key ? 'k' : 's';
		memcpy(t + 1, s, *len - 1);
		return t;
	}
	if (json_is_integer(v))
		w = snprintf(buf, n, "i%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_real(v))
		w = snprintf(buf, n, "r%.17g", json_real_value(v));
	else /* null */
		w = snprintf(buf, n, "n");
	*len = (size_t)w;
	return buf;
}

static int intern_grow(struct rf_intern *tab)
{
	size_t cap = tab->cap ? 2 * tab->cap : 1024;
	struct rf_value **slot = calloc(cap, sizeof(*slot));

	if (!slot)
		return -1;
	for (size_t i = 0; i < tab->cap; i++) {
		struct rf_value *v = tab->slot[i];
		size_t h;

		if (!v)
			continue;
		for (h = (size_t)XXH3_64bits(v->text, v->len) & (cap - 1); slot[h];
		     h = (h + 1) & (cap - 1))
			;
		slot[h] = v;
	}
	free(tab->slot);
	tab->slot = slot;
	tab->cap = cap;
	return 0;
}

/* The file's one copy of v, or of the params key `key` when v is NULL;
 * NULL when out of memory. */
static const struct rf_value *intern(struct rf_intern *tab, json_t *v, const char *key)
{
	char buf[256], *text;
	size_t len, h;
	struct rf_value *val = NULL;

	if (2 * (tab->n + 1) > tab->cap && intern_grow(tab) < 0)
		return NULL;
	text = value_text(v, key, buf, sizeof(buf), &len);
	if (!text)
		return NULL;
	for (h = (size_t)XXH3_64bits(text, len) & (tab->cap - 1); tab->slot[h];
	     h = (h + 1) & (tab->cap - 1))
		if (tab->slot[h]->len == len && memcmp(tab->slot[h]->text, text, len) == 0) {
			val = tab->slot[h];
			goto out;
		}
	val = malloc(sizeof(*val) + len + 1);
	if (val) {
		val->json = key ? json_string_nocheck(key) : json_incref(v);
		val->len = len;
		memcpy(val->text, text, len);
		val->text[len] = '\0';
		if (val->json) {
			tab->slot[h] = val;
			tab->n++;
		} else {
			free(val);
			val = NULL;
		}
	}
out:
	if (text != buf)
		free(text);
	return val;
}

static void intern_free(struct rf_intern *tab)
{
	for (size_t i = 0; tab && i < tab->cap; i++)
		if (tab->slot[i]) {
			json_decref(tab->slot[i]->json);
			free(tab->slot[i]);
		}
	if (tab)
		free(tab->slot);
	free(tab);
}

/* The "iosweep" object of the head, when there is one yet. */
static int check_id(const struct resultfile *rf, char *err)
{
	json_t *id = json_object_get(rf->doc, "iosweep"), *schema = json_object_get(id, "schema");

	if (!json_is_object(id))
		return err_set(err, "%s: not an iosweep result file (no \"iosweep\" object)",
			       rf->path);
	if (!json_is_integer(schema))
		return err_set(err, "%s: not an iosweep result file (no schema number)", rf->path);
	if (json_integer_value(schema) != IOSWEEP_SCHEMA)
		return err_set(err, "%s: schema %" JSON_INTEGER_FORMAT ", but iosweep %s reads "
			       "schema %d", rf->path, json_integer_value(schema), IOSWEEP_VERSION,
			       IOSWEEP_SCHEMA);
	return 0;
}

/* The largest number a figure or parameter may hold: 2^64 (counters are
 * unsigned 64-bit).  Anything larger, negative or not finite is not
 * something iosweep wrote, and would overflow what reads it. */
#define NUMBER_MAX 18446744073709551616.0

/* Whether v is a number iosweep could have written: finite, 0 <= x <= max;
 * NULL and absent are "unknown". */
static bool number_ok(json_t *v, double max)
{
	double x = json_number_value(v);

	return !v || json_is_null(v) || (json_is_number(v) && isfinite(x) && x >= 0 && x <= max);
}

/* Says where ("runs[i].WHERE") and why v is not such a number. */
static int number_error(const struct resultfile *rf, json_t *v, double max, size_t run,
			const char *where, char *err)
{
	if (!json_is_number(v))
		return err_set(err, "%s: runs[%zu].%s: not a number", rf->path, run, where);
	return err_set(err, "%s: runs[%zu].%s: %g is out of range (0 to %g); not a result "
		       "iosweep wrote", rf->path, run, where, json_number_value(v), max);
}

/* Parameters: numbers in range, words and names as strings. */
static int check_params(const struct resultfile *rf, json_t *params, size_t run, char *err)
{
	char where[128];
	const char *key;
	json_t *v;

	json_object_foreach(params, key, v) {
		int id = option_find(key);
		/* durations are seconds, read back as 64-bit nanoseconds */
		double max = id >= 0 && option_table[id].type == T_DURATION ? NUMBER_MAX / 2e9
									     : NUMBER_MAX / 2;

		if (json_is_string(v) || (json_is_number(v) && number_ok(v, max)) || json_is_null(v))
			continue;
		snprintf(where, sizeof(where), "params.%.64s", key);
		if (json_is_number(v))
			return number_error(rf, v, max, run, where, err);
		return err_set(err, "%s: runs[%zu].%s: neither a number nor a string", rf->path,
			       run, where);
	}
	return 0;
}

/* The figure's JSON value in one repeat: a top-level field, or one of a group. */
static json_t *repeat_value(json_t *rep, const struct figure *f)
{
	json_t *group = f->group ? json_object_get(rep, f->group) : rep;

	return json_object_get(group, f->key);
}

/* --- a repeat's series (plot --over), as run writes them (run.c, report_json.c) ---
 *
 * Interval k of a series starts at k times interval_s, from 0, with one
 * entry per direction the repeat did (read first); an interval's ops and
 * bytes are counted where the repeat's are, so those of all intervals add
 * up to at most the repeat's.  A worker's intervals start at its own
 * start, which may come a little before the repeat's first I/O: an
 * interval may start up to one interval after the repeat's time to end
 * (never more, with the few microseconds between a worker's start and its
 * first I/O), and no later. */

#define SERIES_START_MAX 1e12 /* seconds */
#define SERIES_SLACK 1e-6     /* of an interval: JSON keeps 10 digits of each number */

static const char *const series_dir[2] = { "read", "write" };
static const char *const repeat_ops_key[2] = { "reads", "writes" };
static const char *const repeat_bytes_key[2] = { "read_bytes", "write_bytes" };

/* One series being checked: where it is, its repeat, and its intervals so far. */
struct series_check {
	const struct resultfile *rf;
	size_t run;
	char where[160];          /* "repeats[J].series" and what is checked in it */
	size_t n;                 /* the length of "repeats[J].series" */
	json_t *rep;
	double interval_s;
	double start_s;           /* of the interval before */
	int dir;                  /* of the interval before; -1: none yet */
	unsigned dirs;            /* the directions of the intervals from start_s */
	size_t group;             /* the number of the interval from start_s */
	double ops[2], bytes[2];  /* of each direction, over the intervals so far */
};

/* sc->where after "repeats[J].series": what is checked now. */
static void series_at(struct series_check *sc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void series_at(struct series_check *sc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sc->where + sc->n, sizeof(sc->where) - sc->n, fmt, ap);
	va_end(ap);
}

/* "PATH: runs[I].WHERE: why" */
static int series_error(const struct series_check *sc, char *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int series_error(const struct series_check *sc, char *err, const char *fmt, ...)
{
	char why[ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return err_set(err, "%s: runs[%zu].%s: %s", sc->rf->path, sc->run, sc->where, why);
}

/* v (at sc->where) is a number run writes there: lo <= x <= hi, and whole
 * for a count. */
static int series_number(const struct series_check *sc, json_t *v, double lo, double hi,
			 bool whole, char *err)
{
	double x = json_number_value(v);

	if (!json_is_number(v))
		return series_error(sc, err, "%s", v ? "not a number" : "missing");
	if (!isfinite(x) || x < lo || x > hi)
		return series_error(sc, err, "%g is out of range (%g to %g); not a result iosweep "
				    "wrote", x, lo, hi);
	if (whole && x != floor(x))
		return series_error(sc, err, "%g is not a whole number; not a result iosweep wrote",
				    x);
	return 0;
}

/* The series' interval (the job's, doubled at each coarsening) and its list. */
static int check_series_head(struct series_check *sc, json_t *s, json_t *params, char *err)
{
	json_t *asked = json_object_get(params, "interval");
	double coarsened;

	if (!json_is_object(s))
		return series_error(sc, err, "not an object");
	series_at(sc, ".interval_s");
	/* the interval option is a whole number of nanoseconds */
	if (series_number(sc, json_object_get(s, "interval_s"), 1e-9, 1e9, false, err) < 0)
		return -1;
	sc->interval_s = json_number_value(json_object_get(s, "interval_s"));
	series_at(sc, ".coarsened");
	if (series_number(sc, json_object_get(s, "coarsened"), 0, 64, true, err) < 0)
		return -1;
	coarsened = json_number_value(json_object_get(s, "coarsened"));
	if (json_is_number(asked) && json_number_value(asked) > 0) {
		double want = ldexp(json_number_value(asked), (int)coarsened);

		series_at(sc, ".interval_s");
		if (fabs(sc->interval_s - want) > SERIES_SLACK * want)
			return series_error(sc, err, "%g s is not the job's interval (params.interval "
					    "%g s) doubled %g times; not a series iosweep wrote",
					    sc->interval_s, json_number_value(asked), coarsened);
	}
	series_at(sc, ".intervals");
	if (!json_is_array(json_object_get(s, "intervals")))
		return series_error(sc, err, "not an array");
	return 0;
}

/* Interval k's figures: in range, its start not before the one before. */
static int check_interval_figures(struct series_check *sc, json_t *pt, size_t k, char *err)
{
	static const char *const counts[] = { "ops", "bytes", "lat_p50_ns", "lat_p99_ns",
					      "lat_max_ns" };
	const char *dir = json_string_value(json_object_get(pt, "dir"));
	json_t *resident = json_object_get(pt, "resident");

	series_at(sc, ".intervals[%zu]", k);
	if (!json_is_object(pt))
		return series_error(sc, err, "not an object");
	series_at(sc, ".intervals[%zu].start_s", k);
	if (series_number(sc, json_object_get(pt, "start_s"), sc->dir < 0 ? 0 : sc->start_s,
			  SERIES_START_MAX, false, err) < 0)
		return -1;
	series_at(sc, ".intervals[%zu].dir", k);
	if (!dir || (strcmp(dir, "read") != 0 && strcmp(dir, "write") != 0))
		return series_error(sc, err, "neither \"read\" nor \"write\"");
	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		series_at(sc, ".intervals[%zu].%s", k, counts[c]);
		if (series_number(sc, json_object_get(pt, counts[c]), 0, NUMBER_MAX, true, err) < 0)
			return -1;
	}
	series_at(sc, ".intervals[%zu].resident", k);
	if (resident && !json_is_null(resident) &&
	    series_number(sc, resident, 0, 1, false, err) < 0)
		return -1;
	return 0;
}

/* Interval k's place: one entry a direction per interval, read first, and
 * interval g from g times interval_s, not after the repeat ended. */
static int check_interval_place(struct series_check *sc, json_t *pt, size_t k, char *err)
{
	double start = json_number_value(json_object_get(pt, "start_s")), iv = sc->interval_s;
	json_t *tte = json_object_get(sc->rep, "time_to_end_s");
	int d = strcmp(json_string_value(json_object_get(pt, "dir")), "write") == 0;

	series_at(sc, ".intervals[%zu]", k);
	if (sc->dir >= 0 && start == sc->start_s) {
		if (sc->dirs & 1u << d)
			return series_error(sc, err, "a second %s interval from %g s; not a series "
					    "iosweep wrote", series_dir[d], start);
		if (d < sc->dir)
			return series_error(sc, err, "a %s interval from %g s after the %s one; not a "
					    "series iosweep wrote", series_dir[d], start,
					    series_dir[sc->dir]);
	} else {
		size_t g = sc->dir < 0 ? 0 : sc->group + 1;

		series_at(sc, ".intervals[%zu].start_s", k);
		if (fabs(start - (double)g * iv) > SERIES_SLACK * iv * (double)(g + 1))
			return series_error(sc, err, "%g s is not where interval %zu starts (%g s: "
					    "intervals of %g s from 0); not a series iosweep wrote",
					    start, g, (double)g * iv, iv);
		if (json_is_number(tte) && start > json_number_value(tte) + iv * (1 + SERIES_SLACK))
			return series_error(sc, err, "%g s is after the repeat ended (time_to_end_s "
					    "%g s); not a series iosweep wrote", start,
					    json_number_value(tte));
		sc->group = g;
		sc->dirs = 0;
	}
	sc->start_s = start;
	sc->dir = d;
	sc->dirs |= 1u << d;
	return 0;
}

/* The ops and bytes of interval k's direction so far, against the repeat's. */
static int check_interval_sums(struct series_check *sc, json_t *pt, size_t k, char *err)
{
	json_t *ops = json_object_get(sc->rep, repeat_ops_key[sc->dir]);
	json_t *bytes = json_object_get(sc->rep, repeat_bytes_key[sc->dir]);

	sc->ops[sc->dir] += json_number_value(json_object_get(pt, "ops"));
	sc->bytes[sc->dir] += json_number_value(json_object_get(pt, "bytes"));
	series_at(sc, ".intervals[%zu].ops", k);
	if (json_is_number(ops) && sc->ops[sc->dir] > json_number_value(ops))
		return series_error(sc, err, "the %s ops of the intervals up to here (%.0f) are "
				    "more than the repeat's %s (%.0f); not a series iosweep wrote",
				    series_dir[sc->dir], sc->ops[sc->dir], repeat_ops_key[sc->dir],
				    json_number_value(ops));
	series_at(sc, ".intervals[%zu].bytes", k);
	if (json_is_number(bytes) && sc->bytes[sc->dir] > json_number_value(bytes))
		return series_error(sc, err, "the %s bytes of the intervals up to here (%.0f) are "
				    "more than the repeat's %s (%.0f); not a series iosweep wrote",
				    series_dir[sc->dir], sc->bytes[sc->dir], repeat_bytes_key[sc->dir],
				    json_number_value(bytes));
	return 0;
}

/* The series of repeats[j] of the run-th run (its figures checked), when it has one. */
static int check_series(const struct resultfile *rf, json_t *rep, json_t *params, size_t run,
			size_t j, char *err)
{
	struct series_check sc = { .rf = rf, .run = run, .rep = rep, .dir = -1 };
	json_t *s = json_object_get(rep, "series"), *pt;
	size_t k;

	if (!s || json_is_null(s))
		return 0;
	sc.n = (size_t)snprintf(sc.where, sizeof(sc.where), "repeats[%zu].series", j);
	if (check_series_head(&sc, s, params, err) < 0)
		return -1;
	json_array_foreach(json_object_get(s, "intervals"), k, pt)
		if (check_interval_figures(&sc, pt, k, err) < 0 ||
		    check_interval_place(&sc, pt, k, err) < 0 ||
		    check_interval_sums(&sc, pt, k, err) < 0)
			return -1;
	return 0;
}

/* Every figure of every repeat that compare and plot may read, and its series. */
static int check_repeats(const struct resultfile *rf, json_t *reps, json_t *params, size_t run,
			 char *err)
{
	char where[128];
	size_t j;
	json_t *rep;

	json_array_foreach(reps, j, rep) {
		json_t *interrupted = json_object_get(rep, "interrupted");

		if (!json_is_object(rep))
			return err_set(err, "%s: runs[%zu].repeats[%zu]: not an object", rf->path,
				       run, j);
		if (interrupted && !json_is_boolean(interrupted))
			return err_set(err, "%s: runs[%zu].repeats[%zu].interrupted: not true or "
				       "false", rf->path, run, j);
		for (size_t k = 0; k < figure_count; k++) {
			const struct figure *f = &figure_table[k];
			json_t *group = f->group ? json_object_get(rep, f->group) : rep;
			double max = f->type == FIG_FRACTION ? 1.0 : NUMBER_MAX;

			if (f->group && group && !json_is_object(group))
				return err_set(err, "%s: runs[%zu].repeats[%zu].%s: not an object",
					       rf->path, run, j, f->group);
			if (number_ok(repeat_value(rep, f), max))
				continue;
			snprintf(where, sizeof(where), "repeats[%zu].%s%s%s", j,
				 f->group ? f->group : "", f->group ? "." : "", f->key);
			return number_error(rf, repeat_value(rep, f), max, run, where, err);
		}
		if (check_series(rf, rep, params, run, j, err) < 0)
			return -1;
	}
	return 0;
}

/* r->repeats: of each repeat, whether it was interrupted, its series and
 * its time to end (where its last interval ends). */
static int keep_series(struct resultfile_run *r, json_t *reps)
{
	size_t j;
	json_t *rep;

	r->repeats = json_array();
	if (!r->repeats)
		return -1;
	json_array_foreach(reps, j, rep) {
		json_t *series = json_object_get(rep, "series");
		json_t *tte = json_object_get(rep, "time_to_end_s"); /* checked: a number */
		/* for the marks of plot --over, which checks each number it uses */
		json_t *steady = json_object_get(rep, "steady"), *cliffs = json_object_get(rep, "cliffs");

		if (json_array_append_new(r->repeats,
					  json_pack("{s:b, s:O, s:O, s:O, s:O}", "interrupted",
						    json_is_true(json_object_get(rep, "interrupted")),
						    "series", series ? series : json_null(),
						    "time_to_end_s", tte ? tte : json_null(),
						    "steady", json_is_object(steady) ? steady : json_null(),
						    "cliffs", json_is_array(cliffs) ? cliffs : json_null())) < 0)
			return -1;
	}
	return 0;
}

/* run[name] when it is a string, held once per file, into *to (else NULL);
 * -1 when out of memory. */
static int keep_text(struct resultfile *rf, json_t *run, const char *name, json_t **to)
{
	json_t *text = json_object_get(run, name);
	const struct rf_value *v = json_is_string(text) ? intern(rf->values, text, NULL) : NULL;

	*to = v ? v->json : NULL;
	return json_is_string(text) && !v ? -1 : 0;
}

/* r's job, description, note, error and params (with a grouped job's
 * group name gname and run grun, when gname), each held once per file;
 * -1 when out of memory. */
static int keep_texts(struct resultfile *rf, struct resultfile_run *r, json_t *run,
		      json_t *params, json_t *gname, json_t *grun)
{
	json_t *job = json_object_get(run, "job"), *desc = json_object_get(run, "description");
	const struct rf_value *v;
	const char *key;
	json_t *value;

	v = intern(rf->values, job, NULL);
	r->job = v ? v->json : NULL;
	v = json_is_string(desc) ? intern(rf->values, desc, NULL) : NULL;
	r->description = v ? v->json : NULL;
	if (!r->job || (json_is_string(desc) && !r->description) ||
	    keep_text(rf, run, "note", &r->note) < 0 || keep_text(rf, run, "error", &r->error) < 0)
		return -1;
	json_object_foreach(params, key, value) {
		const struct rf_value *kv = intern(rf->values, NULL, key);

		r->params[r->nparams].key = kv ? json_string_value(kv->json) : NULL;
		r->params[r->nparams].value = intern(rf->values, value, NULL);
		if (!r->params[r->nparams++].value || !kv)
			return -1;
	}
	for (int g = 0; gname && g < 2; g++) {
		const struct rf_value *kv = intern(rf->values, NULL, g ? "group_run" : "group");

		r->params[r->nparams].key = kv ? json_string_value(kv->json) : NULL;
		r->params[r->nparams].value = intern(rf->values, g ? grun : gname, NULL);
		if (!r->params[r->nparams++].value || !kv)
			return -1;
	}
	return 0;
}

/* r's index, whether it failed, its repeats and how many were interrupted
 * (and their series, when rf keeps them); -1 when out of memory. */
static int keep_repeats(const struct resultfile *rf, struct resultfile_run *r, json_t *run,
			json_t *reps)
{
	json_t *index = json_object_get(run, "index");

	r->index = json_is_integer(index) ? json_integer_value(index) : -1;
	r->failed = json_is_true(json_object_get(run, "failed"));
	r->nrepeats = json_array_size(reps);
	for (size_t j = 0; j < r->nrepeats; j++)
		r->ninterrupted += json_is_true(
			json_object_get(json_array_get(reps, j), "interrupted"));
	if ((rf->flags & RESULTFILE_SERIES) && keep_series(r, reps) < 0)
		return -1;
	return 0;
}

/* r's values of each figure over the repeats not interrupted, into the
 * room after r->val: count[k] of figure k, as keep_run counted them. */
static void keep_values(const struct resultfile *rf, struct resultfile_run *r, json_t *reps,
			const size_t *count)
{
	double *x = (double *)(r->val + rf->nfigs);
	size_t at, k;
	json_t *rep;

	for (k = 0; k < rf->nfigs; k++) {
		r->val[k] = x;
		x += count[k];
	}
	json_array_foreach(reps, at, rep)
		if (!json_is_true(json_object_get(rep, "interrupted")))
			for (k = 0; k < rf->nfigs; k++) {
				json_t *fv = repeat_value(rep, rf->figs[k]);

				if (json_is_number(fv))
					r->val[k][r->nval[k]++] = json_number_value(fv);
			}
}

/* The compact run of run (the i-th), checked, appended to rf->runs. */
static int keep_run(struct resultfile *rf, json_t *run, size_t i, char *err)
{
	json_t *params = json_object_get(run, "params"), *reps = json_object_get(run, "repeats");
	json_t *job = json_object_get(run, "job");
	/* a job of a group (run.group): its group and which of its runs are
	 * part of what the run is, as two more params, so that compare matches
	 * a job inside a group run by group and job, and labels say them */
	json_t *group = json_object_get(run, "group");
	json_t *gname = json_object_get(group, "name"), *grun = json_object_get(group, "run");
	bool grouped = json_is_string(gname) && json_is_integer(grun);
	size_t np = json_object_size(params) + (grouped ? 2 : 0), nv = 0, at = 0, k, *count = NULL;
	struct resultfile_run *r;
	json_t *rep;
	char *block;

	if (!json_is_string(job) || !json_is_object(params) || !json_is_array(reps))
		return err_set(err, "%s: runs[%zu]: not a run (with a job, params and repeats)",
			       rf->path, i);
	if (check_params(rf, params, i, err) < 0 || check_repeats(rf, reps, params, i, err) < 0)
		return -1;
	/* the values of each figure, over the repeats not interrupted (a
	 * repeat's flag looked up once) */
	count = calloc(rf->nfigs + 1, sizeof(*count));
	if (!count)
		goto oom;
	json_array_foreach(reps, at, rep)
		if (!json_is_true(json_object_get(rep, "interrupted")))
			for (k = 0; k < rf->nfigs; k++)
				if (json_is_number(repeat_value(rep, rf->figs[k]))) {
					count[k]++;
					nv++;
				}
	if (rf->nruns == rf->runs_cap) {
		size_t cap = rf->runs_cap ? 2 * rf->runs_cap : 64;
		struct resultfile_run **grown = realloc(rf->runs, cap * sizeof(*grown));

		if (!grown)
			goto oom;
		rf->runs = grown;
		rf->runs_cap = cap;
	}
	/* one block: the run, its params, per figure a count and a pointer, the values */
	block = calloc(1, sizeof(*r) + np * sizeof(*r->params) +
			      rf->nfigs * (sizeof(*r->nval) + sizeof(*r->val)) + nv * sizeof(double));
	if (!block)
		goto oom;
	r = (struct resultfile_run *)block;
	r->params = (struct rf_param *)(block + sizeof(*r));
	r->nval = (size_t *)(r->params + np);
	r->val = (double **)(r->nval + rf->nfigs);
	r->figs = rf->figs;
	r->nfigs = rf->nfigs;
	rf->runs[rf->nruns++] = r;
	if (keep_texts(rf, r, run, params, grouped ? gname : NULL, grun) < 0 ||
	    keep_repeats(rf, r, run, reps) < 0)
		goto oom;
	keep_values(rf, r, reps, count);
	free(count);
	return 0;
oom:
	free(count);
	return err_set(err, "%s: out of memory", rf->path);
}

/* The i-th run kept, or, when the file is streamed, handed to rf->each and
 * let go (so that memory holds one run, and each distinct value once). */
static int add_run(struct resultfile *rf, json_t *run, size_t i, char *err)
{
	int rc = keep_run(rf, run, i, err);

	if (rc == 0 && rf->each) {
		rc = rf->each(rf->each_ctx, rf, rf->runs[rf->nruns - 1], i, err);
		json_decref(rf->runs[rf->nruns - 1]->repeats);
		free(rf->runs[--rf->nruns]);
	}
	return rc;
}

/* The file read in pieces: buf[pos..len) is what is not parsed yet. */
struct reader {
	const char *path;
	int fd;
	char *buf;
	size_t cap, len, pos;
	bool eof;
	bool fio;  /* a fio result ("fio version" came first): duplicate keys are
		    * fio's (an option set in an include and in the job), the last
		    * one is what fio used, and jansson keeps the last */
	int line; /* of buf[pos] */
	XXH3_state_t *hash; /* of the bytes read, or NULL */
};

#define READ_PIECE (1 << 20)

/* More of the file after what is left; -1 with why. */
static int fill(struct reader *rd, char *err)
{
	size_t left = rd->len - rd->pos;

	memmove(rd->buf, rd->buf + rd->pos, left);
	rd->len = left;
	rd->pos = 0;
	if (left >= rd->cap / 2) { /* a value longer than half the buffer */
		char *grown = realloc(rd->buf, 2 * rd->cap);

		if (!grown)
			return err_set(err, "%s: out of memory", rd->path);
		rd->buf = grown;
		rd->cap *= 2;
	}
	while (rd->len < rd->cap && !rd->eof) {
		ssize_t n = read(rd->fd, rd->buf + rd->len, rd->cap - rd->len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return err_set(err, "%s: cannot read: %s", rd->path, strerror(errno));
		rd->eof = n == 0;
		if (rd->hash)
			XXH3_64bits_update(rd->hash, rd->buf + rd->len, (size_t)n);
		rd->len += (size_t)n;
	}
	return 0;
}

static void advance(struct reader *rd, size_t n)
{
	for (const char *c = rd->buf + rd->pos, *end = c + n;
	     (c = memchr(c, '\n', (size_t)(end - c))) != NULL; c++)
		rd->line++;
	rd->pos += n;
}

/* The next character that is not JSON white space (not consumed); -1 at
 * the end of the file, -2 after a read error (err says it). */
static int peek(struct reader *rd, char *err)
{
	for (;;) {
		while (rd->pos < rd->len && strchr(" \t\r\n", rd->buf[rd->pos]) &&
		       rd->buf[rd->pos])
			advance(rd, 1);
		if (rd->pos < rd->len)
			return (unsigned char)rd->buf[rd->pos];
		if (rd->eof)
			return -1;
		if (fill(rd, err) < 0)
			return -2;
	}
}

/* A syntax error at the reader's position, worded as jansson words them. */
static int syntax(struct reader *rd, int c, const char *expected, char *err)
{
	if (c == -2)
		return -1;
	if (c == -1)
		return err_set(err, "%s: not JSON (line %d: %s near end of file)", rd->path,
			       rd->line, expected);
	return err_set(err, "%s: not JSON (line %d: %s near '%c')", rd->path, rd->line, expected,
		       c);
}

/* The JSON value at the reader's position, parsed by jansson (the
 * position moves past it): a value that reaches the end of what was read
 * may go on after it, so it is parsed again with more.  NULL with why. */
static json_t *next_value(struct reader *rd, size_t flags, char *err)
{
	for (;;) {
		size_t avail = rd->len - rd->pos;
		json_error_t jerr;
		json_t *v = json_loadb(rd->buf + rd->pos, avail,
				       flags | JSON_DISABLE_EOF_CHECK |
					       (rd->fio ? 0 : JSON_REJECT_DUPLICATES), &jerr);

		if (jerr.position >= 0 && (size_t)jerr.position >= avail && !rd->eof) {
			json_decref(v);
			if (fill(rd, err) < 0)
				return NULL;
			continue;
		}
		if (!v) {
			err_set(err, "%s: not JSON (line %d: %s)", rd->path, rd->line + jerr.line - 1,
				jerr.text);
			return NULL;
		}
		advance(rd, (size_t)jerr.position);
		return v;
	}
}

/* The runs array, element by element, from its '['. */
static int read_runs(struct resultfile *rf, struct reader *rd, char *err)
{
	int c;

	/* a file of another schema is refused before its runs are read */
	if (json_object_get(rf->doc, "iosweep") && check_id(rf, err) < 0)
		return -1;
	advance(rd, 1);
	if ((c = peek(rd, err)) == ']') {
		advance(rd, 1);
		return 0;
	}
	for (size_t i = 0;; i++) {
		json_t *run;
		int rc;

		if (c < 0)
			return syntax(rd, c, "']' expected", err);
		run = next_value(rd, JSON_DECODE_ANY, err);
		if (!run)
			return -1;
		rc = add_run(rf, run, i, err);
		json_decref(run);
		if (rc < 0)
			return -1;
		c = peek(rd, err);
		if (c != ',' && c != ']')
			return syntax(rd, c, "']' expected", err);
		advance(rd, 1);
		if (c == ']')
			return 0;
		c = peek(rd, err);
	}
}

/* The top-level object key by key: everything but "runs" into rf->doc,
 * the runs (an array) through read_runs.  *runs: a "runs" array was read. */
static int read_doc(struct resultfile *rf, struct reader *rd, bool *runs, char *err)
{
	int c = peek(rd, err);

	if (c != '{') {
		/* not an object: jansson says what is wrong with it, if anything */
		json_t *v = c == -2 ? NULL : next_value(rd, 0, err);

		json_decref(v);
		return v ? err_set(err, "%s: not an iosweep result file (no \"iosweep\" object)",
				   rf->path) : -1;
	}
	advance(rd, 1);
	rf->doc = json_object();
	if (!rf->doc)
		return err_set(err, "%s: out of memory", rf->path);
	for (c = peek(rd, err); c != '}';) {
		json_t *key, *v = NULL;
		const char *name;

		if (c != '"')
			return syntax(rd, c, "string or '}' expected", err);
		key = next_value(rd, JSON_DECODE_ANY, err);
		if (!key)
			return -1;
		name = json_string_value(key);
		c = peek(rd, err);
		if (c != ':') {
			json_decref(key);
			return syntax(rd, c, "':' expected", err);
		}
		advance(rd, 1);
		c = peek(rd, err);
		if (strcmp(name, "runs") == 0 ? *runs : json_object_get(rf->doc, name) != NULL) {
			err_set(err, "%s: not JSON (line %d: duplicate object key near '\"%s\"')",
				rf->path, rd->line, name);
			json_decref(key);
			return -1;
		}
		if (strcmp(name, "runs") == 0 && c == '[') {
			*runs = true;
			c = read_runs(rf, rd, err);
		} else {
			v = c < 0 ? NULL : next_value(rd, JSON_DECODE_ANY, err);
			if (v && json_object_set_new(rf->doc, name, v) < 0)
				c = err_set(err, "%s: out of memory", rf->path);
			else if (json_is_string(v) && strcmp(name, "fio version") == 0)
				rd->fio = true;
			else if (!v)
				c = c < 0 ? syntax(rd, c, "value expected", err) : -1;
		}
		json_decref(key);
		if (c < 0)
			return -1;
		c = peek(rd, err);
		if (c == ',') {
			advance(rd, 1);
			c = peek(rd, err);
		} else if (c != '}') {
			return syntax(rd, c, "'}' expected", err);
		}
	}
	advance(rd, 1);
	c = peek(rd, err);
	return c == -1 ? 0 : syntax(rd, c, "end of file expected", err);
}

/* A result file is a regular file: a directory, FIFO or device is refused
 * by its type before anything is read (O_NONBLOCK: a FIFO cannot hang the
 * open).  Its descriptor, or -1 with why. */
static int open_regular(const char *path, char *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return err_set(err, "%s: cannot open: %s", path, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		err_set(err, "%s: %s, not a result file", path,
			S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO"
			: S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "not a regular file");
		close(fd);
		return -1;
	}
	return fd;
}

static void free_runs(struct resultfile *rf)
{
	for (size_t i = 0; i < rf->nruns; i++) {
		json_decref(rf->runs[i]->repeats);
		free(rf->runs[i]);
	}
	free(rf->runs);
	rf->runs = NULL;
	rf->nruns = rf->runs_cap = 0;
}

/* A fio result, small, is read whole and made iosweep-shaped first. */
static int add_fio_runs(struct resultfile *rf, char *err)
{
	json_t *runs, *run;
	size_t i;

	free_runs(rf);
	if (resultfile_from_fio(&rf->doc, rf->path, err) < 0)
		return -1;
	runs = json_object_get(rf->doc, "runs");
	json_array_foreach(runs, i, run)
		if (add_run(rf, run, i, err) < 0)
			return -1;
	return json_object_del(rf->doc, "runs");
}

/* resultfile_load(), or with each, resultfile_stream() */
static int load(struct resultfile *rf, const char *path, const struct figure *const *figs,
		size_t nfigs, unsigned flags, struct resultfile_each *each, char *err)
{
	struct reader rd = { .path = path, .cap = READ_PIECE, .line = 1 };
	bool runs = false;
	int rc = -1;

	memset(rf, 0, sizeof(*rf));
	rf->path = path;
	if (each) {
		rf->each = each->fn;
		rf->each_ctx = each->ctx;
		rd.hash = XXH3_createState();
		if (!rd.hash)
			return err_set(err, "%s: out of memory", path);
		XXH3_64bits_reset(rd.hash);
	}
	rf->figs = malloc((nfigs + 1) * sizeof(*rf->figs));
	rf->values = calloc(1, sizeof(*rf->values));
	rd.buf = malloc(rd.cap);
	if (!rf->figs || !rf->values || !rd.buf) {
		free(rd.buf);
		resultfile_free(rf);
		return err_set(err, "%s: out of memory", path);
	}
	memcpy(rf->figs, figs, nfigs * sizeof(*figs));
	rf->nfigs = nfigs;
	rf->flags = flags;
	rd.fd = open_regular(path, err);
	if (rd.fd >= 0 && read_doc(rf, &rd, &runs, err) == 0) {
		rf->from_fio = resultfile_is_fio(rf->doc);
		if (rf->from_fio ? add_fio_runs(rf, err) == 0 : check_id(rf, err) == 0)
			rc = 0;
		if (rc == 0 && !rf->from_fio && !runs)
			rc = err_set(err, "%s: not an iosweep result file (no \"runs\" array)", path);
	}
	if (rd.fd >= 0)
		close(rd.fd);
	free(rd.buf);
	if (rc == 0 && rd.hash)
		snprintf(each->hash, sizeof(each->hash), "%016llx",
			 (unsigned long long)XXH3_64bits_digest(rd.hash));
	XXH3_freeState(rd.hash);
	if (rc < 0)
		resultfile_free(rf);
	return rc;
}

int resultfile_load(struct resultfile *rf, const char *path, const struct figure *const *figs,
		    size_t nfigs, unsigned flags, char *err)
{
	return load(rf, path, figs, nfigs, flags, NULL, err);
}

int resultfile_stream(struct resultfile *rf, const char *path, const struct figure *const *figs,
		      size_t nfigs, struct resultfile_each *each, char *err)
{
	return load(rf, path, figs, nfigs, 0, each, err);
}

void resultfile_free(struct resultfile *rf)
{
	free_runs(rf);
	json_decref(rf->doc);
	intern_free(rf->values);
	free(rf->figs);
	rf->doc = NULL;
	rf->values = NULL;
	rf->figs = NULL;
}

json_t *resultfile_param(const struct resultfile_run *run, const char *key)
{
	if (strcmp(key, "job") == 0)
		return run->job;
	for (size_t i = 0; i < run->nparams; i++)
		if (strcmp(run->params[i].key, key) == 0)
			return run->params[i].value->json;
	return NULL;
}

json_t *resultfile_params_json(const struct resultfile_run *run)
{
	json_t *o = json_object();

	for (size_t i = 0; o && i < run->nparams; i++)
		if (json_object_set(o, run->params[i].key, run->params[i].value->json) < 0) {
			json_decref(o);
			return NULL;
		}
	return o;
}

bool resultfile_identity_key(const char *key)
{
	return strcmp(key, "filename") != 0 && strcmp(key, "repeat") != 0 &&
	       strcmp(key, "warmup") != 0;
}

/* Numbers the byte strings item[0..n) (item[i] of len[i] bytes) in the
 * order they first appear: equal strings get the same number.  A hash
 * table of 2n slots (xxh3), so O(n).  Returns how many differ, or -1. */
static long number_items(const char *const *item, const size_t *len, size_t n, uint32_t *id)
{
	size_t cap = 16, count = 0;
	uint32_t *slot;

	while (cap < 2 * n)
		cap *= 2;
	slot = calloc(cap, sizeof(*slot)); /* run index + 1; 0: empty */
	if (!slot)
		return -1;
	for (size_t i = 0; i < n; i++) {
		size_t h = (size_t)XXH3_64bits(item[i], len[i]) & (cap - 1);

		for (;; h = (h + 1) & (cap - 1)) {
			size_t j = slot[h];

			if (!j) {
				slot[h] = (uint32_t)(i + 1);
				id[i] = (uint32_t)count++;
				break;
			}
			if (len[j - 1] == len[i] && memcmp(item[j - 1], item[i], len[i]) == 0) {
				id[i] = id[j - 1];
				break;
			}
		}
	}
	free(slot);
	return (long)count;
}

/* The text of each run's value of key (its params, or its job) into
 * item[]; "-" when absent.  The texts are the file's own (struct rf_value). */
static void value_texts(struct resultfile_run *const *runs, size_t n, const char *key,
			const char **item, size_t *len)
{
	for (size_t i = 0; i < n; i++) {
		const struct resultfile_run *r = runs[i];

		item[i] = "-";
		len[i] = 1;
		if (strcmp(key, "job") == 0) {
			item[i] = json_string_value(r->job);
			len[i] = json_string_length(r->job);
			continue;
		}
		for (size_t p = 0; p < r->nparams; p++)
			if (strcmp(r->params[p].key, key) == 0) {
				item[i] = r->params[p].value->text;
				len[i] = r->params[p].value->len;
				break;
			}
	}
}

/* The numbers of every run's value of key into id[]; -1 when out of memory. */
static long number_values(struct resultfile_run *const *runs, size_t n, const char *key,
			  uint32_t *id)
{
	const char **item = calloc(n + 1, sizeof(*item));
	size_t *len = calloc(n + 1, sizeof(*len));
	long count = -1;

	if (item && len) {
		value_texts(runs, n, key, item, len);
		count = number_items(item, len, n, id);
	}
	free(item);
	free(len);
	return count;
}

static int key_index(const struct runset *s, const char *key)
{
	for (size_t k = 0; k < s->nkeys; k++)
		if (strcmp(s->keys[k], key) == 0)
			return (int)k;
	return -1;
}

/* Whether, for each job, key takes more than one value among its runs. */
static int job_variation(struct runset *s, size_t k)
{
	uint32_t *first = malloc((s->ndistinct[0] + 1) * sizeof(*first));

	s->varies_in_job[k] = calloc(s->ndistinct[0] + 1, 1);
	if (!first || !s->varies_in_job[k]) {
		free(first);
		return -1;
	}
	memset(first, 0xff, (s->ndistinct[0] + 1) * sizeof(*first));
	for (size_t i = 0; i < s->n; i++) {
		uint32_t job = s->id[0][i];

		if (first[job] == UINT32_MAX)
			first[job] = s->id[k][i];
		else if (first[job] != s->id[k][i])
			s->varies_in_job[k][job] = 1;
	}
	free(first);
	return 0;
}

/* Runs with the same job (unless !with_job) and identity parameters get
 * one number. */
static int number_runs(struct runset *s, bool with_job)
{
	size_t skip = with_job ? 0 : 1, width = (s->nkeys - skip) * sizeof(uint32_t);
	const char **item = calloc(s->n + 1, sizeof(*item));
	size_t *len = calloc(s->n + 1, sizeof(*len));
	char *tuples = malloc(s->n * width + 1);
	long count = -1;

	s->run_id = malloc((s->n + 1) * sizeof(*s->run_id));
	if (item && len && tuples && s->run_id) {
		for (size_t i = 0; i < s->n; i++) {
			item[i] = tuples + i * width;
			len[i] = width;
			for (size_t k = skip; k < s->nkeys; k++)
				memcpy(tuples + i * width + (k - skip) * sizeof(uint32_t),
				       &s->id[k][i], sizeof(uint32_t));
		}
		count = number_items(item, len, s->n, s->run_id);
	}
	free(item);
	free(len);
	free(tuples);
	s->nrun_ids = count < 0 ? 0 : (size_t)count;
	return count < 0 ? -1 : 0;
}

int runset_init(struct runset *s, struct resultfile_run *const *runs, size_t n,
		bool job_in_identity)
{
	memset(s, 0, sizeof(*s));
	s->runs = runs;
	s->n = n;
	s->keys[s->nkeys++] = "job";
	for (size_t i = 0; i < n; i++)
		for (size_t p = 0; p < runs[i]->nparams; p++) {
			const char *key = runs[i]->params[p].key;

			if (s->nkeys < RUNSET_MAX_KEYS && resultfile_identity_key(key) &&
			    key_index(s, key) < 0)
				s->keys[s->nkeys++] = key;
		}
	for (size_t k = 0; k < s->nkeys; k++) {
		long d;

		s->id[k] = malloc((n + 1) * sizeof(*s->id[k]));
		d = s->id[k] ? number_values(runs, n, s->keys[k], s->id[k]) : -1;
		if (d < 0) {
			runset_free(s);
			return -1;
		}
		s->ndistinct[k] = (size_t)d;
	}
	for (size_t k = 0; k < s->nkeys; k++)
		if (job_variation(s, k) < 0) {
			runset_free(s);
			return -1;
		}
	if (number_runs(s, job_in_identity) < 0) {
		runset_free(s);
		return -1;
	}
	return 0;
}

void runset_free(struct runset *s)
{
	for (size_t k = 0; k < RUNSET_MAX_KEYS; k++) {
		free(s->id[k]);
		free(s->varies_in_job[k]);
	}
	free(s->run_id);
	memset(s, 0, sizeof(*s));
}

size_t resultfile_keys(const struct runset *s, const char **keys, size_t max)
{
	size_t n = 0;

	for (size_t k = 1; k < s->nkeys && n < max; k++)
		keys[n++] = s->keys[k];
	return n;
}

size_t resultfile_distinct(const struct runset *s, const char *key)
{
	int k = key_index(s, key);

	/* a key no run has: one value, absent */
	return k < 0 ? (s->n ? 1 : 0) : s->ndistinct[k];
}

uint32_t resultfile_value_id(const struct runset *s, const char *key, size_t run)
{
	int k = key_index(s, key);

	return k < 0 ? 0 : s->id[k][run];
}

bool resultfile_varies(const struct runset *s, const char *key, const char *by)
{
	int k = key_index(s, key), b = by ? key_index(s, by) : -1;
	uint32_t *first;
	bool varies = false;

	if (k < 0 || s->ndistinct[k] < 2)
		return false;
	if (b < 0)
		return true; /* no such `by`: every run is in one group */
	first = malloc((s->ndistinct[b] + 1) * sizeof(*first));
	if (!first)
		return true; /* out of memory: name it rather than hide a difference */
	memset(first, 0xff, (s->ndistinct[b] + 1) * sizeof(*first));
	for (size_t i = 0; i < s->n && !varies; i++) {
		uint32_t g = s->id[b][i];

		if (first[g] == UINT32_MAX)
			first[g] = s->id[k][i];
		else
			varies = first[g] != s->id[k][i];
	}
	free(first);
	return varies;
}

size_t resultfile_independent(const struct runset *s, const char **keys, size_t nkeys)
{
	size_t kept = 0;

	for (size_t k = 0; k < nkeys; k++) {
		bool follows = false;

		for (size_t j = 0; j < kept && !follows; j++)
			follows = !resultfile_varies(s, keys[k], keys[j]);
		if (!follows)
			keys[kept++] = keys[k];
	}
	return kept;
}

void resultfile_param_text(const char *key, const json_t *v, char *buf, size_t n)
{
	int id = option_find(key);
	enum opt_type type = id >= 0 ? option_table[id].type : T_TEXT;
	union optval val;

	if (json_is_string(v)) {
		snprintf(buf, n, "%s", json_string_value(v));
	} else if (json_is_integer(v) && json_integer_value(v) >= 0 &&
		   (type == T_SIZE || type == T_UINT)) {
		val.u = (uint64_t)json_integer_value(v);
		option_format(id, val, buf, n);
	} else if (json_is_number(v) && json_number_value(v) >= 0 && type == T_DURATION) {
		val.u = (uint64_t)llround(json_number_value(v) * 1e9);
		option_format(id, val, buf, n);
	} else if (json_is_number(v)) {
		snprintf(buf, n, "%g", json_number_value(v));
	} else {
		snprintf(buf, n, "%s", v ? "?" : "-");
	}
}

void resultfile_label(const struct runset *s, size_t run, bool with_job,
		      const char *const *keys, size_t nkeys, char *buf, size_t n)
{
	const struct resultfile_run *r = s->runs[run];
	size_t len = 0;
	char val[256];

	buf[0] = '\0';
	if (with_job)
		len = (size_t)snprintf(buf, n, "%s", json_string_value(r->job));
	for (size_t k = 0; k < nkeys && len < n; k++) {
		int id = key_index(s, keys[k]);

		if (with_job && (id < 0 || !s->varies_in_job[id][s->id[0][run]]))
			continue;
		resultfile_param_text(keys[k], resultfile_param(r, keys[k]), val, sizeof(val));
		len += (size_t)snprintf(buf + len, n - len, "%s%s=%s", len ? " " : "", keys[k], val);
	}
}

double *resultfile_values(const struct resultfile_run *run, const struct figure *f, size_t *n)
{
	for (size_t k = 0; k < run->nfigs; k++)
		if (run->figs[k] == f) {
			double *x = malloc((run->nval[k] + 1) * sizeof(*x));

			*n = x ? run->nval[k] : 0;
			if (x)
				memcpy(x, run->val[k], run->nval[k] * sizeof(*x));
			return x;
		}
	*n = 0;
	return NULL;
}
