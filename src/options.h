/*
 * options.h - the one table of job options.
 *
 * Every job option is declared once, in options.c, with its type, default,
 * allowed values and help.  The job parser, the plan, `iosweep options`, the
 * reporters and the man-page test all read that table, so an option exists
 * everywhere or nowhere.
 */
#ifndef IOSWEEP_OPTIONS_H
#define IOSWEEP_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
	OPT_FILENAME, OPT_SIZE, OPT_FILL, OPT_BS, OPT_SPACING, OPT_PATTERN, OPT_COUNT,
	OPT_SEED, OPT_ENGINE, OPT_IODEPTH, OPT_FIXEDBUFS, OPT_REGISTERFILES, OPT_SQTHREAD_POLL,
	OPT_HIPRI, OPT_NOWAIT, OPT_CACHE, OPT_HINT, OPT_THREADS, OPT_CONSUME,
	OPT_OP, OPT_RWMIXREAD, OPT_SYNC, OPT_SYNC_EVERY, OPT_DATA, OPT_COMPRESS, OPT_ALLOC,
	OPT_VERIFY, OPT_ALLOW_WRITE, OPT_REPEAT, OPT_WARMUP, OPT_RUNTIME, OPT_TIME_BASED, OPT_RAMP,
	OPT_RATE, OPT_RATE_IOPS, OPT_INTERVAL, OPT_BASELINE, OPT_DESCRIPTION,
	OPT__COUNT
};

/* Enumerations: same order as the `values` of their option. */
enum pattern_kind { PATTERN_SEQUENTIAL, PATTERN_REVERSE, PATTERN_RANDOM, PATTERN_RANDOM_REPLACE };
enum hint_kind { HINT_NONE, HINT_SEQUENTIAL, HINT_RANDOM, HINT_WILLNEED, HINT_NOREUSE };
enum consume_kind { CONSUME_NONE, CONSUME_CHECKSUM, CONSUME_INTS };
/* FILL_EXISTING: a file iosweep did not make (or that has no record), its
 * content unknown; in a job, `fill = existing` says so explicitly. */
enum fill_kind { FILL_RANDOM, FILL_ZERO, FILL_TEXT, FILL_EXISTING };
enum flag_value { FLAG_OFF, FLAG_ON };
enum op_kind { OP_READ, OP_WRITE, OP_READWRITE };
enum sync_kind { SYNC_NONE, SYNC_END, SYNC_FSYNC, SYNC_FDATASYNC, SYNC_DSYNC, SYNC_OSYNC };
enum data_kind { DATA_RANDOM, DATA_ZERO };
enum alloc_kind { ALLOC_OVERWRITE, ALLOC_ALLOCATE, ALLOC_PREALLOC };
enum verify_kind { VERIFY_NONE, VERIFY_AFTER };
/* enum cache_policy and its names are in cache.h; engines, their names and
 * the options each takes are in the engine table (engine.h). */

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
	const char *fio_name;      /* what fio calls it, for "did you mean" */
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
bool option_value_equal(enum opt_id id, union optval a, union optval b);

#include <jansson.h>
/* {"name": value, ...} of a run's parameters (options that are not per_job):
 * sizes and counts as integers (bytes), durations in seconds, words and text
 * as strings. */
json_t *options_params_json(const union optval *v);

#endif
