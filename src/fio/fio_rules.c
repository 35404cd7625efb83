/*
 * fio_rules.c - see fio_rules.h.  One handler per kind of fio value; which
 * fio option is read by which is the table of fio's words
 * (job/fio_words.c), and `actions` below attaches each handler to its row.
 */
#define _GNU_SOURCE
#include "fio/fio_rules.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio/fio_names.h"
#include "io/distribution.h"
#include "io/steady.h"
#include "job/fio_words.h"
#include "job/options.h"
#include "lib/error.h"

typedef int (*handler_fn)(struct fio_state *st, const struct fio_setting *s, char *err);

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
			return setting_bad(s, err, "too long a value");
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
			return setting_bad(s, err, "a line break or control character, which an iosweep job "
					   "file cannot hold; remove it");
		if (p[0] == '$' && p[1] == '{')
			return setting_bad(s, err, "iosweep expands '${' in its job files and has no way to "
					   "write it as it is; remove it");
		if (*p == ';' && p > v && (p[-1] == ' ' || p[-1] == '\t'))
			return setting_bad(s, err, "' ;' starts a comment in an iosweep job file; remove "
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
		setting_bad(s, err, "white space at the end of a path; remove it");
		return NULL;
	}
	if (verbatim(s, v, err) < 0)
		return NULL;
	/* iosweep reads '$' in a file name as a variable's (${VAR}) and has no
	 * way to write it as it is */
	if (strchr(v, '$')) {
		setting_bad(s, err, "a '$' in a path, which an iosweep job file cannot hold as it is "
			    "(it starts a ${VAR}); rename the file or directory");
		return NULL;
	}
	return v;
}


static int h_name(struct fio_state *st, const struct fio_setting *s, char *err)
{
	size_t len;

	if (!needs_value(s, err))
		return -1;
	len = strlen(s->value);
	if (isspace((unsigned char)s->value[0]) || isspace((unsigned char)s->value[len - 1]))
		return setting_bad(s, err, "white space at the start or end of a name is part of it for "
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
			return setting_bad(s, err, "a '\\:' in a file name is not supported by iosweep "
					   "import; rename the file");
		if (*p == ':')
			return setting_bad(s, err, "fio reads several files in one job (its size split "
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
		return setting_bad(s, err, "fio spreads files over several directories; iosweep reads one "
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
		return setting_bad(s, err, "a size of 0 reads nothing");
	st->size = pct ? 0 : v;
	st->size_pct = pct ? v : 0;
	st->size_at = s;
	return 0;
}

/* filesize=SIZE, or LO-HI (LO:HI): a size drawn for each file (fio 3.33
 * filesetup.c get_rand_file_size) */
static int h_filesize(struct fio_state *st, const struct fio_setting *s, char *err)
{
	const char *sep;
	char lo[64];
	bool pct = false;

	if (!needs_value(s, err))
		return -1;
	st->filesize_at = s;
	sep = strpbrk(s->value, "-:");
	if (sep && (size_t)(sep - s->value) < sizeof(lo)) {
		snprintf(lo, sizeof(lo), "%.*s", (int)(sep - s->value), s->value);
		if (value_bytes(st, s, lo, &st->filesize, &pct, err) < 0 ||
		    (!pct && value_bytes(st, s, sep + 1, &st->filesize_hi, &pct, err) < 0))
			return -1;
		if (pct)
			return setting_bad(s, err, "filesize takes no percentage");
		if (st->filesize > st->filesize_hi)
			return setting_bad(s, err, "the range's low end is above its high end");
		if (st->filesize == st->filesize_hi)
			st->filesize_hi = 0; /* one size */
		return 0;
	}
	st->filesize_hi = 0;
	if (value_bytes(st, s, s->value, &st->filesize, &pct, err) < 0)
		return -1;
	if (pct)
		return setting_bad(s, err, "filesize takes no percentage");
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
			return setting_bad(s, err, "a block size is a number of bytes greater than zero");
		set_bs(st, d, v, v, false, s);
	}
	return 0;
}

/* bsrange=4k-16k and bssplit=4k/50:8k/50 mix block sizes: iosweep's
 * options of those names, sizes written in bytes (fio's kb_base); a range
 * of one size, or a split with one size, is that size (bs). */
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
			return setting_bad(s, err, "expected LOW-HIGH");
		*dash = '\0';
		if (value_bytes(st, s, part[d], &lo, &pct, err) < 0 ||
		    value_bytes(st, s, dash + 1, &hi, &pct, err) < 0)
			return -1;
		if (lo > hi)
			return setting_bad(s, err, "the low end is above the high end");
		set_bs(st, d, lo, hi, false, s);
		st->mix[d][0] = '\0';
		if (lo != hi)
			snprintf(st->mix[d], sizeof(st->mix[d]), "%llu-%llu", (unsigned long long)lo,
				 (unsigned long long)hi);
	}
	return 0;
}

