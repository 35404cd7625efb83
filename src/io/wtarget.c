/*
 * wtarget.c - which files a run may write; see wtarget.h for the rules.
 *
 * Opening is done in two steps so that nothing but a regular file is ever
 * opened for writing: an O_PATH descriptor (which opens nothing: no device
 * is touched, no FIFO blocks) is checked with fstat, then reopened for
 * writing through /proc/self/fd, which reaches that very inode and not
 * whatever the name points to by then.
 */
#define _GNU_SOURCE
#include "io/wtarget.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "io/prepare.h"
#include "lib/error.h"
#include "lib/units.h"

static int refuse_type(const char *path, const struct stat *st, char *err)
{
	const char *what = S_ISLNK(st->st_mode)	   ? "a symbolic link"
			   : S_ISBLK(st->st_mode)  ? "a block device"
			   : S_ISCHR(st->st_mode)  ? "a character device"
			   : S_ISFIFO(st->st_mode) ? "a FIFO"
			   : S_ISSOCK(st->st_mode) ? "a socket"
			   : S_ISDIR(st->st_mode)  ? "a directory"
						   : "not a regular file";

	if (S_ISLNK(st->st_mode))
		return err_set(err, "%s is a symbolic link: iosweep never writes through one "
				    "(name the file itself)", path);
	return err_set(err, "%s is %s: iosweep writes only regular files, whatever the job "
			    "says (allow_write does not change this)", path, what);
}

/* The opt-in names one file: this one. */
static bool opt_in_mismatch(const char *path, const char *allow_write, char *err)
{
	if (!allow_write || strcmp(allow_write, path) == 0)
		return false;
	err_set(err, "allow_write names '%s' but the job writes '%s': the opt-in is for that one "
		     "file and must name it exactly", allow_write, path);
	return true;
}

/* Whether a regular file of this user may be written, by its record or the
 * job's opt-in. */
static int judge(const char *path, const struct stat *st, const char *allow_write,
		 enum wtarget_kind *kind, char *err)
{
	struct prepare_record rec;
	int rc;

	if (!S_ISREG(st->st_mode))
		return refuse_type(path, st, err);
	if (st->st_uid != geteuid())
		return err_set(err, "%s belongs to uid %u, not to you: iosweep never writes another "
				    "user's file", path, (unsigned)st->st_uid);
	rc = prepare_record_read(path, &rec, err);
	if (rc < 0)
		return -1;
	if (rc > 0) {
		*kind = WTARGET_OURS;
		return 0;
	}
	if (allow_write) {
		*kind = WTARGET_OPTED_IN;
		return 0;
	}
	return err_set(err, "%s was not created by iosweep: iosweep writes only files it made "
			    "(to write this one anyway, add 'allow_write = %s' to the job)", path,
		       path);
}

int wtarget_check(const char *path, const char *allow_write, enum wtarget_kind *kind,
		  char *err)
{
	struct stat st;

	if (opt_in_mismatch(path, allow_write, err))
		return -1;
	if (lstat(path, &st) < 0) {
		if (errno != ENOENT)
			return err_set(err, "%s: %s", path, strerror(errno));
		*kind = WTARGET_NEW;
		return 0;
	}
	return judge(path, &st, allow_write, kind, err);
}

int wtarget_open(const char *path, int flags, const char *allow_write, char *err)
{
	enum wtarget_kind kind;
	struct stat st, now;
	char proc[64];
	int pfd, fd;

	if (opt_in_mismatch(path, allow_write, err))
		return -1;
	pfd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return err_set(err, "%s: %s", path, strerror(errno));
	if (fstat(pfd, &st) < 0) {
		err_set(err, "%s: %s", path, strerror(errno));
		close(pfd);
		return -1;
	}
	if (judge(path, &st, allow_write, &kind, err) < 0) {
		close(pfd);
		return -1;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	fd = open(proc, O_RDWR | O_CLOEXEC | flags);
	if (fd < 0 && errno == ENOENT) /* no /proc: by name, still never following a link */
		fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | flags);
	close(pfd);
	if (fd < 0)
		return err_set(err, "%s: %s%s", path, strerror(errno),
			       (flags & O_DIRECT) && errno == EINVAL
				       ? " (this filesystem refuses O_DIRECT; use cache=fadvise)"
				       : "");
	/* io_uring would honour O_NONBLOCK on a regular file: off again */
	if (fstat(fd, &now) < 0 || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		err_set(err, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (now.st_dev != st.st_dev || now.st_ino != st.st_ino || !S_ISREG(now.st_mode)) {
		close(fd);
		return err_set(err, "%s was replaced while it was being opened for writing", path);
	}
	return fd;
}

int wtarget_space(const char *path, uint64_t need, char *err)
{
	char dir[PATH_MAX], have_s[32], need_s[32], *slash;
	struct statvfs sv;
	uint64_t have;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		slash[slash == dir] = '\0';
	if (statvfs(dir, &sv) < 0)
		return err_set(err, "%s: %s", dir, strerror(errno));
	have = (uint64_t)sv.f_bavail * sv.f_frsize;
	/* no blocks at all (ramfs): the size is unknown, not zero */
	if (have >= need || sv.f_blocks == 0)
		return 0;
	units_fmt_size(have, have_s, sizeof(have_s));
	units_fmt_size(need, need_s, sizeof(need_s));
	return err_set(err, "%s: the file system has %s free for you, and the run writes %s "
			    "there: make room, or give a smaller size", path, have_s, need_s);
}
