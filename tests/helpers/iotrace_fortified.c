/*
 * iotrace_fortified.c - iotrace's sparse reader built with _FORTIFY_SOURCE,
 * as distributions build their programs: its read() of a buffer of known
 * size (known only at run time) is a call of glibc's __read_chk, its
 * pread() one of __pread_chk, which tests/cli/record.bats checks `iosweep
 * record` still sees.
 *
 *   iotrace_fortified FILE   open FILE; 4 KiB at every 1 MiB: lseek + read,
 *                            then pread of the first 4 KiB; close
 */
#ifndef _FORTIFY_SOURCE
#define _FORTIFY_SOURCE 2
#endif
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char buf[4096];
	struct stat st;
	/* known only at run time, so that the checking versions are called */
	size_t n = (size_t)argc * 2048;
	int fd, flags = argc > 2 ? O_RDWR : O_RDONLY;

	if (argc != 2)
		return 2;
	fd = open(argv[1], flags);
	if (fd < 0 || fstat(fd, &st) < 0)
		return 99;
	for (off_t off = 0; off + 4096 <= st.st_size; off += 1 << 20)
		if (lseek(fd, off, SEEK_SET) != off || read(fd, buf, n) != 4096)
			return 99;
	if (pread(fd, buf, n, 0) != 4096)
		return 99;
	return close(fd);
}
