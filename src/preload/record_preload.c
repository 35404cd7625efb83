/*
 * record_preload.c - libiosweep-record.so, the LD_PRELOAD interposer behind
 * `iosweep record` (record.h): every file I/O call a program makes through
 * the C library, written down as it happens.
 *
 * Why an interposer: measured on the 2-core VM of bench/RESULTS.md (200 000
 * cached 4 KiB preads: bare 0.4-1.0 s), strace -f took 15-31 s (a ptrace
 * stop per system call: 30-40x) and perf trace 17-22 s, where an interposer
 * costs a clock read and one write(2) of a line per call (README, "Record
 * your program's I/O", and `make bench`, case record).  What it cannot see
 * is said in every trace's notes: system calls made without the C library's
 * exported functions (raw syscall(2), io_uring, the dynamic loader's reads
 * of libraries, statically linked programs) and glibc's stdio internals.
 * Programs built with _FORTIFY_SOURCE call __read_chk and friends instead
 * of read: those are interposed too (at the end).  Calls not listed here
 * (copy_file_range, sendfile, splice, sync_file_range...) are not recorded.
 * stdio is followed at its entry points: fopen/fdopen/freopen/fclose and
 * fread/fwrite (each recorded at the stream's position with the bytes the
 * program asked for and got); other stdio reads (fgets, getc, fscanf...) of
 * a stream are not, and each stream opened is noted so.
 *
 * Each thread appends its own file, DIR/PID.TID (DIR: $IOSWEEP_RECORD_DIR),
 * one line per call written with a single write(2) as the call returns, so
 * a program that ends with _exit, a crash or a signal loses nothing already
 * done, and iosweep merges the threads' files by time afterwards.  A line:
 *
 *   OP T_NS DUR_NS FD DEV INO OFFSET LENGTH RESULT [PATH]
 *
 * (the path on open lines and on "file" lines, which name a descriptor met
 * without its open: inherited, or opened before this library was loaded).
 * Only regular files and block devices are recorded; pipes, sockets and
 * terminals are not file I/O.  Not part of libiosweep: built on its own by
 * the Makefile, it includes nothing of iosweep's.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

/* what each descriptor below NFD is, so that a read costs no fstat */
#define NFD 65536
enum kind { K_UNKNOWN, K_FILE, K_OTHER, K_OURS };
struct fdinfo {
	unsigned char kind;
	dev_t dev;
	ino_t ino;
};
static struct fdinfo *fds;
static char dir[PATH_MAX];
static bool active;

static __thread int my_fd = -1;
static __thread pid_t my_tid;

#define REAL(name) real_##name
#define DECL(ret, name, ...) static ret (*real_##name)(__VA_ARGS__)
DECL(int, open, const char *, int, ...);
DECL(int, open64, const char *, int, ...);
DECL(int, openat, int, const char *, int, ...);
DECL(int, openat64, int, const char *, int, ...);
DECL(int, creat, const char *, mode_t);
DECL(int, creat64, const char *, mode_t);
DECL(int, close, int);
DECL(int, close_range, unsigned, unsigned, int);
DECL(int, dup2, int, int);
DECL(int, dup3, int, int, int);
DECL(ssize_t, read, int, void *, size_t);
DECL(ssize_t, pread, int, void *, size_t, off_t);
DECL(ssize_t, pread64, int, void *, size_t, off64_t);
DECL(ssize_t, readv, int, const struct iovec *, int);
DECL(ssize_t, preadv, int, const struct iovec *, int, off_t);
DECL(ssize_t, preadv64, int, const struct iovec *, int, off64_t);
DECL(ssize_t, preadv2, int, const struct iovec *, int, off_t, int);
DECL(ssize_t, write, int, const void *, size_t);
DECL(ssize_t, pwrite, int, const void *, size_t, off_t);
DECL(ssize_t, pwrite64, int, const void *, size_t, off64_t);
DECL(ssize_t, writev, int, const struct iovec *, int);
DECL(ssize_t, pwritev, int, const struct iovec *, int, off_t);
DECL(ssize_t, pwritev64, int, const struct iovec *, int, off64_t);
DECL(ssize_t, pwritev2, int, const struct iovec *, int, off_t, int);
DECL(int, fsync, int);
DECL(int, fdatasync, int);
DECL(off_t, lseek, int, off_t, int);
DECL(off64_t, lseek64, int, off64_t, int);
DECL(int, ftruncate, int, off_t);
DECL(int, ftruncate64, int, off64_t);
DECL(int, fallocate, int, int, off_t, off_t);
DECL(int, fallocate64, int, int, off64_t, off64_t);
DECL(void *, mmap, void *, size_t, int, int, int, off_t);
DECL(void *, mmap64, void *, size_t, int, int, int, off64_t);
DECL(FILE *, fopen, const char *, const char *);
DECL(FILE *, fopen64, const char *, const char *);
DECL(FILE *, fdopen, int, const char *);
DECL(FILE *, freopen, const char *, const char *, FILE *);
DECL(int, fclose, FILE *);
DECL(size_t, fread, void *, size_t, size_t, FILE *);
DECL(size_t, fwrite, const void *, size_t, size_t, FILE *);

