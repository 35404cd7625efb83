/*
 * fio_import.c - fio options -> iosweep options; see fio_import.h.
 *
 * One table row per fio option: a handler that records what the option
 * says in a `struct fio_state` (fio's own model of a job), or a kind that
 * needs no code (noted as irrelevant or unsupported; refused unless it is
 * off).  When all of a job's settings are read, finish() turns the state
 * into iosweep option texts, with the checks that need several options at
 * once.  Options that only writes (or only mixed jobs) read are noted as
 * irrelevant for the jobs they do nothing to.
 */
#define _GNU_SOURCE
#include "fio/fio_import.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/cache.h"
#include "io/engines/engine.h"
#include "job/fio_words.h"
#include "lib/error.h"
#include "lib/units.h"
#include "lib/version.h"

#include <xxhash.h>

/* fio's fallocate modes (fio 3.33 options.c) */
enum fio_fallocate { FALLOC_NONE, FALLOC_NATIVE, FALLOC_POSIX, FALLOC_KEEP, FALLOC_TRUNCATE };

/* What fio would do for one job, as far as iosweep can say it. */
struct fio_state {
	const struct fio_job *job;
	const char *name;
	uint64_t rw_skip;                 /* read:N: bytes skipped after each I/O */
	const struct fio_setting *rw_at;
	const char *filename, *directory, *description;
	const struct fio_setting *filename_at, *directory_at, *description_at;
	uint64_t size, filesize, size_pct;
	const struct fio_setting *size_at;
	uint64_t bs;                      /* the job's: bs_rw of its direction (finish_bs) */
	/* block sizes by direction, [0] reads, [1] writes: bs_rw to bs_hi (a
	 * range unless equal), or several (bssplit: bs_split below) */
	uint64_t bs_rw[2], bs_hi[2];
	const struct fio_setting *bs_at[2];
	const char *engine;               /* iosweep's name */
	uint64_t iodepth;
	const struct fio_setting *iodepth_at;
	const char *hint;                 /* NULL: fio's default, advice by pattern */
	uint64_t numjobs, runtime_us, loops, seed, number_ios;
	const struct fio_setting *numjobs_at, *randrepeat_at, *seed_at, *loops_at;
	/* writes */
	uint64_t rwmixread, fsync_every, fdatasync_every, compress_pct, compress_chunk;
	const struct fio_setting *fsync_at, *fdatasync_at, *sync_at, *compress_at;
	const char *sync_open;            /* iosweep's osync or dsync; NULL: none */
	const char *verify;               /* fio's verify type; NULL: none */
	const struct fio_setting *verify_at, *verify_only_at;
	/* rates and time: [0] reads, [1] writes */
	uint64_t rate[2], rate_iops[2], ramp_us, batch_min, batch_max;
	const struct fio_setting *rate_at, *rate_iops_at, *ramp_at, *time_based_at, *batch_at;
	unsigned kb_base;
	enum op_kind op;                  /* options.h: read, write, readwrite */
	enum fio_fallocate fallocate;
	bool random;
	bool bs_split[2];
	bool direct, invalidate, pre_read, norandommap, randrepeat, seed_set, ordered;
	bool knob[KNOB__COUNT];           /* the engine options (uring's, psync2's) */
	bool end_fsync, fsync_on_close, zero_buffers, refill_buffers, scramble_buffers;
	bool do_verify, verify_only;
	bool overwrite, create_on_open, unlink, unlink_each_loop;
	bool time_based;
};

#define MAX_LINE 198 /* the longest line iosweep's job files read (job.c) */

typedef int (*handler_fn)(struct fio_state *st, const struct fio_setting *s, char *err);

/* ---- small helpers ---- */

