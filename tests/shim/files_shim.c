/*
 * files_shim.c - an LD_PRELOAD library that tells, for tests/cli/core.bats,
 * whether the threads of iosweep that do system calls on descriptors share
 * the main thread's table of them (see thread_own_files() in src/lib/threads.h):
 *
 *   IOSWEEP_FILES_LOG=LOG LD_PRELOAD=files_shim.so iosweep run ...
 *
 * The first pread(), poll() and ioctl() of every thread but the main one
 * append "pread own N" or "pread shared N" (likewise "poll ...", "ioctl
 * ...") to LOG, as kcmp(2) compares the thread's table with the main
 * thread's, N the descriptors open in the thread's table then; then the
 * call goes to the C library.  At exit it appends "pread cancel off+async N
 * other M": how many preads of any thread ran with cancellation off and of
 * the asynchronous type (see worker_thread() in src/run.c), and how many
 * did not.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <fcntl.h>
#include <linux/kcmp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static _Thread_local int noted_pread, noted_poll, noted_ioctl;
static unsigned long preads_off_async, preads_other;

static void log_line(const char *line, int n)
{
	const char *log = getenv("IOSWEEP_FILES_LOG");
	int fd = log ? open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : -1;

	if (fd >= 0) {
		if (write(fd, line, (size_t)n) != n) {
			/* a test that finds no line fails: nothing more to do here */
		}
		close(fd);
	}
}

/* Whether the calling thread has cancellation off and of the asynchronous
 * type, found by setting each and putting it back. */
static int cancel_off_async(void)
{
	int state, type, x;

	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &state);
	pthread_setcanceltype(PTHREAD_CANCEL_DEFERRED, &type);
	pthread_setcanceltype(type, &x);
	pthread_setcancelstate(state, &x);
	return state == PTHREAD_CANCEL_DISABLE && type == PTHREAD_CANCEL_ASYNCHRONOUS;
}

__attribute__((destructor)) static void report(void)
{
	char line[96];
	int n = snprintf(line, sizeof(line), "pread cancel off+async %lu other %lu\n",
			 __atomic_load_n(&preads_off_async, __ATOMIC_RELAXED),
			 __atomic_load_n(&preads_other, __ATOMIC_RELAXED));

	log_line(line, n);
}

/* The descriptors open in the calling thread's table (the listing's own
 * not counted). */
static int open_fds(void)
{
	DIR *d = opendir("/proc/thread-self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL)
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1;
}

static void note(const char *call, int *noted)
{
	const char *log = getenv("IOSWEEP_FILES_LOG");
	pid_t pid = getpid(), tid = (pid_t)syscall(SYS_gettid);
	char line[96];
	int n;

	if (!log || *noted || tid == pid)
		return;
	*noted = 1;
	n = snprintf(line, sizeof(line), "%s %s %d\n", call,
		     syscall(SYS_kcmp, pid, tid, KCMP_FILES, 0, 0) == 0 ? "shared" : "own",
		     open_fds());
	log_line(line, n);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	static ssize_t (*real)(int, void *, size_t, off_t);

	if (!real)
		real = (ssize_t (*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread");
	note("pread", &noted_pread);
	__atomic_add_fetch(cancel_off_async() ? &preads_off_async : &preads_other, 1,
			   __ATOMIC_RELAXED);
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

int ioctl(int fd, unsigned long req, ...)
{
	static int (*real)(int, unsigned long, ...);
	va_list ap;
	void *arg;

	if (!real)
		real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	note("ioctl", &noted_ioctl);
	return real(fd, req, arg);
}
