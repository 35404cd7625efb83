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
#include <sys/stat.h>
#include <unistd.h>

#include "io/cache.h"
#include "io/data.h"
#include "io/engines/engine.h"
#include "io/ioloop.h"
#include "io/pattern.h"
#include "io/prepare.h"
#include "io/series.h"
#include "io/steady.h"
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
	if (!t->new_file && stat(t->filename, &st) == 0)
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

static int resolve_target(const struct plan *plan, const struct job *job, struct target *t,
			  const struct names *known, char *err)
{
	const struct jobfile *jf = plan->jf;
	bool alloc_only, writes = job_writes(job, &alloc_only);
	const struct job_value *name = &job->opt[OPT_FILENAME], *size = &job->opt[OPT_SIZE];
	char where[300], want[32], have[32];
	int rc;

	memset(t, 0, sizeof(*t));
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
	struct pattern share;
	struct io_engine shape = { .size = v[OPT_SIZE].u, .bs = v[OPT_BS].u,
				   .iodepth = (unsigned)v[OPT_IODEPTH].u };
	struct io_run_shape run = {
		.threads = (unsigned)threads,
		.ranks = ranks,
		.series = series_on(v[OPT_INTERVAL].u, threads, ranks),
		.rated = v[OPT_RATE].u || v[OPT_RATE_IOPS].u,
		.data = v[OPT_OP].u != OP_READ || v[OPT_VERIFY].u == VERIFY_AFTER,
		.data_kind = (enum data_kind)v[OPT_DATA].u,
		.verify = v[OPT_VERIFY].u == VERIFY_AFTER,
	};

	pattern_init(&share, v[OPT_PATTERN].u, v[OPT_SIZE].u, v[OPT_BS].u, v[OPT_SPACING].u,
		     v[OPT_COUNT].u, v[OPT_SEED].u, 0, units);
	shape.span = pattern_span(&share, &first);
	shape.span_off = first;
	memset(m, 0, sizeof(*m));
	ioloop_run_memory(engine_at(v[OPT_ENGINE].u), &shape, &run, m);
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
	pattern_init(&p, v[OPT_PATTERN].u, v[OPT_SIZE].u, v[OPT_BS].u, v[OPT_SPACING].u,
		     v[OPT_COUNT].u, v[OPT_SEED].u, 0, 0);
	if (pattern_skew(&p, v[OPT_RANDOM_DISTRIBUTION].s, why) < 0)
		return FAIL_AT(OPT_RANDOM_DISTRIBUTION, "%s: random_distribution: %s (job '%s')",
			       where, why, job->name);
	return 0;
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
	if (rt / iv >= SERIES_SLOTS) {
		option_format(OPT_INTERVAL, (union optval){ .u = (rt + SERIES_SLOTS - 2) /
								  (SERIES_SLOTS - 1) }, a, sizeof(a));
		return FAIL_AT(OPT_INTERVAL, "%s: ss judges the series at the interval asked, and "
					     "the runtime holds at most %d of them (interval = %s "
					     "or longer) (job '%s')", where, SERIES_SLOTS - 1, a,
			       job->name);
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

/* Contradictions within one combination; `where` names the option at fault. */
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
	if (check_steady(jf, r, err) < 0)
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

	plan->writes |= r->write_bytes > 0;
	if (!__builtin_mul_overflow(r->reads, repeat, &reads) &&
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

static int expand_job(struct plan *plan, const struct jobfile *jf, const struct job *job,
		      struct target *t, char *err)
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
		struct run r = { .job = job, .exists = t->exists, .blockdev = t->blockdev,
				 .per_rank = t->per_rank, .rank_file = t->rank_file, .ours = t->ours,
				 .device = t->device };
		uint64_t rest = c;

		for (size_t k = d.n; k-- > 0;) {
			idx[d.id[k]] = rest % job->opt[d.id[k]].n;
			rest /= job->opt[d.id[k]].n;
		}
		for (int i = 0; i < OPT__COUNT; i++)
			r.v[i] = job->opt[i].n ? job->opt[i].v[idx[i]] : default_value(i);
		const struct engine_ops *e =
			engine_find(option_table[OPT_ENGINE].values[r.v[OPT_ENGINE].u]);
		bool random = pattern_is_random(r.v[OPT_PATTERN].u);
		/* values that do not apply take their first value only */
		if ((!(e->flags & ENGINE_QUEUED) && idx[OPT_IODEPTH]) ||
		    (random && idx[OPT_SPACING]) || (!random && idx[OPT_RANDOM_DISTRIBUTION]) ||
		    engine_options_skip(e, idx) ||
		    !write_options_apply(&r, idx))
			continue;
		if (!(e->flags & ENGINE_QUEUED))
			r.v[OPT_IODEPTH].u = 1;
		for (int i = 0; i < OPT__COUNT; i++)
			if (!option_engine_takes(e, i))
				r.v[i].u = FLAG_OFF;
		if (random || !job->opt[OPT_SPACING].n)
			r.v[OPT_SPACING].u = r.v[OPT_BS].u;
		if (!random) {
			r.v[OPT_COUNT].u = 0;
			r.v[OPT_RANDOM_DISTRIBUTION] = default_value(OPT_RANDOM_DISTRIBUTION);
		}
		/* the default is a cold, verified start where the file can be evicted */
		r.cache_default = !job->opt[OPT_CACHE].n;
		if (r.cache_default && !t->evictable)
			r.v[OPT_CACHE].u = CACHE_KEEP;
		r.v[OPT_SIZE].u = t->size;
		r.v[OPT_FILENAME].s = t->filename;
		r.reads = pattern_reads(r.v[OPT_PATTERN].u, t->size, r.v[OPT_BS].u,
					r.v[OPT_SPACING].u, r.v[OPT_COUNT].u);
		r.bytes = pattern_bytes(r.v[OPT_PATTERN].u, t->size, r.v[OPT_BS].u,
					r.v[OPT_SPACING].u, r.v[OPT_COUNT].u);
		r.write_bytes = r.v[OPT_OP].u == OP_READ ? 0 : r.bytes;
		if (cannot_run_together(job, &r, e, what, sizeof(what))) {
			skipped = r;
			if (add_skip(plan, &r, what, err) < 0)
				return -1;
			continue;
		}
		if (apply_record(jf, t, &r, err) < 0 || apply_written(jf, t, &r, err) < 0 ||
		    check_run(jf, &r, err) < 0 || check_memory(plan, jf, &r, err) < 0 ||
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
		struct target t;
		char why[ERR_MAX];

		rc = resolve_target(plan, &jf->jobs[j], &t, &known, err);
		if (rc == 0) {
			if (!t.seen)
				t.evictable = cache_evict_obstacle(t.filename, why, sizeof(why)) !=
					      CACHE_CANNOT_EVICT;
			size_t first = plan->n;

			rc = expand_job(plan, jf, &jf->jobs[j], &t, err);
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
		free(t.filename);
	}
	names_free(&known);
	for (size_t i = 0; i < nknown; i++)
		free(kf[i].name);
	free(kf);
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

	switch (id) {
	case OPT_IODEPTH:
		return engine_find(option_table[OPT_ENGINE].values[r->v[OPT_ENGINE].u])->flags &
		       ENGINE_QUEUED;
	case OPT_SPACING:
		return !random;
	case OPT_COUNT:
	case OPT_RANDOM_DISTRIBUTION:
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
	case OPT_COUNT:
		/* 0: not set, a pass over the blocks (what reads says) */
		return v[id].u != 0 && plan_any_applies(plan, id);
	case OPT_IODEPTH:
		return plan_any_applies(plan, id);
	case OPT_RANDOM_DISTRIBUTION:
		return plan_any_applies(plan, id) && skewed(v);
	case OPT_SPACING:
		return plan->sparse;
	case OPT_RUNTIME:
	case OPT_WARMUP:
	case OPT_TIME_BASED:
	case OPT_RAMP:
	case OPT_RATE:
	case OPT_RATE_IOPS:
		return v[id].u != 0;
	case OPT_INTERVAL:
		return false; /* it shapes the series in the JSON, not the figures */
	case OPT_SS:
		return v[id].s != NULL;
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
	if (v[OPT_OP].u == OP_TRIM || v[OPT_OP].u == OP_TRIMWRITE) {
		d->trims = r->reads;
		d->trim_bytes = r->bytes;
	}
	if (v[OPT_OP].u == OP_TRIM)
		return;
	if (v[OPT_OP].u != OP_READWRITE) {
		bool writes = v[OPT_OP].u != OP_READ;

		*(writes ? &d->writes : &d->reads) = r->reads;
		*(writes ? &d->write_bytes : &d->read_bytes) = r->bytes;
		return;
	}
	/* only the draw is needed: zero data has no pool to allocate */
	(void)data_gen_init(&g, DATA_ZERO, 0, v[OPT_SEED].u, err);
	pattern_init(&p, v[OPT_PATTERN].u, v[OPT_SIZE].u, v[OPT_BS].u, v[OPT_SPACING].u,
		     v[OPT_COUNT].u, v[OPT_SEED].u, 0, r->reads);
	(void)pattern_skew(&p, v[OPT_RANDOM_DISTRIBUTION].s, err); /* checked: check_distribution */
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
