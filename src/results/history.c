/*
 * history.c - the history database of result files (see history.h).
 *
 * Two tables: results (one row a result file, keyed by the XXH3-64 of its
 * bytes, with its host) and runs (one row a run, with its figures' values
 * as a small JSON object).  Indexes serve the questions asked: the runs of
 * a job (trend, list --job), the runs of a run_key on a host (gate).  An
 * add is one IMMEDIATE transaction: a second adder waits on the busy
 * timeout, and a killed one leaves no part of its result behind (SQLite's
 * journal rolls it back on the next open).
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

/* The runs of rf, one row each, under result id. */
static int insert_runs(struct history *h, const struct resultfile *rf, long long id, char *err)
{
	const struct figure *f[64];
	size_t nf = kept_figures(f), nkeys;
	struct runset set;
	const char *keys[RUNSET_MAX_KEYS];
	struct text t = { malloc(256), 0, 256, true };
	sqlite3_stmt *st = NULL;
	char label[512] = "";
	int rc = -1;

	if (runset_init(&set, rf->runs, rf->nruns, true) < 0 || !t.s) {
		free(t.s);
		return err_set(err, "out of memory");
	}
	nkeys = resultfile_independent(&set, keys, resultfile_keys(&set, keys, RUNSET_MAX_KEYS));
	if (sqlite3_prepare_v2(h->db, "INSERT INTO runs VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)",
			       -1, &st, NULL) != SQLITE_OK) {
		db_error(h, err);
		goto out;
	}
	for (size_t i = 0; i < rf->nruns; i++) {
		const struct resultfile_run *r = rf->runs[i];
		char *key = history_run_key(r);
		json_t *p = resultfile_params_json(r);
		char *params = p ? json_dumps(p, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;

		json_decref(p);
		if (!key || !params || figures_text(r, f, nf, &t) < 0) {
			free(key);
			free(params);
			err_set(err, "out of memory");
			goto out;
		}
		resultfile_label(&set, i, true, keys, nkeys, label, sizeof(label));
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)i);
		bind_text(st, 3, json_string_value(r->job));
		sqlite3_bind_text(st, 4, key, -1, free);
		bind_text(st, 5, label);
		sqlite3_bind_text(st, 6, params, -1, free);
		sqlite3_bind_int64(st, 7, (sqlite3_int64)r->nrepeats);
		sqlite3_bind_int64(st, 8, (sqlite3_int64)r->ninterrupted);
		sqlite3_bind_int(st, 9, r->failed);
		sqlite3_bind_text(st, 10, t.s, (int)t.len, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE) {
			db_error(h, err);
			goto out;
		}
		sqlite3_reset(st);
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	runset_free(&set);
	free(t.s);
	return rc;
}

/* "a,b": the distinct job names of rf, in first-seen order. */
static char *jobs_text(const struct resultfile *rf)
{
	struct text t = { malloc(64), 0, 64, true };
	json_t *seen = json_object();

	if (t.s)
		t.s[0] = '\0';
	for (size_t i = 0; t.s && seen && i < rf->nruns; i++) {
		const char *job = json_string_value(rf->runs[i]->job);

		if (!job || json_object_get(seen, job))
			continue;
		json_object_set_new(seen, job, json_true());
		text_add(&t, "%s%s", t.len ? "," : "", job);
	}
	json_decref(seen);
	if (!seen || !t.ok) {
		free(t.s);
		return NULL;
	}
	return t.s;
}

static long long count_interrupted(const struct resultfile *rf)
{
	long long n = 0;

	for (size_t i = 0; i < rf->nruns; i++)
		n += rf->runs[i]->ninterrupted > 0;
	return n;
}

/* The row of results; 1 inserted, 0 there already (*id set either way). */
static int insert_result(struct history *h, const struct resultfile *rf, const char *hash,
			 const char *label, long long *id, char *err)
{
	static const char sql[] =
		"INSERT OR IGNORE INTO results(hash, path, label, added, started, version, complete,"
		" hostname, machine, kernel, cpu_model, filesystem, device_model, host_key, jobs,"
		" nruns, ninterrupted) VALUES (?1,?2,?3,strftime('%Y-%m-%dT%H:%M:%SZ','now'),"
		" ?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16)";
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
	bind_text(st, 1, hash);
	bind_text(st, 2, real ? real : rf->path);
	bind_text(st, 3, label);
	bind_text(st, 4, str_at(rf->doc, "started", NULL));
	bind_text(st, 5, rf->from_fio ? "fio" : str_at(rf->doc, "iosweep", "version"));
	sqlite3_bind_int(st, 6, !json_is_false(json_object_get(rf->doc, "complete")) &&
				!json_is_true(json_object_get(rf->doc, "interrupted")));
	for (int i = 0; i < HOST_NFIELDS; i++)
		bind_text(st, 7 + i, host.field[i]);
	bind_text(st, 13, key);
	sqlite3_bind_text(st, 14, jobs_text(rf), -1, free);
	sqlite3_bind_int64(st, 15, (sqlite3_int64)rf->nruns);
	sqlite3_bind_int64(st, 16, count_interrupted(rf));
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
		bind_text(st, 1, hash);
		if (sqlite3_step(st) == SQLITE_ROW)
			*id = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	return rc;
}

int history_read(struct history_pending *p, const char *path, char *err)
{
	const struct figure *f[64];

	memset(p, 0, sizeof(*p));
	if (resultfile_load(&p->rf, path, f, kept_figures(f), 0, err) < 0)
		return -1;
	if (history_hash_file(path, p->hash, err) < 0) {
		resultfile_free(&p->rf);
		return -1;
	}
	return 0;
}

void history_pending_free(struct history_pending *p)
{
	resultfile_free(&p->rf);
}

int history_store(struct history *h, const struct history_pending *p, const char *label,
		  long long *id, char *err)
{
	char scratch[ERR_MAX] = ""; /* a failed rollback after a failure: the first error stands */
	int rc;

	if (exec(h, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	rc = insert_result(h, &p->rf, p->hash, label, id, err);
	if (rc == 1 && insert_runs(h, &p->rf, *id, err) < 0)
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
