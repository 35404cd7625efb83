/*
 * bare_tree.c - the baseline for opendir: every regular file under a
 * directory opened, read whole and closed, one after another, as a data
 * loader does, and nothing else.
 *
 * The tree is walked once before the timing (nftw, symlinks not followed)
 * and its regular files are read in sorted order, as iosweep's
 * file_service_type = sequential does.  Each file is opened O_RDONLY |
 * O_NOATIME (without O_NOATIME where the kernel refuses it), relative to
 * the root's descriptor -- the same path lookup as iosweep's openat2
 * beneath the root; -A opens the absolute path instead, as fio does --
 * read bs bytes at a time until read(2) returns 0, and closed.  Each file
 * is one "read" of the report, timed from before its open to after its
 * close with two clock_gettime() calls, so iops is files/s and
 * throughput_Bps bytes/s.
 *
 * usage: bare_tree [-b BS] [-r REPEAT] [-A] DIR
 * Output: one line a pass, as common.h's bench_report prints it.
 */
#define _GNU_SOURCE
#include "common.h"

#include <ftw.h>
#include <limits.h>

static struct {
	const char *root;
	size_t rootlen;
	char **paths; /* relative to the root */
	size_t n, cap;
} tree;

static struct bench_opts opts = {.name = "bare_tree"};

static int collect(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	char *rel;

	(void)ftw;
	if (type != FTW_F || !S_ISREG(st->st_mode))
		return 0;
	if (tree.n == tree.cap) {
		size_t cap = tree.cap ? 2 * tree.cap : 1024;
		char **p = realloc(tree.paths, cap * sizeof(*p));

		if (!p)
			bench_die(&opts, "out of memory for %zu names", cap);
		tree.paths = p;
		tree.cap = cap;
	}
	rel = strdup(path + tree.rootlen + 1);
	if (!rel)
		bench_die(&opts, "out of memory");
	tree.paths[tree.n++] = rel;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int open_file(int rootfd, const char *rel, bool absolute, int *flags)
{
	char path[PATH_MAX];
	int fd;

	if (absolute &&
	    snprintf(path, sizeof(path), "%s/%s", tree.root, rel) >= (int)sizeof(path))
		bench_die(&opts, "%s/%s: name too long", tree.root, rel);
	for (;;) {
		fd = absolute ? open(path, *flags) : openat(rootfd, rel, *flags);
		if (fd >= 0 || errno != EPERM || !(*flags & O_NOATIME))
			break;
		*flags &= ~O_NOATIME; /* not our file and not root: plain reads */
	}
	if (fd < 0)
		bench_die(&opts, "%s: %s", rel, strerror(errno));
	return fd;
}

static void read_pass(int rootfd, bool absolute, unsigned char *buf, struct bench_result *r)
{
	int flags = O_RDONLY | O_NOATIME | O_CLOEXEC;

	memset(r, 0, sizeof(*r));
	r->t_first_ns = r->t_last_ns = now_ns();
	for (size_t i = 0; i < tree.n; i++) {
		uint64_t t0 = now_ns();
		int fd = open_file(rootfd, tree.paths[i], absolute, &flags);
		ssize_t n;

		while ((n = read(fd, buf, (size_t)opts.bs)) != 0) {
			if (n > 0)
				r->bytes += (uint64_t)n;
			else if (errno != EINTR)
				bench_die(&opts, "%s: %s", tree.paths[i], strerror(errno));
		}
		if (close(fd) < 0)
			bench_die(&opts, "close %s: %s", tree.paths[i], strerror(errno));
		r->t_last_ns = now_ns();
		r->lat_sum_ns += r->t_last_ns - t0;
		r->reads++;
	}
}

int main(int argc, char **argv)
{
	struct bench_result r;
	unsigned char *buf;
	bool absolute = false;
	char *root;
	int c, rootfd;

	opts.bs = 4096;
	opts.repeat = 1;
	opts.iodepth = 1;
	while ((c = getopt(argc, argv, "b:r:Ah")) != -1) {
		switch (c) {
		case 'b':
			opts.bs = bench_size(&opts, optarg);
			break;
		case 'r':
			opts.repeat = (unsigned)bench_size(&opts, optarg);
			break;
		case 'A':
			absolute = true;
			break;
		default:
			fprintf(stderr, "usage: bare_tree [-b BS] [-r REPEAT] [-A] DIR\n"
					"  -b  bytes per read (default 4k)   -r  passes, one output line each\n"
					"  -A  open each file by its absolute path (default: from the root's fd)\n");
			return 2;
		}
	}
	if (optind != argc - 1)
		bench_die(&opts, "give one directory (-h for the options)");
	if (!opts.bs || opts.bs > SSIZE_MAX || !opts.repeat)
		bench_die(&opts, "need 0 < bs and repeat > 0");
	root = strdup(argv[optind]);
	if (!root)
		bench_die(&opts, "out of memory");
	tree.rootlen = strlen(root);
	while (tree.rootlen > 1 && root[tree.rootlen - 1] == '/')
		root[--tree.rootlen] = '\0'; /* nftw's names are then ROOT/NAME */
	tree.root = root;
	rootfd = open(tree.root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		bench_die(&opts, "%s: %s", tree.root, strerror(errno));
	if (nftw(tree.root, collect, 64, FTW_PHYS) != 0)
		bench_die(&opts, "walking %s: %s", tree.root, strerror(errno));
	if (!tree.n)
		bench_die(&opts, "%s holds no regular file", tree.root);
	qsort(tree.paths, tree.n, sizeof(*tree.paths), by_name);
	buf = bench_buffers(&opts);
	for (unsigned k = 0; k < opts.repeat; k++) {
		read_pass(rootfd, absolute, buf, &r);
		bench_report(&opts, &r);
	}
	free(buf);
	for (size_t i = 0; i < tree.n; i++)
		free(tree.paths[i]);
	free(tree.paths);
	free(root);
	close(rootfd);
	return 0;
}
