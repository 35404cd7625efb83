/*
 * output.h - where results go: a regular file replaced atomically, or
 * standard output.
 *
 * A destination is checked when the command starts, before any I/O: it
 * must be absent or a regular file in a directory iosweep can write; a
 * device, FIFO, socket or directory is refused; a symbolic link is followed
 * only when it is the user's own and does not sit in a sticky world-writable
 * directory (/tmp), where another user could have planted it.  The contents
 * are written to a temporary file beside the destination and renamed over
 * it when complete, so a reader (or a second iosweep writing the same path)
 * never sees a half-written or interleaved file.  The new file keeps the
 * permission bits of the one it replaces (new files: 0666 less the umask).
 */
#ifndef IOSWEEP_OUTPUT_H
#define IOSWEEP_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

struct output {
	char *path;      /* the file to replace: symbolic links resolved (malloc'd) */
	char *canonical; /* absolute, for telling whether two names are one file */
	bool exists;
	dev_t dev;
	ino_t ino;
	mode_t mode;     /* permission bits the new file gets */
	uid_t uid;
	gid_t gid;
	/* while writing */
	FILE *f;
	char *tmp;       /* the temporary file beside path */
	bool no_sync;    /* an interim version: renamed without fsync (it survives
			    iosweep being killed, not the machine crashing) */
};

/* Checks the destination `given` and fills o; -1 with "cannot write
 * GIVEN: why" (or what it is and why it is refused) in err. */
int output_check(const char *given, struct output *o, char *err);
/* Whether o names the file at path (which need not exist). */
bool output_names(const struct output *o, const char *path);
/* Opens a new temporary file beside o->path into o->f. */
int output_begin(struct output *o, char *err);
/* Flushes, syncs and renames the temporary file over o->path; on any
 * failure (a full disk) the temporary file is removed, the destination is
 * left as it was, and -1 is returned with why. */
int output_commit(struct output *o, char *err);
/* Removes the temporary file, if any. */
void output_discard(struct output *o);
/* output_begin, data, output_commit. */
int output_write(struct output *o, const char *data, size_t len, char *err);
void output_free(struct output *o);

#endif