static int bad(const struct fio_setting *s, char *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "FILE:LINE: name=value: why" */
static int bad(const struct fio_setting *s, char *err, const char *fmt, ...)
{
	char why[ERR_MAX / 2], where[ERR_MAX / 4];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (s->line)
		snprintf(where, sizeof(where), "%s:%d", s->file, s->line);
	else
		snprintf(where, sizeof(where), "%s", s->file);
	return err_set(err, "%s: %s%s%.200s: %s", where, s->name, s->value ? "=" : "",
		       s->value ? s->value : "", why);
}

static int value_bool(const struct fio_setting *s, bool *out, char *err)
{
	char why[ERR_MAX];

	if (fio_parse_bool(s->value, out, why) < 0)
		return bad(s, err, "%s", why);
	return 0;
}

static int value_int(const struct fio_setting *s, uint64_t *out, char *err)
{
	char why[ERR_MAX];

	if (fio_parse_int(s->value, out, why) < 0)
		return bad(s, err, "%s", why);
	return 0;
}

/* The read and write parts of the value: fio's "R,W,T" lists give reads,
 * writes and trims their own values, a value not followed by a comma
 * applies to the directions after it too (HOWTO bs: "8k,32k" is 8k for
 * reads and 32k for writes, ",8k" the default for reads); an empty part
 * keeps what was there. */
static int rw_parts(const struct fio_setting *s, char part[2][128], char *err)
{
	const char *p = s->value;

	for (int d = 0; d < 2; d++) {
		size_t len = strcspn(p, ",");

		if (len >= sizeof(part[d]))
			return bad(s, err, "too long a value");
		memcpy(part[d], p, len);
		part[d][len] = '\0';
		p += len + (p[len] == ',');
	}
	if (!strchr(s->value, ','))
		memcpy(part[1], part[0], sizeof(part[0]));
	return 0;
}

/* A value the translation holds as it is (a description, a file name):
 * an iosweep job file holds it on one line, expands ${...} in it (with no
 * way to write it literally) and ends a value at " ;". */
static int verbatim(const struct fio_setting *s, const char *v, char *err)
{
	for (const char *p = v; *p; p++) {
		if ((unsigned char)*p < 0x20 && *p != '\t')
			return bad(s, err, "a line break or control character, which an iosweep job "
					   "file cannot hold; remove it");
		if (p[0] == '$' && p[1] == '{')
			return bad(s, err, "iosweep expands '${' in its job files and has no way to "
					   "write it as it is; remove it");
		if (*p == ';' && p > v && (p[-1] == ' ' || p[-1] == '\t'))
			return bad(s, err, "' ;' starts a comment in an iosweep job file; remove "
					   "the space");
	}
	return 0;
}

/* A file or directory name: fio drops white space at its start; at its end
 * it is refused (fio and the translation could differ in a joined path). */
static const char *path_value(const struct fio_setting *s, char *err)
{
	const char *v = s->value + strspn(s->value, " \t");
	size_t len = strlen(v);

	if (len && (v[len - 1] == ' ' || v[len - 1] == '\t')) {
		bad(s, err, "white space at the end of a path; remove it");
		return NULL;
	}
	if (verbatim(s, v, err) < 0)
		return NULL;
	/* iosweep reads '$' in a file name as a variable's (${VAR}) and has no
	 * way to write it as it is */
	if (strchr(v, '$')) {
		bad(s, err, "a '$' in a path, which an iosweep job file cannot hold as it is "
			    "(it starts a ${VAR}); rename the file or directory");
		return NULL;
	}
	return v;
}

static int value_bytes(const struct fio_state *st, const struct fio_setting *s, const char *text,
		       uint64_t *out, bool *pct, char *err)
{
	char why[ERR_MAX];

	if (s->unset && !*text)
		return bad(s, err, "environment variable %s is not set (fio expands it to nothing)",
			   s->unset);
	if (fio_parse_bytes(text, st->kb_base, out, pct, why) < 0)
		return bad(s, err, "%s", why);
	return 0;
}

static bool needs_value(const struct fio_setting *s, char *err)
{
	if (s->value && *s->value)
		return true;
	if (s->unset)
		bad(s, err, "environment variable %s is not set (fio expands it to nothing)",
		    s->unset);
	else
		bad(s, err, "needs a value");
	return false;
}

/* ---- handlers: one per translated fio option ---- */

static int h_name(struct fio_state *st, const struct fio_setting *s, char *err)
{
	size_t len;

	if (!needs_value(s, err))
		return -1;
	len = strlen(s->value);
	if (isspace((unsigned char)s->value[0]) || isspace((unsigned char)s->value[len - 1]))
		return bad(s, err, "white space at the start or end of a name is part of it for "
				   "fio, not for iosweep; remove it");
	st->name = s->value;
	return 0;
}

static int h_description(struct fio_state *st, const struct fio_setting *s, char *err)
{
	if (s->value && verbatim(s, s->value, err) < 0)
		return -1;
	st->description = s->value;
	st->description_at = s;
	return 0;
}

/* fio separates file names with ':' ("\:" is a colon in a name). */
static int h_filename(struct fio_state *st, const struct fio_setting *s, char *err)
{
	const char *v;

	if (!needs_value(s, err) || !(v = path_value(s, err)))
		return -1;
	for (const char *p = v; *p; p++) {
		if (*p == '\\' && p[1] == ':')
			return bad(s, err, "a '\\:' in a file name is not supported by iosweep "
					   "import; rename the file");
		if (*p == ':')
			return bad(s, err, "fio reads several files in one job (its size split "
					   "across them); iosweep reads one file per job: write one "
					   "fio job per file");
	}
	st->filename = v;
	st->filename_at = s;
	return 0;
}

static int h_directory(struct fio_state *st, const struct fio_setting *s, char *err)
{
	const char *v;

	if (!needs_value(s, err) || !(v = path_value(s, err)))
		return -1;
	if (strchr(v, ':'))
		return bad(s, err, "fio spreads files over several directories; iosweep reads one "
				   "file per job");
	st->directory = v;
	st->directory_at = s;
	return 0;
}

static int h_size(struct fio_state *st, const struct fio_setting *s, char *err)
{
	bool pct = false;
	uint64_t v;

	if (!needs_value(s, err) || value_bytes(st, s, s->value, &v, &pct, err) < 0)
		return -1;
	if (!pct && v == 0)
		return bad(s, err, "a size of 0 reads nothing");
	st->size = pct ? 0 : v;
	st->size_pct = pct ? v : 0;
	st->size_at = s;
	return 0;
}

static int h_filesize(struct fio_state *st, const struct fio_setting *s, char *err)
{
	bool pct = false;

	if (!needs_value(s, err))
		return -1;
	if (strpbrk(s->value, "-:"))
		return bad(s, err, "a range of file sizes makes files of random sizes; iosweep reads "
				   "one file of one size");
	if (value_bytes(st, s, s->value, &st->filesize, &pct, err) < 0)
		return -1;
	if (pct)
		return bad(s, err, "filesize takes no percentage");
	return 0;
}

static void set_bs(struct fio_state *st, int d, uint64_t lo, uint64_t hi, bool split,
		   const struct fio_setting *s)
{
	st->bs_rw[d] = lo;
	st->bs_hi[d] = hi;
	st->bs_split[d] = split;
	st->bs_at[d] = s;
}

/* bs=R,W: finish_bs() takes the part of the job's direction */
static int h_bs(struct fio_state *st, const struct fio_setting *s, char *err)
{
	char part[2][128] = { "", "" };
	bool pct = false;
	uint64_t v = 0;

	if (!needs_value(s, err) || rw_parts(s, part, err) < 0)
		return -1;
	for (int d = 0; d < 2; d++) {
		if (!*part[d])
			continue; /* ",8k": this direction keeps its size */
		if (value_bytes(st, s, part[d], &v, &pct, err) < 0)
			return -1;
		if (pct || v == 0)
			return bad(s, err, "a block size is a number of bytes greater than zero");
		set_bs(st, d, v, v, false, s);
	}
	return 0;
}

/* bsrange=4k-16k and bssplit=4k/50:8k/50 read several block sizes: iosweep
 * reads one per run (finish_bs() refuses them in a direction the job does).
 * A range of one size, or a split with one size, is that size. */
static int h_bsrange(struct fio_state *st, const struct fio_setting *s, char *err)
{
	char part[2][128] = { "", "" }, *dash;
	uint64_t lo = 0, hi = 0;
	bool pct = false;

	if (!needs_value(s, err) || rw_parts(s, part, err) < 0)
		return -1;
	for (int d = 0; d < 2; d++) {
		if (!*part[d])
			continue;
		dash = strpbrk(part[d], "-:");
		if (!dash)
			return bad(s, err, "expected LOW-HIGH");
		*dash = '\0';
		if (value_bytes(st, s, part[d], &lo, &pct, err) < 0 ||
		    value_bytes(st, s, dash + 1, &hi, &pct, err) < 0)
			return -1;
		set_bs(st, d, lo, hi, false, s);
	}
	return 0;
}

static int h_bssplit(struct fio_state *st, const struct fio_setting *s, char *err)
{
	char part[2][128] = { "", "" };
	uint64_t v = 0;
	bool pct = false;

	if (!needs_value(s, err) || rw_parts(s, part, err) < 0)
		return -1;
	for (int d = 0; d < 2; d++) {
		if (!*part[d])
			continue;
		bool split = strchr(part[d], ':') != NULL;

		part[d][strcspn(part[d], "/")] = '\0';
		if (!split && value_bytes(st, s, part[d], &v, &pct, err) < 0)
			return -1;
		set_bs(st, d, v, v, split, s);
	}
	return 0;
}

/* rw=read, write, rw (or readwrite) and their rand* forms; ":N" skips N
 * bytes after every sequential I/O (checked against fio 3.33: "rw=rw"
 * keeps one offset per direction, both from the start of the file;
 * "randrw" one random map for both). */
static int h_rw(struct fio_state *st, const struct fio_setting *s, char *err)
{
	const struct fio_rw *rw;
	char word[32];
	const char *colon;
	uint64_t n = 0;
	bool pct = false;

	if (!needs_value(s, err))
		return -1;
	colon = strchr(s->value, ':');
	snprintf(word, sizeof(word), "%.*s",
		 (int)(colon ? (size_t)(colon - s->value) : strlen(s->value)), s->value);
	rw = fio_rw_find(word);
	if (!rw && strstr(word, "trim"))
		return bad(s, err, "iosweep does not trim: it translates read, write, rw and their "
				   "rand forms");
	if (!rw)
		return bad(s, err, "fio knows no such rw (read, randread, write, randwrite, rw, "
				   "randrw, ...)");
	st->op = rw->op;
	st->random = rw->random;
	st->rw_skip = 0;
	if (colon && value_bytes(st, s, colon + 1, &n, &pct, err) < 0)
		return -1;
	if (colon && !st->random)
		st->rw_skip = n; /* read:8k skips 8k after every read */
	if (colon && st->random && n > 1)
		return bad(s, err, "fio does %llu blocks in a row at each random offset; iosweep "
				   "draws a new offset for every block", (unsigned long long)n);
	st->rw_at = s;
	return 0;
}

/* "psync, sync and pvsync (engine=sync), pvsync2 (psync2), ... and mmap
 * (mmap)": fio's engines that iosweep translates, by the engine each
 * becomes (the names of one engine are next to each other in the table). */
static void fio_engine_list(char *buf, size_t n)
{
	const char *to, *next, *name;
	size_t used = 0, start = 0, end = 0; /* the current engine's names: start to end */

	buf[0] = '\0';
	for (size_t i = 0; (name = fio_engine_at(i, &to)) && used < n; i++) {
		const char *sep = i == 0 ? "" : ", ";

		if (i == 0 || i > end) { /* a new engine's first name: find its last */
			start = i;
			for (end = i; fio_engine_at(end + 1, &next) && strcmp(next, to) == 0; end++)
				;
			if (i > 0 && !fio_engine_at(end + 1, &next))
				sep = " and "; /* the last engine */
		} else if (i == end) {
			sep = " and ";
		}
		used += (size_t)snprintf(buf + used, n - used, "%s%s", sep, name);
		if (i == end && used < n)
			used += (size_t)snprintf(buf + used, n - used, " (%s%s)",
						 start == 0 ? "engine=" : "", to);
	}
}

static int h_ioengine(struct fio_state *st, const struct fio_setting *s, char *err)
{
	char list[300];

	if (!needs_value(s, err))
		return -1;
	st->engine = fio_engine_to(s->value);
	if (st->engine)
		return 0;
	fio_engine_list(list, sizeof(list));
	return bad(s, err, "iosweep has no such engine; it translates %s", list);
}

static int h_iodepth(struct fio_state *st, const struct fio_setting *s, char *err)
{
	if (value_int(s, &st->iodepth, err) < 0)
		return -1;
	if (st->iodepth == 0 || st->iodepth > 4096)
		return bad(s, err, "iosweep's iodepth is 1 to 4096");
	st->iodepth_at = s;
	return 0;
}

static int h_buffered(struct fio_state *st, const struct fio_setting *s, char *err)
{
	bool b;

	if (value_bool(s, &b, err) < 0)
		return -1;
	st->direct = !b;
	return 0;
}

static int h_fadvise_hint(struct fio_state *st, const struct fio_setting *s, char *err)
{
	bool b;

	if (s->value && (strcmp(s->value, "sequential") == 0 || strcmp(s->value, "random") == 0)) {
		st->hint = s->value;
		return 0;
	}
	if (value_bool(s, &b, err) < 0)
		return -1;
	st->hint = b ? NULL : "none";
	return 0;
}

static int h_numjobs(struct fio_state *st, const struct fio_setting *s, char *err)
{
	if (value_int(s, &st->numjobs, err) < 0)
		return -1;
	if (st->numjobs == 0 || st->numjobs > 1024)
		return bad(s, err, "iosweep's threads are 1 to 1024");
	st->numjobs_at = s;
	return 0;
}

static int h_runtime(struct fio_state *st, const struct fio_setting *s, char *err)
{
	char why[ERR_MAX];

	if (!needs_value(s, err))
		return -1;
	if (fio_parse_time_us(s->value, 1000000, &st->runtime_us, why) < 0)
		return bad(s, err, "%s", why);
	return 0;
}

static int h_loops(struct fio_state *st, const struct fio_setting *s, char *err)
{
	if (value_int(s, &st->loops, err) < 0)
		return -1;
	if (st->loops == 0 || st->loops > 100000)
		return bad(s, err, "iosweep repeats a run 1 to 100000 times");
	st->loops_at = s;
	return 0;
}

static int h_randrepeat(struct fio_state *st, const struct fio_setting *s, char *err)
{
	st->randrepeat_at = s;
	return value_bool(s, &st->randrepeat, err);
}

static int h_randseed(struct fio_state *st, const struct fio_setting *s, char *err)
{
	if (value_int(s, &st->seed, err) < 0)
		return -1;
	if (st->seed > INT64_MAX)
		return bad(s, err, "iosweep's seeds go to 2^63-1");
	st->seed_set = true;
	st->seed_at = s;
	return 0;
}

static int h_number_ios(struct fio_state *st, const struct fio_setting *s, char *err)
{
	return value_int(s, &st->number_ios, err);
}

static int h_offset(struct fio_state *st, const struct fio_setting *s, char *err)
{
	uint64_t v;
	bool pct = false;

	if (!needs_value(s, err) || value_bytes(st, s, s->value, &v, &pct, err) < 0)
		return -1;
	if (v != 0)
		return bad(s, err, "iosweep reads from the start of the file: a fio job that "
				   "starts elsewhere reads other blocks");
	return 0;
}

static int h_order(struct fio_state *st, const struct fio_setting *s, char *err)
{
	bool b = true;

	if (strcmp(s->name, "wait_for") != 0 && value_bool(s, &b, err) < 0)
		return -1;
	st->ordered = b;
	return 0;
}

static int h_kb_base(struct fio_state *st, const struct fio_setting *s, char *err)
{
	(void)st;
	(void)s;
	(void)err;
	return 0; /* read before every other setting: see kb_base_of() */
}

/* rate=R[,W[,T]] and rate_iops: a limit per direction and per clone of
 * numjobs (checked against fio 3.33: one value limits every direction,
 * "4m," reads only, ",4m" writes only); finish() makes the job's limit. */
static int h_rate(struct fio_state *st, const struct fio_setting *s, char *err)
{
	bool iops = strcmp(s->name, "rate_iops") == 0;
	uint64_t *out = iops ? st->rate_iops : st->rate;
	char why[ERR_MAX], part[2][128] = { "", "" };

	if (!needs_value(s, err) || rw_parts(s, part, err) < 0)
		return -1;
	for (int d = 0; d < 2; d++) {
		bool pct = false;

		out[d] = 0; /* an empty part: no limit */
		if (*part[d] && iops && fio_parse_int(part[d], &out[d], why) < 0)
			return bad(s, err, "%s", why);
		if (*part[d] && !iops && value_bytes(st, s, part[d], &out[d], &pct, err) < 0)
			return -1;
		if (!iops && *part[d] && pct)
			return bad(s, err, "a rate is a number of bytes a second");
	}
	*(iops ? &st->rate_iops_at : &st->rate_at) = s;
	return 0;
}

static int h_rate_process(struct fio_state *st, const struct fio_setting *s, char *err)
{
	(void)st;
	if (s->value && strcmp(s->value, "linear") == 0)
		return 0;
	if (s->value && strcmp(s->value, "poisson") == 0)
		return bad(s, err, "iosweep's rate schedule is linear (every I/O due one period after "
				   "the one before); fio's poisson spaces them at random");
	return bad(s, err, "fio knows linear and poisson");
}

static int h_ramp_time(struct fio_state *st, const struct fio_setting *s, char *err)
{
	char why[ERR_MAX];

	if (!needs_value(s, err))
		return -1;
	if (fio_parse_time_us(s->value, 1000000, &st->ramp_us, why) < 0)
		return bad(s, err, "%s", why);
	st->ramp_at = s;
	return 0;
}

static int h_time_based(struct fio_state *st, const struct fio_setting *s, char *err)
{
	st->time_based_at = s;
	return value_bool(s, &st->time_based, err);
}

/* iodepth_batch_complete_min/max: how many completions fio's reap waits
 * for and takes (its defaults: 1 and 1); compared with iosweep's in
 * finish(). */
static int h_batch_complete(struct fio_state *st, const struct fio_setting *s, char *err)
{
	bool max = strcmp(s->name, "iodepth_batch_complete_max") == 0;

	if (value_int(s, max ? &st->batch_max : &st->batch_min, err) < 0)
		return -1;
	st->batch_at = s;
	return 0;
}

/* random_distribution=random (uniform) is what iosweep does. */
static int h_distribution(struct fio_state *st, const struct fio_setting *s, char *err)
{
	(void)st;
	if (s->value && strcmp(s->value, "random") == 0)
		return 0;
	return bad(s, err, "iosweep draws random offsets uniformly only");
}

static int h_percentage_random(struct fio_state *st, const struct fio_setting *s, char *err)
{
	uint64_t v;

	(void)st;
	if (value_int(s, &v, err) < 0)
		return -1;
	if (v != 100 && !(v == 0 && !st->random))
		return bad(s, err, "iosweep does either all in order or all at random");
	return 0;
}

static int h_nrfiles(struct fio_state *st, const struct fio_setting *s, char *err)
{
	uint64_t v;

	(void)st;
	if (value_int(s, &v, err) < 0)
		return -1;
	if (v != 1)
		return bad(s, err, "iosweep reads one file per job");
	return 0;
}

/* verify=TYPE: fio writes a header and a checksum of that type into every
 * block it writes and reads them back after the write phase; iosweep's
 * verify = after checks its own data, whose every 4 KiB says its offset and
 * seed.  A pattern of the user's (verify=pattern, verify_pattern) is data
 * iosweep does not write. */
static int h_verify(struct fio_state *st, const struct fio_setting *s, char *err)
{
	static const char *const types[] = {
		"md5", "crc64", "crc32", "crc32c-intel", "crc32c", "crc16", "crc7", "sha1",
		"sha256", "sha512", "sha3-224", "sha3-256", "sha3-384", "sha3-512", "xxhash",
		"meta",
	};

	st->verify = NULL;
	st->verify_at = s;
	if (!s->value || strcmp(s->value, "0") == 0 || strcmp(s->value, "null") == 0 ||
	    strcmp(s->value, "") == 0)
		return 0; /* null: fio pretends to verify */
	if (strcmp(s->value, "pattern") == 0)
		return bad(s, err, "fio writes and checks your verify_pattern; iosweep writes and "
				   "checks its own data only");
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strcmp(s->value, types[i]) == 0)
			st->verify = s->value;
	if (!st->verify)
		return bad(s, err, "fio knows no such verify type (md5, crc32c, xxhash, sha256, "
				   "meta, pattern, ...)");
	return 0;
}

