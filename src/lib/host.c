/*
 * host.c - describe the machine and the storage under a file (see host.h).
 *
 * Every figure is read from one kernel interface (uname, sysconf, /proc,
 * /sys) by a small function that either finds it or says it does not know:
 * a figure that cannot be read becomes JSON null, never a default, so that
 * results from different machines are not compared on made-up values.
 * Only running out of memory makes the whole description fail.
 */
#define _GNU_SOURCE

#include "lib/host.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "lib/jsontext.h"

#define LINE_MAX_LEN 4096
#define BALLOON_DRIVER "/sys/bus/virtio/drivers/virtio_balloon"
#define VIRTIO_BALLOON_F_REPORTING 5

extern char **environ;

/* ---- JSON helpers: NULL return means out of memory, nothing else ---- */

static json_t *number(long long v, int known)
{
	return known ? json_integer(v) : json_null();
}

/* json_object_set_new takes the value even when it fails. */
static int put(json_t *obj, const char *key, json_t *value)
{
	if (!value)
		return -1;
	return json_object_set_new(obj, key, value);
}

/* ---- small file readers ---- */

static void trim(char *s)
{
	size_t n = strlen(s);
	char *p = s;

	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	while (*p == ' ' || *p == '\t')
		p++;
	if (p != s)
		memmove(s, p, strlen(p) + 1);
}

/* First line of a (sysfs) file, trimmed, into buf; -1 if unreadable or empty. */
static int read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	int rc = -1;

	if (!f)
		return -1;
	if (fgets(buf, (int)size, f)) {
		trim(buf);
		rc = buf[0] ? 0 : -1;
	}
	(void)fclose(f);
	return rc;
}

static int read_number(const char *path, long long *v)
{
	char buf[64];
	char *end;

	if (read_line(path, buf, sizeof(buf)) < 0)
		return -1;
	errno = 0;
	*v = strtoll(buf, &end, 10);
	if (errno || end == buf || *end)
		return -1;
	return 0;
}

/*
 * Value of the first line of a "key : value" file such as /proc/cpuinfo
 * or /proc/meminfo whose key is `key`, trimmed, into buf.
 */
static int read_field(const char *path, const char *key, char *buf, size_t size)
{
	char line[LINE_MAX_LEN];
	size_t klen = strlen(key);
	FILE *f = fopen(path, "re");
	int rc = -1;

	if (!f)
		return -1;
	while (rc < 0 && fgets(line, sizeof(line), f)) {
		char *p = line + klen;

		if (strncmp(line, key, klen) != 0)
			continue;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != ':')
			continue;
		snprintf(buf, size, "%s", p + 1);
		trim(buf);
		rc = 0;
	}
	(void)fclose(f);
	return rc;
}

/* ---- the machine ---- */

static int add_names(json_t *obj)
{
	char host[HOST_NAME_MAX + 1];
	char kernel[2 * sizeof(((struct utsname *)0)->release) + 2] = "";
	struct utsname u;
	int have_u = uname(&u) == 0;
	int have_host = gethostname(host, sizeof(host)) == 0;

	host[sizeof(host) - 1] = '\0';
	if (have_u)
		snprintf(kernel, sizeof(kernel), "%s %s", u.sysname, u.release);
	if (put(obj, "hostname", json_text(have_host ? host : NULL)) < 0 ||
	    put(obj, "kernel", json_text(have_u ? kernel : NULL)) < 0 ||
	    put(obj, "machine", json_text(have_u ? u.machine : NULL)) < 0)
		return -1;
	return 0;
}

static int add_cpu_memory(json_t *obj)
{
	char model[256], mem[64];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int have_model = read_field("/proc/cpuinfo", "model name", model, sizeof(model)) == 0;
	long long kib = 0;
	char *end = mem;

	if (read_field("/proc/meminfo", "MemTotal", mem, sizeof(mem)) == 0) {
		errno = 0;
		kib = strtoll(mem, &end, 10);
		if (errno || end == mem || strcmp(end, " kB") != 0 || kib > LLONG_MAX / 1024)
			kib = 0;
	}
	if (put(obj, "cpu_model", json_text(have_model && model[0] ? model : NULL)) < 0 ||
	    put(obj, "cpus", number(cpus, cpus > 0)) < 0 ||
	    put(obj, "memory_bytes", number(kib * 1024, kib > 0)) < 0)
		return -1;
	return 0;
}

