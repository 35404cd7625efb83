/*
 * fio_job.h - one fio job being translated (fio_import.h): fio's own model
 * of it as the rules (fio_rules.c) read its settings, the messages that
 * name a setting, and the notes said once each.  Shared by the rules and
 * the finishing of a job (fio_finish.c); nothing outside src/fio/ sees it.
 */
#ifndef IOSWEEP_FIO_JOB_H
#define IOSWEEP_FIO_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "fio/fio.h"
#include "fio/fio_translation.h"

/* fio's fallocate modes (fio 3.33 options.c) */
enum fio_fallocate { FALLOC_NONE, FALLOC_NATIVE, FALLOC_POSIX, FALLOC_KEEP, FALLOC_TRUNCATE };

/* What fio would do for one job, as far as iosweep can say it. */
struct fio_state {
	const struct fio_job *job;
	const char *name;
	uint64_t rw_skip;                 /* read:N: bytes skipped after each I/O */
	bool rw_back;                     /* read:-N: rw_skip is N, stepped back */
	const struct fio_setting *rw_at;
	const char *filename, *directory, *description;
	const struct fio_setting *filename_at, *directory_at, *description_at;
	uint64_t size, filesize, size_pct;
	const struct fio_setting *size_at;
	/* filesize=LO-HI: each file's size drawn from filesize to filesize_hi */
	uint64_t filesize_hi;
	const struct fio_setting *filesize_at;
	/* offset, offset_increment: bytes, or a percent of the file (*_pct) */
	uint64_t offset, offset_pct, offset_inc, offset_inc_pct;
	const struct fio_setting *offset_at, *offset_inc_at;
	uint64_t io_size;                 /* io_size (io_limit): bytes of I/O; 0: size */
	const struct fio_setting *io_size_at;
	uint64_t bs;                      /* the job's: bs_rw of its direction (finish_bs) */
	/* block sizes by direction, [0] reads, [1] writes: bs_rw to bs_hi (a
	 * range unless equal), or several (bssplit: bs_split below) */
	uint64_t bs_rw[2], bs_hi[2];
	const struct fio_setting *bs_at[2];
	/* a mix of sizes by direction (bssplit, bsrange), in iosweep's words
	 * and bytes; "": one size (bs_rw) */
	char mix[2][512];
	uint64_t blockalign[2];
	const struct fio_setting *blockalign_at;
	const char *engine;               /* iosweep's name */
	uint64_t iodepth;
	const struct fio_setting *iodepth_at;
	const char *hint;                 /* NULL: fio's default, advice by pattern */
	const char *distribution;         /* random_distribution, skewed; NULL: uniform */
	const struct fio_setting *distribution_at;
	uint64_t numjobs, runtime_us, loops, seed, number_ios;
	const struct fio_setting *numjobs_at, *randrepeat_at, *seed_at, *loops_at;
	/* writes */
	uint64_t rwmixread, fsync_every, fdatasync_every, compress_pct, compress_chunk;
	bool mix_reads_only;              /* a mix of rwmixread=100: made a read job */
	const struct fio_setting *fsync_at, *fdatasync_at, *sync_at, *compress_at;
	const char *sync_open;            /* iosweep's osync or dsync; NULL: none */
	const char *verify;               /* fio's verify type; NULL: none */
	const struct fio_setting *verify_at, *verify_only_at;
	/* rates and time: [0] reads, [1] writes */
	uint64_t rate[2], rate_iops[2], ramp_us, batch_min, batch_max;
	const struct fio_setting *rate_at, *rate_iops_at, *ramp_at, *time_based_at, *batch_at;
	uint64_t think_us, think_spin_us, think_blocks; /* thinktime: 0, 0, 0 unless set */
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
	/* steady state: fio's criterion text, window, ramp and check interval */
	const char *ss;
	uint64_t ss_dur_us, ss_ramp_us, ss_interval_us;
	const struct fio_setting *ss_at, *ss_dur_at;
	/* a file set: nrfiles, file_service_type (iosweep's word), openfiles,
	 * filename_format ($jobnum made 0) */
	uint64_t nrfiles, openfiles;
	const char *service, *name_format;
	const struct fio_setting *nrfiles_at, *openfiles_at, *service_at, *name_format_at;
	/* a file engine (filecreate, filestat, filedelete): the tree phase it
	 * is (iosweep's op word); NULL: none */
	const char *phase;
	const struct fio_setting *phase_at;
	/* opendir: every regular file under a directory, fio's walk of it */
	const char *opendir;
	const struct fio_setting *opendir_at;
	/* read_iolog: the trace and how it is replayed (fio's defaults: as
	 * recorded, scale 100, onto the files it names; redirect: onto one) */
	const char *read_iolog, *redirect;
	const struct fio_setting *read_iolog_at, *redirect_at, *no_stall_at, *time_scale_at;
	uint64_t time_scale;
	bool no_stall;
	/* startdelay: fio's wait before the job, lo to hi (a range: fio draws it);
	 * delay_at NULL: none */
	uint64_t delay_lo_us, delay_hi_us;
	const struct fio_setting *delay_at;
	const struct fio_setting *sqpoll_cpu_at; /* sqthread_poll_cpu */
};

#define MAX_LINE 198 /* the longest line iosweep's job files read (job.c) */

/* "FILE:LINE: name=value: why" into err; returns -1. */
int setting_bad(const struct fio_setting *s, char *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int value_bool(const struct fio_setting *s, bool *out, char *err);
int value_int(const struct fio_setting *s, uint64_t *out, char *err);
/* A number of bytes with the job's kb_base (text: the value or a part of it). */
int value_bytes(const struct fio_state *st, const struct fio_setting *s, const char *text,
		uint64_t *out, bool *pct, char *err);
/* Whether s has a value; false with why in err. */
bool needs_value(const struct fio_setting *s, char *err);
/* Notes s (or where_text when s is NULL) with why, once: -1 when out of
 * memory. */
int setting_note(struct import *im, const struct fio_setting *s, const char *where_text,
		 const char *why);

#endif
