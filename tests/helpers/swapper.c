/*
 * swapper - an attacker for tests: exchanges two names (renameat2
 * RENAME_EXCHANGE) in a tight loop until it is killed, so that whatever
 * looks at one of them by name meets either file, and may meet one at one
 * step and the other at the next.  Usage: swapper A B [PAUSE_NS]
 *
 * PAUSE_NS (a busy wait between two exchanges) tunes the race: with none,
 * two looks a few microseconds apart mostly see the same state; 3000 ns
 * made an unprotected writer lose about twice as often here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
	long long pause = argc > 3 ? atoll(argv[3]) : 0;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: swapper A B [PAUSE_NS]\n");
		return 2;
	}
	for (;;) {
		long long until;

		if (renameat2(AT_FDCWD, argv[1], AT_FDCWD, argv[2], RENAME_EXCHANGE) < 0) {
			fprintf(stderr, "swapper: %s\n", strerror(errno));
			return 1;
		}
		for (until = now_ns() + pause; now_ns() < until;)
			;
	}
}
