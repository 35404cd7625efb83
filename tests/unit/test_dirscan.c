/* A user's tree read read-only (io/dirscan.h): the scan finds every regular
 * file, in sorted order, and counts (never follows, never opens) symlinks,
 * loops, FIFOs, sockets and devices; an order is a permutation, seeded, new
 * per epoch when shuffled; the open takes a file beneath the root only, with
 * no link on the way, never blocks on a FIFO swapped in after the scan,
 * counts a file removed after the scan, and changes no atime.  The tree is
 * made in ${IOSWEEP_TEST_DIR:-/var/tmp}. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <grp.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/dirscan.h"

static char root[4096];

/* A name removed between the scan's readdir and its fstatat: this program's
 * fstatat (the one the scan calls) unlinks vanish_name first. */
static const char *vanish_name;

int fstatat(int dirfd, const char *name, struct stat *st, int flags)
{
	static int (*real)(int, const char *, struct stat *, int);

	if (!real)
		real = (int (*)(int, const char *, struct stat *, int))dlsym(RTLD_NEXT, "fstatat");
	if (vanish_name && !strcmp(name, vanish_name))
		unlinkat(dirfd, name, 0);
	return real(dirfd, name, st, flags);
}

static void put(const char *rel, size_t n)
{
	char p[4200];
	int fd;
	char *buf = malloc(n + 1);

	assert_non_null(buf);
	memset(buf, 'x', n);
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, buf, n), (ssize_t)n);
	close(fd);
	free(buf);
}

static void at(const char *rel, char *p, size_t n)
{
	snprintf(p, n, "%s/%s", root, rel);
}

/* a                3 bytes
 * b/c              5000
 * b/d/e            0
 * z                10
 * link -> a        symlink to a file
 * loop -> loop     symlink to itself
 * b/up -> ..       symlink to an ancestor (a directory loop)
 * fifo, sock, null (char device 1,3: as root) */
static int make_tree(void **state)
{
	const char *base = getenv("IOSWEEP_TEST_DIR");
	char p[4200];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int s;

	(void)state;
	snprintf(root, sizeof(root), "%s/dirscan-XXXXXX", base && *base ? base : "/var/tmp");
	assert_non_null(mkdtemp(root));
	at("b", p, sizeof(p));
	assert_int_equal(mkdir(p, 0755), 0);
	at("b/d", p, sizeof(p));
	assert_int_equal(mkdir(p, 0755), 0);
	put("a", 3);
	put("b/c", 5000);
	put("b/d/e", 0);
	put("z", 10);
	at("link", p, sizeof(p));
	assert_int_equal(symlink("a", p), 0);
	at("loop", p, sizeof(p));
	assert_int_equal(symlink("loop", p), 0);
	at("b/up", p, sizeof(p));
	assert_int_equal(symlink("..", p), 0);
	at("fifo", p, sizeof(p));
	assert_int_equal(mkfifo(p, 0644), 0);
	at("sock", p, sizeof(p));
	assert_true(strlen(p) < sizeof(sa.sun_path));
	memcpy(sa.sun_path, p, strlen(p) + 1);
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	assert_true(s >= 0);
	assert_int_equal(bind(s, (struct sockaddr *)&sa, sizeof(sa)), 0);
	close(s);
	if (geteuid() == 0) {
		at("null", p, sizeof(p));
		assert_int_equal(mknod(p, S_IFCHR | 0666, makedev(1, 3)), 0);
	}
	return 0;
}

