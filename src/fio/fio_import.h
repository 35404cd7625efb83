/*
 * fio_import.h - fio jobs (fio.h) translated into iosweep jobs.
 *
 * Each fio option is one row of the table of fio's words (job/fio_words.c):
 * translated into iosweep options, or noted with why not (irrelevant to what
 * iosweep measures, not supported, or translated with a difference), or refused
 * when it changes what is measured and iosweep cannot do the same.  Jobs
 * that differ in exactly one list option are merged into one job with a
 * list.  The result is data (struct import): handed to the plan as a job
 * file made from data (import_jobfile), or written as iosweep job-file
 * text by `iosweep import` (import_write).
 */
#ifndef IOSWEEP_FIO_IMPORT_H
#define IOSWEEP_FIO_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "fio/fio.h"
#include "fio/fio_translation.h"
#include "job/job.h"

/* Translates every job of in.  -1 with "FILE:LINE: name=value: why" in err
 * when a job cannot be translated without measuring something else. */
int import_translate(const struct fio_input *in, struct import *out, char *err);
/* As import_translate, but a job that cannot be translated is handed to
 * refused(arg, "FILE:LINE: ...") and the others are translated still: the
 * number of jobs refused, or -1 with why in err when nothing can be
 * translated (no job, out of memory). */
int import_translate_each(const struct fio_input *in, struct import *out,
			  void (*refused)(void *arg, const char *why), void *arg, char *err);
/* Merges runs of consecutive jobs that differ in exactly one list option. */
int import_merge(struct import *im, char *err);
/* The translation as jobs of a job file (jobfile_free it, also after an
 * error), with no text between: path names it in messages.  -1 with why
 * in err, or JOBFILE_NOMEM. */
int import_jobfile(const struct import *im, const char *path, struct jobfile *jf, char *err);
/* The iosweep job file; sources names what it was translated from.  -1
 * with why in err, before writing anything, when a job file cannot hold
 * what the translation holds (a name that its text would read as another). */
int import_write(const struct import *im, const char *sources, FILE *f, char *err);
void import_free(struct import *im);

#endif
