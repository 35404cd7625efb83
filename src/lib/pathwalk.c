/*
 * pathwalk.c - a path resolved one name at a time (see pathwalk.h).
 *
 * Each directory is held by an O_PATH descriptor while the next name is
 * looked up under it, so a directory renamed or replaced meanwhile cannot
 * send the walk elsewhere: a name is only ever looked up in the directory
 * that was checked.  A link is opened itself (O_PATH|O_NOFOLLOW), judged on
 * that descriptor and read through it (readlinkat with an empty name), so
 * the link judged is the link followed.  ".." is the parent of the real
 * directory reached, as the kernel has it after a link.
 */
#define _GNU_SOURCE
#include "lib/pathwalk.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/error.h"

#define MAX_LINKS 40 /* as the kernel's ELOOP */

bool pathwalk_world_writable(const struct stat *dst)
{
	return (dst->st_mode & S_IWOTH) != 0;
}

static void who(uid_t uid, char *buf, size_t n)
{
	const struct passwd *pw = getpwuid(uid);

	if (pw)
		snprintf(buf, n, "%s (uid %u)", pw->pw_name, (unsigned)uid);
	else
		snprintf(buf, n, "uid %u", (unsigned)uid);
}

/* dir/name, into out (which may be dir itself); -1 when it does not fit. */
static int join(char *out, size_t n, const char *dir, const char *name)
{
	size_t dlen = strlen(dir), nlen = strlen(name), sep = strcmp(dir, "/") != 0;

	if (dlen + sep + nlen >= n)
		return -1;
	memmove(out, dir, dlen + 1);
	if (sep)
		out[dlen] = '/';
	memcpy(out + dlen + sep, name, nlen + 1);
	return 0;
}

static int fail(struct pathwalk *w, char *rest, char *err, const char *what, int e)
{
	err_set(err, "%s: %s", what, strerror(e));
	free(rest);
	pathwalk_done(w);
	return -1;
}