/* The next definition of a name (libc's); resolved on first use, since a
 * call may come from another library's constructor before ours ran. */
static void *next_of(void **slot, const char *name)
{
	if (!*slot)
		*slot = dlsym(RTLD_NEXT, name);
	return *slot;
}
#define NEXT(name) ((__typeof__(real_##name))next_of((void **)&real_##name, #name))

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void mark_ours(int fd, enum kind k)
{
	if (fds && fd >= 0 && fd < NFD)
		fds[fd].kind = (unsigned char)k;
}

/* This thread's file, opened on its first record (after a fork too). */
static int thread_file(void)
{
	char path[PATH_MAX + 64];
	int fd, hi;

	if (my_fd >= 0)
		return my_fd;
	my_tid = (pid_t)syscall(SYS_gettid);
	snprintf(path, sizeof(path), "%s/%d.%d", dir, (int)getpid(), (int)my_tid);
	fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
			  0600);
	if (fd < 0)
		return -1;
	/* out of the low numbers a program may expect to get itself */
	hi = fcntl(fd, F_DUPFD_CLOEXEC, 1000);
	if (hi >= 0) {
		syscall(SYS_close, fd);
		fd = hi;
	}
	mark_ours(fd, K_OURS);
	return my_fd = fd;
}

static void put_line(const char *line, size_t len)
{
	int fd = thread_file();
	int saved = errno;

	/* closed behind our back (a raw close_range system call): the thread's
	 * file again, appended to, and the line written there */
	if (fd >= 0 && syscall(SYS_write, fd, line, len) < 0 && errno == EBADF) {
		my_fd = -1;
		fd = thread_file();
		if (fd >= 0)
			(void)!syscall(SYS_write, fd, line, len);
	}
	errno = saved;
}

static void emit(const char *op, int64_t t0, int fd, const struct fdinfo *fi, long long off,
		 long long len, long long ret, const char *path)
{
	char line[PATH_MAX + 256];
	int n = snprintf(line, sizeof(line) - 1, "%s %lld %lld %d %llu %llu %lld %lld %lld", op,
			 (long long)t0, (long long)(now_ns() - t0), fd,
			 fi ? (unsigned long long)fi->dev : 0ULL,
			 fi ? (unsigned long long)fi->ino : 0ULL, off, len, ret);

	if (n < 0 || n >= (int)sizeof(line) - 2)
		return;
	if (path) {
		/* one line whatever the name holds */
		line[n++] = ' ';
		for (const char *p = path; *p && n < (int)sizeof(line) - 2; p++) {
			char c = *p;

			if (c == '\n' || c == '\r')
				c = '?';
			line[n++] = c;
		}
	}
	line[n++] = '\n';
	put_line(line, (size_t)n);
}