static int h_verify_only(struct fio_state *st, const struct fio_setting *s, char *err)
{
	st->verify_only_at = s;
	return value_bool(s, &st->verify_only, err);
}

static int h_count(struct fio_state *st, const struct fio_setting *s, char *err)
{
	uint64_t *out = strcmp(s->name, "fsync") == 0 ? &st->fsync_every : &st->fdatasync_every;

	if (value_int(s, out, err) < 0)
		return -1;
	*(out == &st->fsync_every ? &st->fsync_at : &st->fdatasync_at) = s;
	return 0;
}

/* sync=none|0|sync|1|dsync (fio 3.33): the open flag of every write */
static int h_sync(struct fio_state *st, const struct fio_setting *s, char *err)
{
	if (!needs_value(s, err))
		return -1;
	if (strcmp(s->value, "none") == 0 || strcmp(s->value, "0") == 0)
		st->sync_open = NULL;
	else if (strcmp(s->value, "sync") == 0 || strcmp(s->value, "1") == 0)
		st->sync_open = "osync";
	else if (strcmp(s->value, "dsync") == 0)
		st->sync_open = "dsync";
	else
		return bad(s, err, "fio's sync is none (0), sync (1, O_SYNC) or dsync (O_DSYNC)");
	st->sync_at = s;
	return 0;
}

static int h_rwmix(struct fio_state *st, const struct fio_setting *s, char *err)
{
	uint64_t v;

	if (value_int(s, &v, err) < 0)
		return -1;
	if (v > 100)
		return bad(s, err, "a percentage is 0 to 100");
	/* the later of rwmixread and rwmixwrite wins (fio 3.33) */
	st->rwmixread = strcmp(s->name, "rwmixwrite") == 0 ? 100 - v : v;
	return 0;
}

static int h_compress(struct fio_state *st, const struct fio_setting *s, char *err)
{
	if (value_int(s, &st->compress_pct, err) < 0)
		return -1;
	if (st->compress_pct > 100)
		return bad(s, err, "a percentage is 0 to 100");
	st->compress_at = s;
	return 0;
}

static int h_compress_chunk(struct fio_state *st, const struct fio_setting *s, char *err)
{
	bool pct = false;

	if (!needs_value(s, err) || value_bytes(st, s, s->value, &st->compress_chunk, &pct, err) < 0)
		return -1;
	return 0;
}

static int h_fallocate(struct fio_state *st, const struct fio_setting *s, char *err)
{
	static const struct {
		const char *word;
		enum fio_fallocate mode;
	} modes[] = {
		{ "none", FALLOC_NONE }, { "0", FALLOC_NONE }, { "native", FALLOC_NATIVE },
		{ "posix", FALLOC_POSIX }, { "1", FALLOC_POSIX }, { "keep", FALLOC_KEEP },
		{ "truncate", FALLOC_TRUNCATE },
	};

	if (!needs_value(s, err))
		return -1;
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strcmp(s->value, modes[i].word) == 0) {
			st->fallocate = modes[i].mode;
			return 0;
		}
	return bad(s, err, "fio's fallocate is none, native, posix, keep or truncate");
}

/* A pattern of the user's in every block written is data iosweep does not
 * write (an empty one is none). */
static int h_pattern(struct fio_state *st, const struct fio_setting *s, char *err)
{
	(void)st;
	if (!s->value || !*s->value)
		return 0;
	return bad(s, err, "iosweep writes its own data (unique per block, checkable), not a "
			   "pattern of yours");
}

/* fixedbufs, registerfiles, sqthread_poll, hipri, nowait: the engine
 * options, named as the job options are (engine_flags() checks the engine) */
static int h_knob(struct fio_state *st, const struct fio_setting *s, char *err)
{
	int k = option_knob(option_find(s->name));

	return k < 0 ? bad(s, err, "not an engine option") : value_bool(s, &st->knob[k], err);
}

#define W_ONLY "applies to writes only; this job only reads"

/* What the import does for each handler of fio's words (job/fio_words.c):
 * a function, or a flag of struct fio_state. */
static const struct {
	handler_fn fn;
	size_t flag;
} actions[FH__COUNT] = {
#define FN(h, f) [h] = { .fn = (f) }
#define FLAG(h, field) [h] = { .flag = offsetof(struct fio_state, field) }
	FN(FH_NAME, h_name), FN(FH_DESCRIPTION, h_description), FN(FH_FILENAME, h_filename),
	FN(FH_DIRECTORY, h_directory), FN(FH_SIZE, h_size), FN(FH_FILESIZE, h_filesize),
	FN(FH_BS, h_bs), FN(FH_BSRANGE, h_bsrange), FN(FH_BSSPLIT, h_bssplit), FN(FH_RW, h_rw),
	FN(FH_IOENGINE, h_ioengine), FN(FH_IODEPTH, h_iodepth), FLAG(FH_DIRECT, direct),
	FN(FH_BUFFERED, h_buffered), FLAG(FH_INVALIDATE, invalidate), FLAG(FH_PRE_READ, pre_read),
	FN(FH_FADVISE_HINT, h_fadvise_hint), FN(FH_NUMJOBS, h_numjobs), FN(FH_RUNTIME, h_runtime),
	FN(FH_TIME_BASED, h_time_based), FN(FH_RAMP_TIME, h_ramp_time), FN(FH_LOOPS, h_loops),
	FN(FH_RANDREPEAT, h_randrepeat), FN(FH_RANDSEED, h_randseed),
	FLAG(FH_NORANDOMMAP, norandommap), FN(FH_KNOB, h_knob),
	FN(FH_BATCH_COMPLETE, h_batch_complete), FN(FH_NUMBER_IOS, h_number_ios),
	FN(FH_OFFSET, h_offset), FN(FH_ORDER, h_order), FN(FH_KB_BASE, h_kb_base),
	FN(FH_RATE, h_rate), FN(FH_RATE_PROCESS, h_rate_process),
	FN(FH_DISTRIBUTION, h_distribution), FN(FH_PERCENTAGE_RANDOM, h_percentage_random),
	FN(FH_NRFILES, h_nrfiles), FN(FH_VERIFY, h_verify), FLAG(FH_DO_VERIFY, do_verify),
	FN(FH_VERIFY_ONLY, h_verify_only), FN(FH_PATTERN, h_pattern), FN(FH_RWMIX, h_rwmix),
	FN(FH_COUNT, h_count), FLAG(FH_END_FSYNC, end_fsync),
	FLAG(FH_FSYNC_ON_CLOSE, fsync_on_close), FN(FH_SYNC, h_sync),
	FLAG(FH_ZERO_BUFFERS, zero_buffers), FLAG(FH_REFILL_BUFFERS, refill_buffers),
	FLAG(FH_SCRAMBLE_BUFFERS, scramble_buffers), FN(FH_COMPRESS, h_compress),
	FN(FH_COMPRESS_CHUNK, h_compress_chunk), FN(FH_FALLOCATE, h_fallocate),
	FLAG(FH_OVERWRITE, overwrite), FLAG(FH_CREATE_ON_OPEN, create_on_open),
	FLAG(FH_UNLINK, unlink), FLAG(FH_UNLINK_EACH_LOOP, unlink_each_loop),
#undef FN
#undef FLAG
};

