/*
 * cache.h - page-cache policies and page-cache residency.
 *
 * A policy is applied to a file before every measured repeat; residency
 * (the fraction of the file's pages in the page cache) is read before and
 * after it, so every result says what cache state it actually measured.
 */
#ifndef IOSWEEP_CACHE_H
#define IOSWEEP_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>

enum cache_policy { CACHE_KEEP, CACHE_WARM, CACHE_FADVISE, CACHE_DROP, CACHE_DIRECT };
/* Their names, indexed by the enum, NULL-terminated: the values of the
 * `cache` option. */
extern const char *const cache_policy_names[];

/*
 * Puts `path` (size bytes) into the state `policy` asks for:
 * keep: nothing.  warm: read the whole file once (not timed).  fadvise:
 * open read-only, write back (sync_file_range, then fdatasync) and
 * posix_fadvise(POSIX_FADV_DONTNEED) the file, 256 MiB at a time.  drop:
 * sync(), then write "3" to /proc/sys/vm/drop_caches (fails, never falls
 * back, with a message that suggests cache=fadvise when not permitted).
 * direct: nothing here (the reads open the file O_DIRECT).
 * Returns 0; 1 when *stop (may be NULL) was set before it was done (checked
 * between pieces of at most 1 MiB read, 256 MiB evicted, and every 20 ms of
 * sync); or -1 with a message in err (ERR_MAX bytes).
 */
int cache_apply(enum cache_policy policy, const char *path, uint64_t size,
		volatile atomic_int *stop, char *err);

/* cache=fadvise on an open file: its dirty pages of [0, size) written back,
 * then all its pages dropped (path names it in err).  0, 1 when *stop was
 * set, or -1 with err. */
int cache_evict_fd(int fd, const char *path, uint64_t size, volatile atomic_int *stop,
		   char *err);

/*
 * Fraction (0..1) of the pages of the first `size` bytes of `path` that are
 * in the page cache, from cachestat(2) where the kernel has it, else from
 * mmap + mincore.  Returns -1 when it cannot be known (e.g. mincore on a
 * file the caller could not open for writing reports nothing since Linux
 * 5.2, and newer kernels refuse cachestat on it with EPERM): never 0 for
 * "unknown".  size 0 gives 0.0 (no pages, none cached) for a file that
 * can be opened.
 */
double cache_residency(const char *path, uint64_t size);

/* The share of the first size bytes of the file open as fd in the page
 * cache, by cachestat(2) alone (cheap enough between reads); -1 without it. */
double cache_resident_cheap(int fd, uint64_t size);

/*
 * Bytes of the first `size` bytes of the file open as fd that are dirty or
 * under writeback in the page cache (cachestat nr_dirty + nr_writeback): what
 * a buffered write has not yet made durable.  On kernels without cachestat,
 * the whole system's Dirty + Writeback from /proc/meminfo, with
 * *system_wide set.  -1 when neither can be read.
 */
int64_t cache_dirty_bytes(int fd, uint64_t size, bool *system_wide);

/*
 * What stands between `path` (or, for a file still to be created, its
 * directory) and a cold, verified start: CACHE_CANNOT_EVICT ("PATH is on
 * tmpfs, whose pages cannot be evicted"), CACHE_CANNOT_VERIFY ("the
 * page-cache state of PATH can be read only by its owner or root"), with
 * the reason in why (n bytes); or CACHE_NO_OBSTACLE.
 */
enum cache_obstacle { CACHE_NO_OBSTACLE, CACHE_CANNOT_EVICT, CACHE_CANNOT_VERIFY };
enum cache_obstacle cache_evict_obstacle(const char *path, char *why, size_t n);

/* The O_DIRECT alignment of path (for bs and spacing): what the file
 * states (statx STATX_DIOALIGN), else the logical block size of its block
 * device (sysfs); for a path that does not exist yet, that of the directory
 * it will be created in.  512 when it cannot be found. */
unsigned cache_logical_block_size(const char *path);
/* The same for an open file: checked again when the run opens it. */
unsigned cache_fd_direct_alignment(int fd);

#endif