/* ---- what changes cold and cached results beyond the disk ---- */

/* The word in brackets of a sysfs choice such as "always [madvise] never". */
static json_t *bracketed(const char *path)
{
	char line[256], *open, *close;

	if (read_line(path, line, sizeof(line)) < 0)
		return json_null();
	open = strchr(line, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!open || !close)
		return json_text(line);
	*close = '\0';
	return json_text(open + 1);
}

static json_t *line_or_null(const char *path)
{
	char line[256];

	return read_line(path, line, sizeof(line)) == 0 ? json_text(line) : json_null();
}

/* Whether /proc/cpuinfo's flags say the CPU runs under a hypervisor. */
static json_t *cpu_hypervisor_flag(void)
{
	char flags[LINE_MAX_LEN];

	if (read_field("/proc/cpuinfo", "flags", flags, sizeof(flags)) < 0)
		return json_null();
	for (char *save = NULL, *w = strtok_r(flags, " ", &save); w; w = strtok_r(NULL, " ", &save))
		if (strcmp(w, "hypervisor") == 0)
			return json_true();
	return json_false();
}

/* The hypervisor's CPUID signature ("KVMKVMKVM", "Microsoft Hv", ...). */
static json_t *cpuid_hypervisor(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	char vendor[13];

	__cpuid(1, a, b, c, d);
	if (!(c & (1U << 31)))
		return json_null();
	__cpuid(0x40000000, a, b, c, d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &c, 4);
	memcpy(vendor + 8, &d, 4);
	vendor[12] = '\0';
	trim(vendor);
	return vendor[0] ? json_text(vendor) : json_null();
#else
	return json_null();
#endif
}

/* `systemd-detect-virt --vm` when it is installed: "kvm", "none", ...; null
 * when it is not. */
static json_t *detect_virt(void)
{
	static const char *const where[] = { "/usr/bin/systemd-detect-virt",
					     "/bin/systemd-detect-virt" };
	char *argv[] = { "systemd-detect-virt", "--vm", NULL }, out[64] = "";
	posix_spawn_file_actions_t fa;
	int pipefd[2], status;
	ssize_t got, len = 0;
	pid_t pid = -1;

	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]) && pid < 0; i++) {
		if (access(where[i], X_OK) < 0 || pipe2(pipefd, O_CLOEXEC) < 0)
			continue;
		if (posix_spawn_file_actions_init(&fa) == 0) {
			if (posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO) != 0 ||
			    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY,
							     0) != 0 ||
			    posix_spawn(&pid, where[i], &fa, NULL, argv, environ) != 0)
				pid = -1;
			posix_spawn_file_actions_destroy(&fa);
		}
		close(pipefd[1]);
		while (pid > 0 && len < (ssize_t)sizeof(out) - 1 &&
		       ((got = read(pipefd[0], out + len, sizeof(out) - 1 - (size_t)len)) > 0 ||
			(got < 0 && errno == EINTR)))
			len += got > 0 ? got : 0;
		close(pipefd[0]);
	}
	if (pid < 0)
		return json_null();
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	out[len] = '\0';
	trim(out);
	/* it prints "none" and exits 1 outside a VM */
	return out[0] && WIFEXITED(status) ? json_text(out) : json_null();
}

bool host_balloon_reports_free_pages(const char *features)
{
	return strlen(features) > VIRTIO_BALLOON_F_REPORTING &&
	       features[VIRTIO_BALLOON_F_REPORTING] == '1';
}

/* The virtio balloon's feature bits (one '0' or '1' per bit, bit 0 first),
 * into buf; -1 when there is no balloon device. */
static int balloon_features(char *buf, size_t size)
{
	DIR *d = opendir(BALLOON_DRIVER);
	struct dirent *e;
	char path[PATH_MAX];
	int rc = -1;

	if (!d)
		return -1;
	while (rc < 0 && (e = readdir(d)))
		if (strncmp(e->d_name, "virtio", 6) == 0) {
			snprintf(path, sizeof(path), "%s/%s/features", BALLOON_DRIVER, e->d_name);
			rc = read_line(path, buf, size);
		}
	(void)closedir(d);
	return rc;
}

bool host_returns_freed_pages(void)
{
	static int known = -1;
	char features[256];

	if (known < 0)
		known = balloon_features(features, sizeof(features)) == 0 &&
			host_balloon_reports_free_pages(features);
	return known;
}