/* ---- notes ---- */

static uint64_t note_hash(const char *where, const char *setting, const char *why)
{
	uint64_t h = XXH3_64bits(where, strlen(where));

	h = XXH3_64bits_withSeed(setting, strlen(setting), h);
	return XXH3_64bits_withSeed(why, strlen(why), h);
}

/* The slot of a note like this one, or the free slot where it goes. */
static size_t *note_slot(const struct import *im, const char *where, const char *setting,
			 const char *why)
{
	size_t mask = im->nslots - 1, i = note_hash(where, setting, why) & mask;

	for (;; i = (i + 1) & mask) {
		const struct import_note *n;

		if (!im->note_slots[i])
			return &im->note_slots[i];
		n = &im->notes[im->note_slots[i] - 1];
		if (strcmp(n->where, where) == 0 && strcmp(n->setting, setting) == 0 &&
		    strcmp(n->why, why) == 0)
			return &im->note_slots[i];
	}
}

/* Room for one more note: the array, and the table kept at most half full. */
static int note_room(struct import *im)
{
	struct import_note *n = fio_grow(im->notes, im->nnotes, sizeof(*n));
	size_t cap = im->nslots ? im->nslots : 64;

	if (!n)
		return -1;
	im->notes = n;
	if (2 * (im->nnotes + 1) <= im->nslots)
		return 0;
	while (2 * (im->nnotes + 1) > cap)
		cap *= 2;
	free(im->note_slots);
	im->note_slots = calloc(cap, sizeof(*im->note_slots));
	if (!im->note_slots)
		return -1;
	im->nslots = cap;
	for (size_t i = 0; i < im->nnotes; i++)
		*note_slot(im, im->notes[i].where, im->notes[i].setting, im->notes[i].why) = i + 1;
	return 0;
}

static int note(struct import *im, const struct fio_setting *s, const char *where_text,
		const char *why)
{
	char where[512], setting[512];
	struct import_note *n;
	size_t *slot;

	if (s && s->line)
		snprintf(where, sizeof(where), "%s:%d", s->file, s->line);
	else
		snprintf(where, sizeof(where), "%s", s ? s->file : where_text);
	if (s)
		snprintf(setting, sizeof(setting), "%s%s%s", s->name, s->raw ? "=" : "",
			 s->raw ? s->raw : "");
	else
		snprintf(setting, sizeof(setting), "%s", "");
	/* a note is one line (on stderr, and in a comment of the translation) */
	for (char *p = setting; *p; p++)
		if ((unsigned char)*p < 0x20)
			*p = ' ';
	if (note_room(im) < 0)
		return -1;
	/* [global] settings reach every job: say each once */
	slot = note_slot(im, where, setting, why);
	if (*slot)
		return 0;
	n = &im->notes[im->nnotes];
	n->where = strdup(where);
	n->setting = strdup(setting);
	n->why = strdup(why);
	if (!n->where || !n->setting || !n->why) {
		free(n->where);
		free(n->setting);
		free(n->why);
		return -1;
	}
	*slot = ++im->nnotes;
	return 0;
}

/* ---- one job ---- */

/* kb_base applies to every size of the job wherever it is written (fio
 * reads it first). */
static int kb_base_of(const struct fio_job *job, unsigned *kb_base, char *err)
{
	*kb_base = 1024;
	for (size_t i = 0; i < job->nset; i++) {
		const struct fio_setting *s = &job->set[i];
		uint64_t v;

		if (strcmp(s->name, "kb_base") != 0)
			continue;
		if (value_int(s, &v, err) < 0)
			return -1;
		if (v != 1000 && v != 1024)
			return bad(s, err, "kb_base is 1000 or 1024");
		*kb_base = (unsigned)v;
	}
	return 0;
}

static int apply(struct import *im, struct fio_state *st, const struct fio_setting *s, char *err)
{
	const struct fio_word *r = fio_word_find(s->name);
	char why[256];
	bool *flag;

	if (!r) {
		if (fio_flag_takes_value(s->name))
			return note(im, s, NULL, fio_why_report) < 0 ? err_set(err, "out of memory") : 0;
		return bad(s, err, "iosweep import does not know this fio option, so it cannot say "
				   "that it leaves what is measured alone; remove it if it does");
	}
	switch (r->kind) {
	case FW_TRANSLATE:
		if (actions[r->handler].fn)
			return actions[r->handler].fn(st, s, err);
		flag = (bool *)((char *)st + actions[r->handler].flag);
		if (value_bool(s, flag, err) < 0)
			return -1;
		/* a flag that is translated and noted too (unlink) */
		if (r->why && *flag)
			return note(im, s, NULL, r->why) < 0 ? err_set(err, "out of memory") : 0;
		return 0;
	case FW_OFF_ONLY:
		if (!s->value || (strcmp(s->value, "0") != 0 && strcmp(s->value, "") != 0))
			return bad(s, err, "%s", r->why);
		return 0;
	case FW_IRRELEVANT:
	case FW_UNSUPPORTED:
		snprintf(why, sizeof(why), "%s: %s",
			 r->kind == FW_IRRELEVANT ? "irrelevant" : "not supported", r->why);
		return note(im, s, NULL, why) < 0 ? err_set(err, "out of memory") : 0;
	}
	return 0;
}

static int set_val(struct import_job *ij, enum opt_id id, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int set_val(struct import_job *ij, enum opt_id id, const char *fmt, ...)
{
	va_list ap;
	int rc;

	free(ij->val[id]);
	va_start(ap, fmt);
	rc = vasprintf(&ij->val[id], fmt, ap);
	va_end(ap);
	if (rc < 0)
		ij->val[id] = NULL;
	return rc < 0 ? -1 : 0;
}

static int set_size(struct import_job *ij, enum opt_id id, uint64_t bytes)
{
	char buf[64];

	units_fmt_size(bytes, buf, sizeof(buf));
	return set_val(ij, id, "%s", buf);
}

#define MAX_NAME 48 /* the longest job name an iosweep job file holds (job.c) */

/* The fio job's name, as an iosweep job file holds it: the same, or
 * refused; a name fio gave two jobs gets "-2", "-3"... */
static int set_name(struct import_job *ij, const struct fio_state *st, const char *job_at,
		    const struct import *im, char *err)
{
	const char *name = st->name ? st->name : st->job->name;
	size_t len = strnlen(name, MAX_NAME + 1);
	char base[32];
	int k = 1;

	if (len > MAX_NAME)
		return err_set(err, "%s: job '%.*s...': an iosweep job name holds at most %d bytes; "
				    "give the fio job a shorter name", job_at, MAX_NAME, name,
			       MAX_NAME);
	for (const char *p = name; *p; p++)
		if (*p == ']' || (unsigned char)*p < 0x20)
			return err_set(err, "%s: job '%s': an iosweep job name cannot hold %s; rename "
					    "the fio job", job_at, name, *p == ']' ?
					    "']' (it ends a [section])" : "a control character");
	if (!*name || strcmp(name, "global") == 0) {
		snprintf(base, sizeof(base), "job%zu", im->njobs + 1);
		name = base;
	}
	ij->name = strdup(name);
	/* fio allows two jobs of one name; iosweep does not */
	for (size_t i = 0; ij->name && i < im->njobs; i++)
		if (strcmp(im->jobs[i].name, ij->name) == 0) {
			free(ij->name);
			if (asprintf(&ij->name, "%s-%d", name, ++k) < 0)
				ij->name = NULL;
			i = (size_t)-1; /* look again from the start */
		}
	if (!ij->name)
		return err_set(err, "out of memory");
	if (strlen(ij->name) > MAX_NAME)
		return err_set(err, "%s: job '%s': fio has several jobs of this name; iosweep "
				    "names this one %s, longer than the %d bytes a job name holds: "
				    "give the fio jobs other names", job_at, name, ij->name, MAX_NAME);
	return 0;
}

static uint64_t file_size(const char *path, bool *exists)
{
	struct stat st;

	*exists = stat(path, &st) == 0 && (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode));
	return *exists && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
}

/* The job's size in bytes, from size, a percentage of the file, filesize or
 * the existing file (0 for a block device: its size is found at run time),
 * and in *ios the I/Os it stops after (0: the whole size): a filesize
 * larger than size makes size only the amount of I/O, and fio's random
 * I/Os range over the whole file (HOWTO filesize). */
static int job_size(struct fio_state *st, const char *path, uint64_t *size, uint64_t *ios,
		    char *err)
{
	bool exists = false;
	uint64_t have = path ? file_size(path, &exists) : 0;

	*size = st->size ? st->size : st->filesize;
	*ios = 0;
	if (st->size && st->filesize && st->filesize < st->size)
		return bad(st->size_at, err, "fio reads the %llu-byte file (filesize) more than "
					     "once to do size; iosweep reads a file once per "
					     "repeat", (unsigned long long)st->filesize);
	if (st->size && st->filesize > st->size && st->random) {
		*ios = st->size / st->bs + (st->size % st->bs != 0); /* checked with fio 3.33 */
		*size = st->filesize;
	}
	if (st->size_pct) {
		if (!exists || have == 0)
			return bad(st->size_at, err, "a percentage of a file that does not exist "
						     "(or is not a regular file with a size)");
		*size = have * st->size_pct / 100 / st->bs * st->bs;
		if (*size == 0)
			return bad(st->size_at, err, "is less than one block of the file");
	}
	if (*size == 0 && !exists)
		return err_set(err, "%s:%d: job '%s': fio needs a size (or an existing file) and "
				    "so does iosweep", st->job->file, st->job->line, st->job->name);
	if (*size == 0)
		*size = have; /* fio reads the whole file (0 for a block device: iosweep asks) */
	return 0;
}

/* "io_uring or pvsync2": fio's names of the engines that take option id,
 * as the engine table says (one fio name per iosweep engine). */
