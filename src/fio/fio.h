/*
 * fio.h - fio's job-file dialect, read as fio 3.x reads it.
 *
 * fio's files look like INI but are not: `include FILE` lines, options
 * without a value (`thread`), comments after a value, `${VAR}` expanded to
 * nothing when unset, the keywords $pagesize, $mb_memory and $ncpus with
 * arithmetic (fio hands such values to bc), several [global] sections that
 * each apply to the jobs after them, and units whose meaning depends on
 * kb_base.  This module turns files and fio command lines into jobs, each
 * a list of name = value settings in the order fio applies them (its
 * [global] settings first), each remembering FILE:LINE.  What the settings
 * mean is fio_import.c's business; the unit rules are here because both
 * need them.
 */
#ifndef IOSWEEP_FIO_H
#define IOSWEEP_FIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fio_setting {
	char *name;        /* lower case, as fio matches option names */
	char *value;       /* expanded; NULL when written without '=' */
	char *raw;         /* the value as written (NULL without '=') */
	char *unset;       /* an unset ${VAR} in it (fio expands it to nothing), or NULL */
	const char *file;  /* owned by struct fio_input */
	int line;          /* 0: from a command line or a result file */
};

struct fio_job {
	char *name;
	const char *file;
	int line;
	unsigned group;    /* job files are separate groups: fio runs them in turn */
	struct fio_setting *set;
	size_t nset;
};

struct fio_input {
	struct fio_job *jobs;
	size_t njobs;
	struct fio_setting *flags; /* fio's own command-line flags (--output...) */
	size_t nflags;
	char **files;              /* paths settings point at */
	size_t nfiles;
	unsigned ngroups;
};

/* Appends the jobs of a fio job file (and the files it includes).  -1 with
 * "FILE:LINE: message" in err (ERR_MAX bytes). */
int fio_read_file(struct fio_input *in, const char *path, char *err);
/* Appends the jobs of a fio command line (argv[0] is "fio"); job files
 * named on it are read as fio_read_file does. */
int fio_read_cmdline(struct fio_input *in, int argc, char *const *argv, char *err);
/* Appends one job made of name/value pairs (a fio JSON result's options). */
int fio_add_job(struct fio_input *in, const char *name, const char *const *names,
		const char *const *values, size_t n, const char *source, char *err);
/* Drops the jobs after the first njobs (those a file that failed to read
 * appended). */
void fio_input_drop_jobs(struct fio_input *in, size_t njobs);
/* Keeps only the jobs named names[0..n) (every job of each name, in their
 * order); -1 with "FILE: no fio job named 'X'" in err when a name is no
 * job's, before anything is dropped. */
int fio_select_jobs(struct fio_input *in, char *const *names, size_t n, char *err);
void fio_input_free(struct fio_input *in);

/* array (of n elements of size bytes, grown only by this function) with
 * room for one more, or NULL (array kept): the room doubles, so that n
 * appends cost time linear in n (realloc by one copies, under ASan always). */
void *fio_grow(void *array, size_t n, size_t size);

/* Whether a fio command-line argument without '=' takes the next argument
 * as its value (fio's own flags such as --output). */
bool fio_flag_takes_value(const char *name);

/* fio's reading of a number of bytes with kb_base (1024 or 1000): 4k is 4096
 * (or 4000 with kb_base=1000), 4KiB is 4000 (or 4096): fio's compatibility
 * rule.  A trailing % sets *percent.  Readings where fio quietly drops
 * part of what is written (a space after '=', a fraction, an unknown
 * unit) are refused, with what fio would have read, in err. */
int fio_parse_bytes(const char *s, unsigned kb_base, uint64_t *out, bool *percent, char *err);
/* A time in microseconds; a bare number is in unit_us (1000000: seconds). */
int fio_parse_time_us(const char *s, uint64_t unit_us, uint64_t *out, char *err);
/* A plain number (decimal or 0x hex). */
int fio_parse_int(const char *s, uint64_t *out, char *err);
/* A boolean: no value, or a number (0: false); fio 3.33 refuses "true",
 * "false" and the like, and so does this. */
int fio_parse_bool(const char *s, bool *out, char *err);

#endif
