/*
 * files_shim.c - an LD_PRELOAD library that tells, for tests/cli/core.bats,
 * whether the threads of iosweep that do system calls on descriptors share
 * the main thread's table of them (see run_own_files() in src/run.h):
 *
 *   IOSWEEP_FILES_LOG=LOG LD_PRELOAD=files_shim.so iosweep run ...
 *
 * The first pread() and the first poll() of every thread but the main one
 * append "pread own" or "pread shared" (likewise "poll ...") to LOG, as
 * kcmp(2) compares the thread's table with the main thread's; then the call
 * goes to the C library.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/kcmp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static _Thread_local int noted_pread, noted_poll;

static void note(const char *call, int *noted)
{
	const char *log = getenv("IOSWEEP_FILES_LOG");
	pid_t pid = getpid(), tid = (pid_t)syscall(SYS_gettid);
	char line[64];
	int fd, n;

	if (!log || *noted || tid == pid)
		return;
	*noted = 1;
	n = snprintf(line, sizeof(line), "%s %s\n", call,
		     syscall(SYS_kcmp, pid, tid, KCMP_FILES, 0, 0) == 0 ? "shared" : "own");
	fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0) {
		if (write(fd, line, (size_t)n) != n) {
			/* a test that finds no line fails: nothing more to do here */
		}
		close(fd);
	}
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	static ssize_t (*real)(int, void *, size_t, off_t);

	if (!real)
		real = (ssize_t (*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread");
	note("pread", &noted_pread);
	return real(fd, buf, n, off);
}

ssize_t pread64(int fd, void *buf, size_t n, off_t off)
{
	return pread(fd, buf, n, off);
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	static int (*real)(struct pollfd *, nfds_t, int);

	if (!real)
		real = (int (*)(struct pollfd *, nfds_t, int))dlsym(RTLD_NEXT, "poll");
	note("poll", &noted_poll);
	return real(fds, n, timeout);
}
