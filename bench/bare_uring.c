/*
 * bare_uring.c - the baseline for engine=uring: io_uring (liburing, no
 * SQPOLL, no registered files or buffers) with iodepth reads in flight.
 * Every free slot gets an SQE, submitted on its own as soon as it is
 * prepared (as iosweep and fio do); io_uring_submit_and_wait() then waits
 * for at least one completion; every CQE that is there is taken with one
 * io_uring_peek_batch_cqe() and released with one io_uring_cq_advance().
 * Like iosweep, a read's issue time is taken at its submit and its
 * completion time once per reaped batch.  A short read
 * is an error here: with O_DIRECT and whole blocks inside the file there
 * are none.  With -W it writes the blocks instead (each stamped with its
 * offset).  See common.h for the options (-d IODEPTH, -D for O_DIRECT)
 * and the output.
 */
#define _GNU_SOURCE
#include <liburing.h>

#include "common.h"

struct slot {
	uint64_t off, len, t_issue;
};

static void read_pass(const struct bench_opts *o, int fd, unsigned char *buf, struct io_uring *ring,
		      struct slot *slots, unsigned *free_slots, struct io_uring_cqe **cqes,
		      struct bench_result *r)
{
	unsigned nfree = 0, inflight = 0;
	uint64_t next = 0;

	memset(r, 0, sizeof(*r));
	for (unsigned k = o->iodepth; k-- > 0;)
		free_slots[nfree++] = k;
	r->t_first_ns = r->t_last_ns = now_ns();
	while (next < o->reads || inflight) {
		uint64_t t = now_ns();
		unsigned n;
		int ret;

		if (next == 0)
			r->t_first_ns = t;
		while (nfree && next < o->reads) {
			unsigned k = free_slots[--nfree];
			struct slot *s = &slots[k];
			struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

			if (!sqe)
				bench_die(o, "io_uring_get_sqe: submission queue full");
			bench_block(o, next++, &s->off, &s->len);
			if (o->write) {
				bench_stamp(buf + (uint64_t)k * o->bs, s->len, s->off);
				io_uring_prep_write(sqe, fd, buf + (uint64_t)k * o->bs,
						    (unsigned)s->len, s->off);
			} else {
				io_uring_prep_read(sqe, fd, buf + (uint64_t)k * o->bs,
						   (unsigned)s->len, s->off);
			}
			io_uring_sqe_set_data64(sqe, k);
			s->t_issue = now_ns();
			do
				ret = io_uring_submit(ring);
			while (ret == -EINTR);
			if (ret < 0)
				bench_die(o, "io_uring_submit: %s", strerror(-ret));
			inflight++;
		}
		do
			ret = io_uring_submit_and_wait(ring, 1);
		while (ret == -EINTR);
		if (ret < 0)
			bench_die(o, "io_uring_submit_and_wait: %s", strerror(-ret));
		t = now_ns();
		n = io_uring_peek_batch_cqe(ring, cqes, o->iodepth);
		for (unsigned i = 0; i < n; i++) {
			unsigned k = (unsigned)io_uring_cqe_get_data64(cqes[i]);

			if (cqes[i]->res != (int)slots[k].len)
				bench_die(o, "read at %" PRIu64 ": %s", slots[k].off,
					  cqes[i]->res < 0 ? strerror(-cqes[i]->res)
							   : "short read");
			r->lat_sum_ns += t - slots[k].t_issue;
			r->bytes += slots[k].len;
			r->reads++;
			free_slots[nfree++] = k;
		}
		io_uring_cq_advance(ring, n);
		inflight -= n;
		r->t_last_ns = t;
	}
}

int main(int argc, char **argv)
{
	struct bench_opts o = {.name = "bare_uring"};
	struct io_uring ring;
	struct io_uring_cqe **cqes;
	struct bench_result r;
	struct slot *slots;
	unsigned *free_slots;
	unsigned char *buf;
	int fd, ret;

	bench_parse(&o, argc, argv, true);
	buf = bench_buffers(&o);
	slots = calloc(o.iodepth, sizeof(*slots));
	free_slots = calloc(o.iodepth, sizeof(*free_slots));
	cqes = calloc(o.iodepth, sizeof(*cqes));
	if (!slots || !free_slots || !cqes)
		bench_die(&o, "out of memory");
	for (unsigned k = 0; k < o.repeat; k++) {
		fd = bench_open(&o);
		ret = io_uring_queue_init(o.iodepth, &ring, 0);
		if (ret < 0)
			bench_die(&o, "io_uring_queue_init(%u): %s", o.iodepth, strerror(-ret));
		read_pass(&o, fd, buf, &ring, slots, free_slots, cqes, &r);
		io_uring_queue_exit(&ring);
		close(fd);
		bench_report(&o, &r);
	}
	free(slots);
	free(free_slots);
	free(cqes);
	free(buf);
	return 0;
}
