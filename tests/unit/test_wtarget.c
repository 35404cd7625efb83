/*
 * test_wtarget.c - which files writes may go to: only iosweep's own and new
 * ones, a user's file only when the job names it in allow_write, and never a
 * device, a FIFO, a symbolic link or another user's file -- by name at plan
 * time and through the descriptor at open time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/error.h"
#include "io/prepare.h"
#include "io/wtarget.h"
#include "testutil.h"

static char dir[PATH_MAX - 64];

static const char *at(const char *name)
{
	static char path[4][PATH_MAX];

	assert_true(strlen(name) < 32);
	static int k;

	k = (k + 1) % 4;
	snprintf(path[k], sizeof(path[k]), "%s/%s", dir, name);
	return path[k];
}

static int make_dir(void **state)
{
	(void)state;
	return test_mkdir("wtarget", dir, sizeof(dir));
}

static int remove_dir(void **state)
{
	(void)state;
	return remove_tree(dir);
}

/* A file iosweep made, with its record. */
static const char *ours(const char *name)
{
	static volatile atomic_int stop;
	char err[ERR_MAX];
	const char *path = at(name);

	assert_int_equal(prepare_file(path, 8192, FILL_RANDOM, 1, &stop, NULL, NULL, err), 0);
	return path;
}

/* A file the user made. */
static const char *theirs(const char *name)
{
	const char *path = at(name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "user data\n", 10), 10);
	close(fd);
	return path;
}

static void refused(const char *path, const char *allow, const char *why)
{
	enum wtarget_kind kind;
	char err[ERR_MAX] = "";

	assert_int_equal(wtarget_check(path, allow, NULL, &kind, err), -1);
	if (!strstr(err, why))
		fail_msg("%s: '%s' does not say '%s'", path, err, why);
	assert_int_equal(wtarget_open(path, 0, allow, err), -1);
	if (!strstr(err, why))
		fail_msg("%s at open: '%s' does not say '%s'", path, err, why);
}

static void test_new_and_own_files_may_be_written(void **state)
{
	enum wtarget_kind kind;
	char err[ERR_MAX];
	const char *path = ours("made");
	int fd;

	(void)state;
	assert_int_equal(wtarget_check(at("new"), NULL, NULL, &kind, err), 0);
	assert_int_equal(kind, WTARGET_NEW);
	assert_int_equal(wtarget_check(path, NULL, NULL, &kind, err), 0);
	assert_int_equal(kind, WTARGET_OURS);
	fd = wtarget_open(path, O_DSYNC, NULL, err);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, "x", 1, 0), 1);
	assert_true(fcntl(fd, F_GETFL) & O_DSYNC);
	assert_false(fcntl(fd, F_GETFL) & O_NONBLOCK);
	close(fd);
}

static void test_users_file_needs_its_own_opt_in(void **state)
{
	enum wtarget_kind kind;
	char err[ERR_MAX];
	const char *path = theirs("mine");
	int fd;

	(void)state;
	refused(path, NULL, "was not created by iosweep");
	refused(path, at("other"), "allow_write names");
	assert_int_equal(wtarget_check(path, path, NULL, &kind, err), 0);
	assert_int_equal(kind, WTARGET_OPTED_IN);
	fd = wtarget_open(path, 0, path, err);
	assert_true(fd >= 0);
	close(fd);
}

static void test_devices_fifos_and_links_never(void **state)
{
	const char *link = at("link"), *fifo = at("fifo");

	(void)state;
	refused("/dev/null", "/dev/null", "is a character device");
	assert_int_equal(symlink(ours("target"), link), 0);
	refused(link, link, "is a symbolic link");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	refused(fifo, fifo, "is a FIFO"); /* and the open did not block */
	refused(dir, dir, "is a directory");
	if (geteuid() == 0 && mknod(at("blk"), S_IFBLK | 0600, makedev(7, 200)) == 0)
		refused(at("blk"), NULL, "is a block device"); /* a device needs allow_write */
}

static void test_another_users_file_never(void **state)
{
	const char *path = ours("given");

	(void)state;
	if (geteuid() != 0)
		skip();
	assert_int_equal(chown(path, 65534, 65534), 0);
	refused(path, path, "belongs to uid 65534, not to you");
}

static void test_free_space(void **state)
{
	char err[ERR_MAX];

	(void)state;
	assert_int_equal(wtarget_space(at("x"), 4096, err), 0);
	assert_int_equal(wtarget_space(at("x"), UINT64_MAX / 2, err), -1);
	assert_non_null(strstr(err, "free for you, and the run writes"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_and_own_files_may_be_written),
		cmocka_unit_test(test_users_file_needs_its_own_opt_in),
		cmocka_unit_test(test_devices_fifos_and_links_never),
		cmocka_unit_test(test_another_users_file_never),
		cmocka_unit_test(test_free_space),
	};
	return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
