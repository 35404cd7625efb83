/*
 * test_cache.c - unit tests of cache.c against the kernel's own page-cache
 * accounting.
 *
 * The tests work on a real file of a few MiB in ${IOSWEEP_TEST_DIR:-/var/tmp}
 * (not /tmp, which may be tmpfs, where nothing can be evicted) and compare
 * cache_residency with what util-linux fincore says, with what a read just
 * did, and, in forked children, with the mincore fallback and with the view
 * of an unprivileged user.
 */
#define _GNU_SOURCE

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <linux/filter.h>
#include <linux/magic.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/cache.h"
#include "lib/error.h"
#include "testutil.h"

#define FILE_SIZE ((uint64_t)8 << 20)
#define NOBODY 65534
#ifndef __NR_cachestat
#define __NR_cachestat 451
#endif

static char file_path[PATH_MAX];
static uint64_t page_size;
/* how much of the file child_residency looks at */
static uint64_t child_size = FILE_SIZE;

static int make_file(void **state)
{
	size_t chunk = 1 << 20;
	char *buf = malloc(chunk);
	uint64_t off;
	size_t i;
	int fd;

	(void)state;
	page_size = (uint64_t)sysconf(_SC_PAGESIZE);
	if (!buf)
		return -1;
	fd = test_file_in(test_dir(), "cache", file_path, sizeof(file_path));
	if (fd < 0) {
		free(buf);
		return -1;
	}
	for (off = 0; off < FILE_SIZE; off += chunk) {
		for (i = 0; i < chunk; i++)
			buf[i] = (char)((off + i) * 2654435761u >> 13);
		if (write_all(fd, buf, chunk) < 0)
			break;
	}
	free(buf);
	/* world-readable, so that the unprivileged child can open it */
	if (off < FILE_SIZE || fsync(fd) < 0 || fchmod(fd, 0644) < 0) {
		close(fd);
		unlink(file_path);
		return -1;
	}
	return close(fd);
}

static int remove_file(void **state)
{
	(void)state;
	return unlink(file_path);
}

static int on_tmpfs(void)
{
	struct statfs sf;

	return statfs(test_dir(), &sf) == 0 && sf.f_type == TMPFS_MAGIC;
}

static uint64_t file_pages(void)
{
	return (FILE_SIZE + page_size - 1) / page_size;
}

static double absolute(double x)
{
	return x < 0 ? -x : x;
}

static double lesser(double a, double b)
{
	return a < b ? a : b;
}

static double greater(double a, double b)
{
	return a > b ? a : b;
}

/* Residency as a page count, for comparisons to within a page. */
static double pages_of(double fraction)
{
	return fraction * (double)file_pages();
}

static void apply_ok(enum cache_policy policy, uint64_t size)
{
	char err[ERR_MAX] = "";
	int rc = cache_apply(policy, file_path, size, NULL, err);

	if (rc != 0)
		print_message("cache_apply(%d): %s\n", (int)policy, err);
	assert_int_equal(rc, 0);
}

static void evict_or_skip(void)
{
	if (on_tmpfs())
		SKIP("%s is tmpfs: its pages cannot be evicted (set IOSWEEP_TEST_DIR)",
		     test_dir());
	apply_ok(CACHE_FADVISE, FILE_SIZE);
}

/* Reads [0, len) with readahead off, so that exactly those pages get cached. */
static void read_prefix(uint64_t len)
{
	char *buf = malloc(1 << 20);
	uint64_t off = 0;
	int fd = open(file_path, O_RDONLY);

	assert_non_null(buf);
	assert_true(fd >= 0);
	assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM), 0);
	while (off < len) {
		size_t want = len - off < (1 << 20) ? (size_t)(len - off) : (1 << 20);
		ssize_t n = pread(fd, buf, want, (off_t)off);

		assert_true(n > 0);
		off += (uint64_t)n;
	}
	free(buf);
	assert_int_equal(close(fd), 0);
}

/* Pages cached according to util-linux fincore, or -1 if it cannot run. */
static double fincore_pages(const char *path)
{
	char cmd[PATH_MAX + 128], line[128];
	unsigned long long bytes;
	int ok, status;
	FILE *p;

	assert_null(strchr(path, '\''));
	snprintf(cmd, sizeof(cmd), "fincore --bytes --noheadings --raw -o RES '%s' 2>/dev/null",
		 path);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	ok = fgets(line, sizeof(line), p) && sscanf(line, "%llu", &bytes) == 1;
	status = pclose(p);
	if (!ok || status != 0)
		return -1;
	return (double)bytes / (double)page_size;
}

