/*
 * plan.c - jobs -> the ordered list of runs.
 *
 * Per job: the file and its size are resolved once (an existing file gives
 * its size; a missing one needs `size`), then the list options are walked as
 * a mixed-radix counter in declaration order.  Each combination is
 * normalized (values that do not apply are fixed so that they cannot make
 * two identical runs), checked for contradictions, and counted in reads
 * and bytes.
 */
#define _GNU_SOURCE
#include "job/plan.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/fs.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "io/cache.h"
#include "io/data.h"
#include "io/dirscan.h"
#include "io/engines/engine.h"
#include "io/fileset.h"
#include "io/ioloop.h"
#include "io/mdtree.h"
#include "io/pattern.h"
#include "io/prepare.h"
#include "io/series.h"
#include "io/steady.h"
#include "io/trace.h"
#include "io/wtarget.h"
#include "lib/error.h"
#include "lib/hist.h"
#include "lib/host.h"
#include "lib/pathwalk.h"
#include "lib/names.h"
#include "lib/texttable.h"
#include "lib/units.h"

/* Size of a file or block device; -1 with errno when it cannot be read. */
static int plan_file_size(const char *path, uint64_t *size, bool *blockdev)
{
	struct stat st;
	int fd;

	if (stat(path, &st) < 0)
		return -1;
	*blockdev = S_ISBLK(st.st_mode);
	if (S_ISREG(st.st_mode)) {
		*size = (uint64_t)st.st_size;
		return 0;
	}
	if (!*blockdev) {
		errno = EINVAL;
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = ioctl(fd, BLKGETSIZE64, size);
	close(fd);
	return rc;
}

/* Where the job's file is and how big it is. */
struct target {
	char *filename;
	uint64_t size;
	uint64_t set_bytes;          /* a file set: its files' bytes (size: each, or the largest) */
	bool drawn;                  /* a file set whose files' sizes are drawn (sizes) */
	struct bsmix sizes;
	bool exists, blockdev, per_rank, rank_file;
	bool evictable;              /* its pages can be evicted (not tmpfs) */
	bool recorded;               /* iosweep made it (or will): record holds how */
	struct prepare_record record;
	const char *maker;           /* the earlier job of the plan that will make it */
	uint64_t have;               /* the size of the file that exists */
	bool seen;                   /* an earlier job named it: known already */
	bool ours;                   /* a write target of iosweep's own (wtarget.h) */
	bool new_file;               /* a write target that does not exist yet */
	bool device;                 /* a block device to write, consented (wtarget.h) */
	bool written;                /* an iosweep write run will have written it (before
				      * this plan: its record says so; or an earlier run) */
	const char *writer;          /* the job of this plan that writes it, if one does */
	struct known_file *known;    /* what earlier jobs found, when seen */
	uint64_t tree_files;         /* opendir: the regular files found under it */
};

/* A file the plan names, by name: looked at once however many jobs name it,
 * and for a file the plan will create, what its first job makes of it. */
struct known_file {
	char *name;
	const char *maker;           /* NULL: the file exists */
	bool blockdev, recorded, evictable;
	uint64_t have;
	struct prepare_record rec;
	bool written;                /* as target.written, after the jobs so far */
	const char *writer;
};

/* {rank} and {host} in a file name: each rank of a multi-host run reads a
 * file of its own (*per_rank), which with {rank} no other rank opens. */
static char *expand_rank(const struct plan_where *where, const char *name, bool *per_rank,
			 bool *rank_file)
{
	static const char *const keys[] = { "{rank}", "{host}" };
	char rank[16], *out = strdup(name);

	snprintf(rank, sizeof(rank), "%d", where->rank);
	*per_rank = *rank_file = false;
	for (int k = 0; out && k < 2; k++) {
		char *at;

		while (out && (at = strstr(out, keys[k])) != NULL) {
			char *next;

			*per_rank = true;
			*rank_file |= k == 0;
			if (asprintf(&next, "%.*s%s%s", (int)(at - out), out, k ? where->host : rank,
				     at + strlen(keys[k])) < 0)
				next = NULL;
			free(out);
			out = next;
		}
	}
	return out;
}

static int default_filename(const struct job *job, uint64_t size, char **out, char *err)
{
	const char *dir = getenv("IOSWEEP_DIR");
	const struct job_value *fill = &job->opt[OPT_FILL], *seed = &job->opt[OPT_SEED];
	char sz[32], seedpart[32] = "";

	units_fmt_size(size, sz, sizeof(sz));
	if (seed->n && seed->v[0].u != 1)
		snprintf(seedpart, sizeof(seedpart), "-s%llu", (unsigned long long)seed->v[0].u);
	if (asprintf(out, "%s/iosweep-%s-%s%s.dat", dir && *dir ? dir : "/var/tmp", sz,
		     option_table[OPT_FILL].values[fill->n ? fill->v[0].u : 0], seedpart) < 0)
		return err_set(err, "out of memory");
	return 0;
}

/* A file name as the job file wrote it: what a shell would have changed,
 * iosweep takes as it is, so what cannot be meant is refused here. */
static int check_name(const char *where, const char *name, char *err)
{
	size_t len = strlen(name);

	if (len >= 2 && (name[0] == '"' || name[0] == '\'') && name[len - 1] == name[0])
		return err_set(err, "%s: filename %s is quoted: write it without quotes (a value "
				    "is taken as it is)", where, name);
	if (name[0] == '~')
		return err_set(err, "%s: filename '%s' starts with '~', which is not expanded: "
				    "write ${HOME}%s", where, name, name + strcspn(name, "/"));
	const char *dollar = strchr(name, '$');
	if (dollar && dollar[1] != '{')
		return err_set(err, "%s: filename '%s' has a '$' that is not expanded: write "
				    "${VAR} (${HOME}/x, not $HOME/x)", where, name);
	if (len && name[len - 1] == '/')
		return err_set(err, "%s: filename '%s' ends with '/': the test file is a file, not "
				    "a directory", where, name);
	return 0;
}

/* A file to be created: not through a symbolic link, and in a directory
 * that exists and can be written (everything run would find out later). */
static int check_creatable(const char *where, const char *path, char *err)
{
	char dir[PATH_MAX], why[ERR_MAX];
	struct pathwalk w;
	struct stat st;

	if (pathwalk(path, false, NULL, NULL, &w, why) < 0)
		return err_set(err, "%s: %s", where, why);
	pathwalk_done(&w);

	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		return err_set(err, "%s: %s is a symbolic link to a file that does not exist: "
				    "iosweep does not create files through symbolic links (name the "
				    "target, or remove the link)", where, path);
	prepare_dirname(path, dir, sizeof(dir));
	if (stat(dir, &st) < 0)
		return err_set(err, "%s: cannot create %s: directory %s: %s", where, path, dir,
			       strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return err_set(err, "%s: cannot create %s: %s is not a directory", where, path, dir);
	if (access(dir, W_OK | X_OK) != 0)
		return err_set(err, "%s: cannot create %s in %s: %s", where, path, dir,
			       strerror(errno));
	return 0;
}

/* A missing file that an earlier job of the plan creates: this job reads
 * what that one makes. */
static int planned_target(const struct jobfile *jf, const struct job *job, struct target *t,
			  const struct known_file *m, char *err)
{
	const struct job_value *size = &job->opt[OPT_SIZE];
	char where[300], want[32];

	t->recorded = true;
	t->record = m->rec;
	t->maker = m->maker;
	t->size = size->n ? size->v[0].u : m->rec.size;
	if (t->size <= m->rec.size)
		return 0;
	units_fmt_size(t->size, want, sizeof(want));
	job_where(jf, job, OPT_SIZE, where, sizeof(where));
	return err_set(err, "%s: %s will be made by job '%s' with %llu bytes, fewer than size=%s",
		       where, t->filename, m->maker, (unsigned long long)m->rec.size, want);
}

/* A file no earlier job named: its type and size, its record; for a file
 * to create, whether it can be.  1 when it exists, 0 when not, -1. */
static int look_at(const char *where, struct target *t, const struct job_value *size,
		   char *err)
{
	struct prepare_record rec;
	char why[ERR_MAX];
	int rc;

	if (plan_file_size(t->filename, &t->have, &t->blockdev) < 0) {
		if (errno != ENOENT)
			return err_set(err, "%s: %s: %s", where, t->filename,
				       errno == EINVAL ? "not a regular file or block device"
						       : strerror(errno));
		if (!size->n)
			return err_set(err, "%s: %s does not exist: give a size to create it",
				       where, t->filename);
		return check_creatable(where, t->filename, err) < 0 ? -1 : 0;
	}
	/* opened as a run would open it: a planted file or link is refused now */
	rc = prepare_record_read(t->filename, &rec, why);
	if (rc < 0)
		return err_set(err, "%s: %s", where, why);
	t->recorded = rc > 0;
	if (t->recorded)
		t->record = rec;
	t->written = t->recorded && rec.written;
	return 1;
}

/* Whether some run of job writes; whether every run that writes empties the
 * file first (alloc=allocate or prealloc), so that its size may grow. */
static bool job_writes(const struct job *job, bool *only_allocating)
{
	const struct job_value *op = &job->opt[OPT_OP], *alloc = &job->opt[OPT_ALLOC];
	bool writes = false;

	for (size_t i = 0; i < op->n; i++)
		writes |= op->v[i].u != OP_READ;
	*only_allocating = writes && alloc->n;
	writes |= job->opt[OPT_PRECONDITION].n > 0; /* its passes write */
	for (size_t i = 0; i < alloc->n; i++)
		*only_allocating &= alloc->v[i].u != ALLOC_OVERWRITE;
	return writes;
}

/* A job that writes: may its file be written (wtarget.h)? */
static int check_write_target(const struct jobfile *jf, const struct job *job, struct target *t,
			      char *err)
{
	const struct job_value *allow = &job->opt[OPT_ALLOW_WRITE];
	const struct job_value *sig = &job->opt[OPT_ALLOW_OVERWRITE_SIGNATURE];
	enum wtarget_kind kind;
	char where[300], why[ERR_MAX];

	if (sig->n && !*sig->v[0].s) {
		job_where(jf, job, OPT_ALLOW_OVERWRITE_SIGNATURE, where, sizeof(where));
		return err_set(err, "%s: allow_overwrite_signature: empty value (name the signature "
				    "as blkid does: ext4, dos, gpt...) (job '%s')", where, job->name);
	}
	job_where(jf, job, allow->n ? OPT_ALLOW_WRITE : OPT_FILENAME, where, sizeof(where));
	if (wtarget_check(t->filename, allow->n ? allow->v[0].s : NULL,
			  sig->n ? sig->v[0].s : NULL, &kind, why) < 0)
		return err_set(err, "%s: %s (job '%s')", where, why, job->name);
	t->ours = kind == WTARGET_OURS;
	t->new_file = kind == WTARGET_NEW;
	t->device = kind == WTARGET_DEVICE;
	if (sig->n && !t->device) {
		job_where(jf, job, OPT_ALLOW_OVERWRITE_SIGNATURE, where, sizeof(where));
		return err_set(err, "%s: allow_overwrite_signature is for block devices, and %s is "
				    "not one: remove it (job '%s')", where, t->filename, job->name);
	}
	return 0;
}

/* What a repeat of a write run may allocate on its file: with alloc=allocate
 * (the file emptied to a hole) the blocks its writes touch, each write's
 * whole 4 KiB pages, at most the file; else the whole file. */
static uint64_t run_allocates(const struct run *r)
{
	uint64_t size = r->v[OPT_SIZE].u, most;

	if (r->v[OPT_ALLOC].u != ALLOC_ALLOCATE ||
	    __builtin_mul_overflow(r->reads, io_round_up(r->v[OPT_BS].u, 4095), &most))
		return size;
	return most < size ? most : size;
}

static unsigned job_nrfiles(const struct job *job);
static union optval default_value(enum opt_id id);

/* The bytes file k of target t's set holds. */
static uint64_t target_file_bytes(const struct target *t, unsigned k)
{
	return t->drawn ? bsmix_len(&t->sizes, 0, k) : t->size;
}

/* A file set that is written: room for need bytes in each file (at most
 * its size), less what its files hold already. */
static int set_space(const struct jobfile *jf, const struct job *job, const struct target *t,
		     uint64_t need, char *err)
{
	char path[PATH_MAX], where[300], why[ERR_MAX];
	uint64_t want = 0;
	struct stat st;

	for (unsigned k = 0; k < job_nrfiles(job); k++) {
		uint64_t have = 0, each = target_file_bytes(t, k) < need ? target_file_bytes(t, k)
									  : need;

		if (fileset_path(t->filename, k, path, sizeof(path)) == 0 && stat(path, &st) == 0)
			have = (uint64_t)st.st_blocks * 512;
		want += each > have ? each - have : 0;
	}
	if (fileset_path(t->filename, 0, path, sizeof(path)) < 0 || !want ||
	    wtarget_space(path, want, why) == 0)
		return 0;
	job_where(jf, job, OPT_NRFILES, where, sizeof(where));
	return err_set(err, "%s: %s (job '%s')", where, why, job->name);
}

/* Is there room for what the job's runs (n of them at runs) will allocate?
 * An existing file gives back what it holds when it is emptied. */
static int check_space(const struct jobfile *jf, const struct job *job, const struct target *t,
		       const struct run *runs, size_t n, char *err)
{
	uint64_t need = 0, have = 0;
	bool alloc_only;
	struct stat st;
	char where[300], why[ERR_MAX];

	if (!job_writes(job, &alloc_only) || t->device)
		return 0; /* a device's blocks are there already */
	for (size_t k = 0; k < n; k++) {
		uint64_t a = runs[k].write_bytes ? run_allocates(&runs[k]) : 0;

		need = a > need ? a : need;
	}
	if (job_nrfiles(job) > 1)
		return set_space(jf, job, t, need, err);
	if (!t->new_file && t->filename && stat(t->filename, &st) == 0)
		have = (uint64_t)st.st_blocks * 512;
	if (!t->new_file && !alloc_only && have >= need)
		return 0;
	need = need > have ? need - have : 0;
	if (wtarget_space(t->filename, need, why) < 0) {
		job_where(jf, job, job->opt[OPT_ALLOW_WRITE].n ? OPT_ALLOW_WRITE : OPT_FILENAME,
			  where, sizeof(where));
		return err_set(err, "%s: %s (job '%s')", where, why, job->name);
	}
	return 0;
}

static unsigned job_nrfiles(const struct job *job)
{
	return job->opt[OPT_NRFILES].n ? (unsigned)job->opt[OPT_NRFILES].v[0].u : 1;
}

/* The n files of a set already on disk (t->filename its template, t->size
 * each file's bytes): each is missing and can be made, or is iosweep's, as
 * large, and of the same fill and seed as the others; where is the job's
 * line for the messages.  Sets t->exists (all there), t->recorded (any)
 * and, from the first, t->record. */
static int check_set_files(const struct job *job, struct target *t, unsigned n,
			   const char *where, char *err)
{
	char path[PATH_MAX], why[ERR_MAX];
	bool alloc_only, any = false, all = true;

	for (unsigned k = 0; k < n; k++) {
		struct prepare_record rec;
		uint64_t have;
		bool blockdev;
		int rc;

		if (fileset_path(t->filename, k, path, sizeof(path)) < 0)
			return err_set(err, "%s: the set's file names are too long (%s)", where,
				       t->filename);
		/* a set that is written: each file passes the one consent check (wtarget.h) */
		if (job_writes(job, &alloc_only)) {
			enum wtarget_kind kind;

			if (wtarget_check(path, NULL, NULL, &kind, why) < 0)
				return err_set(err, "%s: %s (job '%s')", where, why, job->name);
		}
		if (plan_file_size(path, &have, &blockdev) < 0) {
			if (errno != ENOENT)
				return err_set(err, "%s: %s: %s", where, path,
					       errno == EINVAL ? "not a regular file" : strerror(errno));
			all = false;
			if (check_creatable(where, path, err) < 0)
				return -1;
			continue;
		}
		rc = blockdev ? 0 : prepare_record_read(path, &rec, why);
		if (rc < 0)
			return err_set(err, "%s: %s", where, why);
		if (rc == 0)
			return err_set(err, "%s: %s exists and iosweep did not make it: a file set is "
					    "made of iosweep's files only (remove it, or choose another "
					    "directory or filename_format) (job '%s')", where, path,
				       job->name);
		if (rec.size < target_file_bytes(t, k) || have < target_file_bytes(t, k))
			return err_set(err, "%s: %s was made with %llu bytes, fewer than the %llu "
					    "the set has it hold: remove the set's files to have them "
					    "made again (job '%s')", where, path,
				       (unsigned long long)rec.size,
				       (unsigned long long)target_file_bytes(t, k), job->name);
		if (any && (rec.fill != t->record.fill || rec.seed != t->record.seed))
			return err_set(err, "%s: the set's files were made with different fills or "
					    "seeds (%s): remove them to have them made again (job '%s')",
				       where, path, job->name);
		if (!any)
			t->record = rec;
		any = true;
		t->written |= rec.written;
	}
	t->exists = all;
	t->recorded = any;
	return 0;
}

/* A file set whose filesize is drawn file by file (from its seed, which is
 * one value): t->size the largest file's, t->set_bytes them all. */
static int set_drawn_sizes(const struct jobfile *jf, const struct job *job, unsigned n,
			   struct target *t, char *err)
{
	const struct job_value *seed = &job->opt[OPT_SEED];
	uint64_t fixed;
	char where[300];

	job_where(jf, job, OPT_SIZE, where, sizeof(where));
	if (job->opt[OPT_SIZE].n)
		return err_set(err, "%s: size with filesize = %s drawn file by file: the set holds "
				    "what its files draw; give one of size (for all the files) and "
				    "filesize (job '%s')", where, job->opt[OPT_FILESIZE].v[0].s,
			       job->name);
	t->drawn = plan_filesizes(job->opt[OPT_FILESIZE].v[0].s,
				  seed->n ? seed->v[0].u : default_value(OPT_SEED).u, &t->sizes,
				  &fixed);
	for (unsigned k = 0; k < n; k++) {
		uint64_t each = bsmix_len(&t->sizes, 0, k);

		t->set_bytes += each;
		t->size = each > t->size ? each : t->size;
	}
	return 0;
}

/* A file set's size of each file: filesize (a plain size, or drawn file by
 * file), or size / n. */
static int set_file_size(const struct jobfile *jf, const struct job *job, unsigned n,
			 struct target *t, char *err)
{
	const struct job_value *size = &job->opt[OPT_SIZE], *fsize = &job->opt[OPT_FILESIZE];
	uint64_t each = 0;
	char where[300];

	job_where(jf, job, OPT_NRFILES, where, sizeof(where));
	if (fsize->n && !plain_filesize(fsize->v[0].s, &each))
		return set_drawn_sizes(jf, job, n, t, err);
	if (fsize->n && size->n && size->v[0].u != each * n) {
		job_where(jf, job, OPT_SIZE, where, sizeof(where));
		return err_set(err, "%s: size=%llu is not nrfiles=%u x filesize=%llu: give one of "
				    "size (for all the files) and filesize (each) (job '%s')", where,
			       (unsigned long long)size->v[0].u, n, (unsigned long long)each,
			       job->name);
	}
	if (fsize->n && !each) {
		job_where(jf, job, OPT_FILESIZE, where, sizeof(where));
		return err_set(err, "%s: filesize = 0: each of nrfiles=%u files needs a byte at "
				    "least (job '%s')", where, n, job->name);
	}
	if (fsize->n) {
		t->size = each;
	} else if (size->n) {
		t->size = size->v[0].u / n;
		if (!t->size) {
			job_where(jf, job, OPT_SIZE, where, sizeof(where));
			return err_set(err, "%s: size=%llu is less than a byte for each of nrfiles=%u "
					    "files: give filesize (job '%s')", where,
				       (unsigned long long)size->v[0].u, n, job->name);
		}
	} else {
		return err_set(err, "%s: job '%s' needs filesize (bytes per file) or size (for "
				    "all %u files)", where, job->name, n);
	}
	t->set_bytes = t->size * n;
	return 0;
}

/*
 * A file set (nrfiles > 1, io/fileset.h): its files are named by directory
 * and filename_format, each filesize bytes (or size / nrfiles).  Every file
 * of it is iosweep's: one that exists must have iosweep's record, all of
 * them the same fill and seed; the missing ones are made as a single file
 * is (prepare.h).  t->filename is the set's path template.
 */
static int resolve_set(const struct plan *plan, const struct job *job, struct target *t,
		       char *err)
{
	const struct jobfile *jf = plan->jf;
	const struct job_value *dirv = &job->opt[OPT_DIRECTORY], *fmt = &job->opt[OPT_FILENAME_FORMAT];
	unsigned n = job_nrfiles(job);
	const char *env = getenv("IOSWEEP_DIR");
	const char *dir = dirv->n ? dirv->v[0].s : env && *env ? env : "/var/tmp";
	char where[300], path[PATH_MAX], why[ERR_MAX];
	struct rlimit rl;

	job_where(jf, job, OPT_NRFILES, where, sizeof(where));
	if (job->opt[OPT_FILENAME].n)
		return err_set(err, "%s: nrfiles=%u names its files by directory and "
				    "filename_format: remove filename (job '%s')", where, n, job->name);
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (uint64_t)n + FILESET_FD_SPARE > rl.rlim_cur)
		return err_set(err, "%s: nrfiles=%u keeps %u files open, and the open-file limit "
				    "(ulimit -n) is %llu with %d kept for the rest: raise it to %llu "
				    "or lower nrfiles (job '%s')", where, n, n,
			       (unsigned long long)rl.rlim_cur, FILESET_FD_SPARE,
			       (unsigned long long)n + FILESET_FD_SPARE, job->name);
	if (set_file_size(jf, job, n, t, err) < 0)
		return -1;
	char trimmed[PATH_MAX];
	size_t len = strlen(dir);

	/* directory=/data/ is /data (check_name refuses a file name ending in '/') */
	while (len > 1 && dir[len - 1] == '/')
		len--;
	snprintf(trimmed, sizeof(trimmed), "%.*s", (int)len, dir);
	if (dirv->n) {
		job_where(jf, job, OPT_DIRECTORY, where, sizeof(where));
		if (check_name(where, trimmed, err) < 0)
			return -1;
	}
	t->filename = fileset_template(strcmp(trimmed, "/") ? trimmed : "",
				       fmt->n ? fmt->v[0].s : option_table[OPT_FILENAME_FORMAT].def,
				       job->name);
	if (!t->filename)
		return err_set(err, "out of memory");
	job_where(jf, job, fmt->n ? OPT_FILENAME_FORMAT : OPT_NRFILES, where, sizeof(where));
	if (!fileset_template_distinct(t->filename, n))
		return err_set(err, "%s: filename_format '%s' gives all %u files of the set one name "
				    "(%s): put $filenum in the file's name (job '%s')", where,
			       fmt->n ? fmt->v[0].s : "", n, t->filename, job->name);
	job_where(jf, job, dirv->n ? OPT_DIRECTORY : OPT_NRFILES, where, sizeof(where));
	if (check_set_files(job, t, n, where, err) < 0)
		return -1;
	t->have = t->size;
	if (fileset_path(t->filename, 0, path, sizeof(path)) == 0)
		t->evictable = cache_evict_obstacle(path, why, sizeof(why)) != CACHE_CANNOT_EVICT;
	t->seen = true; /* its evictability is known: nothing else in the plan shares it */
	return 0;
}

/* What a file set's runs cannot do (yet), said before anything runs. */
static int check_set_run(const struct jobfile *jf, const struct run *r,
			 const struct engine_ops *e, char *err)
{
	const struct job *job = r->job;
	const union optval *v = r->v;
	char where[300];

	if (v[OPT_NRFILES].u <= 1 && v[OPT_FILE_SERVICE_TYPE].u == FILESET_SHUFFLE &&
	    !v[OPT_OPENDIR].s) {
		job_where(jf, job, OPT_FILE_SERVICE_TYPE, where, sizeof(where));
		return err_set(err, "%s: file_service_type = shuffle orders the files of opendir "
				    "(a new order every repeat); a file set's are roundrobin, "
				    "sequential or random (job '%s')", where, job->name);
	}
	if (v[OPT_NRFILES].u <= 1)
		return 0;
	job_where(jf, job, OPT_NRFILES, where, sizeof(where));
	if (v[OPT_FILE_SERVICE_TYPE].u == FILESET_SHUFFLE)
		return err_set(err, "%s: file_service_type = shuffle orders the files of opendir "
				    "(a new order every repeat); a file set's are roundrobin, "
				    "sequential or random (job '%s')", where, job->name);
	if (e->flags & ENGINE_MAPPED)
		return err_set(err, "%s: engine=%s maps one file, and nrfiles=%llu is a set: use "
				    "engine=sync, psync2, aio or uring (job '%s')", where, e->name,
			       (unsigned long long)v[OPT_NRFILES].u, job->name);
	if (v[OPT_REGISTERFILES].u == FLAG_ON)
		return err_set(err, "%s: registerfiles=1 registers one file, and nrfiles=%llu is a "
				    "set: use registerfiles=0 (job '%s')", where,
			       (unsigned long long)v[OPT_NRFILES].u, job->name);
	if (v[OPT_CONSUME].u == CONSUME_INTS)
		return err_set(err, "%s: consume=ints sums one file of text, and nrfiles=%llu is a "
				    "set: use consume=checksum, which covers every file (job '%s')",
			       where, (unsigned long long)v[OPT_NRFILES].u, job->name);
	if (v[OPT_SYNC_MODE].u == SYNC_MODE_INFLIGHT)
		return err_set(err, "%s: sync_mode=inflight queues a flush of one file, and "
				    "nrfiles=%llu is a set: use sync_mode=drain, which flushes every "
				    "file (job '%s')", where, (unsigned long long)v[OPT_NRFILES].u,
			       job->name);
	if (v[OPT_BSSPLIT].s || v[OPT_BSRANGE].s)
		return err_set(err, "%s: a block-size mix (bssplit, bsrange) would cut I/Os across "
				    "the files of nrfiles=%llu: use one bs (job '%s')", where,
			       (unsigned long long)v[OPT_NRFILES].u, job->name);
	struct bsmix m;

	if (plan_set_sizes(v, &m) && (!bsmix_multiple(&m, v[OPT_BS].u) ||
				      v[OPT_SPACING].u != v[OPT_BS].u))
		return err_set(err, "%s: the set's files (filesize = %s) must be whole blocks of "
				    "bs=%llu, every size filesize draws, read densely (no spacing), "
				    "so that no I/O spans two files (job '%s')", where,
			       v[OPT_FILESIZE].s, (unsigned long long)v[OPT_BS].u, job->name);
	if (v[OPT_SIZE].u % v[OPT_BS].u || v[OPT_SPACING].u != v[OPT_BS].u)
		return err_set(err, "%s: the set's files (%llu bytes each) must be whole blocks of "
				    "bs=%llu, read densely (no spacing), so that no I/O spans two "
				    "files (job '%s')", where, (unsigned long long)v[OPT_SIZE].u,
			       (unsigned long long)v[OPT_BS].u, job->name);
	return 0;
}

static int resolve_target(const struct plan *plan, const struct job *job, struct target *t,
			  const struct names *known, const struct trace_scan *ts, char *err)
{
	const struct jobfile *jf = plan->jf;
	bool alloc_only, writes = job_writes(job, &alloc_only) ||
					     (ts && (ts->n[TRACE_WRITE] || ts->n[TRACE_TRIM]));
	const struct job_value *name = &job->opt[OPT_FILENAME], *size = &job->opt[OPT_SIZE];
	char where[300], want[32], have[32];
	union optval need = { .u = ts ? ts->size : 0 };
	/* read_iolog: the file is as large as the trace's files end to end */
	const struct job_value trace_size = { .n = 1, .v = &need,
					      .line = job->opt[OPT_READ_IOLOG].line };
	int rc;

	if (ts && !size->n)
		size = &trace_size;

	memset(t, 0, sizeof(*t));
	if (job_nrfiles(job) > 1)
		return resolve_set(plan, job, t, err);
	job_where(jf, job, name->n ? OPT_FILENAME : OPT_SIZE, where, sizeof(where));
	if (!name->n) {
		if (!size->n)
			return err_set(err, "%s: job '%s' needs a size (or a filename that exists)",
				       where, job->name);
		if (default_filename(job, size->v[0].u, &t->filename, err) < 0)
			return -1;
	} else {
		if (check_name(where, name->v[0].s, err) < 0)
			return -1;
		t->filename = expand_rank(&plan->where, name->v[0].s, &t->per_rank, &t->rank_file);
		if (!t->filename)
			return err_set(err, "out of memory");
	}
	/* before anything follows a link or opens a device */
	if (writes && check_write_target(jf, job, t, err) < 0)
		return -1;
	struct known_file *k = names_find(known, t->filename);
	if (k) {
		t->seen = true;
		t->known = k;
		t->written = k->written;
		t->writer = k->writer;
		t->evictable = k->evictable;
		if (k->maker)
			return planned_target(jf, job, t, k, err);
		t->blockdev = k->blockdev;
		t->have = k->have;
		t->recorded = k->recorded;
		t->record = k->rec;
	} else {
		rc = look_at(where, t, size, err);
		if (rc <= 0) {
			t->size = size->n ? size->v[0].u : 0;
			return rc;
		}
	}
	t->exists = true;
	t->size = size->n ? size->v[0].u : t->have;
	if (t->size > t->have && (!alloc_only || t->blockdev)) {
		units_fmt_size(t->size, want, sizeof(want));
		job_where(jf, job, OPT_SIZE, where, sizeof(where));
		units_fmt_size(t->have, have, sizeof(have));
		if (t->blockdev)
			return err_set(err, "%s: %s is a block device of %llu bytes, smaller than "
					    "size=%s: give size=%s or less, or no size (a device's "
					    "size is its default) (job '%s')", where, t->filename,
				       (unsigned long long)t->have, want, have, job->name);
		return err_set(err, "%s: %s is %llu bytes, smaller than size=%s, and iosweep never "
				    "writes to an existing file: give size=%s or less (--set size=%s), "
				    "or, if iosweep made it, remove it to have it made at %s", where, t->filename,
			       (unsigned long long)t->have, want, have, have, want);
	}
	if (t->size == 0)
		return err_set(err, "%s: %s is empty", where, t->filename);
	return 0;
}

/* What the run says about the file's content is what the file holds: the
 * record of how iosweep made it, or fill=existing when there is none.  A
 * fill or seed the job gives that the record contradicts is refused. */
static int apply_record(const struct jobfile *jf, const struct target *t, struct run *r,
			char *err)
{
	const struct job *job = r->job;
	const char *const *fills = option_table[OPT_FILL].values;
	bool asked_fill = job->opt[OPT_FILL].n, asked_seed = job->opt[OPT_SEED].n;
	union optval *v = r->v;
	char where[300], made[128];

	if (!t->exists && !t->recorded) {
		if (v[OPT_FILL].u != FILL_EXISTING)
			return 0;
		job_where(jf, job, OPT_FILL, where, sizeof(where));
		return err_set(err, "%s: fill=existing but %s does not exist (job '%s')", where,
			       t->filename, job->name);
	}
	if (!t->recorded) {
		v[OPT_FILL].u = FILL_EXISTING;
		return 0;
	}
	if (t->maker)
		snprintf(made, sizeof(made), "will be made by job '%s' with", t->maker);
	else
		snprintf(made, sizeof(made), "was made with");
	job_where(jf, job, OPT_FILL, where, sizeof(where));
	if (asked_fill && v[OPT_FILL].u != FILL_EXISTING && v[OPT_FILL].u != t->record.fill)
		return err_set(err, "%s: %s %s fill=%s, job '%s' asks for fill=%s (%s)", where,
			       t->filename, made, fills[t->record.fill], job->name,
			       fills[v[OPT_FILL].u], t->maker ? "give each its own filename"
				       : "remove the file to have it made again");
	job_where(jf, job, OPT_SEED, where, sizeof(where));
	if (asked_seed && t->record.fill != FILL_ZERO && v[OPT_SEED].u != t->record.seed)
		return err_set(err, "%s: %s %s seed=%llu, job '%s' asks for seed=%llu (%s)", where,
			       t->filename, made, (unsigned long long)t->record.seed, job->name,
			       (unsigned long long)v[OPT_SEED].u, t->maker ? "give each its own filename"
				       : "remove the file to have it made again");
	v[OPT_FILL].u = t->record.fill;
	if (!asked_seed)
		v[OPT_SEED].u = t->record.seed;
	return 0;
}

/* A file an iosweep write run has written (before this plan, or a run of it
 * before this one) holds the blocks written over what it was made with: a
 * run that reads it reports its content as unknown (fill=existing), and does
 * not sum it as text.  A write run reads nothing: it says how the file was
 * made, the same in every invocation. */
static int apply_written(const struct jobfile *jf, const struct target *t, struct run *r,
			 char *err)
{
	char where[300];

	if (!t->written || r->v[OPT_OP].u == OP_WRITE)
		return 0;
	job_where(jf, r->job, OPT_CONSUME, where, sizeof(where));
	if (r->v[OPT_CONSUME].u == CONSUME_INTS && t->writer)
		return err_set(err, "%s: consume=ints needs a file of text, and job '%s' writes "
				    "%s before job '%s' reads it (give one of them another "
				    "filename)", where, t->writer, t->filename, r->job->name);
	if (r->v[OPT_CONSUME].u == CONSUME_INTS)
		return err_set(err, "%s: consume=ints needs a file of text, and %s has been "
				    "written by iosweep since it was made: it holds the blocks "
				    "written (remove it to have it made again) (job '%s')", where,
			       t->filename, r->job->name);
	r->v[OPT_FILL].u = FILL_EXISTING;
	return 0;
}

void plan_run_memory(const struct run *r, int ranks, struct io_memory *m)
{
	const union optval *v = r->v;
	uint64_t threads = v[OPT_THREADS].u;
	/* the largest worker's share (sequential patterns: a contiguous run of
	 * units; random ones: the whole file), which mmap maps */
	uint64_t units = (r->reads + threads - 1) / threads, first;
	char why[ERR_MAX];
	struct pattern share;
	struct io_engine shape = { .size = v[OPT_SIZE].u, .bs = v[OPT_BS].u,
				   .iodepth = (unsigned)v[OPT_IODEPTH].u };
	struct io_run_shape run = {
		.threads = (unsigned)threads,
		.ranks = ranks,
		.series = series_on(v[OPT_INTERVAL].u, threads, ranks),
		.rated = v[OPT_RATE].u || v[OPT_RATE_IOPS].u ||
			 (v[OPT_READ_IOLOG].s && v[OPT_REPLAY_NO_STALL].u != FLAG_ON),
		.data = v[OPT_OP].u != OP_READ || v[OPT_VERIFY].u == VERIFY_AFTER,
		.data_kind = (enum data_kind)v[OPT_DATA].u,
		.verify = v[OPT_VERIFY].u == VERIFY_AFTER,
	};

	(void)plan_pattern(r, 0, units, &share, why); /* checked */
	shape.span = pattern_span(&share, &first);
	shape.span_off = first;
	if (v[OPT_READ_IOLOG].s) {
		shape.span = v[OPT_SIZE].u; /* a trace may go anywhere in its file */
		shape.span_off = 0;
	}
	memset(m, 0, sizeof(*m));
	ioloop_run_memory(engine_at(v[OPT_ENGINE].u), &shape, &run, m);
	/* a file set: a descriptor and an identity a file, and with sizes drawn
	 * file by file its layout (run.c) */
	if (v[OPT_NRFILES].u > 1) {
		struct bsmix sizes;

		m->part[IO_MEM_OTHER] += v[OPT_NRFILES].u * (sizeof(int) + sizeof(struct prepare_id));
		if (plan_set_sizes(v, &sizes))
			m->part[IO_MEM_OTHER] += v[OPT_NRFILES].u * (sizeof(uint64_t) + sizeof(uint32_t) +
								     sizeof(struct fileset_seg)) +
						 sizeof(uint64_t);
	}
	/* read_iolog: the reader's buffer, the issue lateness and, with a series,
	 * the trace's I/Os per interval (trace_rate; run.c) */
	if (v[OPT_READ_IOLOG].s) {
		uint64_t span = r->trace_ns * 100 / v[OPT_REPLAY_TIME_SCALE].u, n = 0;

		if (run.series && v[OPT_INTERVAL].u)
			for (uint64_t i = v[OPT_INTERVAL].u; !n || n > TRACE_RATE_MAX; i *= 2)
				n = span / i + 1;
		/* replay_threads: a reader and a lateness histogram per worker */
		uint64_t readers = v[OPT_REPLAY_THREADS].u == FLAG_ON ? threads : 1;

		m->part[IO_MEM_OTHER] += readers * (TRACE_BUF_BYTES + 1) + n * sizeof(uint64_t);
		m->part[IO_MEM_HISTS] += (readers + (readers > 1)) * hist_size();
	}
}

/* What the largest part of a run's memory is made of, and what lowers it. */
static void memory_why(const struct run *r, enum io_mem_part big, char *buf, size_t n)
{
	unsigned long long threads = r->v[OPT_THREADS].u;
	char bs[32];

	units_fmt_size(r->v[OPT_BS].u, bs, sizeof(bs));
	if (big == IO_MEM_BUFFERS)
		snprintf(buf, n, "threads %llu x iodepth %llu x bs %s): lower threads, iodepth "
				 "or bs", threads, (unsigned long long)r->v[OPT_IODEPTH].u, bs);
	else if (big == IO_MEM_SERIES)
		snprintf(buf, n, "a series per thread, threads %llu): lower threads, or set "
				 "interval = 0", threads);
	else
		snprintf(buf, n, "threads %llu): lower threads", threads);
}

static int check_memory(const struct plan *plan, const struct jobfile *jf, const struct run *r,
			char *err)
{
	struct io_memory m;
	enum io_mem_part big;
	char where[300], a[32], b[32], c[32], why[200];

	plan_run_memory(r, plan->where.ranks, &m);
	if (io_memory_total(&m) <= plan->mem_available)
		return 0;
	big = io_memory_largest(&m);
	memory_why(r, big, why, sizeof(why));
	job_where(jf, r->job, big == IO_MEM_SERIES ? OPT_INTERVAL : OPT_BS, where, sizeof(where));
	units_fmt_bytes((double)io_memory_total(&m), a, sizeof(a));
	units_fmt_bytes((double)m.part[big], b, sizeof(b));
	units_fmt_bytes((double)plan->mem_available, c, sizeof(c));
	return err_set(err, "%s: job '%s' needs %s of memory, more than the %s available (%s); "
			    "most of it, %s, for %s (%s", where, r->job->name, a, c,
		       plan->mem_what, b, io_mem_part_names[big], why);
}

static union optval default_value(enum opt_id id)
{
	union optval v = { .u = 0 };
	char err[ERR_MAX];

	if (option_table[id].def && option_table[id].type == T_TEXT)
		v.s = option_table[id].def; /* never freed: runs' strings are the job's */
	else if (option_table[id].def && option_table[id].type != T_PATH &&
		 option_table[id].type != T_JOB)
		option_parse_value(id, option_table[id].def, &v, err);
	return v;
}

/* What writes cannot be combined with. */
static int check_write_run(const struct jobfile *jf, const struct run *r, char *err)
{
	const struct job *job = r->job;
	const union optval *v = r->v;
	const struct engine_ops *e = engine_find(option_table[OPT_ENGINE].values[v[OPT_ENGINE].u]);
	const char *op = option_table[OPT_OP].values[v[OPT_OP].u];
	char where[300];

#define FAIL_AT(id, ...) \
	(job_where(jf, job, id, where, sizeof(where)), err_set(err, __VA_ARGS__))
	if (r->blockdev && v[OPT_ALLOC].u != ALLOC_OVERWRITE)
		return FAIL_AT(OPT_ALLOC, "%s: alloc=%s empties or preallocates a file, and %s is "
					  "a block device: use alloc=overwrite (job '%s')", where,
			       option_table[OPT_ALLOC].values[v[OPT_ALLOC].u], v[OPT_FILENAME].s,
			       job->name);
	if (v[OPT_CONSUME].u == CONSUME_INTS)
		return FAIL_AT(OPT_CONSUME, "%s: consume=ints parses text, and op=%s writes binary "
					    "data: use consume=checksum or none (job '%s')", where, op,
			       job->name);
	if (v[OPT_CACHE].u == CACHE_WARM && v[OPT_ALLOC].u != ALLOC_OVERWRITE)
		return FAIL_AT(OPT_CACHE, "%s: cache=warm reads the file in before each repeat, but "
					  "alloc=%s empties it first: use cache=keep or fadvise "
					  "(job '%s')", where,
			       option_table[OPT_ALLOC].values[v[OPT_ALLOC].u], job->name);
	if ((e->flags & ENGINE_MAPPED) &&
	    (v[OPT_SYNC].u == SYNC_DSYNC || v[OPT_SYNC].u == SYNC_OSYNC))
		return FAIL_AT(OPT_SYNC, "%s: sync=%s makes write(2) synchronous, and engine=%s "
					 "stores into memory: use sync=fsync or fdatasync (msync) "
					 "(job '%s')", where,
			       option_table[OPT_SYNC].values[v[OPT_SYNC].u], e->name, job->name);
	if (v[OPT_CACHE].u == CACHE_DIRECT &&
	    v[OPT_SIZE].u % cache_logical_block_size(v[OPT_FILENAME].s))
		return FAIL_AT(OPT_SIZE, "%s: cache=direct writes whole logical blocks (%u bytes), "
					 "and size=%llu is not a multiple: the last write would go "
					 "past the end (job '%s')", where,
			       cache_logical_block_size(v[OPT_FILENAME].s),
			       (unsigned long long)v[OPT_SIZE].u, job->name);
	if (v[OPT_SYNC_MODE].u == SYNC_MODE_INFLIGHT && !(e->flags & ENGINE_FLUSH_QUEUED))
		return FAIL_AT(OPT_SYNC_MODE, "%s: sync_mode=inflight queues the flush with the I/O "
					      "in flight, which engine=%s cannot: use engine=aio or "
					      "uring, or sync_mode=drain (job '%s')", where, e->name,
			       job->name);
	if ((e->flags & ENGINE_MAPPED) && v[OPT_ALLOC].u == ALLOC_ALLOCATE)
		return FAIL_AT(OPT_ALLOC, "%s: engine=%s cannot report a full disk (a store that "
					  "cannot allocate kills the process with SIGBUS): use "
					  "alloc=prealloc or overwrite (job '%s')", where, e->name,
			       job->name);
#undef FAIL_AT
	return 0;
}

/* FAIL_AT(id, fmt, ...): err names the job file's line of option id (in
 * where) and the message; -1.  For the check_* functions below, which have
 * jf, job, where and err. */
#define FAIL_AT(id, ...) \
	(job_where(jf, job, id, where, sizeof(where)), err_set(err, __VA_ARGS__))

/* consume=ints reads a text file of iosweep's (or one the job says is the
 * user's own) once, in order. */
static int check_consume(const struct jobfile *jf, const struct run *r, char *err)
{
	const struct job *job = r->job;
	const union optval *v = r->v;
	char where[300];

	if (v[OPT_CONSUME].u != CONSUME_INTS)
		return 0;
	if (v[OPT_PATTERN].u != PATTERN_SEQUENTIAL || v[OPT_SPACING].u != v[OPT_BS].u ||
	    v[OPT_THREADS].u != 1 || v[OPT_IODEPTH].u != 1)
		return FAIL_AT(OPT_CONSUME, "%s: consume=ints reads the file in order: it needs "
					    "pattern=sequential, spacing=bs, threads=1 and "
					    "iodepth=1 (job '%s')", where, job->name);
	/* the integers of a file are summed only when it holds text */
	if (v[OPT_FILL].u == FILL_EXISTING && !job->opt[OPT_FILL].n)
		return FAIL_AT(OPT_CONSUME, "%s: consume=ints on %s, which iosweep did not make: "
					    "its content is unknown (write fill = existing to sum "
					    "the integers of a file of your own) (job '%s')",
			       where, v[OPT_FILENAME].s, job->name);
	if (v[OPT_FILL].u != FILL_TEXT && v[OPT_FILL].u != FILL_EXISTING)
		return FAIL_AT(OPT_CONSUME, "%s: consume=ints needs a file of text: %s is "
					    "fill=%s (write fill = text) (job '%s')", where,
			       v[OPT_FILENAME].s, option_table[OPT_FILL].values[v[OPT_FILL].u],
			       job->name);
	if (v[OPT_TIME_BASED].u)
		return FAIL_AT(OPT_TIME_BASED, "%s: consume=ints sums the file once: not with "
					       "time_based (job '%s')", where, job->name);
	return 0;
}

/* What the cache policy needs of the engine, the hints, the block size and
 * the machine. */
static int check_cache(const struct jobfile *jf, const struct run *r, char *err)
{
	const struct job *job = r->job;
	const union optval *v = r->v;
	const struct engine_ops *e = engine_find(option_table[OPT_ENGINE].values[v[OPT_ENGINE].u]);
	char where[300], a[32], b[32];

	if (v[OPT_CACHE].u == CACHE_DROP && access("/proc/sys/vm/drop_caches", W_OK) != 0)
		return FAIL_AT(OPT_CACHE, "%s: cache=drop needs root to write "
					  "/proc/sys/vm/drop_caches (%s); use cache=fadvise to evict "
					  "just this file (job '%s')", where, strerror(errno),
			       job->name);
	if (v[OPT_CACHE].u == CACHE_DIRECT && !(e->flags & ENGINE_DIRECT))
		return FAIL_AT(OPT_CACHE, "%s: cache=direct cannot be used with engine=%s (job '%s')",
			       where, e->name, job->name);
	if (v[OPT_CACHE].u != CACHE_DIRECT && v[OPT_HIPRI].u != FLAG_OFF &&
	    (e->flags & ENGINE_HIPRI_DIRECT))
		return FAIL_AT(OPT_HIPRI, "%s: engine=%s hipri=1 polls for completions of O_DIRECT "
					  "reads only: use cache=direct, or hipri=0 (job '%s')",
			       where, e->name, job->name);
	if (v[OPT_CACHE].u == CACHE_DIRECT && v[OPT_HINT].u == HINT_WILLNEED)
		return FAIL_AT(OPT_HINT, "%s: hint=willneed reads the file into the page cache, which "
					 "cache=direct bypasses: it would warm the cache of an O_DIRECT "
					 "run; use hint=none (job '%s')", where, job->name);
	if (v[OPT_CACHE].u == CACHE_DIRECT) {
		unsigned lbs = cache_logical_block_size(v[OPT_FILENAME].s);

		units_fmt_size(v[OPT_BS].u, a, sizeof(a));
		units_fmt_size(v[OPT_SPACING].u, b, sizeof(b));
		if (v[OPT_BS].u % lbs || v[OPT_SPACING].u % lbs)
			return FAIL_AT(v[OPT_BS].u % lbs ? OPT_BS : OPT_SPACING,
				       "%s: cache=direct needs bs and spacing to be multiples of the "
				       "device's logical block size (%u): bs=%s spacing=%s (job '%s')",
				       where, lbs, a, b, job->name);
	}
	return 0;
}

/* Whether a run's units have a block-size mix (bssplit or bsrange). */
static bool has_mix(const union optval *v)
{
	return v[OPT_BSSPLIT].s || v[OPT_BSRANGE].s;
}

int plan_pattern(const struct run *r, uint64_t first, uint64_t end, struct pattern *p, char *err)
{
	const union optval *v = r->v;
	struct bsmix m;
	int dir = v[OPT_OP].u == OP_READ ? 0 : v[OPT_OP].u == OP_WRITE ? 1 : -1;
	uint64_t base = r->regions ? r->region_off : 0;

	if (v[OPT_OPENDIR].s || v[OPT_TREE].s) { /* unit k: the k-th file (or directory) */
		pattern_init(p, PATTERN_SEQUENTIAL, r->reads, 1, 1, 0, v[OPT_SEED].u, first, end);
		return 0;
	}
	/* a region per thread: units [k * n, (k + 1) * n) are region k's pattern,
	 * the threads' shares of the run's units being exactly those */
	if (r->regions > 1 && end > first) {
		uint64_t n = r->reads / r->regions, k = first / n;

		base += k * r->region_inc;
		first -= k * n;
		end = end - k * n < n ? end - k * n : n;
	}
	pattern_init(p, v[OPT_PATTERN].u, run_region_bytes(r), v[OPT_BS].u, v[OPT_SPACING].u,
		     v[OPT_COUNT].u, v[OPT_SEED].u, first, end);
	p->base = base;
	if (pattern_skew(p, v[OPT_RANDOM_DISTRIBUTION].s, err) < 0)
		return -1;
	pattern_percent(p, (unsigned)v[OPT_PERCENTAGE_RANDOM].u);
	if (!has_mix(v))
		return 0;
	if (bsmix_parse(&m, v[OPT_BSSPLIT].s, v[OPT_BSRANGE].s, v[OPT_BLOCKALIGN].u, v[OPT_SEED].u,
			err) < 0)
		return -1;
	return pattern_mix(p, &m, dir, (unsigned)v[OPT_RWMIXREAD].u, data_mix_key(v[OPT_SEED].u),
			   r->reads, err);
}

/*
 * bssplit, bsrange: what a mix goes with, and the run's figures.  bs becomes
 * the largest size (the buffers'); reads and bytes are counted by walking
 * the units once (pattern_mix).
 */
static int check_mix(const struct jobfile *jf, struct run *r, char *err)
{
	const struct job *job = r->job;
	union optval *v = r->v;
	char where[300], why[ERR_MAX];
	struct bsmix m;
	struct pattern p;
	int id = v[OPT_BSSPLIT].s ? OPT_BSSPLIT : OPT_BSRANGE;

	if (!has_mix(v)) {
		if (job->opt[OPT_BLOCKALIGN].n)
			return FAIL_AT(OPT_BLOCKALIGN, "%s: blockalign is for a mix of block sizes "
					"(bssplit or bsrange): remove it (job '%s')", where, job->name);
		return 0;
	}
	if (v[OPT_BSSPLIT].s && v[OPT_BSRANGE].s)
		return FAIL_AT(OPT_BSRANGE, "%s: bssplit and bsrange both give the block sizes: "
				"keep one (job '%s')", where, job->name);
	if (job->opt[OPT_BS].n)
		return FAIL_AT(OPT_BS, "%s: bs and %s both give the block sizes: remove bs (job '%s')",
			       where, option_table[id].name, job->name);
	if (job->opt[OPT_SPACING].n || v[OPT_PATTERN].u == PATTERN_REVERSE)
		return FAIL_AT(job->opt[OPT_SPACING].n ? OPT_SPACING : OPT_PATTERN,
			       "%s: a mix of block sizes (%s) reads one unit after the other or at "
			       "random: not with %s (job '%s')", where, option_table[id].name,
			       job->opt[OPT_SPACING].n ? "spacing" : "pattern = reverse", job->name);
	if (v[OPT_RATE].u)
		return FAIL_AT(OPT_RATE, "%s: rate is in bytes per second and %s mixes sizes: use "
				"rate_iops (job '%s')", where, option_table[id].name, job->name);
	if (v[OPT_CONSUME].u == CONSUME_INTS)
		return FAIL_AT(OPT_CONSUME, "%s: consume=ints reads a text file with one block size, "
				"not %s (job '%s')", where, option_table[id].name, job->name);
	if (bsmix_parse(&m, v[OPT_BSSPLIT].s, v[OPT_BSRANGE].s, v[OPT_BLOCKALIGN].u, v[OPT_SEED].u,
			why) < 0)
		return FAIL_AT(id, "%s: %s (job '%s')", where, why, job->name);
	if (m.min > v[OPT_SIZE].u)
		return FAIL_AT(id, "%s: %s: the smallest size is larger than the file (%llu bytes) "
				"(job '%s')", where, option_table[id].name,
			       (unsigned long long)v[OPT_SIZE].u, job->name);
	if (v[OPT_CACHE].u == CACHE_DIRECT) {
		unsigned lbs = cache_logical_block_size(v[OPT_FILENAME].s);
		bool whole = m.align % lbs == 0;

		for (unsigned d = 0; d < 2; d++) {
			whole &= m.dir[d].n || (m.dir[d].lo % lbs == 0 && m.dir[d].step % lbs == 0);
			for (unsigned i = 0; i < m.dir[d].n; i++)
				whole &= m.dir[d].size[i] % lbs == 0;
		}
		if (!whole)
			return FAIL_AT(id, "%s: cache=direct needs every size of %s and blockalign to be "
					"multiples of the device's logical block size (%u) (job '%s')",
				       where, option_table[id].name, lbs, job->name);
	}
	v[OPT_BS].u = m.max;
	v[OPT_SPACING].u = m.max;
	r->reads = 0;
	if (plan_pattern(r, 0, 0, &p, why) < 0)
		return FAIL_AT(id, "%s: %s: %s (job '%s')", where, option_table[id].name, why,
			       job->name);
	r->reads = p.total;
	p.end = p.total;
	pattern_mix_totals(&p, &r->reads, &r->bytes);
	r->write_bytes = 0; /* the caller sets it from bytes */
	return 0;
}

/* Whether random_distribution text is skewed (not uniform). */
static bool skewed_text(const char *d)
{
	return d && strcmp(d, "random") != 0;
}

/* Whether a run's random reads draw from a skewed distribution. */
static bool skewed(const union optval *v)
{
	return skewed_text(v[OPT_RANDOM_DISTRIBUTION].s);
}

/* Whether any of the job's patterns is random. */
static bool job_has_random(const struct job *job)
{
	const struct job_value *p = &job->opt[OPT_PATTERN];

	for (size_t k = 0; k < p->n; k++)
		if (pattern_is_random(p->v[k].u))
			return true;
	return false;
}

/* random_distribution: for random reads, and within the file. */
static int check_distribution(const struct jobfile *jf, const struct run *r, char *err)
{
	const struct job *job = r->job;
	const union optval *v = r->v;
	char where[300], why[ERR_MAX];
	struct pattern p;
	const struct job_value *d = &job->opt[OPT_RANDOM_DISTRIBUTION];

	for (size_t k = 0; k < d->n && !job_has_random(job); k++)
		if (skewed_text(d->v[k].s))
			return FAIL_AT(OPT_RANDOM_DISTRIBUTION, "%s: random_distribution=%s draws "
					"random offsets, and job '%s' reads in order (pattern = random "
					"or random-replace)", where, d->v[k].s, job->name);
	if (!skewed(v))
		return 0;
	pattern_init(&p, v[OPT_PATTERN].u, run_region_bytes(r), v[OPT_BS].u, v[OPT_SPACING].u,
		     v[OPT_COUNT].u, v[OPT_SEED].u, 0, 0);
	if (pattern_skew(&p, v[OPT_RANDOM_DISTRIBUTION].s, why) < 0)
		return FAIL_AT(OPT_RANDOM_DISTRIBUTION, "%s: random_distribution: %s (job '%s')",
			       where, why, job->name);
	return 0;
}

/* The intervals a watched series (ss, stop_at_cliff) holds: its startdelay's
 * (rounded up) and its runtime's; they must fit its slots, never coarsened. */
static uint64_t watched_intervals(const union optval *v)
{
	uint64_t iv = v[OPT_INTERVAL].u;

	return series_slots_before(v[OPT_STARTDELAY].u, iv) + v[OPT_RUNTIME].u / iv;
}

/* The shortest interval at which startdelay and runtime fit the slots. */
static uint64_t watched_interval(const union optval *v)
{
	return (v[OPT_STARTDELAY].u + v[OPT_RUNTIME].u + SERIES_SLOTS - 2) / (SERIES_SLOTS - 1);
}

/* Steady state (ss): judged on one worker's series at its boundaries, so
 * the series must be kept, never coarsened (fewer than SERIES_SLOTS
 * intervals in the runtime) and the window whole intervals. */
static int check_steady_window(const struct jobfile *jf, const struct run *r, char *err)
{
	const struct job *job = r->job;
	const union optval *v = r->v;
	uint64_t iv = v[OPT_INTERVAL].u, rt = v[OPT_RUNTIME].u, dur = v[OPT_SS_DUR].u;
	char where[300], a[32];

	option_format(OPT_INTERVAL, (union optval){ .u = iv }, a, sizeof(a));
	if (rt / 3 < iv)
		return FAIL_AT(OPT_SS, "%s: ss needs a runtime of three intervals (%s) or more "
				       "(job '%s')", where, a, job->name);
	if (watched_intervals(v) >= SERIES_SLOTS) {
		option_format(OPT_INTERVAL, (union optval){ .u = watched_interval(v) }, a, sizeof(a));
		return FAIL_AT(OPT_INTERVAL, "%s: ss judges the series at the interval asked, and "
					     "%s at most %d of them (interval = %s "
					     "or longer) (job '%s')", where,
			       v[OPT_STARTDELAY].u ? "startdelay and runtime hold" : "the runtime holds",
			       SERIES_SLOTS - 1,
			       a, job->name);
	}
	if (dur > rt || dur + v[OPT_SS_RAMP].u > rt)
		return FAIL_AT(OPT_SS_DUR, "%s: the window (ss_dur, after ss_ramp) is longer than "
					   "the runtime: it is never judged (job '%s')", where,
			       job->name);
	if (dur % iv || v[OPT_SS_RAMP].u % iv)
		return FAIL_AT(dur % iv ? OPT_SS_DUR : OPT_SS_RAMP, "%s: ss_dur and ss_ramp are whole "
				       "numbers of intervals (%s) (job '%s')", where, a, job->name);
	if (dur && dur / iv < 3)
		return FAIL_AT(OPT_SS_DUR, "%s: a window of fewer than three intervals (%s) has no "
					   "slope worth judging (ss_dur = 3 intervals or more) "
					   "(job '%s')", where, a, job->name);
	return 0;
}

static int check_steady(const struct jobfile *jf, const struct run *r, char *err)
{
	const struct job *job = r->job;
	const union optval *v = r->v;
	enum steady_metric m;
	struct steady_spec sp;
	char where[300];

	if (!v[OPT_SS].s) {
		for (enum opt_id id = OPT_SS_DUR; id <= OPT_SS_DIR; id++)
			if (v[id].u)
				return FAIL_AT(id, "%s: %s is for a steady state: set ss too "
						   "(e.g. ss = iops_slope:1%%) (job '%s')", where,
					       option_table[id].name, job->name);
		return 0;
	}
	if (steady_parse(v[OPT_SS].s, &m, &sp, err) < 0)
		return -1; /* checked when parsed */
	if (sp.rule == STEADY_SNIA && v[OPT_SS_DUR].u)
		return FAIL_AT(OPT_SS_DUR, "%s: SNIA's rule judges a window of %d intervals: leave "
					   "out ss_dur (job '%s')", where, STEADY_SNIA_WINDOW, job->name);
	if (sp.rule != STEADY_SNIA && !v[OPT_SS_DUR].u)
		return FAIL_AT(OPT_SS, "%s: ss needs a window: ss_dur (e.g. ss_dur = 60s) (job '%s')",
			       where, job->name);
	if (!v[OPT_TIME_BASED].u || !v[OPT_RUNTIME].u || !v[OPT_INTERVAL].u)
		return FAIL_AT(OPT_SS, "%s: ss stops a time_based repeat with a runtime and a series "
				       "(time_based = 1, runtime = 300s, interval not 0) (job '%s')",
			       where, job->name);
	if (v[OPT_THREADS].u > 1)
		return FAIL_AT(OPT_SS, "%s: ss judges one worker's series as it runs: threads = 1 "
				       "(a queue: iodepth) (job '%s')", where, job->name);
	if ((v[OPT_SS_DIR].u == SS_DIR_READ && v[OPT_OP].u == OP_WRITE) ||
	    (v[OPT_SS_DIR].u == SS_DIR_WRITE && v[OPT_OP].u == OP_READ))
		return FAIL_AT(OPT_SS_DIR, "%s: ss_dir = %s, but job '%s' does op = %s only",
			       where, option_table[OPT_SS_DIR].values[v[OPT_SS_DIR].u], job->name,
			       option_table[OPT_OP].values[v[OPT_OP].u]);
	return check_steady_window(jf, r, err);
}

/* stop_at_cliff: judged, as ss, on the one worker's series at its
 * boundaries, at the interval asked (never merged): a runtime of at most
 * SERIES_SLOTS - 1 intervals. */
static int check_cliff_stop(const struct jobfile *jf, const struct run *r, char *err)
{
	const struct job *job = r->job;
	const union optval *v = r->v;
	uint64_t iv = v[OPT_INTERVAL].u, rt = v[OPT_RUNTIME].u;
	char where[300], a[32];

	if (v[OPT_STOP_AT_CLIFF].u != FLAG_ON)
		return 0;
	if (!iv || !rt)
		return FAIL_AT(OPT_STOP_AT_CLIFF, "%s: stop_at_cliff judges the repeat's series at "
						  "its boundaries: it needs an interval and a runtime "
						  "(interval = 10s, runtime = 300s) (job '%s')", where,
			       job->name);
	if (v[OPT_THREADS].u > 1)
		return FAIL_AT(OPT_STOP_AT_CLIFF, "%s: stop_at_cliff judges one worker's series as "
						  "it runs: threads = 1 (a queue: iodepth) (job '%s')",
			       where, job->name);
	if (rt / iv < 2 * STEADY_CLIFF_MIN)
		return FAIL_AT(OPT_STOP_AT_CLIFF, "%s: a cliff needs %zu intervals on each side: the "
						  "runtime holds fewer than %zu (job '%s')", where,
			       STEADY_CLIFF_MIN, 2 * STEADY_CLIFF_MIN, job->name);
	if (watched_intervals(v) >= SERIES_SLOTS) {
		option_format(OPT_INTERVAL, (union optval){ .u = watched_interval(v) }, a, sizeof(a));
		return FAIL_AT(OPT_INTERVAL, "%s: stop_at_cliff judges the series at the interval "
					     "asked, and %s at most %d of them "
					     "(interval = %s or longer) (job '%s')", where,
			       v[OPT_STARTDELAY].u ? "startdelay and runtime hold" : "the runtime holds",
			       SERIES_SLOTS - 1,
			       a, job->name);
	}
	return 0;
}

/* ss and stop_at_cliff judge one worker's series as it runs, on one host:
 * several ranks keep no series (series_on), so either would be unjudged. */
static int check_watch_ranks(const struct plan *plan, const struct jobfile *jf,
			     const struct run *r, char *err)
{
	const struct job *job = r->job;
	char where[300];
	enum opt_id id = r->v[OPT_SS].s ? OPT_SS : OPT_STOP_AT_CLIFF;

	if (plan->where.ranks <= 1 || (!r->v[OPT_SS].s && r->v[OPT_STOP_AT_CLIFF].u != FLAG_ON))
		return 0;
	return FAIL_AT(id, "%s: %s judges one worker's series as it runs, and %d ranks keep "
			   "none: run it on one host (job '%s')", where, option_table[id].name,
		       plan->where.ranks, job->name);
}

/* offset, offset_increment: bytes, or N% of the file (of size bytes); *out
 * is 0 until a value is read (the analyzer cannot see that err_set returns
 * -1, and would read it after a failure). */
static int region_value(const char *text, uint64_t size, uint64_t *out, bool *pct, char *err)
{
	size_t n = strlen(text);
	uint64_t p;

	*out = 0;
	*pct = n > 1 && text[n - 1] == '%';
	if (!*pct)
		return units_parse_size(text, out, err);
	char num[32];

	if (n - 1 >= sizeof(num))
		return err_set(err, "'%s' is not a percent: N%% with N from 0 to 100", text);
	memcpy(num, text, n - 1);
	num[n - 1] = '\0';
	if (units_parse_uint(num, &p, err) < 0 || p > 100)
		return err_set(err, "'%s' is not a percent: N%% with N from 0 to 100", text);
	*out = (uint64_t)((unsigned __int128)size * p / 100);
	return 0;
}

/*
 * offset, offset_increment (fio's, numjobs being threads): the regions the
 * pattern runs over.  Thread k's region starts at offset + k *
 * offset_increment; all are equally long and the last ends at the end of
 * the file, so fio's size per job is iosweep's region and its file is
 * offset + (numjobs - 1) * offset_increment + size.  A percent offset is
 * rounded up to a multiple of bs, as fio aligns it.  Without
 * offset_increment the threads share the one region in shares, as they
 * share the file.
 */
static int plan_region(const struct jobfile *jf, struct run *r, bool trace, char *err)
{
	const struct job *job = r->job;
	const union optval *v = r->v;
	uint64_t size = run_set_bytes(r), off, inc, threads = v[OPT_THREADS].u, last;
	char where[300], why[ERR_MAX];
	bool pct;

	r->regions = 1;
	r->region_off = r->region_inc = 0;
	r->region_len = size;
	if (region_value(v[OPT_OFFSET].s, size, &off, &pct, why) < 0)
		return FAIL_AT(OPT_OFFSET, "%s: offset: %s (job '%s')", where, why, job->name);
	if (pct && v[OPT_BS].u)
		off = (off + v[OPT_BS].u - 1) / v[OPT_BS].u * v[OPT_BS].u;
	if (region_value(v[OPT_OFFSET_INCREMENT].s, size, &inc, &pct, why) < 0)
		return FAIL_AT(OPT_OFFSET_INCREMENT, "%s: offset_increment: %s (job '%s')", where,
			       why, job->name);
	if (!off && !inc)
		return 0;
	if (trace || v[OPT_NRFILES].u > 1)
		return FAIL_AT(off ? OPT_OFFSET : OPT_OFFSET_INCREMENT,
			       "%s: %s places a region in one file: not with %s (job '%s')", where,
			       off ? "offset" : "offset_increment",
			       trace ? "read_iolog" : "nrfiles > 1", job->name);
	if (inc && (v[OPT_BSSPLIT].s || v[OPT_BSRANGE].s))
		return FAIL_AT(OPT_OFFSET_INCREMENT, "%s: offset_increment gives each thread a region, "
				"and a mix of block sizes (%s) is counted over one: remove one "
				"(job '%s')", where, v[OPT_BSSPLIT].s ? "bssplit" : "bsrange",
			       job->name);
	if (off >= size)
		return FAIL_AT(OPT_OFFSET, "%s: offset %llu is beyond the file (%llu bytes): at most "
				"%llu (job '%s')", where, (unsigned long long)off,
			       (unsigned long long)size, (unsigned long long)(size ? size - 1 : 0),
			       job->name);
	threads = inc ? threads : 1;
	last = off + (threads - 1) * inc; /* inc < size: at most 1024 threads, no overflow */
	if (inc >= size || last >= size)
		return FAIL_AT(OPT_OFFSET_INCREMENT, "%s: %llu threads' regions from offset %llu every "
				"%llu bytes do not fit the file (%llu bytes): lower offset_increment "
				"or threads, or make the file larger (size) (job '%s')", where,
			       (unsigned long long)threads, (unsigned long long)off,
			       (unsigned long long)inc, (unsigned long long)size, job->name);
	r->regions = (unsigned)threads;
	r->region_off = off;
	r->region_inc = inc;
	r->region_len = size - last;
	if (r->region_len < v[OPT_BS].u)
		return FAIL_AT(last == off ? OPT_OFFSET : OPT_OFFSET_INCREMENT,
			       "%s: the region from %llu to the end of the file (%llu bytes) is "
			       "smaller than bs (%llu) (job '%s')", where, (unsigned long long)last,
			       (unsigned long long)r->region_len, (unsigned long long)v[OPT_BS].u,
			       job->name);
	return 0;
}

/* offset_increment: a region per thread; ranks sharing one file take shares
 * of the run's reads that need not fall on a region's bounds. */
static int check_region_ranks(const struct plan *plan, const struct jobfile *jf,
			      const struct run *r, char *err)
{
	const struct job *job = r->job;
	char where[300];

	if (plan->where.ranks <= 1 || r->regions <= 1 || r->per_rank)
		return 0;
	return FAIL_AT(OPT_OFFSET_INCREMENT, "%s: offset_increment gives each thread a region, and "
			   "%d ranks sharing one file would cut them: give each rank its file "
			   "({rank} in filename) (job '%s')", where, plan->where.ranks, job->name);
}

/* Contradictions within one combination; `where` names the option at fault. */
/* What a precondition pass keeps of its run: the file, how it is opened and
 * written, and how its series is taken; the rest takes its default. */
static bool precond_keeps(int id)
{
	switch (id) {
	case OPT_FILENAME: case OPT_SIZE: case OPT_FILL: case OPT_NRFILES: case OPT_FILESIZE:
	case OPT_DIRECTORY: case OPT_FILENAME_FORMAT: case OPT_SEED: case OPT_ENGINE:
	case OPT_IODEPTH: case OPT_FIXEDBUFS: case OPT_REGISTERFILES: case OPT_SQTHREAD_POLL:
	case OPT_HIPRI: case OPT_NOWAIT: case OPT_CACHE: case OPT_THREADS: case OPT_DATA:
	case OPT_COMPRESS: case OPT_ALLOW_WRITE: case OPT_ALLOW_OVERWRITE_SIGNATURE:
	case OPT_INTERVAL: case OPT_BASELINE: case OPT_DESCRIPTION:
		return true;
	default:
		return false;
	}
}

void plan_precond_run(const struct run *r, struct precond_pass p, struct run *d)
{
	union optval *v = d->v;
	uint64_t bs = p.kind == PRECOND_FILL ? PRECOND_FILL_BS : r->v[OPT_BS].u;
	enum pattern_kind kind = p.kind == PRECOND_FILL ? PATTERN_SEQUENTIAL : PATTERN_RANDOM;

	*d = *r;
	for (int i = 0; i < OPT__COUNT; i++)
		if (!precond_keeps(i))
			v[i] = default_value(i);
	/* the run reads the file as written (fill=existing): a pass makes it
	 * as the job asked, when it is missing */
	const struct job_value *fill = &r->job->opt[OPT_FILL];
	if (v[OPT_FILL].u == FILL_EXISTING && !(fill->n && fill->v[0].u == FILL_EXISTING))
		v[OPT_FILL] = fill->n ? fill->v[0] : default_value(OPT_FILL);
	v[OPT_OP].u = OP_WRITE;
	v[OPT_RWMIXREAD].u = 0;
	v[OPT_BS].u = v[OPT_SPACING].u = bs;
	v[OPT_PATTERN].u = kind;
	v[OPT_REPEAT].u = p.times;
	v[OPT_WARMUP].u = 0;
	d->reads = pattern_reads(kind, run_set_bytes(d), bs, bs, 0);
	d->bytes = d->write_bytes = pattern_bytes(kind, run_set_bytes(d), bs, bs, 0);
	d->precond_bytes = 0;
	d->trace_writes = d->trace_syncs = d->trace_ns = 0;
}

static int check_run(const struct jobfile *jf, const struct run *r, char *err);

/* precondition: on a run alone, of one file, each pass a run that can run. */
static int check_precondition(const struct jobfile *jf, const struct run *r, char *err)
{
	const struct job *job = r->job;
	struct precond_pass p[PRECOND_MAX];
	char where[300];
	size_t n;

	if (!r->v[OPT_PRECONDITION].s)
		return 0;
	if (precondition_parse(r->v[OPT_PRECONDITION].s, p, &n, err) < 0)
		return -1;
	if (job->opt[OPT_GROUP].n)
		return FAIL_AT(OPT_PRECONDITION, "%s: precondition runs before a run alone, not in "
						 "a group: give it to a job of its own before the "
						 "group (job '%s')", where, job->name);
	if (r->v[OPT_READ_IOLOG].s || r->v[OPT_NRFILES].u > 1)
		return FAIL_AT(OPT_PRECONDITION, "%s: precondition writes one file: not with %s "
						 "(job '%s')", where, r->v[OPT_READ_IOLOG].s ?
						 "read_iolog" : "a file set (nrfiles > 1)", job->name);
	for (size_t k = 0; k < n; k++) {
		struct run d;

		plan_precond_run(r, p[k], &d);
		if (d.reads < d.v[OPT_THREADS].u || d.reads == 0)
			return FAIL_AT(OPT_PRECONDITION, "%s: precondition %s writes blocks of %llu "
							 "bytes: the file (%llu bytes) has fewer than "
							 "threads=%llu of them (job '%s')", where,
				       precond_names[p[k].kind], (unsigned long long)d.v[OPT_BS].u,
				       (unsigned long long)d.v[OPT_SIZE].u,
				       (unsigned long long)d.v[OPT_THREADS].u, job->name);
		if (check_run(jf, &d, err) < 0)
			return -1;
	}
	return 0;
}

/* Bytes written by run r's precondition (0 without). */
static uint64_t precond_bytes(const struct run *r)
{
	struct precond_pass p[PRECOND_MAX];
	char err[ERR_MAX];
	uint64_t all = 0;
	size_t n;

	if (!r->v[OPT_PRECONDITION].s || precondition_parse(r->v[OPT_PRECONDITION].s, p, &n, err))
		return 0;
	for (size_t k = 0; k < n; k++) {
		struct run d;

		plan_precond_run(r, p[k], &d);
		all += d.bytes * p[k].times;
	}
	return all;
}

static int check_run(const struct jobfile *jf, const struct run *r, char *err)
{
	const struct job *job = r->job;
	const union optval *v = r->v;
	char where[300], a[32], b[32];
	bool random = pattern_is_random(v[OPT_PATTERN].u);

	units_fmt_size(v[OPT_BS].u, a, sizeof(a));
	units_fmt_size(v[OPT_SPACING].u, b, sizeof(b));
	if (!random && v[OPT_SPACING].u < v[OPT_BS].u)
		return FAIL_AT(OPT_SPACING, "%s: spacing %s is smaller than bs %s in job '%s'",
			       where, b, a, job->name);
	if (v[OPT_BS].u > v[OPT_SIZE].u && (random || v[OPT_SPACING].u != v[OPT_BS].u))
		return FAIL_AT(OPT_BS, "%s: bs %s is larger than the file (%llu bytes) in job '%s'",
			       where, a, (unsigned long long)v[OPT_SIZE].u, job->name);
	if (check_consume(jf, r, err) < 0 || check_cache(jf, r, err) < 0 ||
	    check_distribution(jf, r, err) < 0)
		return -1;
	if (v[OPT_OP].u != OP_READ && check_write_run(jf, r, err) < 0)
		return -1;
	if (random && v[OPT_COUNT].u > INT64_MAX / v[OPT_BS].u)
		return FAIL_AT(OPT_COUNT, "%s: count=%llu reads of bs %s are more than 2^63 bytes "
					  "(job '%s')", where, (unsigned long long)v[OPT_COUNT].u, a,
			       job->name);
	if (v[OPT_THINKTIME_SPIN].u > v[OPT_THINKTIME].u)
		return FAIL_AT(OPT_THINKTIME_SPIN, "%s: thinktime_spin is part of each thinktime "
					  "pause: at most thinktime (job '%s')", where, job->name);
	if (v[OPT_TIME_BASED].u && !v[OPT_RUNTIME].u)
		return FAIL_AT(OPT_TIME_BASED, "%s: time_based needs a runtime (runtime = 10s) "
					       "(job '%s')", where, job->name);
	if (v[OPT_RAMP].u && !v[OPT_TIME_BASED].u)
		return FAIL_AT(OPT_RAMP, "%s: ramp is for time_based runs; use warmup to discard "
					 "whole repeats (job '%s')", where, job->name);
	if (v[OPT_OP].u == OP_TRIM && v[OPT_VERIFY].u == VERIFY_AFTER)
		return FAIL_AT(OPT_VERIFY, "%s: op = trim writes no data for verify=after to check "
					   "(what a trimmed block reads is the device's choice): "
					   "leave out verify, or use op = trimwrite (job '%s')",
			       where, job->name);
	if (v[OPT_TIME_BASED].u && v[OPT_OP].u != OP_READ && v[OPT_VERIFY].u == VERIFY_AFTER)
		return FAIL_AT(OPT_TIME_BASED, "%s: a time_based repeat may stop before it has "
					       "written every block, which verify=after checks: not "
					       "both (job '%s')", where, job->name);
	if (check_steady(jf, r, err) < 0 || check_cliff_stop(jf, r, err) < 0 ||
	    check_precondition(jf, r, err) < 0)
		return -1;
	if (v[OPT_THREADS].u > r->reads)
		return FAIL_AT(OPT_THREADS, "%s: threads=%llu but job '%s' does only %llu "
					    "read%s", where, (unsigned long long)v[OPT_THREADS].u,
			       job->name, (unsigned long long)r->reads, r->reads == 1 ? "" : "s");
	return 0;
}
#undef FAIL_AT

/* Options about writing that do not apply to this combination do not
 * multiply it (false: a duplicate) and are set to what the run does:
 * rwmixread 100 for reads, 0 for writes. */
static bool write_options_apply(struct run *r, const size_t *idx)
{
	union optval *v = r->v;
	bool writes = v[OPT_OP].u != OP_READ;
	bool flushes = v[OPT_SYNC].u == SYNC_FSYNC || v[OPT_SYNC].u == SYNC_FDATASYNC;

	if ((!writes && (idx[OPT_SYNC] || idx[OPT_DATA] || idx[OPT_ALLOC])) ||
	    (v[OPT_OP].u != OP_READWRITE && idx[OPT_RWMIXREAD]) ||
	    ((!writes || !flushes) && (idx[OPT_SYNC_EVERY] || idx[OPT_SYNC_MODE])) ||
	    ((!writes || v[OPT_DATA].u == DATA_ZERO) && idx[OPT_COMPRESS]))
		return false;
	if (v[OPT_OP].u != OP_READWRITE)
		v[OPT_RWMIXREAD].u = writes ? 0 : 100;
	if (!writes) {
		v[OPT_SYNC].u = SYNC_NONE;
		v[OPT_DATA].u = DATA_RANDOM;
		v[OPT_ALLOC].u = ALLOC_OVERWRITE;
	}
	if (!writes || !flushes) {
		v[OPT_SYNC_EVERY].u = 1;
		v[OPT_SYNC_MODE].u = SYNC_MODE_DRAIN;
	}
	if (!writes || v[OPT_DATA].u == DATA_ZERO)
		v[OPT_COMPRESS].u = 0;
	return true;
}

/* A tree's phase with fewer items than threads (the mkdir of one shared
 * directory) runs one thread an item; false: an earlier threads value of the
 * job ran it so already. */
static bool tree_threads_apply(const struct job *job, struct run *r, const size_t *idx)
{
	uint64_t items = mdtree_items(r->md_dirs, r->md_files, run_md_op(r));

	if (r->v[OPT_THREADS].u <= items)
		return true;
	for (size_t k = 0; k < idx[OPT_THREADS]; k++)
		if (job->opt[OPT_THREADS].v[k].u >= items)
			return false;
	r->v[OPT_THREADS].u = items;
	return true;
}

struct dims {
	enum opt_id id[OPT__COUNT];
	size_t n;
	uint64_t combos;
};

/* The job's list options with more than one value, in declaration order. */
static void list_dims(const struct job *job, struct dims *d)
{
	d->n = 0;
	d->combos = 1;
	for (int i = 0; i < OPT__COUNT; i++) {
		if (job->opt[i].n < 2)
			continue;
		size_t k = d->n++;
		while (k > 0 && job->opt[d->id[k - 1]].order > job->opt[i].order) {
			d->id[k] = d->id[k - 1];
			k--;
		}
		d->id[k] = i;
		d->combos = d->combos > PLAN_MAX_RUNS ? d->combos : d->combos * job->opt[i].n;
	}
}

static int add_run(struct plan *plan, const struct run *r, char *err)
{
	struct run *runs;

	if (plan->n == plan->cap) {
		plan->cap = plan->cap ? 2 * plan->cap : 16;
		runs = realloc(plan->runs, plan->cap * sizeof(*runs));
		if (!runs)
			return err_set(err, "out of memory");
		plan->runs = runs;
	}
	plan->runs[plan->n] = *r;
	plan->runs[plan->n].index = plan->n;
	plan->runs[plan->n].v[OPT_FILENAME].s = strdup(r->v[OPT_FILENAME].s);
	if (!plan->runs[plan->n].v[OPT_FILENAME].s)
		return err_set(err, "out of memory");
	plan->n++;
	return 0;
}

/* Adds the run's reads and bytes over its repeats to the plan's totals,
 * which must stay exact: they are printed. */
static int add_total(struct plan *plan, const struct jobfile *jf, const struct run *r,
		     char *err)
{
	uint64_t reads, bytes, repeat = plan_repeats(r);
	char where[300];

	plan->writes |= r->write_bytes > 0 || r->precond_bytes > 0;
	if (!__builtin_add_overflow(plan->total_write_bytes, r->precond_bytes,
				    &plan->total_write_bytes) &&
	    !__builtin_mul_overflow(r->reads, repeat, &reads) &&
	    !__builtin_mul_overflow(r->bytes, repeat, &bytes) &&
	    !__builtin_add_overflow(plan->total_reads, reads, &plan->total_reads) &&
	    !__builtin_add_overflow(plan->total_bytes, bytes, &plan->total_bytes) &&
	    !__builtin_add_overflow(plan->total_write_bytes, r->write_bytes * repeat,
				    &plan->total_write_bytes))
		return 0;
	job_where(jf, r->job, OPT_REPEAT, where, sizeof(where));
	return err_set(err, "%s: the plan reads more than 2^64 bytes in all (job '%s')", where,
		       r->job->name);
}


/* Why run r, a combination of job's lists, cannot run (a cache policy or
 * flag engine e cannot do), in what[n]; false when it can, or when no list
 * made the combination (then check_run refuses it: the job asked for it). */
static bool cannot_run_together(const struct job *job, const struct run *r,
				const struct engine_ops *e, char *what, size_t n)
{
	const union optval *v = r->v;

	if (job->opt[OPT_ENGINE].n < 2 && job->opt[OPT_CACHE].n < 2 && job->opt[OPT_HIPRI].n < 2)
		return false;
	if (v[OPT_CACHE].u == CACHE_DIRECT && !(e->flags & ENGINE_DIRECT))
		snprintf(what, n, "engine=%s with cache=direct", e->name);
	else if (v[OPT_CACHE].u != CACHE_DIRECT && v[OPT_HIPRI].u != FLAG_OFF &&
		 (e->flags & ENGINE_HIPRI_DIRECT))
		snprintf(what, n, "engine=%s hipri=1 without cache=direct", e->name);
	else
		return false;
	return true;
}

/* Counts run r as skipped for what; -1 when out of memory. */
static int add_skip(struct plan *plan, const struct run *r, const char *what, char *err)
{
	struct plan_skip *s;

	for (size_t i = 0; i < plan->nskips; i++)
		if (plan->skips[i].job == r->job && strcmp(plan->skips[i].what, what) == 0) {
			plan->skips[i].n++;
			return 0;
		}
	s = realloc(plan->skips, (plan->nskips + 1) * sizeof(*s));
	if (!s)
		return err_set(err, "out of memory");
	plan->skips = s;
	s += plan->nskips++;
	s->job = r->job;
	snprintf(s->what, sizeof(s->what), "%s", what);
	s->n = 1;
	return 0;
}

/* A combination with a second value of an option engine e does not take
 * repeats the first one: skipped. */
static bool engine_options_skip(const struct engine_ops *e, const size_t *idx)
{
	for (int i = 0; i < OPT__COUNT; i++)
		if (idx[i] && !option_engine_takes(e, i))
			return true;
	return false;
}

/* read_iolog: what the trace says of the run, over what the job would. */
static void trace_run(struct run *r, const struct trace_scan *ts)
{
	/* a trim changes the file as a write does: it needs the same consent */
	r->v[OPT_OP].u = ts->n[TRACE_WRITE] || ts->n[TRACE_TRIM] ? OP_READWRITE : OP_READ;
	r->v[OPT_BS].u = io_round_up(ts->max_len, 4095);
	r->v[OPT_PATTERN].u = PATTERN_SEQUENTIAL;
	/* what it means elsewhere: the percent of the units that read */
	r->v[OPT_RWMIXREAD].u = ts->n[TRACE_READ] * 100 / (ts->n[TRACE_READ] + ts->n[TRACE_WRITE]);
	/* replay_threads: a worker for each of the trace's threads */
	if (r->v[OPT_REPLAY_THREADS].u == FLAG_ON)
		r->v[OPT_THREADS].u = ts->nthreads;
}

/* read_iolog with replay_threads = 1: the trace names its threads, at most
 * TRACE_THREADS_MAX of them; the job leaves threads to the trace, and each
 * worker replays its thread's calls one at a time, as they were made. */
static int trace_threads_job(const struct jobfile *jf, const struct job *job,
			     const struct trace_scan *ts, char *err)
{
	const struct job_value *depth = &job->opt[OPT_IODEPTH];
	char where[300];

	if (job->opt[OPT_THREADS].n) {
		job_where(jf, job, OPT_THREADS, where, sizeof(where));
		return err_set(err, "%s: threads does not go with replay_threads = 1: the run has "
				    "a thread for each of the trace's (%zu here); leave threads out "
				    "(job '%s')", where, ts->nthreads, job->name);
	}
	for (size_t k = 0; k < depth->n; k++)
		if (depth->v[k].u != 1) {
			job_where(jf, job, OPT_IODEPTH, where, sizeof(where));
			return err_set(err, "%s: iodepth = %llu does not go with replay_threads = 1: a "
					    "recorded thread made its calls one at a time, and each "
					    "worker replays them so; leave iodepth out (job '%s')",
				       where, (unsigned long long)depth->v[k].u, job->name);
		}
	job_where(jf, job, OPT_REPLAY_THREADS, where, sizeof(where));
	if (!ts->nthreads)
		return err_set(err, "%s: replay_threads = 1, but %s does not say which thread did "
				    "each I/O (fio's iologs do not): record it with iosweep record, "
				    "or give blkparse or blk tracer text (job '%s')", where,
			       job->opt[OPT_READ_IOLOG].v[0].s, job->name);
	if (ts->threads_over_line)
		return err_set(err, "%s:%llu: a thread beyond the trace's first %d: replay_threads "
				    "replays at most %d, a worker each (give replay_threads = 0 to "
				    "replay it from one thread) (job '%s', %s)",
			       job->opt[OPT_READ_IOLOG].v[0].s,
			       (unsigned long long)ts->threads_over_line, TRACE_THREADS_MAX,
			       TRACE_THREADS_MAX, job->name, where);
	return 0;
}

/* read_iolog: reads and checks the trace, and what the job says besides
 * that cannot go with it.  The trace's files are laid end to end in the
 * job's file; a size smaller than they need is refused (without a size
 * the file is made as large as they need). */
static int trace_job(const struct jobfile *jf, const struct job *job, int ranks,
		     struct trace_scan *ts, char *err)
{
	static const enum opt_id not_with[] = { OPT_OP, OPT_RATE, OPT_RATE_IOPS, OPT_TIME_BASED,
						OPT_VERIFY, OPT_BSSPLIT, OPT_BSRANGE, OPT_THINKTIME,
						OPT_NRFILES, OPT_RANDOM_DISTRIBUTION };
	const struct job_value *threads = &job->opt[OPT_THREADS], *size = &job->opt[OPT_SIZE];
	char where[300], a[32], b[32];

	const char *path = job->opt[OPT_READ_IOLOG].v[0].s;

	if (access(path, R_OK) < 0) {
		job_where(jf, job, OPT_READ_IOLOG, where, sizeof(where));
		return err_set(err, "%s: read_iolog: %s: %s (job '%s')", where, path, strerror(errno),
			       job->name);
	}
	if (trace_scan(path, ts, err) < 0)
		return -1;
	for (size_t k = 0; k < sizeof(not_with) / sizeof(not_with[0]); k++)
		if (job->opt[not_with[k]].n) {
			job_where(jf, job, not_with[k], where, sizeof(where));
			return err_set(err, "%s: %s does not go with read_iolog: the trace says what "
					    "is read and written, and when (job '%s')", where,
				       option_table[not_with[k]].name, job->name);
		}
	if (job->opt[OPT_REPLAY_THREADS].n && job->opt[OPT_REPLAY_THREADS].v[0].u == FLAG_ON) {
		if (trace_threads_job(jf, job, ts, err) < 0)
			return -1;
	} else {
		for (size_t k = 0; k < threads->n; k++)
			if (threads->v[k].u != 1) {
				job_where(jf, job, OPT_THREADS, where, sizeof(where));
				return err_set(err, "%s: read_iolog replays a trace in order, in one "
						    "thread: threads = 1 (or replay_threads = 1, a "
						    "worker for each of the trace's threads) (job '%s')",
					       where, job->name);
			}
	}
	job_where(jf, job, OPT_READ_IOLOG, where, sizeof(where));
	if (ranks > 1)
		return err_set(err, "%s: read_iolog replays a trace in one process: run it on one "
				    "rank, not %d (job '%s')", where, ranks, job->name);
	if (size->n && size->v[0].u < ts->size) {
		units_fmt_size(size->v[0].u, a, sizeof(a));
		units_fmt_size(ts->size, b, sizeof(b));
		job_where(jf, job, OPT_SIZE, where, sizeof(where));
		return err_set(err, "%s: the trace's offsets reach beyond size=%s: its files need "
				    "%s end to end (%llu bytes); leave size out to have the file made "
				    "as large, or give at least that (job '%s')", where, a, b,
			       (unsigned long long)ts->size, job->name);
	}
	return 0;
}

/* Whether option id is one of ok (n of them), or one of the job's own
 * words (description, baseline, ...), which every job takes. */
static bool takes(const enum opt_id *ok, size_t n, enum opt_id id)
{
	if (option_table[id].per_job)
		return true;
	for (size_t k = 0; k < n; k++)
		if (ok[k] == id)
			return true;
	return false;
}

/* opendir: what a tree's run takes besides the job's own words; anything
 * else would read or write something other than its files, read whole. */
static bool tree_takes(enum opt_id id)
{
	static const enum opt_id ok[] = {
		OPT_OPENDIR, OPT_FILE_SERVICE_TYPE, OPT_BS, OPT_SEED, OPT_ENGINE, OPT_HIPRI,
		OPT_NOWAIT, OPT_CACHE, OPT_THREADS, OPT_CONSUME, OPT_OP, OPT_REPEAT,
		OPT_WARMUP, OPT_RUNTIME, OPT_TIME_BASED, OPT_RAMP, OPT_STARTDELAY, OPT_THINKTIME,
		OPT_THINKTIME_BLOCKS, OPT_THINKTIME_SPIN, OPT_RATE_IOPS, OPT_INTERVAL, OPT_SS,
		OPT_SS_DUR, OPT_SS_RAMP, OPT_SS_DIR, OPT_STOP_AT_CLIFF,
	};

	return takes(ok, sizeof(ok) / sizeof(ok[0]), id);
}

/* opendir: the job's words checked, and the tree scanned (io/dirscan.h) as
 * its target: the root, the bytes of its regular files and how many. */
static int tree_target(const struct plan *plan, const struct job *job, struct target *t,
		       char *err)
{
	const struct jobfile *jf = plan->jf;
	const struct job_value *op = &job->opt[OPT_OP], *eng = &job->opt[OPT_ENGINE],
			       *fst = &job->opt[OPT_FILE_SERVICE_TYPE];
	const char *root = job->opt[OPT_OPENDIR].v[0].s;
	struct dirscan ds;
	char where[300], why[ERR_MAX];

	for (int i = 0; i < OPT__COUNT; i++)
		if (job->opt[i].n && !tree_takes((enum opt_id)i)) {
			job_where(jf, job, (enum opt_id)i, where, sizeof(where));
			return err_set(err, "%s: %s does not go with opendir, which reads every file "
					    "under %s whole, one after the other, and never writes "
					    "there (job '%s')", where, option_table[i].name, root,
				       job->name);
		}
	for (size_t k = 0; k < op->n; k++)
		if (op->v[k].u != OP_READ) {
			job_where(jf, job, OPT_OP, where, sizeof(where));
			return err_set(err, "%s: opendir only reads: a user's tree is never "
					    "written; use op = read (job '%s')", where, job->name);
		}
	for (size_t k = 0; k < eng->n; k++) {
		const struct engine_ops *e = engine_at(eng->v[k].u);

		if (e->commit || (e->flags & ENGINE_MAPPED)) {
			job_where(jf, job, OPT_ENGINE, where, sizeof(where));
			return err_set(err, "%s: opendir reads each file with engine = sync or "
					    "psync2: %s over many files (a queue or a mapping per "
					    "file) is not built (job '%s')", where, e->name,
				       job->name);
		}
	}
	for (size_t k = 0; k < fst->n; k++)
		if (fst->v[k].u == FILESET_ROUNDROBIN) {
			job_where(jf, job, OPT_FILE_SERVICE_TYPE, where, sizeof(where));
			return err_set(err, "%s: opendir reads each file whole, one after the "
					    "other: file_service_type = sequential (sorted), random "
					    "(one seeded order) or shuffle (a new order every "
					    "repeat), not roundrobin (job '%s')", where, job->name);
		}
	if (dirscan_scan(root, &ds, NULL, why) < 0) {
		job_where(jf, job, OPT_OPENDIR, where, sizeof(where));
		return err_set(err, "%s: opendir: %s (job '%s')", where, why, job->name);
	}
	t->tree_files = ds.nfiles;
	t->size = ds.bytes;
	dirscan_free(&ds);
	if (!t->tree_files) {
		job_where(jf, job, OPT_OPENDIR, where, sizeof(where));
		return err_set(err, "%s: opendir: no regular file under %s to read (job '%s')",
			       where, root, job->name);
	}
	t->filename = strdup(root);
	if (!t->filename)
		return err_set(err, "out of memory");
	t->exists = true;
	t->evictable = cache_evict_obstacle(root, why, sizeof(why)) != CACHE_CANNOT_EVICT;
	t->seen = true; /* not a file later jobs may name */
	return 0;
}

/* A job without a tree: its op moves data (the phases need a tree), and
 * no rank's share of a tree is shifted. */
static int check_data_op(const struct jobfile *jf, const struct job *job, char *err)
{
	const struct job_value *op = &job->opt[OPT_OP];
	char where[300];

	if (job->opt[OPT_SHIFT].n) {
		job_where(jf, job, OPT_SHIFT, where, sizeof(where));
		return err_set(err, "%s: shift moves each rank to another rank's share of a tree "
				    "iosweep makes: give the job tree = DxF, or leave shift out (job "
				    "'%s')", where, job->name);
	}

	for (size_t k = 0; k < op->n; k++)
		if (op->v[k].u >= OP_MKDIR) {
			job_where(jf, job, OPT_OP, where, sizeof(where));
			return err_set(err, "%s: op = %s is a phase of a tree iosweep makes: give "
					    "the job tree = DxF (D directories of F files) (job '%s')",
				       where, option_table[OPT_OP].values[op->v[k].u], job->name);
		}
	return 0;
}

/* tree: what a metadata job takes besides the job's own words. */
static bool mdtree_takes(enum opt_id id)
{
	static const enum opt_id ok[] = {
		OPT_TREE, OPT_DIRECTORY, OPT_FILESIZE, OPT_BS, OPT_SEED, OPT_ENGINE, OPT_CACHE,
		OPT_THREADS, OPT_CONSUME, OPT_OP, OPT_DATA, OPT_REPEAT, OPT_WARMUP, OPT_INTERVAL,
		OPT_SHIFT,
	};

	return takes(ok, sizeof(ok) / sizeof(ok[0]), id);
}

/* The most items a tree may have: a phase's units are counted in 64 bits,
 * but a billion files is beyond any file system a run would finish on. */
#define MDTREE_MAX_FILES 1000000000ULL

/* "DxF" as D directories of F files; -1 when it is not that. */
static int tree_shape(const char *text, uint32_t *dirs, uint32_t *files)
{
	char *end;
	unsigned long long d, f;

	errno = 0;
	d = strtoull(text, &end, 10);
	if (end == text || (*end != 'x' && *end != 'X') || errno || !d || d > UINT32_MAX)
		return -1;
	text = end + 1;
	f = strtoull(text, &end, 10);
	if (end == text || *end || errno || !f || f > UINT32_MAX || d * f > MDTREE_MAX_FILES)
		return -1;
	*dirs = (uint32_t)d;
	*files = (uint32_t)f;
	return 0;
}

/* tree: the job's words checked; *most: the inodes its largest tree takes */
static int mdtree_words(const struct plan *plan, const struct job *job, uint64_t *most,
			char *err)
{
	const struct jobfile *jf = plan->jf;
	const struct job_value *op = &job->opt[OPT_OP], *eng = &job->opt[OPT_ENGINE],
			       *cache = &job->opt[OPT_CACHE], *tree = &job->opt[OPT_TREE];
	char where[300];

	*most = 0;
	for (int i = 0; i < OPT__COUNT; i++)
		if (job->opt[i].n && !mdtree_takes((enum opt_id)i)) {
			job_where(jf, job, (enum opt_id)i, where, sizeof(where));
			return err_set(err, "%s: %s does not go with tree, whose phases (op) make, "
					    "look at and remove a tree of directories and files "
					    "(job '%s')", where, option_table[i].name, job->name);
		}
	job_where(jf, job, OPT_TREE, where, sizeof(where));
	if (strchr(job->name, '/') || !strcmp(job->name, ".") || !strcmp(job->name, ".."))
		return err_set(err, "%s: the tree is made in directory as JOB%s, and job '%s' "
				    "is not a file name: rename the job", where, MDTREE_SUFFIX,
			       job->name);
	if (job->opt[OPT_OPENDIR].n || job->opt[OPT_NRFILES].n)
		return err_set(err, "%s: tree is a job of its own: not with opendir or nrfiles "
				    "(job '%s')", where, job->name);
	for (size_t k = 0; k < tree->n; k++) {
		uint32_t d, f;

		if (tree_shape(tree->v[k].s, &d, &f) < 0)
			return err_set(err, "%s: tree = %.60s: not DxF, D directories of F files "
					    "each, both at least 1 and at most %llu files in all "
					    "(tree = 16x1000) (job '%s')", where, tree->v[k].s,
				       MDTREE_MAX_FILES, job->name);
		*most = (uint64_t)d * f + d > *most ? (uint64_t)d * f + d : *most;
	}
	for (size_t k = 0; k < op->n; k++)
		if (op->v[k].u != OP_READ && op->v[k].u < OP_MKDIR) {
			job_where(jf, job, OPT_OP, where, sizeof(where));
			return err_set(err, "%s: op = %s on a tree: its phases are mkdir, create (it "
					    "writes filesize bytes to each file), fsync, fsyncdir, "
					    "syncfs, stat, statdir, read, readdir, rename, unlink, "
					    "rmdir (job "
					    "'%s')", where,
				       option_table[OPT_OP].values[op->v[k].u], job->name);
		}
	for (size_t k = 0; k < op->n; k++)
		for (size_t c = 0; op->v[k].u >= OP_MKDIR && c < cache->n; c++)
			if (md_op_syncs((enum md_op)(op->v[k].u - OP_MKDIR)) &&
			    cache->v[c].u != CACHE_KEEP) {
				job_where(jf, job, OPT_CACHE, where, sizeof(where));
				return err_set(err, "%s: cache = %s with op = %s: it writes the "
						    "files back before the phase, which would have "
						    "nothing left to flush; use cache = keep (job "
						    "'%s')", where, cache_policy_names[cache->v[c].u],
					       option_table[OPT_OP].values[op->v[k].u], job->name);
			}
	for (size_t k = 0; k < op->n && plan->where.ranks > 1; k++)
		if (op->v[k].u == OP_SYNCFS) {
			job_where(jf, job, OPT_OP, where, sizeof(where));
			return err_set(err, "%s: op = syncfs under MPI: its one call flushes one "
					    "host's file system, not the ranks'; use fsync or fsyncdir, "
					    "which every rank makes on its own items (job '%s')",
				       where, job->name);
		}
	for (size_t k = 0; k < eng->n; k++)
		if (strcmp(engine_at(eng->v[k].u)->name, "sync") != 0) {
			job_where(jf, job, OPT_ENGINE, where, sizeof(where));
			return err_set(err, "%s: a tree's phases are system calls iosweep makes one "
					    "at a time: engine = sync, not %s (job '%s')", where,
				       engine_at(eng->v[k].u)->name, job->name);
		}
	for (size_t k = 0; k < cache->n; k++)
		if (cache->v[k].u != CACHE_KEEP && cache->v[k].u != CACHE_DROP &&
		    cache->v[k].u != CACHE_FADVISE) {
			job_where(jf, job, OPT_CACHE, where, sizeof(where));
			return err_set(err, "%s: cache = %s on a tree: keep (the default), drop "
					    "(page cache, dentries and inodes, as root) or fadvise "
					    "(each file's pages) (job '%s')", where,
				       cache_policy_names[cache->v[k].u], job->name);
		}
	return 0;
}

bool plan_filesizes(const char *text, uint64_t seed, struct bsmix *m, uint64_t *fixed)
{
	char why[ERR_MAX];

	return bsmix_filesizes(m, text, seed, fixed, why) == 1; /* checked when read */
}

bool plan_set_sizes(const union optval *v, struct bsmix *m)
{
	uint64_t fixed;

	return v[OPT_NRFILES].u > 1 && plan_filesizes(v[OPT_FILESIZE].s, v[OPT_SEED].u, m, &fixed);
}

/* tree: the bytes run r's files hold, each filesize or drawn from the
 * run's seed. */
static uint64_t tree_bytes(const struct run *r)
{
	uint64_t n = (uint64_t)r->md_dirs * r->md_files, fixed, sum = 0;
	struct bsmix m;

	if (!plan_filesizes(r->v[OPT_FILESIZE].s, r->v[OPT_SEED].u, &m, &fixed))
		return n * fixed;
	for (uint64_t k = 0; k < n; k++)
		sum += bsmix_len(&m, 0, k);
	return sum;
}

/* tree: the directory it is made in, which must hold its files (inodes and
 * bytes free) and not already hold a directory of that name iosweep did not
 * make. */
static int mdtree_target(const struct plan *plan, const struct job *job, struct target *t,
			 char *err)
{
	const char *env = getenv("IOSWEEP_DIR");
	const char *dir = job->opt[OPT_DIRECTORY].n ? job->opt[OPT_DIRECTORY].v[0].s
			  : env && *env		    ? env
						    : "/var/tmp";
	uint64_t fsize, most;
	struct bsmix mix;
	char where[300], path[PATH_MAX];
	struct statvfs vfs;
	struct stat st;

	if (mdtree_words(plan, job, &most, err) < 0)
		return -1;
	/* the most a file holds: filesize, or the largest size drawn */
	if (plan_filesizes(job->opt[OPT_FILESIZE].n ? job->opt[OPT_FILESIZE].v[0].s : NULL, 0, &mix,
			   &fsize))
		fsize = mix.max;
	job_where(plan->jf, job, OPT_TREE, where, sizeof(where));
	if (job->opt[OPT_DIRECTORY].n)
		job_where(plan->jf, job, OPT_DIRECTORY, where, sizeof(where));
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return err_set(err, "%s: directory %s: %s (job '%s')", where, dir,
			       errno && !S_ISDIR(st.st_mode) ? strerror(errno) : "not a directory",
			       job->name);
	/* the inodes and bytes the largest tree needs, with a margin of one in
	 * a hundred for the directories' own blocks */
	if (statvfs(dir, &vfs) == 0) {
		uint64_t bytes = (most * fsize) / 100 * 101;

		if (vfs.f_files && most + 2 > vfs.f_favail)
			return err_set(err, "%s: the largest tree needs %llu inodes and %s has %llu "
					    "free: a smaller tree, or another directory (job '%s')",
				       where, (unsigned long long)most + 2, dir,
				       (unsigned long long)vfs.f_favail, job->name);
		if (bytes > (uint64_t)vfs.f_bavail * vfs.f_frsize)
			return err_set(err, "%s: the largest tree needs %llu bytes and %s has %llu "
					    "free: a smaller filesize or tree, or another directory "
					    "(job '%s')", where, (unsigned long long)bytes, dir,
				       (unsigned long long)vfs.f_bavail * vfs.f_frsize, job->name);
	}
	/* a root there already is a tree a run left (the run removes it) or
	 * not iosweep's at all: the run checks again, under its lock */
	char record[PATH_MAX + 32];
	struct stat rs;

	snprintf(path, sizeof(path), "%s/%.200s%s", dir, job->name, MDTREE_SUFFIX);
	snprintf(record, sizeof(record), "%s/%s", path, MDTREE_RECORD);
	if (lstat(path, &st) == 0 &&
	    (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 0077) ||
	     lstat(record, &rs) < 0 || !S_ISREG(rs.st_mode)))
		return err_set(err, "%s: %s exists and is not a tree iosweep made: remove it, or "
				    "give the job another directory (job '%s')", where, path,
			       job->name);
	t->filename = strdup(path);
	if (!t->filename)
		return err_set(err, "out of memory");
	t->exists = true;
	t->seen = true;
	return 0;
}

