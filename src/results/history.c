/*
 * history.c - the history database of result files (see history.h).
 *
 * Two tables: results (one row a result file, keyed by the XXH3-64 of its
 * bytes, with its host) and runs (one row a run, with its figures' values
 * as a small JSON object).  Indexes serve the questions asked: the runs of
 * a job (trend, list --job), the runs of a run_key on a host (gate).  An
 * add is one IMMEDIATE transaction: a second adder waits on the busy
 * timeout, and a killed one leaves no part of its result behind (SQLite's
 * journal rolls it back on the next open).  A result file is read twice
 * (three times when its runs have different keys) and never held: once,
 * before the database is touched, to check all of it, hash it and learn
 * its runs' labels (which name what varies among all the runs), and once
 * more inside the transaction to store each run as it goes by, through one
 * prepared statement.
 */
#define _GNU_SOURCE
#include "results/history.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "lib/error.h"
#include "report/figures.h"

#define SCHEMA_VERSION 1
#define BUSY_TIMEOUT_MS 30000

struct history {
	sqlite3 *db;
	char path[PATH_MAX];
};

const char *const history_host_fields[HOST_NFIELDS] = {
	"hostname", "machine", "kernel", "cpu_model", "filesystem", "device_model",
};

static const char schema[] =
	"CREATE TABLE results(id INTEGER PRIMARY KEY, hash TEXT NOT NULL UNIQUE, path TEXT,"
	" label TEXT, added TEXT, started TEXT, version TEXT, complete INTEGER,"
	" hostname TEXT, machine TEXT, kernel TEXT, cpu_model TEXT, filesystem TEXT,"
	" device_model TEXT, host_key TEXT, jobs TEXT, nruns INTEGER, ninterrupted INTEGER);"
	"CREATE TABLE runs(result INTEGER NOT NULL REFERENCES results(id), idx INTEGER NOT NULL,"
	" job TEXT, run_key TEXT, label TEXT, params TEXT, nrepeats INTEGER,"
	" ninterrupted INTEGER, failed INTEGER, figures TEXT, PRIMARY KEY(result, idx))"
	" WITHOUT ROWID;"
	"CREATE INDEX runs_job ON runs(job, result);"
	"CREATE INDEX runs_key ON runs(run_key, result);"
	"CREATE INDEX results_host ON results(host_key, started);"
	"PRAGMA user_version = 1;";

static const char *str_at(const json_t *o, const char *a, const char *b)
{
	const json_t *v = json_object_get(o, a);

	if (b)
		v = json_object_get(v, b);
	return json_is_string(v) ? json_string_value(v) : "";
}

void history_host_of(const json_t *doc, struct history_host *h)
{
	const json_t *host = json_object_get(doc, "host");
	const char *v[HOST_NFIELDS] = {
		str_at(host, "hostname", NULL), str_at(host, "machine", NULL),
		str_at(host, "kernel", NULL),   str_at(host, "cpu_model", NULL),
		str_at(host, "filesystem", "type"), str_at(host, "device", "model"),
	};

	for (size_t i = 0; i < HOST_NFIELDS; i++)
		snprintf(h->field[i], sizeof(h->field[i]), "%s", v[i]);
}

int history_host_differs(const struct history_host *a, const struct history_host *b)
{
	for (int i = 0; i < HOST_NFIELDS; i++)
		if (strcmp(a->field[i], b->field[i]) != 0)
			return i;
	return -1;
}

void history_host_key(const struct history_host *host, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < HOST_NFIELDS && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? "\x1f" : "", host->field[i]);
}

char *history_run_key(const struct resultfile_run *run)
{
	json_t *params = resultfile_params_json(run), *key = json_object();
	const char *k;
	json_t *v;
	char *text = NULL;

	if (params && key && json_object_set(key, "job", run->job) == 0) {
		json_object_foreach(params, k, v)
			if (resultfile_identity_key(k) && json_object_set(key, k, v) < 0)
				goto out;
		text = json_dumps(key, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII);
	}
out:
	json_decref(params);
	json_decref(key);
	return text;
}

