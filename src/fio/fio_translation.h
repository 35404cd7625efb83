/*
 * fio_translation.h - what a translation of fio jobs is made of (the
 * notes and the iosweep jobs), for fio_import.h and the modules that make
 * it (fio_job.h, fio_rules.h, fio_finish.h) without a circle between them.
 */
#ifndef IOSWEEP_FIO_TRANSLATION_H
#define IOSWEEP_FIO_TRANSLATION_H

#include <stddef.h>

#include "job/options.h"

struct import_note {
	char *where;     /* "FILE:LINE" or "command line" */
	char *setting;   /* "name=value" as written */
	char *why;
};

struct import_job {
	char *name;
	/* iosweep values, each as the option reads it (option_parse_value): handed
	 * to the plan as data (import_jobfile) or written (import_write); NULL: unset */
	char *val[OPT__COUNT];
	char *merged;          /* "a, b, c (they differ only in bs)" or NULL */
	char *fio_name;        /* the fio job it came from (first one when merged) */
};

struct import {
	struct import_job *jobs;
	size_t njobs;
	struct import_note *notes;
	size_t nnotes;
	size_t *note_slots;    /* hash table of notes (index + 1; 0: free), to say each once */
	size_t nslots;         /* a power of two, at least twice nnotes */
};

#endif
