/*
 * fio_import.c - fio jobs -> iosweep jobs; see fio_import.h.
 *
 * Each job's settings go through the rules (fio_rules.c: fio's words,
 * read into fio's own model of the job, struct fio_state) and are then
 * finished into iosweep option values (fio_finish.c).  Merging is
 * fio_merge.c's, writing the job file fio_write.c's; the plan takes the
 * jobs as data (import_jobfile), never from that text.
 */
#define _GNU_SOURCE
#include "fio/fio_import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio/fio_finish.h"
#include "fio/fio_job.h"
#include "fio/fio_rules.h"
#include "job/fio_words.h"
#include "lib/error.h"

/* One job, appended to im.  Without refused: -1 with why in err at its
 * first setting that cannot be translated.  With refused: each such
 * setting handed to it (the job's settings all read, so that one try
 * names every one), and the number handed. */
static int translate_job(struct import *im, const struct fio_job *job, const char *delay_apart,
			 void (*refused)(void *arg, const char *why), void *arg, char *err)
{
	int nrefused = 0;
	struct fio_state st = {
		.job = job, .op = OP_READ, .bs_rw = { 4096, 4096 }, .bs_hi = { 4096, 4096 },
		.engine = "sync", .iodepth = 1,
		.invalidate = true, .randrepeat = true, .numjobs = 1, .loops = 1,
		.rwmixread = 50, .scramble_buffers = true, .do_verify = true,
		.fallocate = FALLOC_NATIVE, .compress_chunk = 512,
	};
	struct import_job *jobs;

	if (rules_kb_base(job, &st.kb_base, err) < 0)
		return refused ? (refused(arg, err), 1) : -1;
	for (size_t i = 0; i < job->nset; i++) {
		if (rules_apply(im, &st, &job->set[i], err) == 0)
			continue;
		if (!refused)
			return -1;
		refused(arg, err);
		nrefused++;
	}
	/* a wait that starts this job apart from those that run with it */
	if (st.delay_at && delay_apart) {
		setting_bad(st.delay_at, err, "%s", delay_apart);
		if (!refused)
			return -1;
		refused(arg, err);
		nrefused++;
	}
	if (nrefused)
		return nrefused;
	jobs = fio_grow(im->jobs, im->njobs, sizeof(*jobs));
	if (!jobs)
		return refused ? (refused(arg, "out of memory"), 1) : err_set(err, "out of memory");
	im->jobs = jobs;
	memset(&jobs[im->njobs], 0, sizeof(*jobs));
	if (finish_job(im, &st, &jobs[im->njobs], err) < 0) {
		struct import_job *ij = &jobs[im->njobs];

		for (int k = 0; k < OPT__COUNT; k++)
			free(ij->val[k]);
		free(ij->name);
		free(ij->fio_name);
		return refused ? (refused(arg, err), 1) : -1;
	}
	im->njobs++;
	return 0;
}

/* fio starts the jobs of one file together unless stonewall (or
 * wait_for_previous, or wait_for) makes one wait for those before it: such
 * a job starts fio's next set of jobs that run together. */
static bool job_ordered(const struct fio_job *job)
{
	bool ordered = false, b;
	char err[ERR_MAX];

	for (size_t i = 0; i < job->nset; i++) {
		const struct fio_setting *s = &job->set[i];

		if (strcmp(s->name, "wait_for") == 0)
			ordered = true;
		else if ((strcmp(s->name, "stonewall") == 0 ||
			  strcmp(s->name, "wait_for_previous") == 0) &&
			 fio_parse_bool(s->value, &b, err) == 0)
			ordered = b;
	}
	return ordered;
}

/* Whether job i of in starts a new set of fio jobs that run together. */
static bool starts_set(const struct fio_input *in, size_t i)
{
	return i == 0 || in->jobs[i].group != in->jobs[i - 1].group || job_ordered(&in->jobs[i]);
}

/* The job's startdelay (its last), lo to hi; 0 to 0 without one or with
 * one fio would not read (the job's own translation refuses that). */
static void job_delay(const struct fio_job *job, uint64_t *lo, uint64_t *hi)
{
	char why[ERR_MAX];

	*lo = *hi = 0;
	for (size_t i = 0; i < job->nset; i++)
		if (strcmp(job->set[i].name, "startdelay") == 0 &&
		    (!job->set[i].value ||
		     rules_startdelay(job->set[i].value, lo, hi, why) < 0))
			*lo = *hi = 0;
}