static void engines_taking(int id, char *buf, size_t n)
{
	size_t used = 0, total = 0;
	const char *names[8], *name, *to;

	for (size_t k = 0; engine_at(k); k++) {
		if (!option_engine_takes(engine_at(k), id))
			continue;
		for (size_t i = 0; (name = fio_engine_at(i, &to)); i++)
			if (strcmp(to, engine_at(k)->name) == 0 && total < 8) {
				names[total++] = name;
				break;
			}
	}
	buf[0] = '\0';
	for (size_t i = 0; i < total && used < n; i++)
		used += (size_t)snprintf(buf + used, n - used, "%s%s",
					 i == 0 ? "" : i + 1 == total ? " or " : ", ", names[i]);
}

/* The engine options (io_uring's, pvsync2's), where the engine takes them
 * (the engine table says); refused where it does not (fio refuses them
 * there, or, for libaio's nowait, does what iosweep's aio cannot). */
static int engine_flags(const struct fio_state *st, struct import_job *ij, const char *job_at,
			char *err)
{
	const struct engine_ops *e = engine_find(st->engine);
	char engines[128];

	for (int k = 0; k < KNOB__COUNT; k++) {
		int id = OPT_FIXEDBUFS + k;

		if (!st->knob[k])
			continue;
		if (!e || !option_engine_takes(e, id)) {
			engines_taking(id, engines, sizeof(engines));
			return err_set(err, "%s: job '%s': %s=1 needs ioengine=%s", job_at,
				       st->job->name, option_table[id].name, engines);
		}
		if (set_val(ij, id, "1") < 0)
			return err_set(err, "out of memory");
	}
	return 0;
}

/* Notes for the settings of the job that do nothing to it: write options
 * of a job that only reads, mix options of one that is not mixed. */
static int note_scoped(struct import *im, const struct fio_state *st)
{
	for (size_t i = 0; i < st->job->nset; i++) {
		const struct fio_word *r = fio_word_find(st->job->set[i].name);

		if (r && r->scope == FW_WRITE_JOBS && st->op == OP_READ &&
		    note(im, &st->job->set[i], NULL, "irrelevant: " W_ONLY) < 0)
			return -1;
		if (r && r->scope == FW_MIXED_JOBS && st->op != OP_READWRITE &&
		    note(im, &st->job->set[i], NULL,
			 "irrelevant: matters only for mixed reads and writes") < 0)
			return -1;
	}
	return 0;
}

static int set_duration(struct import_job *ij, enum opt_id id, uint64_t us)
{
	char buf[64];

	option_format(id, (union optval){ .u = us * 1000 }, buf, sizeof(buf));
	return set_val(ij, id, "%s", buf);
}

/* aio and uring keep iodepth I/Os in flight; the others do one at a time */
static bool queued_engine(const struct fio_state *st)
{
	return strcmp(st->engine, "aio") == 0 || strcmp(st->engine, "uring") == 0;
}

/* time_based and ramp_time (fio: time_based needs a runtime, else it is
 * dropped with a warning; the ramp comes before the runtime). */
static int finish_time(struct import *im, const struct fio_state *st, struct import_job *ij,
		       char *err)
{
	bool timed = st->time_based && st->runtime_us;

	if (st->time_based && !st->runtime_us &&
	    note(im, st->time_based_at, NULL, "irrelevant: fio drops time_based without a runtime "
					       "(and says so)") < 0)
		return err_set(err, "out of memory");
	if (st->ramp_us && !timed)
		return bad(st->ramp_at, err, "iosweep ramps up only inside time_based repeats: add "
					     "time_based and a runtime to the fio job, or use "
					     "iosweep's warmup (whole unmeasured repeats)");
	if (timed && set_val(ij, OPT_TIME_BASED, "1") < 0)
		return err_set(err, "out of memory");
	if (st->ramp_us && set_duration(ij, OPT_RAMP, st->ramp_us) < 0)
		return err_set(err, "out of memory");
	return 0;
}

/* fio's limits per direction and per clone as one limit of the job (iosweep
 * limits all the I/O of a job, split over its threads); fio's rate wins
 * over its rate_iops in a direction that has both (fio 3.33 init.c). */
static int finish_rate(struct import *im, const struct fio_state *st, struct import_job *ij,
		       char *err)
{
	const struct fio_setting *at = st->rate_at ? st->rate_at : st->rate_iops_at;
	uint64_t bps[2], total = 0;
	bool iops_only = true, both = false, used[2] = { st->op != OP_WRITE, st->op != OP_READ };
	unsigned mix = st->op == OP_READWRITE ? (unsigned)st->rwmixread :
		       st->op == OP_READ ? 100 : 0;

	if (!at)
		return 0;
	for (int d = 0; d < 2; d++) {
		bps[d] = st->rate[d];
		if (!bps[d] && __builtin_mul_overflow(st->rate_iops[d], st->bs_rw[d], &bps[d]))
			return bad(at, err, "too large a rate");
		if (used[d] && st->rate[d])
			iops_only = false;
		both |= used[d] && st->rate[d] && st->rate_iops[d];
	}
	if (both &&
	    note(im, st->rate_iops_at, NULL, "irrelevant: fio ignores rate_iops in a direction "
					      "that has a rate") < 0)
		return err_set(err, "out of memory");
	/* a mixed job: only limits in the mix's proportion make one limit */
	if (mix == 100 || mix == 0)
		total = bps[mix ? 0 : 1];
	else if (bps[0] && bps[1] &&
		 (unsigned __int128)bps[0] * (100 - mix) == (unsigned __int128)bps[1] * mix &&
		 !__builtin_add_overflow(bps[0], bps[1], &total))
		;
	else if (bps[0] || bps[1])
		return bad(at, err, "fio limits reads and writes separately (here %llu and %llu "
				    "bytes a second, 0 for none) and moves the mix towards the one "
				    "with room; iosweep limits the reads and writes of a job together: "
				    "it translates limits in the proportion of rwmixread=%u only",
			   (unsigned long long)bps[0], (unsigned long long)bps[1], mix);
	if (total == 0)
		return 0;
	/* every clone of numjobs has its own limit */
	if (total > INT64_MAX / st->numjobs)
		return bad(at, err, "too large a rate");
	total *= st->numjobs;
	if (iops_only && set_val(ij, OPT_RATE_IOPS, "%llu", (unsigned long long)(total / st->bs)) < 0)
		return err_set(err, "out of memory");
	if (!iops_only && set_size(ij, OPT_RATE, total) < 0)
		return err_set(err, "out of memory");
	if (st->iodepth > 1 && queued_engine(st) &&
	    note(im, at, NULL, "translated with a difference: when it is ahead of its rate fio "
			       "waits for all its I/O in flight to complete before it sleeps; "
			       "iosweep keeps them in flight") < 0)
		return err_set(err, "out of memory");
	return 0;
}

/* The file a write job names: never a device (iosweep would refuse it);
 * a file of the user's only with allow_write, which the translation does
 * not add: it says what to add. */
static int finish_target(struct import *im, const struct fio_state *st, const char *path,
			 const char *job_at, char *err)
{
	const struct fio_setting *at = st->filename_at;
	struct stat sb;
	char why[800];

	if (!path)
		return 0; /* iosweep's own test file */
	if (strncmp(path, "/dev/", 5) == 0 || (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode))) {
		if (at)
			return bad(at, err, "iosweep never writes a device or anything but a regular "
					    "file; write the fio job for a file");
		return err_set(err, "%s: job '%s': %s: iosweep never writes a device or anything "
				    "but a regular file", job_at, st->job->name, path);
	}
	snprintf(why, sizeof(why), "this job writes %.200s: iosweep writes it only if it creates it "
				   "or created it earlier; to let it overwrite a file of yours "
				   "there, add 'allow_write = %.200s' to the job", path, path);
	return note(im, at, at ? NULL : job_at, why) < 0 ? err_set(err, "out of memory") : 0;
}

/* sync: one kind of durability per iosweep run; fio's end fsync is in its
 * timed part (backend.c do_io), as sync = end is in iosweep's. */
static int finish_sync(struct import *im, const struct fio_state *st, struct import_job *ij,
		       char *err)
{
	bool end = st->end_fsync || st->fsync_on_close;
	uint64_t every = st->fsync_every ? st->fsync_every : st->fdatasync_every;
	const struct fio_setting *at = st->fsync_every ? st->fsync_at : st->fdatasync_at;
	int rc = 0;

	if (st->fsync_every && st->fdatasync_every)
		return bad(st->fdatasync_at, err, "iosweep flushes one way in a run: fsync or "
						  "fdatasync, not both");
	if (every && st->sync_open)
		return bad(st->sync_at, err, "iosweep makes writes durable one way in a run: "
					     "O_SYNC/O_DSYNC writes or flushes every N writes, not both");
	if (every) {
		rc |= set_val(ij, OPT_SYNC, "%s", st->fsync_every ? "fsync" : "fdatasync");
		rc |= set_val(ij, OPT_SYNC_EVERY, "%llu", (unsigned long long)every);
		if (!end && every > 1)
			rc |= note(im, at, NULL, "translated with a difference: iosweep also flushes "
						 "once after the last write when writes since the last "
						 "flush are left (fio does not without end_fsync)");
		if (end && st->fdatasync_every)
			rc |= note(im, at, NULL, "translated with a difference: iosweep's flush after "
						 "the last write is an fdatasync, fio's an fsync");
	} else if (st->sync_open) {
		rc |= set_val(ij, OPT_SYNC, "%s", st->sync_open);
		if (end)
			rc |= note(im, st->sync_at, NULL, "translated with a difference: iosweep does "
							  "not fsync an O_SYNC/O_DSYNC file at the end");
	} else if (end) {
		rc |= set_val(ij, OPT_SYNC, "%s", "end");
	}
	return rc < 0 ? err_set(err, "out of memory") : 0;
}

/* What is written.  iosweep's data is always new in every block (a function
 * of seed and offset, checkable), which is fio's refill_buffers; fio's
 * default writes one buffer again and again with a few bytes scrambled
 * (scramble_buffers=1), and verify or buffer_compress_percentage turn
 * refill_buffers on.  A deduplicating or compressing store tells them
 * apart; a disk does not. */
