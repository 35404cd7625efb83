/*
 * mdtree.c - the tree iosweep makes for metadata phases (see mdtree.h).
 */
#define _GNU_SOURCE
#include "io/mdtree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "io/cache.h"
#include "lib/error.h"
#include "lib/intmath.h"

const char *const md_op_names[] = { [MD_MKDIR] = "mkdir",   [MD_CREATE] = "create",
				    [MD_FSYNC] = "fsync",   [MD_STAT] = "stat",
				    [MD_READDIR] = "readdir", [MD_RENAME] = "rename",
				    [MD_UNLINK] = "unlink", [MD_RMDIR] = "rmdir",
				    [MD_FSYNCDIR] = "fsyncdir", [MD_SYNCFS] = "syncfs",
				    [MD_STATDIR] = "statdir",
				    [MD_READ] = "read",     NULL };

enum md_state md_op_needs(enum md_op op)
{
	switch (op) {
	case MD_MKDIR:
		return MD_EMPTY;
	case MD_CREATE:
	case MD_STATDIR:
	case MD_RMDIR:
		return MD_DIRS;
	default:
		return MD_FILES;
	}
}

enum md_state md_op_leaves(enum md_op op)
{
	switch (op) {
	case MD_MKDIR:
	case MD_STATDIR:
	case MD_UNLINK:
		return MD_DIRS;
	case MD_RMDIR:
		return MD_EMPTY;
	default:
		return MD_FILES;
	}
}

/* How often an untimed pass looks at the stop flag. */
#define STOP_EVERY 1024

void mdtree_path(const struct mdtree *t, enum md_op op, uint64_t k, char *buf)
{
	if (op == MD_SYNCFS)
		snprintf(buf, 64, ".");
	else if (md_op_dirs(op))
		snprintf(buf, 64, "d%" PRIu64, k);
	else
		snprintf(buf, 64, "d%" PRIu64 "/%c%" PRIu64, k / t->files, t->renamed ? 'r' : 'f',
			 k);
}

/* Writes file k's bytes of t->data to fd: 0 or -errno. */
static long write_file(const struct mdtree *t, int fd, uint64_t k)
{
	uint64_t left = mdtree_size(t, k);

	while (left) {
		size_t want = left < t->bs ? (size_t)left : (size_t)t->bs;
		ssize_t put = write(fd, t->data, want);

		if (put < 0 && errno == EINTR)
			continue;
		if (put <= 0)
			return put < 0 ? -errno : -ENOSPC;
		left -= (uint64_t)put;
	}
	return 0;
}

