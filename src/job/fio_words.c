/*
 * fio_words.c - see fio_words.h.  Two tables, fio word -> what iosweep says.
 */
#define _GNU_SOURCE
#include "job/fio_words.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "io/engines/engine.h"

#define IMPORT " (or translate a fio job with 'iosweep import')"

static const struct {
	const char *fio, *hint;
} option_hints[] = {
	{ "direct", "fio's direct=1 is 'cache = direct' here" IMPORT },
	{ "buffered", "fio's buffered=0 is 'cache = direct' here; reads are buffered by default" IMPORT },
	{ "invalidate", "fio's invalidate=1 is 'cache = fadvise' here, invalidate=0 'cache = keep'" IMPORT },
	{ "ioengine", NULL }, /* engine_hint(): the engine table's names */
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

/* "fio's ioengine is 'engine' here (sync, psync2, ...)": every engine of
 * the table, so that the hint cannot leave one out. */
static const char *engine_hint(void)
{
	static char hint[512];
	size_t n;

	if (hint[0])
		return hint;
	n = (size_t)snprintf(hint, sizeof(hint), "fio's ioengine is 'engine' here (");
	for (size_t i = 0; engine_names[i] && n < sizeof(hint); i++)
		n += (size_t)snprintf(hint + n, sizeof(hint) - n, "%s%s", i ? ", " : "",
				      engine_names[i]);
	if (n < sizeof(hint))
		snprintf(hint + n, sizeof(hint) - n, ")" IMPORT);
	return hint;
}

const char *fio_hint_option(const char *name)
{
	for (size_t i = 0; i < sizeof(option_hints) / sizeof(option_hints[0]); i++)
		if (strcasecmp(option_hints[i].fio, name) == 0)
			return option_hints[i].hint ? option_hints[i].hint : engine_hint();
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
