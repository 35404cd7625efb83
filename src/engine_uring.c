/*
 * engine_uring.c - io_uring (liburing) with up to iodepth reads in flight.
 *
 * Slot k owns buffer w->buf + k * bs and its reads carry user_data k.
 * Every free slot gets an SQE, then one io_uring_submit_and_wait() both
 * submits them and waits for a minimum batch of completions: 1 while at
 * most iodepth/4 reads are in flight, otherwise iodepth/4.  All available
 * CQEs are then taken with io_uring_peek_batch_cqe() and released with one
 * io_uring_cq_advance().  The issue time is taken once per submit and the
 * completion time once per reaped batch, so a read that finished early in
 * a batch is charged until the batch is reaped.
 *
 * A read that returns less than asked but not 0 is resubmitted for the
 * remainder (keeping its issue time); 0 before the expected length is
 * "unexpected end of file" at that offset; a negative result is the read's
 * errno.  After an error, or once worker_complete() says stop, nothing new
 * is issued, the reads in flight are waited for and their results are
 * dropped (not counted).
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

struct uring_slot {
	uint64_t off, len, want, done, t_issue;
};

struct uring_state {
	struct io_uring ring;
	struct io_uring_cqe **cqes; /* iodepth */
	struct uring_slot *slots;   /* iodepth */
	unsigned *free;             /* stack of free slot numbers */
	unsigned *retry;            /* slots waiting to resubmit a remainder */
	unsigned *fresh;            /* slots prepared since the last submit */
	unsigned nfree, nretry, nfresh, inflight, min_batch;
	bool exhausted, stopping, started, failed;
};

static void uring_free_state(struct uring_state *s)
{
	free(s->cqes);
	free(s->slots);
	free(s->free);
	free(s->retry);
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
	s->slots = calloc(n, sizeof(*s->slots));
	s->free = calloc(n, sizeof(*s->free));
	s->retry = calloc(n, sizeof(*s->retry));
	s->fresh = calloc(n, sizeof(*s->fresh));
	if (!n || !s->cqes || !s->slots || !s->free || !s->retry || !s->fresh) {
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

/* Records the first error and stops issuing; always false. */
static bool uring_fail(struct worker *w, struct uring_state *s, int error, uint64_t off,
		       const char *what)
{
	if (!s->failed)
		worker_fail(w, error, off, what);
	s->failed = s->stopping = true;
	return false;
}

/* Queues an SQE for what is left of slot k's read; false when the SQ is
 * full, which cannot happen: at most iodepth SQEs are queued at a time and
 * the SQ has at least iodepth entries. */
static bool uring_prep(struct worker *w, struct uring_state *s, unsigned k)
{
	struct uring_slot *sl = &s->slots[k];
	struct io_uring_sqe *sqe = io_uring_get_sqe(&s->ring);

	if (!sqe) {
		s->free[s->nfree++] = k;
		return uring_fail(w, s, EBUSY, sl->off + sl->done, "io_uring_get_sqe");
	}
	io_uring_prep_read(sqe, w->fd, w->buf + (uint64_t)k * w->bs + sl->done,
			   (unsigned)(sl->want - sl->done), sl->off + sl->done);
	io_uring_sqe_set_data64(sqe, k);
	if (!sl->done)
		s->fresh[s->nfresh++] = k;
	s->inflight++;
	return true;
}

/* Prepares remainders first, then new reads into every free slot. */
static void uring_fill(struct worker *w, struct uring_state *s)
{
	while (s->nretry)
		if (!uring_prep(w, s, s->retry[--s->nretry]))
			return;
	while (s->nfree && !s->exhausted) {
		unsigned k = s->free[s->nfree - 1];
		struct uring_slot *sl = &s->slots[k];

		if (!pattern_next(&w->pat, &sl->off, &sl->len)) {
			s->exhausted = true;
			break;
		}
		sl->want = (sl->len + w->align_mask) & ~w->align_mask;
		sl->done = 0;
		s->nfree--;
		if (!uring_prep(w, s, k))
			return;
	}
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
		s->slots[s->fresh[--s->nfresh]].t_issue = t;
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
		uring_fail(w, s, -ret, 0, "io_uring_submit");
		return -1;
	}
}

/* Handles one completion; false once the worker must stop. */
static bool uring_cqe(struct worker *w, struct uring_state *s, const struct io_uring_cqe *cqe,
		      uint64_t t_done)
{
	unsigned k = (unsigned)io_uring_cqe_get_data64(cqe);
	struct uring_slot *sl = &s->slots[k];
	int res = cqe->res;

	if (s->stopping || res <= 0) {
		s->free[s->nfree++] = k;
		if (s->stopping)
			return false;
		if (res < 0)
			return uring_fail(w, s, -res, sl->off + sl->done, "read");
		return uring_fail(w, s, 0, sl->off + sl->done, "unexpected end of file");
	}
	sl->done += (uint64_t)res;
	if (sl->done < sl->len) {
		s->retry[s->nretry++] = k;
		return true;
	}
	s->free[s->nfree++] = k;
	return worker_complete(w, w->buf + (uint64_t)k * w->bs, sl->off, sl->len, sl->t_issue,
			       t_done);
}

/* Handles every CQE that is there; one timestamp for the batch. */
static void uring_reap(struct worker *w, struct uring_state *s)
{
	uint64_t t = now_ns();
	unsigned n = io_uring_peek_batch_cqe(&s->ring, s->cqes, w->iodepth);

	for (unsigned i = 0; i < n; i++)
		if (!uring_cqe(w, s, s->cqes[i], t))
			s->stopping = true;
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
			uring_fail(w, s, -ret, 0, "io_uring_wait_cqe");
			return;
		}
		uring_reap(w, s);
	}
}

static int uring_run(struct worker *w)
{
	struct uring_state *s = w->priv;

	s->nfree = s->nretry = s->nfresh = s->inflight = 0;
	for (unsigned k = w->iodepth; k-- > 0;)
		s->free[s->nfree++] = k;
	s->exhausted = s->stopping = s->started = s->failed = false;
	w->t_first_ns = now_ns(); /* moved to the first submit, if any */
	while (!s->stopping) {
		uring_fill(w, s);
		if (!s->inflight || s->stopping)
			break;
		if (uring_submit_wait(w, s, s->inflight > s->min_batch ? s->min_batch : 1) < 0)
			break;
		uring_reap(w, s);
	}
	uring_drain(w, s);
	return s->failed ? -1 : 0;
}

const struct engine_ops engine_uring = {
	.name = "uring",
	.flags = ENGINE_QUEUED | ENGINE_DIRECT,
	.setup = uring_setup,
	.run = uring_run,
	.teardown = uring_teardown,
};
