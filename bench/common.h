/*
 * common.h - what the bare baseline loops of bench/ share: their options,
 * the offsets they read, the clock and the one-line report.
 *
 * The baselines exist to tell how much iosweep's own machinery (the
 * pattern, the histogram, the consume step, the engine bookkeeping) costs
 * on top of the system calls it measures.  So each one does the same reads
 * as an iosweep run with the same parameters -- the offsets below are the
 * ones iosweep's pattern.c generates: k * spacing for sequential runs,
 * splitmix64 of (seed, read number) scaled onto the blocks for random ones
 * -- and times every read with clock_gettime(CLOCK_MONOTONIC) the way
 * the I/O core (src/io/ioloop.c) stamps them, and does nothing else: no
 * histogram, no checksum, only a running sum of latencies for the mean.
 *
 * Everything here is static inline so that each baseline is one file plus
 * this header, with no library of its own.
 *
 * Output, one line per repeat, key=value separated by spaces:
 *   NAME reads=N bytes=N seconds=S iops=X throughput_Bps=X lat_mean_ns=X
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct bench_opts {
	const char *name; /* the program, for messages and the report */
	const char *path;
	uint64_t size; /* bytes of the file to cover; default: its size */
	uint64_t bs;
	uint64_t spacing; /* distance between read starts; default bs */
	bool random;
	uint64_t count; /* random reads; default: as many as a dense pass */
	uint64_t seed;
	unsigned iodepth;
	unsigned repeat;
	bool direct;	/* O_DIRECT */
	bool write;	/* -W: write the blocks instead of reading them */
	uint64_t sync_every; /* -F N: fdatasync after every N writes (0: never) */
	uint64_t window; /* -w BYTES (bare_mmap): map anew once the reads span more (0: never) */
	bool alternate;  /* -a (bare_mmap, with -w): every other repeat maps the whole file */
	uint64_t reads; /* of one repeat, computed by bench_parse() */
};

struct bench_result {
	uint64_t reads, bytes, lat_sum_ns;
	uint64_t t_first_ns, t_last_ns; /* first read issued, last completed */
};

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

