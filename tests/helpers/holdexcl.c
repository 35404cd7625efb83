/*
 * holdexcl.c - holds a block device open with O_EXCL, as a mount or a RAID
 * would claim it, until it is killed; for the tests of device writes.
 *
 * usage: holdexcl DEVICE   (prints "held" once the claim is taken)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: holdexcl DEVICE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "holdexcl: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	printf("held\n");
	fflush(stdout);
	for (;;)
		pause();
}