static int finish_data(struct import *im, const struct fio_state *st, struct import_job *ij,
		       char *err)
{
	int rc = 0;

	if (st->zero_buffers || st->compress_pct == 100)
		return set_val(ij, OPT_DATA, "%s", "zero") < 0 ? err_set(err, "out of memory") : 0;
	if (st->compress_pct) {
		rc |= set_val(ij, OPT_COMPRESS, "%llu", (unsigned long long)st->compress_pct);
		if (st->compress_chunk != 4096)
			rc |= note(im, st->compress_at, NULL,
				   "translated with a difference: fio makes every chunk of "
				   "buffer_compress_chunk bytes (512 unless set) that compressible, "
				   "iosweep every 4 KiB");
	} else if (!st->refill_buffers && !st->verify) {
		rc |= note(im, NULL, st->job->file, /* once per file */
			   st->scramble_buffers ?
			   "write jobs without refill_buffers: translated with a difference: fio "
			   "writes the same buffer again and again, a few bytes of it scrambled "
			   "(scramble_buffers=1); iosweep writes new data into every block, as fio's "
			   "refill_buffers does" :
			   "write jobs with scramble_buffers=0: translated with a difference: fio "
			   "writes the same buffer again and again; iosweep writes new data into every "
			   "block, as fio's refill_buffers does");
	}
	return rc < 0 ? err_set(err, "out of memory") : 0;
}

/* Where a write job's writes go (fio 3.33 filesetup.c): fio lays a file
 * out when it is missing or too small, and then, for a job that only
 * writes, as fallocate says (native and posix: fallocated; none and
 * truncate: a hole; keep: fallocated beyond the file's end) or, with
 * overwrite=1 or a job that reads too, by writing it whole; a file that is
 * there is overwritten.  The translation is fio's first run (whether the
 * file is there is known when the job runs, not when it is translated);
 * iosweep's alloc applies before every repeat. */
static int finish_alloc(struct import *im, const struct fio_state *st, struct import_job *ij,
			char *err)
{
	int rc = 0;

	if (st->op != OP_WRITE || st->overwrite)
		return 0; /* alloc = overwrite, the default */
	rc |= set_val(ij, OPT_ALLOC, "%s", st->create_on_open || st->fallocate == FALLOC_NONE ||
					   st->fallocate == FALLOC_TRUNCATE ? "allocate" : "prealloc");
	if (st->fallocate == FALLOC_KEEP)
		rc |= note(im, st->rw_at, NULL, "translated with a difference: fio's fallocate=keep leaves "
					 "the file empty, its writes extending it into fallocated space; "
					 "iosweep's file has its size");
	if (!st->unlink_each_loop && (!st->unlink || st->loops > 1))
		rc |= note(im, NULL, st->job->file, /* once per file */
			   st->unlink ?
			   "write jobs with unlink and loops: translated with a difference: fio lays "
			   "the file out before its first loop only, its later loops overwrite it; "
			   "iosweep's alloc empties it before every repeat (alloc = overwrite is fio's "
			   "later loops)" :
			   "write jobs: translated as fio's first run, which lays the file out; "
			   "fio's later runs and loops find the file and overwrite it (alloc = "
			   "overwrite, or overwrite=1 in the fio job); iosweep's alloc empties it "
			   "before every repeat");
	return rc < 0 ? err_set(err, "out of memory") : 0;
}

/* verify: after the writes of every repeat, untimed, iosweep checks its
 * data; fio checks its headers and times the check as the job's reads. */
static int finish_verify(struct import *im, const struct fio_state *st, struct import_job *ij,
			 char *err)
{
	const char *why = NULL;

	if (!st->verify)
		return 0;
	if (!st->do_verify && !st->verify_only)
		why = "irrelevant: fio writes its verify headers but does not check them "
		      "(do_verify=0)";
	else if (st->op == OP_WRITE && st->time_based && st->runtime_us && !st->verify_only)
		why = "irrelevant: fio's time_based writes take the whole runtime, so it never "
		      "checks (and says so)";
	if (why)
		return note(im, st->verify_at, NULL, why) < 0 ? err_set(err, "out of memory") : 0;
	if (set_val(ij, OPT_VERIFY, "%s", "after") < 0)
		return err_set(err, "out of memory");
	why = st->op == OP_READ ?
	      "translated with a difference: verify = after checks iosweep's data (each 4 KiB "
	      "names its offset and seed), so the file must be one an iosweep write job of the "
	      "same seed wrote; a file fio wrote fails it" :
	      "translated with a difference: fio writes a header and checksum into every block "
	      "and times reading them back as the job's reads; iosweep checks its own data after "
	      "every repeat, untimed (verified_bytes)";
	return note(im, st->verify_at, NULL, why) < 0 ? err_set(err, "out of memory") : 0;
}

/* The write side of a job (fio's rw), with the file it writes. */
static int finish_writes(struct import *im, struct fio_state *st, struct import_job *ij,
			 const char *path, const char *job_at, char *err)
{
	int rc = 0;

	if (st->verify_only) {
		/* fio only checks what an earlier run of the job wrote: a read */
		if (!st->verify)
			return bad(st->verify_only_at, err, "verify_only without verify checks "
							    "nothing");
		st->op = OP_READ;
		if (note(im, st->verify_only_at, NULL, "translated: a read of the blocks the job "
						       "writes, with verify = after") < 0)
			return err_set(err, "out of memory");
	}
	if (st->op == OP_READ)
		return finish_verify(im, st, ij, err);
	if (finish_target(im, st, path, job_at, err) < 0)
		return -1;
	rc |= set_val(ij, OPT_OP, "%s", st->op == OP_WRITE ? "write" : "readwrite");
	if (st->op == OP_READWRITE)
		rc |= set_val(ij, OPT_RWMIXREAD, "%llu", (unsigned long long)st->rwmixread);
	if (st->op == OP_READWRITE && !st->random)
		rc |= note(im, st->rw_at, NULL,
			   "translated with a difference: fio's reads and writes each go through "
			   "the file from its start, the writes over blocks the reads read; iosweep "
			   "goes through it once, reading rwmixread percent of the blocks and "
			   "writing the others");
	else if (st->op == OP_READWRITE)
		rc |= note(im, st->rw_at, NULL,
			   "translated with a difference: fio draws each I/O's direction as it "
			   "goes, iosweep each block's from seed: the same share, other blocks");
	if (rc < 0)
		return err_set(err, "out of memory");
	if (finish_sync(im, st, ij, err) < 0 || finish_data(im, st, ij, err) < 0 ||
	    finish_alloc(im, st, ij, err) < 0)
		return -1;
	return finish_verify(im, st, ij, err);
}

/* fio reaps libaio completions one per io_getevents call by default
 * (iodepth_batch_complete_min=1, max 1); iosweep's loop waits for a
 * quarter of iodepth and takes up to iodepth (ioloop.c).  Measured with
 * strace on 2048 direct random 4 KiB reads at iodepth 32: fio 2018
 * io_getevents calls, iosweep 65, both 2048 io_submit; fio with the
 * options below 66. */
static int note_reaping(struct import *im, const struct fio_state *st)
{
	uint64_t quarter = st->iodepth / 4 ? st->iodepth / 4 : 1;
	uint64_t max = st->batch_max ? st->batch_max : st->batch_min ? st->batch_min : 1;
	char why[600];

	if (strcmp(st->engine, "aio") != 0 || st->iodepth < 2)
		return 0;
	if ((st->batch_min ? st->batch_min : 1) == quarter && max == st->iodepth)
		return 0;
	snprintf(why, sizeof(why), "translated with a difference: fio's libaio waits for %llu "
				   "completion%s and takes up to %llu per io_getevents call, iosweep "
				   "waits for %llu and takes up to %llu (one system call for several "
				   "I/Os): add iodepth_batch_complete_min=%llu and "
				   "iodepth_batch_complete_max=%llu to the fio job to make fio reap as "
				   "iosweep does",
		 (unsigned long long)(st->batch_min ? st->batch_min : 1),
		 (st->batch_min ? st->batch_min : 1) == 1 ? "" : "s", (unsigned long long)max,
		 (unsigned long long)quarter, (unsigned long long)st->iodepth,
		 (unsigned long long)quarter, (unsigned long long)st->iodepth);
	return note(im, st->batch_at, st->batch_at ? NULL : st->job->file, why);
}

/* fio opens a relative file name in the directory it runs in; iosweep's job
 * files take one relative to their own directory: the translation names
 * the file in the current directory, absolutely, and says so. */
static int absolute_path(struct import *im, const struct fio_state *st, char **path, char *err)
{
	const struct fio_setting *at = st->filename_at ? st->filename_at : st->directory_at;
	char *cwd = getcwd(NULL, 0), *abs = NULL, why[600];

	if (!cwd)
		return bad(at, err, "a relative path, and the current directory is unknown: %s",
			   strerror(errno));
	if (asprintf(&abs, "%s/%s", strcmp(cwd, "/") == 0 ? "" : cwd, *path) < 0)
		abs = NULL;
	free(cwd);
	if (!abs)
		return err_set(err, "out of memory");
	free(*path);
	*path = abs;
	snprintf(why, sizeof(why), "a relative path: fio opens it in the directory it runs in; "
				   "translated as %.400s, in the directory of this import", abs);
	return note(im, at, NULL, why) < 0 ? err_set(err, "out of memory") : 0;
}

/* The job's block size: that of its direction (a job that reads and
 * writes: of both, the same). */
static int finish_bs(struct fio_state *st, char *err)
{
	int d = st->op == OP_WRITE;

	for (int e = 0; e < 2; e++) {
		if (e != d && st->op != OP_READWRITE)
			continue;
		if (st->bs_split[e])
			return bad(st->bs_at[e], err, "fio mixes several block sizes in one job; "
						      "iosweep reads one block size per run: write bs "
						      "= a list of sizes to sweep them");
		if (st->bs_hi[e] != st->bs_rw[e])
			return bad(st->bs_at[e], err, "fio mixes block sizes from %llu to %llu bytes "
						      "in one job; iosweep reads one block size per run: "
						      "write bs = one size, or bs = a list of sizes to "
						      "sweep them", (unsigned long long)st->bs_rw[e],
				   (unsigned long long)st->bs_hi[e]);
	}
	if (st->op == OP_READWRITE && st->bs_rw[0] != st->bs_rw[1])
		return bad(st->bs_at[1] ? st->bs_at[1] : st->bs_at[0], err,
			   "fio reads %llu-byte blocks and writes %llu-byte ones: mixed block sizes "
			   "in one job; iosweep reads and writes one block size per run",
			   (unsigned long long)st->bs_rw[0], (unsigned long long)st->bs_rw[1]);
	st->bs = st->bs_rw[d];
	return 0;
}

