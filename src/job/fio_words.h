/*
 * fio_words.h - fio's words, the one table of them.
 *
 * Every fio option iosweep knows is one row here: the iosweep option it
 * becomes (for "did you mean"), what `iosweep import` does with it
 * (translates it, notes it as irrelevant or not supported, or refuses it
 * unless it is off), what the job parser says when a fio user writes it
 * in an iosweep job file, and what `iosweep options` lists for it.  fio's engine names and rw words are two small
 * tables beside it.  The import (src/fio/) attaches its behaviour to the
 * rows by their handler; what an engine can do and which options it takes
 * is the engine table's (io/engines/engine.h), never written here.
 */
#ifndef IOSWEEP_FIO_WORDS_H
#define IOSWEEP_FIO_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "io/ioloop.h"

/* What iosweep import does with a fio option. */
enum fio_word_kind {
	FW_TRANSLATE,   /* its handler (enum fio_handler) says what it means */
	FW_IRRELEVANT,  /* noted: changes nothing iosweep measures or reports */
	FW_UNSUPPORTED, /* noted: iosweep cannot do it; what is measured stays comparable */
	FW_OFF_ONLY,    /* refused unless 0 (or empty): it changes what is measured */
};

/* Which jobs an option does something to; the others get it noted as
 * irrelevant. */
enum fio_word_scope { FW_ANY_JOB, FW_WRITE_JOBS, FW_MIXED_JOBS };

/* The import's handlers (src/fio/fio_rules.c), one per kind of value: a
 * function, or a flag of its model of a fio job. */
enum fio_handler {
	FH_NONE, FH_NAME, FH_DESCRIPTION, FH_FILENAME, FH_DIRECTORY, FH_SIZE, FH_FILESIZE,
	FH_BS, FH_BSRANGE, FH_BSSPLIT, FH_RW, FH_IOENGINE, FH_IODEPTH, FH_DIRECT, FH_BUFFERED,
	FH_INVALIDATE, FH_PRE_READ, FH_FADVISE_HINT, FH_NUMJOBS, FH_RUNTIME, FH_TIME_BASED,
	FH_RAMP_TIME, FH_LOOPS, FH_RANDREPEAT, FH_RANDSEED, FH_NORANDOMMAP, FH_KNOB,
	FH_BATCH_COMPLETE, FH_NUMBER_IOS, FH_OFFSET, FH_ORDER, FH_KB_BASE, FH_RATE,
	FH_RATE_PROCESS, FH_DISTRIBUTION, FH_PERCENTAGE_RANDOM, FH_NRFILES, FH_VERIFY,
	FH_DO_VERIFY, FH_VERIFY_ONLY, FH_PATTERN, FH_RWMIX, FH_COUNT, FH_END_FSYNC,
	FH_FSYNC_ON_CLOSE, FH_SYNC, FH_ZERO_BUFFERS, FH_REFILL_BUFFERS, FH_SCRAMBLE_BUFFERS,
	FH_COMPRESS, FH_COMPRESS_CHUNK, FH_FALLOCATE, FH_OVERWRITE, FH_CREATE_ON_OPEN,
	FH_UNLINK, FH_UNLINK_EACH_LOOP, FH_SS, FH_SS_DUR, FH_SS_RAMP, FH_SS_INTERVAL,
	FH_FILE_SERVICE_TYPE, FH_OPENFILES, FH_FILENAME_FORMAT, FH_BLOCKALIGN, FH_THINKTIME,
	FH_READ_IOLOG, FH_REPLAY, FH_STARTDELAY, FH_SUBMIT_MODE, FH_SQPOLL_CPU, FH_DEDUPE,
	FH_OPENDIR,
	FH__COUNT
};

/* What fio 3.33's parser takes of an option: a value it fails parsing, or
 * the option without one ("Option NAME requires an argument"), makes fio drop
 * the job, so the import refuses it too. */
enum fio_takes {
	FT_VALUE = 0, /* a value (most options) */
	FT_BOOL,      /* 0 or 1 (fio's "max value out of range" above) */
	FT_FLAG,      /* nothing (it sets the option), or a number */
	FT_ANY,       /* nothing, or a value; or no option of fio 3.33's job files */
};

struct fio_word {
	const char *fio;          /* fio's option name (lower case, as fio matches it) */
	const char *to;           /* the iosweep option it is, or NULL */
	const char *why;          /* noted or refused: why; translated and noted when on */
	const char *hint;         /* written in an iosweep job file: what to write instead */
	const char *becomes;      /* FW_TRANSLATE: what the import makes of it, in a line */
	const char *unsaid;       /* fio takes it bare (no value), and its JSON then leaves
				     it out: this iosweep parameter of a fio result is not
				     known without it (resultfile_fio.c) */
	enum fio_word_kind kind;
	enum fio_word_scope scope;
	enum fio_handler handler; /* FW_TRANSLATE */
	enum fio_takes takes;     /* what fio 3.33's parser takes */
};

/* "changes how fio reports, not what it measures": the why of fio's output options */
extern const char fio_why_report[];

/* The row of fio's option name (case-insensitive), or NULL. */
const struct fio_word *fio_word_find(const char *name);

/* The i-th row of the table (in its order), or NULL after the last. */
const struct fio_word *fio_word_at(size_t i);
/* What iosweep makes of w, in a line (`iosweep options`): what it becomes,
 * or that it is ignored, not supported or refused, and why. */
const char *fio_word_says(const struct fio_word *w, char *buf, size_t n);

/* fio's engines: the iosweep engine fio's ioengine=NAME becomes, or NULL. */
const char *fio_engine_to(const char *fio_engine);
/* The i-th of fio's engine names that iosweep translates, with the iosweep
 * engine it becomes in *to; NULL after the last. */
const char *fio_engine_at(size_t i, const char **to);
/* fio's file engines (filecreate, filestat, filedelete): the phase of a
 * tree (iosweep's op word) fio's ioengine=NAME becomes, or NULL. */
const char *fio_file_engine_to(const char *fio_engine);

/* fio's rw words (read, randwrite, rw, ...) */
struct fio_rw {
	const char *fio;
	enum op_kind op;
	bool random;
};
/* The row of fio's rw=WORD, or NULL. */
const struct fio_rw *fio_rw_find(const char *word);
/* iosweep's `op` value for op ("read", ..., "trimwrite"). */
const char *fio_op_word(enum op_kind op);

/* What to write instead of fio's option `name`, or NULL when it is not one. */
const char *fio_hint_option(const char *name);
/* What to write instead of fio's value `value` of iosweep option `option`,
 * or NULL. */
const char *fio_hint_value(const char *option, const char *value);

#endif
