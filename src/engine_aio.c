/*
 * engine_aio.c - Linux native AIO (libaio): io_submit/io_getevents with up
 * to iodepth reads in flight.
 *
 * Slot k owns iocb k and buffer w->buf + k * bs.  Every free slot is
 * filled, and each read goes to the kernel in an io_submit of its own as
 * soon as it is prepared (-EAGAIN keeps it for after the next reap, -EINTR
 * retries).  Handing the device a whole batch at once made a virtio disk
 * run the queue in lock-step, idle while the next batch was prepared: 18%
 * fewer IOPS at iodepth 32 (bench/README.md); fio's default,
 * iodepth_batch_submit=1, submits one at a time too.  io_getevents then
 * waits for a minimum batch: 1 while at most iodepth/4 reads are in flight,
 * otherwise iodepth/4, so that reaping costs about one call per quarter of
 * the queue.  The completion time is taken once per reaped batch, so a read
 * that finished early in a batch is charged until the batch is reaped (at
 * most the time for iodepth/4 reads).
 *
 * Short reads, errors and stopping are handled by slots.c, as for uring:
 * after an error, or once worker_complete() says stop, nothing new is
 * issued, the reads in flight are waited for and their results dropped.
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

#include "engine.h"
#include "error.h"
#include "slots.h"

struct aio_state {
	io_context_t ctx;
	struct slots q;
	struct iocb *iocbs;       /* iodepth; iocb k reads into slot k */
	struct iocb **pend;       /* iocbs prepared, not yet accepted by io_submit */
	struct io_event *events;  /* iodepth */
	unsigned npend, pend_head, inflight, min_batch;
	bool started;
};

static void aio_free_state(struct aio_state *s)
{
	slots_free(&s->q);
	free(s->iocbs);
	free(s->pend);
	free(s->events);
	free(s);
}

static int aio_setup(struct worker *w, char *err)
{
	unsigned n = w->iodepth;
	struct aio_state *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return err_set(err, "aio: out of memory");
	s->iocbs = calloc(n, sizeof(*s->iocbs));
	s->pend = calloc(n, sizeof(*s->pend));
	s->events = calloc(n, sizeof(*s->events));
	if (slots_init(&s->q, n) < 0 || !s->iocbs || !s->pend || !s->events) {
		aio_free_state(s);
		return err_set(err, n ? "aio: out of memory" : "aio: iodepth must be at least 1");
	}
	ret = io_setup((int)n, &s->ctx);
	if (ret < 0) {
		aio_free_state(s);
		return err_set(err, "aio: io_setup(%u): %s%s", n, strerror(-ret),
			       ret == -EAGAIN ? " (raise fs.aio-max-nr?)" : "");
	}
	s->min_batch = n / 4 ? n / 4 : 1;
	w->priv = s;
	return 0;
}

static void aio_teardown(struct worker *w)
{
	struct aio_state *s = w->priv;

	/* io_destroy waits for anything still in flight; teardown cannot report */
	(void)io_destroy(s->ctx);
	aio_free_state(s);
	w->priv = NULL;
}

static int aio_submit(struct worker *w, struct aio_state *s);

/* Prepares remainders first, then new reads into every free slot, and
 * submits each one as soon as it is prepared. */
static void aio_fill(struct worker *w, struct aio_state *s)
{
	int k;

	while ((k = slots_next(&s->q, w)) >= 0) {
		struct slot *sl = &s->q.slot[k];
		struct iocb *cb = &s->iocbs[k];

		io_prep_pread(cb, w->fd, slot_dest(w, &s->q, (unsigned)k),
			      (size_t)(sl->want - sl->done), (long long)(sl->off + sl->done));
		cb->data = sl;
		s->pend[s->npend++] = cb;
		if (aio_submit(w, s) < 0)
			return;
	}
}

/* Stamps the not yet issued reads of pend[head..npend) with t. */
static void aio_stamp(struct aio_state *s, uint64_t t)
{
	for (unsigned i = s->pend_head; i < s->npend; i++) {
		struct slot *sl = s->pend[i]->data;

		if (!sl->done)
			sl->t_issue = t;
	}
}

/* Hands pend[] to the kernel.  0 when all went (or -EAGAIN with reads in
 * flight: reap first, the rest goes on the next call), -1 on an error. */
static int aio_submit(struct worker *w, struct aio_state *s)
{
	while (s->pend_head < s->npend) {
		uint64_t t = now_ns();
		int ret;

		if (!s->started) {
			w->t_first_ns = t;
			s->started = true;
		}
		aio_stamp(s, t);
		ret = io_submit(s->ctx, (long)(s->npend - s->pend_head), s->pend + s->pend_head);
		if (ret > 0) {
			s->pend_head += (unsigned)ret;
			s->inflight += (unsigned)ret;
		} else if (ret == -EAGAIN && s->inflight) {
			/* keep the rest at the front: freed slots are added after it */
			s->npend -= s->pend_head;
			memmove(s->pend, s->pend + s->pend_head, s->npend * sizeof(*s->pend));
			s->pend_head = 0;
			return 0;
		} else if (ret != -EINTR) {
			struct slot *sl = s->pend[s->pend_head]->data;

			slots_fail(&s->q, w, ret ? -ret : EIO, sl->off + sl->done, "io_submit");
			return -1;
		}
	}
	s->npend = s->pend_head = 0;
	return 0;
}

/* Waits for at least min_nr completions and handles all that are there. */
static int aio_reap(struct worker *w, struct aio_state *s, unsigned min_nr)
{
	uint64_t t;
	int n;

	do
		n = io_getevents(s->ctx, (long)min_nr, (long)w->iodepth, s->events, NULL);
	while (n == -EINTR);
	if (n < 0) {
		/* the reads in flight cannot be waited for here: io_destroy will */
		s->inflight = 0;
		slots_fail(&s->q, w, -n, 0, "io_getevents");
		return -1;
	}
	t = now_ns();
	s->inflight -= (unsigned)n;
	for (int i = 0; i < n; i++) {
		const struct slot *sl = s->events[i].data;

		if (!slots_complete(&s->q, w, (unsigned)(sl - s->q.slot), (long)s->events[i].res, t))
			s->q.stopping = true;
	}
	return 0;
}

static int aio_run(struct worker *w)
{
	struct aio_state *s = w->priv;

	slots_reset(&s->q);
	s->npend = s->pend_head = s->inflight = 0;
	s->started = false;
	w->t_first_ns = now_ns(); /* moved to the first io_submit, if any */
	while (!s->q.stopping) {
		aio_fill(w, s);
		if (s->q.failed || aio_submit(w, s) < 0 || (!s->inflight && !s->npend))
			break;
		if (aio_reap(w, s, s->inflight > s->min_batch ? s->min_batch : 1) < 0)
			break;
	}
	/* drain: reads in flight still write into w->buf */
	while (s->inflight)
		if (aio_reap(w, s, s->inflight) < 0)
			break;
	return s->q.failed ? -1 : 0;
}

const struct engine_ops engine_aio = {
	.name = "aio",
	.flags = ENGINE_QUEUED | ENGINE_DIRECT,
	.note = "libaio blocks in io_submit unless the file is opened O_DIRECT "
		"(cache=direct): buffered runs are effectively synchronous",
	.setup = aio_setup,
	.run = aio_run,
	.teardown = aio_teardown,
};
