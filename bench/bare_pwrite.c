/*
 * bare_pwrite.c - the baseline for engine=sync writes: pwrite(2) one block
 * at a time, each write timed with two clock_gettime() calls, the block's
 * offset stamped into its first bytes so that no two blocks are alike, and
 * with -F N an fdatasync(2) after every N writes (timed as part of the
 * pass, as iosweep's sync=fdatasync is) and one at the end for the rest.
 * See common.h for the options and output (its "reads" are the writes).
 */
#define _GNU_SOURCE
#include "common.h"

static void write_pass(const struct bench_opts *o, int fd, unsigned char *buf,
		       struct bench_result *r)
{
	uint64_t unflushed = 0;

	memset(r, 0, sizeof(*r));
	r->t_first_ns = r->t_last_ns = now_ns();
	for (uint64_t i = 0; i < o->reads; i++) {
		uint64_t off, len, done = 0, t0;

		bench_block(o, i, &off, &len);
		bench_stamp(buf, len, off);
		t0 = now_ns();
		while (done < len) {
			ssize_t n = pwrite(fd, buf + done, (size_t)(len - done), (off_t)(off + done));

			if (n > 0)
				done += (uint64_t)n;
			else if (n < 0 && errno != EINTR)
				bench_die(o, "write at %" PRIu64 ": %s", off + done, strerror(errno));
		}
		r->t_last_ns = now_ns();
		r->lat_sum_ns += r->t_last_ns - t0;
		r->bytes += len;
		r->reads++;
		if (o->sync_every && ++unflushed == o->sync_every) {
			if (fdatasync(fd) < 0)
				bench_die(o, "fdatasync: %s", strerror(errno));
			unflushed = 0;
			r->t_last_ns = now_ns();
		}
	}
	if (unflushed) {
		if (fdatasync(fd) < 0)
			bench_die(o, "fdatasync: %s", strerror(errno));
		r->t_last_ns = now_ns();
	}
}

int main(int argc, char **argv)
{
	struct bench_opts o = {.name = "bare_pwrite"};
	struct bench_result r;
	unsigned char *buf;
	int fd;

	bench_parse(&o, argc, argv, false);
	o.write = true;
	buf = bench_buffers(&o);
	for (unsigned k = 0; k < o.repeat; k++) {
		fd = bench_open(&o);
		write_pass(&o, fd, buf, &r);
		close(fd);
		bench_report(&o, &r);
	}
	free(buf);
	return 0;
}
