/*
 * error.h - how a failing function tells its caller what went wrong.
 *
 * A function that can fail returns -1 and writes one message into a
 * caller-supplied buffer of ERR_MAX bytes; the caller adds context (file,
 * line, option) and prints it once.  Nothing below main.c prints or exits.
 */
#ifndef IOSWEEP_ERROR_H
#define IOSWEEP_ERROR_H

#include <stddef.h>

#define ERR_MAX 512

/* Formats into err (ERR_MAX bytes) and returns -1, so that callers can
 * write `return err_set(err, "bad %s", x);`. */
int err_set(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
