/*
 * mdtree.h - the tree iosweep makes for metadata phases (option tree).
 *
 * A tree of D directories of F files each, under a root iosweep makes in
 * the job's directory: ROOT = DIRECTORY/JOB.iosweep-tree, mode 0700, holding
 * the record .iosweep-tree (locked while a run holds the tree), the
 * directories dK and in them the files fI (I numbers every file of the
 * tree, dir I / F), renamed rI by a rename phase.  Every name is reached
 * beneath the root's descriptor, never through a symbolic link; nothing
 * else is ever created, written or removed, and a root without iosweep's
 * record (a user's directory) is refused.
 *
 * A phase (op = mkdir, create, ...) is a pass over its items, each timed
 * by the I/O core as one unit: the directories (mkdir, statdir, readdir,
 * fsyncdir, rmdir) or
 * the files (create, fsync, stat, read, rename, unlink).  Each phase needs
 * the tree in a state (no directories, directories, files); the runner
 * brings it there, untimed, before each repeat (mdtree_bring), so that a
 * phase is always measured from the state it needs, whatever ran before.
 * A tree left by a killed run (its record, unlocked) is removed by the next
 * run that opens it, which says so.
 */
#ifndef IOSWEEP_MDTREE_H
#define IOSWEEP_MDTREE_H

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/bsmix.h"
/* The metadata phases, in the order of their words in the job's op after
 * the data ops (ioloop.h: enum op_kind continues with these), read (the
 * data op's word) last. */
enum md_op { MD_MKDIR, MD_CREATE, MD_FSYNC, MD_STAT, MD_READDIR, MD_RENAME, MD_UNLINK,
	     MD_RMDIR, MD_FSYNCDIR, MD_SYNCFS, MD_STATDIR, MD_READ, MD__OPS };
extern const char *const md_op_names[]; /* "mkdir", "create", ... */

/* What the tree holds. */
enum md_state { MD_EMPTY, MD_DIRS, MD_FILES, MD_UNKNOWN };

/* Whether phase op's items are the directories (else the files, or for
 * syncfs the one file system). */
static inline bool md_op_dirs(enum md_op op)
{
	return op == MD_MKDIR || op == MD_READDIR || op == MD_RMDIR || op == MD_FSYNCDIR ||
	       op == MD_STATDIR;
}
/* Whether phase op makes what was written durable (fsync, fsyncdir,
 * syncfs): the files are made anew, untimed, before each of its repeats,
 * so that it has their creation and bytes to flush. */
static inline bool md_op_syncs(enum md_op op)
{
	return op == MD_FSYNC || op == MD_FSYNCDIR || op == MD_SYNCFS;
}
/* Whether phase op works on what an earlier pass made and leaves no data
 * of its own to flush (stat, statdir, read, readdir, rename, unlink, rmdir): under
 * MPI a shift moves each rank to another rank's items for it. */
static inline bool md_op_finds(enum md_op op)
{
	return op != MD_MKDIR && op != MD_CREATE && !md_op_syncs(op);
}
/* Whether phase op only looks names up (stat, statdir, read, readdir): a dropped
 * tree's lookups add a dentry an item. */
static inline bool md_op_looks(enum md_op op)
{
	return op == MD_STAT || op == MD_STATDIR || op == MD_READ || op == MD_READDIR;
}
/* Whether phase op changes the tree (its items count as writes). */
static inline bool md_op_writes(enum md_op op)
{
	return !md_op_looks(op);
}
/* The state phase op needs, and the state it leaves. */
enum md_state md_op_needs(enum md_op op);
enum md_state md_op_leaves(enum md_op op);

#define MDTREE_RECORD ".iosweep-tree"
#define MDTREE_SUFFIX ".iosweep-tree"

