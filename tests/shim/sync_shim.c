/*
 * sync_shim.c - an LD_PRELOAD library that counts the durability calls
 * iosweep makes, for tests/cli/writes.bats:
 *
 *   IOSWEEP_SYNC_FILE=PATH IOSWEEP_SYNC_LOG=LOG LD_PRELOAD=sync_shim.so iosweep run ...
 *
 * Every fsync() and fdatasync() of a descriptor open on PATH (same device
 * and inode) appends "fsync" or "fdatasync" to LOG; every msync() appends
 * "msync"; every open() or openat() that opens PATH for writing appends
 * "open" followed by " dsync" / " sync" for O_DSYNC / O_SYNC.  Then the call
 * goes to the C library: only the calls are recorded.
 *
 * With IOSWEEP_SYNC_FLIP=OFFSET, the first fsync() or fdatasync() of PATH
 * first inverts the byte at OFFSET of PATH (through a descriptor of its
 * own): a corruption between a run's writes and its verify=after, which
 * flushes the file before it reads it back.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static void note(const char *what)
{
	const char *log = getenv("IOSWEEP_SYNC_LOG");
	size_t n = strlen(what);
	int fd;

	if (!log)
		return;
	fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	if (write(fd, what, n) != (ssize_t)n || write(fd, "\n", 1) != 1)
		n = 0; /* the test sees a missing line */
	close(fd);
}

static int same_file(int fd)
{
	const char *path = getenv("IOSWEEP_SYNC_FILE");
	struct stat want, have;

	return path && stat(path, &want) == 0 && fstat(fd, &have) == 0 &&
	       want.st_dev == have.st_dev && want.st_ino == have.st_ino;
}

typedef int (*sync_fn)(int fd);

/* IOSWEEP_SYNC_FLIP: once, the byte at its offset of PATH inverted. */
static void flip_once(void)
{
	static int done;
	const char *at = getenv("IOSWEEP_SYNC_FLIP"), *path = getenv("IOSWEEP_SYNC_FILE");
	unsigned char c;
	off_t off;
	int fd;

	if (done || !at || !path)
		return;
	done = 1;
	off = (off_t)strtoll(at, NULL, 10);
	/* not through open(): that one is recorded */
	fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return;
	if (pread(fd, &c, 1, off) == 1) {
		c ^= 0xff;
		if (pwrite(fd, &c, 1, off) != 1)
			note("flip failed");
	}
	close(fd);
}

static int sync_as(const char *name, int fd)
{
	sync_fn real = (sync_fn)dlsym(RTLD_NEXT, name);
	int saved = errno;

	if (same_file(fd)) {
		note(name);
		flip_once();
	}
	errno = saved;
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	return real(fd);
}

int fsync(int fd)
{
	return sync_as("fsync", fd);
}

int fdatasync(int fd)
{
	return sync_as("fdatasync", fd);
}

int msync(void *addr, size_t len, int flags)
{
	int (*real)(void *, size_t, int) = (int (*)(void *, size_t, int))dlsym(RTLD_NEXT, "msync");

	note("msync");
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	return real(addr, len, flags);
}

/* After an open that succeeded: record it when it is PATH, for writing. */
static int opened(int fd, int flags)
{
	int saved = errno;

	if (fd >= 0 && (flags & O_ACCMODE) != O_RDONLY && same_file(fd))
		note((flags & O_SYNC) == O_SYNC ? "open sync"
		     : (flags & O_DSYNC)	  ? "open dsync"
						  : "open");
	errno = saved;
	return fd;
}

typedef int (*open_fn)(const char *path, int flags, ...);
typedef int (*openat_fn)(int dirfd, const char *path, int flags, ...);

/* The mode argument, when the flags say there is one. */
#define MODE_ARG(flags)                                  \
	mode_t mode = 0;                                 \
	if ((flags) & (O_CREAT | O_TMPFILE)) {           \
		va_list ap;                              \
		va_start(ap, flags);                     \
		mode = (mode_t)va_arg(ap, unsigned);     \
		va_end(ap);                              \
	}

static int open_as(const char *name, const char *path, int flags, mode_t mode)
{
	open_fn real = (open_fn)dlsym(RTLD_NEXT, name);

	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	return opened(real(path, flags, mode), flags);
}

static int openat_as(const char *name, int dirfd, const char *path, int flags, mode_t mode)
{
	openat_fn real = (openat_fn)dlsym(RTLD_NEXT, name);

	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	return opened(real(dirfd, path, flags, mode), flags);
}

int open(const char *path, int flags, ...)
{
	MODE_ARG(flags)
	return open_as("open", path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	MODE_ARG(flags)
	return open_as("open64", path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	MODE_ARG(flags)
	return openat_as("openat", dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	MODE_ARG(flags)
	return openat_as("openat64", dirfd, path, flags, mode);
}