static int h_bssplit(struct fio_state *st, const struct fio_setting *s, char *err)
{
	char part[2][128] = { "", "" };
	uint64_t v = 0, lo, hi;
	bool pct = false;

	if (!needs_value(s, err) || rw_parts(s, part, err) < 0)
		return -1;
	for (int d = 0; d < 2; d++) {
		char *p = part[d], *m = st->mix[d];
		size_t used = 0;
		unsigned n = 0;

		if (!*part[d])
			continue;
		lo = UINT64_MAX;
		hi = 0;
		m[0] = '\0';
		while (*p) {
			size_t len = strcspn(p, ":"), sz = strcspn(p, "/");
			char *w = sz < len ? p + sz + 1 : NULL, end = p[len];

			p[len] = '\0';
			if (sz < len)
				p[sz] = '\0';
			if (value_bytes(st, s, p, &v, &pct, err) < 0)
				return -1;
			if (pct || v == 0)
				return setting_bad(s, err, "a block size is a number of bytes greater than zero");
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
			used += (size_t)snprintf(m + used, sizeof(st->mix[d]) - used, "%s%llu/%s",
						 n++ ? ":" : "", (unsigned long long)v, w ? w : "");
			if (used >= sizeof(st->mix[d]))
				return setting_bad(s, err, "too long a value");
			p += len + (end != '\0');
		}
		set_bs(st, d, lo, lo, n > 1, s);
		if (n < 2)
			m[0] = '\0';
	}
	return 0;
}

/* blockalign=R,W (fio's ba): the part of the job's direction, with a mix. */
static int h_blockalign(struct fio_state *st, const struct fio_setting *s, char *err)
{
	char part[2][128] = { "", "" };
	bool pct = false;

	if (!needs_value(s, err) || rw_parts(s, part, err) < 0)
		return -1;
	for (int d = 0; d < 2; d++) {
		if (!*part[d])
			continue;
		if (value_bytes(st, s, part[d], &st->blockalign[d], &pct, err) < 0)
			return -1;
		if (pct || st->blockalign[d] == 0)
			return setting_bad(s, err, "an alignment is a number of bytes greater than zero");
	}
	st->blockalign_at = s;
	return 0;
}

/* rw=read, write, rw (or readwrite), trim, trimwrite and their rand* forms
 * (trim: op = trim; trimwrite: op = trimwrite, each block trimmed, then
 * written, as fio does); ":N" skips N
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
	if (!rw)
		return setting_bad(s, err, "fio knows no such rw (read, randread, write, randwrite, rw, "
				   "randrw, ...)");
	st->op = rw->op;
	st->random = rw->random;
	st->rw_skip = 0;
	st->rw_back = colon && colon[1] == '-' && !st->random;
	if (colon && value_bytes(st, s, colon + 1 + st->rw_back, &n, &pct, err) < 0)
		return -1;
	if (colon && !st->random)
		st->rw_skip = n; /* read:8k skips 8k after every read; read:-8k goes back 8k */
	if (colon && st->random && n > 1)
		return setting_bad(s, err, "fio does %llu blocks in a row at each random offset; iosweep "
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
	st->phase = fio_file_engine_to(s->value);
	st->phase_at = st->phase ? s : NULL;
	st->engine = st->phase ? "sync" : fio_engine_to(s->value);
	if (st->engine)
		return 0;
	fio_engine_list(list, sizeof(list));
	return setting_bad(s, err, "iosweep has no such engine; it translates %s, and "
			   "filecreate, filestat, filedelete, dircreate, dirstat and dirdelete (a "
			   "tree's "
			   "phases)", list);
}

static int h_iodepth(struct fio_state *st, const struct fio_setting *s, char *err)
{
	if (value_int(s, &st->iodepth, err) < 0)
		return -1;
	if (st->iodepth == 0 || st->iodepth > 4096)
		return setting_bad(s, err, "iosweep's iodepth is 1 to 4096");
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
		return setting_bad(s, err, "iosweep's threads are 1 to 1024");
	st->numjobs_at = s;
	return 0;
}