static int remove_tree(void **state)
{
	char cmd[4300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_scan_finds_regular_files_sorted_and_counts_the_rest(void **state)
{
	struct dirscan s;
	char err[512] = "";

	(void)state;
	assert_int_equal(dirscan_scan(root, &s, NULL, err), 0);
	assert_int_equal(s.nfiles, 4);
	assert_string_equal(dirscan_name(&s, 0), "a");
	assert_string_equal(dirscan_name(&s, 1), "b/c");
	assert_string_equal(dirscan_name(&s, 2), "b/d/e");
	assert_string_equal(dirscan_name(&s, 3), "z");
	assert_int_equal(s.files[1].size, 5000);
	assert_int_equal(s.bytes, 3 + 5000 + 0 + 10);
	assert_int_equal(s.dirs, 3);
	assert_int_equal(s.skipped[DIRSCAN_SYMLINK], 3);
	assert_int_equal(s.skipped[DIRSCAN_SPECIAL], geteuid() == 0 ? 3 : 2);
	assert_int_equal(s.skipped[DIRSCAN_UNREADABLE], 0);
	assert_int_equal(s.skipped[DIRSCAN_VANISHED], 0);
	/* the arena holds each path once: "a b/c b/d/e z" and their ends */
	assert_int_equal(s.arena_len, 2 + 4 + 6 + 2);
	assert_true(dirscan_memory(&s) >= s.arena_len + 4 * sizeof(struct dirscan_file));
	dirscan_free(&s);
}

static void test_orders_are_permutations_seeded_and_new_per_epoch(void **state)
{
	enum { N = 1000 };
	struct dirscan s = { .nfiles = N };
	static uint32_t a[N], b[N], c[N], d[N];
	static unsigned char seen[N];
	unsigned moved = 0;

	(void)state;
	dirscan_order(&s, DIRSCAN_SEQUENTIAL, 7, 0, a);
	for (uint32_t k = 0; k < N; k++)
		assert_int_equal(a[k], k);
	dirscan_order(&s, DIRSCAN_RANDOM, 7, 0, a);
	dirscan_order(&s, DIRSCAN_RANDOM, 7, 5, b);   /* random: the epoch does not matter */
	dirscan_order(&s, DIRSCAN_SHUFFLE, 7, 0, c);
	dirscan_order(&s, DIRSCAN_SHUFFLE, 7, 1, d);
	assert_memory_equal(a, b, sizeof(a));
	assert_memory_not_equal(c, d, sizeof(c));
	for (uint32_t k = 0; k < N; k++) {
		assert_true(a[k] < N);
		assert_int_equal(seen[a[k]], 0);
		seen[a[k]] = 1;
		moved += a[k] != k;
	}
	assert_true(moved > N / 2);
	dirscan_order(&s, DIRSCAN_RANDOM, 8, 0, b);
	assert_memory_not_equal(a, b, sizeof(a));
}

static void test_open_reads_without_nonblock_or_atime_change(void **state)
{
	struct dirscan s;
	struct dirscan_reader r = { 0 };
	enum dirscan_skip kind;
	char err[512] = "", p[4200], buf[8192];
	struct timespec old[2] = { { .tv_sec = 1000000000 }, { .tv_sec = 1000000000 } };
	struct stat before, after;
	ssize_t n, total = 0;
	int fd;

	(void)state;
	at("b/c", p, sizeof(p));
	assert_int_equal(utimensat(AT_FDCWD, p, old, AT_SYMLINK_NOFOLLOW), 0);
	at("b", p, sizeof(p));
	assert_int_equal(utimensat(AT_FDCWD, p, old, AT_SYMLINK_NOFOLLOW), 0);
	assert_int_equal(lstat(p, &before), 0);
	assert_int_equal(dirscan_scan(root, &s, NULL, err), 0);
	fd = dirscan_open(&s, 1, &r, &kind);
	assert_true(fd >= 0);
	assert_int_equal(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	assert_int_equal(total, 5000);
	close(fd);
	dirscan_free(&s);
	if (geteuid() == 0 || before.st_uid == geteuid()) {
		/* neither the directory read nor the file read has a new atime */
		assert_int_equal(lstat(p, &after), 0);
		assert_int_equal(after.st_atim.tv_sec, 1000000000);
		at("b/c", p, sizeof(p));
		assert_int_equal(lstat(p, &after), 0);
		assert_int_equal(after.st_atim.tv_sec, 1000000000);
		assert_false(r.noatime_refused);
	}
}

static void test_open_counts_what_changed_after_the_scan(void **state)
{
	struct dirscan s;
	struct dirscan_reader r = { 0 };
	enum dirscan_skip kind;
	char err[512] = "", p[4200], q[4200];
	int fd;

	(void)state;
	assert_int_equal(dirscan_scan(root, &s, NULL, err), 0);
	assert_int_equal(s.nfiles, 4);
	/* z removed: vanished */
	at("z", p, sizeof(p));
	assert_int_equal(unlink(p), 0);
	assert_int_equal(dirscan_open(&s, 3, &r, &kind), -1);
	assert_int_equal(kind, DIRSCAN_VANISHED);
	/* a swapped for a FIFO: opened without blocking, not read */
	at("a", p, sizeof(p));
	assert_int_equal(unlink(p), 0);
	assert_int_equal(mkfifo(p, 0644), 0);
	assert_int_equal(dirscan_open(&s, 0, &r, &kind), -1);
	assert_int_equal(kind, DIRSCAN_SPECIAL);
	/* b/d swapped for a link to a copy of it: the link is not followed */
	at("b/d", p, sizeof(p));
	at("b/d2", q, sizeof(q));
	assert_int_equal(rename(p, q), 0);
	assert_int_equal(symlink("d2", p), 0);
	fd = dirscan_open(&s, 2, &r, &kind);
	assert_int_equal(fd, -1);
	assert_int_equal(kind, DIRSCAN_SYMLINK);
	/* b/c is still there and still read */
	fd = dirscan_open(&s, 1, &r, &kind);
	assert_true(fd >= 0);
	close(fd);
	dirscan_free(&s);
}

static void test_a_name_removed_mid_scan_is_counted_vanished(void **state)
{
	struct dirscan s;
	char err[512] = "";

	(void)state;
	put("vanishing", 7);
	vanish_name = "vanishing";
	assert_int_equal(dirscan_scan(root, &s, NULL, err), 0);
	vanish_name = NULL;
	assert_int_equal(s.nfiles, 4);
	assert_int_equal(s.skipped[DIRSCAN_VANISHED], 1);
	assert_string_equal(s.first_skip[DIRSCAN_VANISHED], "vanishing");
	dirscan_free(&s);
}

/* As user nobody: a directory and a file of root's it may not read are
 * counted unreadable, not listed; the rest is found (the child's exit code says which
 * check failed). */
static void test_unreadable_names_are_counted_for_another_user(void **state)
{
	char p[4200];
	int status;
	pid_t pid;

	(void)state;
	if (geteuid() != 0)
		skip();
	put("secret", 4);
	at("secret", p, sizeof(p));
	assert_int_equal(chmod(p, 0600), 0);
	at("private", p, sizeof(p));
	assert_int_equal(mkdir(p, 0700), 0);
	put("private/x", 4);
	assert_int_equal(chmod(root, 0755), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct dirscan s;
		struct dirscan_reader r = { 0 };
		enum dirscan_skip kind;
		char e[512];
		uint32_t k;
		int fd;

		if (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 ||
		    setresuid(65534, 65534, 65534) < 0)
			_exit(10);
		if (dirscan_scan(root, &s, NULL, e) < 0)
			_exit(11);
		/* a b/c b/d/e z: neither the file nor the directory is read */
		if (s.nfiles != 4 || s.skipped[DIRSCAN_UNREADABLE] != 2 ||
		    (strcmp(s.first_skip[DIRSCAN_UNREADABLE], "private") &&
		     strcmp(s.first_skip[DIRSCAN_UNREADABLE], "secret")))
			_exit(12);
		for (k = 0; k < s.nfiles; k++)
			if (!strcmp(dirscan_name(&s, k), "secret"))
				_exit(13);
		/* root's files: O_NOATIME refused (EPERM), opened without */
		fd = dirscan_open(&s, 0, &r, &kind);
		if (fd < 0 || !r.noatime_refused)
			_exit(14);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	at("secret", p, sizeof(p));
	assert_int_equal(unlink(p), 0);
	at("private/x", p, sizeof(p));
	assert_int_equal(unlink(p), 0);
	at("private", p, sizeof(p));
	assert_int_equal(rmdir(p), 0);
}

/* Directories deeper than DIRSCAN_MAX_DEPTH are counted, not read; a wide
 * tree costs its paths, a record each, and at most twice that in slack. */
static void test_depth_is_bounded_and_memory_follows_the_names(void **state)
{
	struct dirscan s;
	char err[512] = "", p[8400], rel[8192] = "deep";
	uint64_t names = 0;

	(void)state;
	for (int k = 0; k < DIRSCAN_MAX_DEPTH + 2; k++) {
		at(rel, p, sizeof(p));
		assert_int_equal(mkdir(p, 0755), 0);
		strcat(rel, "/d");
	}
	at("wide", p, sizeof(p));
	assert_int_equal(mkdir(p, 0755), 0);
	for (int k = 0; k < 3000; k++) {
		snprintf(rel, sizeof(rel), "wide/f%04d", k);
		put(rel, 1);
		names += strlen(rel) + 1;
	}
	assert_int_equal(dirscan_scan(root, &s, NULL, err), 0);
	assert_int_equal(s.skipped[DIRSCAN_DEEP], 1);
	assert_int_equal(s.nfiles, 4 + 3000);
	assert_true(dirscan_memory(&s) <= 2 * (names + 16 + (4 + 3000) * 16) + 65536);
	assert_string_equal(dirscan_name(&s, 3 + 3000), "z");
	assert_string_equal(dirscan_name(&s, 3), "wide/f0000");
	dirscan_free(&s);
	snprintf(p, sizeof(p), "rm -rf '%s/deep' '%s/wide'", root, root);
	assert_int_equal(system(p), 0);
}

static void test_a_root_that_is_missing_is_an_error(void **state)
{
	struct dirscan s;
	char err[512] = "", p[4200];

	(void)state;
	at("no-such-dir", p, sizeof(p));
	assert_int_equal(dirscan_scan(p, &s, NULL, err), -1);
	assert_non_null(strstr(err, "no-such-dir"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scan_finds_regular_files_sorted_and_counts_the_rest),
		cmocka_unit_test(test_orders_are_permutations_seeded_and_new_per_epoch),
		cmocka_unit_test(test_open_reads_without_nonblock_or_atime_change),
		cmocka_unit_test(test_a_root_that_is_missing_is_an_error),
		cmocka_unit_test(test_a_name_removed_mid_scan_is_counted_vanished),
		cmocka_unit_test(test_unreadable_names_are_counted_for_another_user),
		cmocka_unit_test(test_depth_is_bounded_and_memory_follows_the_names),
		/* last: it changes the tree */
		cmocka_unit_test(test_open_counts_what_changed_after_the_scan),
	};

	return cmocka_run_group_tests(tests, make_tree, remove_tree);
}
