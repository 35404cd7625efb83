/*
 * eio_shim.c - an LD_PRELOAD library that makes reads of one file fail with
 * EIO at one offset, as a failing disk would, for tests/cli/faults.bats.
 *
 *   IOSWEEP_EIO_FILE=PATH IOSWEEP_EIO_OFFSET=BYTES LD_PRELOAD=eio_shim.so iosweep run ...
 *
 * pread(), pread64() and preadv2() (engine=sync, psync2) of a descriptor
 * open on PATH (same device and inode) whose range covers byte BYTES return
 * -1 with errno EIO; io_getevents() (engine=aio) reports such a read done
 * with res -EIO, after the kernel read it; so does io_uring_peek_batch_cqe()
 * (engine=uring) for a read that io_uring_submit() handed over (registered
 * files mapped back through io_uring_register_files()).  Every other call
 * goes to the libraries.  mmap's reads are page faults: out of reach.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#include <libaio.h>
#include <liburing.h>

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

ssize_t preadv2(int fd, const struct iovec *iov, int n, off_t off, int flags)
{
	ssize_t (*real)(int, const struct iovec *, int, off_t, int) =
		(ssize_t (*)(int, const struct iovec *, int, off_t, int))dlsym(RTLD_NEXT, "preadv2");
	size_t len = 0;

	for (int i = 0; i < n; i++)
		len += iov[i].iov_len;
	if (hits_fault(fd, len, off)) {
		errno = EIO;
		return -1;
	}
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	return real(fd, iov, n, off, flags);
}

int io_getevents(io_context_t ctx, long min, long nr, struct io_event *events,
		 struct timespec *timeout)
{
	int (*real)(io_context_t, long, long, struct io_event *, struct timespec *) =
		(int (*)(io_context_t, long, long, struct io_event *, struct timespec *))dlsym(
			RTLD_NEXT, "io_getevents");
	int got;

	if (!real)
		return -ENOSYS;
	got = real(ctx, min, nr, events, timeout);
	for (int i = 0; i < got; i++) {
		struct iocb *cb = events[i].obj;

		if (cb->aio_lio_opcode == IO_CMD_PREAD &&
		    hits_fault(cb->aio_fildes, cb->u.c.nbytes, (off_t)cb->u.c.offset))
			events[i].res = (unsigned long)-EIO;
	}
	return got;
}

/* uring: the reads handed over that must fail, by user_data; the registered files */
static __u64 doomed[64];
static unsigned ndoomed;
static int fixed_fds[64];
static unsigned nfixed;

int io_uring_register_files(struct io_uring *ring, const int *files, unsigned n)
{
	int (*real)(struct io_uring *, const int *, unsigned) =
		(int (*)(struct io_uring *, const int *, unsigned))dlsym(RTLD_NEXT,
									 "io_uring_register_files");

	nfixed = n < 64 ? n : 64;
	for (unsigned i = 0; i < nfixed; i++)
		fixed_fds[i] = files[i];
	return real ? real(ring, files, n) : -ENOSYS;
}

int io_uring_submit(struct io_uring *ring)
{
	int (*real)(struct io_uring *) = (int (*)(struct io_uring *))dlsym(RTLD_NEXT,
									    "io_uring_submit");
	struct io_uring_sq *sq = &ring->sq;

	for (unsigned i = sq->sqe_head; i != sq->sqe_tail; i++) {
		const struct io_uring_sqe *sqe = &sq->sqes[i & sq->ring_mask];
		int fd = sqe->fd;

		if (sqe->opcode != IORING_OP_READ && sqe->opcode != IORING_OP_READ_FIXED)
			continue;
		if (sqe->flags & IOSQE_FIXED_FILE)
			fd = fd >= 0 && (unsigned)fd < nfixed ? fixed_fds[fd] : -1;
		if (fd >= 0 && hits_fault(fd, sqe->len, (off_t)sqe->off) && ndoomed < 64)
			doomed[ndoomed++] = sqe->user_data;
	}
	return real ? real(ring) : -ENOSYS;
}

unsigned io_uring_peek_batch_cqe(struct io_uring *ring, struct io_uring_cqe **cqes, unsigned count)
{
	unsigned (*real)(struct io_uring *, struct io_uring_cqe **, unsigned) =
		(unsigned (*)(struct io_uring *, struct io_uring_cqe **, unsigned))dlsym(
			RTLD_NEXT, "io_uring_peek_batch_cqe");
	unsigned got = real ? real(ring, cqes, count) : 0;

	for (unsigned i = 0; i < got; i++)
		for (unsigned k = 0; k < ndoomed; k++)
			if (cqes[i]->user_data == doomed[k]) {
				cqes[i]->res = -EIO;
				doomed[k] = doomed[--ndoomed];
				break;
			}
	return got;
}
