/*
 * threads.c - see threads.h.
 */
#define _GNU_SOURCE
#include "lib/threads.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int int_order(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

void thread_own_files(const int *keep, size_t n)
{
	int k[n + 1];
	unsigned lo = 0;

	if (unshare(CLONE_FILES) < 0 || !keep)
		return;
	memcpy(k, keep, n * sizeof(*k));
	qsort(k, n, sizeof(*k), int_order);
	/* close the gaps between the kept ones, and everything above the last */
	for (size_t i = 0; i <= n; i++) {
		unsigned hi = i < n ? (unsigned)k[i] : ~0U;

		if (hi > lo)
			close_range(lo, hi - 1, 0);
		lo = hi + 1;
	}
}