int history_path(const char *given, bool create, char *buf, size_t n, char *err)
{
	const char *env = getenv("IOSWEEP_HISTORY"), *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	char dir[PATH_MAX];

	if (given || (env && *env)) {
		if ((size_t)snprintf(buf, n, "%s", given ? given : env) >= n)
			return err_set(err, "%s: path too long", given ? given : env);
		return 0;
	}
	if (xdg && xdg[0] == '/')
		snprintf(dir, sizeof(dir), "%s", xdg);
	else if (home && home[0] == '/')
		snprintf(dir, sizeof(dir), "%s/.local/share", home);
	else
		return err_set(err, "no history database: give --db PATH or set IOSWEEP_HISTORY "
			       "(neither XDG_DATA_HOME nor HOME is set)");
	if ((size_t)snprintf(buf, n, "%s/iosweep/history.db", dir) >= n)
		return err_set(err, "%s/iosweep/history.db: path too long", dir);
	if (!create)
		return 0;
	/* the data directory's missing parts, private to the user (XDG) */
	for (char *p = buf + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		if (mkdir(buf, 0700) < 0 && errno != EEXIST) {
			int e = errno;

			err_set(err, "cannot make %s: %s", buf, strerror(e));
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return 0;
}

static int db_error(struct history *h, char *err)
{
	return err_set(err, "%s: %s", h->path, sqlite3_errmsg(h->db));
}

/* Runs sql (no rows); -1 with why in err. */
static int exec(struct history *h, const char *sql, char *err)
{
	char *msg = NULL;

	if (sqlite3_exec(h->db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	err_set(err, "%s: %s", h->path, msg ? msg : sqlite3_errmsg(h->db));
	sqlite3_free(msg);
	return -1;
}

static int user_version(struct history *h, int *v, char *err)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(h->db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return db_error(h, err);
	rc = sqlite3_step(st);
	*v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : db_error(h, err);
}

/* The schema, made once (by the first of concurrent openers to get the
 * write lock), or checked: -2 when it is not ours. */
static int schema_ready(struct history *h, bool create, char *err)
{
	int v = 0;

	if (user_version(h, &v, err) < 0)
		return -2;
	if (v == 0 && create) {
		if (exec(h, "BEGIN IMMEDIATE", err) < 0)
			return -1;
		if (user_version(h, &v, err) < 0 || (v == 0 && exec(h, schema, err) < 0)) {
			exec(h, "ROLLBACK", err);
			return -1;
		}
		if (exec(h, "COMMIT", err) < 0)
			return -1;
		v = SCHEMA_VERSION;
	}
	if (v > SCHEMA_VERSION)
		return err_set(err, "%s: a history database of a newer iosweep (version %d; this "
			       "one reads %d)", h->path, v, SCHEMA_VERSION) - 1;
	if (v != SCHEMA_VERSION)
		return err_set(err, "%s: not an iosweep history database", h->path) - 1;
	return 0;
}

int history_open(struct history **out, const char *path, bool create, char *err)
{
	struct history *h = calloc(1, sizeof(*h));
	struct stat st;
	int rc;

	*out = NULL;
	if (!h)
		return err_set(err, "out of memory");
	snprintf(h->path, sizeof(h->path), "%s", path);
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		free(h);
		return err_set(err, "%s: not a regular file (a history database is one; a symbolic "
			       "link is not followed)", path) - 1;
	}
	if (!create && lstat(path, &st) < 0) {
		free(h);
		return err_set(err, "%s: no history database (make one with 'iosweep history "
			       "add')", path) - 1;
	}
	rc = sqlite3_open_v2(path, &h->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW |
			     (create ? SQLITE_OPEN_CREATE : 0), NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_busy_timeout(h->db, BUSY_TIMEOUT_MS);
	if (rc != SQLITE_OK) {
		err_set(err, "%s: %s", path, h->db ? sqlite3_errmsg(h->db) : "out of memory");
		history_close(h);
		return -1;
	}
	rc = exec(h, "PRAGMA journal_mode = WAL", err);
	if (rc < 0)
		rc = -2; /* the first read of a file that is not a database fails here */
	else
		rc = schema_ready(h, create, err);
	if (rc < 0) {
		history_close(h);
		return rc;
	}
	*out = h;
	return 0;
}

void history_close(struct history *h)
{
	if (!h)
		return;
	sqlite3_close(h->db);
	free(h);
}

int history_hash_file(const char *path, char hex[17], char *err)
{
	XXH3_state_t *s = XXH3_createState();
	static char buf[1 << 16];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	ssize_t got = 0;

	if (fd < 0 || !s) {
		int e = fd < 0 ? errno : ENOMEM;

		if (fd >= 0)
			close(fd);
		XXH3_freeState(s);
		return err_set(err, "%s: %s", path, strerror(e));
	}
	XXH3_64bits_reset(s);
	while ((got = read(fd, buf, sizeof(buf))) > 0)
		XXH3_64bits_update(s, buf, (size_t)got);
	if (got == 0)
		snprintf(hex, 17, "%016llx", (unsigned long long)XXH3_64bits_digest(s));
	else
		err_set(err, "%s: %s", path, strerror(errno));
	close(fd);
	XXH3_freeState(s);
	return got == 0 ? 0 : -1;
}

/* A growing text buffer; len stays within cap - 1 or ok turns false. */
struct text {
	char *s;
	size_t len, cap;
	bool ok;
};

static void text_add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!t->ok)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			t->ok = false;
			return;
		}
		if ((size_t)n < t->cap - t->len)
			break;
		char *bigger = realloc(t->s, 2 * t->cap + (size_t)n);

		if (!bigger) {
			t->ok = false;
			return;
		}
		t->s = bigger;
		t->cap = 2 * t->cap + (size_t)n;
	}
	t->len += (size_t)n;
}

