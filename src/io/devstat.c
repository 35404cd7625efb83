/*
 * devstat.c - the block device's own counters (see devstat.h): finding the
 * device under a file, reading its stat files, and differencing samples.
 *
 * Parsing is strict: a stat file is a line of decimal numbers, and anything
 * else (a short line, a number beyond 64 bits, a sign) is no sample.  The
 * sysfs paths are resolved once per run; a sample is then one pread per
 * stat file, 14 to 16 us for one device (10000 samples of the root disk on
 * the development VM, loaded by other builds),
 * taken twice per repeat.
 */
#define _GNU_SOURCE
#include "io/devstat.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "io/prepare.h"

/* dm on md on partitions is three deep; more is a loop */
#define DEVSTAT_MAX_DEPTH 8

int devstat_parse(const char *text, struct devstat_sample *s)
{
	const char *p = text;

	memset(s, 0, sizeof(*s));
	for (;;) {
		uint64_t x = 0;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\n' && p[1] == '\0')
			p++;
		if (*p == '\0')
			break;
		if (*p < '0' || *p > '9' || s->n == DS__COUNT)
			return -1;
		for (; *p >= '0' && *p <= '9'; p++) {
			unsigned digit = (unsigned)(*p - '0');

			if (x > (UINT64_MAX - digit) / 10)
				return -1;
			x = x * 10 + digit;
		}
		if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\0')
			return -1;
		s->v[s->n++] = x;
	}
	return s->n >= DEVSTAT_MIN_FIELDS ? 0 : -1;
}

static void add_name(struct devstat *d, const char *dir)
{
	const char *base = strrchr(dir, '/');
	size_t len = strlen(d->name);

	snprintf(d->name + len, sizeof(d->name) - len, "%s%s", len ? "+" : "",
		 base ? base + 1 : dir);
}

/* Opens the stat files of the devices at the bottom of the stack at dir
 * (a resolved sysfs directory of a block device). */
