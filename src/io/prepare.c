/*
 * prepare.c - test files: made when missing, opened so that they cannot
 * trick iosweep, and a record of how iosweep made them (see prepare.h).
 *
 * Content: `random` is splitmix64 of (seed, position) in 8-byte words: fast,
 * non-repeating, and the same for the same seed on every machine, so the
 * checksums of two hosts can be compared.  `zero` is zeros.  `text` is one
 * pseudo-random integer 0..1000 per line, the last line cut to give the
 * exact size.
 *
 * Trust: the test file's default home is /var/tmp, where anyone can create
 * files.  So the file is opened without blocking (a FIFO cannot hang the
 * open and is refused by type), a symbolic link is followed only when it is
 * the running user's or root's, and a file of another user in a directory
 * anyone may write is refused: it may have been planted.  Its identity
 * (device, inode) is taken at the first open and checked at every later
 * one and after every repeat, so that a file replaced mid-run ends the run.
 *
 * Temporary files: a creation writes PATH.iosweep-tmp.XXXXXX and holds an
 * flock(2) on it until the rename.  The kernel drops the lock whatever ends
 * the process (kill -9 included), so an unlocked temporary name of the
 * running user is provably left over and is removed by the next run.
 */
#define _GNU_SOURCE
#include "io/prepare.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "io/cache.h"
#include "lib/error.h"
#include "lib/pathwalk.h"
#include "lib/splitmix.h"

const char *const fill_names[] = { "random", "zero", "text", "existing", NULL };

#define CHUNK (4u << 20)
/* the new file reaches the disk this much at a time, so that a stop is
 * honoured between pieces and not only after the whole flush */
#define FLUSH_CHUNK (8u << 20)
#define TMP_SUFFIX ".iosweep-tmp."
#define RECORD_XATTR "user.iosweep"
#define RECORD_SUFFIX ".iosweep-record"
#define RECORD_MAX 256

/* The bytes of a fill=random file at offset off (a multiple of 8). */
static void prepare_random_bytes(unsigned char *buf, size_t len, uint64_t seed, uint64_t off)
{
	uint64_t key = splitmix64(seed), word = off / 8;

	for (size_t i = 0; i < len; i += 8, word++) {
		uint64_t r = splitmix64(key ^ word);

		memcpy(buf + i, &r, len - i < 8 ? len - i : 8);
	}
}

/* Text: writes whole lines into buf (at most cap bytes, at most left bytes
 * in all); the last line of the file is shortened to end exactly. */
static size_t text_chunk(unsigned char *buf, size_t cap, uint64_t left, uint64_t *state)
{
	size_t used = 0;

	while (used < cap && left - used > 0) {
		uint64_t room = left - used < cap - used ? left - used : cap - used;
		unsigned n = (unsigned)(splitmix64((*state)++) % 1001);
		char line[8];
		int len = snprintf(line, sizeof(line), "%u\n", n);

		if (left - used <= 5 && room == left - used && (uint64_t)len > left - used) {
			/* the end of the file: a number with as many digits as fit */
			static const char *const tail[] = { "", "\n", "7\n", "42\n", "500\n", "1000\n" };

			len = (int)(left - used);
			memcpy(line, tail[len], (size_t)len);
		} else if ((uint64_t)len > room) {
			(*state)--;
			break;
		}
		memcpy(buf + used, line, (size_t)len);
		used += (size_t)len;
	}
	return used;
}

static int write_all(int fd, const unsigned char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Writes the file's data to the disk piece by piece (a large file's flush
 * takes long), then fdatasync for the rest; 1 when stopped between pieces. */
static int flush_file(int fd, uint64_t size, volatile atomic_int *stop)
{
	for (uint64_t off = 0; off < size; off += FLUSH_CHUNK) {
		uint64_t len = size - off < FLUSH_CHUNK ? size - off : FLUSH_CHUNK;

		if (*stop)
			return 1;
		/* not every file system has it (EINVAL, ENOSYS): fdatasync does it all */
		if (sync_file_range(fd, (off_t)off, (off_t)len,
				    SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
					    SYNC_FILE_RANGE_WAIT_AFTER) < 0 &&
		    errno != EINVAL && errno != ENOSYS && errno != ESPIPE)
			return -1;
	}
	if (*stop)
		return 1;
	return fdatasync(fd) < 0 ? -1 : 0;
}