/* The state of a job, as iosweep options. */
static int finish(struct import *im, struct fio_state *st, struct import_job *ij, char *err)
{
	bool random = st->random, queued = queued_engine(st);
	char *path = NULL, job_at[300];
	uint64_t size, spacing, ios;
	int rc = 0;

	if (finish_bs(st, err) < 0)
		return -1;
	spacing = st->bs + st->rw_skip;
	if (st->bs == 0 || spacing == 0) /* bsrange=0-0 or bssplit=0/100 */
		return err_set(err, "%s:%d: job '%s': a block size of 0 reads nothing",
			       st->job->file, st->job->line, st->job->name);
	if (st->job->line)
		snprintf(job_at, sizeof(job_at), "%s:%d", st->job->file, st->job->line);
	else
		snprintf(job_at, sizeof(job_at), "%s", st->job->file);

	ij->fio_name = strdup(st->job->name);
	if (!ij->fio_name)
		return err_set(err, "out of memory");
	if (set_name(ij, st, job_at, im, err) < 0)
		return -1;
	if (st->filename && st->directory && st->filename[0] != '/')
		rc = asprintf(&path, "%s/%s", st->directory, st->filename);
	else if (st->filename)
		path = strdup(st->filename);
	else if (st->directory)
		rc = asprintf(&path, "%s/%s.0.0", st->directory, st->job->name);
	if (rc < 0 || ((st->filename || st->directory) && !path))
		return err_set(err, "out of memory");
	if (path && path[0] != '/' && absolute_path(im, st, &path, err) < 0) {
		free(path);
		return -1;
	}
	rc = job_size(st, path, &size, &ios, err);
	if (rc == 0 && path)
		rc = set_val(ij, OPT_FILENAME, "%s", path);
	else if (rc == 0)
		rc = note(im, NULL, st->job->file, /* once per file, not per job */
			  "no filename: fio would lay out a file named after the job in the "
			  "current directory; iosweep uses its own test file of the same size");
	if (rc == 0)
		rc = finish_writes(im, st, ij, path, job_at, err);
	free(path);
	if (rc < 0)
		return err[0] ? -1 : err_set(err, "out of memory");
	if (st->direct && strcmp(st->engine, "mmap") == 0) {
		return err_set(err, "%s:%d: job '%s': direct=1 with ioengine=mmap: iosweep cannot "
				    "bypass the page cache with mmap", st->job->file, st->job->line,
			       st->job->name);
	}
	if (st->rw_skip) {
		/* checked against fio 3.33: rw=read:N does size/bs reads, and when
		 * its holes reach the end of the region it starts over at the first
		 * offset; number_ios stops it after one pass */
		uint64_t pass = size >= st->bs ? (size - st->bs) / spacing + 1 : 0;

		if (!st->number_ios || st->number_ios > pass)
			return bad(st->rw_at, err, "fio does size/bs I/Os (%llu here): at the end of "
						   "the region it starts over and does the same %llu "
						   "blocks again; iosweep does them once: add "
						   "number_ios=%llu (one pass) to the fio job",
				   (unsigned long long)(size / st->bs), (unsigned long long)pass,
				   (unsigned long long)pass);
	}
	if (st->number_ios && (!ios || st->number_ios < ios))
		ios = st->number_ios;
	if (ios && size) {
		if (random && ios < size / st->bs)
			rc |= set_val(ij, OPT_COUNT, "%llu", (unsigned long long)ios);
		else if (!random && ios <= (size - st->bs) / spacing)
			size = (ios - 1) * spacing + st->bs;
	} else if (ios) {
		rc |= note(im, NULL, job_at,
			   "irrelevant: number_ios with a block device of unknown size");
	}
	if (size)
		rc |= set_size(ij, OPT_SIZE, size);
	rc |= set_size(ij, OPT_BS, st->bs);
	if (st->rw_skip)
		rc |= set_size(ij, OPT_SPACING, spacing);
	/* fio's random map reads every block once, as iosweep's random does */
	rc |= set_val(ij, OPT_PATTERN, "%s", !random ? "sequential" :
					     st->norandommap ? "random-replace" : "random");
	if (random && st->seed_set)
		rc |= set_val(ij, OPT_SEED, "%llu", (unsigned long long)st->seed);
	rc |= set_val(ij, OPT_ENGINE, "%s", st->engine);
	if (queued)
		rc |= set_val(ij, OPT_IODEPTH, "%llu", (unsigned long long)st->iodepth);
	rc |= set_val(ij, OPT_CACHE, "%s", st->direct ? "direct" : st->pre_read ? "warm" :
					   st->invalidate ? "fadvise" : "keep");
	rc |= set_val(ij, OPT_HINT, "%s", st->hint ? st->hint : random ? "random" : "sequential");
	rc |= set_val(ij, OPT_THREADS, "%llu", (unsigned long long)st->numjobs);
	rc |= set_val(ij, OPT_CONSUME, "%s", "none");
	rc |= set_val(ij, OPT_REPEAT, "%llu", (unsigned long long)st->loops);
	if (st->runtime_us)
		rc |= set_duration(ij, OPT_RUNTIME, st->runtime_us);
	if (st->description)
		rc |= set_val(ij, OPT_DESCRIPTION, "%s", st->description);
	if (rc == 0 && (engine_flags(st, ij, job_at, err) < 0 || finish_time(im, st, ij, err) < 0 ||
			finish_rate(im, st, ij, err) < 0))
		return -1;

	/* iosweep's job files hold lines of at most 198 bytes; lists go on
	 * on indented lines (write_value), other values cannot; and every value
	 * must be one iosweep takes (a block size of at most 1 GiB ...) */
	for (int k = 0; k < OPT__COUNT; k++) {
		const struct fio_setting *at = k == OPT_DESCRIPTION ? st->description_at :
					       k == OPT_FILENAME ? (st->filename_at ? st->filename_at :
								    st->directory_at) : NULL;
		char why[ERR_MAX];
		union optval v;

		if (!ij->val[k])
			continue;
		if (!option_table[k].list &&
		    strlen(ij->val[k]) + strlen(option_table[k].name) + 3 > MAX_LINE) {
			snprintf(why, sizeof(why), "job '%s': %s is %zu characters long: an iosweep "
						   "job file line holds %d; use a shorter one",
				 st->job->name, option_table[k].name, strlen(ij->val[k]), MAX_LINE);
			return at ? bad(at, err, "%s", why) : err_set(err, "%s: %s", job_at, why);
		}
		if (option_parse_value(k, ij->val[k], &v, why) < 0)
			return err_set(err, "%s: job '%s': %s = %s: %s; iosweep cannot run that",
				       job_at, st->job->name, option_table[k].name, ij->val[k], why);
		if (option_table[k].type == T_PATH || option_table[k].type == T_TEXT ||
		    option_table[k].type == T_JOB)
			free((char *)v.s);
	}
	/* what is translated with a difference, said where it was written */
	if (!queued && st->iodepth > 1)
		rc |= note(im, st->iodepth_at, NULL,
			   "irrelevant: fio's synchronous engines do one I/O at a time");
	if (random && st->seed_set)
		rc |= note(im, st->seed_at, NULL,
			   "translated with a difference: iosweep's generator is not fio's: the "
			   "same seed gives another order of the same blocks");
	if (random && !st->randrepeat)
		rc |= note(im, st->randrepeat_at, NULL,
			   "not supported: iosweep's random offsets are the same for every "
			   "repeat of a seed");
	if (!random && (st->seed_at || st->randrepeat_at))
		rc |= note(im, st->seed_at ? st->seed_at : st->randrepeat_at, NULL,
			   "irrelevant: this job reads in order");
	if (st->numjobs > 1)
		rc |= note(im, st->numjobs_at, NULL,
			   "translated with a difference: fio's clones each do the whole size "
			   "(each its own file unless filename is given); iosweep's threads "
			   "share one file's I/O: compare throughput and IOPS, not time");
	if (st->loops > 1 && st->runtime_us)
		rc |= note(im, st->loops_at, NULL,
			   "translated with a difference: fio's runtime caps all loops "
			   "together, iosweep's each repeat");
	rc |= note_reaping(im, st);
	rc |= note_scoped(im, st);
	return rc < 0 ? err_set(err, "out of memory") : 0;
}

static int translate_job(struct import *im, const struct fio_job *job, char *err)
{
	struct fio_state st = {
		.job = job, .op = OP_READ, .bs_rw = { 4096, 4096 }, .bs_hi = { 4096, 4096 },
		.engine = "sync", .iodepth = 1,
		.invalidate = true, .randrepeat = true, .numjobs = 1, .loops = 1,
		.rwmixread = 50, .scramble_buffers = true, .do_verify = true,
		.fallocate = FALLOC_NATIVE, .compress_chunk = 512,
	};
	struct import_job *jobs;

	if (kb_base_of(job, &st.kb_base, err) < 0)
		return -1;
	for (size_t i = 0; i < job->nset; i++)
		if (apply(im, &st, &job->set[i], err) < 0)
			return -1;
	jobs = fio_grow(im->jobs, im->njobs, sizeof(*jobs));
	if (!jobs)
		return err_set(err, "out of memory");
	im->jobs = jobs;
	memset(&jobs[im->njobs], 0, sizeof(*jobs));
	if (finish(im, &st, &jobs[im->njobs], err) < 0) {
		struct import_job *ij = &jobs[im->njobs];

		for (int k = 0; k < OPT__COUNT; k++)
			free(ij->val[k]);
		free(ij->name);
		free(ij->fio_name);
		return -1;
	}
	im->njobs++;
	return 0;
}

/* fio starts the jobs of one file together unless stonewall (or wait_for)
 * makes one wait for those before it; iosweep runs jobs one at a time. */
static bool job_ordered(const struct fio_job *job)
{
	bool ordered = false, b;
	char err[ERR_MAX];

	for (size_t i = 0; i < job->nset; i++) {
		const struct fio_setting *s = &job->set[i];

		if (strcmp(s->name, "wait_for") == 0)
			ordered = true;
		else if ((strcmp(s->name, "stonewall") == 0 ||
			  strcmp(s->name, "wait_for_previous") == 0) &&
			 fio_parse_bool(s->value, &b, err) == 0)
			ordered = b;
	}
	return ordered;
}

