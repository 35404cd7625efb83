/*
 * test_host.c - unit tests of host.c: the shape of the description, and its
 * figures checked against other sources (uname, sysconf, util-linux
 * findmnt, sysfs) for a file in ${IOSWEEP_TEST_DIR:-/var/tmp} and one on
 * tmpfs.
 */
#define _GNU_SOURCE

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "lib/host.h"
#include "testutil.h"

static char file_path[PATH_MAX];

static int make_file_in(const char *dir, char *path, size_t size)
{
	static const char data[] = "iosweep host test\n";
	int fd = test_file_in(dir, "host", path, size);

	if (fd < 0)
		return -1;
	if (write_all(fd, data, sizeof(data) - 1) < 0) {
		close(fd);
		unlink(path);
		return -1;
	}
	return close(fd);
}

static int make_file(void **state)
{
	(void)state;
	return make_file_in(test_dir(), file_path, sizeof(file_path));
}

static int remove_file(void **state)
{
	(void)state;
	return unlink(file_path);
}

static json_t *describe(const char *path)
{
	json_t *h = host_describe(path);
	char *text;

	assert_non_null(h);
	assert_true(json_is_object(h));
	text = json_dumps(h, JSON_COMPACT);
	assert_non_null(text);
	free(text);
	return h;
}

static json_t *member(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	if (!v)
		print_message("missing key \"%s\"\n", key);
	assert_non_null(v);
	return v;
}

static void assert_string_or_null(json_t *obj, const char *key)
{
	json_t *v = member(obj, key);

	assert_true(json_is_null(v) || (json_is_string(v) && json_string_length(v) > 0));
}

static int power_of_two(json_int_t v)
{
	return v > 0 && (v & (v - 1)) == 0;
}

/* One line of `findmnt -n -r -o COLUMN -T path` output, or "" */
static void findmnt(const char *column, const char *path, char *out, size_t size)
{
	char cmd[PATH_MAX + 128];
	FILE *p;

	out[0] = '\0';
	assert_null(strchr(path, '\''));
	snprintf(cmd, sizeof(cmd), "findmnt -n -r -o %s -T '%s' 2>/dev/null", column, path);
	p = popen(cmd, "r");
	if (!p)
		return;
	if (!fgets(out, (int)size, p))
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	if (pclose(p) != 0)
		out[0] = '\0';
}

/* The name of the whole disk holding dev, from sysfs, or "" */
static void disk_name(dev_t dev, char *out, size_t size)
{
	char link[64], probe[PATH_MAX + 16];
	char *real, *slash;
	struct stat st;

	out[0] = '\0';
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	real = realpath(link, NULL);
	if (!real)
		return;
	snprintf(probe, sizeof(probe), "%s/partition", real);
	if (stat(probe, &st) == 0)
		*strrchr(real, '/') = '\0';
	slash = strrchr(real, '/');
	snprintf(out, size, "%s", slash + 1);
	free(real);
}

static void check_device_shape(json_t *dev)
{
	json_t *v;

	assert_true(json_is_object(dev));
	assert_true(json_is_string(member(dev, "name")));
	assert_true(json_string_length(member(dev, "name")) > 0);
	assert_string_or_null(dev, "model");
	assert_string_or_null(dev, "scheduler");
	v = member(dev, "read_ahead_kb");
	assert_true(json_is_null(v) || (json_is_integer(v) && json_integer_value(v) >= 0));
	v = member(dev, "logical_block_size");
	assert_true(json_is_null(v) ||
		    (json_is_integer(v) && power_of_two(json_integer_value(v)) &&
		     json_integer_value(v) >= 512));
	v = member(dev, "rotational");
	assert_true(json_is_null(v) || json_is_boolean(v));
	assert_string_or_null(dev, "serial");
	v = member(dev, "size_bytes");
	assert_true(json_is_null(v) || (json_is_integer(v) && json_integer_value(v) % 512 == 0));
	assert_int_equal(json_object_size(dev), 8);
}

/* ---- tests ---- */

