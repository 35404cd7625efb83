/*
 * signal_shim.c - an LD_PRELOAD library that sends one signal to one rank of
 * an iosweep-mpi run at a chosen point, so that the tests of
 * tests/cli/mpi.bats can put a signal in any phase without timing.
 *
 *   IOSWEEP_SIGNAL_AT=write|pread IOSWEEP_SIGNAL=INT|TERM|KILL \
 *   IOSWEEP_SIGNAL_RANK=N IOSWEEP_SIGNAL_FILE=TEXT \
 *   LD_PRELOAD=signal_shim.so mpirun ... iosweep-mpi run ...
 *
 * The process whose rank (OMPI_COMM_WORLD_RANK, 0 when unset) is N sends
 * itself the signal once, just before its first write() (creating a test
 * file) or its first pread() (the timed loop of engine=sync) to a regular
 * file whose path contains TEXT (any regular file when unset).  Other
 * descriptors (MPI's sockets and pipes, the terminal) are never counted.
 *
 * IOSWEEP_SIGNAL_AT=access with IOSWEEP_SIGNAL_COUNT=K sends it at the K-th
 * faccessat() instead (from 1): the scan of an opendir tree makes one per
 * regular file, so K = the tree's files + 1 is the first of the run's own
 * scan, after the plan's.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef ssize_t (*write_fn)(int fd, const void *buf, size_t n);
typedef ssize_t (*pread_fn)(int fd, void *buf, size_t n, off_t off);

static int fired;

/* Sends the signal when this call is the chosen one. */
static void maybe_signal(const char *at, int fd)
{
	const char *want = getenv("IOSWEEP_SIGNAL_AT"), *sig = getenv("IOSWEEP_SIGNAL");
	const char *rank = getenv("IOSWEEP_SIGNAL_RANK"), *mine = getenv("OMPI_COMM_WORLD_RANK");
	const char *file = getenv("IOSWEEP_SIGNAL_FILE");
	char link[64], path[4096];
	struct stat st;
	ssize_t n;

	if (__atomic_load_n(&fired, __ATOMIC_RELAXED) || !want || !sig || strcmp(want, at) != 0)
		return;
	if (atoi(rank ? rank : "0") != atoi(mine ? mine : "0"))
		return;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (file && (n < 0 || (path[n] = '\0', !strstr(path, file))))
		return;
	if (__atomic_exchange_n(&fired, 1, __ATOMIC_RELAXED))
		return;
	kill(getpid(), strcmp(sig, "KILL") == 0   ? SIGKILL
		       : strcmp(sig, "TERM") == 0 ? SIGTERM
						  : SIGINT);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	write_fn real = (write_fn)dlsym(RTLD_NEXT, "write");
	int saved = errno;

	maybe_signal("write", fd);
	errno = saved;
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	return real(fd, buf, n);
}

static ssize_t signalling_pread(const char *name, int fd, void *buf, size_t n, off_t off)
{
	pread_fn real = (pread_fn)dlsym(RTLD_NEXT, name);
	int saved = errno;

	maybe_signal("pread", fd);
	errno = saved;
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	return real(fd, buf, n, off);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	return signalling_pread("pread", fd, buf, n, off);
}

ssize_t pread64(int fd, void *buf, size_t n, off_t off)
{
	return signalling_pread("pread64", fd, buf, n, off);
}

typedef int (*faccessat_fn)(int dirfd, const char *path, int mode, int flags);

int faccessat(int dirfd, const char *path, int mode, int flags)
{
	static unsigned long calls;
	faccessat_fn real = (faccessat_fn)dlsym(RTLD_NEXT, "faccessat");
	const char *want = getenv("IOSWEEP_SIGNAL_AT"), *sig = getenv("IOSWEEP_SIGNAL");
	const char *count = getenv("IOSWEEP_SIGNAL_COUNT");

	if (want && sig && count && strcmp(want, "access") == 0 &&
	    __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED) == strtoul(count, NULL, 10))
		kill(getpid(), strcmp(sig, "TERM") == 0 ? SIGTERM : SIGINT);
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	return real(dirfd, path, mode, flags);
}
