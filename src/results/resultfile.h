/*
 * resultfile.h - result files read back: what `compare` and `plot` need
 * from the JSON that `run -o json` writes, and nothing more (a file of
 * 100 000 runs is read one run at a time into a few hundred bytes a run).
 *
 * A run is known by its job name and its parameters ("params"), except the
 * ones that do not change what is measured (filename, repeat, warmup).  The
 * helpers here answer the questions both commands ask of a set of runs:
 * which parameters vary, and which vary within a group (a job, or one value
 * of the plot's x axis), so that labels name only what tells runs apart.
 */
#ifndef IOSWEEP_RESULTFILE_H
#define IOSWEEP_RESULTFILE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/figures.h"

struct rf_value;

/* One run of a result file, as compare and plot need it: its job and
 * parameters (each distinct value held once per file and shared by the
 * runs that have it) and the values of the figures asked for at load. */
struct resultfile_run {
	json_t *job;                /* the job's name (a string) */
	json_t *description;        /* a string, or NULL */
	json_t *note, *error;       /* the run's note and error (strings), or NULL */
	size_t nparams;
	struct rf_param {
		const char *key;
		const struct rf_value *value;
	} *params;
	const struct figure *const *figs; /* the figures kept (the file's) */
	size_t nfigs;
	size_t *nval;               /* nval[k]: values of figs[k] ... */
	double **val;               /* ... over the completed repeats: val[k] */
	long long index;            /* the run's "index", or -1 */
	bool failed;                /* the run failed */
	size_t nrepeats;            /* its repeats, interrupted ones included, */
	size_t ninterrupted;        /* and how many of them were interrupted */
	json_t *repeats;            /* RESULTFILE_SERIES: per repeat {"interrupted": bool,
				     * "series" and "time_to_end_s": as in the file,
				     * or null}; else NULL */
};

/* resultfile_load(): keep each repeat's series too (plot --over). */
#define RESULTFILE_SERIES 1u

struct rf_intern;
struct resultfile;

/* resultfile_stream(): fn is given each run as it is read (it holds only
 * while fn runs); its non-zero return (with why in err) stops the read.
 * hash is set to the XXH3-64 of the file's bytes, in 16 hex digits. */
struct resultfile_each {
	int (*fn)(void *ctx, const struct resultfile *rf, const struct resultfile_run *run,
		  size_t i, char *err);
	void *ctx;
	char hash[17];
};

struct resultfile {
	const char *path;
	json_t *doc;     /* everything but the runs (job_file, host, ...) */
	struct resultfile_run **runs;
	size_t nruns;
	bool from_fio;   /* a fio JSON result, read as one run per job (resultfile_fio.c) */
	/* private */
	const struct figure **figs;
	size_t nfigs;
	unsigned flags;
	struct rf_intern *values;
	size_t runs_cap;
	int (*each)(void *ctx, const struct resultfile *rf, const struct resultfile_run *run,
		    size_t i, char *err);
	void *each_ctx;
};

/* Reads and checks path: JSON with an "iosweep" object of schema
 * IOSWEEP_SCHEMA and runs that have a job, params and repeats, or a fio
 * JSON result (see resultfile_fio.h).  The runs are read one at a time
 * (one run's jansson tree at a time), and of each only its job, params,
 * the counts above, the values of figs[0..nfigs) and, with flags
 * RESULTFILE_SERIES, its repeats' series.  -1 with "PATH: why" in err
 * (ERR_MAX bytes). */
int resultfile_load(struct resultfile *rf, const char *path, const struct figure *const *figs,
		    size_t nfigs, unsigned flags, char *err);
void resultfile_free(struct resultfile *rf);
/* resultfile_load(), checking the same, but keeping no run: each is handed
 * to each->fn as it is read, so that memory holds one run (and each
 * distinct job name and parameter value once) whatever the file's size;
 * rf->nruns stays 0.  A fio result is read whole, as it is small. */
int resultfile_stream(struct resultfile *rf, const char *path, const struct figure *const *figs,
		      size_t nfigs, struct resultfile_each *each, char *err);

/* params[key] of a run, or the job name when key is "job"; NULL if absent. */
json_t *resultfile_param(const struct resultfile_run *run, const char *key);
/* A new object of a run's params; NULL when out of memory. */
json_t *resultfile_params_json(const struct resultfile_run *run);
/* Whether a params key is part of what a run is (not filename, repeat, warmup). */
bool resultfile_identity_key(const char *key);
/* keys a set tells runs apart by: iosweep's own results have one per job
 * option and three more (job, group, group_run); a file with more is read by
 * its first RUNSET_MAX_KEYS */
#define RUNSET_MAX_KEYS 256

/* A set of runs (of one file, or of two being compared) with each
 * parameter's values numbered once, through a hash table: the questions
 * below cost O(runs), never a comparison of every pair of runs. */
struct runset {
	struct resultfile_run *const *runs;
	size_t n;
	const char *keys[RUNSET_MAX_KEYS];  /* "job", then the identity keys, first seen first */
	size_t nkeys;
	uint32_t *id[RUNSET_MAX_KEYS];      /* id[k][i]: run i's value of keys[k], numbered
					       in first-seen order (absent is a value too) */
	size_t ndistinct[RUNSET_MAX_KEYS];
	unsigned char *varies_in_job[RUNSET_MAX_KEYS]; /* [k][job id]: keys[k] varies in it */
	uint32_t *run_id;                   /* same (job and) identity parameters: same number */
	size_t nrun_ids;
};

/* -1 when out of memory.  Runs are numbered (run_id) by their identity
 * parameters, and their job too when job_in_identity. */
int runset_init(struct runset *s, struct resultfile_run *const *runs, size_t n,
		bool job_in_identity);
void runset_free(struct runset *s);
/* The identity keys found in the runs, in first-seen order; at most max. */
size_t resultfile_keys(const struct runset *s, const char **keys, size_t max);
/* Number of distinct values of key among the runs. */
size_t resultfile_distinct(const struct runset *s, const char *key);
/* The number of run's value of key (0 for a key no run has). */
uint32_t resultfile_value_id(const struct runset *s, const char *key, size_t run);
/* Whether key differs between two runs that have the same value of `by`
 * (any two runs when by is NULL). */
bool resultfile_varies(const struct runset *s, const char *key, const char *by);
/* Drops from keys[0..nkeys) each key whose value follows from an earlier
 * one's among the runs (spacing from bs, when spacing is left at its
 * default), so that labels say each thing once; returns the new count. */
size_t resultfile_independent(const struct runset *s, const char **keys, size_t nkeys);
/* A parameter as a job file writes it: "4KiB", "sync", "500ms". */
void resultfile_param_text(const char *key, const json_t *v, char *buf, size_t n);
/* The label of s->runs[run]: "JOB key=value ..." with those of
 * keys[0..nkeys) whose values differ within the run's job; without JOB
 * (with_job false), every one of keys. */
void resultfile_label(const struct runset *s, size_t run, bool with_job,
		      const char *const *keys, size_t nkeys, char *buf, size_t n);

/* The values of figure f over a run's repeats, leaving out interrupted
 * repeats and unknown values, in a malloc'd array of *n; NULL when out of
 * memory, or when f was not among the figures kept at load. */
double *resultfile_values(const struct resultfile_run *run, const struct figure *f, size_t *n);

#endif
