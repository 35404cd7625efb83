/*
 * slow_shim.c - an LD_PRELOAD library that makes one file slow, as a slow or
 * huge one would be, so that tests can interrupt iosweep in a chosen phase
 * without timing anything themselves.
 *
 *   IOSWEEP_SLOW_FILE=PATH        the file (same device and inode)
 *   IOSWEEP_SLOW_DIR=DIR          or every file under DIR, by the name it was
 *                                 opened with (a file not created yet)
 *   IOSWEEP_SLOW_AFTER=N          its first N preads go at full speed (default 0)
 *   IOSWEEP_SLOW_FIRST_US=U       or each first waits U µs (a device's steady
 *                                 latency, which a busy machine shifts little)
 *   IOSWEEP_SLOW_MS=M             every later pread first waits M ms
 *   IOSWEEP_SLOW_COUNT=K          only K of them do (default: all)
 *   IOSWEEP_SLOW_MS_PER_GIB=M     posix_fadvise and sync_file_range of it wait
 *                                 M ms per GiB of their range (0: to the end),
 *                                 fdatasync M ms per GiB of the whole file
 *   IOSWEEP_SLOW_SYNC_MS=M        sync() waits M ms
 *   IOSWEEP_SLOW_MARK=FILE        created when the first wait starts
 *
 * A wait is not cut short by a signal (a disk does not hurry either): the
 * call returns when its time is up, and then does the real work.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

static unsigned long long env_u(const char *name, unsigned long long def)
{
	const char *s = getenv(name);
	char *end;
	unsigned long long v;

	if (!s || !*s)
		return def;
	v = strtoull(s, &end, 10);
	return *end ? def : v;
}

static int is_slow_file(int fd)
{
	const char *path = getenv("IOSWEEP_SLOW_FILE"), *dir = getenv("IOSWEEP_SLOW_DIR");
	struct stat want, have;

	if (dir && *dir) {
		char link[64], name[4096];
		ssize_t n;
		size_t len = strlen(dir);

		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, name, sizeof(name) - 1);
		if (n > 0 && (size_t)n > len && strncmp(name, dir, len) == 0 && name[len] == '/')
			return 1;
	}
	if (!path || stat(path, &want) < 0 || fstat(fd, &have) < 0)
		return 0;
	return want.st_dev == have.st_dev && want.st_ino == have.st_ino;
}

/* Waits ms milliseconds whatever signals arrive. */
static void wait_ms(unsigned long long ms)
{
	const char *mark = getenv("IOSWEEP_SLOW_MARK");
	struct timespec left = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };
	int saved = errno;

	if (ms == 0)
		return;
	if (mark) {
		int fd = open(mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

		if (fd >= 0)
			close(fd);
	}
	while (nanosleep(&left, &left) < 0 && errno == EINTR)
		;
	errno = saved;
}

/* Waits us microseconds whatever signals arrive (no mark). */
static void wait_us(unsigned long long us)
{
	struct timespec left = { (time_t)(us / 1000000), (long)(us % 1000000) * 1000L };
	int saved = errno;

	while (us && nanosleep(&left, &left) < 0 && errno == EINTR)
		;
	errno = saved;
}

static void *real(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

static ssize_t slow_pread(const char *name, int fd, void *buf, size_t n, off_t off)
{
	static unsigned long long calls;
	ssize_t (*fn)(int, void *, size_t, off_t) = (ssize_t (*)(int, void *, size_t, off_t))real(name);
	unsigned long long after = env_u("IOSWEEP_SLOW_AFTER", 0), call;

	if (is_slow_file(fd)) {
		call = __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);
		if (call >= after && call - after < env_u("IOSWEEP_SLOW_COUNT", ~0ULL))
			wait_ms(env_u("IOSWEEP_SLOW_MS", 0));
		else if (call < after)
			wait_us(env_u("IOSWEEP_SLOW_FIRST_US", 0));
	}
	if (!fn) {
		errno = ENOSYS;
		return -1;
	}
	return fn(fd, buf, n, off);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	return slow_pread("pread", fd, buf, n, off);
}

ssize_t pread64(int fd, void *buf, size_t n, off_t off)
{
	return slow_pread("pread64", fd, buf, n, off);
}

/* The wait for a range of the file: per GiB of it, to the end when len is 0. */
static void range_wait(int fd, off_t off, off_t len)
{
	struct stat st;
	unsigned long long per = env_u("IOSWEEP_SLOW_MS_PER_GIB", 0), bytes;

	if (!per || !is_slow_file(fd) || fstat(fd, &st) < 0)
		return;
	bytes = len ? (unsigned long long)len
		    : st.st_size > off ? (unsigned long long)(st.st_size - off) : 0;
	wait_ms(per * bytes >> 30);
}

int posix_fadvise(int fd, off_t off, off_t len, int advice)
{
	int (*fn)(int, off_t, off_t, int) = (int (*)(int, off_t, off_t, int))real("posix_fadvise");

	range_wait(fd, off, len);
	return fn ? fn(fd, off, len, advice) : ENOSYS;
}

int posix_fadvise64(int fd, off_t off, off_t len, int advice)
{
	return posix_fadvise(fd, off, len, advice);
}

int sync_file_range(int fd, off_t off, off_t len, unsigned int flags)
{
	int (*fn)(int, off_t, off_t, unsigned int) =
		(int (*)(int, off_t, off_t, unsigned int))real("sync_file_range");

	range_wait(fd, off, len);
	if (!fn) {
		errno = ENOSYS;
		return -1;
	}
	return fn(fd, off, len, flags);
}

int fdatasync(int fd)
{
	int (*fn)(int) = (int (*)(int))real("fdatasync");

	range_wait(fd, 0, 0);
	if (!fn) {
		errno = ENOSYS;
		return -1;
	}
	return fn(fd);
}

void sync(void)
{
	void (*fn)(void) = (void (*)(void))real("sync");

	wait_ms(env_u("IOSWEEP_SLOW_SYNC_MS", 0));
	if (fn)
		fn();
}