/* The figures kept: those with a direction (figure_better), which gate and
 * trend can judge. */
static size_t kept_figures(const struct figure **f)
{
	size_t n = 0;

	for (size_t i = 0; i < figure_count; i++)
		if (figure_better(&figure_table[i]))
			f[n++] = &figure_table[i];
	return n;
}

/* {"time_to_end_s":[0.25,0.26],...}: each figure's values over the run's
 * completed repeats (only the figures it has). */
static int figures_text(const struct resultfile_run *run, const struct figure *const *f,
			size_t nf, struct text *t)
{
	char sep = '{';

	t->len = 0;
	t->s[0] = '\0';
	for (size_t k = 0; k < nf; k++) {
		size_t n = 0;
		double *x = resultfile_values(run, f[k], &n);

		if (!x)
			return -1;
		if (n) {
			text_add(t, "%c\"%s\":", sep, f[k]->name);
			for (size_t i = 0; i < n; i++)
				text_add(t, "%c%.17g", i ? ',' : '[', x[i]);
			text_add(t, "]");
			sep = ',';
		}
		free(x);
	}
	text_add(t, sep == '{' ? "{}" : "}");
	return t->ok ? 0 : -1;
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s && *s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* --- the labels of a file's runs, learnt as it streams by ---
 *
 * A run's label is the one compare and plot give it (resultfile_label over
 * a struct runset): its job, then the identity parameters that vary within
 * its job, less those that follow from an earlier one (resultfile_independent).
 * Both are learnt here from one run at a time, so that no run is kept:
 * per job, each key's first value and whether another was seen; per pair
 * of keys (k, b) and value of b, k's first value, and whether k ever took
 * two values under one value of b.  Values are compared by the pointers of
 * a file's interned values (equal values share one), so memory holds each
 * job and each distinct value (key, pair) once, never a run.  A key first
 * seen after the first run (a hand-made file whose runs have different
 * keys) was absent from the runs before it, which were not counted for it:
 * the statistics are then learnt again, in a second read, with every key
 * known from the start. */

#define ABSENT ((const void *)&absent_value)
static const char absent_value;

struct job_stats {
	char *name;
	size_t len;
	uint64_t varies;                       /* bit k: keys[k] varies in the job */
	const void *first[RUNSET_MAX_KEYS];    /* NULL: no run yet */
};

struct pair_slot {
	uint64_t kb;       /* k * RUNSET_MAX_KEYS + b, + 1 (0: empty) */
	const void *bval;
	const void *first; /* k's first value under this value of b */
};

struct history_labels {
	const char *keys[RUNSET_MAX_KEYS]; /* identity keys, first seen first */
	size_t nkeys;
	bool fixed;                        /* keys known: no more are added */
	bool ragged;                       /* a key was first seen after the first run */
	bool varies_by[RUNSET_MAX_KEYS][RUNSET_MAX_KEYS];
	const char *kept[RUNSET_MAX_KEYS]; /* the keys that label (independent ones) */
	size_t nkept;
	struct job_stats **job;            /* hash table on the name, 2x the jobs */
	size_t jobcap, njobs;
	struct pair_slot *pair;
	size_t paircap, npairs;
	struct text jobs;                  /* "a,b": the jobs, first seen first */
	size_t nruns, ninterrupted;
};

static void labels_forget(struct history_labels *l)
{
	for (size_t i = 0; i < l->jobcap; i++)
		if (l->job[i]) {
			l->job[i]->varies = 0;
			memset(l->job[i]->first, 0, sizeof(l->job[i]->first));
		}
	memset(l->varies_by, 0, sizeof(l->varies_by));
	free(l->pair);
	l->pair = NULL;
	l->paircap = l->npairs = 0;
}

static void labels_free(struct history_labels *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->jobcap; i++)
		if (l->job[i]) {
			free(l->job[i]->name);
			free(l->job[i]);
		}
	free(l->job);
	free(l->pair);
	free(l->jobs.s);
	free(l);
}

