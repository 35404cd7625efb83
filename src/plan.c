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
#include "plan.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "dist.h"
#include "engine.h"
#include "error.h"
#include "pattern.h"
#include "units.h"

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
	bool exists, blockdev, per_rank;
};

/* {rank} and {host} in a file name: each rank of a multi-host run reads a
 * file of its own. */
static char *expand_rank(const char *name, bool *per_rank)
{
	static const char *const keys[] = { "{rank}", "{host}" };
	char rank[16], *out = strdup(name);

	snprintf(rank, sizeof(rank), "%d", dist_rank());
	*per_rank = false;
	for (int k = 0; out && k < 2; k++) {
		char *at;

		while (out && (at = strstr(out, keys[k])) != NULL) {
			char *next;

			*per_rank = true;
			if (asprintf(&next, "%.*s%s%s", (int)(at - out), out, k ? dist_host() : rank,
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

static int resolve_target(const struct jobfile *jf, const struct job *job, struct target *t,
			  char *err)
{
	const struct job_value *name = &job->opt[OPT_FILENAME], *size = &job->opt[OPT_SIZE];
	char where[300], want[32];
	uint64_t have;

	memset(t, 0, sizeof(*t));
	job_where(jf, job, name->n ? OPT_FILENAME : OPT_SIZE, where, sizeof(where));
	if (!name->n) {
		if (!size->n)
			return err_set(err, "%s: job '%s' needs a size (or a filename that exists)",
				       where, job->name);
		t->size = size->v[0].u;
		return default_filename(job, t->size, &t->filename, err) < 0 ? -1 : 0;
	}
	t->filename = expand_rank(name->v[0].s, &t->per_rank);
	if (!t->filename)
		return err_set(err, "out of memory");
	if (plan_file_size(t->filename, &have, &t->blockdev) < 0) {
		if (errno != ENOENT)
			return err_set(err, "%s: %s: %s", where, t->filename,
				       errno == EINVAL ? "not a regular file or block device"
						       : strerror(errno));
		if (!size->n)
			return err_set(err, "%s: %s does not exist: give a size to create it",
				       where, t->filename);
		t->size = size->v[0].u;
		return 0;
	}
	t->exists = true;
	t->size = size->n ? size->v[0].u : have;
	if (t->size > have) {
		units_fmt_size(t->size, want, sizeof(want));
		job_where(jf, job, OPT_SIZE, where, sizeof(where));
		return err_set(err, "%s: %s is %llu bytes, smaller than size=%s (iosweep never "
				    "writes to an existing file)", where, t->filename,
			       (unsigned long long)have, want);
	}
	if (t->size == 0)
		return err_set(err, "%s: %s is empty", where, t->filename);
	return 0;
}

static union optval default_value(enum opt_id id)
{
	union optval v = { .u = 0 };
	char err[ERR_MAX];

	if (option_table[id].def && option_table[id].type != T_PATH &&
	    option_table[id].type != T_TEXT && option_table[id].type != T_JOB)
		option_parse_value(id, option_table[id].def, &v, err);
	return v;
}

/* Contradictions within one combination; `where` names the option at fault. */
static int check_run(const struct jobfile *jf, const struct run *r, char *err)
{
	const struct job *job = r->job;
	const union optval *v = r->v;
	char where[300], a[32], b[32];
	bool random = v[OPT_PATTERN].u == PATTERN_RANDOM;

#define FAIL_AT(id, ...) \
	(job_where(jf, job, id, where, sizeof(where)), err_set(err, __VA_ARGS__))
	units_fmt_size(v[OPT_BS].u, a, sizeof(a));
	units_fmt_size(v[OPT_SPACING].u, b, sizeof(b));
	if (!random && v[OPT_SPACING].u < v[OPT_BS].u)
		return FAIL_AT(OPT_SPACING, "%s: spacing %s is smaller than bs %s in job '%s'",
			       where, b, a, job->name);
	if (v[OPT_BS].u > v[OPT_SIZE].u && (random || v[OPT_SPACING].u != v[OPT_BS].u))
		return FAIL_AT(OPT_BS, "%s: bs %s is larger than the file (%llu bytes) in job '%s'",
			       where, a, (unsigned long long)v[OPT_SIZE].u, job->name);
	if (v[OPT_CONSUME].u == CONSUME_INTS &&
	    (v[OPT_PATTERN].u != PATTERN_SEQUENTIAL || v[OPT_SPACING].u != v[OPT_BS].u ||
	     v[OPT_THREADS].u != 1 || v[OPT_IODEPTH].u != 1))
		return FAIL_AT(OPT_CONSUME, "%s: consume=ints reads the file in order: it needs "
					    "pattern=sequential, spacing=bs, threads=1 and "
					    "iodepth=1 (job '%s')", where, job->name);
	if (v[OPT_CACHE].u == CACHE_DIRECT &&
	    !(engine_find(option_table[OPT_ENGINE].values[v[OPT_ENGINE].u])->flags &
	      ENGINE_DIRECT))
		return FAIL_AT(OPT_CACHE, "%s: cache=direct cannot be used with engine=%s (job '%s')",
			       where, option_table[OPT_ENGINE].values[v[OPT_ENGINE].u], job->name);
	if (v[OPT_CACHE].u == CACHE_DIRECT) {
		unsigned lbs = cache_logical_block_size(v[OPT_FILENAME].s);

		if (v[OPT_BS].u % lbs || v[OPT_SPACING].u % lbs)
			return FAIL_AT(v[OPT_BS].u % lbs ? OPT_BS : OPT_SPACING,
				       "%s: cache=direct needs bs and spacing to be multiples of the "
				       "device's logical block size (%u): bs=%s spacing=%s (job '%s')",
				       where, lbs, a, b, job->name);
	}
	if (random && v[OPT_COUNT].u > INT64_MAX / v[OPT_BS].u)
		return FAIL_AT(OPT_COUNT, "%s: count=%llu reads of bs %s are more than 2^63 bytes "
					  "(job '%s')", where, (unsigned long long)v[OPT_COUNT].u, a,
			       job->name);
	if (v[OPT_THREADS].u > r->reads)
		return FAIL_AT(OPT_THREADS, "%s: threads=%llu but job '%s' does only %llu reads",
			       where, (unsigned long long)v[OPT_THREADS].u, job->name,
			       (unsigned long long)r->reads);
#undef FAIL_AT
	return 0;
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
	uint64_t reads, bytes, repeat = r->v[OPT_REPEAT].u;
	char where[300];

	if (!__builtin_mul_overflow(r->reads, repeat, &reads) &&
	    !__builtin_mul_overflow(r->bytes, repeat, &bytes) &&
	    !__builtin_add_overflow(plan->total_reads, reads, &plan->total_reads) &&
	    !__builtin_add_overflow(plan->total_bytes, bytes, &plan->total_bytes))
		return 0;
	job_where(jf, r->job, OPT_REPEAT, where, sizeof(where));
	return err_set(err, "%s: the plan reads more than 2^64 bytes in all (job '%s')", where,
		       r->job->name);
}

static int expand_job(struct plan *plan, const struct jobfile *jf, const struct job *job,
		      const struct target *t, char *err)
{
	struct dims d;
	size_t idx[OPT__COUNT] = { 0 };

	list_dims(job, &d);
	if (d.combos > PLAN_MAX_RUNS - plan->n)
		return err_set(err, "%s:%d: job '%s' makes more than %d runs", jf->path, job->line,
			       job->name, PLAN_MAX_RUNS);
	for (uint64_t c = 0; c < d.combos; c++) {
		struct run r = { .job = job, .exists = t->exists, .blockdev = t->blockdev,
				 .per_rank = t->per_rank };
		uint64_t rest = c;

		for (size_t k = d.n; k-- > 0;) {
			idx[d.id[k]] = rest % job->opt[d.id[k]].n;
			rest /= job->opt[d.id[k]].n;
		}
		for (int i = 0; i < OPT__COUNT; i++)
			r.v[i] = job->opt[i].n ? job->opt[i].v[idx[i]] : default_value(i);
		const struct engine_ops *e =
			engine_find(option_table[OPT_ENGINE].values[r.v[OPT_ENGINE].u]);
		bool random = r.v[OPT_PATTERN].u == PATTERN_RANDOM;
		/* values that do not apply take their first value only */
		if ((!(e->flags & ENGINE_QUEUED) && idx[OPT_IODEPTH]) ||
		    (random && idx[OPT_SPACING]))
			continue;
		if (!(e->flags & ENGINE_QUEUED))
			r.v[OPT_IODEPTH].u = 1;
		if (random || !job->opt[OPT_SPACING].n)
			r.v[OPT_SPACING].u = r.v[OPT_BS].u;
		if (!random)
			r.v[OPT_COUNT].u = 0;
		r.v[OPT_SIZE].u = t->size;
		r.v[OPT_FILENAME].s = t->filename;
		r.reads = pattern_reads(r.v[OPT_PATTERN].u, t->size, r.v[OPT_BS].u,
					r.v[OPT_SPACING].u, r.v[OPT_COUNT].u);
		r.bytes = pattern_bytes(r.v[OPT_PATTERN].u, t->size, r.v[OPT_BS].u,
					r.v[OPT_SPACING].u, r.v[OPT_COUNT].u);
		if (check_run(jf, &r, err) < 0 || add_total(plan, jf, &r, err) < 0 ||
		    add_run(plan, &r, err) < 0)
			return -1;
	}
	return 0;
}

static void find_varying(struct plan *plan)
{
	bool sparse = false;

	for (size_t k = 0; k < plan->n; k++)
		sparse |= plan->runs[k].v[OPT_SPACING].u != plan->runs[k].v[OPT_BS].u;
	for (int i = 0; i < OPT__COUNT; i++) {
		plan->varies[i] = false;
		for (size_t k = 1; k < plan->n && !option_table[i].per_job && !plan->varies[i]; k++)
			plan->varies[i] = !option_value_equal(i, plan->runs[0].v[i],
							      plan->runs[k].v[i]);
	}
	plan->sparse = sparse;
}

int plan_expand(struct plan *plan, const struct jobfile *jf, char *err)
{
	memset(plan, 0, sizeof(*plan));
	plan->jf = jf;
	for (size_t j = 0; j < jf->njobs; j++) {
		struct target t;
		int rc = resolve_target(jf, &jf->jobs[j], &t, err);

		if (rc == 0)
			rc = expand_job(plan, jf, &jf->jobs[j], &t, err);
		free(t.filename);
		if (rc < 0) {
			plan_free(plan);
			return -1;
		}
	}
	find_varying(plan);
	return 0;
}

bool plan_applies(const struct run *r, enum opt_id id)
{
	bool random = r->v[OPT_PATTERN].u == PATTERN_RANDOM;

	switch (id) {
	case OPT_IODEPTH:
		return engine_find(option_table[OPT_ENGINE].values[r->v[OPT_ENGINE].u])->flags &
		       ENGINE_QUEUED;
	case OPT_SPACING:
		return !random;
	case OPT_COUNT:
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

bool plan_column(const struct plan *plan, enum opt_id id)
{
	/* spacing that follows bs everywhere says nothing bs does not */
	return plan->varies[id] && (id != OPT_SPACING || plan->sparse);
}

/* An option worth saying once above a table: the same in every run, about
 * runs rather than jobs, and telling something (count only for random reads,
 * spacing only when some run is sparse, runtime and warmup only when set). */
static bool plan_constant(const struct plan *plan, enum opt_id id)
{
	const union optval *v = plan->runs[0].v;

	if (plan->varies[id] || option_table[id].per_job)
		return false;
	switch (id) {
	case OPT_COUNT:
	case OPT_IODEPTH:
		return plan_any_applies(plan, id);
	case OPT_SPACING:
		return plan->sparse;
	case OPT_RUNTIME:
	case OPT_WARMUP:
		return v[id].u != 0;
	default:
		return true;
	}
}

void plan_print_constants(const struct plan *plan, FILE *out)
{
	char val[512];
	size_t col = 0;

	for (int i = 0; plan->n && i < OPT__COUNT; i++) {
		size_t len;

		if (!plan_constant(plan, i))
			continue;
		option_format(i, plan->runs[0].v[i], val, sizeof(val));
		len = strlen(option_table[i].name) + strlen(val) + 2;
		if (col && col + len > 110) {
			fputc('\n', out);
			col = 0;
		}
		col += (size_t)fprintf(out, "%s%s=%s", col ? "  " : "", option_table[i].name, val);
	}
	fputc('\n', out);
}

void plan_free(struct plan *plan)
{
	for (size_t i = 0; i < plan->n; i++)
		free((char *)plan->runs[i].v[OPT_FILENAME].s);
	free(plan->runs);
	memset(plan, 0, sizeof(*plan));
}
