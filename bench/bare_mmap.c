/*
 * bare_mmap.c - the baseline for engine=mmap: map the file read-only and
 * shared (outside the timing, once per repeat, so every repeat pays the
 * same page faults as iosweep's mmap engine), then memcpy() each block
 * into one buffer, each copy timed with two clock_gettime() calls.
 *
 * -w BYTES: as iosweep's mmap engine bounds its memory, map the file anew
 * (munmap and mmap, inside the timed copy that crosses the line) once the
 * reads since the last mapping span more than BYTES (iosweep: 64 MiB, when
 * the units' lengths plus 64 KiB each also exceed it, which for a dense
 * pass they always do first).  The unmapping is what frees the pages
 * mapped so far, and it costs per page.
 * -a (with -w): repeats 1, 3, 5... (counting from 0) map the whole file,
 * as without -w, and report as "bare_mmap"; the others as "bare_mmap-w".
 * Passes alternated in one process tell apart what separate processes
 * cannot: the cost of the remapping itself, a few percent.
 * See common.h for the other options and the output.
 */
#define _GNU_SOURCE
#include <sys/mman.h>

#include "common.h"

static unsigned char *map_file(const struct bench_opts *o, int fd, unsigned char *old)
{
	void *map;

	if (old && munmap(old, (size_t)o->size) < 0)
		bench_die(o, "munmap: %s", strerror(errno));
	map = mmap(NULL, (size_t)o->size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		bench_die(o, "mmap: %s", strerror(errno));
	return map;
}

static unsigned char *copy_pass(const struct bench_opts *o, uint64_t window, int fd,
				unsigned char *map, unsigned char *buf, struct bench_result *r)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	memset(r, 0, sizeof(*r));
	r->t_first_ns = r->t_last_ns = now_ns();
	for (uint64_t i = 0; i < o->reads; i++) {
		uint64_t off, len, t0;

		bench_block(o, i, &off, &len);
		t0 = now_ns();
		if (window) {
			lo = off < lo ? off : lo;
			hi = off + len > hi ? off + len : hi;
			if (__builtin_expect(hi - lo > window, 0)) {
				map = map_file(o, fd, map);
				lo = off;
				hi = off + len;
			}
		}
		memcpy(buf, map + off, (size_t)len);
		/* the copy is the work: keep the compiler from dropping it */
		__asm__ volatile("" : : "r"(buf) : "memory");
		r->t_last_ns = now_ns();
		r->lat_sum_ns += r->t_last_ns - t0;
		r->bytes += len;
		r->reads++;
	}
	return map;
}

int main(int argc, char **argv)
{
	struct bench_opts o = {.name = "bare_mmap"};
	struct bench_opts windowed;
	struct bench_result r;
	unsigned char *buf, *map;
	int fd;

	bench_parse(&o, argc, argv, false);
	if (o.direct)
		bench_die(&o, "-D: a mapping cannot bypass the page cache");
	if (o.size > SIZE_MAX)
		bench_die(&o, "file too large to map");
	buf = bench_buffers(&o);
	windowed = o;
	if (o.alternate)
		windowed.name = "bare_mmap-w";
	for (unsigned k = 0; k < o.repeat; k++) {
		bool whole = o.alternate && k % 2;

		fd = bench_open(&o);
		map = copy_pass(&o, whole ? 0 : o.window, fd, map_file(&o, fd, NULL), buf, &r);
		if (munmap(map, (size_t)o.size) < 0)
			bench_die(&o, "munmap: %s", strerror(errno));
		close(fd);
		bench_report(whole ? &o : &windowed, &r);
	}
	free(buf);
	return 0;
}
