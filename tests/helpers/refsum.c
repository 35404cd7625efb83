/*
 * refsum - the reference checksum for tests, computed without iosweep's
 * code: reads "OFFSET LENGTH" lines on stdin, preads each block of FILE and
 * prints the sum (mod 2^64) of XXH3_64bits_withSeed(block, length, offset)
 * as 16 hex digits, as DESIGN.md defines it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <xxhash.h>

int main(int argc, char **argv)
{
	unsigned long long off, len, sum = 0;
	unsigned char *buf = NULL;
	size_t cap = 0;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: refsum FILE < offsets\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	while (scanf("%llu %llu", &off, &len) == 2) {
		if (len > cap) {
			free(buf);
			cap = len;
			buf = malloc(cap);
			if (!buf)
				return 1;
		}
		if (pread(fd, buf, len, (off_t)off) != (ssize_t)len) {
			fprintf(stderr, "short read at %llu\n", off);
			return 1;
		}
		sum += XXH3_64bits_withSeed(buf, len, off);
	}
	printf("%016llx\n", sum);
	free(buf);
	return 0;
}
