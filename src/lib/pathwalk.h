/*
 * pathwalk.h - resolving a path one name at a time, so that every symbolic
 * link on the way is seen and judged before it is followed.
 *
 * The kernel follows a link wherever it meets one; only the last name of
 * a path can be opened with O_NOFOLLOW.  A link in a directory every user
 * can write (/tmp, /var/tmp) may have been planted there by another user,
 * and as a directory on the way it would take root into any directory of
 * the link's choosing (where fs.protected_symlinks is 0).  So test files
 * and outputs are found by this walk: each name is opened O_PATH|O_NOFOLLOW
 * under the descriptor of the one before, and a link is read and followed
 * here, after the rule below and the caller's own have accepted it.
 *
 * The rule every walk keeps: a link that belongs to another user than the
 * running one or root, in a directory any user can write, is refused.
 */
#ifndef IOSWEEP_PATHWALK_H
#define IOSWEEP_PATHWALK_H

#include <limits.h>
#include <stdbool.h>
#include <sys/stat.h>

/* Where a walk ended: the directory that holds the last name, and that name. */
struct pathwalk {
	int dirfd;                /* O_PATH descriptor of that directory; -1 when missing */
	bool missing;             /* a directory on the way does not exist */
	char dir[PATH_MAX];       /* its name, without links ("/..." or from the cwd) */
	char name[NAME_MAX + 1];  /* the last name ("." for a directory itself) */
};

/* Called for each link before it is followed: link is its name (dir/name),
 * lst its lstat, dst the stat of dir, last whether it is the path's last
 * name.  0 follows it; -1 with err refuses it. */
typedef int (*pathwalk_judge_fn)(const char *link, const struct stat *lst, const char *dir,
				 const struct stat *dst, bool last, void *arg, char *err);

/* Walks path: its directories, and its last name too when follow_last.
 * judge (may be NULL) is asked about each link first, then the common rule.
 * 0 with *w (free it with pathwalk_done), or -1 with err ("PATH: why"). */
int pathwalk(const char *path, bool follow_last, pathwalk_judge_fn judge, void *arg,
	     struct pathwalk *w, char *err);
void pathwalk_done(struct pathwalk *w);

/* Whether a directory with this stat can be written by every user. */
bool pathwalk_world_writable(const struct stat *dst);

#endif