/* readdir: every entry of directory k listed with getdents64 into buf. */
static long list_dir(const struct mdtree *t, uint64_t k, unsigned char *buf, size_t n)
{
	char path[64];
	long entries = 0, got;
	int fd;

	mdtree_path(t, MD_READDIR, k, path);
	fd = openat(t->rootfd, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((got = syscall(SYS_getdents64, fd, buf, n)) > 0)
		for (long off = 0; off < got; entries++)
			off += ((const struct dirent64 *)(const void *)(buf + off))->d_reclen;
	if (got < 0) {
		got = -errno;
		close(fd);
		return got;
	}
	close(fd);
	return entries;
}

long mdtree_do(const struct mdtree *t, enum md_op op, uint64_t k, unsigned char *buf, size_t n)
{
	char path[64], to[64];
	struct stat st;
	long rc = 0;
	int fd;

	mdtree_path(t, op, k, path);
	switch (op) {
	case MD_MKDIR:
		return mkdirat(t->rootfd, path, 0700) < 0 ? -errno : 0;
	case MD_RMDIR:
		return unlinkat(t->rootfd, path, AT_REMOVEDIR) < 0 ? -errno : 0;
	case MD_UNLINK:
		return unlinkat(t->rootfd, path, 0) < 0 ? -errno : 0;
	case MD_STAT:
	case MD_STATDIR:
		return fstatat(t->rootfd, path, &st, AT_SYMLINK_NOFOLLOW) < 0 ? -errno : 0;
	case MD_RENAME:
		snprintf(to, sizeof(to), "d%" PRIu64 "/%c%" PRIu64, k / t->files,
			 t->renamed ? 'f' : 'r', k);
		return renameat2(t->rootfd, path, t->rootfd, to, RENAME_NOREPLACE) < 0 ? -errno : 0;
	case MD_READDIR:
		return list_dir(t, k, buf, n);
	case MD_FSYNCDIR:
		fd = openat(t->rootfd, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		rc = fsync(fd) < 0 ? -errno : 0;
		if (close(fd) < 0 && rc == 0)
			rc = -errno;
		return rc;
	case MD_SYNCFS:
		return syncfs(t->rootfd) < 0 ? -errno : 0;
	case MD_CREATE:
	case MD_FSYNC:
		fd = op == MD_CREATE ? openat(t->rootfd, path,
					      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
					      0600)
				     : openat(t->rootfd, path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		rc = op == MD_CREATE ? write_file(t, fd, k) : fsync(fd) < 0 ? -errno : 0;
		if (close(fd) < 0 && rc == 0)
			rc = -errno;
		return rc;
	case MD_READ:
	case MD__OPS:
		break;
	}
	return -EINVAL;
}

int mdtree_open_file(const struct mdtree *t, uint64_t k)
{
	char path[64];
	int fd;

	mdtree_path(t, MD_READ, k, path);
	fd = openat(t->rootfd, path, O_RDONLY | O_NOFOLLOW | O_NOATIME | O_CLOEXEC);
	if (fd < 0 && errno == EPERM)
		fd = openat(t->rootfd, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* Whether name is c followed by a number (iosweep's names in a tree). */
static bool our_name(const char *name, char c)
{
	if (name[0] != c || !name[1])
		return false;
	for (const char *p = name + 1; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

/* Removes what iosweep made under the root (dK, and fI, rI in them),
 * whatever state it is in; *files, *dirs count what went.  A name iosweep
 * does not make is left, and fails the sweep. */
static int sweep(struct mdtree *t, uint64_t *files, uint64_t *dirs, char *err)
{
	int fd = openat(t->rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *root = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *e;
	int rc = 0;

	if (!root) {
		if (fd >= 0)
			close(fd);
		return err_set(err, "%s: cannot read it: %s", t->root, strerror(errno));
	}
	while (rc == 0 && (e = readdir(root)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    !strcmp(e->d_name, MDTREE_RECORD))
			continue;
		if (!our_name(e->d_name, 'd')) {
			rc = err_set(err, "%s holds %.100s, which iosweep did not make: it is left; "
					  "remove it, or give the job another directory",
				     t->root, e->d_name);
			break;
		}
		int dfd = openat(t->rootfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		DIR *d = dfd < 0 ? NULL : fdopendir(dfd);
		struct dirent *f;

		if (!d) {
			if (dfd >= 0)
				close(dfd);
			rc = err_set(err, "%s/%s: cannot read it: %s", t->root, e->d_name,
				     strerror(errno));
			break;
		}
		while (rc == 0 && (f = readdir(d)) != NULL) {
			if (!strcmp(f->d_name, ".") || !strcmp(f->d_name, ".."))
				continue;
			if ((!our_name(f->d_name, 'f') && !our_name(f->d_name, 'r')) ||
			    f->d_type == DT_DIR)
				rc = err_set(err, "%s/%s holds %.100s, which iosweep did not make: "
						  "it is left; remove it, or give the job another "
						  "directory", t->root, e->d_name, f->d_name);
			else if (unlinkat(dfd, f->d_name, 0) < 0 && errno != ENOENT)
				rc = err_set(err, "cannot remove %s/%s/%s: %s", t->root, e->d_name,
					     f->d_name, strerror(errno));
			else
				(*files)++;
		}
		closedir(d);
		if (rc == 0 && unlinkat(t->rootfd, e->d_name, AT_REMOVEDIR) < 0 && errno != ENOENT)
			rc = err_set(err, "cannot remove %s/%s: %s", t->root, e->d_name,
				     strerror(errno));
		else if (rc == 0)
			(*dirs)++;
	}
	closedir(root);
	if (rc == 0) {
		t->state = MD_EMPTY;
		t->renamed = false;
	}
	return rc;
}

/* The root, existing: iosweep's, by its owner, mode and record; its
 * record opened into t->lockfd. */
static int check_root(struct mdtree *t, char *err)
{
	struct stat st;

	if (fstat(t->rootfd, &st) < 0)
		return err_set(err, "%s: %s", t->root, strerror(errno));
	if (st.st_uid != geteuid() || (st.st_mode & 0077))
		return err_set(err, "%s: not a tree iosweep made (owned by uid %u, mode %04o); "
				    "remove it, or give the job another directory", t->root,
			       (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
	t->lockfd = openat(t->rootfd, MDTREE_RECORD, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (t->lockfd < 0 || fstat(t->lockfd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid())
		return err_set(err, "%s: a directory without iosweep's record (%s): not a tree "
				    "iosweep made; remove it, or give the job another directory",
			       t->root, MDTREE_RECORD);
	return 0;
}

/* The tree's fields, and its directory and root opened (the root made
 * first when make is set and it is missing: *made). */
static int open_root(struct mdtree *t, const char *dir, const char *name, uint32_t dirs,
		     uint32_t files, uint64_t filesize, bool make, bool *made, char *err)
{
	*t = (struct mdtree){ .parentfd = -1, .rootfd = -1, .lockfd = -1, .dirs = dirs,
			      .files = files, .filesize = filesize, .state = MD_UNKNOWN,
			      .parts = 1 };
	*made = false;
	snprintf(t->name, sizeof(t->name), "%.200s%s", name, MDTREE_SUFFIX);
	snprintf(t->root, sizeof(t->root), "%s/%s", dir, t->name);
	t->parentfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t->parentfd < 0)
		return err_set(err, "directory %s: %s", dir, strerror(errno));
	if (make && mkdirat(t->parentfd, t->name, 0700) == 0)
		*made = true;
	else if (make && errno != EEXIST)
		return err_set(err, "cannot make %s: %s", t->root, strerror(errno));
	t->rootfd = openat(t->parentfd, t->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (t->rootfd < 0)
		return err_set(err, "%s: %s%s", t->root, strerror(errno),
			       errno == ELOOP || errno == ENOTDIR
				       ? " (a link or a file where iosweep makes its tree: not "
					 "followed, not removed)"
				       : "");
	return 0;
}

/* The record says which run holds the tree: its host, process and clock. */
static int write_token(struct mdtree *t, char *err)
{
	char host[64] = "";
	struct timespec ts;
	int n;

	(void)gethostname(host, sizeof(host) - 1);
	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(t->token, sizeof(t->token), "%.63s:%ld:%lld.%09ld", host, (long)getpid(),
		 (long long)ts.tv_sec, ts.tv_nsec);
	n = (int)strlen(t->token);
	if (ftruncate(t->lockfd, 0) < 0 ||
	    dprintf(t->lockfd, "iosweep-tree 1 %s\n", t->token) != n + 16)
		return err_set(err, "cannot write %s/%s: %s", t->root, MDTREE_RECORD,
			       strerror(errno));
	return 0;
}

int mdtree_join(struct mdtree *t, const char *dir, const char *name, uint32_t dirs,
		uint32_t files, uint64_t filesize, const char *token, char *err)
{
	char want[sizeof(t->token) + 32], got[sizeof(want)], why[ERR_MAX];
	bool made;
	ssize_t n = snprintf(want, sizeof(want), "iosweep-tree 1 %s\n", token);

	if (open_root(t, dir, name, dirs, files, filesize, false, &made, err) == 0 &&
	    check_root(t, err) == 0) {
		if (pread(t->lockfd, got, sizeof(got), 0) == n && !memcmp(got, want, (size_t)n)) {
			snprintf(t->token, sizeof(t->token), "%s", token);
			return 0;
		}
		err_set(err, "%s: another tree than the one rank 0 made and holds", t->root);
	}
	memcpy(why, err, ERR_MAX);
	return err_set(err, "%.900s: a tree under MPI is made by rank 0 in a directory every "
			    "rank shares; give the job a directory on a shared file system", why);
}

int mdtree_open(struct mdtree *t, const char *dir, const char *name, uint32_t dirs,
		uint32_t files, uint64_t filesize, mdtree_note_fn note, void *arg, char *err)
{
	bool made;

	if (open_root(t, dir, name, dirs, files, filesize, true, &made, err) < 0)
		return -1;
	if (made) {
		t->lockfd = openat(t->rootfd, MDTREE_RECORD,
				   O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (t->lockfd < 0) {
			err_set(err, "cannot make %s/%s: %s", t->root, MDTREE_RECORD,
				strerror(errno));
			(void)unlinkat(t->parentfd, t->name, AT_REMOVEDIR); /* its, and empty */
			return -1;
		}
	} else if (check_root(t, err) < 0) {
		return -1;
	}
	if (flock(t->lockfd, LOCK_EX | LOCK_NB) < 0)
		return err_set(err, "%s: %s", t->root,
			       errno == EWOULDBLOCK ? "another iosweep is using this tree; wait for "
						      "it, or give the job another directory"
						    : strerror(errno));
	t->held = true;
	uint64_t nf = 0, nd = 0;

	if (write_token(t, err) < 0 || sweep(t, &nf, &nd, err) < 0)
		return -1;
	if ((nf || nd) && note) {
		char msg[PATH_MAX + 160];

		snprintf(msg, sizeof(msg), "removed what a run cut short left in %s: %" PRIu64
			 " files, %" PRIu64 " directories", t->root, nf, nd);
		note(msg, arg);
	}
	return 0;
}

int mdtree_close(struct mdtree *t, char *err)
{
	uint64_t nf = 0, nd = 0;
	int rc = 0;

	/* a run refused the lock leaves the tree to the run that holds it */
	if (t->held) {
		rc = sweep(t, &nf, &nd, err);
		if (rc == 0 && unlinkat(t->rootfd, MDTREE_RECORD, 0) < 0)
			rc = err_set(err, "cannot remove %s/%s: %s", t->root, MDTREE_RECORD,
				     strerror(errno));
		if (rc == 0 && unlinkat(t->parentfd, t->name, AT_REMOVEDIR) < 0)
			rc = err_set(err, "cannot remove %s: %s", t->root, strerror(errno));
	}
	if (t->lockfd >= 0)
		close(t->lockfd);
	if (t->rootfd >= 0)
		close(t->rootfd);
	if (t->parentfd >= 0)
		close(t->parentfd);
	t->lockfd = t->rootfd = t->parentfd = -1;
	t->held = false;
	return rc;
}

/* One untimed pass of phase op over this process's share of its items:
 * 0, 1 when *stop was set, or -1 with err. */
static int pass(struct mdtree *t, enum md_op op, volatile atomic_int *stop, char *err)
{
	uint64_t n = mdtree_items(t->dirs, t->files, op), end = share_start(n, t->part + 1, t->parts);
	char path[64];

	for (uint64_t k = share_start(n, t->part, t->parts); k < end; k++) {
		long rc;

		if (k % STOP_EVERY == 0 && stop && *stop)
			return 1;
		rc = mdtree_do(t, op, k, NULL, 0);
		if (rc < 0) {
			mdtree_path(t, op, k, path);
			return err_set(err, "%s: %s/%s: %s", md_op_names[op], t->root, path,
				       strerror((int)-rc));
		}
	}
	return 0;
}

int mdtree_bring(struct mdtree *t, enum md_state want, mdtree_agree_fn agree, void *arg,
		 volatile atomic_int *stop, char *err)
{
	uint64_t nf = 0, nd = 0;
	int rc = 0;

	if (t->state == MD_UNKNOWN) { /* share 0 sweeps, for every share */
		rc = t->part == 0 ? sweep(t, &nf, &nd, err) : 0;
		if (agree)
			rc = agree(rc, arg, err);
		if (rc != 0)
			return rc;
		t->state = MD_EMPTY;
		t->renamed = false;
	}
	while (t->state != want) {
		enum md_op op = t->state < want ? t->state == MD_EMPTY ? MD_MKDIR : MD_CREATE
				: t->state == MD_FILES ? MD_UNLINK
						       : MD_RMDIR;

		rc = pass(t, op, stop, err);
		if (agree) /* a pass ends on every share before the next begins */
			rc = agree(rc, arg, err);
		if (rc != 0) {
			t->state = MD_UNKNOWN;
			return rc;
		}
		t->state = md_op_leaves(op);
	}
	return 0;
}

int mdtree_evict(const struct mdtree *t, volatile atomic_int *stop, char *err)
{
	uint64_t n = (uint64_t)t->dirs * t->files;
	char path[64];

	for (uint64_t k = 0; k < n; k++) {
		int fd = mdtree_open_file(t, k), rc;

		mdtree_path(t, MD_READ, k, path);
		if (fd < 0)
			return err_set(err, "%s/%s: %s", t->root, path, strerror(-fd));
		rc = cache_evict_fd(fd, path, mdtree_size(t, k), stop, err);
		close(fd);
		if (rc != 0)
			return rc;
	}
	return 0;
}

double mdtree_residency(const struct mdtree *t)
{
	uint64_t n = (uint64_t)t->dirs * t->files;
	double sum = 0, bytes = 0;

	for (uint64_t k = 0; k < n; k++) {
		uint64_t size = mdtree_size(t, k);
		int fd;
		double f;

		if (!size)
			continue;
		fd = mdtree_open_file(t, k);
		if (fd < 0)
			return -1;
		f = cache_resident_cheap(fd, size);
		close(fd);
		if (f < 0)
			return -1;
		sum += f * (double)size;
		bytes += (double)size;
	}
	return bytes ? sum / bytes : -1;
}
