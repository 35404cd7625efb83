/*
 * prepare.h - test files: created when missing, never touched otherwise.
 *
 * A missing file is written under a temporary name in the same directory,
 * fsync'ed and renamed into place only when complete, so an interrupted or
 * failed creation leaves nothing behind at `filename`.  An existing file or
 * block device is only ever opened read-only.
 */
#ifndef IOSWEEP_PREPARE_H
#define IOSWEEP_PREPARE_H

#include <signal.h>
#include <stdint.h>

#include "options.h"

/* Called now and then while a file is written. */
typedef void (*prepare_progress_fn)(uint64_t done, uint64_t total, void *arg);

/* Creates path with size bytes of fill unless it exists.  Returns 0, 1 when
 * *stop was set (the temporary file is removed), or -1 with err. */
int prepare_file(const char *path, uint64_t size, enum fill_kind fill, uint64_t seed,
		 volatile sig_atomic_t *stop, prepare_progress_fn progress, void *arg, char *err);


#endif
