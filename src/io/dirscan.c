/*
 * dirscan.c - a user's tree found and opened read-only (see dirscan.h).
 *
 * The walk holds one descriptor per level, each directory opened under its
 * parent's descriptor with O_NOFOLLOW|O_DIRECTORY, and every entry judged by
 * fstatat(AT_SYMLINK_NOFOLLOW) on that descriptor: a name is only ever
 * looked up in the directory that was read, and no link is ever followed,
 * so no loop and no planted link can take the walk anywhere.  Directories
 * are opened O_NOATIME too (reading them would otherwise touch their atime).
 * The names go into one growing arena; the file records into one array;
 * both are sorted once at the end.
 */
#define _GNU_SOURCE
#include "io/dirscan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "io/cache.h"
#include "lib/error.h"
#include "lib/splitmix.h"

const char *const dirscan_skip_names[DIRSCAN__SKIPS] = {
	[DIRSCAN_SYMLINK] = "symlinks",     [DIRSCAN_SPECIAL] = "special",
	[DIRSCAN_UNREADABLE] = "unreadable", [DIRSCAN_VANISHED] = "vanished",
	[DIRSCAN_DEEP] = "deep",
};

/* The longest relative path the walk can build. */
#define PATH_BUF (DIRSCAN_MAX_DEPTH * (NAME_MAX + 1) + 1)
/* what warming reads a file with, at a time */
#define WARM_BUF ((size_t)1 << 20)

static void skip(struct dirscan *s, enum dirscan_skip kind, const char *path)
{
	if (s->skipped[kind]++ == 0)
		snprintf(s->first_skip[kind], sizeof(s->first_skip[kind]), "%s", path);
}

static int add_file(struct dirscan *s, const char *path, size_t len, uint64_t size)
{
	if (s->nfiles >= DIRSCAN_MAX_FILES)
		return -1;
	if (s->nfiles == s->files_cap) {
		uint32_t cap = s->files_cap ? s->files_cap * 2 : 1024;
		struct dirscan_file *f;

		if (cap < s->files_cap || cap > DIRSCAN_MAX_FILES)
			cap = DIRSCAN_MAX_FILES;
		f = realloc(s->files, (size_t)cap * sizeof(*f));
		if (!f)
			return -1;
		s->files = f;
		s->files_cap = cap;
	}
	if (s->arena_len + len + 1 > s->arena_cap) {
		uint64_t cap = s->arena_cap ? s->arena_cap * 2 : 65536;
		char *a;

		while (cap < s->arena_len + len + 1)
			cap *= 2;
		a = realloc(s->arena, cap);
		if (!a)
			return -1;
		s->arena = a;
		s->arena_cap = cap;
	}
	memcpy(s->arena + s->arena_len, path, len + 1);
	s->files[s->nfiles++] = (struct dirscan_file){ .name = s->arena_len, .size = size };
	s->arena_len += len + 1;
	s->bytes += size;
	return 0;
}

/* openat with O_NOATIME while the kernel allows it (EPERM: the file is not
 * ours and we lack CAP_FOWNER), then without. */
static int open_noatime(int dirfd, const char *name, int flags, bool *no_noatime, bool *refused)
{
	int fd;

	if (!*no_noatime) {
		fd = openat(dirfd, name, flags | O_NOATIME);
		if (fd >= 0 || errno != EPERM)
			return fd;
		*no_noatime = true;
		*refused = true;
	}
	return openat(dirfd, name, flags);
}

static enum dirscan_skip open_error_kind(int e)
{
	switch (e) {
	case ENOENT:
	case ENOTDIR:
	case ESTALE:
		return DIRSCAN_VANISHED;
	case ELOOP:
		return DIRSCAN_SYMLINK;
	case ENXIO:
	case ENODEV:
		return DIRSCAN_SPECIAL;
	default:
		return DIRSCAN_UNREADABLE;
	}
}

struct walk {
	struct dirscan *s;
	char *path;  /* PATH_BUF bytes: the relative path being built */
	bool no_noatime, refused;
	volatile atomic_int *stop; /* set: the walk ends (a signal) */
	char *err;
};

