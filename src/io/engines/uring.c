/*
 * uring.c - io_uring (liburing) with up to iodepth units in flight.
 *
 * queue() fills an SQE for the unit (user_data: the unit's number);
 * commit() is io_uring_submit (the core commits after every queue, so each
 * unit goes to the kernel as soon as it is prepared: a whole batch at once
 * made a virtio disk run the queue in lock-step, 17% fewer IOPS at iodepth
 * 32, bench/README.md; fio's default does the same); reap() waits for the
 * core's minimum with io_uring_wait_cqe_nr and takes every CQE that is
 * there with io_uring_peek_batch_cqe, released at the next reap with one
 * io_uring_cq_advance.  The ring is created once per worker and lives for
 * the whole run.
 *
 * Options (fio's names): fixedbufs=1 registers the units' buffers and uses
 * READ_FIXED/WRITE_FIXED; registerfiles=1 registers the file and uses
 * IOSQE_FIXED_FILE; sqthread_poll=1 lets a kernel thread poll the SQ, so
 * submitting makes no system call while it is awake (IORING_SETUP_SQPOLL);
 * hipri=1 polls for completions instead of waiting for interrupts
 * (IORING_SETUP_IOPOLL), which needs O_DIRECT (cache=direct) and a device
 * with poll queues: elsewhere the reads fail with the kernel's error
 * (EOPNOTSUPP), which is reported, never hidden.
 *
 * A flush unit (sync_mode=inflight) is IORING_OP_FSYNC (IORING_FSYNC_DATASYNC
 * for fdatasync), queued with the units in flight and unordered with them,
 * as fio's fsync=N on io_uring.
 *
 * Caveats: buffered reads that miss the page cache are punted to io-wq
 * kernel threads, which compete with the workers for CPUs (so does the
 * SQPOLL thread).  io_uring may be disabled (kernel.io_uring_disabled,
 * seccomp): setup then fails with the kernel's error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "io/engines/engine.h"
#include "lib/error.h"

struct uring_state {
	struct io_uring ring;
	struct io_uring_cqe **cqes; /* iodepth */
	unsigned nseen;             /* CQEs handed out by the last reap, to release */
	unsigned nqueued;           /* SQEs filled since the last submit */
	bool fixedbufs, fixedfile, sqpoll, iopoll;
};

/* The ring's flags for the job's knobs; -1 with err when they cannot be
 * had together. */
static int uring_flags(const struct io_engine *e, struct uring_state *s, unsigned *flags,
		       char *err)
{
	*flags = 0;
	if (e->knobs & KNOB(KNOB_HIPRI)) {
		if (!e->direct)
			return err_set(err, "uring: hipri=1 polls for completions of O_DIRECT "
					    "I/O only: use cache=direct");
		*flags |= IORING_SETUP_IOPOLL;
		s->iopoll = true;
	}
	if (e->knobs & KNOB(KNOB_SQTHREAD_POLL)) {
		*flags |= IORING_SETUP_SQPOLL;
		s->sqpoll = true;
	}
	return 0;
}

/* Registers the buffers and the file the knobs ask for; -1 with err. */
static int uring_register(struct io_engine *e, struct uring_state *s, char *err)
{
	int ret = 0;

	if (e->knobs & KNOB(KNOB_FIXEDBUFS)) {
		struct iovec iov = { .iov_base = e->bufs, .iov_len = e->bufs_len };

		ret = io_uring_register_buffers(&s->ring, &iov, 1);
		s->fixedbufs = true;
		if (ret < 0)
			return err_set(err, "uring: io_uring_register_buffers: %s", strerror(-ret));
	}
	if (e->knobs & KNOB(KNOB_REGISTERFILES)) {
		ret = io_uring_register_files(&s->ring, &e->fd, 1);
		s->fixedfile = true;
		if (ret < 0)
			return err_set(err, "uring: io_uring_register_files: %s", strerror(-ret));
	}
	return 0;
}

static int uring_setup(struct io_engine *e, char *err)
{
	struct uring_state *s = calloc(1, sizeof(*s));
	unsigned flags;
	bool ring = false;
	int ret;

	if (!s || !(s->cqes = calloc(e->iodepth, sizeof(*s->cqes)))) {
		err_set(err, "uring: out of memory");
		goto fail;
	}
	if (uring_flags(e, s, &flags, err) < 0)
		goto fail;
	ret = io_uring_queue_init(e->iodepth, &s->ring, flags);
	if (ret < 0) {
		err_set(err, "uring: io_uring_queue_init(%u): %s", e->iodepth, strerror(-ret));
		goto fail;
	}
	ring = true;
	if (uring_register(e, s, err) < 0)
		goto fail;
	e->priv = s;
	return 0;
fail:
	/* one way out: what was set up is let go in the reverse order */
	if (ring)
		io_uring_queue_exit(&s->ring);
	if (s)
		free(s->cqes);
	free(s);
	return -1;
}

static void uring_teardown(struct io_engine *e)
{
	struct uring_state *s = e->priv;

	/* also releases registered buffers and files */
	io_uring_queue_exit(&s->ring);
	free(s->cqes);
	free(s);
	e->priv = NULL;
}

