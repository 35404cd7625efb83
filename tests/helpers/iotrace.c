/*
 * iotrace.c - a program whose file I/O is known in advance, for
 * tests/cli/record.bats to record with `iosweep record` and compare.
 *
 *   iotrace known FILE [STATUS]  pwrite 4 KiB at 0, 8 KiB and 16 KiB, fsync,
 *                                pread 4 KiB at 8 KiB and 2 KiB at 0,
 *                                fdatasync, write 100 B at the position (4 KiB
 *                                after an lseek), close; exits STATUS (0)
 *   iotrace threads FILE N       N threads, each opens FILE and preads 10 x 4
 *                                KiB at (thread * 10 + i) * 4 KiB
 *   iotrace sparse FILE          the seeds' sparse reader: lseek to each 8 MiB
 *                                and read 4 KiB there, to the end of FILE
 *   iotrace preads FILE N        N preads of 4 KiB, cycling over FILE
 *   iotrace stdio FILE           fopen, fread 3 x 1000 B, fclose
 *   iotrace mmap FILE            map the first 4 KiB and read a byte of it
 *
 * Prints nothing on success; any call that fails: its name, exit 99.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static char buf[1 << 16];
static const char *path;

static void check(long ok, const char *what)
{
	if (!ok) {
		perror(what);
		exit(99);
	}
}

static int known(int status)
{
	int fd = open(path, O_RDWR | O_CREAT, 0644);

	check(fd >= 0, "open");
	memset(buf, 'k', sizeof(buf));
	check(pwrite(fd, buf, 4096, 0) == 4096, "pwrite");
	check(pwrite(fd, buf, 4096, 8192) == 4096, "pwrite");
	check(pwrite(fd, buf, 4096, 16384) == 4096, "pwrite");
	check(fsync(fd) == 0, "fsync");
	check(pread(fd, buf, 4096, 8192) == 4096, "pread");
	check(pread(fd, buf, 2048, 0) == 2048, "pread");
	check(fdatasync(fd) == 0, "fdatasync");
	check(lseek(fd, 4096, SEEK_SET) == 4096, "lseek");
	check(write(fd, buf, 100) == 100, "write");
	check(close(fd) == 0, "close");
	return status;
}

static void *reader(void *arg)
{
	long t = (long)arg;
	char b[4096];
	int fd = open(path, O_RDONLY);

	check(fd >= 0, "open");
	for (long i = 0; i < 10; i++)
		check(pread(fd, b, sizeof(b), (t * 10 + i) * 4096) == 4096, "pread");
	check(close(fd) == 0, "close");
	return NULL;
}

static int threads(int n)
{
	pthread_t th[64];

	check(n > 0 && n <= 64, "threads");
	for (long t = 0; t < n; t++)
		check(pthread_create(&th[t], NULL, reader, (void *)t) == 0, "pthread_create");
	for (int t = 0; t < n; t++)
		pthread_join(th[t], NULL);
	return 0;
}

static int sparse(void)
{
	int fd = open(path, O_RDONLY);
	struct stat st;

	check(fd >= 0 && fstat(fd, &st) == 0, "open");
	for (off_t off = 0; off + 4096 <= st.st_size; off += 8 << 20) {
		check(lseek(fd, off, SEEK_SET) == off, "lseek");
		check(read(fd, buf, 4096) == 4096, "read");
	}
	return close(fd);
}

static int preads(long n)
{
	int fd = open(path, O_RDONLY);
	struct stat st;

	check(fd >= 0 && fstat(fd, &st) == 0 && st.st_size >= 4096, "open");
	for (long i = 0; i < n; i++)
		check(pread(fd, buf, 4096, (i * 4096) % (st.st_size / 4096 * 4096)) == 4096,
		      "pread");
	return close(fd);
}

static int stdio(void)
{
	FILE *f = fopen(path, "r");

	check(f != NULL, "fopen");
	for (int i = 0; i < 3; i++)
		check(fread(buf, 1, 1000, f) == 1000, "fread");
	return fclose(f);
}

static int mapped(void)
{
	int fd = open(path, O_RDONLY);
	volatile char *p;

	check(fd >= 0, "open");
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	check(p != MAP_FAILED, "mmap");
	buf[0] = p[0];
	munmap((void *)p, 4096);
	return close(fd);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: iotrace known|threads|sparse|preads|stdio|mmap FILE [N]\n");
		return 2;
	}
	path = argv[2];
	if (strcmp(argv[1], "known") == 0)
		return known(argc > 3 ? atoi(argv[3]) : 0);
	if (strcmp(argv[1], "threads") == 0)
		return threads(argc > 3 ? atoi(argv[3]) : 4);
	if (strcmp(argv[1], "sparse") == 0)
		return sparse();
	if (strcmp(argv[1], "preads") == 0)
		return preads(argc > 3 ? atol(argv[3]) : 1);
	if (strcmp(argv[1], "stdio") == 0)
		return stdio();
	if (strcmp(argv[1], "mmap") == 0)
		return mapped();
	return 2;
}