/* Combination c of the job's lists (d; idx: each option's value index) as
 * a run on target t, or on trace ts, with its engine in *e; the values that
 * do not apply to it are set to what they mean there.  False: a duplicate,
 * c has a second value of an option that does not apply (the first makes
 * the run). */
static bool make_run(const struct job *job, const struct dims *d, uint64_t c, size_t *idx,
		     const struct target *t, const struct trace_scan *ts, struct run *r,
		     const struct engine_ops **e)
{
	uint64_t rest = c;
	bool random;

	*r = (struct run){ .job = job, .exists = t->exists, .blockdev = t->blockdev,
			   .per_rank = t->per_rank, .rank_file = t->rank_file, .ours = t->ours,
			   .device = t->device };
	for (size_t k = d->n; k-- > 0;) {
		idx[d->id[k]] = rest % job->opt[d->id[k]].n;
		rest /= job->opt[d->id[k]].n;
	}
	for (int i = 0; i < OPT__COUNT; i++)
		r->v[i] = job->opt[i].n ? job->opt[i].v[idx[i]] : default_value(i);
	*e = engine_find(option_table[OPT_ENGINE].values[r->v[OPT_ENGINE].u]);
	if (ts)
		trace_run(r, ts);
	random = pattern_is_random(r->v[OPT_PATTERN].u);
	/* values that do not apply take their first value only */
	if ((!((*e)->flags & ENGINE_QUEUED) && idx[OPT_IODEPTH]) ||
	    (random && idx[OPT_SPACING]) || (!random && idx[OPT_RANDOM_DISTRIBUTION]) ||
	    (!random && idx[OPT_PERCENTAGE_RANDOM]) || engine_options_skip(*e, idx) ||
	    !write_options_apply(r, idx))
		return false;
	if (!((*e)->flags & ENGINE_QUEUED))
		r->v[OPT_IODEPTH].u = 1;
	for (int i = 0; i < OPT__COUNT; i++)
		if (!option_engine_takes(*e, i))
			r->v[i].u = FLAG_OFF;
	if (random || !job->opt[OPT_SPACING].n)
		r->v[OPT_SPACING].u = r->v[OPT_BS].u;
	if (!random) {
		r->v[OPT_COUNT].u = 0;
		r->v[OPT_RANDOM_DISTRIBUTION] = default_value(OPT_RANDOM_DISTRIBUTION);
		r->v[OPT_PERCENTAGE_RANDOM] = default_value(OPT_PERCENTAGE_RANDOM);
	}
	/* the default is a cold, verified start where the file can be evicted */
	r->cache_default = !job->opt[OPT_CACHE].n;
	if (r->cache_default && !t->evictable)
		r->v[OPT_CACHE].u = CACHE_KEEP;
	r->v[OPT_SIZE].u = t->size;
	r->set_bytes = t->set_bytes;
	r->v[OPT_FILENAME].s = t->filename;
	/* opendir: its files in sorted order unless the job says otherwise */
	r->tree_files = t->tree_files;
	if (r->v[OPT_OPENDIR].s && !job->opt[OPT_FILE_SERVICE_TYPE].n)
		r->v[OPT_FILE_SERVICE_TYPE].u = FILESET_SEQUENTIAL;
	/* tree: its shape (checked by mdtree_target), kept unless dropped */
	if (r->v[OPT_TREE].s) {
		(void)tree_shape(r->v[OPT_TREE].s, &r->md_dirs, &r->md_files);
		if (r->cache_default)
			r->v[OPT_CACHE].u = CACHE_KEEP;
		r->v[OPT_SIZE].u = tree_bytes(r);
		return tree_threads_apply(job, r, idx);
	}
	return true;
}