static int fill_file(int fd, uint64_t size, enum fill_kind fill, uint64_t seed,
		     volatile atomic_int *stop, prepare_progress_fn progress, void *arg,
		     unsigned char *buf)
{
	uint64_t done = 0, text_state = splitmix64(seed);

	memset(buf, 0, CHUNK);
	while (done < size) {
		size_t len = size - done < CHUNK ? (size_t)(size - done) : CHUNK;

		if (*stop)
			return 1;
		if (fill == FILL_RANDOM)
			prepare_random_bytes(buf, len, seed, done);
		else if (fill == FILL_TEXT)
			len = text_chunk(buf, len, size - done, &text_state);
		if (write_all(fd, buf, len) < 0)
			return -1;
		done += len;
		if (progress)
			progress(done, size, arg);
	}
	return flush_file(fd, size, stop);
}

void prepare_dirname(const char *path, char *dir, size_t n)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, n, ".");
	else
		snprintf(dir, n, "%.*s", (int)(slash == path ? 1 : slash - path), path);
}

/* --- the creation record ------------------------------------------------ */

static void record_format(const struct prepare_record *rec, uint64_t ino, char *buf, size_t n)
{
	int len = snprintf(buf, n, "iosweep-record 1 fill=%s seed=%" PRIu64 " size=%" PRIu64,
			   fill_names[rec->fill], rec->seed, rec->size);

	if (rec->written && len > 0 && (size_t)len < n)
		len += snprintf(buf + len, n - (size_t)len, " written=1");
	if (ino && len > 0 && (size_t)len < n)
		snprintf(buf + len, n - (size_t)len, " ino=%" PRIu64, ino);
}

/* The number after "key=" in text; false when there is none. */
static bool record_number(const char *text, const char *key, uint64_t *v)
{
	const char *at = strstr(text, key);
	char *end;

	if (!at)
		return false;
	at += strlen(key);
	errno = 0;
	*v = strtoull(at, &end, 10);
	return errno == 0 && end != at && (*end == ' ' || *end == '\0' || *end == '\n');
}

/* 1 when text is a record (of inode ino, when it names one), else 0. */
static int record_parse(const char *text, uint64_t ino, struct prepare_record *rec)
{
	static const char head[] = "iosweep-record 1 fill=";
	uint64_t seed, size, at, written;
	bool has_ino = record_number(text, " ino=", &at);

	if (strncmp(text, head, sizeof(head) - 1) != 0 || !record_number(text, " seed=", &seed) ||
	    !record_number(text, " size=", &size) || has_ino != (ino != 0) || (has_ino && at != ino))
		return 0;
	text += sizeof(head) - 1;
	for (int i = 0; i < FILL_EXISTING; i++) {
		size_t len = strlen(fill_names[i]);

		if (strncmp(text, fill_names[i], len) == 0 && text[len] == ' ') {
			*rec = (struct prepare_record){
				.fill = (enum fill_kind)i, .seed = seed, .size = size,
				.written = record_number(text, " written=", &written) && written };
			return 1;
		}
	}
	return 0;
}

/* The side file of a file system without user extended attributes: it
 * counts only when it belongs to the data file's owner and names its inode.
 * Looked up in the directory dirfd that holds the data file as `name` (or
 * by path when dirfd is AT_FDCWD). */
static int record_read_side(int dirfd, const char *name, const struct stat *st,
			    struct prepare_record *rec)
{
	char *side, text[RECORD_MAX];
	struct stat sst;
	ssize_t n = -1;
	int fd;

	if (asprintf(&side, "%s" RECORD_SUFFIX, name) < 0)
		return -1;
	fd = openat(dirfd, side, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	free(side);
	if (fd < 0)
		return 0;
	if (fstat(fd, &sst) == 0 && S_ISREG(sst.st_mode) && sst.st_uid == st->st_uid)
		n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	text[n] = '\0';
	return record_parse(text, (uint64_t)st->st_ino, rec);
}

static int record_read_fd(int fd, int dirfd, const char *name, const struct stat *st,
			  struct prepare_record *rec)
{
	char text[RECORD_MAX];
	ssize_t n = fgetxattr(fd, RECORD_XATTR, text, sizeof(text) - 1);

