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
static int translate_job(struct import *im, const struct fio_job *job,
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

/* fio starts the jobs of one file together unless stonewall (or wait_for)
 * makes one wait for those before it; iosweep runs jobs one at a time. */
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

/* Whether job i of in may run after the one before it: fio runs the jobs
 * of one file together unless stonewall (or wait_for) says otherwise. */
static int check_order(const struct fio_input *in, size_t i, char *err)
{
	const struct fio_job *job = &in->jobs[i];

	if (i == 0 || job->group != in->jobs[i - 1].group || job_ordered(job))
		return 0;
	if (job->line)
		return err_set(err, "%s:%d: [%s] runs at the same time as [%s] in fio "
				    "(no stonewall): iosweep runs jobs one after "
				    "another; add stonewall to [%s] or to [global] if "
				    "that is what you measure", job->file, job->line,
			       job->name, in->jobs[i - 1].name, job->name);
	return err_set(err, "%s: --name=%s runs at the same time as --name=%s in "
			    "fio (no --stonewall): iosweep runs jobs one after "
			    "another; add --stonewall if that is what you measure",
		       job->file, job->name, in->jobs[i - 1].name);
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
	for (size_t i = 0; i < in->njobs; i++) {
		int n;

		if (check_order(in, i, err) < 0) {
			if (!refused)
				return -1;
			refused(arg, err);
			nrefused++;
			continue;
		}
		n = translate_job(out, &in->jobs[i], refused, arg, err);
		if (n < 0)
			return -1;
		nrefused += n;
	}
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