/* The SQ cannot be full: it has iodepth entries and the core has at most
 * iodepth units queued or in flight (with SQPOLL, once the kernel thread
 * has released them); if it ever is, reap first. */
static enum io_queued uring_queue(struct io_engine *e, struct io_unit *u)
{
	struct uring_state *s = e->priv;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&s->ring);
	int fd = s->fixedfile ? 0 : u->flush ? e->fd : u->fd;
	unsigned len = (unsigned)io_unit_left(u);

	/* a SQPOLL thread may post completions before it releases their SQEs */
	if (!sqe && s->sqpoll && io_uring_sqring_wait(&s->ring) >= 0)
		sqe = io_uring_get_sqe(&s->ring);
	if (!sqe)
		return IO_BUSY;
	if (u->flush)
		io_uring_prep_fsync(sqe, fd, e->datasync ? IORING_FSYNC_DATASYNC : 0);
	else if (s->fixedbufs && u->dir == IO_WRITE)
		io_uring_prep_write_fixed(sqe, fd, io_unit_buf(u), len, io_unit_off(u), 0);
	else if (s->fixedbufs)
		io_uring_prep_read_fixed(sqe, fd, io_unit_buf(u), len, io_unit_off(u), 0);
	else if (u->dir == IO_WRITE)
		io_uring_prep_write(sqe, fd, io_unit_buf(u), len, io_unit_off(u));
	else
		io_uring_prep_read(sqe, fd, io_unit_buf(u), len, io_unit_off(u));
	if (s->fixedfile)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data64(sqe, u->idx);
	s->nqueued++;
	return IO_QUEUED;
}

static int uring_commit(struct io_engine *e)
{
	struct uring_state *s = e->priv;
	int ret = io_uring_submit(&s->ring);

	if (ret == -EBUSY)
		ret = -EAGAIN; /* out of resources: wait for what the kernel has */
	if (ret < 0) {
		e->what = "io_uring_submit";
		return ret;
	}
	/* with SQPOLL, submit counts every SQE the kernel thread has not taken
	 * yet, earlier ones included; all that are in the ring will be taken */
	if (s->sqpoll || (unsigned)ret > s->nqueued)
		ret = (int)s->nqueued;
	s->nqueued -= (unsigned)ret;
	return ret;
}

static int uring_reap(struct io_engine *e, unsigned min)
{
	struct uring_state *s = e->priv;
	struct io_uring_cqe *cqe;
	int ret;

	io_uring_cq_advance(&s->ring, s->nseen);
	s->nseen = 0;
	ret = io_uring_wait_cqe_nr(&s->ring, &cqe, min);
	if (ret < 0) {
		e->what = "io_uring_wait_cqe";
		return ret;
	}
	s->nseen = io_uring_peek_batch_cqe(&s->ring, s->cqes, e->iodepth);
	return (int)s->nseen;
}

static struct io_unit *uring_event(struct io_engine *e, unsigned i)
{
	struct uring_state *s = e->priv;
	struct io_unit *u = &e->units[io_uring_cqe_get_data64(s->cqes[i])];

	u->res = s->cqes[i]->res;
	/* a device without poll queues refuses polled I/O: say which option asked */
	if (s->iopoll && u->res == -EOPNOTSUPP)
		u->what = u->dir == IO_WRITE ? "hipri=1 (polled) write" : "hipri=1 (polled) read";
	return u;
}

/* A worker's state as uring_setup() allocates it, and the rings
 * io_uring_queue_init(n) has the kernel allocate and map: n rounded up to
 * a power of two SQEs (64 bytes each), twice as many CQEs (16 bytes) with
 * an index per SQE (4 bytes) after the rings' heads (under 512 bytes), in
 * whole pages. */
static uint64_t uring_state_bytes(const struct io_engine *shape)
{
	uint64_t sq = 1;

	while (sq < shape->iodepth)
		sq *= 2;
	return sizeof(struct uring_state) + shape->iodepth * sizeof(struct io_uring_cqe *) +
	       io_round_up(sq * sizeof(struct io_uring_sqe), 4095) +
	       io_round_up(512 + 2 * sq * sizeof(struct io_uring_cqe) + sq * 4, 4095);
}

const struct engine_ops engine_uring = {
	.name = "uring",
	.flags = ENGINE_QUEUED | ENGINE_DIRECT | ENGINE_HIPRI_DIRECT | ENGINE_FLUSH_QUEUED,
	.knobs = KNOB(KNOB_FIXEDBUFS) | KNOB(KNOB_REGISTERFILES) |
		   KNOB(KNOB_SQTHREAD_POLL) | KNOB(KNOB_HIPRI),
	.help = "io_uring (liburing), iodepth reads or writes in flight",
	.setup = uring_setup,
	.queue = uring_queue,
	.commit = uring_commit,
	.reap = uring_reap,
	.event = uring_event,
	.teardown = uring_teardown,
	.state_bytes = uring_state_bytes,
};