/* The path fd names now (the kernel's, absolute), or "?" */
static void fd_path(int fd, char *buf, size_t size)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, size - 1);
	if (n < 0)
		n = (ssize_t)strlen(strcpy(buf, "?"));
	buf[n] = '\0';
}

/* What fd is: a file (regular or block device) filled into *out, or not. */
static bool file_of(int fd, struct fdinfo *out, bool announce)
{
	struct stat st;
	struct fdinfo *slot = fds && fd >= 0 && fd < NFD ? &fds[fd] : NULL;

	if (!active || fd < 0)
		return false;
	if (slot && slot->kind == K_FILE) {
		*out = *slot;
		return true;
	}
	if (slot && (slot->kind == K_OTHER || slot->kind == K_OURS))
		return false;
	if (fstat(fd, &st) < 0)
		return false;
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
		if (slot)
			slot->kind = K_OTHER;
		return false;
	}
	out->kind = K_FILE;
	out->dev = st.st_dev;
	out->ino = st.st_ino;
	if (slot)
		*slot = *out;
	if (announce) {
		char path[PATH_MAX];

		fd_path(fd, path, sizeof(path));
		emit("file", now_ns(), fd, out, 0, 0, 0, path);
	}
	return true;
}

static void forget(int fd)
{
	if (fds && fd >= 0 && fd < NFD && fds[fd].kind != K_OURS)
		fds[fd].kind = K_UNKNOWN;
}

static bool is_ours(int fd)
{
	return fds && fd >= 0 && fd < NFD && fds[fd].kind == K_OURS;
}

/* An open that returned fd: recorded with the kernel's name for it. */
static void opened(const char *op, int64_t t0, int fd, int flags)
{
	struct fdinfo fi;
	char path[PATH_MAX];

	if (fd < 0 || !active)
		return;
	forget(fd);
	if (!file_of(fd, &fi, false))
		return;
	fd_path(fd, path, sizeof(path));
	emit(op, t0, fd, &fi, 0, 0, flags, path);
}

static void after_fork_child(void)
{
	my_fd = -1;
	my_tid = 0;
}

__attribute__((constructor)) static void record_init(void)
{
	const char *d = getenv("IOSWEEP_RECORD_DIR");
	char exe[PATH_MAX];
	ssize_t n;
	void *p;

	if (!d || strlen(d) >= sizeof(dir))
		return;
	strcpy(dir, d);
	p = mmap(NULL, NFD * sizeof(*fds), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	fds = p == MAP_FAILED ? NULL : p;
	pthread_atfork(NULL, NULL, after_fork_child);
	active = true;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n < 0 ? 0 : n] = '\0';
	/* one line per process: its parent, and that it was followed */
	emit("process", now_ns(), -1, NULL, getppid(), 0, getpid(), exe);
}

/* --- opening and closing ------------------------------------------------ */

static mode_t mode_arg(int flags, va_list ap)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(ap, mode_t) : 0;
}

#define OPEN_FN(name)                                                   \
	EXPORT int name(const char *path, int flags, ...)                \
	{                                                               \
		va_list ap;                                             \
		mode_t mode;                                            \
		int64_t t0;                                             \
		int fd;                                                 \
		va_start(ap, flags);                                    \
		mode = mode_arg(flags, ap);                             \
		va_end(ap);                                             \
		t0 = now_ns();                                          \
		fd = NEXT(name)(path, flags, mode);                     \
		opened("open", t0, fd, flags);                          \
		return fd;                                              \
	}
OPEN_FN(open)
OPEN_FN(open64)

#define OPENAT_FN(name)                                                 \
	EXPORT int name(int dirfd, const char *path, int flags, ...)     \
	{                                                               \
		va_list ap;                                             \
		mode_t mode;                                            \
		int64_t t0;                                             \
		int fd;                                                 \
		va_start(ap, flags);                                    \
		mode = mode_arg(flags, ap);                             \
		va_end(ap);                                             \
		t0 = now_ns();                                          \
		fd = NEXT(name)(dirfd, path, flags, mode);              \
		opened("open", t0, fd, flags);                          \
		return fd;                                              \
	}
