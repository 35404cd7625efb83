/*
 * resultfile.c - see resultfile.h.
 *
 * The document stays a jansson tree: the commands that read it look at a
 * few fields of a few dozen runs, so nothing is copied into structs, and a
 * field a newer iosweep adds is simply not looked at.  Questions over runs
 * compare every pair; runs number in the tens, so this is clearer than
 * hashing and fast enough.
 */
#define _GNU_SOURCE
#include "resultfile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "error.h"
#include "options.h"
#include "resultfile_fio.h"

static int check_doc(struct resultfile *rf, char *err)
{
	json_t *id = json_object_get(rf->doc, "iosweep"), *schema = json_object_get(id, "schema");
	json_t *runs = json_object_get(rf->doc, "runs");

	if (!json_is_object(id))
		return err_set(err, "%s: not an iosweep result file (no \"iosweep\" object)",
			       rf->path);
	if (!json_is_integer(schema))
		return err_set(err, "%s: not an iosweep result file (no schema number)", rf->path);
	if (json_integer_value(schema) != IOSWEEP_SCHEMA)
		return err_set(err, "%s: schema %" JSON_INTEGER_FORMAT ", but iosweep %s reads "
			       "schema %d", rf->path, json_integer_value(schema), IOSWEEP_VERSION,
			       IOSWEEP_SCHEMA);
	if (!json_is_array(runs))
		return err_set(err, "%s: not an iosweep result file (no \"runs\" array)", rf->path);
	return 0;
}

static int collect_runs(struct resultfile *rf, char *err)
{
	json_t *runs = json_object_get(rf->doc, "runs");

	rf->nruns = json_array_size(runs);
	rf->runs = calloc(rf->nruns ? rf->nruns : 1, sizeof(*rf->runs));
	if (!rf->runs)
		return err_set(err, "%s: out of memory", rf->path);
	for (size_t i = 0; i < rf->nruns; i++) {
		json_t *run = json_array_get(runs, i);

		if (!json_is_string(json_object_get(run, "job")) ||
		    !json_is_object(json_object_get(run, "params")) ||
		    !json_is_array(json_object_get(run, "repeats")))
			return err_set(err, "%s: run %zu has no job, params or repeats", rf->path,
				       i);
		rf->runs[i] = run;
	}
	return 0;
}

int resultfile_load(struct resultfile *rf, const char *path, char *err)
{
	json_error_t jerr;
	FILE *f;

	memset(rf, 0, sizeof(*rf));
	rf->path = path;
	f = fopen(path, "r");
	if (!f)
		return err_set(err, "%s: cannot open: %s", path, strerror(errno));
	rf->doc = json_loadf(f, 0, &jerr);
	fclose(f);
	if (!rf->doc)
		return err_set(err, "%s: not JSON (line %d: %s)", path, jerr.line, jerr.text);
	rf->from_fio = resultfile_is_fio(rf->doc);
	if (rf->from_fio && resultfile_from_fio(&rf->doc, path, err) < 0) {
		resultfile_free(rf);
		return -1;
	}
	if (check_doc(rf, err) < 0 || collect_runs(rf, err) < 0) {
		resultfile_free(rf);
		return -1;
	}
	return 0;
}

void resultfile_free(struct resultfile *rf)
{
	json_decref(rf->doc);
	free(rf->runs);
	rf->doc = NULL;
	rf->runs = NULL;
	rf->nruns = 0;
}

json_t *resultfile_param(json_t *run, const char *key)
{
	if (strcmp(key, "job") == 0)
		return json_object_get(run, "job");
	return json_object_get(json_object_get(run, "params"), key);
}

bool resultfile_identity_key(const char *key)
{
	return strcmp(key, "filename") != 0 && strcmp(key, "repeat") != 0 &&
	       strcmp(key, "warmup") != 0;
}

size_t resultfile_keys(json_t *const *runs, size_t n, const char **keys, size_t max)
{
	size_t nkeys = 0;

	for (size_t i = 0; i < n; i++) {
		const char *key;
		json_t *v;

		json_object_foreach(json_object_get(runs[i], "params"), key, v) {
			size_t k = 0;

			while (k < nkeys && strcmp(keys[k], key) != 0)
				k++;
			if (k == nkeys && nkeys < max && resultfile_identity_key(key))
				keys[nkeys++] = key;
		}
	}
	return nkeys;
}

/* Like json_equal, but two missing values are equal too. */
static bool same(json_t *a, json_t *b)
{
	return a == b || json_equal(a, b);
}

size_t resultfile_distinct(json_t *const *runs, size_t n, const char *key)
{
	size_t count = 0;

	for (size_t i = 0; i < n; i++) {
		json_t *v = resultfile_param(runs[i], key);
		size_t j = 0;

		while (j < i && !same(v, resultfile_param(runs[j], key)))
			j++;
		count += j == i;
	}
	return count;
}

bool resultfile_varies(json_t *const *runs, size_t n, const char *key, const char *by)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			bool group = !by || same(resultfile_param(runs[i], by),
						 resultfile_param(runs[j], by));

			if (group && !same(resultfile_param(runs[i], key),
					   resultfile_param(runs[j], key)))
				return true;
		}
	return false;
}

size_t resultfile_independent(json_t *const *runs, size_t n, const char **keys, size_t nkeys)
{
	size_t kept = 0;

	for (size_t k = 0; k < nkeys; k++) {
		bool follows = false;

		for (size_t j = 0; j < kept && !follows; j++)
			follows = !resultfile_varies(runs, n, keys[k], keys[j]);
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

/* Whether key differs between two runs of the same job as run. */
static bool varies_in_job(json_t *const *runs, size_t n, json_t *run, const char *key)
{
	json_t *job = json_object_get(run, "job"), *first = NULL;

	for (size_t i = 0; i < n; i++) {
		json_t *v = resultfile_param(runs[i], key);

		if (!json_equal(json_object_get(runs[i], "job"), job))
			continue;
		if (!first)
			first = runs[i];
		else if (!same(v, resultfile_param(first, key)))
			return true;
	}
	return false;
}

void resultfile_label(json_t *const *runs, size_t nruns, json_t *run, bool with_job,
		      const char *const *keys, size_t nkeys, char *buf, size_t n)
{
	size_t len = 0;
	char val[256];

	buf[0] = '\0';
	if (with_job)
		len = (size_t)snprintf(buf, n, "%s", json_string_value(json_object_get(run, "job")));
	for (size_t k = 0; k < nkeys && len < n; k++) {
		if (with_job && !varies_in_job(runs, nruns, run, keys[k]))
			continue;
		resultfile_param_text(keys[k], resultfile_param(run, keys[k]), val, sizeof(val));
		len += (size_t)snprintf(buf + len, n - len, "%s%s=%s", len ? " " : "", keys[k], val);
	}
}

/* The figure's JSON value in one repeat: a top-level field, or one of a group. */
static json_t *repeat_value(json_t *rep, const struct figure *f)
{
	json_t *group = f->group ? json_object_get(rep, f->group) : rep;

	return json_object_get(group, f->key);
}

double *resultfile_values(json_t *run, const struct figure *f, size_t *n)
{
	json_t *reps = json_object_get(run, "repeats");
	size_t nrep = json_array_size(reps);
	double *x = malloc((nrep ? nrep : 1) * sizeof(*x));

	*n = 0;
	for (size_t i = 0; x && i < nrep; i++) {
		json_t *rep = json_array_get(reps, i), *v = repeat_value(rep, f);

		if (json_is_number(v) && !json_is_true(json_object_get(rep, "interrupted")))
			x[(*n)++] = json_number_value(v);
	}
	return x;
}