	if (n > 0) {
		text[n] = '\0';
		return record_parse(text, 0, rec);
	}
	if (n < 0 && errno != ENODATA && errno != ENOTSUP && errno != ERANGE)
		return -1;
	return record_read_side(dirfd, name, st, rec);
}

/* The record of the file open on fd, as an extended attribute; false when
 * the file system has none for users (then record_write_side, once the
 * file has its name). */
static bool record_write_xattr(int fd, const struct prepare_record *rec)
{
	char text[RECORD_MAX];

	record_format(rec, 0, text, sizeof(text));
	return fsetxattr(fd, RECORD_XATTR, text, strlen(text), 0) == 0;
}

/* PATH.iosweep-record, naming the inode of fd.  A record that cannot be
 * written leaves a file that is reported as fill=existing. */
static int record_write_side(int fd, const char *path, const struct prepare_record *rec)
{
	char text[RECORD_MAX], *side = NULL, *tmp = NULL;
	struct stat st;
	int sfd, rc = -1, e;

	if (fstat(fd, &st) < 0 || asprintf(&side, "%s" RECORD_SUFFIX, path) < 0)
		return -1;
	record_format(rec, (uint64_t)st.st_ino, text, sizeof(text));
	if (asprintf(&tmp, "%s.XXXXXX", side) >= 0 && (sfd = mkostemp(tmp, O_CLOEXEC)) >= 0) {
		if (fchmod(sfd, 0644) < 0 ||
		    write_all(sfd, (const unsigned char *)text, strlen(text)) < 0 ||
		    close(sfd) < 0 || rename(tmp, side) < 0)
			unlink(tmp);
		else
			rc = 0;
	}
	e = errno;
	free(tmp);
	free(side);
	errno = e;
	return rc;
}

int prepare_record_written(int fd, const char *path, uint64_t size, char *err)
{
	struct prepare_record rec;
	struct stat st;
	int rc;

	if (fstat(fd, &st) < 0)
		return err_set(err, "%s: %s", path, strerror(errno));
	rc = record_read_fd(fd, AT_FDCWD, path, &st, &rec);
	if (rc < 0)
		return err_set(err, "%s: reading its record: %s", path, strerror(errno));
	if (rc == 0 || (rec.written && rec.size >= size))
		return 0; /* not iosweep's (allow_write): no record to keep */
	rec.written = true;
	rec.size = rec.size > size ? rec.size : size;
	/* where it was read from: the side file only without user extended attributes */
	if (record_write_xattr(fd, &rec) ||
	    (errno == ENOTSUP && record_write_side(fd, path, &rec) == 0))
		return 0;
	return err_set(err, "%s: updating its record (that iosweep writes it): %s", path,
		       strerror(errno));
}

/* --- opening the test file ---------------------------------------------- */

static bool uid_trusted(uid_t uid)
{
	return uid == geteuid() || uid == 0;
}

static const char *user_name(uid_t uid, char *buf, size_t n)
{
	const struct passwd *pw = getpwuid(uid);

	if (pw)
		snprintf(buf, n, "%s (uid %u)", pw->pw_name, (unsigned)uid);
	else
		snprintf(buf, n, "uid %u", (unsigned)uid);
	return buf;
}

/* not in every linux/magic.h */
#define CONFIGFS_MAGIC_ 0x62656570
#define FUSECTL_MAGIC_ 0x65735543
#define MQUEUE_MAGIC_ 0x19800202

const char *prepare_pseudo_fs(int fd)
{
	static const struct {
		unsigned long magic;
		const char *name;
	} pseudo[] = {
		{ PROC_SUPER_MAGIC, "proc" },	     { SYSFS_MAGIC, "sysfs" },
		{ CGROUP_SUPER_MAGIC, "cgroup" },    { CGROUP2_SUPER_MAGIC, "cgroup2" },
		{ DEBUGFS_MAGIC, "debugfs" },	     { TRACEFS_MAGIC, "tracefs" },
		{ SECURITYFS_MAGIC, "securityfs" },  { CONFIGFS_MAGIC_, "configfs" },
		{ BPF_FS_MAGIC, "bpf" },	     { EFIVARFS_MAGIC, "efivarfs" },
		{ PSTOREFS_MAGIC, "pstore" },	     { SELINUX_MAGIC, "selinuxfs" },
		{ SMACK_MAGIC, "smackfs" },	     { FUSECTL_MAGIC_, "fusectl" },
		{ BINFMTFS_MAGIC, "binfmt_misc" },   { NSFS_MAGIC, "nsfs" },
		{ MQUEUE_MAGIC_, "mqueue" },	     { RDTGROUP_SUPER_MAGIC, "resctrl" },
		{ DEVPTS_SUPER_MAGIC, "devpts" },    { USBDEVICE_SUPER_MAGIC, "usbfs" },
	};
	struct statfs sf;

	if (fstatfs(fd, &sf) < 0)
		return NULL;
	for (size_t i = 0; i < sizeof(pseudo) / sizeof(pseudo[0]); i++)
		if ((unsigned long)sf.f_type == pseudo[i].magic)
			return pseudo[i].name;
	return NULL;
}

const char *prepare_memory_fs(int fd)
{
	struct statfs sf;

	if (fstatfs(fd, &sf) < 0)
		return NULL;
	return sf.f_type == TMPFS_MAGIC ? "tmpfs" : sf.f_type == RAMFS_MAGIC ? "ramfs" : NULL;
}

static int refuse_pseudo(const char *path, int fd, char *err)
{
	const char *fs = prepare_pseudo_fs(fd);

	if (!fs)
		return 0;
	return err_set(err, "%s is on %s, a file system of kernel interfaces, not of data: iosweep "
			    "never reads or writes a file there, whatever the job says", path, fs);
}

/* A file of another user in a directory anyone may write (dirfd holds it). */
static int refuse_planted(const char *path, const struct pathwalk *w, uid_t uid, char *err)
{
	char who[64];
	struct stat dst;

	if (uid_trusted(uid) || fstat(w->dirfd, &dst) < 0 || !pathwalk_world_writable(&dst))
		return 0;
	return err_set(err, "%s belongs to %s and lies in %s, where anyone can create files: "
			    "another user may have planted it, so it is not read (use a file of "
			    "your own, or a directory only you can write: IOSWEEP_DIR)",
		       path, user_name(uid, who, sizeof(who)), w->dir);
}

/* The path's last link (and each one a chain of them leads through): the
 * running user's or root's only.  The links on the way are held to the
 * walk's own rule (pathwalk.h). */
static int judge_link(const char *link, const struct stat *lst, const char *dir,
		      const struct stat *dst, bool last, void *arg, char *err)
{
	char who[64];

	(void)dir;
	(void)dst;
	(void)arg;
	if (!last || uid_trusted(lst->st_uid))
		return 0;
	return err_set(err, "%s is a symbolic link of %s: iosweep follows only links of its own "
			    "user or root (another user may have planted it)", link,
		       user_name(lst->st_uid, who, sizeof(who)));
}

static bool same_file(const struct stat *st, const struct prepare_id *id)
{
	return id->set && st->st_dev == id->dev && st->st_ino == id->ino;
}

/* The name w ends at, opened O_PATH: what it is, before anything is opened
 * for real (a device is not touched, a FIFO cannot block).  -1 with err. */
static int look_first(const char *path, const struct pathwalk *w, struct stat *st, char *err)
{
	int pfd = openat(w->dirfd, w->name, O_PATH | O_NOFOLLOW | O_CLOEXEC);

	if (pfd < 0 || fstat(pfd, st) < 0) {
		err_set(err, "%s: %s", path, strerror(errno));
		if (pfd >= 0)
			close(pfd);
		return -1;
	}
	close(pfd);
	if (S_ISLNK(st->st_mode))
		return err_set(err, "%s: %s (it became a symbolic link)", path, strerror(ELOOP));
	if (!S_ISREG(st->st_mode) && !S_ISBLK(st->st_mode))
		return err_set(err, "%s is not a regular file or block device (a FIFO, socket, "
				    "directory or character device is never read)", path);
	return 0;
}

/* Opens path read-only, found by pathwalk (no planted link on the way; the
 * last link only when it is the running user's or root's); fills *st and
 * *w (the directory that holds it: pathwalk_done it).  Every decision is
 * taken on the descriptor returned.  -1 with err (every failure returns -1
 * itself: static analyzers need not know what err_set returns). */
static int open_trusted(const char *path, int flags, struct stat *st, struct pathwalk *w,
			char *err)
{
	struct stat first;
	int fd, e;

	if (pathwalk(path, true, judge_link, NULL, w, err) < 0)
		return -1;
	if (w->missing || look_first(path, w, &first, err) < 0) {
		if (w->missing)
			err_set(err, "%s: %s", path, strerror(ENOENT));
		pathwalk_done(w);
		return -1;
	}
	fd = openat(w->dirfd, w->name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW | flags);
	if (fd < 0) {
		e = errno;
		err_set(err, "%s: %s%s", path, strerror(e),
			e == ELOOP ? " (it became a symbolic link)"
			: (flags & O_DIRECT) && e == EINVAL
				? " (this filesystem refuses O_DIRECT; use cache=fadvise)"
				: "");
		pathwalk_done(w);
		return -1;
	}
	/* a regular file ignores O_NONBLOCK, but io_uring would not: off again */
	if (fstat(fd, st) < 0 || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0)
		err_set(err, "%s: %s", path, strerror(errno));
	else if (st->st_dev != first.st_dev || st->st_ino != first.st_ino)
		err_set(err, "%s was replaced while it was being opened", path);
	else if (!S_ISREG(st->st_mode) || (refuse_pseudo(path, fd, err) == 0 &&
					   refuse_planted(path, w, st->st_uid, err) == 0))
		return fd;
	close(fd);
	pathwalk_done(w);
	return -1;
}

int prepare_record_fd(int fd, int dirfd, const char *name, struct prepare_record *rec)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -1;
	return S_ISREG(st.st_mode) ? record_read_fd(fd, dirfd, name, &st, rec) : 0;
}