/* The stats of job name (made when add), or NULL (none, or out of memory). */
static struct job_stats *job_of(struct history_labels *l, const char *name, bool add)
{
	size_t len = strlen(name), h;

	if (add && 2 * (l->njobs + 1) > l->jobcap) {
		size_t cap = l->jobcap ? 2 * l->jobcap : 16;
		struct job_stats **t = calloc(cap, sizeof(*t));

		if (!t)
			return NULL;
		for (size_t i = 0; i < l->jobcap; i++)
			if (l->job[i]) {
				for (h = (size_t)XXH3_64bits(l->job[i]->name, l->job[i]->len) &
					 (cap - 1); t[h]; h = (h + 1) & (cap - 1))
					;
				t[h] = l->job[i];
			}
		free(l->job);
		l->job = t;
		l->jobcap = cap;
	}
	if (!l->jobcap)
		return NULL;
	for (h = (size_t)XXH3_64bits(name, len) & (l->jobcap - 1); l->job[h];
	     h = (h + 1) & (l->jobcap - 1))
		if (l->job[h]->len == len && memcmp(l->job[h]->name, name, len) == 0)
			return l->job[h];
	if (!add)
		return NULL;
	l->job[h] = calloc(1, sizeof(**l->job));
	if (!l->job[h] || !(l->job[h]->name = strdup(name))) {
		free(l->job[h]);
		l->job[h] = NULL;
		return NULL;
	}
	l->job[h]->len = len;
	l->njobs++;
	text_add(&l->jobs, "%s%s", l->jobs.len ? "," : "", name);
	return l->jobs.ok ? l->job[h] : NULL;
}

/* The slot of (kb, bval), made when absent; NULL when out of memory. */
static struct pair_slot *pair_of(struct history_labels *l, uint64_t kb, const void *bval)
{
	size_t h;

	if (2 * (l->npairs + 1) > l->paircap) {
		size_t cap = l->paircap ? 2 * l->paircap : 1024;
		struct pair_slot *t = calloc(cap, sizeof(*t));

		if (!t)
			return NULL;
		for (size_t i = 0; i < l->paircap; i++)
			if (l->pair[i].kb) {
				uint64_t x[2] = { l->pair[i].kb, (uint64_t)(uintptr_t)l->pair[i].bval };

				for (h = (size_t)XXH3_64bits(x, sizeof(x)) & (cap - 1); t[h].kb;
				     h = (h + 1) & (cap - 1))
					;
				t[h] = l->pair[i];
			}
		free(l->pair);
		l->pair = t;
		l->paircap = cap;
	}
	uint64_t x[2] = { kb, (uint64_t)(uintptr_t)bval };

	for (h = (size_t)XXH3_64bits(x, sizeof(x)) & (l->paircap - 1); l->pair[h].kb;
	     h = (h + 1) & (l->paircap - 1))
		if (l->pair[h].kb == kb && l->pair[h].bval == bval)
			return &l->pair[h];
	l->pair[h].kb = kb;
	l->pair[h].bval = bval;
	l->npairs++;
	return &l->pair[h];
}

/* The index of key in l->keys, added when new (and the keys not fixed);
 * -1 when not there. */
static int key_of(struct history_labels *l, const char *key, size_t run)
{
	for (size_t k = 0; k < l->nkeys; k++)
		if (l->keys[k] == key || strcmp(l->keys[k], key) == 0)
			return (int)k;
	if (l->fixed || l->nkeys == RUNSET_MAX_KEYS - 1)
		return -1;
	l->ragged |= run > 0;
	l->keys[l->nkeys] = key;
	return (int)l->nkeys++;
}

/* One run's part in the labels (resultfile_each's fn). */
static int learn_run(void *ctx, const struct resultfile *rf, const struct resultfile_run *r,
		     size_t i, char *err)
{
	struct history_labels *l = ctx;
	const void *val[RUNSET_MAX_KEYS];
	struct job_stats *job = job_of(l, json_string_value(r->job), true);

	if (!job)
		return err_set(err, "%s: out of memory", rf->path);
	l->nruns++;
	l->ninterrupted += r->ninterrupted > 0;
	for (size_t k = 0; k < RUNSET_MAX_KEYS; k++)
		val[k] = ABSENT;
	for (size_t p = 0; p < r->nparams; p++) {
		int k = resultfile_identity_key(r->params[p].key) ? key_of(l, r->params[p].key, i) : -1;

		if (k >= 0)
			val[k] = r->params[p].value;
	}
	for (size_t k = 0; k < l->nkeys; k++) {
		if (!job->first[k])
			job->first[k] = val[k];
		else if (job->first[k] != val[k])
			job->varies |= 1ull << k;
		for (size_t b = 0; b < l->nkeys; b++) {
			struct pair_slot *s;

			if (b == k || l->varies_by[k][b])
				continue;
			s = pair_of(l, k * RUNSET_MAX_KEYS + b + 1, val[b]);
			if (!s)
				return err_set(err, "%s: out of memory", rf->path);
			if (!s->first)
				s->first = val[k];
			else if (s->first != val[k])
				l->varies_by[k][b] = true;
		}
	}
	return 0;
}

