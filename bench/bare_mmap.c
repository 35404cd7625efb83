/*
 * bare_mmap.c - the baseline for engine=mmap: map the file read-only and
 * shared (outside the timing, once per repeat, so every repeat pays the
 * same page faults as iosweep's mmap engine), then memcpy() each block
 * into one buffer, each copy timed with two clock_gettime() calls.
 * See common.h for the options and output.
 */
#define _GNU_SOURCE
#include <sys/mman.h>

#include "common.h"

static void copy_pass(const struct bench_opts *o, const unsigned char *map, unsigned char *buf,
		      struct bench_result *r)
{
	memset(r, 0, sizeof(*r));
	r->t_first_ns = r->t_last_ns = now_ns();
	for (uint64_t i = 0; i < o->reads; i++) {
		uint64_t off, len, t0;

		bench_block(o, i, &off, &len);
		t0 = now_ns();
		memcpy(buf, map + off, (size_t)len);
		/* the copy is the work: keep the compiler from dropping it */
		__asm__ volatile("" : : "r"(buf) : "memory");
		r->t_last_ns = now_ns();
		r->lat_sum_ns += r->t_last_ns - t0;
		r->bytes += len;
		r->reads++;
	}
}

int main(int argc, char **argv)
{
	struct bench_opts o = {.name = "bare_mmap"};
	struct bench_result r;
	unsigned char *buf;
	void *map;
	int fd;

	bench_parse(&o, argc, argv, false);
	if (o.direct)
		bench_die(&o, "-D: a mapping cannot bypass the page cache");
	if (o.size > SIZE_MAX)
		bench_die(&o, "file too large to map");
	buf = bench_buffers(&o);
	for (unsigned k = 0; k < o.repeat; k++) {
		fd = bench_open(&o);
		map = mmap(NULL, (size_t)o.size, PROT_READ, MAP_SHARED, fd, 0);
		if (map == MAP_FAILED)
			bench_die(&o, "mmap: %s", strerror(errno));
		copy_pass(&o, map, buf, &r);
		if (munmap(map, (size_t)o.size) < 0)
			bench_die(&o, "munmap: %s", strerror(errno));
		close(fd);
		bench_report(&o, &r);
	}
	free(buf);
	return 0;
}
