/*
 * eio_shim.c - an LD_PRELOAD library that makes reads of one file fail with
 * EIO at one offset, as a failing disk would, for tests/cli/faults.bats.
 *
 *   IOSWEEP_EIO_FILE=PATH IOSWEEP_EIO_OFFSET=BYTES LD_PRELOAD=eio_shim.so iosweep run ...
 *
 * pread() and pread64() of a descriptor open on PATH (same device and inode)
 * whose range covers byte BYTES return -1 with errno EIO; every other call
 * goes to the C library.  Only pread is faked: it is what engine=sync
 * issues (aio, uring and mmap reads happen in the kernel, out of reach).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

typedef ssize_t (*pread_fn)(int fd, void *buf, size_t n, off_t off);

/* Whether this read of fd must fail. */
static int hits_fault(int fd, size_t n, off_t off)
{
	const char *path = getenv("IOSWEEP_EIO_FILE"), *at = getenv("IOSWEEP_EIO_OFFSET");
	struct stat want, have;
	char *end;
	unsigned long long bad;

	if (!path || !at || n == 0)
		return 0;
	bad = strtoull(at, &end, 10);
	if (*end || (unsigned long long)off > bad || bad - (unsigned long long)off >= n)
		return 0;
	if (stat(path, &want) < 0 || fstat(fd, &have) < 0)
		return 0;
	return want.st_dev == have.st_dev && want.st_ino == have.st_ino;
}

static ssize_t faulty_pread(const char *name, int fd, void *buf, size_t n, off_t off)
{
	pread_fn real = (pread_fn)dlsym(RTLD_NEXT, name);

	if (hits_fault(fd, n, off)) {
		errno = EIO;
		return -1;
	}
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	return real(fd, buf, n, off);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	return faulty_pread("pread", fd, buf, n, off);
}

ssize_t pread64(int fd, void *buf, size_t n, off_t off)
{
	return faulty_pread("pread64", fd, buf, n, off);
}