__attribute__((format(printf, 2, 3), noreturn)) static inline void
bench_die(const struct bench_opts *o, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", o->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* 4k, 1m, 1g, 1t (powers of 1024) or a bare number of bytes. */
static inline uint64_t bench_size(const struct bench_opts *o, const char *s)
{
	char *end;
	uint64_t v, mult = 1;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		bench_die(o, "bad number '%s'", s);
	switch (*end) {
	case 't':
	case 'T':
		mult <<= 10; /* fall through */
	case 'g':
	case 'G':
		mult <<= 10; /* fall through */
	case 'm':
	case 'M':
		mult <<= 10; /* fall through */
	case 'k':
	case 'K':
		mult <<= 10;
		end++;
		break;
	default:
		break;
	}
	if (*end || (v && mult > UINT64_MAX / v))
		bench_die(o, "bad size '%s'", s);
	return v * mult;
}

static inline void bench_usage(const struct bench_opts *o, bool queued)
{
	fprintf(
	    stderr,
	    "usage: %s [-b BS] [-g SPACING] [-p seq|rand] [-n COUNT] [-s SEED] [-S SIZE]\n"
	    "       %*s [-r REPEAT] [-D] [-W] [-F N] [-w BYTES [-a]]%s FILE\n"
	    "  -b  bytes per read (default 4k)      -g  distance between read starts (default BS)\n"
	    "  -p  sequential or random (bs-aligned, seeded, with replacement)\n"
	    "  -n  random reads (default: size/bs)  -s  seed (default 1)\n"
	    "  -S  bytes of the file to cover (default: its size)\n"
	    "  -r  repeats, one output line each    -D  O_DIRECT\n"
	    "  -W  write instead of read            -F  fdatasync every N writes\n"
	    "  -w  (bare_mmap) map the file anew, timed, once the reads span more than BYTES\n"
	    "  -a  (bare_mmap) with -w: repeats 1, 3, 5... map the whole file, as without -w\n%s",
	    o->name, (int)strlen(o->name), "", queued ? " [-d IODEPTH]" : "",
	    queued ? "  -d  reads in flight (default 32)\n" : "");
	exit(2);
}

/* Parses the command line into o; exits with a message on a mistake. */
static inline void bench_parse(struct bench_opts *o, int argc, char **argv, bool queued)
{
	struct stat st;
	int c;

	o->bs = 4096;
	o->seed = 1;
	o->iodepth = queued ? 32 : 1;
	o->repeat = 1;
	while ((c = getopt(argc, argv, queued ? "b:g:p:n:s:S:r:DWF:w:ad:h" : "b:g:p:n:s:S:r:DWF:w:ah")) != -1) {
		switch (c) {
		case 'b':
			o->bs = bench_size(o, optarg);
			break;
		case 'g':
			o->spacing = bench_size(o, optarg);
			break;
		case 'p':
			if (strcmp(optarg, "seq") && strcmp(optarg, "sequential") &&
			    strcmp(optarg, "rand") && strcmp(optarg, "random"))
				bench_die(o, "-p takes seq or rand, not '%s'", optarg);
			o->random = optarg[0] == 'r';
			break;
		case 'n':
			o->count = bench_size(o, optarg);
			break;
		case 's':
			o->seed = bench_size(o, optarg);
			break;
		case 'S':
			o->size = bench_size(o, optarg);
			break;
		case 'r':
			o->repeat = (unsigned)bench_size(o, optarg);
			break;
		case 'D':
			o->direct = true;
			break;
		case 'W':
			o->write = true;
			break;
		case 'F':
			o->sync_every = bench_size(o, optarg);
			break;
		case 'w':
			o->window = bench_size(o, optarg);
			break;
		case 'a':
			o->alternate = true;
			break;
		case 'd':
			o->iodepth = (unsigned)bench_size(o, optarg);
			break;
		default:
			bench_usage(o, queued);
		}
	}
	if (optind != argc - 1)
		bench_usage(o, queued);
	if (o->window && strcmp(o->name, "bare_mmap"))
		bench_die(o, "-w is for bare_mmap: nothing else maps the file");
	if (o->alternate && !o->window)
		bench_die(o, "-a alternates -w with whole-file passes: give -w too");
	o->path = argv[optind];
	if (stat(o->path, &st) < 0)
		bench_die(o, "%s: %s", o->path, strerror(errno));
	if (!o->size)
		o->size = (uint64_t)st.st_size;
	if ((uint64_t)st.st_size < o->size)
		bench_die(o, "%s is smaller than -S", o->path);
	if (!o->spacing || o->random)
		o->spacing = o->bs;
	if (!o->bs || o->bs > o->size || o->spacing < o->bs || !o->repeat || !o->iodepth)
		bench_die(o, "need 0 < bs <= size, spacing >= bs, repeat > 0, iodepth > 0");
	if (o->direct && (o->bs % 512 || o->spacing % 512 || o->size % o->bs))
		bench_die(o, "-D needs bs and spacing in 512-byte units and size a multiple of bs");
	if (o->random)
		o->reads = o->count ? o->count : o->size / o->bs + (o->size % o->bs != 0);
	else if (o->spacing == o->bs)
		o->reads = o->size / o->bs + (o->size % o->bs != 0);
	else
		o->reads = (o->size - o->bs) / o->spacing + 1;
}

static inline int bench_open(const struct bench_opts *o)
{
	int fd = open(o->path, (o->write ? O_RDWR : O_RDONLY) | O_CLOEXEC |
			       (o->direct ? O_DIRECT : 0));

	if (fd < 0)
		bench_die(o, "%s: %s", o->path, strerror(errno));
	return fd;
}

static inline uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* iodepth buffers of bs bytes, 4 KiB aligned (O_DIRECT), touched so that
 * their page faults happen before the timing; random bytes, for writes. */
static inline unsigned char *bench_buffers(const struct bench_opts *o)
{
	size_t len = (size_t)(o->bs * o->iodepth);
	void *p = NULL;

	if (posix_memalign(&p, 4096, (len + 4095) & ~(size_t)4095))
		bench_die(o, "out of memory for %zu bytes of buffers", len);
	for (size_t i = 0; i < len; i += 8) {
		uint64_t w = splitmix64(i);

		memcpy((unsigned char *)p + i, &w, len - i < 8 ? len - i : 8);
	}
	return p;
}


/* Before a write: the block's offset in its first bytes, so that no two
 * blocks written are the same (what fio's scramble_buffers does). */
static inline void bench_stamp(unsigned char *buf, uint64_t len, uint64_t off)
{
	memcpy(buf, &off, len < 8 ? len : 8);
}

/* Read i: its offset and length (the last dense block may be short). */
static inline void bench_block(const struct bench_opts *o, uint64_t i, uint64_t *off, uint64_t *len)
{
	uint64_t left;

	if (o->random) {
		uint64_t r = splitmix64(o->seed ^ splitmix64(i));

		*off = (uint64_t)(((unsigned __int128)r * (o->size / o->bs)) >> 64) * o->bs;
		*len = o->bs;
		return;
	}
	*off = i * o->spacing;
	left = o->size - *off;
	*len = left < o->bs ? left : o->bs;
}

static inline void bench_report(const struct bench_opts *o, const struct bench_result *r)
{
	double s = (double)(r->t_last_ns - r->t_first_ns) / 1e9;

	printf("%s reads=%" PRIu64 " bytes=%" PRIu64 " seconds=%.9f iops=%.1f "
	       "throughput_Bps=%.1f lat_mean_ns=%.1f\n",
	       o->name, r->reads, r->bytes, s, s > 0 ? (double)r->reads / s : 0.0,
	       s > 0 ? (double)r->bytes / s : 0.0,
	       r->reads ? (double)r->lat_sum_ns / (double)r->reads : 0.0);
	if (fflush(stdout) != 0)
		bench_die(o, "cannot write the report: %s", strerror(errno));
}

#endif