/* What run r reads and writes: its pattern over its regions, or with
 * read_iolog (ts) what the trace holds. */
static int count_run(const struct jobfile *jf, struct run *r, const struct trace_scan *ts,
		     char *err)
{
	if (r->v[OPT_TREE].s) { /* a unit is an item of the phase */
		enum md_op op = run_md_op(r);
		bool data = op == MD_CREATE || op == MD_READ;

		r->reads = mdtree_items(r->md_dirs, r->md_files, op);
		r->bytes = data ? r->v[OPT_SIZE].u : 0;
		r->write_bytes = op == MD_CREATE ? r->bytes : 0;
		r->regions = 1;
		r->region_len = r->bytes;
		return 0;
	}
	if (r->v[OPT_OPENDIR].s) { /* a unit is a file, read whole */
		r->reads = r->tree_files;
		r->bytes = r->v[OPT_SIZE].u;
		r->regions = 1;
		r->region_len = r->bytes;
		return 0;
	}
	if (plan_region(jf, r, ts != NULL, err) < 0)
		return -1;
	r->reads = r->regions * pattern_reads(r->v[OPT_PATTERN].u, r->region_len, r->v[OPT_BS].u,
					      r->v[OPT_SPACING].u, r->v[OPT_COUNT].u);
	r->bytes = r->regions * pattern_bytes(r->v[OPT_PATTERN].u, r->region_len, r->v[OPT_BS].u,
					      r->v[OPT_SPACING].u, r->v[OPT_COUNT].u);
	if (check_mix(jf, r, err) < 0)
		return -1;
	r->write_bytes = r->v[OPT_OP].u == OP_READ ? 0 : r->bytes;
	if (ts) {
		r->reads = ts->n[TRACE_READ] + ts->n[TRACE_WRITE];
		r->bytes = ts->bytes[TRACE_READ] + ts->bytes[TRACE_WRITE];
		r->write_bytes = ts->bytes[TRACE_WRITE];
		r->trace_writes = ts->n[TRACE_WRITE];
		r->trace_syncs = ts->n[TRACE_SYNC] + ts->n[TRACE_DATASYNC];
		r->trace_trims = ts->n[TRACE_TRIM];
		r->trace_trim_bytes = ts->bytes[TRACE_TRIM];
		r->trace_ns = trace_recorded_ns(ts);
	}
	return 0;
}

