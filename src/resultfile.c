/*
 * resultfile.c - see resultfile.h.
 *
 * The document stays a jansson tree: the commands that read it look at a
 * few fields of a few dozen runs, so nothing is copied into structs, and a
 * field a newer iosweep adds is simply not looked at.  Every number that
 * compare and plot read is checked once, here, with the place it was found
 * (finite, not negative, within what a 64-bit counter holds, fractions at
 * most 1), so that a hostile file is refused instead of reaching undefined
 * behaviour in the arithmetic.  Questions over runs (which parameters
 * vary, and within what) are answered from each parameter's values
 * numbered once through a hash table (struct runset), so that two files of
 * 100 000 runs compare in seconds: nothing compares every pair of runs.
 */
#define _GNU_SOURCE
#include "resultfile.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "error.h"
#include "options.h"
#include "resultfile_fio.h"

#include <xxhash.h>

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

/* The largest number a figure or parameter may hold: 2^64 (counters are
 * unsigned 64-bit).  Anything larger, negative or not finite is not
 * something iosweep wrote, and would overflow what reads it. */
#define NUMBER_MAX 18446744073709551616.0

/* A number at "runs[i].WHERE" that iosweep could have written: finite,
 * 0 <= x <= max; NULL and absent are "unknown".  Says where and why. */
static int check_number(const struct resultfile *rf, json_t *v, double max, size_t run,
			const char *where, char *err)
{
	double x;

	if (!v || json_is_null(v))
		return 0;
	if (!json_is_number(v))
		return err_set(err, "%s: runs[%zu].%s: not a number", rf->path, run, where);
	x = json_number_value(v);
	if (!isfinite(x) || x < 0 || x > max)
		return err_set(err, "%s: runs[%zu].%s: %g is out of range (0 to %g); not a result "
			       "iosweep wrote", rf->path, run, where, x, max);
	return 0;
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

		snprintf(where, sizeof(where), "params.%.64s", key);
		if (json_is_number(v)) {
			if (check_number(rf, v, max, run, where, err) < 0)
				return -1;
		} else if (!json_is_string(v) && !json_is_null(v)) {
			return err_set(err, "%s: runs[%zu].%s: neither a number nor a string",
				       rf->path, run, where);
		}
	}
	return 0;
}

/* Every figure of every repeat that compare and plot may read. */
static int check_repeats(const struct resultfile *rf, json_t *reps, size_t run, char *err)
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

			if (f->group && group && !json_is_object(group))
				return err_set(err, "%s: runs[%zu].repeats[%zu].%s: not an object",
					       rf->path, run, j, f->group);
			snprintf(where, sizeof(where), "repeats[%zu].%s%s%s", j,
				 f->group ? f->group : "", f->group ? "." : "", f->key);
			if (check_number(rf, json_object_get(group, f->key),
					 f->type == FIG_FRACTION ? 1.0 : NUMBER_MAX, run, where,
					 err) < 0)
				return -1;
		}
	}
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
			return err_set(err, "%s: runs[%zu]: not a run (with a job, params and "
				       "repeats)", rf->path, i);
		if (check_params(rf, json_object_get(run, "params"), i, err) < 0 ||
		    check_repeats(rf, json_object_get(run, "repeats"), i, err) < 0)
			return -1;
		rf->runs[i] = run;
	}
	return 0;
}

/* A result file is a regular file: a directory, FIFO or device is refused
 * by its type before anything is read (O_NONBLOCK: a FIFO cannot hang the
 * open). */