/* The keys that label: each one that does not follow from an earlier kept
 * one (resultfile_independent). */
static void labels_keep(struct history_labels *l)
{
	size_t idx[RUNSET_MAX_KEYS];

	l->nkept = 0;
	for (size_t k = 0; k < l->nkeys; k++) {
		bool follows = false;

		for (size_t j = 0; j < l->nkept && !follows; j++)
			follows = !l->varies_by[k][idx[j]];
		if (!follows) {
			idx[l->nkept] = k;
			l->kept[l->nkept++] = l->keys[k];
		}
	}
}

/* Run r's label into buf, as resultfile_label words it. */
static void label_of(struct history_labels *l, const struct resultfile_run *r, char *buf,
		     size_t n)
{
	const struct job_stats *job = job_of(l, json_string_value(r->job), false);
	size_t len = (size_t)snprintf(buf, n, "%s", json_string_value(r->job));
	char val[256];

	for (size_t k = 0; k < l->nkept && len < n; k++) {
		size_t key = 0;

		while (l->keys[key] != l->kept[k])
			key++;
		if (!job || !(job->varies & (1ull << key)))
			continue;
		resultfile_param_text(l->kept[k], resultfile_param(r, l->kept[k]), val, sizeof(val));
		len += (size_t)snprintf(buf + len, n - len, "%s%s=%s", len ? " " : "", l->kept[k],
					val);
	}
}

/* --- a result file, read twice: to check and learn it, then to store it --- */

struct store_ctx {
	struct history *h;
	struct history_labels *l;
	sqlite3_stmt *st;
	long long id;
	const struct figure *f[64];
	size_t nf;
	struct text t;
	char label[512];
};

/* One run stored (resultfile_each's fn). */
static int store_run(void *ctx, const struct resultfile *rf, const struct resultfile_run *r,
		     size_t i, char *err)
{
	struct store_ctx *c = ctx;
	char *key = history_run_key(r);
	json_t *p = resultfile_params_json(r);
	char *params = p ? json_dumps(p, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;
	sqlite3_stmt *st = c->st;

	json_decref(p);
	if (!key || !params || figures_text(r, c->f, c->nf, &c->t) < 0) {
		free(key);
		free(params);
		return err_set(err, "%s: out of memory", rf->path);
	}
	label_of(c->l, r, c->label, sizeof(c->label));
	sqlite3_bind_int64(st, 1, c->id);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)i);
	bind_text(st, 3, json_string_value(r->job));
	sqlite3_bind_text(st, 4, key, -1, free);
	bind_text(st, 5, c->label);
	sqlite3_bind_text(st, 6, params, -1, free);
	sqlite3_bind_int64(st, 7, (sqlite3_int64)r->nrepeats);
	sqlite3_bind_int64(st, 8, (sqlite3_int64)r->ninterrupted);
	sqlite3_bind_int(st, 9, r->failed);
	sqlite3_bind_text(st, 10, c->t.s, (int)c->t.len, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		return db_error(c->h, err);
	sqlite3_reset(st);
	return 0;
}

/* The runs of p, one row each, under result id: the file read again, one
 * statement prepared once; the file must be the one read before (its hash). */
static int insert_runs(struct history *h, const struct history_pending *p, long long id,
		       char *err)
{
	struct store_ctx c = { .h = h, .l = p->labels, .id = id,
			       .t = { malloc(256), 0, 256, true } };
	struct resultfile_each each = { store_run, &c, "" };
	struct resultfile rf;
	int rc = -1;

	c.nf = kept_figures(c.f);
	if (!c.t.s)
		return err_set(err, "out of memory");
	if (sqlite3_prepare_v2(h->db, "INSERT INTO runs VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)",
			       -1, &c.st, NULL) != SQLITE_OK) {
		db_error(h, err);
	} else if (resultfile_stream(&rf, p->rf.path, c.f, c.nf, &each, err) == 0) {
		resultfile_free(&rf);
		rc = strcmp(each.hash, p->hash) == 0 ? 0 :
			err_set(err, "%s: changed while it was being added (nothing of it is stored)",
				p->rf.path);
	}
	sqlite3_finalize(c.st);
	free(c.t.s);
	return rc;
}