/* The job's runs on target t, every combination of its lists, checked and
 * added to the plan (or to its skipped runs). */
static int expand_job(struct plan *plan, const struct jobfile *jf, const struct job *job,
		      struct target *t, const struct trace_scan *ts, char *err)
{
	struct dims d;
	size_t idx[OPT__COUNT] = { 0 }, before = plan->n;
	struct run skipped = { 0 };
	char what[96];

	list_dims(job, &d);
	if (d.combos > PLAN_MAX_RUNS - plan->n)
		return err_set(err, "%s:%d: job '%s' makes more than %d runs", jf->path, job->line,
			       job->name, PLAN_MAX_RUNS);
	for (uint64_t c = 0; c < d.combos; c++) {
		struct run r;
		const struct engine_ops *e;

		if (!make_run(job, &d, c, idx, t, ts, &r, &e))
			continue;
		if (count_run(jf, &r, ts, err) < 0)
			return -1;
		if (cannot_run_together(job, &r, e, what, sizeof(what))) {
			skipped = r;
			if (add_skip(plan, &r, what, err) < 0)
				return -1;
			continue;
		}
		/* its preconditioning writes the file before it reads */
		r.precond_bytes = precond_bytes(&r);
		if (r.precond_bytes) {
			t->written = true;
			t->writer = job->name;
		}
		if (check_set_run(jf, &r, e, err) < 0 ||
		    apply_record(jf, t, &r, err) < 0 || apply_written(jf, t, &r, err) < 0 ||
		    check_run(jf, &r, err) < 0 || check_watch_ranks(plan, jf, &r, err) < 0 ||
		    check_region_ranks(plan, jf, &r, err) < 0 ||
		    check_memory(plan, jf, &r, err) < 0 ||
		    add_total(plan, jf, &r, err) < 0 || add_run(plan, &r, err) < 0)
			return -1;
		/* the runs after it find the file written */
		if (r.write_bytes) {
			t->written = true;
			t->writer = job->name;
		}
	}
	/* a job none of whose combinations can run is refused for the last one */
	return plan->n == before && skipped.job ? check_run(jf, &skipped, err) : 0;
}