int prepare_identify(const char *path, struct prepare_id *id, char *err)
{
	struct prepare_record rec;
	struct pathwalk w;
	struct stat st;
	int fd = open_trusted(path, 0, &st, &w, err), has;

	if (fd < 0)
		return -1;
	has = S_ISREG(st.st_mode) ? record_read_fd(fd, w.dirfd, w.name, &st, &rec) : 0;
	close(fd);
	pathwalk_done(&w);
	*id = (struct prepare_id){ .dev = st.st_dev, .ino = st.st_ino, .set = true,
				   .watch_content = has > 0, .size = st.st_size,
				   .mtime = st.st_mtim, .ctime = st.st_ctim };
	return 0;
}

static int replaced(const char *path, char *err)
{
	return err_set(err, "%s was replaced during the run: it is no longer the file the run "
			    "started with", path);
}

int prepare_open(const char *path, bool direct, uint64_t bs, uint64_t spacing,
		 const struct prepare_id *id, char *err)
{
	struct pathwalk w;
	struct stat st;
	int fd = open_trusted(path, direct ? O_DIRECT : 0, &st, &w, err);

	if (fd < 0)
		return -1;
	pathwalk_done(&w);
	if (!same_file(&st, id)) {
		close(fd);
		return replaced(path, err);
	}
	if (direct) {
		unsigned align = cache_fd_direct_alignment(fd);

		if (bs % align || spacing % align) {
			close(fd);
			return err_set(err, "%s: cache=direct needs bs and spacing to be multiples "
					    "of %u here (the O_DIRECT alignment of its device)",
				       path, align);
		}
	}
	return fd;
}