int import_translate(const struct fio_input *in, struct import *out, char *err)
{
	char why[200];

	snprintf(why, sizeof(why), "irrelevant: %s", fio_why_report);
	memset(out, 0, sizeof(*out));
	if (in->njobs == 0)
		return err_set(err, "%s: no job defined (fio says \"No job(s) defined\"): every "
				    "section but [global] is a job", in->nfiles ? in->files[0] : "fio");
	for (size_t i = 0; i < in->nflags; i++)
		if (note(out, &in->flags[i], NULL, why) < 0)
			return err_set(err, "out of memory");
	for (size_t i = 0; i < in->njobs; i++) {
		const struct fio_job *job = &in->jobs[i];

		if (i > 0 && job->group == in->jobs[i - 1].group && !job_ordered(job)) {
			if (job->line)
				return err_set(err, "%s:%d: [%s] runs at the same time as [%s] in fio "
						    "(no stonewall): iosweep runs jobs one after "
						    "another; add stonewall to [%s] or to [global] if "
						    "that is what you measure", job->file, job->line,
					       job->name, in->jobs[i - 1].name, job->name);
			return err_set(err, "%s: --name=%s runs at the same time as --name=%s in "
					    "fio (no --stonewall): iosweep runs jobs one after "
					    "another; add --stonewall if that is what you measure",
				       job->file, job->name, in->jobs[i - 1].name);
		}
		if (translate_job(out, job, err) < 0)
			return -1;
	}
	return 0;
}

/* ---- merging ---- */

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* A job's value of option k as text; NULL (not written) is the default. */
static const char *value_of(const struct import_job *j, int k)
{
	return j->val[k] ? j->val[k] : option_table[k].def;
}

/* Whether option k does anything to job j, as the plan decides (plan.c):
 * iodepth only for the queued engines, an engine option only for the
 * engines that take it, the write options only when the job writes. */
static bool takes(const struct import_job *j, int k)
{
	const struct engine_ops *e = engine_find(value_of(j, OPT_ENGINE));
	const char *op = value_of(j, OPT_OP);

	if (k == OPT_IODEPTH)
		return e && (e->flags & ENGINE_QUEUED);
	if (option_knob(k) >= 0)
		return e && option_engine_takes(e, k);
	if (k == OPT_SYNC || k == OPT_SYNC_EVERY || k == OPT_DATA || k == OPT_COMPRESS ||
	    k == OPT_ALLOC)
		return strcmp(op, "read") != 0;
	if (k == OPT_RWMIXREAD)
		return strcmp(op, "readwrite") == 0;
	return true;
}

/* The one list option a and b differ in, -1 when none, -2 when several or
 * one that is not a list.  An option one of them does not take and leaves
 * unwritten does not count (a sync job and an aio one that differ in the
 * engine merge, the aio job's iodepth going with it). */
static int differs_in(const struct import_job *a, const struct import_job *b)
{
	int found = -1;

	for (int k = 0; k < OPT__COUNT; k++) {
		if (same_text(value_of(a, k), value_of(b, k)) ||
		    (!a->val[k] && !takes(a, k)) || (!b->val[k] && !takes(b, k)))
			continue;
		if (found != -1 || !option_table[k].list || !value_of(a, k) || !value_of(b, k))
			return -2;
		found = k;
	}
	return found;
}

/* Whether c agrees with the jobs merged so far on the options the first
 * of them does not take (their values in kept[], NULL: none yet). */
static bool agrees(const struct import_job *first, const char *const *kept,
		   const struct import_job *c, int k)
{
	for (int o = 0; o < OPT__COUNT; o++)
		if (o != k && !takes(first, o) && takes(c, o) && kept[o] &&
		    !same_text(kept[o], value_of(c, o)))
			return false;
	return true;
}

static int merge_run(struct import *im, size_t first, size_t n, int k, const char *const *kept,
		     char *err)
{
	struct import_job *base = &im->jobs[first];
	char *list = NULL, *names = NULL, *tmp;

	for (size_t i = 0; i < n; i++) {
		struct import_job *j = &im->jobs[first + i];

		if (asprintf(&tmp, "%s%s%s", list ? list : "", list ? ", " : "", value_of(j, k)) < 0)
			goto oom;
		free(list);
		list = tmp;
		if (asprintf(&tmp, "%s%s%s", names ? names : "", names ? ", " : "", j->fio_name) < 0)
			goto oom;
		free(names);
		names = tmp;
	}
	if (asprintf(&base->merged, "%s (they differ only in %s)", names,
		     option_table[k].name) < 0) {
		base->merged = NULL;
		goto oom;
	}
	free(names);
	names = NULL;
	free(base->val[k]);
	base->val[k] = list;
	list = NULL;
	/* what the first job left unwritten, from the others that take it */
	for (int o = 0; o < OPT__COUNT; o++)
		if (!base->val[o] && kept[o] && !(base->val[o] = strdup(kept[o])))
			goto oom;
	for (size_t i = 1; i < n; i++) {
		struct import_job *j = &im->jobs[first + i];

		for (int o = 0; o < OPT__COUNT; o++)
			free(j->val[o]);
		free(j->name);
		free(j->fio_name);
		free(j->merged);
	}
	memmove(base + 1, base + n, (im->njobs - first - n) * sizeof(*base));
	im->njobs -= n - 1;
	return 0;
oom:
	free(list);
	free(names);
	return err_set(err, "out of memory");
}

int import_merge(struct import *im, char *err)
{
	for (size_t i = 0; i + 1 < im->njobs; i++) {
		int k = differs_in(&im->jobs[i], &im->jobs[i + 1]);
		const char *kept[OPT__COUNT];
		size_t n = 1;

		if (k < 0)
			continue;
		bool written[OPT__COUNT] = { false };

		for (int o = 0; o < OPT__COUNT; o++)
			kept[o] = NULL;
		/* the jobs that differ from the first in the same option, each
		 * value new, agreeing on what the first does not take */
		while (i + n < im->njobs && differs_in(&im->jobs[i], &im->jobs[i + n]) == k &&
		       agrees(&im->jobs[i], kept, &im->jobs[i + n], k)) {
			bool repeated = false;

			for (size_t m = 0; m < n; m++)
				repeated |= same_text(value_of(&im->jobs[i + m], k),
						      value_of(&im->jobs[i + n], k));
			if (repeated)
				break;
			for (int o = 0; o < OPT__COUNT; o++)
				if (!kept[o] && !takes(&im->jobs[i], o) && takes(&im->jobs[i + n], o)) {
					kept[o] = value_of(&im->jobs[i + n], o);
					written[o] = im->jobs[i + n].val[o] != NULL;
				}
			n++;
		}
		for (int o = 0; o < OPT__COUNT; o++)
			if (!written[o])
				kept[o] = NULL; /* a default: left unwritten */
		if (merge_run(im, i, n, k, kept, err) < 0)
			return -1;
	}
	return 0;
}

/* ---- output ---- */

/* Values every job shares go to [global] (when there are several jobs). */
static bool shared(const struct import *im, int k)
{
	if (im->njobs < 2 || !im->jobs[0].val[k] || option_table[k].per_job)
		return false;
	for (size_t i = 1; i < im->njobs; i++)
		if (!same_text(im->jobs[0].val[k], im->jobs[i].val[k]))
			return false;
	return true;
}

/* Comment text in lines of at most WIDTH columns (iosweep's job files
 * refuse lines longer than inih reads); a word longer than that is cut. */
#define WIDTH 100

static void write_comment(FILE *f, const char *first, const char *text)
{
	const char *prefix = first;
	size_t col;

	size_t len = strlen(text); /* once: a name of megabytes makes many lines */

	while (len) {
		size_t room, take;

		fputs(prefix, f);
		col = strlen(prefix);
		room = WIDTH - col;
		take = len <= room ? len : room;
		if (take < len) {
			size_t sp = take;

			while (sp > 0 && text[sp] != ' ')
				sp--;
			if (sp > 0)
				take = sp;
		}
		/* one comment line: a line break in a name or a value would end it */
		for (size_t i = 0; i < take; i++)
			fputc((unsigned char)text[i] < 0x20 ? ' ' : text[i], f);
		fputc('\n', f);
		text += take;
		len -= take;
		while (*text == ' ') {
			text++;
			len--;
		}
		prefix = ";     ";
	}
}

/* name = value; a long list goes on on indented lines. */
static void write_value(FILE *f, int k, const char *value)
{
	size_t col = (size_t)fprintf(f, "%s = ", option_table[k].name);

	while (option_table[k].list && strlen(value) + col > WIDTH) {
		const char *cut = value + (WIDTH - col);

		while (cut > value && *cut != ',')
			cut--;
		if (cut == value)
			break;
		fprintf(f, "%.*s,\n", (int)(cut - value), value);
		value = cut + 1;
		while (*value == ' ')
			value++;
		col = (size_t)fprintf(f, "    ");
	}
	fprintf(f, "%s\n", value);
}

void import_write(const struct import *im, const char *sources, FILE *f)
{
	bool any_shared = false;
	char *line;

	fprintf(f, "; iosweep job translated from fio by `iosweep import` (iosweep %s)\n",
		IOSWEEP_VERSION);
	write_comment(f, "; from: ", sources);
	fprintf(f, "; repeat is fio's loops (1 unless set): raise it for statistics\n");
	if (im->nnotes)
		fprintf(f, ";\n; fio settings not translated as written:\n");
	for (size_t i = 0; i < im->nnotes; i++) {
		if (asprintf(&line, "%s: %s%s%s", im->notes[i].where, im->notes[i].setting,
			     *im->notes[i].setting ? ": " : "", im->notes[i].why) < 0)
			continue;
		write_comment(f, ";   ", line);
		free(line);
	}
	for (int k = 0; k < OPT__COUNT; k++)
		any_shared |= shared(im, k);
	if (any_shared) {
		fprintf(f, "\n[global]\n");
		for (int k = 0; k < OPT__COUNT; k++)
			if (shared(im, k))
				write_value(f, k, im->jobs[0].val[k]);
	}
	for (size_t i = 0; i < im->njobs; i++) {
		const struct import_job *j = &im->jobs[i];

		fprintf(f, "\n[%s]\n", j->name);
		if (j->merged)
			write_comment(f, "; merged from fio jobs ", j->merged);
		else if (strcmp(j->name, j->fio_name) != 0)
			write_comment(f, "; fio job ", j->fio_name);
		for (int k = 0; k < OPT__COUNT; k++)
			if (j->val[k] && !shared(im, k))
				write_value(f, k, j->val[k]);
	}
}

void import_free(struct import *im)
{
	for (size_t i = 0; i < im->njobs; i++) {
		for (int k = 0; k < OPT__COUNT; k++)
			free(im->jobs[i].val[k]);
		free(im->jobs[i].name);
		free(im->jobs[i].fio_name);
		free(im->jobs[i].merged);
	}
	for (size_t i = 0; i < im->nnotes; i++) {
		free(im->notes[i].where);
		free(im->notes[i].setting);
		free(im->notes[i].why);
	}
	free(im->jobs);
	free(im->notes);
	free(im->note_slots);
	memset(im, 0, sizeof(*im));
}