static int h_runtime(struct fio_state *st, const struct fio_setting *s, char *err)
{
	char why[ERR_MAX];

	if (!needs_value(s, err))
		return -1;
	if (fio_parse_time_us(s->value, 1000000, &st->runtime_us, why) < 0)
		return setting_bad(s, err, "%s", why);
	return 0;
}

static int h_loops(struct fio_state *st, const struct fio_setting *s, char *err)
{
	if (value_int(s, &st->loops, err) < 0)
		return -1;
	if (st->loops == 0 || st->loops > 100000)
		return setting_bad(s, err, "iosweep repeats a run 1 to 100000 times");
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
		return setting_bad(s, err, "iosweep's seeds go to 2^63-1");
	st->seed_set = true;
	st->seed_at = s;
	return 0;
}

/* number_ios; io_size and io_limit (bytes of I/O) share its handler. */
static int h_number_ios(struct fio_state *st, const struct fio_setting *s, char *err)
{
	bool pct = false;

	if (strcmp(s->name, "number_ios") == 0)
		return value_int(s, &st->number_ios, err);
	if (!needs_value(s, err) || value_bytes(st, s, s->value, &st->io_size, &pct, err) < 0)
		return -1;
	if (pct)
		return setting_bad(s, err, "a percentage of I/O: give it in bytes");
	st->io_size_at = s;
	return 0;
}

/* offset, offset_increment: kept for finish_extent, which knows the file. */
static int h_offset(struct fio_state *st, const struct fio_setting *s, char *err)
{
	uint64_t v;
	bool pct = false, inc = strcmp(s->name, "offset_increment") == 0;

	if (!needs_value(s, err) || value_bytes(st, s, s->value, &v, &pct, err) < 0)
		return -1;
	if (pct && v > 100)
		return setting_bad(s, err, "a percentage above 100");
	*(inc ? &st->offset_inc : &st->offset) = pct ? 0 : v;
	*(inc ? &st->offset_inc_pct : &st->offset_pct) = pct ? v : 0;
	*(inc ? &st->offset_inc_at : &st->offset_at) = s;
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
			return setting_bad(s, err, "%s", why);
		if (*part[d] && !iops && value_bytes(st, s, part[d], &out[d], &pct, err) < 0)
			return -1;
		if (!iops && *part[d] && pct)
			return setting_bad(s, err, "a rate is a number of bytes a second");
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
		return setting_bad(s, err, "iosweep's rate schedule is linear (every I/O due one period after "
				   "the one before); fio's poisson spaces them at random");
	return setting_bad(s, err, "fio knows linear and poisson");
}

static int h_ramp_time(struct fio_state *st, const struct fio_setting *s, char *err)
{
	char why[ERR_MAX];

	if (!needs_value(s, err))
		return -1;
	if (fio_parse_time_us(s->value, 1000000, &st->ramp_us, why) < 0)
		return setting_bad(s, err, "%s", why);
	st->ramp_at = s;
	return 0;
}

/* read_iolog: the trace fio replays (fio 3.33 iolog.c: an iolog, v2 or v3,
 * or a blktrace; iosweep reads blkparse's text of one, refused by the plan
 * otherwise). */
static int h_read_iolog(struct fio_state *st, const struct fio_setting *s, char *err)
{
	const char *v;

	if (!needs_value(s, err) || !(v = path_value(s, err)))
		return -1;
	if (!*v)
		return 0;
	st->read_iolog = v;
	st->read_iolog_at = s;
	return 0;
}

/* fio's replay_* options (HOWTO, "I/O replay"), each decided: what iosweep
 * does too is translated, what it does not is refused unless it is fio's
 * default, saying why. */
static int h_replay(struct fio_state *st, const struct fio_setting *s, char *err)
{
	const char *n = s->name;
	uint64_t u;

	if (strcmp(n, "replay_no_stall") == 0) {
		st->no_stall_at = s;
		return value_bool(s, &st->no_stall, err);
	}
	if (strcmp(n, "replay_redirect") == 0) {
		/* what it means depends on the trace's files (fio_finish.c) */
		const char *v;

		if (!needs_value(s, err) || !(v = path_value(s, err)))
			return -1;
		st->redirect = *v ? v : NULL;
		st->redirect_at = s;
		return 0;
	}
	if (strcmp(n, "replay_skip") == 0) {
		if (s->value && *s->value)
			return setting_bad(s, err, "iosweep replays every I/O of a trace: remove the lines "
					   "fio would skip from a copy of it (grep -v ' trim ' for trim) "
					   "and replay that");
		return 0;
	}
	if (!needs_value(s, err) || value_int(s, &u, err) < 0)
		return -1;
	if (strcmp(n, "replay_time_scale") == 0) {
		if (u == 0)
			return setting_bad(s, err, "a scale of 0 percent: fio divides by it");
		st->time_scale = u;
		st->time_scale_at = s;
		return 0;
	}
	if (strcmp(n, "replay_align") == 0 && u)
		return setting_bad(s, err, "iosweep replays a trace's offsets as recorded; fio's "
				   "replay_align rounds them down to a multiple of %llu: align the trace "
				   "itself, or leave it out", (unsigned long long)u);
	if (strcmp(n, "replay_scale") == 0 && u != 1)
		return setting_bad(s, err, "iosweep replays a trace's offsets as recorded; fio's "
				   "replay_scale divides them by %llu: scale the trace itself, or leave "
				   "it out (1)", (unsigned long long)u);
	return 0;
}

