/*
 * bare_pread.c - the baseline for engine=sync: pread(2) one block at a
 * time, each read timed with two clock_gettime() calls, as iosweep's sync
 * engine does, and nothing else.  See common.h for the options and output.
 */
#define _GNU_SOURCE
#include "common.h"

static void read_pass(const struct bench_opts *o, int fd, unsigned char *buf,
		      struct bench_result *r)
{
	memset(r, 0, sizeof(*r));
	r->t_first_ns = r->t_last_ns = now_ns();
	for (uint64_t i = 0; i < o->reads; i++) {
		uint64_t off, len, done = 0, want, t0;

		bench_block(o, i, &off, &len);
		want = o->direct ? (len + 511) & ~(uint64_t)511 : len;
		t0 = now_ns();
		while (done < len) {
			ssize_t n =
			    pread(fd, buf + done, (size_t)(want - done), (off_t)(off + done));

			if (n > 0)
				done += (uint64_t)n;
			else if (n == 0)
				bench_die(o, "unexpected end of file at %" PRIu64, off + done);
			else if (errno != EINTR)
				bench_die(o, "read at %" PRIu64 ": %s", off + done,
					  strerror(errno));
		}
		r->t_last_ns = now_ns();
		r->lat_sum_ns += r->t_last_ns - t0;
		r->bytes += len;
		r->reads++;
	}
}

int main(int argc, char **argv)
{
	struct bench_opts o = {.name = "bare_pread"};
	struct bench_result r;
	unsigned char *buf;
	int fd;

	bench_parse(&o, argc, argv, false);
	buf = bench_buffers(&o);
	for (unsigned k = 0; k < o.repeat; k++) {
		fd = bench_open(&o);
		read_pass(&o, fd, buf, &r);
		close(fd);
		bench_report(&o, &r);
	}
	free(buf);
	return 0;
}