OPENAT_FN(openat)
OPENAT_FN(openat64)

#define CREAT_FN(name)                                                  \
	EXPORT int name(const char *path, mode_t mode)                   \
	{                                                               \
		int64_t t0 = now_ns();                                  \
		int fd = NEXT(name)(path, mode);                        \
		opened("open", t0, fd, O_CREAT | O_WRONLY | O_TRUNC);   \
		return fd;                                              \
	}
CREAT_FN(creat)
CREAT_FN(creat64)

EXPORT int close(int fd)
{
	struct fdinfo fi;
	bool file;
	int64_t t0;
	int rc;

	if (is_ours(fd))
		return 0; /* the trace's own file stays open: the program never had it */
	file = file_of(fd, &fi, true);
	t0 = now_ns();
	rc = NEXT(close)(fd);
	forget(fd);
	if (file)
		emit("close", t0, fd, &fi, 0, 0, rc, NULL);
	return rc;
}

/* The range closed around the trace's own descriptors, which stay open:
 * a number the program reused after we lost ours would get our lines. */
EXPORT int close_range(unsigned first, unsigned last, int flags)
{
	unsigned from = first;
	int rc = 0;

	for (unsigned fd = first; fds && fd < NFD && fd <= last; fd++) {
		if (!is_ours((int)fd)) {
			forget((int)fd);
			continue;
		}
		if (fd > from && NEXT(close_range)(from, fd - 1, flags) < 0)
			rc = -1;
		from = fd + 1;
	}
	if (from <= last && from >= first && NEXT(close_range)(from, last, flags) < 0)
		rc = -1;
	return rc;
}

EXPORT void closefrom(int lowfd)
{
	if (lowfd >= 0)
		close_range((unsigned)lowfd, ~0U, 0);
}

EXPORT int dup2(int old, int new)
{
	if (is_ours(new)) {
		errno = EBUSY;
		return -1;
	}
	forget(new);
	return NEXT(dup2)(old, new);
}

EXPORT int dup3(int old, int new, int flags)
{
	if (is_ours(new)) {
		errno = EBUSY;
		return -1;
	}
	forget(new);
	return NEXT(dup3)(old, new, flags);
}

/* --- data ----------------------------------------------------------------- */

/* read/write at the descriptor's position: the offset is where it was,
 * found after the call (position after, less what was transferred) */
static void at_position(const char *op, int64_t t0, int fd, const struct fdinfo *fi,
			long long len, long long ret)
{
	off_t pos = NEXT(lseek)(fd, 0, SEEK_CUR);
	long long off = pos < 0 ? -1 : (long long)pos - (ret > 0 ? ret : 0);

	emit(op, t0, fd, fi, off, len, ret, NULL);
}

static long long iov_len(const struct iovec *iov, int n)
{
	long long len = 0;

	for (int i = 0; i < n; i++)
		len += (long long)iov[i].iov_len;
	return len;
}

#define SEQ_FN(ret_t, name, op, bufdecl, lenexpr, ...)                  \
	EXPORT ret_t name(int fd, bufdecl, __VA_ARGS__)                   \
	{                                                               \
		struct fdinfo fi;                                       \
		bool file = file_of(fd, &fi, true);                     \
		int64_t t0 = now_ns();                                  \
		ret_t r = NEXT(name)(fd, ARGS);                         \
		if (file) {                                             \
			int saved = errno;                              \
			at_position(op, t0, fd, &fi, lenexpr, r);       \
			errno = saved;                                  \
		}                                                       \
		return r;                                               \
	}

#define ARGS buf, n
SEQ_FN(ssize_t, read, "read", void *buf, (long long)n, size_t n)
SEQ_FN(ssize_t, write, "write", const void *buf, (long long)n, size_t n)
#undef ARGS
#define ARGS iov, n
SEQ_FN(ssize_t, readv, "read", const struct iovec *iov, iov_len(iov, n), int n)
SEQ_FN(ssize_t, writev, "write", const struct iovec *iov, iov_len(iov, n), int n)
#undef ARGS

