/*
 * fio_finish.h - a fio job read into struct fio_state (fio_rules.h) made
 * iosweep options: the checks and notes that need several options at once.
 */
#ifndef IOSWEEP_FIO_FINISH_H
#define IOSWEEP_FIO_FINISH_H

#include "fio/fio_job.h"

/* The iosweep options of st into ij; -1 with why in err. */
int finish_job(struct import *im, struct fio_state *st, struct import_job *ij, char *err);

#endif
