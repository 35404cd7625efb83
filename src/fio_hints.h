/*
 * fio_hints.h - fio's words in an iosweep job file, pointed at iosweep's.
 *
 * A fio user's first job file says `direct=1`, `ioengine=libaio` and
 * `bs=4kb`.  The job parser asks this table what to say about an unknown
 * option or value that is fio's spelling; check and plan ask it about sizes
 * that mean something else to fio (4kb is 4000 bytes here, 4096 in fio).
 */
#ifndef IOSWEEP_FIO_HINTS_H
#define IOSWEEP_FIO_HINTS_H

#include <stdio.h>

#include "job.h"

/* What to write instead of fio's option `name`, or NULL when it is not one. */
const char *fio_hint_option(const char *name);
/* What to write instead of fio's value `value` of iosweep option `option`,
 * or NULL. */
const char *fio_hint_value(const char *option, const char *value);
/* Warns on out, one line each, about the sizes of jf that fio reads
 * differently (a 'b' suffix: 4kb) and block sizes that are not a multiple
 * of 512; returns how many. */
int fio_hint_sizes(const struct jobfile *jf, FILE *out);

#endif
