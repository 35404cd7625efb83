/*
 * devcheck.c - whether a block device may be written; see devcheck.h.
 *
 * Everything is found by device number (major:minor), never by name: a
 * mount, a swap area or a holder may name the device through any link.
 * The kernel's own lists are read (/proc/self/mountinfo, /proc/swaps,
 * /sys/dev/block/M:m/{holders,slaves,partition}), then the device is
 * claimed with O_EXCL -- which the kernel refuses while it is mounted or
 * claimed by anyone else, and which keeps anyone from mounting it while
 * the claim is held -- and only then probed for signatures with libblkid,
 * on that descriptor, so that what is probed is what is claimed.
 */
#define _GNU_SOURCE
#include "io/devcheck.h"

#include <blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/error.h"

enum { DEVS_MAX = 256 };

/* A set of device numbers: a disk and its partitions, or the root's disks. */
struct devset {
	dev_t d[DEVS_MAX];
	size_t n;
};

static bool devset_has(const struct devset *s, dev_t d)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->d[i] == d)
			return true;
	return false;
}

static void devset_add(struct devset *s, dev_t d)
{
	if (!devset_has(s, d) && s->n < DEVS_MAX)
		s->d[s->n++] = d;
}

static void sys_path(char *buf, size_t n, dev_t d, const char *rest)
{
	snprintf(buf, n, "/sys/dev/block/%u:%u/%s", major(d), minor(d), rest);
}

/* "M:m" at s: the device, and in *end (may be NULL) where it ends. */
static bool parse_dev(const char *s, dev_t *d, char **end)
{
	unsigned long ma, mi;
	char *e;

	errno = 0;
	ma = strtoul(s, &e, 10);
	if (e == s || *e != ':' || errno)
		return false;
	s = e + 1;
	mi = strtoul(s, &e, 10);
	if (e == s || errno || ma > UINT_MAX || mi > UINT_MAX)
		return false;
	*d = makedev((unsigned)ma, (unsigned)mi);
	if (end)
		*end = e;
	return true;
}

/* The "M:m" of a sysfs dev file. */
static int read_dev(const char *path, dev_t *d)
{
	char buf[64];
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return -1;
	ok = fgets(buf, sizeof(buf), f) && parse_dev(buf, d, NULL);
	(void)fclose(f);
	return ok ? 0 : -1;
}

/* The whole disk of d: d itself, or for a partition, its disk. */
static dev_t whole_disk(dev_t d)
{
	char p[PATH_MAX];
	dev_t w;

	sys_path(p, sizeof(p), d, "partition");
	if (access(p, F_OK) != 0)
		return d;
	sys_path(p, sizeof(p), d, "../dev");
	return read_dev(p, &w) == 0 ? w : d;
}

/* Adds to s the devices listed under /sys/dev/block/M:m/sub: its slaves
 * (sub "slaves/") or its partitions (sub "", the entries with a partition
 * file). */