/* The row of results; 1 inserted, 0 there already (*id set either way). */
static int insert_result(struct history *h, const struct history_pending *p, const char *label,
			 long long *id, char *err)
{
	static const char sql[] =
		"INSERT OR IGNORE INTO results(hash, path, label, added, started, version, complete,"
		" hostname, machine, kernel, cpu_model, filesystem, device_model, host_key, jobs,"
		" nruns, ninterrupted) VALUES (?1,?2,?3,strftime('%Y-%m-%dT%H:%M:%SZ','now'),"
		" ?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16)";
	const struct resultfile *rf = &p->rf;
	struct history_host host;
	char key[HOST_NFIELDS * 128 + 8], *real = realpath(rf->path, NULL);
	sqlite3_stmt *st = NULL;
	int rc = -1;

	history_host_of(rf->doc, &host);
	history_host_key(&host, key, sizeof(key));
	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK) {
		free(real);
		return db_error(h, err);
	}
	bind_text(st, 1, p->hash);
	bind_text(st, 2, real ? real : rf->path);
	bind_text(st, 3, label);
	bind_text(st, 4, str_at(rf->doc, "started", NULL));
	bind_text(st, 5, rf->from_fio ? "fio" : str_at(rf->doc, "iosweep", "version"));
	sqlite3_bind_int(st, 6, !json_is_false(json_object_get(rf->doc, "complete")) &&
				!json_is_true(json_object_get(rf->doc, "interrupted")));
	for (int i = 0; i < HOST_NFIELDS; i++)
		bind_text(st, 7 + i, host.field[i]);
	bind_text(st, 13, key);
	bind_text(st, 14, p->labels->jobs.s);
	sqlite3_bind_int64(st, 15, (sqlite3_int64)p->labels->nruns);
	sqlite3_bind_int64(st, 16, (sqlite3_int64)p->labels->ninterrupted);
	if (sqlite3_step(st) == SQLITE_DONE) {
		rc = sqlite3_changes(h->db) > 0;
		*id = sqlite3_last_insert_rowid(h->db);
	} else {
		db_error(h, err);
	}
	sqlite3_finalize(st);
	free(real);
	if (rc == 0 && sqlite3_prepare_v2(h->db, "SELECT id FROM results WHERE hash = ?1", -1, &st,
					  NULL) == SQLITE_OK) {
		bind_text(st, 1, p->hash);
		if (sqlite3_step(st) == SQLITE_ROW)
			*id = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	return rc;
}

int history_read(struct history_pending *p, const char *path, char *err)
{
	const struct figure *f[1] = { NULL }; /* the labels need no figure: none is kept (all are checked) */
	size_t nf = 0;
	struct history_labels *l = calloc(1, sizeof(*l));
	struct resultfile_each each = { learn_run, l, "" };

	memset(p, 0, sizeof(*p));
	if (!l || !(l->jobs.s = malloc(64))) {
		free(l);
		return err_set(err, "%s: out of memory", path);
	}
	l->jobs.s[0] = '\0';
	l->jobs.cap = 64;
	l->jobs.ok = true;
	p->labels = l;
	if (resultfile_stream(&p->rf, path, f, nf, &each, err) < 0) {
		labels_free(l);
		p->labels = NULL;
		return -1;
	}
	snprintf(p->hash, sizeof(p->hash), "%s", each.hash);
	if (l->ragged) {
		/* learnt again with every key known from the first run */
		struct resultfile again;
		struct resultfile_each each2 = { learn_run, l, "" };
		size_t nruns = l->nruns, ninterrupted = l->ninterrupted;

		labels_forget(l);
		l->fixed = true;
		if (resultfile_stream(&again, path, f, nf, &each2, err) < 0) {
			history_pending_free(p);
			return -1;
		}
		resultfile_free(&again);
		l->nruns = nruns;
		l->ninterrupted = ninterrupted;
		if (strcmp(each2.hash, p->hash) != 0) {
			history_pending_free(p);
			return err_set(err, "%s: changed while it was being read", path);
		}
	}
	labels_keep(l);
	return 0;
}

void history_pending_free(struct history_pending *p)
{
	resultfile_free(&p->rf);
	labels_free(p->labels);
	p->labels = NULL;
}