/* Reads directory fd (its relative path path[0..len)), which it closes. */
static int walk_dir(struct walk *w, int fd, size_t len, unsigned depth)
{
	DIR *d = fdopendir(fd);
	struct dirent *de;
	int rc;

	if (!d) {
		close(fd);
		return err_set(w->err, "%.*s: %s", (int)len, w->path, strerror(errno));
	}
	w->s->dirs++;
	for (;;) {
		struct stat st;
		size_t nlen, plen;

		if (w->stop && atomic_load(w->stop)) {
			closedir(d);
			return 1;
		}
		errno = 0;
		de = readdir(d);
		if (!de) {
			if (errno)
				skip(w->s, errno == ENOENT ? DIRSCAN_VANISHED : DIRSCAN_UNREADABLE,
				     len ? w->path : ".");
			break;
		}
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		nlen = strlen(de->d_name);
		plen = len ? len + 1 + nlen : nlen;
		if (len)
			w->path[len] = '/';
		memcpy(w->path + (len ? len + 1 : 0), de->d_name, nlen + 1);
		/* a file the user may not read (access) is no file of its dataset */
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    (S_ISREG(st.st_mode) && faccessat(dirfd(d), de->d_name, R_OK, AT_EACCESS) < 0)) {
			skip(w->s, errno == ENOENT ? DIRSCAN_VANISHED : DIRSCAN_UNREADABLE, w->path);
		} else if (S_ISLNK(st.st_mode)) {
			skip(w->s, DIRSCAN_SYMLINK, w->path);
		} else if (S_ISREG(st.st_mode)) {
			if (add_file(w->s, w->path, plen, (uint64_t)st.st_size) < 0) {
				closedir(d);
				return err_set(w->err, "%s: out of memory after %u files", w->path,
					       w->s->nfiles);
			}
		} else if (!S_ISDIR(st.st_mode)) {
			skip(w->s, DIRSCAN_SPECIAL, w->path);
		} else if (depth + 1 >= DIRSCAN_MAX_DEPTH) {
			skip(w->s, DIRSCAN_DEEP, w->path);
		} else {
			int sub = open_noatime(dirfd(d), de->d_name,
					       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
					       &w->no_noatime, &w->refused);

			if (sub < 0 && (errno == EMFILE || errno == ENFILE || errno == ENOMEM)) {
				closedir(d);
				return err_set(w->err, "%s: %s", w->path, strerror(errno));
			} else if (sub < 0) {
				skip(w->s, open_error_kind(errno), w->path);
			} else if ((rc = walk_dir(w, sub, plen, depth + 1)) != 0) {
				closedir(d);
				return rc;
			}
		}
		w->path[len] = '\0';
	}
	closedir(d);
	return 0;
}

static int by_name(const void *a, const void *b, void *arena)
{
	const struct dirscan_file *x = a, *y = b;

	return strcmp((const char *)arena + x->name, (const char *)arena + y->name);
}

int dirscan_scan(const char *root, struct dirscan *s, volatile atomic_int *stop, char *err)
{
	struct walk w = { .s = s, .stop = stop, .err = err };
	int fd, rc;

	*s = (struct dirscan){ .rootfd = -1 };
	s->rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (s->rootfd < 0)
		return err_set(err, "%s: %s", root, strerror(errno));
	fd = open_noatime(s->rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC, &w.no_noatime,
			  &w.refused);
	if (fd < 0) {
		err_set(err, "%s: %s", root, strerror(errno));
		dirscan_free(s);
		return -1;
	}
	w.path = calloc(1, PATH_BUF);
	if (!w.path) {
		close(fd);
		dirscan_free(s);
		return err_set(err, "%s: out of memory", root);
	}
	rc = walk_dir(&w, fd, 0, 0);
	if (rc != 0) {
		free(w.path);
		dirscan_free(s);
		return rc;
	}
	free(w.path);
	s->noatime_refused = w.refused;
	if (s->nfiles)
		qsort_r(s->files, s->nfiles, sizeof(*s->files), by_name, s->arena);
	return 0;
}

void dirscan_free(struct dirscan *s)
{
	if (s->rootfd >= 0)
		close(s->rootfd);
	free(s->arena);
	free(s->files);
	*s = (struct dirscan){ .rootfd = -1 };
}

uint64_t dirscan_memory(const struct dirscan *s)
{
	return s->arena_cap + (uint64_t)s->files_cap * sizeof(*s->files);
}

void dirscan_order(const struct dirscan *s, enum dirscan_order how, uint64_t seed, unsigned epoch,
		   uint32_t *order)
{
	uint64_t key = splitmix64(seed ^ 0x6f70656e646972ULL ^
				  (how == DIRSCAN_SHUFFLE ? splitmix64(epoch + 1) : 0));

	for (uint32_t k = 0; k < s->nfiles; k++)
		order[k] = k;
	if (how == DIRSCAN_SEQUENTIAL)
		return;
	/* Fisher-Yates, the draws a splitmix64 stream keyed by the seed */
	for (uint32_t k = s->nfiles; k > 1; k--) {
		uint32_t j = (uint32_t)(splitmix64(key + k) % k), t = order[k - 1];

		order[k - 1] = order[j];
		order[j] = t;
	}
}

/* openat2 beneath the root with no link on the way; openat where the
 * kernel has no openat2 (the last name is still O_NOFOLLOW). */
