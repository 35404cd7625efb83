/*
 * cache.c - page-cache policies and page-cache residency (see cache.h).
 *
 * Every policy is a few plain system calls so that what it did can be told
 * in one sentence of the report; none of them falls back to another,
 * because a result measured in a cache state other than the one asked for
 * is worse than no result.  Residency prefers cachestat(2), which counts
 * the pages without mapping the file, and uses mmap + mincore only on
 * kernels without it; both are refused (-1) rather than guessed when the
 * kernel would not tell the truth to this process.
 */
#define _GNU_SOURCE

#include "io/cache.h"
#include "lib/error.h"

#include <errno.h>
#include <libgen.h>
#include <linux/magic.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <pthread.h>
#include <time.h>
#include <linux/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define WARM_BUF_SIZE ((size_t)1 << 20)
/* mincore is run over windows of this many bytes, so that a large block
 * device needs neither a huge mapping nor a huge vector. */
#define MINCORE_WINDOW ((uint64_t)1 << 30)
#define DROP_CACHES "/proc/sys/vm/drop_caches"
/* fadvise's write-back and eviction go this many bytes at a time, and check
 * for a signal in between */
#define EVICT_CHUNK ((uint64_t)256 << 20)

/* cachestat(2) arrived in Linux 6.5; its number is 451 on every
 * architecture that uses the generic syscall table and on x86_64. */
#ifndef __NR_cachestat
#define __NR_cachestat 451
#endif

struct cs_range {
	__u64 off;
	__u64 len;
};

struct cs_stat {
	__u64 nr_cache;
	__u64 nr_dirty;
	__u64 nr_writeback;
	__u64 nr_evicted;
	__u64 nr_recently_evicted;
};

static int open_read(const char *path, char *err)
{
	/* O_NONBLOCK: a FIFO put in the file's place cannot hang the open */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return err_set(err, "cannot open %s: %s", path, strerror(errno));
	return fd;
}

static int close_checked(int fd, const char *path, char *err)
{
	if (close(fd) < 0)
		return err_set(err, "cannot close %s: %s", path, strerror(errno));
	return 0;
}

static bool stopped(volatile atomic_int *stop)
{
	return stop && *stop;
}

/* Reads [0, size) in WARM_BUF_SIZE pieces; 1 when *stop was set between two. */
static int read_all(int fd, const char *path, uint64_t size, char *buf,
		    volatile atomic_int *stop, char *err)
{
	uint64_t off = 0;

	while (off < size) {
		uint64_t left = size - off;
		size_t want = left < WARM_BUF_SIZE ? (size_t)left : WARM_BUF_SIZE;
		ssize_t got;

		if (stopped(stop))
			return 1;
		got = pread(fd, buf, want, (off_t)off);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return err_set(err, "cannot read %s at offset %llu: %s", path,
				       (unsigned long long)off, strerror(errno));
		if (got == 0)
			return err_set(err, "cannot warm %s: it ends at %llu bytes, before %llu",
				       path, (unsigned long long)off, (unsigned long long)size);
		off += (uint64_t)got;
	}
	return 0;
}

static int warm(const char *path, uint64_t size, volatile atomic_int *stop, char *err)
{
	char *buf;
	int fd, rc;

	buf = malloc(WARM_BUF_SIZE);
	if (!buf)
		return err_set(err, "cannot warm %s: out of memory", path);
	fd = open_read(path, err);
	if (fd < 0) {
		free(buf);
		return -1;
	}
	rc = read_all(fd, path, size, buf, stop, err);
	free(buf);
	if (rc != 0) {
		(void)close(fd);
		return rc;
	}
	return close_checked(fd, path, err);
}

/*
 * Writes back [0, size) and then drops it from the page cache, EVICT_CHUNK
 * at a time so that a signal is honoured between two pieces even for a
 * file of terabytes: sync_file_range writes a piece back and waits for it
 * (POSIX_FADV_DONTNEED leaves dirty pages alone), a final fdatasync writes
 * what metadata the data needs, and DONTNEED evicts each piece, then all
 * past size ("to the end of the file": nothing of the file stays cached).
 * 1 when *stop was set.
 */