int history_store(struct history *h, const struct history_pending *p, const char *label,
		  long long *id, char *err)
{
	char scratch[ERR_MAX] = ""; /* a failed rollback after a failure: the first error stands */
	int rc;

	if (exec(h, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	rc = insert_result(h, p, label, id, err);
	if (rc == 1 && insert_runs(h, p, *id, err) < 0)
		rc = -1;
	if (rc == 1 && exec(h, "COMMIT", err) < 0)
		rc = -1;
	if (rc != 1)
		exec(h, "ROLLBACK", rc < 0 ? scratch : err);
	return rc;
}

/* The filter of struct history_filter over results r, ?1..?6. */
#define FILTER_SQL                                                                           \
	" (?1 IS NULL OR EXISTS (SELECT 1 FROM runs WHERE job = ?1 AND result = r.id))"      \
	" AND (?2 IS NULL OR r.hostname = ?2) AND (?3 IS NULL OR r.label = ?3)"              \
	" AND (?4 IS NULL OR substr(r.started, 1, length(?4)) >= ?4)"                        \
	" AND (?5 IS NULL OR substr(r.started, 1, length(?5)) <= ?5)"                        \
	" AND (?6 IS NULL OR r.host_key = ?6)"

static void bind_filter(sqlite3_stmt *st, const struct history_filter *f)
{
	bind_text(st, 1, f->job);
	bind_text(st, 2, f->host);
	bind_text(st, 3, f->label);
	bind_text(st, 4, f->since);
	bind_text(st, 5, f->until);
	bind_text(st, 6, f->host_key);
}

static const char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s ? (const char *)s : "";
}

#define RESULT_COLS                                                                          \
	"r.id, r.hash, r.path, r.label, r.started, r.added, r.version, r.jobs, r.hostname,"  \
	" r.machine, r.kernel, r.cpu_model, r.filesystem, r.device_model, r.nruns,"          \
	" r.ninterrupted, r.complete"

static void result_of(sqlite3_stmt *st, struct history_result *r)
{
	r->id = sqlite3_column_int64(st, 0);
	r->hash = col_text(st, 1);
	r->path = col_text(st, 2);
	r->label = col_text(st, 3);
	r->started = col_text(st, 4);
	r->added = col_text(st, 5);
	r->version = col_text(st, 6);
	r->jobs = col_text(st, 7);
	for (int i = 0; i < HOST_NFIELDS; i++)
		snprintf(r->host.field[i], sizeof(r->host.field[i]), "%s", col_text(st, 8 + i));
	r->nruns = sqlite3_column_int64(st, 14);
	r->ninterrupted = sqlite3_column_int64(st, 15);
	r->complete = sqlite3_column_int(st, 16);
}

/* Steps st to its end, handing each row to fn (through row); the number
 * of rows, or -1. */
static long long each_row(struct history *h, sqlite3_stmt *st, int (*row)(sqlite3_stmt *st,
			  void *fn, void *ctx), void *fn, void *ctx, char *err)
{
	long long n = 0;
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		n++;
		if (row(st, fn, ctx))
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		n = db_error(h, err);
	sqlite3_finalize(st);
	return n;
}

static int result_row(sqlite3_stmt *st, void *fn, void *ctx)
{
	struct history_result r;

	result_of(st, &r);
	return ((history_result_fn)fn)(ctx, &r);
}

int history_list(struct history *h, const struct history_filter *f, history_result_fn fn,
		 void *ctx, char *err)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(h->db, "SELECT " RESULT_COLS " FROM results r WHERE" FILTER_SQL
			       " ORDER BY r.started, r.id", -1, &st, NULL) != SQLITE_OK)
		return db_error(h, err);
	bind_filter(st, f);
	return each_row(h, st, result_row, (void *)fn, ctx, err) < 0 ? -1 : 0;
}

int history_find(struct history *h, const char *which, history_result_fn fn, void *ctx,
		 char *err)
{
	sqlite3_stmt *st;
	long long n;

	if (sqlite3_prepare_v2(h->db, "SELECT " RESULT_COLS " FROM results r WHERE"
			       " CAST(r.id AS TEXT) = ?1 OR (length(?1) >= 4 AND"
			       " substr(r.hash, 1, length(?1)) = lower(?1)) LIMIT 2", -1, &st,
			       NULL) != SQLITE_OK)
		return db_error(h, err);
	bind_text(st, 1, which);
	n = each_row(h, st, result_row, (void *)fn, ctx, err);
	return n < 0 ? -1 : n > 0;
}

/* The values of a figure, "[0.25,0.26]" as the database gives it (its
 * JSON extracted from the run's figures by SQLite: the rest is not parsed),
 * into r (malloc'd). */
static int run_values(const char *array, struct history_run *r)
{
	size_t cap = 1;
	char *end;

	for (const char *p = array; *p; p++)
		cap += *p == ',';
	r->nval = 0;
	r->val = malloc(cap * sizeof(*r->val));
	if (!r->val)
		return -1;
	for (const char *p = array + (*array == '['); *p && *p != ']' && r->nval < cap; p = end) {
		double x = strtod(p, &end);

		if (end == p)
			break;
		r->val[r->nval++] = x;
		end += *end == ',';
	}
	return 0;
}

