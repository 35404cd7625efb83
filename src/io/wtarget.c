/*
 * wtarget.c - which files a run may write; see wtarget.h for the rules.
 *
 * The path is walked one name at a time (lib/pathwalk.h), so no link
 * another user planted on the way is followed.  Opening is done in two
 * steps so that nothing but a regular file is ever opened for writing: an
 * O_PATH descriptor (which opens nothing: no device is touched, no FIFO
 * blocks) is checked with fstat and fstatfs, then reopened for writing
 * through /proc/self/fd, which reaches that very inode and not whatever the
 * name points to by then; the creation record is read on the descriptor
 * opened, never by name, so the file judged is the file written (a file
 * swapped in under the name in between is refused, not written).
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

#include "io/devcheck.h"
#include "io/prepare.h"
#include "lib/error.h"
#include "lib/pathwalk.h"
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

/* What no job may write, found on the descriptor fd of the target (or of
 * the directory a new file goes into): a file of a pseudo file system (proc,
 * sysfs...: writing one is a command to the kernel), a read-only mount. */
static int refuse_fs(const char *path, int fd, char *err)
{
	const char *pseudo = prepare_pseudo_fs(fd);
	struct statvfs sv;

	if (pseudo)
		return err_set(err, "%s is on %s, a file system of kernel interfaces, not of data: "
				    "iosweep never writes there, whatever the job says (allow_write "
				    "does not change this)", path, pseudo);
	if (fstatvfs(fd, &sv) == 0 && (sv.f_flag & ST_RDONLY))
		return err_set(err, "%s is on a read-only mount: it cannot be written (remount it "
				    "read-write, or name a file elsewhere)", path);
	return 0;
}

/* Whether the file open on fd (a regular file of this user) may be written,
 * by its record (read on fd itself) or the job's opt-in. */
static int judge_record(const char *path, int fd, const struct pathwalk *w,
			const char *allow_write, enum wtarget_kind *kind, char *err)
{
	struct prepare_record rec;
	int rc = prepare_record_fd(fd, w->dirfd, w->name, &rec);

	if (rc < 0)
		return err_set(err, "%s: reading its record: %s", path, strerror(errno));
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

/* The target at w, looked at through an O_PATH descriptor (which opens
 * nothing: no device is touched, no FIFO blocks), then, when it may be,
 * opened with mode | flags through /proc/self/fd, which reaches that very
 * inode and not whatever the name points to by then.  The record is read
 * on the descriptor opened, so that it is that file's.  A descriptor, or
 * -1 with err. */
static int open_judged(const char *path, const struct pathwalk *w, int mode,
		       const char *allow_write, enum wtarget_kind *kind, char *err)
{
	struct stat st, now;
	char proc[64];
	int pfd = openat(w->dirfd, w->name, O_PATH | O_NOFOLLOW | O_CLOEXEC), fd, e;

	if (pfd < 0 || fstat(pfd, &st) < 0) {
		err_set(err, "%s: %s", path, strerror(errno));
		if (pfd >= 0)
			close(pfd);
		return -1;
	}
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || refuse_fs(path, pfd, err) < 0) {
		if (!S_ISREG(st.st_mode))
			refuse_type(path, &st, err);
		else if (st.st_uid != geteuid())
			err_set(err, "%s belongs to uid %u, not to you: iosweep never writes another "
				     "user's file", path, (unsigned)st.st_uid);
		close(pfd);
		return -1;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	fd = open(proc, mode | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) /* no /proc: by name, still never following a link */
		fd = openat(w->dirfd, w->name, mode | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	e = errno;
	close(pfd);
	if (fd < 0)
		return err_set(err, "%s: %s%s", path, strerror(e),
			       (mode & O_DIRECT) && e == EINVAL
				       ? " (this filesystem refuses O_DIRECT; use cache=fadvise)"
				       : "");
	/* io_uring would honour O_NONBLOCK on a regular file: off again */
	if (fstat(fd, &now) < 0 || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0)
		err_set(err, "%s: %s", path, strerror(errno));
	else if (now.st_dev != st.st_dev || now.st_ino != st.st_ino || !S_ISREG(now.st_mode))
		err_set(err, "%s was replaced while it was being opened for writing", path);
	else if (judge_record(path, fd, w, allow_write, kind, err) == 0)
		return fd;
	close(fd);
	return -1;
}

bool wtarget_is_device(const char *path, char *node)
{
	struct pathwalk w;
	struct stat st;
	char err[ERR_MAX];
	bool dev;

	if (pathwalk(path, true, NULL, NULL, &w, err) < 0)
		return false;
	dev = !w.missing && fstatat(w.dirfd, w.name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	      S_ISBLK(st.st_mode);
	if (dev)
		snprintf(node, PATH_MAX, "%s%s%s", w.dir,
			 w.dir[0] && w.dir[strlen(w.dir) - 1] != '/' ? "/" : "", w.name);
	pathwalk_done(&w);
	return dev;
}

int wtarget_claim(const char *path, const char *allow_write, const char *allow_sig,
		  char *err)
{
	char node[PATH_MAX];

	if (!wtarget_is_device(path, node))
		return err_set(err, "%s is no longer a block device", path);
	if (!allow_write)
		return err_set(err, "%s is a block device: iosweep writes a device only when the "
				    "job names it (add 'allow_write = %s' to the job, after making "
				    "sure nothing on it is needed)", path, path);
	if (opt_in_mismatch(path, allow_write, err))
		return -1;
	return devcheck_claim(node, allow_sig, err);
}

int wtarget_reopen(int claim_fd, const char *path, int flags, char *err)
{
	return devcheck_reopen(claim_fd, path, flags, err);
}

int wtarget_check(const char *path, const char *allow_write, const char *allow_sig,
		  enum wtarget_kind *kind, char *err)
{
	struct pathwalk w;
	char node[PATH_MAX];
	int fd;

	if (wtarget_is_device(path, node)) {
		fd = wtarget_claim(path, allow_write, allow_sig, err);
		if (fd < 0)
			return -1;
		close(fd);
		*kind = WTARGET_DEVICE;
		return 0;
	}
	if (opt_in_mismatch(path, allow_write, err))
		return -1;
	if (pathwalk(path, false, NULL, NULL, &w, err) < 0)
		return -1;
	*kind = WTARGET_NEW;
	if (w.missing) { /* the missing directory is reported where creation is checked */
		pathwalk_done(&w);
		return 0;
	}
	if (fstatat(w.dirfd, w.name, &(struct stat){ 0 }, AT_SYMLINK_NOFOLLOW) < 0) {
		int rc = errno == ENOENT ? refuse_fs(path, w.dirfd, err)
					 : err_set(err, "%s: %s", path, strerror(errno));

		pathwalk_done(&w);
		return rc;
	}
	/* read-only: looking must not be what changes or blocks on anything */
	fd = open_judged(path, &w, O_RDONLY, allow_write, kind, err);
	pathwalk_done(&w);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

int wtarget_open(const char *path, int flags, const char *allow_write, char *err)
{
	enum wtarget_kind kind;
	struct pathwalk w;
	int fd;

	if (opt_in_mismatch(path, allow_write, err))
		return -1;
	if (pathwalk(path, false, NULL, NULL, &w, err) < 0)
		return -1;
	if (w.missing) {
		pathwalk_done(&w);
		return err_set(err, "%s: %s", path, strerror(ENOENT));
	}
	fd = open_judged(path, &w, O_RDWR | flags, allow_write, &kind, err);
	pathwalk_done(&w);
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