static void open_leaves(struct devstat *d, const char *dir, int depth)
{
	char path[PATH_MAX], *real;
	struct dirent *e;
	bool slaves = false;
	DIR *dp;
	int fd;

	snprintf(path, sizeof(path), "%s/slaves", dir);
	dp = depth < DEVSTAT_MAX_DEPTH ? opendir(path) : NULL;
	while (dp && (e = readdir(dp)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/slaves/%s", dir, e->d_name);
		real = realpath(path, NULL);
		if (real) {
			slaves = true;
			open_leaves(d, real, depth + 1);
			free(real);
		}
	}
	if (dp)
		closedir(dp);
	if (slaves || d->n == DEVSTAT_MAX_DEVS)
		return;
	snprintf(path, sizeof(path), "%s/stat", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	d->fd[d->n++] = fd;
	add_name(d, dir);
}

/* read_ahead_kb of the device at dir, or of the disk a partition is on. */
static uint64_t readahead_of(const char *dir)
{
	static const char *const at[] = { "%s/queue/read_ahead_kb", "%s/../queue/read_ahead_kb" };
	char path[PATH_MAX], text[32], *end;
	unsigned long long kb;

	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		ssize_t got;
		int fd;

		snprintf(path, sizeof(path), at[i], dir);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		got = read(fd, text, sizeof(text) - 1);
		close(fd);
		if (got <= 0 || text[0] < '0' || text[0] > '9')
			continue;
		text[got] = '\0';
		errno = 0;
		kb = strtoull(text, &end, 10);
		if (errno == 0 && (*end == '\n' || *end == '\0') && kb < (1ULL << 40))
			return (uint64_t)kb * 1024;
	}
	return 0;
}

void devstat_open(struct devstat *d, int fd)
{
	char path[64], *dir;
	struct stat st;
	dev_t dev;
	const char *fs;

	memset(d, 0, sizeof(*d));
	if (fstat(fd, &st) < 0) {
		snprintf(d->why, sizeof(d->why), "fstat: %s", strerror(errno));
		return;
	}
	dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	dir = realpath(path, NULL);
	if (!dir) {
		fs = prepare_memory_fs(fd);
		snprintf(d->why, sizeof(d->why), "its file system%s%s%s has no block device",
			 fs ? " (" : "", fs ? fs : "", fs ? ")" : "");
		return;
	}
	d->readahead_bytes = readahead_of(dir);
	open_leaves(d, dir, 0);
	free(dir);
	if (d->n == 0)
		snprintf(d->why, sizeof(d->why), "the stat file of block device %u:%u could not be "
			 "read", major(dev), minor(dev));
}

void devstat_close(struct devstat *d)
{
	for (unsigned i = 0; i < d->n; i++)
		close(d->fd[i]);
	d->n = 0;
}

int devstat_sample(const struct devstat *d, struct devstat_sample *s)
{
	char buf[512];
	struct devstat_sample one;

	memset(s, 0, sizeof(*s));
	s->n = DS__COUNT;
	for (unsigned i = 0; i < d->n; i++) {
		ssize_t got = pread(d->fd[i], buf, sizeof(buf) - 1, 0);

		if (got <= 0)
			return -1;
		buf[got] = '\0';
		if (devstat_parse(buf, &one) < 0)
			return -1;
		if (one.n < s->n)
			s->n = one.n;
		for (unsigned k = 0; k < one.n; k++)
			if (__builtin_add_overflow(s->v[k], one.v[k], &s->v[k]))
				return -1;
	}
	return d->n ? 0 : -1;
}

int devstat_diff(const struct devstat_sample *a, const struct devstat_sample *b,
		 struct devstat_delta *out)
{
	static const int sectors[2] = { DS_READ_SECTORS, DS_WRITE_SECTORS };
	uint64_t d[DS__COUNT];

	memset(out, 0, sizeof(*out));
	if (a->n < DEVSTAT_MIN_FIELDS || b->n < DEVSTAT_MIN_FIELDS)
		return -1;
	for (unsigned k = 0; k < DEVSTAT_MIN_FIELDS; k++) {
		if (k == DS_IN_FLIGHT) /* a level, not a counter */
			continue;
		if (b->v[k] < a->v[k])
			return -1;
		d[k] = b->v[k] - a->v[k];
	}
	for (int dir = 0; dir < 2; dir++)
		if (__builtin_mul_overflow(d[sectors[dir]], 512, &out->bytes[dir]))
			return -1;
	out->ios[0] = d[DS_READ_IOS];
	out->ios[1] = d[DS_WRITE_IOS];
	out->merges[0] = d[DS_READ_MERGES];
	out->merges[1] = d[DS_WRITE_MERGES];
	out->ticks_ms[0] = d[DS_READ_TICKS];
	out->ticks_ms[1] = d[DS_WRITE_TICKS];
	out->busy_ms = d[DS_IO_TICKS];
	out->queue_ms = d[DS_TIME_IN_QUEUE];
	return 0;
}

/* a + b, or UINT64_MAX when it does not fit */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
	uint64_t s;

	return __builtin_add_overflow(a, b, &s) ? UINT64_MAX : s;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	uint64_t p;

	return __builtin_mul_overflow(a, b, &p) ? UINT64_MAX : p;
}

void devstat_excess(const struct devstat_delta *d, const uint64_t app_bytes[2],
		    uint64_t app_reads, bool buffered, uint64_t readahead_bytes, uint64_t excess[2])
{
	uint64_t bound[2];

	bound[0] = sat_add(app_bytes[0], DEVSTAT_SLACK_BYTES);
	if (buffered)
		bound[0] = sat_add(bound[0], sat_mul(app_reads, readahead_bytes));
	bound[1] = sat_add(sat_mul(app_bytes[1], 2), DEVSTAT_SLACK_BYTES);
	for (int k = 0; k < 2; k++)
		excess[k] = d->bytes[k] > bound[k] ? d->bytes[k] - bound[k] : 0;
}