static void find_varying(struct plan *plan)
{
	bool sparse = false;

	for (size_t k = 0; k < plan->n; k++) {
		sparse |= plan->runs[k].v[OPT_SPACING].u != plan->runs[k].v[OPT_BS].u;
		plan->mixed |= plan->runs[k].v[OPT_OP].u == OP_READWRITE;
	}
	for (int i = 0; i < OPT__COUNT; i++) {
		plan->varies[i] = false;
		for (size_t k = 1; k < plan->n && !option_table[i].per_job && !plan->varies[i]; k++)
			plan->varies[i] = !option_value_equal(i, plan->runs[0].v[i],
							      plan->runs[k].v[i]);
	}
	plan->sparse = sparse;
}

/* Notes what the job just expanded found at t's file, or, when it creates
 * it, with what content. */
static int note_known(struct names *known, struct known_file *k, const struct plan *plan,
		      const struct job *job, const struct target *t)
{
	const union optval *v = plan->runs[plan->n - 1].v;
	/* the fill asked, not the runs' fill=existing after a run that writes */
	enum fill_kind fill = job->opt[OPT_FILL].n ? (enum fill_kind)job->opt[OPT_FILL].v[0].u
						   : (enum fill_kind)default_value(OPT_FILL).u;

	k->name = strdup(t->filename);
	k->maker = t->exists ? NULL : job->name;
	k->blockdev = t->blockdev;
	k->evictable = t->evictable;
	k->have = t->have;
	k->recorded = t->recorded;
	k->rec = t->recorded ? t->record
			     : (struct prepare_record){ .fill = fill, .seed = v[OPT_SEED].u,
							.size = t->size };
	k->written = t->written;
	k->writer = t->writer;
	if (!k->name)
		return -1;
	names_add(known, k->name, k);
	return 0;
}