struct run_cb {
	history_run_fn fn;
	const char *figure;
};

#define RUN_COLS                                                                             \
	"ru.result, ru.label, ru.run_key, r.started, r.label, r.host_key, r.hostname,"       \
	" ru.nrepeats, ru.ninterrupted, ru.failed, json_extract(ru.figures, ?9)"

/* ?9, the figure's JSON path in a run's figures: $."lat_p99.9_ns" */
static void bind_path(sqlite3_stmt *st, const char *figure)
{
	char path[128];

	snprintf(path, sizeof(path), "$.\"%s\"", figure);
	sqlite3_bind_text(st, 9, path, -1,
			  SQLITE_TRANSIENT);
}

static int run_row(sqlite3_stmt *st, void *fn, void *ctx)
{
	const struct run_cb *cb = fn;
	struct history_run r = {
		.result = sqlite3_column_int64(st, 0),
		.label = col_text(st, 1),
		.run_key = col_text(st, 2),
		.started = col_text(st, 3),
		.result_label = col_text(st, 4),
		.host_key = col_text(st, 5),
		.hostname = col_text(st, 6),
		.nrepeats = sqlite3_column_int64(st, 7),
		.ninterrupted = sqlite3_column_int64(st, 8),
		.failed = sqlite3_column_int(st, 9),
	};
	int rc;

	if (run_values(col_text(st, 10), &r) < 0)
		return -1;
	rc = cb->fn(ctx, &r);
	free(r.val);
	return rc;
}

int history_runs(struct history *h, long long id, const char *figure, history_run_fn fn,
		 void *ctx, char *err)
{
	struct run_cb cb = { fn, figure };
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(h->db, "SELECT " RUN_COLS " FROM runs ru JOIN results r ON"
			       " r.id = ru.result WHERE ru.result = ?1 ORDER BY ru.idx", -1, &st,
			       NULL) != SQLITE_OK)
		return db_error(h, err);
	sqlite3_bind_int64(st, 1, id);
	bind_path(st, figure);
	return each_row(h, st, run_row, &cb, ctx, err) < 0 ? -1 : 0;
}

int history_trend(struct history *h, const struct history_filter *f, const char *figure,
		  history_run_fn fn, void *ctx, char *err)
{
	struct run_cb cb = { fn, figure };
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(h->db, "SELECT " RUN_COLS " FROM runs ru JOIN results r ON"
			       " r.id = ru.result WHERE ru.job = ?1 AND" FILTER_SQL
			       " ORDER BY r.host_key, ru.run_key, r.started, r.id, ru.idx", -1, &st,
			       NULL) != SQLITE_OK)
		return db_error(h, err);
	bind_filter(st, f);
	bind_path(st, figure);
	return each_row(h, st, run_row, &cb, ctx, err) < 0 ? -1 : 0;
}

struct pool {
	double *val;
	size_t n, nresults;
	bool failed;
};

static int pool_run(void *ctx, const struct history_run *r)
{
	struct pool *p = ctx;
	double *more = realloc(p->val, (p->n + r->nval + 1) * sizeof(*more));

	if (!more) {
		p->failed = true;
		return 1;
	}
	p->val = more;
	memcpy(p->val + p->n, r->val, r->nval * sizeof(*r->val));
	p->n += r->nval;
	p->nresults++;
	return 0;
}

int history_previous(struct history *h, const char *host_key, const char *run_key,
		     const char *hash, size_t last, const char *figure, double **val, size_t *n,
		     size_t *nresults, char *err)
{
	struct run_cb cb = { pool_run, figure };
	struct pool p = { 0 };
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(h->db, "SELECT " RUN_COLS " FROM runs ru JOIN results r ON"
			       " r.id = ru.result WHERE ru.run_key = ?1 AND r.host_key = ?2 AND"
			       " r.hash != ?3 AND ru.ninterrupted = 0 AND ru.failed = 0"
			       " ORDER BY r.started DESC, r.id DESC LIMIT ?4", -1, &st,
			       NULL) != SQLITE_OK)
		return db_error(h, err);
	bind_text(st, 1, run_key);
	bind_text(st, 2, host_key);
	bind_text(st, 3, hash);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)last);
	bind_path(st, figure);
	if (each_row(h, st, run_row, &cb, &p, err) < 0 || p.failed) {
		free(p.val);
		return p.failed ? err_set(err, "out of memory") : -1;
	}
	*val = p.val;
	*n = p.n;
	*nresults = p.nresults;
	return 0;
}