struct mdtree {
	int parentfd;          /* the job's directory */
	int rootfd;            /* the root, O_DIRECTORY */
	int lockfd;            /* the record, flock'ed while the tree is held */
	bool held;             /* this run holds the lock: only then is anything removed */
	char token[96];        /* what the record says of the run that holds the tree (its
				* host, process and clock): ranks joining it check it */
	/* this process's share of each untimed pass (mdtree_bring): share part
	 * of parts, as the rank's of the timed phases; 0 of 1 alone */
	uint32_t part, parts;
	char root[PATH_MAX];   /* its path, for messages */
	char name[256];        /* its name in the job's directory */
	uint32_t dirs, files;  /* directories, and files in each */
	uint64_t filesize;
	const struct bsmix *sizes; /* each file's size drawn (mdtree_size), or NULL: filesize */
	enum md_state state;
	bool renamed;          /* the files are named rI (a rename phase's odd repeats) */
	const unsigned char *data; /* what create writes: bs bytes, repeated */
	uint64_t bs;
};

/* Told one line about a leftover the open removed. */
typedef void (*mdtree_note_fn)(const char *msg, void *arg);

/* Opens (making it when missing) the root of job name's tree in dir, and
 * takes its lock; a root left by a killed run is emptied first (note says
 * so); the record gets the run's token.  0, or -1 with err ("ROOT: why"). */
int mdtree_open(struct mdtree *t, const char *dir, const char *name, uint32_t dirs,
		uint32_t files, uint64_t filesize, mdtree_note_fn note, void *arg, char *err);
/* Under MPI, a rank other than 0: opens the tree rank 0 opened (its token:
 * the same record, so the directory is shared), without its lock; the rank
 * never removes it.  0, or -1 with err. */
int mdtree_join(struct mdtree *t, const char *dir, const char *name, uint32_t dirs,
		uint32_t files, uint64_t filesize, const char *token, char *err);
/* Empties the tree and removes its root and record when this run held its
 * lock (after an open that failed: nothing, the tree may be another run's),
 * then closes it: 0, or -1 with err when something could not be removed (it
 * is left, and said). */
int mdtree_close(struct mdtree *t, char *err);

/* What the processes that share a tree's passes say of one: every one's
 * rc (0, 1 stopped, -1 failed with err) agreed; NULL alone. */
typedef int (*mdtree_agree_fn)(int rc, void *arg, char *err);
/* Brings the tree to state want, untimed: directories and files made or
 * removed as needed (from MD_UNKNOWN: everything removed first, by share
 * 0), each pass over this process's share, agreed before the next.  0, 1
 * when *stop was set (the state is then MD_UNKNOWN), or -1 with err. */
int mdtree_bring(struct mdtree *t, enum md_state want, mdtree_agree_fn agree, void *arg,
		 volatile atomic_int *stop, char *err);

/* The relative path of item k of phase op (a directory or a file) into
 * buf (64 bytes). */
void mdtree_path(const struct mdtree *t, enum md_op op, uint64_t k, char *buf);

/* One item of phase op, timed by the caller: 0 (or, for readdir, the
 * entries it listed) or -errno.  Not read: the core reads a file itself
 * (mdtree_open_file).  buf: a scratch buffer of n bytes (readdir). */
long mdtree_do(const struct mdtree *t, enum md_op op, uint64_t k, unsigned char *buf, size_t n);
/* File k opened for reading (O_NOATIME where allowed): a descriptor or -errno. */
int mdtree_open_file(const struct mdtree *t, uint64_t k);

/* The bytes file k holds. */
static inline uint64_t mdtree_size(const struct mdtree *t, uint64_t k)
{
	return t->sizes ? bsmix_len(t->sizes, 0, k) : t->filesize;
}

/* Items of phase op. */
static inline uint64_t mdtree_items(uint32_t dirs, uint32_t files, enum md_op op)
{
	return op == MD_SYNCFS ? 1 : md_op_dirs(op) ? dirs : (uint64_t)dirs * files;
}

/* Before a repeat, with the files there: every file's pages evicted
 * (posix_fadvise DONTNEED), 0 or -1 with err; and the share of the files'
 * bytes in the page cache, or -1 (unknown, or files of no bytes). */
int mdtree_evict(const struct mdtree *t, volatile atomic_int *stop, char *err);
double mdtree_residency(const struct mdtree *t);

#endif
