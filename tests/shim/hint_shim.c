/*
 * hint_shim.c - an LD_PRELOAD library that records the advice iosweep
 * gives, for tests/cli/core.bats:
 *
 *   IOSWEEP_HINT_FILE=PATH IOSWEEP_HINT_LOG=LOG LD_PRELOAD=hint_shim.so iosweep run ...
 *
 * Every posix_fadvise() of a descriptor open on PATH (same device and
 * inode) appends "fadvise ADVICE" to LOG, and every madvise() appends
 * "madvise ADVICE"; then the call goes to the C library.  Only the calls
 * are recorded: what they do is the kernel's.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void note(const char *what, int advice)
{
	const char *log = getenv("IOSWEEP_HINT_LOG");
	char line[64];
	int fd, n;

	if (!log)
		return;
	n = snprintf(line, sizeof(line), "%s %d\n", what, advice);
	fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	if (write(fd, line, (size_t)n) != n)
		n = 0; /* the test sees a missing line */
	close(fd);
}

static int same_file(int fd)
{
	const char *path = getenv("IOSWEEP_HINT_FILE");
	struct stat want, have;

	return path && stat(path, &want) == 0 && fstat(fd, &have) == 0 &&
	       want.st_dev == have.st_dev && want.st_ino == have.st_ino;
}

typedef int (*fadvise_fn)(int fd, off_t off, off_t len, int advice);
typedef int (*madvise_fn)(void *addr, size_t len, int advice);

static int fadvise_as(const char *name, int fd, off_t off, off_t len, int advice)
{
	fadvise_fn real = (fadvise_fn)dlsym(RTLD_NEXT, name);
	int saved = errno;

	if (same_file(fd))
		note("fadvise", advice);
	errno = saved;
	return real ? real(fd, off, len, advice) : ENOSYS;
}

int posix_fadvise(int fd, off_t off, off_t len, int advice)
{
	return fadvise_as("posix_fadvise", fd, off, len, advice);
}

int posix_fadvise64(int fd, off_t off, off_t len, int advice)
{
	return fadvise_as("posix_fadvise64", fd, off, len, advice);
}

int madvise(void *addr, size_t len, int advice)
{
	madvise_fn real = (madvise_fn)dlsym(RTLD_NEXT, "madvise");
	int saved = errno;

	note("madvise", advice);
	errno = saved;
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	return real(addr, len, advice);
}
