/*
 * options.h - the one table of job options.
 *
 * Every job option is declared once, in options.c, with its type, default,
 * allowed values and help.  The job parser, the plan, `iosweep options`, the
 * reporters and the man-page test all read that table, so an option exists
 * everywhere or nowhere.  What fio calls an option is in fio's words' table
 * (job/fio_words.h).
 */
#ifndef IOSWEEP_OPTIONS_H
#define IOSWEEP_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/consume.h"
#include "io/data.h"
#include "io/engines/engine.h"
#include "io/ioloop.h"
#include "io/pattern.h"
#include "io/fileset.h"
#include "io/prepare.h"

enum opt_type {
	T_PATH,     /* a file name */
	T_SIZE,     /* bytes, with units */
	T_UINT,     /* a whole number */
	T_DURATION, /* nanoseconds, with units */
	T_ENUM,     /* one of a list of words, stored as its index */
	T_TEXT,     /* free text */
	T_JOB,      /* the name of a job */
};

/* Same order as the table in options.c. */
enum opt_id {
	OPT_FILENAME, OPT_SIZE, OPT_FILL, OPT_NRFILES, OPT_FILESIZE, OPT_DIRECTORY,
	OPT_FILENAME_FORMAT, OPT_FILE_SERVICE_TYPE, OPT_OPENDIR, OPT_TREE, OPT_SHIFT, OPT_BS, OPT_SPACING, OPT_PATTERN, OPT_COUNT,
	OPT_OFFSET, OPT_OFFSET_INCREMENT,
	OPT_RANDOM_DISTRIBUTION, OPT_PERCENTAGE_RANDOM,
	OPT_BSSPLIT, OPT_BSRANGE, OPT_BLOCKALIGN,
	OPT_SEED, OPT_ENGINE, OPT_IODEPTH, OPT_FIXEDBUFS, OPT_REGISTERFILES, OPT_SQTHREAD_POLL,
	OPT_HIPRI, OPT_NOWAIT, OPT_CACHE, OPT_HINT, OPT_THREADS, OPT_CONSUME,
	OPT_OP, OPT_RWMIXREAD, OPT_SYNC, OPT_SYNC_EVERY, OPT_SYNC_MODE, OPT_DATA, OPT_COMPRESS,
	OPT_ALLOC, OPT_VERIFY, OPT_ALLOW_WRITE, OPT_ALLOW_OVERWRITE_SIGNATURE, OPT_REPEAT, OPT_WARMUP,
	OPT_RUNTIME, OPT_TIME_BASED, OPT_RAMP, OPT_STARTDELAY,
	OPT_THINKTIME, OPT_THINKTIME_BLOCKS, OPT_THINKTIME_SPIN,
	OPT_RATE, OPT_RATE_IOPS, OPT_READ_IOLOG, OPT_REPLAY_NO_STALL, OPT_REPLAY_TIME_SCALE,
	OPT_REPLAY_THREADS,
	OPT_INTERVAL, OPT_SS, OPT_SS_DUR, OPT_SS_RAMP, OPT_SS_DIR, OPT_STOP_AT_CLIFF,
	OPT_PRECONDITION,
	OPT_BASELINE, OPT_DESCRIPTION, OPT_GROUP, OPT_GROUP_END,
	OPT__COUNT
};

/* The enumerations of the job's words, same order as the `values` of their
 * option.  What the I/O floor does is declared there: enum pattern_kind in
 * pattern.h, consume_kind in consume.h, fill_kind and its names in
 * prepare.h, data_kind in data.h, op_kind and sync_kind in ioloop.h,
 * hint_kind and the engine options (enum engine_knob) in engine.h, and
 * cache_policy and its names in cache.h; the job's own are here. */
enum flag_value { FLAG_OFF, FLAG_ON };
enum alloc_kind { ALLOC_OVERWRITE, ALLOC_ALLOCATE, ALLOC_PREALLOC };
enum verify_kind { VERIFY_NONE, VERIFY_AFTER };
enum ss_dir_kind { SS_DIR_ALL, SS_DIR_READ, SS_DIR_WRITE };

/* The options that only some engines take are the engine knobs, in the
 * knobs' order: the knob that option id is, or -1. */
static inline int option_knob(int id)
{
	return id >= OPT_FIXEDBUFS && id <= OPT_NOWAIT ? id - OPT_FIXEDBUFS : -1;
}
_Static_assert(OPT_NOWAIT - OPT_FIXEDBUFS + 1 == KNOB__COUNT, "an engine option per knob");
/* Whether engine e takes option id: true for the options every engine
 * takes, the engine table's word for an engine option. */
bool option_engine_takes(const struct engine_ops *e, int id);

union optval {
	uint64_t u;    /* T_SIZE, T_UINT, T_DURATION (ns), T_ENUM (index) */
	const char *s; /* T_PATH, T_TEXT, T_JOB */
};

struct option_def {
	const char *name;
	enum opt_type type;
	bool list;                 /* comma-separated values multiply the job */
	bool per_job;              /* describes the job, not a run parameter */
	const char *def;           /* default as job-file text; NULL: see help */
	uint64_t min, max;         /* bounds for numbers */
	const char *const *values; /* T_ENUM: the allowed words, NULL-terminated */
	const char *help;
};

extern const struct option_def option_table[OPT__COUNT];

/* Index of the option called name (case-insensitive), or -1. */
int option_find(const char *name);
/* The option name closest to a misspelled one, or NULL when none is close. */
const char *option_suggest(const char *name);
/* Parses one value (one list element) of option id; strings are copied with
 * strdup.  -1 with a message naming the option and value in err. */
int option_parse_value(enum opt_id id, const char *text, union optval *out, char *err);
/* Prints a value as a job file would write it ("4KiB", "sync", "500ms"). */
void option_format(enum opt_id id, union optval v, char *buf, size_t n);
/* Whether filesize's text is a plain size (*size), not sizes drawn file by
 * file; said and written as a size then. */
bool plain_filesize(const char *text, uint64_t *size);
bool option_value_equal(enum opt_id id, union optval a, union optval b);

/* precondition (issue 29): passes that write the run's file before its
 * warmup and repeats, each timed apart.  fill: sequential writes of
 * PRECOND_FILL_BS over the whole file; random: random writes of the run's
 * bs, every block once per pass.  times: how many passes (N x the size). */
enum precond_kind { PRECOND_FILL, PRECOND_RANDOM };
extern const char *const precond_names[]; /* "fill", "random" */
#define PRECOND_FILL_BS (128u << 10)
#define PRECOND_MAX 4
#define PRECOND_TIMES_MAX 100
struct precond_pass {
	enum precond_kind kind;
	unsigned times;
};
/* Parses "fill:2, random:1" into p[0..*n) (at most PRECOND_MAX); -1 with
 * a message in err. */
int precondition_parse(const char *text, struct precond_pass *p, size_t *n, char *err);

#include <jansson.h>
/* {"name": value, ...} of a run's parameters (options that are not per_job):
 * sizes and counts as integers (bytes), durations in seconds, words and text
 * as strings. */
json_t *options_params_json(const union optval *v);

#endif
