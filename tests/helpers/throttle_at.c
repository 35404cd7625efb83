/*
 * throttle_at.c - switches a cgroup's I/O throttle on once a block device has
 * read a given number of bytes, so that a run meets a real change of speed
 * at a known byte count (the cliff test of tests/cli/steady.bats).
 *
 * usage: throttle_at STAT BYTES CONTROL TEXT
 *   STAT     the device's /sys/block/NAME/stat (its third field: sectors read)
 *   BYTES    bytes read after this starts at which TEXT is written
 *   CONTROL  the throttle's file: io.max (cgroup v2) or
 *            blkio.throttle.read_bps_device (v1)
 * Prints "ready" once it has the device's count to start from, then, when it
 * has switched, "switched at N" (the bytes read since, as it saw them).  It
 * polls every 200 us: a shell loop would lag by its forks on a loaded box.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Sectors read so far (the third field of the stat file), or -1. */
static int64_t sectors_read(int fd)
{
	char buf[512];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	unsigned long long f[3];

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu %llu", &f[0], &f[1], &f[2]) != 3)
		return -1;
	return (int64_t)f[2];
}

int main(int argc, char **argv)
{
	const struct timespec nap = { 0, 200000 };
	int64_t base, now, bytes;
	int fd, ctl;

	if (argc != 5) {
		fprintf(stderr, "usage: throttle_at STAT BYTES CONTROL TEXT\n");
		return 2;
	}
	bytes = strtoll(argv[2], NULL, 10);
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0 || (base = sectors_read(fd)) < 0) {
		fprintf(stderr, "throttle_at: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	do {
		nanosleep(&nap, NULL);
		now = sectors_read(fd);
		if (now < 0)
			return 1;
	} while ((now - base) * 512 < bytes);
	ctl = open(argv[3], O_WRONLY | O_CLOEXEC);
	if (ctl < 0 || write(ctl, argv[4], strlen(argv[4])) < 0) {
		fprintf(stderr, "throttle_at: %s: %s\n", argv[3], strerror(errno));
		return 1;
	}
	close(ctl);
	printf("switched at %" PRId64 "\n", (now - base) * 512);
	return 0;
}