/* thinktime, thinktime_spin (fio's microseconds, or a time with a unit)
 * and thinktime_blocks */
static int h_thinktime(struct fio_state *st, const struct fio_setting *s, char *err)
{
	char why[ERR_MAX];

	if (!needs_value(s, err))
		return -1;
	if (strcmp(s->name, "thinktime_blocks") == 0) {
		if (value_int(s, &st->think_blocks, err) < 0)
			return -1;
		if (st->think_blocks == 0)
			return setting_bad(s, err, "at least 1");
		return 0;
	}
	if (s->value[0] == '-')
		return setting_bad(s, err, "a time of at least 0");
	if (fio_parse_time_us(s->value, 1, strcmp(s->name, "thinktime") == 0 ? &st->think_us
									 : &st->think_spin_us,
			      why) < 0)
		return setting_bad(s, err, "%s", why);
	return 0;
}

/* steadystate/ss: fio's criterion, checked as iosweep reads it */
static int h_ss(struct fio_state *st, const struct fio_setting *s, char *err)
{
	enum steady_metric m;
	struct steady_spec sp;
	char why[ERR_MAX];

	if (!needs_value(s, err) || verbatim(s, s->value, err) < 0)
		return -1;
	if (steady_parse(s->value, &m, &sp, why) < 0)
		return setting_bad(s, err, "%s", why);
	st->ss = s->value;
	st->ss_at = s;
	return 0;
}

/* ss_dur, ss_ramp, steadystate_check_interval: seconds without a unit */
static int h_ss_time(const struct fio_setting *s, uint64_t *us, char *err)
{
	char why[ERR_MAX];

	if (!needs_value(s, err))
		return -1;
	if (fio_parse_time_us(s->value, 1000000, us, why) < 0)
		return setting_bad(s, err, "%s", why);
	return 0;
}

static int h_ss_dur(struct fio_state *st, const struct fio_setting *s, char *err)
{
	st->ss_dur_at = s;
	return h_ss_time(s, &st->ss_dur_us, err);
}

static int h_ss_ramp(struct fio_state *st, const struct fio_setting *s, char *err)
{
	return h_ss_time(s, &st->ss_ramp_us, err);
}