static json_t *balloon_object(void)
{
	char features[256];

	if (balloon_features(features, sizeof(features)) < 0)
		return json_null();
	return json_pack("{s:s, s:b}", "features", features, "free_page_reporting",
			 host_balloon_reports_free_pages(features));
}

static int add_virtualization(json_t *obj)
{
	json_t *v = json_object();

	if (!v)
		return -1;
	if (put(v, "cpu_hypervisor_flag", cpu_hypervisor_flag()) < 0 ||
	    put(v, "hypervisor", cpuid_hypervisor()) < 0 ||
	    put(v, "sys_hypervisor_type", line_or_null("/sys/hypervisor/type")) < 0 ||
	    put(v, "detect_virt", detect_virt()) < 0 ||
	    put(v, "virtio_balloon", balloon_object()) < 0) {
		json_decref(v);
		return -1;
	}
	return put(obj, "virtualization", v);
}

static int add_memory_cpu_policy(json_t *obj)
{
	if (put(obj, "transparent_hugepage",
		bracketed("/sys/kernel/mm/transparent_hugepage/enabled")) < 0 ||
	    put(obj, "transparent_hugepage_defrag",
		bracketed("/sys/kernel/mm/transparent_hugepage/defrag")) < 0 ||
	    put(obj, "cpu_governor",
		line_or_null("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")) < 0)
		return -1;
	return 0;
}

/* ---- the file system: /proc/self/mountinfo ---- */

/*
 * One line of mountinfo, split in place:
 * ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER
 */
struct mount {
	unsigned long long id;
	unsigned maj, min;
	char *mountpoint, *options, *type, *source, *super;
};

