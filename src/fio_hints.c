/*
 * fio_hints.c - see fio_hints.h.  Two tables, fio word -> what iosweep says,
 * and a look at the size values of a parsed job file with fio's reading of
 * them (fio.c's unit rules) beside iosweep's.
 */
#define _GNU_SOURCE
#include "fio_hints.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "error.h"
#include "fio.h"
#include "options.h"
#include "units.h"

#define IMPORT " (or translate a fio job with 'iosweep import')"

static const struct {
	const char *fio, *hint;
} option_hints[] = {
	{ "direct", "fio's direct=1 is 'cache = direct' here" IMPORT },
	{ "buffered", "fio's buffered=0 is 'cache = direct' here; reads are buffered by default" IMPORT },
	{ "invalidate", "fio's invalidate=1 is 'cache = fadvise' here, invalidate=0 'cache = keep'" IMPORT },
	{ "ioengine", "fio's ioengine is 'engine' here (sync, aio, mmap, uring)" IMPORT },
	{ "numjobs", "fio's numjobs is 'threads' here" IMPORT },
	{ "blocksize", "fio's blocksize is 'bs' here" IMPORT },
	{ "readwrite", "fio's readwrite is 'pattern' (sequential, random) and 'op' (read, write, "
		       "readwrite) here" IMPORT },
	{ "rw", "fio's rw is 'pattern' (sequential, random) and 'op' (read, write, readwrite) "
		"here" IMPORT },
	{ "fsync", "fio's fsync=N is 'sync = fsync' with 'sync_every = N' here" IMPORT },
	{ "fdatasync", "fio's fdatasync=N is 'sync = fdatasync' with 'sync_every = N' here" IMPORT },
	{ "end_fsync", "fio's end_fsync=1 is 'sync = end' here" IMPORT },
	{ "fsync_on_close", "fio's fsync_on_close=1 is 'sync = end' here" IMPORT },
	{ "zero_buffers", "fio's zero_buffers is 'data = zero' here" IMPORT },
	{ "refill_buffers", "iosweep always writes new data into every block; remove it" IMPORT },
	{ "scramble_buffers", "iosweep always writes new data into every block; remove it" IMPORT },
	{ "rwmixwrite", "write 'rwmixread' (100 minus fio's rwmixwrite) here" IMPORT },
	{ "overwrite", "fio's overwrite=1 is 'alloc = overwrite' (the default) here" IMPORT },
	{ "fallocate", "fio's fallocate is 'alloc' here (prealloc, allocate, overwrite)" IMPORT },
	{ "do_verify", "write 'verify = after' to check what a repeat wrote" IMPORT },
	{ "rate_process", "iosweep's rate schedule is always linear; remove it" IMPORT },
	{ "ramp_time", "fio's ramp_time is 'ramp' here (with time_based); 'warmup' runs whole "
		       "unmeasured repeats first" IMPORT },
	{ "randrepeat", "iosweep's random reads always repeat for a seed: set 'seed'" IMPORT },
	{ "randseed", "fio's randseed is 'seed' here" IMPORT },
	{ "norandommap", "fio's norandommap is 'pattern = random-replace' here" IMPORT },
	{ "iodepth_batch", "iosweep keeps 'iodepth' reads in flight and submits as slots free up; "
			   "it has no batch setting" IMPORT },
	{ "iodepth_batch_submit", "iosweep keeps 'iodepth' reads in flight and submits as slots "
				  "free up; it has no batch setting" IMPORT },
	{ "iodepth_batch_complete", "iosweep reaps what has completed; it has no batch setting" IMPORT },
	{ "iodepth_low", "iosweep refills the queue as soon as a read completes" IMPORT },
	{ "loops", "fio's loops is 'repeat' here" IMPORT },
	{ "number_ios", "fio's number_ios is 'count' here (random reads)" IMPORT },
	{ "fadvise_hint", "fio's fadvise_hint is 'hint' here (none, sequential, random, willneed, "
			  "noreuse)" IMPORT },
	{ "name", "a job's name is its [section] here" IMPORT },
	{ "filesize", "fio's filesize is 'size' here" IMPORT },
	{ "directory", "write the directory into 'filename' here" IMPORT },
	{ "thread", "iosweep's readers are always threads; remove it" IMPORT },
	{ "group_reporting", "iosweep always reports a run's threads together; remove it" IMPORT },
	{ "stonewall", "iosweep runs jobs one after another; remove it" IMPORT },
	{ "kb_base", "here k m g t and KiB MiB GiB TiB are powers of 1024, KB MB GB TB powers of "
		     "1000, always" IMPORT },
	{ "offset", "iosweep reads from the start of the file" IMPORT },
};

