/*
 * dirscan.h - a user's directory tree (a dataset) found and read, read-only:
 * the groundwork of fio's `opendir` (issue 32, item 4).
 *
 * The scan runs once, before anything is timed: every regular file under
 * the root, by its path relative to the root, kept compactly in one arena
 * of path bytes ("a/b.jpg\0c.jpg\0...") with, per file, its offset in the
 * arena and the size lstat saw.  Memory per file: its relative path + 1
 * byte, 16 bytes of record, and 4 bytes of order when an order is drawn
 * (the arena and the records grow by doubling: at most twice that while the
 * scan runs); nothing per directory but one descriptor and the name per
 * level on the way down.  Files are listed in
 * sorted order (bytewise, by relative path).
 *
 * What the scan meets and does not read is counted, each kind once a note:
 *   symlinks    never followed, whatever they point at (a file, a
 *               directory, themselves): a link is a name, not the file, and
 *               following none is what makes a symlink loop impossible;
 *   special     FIFOs, sockets, character and block devices (never opened:
 *               a FIFO would block);
 *   unreadable  a directory or file the running user may not read (EACCES,
 *               EPERM; a file by access(R_OK) at the scan, so that the files
 *               listed are the ones the user can read);
 *   vanished    a name gone between readdir and its lstat or open (ENOENT,
 *               ENOTDIR), or a directory removed while it was read;
 *   deep        directories deeper than DIRSCAN_MAX_DEPTH below the root.
 *
 * Reading (dirscan_open) opens a file O_RDONLY|O_NOFOLLOW|O_NONBLOCK,
 * with O_NOATIME where the kernel allows it (EPERM: opened again without,
 * and the caller told once), and resolves its path beneath the root with no
 * symlink on the way (openat2 RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS), so a
 * directory swapped for a link after the scan is not followed either; then
 * fstat: anything but a regular file is closed unread and counted special;
 * O_NONBLOCK is cleared before the first read.  Nothing here writes,
 * renames or deletes.
 */
#ifndef IOSWEEP_DIRSCAN_H
#define IOSWEEP_DIRSCAN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How deep below the root the scan goes (one descriptor per level). */
#define DIRSCAN_MAX_DEPTH 64
/* The most files a scan keeps (their numbers are 32-bit). */
#define DIRSCAN_MAX_FILES 0xFFFFFFF0u

/* Why a name was not read, in the order of dirscan_skip_names. */
enum dirscan_skip {
	DIRSCAN_SYMLINK,
	DIRSCAN_SPECIAL,
	DIRSCAN_UNREADABLE,
	DIRSCAN_VANISHED,
	DIRSCAN_DEEP,
	DIRSCAN__SKIPS
};
extern const char *const dirscan_skip_names[DIRSCAN__SKIPS];

struct dirscan_file {
	uint64_t name;  /* offset of its relative path in the arena */
	uint64_t size;  /* bytes, as lstat saw them at the scan */
};

struct dirscan {
	int rootfd;                        /* O_PATH|O_DIRECTORY descriptor of the root */
	char *arena;                       /* the relative paths, each '\0'-ended */
	uint64_t arena_len, arena_cap;
	struct dirscan_file *files;        /* sorted by path */
	uint32_t nfiles, files_cap;
	uint64_t bytes;                    /* sum of the files' sizes */
	uint64_t dirs;                     /* directories read, the root included */
	uint64_t skipped[DIRSCAN__SKIPS];
	bool noatime_refused;              /* a directory was read without O_NOATIME (EPERM) */
	char first_skip[DIRSCAN__SKIPS][256]; /* the first name of each kind, for its note */
};

/* Scans the tree at root, a directory (a link the user names as the root
 * itself is followed, as `find -H` does; none below it is).  0, 1 when
 * *stop was set (a signal; stop may be NULL), or -1 with err ("ROOT: why")
 * when the root cannot be read at all, memory or descriptors run out; what
 * is skipped below it is counted, not an error.  s holds nothing but on 0.
 * Mount points below the root are crossed; a file with two hard links is
 * listed twice (two names, as a data loader reading a listing would). */
int dirscan_scan(const char *root, struct dirscan *s, volatile atomic_int *stop, char *err);
void dirscan_free(struct dirscan *s);

static inline const char *dirscan_name(const struct dirscan *s, uint32_t k)
{
	return s->arena + s->files[k].name;
}

/* The bytes the scan holds for s: the bound the docs state. */
uint64_t dirscan_memory(const struct dirscan *s);

/* The order files are read in: sorted names, one seeded permutation (each
 * file once), or a new permutation every epoch (repeat). */
enum dirscan_order { DIRSCAN_SEQUENTIAL, DIRSCAN_RANDOM, DIRSCAN_SHUFFLE };

/* Fills order[0..s->nfiles) with the file numbers in the order asked; the
 * epoch matters only to DIRSCAN_SHUFFLE. */
void dirscan_order(const struct dirscan *s, enum dirscan_order how, uint64_t seed, unsigned epoch,
		   uint32_t *order);

/* Per reader: whether O_NOATIME is still tried, and whether its refusal
 * has been met (for the caller's one note). */
struct dirscan_reader {
	bool no_noatime;
	bool noatime_refused;
	bool direct;       /* open with O_DIRECT (cache=direct) */
	uint32_t last;     /* the file last opened, */
	uint64_t size;     /* and its size, as fstat saw it when it was opened */
};

/* Opens file k for reading as described above: a descriptor, or -1 with
 * *skip set (the kind to count) and errno. */
int dirscan_open(const struct dirscan *s, uint32_t k, struct dirscan_reader *r,
		 enum dirscan_skip *skip);

/* Before a repeat (not timed), on every file of the scan, opened as
 * dirscan_open opens them: evict (posix_fadvise DONTNEED) or warm (read
 * whole) its pages.  0, 1 when *stop was set, or -1 with err. */
int dirscan_evict(const struct dirscan *s, volatile atomic_int *stop, char *err);
int dirscan_warm(const struct dirscan *s, volatile atomic_int *stop, char *err);

/* The share of the files' bytes in the page cache (cachestat), or -1 when
 * it cannot be told or *stop was set; files that cannot be opened count as
 * not cached. */
double dirscan_residency(const struct dirscan *s, volatile atomic_int *stop);

/* The kernel's dentries and inodes in use, the first field of
 * /proc/sys/fs/dentry-state and inode-nr; NAN when unreadable. */
double dirscan_dentries(void);
double dirscan_inodes(void);

#endif