/* Undoes the \ooo escapes that mountinfo uses for space, tab, \n and \. */
static void unescape(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

static int parse_mount(char *line, struct mount *m)
{
	char *field[6], *save = NULL, *tok;
	int n = 0;

	line[strcspn(line, "\n")] = '\0';
	for (tok = strtok_r(line, " ", &save); tok && n < 6; tok = strtok_r(NULL, " ", &save))
		field[n++] = tok;
	/* the kernel writes "MAJOR:MINOR" here; overflow cannot happen */
	if (n < 6 || sscanf(field[2], "%u:%u", &m->maj, &m->min) != 2) // NOLINT(cert-err34-c)
		return -1;
	m->id = strtoull(field[0], NULL, 10);
	m->mountpoint = field[4];
	m->options = field[5];
	while (tok && strcmp(tok, "-") != 0)
		tok = strtok_r(NULL, " ", &save);
	if (!tok)
		return -1;
	m->type = strtok_r(NULL, " ", &save);
	m->source = strtok_r(NULL, " ", &save);
	m->super = strtok_r(NULL, " ", &save);
	if (!m->type || !m->source)
		return -1;
	unescape(m->mountpoint);
	unescape(m->source);
	return 0;
}

/* Length of mountpoint if it contains path, else 0. */
static size_t covers(const char *mountpoint, const char *path)
{
	size_t n = strlen(mountpoint);

	if (strcmp(mountpoint, "/") == 0)
		return 1;
	if (strncmp(path, mountpoint, n) == 0 && (path[n] == '/' || path[n] == '\0'))
		return n;
	return 0;
}

/* What identifies the mount of the file: its mount ID (statx, Linux 5.8)
 * when known, else its device and the longest mount point over its path. */
struct target {
	const char *path;
	unsigned long long mnt_id;
	int have_mnt_id;
	dev_t dev;
};

/* How well m matches t: higher is better, 0 is not at all. */
static size_t score(const struct mount *m, const struct target *t)
{
	size_t len = covers(m->mountpoint, t->path);

	if (t->have_mnt_id)
		return m->id == t->mnt_id ? 1 : 0;
	if (!len)
		return 0;
	if (m->maj == major(t->dev) && m->min == minor(t->dev))
		return len + PATH_MAX;
	return len;
}

/*
 * A copy of the mountinfo line of the mount holding the file, or NULL
 * (errno ENOMEM when out of memory).  A later line wins a tie, as a later
 * mount hides an earlier one on the same mount point.
 */
static char *find_mount_line(const struct target *t)
{
	char *line = NULL, *best = NULL;
	size_t cap = 0, best_score = 0;
	int oom = 0;
	FILE *f;

	f = fopen("/proc/self/mountinfo", "re");
	if (!f) {
		errno = 0;
		return NULL;
	}
	for (;;) {
		struct mount m;
		char *work;
		size_t s;

		errno = 0;
		if (getline(&line, &cap, f) <= 0)
			break;
		work = strdup(line);
		if (!work) {
			oom = 1;
			break;
		}
		s = parse_mount(work, &m) == 0 ? score(&m, t) : 0;
		if (s && s >= best_score) {
			/* keep the unsplit line: it is parsed again by the caller */
			free(best);
			best = strcpy(work, line);
			best_score = s;
		} else {
			free(work);
		}
	}
	if (!oom && errno == ENOMEM)
		oom = 1;
	free(line);
	(void)fclose(f);
	if (oom) {
		free(best);
		errno = ENOMEM;
		return NULL;
	}
	errno = 0;
	return best;
}

static void fill_target(struct target *t, const char *real, const struct stat *st)
{
	struct statx stx;

	t->path = real;
	t->dev = st->st_dev;
	t->have_mnt_id = 0;
	t->mnt_id = 0;
	if (statx(AT_FDCWD, real, 0, STATX_MNT_ID, &stx) == 0 && (stx.stx_mask & STATX_MNT_ID)) {
		t->mnt_id = stx.stx_mnt_id;
		t->have_mnt_id = 1;
	}
}

static json_t *filesystem_object(const char *real, const struct mount *m)
{
	json_t *fs = json_object();

	if (!fs)
		return NULL;
	if (put(fs, "path", json_text(real)) < 0 || put(fs, "type", json_text(m ? m->type : NULL)) < 0 ||
	    put(fs, "mountpoint", json_text(m ? m->mountpoint : NULL)) < 0 ||
	    put(fs, "mount_options", json_text(m ? m->options : NULL)) < 0 ||
	    put(fs, "super_options", json_text(m ? m->super : NULL)) < 0 ||
	    put(fs, "source", json_text(m ? m->source : NULL)) < 0) {
		json_decref(fs);
		return NULL;
	}
	return fs;
}

/*
 * Adds "filesystem"; stores the mount's source in source (or "") for the
 * device lookup of file systems whose st_dev is no block device (btrfs).
 */
static int add_filesystem(json_t *obj, const char *real, const struct stat *st, char *source,
			  size_t size)
{
	struct target t;
	struct mount m = { 0 };
	char *line = NULL;
	int have = 0;

	source[0] = '\0';
	if (real && st) {
		fill_target(&t, real, st);
		line = find_mount_line(&t);
		if (!line && errno == ENOMEM)
			return -1;
		have = line && parse_mount(line, &m) == 0;
	}
	if (have)
		snprintf(source, size, "%s", m.source);
	if (put(obj, "filesystem", filesystem_object(real, have ? &m : NULL)) < 0) {
		free(line);
		return -1;
	}
	free(line);
	return 0;
}

/* ---- the block device: /sys/dev/block/MAJ:MIN ---- */

/* The sysfs directory of the whole disk holding dev, into dir; -1 if none. */
static int disk_dir(dev_t dev, char *dir, size_t size)
{
	char link[64], probe[PATH_MAX + 16];
	char *real;
	struct stat st;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	real = realpath(link, NULL);
	if (!real)
		return -1;
	snprintf(probe, sizeof(probe), "%s/partition", real);
	if (stat(probe, &st) == 0) {
		char *slash = strrchr(real, '/');

		if (slash && slash != real)
			*slash = '\0';
	}
	if (strlen(real) >= size) {
		free(real);
		return -1;
	}
	strcpy(dir, real);
	free(real);
	return 0;
}

/* The active scheduler is the bracketed word: "none [mq-deadline] kyber". */
static int active_scheduler(const char *dir, char *buf, size_t size)
{
	char path[PATH_MAX + 32], line[256];
	char *open, *close;

	snprintf(path, sizeof(path), "%s/queue/scheduler", dir);
	if (read_line(path, line, sizeof(line)) < 0)
		return -1;
	open = strchr(line, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close) {
		*close = '\0';
		snprintf(buf, size, "%s", open + 1);
	} else if (!strchr(line, ' ')) {
		snprintf(buf, size, "%s", line);
	} else {
		return -1;
	}
	return buf[0] ? 0 : -1;
}

static json_t *queue_number(const char *dir, const char *name)
{
	char path[PATH_MAX + 64];
	long long v;

	snprintf(path, sizeof(path), "%s/queue/%s", dir, name);
	if (read_number(path, &v) < 0)
		return json_null();
	return json_integer(v);
}

static json_t *rotational(const char *dir)
{
	char path[PATH_MAX + 32];
	long long v;

	snprintf(path, sizeof(path), "%s/queue/rotational", dir);
	if (read_number(path, &v) < 0 || (v != 0 && v != 1))
		return json_null();
	return json_boolean(v);
}

/* The disk's serial number: device/serial (SCSI, NVMe), else its World
 * Wide Identifier (device/wwid, wwid); null when it has none (virtio, loop). */
static json_t *serial(const char *dir)
{
	static const char *const where[] = { "device/serial", "device/wwid", "wwid" };
	char path[PATH_MAX + 32], buf[256];

	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, where[i]);
		if (read_line(path, buf, sizeof(buf)) == 0)
			return json_text(buf);
	}
	return json_null();
}