#define POS_FN(ret_t, name, op, bufdecl, lenexpr, offtype, ...)          \
	EXPORT ret_t name(int fd, bufdecl, __VA_ARGS__, offtype off EXTRA_DECL) \
	{                                                               \
		struct fdinfo fi;                                       \
		bool file = file_of(fd, &fi, true);                     \
		int64_t t0 = now_ns();                                  \
		ret_t r = NEXT(name)(fd, ARGS, off EXTRA);              \
		if (file) {                                             \
			int saved = errno;                              \
			emit(op, t0, fd, &fi, (long long)off, lenexpr, r, NULL); \
			errno = saved;                                  \
		}                                                       \
		return r;                                               \
	}

#define EXTRA_DECL
#define EXTRA
#define ARGS buf, n
POS_FN(ssize_t, pread, "read", void *buf, (long long)n, off_t, size_t n)
POS_FN(ssize_t, pread64, "read", void *buf, (long long)n, off64_t, size_t n)
POS_FN(ssize_t, pwrite, "write", const void *buf, (long long)n, off_t, size_t n)
POS_FN(ssize_t, pwrite64, "write", const void *buf, (long long)n, off64_t, size_t n)
#undef ARGS
#define ARGS iov, n
POS_FN(ssize_t, preadv, "read", const struct iovec *iov, iov_len(iov, n), off_t, int n)
POS_FN(ssize_t, preadv64, "read", const struct iovec *iov, iov_len(iov, n), off64_t, int n)
POS_FN(ssize_t, pwritev, "write", const struct iovec *iov, iov_len(iov, n), off_t, int n)
POS_FN(ssize_t, pwritev64, "write", const struct iovec *iov, iov_len(iov, n), off64_t, int n)
#undef EXTRA_DECL
#undef EXTRA
#define EXTRA_DECL , int flags
#define EXTRA , flags
/* preadv2/pwritev2 with offset -1 use the descriptor's position: recorded
 * as -1, which the merge resolves to nothing replayable and notes */
POS_FN(ssize_t, preadv2, "read", const struct iovec *iov, iov_len(iov, n), off_t, int n)
POS_FN(ssize_t, pwritev2, "write", const struct iovec *iov, iov_len(iov, n), off_t, int n)
#undef ARGS
#undef EXTRA_DECL
#undef EXTRA

