/*
 * testutil.h - what several unit tests need around the code they test:
 * where their files go, making one there, writing it whole, removing a
 * scratch directory, and skipping a test with its reason.
 *
 * Files go to ${IOSWEEP_TEST_DIR:-/var/tmp}, where the bats tests put
 * theirs: a real disk (/tmp may be tmpfs, where nothing is ever evicted or
 * written back), and the one directory tests/run.sh sets.  Each unit test
 * is built from its one .c file, so everything here is static inline: a
 * test that uses part of it is not warned about the rest.  SKIP needs
 * <cmocka.h> included first.
 */
#ifndef IOSWEEP_TESTUTIL_H
#define IOSWEEP_TESTUTIL_H

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* SKIP(FORMAT, ...): skips the running test and says why */
#define SKIP(...)                                      \
	do {                                           \
		print_message("skipped: " __VA_ARGS__); \
		print_message("\n");                   \
		skip();                                \
	} while (0)

/* The directory the tests' files go in. */
static inline const char *test_dir(void)
{
	const char *d = getenv("IOSWEEP_TEST_DIR");

	return d && *d ? d : "/var/tmp";
}

/* Creates a new empty file DIR/iosweep-NAME-XXXXXX (mkstemp) and returns
 * it open for reading and writing, its name in path (of size bytes); -1
 * when it cannot. */
static inline int test_file_in(const char *dir, const char *name, char *path, size_t size)
{
	if (snprintf(path, size, "%s/iosweep-%s-XXXXXX", dir, name) >= (int)size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return mkstemp(path);
}

/* The same in test_dir(), unlinked once open: a descriptor of a file that
 * nothing can leave behind, not even a test that fails; -1 when it cannot
 * be made. */
static inline int test_scratch(const char *name)
{
	char path[PATH_MAX];
	int fd = test_file_in(test_dir(), name, path, sizeof(path));

	if (fd >= 0 && unlink(path) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Writes all len bytes of buf to fd (retrying short writes and EINTR):
 * 0, or -1 with errno. */
static inline int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Creates a new directory test_dir()/iosweep-NAME-XXXXXX (mkdtemp), its
 * name in path: 0, or -1. */
static inline int test_mkdir(const char *name, char *path, size_t size)
{
	if (snprintf(path, size, "%s/iosweep-%s-XXXXXX", test_dir(), name) >= (int)size)
		return -1;
	return mkdtemp(path) ? 0 : -1;
}

/* Removes the directory path and everything in it (rm -rf): 0, or -1. */
static inline int remove_tree(const char *path)
{
	char cmd[PATH_MAX + 16];

	if (snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path) >= (int)sizeof(cmd))
		return -1;
	return system(cmd) == 0 ? 0 : -1;
}

#endif