/* The disk's size in bytes: BLKGETSIZE64 on node (the disk's own node,
 * when the run names it; NULL else), or its sysfs size (in 512-byte
 * sectors whatever its block size, as BLKGETSIZE64 counts them). */
static json_t *disk_bytes(const char *dir, const char *node)
{
	char path[PATH_MAX + 32];
	uint64_t bytes;
	long long sectors;
	int fd = node ? open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;

	if (fd >= 0) {
		int rc = ioctl(fd, BLKGETSIZE64, &bytes);

		(void)close(fd);
		if (rc == 0 && bytes <= INT64_MAX)
			return json_integer((json_int_t)bytes);
	}
	snprintf(path, sizeof(path), "%s/size", dir);
	if (read_number(path, &sectors) < 0 || sectors < 0 || sectors > INT64_MAX / 512)
		return json_null();
	return json_integer((json_int_t)(sectors * 512));
}

static json_t *device_object(const char *dir, const char *node)
{
	char path[PATH_MAX + 32], model[256], sched[256];
	const char *slash = strrchr(dir, '/');
	const char *name = slash ? slash + 1 : dir;
	int have_model, have_sched;
	json_t *d;

	snprintf(path, sizeof(path), "%s/device/model", dir);
	have_model = read_line(path, model, sizeof(model)) == 0;
	have_sched = active_scheduler(dir, sched, sizeof(sched)) == 0;
	d = json_object();
	if (!d)
		return NULL;
	if (put(d, "name", json_text(name)) < 0 ||
	    put(d, "model", json_text(have_model ? model : NULL)) < 0 ||
	    put(d, "serial", serial(dir)) < 0 || put(d, "size_bytes", disk_bytes(dir, node)) < 0 ||
	    put(d, "scheduler", json_text(have_sched ? sched : NULL)) < 0 ||
	    put(d, "read_ahead_kb", queue_number(dir, "read_ahead_kb")) < 0 ||
	    put(d, "logical_block_size", queue_number(dir, "logical_block_size")) < 0 ||
	    put(d, "rotational", rotational(dir)) < 0) {
		json_decref(d);
		return NULL;
	}
	return d;
}

/*
 * The block device under the file: st_rdev for a block device node,
 * else st_dev; for a file system on an anonymous device (major 0, as
 * btrfs) the mount's source when that is a block device node.
 */
static int block_dev(const struct stat *st, const char *source, dev_t *dev)
{
	struct stat src;

	if (S_ISBLK(st->st_mode)) {
		*dev = st->st_rdev;
		return 0;
	}
	if (major(st->st_dev) != 0) {
		*dev = st->st_dev;
		return 0;
	}
	if (strncmp(source, "/dev/", 5) == 0 && stat(source, &src) == 0 && S_ISBLK(src.st_mode)) {
		*dev = src.st_rdev;
		return 0;
	}
	return -1;
}

static int add_device(json_t *obj, const char *path, const struct stat *st, const char *source)
{
	char dir[PATH_MAX], part[64];
	dev_t dev;

	if (!st || block_dev(st, source, &dev) < 0 || disk_dir(dev, dir, sizeof(dir)) < 0)
		return put(obj, "device", json_null());
	/* the run names the disk itself: its size is asked of it */
	snprintf(part, sizeof(part), "/sys/dev/block/%u:%u/partition", major(dev), minor(dev));
	return put(obj, "device", device_object(dir, S_ISBLK(st->st_mode) && access(part, F_OK) != 0
						     ? path : NULL));
}

