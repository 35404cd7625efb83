/* error.c - see error.h. */
#define _GNU_SOURCE
#include "lib/error.h"

#include <stdarg.h>
#include <stdio.h>

int err_set(char *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, ERR_MAX, fmt, ap);
	va_end(ap);
	return -1;
}