int cache_evict_fd(int fd, const char *path, uint64_t size, volatile atomic_int *stop,
		   char *err)
{
	const unsigned flags = SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
			       SYNC_FILE_RANGE_WAIT_AFTER;
	int rc;

	for (uint64_t off = 0; off < size; off += EVICT_CHUNK) {
		if (stopped(stop))
			return 1;
		if (sync_file_range(fd, (off_t)off, (off_t)EVICT_CHUNK, flags) < 0 && errno != EINTR)
			return err_set(err, "cannot sync_file_range %s: %s", path, strerror(errno));
	}
	if (fdatasync(fd) < 0)
		return err_set(err, "cannot fdatasync %s: %s", path, strerror(errno));
	for (uint64_t off = 0; off < size; off += EVICT_CHUNK) {
		if (stopped(stop))
			return 1;
		rc = posix_fadvise(fd, (off_t)off, (off_t)EVICT_CHUNK, POSIX_FADV_DONTNEED);
		if (rc != 0)
			return err_set(err, "cannot posix_fadvise(DONTNEED) %s: %s", path,
				       strerror(rc));
	}
	rc = posix_fadvise(fd, (off_t)size, 0, POSIX_FADV_DONTNEED);
	if (rc != 0)
		return err_set(err, "cannot posix_fadvise(DONTNEED) %s: %s", path, strerror(rc));
	return 0;
}

static int evict(const char *path, uint64_t size, volatile atomic_int *stop, char *err)
{
	int fd = open_read(path, err), rc;

	if (fd < 0)
		return -1;
	rc = cache_evict_fd(fd, path, size, stop, err);
	if (rc != 0) {
		(void)close(fd);
		return rc;
	}
	return close_checked(fd, path, err);
}

static int drop_error(int e, char *err)
{
	if (e == EACCES || e == EPERM || e == EROFS)
		return err_set(err,
			       "cache=drop needs root to write %s (%s); "
			       "use cache=fadvise to evict just this file",
			       DROP_CACHES, strerror(e));
	return err_set(err, "cannot write %s: %s", DROP_CACHES, strerror(e));
}

