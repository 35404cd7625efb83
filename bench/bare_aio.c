/*
 * bare_aio.c - the baseline for engine=aio: Linux native AIO (libaio)
 * with iodepth reads in flight.  Every free slot is filled, each read
 * handed to an io_submit() of its own as soon as it is prepared (as iosweep
 * and fio do); one io_getevents() then waits for at least one completion
 * and takes all that are there.  Like iosweep, a read's issue time is taken
 * at its io_submit() and its completion time once per reaped batch.  A short read is an error here: with O_DIRECT and whole
 * blocks inside the file there are none.  See common.h for the options
 * (-d IODEPTH, -D for O_DIRECT, without which io_submit is synchronous)
 * and the output.
 */
#define _GNU_SOURCE
#include <libaio.h>

#include "common.h"

struct slot {
	uint64_t off, len, t_issue;
};

struct aio_loop {
	io_context_t ctx;
	struct iocb *iocbs; /* iocb k reads into slot k's buffer */
	struct iocb **pend; /* prepared, not yet accepted */
	struct io_event *events;
	struct slot *slots;
	unsigned *free; /* free slot numbers */
	unsigned nfree, npend, inflight;
};

static void submit(const struct bench_opts *o, struct aio_loop *a, struct bench_result *r)
{
	uint64_t t = now_ns();
	unsigned head = 0;

	if (!r->reads && !a->inflight)
		r->t_first_ns = t;
	for (unsigned i = 0; i < a->npend; i++)
		a->slots[a->pend[i] - a->iocbs].t_issue = t;
	while (head < a->npend) {
		int n = io_submit(a->ctx, (long)(a->npend - head), a->pend + head);

		if (n > 0) {
			head += (unsigned)n;
			a->inflight += (unsigned)n;
		} else if (n != -EINTR && n != -EAGAIN) {
			bench_die(o, "io_submit: %s", strerror(n ? -n : EIO));
		}
	}
	a->npend = 0;
}

static void reap(const struct bench_opts *o, struct aio_loop *a, struct bench_result *r)
{
	uint64_t t;
	int n;

	do
		n = io_getevents(a->ctx, 1, (long)o->iodepth, a->events, NULL);
	while (n == -EINTR);
	if (n < 0)
		bench_die(o, "io_getevents: %s", strerror(-n));
	t = now_ns();
	a->inflight -= (unsigned)n;
	for (int i = 0; i < n; i++) {
		unsigned k = (unsigned)(a->events[i].obj - a->iocbs);
		long res = (long)a->events[i].res;

		if (res != (long)a->slots[k].len)
			bench_die(o, "read at %" PRIu64 ": %s", a->slots[k].off,
				  res < 0 ? strerror((int)-res) : "short read");
		r->lat_sum_ns += t - a->slots[k].t_issue;
		r->bytes += a->slots[k].len;
		r->reads++;
		a->free[a->nfree++] = k;
	}
	r->t_last_ns = t;
}

static void read_pass(const struct bench_opts *o, int fd, unsigned char *buf, struct aio_loop *a,
		      struct bench_result *r)
{
	uint64_t next = 0;

	memset(r, 0, sizeof(*r));
	a->nfree = a->npend = a->inflight = 0;
	for (unsigned k = o->iodepth; k-- > 0;)
		a->free[a->nfree++] = k;
	r->t_first_ns = r->t_last_ns = now_ns();
	while (next < o->reads || a->inflight) {
		while (a->nfree && next < o->reads) {
			unsigned k = a->free[--a->nfree];
			struct slot *s = &a->slots[k];

			bench_block(o, next++, &s->off, &s->len);
			if (o->write) {
				bench_stamp(buf + (uint64_t)k * o->bs, s->len, s->off);
				io_prep_pwrite(&a->iocbs[k], fd, buf + (uint64_t)k * o->bs,
					       (size_t)s->len, (long long)s->off);
			} else {
				io_prep_pread(&a->iocbs[k], fd, buf + (uint64_t)k * o->bs,
					      (size_t)s->len, (long long)s->off);
			}
			a->pend[a->npend++] = &a->iocbs[k];
			submit(o, a, r);
		}
		reap(o, a, r);
	}
}

int main(int argc, char **argv)
{
	struct bench_opts o = {.name = "bare_aio"};
	struct aio_loop a = {0};
	struct bench_result r;
	unsigned char *buf;
	int fd, ret;

	bench_parse(&o, argc, argv, true);
	buf = bench_buffers(&o);
	a.iocbs = calloc(o.iodepth, sizeof(*a.iocbs));
	a.pend = calloc(o.iodepth, sizeof(*a.pend));
	a.events = calloc(o.iodepth, sizeof(*a.events));
	a.slots = calloc(o.iodepth, sizeof(*a.slots));
	a.free = calloc(o.iodepth, sizeof(*a.free));
	if (!a.iocbs || !a.pend || !a.events || !a.slots || !a.free)
		bench_die(&o, "out of memory");
	for (unsigned k = 0; k < o.repeat; k++) {
		fd = bench_open(&o);
		a.ctx = 0; /* io_setup wants a zeroed context */
		ret = io_setup((int)o.iodepth, &a.ctx);
		if (ret < 0)
			bench_die(&o, "io_setup(%u): %s", o.iodepth, strerror(-ret));
		read_pass(&o, fd, buf, &a, &r);
		io_destroy(a.ctx);
		close(fd);
		bench_report(&o, &r);
	}
	free(a.iocbs);
	free(a.pend);
	free(a.events);
	free(a.slots);
	free(a.free);
	free(buf);
	return 0;
}
