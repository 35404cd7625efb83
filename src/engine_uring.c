/*
 * engine_uring.c - io_uring (liburing) with up to iodepth reads in flight.
 *
 * Slot k owns buffer w->buf + k * bs and its reads carry user_data k.
 * Every free slot gets an SQE, each submitted on its own as soon as it is
 * prepared (a whole batch at once made a virtio disk run the queue in
 * lock-step: 17% fewer IOPS at iodepth 32, see bench/README.md; fio's
 * default does the same), then io_uring_submit_and_wait() waits for a
 * minimum batch of completions: 1 while at most iodepth/4 reads are in
 * flight, otherwise iodepth/4.  All available CQEs are then taken with
 * io_uring_peek_batch_cqe() and released with one io_uring_cq_advance().
 * The completion time is taken once per reaped batch, so a read that
 * finished early in a batch is charged until the batch is reaped.
 *
 * Short reads, errors and stopping are handled by slots.c, as for aio:
 * after an error, or once worker_complete() says stop, nothing new is
 * issued, the reads in flight are waited for and their results dropped.
 *
 * Caveats: the ring has no SQPOLL or registered buffers/files, so this
 * measures plain io_uring reads.  Buffered reads that miss the page cache
 * are punted to io-wq kernel threads, which compete with the workers for
 * CPUs.  io_uring may be disabled (kernel.io_uring_disabled, seccomp): setup
 * then fails with the kernel's error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "error.h"
#include "slots.h"

struct uring_state {
	struct io_uring ring;
	struct slots q;
	struct io_uring_cqe **cqes; /* iodepth */
	unsigned *fresh;            /* slots prepared since the last submit */
	unsigned nfresh, inflight, min_batch;
	bool started;
};

static void uring_free_state(struct uring_state *s)
{
	slots_free(&s->q);
	free(s->cqes);
	free(s->fresh);
	free(s);
}

static int uring_setup(struct worker *w, char *err)
{
	unsigned n = w->iodepth;
	struct uring_state *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return err_set(err, "uring: out of memory");
	s->cqes = calloc(n, sizeof(*s->cqes));
	s->fresh = calloc(n, sizeof(*s->fresh));
	if (slots_init(&s->q, n) < 0 || !s->cqes || !s->fresh) {
		uring_free_state(s);
		return err_set(err, n ? "uring: out of memory" : "uring: iodepth must be at least 1");
	}
	ret = io_uring_queue_init(n, &s->ring, 0);
	if (ret < 0) {
		uring_free_state(s);
		return err_set(err, "uring: io_uring_queue_init(%u): %s", n, strerror(-ret));
	}
	s->min_batch = n / 4 ? n / 4 : 1;
	w->priv = s;
	return 0;
}

static void uring_teardown(struct worker *w)
{
	struct uring_state *s = w->priv;

	io_uring_queue_exit(&s->ring);
	uring_free_state(s);
	w->priv = NULL;
}

/* Queues an SQE for what is left of slot k's read.  The SQ cannot be full:
 * at most iodepth SQEs are queued at a time and it has iodepth entries. */
static bool uring_prep(struct worker *w, struct uring_state *s, unsigned k)
{
	struct slot *sl = &s->q.slot[k];
	struct io_uring_sqe *sqe = io_uring_get_sqe(&s->ring);

	if (!sqe) {
		s->q.free[s->q.nfree++] = k;
		return slots_fail(&s->q, w, EBUSY, sl->off + sl->done, "io_uring_get_sqe");
	}
	io_uring_prep_read(sqe, w->fd, slot_dest(w, &s->q, k), (unsigned)(sl->want - sl->done),
			   sl->off + sl->done);
	io_uring_sqe_set_data64(sqe, k);
	if (!sl->done)
		s->fresh[s->nfresh++] = k;
	s->inflight++;
	return true;
}

static int uring_submit_wait(struct worker *w, struct uring_state *s, unsigned wait_nr);

/* Prepares remainders first, then new reads into every free slot, and
 * submits each one as soon as it is prepared. */
static void uring_fill(struct worker *w, struct uring_state *s)
{
	int k;

	while ((k = slots_next(&s->q, w)) >= 0)
		if (!uring_prep(w, s, (unsigned)k) || uring_submit_wait(w, s, 0) < 0)
			return;
}

/* Submits what is queued and waits for wait_nr completions. */
static int uring_submit_wait(struct worker *w, struct uring_state *s, unsigned wait_nr)
{
	uint64_t t = now_ns();
	struct io_uring_cqe *cqe;
	int ret;

	if (!s->started) {
		w->t_first_ns = t;
		s->started = true;
	}
	while (s->nfresh)
		s->q.slot[s->fresh[--s->nfresh]].t_issue = t;
	for (;;) {
		ret = io_uring_submit_and_wait(&s->ring, wait_nr);
		if (ret >= 0)
			return 0;
		if (ret == -EINTR)
			continue;
		/* out of resources: wait for something the kernel already has */
		if ((ret == -EAGAIN || ret == -EBUSY) && s->inflight > io_uring_sq_ready(&s->ring)) {
			ret = io_uring_wait_cqe_nr(&s->ring, &cqe, 1);
			if (ret == 0 || ret == -EINTR)
				return 0;
		}
		slots_fail(&s->q, w, -ret, 0, "io_uring_submit");
		return -1;
	}
}

/* Handles every CQE that is there; one timestamp for the batch. */
static void uring_reap(struct worker *w, struct uring_state *s)
{
	uint64_t t = now_ns();
	unsigned n = io_uring_peek_batch_cqe(&s->ring, s->cqes, w->iodepth);

	for (unsigned i = 0; i < n; i++)
		if (!slots_complete(&s->q, w, (unsigned)io_uring_cqe_get_data64(s->cqes[i]),
				    s->cqes[i]->res, t))
			s->q.stopping = true;
	io_uring_cq_advance(&s->ring, n);
	s->inflight -= n;
}

/* Waits for the reads the kernel has; SQEs it never took are dropped with
 * the ring at teardown. */
static void uring_drain(struct worker *w, struct uring_state *s)
{
	struct io_uring_cqe *cqe;

	while (s->inflight > io_uring_sq_ready(&s->ring)) {
		int ret = io_uring_wait_cqe_nr(&s->ring, &cqe, 1);

		if (ret < 0 && ret != -EINTR) {
			slots_fail(&s->q, w, -ret, 0, "io_uring_wait_cqe");
			return;
		}
		uring_reap(w, s);
	}
}

static int uring_run(struct worker *w)
{
	struct uring_state *s = w->priv;

	slots_reset(&s->q);
	s->nfresh = s->inflight = 0;
	s->started = false;
	w->t_first_ns = now_ns(); /* moved to the first submit, if any */
	while (!s->q.stopping) {
		uring_fill(w, s);
		if (!s->inflight || s->q.stopping)
			break;
		if (uring_submit_wait(w, s, s->inflight > s->min_batch ? s->min_batch : 1) < 0)
			break;
		uring_reap(w, s);
	}
	uring_drain(w, s);
	return s->q.failed ? -1 : 0;
}

const struct engine_ops engine_uring = {
	.name = "uring",
	.flags = ENGINE_QUEUED | ENGINE_DIRECT,
	.setup = uring_setup,
	.run = uring_run,
	.teardown = uring_teardown,
};
