/*
 * bare_md.c - the baseline for a tree's metadata phases: D directories of F
 * files made, stat'ed, read and removed by one thread, one system call
 * after another, and nothing else.
 *
 * Each pass makes the directories (untimed), then times four phases over
 * the files in the order iosweep's tree names them (directory by
 * directory): create (openat O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW,
 * write SIZE bytes when SIZE > 0, close), stat (fstatat without following
 * a link), read (openat O_RDONLY | O_NOATIME | O_NOFOLLOW, read to EOF,
 * close) and unlink (unlinkat), every name relative to the root's
 * descriptor as iosweep's are; then it removes the directories (untimed).
 * Each file is one "read" of the report, timed with two clock_gettime()
 * calls, so iops is files/s.
 *
 * usage: bare_md [-S SIZE] [-r PASSES] [-T] -t DxF DIR
 * DIR: a directory of the caller's, empty; the names d0.. and f0.. are
 * made under it.  Output: one line a phase a pass, named bare_md-PHASE,
 * as common.h's bench_report prints it; with -T two more, bare_md-PHASE-
 * first10 and -last10, for its first and last tenth of the files (each
 * from the end of the file before it): whether the rate falls as the
 * directories fill.
 */
#define _GNU_SOURCE
#include "common.h"

#include <limits.h>

enum { CREATE, STAT, READ, UNLINK, PHASES };
static const char *const phase_name[PHASES] = {"bare_md-create", "bare_md-stat", "bare_md-read",
					       "bare_md-unlink"};

static struct bench_opts opts = {.name = "bare_md"};

/* one item of a phase; bytes moved */
static uint64_t item(int phase, int rootfd, const char *name, unsigned char *buf, size_t size)
{
	struct stat st;
	uint64_t moved = 0;
	ssize_t n;
	int fd = -1;

	switch (phase) {
	case CREATE:
		fd = openat(rootfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 && size) {
			n = write(fd, buf, size);
			if (n != (ssize_t)size)
				bench_die(&opts, "write %s: %s", name, n < 0 ? strerror(errno) : "short");
			moved = (uint64_t)n;
		}
		break;
	case STAT:
		if (fstatat(rootfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			bench_die(&opts, "stat %s: %s", name, strerror(errno));
		return 0;
	case READ:
		fd = openat(rootfd, name, O_RDONLY | O_NOATIME | O_NOFOLLOW | O_CLOEXEC);
		while (fd >= 0 && (n = read(fd, buf, size ? size : 4096)) != 0) {
			if (n < 0 && errno != EINTR)
				bench_die(&opts, "read %s: %s", name, strerror(errno));
			moved += n > 0 ? (uint64_t)n : 0;
		}
		break;
	default:
		if (unlinkat(rootfd, name, 0) < 0)
			bench_die(&opts, "unlink %s: %s", name, strerror(errno));
		return 0;
	}
	if (fd < 0)
		bench_die(&opts, "open %s: %s", name, strerror(errno));
	if (close(fd) < 0)
		bench_die(&opts, "close %s: %s", name, strerror(errno));
	return moved;
}

int main(int argc, char **argv)
{
	unsigned long dirs = 0, files = 0;
	bool tenths = false;
	unsigned char *buf;
	char name[64];
	int c, rootfd;

	opts.bs = 0;
	opts.repeat = 1;
	while ((c = getopt(argc, argv, "S:r:t:Th")) != -1) {
		switch (c) {
		case 'S':
			opts.bs = bench_size(&opts, optarg);
			break;
		case 'r':
			opts.repeat = (unsigned)bench_size(&opts, optarg);
			break;
		case 'T':
			tenths = true;
			break;
		case 't':
			if (sscanf(optarg, "%lux%lu", &dirs, &files) != 2)
				bench_die(&opts, "-t takes DxF, not '%s'", optarg);
			break;
		default:
			fprintf(stderr, "usage: bare_md [-S SIZE] [-r PASSES] [-T] -t DxF DIR\n"
					"  -S  bytes written to each file (default 0)\n"
					"  -r  passes, one output line a phase each\n"
					"  -T  and a line for the first and the last tenth of the files\n"
					"  -t  D directories of F files\n");
			return 2;
		}
	}
	if (optind != argc - 1 || !dirs || !files || !opts.repeat || opts.bs > (1u << 30))
		bench_die(&opts, "give -t DxF with D, F > 0, SIZE <= 1g and one directory (-h)");
	rootfd = open(argv[optind], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		bench_die(&opts, "%s: %s", argv[optind], strerror(errno));
	opts.iodepth = 1;
	{
		uint64_t bs = opts.bs;

		opts.bs = bs ? bs : 4096; /* the buffer; the size written stays bs */
		buf = bench_buffers(&opts);
		opts.bs = bs;
	}
	for (unsigned k = 0; k < opts.repeat; k++) {
		for (unsigned long d = 0; d < dirs; d++) {
			snprintf(name, sizeof(name), "d%lu", d);
			if (mkdirat(rootfd, name, 0700) < 0)
				bench_die(&opts, "mkdir %s: %s", name, strerror(errno));
		}
		for (int p = 0; p < PHASES; p++) {
			/* the phase, and with -T its first and last tenth of the files */
			struct bench_result r = {0}, tenth[2] = {{0}};
			unsigned long n = dirs * files, cut = n / 10;
			char label[64];

			r.t_first_ns = r.t_last_ns = now_ns();
			for (unsigned long i = 0; i < n; i++) {
				struct bench_result *t = i < cut ? &tenth[0] : i >= n - cut ? &tenth[1] : NULL;
				uint64_t t0, moved;

				snprintf(name, sizeof(name), "d%lu/f%lu", i / files, i);
				if (t && !t->reads) /* a tenth starts where the file before it ended */
					t->t_first_ns = r.t_last_ns;
				t0 = now_ns();
				moved = item(p, rootfd, name, buf, (size_t)opts.bs);
				r.t_last_ns = now_ns();
				r.bytes += moved;
				r.lat_sum_ns += r.t_last_ns - t0;
				r.reads++;
				if (t) {
					t->bytes += moved;
					t->lat_sum_ns += r.t_last_ns - t0;
					t->t_last_ns = r.t_last_ns;
					t->reads++;
				}
			}
			opts.name = phase_name[p];
			bench_report(&opts, &r);
			for (int k = 0; tenths && cut && k < 2; k++) {
				snprintf(label, sizeof(label), "%s-%s", phase_name[p],
					 k ? "last10" : "first10");
				opts.name = label;
				bench_report(&opts, &tenth[k]);
			}
		}
		opts.name = "bare_md";
		for (unsigned long d = 0; d < dirs; d++) {
			snprintf(name, sizeof(name), "d%lu", d);
			if (unlinkat(rootfd, name, AT_REMOVEDIR) < 0)
				bench_die(&opts, "rmdir %s: %s", name, strerror(errno));
		}
	}
	free(buf);
	close(rootfd);
	return 0;
}
