/*
 * prepare.h - test files: created when missing, never written otherwise,
 * opened so that they cannot trick iosweep.
 *
 * A missing file is written under a temporary name in the same directory
 * (PATH.iosweep-tmp.XXXXXX, locked while it is written), fsync'ed, given a
 * record of how it was made and renamed into place only when complete, so
 * that an interrupted or failed creation leaves nothing behind at
 * `filename`; what a kill -9 leaves is removed by the next run
 * (prepare_sweep).  An existing file or block device is only ever opened
 * read-only, without blocking, found by pathwalk (lib/pathwalk.h: no link
 * another user planted on the way), following as its last name only the
 * running user's or root's symbolic links, and never when another user's
 * file lies in a directory anyone can write, nor a file of a pseudo file
 * system (proc, sysfs...: kernel interfaces, not data).
 */
#ifndef IOSWEEP_PREPARE_H
#define IOSWEEP_PREPARE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>


/* What a created test file holds: the values of the job option `fill`,
 * named by fill_names (NULL-terminated).  FILL_EXISTING: a file iosweep did
 * not make (or that has no record), its content unknown; in a job,
 * `fill = existing` says so explicitly. */
enum fill_kind { FILL_RANDOM, FILL_ZERO, FILL_TEXT, FILL_EXISTING };
extern const char *const fill_names[];

/* Called now and then while a file is written. */
typedef void (*prepare_progress_fn)(uint64_t done, uint64_t total, void *arg);

/* Creates path with size bytes of fill unless it exists (when it exists,
 * its record must agree with fill and seed, unless fill is FILL_EXISTING).
 * Returns 0, 1 when *stop was set (the temporary file is removed), or -1
 * with err.  Every rank or process may call it for the same path at once:
 * one file wins, the others' temporary files go. */
int prepare_file(const char *path, uint64_t size, enum fill_kind fill, uint64_t seed,
		 volatile atomic_int *stop, prepare_progress_fn progress, void *arg, char *err);

/* How iosweep made a file: the `user.iosweep` extended attribute
 * ("iosweep-record 1 fill=random seed=1 size=1048576"), or, on a file
 * system without user extended attributes, the side file
 * PATH.iosweep-record (the same text and " ino=N", owned by the file's
 * owner).  Writers (issue 15) write only files that have one. */
struct prepare_record {
	enum fill_kind fill;  /* never FILL_EXISTING */
	uint64_t seed, size;
	bool written;         /* " written=1": a write run of iosweep has written it since
			       * it was made, so it no longer holds its fill */
};
/* 1 and *rec when path has a record, 0 when it has none (iosweep did not
 * make it, or cannot tell), -1 with err when path cannot be opened safely. */
int prepare_record_read(const char *path, struct prepare_record *rec, char *err);
/* The same for the file open on fd (any access mode), which the directory
 * open on dirfd holds as name (for the side file); 1, 0 or -1 with errno. */
int prepare_record_fd(int fd, int dirfd, const char *name, struct prepare_record *rec);
/* The name of the pseudo file system (proc, sysfs, cgroup2, debugfs...)
 * that holds the file open on fd, or NULL for a file system of data. */
const char *prepare_pseudo_fs(int fd);
/* "tmpfs" or "ramfs" when the file open on fd is on a file system without
 * backing storage (nothing written there is durable), else NULL. */
const char *prepare_memory_fs(int fd);
/* Before a write run's first write, on the file open for writing on fd: its
 * record, if it has one, says from now on that it was written (and its size
 * is at least size: alloc=allocate and prealloc may have grown it).  0, or
 * -1 with err when the record cannot be written. */
int prepare_record_written(int fd, const char *path, uint64_t size, char *err);

/* Which file a run reads: taken once, checked at every open and after
 * every repeat.  A file with a record (iosweep's: its content is known)
 * is watched for content rewritten in place too, by its size, mtime and
 * ctime; a write run clears watch_content (its own writes change them). */
struct prepare_id {
	dev_t dev;
	ino_t ino;
	bool set, watch_content;
	off_t size;
	struct timespec mtime, ctime;
};
/* Opens path as the checks above allow and records its identity. */
int prepare_identify(const char *path, struct prepare_id *id, char *err);
/* Opens the run's file for reading, O_DIRECT when direct with bs and
 * spacing checked against the alignment the open file needs; a descriptor,
 * or -1 with err (also when it is no longer the file *id names). */
int prepare_open(const char *path, bool direct, uint64_t bs, uint64_t spacing,
		 const struct prepare_id *id, char *err);
/* 0 while path is still the regular file or block device *id names. */
int prepare_check(const char *path, const struct prepare_id *id, char *err);

/* The directory that holds path: "." for a bare name, "/" at the root. */
void prepare_dirname(const char *path, char *dir, size_t n);

/* Told one line about each leftover found. */
typedef void (*prepare_note_fn)(const char *msg, void *arg);
/* Removes the temporary files of interrupted creations in the directory of
 * path: those named NAME.iosweep-tmp.XXXXXX, owned by the running user and
 * locked by no creator.  Another user's are reported, with the command that
 * removes them.  Each directory once per process. */
void prepare_sweep(const char *path, prepare_note_fn note, void *arg);

#endif