static int h_ss_interval(struct fio_state *st, const struct fio_setting *s, char *err)
{
	return h_ss_time(s, &st->ss_interval_us, err);
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

/* random_distribution: iosweep's option of that name takes fio's families,
 * syntax and rules; random (uniform) is what it does anyway. */
static int h_distribution(struct fio_state *st, const struct fio_setting *s, char *err)
{
	struct randdist_spec spec;
	char why[ERR_MAX];

	if (!needs_value(s, err))
		return -1;
	if (strchr(s->value, ','))
		return setting_bad(s, err, "zones per direction (after a comma) are not taken by "
				   "iosweep: one random_distribution for reads and writes");
	if (randdist_parse(s->value, &spec, why) < 0)
		return setting_bad(s, err, "%s", why);
	st->distribution = spec.kind == RANDDIST_UNIFORM ? NULL : s->value;
	st->distribution_at = s;
	return 0;
}

/* percentage_random: up to three numbers, 0 to 100, for reads, writes and
 * trims (the last given for the rest); which of them the job's directions
 * take, and whether they agree, is finish's (iosweep takes one). */
static int h_percentage_random(struct fio_state *st, const struct fio_setting *s, char *err)
{
	const char *p;
	unsigned n = 0;

	(void)st;
	if (!needs_value(s, err))
		return -1;
	for (p = s->value;; p++) {
		char *end;
		unsigned long v;

		p += strspn(p, " \t");
		errno = 0;
		v = strtoul(p, &end, 10);
		if (end == p || *p == '-' || errno || v > 100)
			return setting_bad(s, err, "a percentage is 0 to 100, one for reads, writes "
					   "and trims each (or one for all)");
		p = end + strspn(end, " \t");
		if (++n > 3 || (*p != ',' && *p != '\0'))
			return setting_bad(s, err, "expected up to three percentages, for reads, "
					   "writes and trims");
		if (*p == '\0')
			return 0;
	}
}

static int h_nrfiles(struct fio_state *st, const struct fio_setting *s, char *err)
{
	uint64_t v;

	if (value_int(s, &v, err) < 0)
		return -1;
	if (v == 0) /* more than a file set takes: finish_set (a tree takes more) */
		return setting_bad(s, err, "iosweep takes 1 to %d files", FILESET_MAX);
	st->nrfiles = v;
	st->nrfiles_at = s;
	return 0;
}

/* fio's roundrobin, sequential and random; "roundrobin:N" (N I/Os to a file
 * before the next) and the skewed choices (zipf, pareto, normal, gauss) are
 * not iosweep's. */
static int h_file_service_type(struct fio_state *st, const struct fio_setting *s, char *err)
{
	if (!needs_value(s, err))
		return -1;
	for (int k = 0; fileset_service_names[k]; k++)
		if (strcmp(s->value, fileset_service_names[k]) == 0) {
			st->service = fileset_service_names[k];
			st->service_at = s;
			return 0;
		}
	return setting_bad(s, err, "iosweep's file_service_type is roundrobin, sequential or "
			   "random, one I/O to a file at a time");
}

/* openfiles: fio keeps at most that many files open; iosweep opens every
 * file of a set before the run, which is fio's when openfiles >= nrfiles
 * (checked in finish_file, where nrfiles is known). */
static int h_openfiles(struct fio_state *st, const struct fio_setting *s, char *err)
{
	if (value_int(s, &st->openfiles, err) < 0)
		return -1;
	st->openfiles_at = s;
	return 0;
}

/* opendir: the tree fio adds every regular file of (finish_tree says what
 * of the job goes with it). */
static int h_opendir(struct fio_state *st, const struct fio_setting *s, char *err)
{
	if (!needs_value(s, err))
		return -1;
	if (!s->value[0])
		return setting_bad(s, err, "an empty directory name: give the directory to read");
	st->opendir = s->value;
	st->opendir_at = s;
	return 0;
}

/* filename_format: fio's $jobname and $filenum are iosweep's; $jobnum is 0
 * (one copy of a job: numjobs becomes threads); $clientuid is not. */
static int h_filename_format(struct fio_state *st, const struct fio_setting *s, char *err)
{
	if (!needs_value(s, err))
		return -1;
	if (strstr(s->value, "$clientuid"))
		return setting_bad(s, err, "iosweep has no $clientuid (it runs no fio clients)");
	if (strchr(s->value, '/'))
		return setting_bad(s, err, "a '/' in the format: put the directory in 'directory'");
	st->name_format = s->value;
	st->name_format_at = s;
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
	if (strcmp(s->value, "0") == 0 || strcmp(s->value, "null") == 0)
		return 0; /* null: fio pretends to verify */
	if (strcmp(s->value, "pattern") == 0)
		return setting_bad(s, err, "fio writes and checks your verify_pattern; iosweep writes and "
				   "checks its own data only");
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strcmp(s->value, types[i]) == 0)
			st->verify = s->value;
	if (!st->verify)
		return setting_bad(s, err, "fio knows no such verify type (md5, crc32c, xxhash, sha256, "
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
		return setting_bad(s, err, "fio's sync is none (0), sync (1, O_SYNC) or dsync (O_DSYNC)");
	st->sync_at = s;
	return 0;
}

static int h_rwmix(struct fio_state *st, const struct fio_setting *s, char *err)
{
	uint64_t v;

	if (value_int(s, &v, err) < 0)
		return -1;
	if (v > 100)
		return setting_bad(s, err, "a percentage is 0 to 100");
	/* the later of rwmixread and rwmixwrite wins (fio 3.33) */
	st->rwmixread = strcmp(s->name, "rwmixwrite") == 0 ? 100 - v : v;
	return 0;
}

static int h_compress(struct fio_state *st, const struct fio_setting *s, char *err)
{
	if (value_int(s, &st->compress_pct, err) < 0)
		return -1;
	if (st->compress_pct > 100)
		return setting_bad(s, err, "a percentage is 0 to 100");
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
	return setting_bad(s, err, "fio's fallocate is none, native, posix, keep or truncate");
}

/* The last value of setting name in job, or NULL. */
static const char *job_value(const struct fio_job *job, const char *name)
{
	const char *v = NULL;

	for (size_t i = 0; i < job->nset; i++)
		if (strcmp(job->set[i].name, name) == 0)
			v = job->set[i].value ? job->set[i].value : "";
	return v;
}

/* Whether the job only reads and checks nothing, whatever the order of its
 * settings: its data options then say only what fio lays a missing file
 * out with (checked against fio 3.33: buffer_pattern=0xdeadbeef on a read
 * job's missing file makes a file of that pattern), which a read of it
 * measures as it measures iosweep's own data, unless the job checks it. */
static bool job_only_reads(const struct fio_job *job)
{
	const char *verify = job_value(job, "verify"), *only = job_value(job, "verify_only");
	const char *rw = NULL;
	const struct fio_rw *word;
	unsigned long mixread = 50; /* fio's default */
	char w[32];

	for (size_t i = 0; i < job->nset; i++) { /* the later of rw and readwrite, of the mixes */
		const char *n = job->set[i].name, *v = job->set[i].value ? job->set[i].value : "";

		if (strcmp(n, "rw") == 0 || strcmp(n, "readwrite") == 0)
			rw = v;
		else if (strcmp(n, "rwmixread") == 0)
			mixread = strtoul(v, NULL, 10);
		else if (strcmp(n, "rwmixwrite") == 0)
			mixread = 100 - (strtoul(v, NULL, 10) % 101);
	}
	if (verify && *verify && strcmp(verify, "0") != 0 && strcmp(verify, "null") != 0)
		return false;
	if (only && strcmp(only, "0") != 0)
		return false;
	if (!rw)
		return true; /* fio's default: read */
	snprintf(w, sizeof(w), "%.*s", (int)strcspn(rw, ":"), rw);
	word = fio_rw_find(w);
	/* a mix of no writes (rwmixread=100, rwmixwrite=0) only reads */
	return word && (word->op == OP_READ || (word->op == OP_READWRITE && mixread == 100));
}

/* A pattern of the user's in every block written is data iosweep does not
 * write; in a job that only reads, it is noted (note_scoped in fio_finish.c). */
static int h_pattern(struct fio_state *st, const struct fio_setting *s, char *err)
{
	if (strcmp(s->name, "buffer_pattern") == 0 && job_only_reads(st->job))
		return 0;
	return setting_bad(s, err, "iosweep writes its own data (unique per block, checkable), not a "
			   "pattern of yours");
}

/* dedupe_percentage: fio writes that share of blocks again; iosweep's are
 * all unique.  In a job that only reads, noted as buffer_pattern is. */
static int h_dedupe(struct fio_state *st, const struct fio_setting *s, char *err)
{
	uint64_t v;

	if (value_int(s, &v, err) < 0)
		return -1;
	if (v > 100)
		return setting_bad(s, err, "a percentage is 0 to 100");
	if (v == 0 || job_only_reads(st->job))
		return 0;
	return setting_bad(s, err, "every block iosweep writes is unique");
}

/* startdelay=T or LOW-HIGH (fio's irange of times, seconds without a unit;
 * ':' separates a range too): the wait before the job starts, which fio
 * leaves out of the job's runtime and figures (checked against fio 3.33:
 * startdelay=2 on a 4 MiB read gave a runtime of 6 ms).  Whether it starts
 * the job apart from others is known per set of jobs (fio_import.c); the
 * note or refusal is finish_time's. */
int rules_startdelay(const char *value, uint64_t *lo_us, uint64_t *hi_us, char *why)
{
	char part[2][64];
	size_t len = strcspn(value, "-:");

	if (len >= sizeof(part[0]) || strlen(value + len) >= sizeof(part[1]))
		return err_set(why, "too long a value");
	snprintf(part[0], sizeof(part[0]), "%.*s", (int)len, value);
	snprintf(part[1], sizeof(part[1]), "%s", value[len] ? value + len + 1 : part[0]);
	if (fio_parse_time_us(part[0], 1000000, lo_us, why) < 0 ||
	    fio_parse_time_us(part[1], 1000000, hi_us, why) < 0)
		return -1;
	if (*lo_us > *hi_us) { /* fio swaps a range written high to low */
		uint64_t t = *lo_us;

		*lo_us = *hi_us;
		*hi_us = t;
	}
	return 0;
}

static int h_startdelay(struct fio_state *st, const struct fio_setting *s, char *err)
{
	char why[ERR_MAX];

	if (!needs_value(s, err))
		return -1;
	if (rules_startdelay(s->value, &st->delay_lo_us, &st->delay_hi_us, why) < 0)
		return setting_bad(s, err, "%s", why);
	st->delay_at = st->delay_hi_us ? s : NULL;
	return 0;
}

/* io_submit_mode (fio 3.33: inline or offload, nothing else, case and all):
 * inline, fio's default, is what iosweep's threads do. */
static int h_submit_mode(struct fio_state *st, const struct fio_setting *s, char *err)
{
	(void)st;
	if (!needs_value(s, err))
		return -1;
	if (strcmp(s->value, "inline") == 0)
		return 0;
	if (strcmp(s->value, "offload") == 0)
		return setting_bad(s, err, "fio hands every I/O to a pool of its helper threads to "
				   "submit, and times the hand-off into each I/O's latency; iosweep's "
				   "threads submit their own I/O, as fio's default (inline) does");
	return setting_bad(s, err, "fio refuses it too: its io_submit_mode is inline or offload");
}

/* sqthread_poll_cpu: the CPU of io_uring's SQ polling thread; what it does
 * depends on the engine and sqthread_poll (finish_job). */
static int h_sqpoll_cpu(struct fio_state *st, const struct fio_setting *s, char *err)
{
	uint64_t v;

	if (value_int(s, &v, err) < 0)
		return -1;
	st->sqpoll_cpu_at = s;
	return 0;
}

/* fixedbufs, registerfiles, sqthread_poll, hipri, nowait: the engine
 * options, named as the job options are (engine_flags() checks the engine) */
static int h_knob(struct fio_state *st, const struct fio_setting *s, char *err)
{
	int k = option_knob(option_find(s->name));

	return k < 0 ? setting_bad(s, err, "not an engine option") : value_bool(s, &st->knob[k], err);
}

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
	FN(FH_BS, h_bs), FN(FH_BSRANGE, h_bsrange), FN(FH_BSSPLIT, h_bssplit), FN(FH_BLOCKALIGN, h_blockalign), FN(FH_THINKTIME, h_thinktime),
	FN(FH_READ_IOLOG, h_read_iolog), FN(FH_REPLAY, h_replay),
	FN(FH_RW, h_rw),
	FN(FH_IOENGINE, h_ioengine), FN(FH_IODEPTH, h_iodepth), FLAG(FH_DIRECT, direct),
	FN(FH_BUFFERED, h_buffered), FLAG(FH_INVALIDATE, invalidate), FLAG(FH_PRE_READ, pre_read),
	FN(FH_FADVISE_HINT, h_fadvise_hint), FN(FH_NUMJOBS, h_numjobs), FN(FH_RUNTIME, h_runtime),
	FN(FH_SS, h_ss), FN(FH_SS_DUR, h_ss_dur), FN(FH_SS_RAMP, h_ss_ramp),
	FN(FH_SS_INTERVAL, h_ss_interval), FN(FH_TIME_BASED, h_time_based), FN(FH_RAMP_TIME, h_ramp_time), FN(FH_LOOPS, h_loops),
	FN(FH_RANDREPEAT, h_randrepeat), FN(FH_RANDSEED, h_randseed),
	FLAG(FH_NORANDOMMAP, norandommap), FN(FH_KNOB, h_knob),
	FN(FH_BATCH_COMPLETE, h_batch_complete), FN(FH_NUMBER_IOS, h_number_ios),
	FN(FH_OFFSET, h_offset), FN(FH_ORDER, h_order), FN(FH_KB_BASE, h_kb_base),
	FN(FH_RATE, h_rate), FN(FH_RATE_PROCESS, h_rate_process),
	FN(FH_DISTRIBUTION, h_distribution), FN(FH_PERCENTAGE_RANDOM, h_percentage_random),
	FN(FH_NRFILES, h_nrfiles), FN(FH_FILE_SERVICE_TYPE, h_file_service_type),
	FN(FH_OPENFILES, h_openfiles), FN(FH_FILENAME_FORMAT, h_filename_format), FN(FH_VERIFY, h_verify), FLAG(FH_DO_VERIFY, do_verify),
	FN(FH_VERIFY_ONLY, h_verify_only), FN(FH_PATTERN, h_pattern), FN(FH_RWMIX, h_rwmix),
	FN(FH_COUNT, h_count), FLAG(FH_END_FSYNC, end_fsync),
	FLAG(FH_FSYNC_ON_CLOSE, fsync_on_close), FN(FH_SYNC, h_sync),
	FLAG(FH_ZERO_BUFFERS, zero_buffers), FLAG(FH_REFILL_BUFFERS, refill_buffers),
	FLAG(FH_SCRAMBLE_BUFFERS, scramble_buffers), FN(FH_COMPRESS, h_compress),
	FN(FH_COMPRESS_CHUNK, h_compress_chunk), FN(FH_FALLOCATE, h_fallocate),
	FLAG(FH_OVERWRITE, overwrite), FLAG(FH_CREATE_ON_OPEN, create_on_open),
	FLAG(FH_UNLINK, unlink), FLAG(FH_UNLINK_EACH_LOOP, unlink_each_loop),
	FN(FH_STARTDELAY, h_startdelay), FN(FH_SUBMIT_MODE, h_submit_mode),
	FN(FH_SQPOLL_CPU, h_sqpoll_cpu), FN(FH_DEDUPE, h_dedupe),
	FN(FH_OPENDIR, h_opendir),
#undef FN
#undef FLAG
};