static bool same_time(struct timespec a, struct timespec b)
{
	return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

int prepare_check(const char *path, const struct prepare_id *id, char *err)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return err_set(err, "%s disappeared during the run: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
		return err_set(err, "%s is no longer a regular file or block device: the run stops",
			       path);
	if (!same_file(&st, id))
		return replaced(path, err);
	if (id->watch_content && (st.st_size != id->size || !same_time(st.st_mtim, id->mtime) ||
				  !same_time(st.st_ctim, id->ctime)))
		return err_set(err, "%s was written by another process during the run (its size or "
				    "modification time changed): it no longer holds what its record "
				    "says, so what the run read is not reported", path);
	return 0;
}

int prepare_record_read(const char *path, struct prepare_record *rec, char *err)
{
	struct pathwalk w;
	struct stat st;
	int fd = open_trusted(path, 0, &st, &w, err), rc;

	if (fd < 0)
		return -1;
	rc = S_ISREG(st.st_mode) ? record_read_fd(fd, w.dirfd, w.name, &st, rec) : 0;
	close(fd);
	pathwalk_done(&w);
	if (rc < 0) {
		err_set(err, "%s: reading its record: %s", path, strerror(errno));
		return -1;
	}
	return rc;
}

/* --- leftovers of interrupted creations --------------------------------- */

/* NAME.iosweep-tmp.XXXXXX, as mkostemp makes it. */
static bool tmp_name(const char *name)
{
	const char *at = strstr(name, TMP_SUFFIX);

	if (!at || at == name)
		return false;
	at += strlen(TMP_SUFFIX);
	return strlen(at) == 6 && strspn(at, "abcdefghijklmnopqrstuvwxyz"
					     "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") == 6;
}

static void note_f(prepare_note_fn note, void *arg, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void note_f(prepare_note_fn note, void *arg, const char *fmt, ...)
{
	char msg[ERR_MAX + PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	note(msg, arg);
}

/* One candidate: removed when it is the running user's and no creator holds
 * its lock; reported when it is another user's. */
static void sweep_one(int dfd, const char *dir, const char *name, prepare_note_fn note,
		      void *arg)
{
	struct stat st, again;
	char who[64];
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || flock(fd, LOCK_EX | LOCK_NB) < 0) {
		close(fd); /* not a file, or its creation is still going on */
		return;
	}
	if (st.st_uid != geteuid()) {
		note_f(note, arg, "%s/%s looks like the leftover of an interrupted creation by %s; "
				  "remove it with: rm -- '%s/%s'", dir, name,
		       user_name(st.st_uid, who, sizeof(who)), dir, name);
	} else if (fstatat(dfd, name, &again, AT_SYMLINK_NOFOLLOW) == 0 &&
		   again.st_ino == st.st_ino && unlinkat(dfd, name, 0) == 0) {
		note_f(note, arg, "removed %s/%s (%lld bytes), left by an interrupted creation",
		       dir, name, (long long)st.st_size);
	}
	close(fd);
}

void prepare_sweep(const char *path, prepare_note_fn note, void *arg)
{
	/* directories already swept by this process: a plan names few */
	static struct { dev_t dev; ino_t ino; } swept[16];
	static size_t nswept;
	char dir[PATH_MAX];
	struct stat st;
	struct dirent *de;
	DIR *d;

	prepare_dirname(path, dir, sizeof(dir));
	d = opendir(dir);
	if (!d)
		return;
	if (fstat(dirfd(d), &st) == 0) {
		for (size_t i = 0; i < nswept; i++)
			if (swept[i].dev == st.st_dev && swept[i].ino == st.st_ino) {
				closedir(d);
				return;
			}
		if (nswept < sizeof(swept) / sizeof(swept[0])) {
			swept[nswept].dev = st.st_dev;
			swept[nswept++].ino = st.st_ino;
		}
	}
	while ((de = readdir(d)) != NULL)
		if (tmp_name(de->d_name))
			sweep_one(dirfd(d), dir, de->d_name, note, arg);
	closedir(d);
}

/* --- creating the test file ---------------------------------------------- */

/* A temporary file next to path, locked for as long as it is open: a sweep
 * that took it in the instant between creating and locking is noticed (the
 * name no longer leads to the file) and another name is taken. */
static int tmp_create(const char *path, char **tmp, char *err)
{
	for (int tries = 0; tries < 10; tries++) {
		struct stat mine, named;
		int fd;

		free(*tmp);
		if (asprintf(tmp, "%s" TMP_SUFFIX "XXXXXX", path) < 0) {
			*tmp = NULL;
			err_set(err, "out of memory");
			return -1;
		}
		fd = mkostemp(*tmp, O_CLOEXEC);
		if (fd < 0) {
			err_set(err, "cannot create %s: %s", *tmp, strerror(errno));
			return -1;
		}
		if (flock(fd, LOCK_EX) == 0 && fstat(fd, &mine) == 0 &&
		    lstat(*tmp, &named) == 0 && mine.st_ino == named.st_ino &&
		    mine.st_dev == named.st_dev)
			return fd;
		close(fd);
	}
	err_set(err, "cannot create a temporary file next to %s", path);
	return -1;
}

/* An existing file: what the record says must agree with what is asked. */
static int check_existing(const char *path, enum fill_kind fill, uint64_t seed, char *err)
{
	struct prepare_record rec;
	int rc;

	if (fill == FILL_EXISTING)
		return 0;
	rc = prepare_record_read(path, &rec, err);
	if (rc < 0)
		return -1;
	if (rc == 0)
		return err_set(err, "%s appeared during the run without a record of how it was "
				    "made: it is not the file this run was planned for", path);
	if (rec.fill != fill)
		return err_set(err, "%s was made with fill=%s, this run asks for fill=%s", path,
			       fill_names[rec.fill],
			       fill_names[fill]);
	if (fill != FILL_ZERO && rec.seed != seed)
		return err_set(err, "%s was made with seed=%" PRIu64 ", this run asks for seed=%"
				    PRIu64, path, rec.seed, seed);
	return 0;
}

int prepare_file(const char *path, uint64_t size, enum fill_kind fill, uint64_t seed,
		 volatile atomic_int *stop, prepare_progress_fn progress, void *arg, char *err)
{
	struct prepare_record rec = { .fill = fill, .seed = seed, .size = size };
	char *tmp = NULL;
	unsigned char *buf = NULL;
	struct stat st;
	int fd = -1, rc = -1;

	struct pathwalk w;

	/* a planted link on the way would take the new file elsewhere */
	if (pathwalk(path, false, NULL, NULL, &w, err) < 0)
		return -1;
	pathwalk_done(&w);
	if (lstat(path, &st) == 0)
		return check_existing(path, fill, seed, err);
	if (errno != ENOENT)
		return err_set(err, "%s: %s", path, strerror(errno));
	if (fill == FILL_EXISTING)
		return err_set(err, "%s does not exist (fill=existing reads a file that is there)",
			       path);
	fd = tmp_create(path, &tmp, err);
	if (fd < 0) {
		free(tmp);
		return -1;
	}
	/* mkostemp makes it private; a test file is for every job that names it */
	if (fchmod(fd, 0644) < 0) {
		err_set(err, "creating %s: %s", path, strerror(errno));
		goto out;
	}
	buf = malloc(CHUNK);
	if (!buf) {
		err_set(err, "out of memory");
		goto out;
	}
	rc = fill_file(fd, size, fill, seed, stop, progress, arg, buf);
	if (rc < 0) {
		/* the temporary name goes with the file: name the one asked for */
		err_set(err, "creating %s: %s", path, strerror(errno));
		goto out;
	}
	bool in_xattr = rc == 0 && record_write_xattr(fd, &rec);
	if (rc == 0 && renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) < 0) {
		/* someone else created it meanwhile: theirs stays, ours goes */
		if (errno != EEXIST) {
			err_set(err, "renaming %s to %s: %s", tmp, path, strerror(errno));
			rc = -1;
		} else {
			rc = check_existing(path, fill, seed, err);
		}
	} else if (rc == 0 && !in_xattr) {
		(void)record_write_side(fd, path, &rec);
	}
out:
	free(buf);
	unlink(tmp); /* gone after success (renamed) or failure */
	if (fd >= 0)
		close(fd); /* the lock goes last */
	free(tmp);
	return rc;
}