static const struct {
	const char *option, *fio, *hint;
} value_hints[] = {
	{ "engine", "libaio", "fio's libaio is 'aio' here" },
	{ "engine", "io_uring", "fio's io_uring is 'uring' here" },
	{ "engine", "psync", "fio's psync (pread) is 'sync' here" },
	{ "engine", "pvsync", "fio's pvsync (preadv) is 'sync' here" },
	{ "pattern", "read", "fio's rw=read is 'sequential' here" },
	{ "pattern", "randread", "fio's rw=randread is 'random' here" },
	{ "pattern", "randwrite", "fio's rw=randwrite is 'op = write' with 'pattern = random' here" },
	{ "pattern", "write", "fio's rw=write is 'op = write' with 'pattern = sequential' here" },
	{ "pattern", "randrw", "fio's rw=randrw is 'op = readwrite' with 'pattern = random' here" },
	{ "pattern", "rw", "fio's rw=rw is 'op = readwrite' with 'pattern = sequential' here" },
	{ "pattern", "readwrite", "fio's rw=readwrite is 'op = readwrite' with 'pattern = sequential' here" },
};

const char *fio_hint_option(const char *name)
{
	for (size_t i = 0; i < sizeof(option_hints) / sizeof(option_hints[0]); i++)
		if (strcasecmp(option_hints[i].fio, name) == 0)
			return option_hints[i].hint;
	return NULL;
}

const char *fio_hint_value(const char *option, const char *value)
{
	for (size_t i = 0; i < sizeof(value_hints) / sizeof(value_hints[0]); i++)
		if (strcmp(value_hints[i].option, option) == 0 &&
		    strcasecmp(value_hints[i].fio, value) == 0)
			return value_hints[i].hint;
	return NULL;
}

/* One value of a size option, as written at `where` ("FILE:LINE" or
 * "--set 'bs=4kb'"): warn when fio reads it otherwise or when it is a block
 * size no device reads directly. */
static int check_size(const char *where, const char *option, const char *text, FILE *out)
{
	char why[ERR_MAX], fio_text[32];
	uint64_t ours, fios = 0;
	bool pct, fio_ok = fio_parse_bytes(text, 1024, &fios, &pct, why) == 0 && !pct;
	size_t len = strlen(text);
	bool b_suffix = len >= 3 && tolower((unsigned char)text[len - 1]) == 'b' &&
			strchr("kmgtKMGT", text[len - 2]) && isdigit((unsigned char)text[len - 3]);

	if (units_parse_size(text, &ours, why) < 0)
		return 0; /* the parser said so already */
	units_fmt_size(fios, fio_text, sizeof(fio_text));
	if (b_suffix && fio_ok && fios != ours) {
		fprintf(out, "iosweep: warning: %s: %s = %s is %llu bytes here (KB, MB, GB, TB "
			     "are powers of 1000); fio reads %s as %llu: write %s if you mean that\n",
			where, option, text, (unsigned long long)ours, text,
			(unsigned long long)fios, fio_text);
		return 1;
	}
	if (strcmp(option, "bs") == 0 && ours % 512) {
		fprintf(out, "iosweep: warning: %s: bs = %s is %llu bytes, not a multiple of 512 "
			     "(cache = direct and most devices need that)", where, text,
			(unsigned long long)ours);
		if (fio_ok && fios != ours)
			fprintf(out, "; fio reads %s as %llu bytes", text, (unsigned long long)fios);
		fputc('\n', out);
		return 1;
	}
	return 0;
}

/* The sizes in one "name = value, value" (a line of the file, or a --set
 * text; value is cut at a comment). */
static int check_setting(const char *where, char *s, FILE *out)
{
	char *eq = strchr(s, '='), *name = s, *value, *elem, *save;
	int id, n = 0;

	while (isspace((unsigned char)*name))
		name++;
	if (!eq || *name == ';' || *name == '#')
		return 0;
	*eq = '\0';
	for (char *e = eq - 1; e >= name && isspace((unsigned char)*e); e--)
		*e = '\0';
	id = option_find(name);
	value = eq + 1;
	value[strcspn(value, ";#")] = '\0';
	save = value;
	while (id >= 0 && option_table[id].type == T_SIZE && (elem = strsep(&save, ",")) != NULL) {
		while (isspace((unsigned char)*elem))
			elem++;
		for (char *e = elem + strlen(elem); e > elem && isspace((unsigned char)e[-1]);)
			*--e = '\0';
		if (*elem)
			n += check_size(where, option_table[id].name, elem, out);
	}
	return n;
}

int fio_hint_sizes(const struct jobfile *jf, FILE *out)
{
	const char *p = jf->text;
	char where[ERR_MAX];
	int line = 0, n = 0;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *s = strndup(p, len);

		line++;
		p = nl ? nl + 1 : NULL;
		if (!s)
			break;
		snprintf(where, sizeof(where), "%s:%d", jf->path, line);
		n += check_setting(where, s, out);
		free(s);
	}
	/* --set values, named as the job parser names them */
	for (size_t i = 0; i < jf->noverrides; i++) {
		char *s = strdup(jf->overrides[i]);

		if (!s)
			break;
		snprintf(where, sizeof(where), "--set '%.200s'", jf->overrides[i]);
		n += check_setting(where, s, out);
		free(s);
	}
	return n;
}