static void *sync_thread(void *arg)
{
	int *done = arg;

	sync();
	__atomic_store_n(done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * sync() cannot be interrupted and may take long with much dirty data, so
 * it runs on a thread of its own while this one watches *stop: a signal
 * then ends the wait (the kernel finishes the sync on its own; the process
 * exits when it has).  1 when *stop was set.
 */
static int sync_watching(volatile atomic_int *stop, char *err)
{
	static int done;
	pthread_t tid;
	const struct timespec tick = { 0, 20000000L };

	__atomic_store_n(&done, 0, __ATOMIC_RELAXED);
	if (pthread_create(&tid, NULL, sync_thread, &done) != 0) {
		sync();
		return 0;
	}
	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
		if (stopped(stop)) {
			(void)pthread_detach(tid);
			return 1;
		}
		nanosleep(&tick, NULL);
	}
	if (pthread_join(tid, NULL) != 0)
		return err_set(err, "cannot join the sync thread");
	return 0;
}

static int drop(volatile atomic_int *stop, char *err)
{
	static const char three[] = "3\n";
	ssize_t put;
	int fd, rc;

	/* opened first, so that a refusal costs no system-wide sync */
	fd = open(DROP_CACHES, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return drop_error(errno, err);
	rc = sync_watching(stop, err);
	if (rc != 0) {
		(void)close(fd);
		return rc;
	}
	do
		put = write(fd, three, sizeof(three) - 1);
	while (put < 0 && errno == EINTR);
	if (put < 0) {
		int e = errno;

		(void)close(fd);
		return drop_error(e, err);
	}
	if (put != (ssize_t)(sizeof(three) - 1)) {
		(void)close(fd);
		return err_set(err, "short write to %s", DROP_CACHES);
	}
	return close_checked(fd, DROP_CACHES, err);
}

const char *const cache_policy_names[] = {
	[CACHE_KEEP] = "keep",       [CACHE_WARM] = "warm",     [CACHE_FADVISE] = "fadvise",
	[CACHE_DROP] = "drop",       [CACHE_DIRECT] = "direct", NULL,
};

int cache_apply(enum cache_policy policy, const char *path, uint64_t size,
		volatile atomic_int *stop, char *err)
{
	switch (policy) {
	case CACHE_KEEP:
	case CACHE_DIRECT:
		return 0;
	case CACHE_WARM:
		return warm(path, size, stop, err);
	case CACHE_FADVISE:
		return evict(path, size, stop, err);
	case CACHE_DROP:
		return drop(stop, err);
	}
	return err_set(err, "unknown cache policy %d", (int)policy);
}

/* File systems whose pages live only in memory: nothing to evict them to. */
static const char *memory_fs(const char *path)
{
	struct statfs sf;
	struct stat st;
	char *dir;
	int rc;

	/* a device node's own file system (devtmpfs) is not where its pages are */
	if (stat(path, &st) == 0 && S_ISBLK(st.st_mode))
		return NULL;
	rc = statfs(path, &sf);

	if (rc < 0 && errno == ENOENT) { /* a file still to be created */
		dir = strdup(path);
		rc = dir ? statfs(dirname(dir), &sf) : -1;
		free(dir);
	}
	if (rc < 0)
		return NULL;
	if (sf.f_type == TMPFS_MAGIC)
		return "tmpfs";
	if (sf.f_type == RAMFS_MAGIC)
		return "ramfs";
	return NULL;
}

enum cache_obstacle cache_evict_obstacle(const char *path, char *why, size_t n)
{
	const char *fs = memory_fs(path);

	if (fs) {
		snprintf(why, n, "%s is on %s, whose pages cannot be evicted", path, fs);
		return CACHE_CANNOT_EVICT;
	}
	if (access(path, R_OK) == 0 && cache_residency(path, 1) < 0) {
		snprintf(why, n, "the page-cache state of %s can be read only by its owner or root",
			 path);
		return CACHE_CANNOT_VERIFY;
	}
	return CACHE_NO_OBSTACLE;
}

static uint64_t page_count(uint64_t size, uint64_t page)
{
	return size / page + (size % page != 0);
}

/* Cached pages among the first `size` bytes, or -1 (errno set). */
static int64_t cachestat_pages(int fd, uint64_t size)
{
	struct cs_range range = {.off = 0, .len = size};
	struct cs_stat cs;

	memset(&cs, 0, sizeof(cs));
	if (syscall(__NR_cachestat, fd, &range, &cs, 0) < 0)
		return -1;
	return (int64_t)cs.nr_cache;
}

/*
 * Since Linux 5.2 mincore reports a file page as resident, whatever its
 * state, unless the caller owns the file, is privileged, or could open it
 * for writing.  This mirrors that test (erring towards "cannot tell").
 */
static int mincore_trustworthy(const char *path, int fd)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return 0;
	if (st.st_uid == geteuid() || geteuid() == 0)
		return 1;
	return faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0;
}

static int64_t mincore_window(int fd, uint64_t off, uint64_t len, uint64_t page, unsigned char *vec)
{
	uint64_t i, n = page_count(len, page);
	int64_t cached = 0;
	void *map;
	int rc;

	map = mmap(NULL, (size_t)len, PROT_READ, MAP_SHARED, fd, (off_t)off);
	if (map == MAP_FAILED)
		return -1;
	rc = mincore(map, (size_t)len, vec);
	if (munmap(map, (size_t)len) < 0 || rc < 0)
		return -1;
	for (i = 0; i < n; i++)
		cached += vec[i] & 1;
	return cached;
}

static int64_t mincore_pages(int fd, uint64_t size, uint64_t page)
{
	uint64_t off, window = MINCORE_WINDOW < size ? MINCORE_WINDOW : size;
	unsigned char *vec;
	int64_t cached = 0;

	vec = malloc((size_t)page_count(window, page));
	if (!vec)
		return -1;
	for (off = 0; off < size; off += window) {
		uint64_t len = size - off < window ? size - off : window;
		int64_t n = mincore_window(fd, off, len, page, vec);

		if (n < 0) {
			cached = -1;
			break;
		}
		cached += n;
	}
	free(vec);
	return cached;
}

static int64_t resident_pages(const char *path, int fd, uint64_t size, uint64_t page)
{
	int64_t n = cachestat_pages(fd, size);

	if (n >= 0)
		return n;
	/* EPERM: the kernel has cachestat but will not tell this caller,
	 * and then mincore would not either. */
	if (errno == EPERM || errno == EACCES)
		return -1;
	if (!mincore_trustworthy(path, fd))
		return -1;
	return mincore_pages(fd, size, page);
}

double cache_resident_cheap(int fd, uint64_t size)
{
	long page = sysconf(_SC_PAGESIZE);
	int64_t n = size ? cachestat_pages(fd, size) : -1;

	return n < 0 || page <= 0 ? -1 : (double)n / (double)page_count(size, (uint64_t)page);
}

/* A file of size 0 has no pages: its residency is 0.0 (nothing cached). */
double cache_residency(const char *path, uint64_t size)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t total;
	int64_t cached;
	int fd;

	if (page <= 0)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (size == 0) {
		(void)close(fd);
		return 0.0;
	}
	total = page_count(size, (uint64_t)page);
	cached = resident_pages(path, fd, size, (uint64_t)page);
	if (close(fd) < 0 || cached < 0)
		return -1;
	if ((uint64_t)cached > total)
		return 1.0;
	return (double)cached / (double)total;
}

