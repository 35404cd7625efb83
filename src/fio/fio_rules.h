/*
 * fio_rules.h - what each fio option says about a job (fio_job.h's struct
 * fio_state): the handlers that fio's words (job/fio_words.h) name, and
 * the notes and refusals of the options that are not translated.
 */
#ifndef IOSWEEP_FIO_RULES_H
#define IOSWEEP_FIO_RULES_H

#include "fio/fio_job.h"

/* The job's kb_base, which applies to its sizes wherever it is written. */
int rules_kb_base(const struct fio_job *job, unsigned *kb_base, char *err);
/* fio's startdelay=T or LOW-HIGH, in microseconds (lo = hi: one time); -1
 * with why when fio's value is not a time. */
int rules_startdelay(const char *value, uint64_t *lo_us, uint64_t *hi_us, char *why);
/* Reads setting s into st, or notes it, or refuses it (-1, why in err). */
int rules_apply(struct import *im, struct fio_state *st, const struct fio_setting *s, char *err);

#endif