static void test_machine(void **state)
{
	struct utsname u;
	json_t *h = describe(file_path);
	char *text = json_dumps(h, JSON_COMPACT);
	json_t *v;

	(void)state;
	assert_non_null(text);
	print_message("%s\n", text);
	free(text);
	assert_int_equal(uname(&u), 0);
	v = member(h, "kernel");
	assert_true(json_is_string(v));
	assert_true(strncmp(json_string_value(v), u.sysname, strlen(u.sysname)) == 0);
	assert_non_null(strstr(json_string_value(v), u.release));
	assert_string_equal(json_string_value(member(h, "machine")), u.machine);
	assert_string_or_null(h, "hostname");
	assert_string_or_null(h, "cpu_model");
	v = member(h, "cpus");
	assert_true(json_is_integer(v) && json_integer_value(v) >= 1);
	assert_int_equal(json_integer_value(v), sysconf(_SC_NPROCESSORS_ONLN));
	v = member(h, "memory_bytes");
	assert_true(json_is_integer(v) && json_integer_value(v) > 0);
	assert_int_equal(json_integer_value(v) % 1024, 0);
	assert_true(json_integer_value(v) >=
		    (json_int_t)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE) / 2);
	json_decref(h);
}

static void test_filesystem(void **state)
{
	char *real = realpath(file_path, NULL);
	char type[256], target[PATH_MAX];
	json_t *h = describe(file_path);
	json_t *fs = member(h, "filesystem");
	const char *mp;

	(void)state;
	assert_non_null(real);
	assert_true(json_is_object(fs));
	assert_string_equal(json_string_value(member(fs, "path")), real);
	assert_true(json_is_string(member(fs, "type")));
	assert_true(json_string_length(member(fs, "type")) > 0);
	mp = json_string_value(member(fs, "mountpoint"));
	assert_non_null(mp);
	assert_true(strcmp(mp, "/") == 0 ||
		    (strncmp(real, mp, strlen(mp)) == 0 && real[strlen(mp)] == '/'));
	assert_string_or_null(fs, "mount_options");
	assert_string_or_null(fs, "super_options");
	assert_string_or_null(fs, "source");
	findmnt("FSTYPE", real, type, sizeof(type));
	findmnt("TARGET", real, target, sizeof(target));
	if (type[0] && target[0]) {
		print_message("findmnt: %s on %s\n", type, target);
		assert_string_equal(json_string_value(member(fs, "type")), type);
		assert_string_equal(mp, target);
	} else {
		print_message("findmnt did not run: not cross-checked\n");
	}
	free(real);
	json_decref(h);
}

static void test_device(void **state)
{
	json_t *h = describe(file_path);
	json_t *dev = member(h, "device");
	char name[256];
	struct stat st;

	(void)state;
	assert_int_equal(stat(file_path, &st), 0);
	if (major(st.st_dev) == 0) {
		/* anonymous device: null, or the mount source's disk (btrfs) */
		assert_true(json_is_null(dev) || json_is_object(dev));
		if (json_is_object(dev))
			check_device_shape(dev);
		json_decref(h);
		return;
	}
	check_device_shape(dev);
	disk_name(st.st_dev, name, sizeof(name));
	assert_string_equal(json_string_value(member(dev, "name")), name);
	json_decref(h);
}

static void test_block_device_node(void **state)
{
	char node[PATH_MAX], name[256];
	json_t *h, *dev;
	struct stat st;

	(void)state;
	assert_int_equal(stat(file_path, &st), 0);
	if (major(st.st_dev) == 0)
		SKIP("the test file is on no block device");
	disk_name(st.st_dev, name, sizeof(name));
	snprintf(node, sizeof(node), "/dev/%s", name);
	if (!name[0] || stat(node, &st) < 0 || !S_ISBLK(st.st_mode))
		SKIP("no node %s for the test file's disk", node);
	h = describe(node);
	dev = member(h, "device");
	check_device_shape(dev);
	assert_string_equal(json_string_value(member(dev, "name")), name);
	json_decref(h);
}

static void test_tmpfs_has_no_device(void **state)
{
	char path[PATH_MAX];
	struct statfs sf;
	json_t *h, *fs;

	(void)state;
	if (statfs("/dev/shm", &sf) < 0 || sf.f_type != TMPFS_MAGIC)
		SKIP("/dev/shm is not tmpfs");
	assert_int_equal(make_file_in("/dev/shm", path, sizeof(path)), 0);
	h = host_describe(path);
	assert_int_equal(unlink(path), 0);
	assert_non_null(h);
	fs = member(h, "filesystem");
	assert_string_equal(json_string_value(member(fs, "type")), "tmpfs");
	assert_true(json_is_null(member(h, "device")));
	json_decref(h);
}