static int open_beneath(int rootfd, const char *name, int flags)
{
	struct open_how how = { .flags = (uint64_t)flags,
				.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
					   RESOLVE_NO_MAGICLINKS };
	long fd = syscall(SYS_openat2, rootfd, name, &how, sizeof(how));

	if (fd < 0 && errno == ENOSYS)
		return openat(rootfd, name, flags);
	return (int)fd;
}

int dirscan_open(const struct dirscan *s, uint32_t k, struct dirscan_reader *r,
		 enum dirscan_skip *kind)
{
	const int flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | (r->direct ? O_DIRECT : 0);
	const char *name = dirscan_name(s, k);
	struct stat st;
	int fd = -1, e, used = flags;

	r->last = k;
	if (!r->no_noatime) {
		used = flags | O_NOATIME;
		fd = open_beneath(s->rootfd, name, used);
		if (fd < 0 && errno == EPERM) {
			r->no_noatime = true;
			r->noatime_refused = true;
		}
	}
	if (fd < 0 && r->no_noatime) {
		used = flags;
		fd = open_beneath(s->rootfd, name, flags);
	}
	if (fd < 0) {
		*kind = open_error_kind(errno);
		return -1;
	}
	/* the status flags it was opened with, but O_NONBLOCK: known, so one
	 * call (F_SETFL keeps only O_NOATIME, O_DIRECT and the like of them) */
	if (fstat(fd, &st) < 0 ||
	    (S_ISREG(st.st_mode) && fcntl(fd, F_SETFL, used & ~O_NONBLOCK) < 0)) {
		e = errno;
		*kind = DIRSCAN_UNREADABLE;
	} else if (!S_ISREG(st.st_mode)) {
		e = EINVAL;
		*kind = DIRSCAN_SPECIAL;
	} else {
		r->size = (uint64_t)st.st_size;
		return fd;
	}
	close(fd);
	errno = e;
	return -1;
}

/* Each file of s opened as for reading, given to fn (fd, its size, arg);
 * 1 when *stop was set, -1 when fn failed (err set). */
static int each_file(const struct dirscan *s, int (*fn)(int, uint64_t, void *, char *), void *arg,
		     volatile atomic_int *stop, char *err)
{
	struct dirscan_reader r = { 0 };
	enum dirscan_skip why;

	for (uint32_t k = 0; k < s->nfiles; k++) {
		int fd, rc;

		if (stop && atomic_load(stop))
			return 1;
		fd = dirscan_open(s, k, &r, &why);
		if (fd < 0)
			continue; /* the run counts it when it meets it */
		rc = fn(fd, r.size, arg, err);
		close(fd);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static int evict_one(int fd, uint64_t size, void *arg, char *err)
{
	(void)arg;
	return cache_evict_fd(fd, "a file of the tree", size, NULL, err) == 0 ? 0 : -1;
}

int dirscan_evict(const struct dirscan *s, volatile atomic_int *stop, char *err)
{
	return each_file(s, evict_one, NULL, stop, err);
}

static int warm_one(int fd, uint64_t size, void *arg, char *err)
{
	unsigned char *buf = arg;
	ssize_t n;

	(void)size;
	do
		n = read(fd, buf, WARM_BUF);
	while (n > 0 || (n < 0 && errno == EINTR));
	if (n < 0)
		return err_set(err, "read: %s", strerror(errno));
	return 0;
}

int dirscan_warm(const struct dirscan *s, volatile atomic_int *stop, char *err)
{
	unsigned char *buf = malloc(WARM_BUF);
	int rc;

	if (!buf)
		return err_set(err, "out of memory");
	rc = each_file(s, warm_one, buf, stop, err);
	free(buf);
	return rc;
}

struct resident {
	double cached, bytes;
	bool unknown;
};

static int resident_one(int fd, uint64_t size, void *arg, char *err)
{
	struct resident *r = arg;
	double f = size ? cache_resident_cheap(fd, size) : 0;

	(void)err;
	if (f < 0)
		r->unknown = true;
	else
		r->cached += f * (double)size;
	return 0;
}

double dirscan_residency(const struct dirscan *s, volatile atomic_int *stop)
{
	struct resident r = { .bytes = (double)s->bytes };
	char err[ERR_MAX];

	if (each_file(s, resident_one, &r, stop, err) != 0 || r.unknown)
		return -1;
	return r.bytes > 0 ? r.cached / r.bytes : 0;
}

static double first_field(const char *path)
{
	FILE *f = fopen(path, "re");
	char line[256], *end;
	double v = NAN;

	if (f) {
		if (fgets(line, sizeof(line), f)) {
			errno = 0;
			unsigned long long n = strtoull(line, &end, 10);

			if (end != line && errno == 0)
				v = (double)n;
		}
		fclose(f);
	}
	return v;
}

double dirscan_dentries(void)
{
	return first_field("/proc/sys/fs/dentry-state");
}

double dirscan_inodes(void)
{
	return first_field("/proc/sys/fs/inode-nr");
}