static void sys_list(dev_t d, const char *sub, struct devset *s)
{
	char dir[PATH_MAX], p[PATH_MAX + NAME_MAX + 32];
	struct dirent *e;
	DIR *dp;
	dev_t x;

	sys_path(dir, sizeof(dir), d, sub);
	dp = opendir(dir);
	if (!dp)
		return;
	while ((e = readdir(dp)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s/partition", dir, e->d_name);
		if (!*sub && access(p, F_OK) != 0)
			continue;
		snprintf(p, sizeof(p), "%s/%s/dev", dir, e->d_name);
		if (read_dev(p, &x) == 0)
			devset_add(s, x);
	}
	(void)closedir(dp);
}

/* The name of a holder of d (/sys/dev/block/M:m/holders), or false. */
static bool holder_of(dev_t d, char *name, size_t n)
{
	char dir[PATH_MAX];
	struct dirent *e;
	bool found = false;
	DIR *dp;

	sys_path(dir, sizeof(dir), d, "holders");
	dp = opendir(dir);
	if (!dp)
		return false;
	while (!found && (e = readdir(dp)) != NULL)
		if (e->d_name[0] != '.') {
			snprintf(name, n, "%s", e->d_name);
			found = true;
		}
	(void)closedir(dp);
	return found;
}

/* One line of /proc/self/mountinfo: the device, where, and what from. */
struct mount_line {
	dev_t dev;
	char at[PATH_MAX], source[PATH_MAX];
};

/* Fields: id, parent, major:minor, root, mount point, ... - type, source. */
static bool mount_parse(const char *line, struct mount_line *m)
{
	const char *dash = strstr(line, " - "), *p = line;
	char *e;

	for (int i = 0; p && i < 2; i++)
		p = (p = strchr(p, ' ')) ? p + 1 : NULL;
	if (!dash || !p || !parse_dev(p, &m->dev, &e) || *e != ' ')
		return false;
	p = strchr(e + 1, ' '); /* after the root */
	if (!p || sscanf(p, "%4095s", m->at) != 1 || sscanf(dash + 3, "%*s %4095s", m->source) != 1)
		return false;
	/* a file system without a device of its own (btrfs, overlay): its source */
	if (major(m->dev) == 0 && strncmp(m->source, "/dev/", 5) == 0) {
		struct stat st;

		if (stat(m->source, &st) == 0 && S_ISBLK(st.st_mode))
			m->dev = st.st_rdev;
	}
	return true;
}

/* The first mount of a device of s, in *m; false when none. */
static bool mounted(const struct devset *s, struct mount_line *m)
{
	char line[3 * PATH_MAX];
	FILE *f = fopen("/proc/self/mountinfo", "re");
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = mount_parse(line, m) && devset_has(s, m->dev);
	(void)fclose(f);
	return found;
}

/* The disks under the root file system, through partitions and the slaves
 * of dm and md devices. */
static void root_disks(struct devset *s)
{
	char line[3 * PATH_MAX];
	struct mount_line m;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	s->n = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (mount_parse(line, &m) && strcmp(m.at, "/") == 0 && major(m.dev) != 0)
			devset_add(s, m.dev);
	(void)fclose(f);
	for (size_t i = 0; i < s->n; i++) { /* s grows as it is walked */
		devset_add(s, whole_disk(s->d[i]));
		sys_list(s->d[i], "slaves", s);
	}
}

/* The active swap area on a device of s, in name; false when none. */
static bool swapping(const struct devset *s, char *name, size_t n)
{
	char line[PATH_MAX + 128], file[PATH_MAX];
	FILE *f = fopen("/proc/swaps", "re");
	bool found = false;
	struct stat st;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%4095s", file) == 1 && stat(file, &st) == 0 &&
		    S_ISBLK(st.st_mode) && devset_has(s, st.st_rdev)) {
			snprintf(name, n, "%s", file);
			found = true;
		}
	(void)fclose(f);
	return found;
}

/* What the kernel's lists say: the root disk, mounts, swap, holders. */
static int check_uses(const char *node, dev_t d, char *err)
{
	struct devset mine = { .n = 0 }, root;
	struct mount_line m;
	char name[PATH_MAX];
	dev_t disk = whole_disk(d);

	root_disks(&root);
	if (devset_has(&root, d) || devset_has(&root, disk))
		return err_set(err, "%s is the disk under the root file system (or part of it): "
				    "iosweep never writes it, whatever the job says (name a spare "
				    "disk)", node);
	devset_add(&mine, d);
	if (disk == d)
		sys_list(d, "", &mine);
	else
		devset_add(&mine, disk);
	if (mounted(&mine, &m) && m.dev == d)
		return err_set(err, "%s is mounted at %s: writing it would destroy that file "
				    "system (unmount it first: umount %s)", node, m.at, m.at);
	if (mounted(&mine, &m))
		return err_set(err, "%s: %s, %s of it, is mounted at %s: writing it would destroy "
				    "that file system (unmount it first: umount %s)", node, m.source,
			       disk == d ? "a partition" : "the disk", m.at, m.at);
	if (swapping(&mine, name, sizeof(name)))
		return err_set(err, "%s is in use as swap (%s): writing it would corrupt memory "
				    "(swapoff %s first)", node, name, name);
	for (size_t i = 0; i < mine.n; i++)
		if (mine.d[i] != disk || disk == d)
			if (holder_of(mine.d[i], name, sizeof(name)))
				return err_set(err, "%s is held by %s (device-mapper, md, LVM or "
						    "bcache): writing it would corrupt that device "
						    "(remove %s first)", node, name, name);
	return 0;
}

