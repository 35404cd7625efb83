/*
 * aio.c - Linux native AIO (libaio): io_submit/io_getevents with up
 * to iodepth units in flight.
 *
 * Unit k owns iocb k.  queue() prepares the iocb and keeps it pending;
 * commit() hands the pending iocbs to io_submit (the core commits after
 * every queue, so each goes to the kernel as soon as it is prepared:
 * handing the device a whole batch at once made a virtio disk run the queue
 * in lock-step, idle while the next batch was prepared, 18% fewer IOPS at
 * iodepth 32, bench/README.md; fio's default, iodepth_batch_submit=1, does
 * the same).  -EAGAIN keeps the rest pending for after the next reap.
 * reap() is io_getevents for at least the core's minimum.
 *
 * The context is created once per worker and lives for the whole run:
 * io_destroy takes tens of milliseconds (it waits for an RCU grace
 * period), which per repeat cost more than a short repeat measures.
 *
 * A flush unit (sync_mode=inflight) is IOCB_CMD_FSYNC or IOCB_CMD_FDSYNC,
 * submitted like the others while they are in flight (Linux 4.18 and
 * later: older kernels refuse it with EINVAL, which is reported).
 *
 * Caveat: io_submit only queues asynchronously with O_DIRECT.  On a
 * buffered file it copies the data before returning, so buffered runs are
 * effectively synchronous (see .note).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/engines/engine.h"
#include "lib/error.h"

struct aio_state {
	io_context_t ctx;
	struct iocb *iocbs;       /* iodepth; iocb k is unit k's */
	struct iocb **pend;       /* prepared, not yet accepted by io_submit */
	struct io_event *events;  /* iodepth */
	unsigned npend;
};

static void aio_free_state(struct aio_state *s)
{
	free(s->iocbs);
	free(s->pend);
	free(s->events);
	free(s);
}

static int aio_setup(struct io_engine *e, char *err)
{
	unsigned n = e->iodepth;
	struct aio_state *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return err_set(err, "aio: out of memory");
	s->iocbs = calloc(n, sizeof(*s->iocbs));
	s->pend = calloc(n, sizeof(*s->pend));
	s->events = calloc(n, sizeof(*s->events));
	if (!s->iocbs || !s->pend || !s->events) {
		aio_free_state(s);
		return err_set(err, "aio: out of memory");
	}
	ret = io_setup((int)n, &s->ctx);
	if (ret < 0) {
		aio_free_state(s);
		return err_set(err, "aio: io_setup(%u): %s%s", n, strerror(-ret),
			       ret == -EAGAIN ? " (raise fs.aio-max-nr?)" : "");
	}
	e->priv = s;
	return 0;
}

static void aio_teardown(struct io_engine *e)
{
	struct aio_state *s = e->priv;

	/* io_destroy waits for anything still in flight; teardown cannot report */
	(void)io_destroy(s->ctx);
	aio_free_state(s);
	e->priv = NULL;
}

static enum io_queued aio_queue(struct io_engine *e, struct io_unit *u)
{
	struct aio_state *s = e->priv;
	struct iocb *cb = &s->iocbs[u->idx];

	if (u->flush && e->datasync)
		io_prep_fdsync(cb, e->fd);
	else if (u->flush)
		io_prep_fsync(cb, e->fd);
	else if (u->dir == IO_WRITE)
		io_prep_pwrite(cb, u->fd, io_unit_buf(u), (size_t)io_unit_left(u),
			       (long long)io_unit_off(u));
	else
		io_prep_pread(cb, u->fd, io_unit_buf(u), (size_t)io_unit_left(u),
			      (long long)io_unit_off(u));
	cb->data = u;
	s->pend[s->npend++] = cb;
	return IO_QUEUED;
}

static int aio_commit(struct io_engine *e)
{
	struct aio_state *s = e->priv;
	int ret = io_submit(s->ctx, (long)s->npend, s->pend);

	if (ret > 0) {
		/* keep what it did not take at the front */
		s->npend -= (unsigned)ret;
		memmove(s->pend, s->pend + ret, s->npend * sizeof(*s->pend));
	} else {
		e->what = "io_submit";
	}
	return ret;
}

static int aio_reap(struct io_engine *e, unsigned min)
{
	struct aio_state *s = e->priv;
	int n = io_getevents(s->ctx, (long)min, (long)e->iodepth, s->events, NULL);

	if (n < 0)
		e->what = "io_getevents";
	return n;
}

static struct io_unit *aio_event(struct io_engine *e, unsigned i)
{
	struct aio_state *s = e->priv;
	struct io_unit *u = s->events[i].data;

	u->res = (long)s->events[i].res;
	return u;
}

/* A worker's state as aio_setup() allocates it, and the completion ring
 * io_setup(n) maps into the process: the kernel (fs/aio.c) gives the ring
 * at least 4 events per CPU, doubles that and adds 2, after a 32-byte
 * header, in whole pages. */
static uint64_t aio_state_bytes(const struct io_engine *shape)
{
	/* asked once: sysconf reads /sys, and a plan asks this for every run */
	static uint64_t cpus_conf;
	uint64_t n = shape->iodepth, cpus = __atomic_load_n(&cpus_conf, __ATOMIC_RELAXED);
	uint64_t events;

	if (!cpus) {
		long conf = sysconf(_SC_NPROCESSORS_CONF);

		cpus = conf > 0 ? (uint64_t)conf : 1;
		__atomic_store_n(&cpus_conf, cpus, __ATOMIC_RELAXED);
	}
	events = 2 * (n > 4 * cpus ? n : 4 * cpus) + 2;

	return sizeof(struct aio_state) +
	       n * (sizeof(struct iocb) + sizeof(struct iocb *) + sizeof(struct io_event)) +
	       io_round_up(32 + events * sizeof(struct io_event), 4095);
}

const struct engine_ops engine_aio = {
	.name = "aio",
	.flags = ENGINE_QUEUED | ENGINE_DIRECT | ENGINE_FLUSH_QUEUED,
	.help = "Linux native AIO (libaio), iodepth reads or writes in flight",
	.note = "libaio blocks in io_submit without O_DIRECT "
		"(cache=direct): buffered runs are synchronous",
	.setup = aio_setup,
	.queue = aio_queue,
	.commit = aio_commit,
	.reap = aio_reap,
	.event = aio_event,
	.teardown = aio_teardown,
	.state_bytes = aio_state_bytes,
};
