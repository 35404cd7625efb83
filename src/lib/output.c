/*
 * output.c - see output.h.
 *
 * The links on the way are found by pathwalk (pathwalk.h), the walk test
 * files are found by too, with the stricter rule of refuse_link() on top.
 * The check runs once, up front; the rename at the end looks again (lstat)
 * so that something planted at the path during a long run is not replaced
 * either.  rename(2) replaces a directory entry and never writes through a
 * link or into a device, so the window between that look and the rename
 * can at worst replace an entry, never write into another file.
 */
#define _GNU_SOURCE
#include "lib/output.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/error.h"
#include "lib/pathwalk.h"

static const char *type_name(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket"
	       : S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device"
	       : S_ISLNK(m) ? "a symbolic link" : "not a regular file";
}

/* The directory part of path, malloc'd ("." for a bare name). */
static char *dir_of(const char *path)
{
	char *copy = strdup(path), *dir;

	if (!copy)
		return NULL;
	dir = strdup(dirname(copy));
	free(copy);
	return dir;
}

/* A directory any user may create entries in, with the sticky bit (/tmp):
 * whatever is in it may have been put there by someone else. */
static bool shared_dir(const char *dir)
{
	struct stat st;

	return stat(dir, &st) == 0 && (st.st_mode & S_ISVTX) && (st.st_mode & S_IWOTH);
}

/* An absolute name without symbolic links for path, which need not exist
 * (its directory then stands for it); a copy of path when neither resolves. */
static char *canonical(const char *path)
{
	char *full = realpath(path, NULL), *copy, *dir, *out = NULL;

	if (full)
		return full;
	copy = strdup(path);
	dir = copy ? realpath(dirname(copy), NULL) : NULL;
	free(copy);
	copy = strdup(path);
	if (dir && copy && asprintf(&out, "%s/%s", dir, basename(copy)) < 0)
		out = NULL;
	free(dir);
	free(copy);
	return out ? out : strdup(path);
}

/* link (given itself, or a link met on the way to it) in dir, not to be
 * followed: in a directory every user can write to, or another user's. */
static int refuse_link(const char *given, const char *link, const struct stat *st,
		       const char *dir, char *err)
{
	const char *what = strcmp(link, given) ? link : "it";

	if (shared_dir(dir))
		return err_set(err, "cannot write %s: %s is a symbolic link in %s, a directory "
			       "every user can write to; iosweep does not follow it there (give "
			       "the file it points to)", given, what, dir);
	if (st->st_uid != geteuid())
		return err_set(err, "cannot write %s: %s is a symbolic link that belongs to "
			       "another user (uid %u); iosweep does not follow it (give the file "
			       "it points to)", given, what, (unsigned)st->st_uid);
	return 0;
}

/* What output_judge needs: the name given, and whether it refused. */
struct link_rule {
	const char *given;
	bool refused;
};

/* Every symbolic link met in resolving given (pathwalk.h) - in its
 * directories as in its last name, and in the links those lead through -
 * held to refuse_link()'s rule, except that a link to a directory may also
 * be root's (/var/run) outside a directory every user can write to. */
static int output_judge(const char *link, const struct stat *lst, const char *dir,
			const struct stat *dst, bool last, void *arg, char *err)
{
	struct link_rule *rule = arg;
	bool shared = (dst->st_mode & S_ISVTX) && (dst->st_mode & S_IWOTH);

	if (!(last || lst->st_uid != 0 || shared))
		return 0;
	rule->refused = refuse_link(rule->given, link, lst, dir, err) < 0;
	return rule->refused ? -1 : 0;
}

/* Resolving stops where the path leads to nothing: what does not exist has
 * no link to follow. */
static int check_links(const char *given, char *err)
{
	struct link_rule rule = { .given = given };
	struct pathwalk w;
	char why[ERR_MAX];

	if (pathwalk(given, true, output_judge, &rule, &w, why) < 0) {
		if (rule.refused)
			return err_set(err, "%s", why);
		return err_set(err, "cannot write %s: %s", given, why);
	}
	pathwalk_done(&w);
	return 0;
}

