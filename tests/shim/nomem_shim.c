/*
 * nomem_shim.c - an LD_PRELOAD library that makes large reallocations fail,
 * as a process out of memory would, for tests/cli/ini_edges.bats.
 *
 *   IOSWEEP_REALLOC_MAX=BYTES LD_PRELOAD=nomem_shim.so iosweep check ...
 *
 * realloc() of more than BYTES returns NULL with errno ENOMEM; every other
 * call goes to the C library.  Only realloc is faked: it is what grows a
 * long list while a job file is parsed, while the program's start-up and
 * small allocations go on as usual.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>

extern void *__libc_realloc(void *p, size_t n);

void *realloc(void *p, size_t n)
{
	const char *max = getenv("IOSWEEP_REALLOC_MAX");

	if (max && n > strtoull(max, NULL, 10)) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_realloc(p, n);
}
