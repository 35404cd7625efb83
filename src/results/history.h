/*
 * history.h - a SQLite database of result files, for `iosweep history` and
 * `iosweep gate --history`.
 *
 * A result is stored once, keyed by the XXH3-64 of its bytes (adding it
 * again changes nothing), in one transaction (a killed `history add` leaves
 * all of it or none), with the host it ran on and, per run, its job, its
 * identity parameters, its label and the values of the figures that have a
 * direction (figure_better) over its completed repeats.  Runs are compared
 * only with runs of the same job and identity parameters (run_key) on the
 * same host (host_key: machine, kernel, CPU, file system, device model).
 * The database is in WAL mode with a busy timeout, so that concurrent
 * adders and readers wait for each other instead of failing.
 */
#ifndef IOSWEEP_HISTORY_H
#define IOSWEEP_HISTORY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "results/resultfile.h"

/* What a host is, as far as like is compared with like. */
#define HOST_NFIELDS 6
struct history_host {
	char field[HOST_NFIELDS][128]; /* "" when the result does not say */
};
extern const char *const history_host_fields[HOST_NFIELDS]; /* "hostname", "machine", ... */

/* The host of a result file's document (its "host" object). */
void history_host_of(const json_t *doc, struct history_host *h);
/* The first field in which a and b differ, or -1 when they are alike. */
int history_host_differs(const struct history_host *a, const struct history_host *b);

/* The key of a run among results: its job and identity parameters, as
 * compact JSON with sorted keys; malloc'd, NULL when out of memory. */
char *history_run_key(const struct resultfile_run *run);

struct history;

/* The database's path: given (--db), else $IOSWEEP_HISTORY, else
 * $XDG_DATA_HOME/iosweep/history.db, else ~/.local/share/iosweep/history.db
 * (the default's directories are made when create).  -1 with why in err. */
int history_path(const char *given, bool create, char *buf, size_t n, char *err);

/* Opens (or, with create, makes) the database at path.  A symbolic link, a
 * file that is not a database, or one made by a newer iosweep is refused.
 * Returns 0, or -2 (bad input) / -1 (it failed) with "PATH: why" in err. */
int history_open(struct history **h, const char *path, bool create, char *err);
void history_close(struct history *h);

struct history_labels;

/* A result file read, checked and hashed, before it is stored (so that a
 * bad file is refused before the database is made or touched).  Its runs
 * are not kept: they stream by, once to be checked and to learn their
 * labels, and once more, in history_store, to be stored; memory holds one
 * run, and each job name and distinct parameter value once, however many
 * runs the file has. */
struct history_pending {
	struct resultfile rf;           /* its head (host, ...): no runs */
	char hash[17];                  /* XXH3-64 of its bytes */
	struct history_labels *labels;  /* private */
};

/* Reads path; -1 with "PATH: why" in err when it is not a result iosweep
 * reads (a newer schema, a FIFO, ...). */
int history_read(struct history_pending *p, const char *path, char *err);
void history_pending_free(struct history_pending *p);
/* Stores p with label (may be NULL) in one transaction: 1 added, 0 it was
 * there already (*id is its entry either way), -1 the database failed or
 * the file changed since history_read (nothing of it is stored). */
int history_store(struct history *h, const struct history_pending *p, const char *label,
		  long long *id, char *err);

/* Which results to take; NULL or "" fields do not filter. */
struct history_filter {
	const char *job, *host, *label;
	const char *since, *until; /* dates, YYYY-MM-DD[THH:MM:SS], both inclusive */
	const char *host_key;      /* only results of this host (gate) */
};

/* One stored result, as list and show print it. */
struct history_result {
	long long id;
	const char *hash, *path, *label, *started, *added, *version, *jobs;
	struct history_host host;
	long long nruns, ninterrupted; /* runs with interrupted repeats */
	bool complete;
};

/* One run of a stored result. */
struct history_run {
	long long result;
	const char *label, *run_key, *started, *result_label, *host_key, *hostname;
	long long nrepeats, ninterrupted;
	bool failed;
	double *val;   /* the figure's values over its completed repeats */
	size_t nval;
};

typedef int (*history_result_fn)(void *ctx, const struct history_result *r);
typedef int (*history_run_fn)(void *ctx, const struct history_run *r);

/* The results that pass f, oldest first; fn's non-zero return stops. */
int history_list(struct history *h, const struct history_filter *f, history_result_fn fn,
		 void *ctx, char *err);
/* The result whose id or hash (or a prefix of it, of 4 characters or more)
 * is which: 1 found (fn called), 0 none, -1 failed. */
int history_find(struct history *h, const char *which, history_result_fn fn, void *ctx,
		 char *err);
/* The runs of result id, with the values of figure, in their order. */
int history_runs(struct history *h, long long id, const char *figure, history_run_fn fn,
		 void *ctx, char *err);
/* The runs of job f->job in the results that pass f, by host, run_key, then
 * date: what trend draws. */
int history_trend(struct history *h, const struct history_filter *f, const char *figure,
		  history_run_fn fn, void *ctx, char *err);
/* The values of figure of the run run_key in the last `last` results of
 * host_key (not the one of hash) whose run has no interrupted repeat and did
 * not fail, pooled into a malloc'd *val of *n; *nresults says how many
 * results they came from.  -1 failed. */
int history_previous(struct history *h, const char *host_key, const char *run_key,
		     const char *hash, size_t last, const char *figure, double **val, size_t *n,
		     size_t *nresults, char *err);
/* The key of a host, as the database stores it; "\x1f" between fields. */
void history_host_key(const struct history_host *host, char *buf, size_t n);
/* The XXH3-64 of the file at path as 16 hex digits; -1 with why in err. */
int history_hash_file(const char *path, char hex[17], char *err);

#endif