/* ---- forked children: an unprivileged user, a kernel without cachestat ---- */

struct dirty_result {
	int64_t before_sync, after_sync;
	bool system_wide;
};

struct child_result {
	int rc;
	double residency;
	struct dirty_result dirty;
	char err[ERR_MAX];
};

enum child_flags { AS_NOBODY = 1, NO_CACHESTAT = 2 };

#define CHILD_SETUP_FAILED (-100)

static int become_nobody(void)
{
	if (setgroups(0, NULL) < 0 || setresgid(NOBODY, NOBODY, NOBODY) < 0 ||
	    setresuid(NOBODY, NOBODY, NOBODY) < 0)
		return -1;
	return 0;
}

/* Makes cachestat(2) fail with ENOSYS, as on a kernel before 6.5. */
static int hide_cachestat(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_cachestat, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = sizeof(filter) / sizeof(filter[0]),
		.filter = filter,
	};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

static void child_drop(struct child_result *r)
{
	r->rc = cache_apply(CACHE_DROP, file_path, FILE_SIZE, NULL, r->err);
}

static void child_residency(struct child_result *r)
{
	r->residency = cache_residency(file_path, child_size);
	r->rc = 0;
}

/* Dirty bytes of a fresh 1 MiB buffered write, before and after fdatasync. */
static void dirty_write(struct child_result *r)
{
	static char buf[1 << 20];
	struct dirty_result *d = &r->dirty;
	int fd = test_scratch("dirty");

	r->rc = -1;
	if (fd < 0)
		return;
	memset(buf, 'd', sizeof(buf));
	if (write_all(fd, buf, sizeof(buf)) == 0) {
		d->before_sync = cache_dirty_bytes(fd, sizeof(buf), &d->system_wide);
		d->after_sync = fdatasync(fd) == 0 ? cache_dirty_bytes(fd, sizeof(buf),
								       &d->system_wide) : -2;
		r->rc = 0;
	}
	close(fd);
}

static void run_child(int flags, void (*fn)(struct child_result *), struct child_result *out)
{
	struct child_result r;
	int fds[2], status;
	size_t got = 0;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		memset(&r, 0, sizeof(r));
		if ((flags & NO_CACHESTAT) && hide_cachestat() < 0) {
			r.rc = CHILD_SETUP_FAILED;
			snprintf(r.err, sizeof(r.err), "seccomp: %s", strerror(errno));
		} else if ((flags & AS_NOBODY) && become_nobody() < 0) {
			r.rc = CHILD_SETUP_FAILED;
			snprintf(r.err, sizeof(r.err), "setresuid: %s", strerror(errno));
		} else {
			fn(&r);
		}
		_exit(write(fds[1], &r, sizeof(r)) == (ssize_t)sizeof(r) ? 0 : 1);
	}
	assert_int_equal(close(fds[1]), 0);
	while (got < sizeof(*out)) {
		ssize_t n = read(fds[0], (char *)out + got, sizeof(*out) - got);

		if (n < 0 && errno == EINTR)
			continue;
		assert_true(n > 0);
		got += (size_t)n;
	}
	assert_int_equal(close(fds[0]), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	if (out->rc == CHILD_SETUP_FAILED)
		SKIP("cannot set up the child: %s", out->err);
}

/* ---- tests ---- */

static void test_warm_makes_file_resident(void **state)
{
	double r;

	(void)state;
	if (!on_tmpfs())
		apply_ok(CACHE_FADVISE, FILE_SIZE);
	apply_ok(CACHE_WARM, FILE_SIZE);
	r = cache_residency(file_path, FILE_SIZE);
	print_message("after warm: %.4f\n", r);
	assert_true(r >= 0.99 && r <= 1.0);
}

static void test_warm_of_a_prefix(void **state)
{
	(void)state;
	evict_or_skip();
	apply_ok(CACHE_WARM, FILE_SIZE / 4);
	assert_true(cache_residency(file_path, FILE_SIZE / 4) >= 0.99);
}

