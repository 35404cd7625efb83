/*
 * wtarget.h - which files a run may write, and opening them safely.
 *
 * iosweep writes only into files it created for iosweep (they carry the
 * record prepare.c gives them) and into files it is about to create; a
 * user's own existing file only when the job opts in for that very file
 * (`allow_write = PATH`, equal to `filename`).  A block device only when
 * the job names it so too and devcheck.h finds nothing on it that would be
 * destroyed unawares (a signature only when the job names it in
 * allow_overwrite_signature); a link to a device (/dev/disk/by-id/...) is
 * resolved, allow_write repeats the name the job gives, and the device it
 * resolves to is checked.  Never a character
 * device, a FIFO or a socket, never through a symbolic link, never a file
 * that belongs to another user, never a file of a pseudo file system (proc,
 * sysfs, cgroup, debugfs...) or of a read-only mount -- whatever the job
 * says.  The same rules are checked when the plan is made and again when
 * the file is opened, each time on one descriptor: its type, owner, file
 * system and creation record are those of the file that is then written.
 */
#ifndef IOSWEEP_WTARGET_H
#define IOSWEEP_WTARGET_H

#include <stdbool.h>
#include <stdint.h>

enum wtarget_kind {
	WTARGET_NEW,       /* does not exist: iosweep will create it */
	WTARGET_OURS,      /* created by iosweep (it has the record) */
	WTARGET_OPTED_IN,  /* the user's file, named by allow_write */
	WTARGET_DEVICE,    /* a block device, named by allow_write and checked */
};

/* Whether path may be written (every writer -- writes, trims -- asks this
 * when the plan is made); allow_write is the job's opt-in or NULL,
 * allow_sig the signature it may destroy on a device or NULL.  0 with
 * *kind, or -1 with the reason (and what would make it safe) in err. */
int wtarget_check(const char *path, const char *allow_write, const char *allow_sig,
		  enum wtarget_kind *kind, char *err);

/* Whether path is a block device, through links (by the walk's rules);
 * the device node it names in node (PATH_MAX bytes). */
bool wtarget_is_device(const char *path, char *node);

/* A block device to write, checked again as wtarget_check does and claimed:
 * a read-only descriptor opened O_EXCL, kept open for the whole run so that
 * nobody mounts or claims the device meanwhile.  -1 with err. */
int wtarget_claim(const char *path, const char *allow_write, const char *allow_sig,
		  char *err);

/* A descriptor for writing (O_RDWR | flags) of the device claim_fd claims. */
int wtarget_reopen(int claim_fd, const char *path, int flags, char *err);

/* Opens path for writing (O_RDWR | flags, never following a symbolic link)
 * and checks through the descriptor what wtarget_check checks by name.
 * The descriptor, or -1 with err. */
int wtarget_open(const char *path, int flags, const char *allow_write, char *err);

/* -1 with err when the file system that holds (or will hold) path has less
 * than need bytes available to this user. */
int wtarget_space(const char *path, uint64_t need, char *err);

#endif