json_t *host_describe(const char *path)
{
	char source[PATH_MAX];
	struct stat st;
	int have_st = stat(path, &st) == 0;
	char *real = realpath(path, NULL);
	json_t *obj = json_object();

	if (!obj)
		goto fail;
	if (add_names(obj) < 0 || add_cpu_memory(obj) < 0 || add_virtualization(obj) < 0 ||
	    add_memory_cpu_policy(obj) < 0)
		goto fail;
	if (add_filesystem(obj, real, have_st ? &st : NULL, source, sizeof(source)) < 0)
		goto fail;
	if (add_device(obj, path, have_st ? &st : NULL, source) < 0)
		goto fail;
	free(real);
	return obj;
fail:
	free(real);
	json_decref(obj);
	return NULL;
}

/* --- memory: what a plan may still take ---------------------------------- */

/* A number file of /proc or a cgroup ("max": no limit); false when absent. */
static bool read_limit(const char *path, uint64_t *v)
{
	char buf[64];
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	if (ok && strncmp(buf, "max", 3) == 0) {
		*v = UINT64_MAX;
	} else if (ok) {
		char *end;

		errno = 0;
		*v = strtoull(buf, &end, 10);
		ok = errno == 0 && end != buf;
	}
	return ok;
}

/* Room left under the limits of the cgroup at dir and of its ancestors
 * (v2: memory.max - memory.current; v1: memory.limit_in_bytes -
 * memory.usage_in_bytes). */
static uint64_t cgroup_room(const char *base, const char *cg, const char *limit_name,
			    const char *usage_name)
{
	char dir[PATH_MAX], path[PATH_MAX + 64], *slash;
	uint64_t room = UINT64_MAX, limit, usage;

	snprintf(dir, sizeof(dir), "%s%s", base, strcmp(cg, "/") == 0 ? "" : cg);
	for (;;) {
		snprintf(path, sizeof(path), "%s/%s", dir, limit_name);
		if (read_limit(path, &limit) && limit != UINT64_MAX) {
			snprintf(path, sizeof(path), "%s/%s", dir, usage_name);
			if (!read_limit(path, &usage))
				usage = 0;
			limit = usage < limit ? limit - usage : 0;
			room = limit < room ? limit : room;
		}
		slash = strrchr(dir, '/');
		if (!slash || (size_t)(slash - dir) < strlen(base))
			break;
		*slash = '\0';
	}
	return room;
}

uint64_t host_memory_available(const char *root, const char **what)
{
	char path[PATH_MAX], line[PATH_MAX + 64], base[PATH_MAX];
	uint64_t avail = UINT64_MAX, kib, room;
	FILE *f;

	*what = "unknown";
	snprintf(path, sizeof(path), "%s/proc/meminfo", root);
	if ((f = fopen(path, "re")) != NULL) {
		while (fgets(line, sizeof(line), f))
			if (strncmp(line, "MemAvailable:", 13) == 0) {
				char *end;

				errno = 0;
				kib = strtoull(line + 13, &end, 10);
				if (errno || end == line + 13)
					continue;
				avail = kib * 1024;
				*what = "MemAvailable";
			}
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/proc/self/cgroup", root);
	if ((f = fopen(path, "re")) == NULL)
		return avail;
	while (fgets(line, sizeof(line), f)) {
		char *ctl = strchr(line, ':'), *cg = ctl ? strchr(ctl + 1, ':') : NULL;

		if (!cg)
			continue;
		*cg++ = '\0';
		cg[strcspn(cg, "\n")] = '\0';
		if (strcmp(ctl + 1, "") == 0) {
			snprintf(base, sizeof(base), "%s/sys/fs/cgroup", root);
			room = cgroup_room(base, cg, "memory.max", "memory.current");
		} else if (strstr(ctl + 1, "memory")) {
			snprintf(base, sizeof(base), "%s/sys/fs/cgroup/memory", root);
			room = cgroup_room(base, cg, "memory.limit_in_bytes", "memory.usage_in_bytes");
		} else {
			continue;
		}
		if (room < avail) {
			avail = room;
			*what = "the cgroup's memory limit";
		}
	}
	fclose(f);
	return avail;
}