static json_t *load_regular(const char *path, char *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	json_error_t jerr;
	struct stat st;
	size_t len = 0;
	char *text;
	json_t *doc;

	if (fd < 0) {
		err_set(err, "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		err_set(err, "%s: %s, not a result file", path,
			S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO"
			: S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "not a regular file");
		close(fd);
		return NULL;
	}
	/* read whole, then parsed from memory: json_loadf reads a byte at a time */
	text = malloc((size_t)st.st_size + 1);
	while (text && len < (size_t)st.st_size) {
		ssize_t n = read(fd, text + len, (size_t)st.st_size - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (!text || len < (size_t)st.st_size) {
		err_set(err, "%s: cannot read: %s", path, text ? strerror(errno) : "out of memory");
		free(text);
		return NULL;
	}
	doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	free(text);
	if (!doc)
		err_set(err, "%s: not JSON (line %d: %s)", path, jerr.line, jerr.text);
	return doc;
}

int resultfile_load(struct resultfile *rf, const char *path, char *err)
{
	memset(rf, 0, sizeof(*rf));
	rf->path = path;
	rf->doc = load_regular(path, err);
	if (!rf->doc)
		return -1;
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

/* Numbers the byte strings item[0..n) (item[i] of len[i] bytes) in the
 * order they first appear: equal strings get the same number.  A hash
 * table of 2n slots (xxh3), so O(n).  Returns how many differ, or -1. */
static long number_items(char *const *item, const size_t *len, size_t n, uint32_t *id)
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

/* A value as text that two values share only when json_equal() says they
 * are equal (a type letter, then the value); "-" when absent. */
static char *value_text(json_t *v)
{
	char *t = NULL;
	int rc;

	if (!v)
		return strdup("-");
	if (json_is_string(v))
		rc = asprintf(&t, "s%s", json_string_value(v));
	else if (json_is_integer(v))
		rc = asprintf(&t, "i%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_real(v))
		rc = asprintf(&t, "r%.17g", json_real_value(v));
	else {
		char *dump = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);

		rc = dump ? asprintf(&t, "o%s", dump) : -1;
		free(dump);
	}
	return rc < 0 ? NULL : t;
}

/* The numbers of every run's value of key into id[]; -1 when out of memory. */
static long number_values(json_t *const *runs, size_t n, const char *key, uint32_t *id)
{
	char **item = calloc(n + 1, sizeof(*item));
	size_t *len = calloc(n + 1, sizeof(*len));
	long count = -1;
	size_t i;

	for (i = 0; item && len && i < n; i++) {
		item[i] = value_text(resultfile_param(runs[i], key));
		if (!item[i])
			break;
		len[i] = strlen(item[i]);
	}
	if (item && len && i == n)
		count = number_items(item, len, n, id);
	for (size_t k = 0; item && k < n; k++)
		free(item[k]);
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
	char **item = calloc(s->n + 1, sizeof(*item));
	size_t *len = calloc(s->n + 1, sizeof(*len));
	char *tuples = malloc(s->n * width + 1);
	long count = -1;

	s->run_id = malloc((s->n + 1) * sizeof(*s->run_id));
	if (item && len && tuples && s->run_id) {
		for (size_t i = 0; i < s->n; i++) {
			item[i] = tuples + i * width;
			len[i] = width;
			for (size_t k = skip; k < s->nkeys; k++)
				memcpy(item[i] + (k - skip) * sizeof(uint32_t), &s->id[k][i],
				       sizeof(uint32_t));
		}
		count = number_items(item, len, s->n, s->run_id);
	}
	free(item);
	free(len);
	free(tuples);
	s->nrun_ids = count < 0 ? 0 : (size_t)count;
	return count < 0 ? -1 : 0;
}

int runset_init(struct runset *s, json_t *const *runs, size_t n, bool job_in_identity)
{
	memset(s, 0, sizeof(*s));
	s->runs = runs;
	s->n = n;
	s->keys[s->nkeys++] = "job";
	for (size_t i = 0; i < n; i++) {
		const char *key;
		json_t *v;

		json_object_foreach(json_object_get(runs[i], "params"), key, v) {
			if (s->nkeys < RUNSET_MAX_KEYS && resultfile_identity_key(key) &&
			    key_index(s, key) < 0)
				s->keys[s->nkeys++] = key;
		}
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
	json_t *r = s->runs[run];
	size_t len = 0;
	char val[256];

	buf[0] = '\0';
	if (with_job)
		len = (size_t)snprintf(buf, n, "%s", json_string_value(json_object_get(r, "job")));
	for (size_t k = 0; k < nkeys && len < n; k++) {
		int id = key_index(s, keys[k]);

		if (with_job && (id < 0 || !s->varies_in_job[id][s->id[0][run]]))
			continue;
		resultfile_param_text(keys[k], resultfile_param(r, keys[k]), val, sizeof(val));
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