/* given, or the file its link points to (resolved), checked as a file. */
static int check_file(const char *given, const char *path, struct output *o, char *err)
{
	char *dir = dir_of(path);
	struct stat st;
	int rc = 0;

	if (!dir)
		return err_set(err, "out of memory");
	if (lstat(path, &st) == 0) {
		o->exists = true;
		o->dev = st.st_dev;
		o->ino = st.st_ino;
		o->mode = st.st_mode & 0777;
		o->uid = st.st_uid;
		o->gid = st.st_gid;
		if (!S_ISREG(st.st_mode))
			rc = err_set(err, "cannot write %s: it is %s; an output is a regular file "
				     "or standard output", given, type_name(st.st_mode));
		else if (st.st_uid != geteuid() && shared_dir(dir))
			rc = err_set(err, "cannot write %s: it belongs to another user (uid %u) in "
				     "%s, a directory every user can write to; iosweep does not "
				     "replace it", given, (unsigned)st.st_uid, dir);
	} else if (errno != ENOENT) {
		rc = err_set(err, "cannot write %s: %s", given, strerror(errno));
	}
	if (rc == 0 && access(dir, W_OK | X_OK) != 0)
		rc = err_set(err, "cannot write %s: %s", given, strerror(errno));
	free(dir);
	return rc;
}

int output_check(const char *given, struct output *o, char *err)
{
	struct stat st;
	mode_t mask = umask(0);

	umask(mask);
	memset(o, 0, sizeof(*o));
	o->mode = 0666 & ~mask;
	o->path = strdup(given);
	if (!o->path)
		return err_set(err, "out of memory");
	if (check_links(given, err) < 0)
		return -1;
	if (lstat(given, &st) == 0 && S_ISLNK(st.st_mode)) {
		free(o->path);
		o->path = realpath(given, NULL);
		if (!o->path)
			return err_set(err, "cannot write %s: it is a symbolic link to %s (%s)",
				       given, "a file that cannot be reached", strerror(errno));
	}
	if (check_file(given, o->path, o, err) < 0)
		return -1;
	o->canonical = canonical(o->path);
	return o->canonical ? 0 : err_set(err, "out of memory");
}

bool output_names(const struct output *o, const char *path)
{
	struct stat st;
	char *c;
	bool same;

	if (stat(path, &st) == 0 && o->exists)
		return st.st_dev == o->dev && st.st_ino == o->ino;
	c = canonical(path);
	same = c && strcmp(c, o->canonical) == 0;
	free(c);
	return same;
}

int output_begin(struct output *o, char *err)
{
	int fd;

	if (asprintf(&o->tmp, "%s.tmp.XXXXXX", o->path) < 0) {
		o->tmp = NULL;
		return err_set(err, "out of memory");
	}
	fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0) {
		err_set(err, "cannot write %s: %s", o->path, strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		err_set(err, "cannot write %s: %s", o->path, strerror(errno));
		close(fd);
		output_discard(o);
		return -1;
	}
	return 0;
}

/* Whether the destination is still what output_check() found: absent, or
 * a regular file. */
static int still_replaceable(const struct output *o, char *err)
{
	struct stat st;

	if (lstat(o->path, &st) < 0)
		return errno == ENOENT ? 0 : err_set(err, "cannot write %s: %s", o->path,
						     strerror(errno));
	if (!S_ISREG(st.st_mode))
		return err_set(err, "cannot write %s: it became %s while iosweep ran; the "
			       "results are left in %s", o->path, type_name(st.st_mode), o->tmp);
	return 0;
}

int output_commit(struct output *o, char *err)
{
	int fd = o->f ? fileno(o->f) : -1;
	bool ok;

	errno = 0;
	ok = o->f && fflush(o->f) == 0 && !ferror(o->f) && (o->no_sync || fsync(fd) == 0);

	if (ok && geteuid() == 0 && o->exists)
		(void)fchown(fd, o->uid, o->gid); /* as root, the owner stays too */
	ok = ok && fchmod(fd, o->mode) == 0;
	if (!ok) {
		err_set(err, "writing %s: %s", o->path, strerror(errno ? errno : EIO));
		output_discard(o);
		return -1;
	}
	if (fclose(o->f) != 0) {
		o->f = NULL;
		err_set(err, "writing %s: %s", o->path, strerror(errno));
		output_discard(o);
		return -1;
	}
	o->f = NULL;
	if (still_replaceable(o, err) < 0) {
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	if (rename(o->tmp, o->path) < 0) {
		err_set(err, "writing %s: %s", o->path, strerror(errno));
		output_discard(o);
		return -1;
	}
	free(o->tmp);
	o->tmp = NULL;
	return 0;
}

void output_discard(struct output *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
}

int output_write(struct output *o, const char *data, size_t len, char *err)
{
	if (output_begin(o, err) < 0)
		return -1;
	if (len && fwrite(data, 1, len, o->f) != len) {
		err_set(err, "writing %s: %s", o->path, strerror(errno));
		output_discard(o);
		return -1;
	}
	return output_commit(o, err);
}

void output_free(struct output *o)
{
	output_discard(o);
	free(o->path);
	free(o->canonical);
	o->path = o->canonical = NULL;
}