/* kb_base applies to every size of the job wherever it is written (fio
 * reads it first). */
int rules_kb_base(const struct fio_job *job, unsigned *kb_base, char *err)
{
	*kb_base = 1024;
	for (size_t i = 0; i < job->nset; i++) {
		const struct fio_setting *s = &job->set[i];
		uint64_t v;

		if (strcmp(s->name, "kb_base") != 0 || !s->value)
			continue; /* bare: refused with the rest (rules_apply) */
		if (value_int(s, &v, err) < 0)
			return -1;
		if (v != 1000 && v != 1024)
			return setting_bad(s, err, "kb_base is 1000 or 1024");
		*kb_base = (unsigned)v;
	}
	return 0;
}

int rules_apply(struct import *im, struct fio_state *st, const struct fio_setting *s, char *err)
{
	const struct fio_word *r = fio_word_find(s->name);
	char why[256];
	bool *flag, off;

	if (!r) {
		if (fio_flag_takes_value(s->name))
			return setting_note(im, s, NULL, fio_why_report) < 0 ? err_set(err, "out of memory") :
									0;
		if (!fio_name_known(s->name)) {
			const char *near = fio_name_nearest(s->name);

			return setting_bad(s, err, "fio 3.33 refuses it too (\"Bad option\"): %s%s%s",
					   near ? "did you mean " : "remove it", near ? near : "",
					   near ? "?" : "");
		}
		return setting_bad(s, err, "iosweep import does not know this fio option, so it cannot say "
				   "that it leaves what is measured alone; remove it if it does");
	}
	/* fio matches option names as written: Direct=1 is a "Bad option" there */
	if (strcmp(r->fio, s->name) != 0)
		return setting_bad(s, err, "fio refuses it too (\"Bad option\"): did you mean %s?",
				   r->fio);
	/* fio 3.33 fails parsing an empty value of all but FT_ANY, and no
	 * value of all but those and its flags (a pattern: it crashes) */
	if (s->value ? !*s->value && r->takes != FT_ANY : r->takes != FT_FLAG && r->takes != FT_ANY) {
		if (s->unset) {
			(void)needs_value(s, err);
			return -1;
		}
		return setting_bad(s, err, "fio 3.33 runs no job that has it %s; %s%s%s",
				   s->value ? "empty" : "without a value",
				   r->takes == FT_BOOL ? "write " : "give it a value",
				   r->takes == FT_BOOL ? r->fio : "", r->takes == FT_BOOL ? "=1" : "");
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
			return setting_note(im, s, NULL, r->why) < 0 ? err_set(err, "out of memory") : 0;
		return 0;
	case FW_OFF_ONLY:
		if (!s->value || (strcmp(s->value, "0") != 0 && strcmp(s->value, "") != 0))
			return setting_bad(s, err, "%s", r->why);
		return 0;
	case FW_IRRELEVANT:
	case FW_UNSUPPORTED:
		/* left out, but what fio would fail parsing is refused as ever */
		if ((r->takes == FT_BOOL || r->takes == FT_FLAG) && value_bool(s, &off, err) < 0)
			return -1;
		snprintf(why, sizeof(why), "%s: %s",
			 r->kind == FW_IRRELEVANT ? "irrelevant" : "not supported", r->why);
		return setting_note(im, s, NULL, why) < 0 ? err_set(err, "out of memory") : 0;
	}
	return 0;
}