/* The directory the walk starts in: "/" or the working directory. */
static int walk_start(const char *path, struct pathwalk *w, char *err)
{
	bool abs = path[0] == '/';

	w->dirfd = open(abs ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (w->dirfd < 0)
		return err_set(err, "%s: %s", path, strerror(errno));
	if (abs || !getcwd(w->dir, sizeof(w->dir)))
		snprintf(w->dir, sizeof(w->dir), "%s", abs ? "/" : ".");
	return 0;
}

/* Steps into name (a directory; ".." the parent of the one reached). */
static int step_into(struct pathwalk *w, const char *name)
{
	int fd = openat(w->dirfd, name, O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
	char *slash;

	if (fd < 0)
		return -1;
	close(w->dirfd);
	w->dirfd = fd;
	if (strcmp(name, "..") != 0)
		return join(w->dir, sizeof(w->dir), w->dir, name) < 0 ? (errno = ENAMETOOLONG, -1) : 0;
	slash = strrchr(w->dir, '/');
	if (slash && slash != w->dir)
		*slash = '\0';
	else if (slash)
		slash[1] = '\0';
	return 0;
}

/* The link `name` in the walk's directory, judged and read: its target in
 * target.  -1 with err when it is refused or cannot be read. */
static int read_link(struct pathwalk *w, const char *name, bool last, pathwalk_judge_fn judge,
		     void *arg, char *target, char *err)
{
	char link[PATH_MAX], owner[64];
	struct stat lst, dst;
	int fd = openat(w->dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	ssize_t len = -1;

	join(link, sizeof(link), w->dir, name);
	if (fd < 0 || fstat(fd, &lst) < 0 || fstat(w->dirfd, &dst) < 0) {
		err_set(err, "%s: %s", link, strerror(errno));
		goto out;
	}
	if (!S_ISLNK(lst.st_mode)) { /* replaced meanwhile: look again from the start */
		err_set(err, "%s changed while it was looked at", link);
		goto out;
	}
	if (judge && judge(link, &lst, w->dir, &dst, last, arg, err) < 0)
		goto out;
	if (lst.st_uid != geteuid() && lst.st_uid != 0 && pathwalk_world_writable(&dst)) {
		who(lst.st_uid, owner, sizeof(owner));
		err_set(err, "%s is a symbolic link of %s in %s, a directory every user can "
			     "write: another user may have planted it, so iosweep does not follow it",
			link, owner, w->dir);
		goto out;
	}
	len = readlinkat(fd, "", target, PATH_MAX);
	if (len <= 0 || len >= PATH_MAX) {
		err_set(err, "%s: %s", link, strerror(len < 0 ? errno : ENAMETOOLONG));
		len = -1;
	} else {
		target[len] = '\0';
	}
out:
	if (fd >= 0)
		close(fd);
	return len < 0 ? -1 : 0;
}

/* rest becomes target, then what followed the link ("" when nothing). */
static char *link_splice(const char *target, const char *next)
{
	char *out;

	if (asprintf(&out, "%s%s%s", target, *next ? "/" : "", next) < 0)
		return NULL;
	return out;
}

/* The link name at the walk's place, judged and read: *rest becomes its
 * target and what followed it (next), and an absolute target starts the
 * walk again at "/".  -1 with err, the walk and *rest let go. */
static int follow(struct pathwalk *w, const char *name, bool last, const char *next,
		  pathwalk_judge_fn judge, void *arg, char **rest, char *err)
{
	char target[PATH_MAX], *grown;

	if (read_link(w, name, last, judge, arg, target, err) < 0) {
		free(*rest);
		pathwalk_done(w);
		return -1;
	}
	grown = link_splice(target, next);
	if (!grown)
		return fail(w, *rest, err, name, ENOMEM);
	free(*rest);
	*rest = grown;
	if (*grown == '/') {
		pathwalk_done(w);
		if (walk_start("/", w, err) < 0) {
			free(grown);
			return -1;
		}
	}
	return 0;
}

int pathwalk(const char *path, bool follow_last, pathwalk_judge_fn judge, void *arg,
	     struct pathwalk *w, char *err)
{
	char *rest = strdup(path), *p, target[PATH_MAX], name[NAME_MAX + 1];
	int hops = 0;

	memset(w, 0, sizeof(*w));
	w->dirfd = -1;
	if (!rest)
		return err_set(err, "out of memory");
	if (!*path)
		return fail(w, rest, err, path, ENOENT);
	if (walk_start(path, w, err) < 0) {
		free(rest);
		return -1;
	}
	for (p = rest;;) {
		size_t len;
		char *next;
		bool last;
		struct stat st;

		p += strspn(p, "/");
		len = strcspn(p, "/");
		next = p + len + strspn(p + len, "/");
		last = !*next;
		if (!len) { /* the path names a directory itself */
			snprintf(w->name, sizeof(w->name), ".");
			break;
		}
		if (len > NAME_MAX)
			return fail(w, rest, err, path, ENAMETOOLONG);
		memcpy(name, p, len);
		name[len] = '\0';
		if (!strcmp(name, ".") || !strcmp(name, "..")) {
			if (!strcmp(name, "..") && step_into(w, "..") < 0)
				return fail(w, rest, err, w->dir, errno);
			p = next;
			continue;
		}
		if (fstatat(w->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno != ENOENT || last) {
				snprintf(w->name, sizeof(w->name), "%s", name);
				if (errno == ENOENT)
					break; /* the last name: the caller may create it */
				join(target, sizeof(target), w->dir, name);
				return fail(w, rest, err, target, errno);
			}
			/* a directory on the way is missing: nothing further to follow */
			join(w->dir, sizeof(w->dir), w->dir, name);
			close(w->dirfd);
			w->dirfd = -1;
			w->missing = true;
			break;
		}
		if (S_ISLNK(st.st_mode) && (!last || follow_last)) {
			if (++hops > MAX_LINKS)
				return fail(w, rest, err, path, ELOOP);
			if (follow(w, name, last, next, judge, arg, &rest, err) < 0)
				return -1;
			p = rest;
			continue;
		}
		if (last) {
			snprintf(w->name, sizeof(w->name), "%s", name);
			break;
		}
		if (step_into(w, name) < 0) {
			join(target, sizeof(target), w->dir, name);
			return fail(w, rest, err, target, errno);
		}
		p = next;
	}
	free(rest);
	return 0;
}

void pathwalk_done(struct pathwalk *w)
{
	if (w->dirfd >= 0)
		close(w->dirfd);
	w->dirfd = -1;
}