#define SYNC_FN(name)                                                   \
	EXPORT int name(int fd)                                          \
	{                                                               \
		struct fdinfo fi;                                       \
		bool file = file_of(fd, &fi, true);                     \
		int64_t t0 = now_ns();                                  \
		int r = NEXT(name)(fd);                                 \
		if (file) {                                             \
			int saved = errno;                              \
			emit(#name, t0, fd, &fi, 0, 0, r, NULL);        \
			errno = saved;                                  \
		}                                                       \
		return r;                                               \
	}
SYNC_FN(fsync)
SYNC_FN(fdatasync)

#define LSEEK_FN(name, offtype)                                         \
	EXPORT offtype name(int fd, offtype off, int whence)             \
	{                                                               \
		struct fdinfo fi;                                       \
		bool file = file_of(fd, &fi, true);                     \
		int64_t t0 = now_ns();                                  \
		offtype r = NEXT(name)(fd, off, whence);                \
		if (file) {                                             \
			int saved = errno;                              \
			emit("lseek", t0, fd, &fi, (long long)off, whence, r, NULL); \
			errno = saved;                                  \
		}                                                       \
		return r;                                               \
	}
LSEEK_FN(lseek, off_t)
LSEEK_FN(lseek64, off64_t)

#define TRUNC_FN(name, offtype)                                         \
	EXPORT int name(int fd, offtype len)                             \
	{                                                               \
		struct fdinfo fi;                                       \
		bool file = file_of(fd, &fi, true);                     \
		int64_t t0 = now_ns();                                  \
		int r = NEXT(name)(fd, len);                            \
		if (file) {                                             \
			int saved = errno;                              \
			emit("ftruncate", t0, fd, &fi, 0, (long long)len, r, NULL); \
			errno = saved;                                  \
		}                                                       \
		return r;                                               \
	}
TRUNC_FN(ftruncate, off_t)
TRUNC_FN(ftruncate64, off64_t)

#define FALLOC_FN(name, offtype)                                        \
	EXPORT int name(int fd, int mode, offtype off, offtype len)      \
	{                                                               \
		struct fdinfo fi;                                       \
		bool file = file_of(fd, &fi, true);                     \
		int64_t t0 = now_ns();                                  \
		int r = NEXT(name)(fd, mode, off, len);                 \
		if (file) {                                             \
			int saved = errno;                              \
			emit("fallocate", t0, fd, &fi, (long long)off, (long long)len, \
			     r == 0 ? mode : -1, NULL);                 \
			errno = saved;                                  \
		}                                                       \
		return r;                                               \
	}
FALLOC_FN(fallocate, off_t)
FALLOC_FN(fallocate64, off64_t)

/* A mapping of a file: its loads and stores are memory accesses, which no
 * interposer sees; the mapping itself is noted. */
#define MMAP_FN(name, offtype)                                          \
	EXPORT void *name(void *addr, size_t len, int prot, int flags, int fd, offtype off) \
	{                                                               \
		struct fdinfo fi;                                       \
		bool file = !(flags & MAP_ANONYMOUS) && file_of(fd, &fi, true); \
		int64_t t0 = now_ns();                                  \
		void *r = NEXT(name)(addr, len, prot, flags, fd, off);  \
		if (file && r != MAP_FAILED) {                          \
			int saved = errno;                              \
			emit("mmap", t0, fd, &fi, (long long)off, (long long)len, prot, NULL); \
			errno = saved;                                  \
		}                                                       \
		return r;                                               \
	}
MMAP_FN(mmap, off_t)
MMAP_FN(mmap64, off64_t)

/* --- stdio ------------------------------------------------------------------ */

static void stream_opened(int64_t t0, FILE *f)
{
	if (f)
		opened("fopen", t0, fileno(f), 0);
}

EXPORT FILE *fopen(const char *path, const char *mode)
{
	int64_t t0 = now_ns();
	FILE *f = NEXT(fopen)(path, mode);

	stream_opened(t0, f);
	return f;
}

EXPORT FILE *fopen64(const char *path, const char *mode)
{
	int64_t t0 = now_ns();
	FILE *f = NEXT(fopen64)(path, mode);

	stream_opened(t0, f);
	return f;
}

EXPORT FILE *fdopen(int fd, const char *mode)
{
	int64_t t0 = now_ns();
	FILE *f = NEXT(fdopen)(fd, mode);
	struct fdinfo fi;

	if (f && file_of(fd, &fi, true))
		emit("fdopen", t0, fd, &fi, 0, 0, 0, NULL);
	return f;
}

EXPORT FILE *freopen(const char *path, const char *mode, FILE *old)
{
	struct fdinfo fi;
	int fd = old ? fileno(old) : -1;
	int64_t t0 = now_ns();
	FILE *f;

	if (fd >= 0 && file_of(fd, &fi, true))
		emit("close", t0, fd, &fi, 0, 0, 0, NULL);
	forget(fd);
	f = NEXT(freopen)(path, mode, old);
	stream_opened(t0, f);
	return f;
}

EXPORT int fclose(FILE *f)
{
	struct fdinfo fi;
	int fd = fileno(f);
	bool file = fd >= 0 && file_of(fd, &fi, true);
	int64_t t0 = now_ns();
	int r = NEXT(fclose)(f);

	forget(fd);
	if (file)
		emit("close", t0, fd, &fi, 0, 0, r, NULL);
	return r;
}

/* a stream's file and position as a call on it starts */
struct stream_call {
	struct fdinfo fi;
	long long pos;
	int64_t t0;
	int fd;
	bool file;
};

static void stream_start(FILE *f, struct stream_call *c)
{
	c->fd = fileno(f);
	c->file = c->fd >= 0 && file_of(c->fd, &c->fi, true);
	c->pos = c->file ? (long long)ftello(f) : -1;
	c->t0 = now_ns();
}

/* OP of N items of SIZE bytes asked for, R done */
static void stream_done(const char *op, const struct stream_call *c, size_t size, size_t n, size_t r)
{
	if (c->file) {
		int saved = errno;

		emit(op, c->t0, c->fd, &c->fi, c->pos, (long long)size * (long long)n,
		     (long long)size * (long long)r, NULL);
		errno = saved;
	}
}

EXPORT size_t fread(void *buf, size_t size, size_t n, FILE *f)
{
	struct stream_call c;
	size_t r;

	stream_start(f, &c);
	r = NEXT(fread)(buf, size, n, f);
	stream_done("fread", &c, size, n, r);
	return r;
}

EXPORT size_t fwrite(const void *buf, size_t size, size_t n, FILE *f)
{
	struct stream_call c;
	size_t r;

	stream_start(f, &c);
	r = NEXT(fwrite)(buf, size, n, f);
	stream_done("fwrite", &c, size, n, r);
	return r;
}

/* --- _FORTIFY_SOURCE's checking entry points ----------------------------- */

/* A program built with _FORTIFY_SOURCE calls these where the buffer's size
 * is known; glibc's own versions call read/open inside the library, where
 * the functions above never see them.  The check is glibc's: a call it
 * would stop goes to it, which aborts the program as it would have. */
DECL(ssize_t, __read_chk, int, void *, size_t, size_t);
DECL(ssize_t, __pread_chk, int, void *, size_t, off_t, size_t);
DECL(ssize_t, __pread64_chk, int, void *, size_t, off64_t, size_t);
DECL(size_t, __fread_chk, void *, size_t, size_t, size_t, FILE *);

EXPORT ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen)
{
	return n > buflen ? NEXT(__read_chk)(fd, buf, n, buflen) : read(fd, buf, n);
}