const char *const group_end_names[] = { [GROUP_END_ALL] = "all", [GROUP_END_FIRST] = "first",
					[GROUP_END_TIME] = "time" };

/* Job's group_end: -1 with FILE:LINE when it is not all, first or a time
 * (or is set on a job that runs alone). */
static int group_end_parse(const struct jobfile *jf, const struct job *job,
			   enum group_end_kind *end, uint64_t *ns, char *err)
{
	const struct job_value *jv = &job->opt[OPT_GROUP_END];
	const char *t = jv->n ? jv->v[0].s : "all";
	char where[300], why[ERR_MAX];

	*ns = 0;
	*end = GROUP_END_ALL;
	job_where(jf, job, OPT_GROUP_END, where, sizeof(where));
	if (jv->n && !job->opt[OPT_GROUP].n)
		return err_set(err, "%s: group_end in job '%s', which is in no group: name the "
				    "group its jobs run in (group = NAME)", where, job->name);
	if (strcasecmp(t, "all") == 0)
		return 0;
	*end = GROUP_END_FIRST;
	if (strcasecmp(t, "first") == 0)
		return 0;
	*end = GROUP_END_TIME;
	if (units_parse_duration_ns(t, ns, why) < 0 || *ns == 0)
		return err_set(err, "%s: group_end = %s: not all, first, or a time after the start "
				    "line greater than 0 (group_end = 30s)", where, t);
	return 0;
}

