/* host_memory_available: MemAvailable and the cgroup limits (v1 and v2, the
 * cgroup's ancestors included), read from a made-up /proc and /sys tree. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "lib/host.h"
#include "testutil.h"

static char root[256];

/* Writes text to root/rel, making the directories on the way. */
static void put(const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	return test_mkdir("memory", root, sizeof(root));
}

static int teardown(void **state)
{
	(void)state;
	return remove_tree(root);
}

static void test_memavailable_alone(void **state)
{
	const char *what;

	(void)state;
	put("proc/meminfo", "MemTotal:       2000000 kB\nMemAvailable:    1000000 kB\n");
	put("proc/self/cgroup", "0::/\n");
	assert_int_equal(host_memory_available(root, &what), 1000000ULL * 1024);
	assert_string_equal(what, "MemAvailable");
}

static void test_cgroup_v2_limit_and_its_parent(void **state)
{
	const char *what;

	(void)state;
	put("proc/meminfo", "MemAvailable:    1000000 kB\n");
	put("proc/self/cgroup", "0::/a/b\n");
	put("sys/fs/cgroup/a/b/memory.max", "max\n");
	put("sys/fs/cgroup/a/b/memory.current", "1000\n");
	/* the parent's limit binds: 512 MiB, 100 MiB of it used */
	put("sys/fs/cgroup/a/memory.max", "536870912\n");
	put("sys/fs/cgroup/a/memory.current", "104857600\n");
	assert_int_equal(host_memory_available(root, &what), 536870912ULL - 104857600);
	assert_string_equal(what, "the cgroup's memory limit");
	/* a limit above MemAvailable does not raise it */
	put("sys/fs/cgroup/a/memory.max", "max\n");
	assert_int_equal(host_memory_available(root, &what), 1000000ULL * 1024);
}

static void test_cgroup_v1(void **state)
{
	const char *what;

	(void)state;
	put("proc/meminfo", "MemAvailable:    1000000 kB\n");
	put("proc/self/cgroup", "5:cpu,cpuacct:/x\n4:memory:/job\n0::/\n");
	put("sys/fs/cgroup/memory/job/memory.limit_in_bytes", "268435456\n");
	put("sys/fs/cgroup/memory/job/memory.usage_in_bytes", "268435457\n");
	/* over the limit already: no room at all */
	assert_int_equal(host_memory_available(root, &what), 0);
	put("sys/fs/cgroup/memory/job/memory.usage_in_bytes", "0\n");
	assert_int_equal(host_memory_available(root, &what), 268435456);
}

static void test_nothing_known(void **state)
{
	const char *what;

	(void)state;
	assert_int_equal(host_memory_available("/nonexistent-iosweep-root", &what), UINT64_MAX);
	assert_string_equal(what, "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memavailable_alone),
		cmocka_unit_test(test_cgroup_v2_limit_and_its_parent),
		cmocka_unit_test(test_cgroup_v1),
		cmocka_unit_test(test_nothing_known),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