/* What a blkid signature is, for the message. */
static const char *signature_kind(blkid_probe pr, bool table)
{
	const char *usage = NULL;

	if (table)
		return "partition table";
	if (blkid_probe_lookup_value(pr, "USAGE", &usage, NULL) < 0 || !usage)
		return "signature";
	return strcmp(usage, "filesystem") == 0 ? "file system"
	       : strcmp(usage, "raid") == 0	? "RAID or LVM member signature"
	       : strcmp(usage, "crypto") == 0	? "encrypted volume"
						: "signature";
}

/* Every signature libblkid finds on fd: refused unless it is sig. */
static int check_signatures(const char *node, int fd, const char *sig, char *err)
{
	blkid_probe pr = blkid_new_probe();
	const char *type, *uuid;
	bool table;
	int rc = 0, r;

	if (!pr || blkid_probe_set_device(pr, fd, 0, 0) < 0) {
		if (pr)
			blkid_free_probe(pr);
		return err_set(err, "%s: libblkid cannot probe it, so what it carries is unknown: "
				    "it is not written", node);
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_UUID |
						      BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	while (rc == 0 && (r = blkid_do_probe(pr)) == 0) {
		table = blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) == 0;
		if (!table && blkid_probe_lookup_value(pr, "TYPE", &type, NULL) < 0)
			continue;
		if (sig && strcmp(sig, type) == 0)
			continue;
		if (blkid_probe_lookup_value(pr, table ? "PTUUID" : "UUID", &uuid, NULL) < 0)
			uuid = NULL;
		rc = err_set(err, "%s carries %s %s %s%s%s%s; add allow_overwrite_signature = %s to "
				  "destroy it", node, strchr("aeiou", type[0]) ? "an" : "a", type,
			     signature_kind(pr, table), uuid ? " (UUID " : "", uuid ? uuid : "",
			     uuid ? ")" : "", type);
	}
	if (rc == 0 && r < 0)
		rc = err_set(err, "%s: libblkid could not probe it, so what it carries is unknown: "
				  "it is not written", node);
	blkid_free_probe(pr);
	return rc;
}

/* The claim: O_EXCL, then read-only?  A descriptor, or -1 with err. */
static int claim(const char *node, dev_t d, char *err)
{
	int fd = open(node, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK), ro = 0;
	struct stat st;

	if (fd < 0)
		return err_set(err, errno == EBUSY
					    ? "%s is held open exclusively by another process (a "
					      "mount, a RAID or a program claiming it): writing it "
					      "would corrupt what that process keeps there (find it "
					      "with fuser -v %s and stop it)"
					    : "%s: %s", node, errno == EBUSY ? node : strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode) || st.st_rdev != d) {
		close(fd);
		return err_set(err, "%s was replaced while it was being checked", node);
	}
	if (ioctl(fd, BLKROGET, &ro) < 0 || ro) {
		close(fd);
		return err_set(err, "%s is a read-only device: it cannot be written (make it "
				    "writable first, e.g. blockdev --setrw %s, or a loop device "
				    "without -r)", node, node);
	}
	return fd;
}

int devcheck_claim(const char *node, const char *sig, char *err)
{
	struct stat st;
	int fd;

	if (stat(node, &st) < 0)
		return err_set(err, "%s: %s", node, strerror(errno));
	if (!S_ISBLK(st.st_mode))
		return err_set(err, "%s is not a block device", node);
	if (check_uses(node, st.st_rdev, err) < 0)
		return -1;
	fd = claim(node, st.st_rdev, err);
	if (fd < 0)
		return -1;
	if (check_signatures(node, fd, sig, err) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int devcheck_reopen(int claim_fd, const char *node, int flags, char *err)
{
	char proc[64];
	int fd;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", claim_fd);
	fd = open(proc, O_RDWR | O_CLOEXEC | flags);
	if (fd < 0)
		return err_set(err, "%s: %s%s", node, strerror(errno),
			       errno == EACCES || errno == EROFS ? " (a read-only device)" : "");
	return fd;
}
