/*
 * fio_hints.h - sizes in an iosweep job file that fio reads otherwise.
 *
 * A fio user's first job file says `bs=4kb`: check and plan ask here about
 * sizes that mean something else to fio (4kb is 4000 bytes here, 4096 in
 * fio).  fio's option and value words are in job/fio_words.h.
 */
#ifndef IOSWEEP_FIO_HINTS_H
#define IOSWEEP_FIO_HINTS_H

#include <stdio.h>

#include "job/job.h"

/* Warns on out, one line each, about the sizes of jf that fio reads
 * differently (a 'b' suffix: 4kb) and block sizes that are not a multiple
 * of 512; returns how many. */
int fio_hint_sizes(const struct jobfile *jf, FILE *out);

#endif