/* The jobs of one group, in file order: each job's runs are contiguous in
 * the plan (first, n). */
struct group_job {
	const struct job *job;
	size_t first, n;
};

/* Whether two jobs of a group can run at the same time: a job that checks
 * what it reads (verify=after) cannot share its file with another that
 * writes it meanwhile.  -1 with FILE:LINE of the verify. */
static int check_group_pair(const struct jobfile *jf, const struct plan *plan,
			    const struct group_job *a, const struct group_job *b, char *err)
{
	for (size_t i = a->first; i < a->first + a->n; i++)
		for (size_t j = b->first; j < b->first + b->n; j++) {
			const struct run *w = &plan->runs[i], *c = &plan->runs[j];
			char where[300];

			if (w->v[OPT_OP].u == OP_READ || c->v[OPT_VERIFY].u != VERIFY_AFTER ||
			    strcmp(w->v[OPT_FILENAME].s, c->v[OPT_FILENAME].s) != 0)
				continue;
			job_where(jf, c->job, OPT_VERIFY, where, sizeof(where));
			return err_set(err, "%s: job '%s' verifies %s, which job '%s' of its group "
					    "'%s' writes at the same time: give them different files, "
					    "or different groups", where, c->job->name,
				       c->v[OPT_FILENAME].s, w->job->name, w->v[OPT_GROUP].s);
		}
	return 0;
}

/* The options a group's jobs must agree on: the group repeats, warms up
 * and ramps as a whole. */
static const enum opt_id group_same[] = { OPT_REPEAT, OPT_WARMUP, OPT_RAMP };

/* Checks the jobs gj[0..n) of group name, and what their end is. */
static int check_group(const struct jobfile *jf, const struct plan *plan, const char *name,
		       const struct group_job *gj, size_t n, enum group_end_kind *end,
		       uint64_t *end_ns, char *err)
{
	const struct job *set = NULL; /* the job that set group_end */
	char where[300];

	*end = GROUP_END_ALL;
	*end_ns = 0;
	for (size_t k = 0; k < n; k++) {
		enum group_end_kind e;
		uint64_t ns;

		if (group_end_parse(jf, gj[k].job, &e, &ns, err) < 0)
			return -1;
		if (!gj[k].job->opt[OPT_GROUP_END].n)
			continue;
		job_where(jf, gj[k].job, OPT_GROUP_END, where, sizeof(where));
		if (set && (e != *end || ns != *end_ns))
			return err_set(err, "%s: job '%s' ends group '%s' with group_end = %s, job "
					    "'%s' with %s: say it once, in one job or in [global]",
				       where, gj[k].job->name, name,
				       gj[k].job->opt[OPT_GROUP_END].v[0].s, set->name,
				       set->opt[OPT_GROUP_END].v[0].s);
		set = gj[k].job;
		*end = e;
		*end_ns = ns;
	}
	if (set && n == 1 && *end == GROUP_END_FIRST) {
		job_where(jf, set, OPT_GROUP_END, where, sizeof(where));
		return err_set(err, "%s: group_end = first in group '%s', which has one job (%s): "
				    "there is no other job to cut; add a job to the group, or leave "
				    "group_end out", where, name, set->name);
	}
	for (size_t k = 1; k < n; k++) {
		for (size_t i = 0; i < sizeof(group_same) / sizeof(group_same[0]); i++) {
			enum opt_id id = group_same[i];
			const struct run *a = &plan->runs[gj[0].first], *b = &plan->runs[gj[k].first];
			char va[64], vb[64];

			if (option_value_equal(id, a->v[id], b->v[id]))
				continue;
			option_format(id, a->v[id], va, sizeof(va));
			option_format(id, b->v[id], vb, sizeof(vb));
			job_where(jf, gj[k].job, id, where, sizeof(where));
			return err_set(err, "%s: %s = %s in job '%s', %s in job '%s' of the same "
					    "group '%s': a group repeats, warms up and ramps as a whole; "
					    "set it once for the group (in [global])", where,
				       option_table[id].name, vb, gj[k].job->name, va, gj[0].job->name,
				       name);
		}
	}
	for (size_t a = 0; a < n; a++)
		for (size_t b = 0; b < n; b++)
			if (a != b && check_group_pair(jf, plan, &gj[a], &gj[b], err) < 0)
				return -1;
	return 0;
}

static int push_run(struct run **out, size_t *n, size_t *cap, const struct run *r, char *err)
{
	if (*n == *cap) {
		struct run *more = realloc(*out, (*cap ? 2 * *cap : 16) * sizeof(**out));

		if (!more)
			return err_set(err, "out of memory");
		*out = more;
		*cap = *cap ? 2 * *cap : 16;
	}
	(*out)[*n] = *r;
	(*out)[*n].index = *n;
	(*out)[*n].v[OPT_FILENAME].s = strdup(r->v[OPT_FILENAME].s);
	if (!(*out)[*n].v[OPT_FILENAME].s)
		return err_set(err, "out of memory");
	(*n)++;
	return 0;
}

/* The group runs of group name, whose first run is plan->runs[i]: every
 * combination of its jobs' runs (the first job varying slowest), each a
 * group run of one run per job, appended to out. */