static void test_warm_past_the_end_fails(void **state)
{
	char err[ERR_MAX] = "";

	(void)state;
	assert_int_equal(cache_apply(CACHE_WARM, file_path, 2 * FILE_SIZE, NULL, err), -1);
	assert_non_null(strstr(err, file_path));
}

static void test_fadvise_evicts_file(void **state)
{
	double r;

	(void)state;
	if (on_tmpfs())
		SKIP("%s is tmpfs: fadvise cannot evict there (set IOSWEEP_TEST_DIR)",
		     test_dir());
	apply_ok(CACHE_WARM, FILE_SIZE);
	assert_true(cache_residency(file_path, FILE_SIZE) >= 0.99);
	apply_ok(CACHE_FADVISE, FILE_SIZE);
	r = cache_residency(file_path, FILE_SIZE);
	print_message("after fadvise: %.4f\n", r);
	assert_true(r >= 0.0 && r <= 0.01);
}

static void test_half_read_is_half_resident(void **state)
{
	double r;

	(void)state;
	evict_or_skip();
	read_prefix(FILE_SIZE / 2);
	r = cache_residency(file_path, FILE_SIZE);
	print_message("after reading the first half: %.4f\n", r);
	assert_true(r >= 0.495 && r <= 0.53);
	/* and the first half alone is all there */
	assert_true(cache_residency(file_path, FILE_SIZE / 2) >= 0.99);
}

static void test_residency_agrees_with_fincore(void **state)
{
	double before, after, f;

	(void)state;
	evict_or_skip();
	read_prefix(FILE_SIZE / 2 + 3 * page_size);
	before = pages_of(cache_residency(file_path, FILE_SIZE));
	f = fincore_pages(file_path);
	after = pages_of(cache_residency(file_path, FILE_SIZE));
	if (f < 0)
		SKIP("util-linux fincore did not run");
	print_message("pages: cache_residency %.0f/%.0f, fincore %.0f\n", before, after, f);
	assert_true(before >= 0 && after >= 0);
	/* bracketed by two readings, in case reclaim runs in between */
	assert_true(f >= lesser(before, after) - 1.0 && f <= greater(before, after) + 1.0);
}

static void test_keep_leaves_residency(void **state)
{
	char err[ERR_MAX] = "";
	double before, after;

	(void)state;
	evict_or_skip();
	read_prefix(FILE_SIZE / 2);
	before = cache_residency(file_path, FILE_SIZE);
	assert_int_equal(cache_apply(CACHE_KEEP, file_path, FILE_SIZE, NULL, err), 0);
	assert_int_equal(cache_apply(CACHE_DIRECT, file_path, FILE_SIZE, NULL, err), 0);
	after = cache_residency(file_path, FILE_SIZE);
	assert_true(before > 0.4 && before < 0.6);
	assert_true(absolute(pages_of(after) - pages_of(before)) <= 1.0);
}

static void test_missing_file(void **state)
{
	char err[ERR_MAX] = "";
	char missing[PATH_MAX + 16];

	(void)state;
	snprintf(missing, sizeof(missing), "%s.missing", file_path);
	assert_true(cache_residency(missing, FILE_SIZE) == -1.0);
	assert_true(cache_residency(missing, 0) == -1.0);
	assert_int_equal(cache_apply(CACHE_WARM, missing, FILE_SIZE, NULL, err), -1);
	assert_non_null(strstr(err, missing));
	assert_non_null(strstr(err, strerror(ENOENT)));
	err[0] = '\0';
	assert_int_equal(cache_apply(CACHE_FADVISE, missing, FILE_SIZE, NULL, err), -1);
	assert_non_null(strstr(err, missing));
}

/* A stop already asked for ends warm and fadvise before they read or evict
 * anything (they check between pieces), with 1: interrupted, not failed. */
static void test_stop_interrupts(void **state)
{
	volatile atomic_int stop = 1;
	char err[ERR_MAX] = "";
	double before;

	(void)state;
	evict_or_skip();
	assert_int_equal(cache_apply(CACHE_WARM, file_path, FILE_SIZE, &stop, err), 1);
	assert_true(cache_residency(file_path, FILE_SIZE) < 0.01);
	read_prefix(FILE_SIZE);
	before = cache_residency(file_path, FILE_SIZE);
	assert_int_equal(cache_apply(CACHE_FADVISE, file_path, FILE_SIZE, &stop, err), 1);
	assert_true(cache_residency(file_path, FILE_SIZE) == before);
	assert_string_equal(err, "");
}