/* Dirty + Writeback of /proc/meminfo, in bytes; -1 when unreadable. */
static int64_t meminfo_dirty(void)
{
	static const char *const keys[] = { "Dirty:", "Writeback:" };
	unsigned long long sum = 0;
	char line[128];
	int found = 0;
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		for (int k = 0; k < 2; k++) {
			size_t len = strlen(keys[k]);
			char *end;

			if (strncmp(line, keys[k], len) != 0)
				continue;
			errno = 0;
			unsigned long long kb = strtoull(line + len, &end, 10);
			if (errno == 0 && end != line + len && strncmp(end, " kB", 3) == 0) {
				sum += kb * 1024;
				found++;
			}
		}
	(void)fclose(f);
	return found == 2 ? (int64_t)sum : -1;
}

int64_t cache_dirty_bytes(int fd, uint64_t size, bool *system_wide)
{
	struct cs_range range = {.off = 0, .len = size};
	struct cs_stat cs;
	long page = sysconf(_SC_PAGESIZE);

	*system_wide = false;
	memset(&cs, 0, sizeof(cs));
	if (page > 0 && syscall(__NR_cachestat, fd, &range, &cs, 0) == 0)
		return (int64_t)((cs.nr_dirty + cs.nr_writeback) * (uint64_t)page);
	if (errno == EPERM || errno == EACCES)
		return -1;
	*system_wide = true;
	return meminfo_dirty();
}

static int usable_block_size(unsigned long v)
{
	return v >= 512 && v <= (1UL << 20) && (v & (v - 1)) == 0;
}

static unsigned bdev_block_size(const char *path)
{
	int fd, size = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return 0;
	if (ioctl(fd, BLKSSZGET, &size) < 0)
		size = 0;
	(void)close(fd);
	return usable_block_size((unsigned long)size) ? (unsigned)size : 0;
}

static unsigned sysfs_number(const char *path)
{
	char buf[32];
	unsigned long v;
	char *end;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f)) {
		(void)fclose(f);
		return 0;
	}
	(void)fclose(f);
	errno = 0;
	v = strtoul(buf, &end, 10);
	if (errno || end == buf || !usable_block_size(v))
		return 0;
	return (unsigned)v;
}

/* A partition has no queue directory of its own: it is in its disk's. */
static unsigned sysfs_block_size(dev_t dev)
{
	static const char *const where[] = {"queue", "../queue"};
	char path[PATH_MAX];
	unsigned v;
	size_t i;

	if (major(dev) == 0)
		return 0;
	for (i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%s/logical_block_size",
			 major(dev), minor(dev), where[i]);
		v = sysfs_number(path);
		if (v)
			return v;
	}
	return 0;
}

/* The O_DIRECT offset alignment a regular file states (Linux 6.1; ext4,
 * xfs, btrfs, NFS...): what its file system needs, whatever the devices
 * under it.  dirfd and path as for statx(2); 0 when not stated. */
static unsigned dio_alignment(int dirfd, const char *path, int flags)
{
#ifdef STATX_DIOALIGN
	struct statx stx;

	if (statx(dirfd, path, flags, STATX_DIOALIGN, &stx) < 0)
		return 0;
	if (!(stx.stx_mask & STATX_DIOALIGN) || !usable_block_size(stx.stx_dio_offset_align))
		return 0;
	return stx.stx_dio_offset_align;
#else
	(void)dirfd;
	(void)path;
	(void)flags;
	return 0;
#endif
}

/* A file that does not exist yet will be on the file system of the
 * nearest directory above it that does: its stat, in *st. */
static int stat_or_parent(const char *path, struct stat *st)
{
	char dir[PATH_MAX], *slash;

	if (stat(path, st) == 0)
		return 0;
	snprintf(dir, sizeof(dir), "%s", path);
	while ((slash = strrchr(dir, '/')) != NULL) {
		slash[slash == dir] = '\0';
		if (stat(dir, st) == 0)
			return 0;
		if (slash == dir)
			break;
	}
	return stat(".", st);
}

unsigned cache_logical_block_size(const char *path)
{
	struct stat st;
	unsigned v = 0;

	if (stat_or_parent(path, &st) < 0)
		return 512;
	if (S_ISBLK(st.st_mode))
		v = bdev_block_size(path);
	if (!v && S_ISREG(st.st_mode))
		v = dio_alignment(AT_FDCWD, path, 0);
	if (!v)
		v = sysfs_block_size(S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev);
	return v ? v : 512;
}

unsigned cache_fd_direct_alignment(int fd)
{
	struct stat st;
	unsigned v = 0;
	int size = 0;

	if (fstat(fd, &st) < 0)
		return 512;
	if (S_ISBLK(st.st_mode) && ioctl(fd, BLKSSZGET, &size) == 0 &&
	    usable_block_size((unsigned long)size))
		v = (unsigned)size;
	if (!v && S_ISREG(st.st_mode))
		v = dio_alignment(fd, "", AT_EMPTY_PATH);
	if (!v)
		v = sysfs_block_size(S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev);
	return v ? v : 512;
}
