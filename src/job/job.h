/*
 * job.h - a job file, parsed and validated option by option.
 *
 * inih splits the text into sections and name = value pairs; this module
 * turns each value into typed values (env-expanded, split into lists,
 * checked against the option table), applies [global] inheritance and
 * `--set` overrides, and remembers where every value came from so that
 * later stages can report errors as FILE:LINE.
 */
#ifndef IOSWEEP_JOB_H
#define IOSWEEP_JOB_H

#include <stdbool.h>
#include <stddef.h>

#include "job/options.h"

struct job_value {
	size_t n;          /* number of values; 0 when not set (the default applies) */
	union optval *v;
	int line;          /* line that set it; 0 when set by --set */
	const char *set;   /* the --set text that set it, or NULL */
	unsigned order;    /* declaration order: list options multiply in this order */
	bool here;         /* set in this section, not inherited from [global] */
};

struct job {
	char *name;
	int line;          /* line of its [section] */
	struct job_value opt[OPT__COUNT];
};

struct jobfile {
	char *path;
	char *text;        /* the whole file, recorded in results */
	struct job *jobs;
	size_t njobs;
	char **overrides;  /* --set texts, as given */
	size_t noverrides;
	unsigned next_order;
	size_t jobs_cap;   /* room in jobs */
};

/* What jobfile_read and jobfile_parse return when memory ran out: not the
 * job file's fault, so not reported as a job-file error. */
#define JOBFILE_NOMEM (-2)

/* Reads a job file's text (malloc'd into *text); -1 with "FILE: message",
 * or JOBFILE_NOMEM. */
int jobfile_read(const char *path, char **text, size_t *len, char *err);
/* Parses text as if read from path (a job file broadcast to many ranks,
 * tests); -1 with "FILE:LINE: message", or JOBFILE_NOMEM. */
int jobfile_parse(struct jobfile *jf, const char *path, const char *text, size_t len, char *err);
/*
 * A job file made from data, not from text (the translation of fio jobs
 * that compare reads): jobfile_new starts it, jobfile_add_job adds a job
 * (after the others), jobfile_add_value gives an option of that job its
 * value, split into a list and checked against the option table as a line
 * of a job file is, and jobfile_complete checks the whole (a job at least,
 * baselines that name jobs).  A value is taken as it is: no ${VAR}, no
 * '~', no comment, no line length; a relative path is relative to the
 * current directory.  The jobs get no [global] values and text is NULL.
 * Each returns -1 with why in err (naming the job and option), or
 * JOBFILE_NOMEM.
 */
int jobfile_new(struct jobfile *jf, const char *path, char *err);
/* The new job, or NULL; line is where it comes from (0: unknown). */
struct job *jobfile_add_job(struct jobfile *jf, const char *name, int line, char *err);
int jobfile_add_value(struct jobfile *jf, struct job *job, enum opt_id id, const char *text,
		      char *err);
int jobfile_complete(const struct jobfile *jf, char *err);
/* Applies `--set KEY=VALUE` to every job.  -1 with "--set 'KV': why", or
 * JOBFILE_NOMEM when memory ran out. */
int jobfile_set(struct jobfile *jf, const char *kv, char *err);
/* Keeps only the named jobs (in file order); -1 naming an unknown one. */
int jobfile_select(struct jobfile *jf, char *const *names, size_t n, char *err);
/* "FILE:LINE" or "--set 'KEY=VALUE'" for messages about option id of job. */
void job_where(const struct jobfile *jf, const struct job *job, enum opt_id id, char *buf,
	       size_t n);
void jobfile_free(struct jobfile *jf);

#endif