static void test_missing_file_has_nulls(void **state)
{
	char missing[PATH_MAX + 16];
	json_t *h, *fs;

	(void)state;
	snprintf(missing, sizeof(missing), "%s.missing", file_path);
	h = describe(missing);
	fs = member(h, "filesystem");
	assert_true(json_is_null(member(fs, "path")));
	assert_true(json_is_null(member(fs, "type")));
	assert_true(json_is_null(member(h, "device")));
	assert_true(json_is_string(member(h, "kernel")));
	json_decref(h);
}

static void test_round_trips_through_json(void **state)
{
	json_t *h = describe(file_path);
	json_error_t error;
	char *text = json_dumps(h, JSON_SORT_KEYS);
	json_t *back;

	(void)state;
	assert_non_null(text);
	back = json_loads(text, 0, &error);
	assert_non_null(back);
	assert_true(json_equal(h, back));
	free(text);
	json_decref(back);
	json_decref(h);
}

/* VIRTIO_BALLOON_F_REPORTING is bit 5; sysfs writes bit 0 first. */
static void test_balloon_feature_bits(void **state)
{
	(void)state;
	assert_true(host_balloon_reports_free_pages("01100101000000000000000000000000100000"));
	assert_true(host_balloon_reports_free_pages("000001"));
	assert_false(host_balloon_reports_free_pages("011000100000"));
	assert_false(host_balloon_reports_free_pages("01111"));
	assert_false(host_balloon_reports_free_pages(""));
}

/* The first line of a sysfs file, or "" when there is none. */
static void sysfs_line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (f && fgets(buf, (int)n, f))
		buf[strcspn(buf, "\n")] = '\0';
	if (f)
		fclose(f);
}

/* Virtualisation, THP and governor against sysfs and /proc read here. */
static void test_virtualization(void **state)
{
	json_t *h = describe(file_path), *v = member(h, "virtualization"), *b;
	char line[512], features[512] = "", *open;
	FILE *f;

	(void)state;
	assert_true(json_is_object(v));
	f = popen("grep -qw hypervisor /proc/cpuinfo && echo y", "r");
	assert_non_null(f);
	line[0] = '\0';
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	pclose(f);
	assert_true(json_is_boolean(member(v, "cpu_hypervisor_flag")));
	assert_int_equal(json_is_true(member(v, "cpu_hypervisor_flag")), line[0] == 'y');
	assert_string_or_null(v, "hypervisor");
	assert_string_or_null(v, "sys_hypervisor_type");
	assert_string_or_null(v, "detect_virt");
	f = popen("cat /sys/bus/virtio/drivers/virtio_balloon/virtio*/features 2>/dev/null", "r");
	assert_non_null(f);
	if (!fgets(features, sizeof(features), f))
		features[0] = '\0';
	pclose(f);
	features[strcspn(features, "\n")] = '\0';
	b = member(v, "virtio_balloon");
	if (!features[0]) {
		assert_true(json_is_null(b));
	} else {
		assert_string_equal(json_string_value(member(b, "features")), features);
		assert_int_equal(json_is_true(member(b, "free_page_reporting")),
				 strlen(features) > 5 && features[5] == '1');
		assert_int_equal(host_returns_freed_pages(), features[5] == '1');
	}
	sysfs_line("/sys/kernel/mm/transparent_hugepage/enabled", line, sizeof(line));
	open = strchr(line, '[');
	if (open) {
		open[strcspn(open, "]")] = '\0';
		assert_string_equal(json_string_value(member(h, "transparent_hugepage")), open + 1);
	} else {
		assert_true(json_is_null(member(h, "transparent_hugepage")));
	}
	sysfs_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", line, sizeof(line));
	if (line[0])
		assert_string_equal(json_string_value(member(h, "cpu_governor")), line);
	else
		assert_true(json_is_null(member(h, "cpu_governor")));
	json_decref(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_machine),
		cmocka_unit_test(test_filesystem),
		cmocka_unit_test(test_device),
		cmocka_unit_test(test_block_device_node),
		cmocka_unit_test(test_tmpfs_has_no_device),
		cmocka_unit_test(test_missing_file_has_nulls),
		cmocka_unit_test(test_round_trips_through_json),
		cmocka_unit_test(test_balloon_feature_bits),
		cmocka_unit_test(test_virtualization),
	};

	return cmocka_run_group_tests(tests, make_file, remove_file);
}
