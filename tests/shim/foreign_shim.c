/*
 * foreign_shim.c - an LD_PRELOAD library that does I/O behind the run's
 * back, as another process using the same device would, for
 * tests/cli/devstat.bats: without a race, inside the measured part.
 *
 *   IOSWEEP_FOREIGN_DEV=PATH IOSWEEP_FOREIGN_OFFSET=BYTES IOSWEEP_FOREIGN_BYTES=N \
 *   LD_PRELOAD=foreign_shim.so iosweep run ...
 *
 * The first pread() or pread64() of the process on a descriptor open on the
 * block device PATH (same device number) first reads N bytes of PATH at
 * BYTES with O_DIRECT on a descriptor of its own (the page cache cannot
 * absorb it), then does the read asked for.  Every other call goes to the
 * library.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

typedef ssize_t (*pread_fn)(int fd, void *buf, size_t n, off_t off);

static int done;

static void foreign(int fd, pread_fn real)
{
	const char *path = getenv("IOSWEEP_FOREIGN_DEV");
	const char *at = getenv("IOSWEEP_FOREIGN_OFFSET"), *len = getenv("IOSWEEP_FOREIGN_BYTES");
	struct stat want, have;
	size_t n;
	void *buf;
	int own;

	if (done || !path || !at || !len || stat(path, &want) < 0 || fstat(fd, &have) < 0 ||
	    !S_ISBLK(have.st_mode) || have.st_rdev != want.st_rdev)
		return;
	done = 1;
	n = strtoull(len, NULL, 10);
	own = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (own < 0 || posix_memalign(&buf, 4096, n) != 0) {
		if (own >= 0)
			close(own);
		return;
	}
	if (real(own, buf, n, (off_t)strtoull(at, NULL, 10)) != (ssize_t)n)
		abort(); /* the test would otherwise pass for the wrong reason */
	free(buf);
	close(own);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	pread_fn real = (pread_fn)dlsym(RTLD_NEXT, "pread");

	foreign(fd, real);
	return real(fd, buf, n, off);
}

ssize_t pread64(int fd, void *buf, size_t n, off_t off)
{
	pread_fn real = (pread_fn)dlsym(RTLD_NEXT, "pread64");

	foreign(fd, real);
	return real(fd, buf, n, off);
}