static int expand_group(const struct plan *plan, const struct jobfile *jf, size_t i,
			struct run **out, size_t *nout, size_t *cap, bool *taken, char *err)
{
	const char *name = plan->runs[i].v[OPT_GROUP].s;
	/* at most one entry a job, as a job's runs are contiguous; runs[i] is one
	 * job's, so njobs >= 1, which the analyzer cannot see: sized at least 1 */
	size_t nj = jf->njobs ? jf->njobs : 1;
	struct group_job gj[nj];
	size_t n = 0, idx[nj];
	uint64_t combos = 1;
	enum group_end_kind end;
	uint64_t end_ns;

	for (size_t j = i; j < plan->n; j++) {
		const struct run *r = &plan->runs[j];

		if (!r->v[OPT_GROUP].s || strcmp(r->v[OPT_GROUP].s, name) != 0)
			continue;
		taken[j] = true;
		if (n && gj[n - 1].job == r->job) {
			gj[n - 1].n++;
			continue;
		}
		gj[n] = (struct group_job){ .job = r->job, .first = j, .n = 1 };
		n++;
	}
	if (check_group(jf, plan, name, gj, n, &end, &end_ns, err) < 0)
		return -1;
	for (size_t k = 0; k < n; k++)
		if ((combos *= gj[k].n) > PLAN_MAX_RUNS)
			return err_set(err, "%s:%d: group '%s' makes more than %d runs", jf->path,
				       gj[0].job->line, name, PLAN_MAX_RUNS);
	for (uint64_t c = 0; c < combos; c++) {
		uint64_t rest = c;

		for (size_t k = n; k-- > 0;) {
			idx[k] = rest % gj[k].n;
			rest /= gj[k].n;
		}
		for (size_t k = 0; k < n; k++) {
			struct run r = plan->runs[gj[k].first + idx[k]];

			r.group = name;
			r.group_run = (size_t)c;
			r.group_jobs = (unsigned)n;
			r.group_pos = (unsigned)k;
			r.group_end = end;
			r.group_time_ns = end_ns;
			if (push_run(out, nout, cap, &r, err) < 0)
				return -1;
		}
	}
	return 0;
}

/* Jobs that run together: the runs of each group's jobs, expanded job by
 * job, become the group's runs, every combination of one run per job, at
 * the place of the group's first job; the totals are counted again. */
static int plan_group(struct plan *plan, const struct jobfile *jf, char *err)
{
	struct run *out = NULL;
	size_t nout = 0, cap = 0;
	bool *taken, grouped = false;
	int rc = 0;

	for (size_t j = 0; j < jf->njobs; j++) {
		enum group_end_kind e;
		uint64_t ns;

		if (group_end_parse(jf, &jf->jobs[j], &e, &ns, err) < 0)
			return -1;
	}
	for (size_t i = 0; i < plan->n; i++)
		grouped |= plan->runs[i].v[OPT_GROUP].s != NULL;
	if (!grouped)
		return 0;
	taken = calloc(plan->n + 1, sizeof(*taken));
	if (!taken)
		return err_set(err, "out of memory");
	for (size_t i = 0; i < plan->n && rc == 0; i++) {
		if (taken[i])
			continue;
		if (plan->runs[i].v[OPT_GROUP].s)
			rc = expand_group(plan, jf, i, &out, &nout, &cap, taken, err);
		else
			rc = push_run(&out, &nout, &cap, &plan->runs[i], err);
	}
	free(taken);
	if (rc == 0 && nout > PLAN_MAX_RUNS)
		rc = err_set(err, "%s: the job file makes more than %d runs", jf->path,
			     PLAN_MAX_RUNS);
	for (size_t i = 0; i < plan->n; i++)
		free((char *)plan->runs[i].v[OPT_FILENAME].s);
	free(plan->runs);
	plan->runs = out;
	plan->n = plan->cap = nout;
	if (rc < 0)
		return -1;
	plan->total_reads = plan->total_bytes = plan->total_write_bytes = 0;
	plan->writes = false;
	for (size_t i = 0; i < plan->n; i++)
		if (add_total(plan, jf, &plan->runs[i], err) < 0)
			return -1;
	return 0;
}

int plan_expand(struct plan *plan, const struct jobfile *jf, const struct plan_where *where,
		char *err)
{
	struct known_file *kf = calloc(jf->njobs + 1, sizeof(*kf));
	struct names known = { 0 };
	size_t nknown = 0;
	int rc = 0;

	memset(plan, 0, sizeof(*plan));
	plan->jf = jf;
	plan->where = *where;
	plan->mem_available = host_memory_available("", &plan->mem_what);
	if (!kf || names_init(&known, jf->njobs) < 0) {
		free(kf);
		return err_set(err, "out of memory");
	}
	for (size_t j = 0; j < jf->njobs && rc == 0; j++) {
		struct target t = { 0 };
		struct trace_scan scan = { 0 }, *ts = NULL;
		char why[ERR_MAX];

		if (jf->jobs[j].opt[OPT_READ_IOLOG].n) {
			ts = &scan;
			rc = trace_job(jf, &jf->jobs[j], plan->where.ranks, ts, err);
			if (rc < 0) {
				trace_scan_free(ts);
				break;
			}
		}
		rc = jf->jobs[j].opt[OPT_OPENDIR].n ? tree_target(plan, &jf->jobs[j], &t, err)
		     : jf->jobs[j].opt[OPT_TREE].n  ? mdtree_target(plan, &jf->jobs[j], &t, err)
		     : check_data_op(jf, &jf->jobs[j], err) < 0
			     ? -1
			     : resolve_target(plan, &jf->jobs[j], &t, &known, ts, err);
		if (rc == 0) {
			if (!t.seen)
				t.evictable = cache_evict_obstacle(t.filename, why, sizeof(why)) !=
					      CACHE_CANNOT_EVICT;
			size_t first = plan->n;

			rc = expand_job(plan, jf, &jf->jobs[j], &t, ts, err);
			if (rc == 0)
				rc = check_space(jf, &jf->jobs[j], &t, plan->runs + first,
						 plan->n - first, err);
		}
		if (rc == 0 && !t.seen &&
		    note_known(&known, &kf[nknown++], plan, &jf->jobs[j], &t) < 0)
			rc = err_set(err, "out of memory");
		if (rc == 0 && t.known) {
			t.known->written = t.written;
			t.known->writer = t.writer;
		}
		trace_scan_free(&scan);
		free(t.filename);
	}
	names_free(&known);
	for (size_t i = 0; i < nknown; i++)
		free(kf[i].name);
	free(kf);
	if (rc == 0)
		rc = plan_group(plan, jf, err);
	if (rc < 0) {
		plan_free(plan);
		return -1;
	}
	find_varying(plan);
	return 0;
}

/* Whether option id means anything for run r: iodepth only for engines that
 * queue, spacing only for sequential and reverse reads, count only for
 * random ones.  Reports leave the cells of the others blank. */
static bool plan_applies(const struct run *r, enum opt_id id)
{
	bool random = pattern_is_random(r->v[OPT_PATTERN].u);

	/* opendir, tree: their own words, and size (their files' bytes) */
	if (r->v[OPT_OPENDIR].s && id != OPT_SIZE)
		return tree_takes(id);
	if (r->v[OPT_TREE].s && id != OPT_SIZE)
		return mdtree_takes(id);
	switch (id) {
	case OPT_IODEPTH:
		return engine_find(option_table[OPT_ENGINE].values[r->v[OPT_ENGINE].u])->flags &
		       ENGINE_QUEUED;
	case OPT_SPACING:
		return !random;
	case OPT_COUNT:
	case OPT_RANDOM_DISTRIBUTION:
	case OPT_PERCENTAGE_RANDOM:
		return random;
	default:
		return true;
	}
}

const char *plan_cell(const struct run *r, enum opt_id id, char *buf, size_t n)
{
	if (plan_applies(r, id))
		option_format(id, r->v[id], buf, n);
	else if (n)
		buf[0] = '\0';
	return buf;
}

/* some run of the plan has option id */
static bool plan_any_applies(const struct plan *plan, enum opt_id id)
{
	for (size_t k = 0; k < plan->n; k++)
		if (plan_applies(&plan->runs[k], id))
			return true;
	return false;
}

/* Options that only writes read: said when some run writes. */
static bool write_option(enum opt_id id)
{
	return id == OPT_RWMIXREAD || id == OPT_SYNC || id == OPT_SYNC_EVERY ||
	       id == OPT_SYNC_MODE || id == OPT_DATA ||
	       id == OPT_COMPRESS || id == OPT_ALLOC;
}

bool plan_column(const struct plan *plan, enum opt_id id)
{
	/* spacing that follows bs everywhere says nothing bs does not; rwmixread
	 * that follows op (100 for reads, 0 for writes) neither */
	if (id == OPT_RWMIXREAD)
		return plan->varies[id] && plan->mixed;
	return plan->varies[id] && (id != OPT_SPACING || plan->sparse);
}

/* An option worth saying once above a table: the same in every run, about
 * runs rather than jobs, and telling something (count only for random reads
 * and when set, spacing only when some run is sparse, runtime, warmup and
 * the rate limits only when set). */
bool plan_constant(const struct plan *plan, enum opt_id id)
{
	const union optval *v = plan->runs[0].v;

	if (plan->varies[id] || option_table[id].per_job || (write_option(id) && !plan->writes))
		return false;
	if (!plan_any_applies(plan, id))
		return false;
	switch (id) {
	case OPT_OP:
	case OPT_VERIFY:
		return plan->writes || v[id].u != 0;
	case OPT_RWMIXREAD:
		return v[OPT_OP].u == OP_READWRITE;
	case OPT_SYNC_EVERY:
		return v[OPT_SYNC].u == SYNC_FSYNC || v[OPT_SYNC].u == SYNC_FDATASYNC;
	case OPT_SYNC_MODE:
		return v[id].u != SYNC_MODE_DRAIN;
	case OPT_COMPRESS:
		return v[OPT_DATA].u == DATA_RANDOM && v[id].u != 0;
	case OPT_IODEPTH:
		return true;
	case OPT_RANDOM_DISTRIBUTION:
		return skewed(v);
	case OPT_PERCENTAGE_RANDOM:
		return v[id].u != 100;
	case OPT_SPACING:
		return plan->sparse;
	case OPT_THINKTIME_BLOCKS:
		return v[OPT_THINKTIME].u != 0 && v[id].u != 1;
	case OPT_THINKTIME_SPIN:
		return v[OPT_THINKTIME].u != 0 && v[id].u != 0;
	case OPT_THINKTIME:
	case OPT_RUNTIME:
	case OPT_WARMUP:
	case OPT_TIME_BASED:
	case OPT_RAMP:
	case OPT_STARTDELAY:
	case OPT_COUNT: /* 0: not set, a pass over the blocks (what reads says) */
	case OPT_RATE:
	case OPT_RATE_IOPS:
	case OPT_STOP_AT_CLIFF:
	case OPT_SHIFT:
	case OPT_BLOCKALIGN:
		return v[id].u != 0;
	case OPT_INTERVAL:
		return false; /* it shapes the series in the JSON, not the figures */
	case OPT_NRFILES:
		return v[id].u > 1;
	case OPT_FILESIZE:
		return v[OPT_NRFILES].u > 1 || v[OPT_TREE].s; /* a file set's or a made tree's */
	case OPT_DIRECTORY: /* (a tree's default: IOSWEEP_DIR, said with the tree) */
		return v[OPT_NRFILES].u > 1 || (v[OPT_TREE].s && v[id].s);
	case OPT_FILENAME_FORMAT:
		return v[OPT_NRFILES].u > 1; /* a file set's only */
	case OPT_FILE_SERVICE_TYPE:
		return v[OPT_NRFILES].u > 1 || v[OPT_OPENDIR].s; /* a file set's or a tree's */
	case OPT_OPENDIR:
	case OPT_TREE:
	case OPT_READ_IOLOG:
	case OPT_PRECONDITION:
	case OPT_SS:
	case OPT_BSSPLIT:
	case OPT_BSRANGE:
		return v[id].s != NULL;
	case OPT_OFFSET:
	case OPT_OFFSET_INCREMENT:
		return v[id].s && strcmp(v[id].s, "0") != 0;
	case OPT_REPLAY_NO_STALL:
	case OPT_REPLAY_THREADS:
		return v[OPT_READ_IOLOG].s && v[id].u != 0;
	case OPT_REPLAY_TIME_SCALE:
		return v[OPT_READ_IOLOG].s && v[id].u != 100;
	case OPT_SS_DUR:
	case OPT_SS_RAMP:
	case OPT_SS_DIR:
		return v[OPT_SS].s != NULL && v[id].u != 0;
	default:
		return option_knob(id) < 0 || v[id].u != FLAG_OFF;
	}
}

static void plan_run_pass(const struct run *r, struct plan_dirs *d);

enum plan_bound plan_run_bound(const struct run *r, uint64_t *units, double *seconds)
{
	const union optval *v = r->v;
	double period_ns = 0, at_rate; /* the job's ns between due times */

	if (v[OPT_RATE].u)
		period_ns = (double)v[OPT_BS].u * 1e9 / (double)v[OPT_RATE].u;
	if (v[OPT_RATE_IOPS].u && 1e9 / (double)v[OPT_RATE_IOPS].u > period_ns)
		period_ns = 1e9 / (double)v[OPT_RATE_IOPS].u;
	*units = r->reads;
	*seconds = period_ns * (double)r->reads / 1e9;
	at_rate = period_ns > 0 ? floor((double)v[OPT_RUNTIME].u / period_ns) : 0;
	if (period_ns > 0 && v[OPT_RUNTIME].u &&
	    (v[OPT_TIME_BASED].u == FLAG_ON || at_rate < (double)r->reads)) {
		*units = at_rate < 1.8e19 ? (uint64_t)at_rate : UINT64_MAX;
		*seconds = (double)v[OPT_RUNTIME].u / 1e9;
		return BOUND_RATE;
	}
	if (v[OPT_TIME_BASED].u == FLAG_ON) {
		*units = 0;
		return BOUND_RUNTIME;
	}
	return BOUND_PASS;
}

/* d, one pass's, as the share of it that units are. */
static void dirs_scale(struct plan_dirs *d, uint64_t units, uint64_t pass)
{
	uint64_t *f[] = { &d->reads, &d->writes, &d->read_bytes, &d->write_bytes };

	for (size_t k = 0; pass && k < sizeof(f) / sizeof(f[0]); k++) {
		unsigned __int128 x = (unsigned __int128)*f[k] * units / pass;

		*f[k] = x > UINT64_MAX ? UINT64_MAX : (uint64_t)x;
	}
}

void plan_run_dirs(const struct run *r, struct plan_dirs *d)
{
	uint64_t units;
	double seconds;

	plan_run_pass(r, d);
	d->bound = plan_run_bound(r, &units, &seconds);
	if (d->bound == BOUND_RATE)
		dirs_scale(d, units, r->reads);
}

/* The reads and writes of one pass over run r's units. */
static void plan_run_pass(const struct run *r, struct plan_dirs *d)
{
	const union optval *v = r->v;
	struct data_gen g;
	struct pattern p;
	uint64_t off, len;
	char err[ERR_MAX];

	memset(d, 0, sizeof(*d));
	if (v[OPT_READ_IOLOG].s) {
		d->writes = r->trace_writes;
		d->reads = r->reads - r->trace_writes;
		d->write_bytes = r->write_bytes;
		d->read_bytes = r->bytes - r->write_bytes;
		d->trims = r->trace_trims;
		d->trim_bytes = r->trace_trim_bytes;
		return;
	}
	if (v[OPT_OP].u == OP_TRIM || v[OPT_OP].u == OP_TRIMWRITE) {
		d->trims = r->reads;
		d->trim_bytes = r->bytes;
	}
	if (v[OPT_OP].u == OP_TRIM)
		return;
	if (v[OPT_OP].u != OP_READWRITE) {
		/* a tree's phase: its items are writes when it changes the tree */
		bool writes = v[OPT_TREE].s ? md_op_writes(run_md_op(r)) : v[OPT_OP].u != OP_READ;

		*(writes ? &d->writes : &d->reads) = r->reads;
		*(writes ? &d->write_bytes : &d->read_bytes) = r->bytes;
		return;
	}
	/* only the draw is needed: zero data has no pool to allocate */
	(void)data_gen_init(&g, DATA_ZERO, 0, v[OPT_SEED].u, err);
	(void)plan_pattern(r, 0, r->reads, &p, err); /* checked: check_distribution, check_mix */
	while (pattern_next(&p, &off, &len)) {
		bool read = data_draw_percent(&g, off) < v[OPT_RWMIXREAD].u;

		*(read ? &d->reads : &d->writes) += 1;
		*(read ? &d->read_bytes : &d->write_bytes) += len;
	}
	data_gen_free(&g);
}

void plan_dirs_add(struct plan_dirs *total, const struct plan_dirs *d, uint64_t n)
{
	/* no overflow: the plan's totals of both directions were checked (add_total) */
	total->reads += d->reads * n;
	total->writes += d->writes * n;
	total->read_bytes += d->read_bytes * n;
	total->write_bytes += d->write_bytes * n;
	total->trims += d->trims * n;
	total->trim_bytes += d->trim_bytes * n;
}

void plan_free(struct plan *plan)
{
	for (size_t i = 0; i < plan->n; i++)
		free((char *)plan->runs[i].v[OPT_FILENAME].s);
	free(plan->runs);
	free(plan->skips);
	memset(plan, 0, sizeof(*plan));
}