/* Why the startdelay of the set of fio jobs that run together from job
 * first cannot be translated, or NULL: a set of one job, or every wait of
 * it one time (each job's becomes its own startdelay).  A range would
 * start them apart by times fio draws, job by job. */
static const char *delays_apart(const struct fio_input *in, size_t first)
{
	uint64_t lo, hi;
	size_t end = first + 1;

	while (end < in->njobs && !starts_set(in, end))
		end++;
	if (end - first < 2)
		return NULL;
	for (size_t i = first; i < end; i++) {
		job_delay(&in->jobs[i], &lo, &hi);
		if (lo != hi)
			return "fio starts the jobs that run together here (no stonewall between "
			       "them) apart by waits it draws from this range, job by job, and "
			       "iosweep's startdelay is one time: give one time, or put stonewall "
			       "before this job";
	}
	return NULL;
}

/* The translated jobs out->jobs[first..) of one set of fio jobs that run
 * together (set is its number) run together here too: a group, named
 * after the set, when there are two or more. */
static int group_set(struct import *out, size_t first, unsigned set, char *err)
{
	if (out->njobs - first < 2)
		return 0;
	for (size_t k = first; k < out->njobs; k++)
		if (asprintf(&out->jobs[k].val[OPT_GROUP], "fio%u", set) < 0) {
			out->jobs[k].val[OPT_GROUP] = NULL;
			return err_set(err, "out of memory");
		}
	return 0;
}

/* Every job of in; a job that cannot be translated is handed to refused
 * (its why in err) and the others go on, or, without refused, ends it. */
static int translate(const struct fio_input *in, struct import *out,
		     void (*refused)(void *arg, const char *why), void *arg, char *err)
{
	char why[200];
	int nrefused = 0;

	snprintf(why, sizeof(why), "irrelevant: %s", fio_why_report);
	memset(out, 0, sizeof(*out));
	if (in->njobs == 0)
		return err_set(err, "%s: no job defined (fio says \"No job(s) defined\"): every "
				    "section but [global] is a job", in->nfiles ? in->files[0] : "fio");
	for (size_t i = 0; i < in->nflags; i++)
		if (setting_note(out, &in->flags[i], NULL, why) < 0)
			return err_set(err, "out of memory");
	size_t first = 0;
	unsigned set = 0;
	const char *delay_apart = NULL;

	for (size_t i = 0; i < in->njobs; i++) {
		int n;

		if (i > 0 && starts_set(in, i)) {
			if (group_set(out, first, set++, err) < 0)
				return -1;
			first = out->njobs;
		}
		if (starts_set(in, i))
			delay_apart = delays_apart(in, i);
		n = translate_job(out, &in->jobs[i], delay_apart, refused, arg, err);
		if (n < 0)
			return -1;
		nrefused += n;
	}
	if (group_set(out, first, set, err) < 0)
		return -1;
	return nrefused;
}

int import_translate(const struct fio_input *in, struct import *out, char *err)
{
	return translate(in, out, NULL, NULL, err) < 0 ? -1 : 0;
}

int import_translate_each(const struct fio_input *in, struct import *out,
			  void (*refused)(void *arg, const char *why), void *arg, char *err)
{
	return translate(in, out, refused, arg, err);
}

int import_jobfile(const struct import *im, const char *path, struct jobfile *jf, char *err)
{
	int rc = jobfile_new(jf, path, err);

	for (size_t i = 0; rc == 0 && i < im->njobs; i++) {
		const struct import_job *ij = &im->jobs[i];
		struct job *job = jobfile_add_job(jf, ij->name, 0, err);

		if (!job)
			return -1;
		for (int k = 0; rc == 0 && k < OPT__COUNT; k++)
			if (ij->val[k])
				rc = jobfile_add_value(jf, job, k, ij->val[k], err);
	}
	return rc ? rc : jobfile_complete(jf, err);
}

void import_free(struct import *im)
{
	for (size_t i = 0; i < im->njobs; i++) {
		for (int k = 0; k < OPT__COUNT; k++)
			free(im->jobs[i].val[k]);
		free(im->jobs[i].name);
		free(im->jobs[i].fio_name);
		free(im->jobs[i].merged);
	}
	for (size_t i = 0; i < im->nnotes; i++) {
		free(im->notes[i].where);
		free(im->notes[i].setting);
		free(im->notes[i].why);
	}
	free(im->jobs);
	free(im->notes);
	free(im->note_slots);
	memset(im, 0, sizeof(*im));
}