/* 3 pages and 1 byte are 4 pages, of which 3 were read. */
static void test_partial_last_page_counts(void **state)
{
	struct child_result r;
	double mine;

	(void)state;
	evict_or_skip();
	read_prefix(3 * page_size);
	mine = cache_residency(file_path, 3 * page_size + 1);
	child_size = 3 * page_size + 1;
	run_child(NO_CACHESTAT, child_residency, &r);
	child_size = FILE_SIZE;
	print_message("3 of 4 pages: cachestat %.4f, mincore %.4f\n", mine, r.residency);
	assert_true(mine == 0.75);
	assert_true(r.residency == 0.75);
}

static void test_size_zero_is_nothing_cached(void **state)
{
	(void)state;
	assert_true(cache_residency(file_path, 0) == 0.0);
}

static void test_drop_as_root(void **state)
{
	char err[ERR_MAX] = "";
	double r;
	int rc;

	(void)state;
	if (geteuid() != 0)
		SKIP("cache=drop needs root");
	apply_ok(CACHE_WARM, FILE_SIZE);
	rc = cache_apply(CACHE_DROP, file_path, FILE_SIZE, NULL, err);
	if (rc != 0)
		print_message("cache_apply(drop): %s\n", err);
	assert_int_equal(rc, 0);
	if (on_tmpfs())
		return;
	r = cache_residency(file_path, FILE_SIZE);
	print_message("after drop: %.4f\n", r);
	assert_true(r >= 0.0 && r <= 0.01);
}

static void test_drop_unprivileged_suggests_fadvise(void **state)
{
	struct child_result r;

	(void)state;
	run_child(geteuid() == 0 ? AS_NOBODY : 0, child_drop, &r);
	print_message("as uid %d: %s\n", NOBODY, r.err);
	assert_int_equal(r.rc, -1);
	assert_non_null(strstr(r.err, "/proc/sys/vm/drop_caches"));
	assert_non_null(strstr(r.err, "cache=fadvise"));
}

static void test_mincore_fallback_agrees(void **state)
{
	struct child_result r;
	double mine;

	(void)state;
	evict_or_skip();
	read_prefix(FILE_SIZE / 4);
	mine = cache_residency(file_path, FILE_SIZE);
	run_child(0, child_residency, &r);
	assert_true(absolute(pages_of(r.residency) - pages_of(mine)) <= 1.0);
	run_child(NO_CACHESTAT, child_residency, &r);
	print_message("cachestat %.4f, mincore %.4f\n", mine, r.residency);
	assert_true(mine > 0.2 && mine < 0.3);
	assert_true(absolute(pages_of(r.residency) - pages_of(mine)) <= 1.0);
}

static void test_dirty_bytes_of_a_buffered_write(void **state)
{
	struct child_result r;
	const struct dirty_result *d = &r.dirty;

	(void)state;
	if (on_tmpfs())
		SKIP("%s is tmpfs: nothing is ever written back", test_dir());
	run_child(0, dirty_write, &r);
	assert_int_equal(r.rc, 0);
	print_message("cachestat: %lld dirty before fdatasync, %lld after\n",
		      (long long)d->before_sync, (long long)d->after_sync);
	assert_false(d->system_wide);
	/* the pages just written are dirty or being written back, and only they */
	assert_true(d->before_sync > 0 && d->before_sync <= 1 << 20);
	assert_int_equal(d->after_sync, 0);
	/* without cachestat: the system's figure, which counts other files too */
	run_child(NO_CACHESTAT, dirty_write, &r);
	assert_int_equal(r.rc, 0);
	assert_true(d->system_wide);
	assert_true(d->before_sync >= 0 && d->after_sync >= 0);
}