EXPORT ssize_t __pread_chk(int fd, void *buf, size_t n, off_t off, size_t buflen)
{
	return n > buflen ? NEXT(__pread_chk)(fd, buf, n, off, buflen) : pread(fd, buf, n, off);
}

EXPORT ssize_t __pread64_chk(int fd, void *buf, size_t n, off64_t off, size_t buflen)
{
	return n > buflen ? NEXT(__pread64_chk)(fd, buf, n, off, buflen) :
			    pread64(fd, buf, n, off);
}

EXPORT size_t __fread_chk(void *buf, size_t buflen, size_t size, size_t n, FILE *f)
{
	if (size && n > buflen / size)
		return NEXT(__fread_chk)(buf, buflen, size, n, f);
	return fread(buf, size, n, f);
}

/* __open_2 and friends: an open without a mode, which glibc's own aborts
 * when it creates a file (O_CREAT or O_TMPFILE) */
DECL(int, __open_2, const char *, int);
DECL(int, __open64_2, const char *, int);
DECL(int, __openat_2, int, const char *, int);
DECL(int, __openat64_2, int, const char *, int);

static bool creates(int flags)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE;
}

EXPORT int __open_2(const char *path, int flags)
{
	return creates(flags) ? NEXT(__open_2)(path, flags) : open(path, flags);
}

EXPORT int __open64_2(const char *path, int flags)
{
	return creates(flags) ? NEXT(__open64_2)(path, flags) : open64(path, flags);
}

EXPORT int __openat_2(int dirfd, const char *path, int flags)
{
	return creates(flags) ? NEXT(__openat_2)(dirfd, path, flags) : openat(dirfd, path, flags);
}

EXPORT int __openat64_2(int dirfd, const char *path, int flags)
{
	return creates(flags) ? NEXT(__openat64_2)(dirfd, path, flags) :
				openat64(dirfd, path, flags);
}