static void test_unwritable_file_is_unknown_or_true(void **state)
{
	struct child_result plain, fallback;
	double mine;

	(void)state;
	if (geteuid() != 0)
		SKIP("needs root to switch to uid %d", NOBODY);
	evict_or_skip();
	read_prefix(FILE_SIZE / 4);
	mine = cache_residency(file_path, FILE_SIZE);
	/* cachestat: newer kernels refuse (EPERM -> -1), older ones tell */
	run_child(AS_NOBODY, child_residency, &plain);
	print_message("as nobody: cachestat path %.4f (root sees %.4f)\n", plain.residency, mine);
	assert_true(plain.residency == -1.0 ||
		    absolute(pages_of(plain.residency) - pages_of(mine)) <= 1.0);
	/* mincore would claim every page resident: must be -1 */
	run_child(AS_NOBODY | NO_CACHESTAT, child_residency, &fallback);
	print_message("as nobody: mincore path %.4f\n", fallback.residency);
	assert_true(fallback.residency == -1.0);
}

static int power_of_two(unsigned v)
{
	return v && (v & (v - 1)) == 0;
}

static void test_logical_block_size(void **state)
{
	unsigned file = cache_logical_block_size(file_path);
	unsigned dir = cache_logical_block_size(test_dir());

	(void)state;
	print_message("logical block size: %u\n", file);
	assert_true(power_of_two(file) && file >= 512 && file <= 65536);
	assert_int_equal(file, dir);
	assert_int_equal(cache_logical_block_size("/nonexistent/iosweep"), 512);
}

/* The node of the block device under the test file, or of
 * $IOSWEEP_TEST_BLOCKDEV; "" when there is none. */
static void block_device_node(char *node, size_t size)
{
	const char *env = getenv("IOSWEEP_TEST_BLOCKDEV");
	char uevent[128], line[256];
	struct stat st;
	FILE *f;

	node[0] = '\0';
	if (env && *env) {
		snprintf(node, size, "%s", env);
		return;
	}
	if (stat(file_path, &st) < 0 || major(st.st_dev) == 0)
		return;
	snprintf(uevent, sizeof(uevent), "/sys/dev/block/%u:%u/uevent", major(st.st_dev),
		 minor(st.st_dev));
	f = fopen(uevent, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "DEVNAME=", 8) == 0) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(node, size, "/dev/%s", line + 8);
		}
	fclose(f);
}

static void test_block_device(void **state)
{
	char node[PATH_MAX], err[ERR_MAX] = "";
	uint64_t len = 1 << 20;
	struct stat st;
	double r;
	int fd;

	(void)state;
	block_device_node(node, sizeof(node));
	if (!node[0])
		SKIP("the test file is on no block device");
	fd = open(node, O_RDONLY);
	if (fd < 0)
		SKIP("cannot open %s: %s (set IOSWEEP_TEST_BLOCKDEV; tests/run.sh makes a loop "
		     "device when root)", node, strerror(errno));
	assert_int_equal(close(fd), 0);
	assert_int_equal(stat(node, &st), 0);
	assert_true(S_ISBLK(st.st_mode));
	assert_true(power_of_two(cache_logical_block_size(node)));
	if (!getenv("IOSWEEP_TEST_BLOCKDEV"))
		assert_int_equal(cache_logical_block_size(node),
				 cache_logical_block_size(file_path));
	assert_int_equal(cache_apply(CACHE_WARM, node, len, NULL, err), 0);
	r = cache_residency(node, len);
	print_message("%s: first MiB after warm: %.4f\n", node, r);
	assert_true(r >= 0.99 && r <= 1.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_warm_makes_file_resident),
		cmocka_unit_test(test_warm_of_a_prefix),
		cmocka_unit_test(test_warm_past_the_end_fails),
		cmocka_unit_test(test_fadvise_evicts_file),
		cmocka_unit_test(test_half_read_is_half_resident),
		cmocka_unit_test(test_residency_agrees_with_fincore),
		cmocka_unit_test(test_keep_leaves_residency),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_stop_interrupts),
		cmocka_unit_test(test_partial_last_page_counts),
		cmocka_unit_test(test_size_zero_is_nothing_cached),
		cmocka_unit_test(test_drop_as_root),
		cmocka_unit_test(test_drop_unprivileged_suggests_fadvise),
		cmocka_unit_test(test_mincore_fallback_agrees),
		cmocka_unit_test(test_dirty_bytes_of_a_buffered_write),
		cmocka_unit_test(test_unwritable_file_is_unknown_or_true),
		cmocka_unit_test(test_logical_block_size),
		cmocka_unit_test(test_block_device),
	};

	return cmocka_run_group_tests(tests, make_file, remove_file);
}
