/*
 * fio_finish.c - see fio_finish.h.  When all of a job's settings are read,
 * the state becomes iosweep option values: its name, file and size, its
 * writes (sync, data, alloc, verify), its engine options as the engine
 * table allows them, its time and rate; options that only writes (or only
 * mixed jobs) read are noted as irrelevant for the jobs they do nothing to.
 * A job with read_iolog is the trace instead (finish_replay): only how it is
 * replayed is translated.
 */
#define _GNU_SOURCE
#include "fio/fio_finish.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/engines/engine.h"
#include "io/fileset.h"
#include "io/trace.h"
#include "job/fio_words.h"
#include "job/options.h"
#include "lib/error.h"
#include "lib/units.h"

#define W_ONLY "applies to writes only; this job only reads"
/* fio 3.33 lays a read job's missing file out with the data its options
 * say (checked: buffer_pattern=0xdeadbeef gave a file of that pattern,
 * zero_buffers zeros; buffer_compress_percentage=50 and dedupe_percentage=50
 * files gzip shrank to 51% and 63%); iosweep lays it out with its own data.
 * At 0 they are fio's default: it laid the file out in unique random blocks
 * with dedupe_percentage=0, buffer_compress_percentage=0 or zero_buffers=0,
 * as without them */
#define LAYOUT "translated with a difference: this job only reads; fio lays out a missing " \
	"file with this data, iosweep with its own: a read measures the same unless the " \
	"storage compresses or deduplicates"

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

/* filesize=LO-HI: iosweep's filesize = LO-HI, with what differs noted */
#define FILESIZE_RANGE_NOTE                                                                \
	"translated with a difference: fio draws each file's size from the low end up to, "  \
	"not including, the high end, rounded down to a multiple of its smallest block "    \
	"size; iosweep draws each file's from the low end to the high end in steps of the " \
	"low end, from seed and the file's number"
static int set_filesize_range(struct import *im, const struct fio_state *st,
			      struct import_job *ij)
{
	char lo[32], hi[32];

	units_fmt_size(st->filesize, lo, sizeof(lo));
	units_fmt_size(st->filesize_hi, hi, sizeof(hi));
	if (set_val(ij, OPT_FILESIZE, "%s-%s", lo, hi) < 0)
		return -1;
	return setting_note(im, st->filesize_at, NULL, FILESIZE_RANGE_NOTE);
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
		return err_set(err, "%s: job '%.*s...': an iosweep job name holds at most %d "
				    "bytes; give the fio job a shorter name", job_at, MAX_NAME,
			       name, MAX_NAME);
	for (const char *p = name; *p; p++)
		if (*p == ']' || (unsigned char)*p < 0x20)
			return err_set(err, "%s: job '%s': an iosweep job name cannot hold %s; "
					    "rename the fio job", job_at, name, *p == ']' ?
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
				    "give the fio jobs other names", job_at, name, ij->name,
			       MAX_NAME);
	return 0;
}

static uint64_t file_size(const char *path, bool *exists)
{
	struct stat st;

	*exists = stat(path, &st) == 0 && (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode));
	return *exists && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
}

/*
 * offset, offset_increment: fio's clone k (numjobs) does its size from
 * offset + k * offset_increment (a percentage is of the existing file, the
 * offset's rounded up to bs, as fio aligns it), or, without a size, to the
 * end of the file.  iosweep's regions are all as long and the last ends the
 * file, so *size stays the region and finish_extent makes the file end
 * where fio's last region does.  Without a size, fio's clones would have
 * regions of different lengths: refused with offset_increment.
 */
static int job_region(struct fio_state *st, uint64_t have, bool exists, uint64_t *size, char *err)
{
	bool sized = st->size || st->size_pct || st->filesize;

	if (st->offset_pct || st->offset_inc_pct) {
		const struct fio_setting *at = st->offset_pct ? st->offset_at : st->offset_inc_at;

		if (!exists || have == 0)
			return setting_bad(at, err, "a percentage of a file that does not exist (or is "
						"not a regular file with a size)");
		if (st->offset_pct)
			st->offset = (have * st->offset_pct / 100 + st->bs - 1) / st->bs * st->bs;
		if (st->offset_inc_pct)
			st->offset_inc = have * st->offset_inc_pct / 100;
	}
	if (st->numjobs <= 1)
		st->offset_inc = 0; /* one clone: its region starts at offset */
	if (!st->offset && !st->offset_inc)
		return 0;
	if (st->nrfiles > 1)
		return setting_bad(st->offset ? st->offset_at : st->offset_inc_at, err,
				   "iosweep places a region in one file, not in each file of a set");
	if (st->offset_inc && st->mix[0][0])
		return setting_bad(st->offset_inc_at, err, "iosweep gives each thread its own region "
				   "only with one block size, not a mix (bssplit, bsrange)");
	if (sized)
		return 0;
	if (st->offset_inc)
		return setting_bad(st->offset_inc_at, err, "without a size each of fio's jobs goes to "
				   "the end of the file, in regions of different lengths; iosweep's "
				   "are equally long: give the fio job a size");
	if (*size && st->offset >= *size)
		return setting_bad(st->offset_at, err, "is beyond the end of the file (%llu bytes)",
				   (unsigned long long)*size);
	*size -= *size ? st->offset : 0;
	return 0;
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
		return setting_bad(st->size_at, err, "fio reads the %llu-byte file (filesize) more than "
					     "once to do size; iosweep reads a file once per "
					     "repeat", (unsigned long long)st->filesize);
	if (st->size && st->filesize > st->size && st->random) {
		*ios = st->size / st->bs + (st->size % st->bs != 0); /* checked with fio 3.33 */
		*size = st->filesize;
	}
	if (st->size_pct) {
		if (!exists || have == 0)
			return setting_bad(st->size_at, err, "a percentage of a file that does not exist "
						     "(or is not a regular file with a size)");
		*size = have * st->size_pct / 100 / st->bs * st->bs;
		if (*size == 0)
			return setting_bad(st->size_at, err, "is less than one block of the file");
	}
	if (*size == 0 && !exists)
		return err_set(err, "%s:%d: job '%s': fio needs a size (or an existing file) and "
				    "so does iosweep", st->job->file, st->job->line, st->job->name);
	if (*size == 0)
		*size = have; /* fio reads the whole file (0 for a block device: iosweep asks) */
	return job_region(st, have, exists, size, err);
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
static int engine_flags(struct import *im, const struct fio_state *st, struct import_job *ij,
			const char *job_at, char *err)
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
	/* sqthread_poll_cpu: fio takes it with io_uring only ("Bad option"
	 * otherwise), and pins its SQ polling thread with it only under
	 * sqthread_poll=1 (checked with strace: IORING_SETUP_SQ_AFF and the CPU
	 * then, neither without) */
	if (!st->sqpoll_cpu_at)
		return 0;
	if (strcmp(st->engine, "uring") != 0)
		return setting_bad(st->sqpoll_cpu_at, err, "fio refuses it too (\"Bad option\"): an "
				   "option of ioengine=io_uring");
	if (setting_note(im, st->sqpoll_cpu_at, NULL, st->knob[option_knob(OPT_SQTHREAD_POLL)] ?
			 "not supported: fio pins its SQ polling thread to this CPU; iosweep "
			 "does not pin it" :
			 "irrelevant: fio pins its SQ polling thread only with sqthread_poll=1, "
			 "and without it there is none") < 0)
		return err_set(err, "out of memory");
	return 0;
}

/* Notes for the settings of the job that do nothing to it: write options
 * of a job that only reads, mix options of one that is not mixed. */
static int note_scoped(struct import *im, const struct fio_state *st)
{
	for (size_t i = 0; i < st->job->nset; i++) {
		const struct fio_word *r = fio_word_find(st->job->set[i].name);
		char why[ERR_MAX];
		bool layout = r && (r->handler == FH_PATTERN || r->handler == FH_DEDUPE ||
				    r->handler == FH_ZERO_BUFFERS || r->handler == FH_COMPRESS), on;
		/* dedupe_percentage=0, buffer_compress_percentage=0, zero_buffers=0 (or false) */
		bool fio_default = layout && r->handler != FH_PATTERN &&
				   fio_parse_bool(st->job->set[i].value, &on, why) == 0 && !on;

		if (r && r->scope == FW_WRITE_JOBS && st->op == OP_READ &&
		    setting_note(im, &st->job->set[i], NULL,
				 layout && !fio_default ? LAYOUT :
				 layout ? "irrelevant: this is fio's default, and this job only reads" :
				 "irrelevant: " W_ONLY) < 0)
			return -1;
		if (r && r->scope == FW_MIXED_JOBS && st->op != OP_READWRITE &&
		    setting_note(im, &st->job->set[i], NULL, st->mix_reads_only ?
			 "translated: it leaves fio's mix no writes, a read job (see rw)" :
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
	    setting_note(im, st->time_based_at, NULL, "irrelevant: fio drops time_based without a runtime "
					       "(and says so)") < 0)
		return err_set(err, "out of memory");
	/* startdelay: that it starts no job apart from others is translate()'s */
	if (st->delay_at && st->delay_lo_us != st->delay_hi_us && st->numjobs > 1)
		return setting_bad(st->delay_at, err, "fio draws a wait from the range for each of "
				   "its %llu numjobs clones, so they start apart, and iosweep starts "
				   "a job's threads at once: give one time",
				   (unsigned long long)st->numjobs);
	/* startdelay: fio's meaning (the wait is in no figure); a range drawn
	 * for a job alone shifts nothing measured */
	if (st->delay_at && st->delay_lo_us == st->delay_hi_us &&
	    set_duration(ij, OPT_STARTDELAY, st->delay_lo_us) < 0)
		return err_set(err, "out of memory");
	if (st->delay_at && st->delay_lo_us != st->delay_hi_us &&
	    setting_note(im, st->delay_at, NULL,
			 "translated with a difference: fio waits a time it draws from the range "
			 "before it starts the job, and leaves the wait out of the job's runtime "
			 "and figures; iosweep does not wait") < 0)
		return err_set(err, "out of memory");
	if (st->ramp_us && !timed)
		return setting_bad(st->ramp_at, err, "iosweep ramps up only inside time_based repeats: add "
					     "time_based and a runtime to the fio job, or use "
					     "iosweep's warmup (whole unmeasured repeats)");
	if (timed && set_val(ij, OPT_TIME_BASED, "1") < 0)
		return err_set(err, "out of memory");
	if (st->think_us && (set_duration(ij, OPT_THINKTIME, st->think_us) < 0 ||
			     (st->think_spin_us &&
			      set_duration(ij, OPT_THINKTIME_SPIN, st->think_spin_us) < 0) ||
			     (st->think_blocks > 1 &&
			      set_val(ij, OPT_THINKTIME_BLOCKS, "%llu",
				      (unsigned long long)st->think_blocks) < 0)))
		return err_set(err, "out of memory");
	if (st->ramp_us && set_duration(ij, OPT_RAMP, st->ramp_us) < 0)
		return err_set(err, "out of memory");
	return 0;
}

/* fio's steady state: on only with ss_dur (fio ignores ss without it, and
 * judges iops_slope:0.01% with ss_dur alone); its samples are 1 s apart,
 * iosweep's interval's default. */
static int finish_steady(struct import *im, const struct fio_state *st, struct import_job *ij,
			 char *err)
{
	int rc = 0;

	if (st->ss && !st->ss_dur_us)
		return setting_note(im, st->ss_at, NULL, "irrelevant: fio judges no steady state "
							 "without ss_dur") < 0 ? err_set(err, "out of memory") : 0;
	if (!st->ss_dur_us)
		return 0;
	rc |= set_val(ij, OPT_SS, "%s", st->ss ? st->ss : "iops_slope:0.01%");
	rc |= set_duration(ij, OPT_SS_DUR, st->ss_dur_us);
	if (st->ss_ramp_us)
		rc |= set_duration(ij, OPT_SS_RAMP, st->ss_ramp_us);
	if (st->ss_interval_us)
		rc |= set_duration(ij, OPT_INTERVAL, st->ss_interval_us);
	return rc < 0 ? err_set(err, "out of memory") : 0;
}

/* fio's limits per direction and per clone as one limit of the job (iosweep
 * limits all the I/O of a job, split over its threads); fio's rate wins
 * over its rate_iops in a direction that has both (fio 3.33 init.c). */
static int finish_rate(struct import *im, const struct fio_state *st, struct import_job *ij,
		       char *err)
{
	const struct fio_setting *at = st->rate_at ? st->rate_at : st->rate_iops_at;
	uint64_t bps[2], total = 0;
	/* trims are on the write side here (fio's third rate, of trims, is not read) */
	bool reads = st->op == OP_READ || st->op == OP_READWRITE;
	bool iops_only = true, both = false, used[2] = { reads, st->op != OP_READ };
	unsigned mix = st->op == OP_READWRITE ? (unsigned)st->rwmixread :
		       st->op == OP_READ ? 100 : 0;

	if (!at)
		return 0;
	for (int d = 0; d < 2; d++) {
		bps[d] = st->rate[d];
		if (!bps[d] && __builtin_mul_overflow(st->rate_iops[d], st->bs_rw[d], &bps[d]))
			return setting_bad(at, err, "too large a rate");
		if (used[d] && st->rate[d])
			iops_only = false;
		both |= used[d] && st->rate[d] && st->rate_iops[d];
	}
	if (both &&
	    setting_note(im, st->rate_iops_at, NULL, "irrelevant: fio ignores rate_iops in a direction "
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
		return setting_bad(at, err, "fio limits reads and writes separately (here %llu and %llu "
				    "bytes a second, 0 for none) and moves the mix towards the one "
				    "with room; iosweep limits the reads and writes of a job together: "
				    "it translates limits in the proportion of rwmixread=%u only",
			   (unsigned long long)bps[0], (unsigned long long)bps[1], mix);
	if (total == 0)
		return 0;
	/* every clone of numjobs has its own limit */
	if (total > INT64_MAX / st->numjobs)
		return setting_bad(at, err, "too large a rate");
	total *= st->numjobs;
	if (iops_only && set_val(ij, OPT_RATE_IOPS, "%llu", (unsigned long long)(total / st->bs)) < 0)
		return err_set(err, "out of memory");
	if (!iops_only && set_size(ij, OPT_RATE, total) < 0)
		return err_set(err, "out of memory");
	if (st->iodepth > 1 && queued_engine(st) &&
	    setting_note(im, at, NULL, "translated with a difference: when it is ahead of its rate fio "
			       "waits for all its I/O in flight to complete before it sleeps; "
			       "iosweep keeps them in flight") < 0)
		return err_set(err, "out of memory");
	return 0;
}

/* Whether path names a block device: one that is there, or a /dev name
 * that is not (the job may be translated away from the machine it runs on). */
static bool names_device(const char *path)
{
	struct stat sb;

	if (!path)
		return false;
	return stat(path, &sb) == 0 ? S_ISBLK(sb.st_mode) : strncmp(path, "/dev/", 5) == 0;
}

/* The file a write job names: a file of the user's only with allow_write,
 * a block device only with allow_write and the device's own checks
 * (io/wtarget.h); the translation never adds the consent: it says what to
 * add.  Anything but a regular file or a block device is refused. */
static int finish_target(struct import *im, const struct fio_state *st, const char *path,
			 const char *job_at, char *err)
{
	const struct fio_setting *at = st->filename_at;
	struct stat sb;
	bool exists = stat(path ? path : "", &sb) == 0;
	char why[800];

	if (!path)
		return 0; /* iosweep's own test file */
	if (names_device(path))
		snprintf(why, sizeof(why), "this job writes the block device %.200s: iosweep writes "
					   "a device only when the job names it in allow_write and "
					   "nothing on it is in use (mounted, swap, held) or carries a "
					   "signature the job does not name in allow_overwrite_signature; "
					   "once sure nothing on it is needed, add 'allow_write = %.200s' "
					   "to the job", path, path);
	else if (exists && !S_ISREG(sb.st_mode)) {
		if (at)
			return setting_bad(at, err, "iosweep writes only regular files and block "
						    "devices; write the fio job for a file");
		return err_set(err, "%s: job '%s': %s: iosweep writes only regular files and "
				    "block devices", job_at, st->job->name, path);
	} else
		snprintf(why, sizeof(why), "this job writes %.200s: iosweep writes it only if it "
					   "creates it or created it earlier; to let it overwrite a "
					   "file of yours there, add 'allow_write = %.200s' to the job",
			 path, path);
	return setting_note(im, at, at ? NULL : job_at, why) < 0 ? err_set(err, "out of memory") : 0;
}

/* fio 3.33 on an asynchronous engine flushes without draining its queue:
 * libaio calls fsync(2) from its thread with the other I/Os in flight
 * (their completions wait, unreaped, for the call to return), io_uring
 * queues IORING_OP_FSYNC among them.  sync_mode = inflight is the same
 * cadence without the wait; the note says what fio's figures time. */
static int inflight_sync(struct import *im, const struct fio_setting *at, struct import_job *ij)
{
	return set_val(ij, OPT_SYNC_MODE, "%s", "inflight") |
	       setting_note(im, at, NULL,
			    "translated as sync_mode = inflight: fio 3.33 flushes with the other "
			    "I/Os in flight, as iosweep does then (a queued flush); fio checks for "
			    "a flush before every I/O it issues, so a read after the Nth write may "
			    "bring one too (more flushes than writes / N), its libaio flush is an "
			    "fsync(2) call that holds the completions of the I/Os in flight "
			    "unreaped (their clat includes it), and its sync latency is not the "
			    "call's alone; iosweep flushes after every Nth write and times each "
			    "flush issue to completion");
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
		return setting_bad(st->fdatasync_at, err, "iosweep flushes one way in a run: fsync or "
						  "fdatasync, not both");
	if (every && st->sync_open)
		return setting_bad(st->sync_at, err, "iosweep makes writes durable one way in a run: "
					     "O_SYNC/O_DSYNC writes or flushes every N writes, not both");
	if (every) {
		rc |= set_val(ij, OPT_SYNC, "%s", st->fsync_every ? "fsync" : "fdatasync");
		rc |= set_val(ij, OPT_SYNC_EVERY, "%llu", (unsigned long long)every);
		if (!end && every > 1)
			rc |= setting_note(im, at, NULL, "translated with a difference: iosweep also flushes "
						 "once after the last write when writes since the last "
						 "flush are left (fio does not without end_fsync)");
		if (end && st->fdatasync_every)
			rc |= setting_note(im, at, NULL, "translated with a difference: iosweep's flush after "
						 "the last write is an fdatasync, fio's an fsync");
		if (queued_engine(st))
			rc |= inflight_sync(im, at, ij);
	} else if (st->sync_open) {
		rc |= set_val(ij, OPT_SYNC, "%s", st->sync_open);
		if (end)
			rc |= setting_note(im, st->sync_at, NULL, "translated with a difference: iosweep does "
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
			rc |= setting_note(im, st->compress_at, NULL,
				   "translated with a difference: fio makes every chunk of "
				   "buffer_compress_chunk bytes (512 unless set) that compressible, "
				   "iosweep every 4 KiB");
	} else if (!st->refill_buffers && !st->verify) {
		rc |= setting_note(im, NULL, st->job->file, /* once per file */
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
 * there is overwritten.  Whether the file is there is known when fio runs,
 * not when its job is translated: a job whose file stays (no unlink)
 * becomes a list of both runs, fio's first (laying the file out) and every
 * later one (overwriting it), the one a check such as etcd's fdatasync job
 * means; iosweep's alloc applies before every repeat. */
static int finish_alloc(struct import *im, const struct fio_state *st, struct import_job *ij,
			const char *path, char *err)
{
	const char *first;
	bool both;
	int rc = 0;

	/* fio lays out no device: its writes overwrite it */
	if (st->op != OP_WRITE || st->overwrite || names_device(path))
		return 0; /* alloc = overwrite, the default */
	first = st->create_on_open || st->fallocate == FALLOC_NONE ||
			st->fallocate == FALLOC_TRUNCATE ? "allocate" : "prealloc";
	both = !st->unlink && !st->unlink_each_loop;
	rc |= set_val(ij, OPT_ALLOC, "%s%s", first, both ? ", overwrite" : "");
	if (st->fallocate == FALLOC_KEEP)
		rc |= setting_note(im, st->rw_at, NULL,
				   "translated with a difference: fio's fallocate=keep leaves the file "
				   "empty, its writes extending it into fallocated space; iosweep's "
				   "file has its size");
	if (both)
		rc |= setting_note(im, NULL, st->job->file, /* once per file */
			   "write jobs: translated as both of fio's runs (alloc = a list): its "
			   "first lays the file out (prealloc or allocate), its later runs and "
			   "loops find the file and overwrite it (overwrite, the run a check such "
			   "as etcd's fdatasync job means); iosweep's alloc empties it before "
			   "every repeat");
	else if (st->unlink && st->loops > 1)
		rc |= setting_note(im, NULL, st->job->file,
			   "write jobs with unlink and loops: translated with a difference: fio lays "
			   "the file out before its first loop only, its later loops overwrite it; "
			   "iosweep's alloc empties it before every repeat (alloc = overwrite is fio's "
			   "later loops)");
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
		return setting_note(im, st->verify_at, NULL, why) < 0 ? err_set(err, "out of memory") : 0;
	if (set_val(ij, OPT_VERIFY, "%s", "after") < 0)
		return err_set(err, "out of memory");
	why = st->op == OP_READ ?
	      "translated with a difference: verify = after checks iosweep's data (each 4 KiB "
	      "names its offset and seed), so the file must be one an iosweep write job of the "
	      "same seed wrote; a file fio wrote fails it" :
	      "translated with a difference: fio writes a header and checksum into every block "
	      "and times reading them back as the job's reads; iosweep checks its own data after "
	      "every repeat, untimed (verified_bytes)";
	return setting_note(im, st->verify_at, NULL, why) < 0 ? err_set(err, "out of memory") : 0;
}

/* The write side of a job (fio's rw), with the file it writes. */
static int finish_writes(struct import *im, struct fio_state *st, struct import_job *ij,
			 const char *path, const char *job_at, char *err)
{
	int rc = 0;

	if (st->op == OP_READWRITE && st->rwmixread == 100) {
		st->op = OP_READ; /* fio's mix then never writes */
		st->mix_reads_only = true;
		if (setting_note(im, st->rw_at, NULL, "translated: with rwmixread=100 (or "
						     "rwmixwrite=0) fio only reads: a read job") < 0)
			return err_set(err, "out of memory");
	}
	if (st->verify_only) {
		/* fio only checks what an earlier run of the job wrote: a read */
		if (!st->verify)
			return setting_bad(st->verify_only_at, err, "verify_only without verify checks "
							    "nothing");
		st->op = OP_READ;
		if (setting_note(im, st->verify_only_at, NULL, "translated: a read of the blocks the job "
						       "writes, with verify = after") < 0)
			return err_set(err, "out of memory");
	}
	if (st->op == OP_READ)
		return finish_verify(im, st, ij, err);
	if (finish_target(im, st, path, job_at, err) < 0)
		return -1;
	rc |= set_val(ij, OPT_OP, "%s", fio_op_word(st->op));
	if (st->op == OP_READWRITE)
		rc |= set_val(ij, OPT_RWMIXREAD, "%llu", (unsigned long long)st->rwmixread);
	if (st->op == OP_READWRITE && !st->random)
		rc |= setting_note(im, st->rw_at, NULL,
			   "translated with a difference: fio's reads and writes each go through "
			   "the file from its start, the writes over blocks the reads read; iosweep "
			   "goes through it once, reading rwmixread percent of the blocks and "
			   "writing the others");
	else if (st->op == OP_READWRITE)
		rc |= setting_note(im, st->rw_at, NULL,
			   "translated with a difference: fio draws each I/O's direction as it "
			   "goes, iosweep each block's from seed: the same share, other blocks");
	if (rc < 0)
		return err_set(err, "out of memory");
	if (finish_sync(im, st, ij, err) < 0 || finish_data(im, st, ij, err) < 0 ||
	    finish_alloc(im, st, ij, path, err) < 0)
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
	return setting_note(im, st->batch_at, st->batch_at ? NULL : st->job->file, why);
}

/* fio opens a relative file name in the directory it runs in; iosweep's job
 * files take one relative to their own directory: the translation names
 * the file in the current directory, absolutely, and says so. */
static int absolute_path(struct import *im, const struct fio_state *st, char **path, char *err)
{
	const struct fio_setting *at = st->filename_at ? st->filename_at : st->directory_at;
	char *cwd = getcwd(NULL, 0), *abs = NULL, why[600];

	if (!cwd)
		return setting_bad(at, err, "a relative path, and the current directory is unknown: %s",
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
	return setting_note(im, at, NULL, why) < 0 ? err_set(err, "out of memory") : 0;
}

/* Whether direction e's sizes are a range (else a split or one size). */
static bool mix_is_range(const struct fio_state *st, int e)
{
	return st->mix[e][0] && strchr(st->mix[e], '-') != NULL;
}

/* One direction's mix in iosweep's words: its own, or its one size
 * written as the other direction's kind. */
static void mix_part(const struct fio_state *st, int e, bool range, char *buf, size_t n)
{
	if (st->mix[e][0])
		snprintf(buf, n, "%s", st->mix[e]);
	else if (range)
		snprintf(buf, n, "%llu-%llu", (unsigned long long)st->bs_rw[e],
			 (unsigned long long)st->bs_rw[e]);
	else
		snprintf(buf, n, "%llu/100", (unsigned long long)st->bs_rw[e]);
}

/* The job's block size: that of its direction (a job that reads and
 * writes: of both, the same), or its mix of sizes (bssplit, bsrange; the
 * parts of the directions it does), into st->mix[0] for finish_extent. */
static int finish_bs(struct fio_state *st, char *err)
{
	int d = st->op != OP_READ && st->op != OP_READWRITE; /* trims: the write side's */
	bool mixed = false, range = false, split = false;
	char a[512], b[512];

	for (int e = 0; e < 2; e++) {
		if (e != d && st->op != OP_READWRITE)
			continue;
		mixed |= st->mix[e][0] != '\0';
		range |= mix_is_range(st, e);
		split |= st->mix[e][0] && !mix_is_range(st, e);
	}
	if (st->op == OP_READWRITE && !mixed && st->bs_rw[0] != st->bs_rw[1]) {
		/* bs=4k,8k in a job that reads and writes: a mix of one size each way */
		snprintf(st->mix[0], sizeof(st->mix[0]), "%llu/100", (unsigned long long)st->bs_rw[0]);
		snprintf(st->mix[1], sizeof(st->mix[1]), "%llu/100", (unsigned long long)st->bs_rw[1]);
		mixed = split = true;
	}
	if (range && split)
		return setting_bad(st->bs_at[1], err, "fio mixes sizes by a range one way and by a "
				   "split the other: iosweep's bsrange and bssplit are for both");
	if (mixed && st->rw_skip)
		return setting_bad(st->rw_at, err, "holes between I/Os of mixed sizes: iosweep mixes "
				   "sizes one unit after the other or at random");
	if (mixed && (st->rate[0] || st->rate[1]))
		return setting_bad(st->rate_at, err, "a rate in bytes with mixed block sizes: iosweep "
				   "limits those by rate_iops");
	if (mixed) {
		uint64_t lo = st->op == OP_READWRITE && st->bs_rw[1] < st->bs_rw[0] ? st->bs_rw[1]
										    : st->bs_rw[d];

		if (st->op == OP_READWRITE) {
			mix_part(st, 0, range, a, sizeof(a));
			mix_part(st, 1, range, b, sizeof(b));
			if (strcmp(a, b) == 0)
				snprintf(st->mix[0], sizeof(st->mix[0]), "%s", a);
			else if (snprintf(st->mix[0], sizeof(st->mix[0]), "%s,%s", a, b) >=
				 (int)sizeof(st->mix[0]))
				return setting_bad(st->bs_at[1], err, "too long a value");
		} else {
			mix_part(st, d, range, a, sizeof(a));
			snprintf(st->mix[0], sizeof(st->mix[0]), "%s", a);
		}
		st->mix[1][0] = range ? 'r' : 's'; /* which option finish_extent writes */
		st->mix[1][1] = '\0';
		st->bs = lo; /* the smallest size, for what is counted in blocks */
		return 0;
	}
	st->mix[0][0] = '\0';
	if (st->blockalign_at && st->blockalign[d] && st->blockalign[d] != st->bs_rw[d])
		return setting_bad(st->blockalign_at, err, "random offsets aligned otherwise than to "
				   "the block size: iosweep aligns them to bs (blockalign is for a "
				   "mix of sizes)");
	st->bs = st->bs_rw[d];
	return 0;
}

/* The state of a job, as iosweep options. */
/* The job's file (filename, directory, or iosweep's own) and size, and
 * its writes; *size and *ios as job_size() says. */
/* A file set (nrfiles > 1): fio's files, in directory, named by
 * filename_format (fio's default $jobname.$jobnum.$filenum, with $jobnum 0:
 * one copy of the job), each filesize bytes or size / nrfiles; every file
 * read once per repeat.  *size is the set's bytes, *ios 0. */
/* What a file set cannot translate (finish_set). */
static int set_refusals(const struct fio_state *st, const char *job_at, uint64_t each, char *err)
{
	if (st->nrfiles > FILESET_MAX)
		return setting_bad(st->nrfiles_at, err, "iosweep takes 1 to %d files", FILESET_MAX);
	if (st->filename)
		return setting_bad(st->filename_at, err, "fio's nrfiles=%llu files named by one "
				   "filename; iosweep names a set's files by directory and "
				   "filename_format: leave filename out",
				   (unsigned long long)st->nrfiles);
	if (st->size_pct)
		return setting_bad(st->size_at, err, "a percentage of a file set's files");
	if (st->filesize_hi && st->size)
		return setting_bad(st->size_at, err, "fio does size bytes of I/O over files of sizes "
				   "it draws from filesize's range; iosweep's set holds what its "
				   "files draw: leave size out");
	if (st->filesize_hi && st->io_size)
		return setting_bad(st->io_size_at, err, "fio does io_size bytes of I/O over files of "
				   "sizes it draws from filesize's range; iosweep reads each file of "
				   "its set once a repeat: leave io_size out");
	if (!each)
		return err_set(err, "%s: job '%s': nrfiles=%llu needs filesize or a size of at "
				    "least a byte a file", job_at, st->job->name,
			       (unsigned long long)st->nrfiles);
	if (st->size && st->filesize && st->size != st->filesize * st->nrfiles)
		return setting_bad(st->size_at, err, "fio does size bytes of I/O over %llu files of "
				   "filesize=%llu; iosweep reads each file of a set once a repeat: "
				   "give size=%llu or leave it out", (unsigned long long)st->nrfiles,
				   (unsigned long long)st->filesize,
				   (unsigned long long)st->filesize * st->nrfiles);
	if (st->number_ios)
		return err_set(err, "%s: job '%s': number_ios with nrfiles: iosweep reads each file "
				    "of a set once a repeat", job_at, st->job->name);
	if (st->openfiles_at && st->openfiles < st->nrfiles)
		return setting_bad(st->openfiles_at, err, "fio then closes and opens files during the "
				   "run; iosweep opens every file of a set before it (give "
				   "openfiles=%llu or leave it out)", (unsigned long long)st->nrfiles);
	return 0;
}

static int finish_set(struct import *im, struct fio_state *st, struct import_job *ij,
		      const char *job_at, uint64_t *size, uint64_t *ios, char *err)
{
	const char *fmt = st->name_format ? st->name_format : "$jobname.$jobnum.$filenum";
	char *dir = NULL, *name = NULL, *at;
	uint64_t each = st->filesize ? st->filesize : st->size / st->nrfiles;
	int rc = 0;

	*ios = 0;
	if (set_refusals(st, job_at, each, err) < 0)
		return -1;
	if (st->openfiles_at &&
	    setting_note(im, st->openfiles_at, NULL, "nothing to translate: iosweep opens every "
			 "file of a set before the run, as fio does with openfiles >= nrfiles") < 0)
		return err_set(err, "out of memory");
	name = strdup(fmt);
	while (name && (at = strstr(name, "$jobnum")) != NULL) {
		char *next;

		if (asprintf(&next, "%.*s0%s", (int)(at - name), name, at + strlen("$jobnum")) < 0)
			next = NULL;
		free(name);
		name = next;
	}
	if (!name)
		return err_set(err, "out of memory");
	if (st->directory) {
		dir = strdup(st->directory);
		if (!dir || (dir[0] != '/' && absolute_path(im, st, &dir, err) < 0)) {
			free(dir);
			free(name);
			return dir ? -1 : err_set(err, "out of memory");
		}
		rc |= set_val(ij, OPT_DIRECTORY, "%s", dir);
	} else {
		rc |= setting_note(im, st->nrfiles_at, NULL, "no directory: fio would lay out the "
				   "files in the current directory; iosweep makes them in "
				   "${IOSWEEP_DIR:-/var/tmp}");
	}
	rc |= set_val(ij, OPT_NRFILES, "%llu", (unsigned long long)st->nrfiles);
	rc |= st->filesize_hi ? set_filesize_range(im, st, ij) : set_size(ij, OPT_FILESIZE, each);
	rc |= set_val(ij, OPT_FILENAME_FORMAT, "%s", name);
	if (st->service)
		rc |= set_val(ij, OPT_FILE_SERVICE_TYPE, "%s", st->service);
	if (st->service && strcmp(st->service, "random") == 0)
		rc |= setting_note(im, st->service_at, NULL, "translated with a difference: fio "
				   "draws each I/O's file at random; iosweep serves every file once "
				   "in each round of nrfiles I/Os, in a seeded shuffle");
	free(dir);
	free(name);
	if (rc < 0)
		return err_set(err, "out of memory");
	*size = st->filesize_hi ? 0 : each * st->nrfiles; /* drawn: known when the plan is made */
	return finish_writes(im, st, ij, NULL, job_at, err);
}

static int finish_file(struct import *im, struct fio_state *st, struct import_job *ij,
		       const char *job_at, uint64_t *size, uint64_t *ios, char *err)
{
	char *path = NULL;
	int rc = 0;

	if (st->nrfiles > 1)
		return finish_set(im, st, ij, job_at, size, ios, err);
	if (st->filesize_hi)
		return setting_bad(st->filesize_at, err, "a range of file sizes draws one file's size "
				   "here (nrfiles=1); iosweep reads a file of the size given: give "
				   "one size");
	for (int k = 0; k < 3 && rc == 0; k++) {
		const struct fio_setting *at = k == 0 ? st->service_at
					       : k == 1 ? st->name_format_at : st->openfiles_at;

		if (at)
			rc = setting_note(im, at, NULL, "irrelevant: one file (nrfiles=1)");
	}
	if (rc < 0)
		return err_set(err, "out of memory");

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
	rc = job_size(st, path, size, ios, err);
	if (rc == 0 && path)
		rc = set_val(ij, OPT_FILENAME, "%s", path);
	else if (rc == 0)
		rc = setting_note(im, NULL, st->job->file, /* once per file, not per job */
			  "no filename: fio would lay out a file named after the job in the "
			  "current directory; iosweep uses its own test file of the same size");
	if (rc == 0)
		rc = finish_writes(im, st, ij, path, job_at, err);
	free(path);
	if (rc < 0)
		return err[0] ? -1 : err_set(err, "out of memory");
	return 0;
}

/* Refuses what fio would do more of than iosweep, once the region is
 * known: holes that go round it again, a mix's size of I/O. */
static int count_refusals(const struct fio_state *st, const char *job_at, uint64_t size,
			  uint64_t ios, uint64_t spacing, char *err)
{
	if (st->rw_skip) {
		/* checked against fio 3.33: rw=read:N does size/bs reads, and when
		 * its holes reach the end of the region it starts over at the first
		 * offset; number_ios stops it after one pass */
		uint64_t pass = size >= st->bs ? (size - st->bs) / spacing + 1 : 0;
		uint64_t fio_ios = st->number_ios && st->number_ios < size / st->bs ? st->number_ios
										       : size / st->bs;

		/* time_based (checked against fio 3.33, write_iolog): fio goes
		 * round the region, pass after pass, as iosweep's time_based does */
		bool timed = st->time_based && st->runtime_us;

		if (fio_ios > pass && !timed)
			return setting_bad(st->rw_at, err, "fio does size/bs I/Os (%llu here): at the end of "
						   "the region it starts over and does the same %llu "
						   "blocks again; iosweep does them once: add "
						   "number_ios=%llu (one pass) to the fio job",
				   (unsigned long long)(size / st->bs), (unsigned long long)pass,
				   (unsigned long long)pass);
	}
	if (st->mix[0][0] && ios && !st->number_ios)
		return err_set(err, "%s: job '%s': fio does size (%llu bytes) of I/O of mixed sizes "
				    "over the larger filesize; iosweep's random mix does as many "
				    "units as make the file's size: give fio's job number_ios",
			       job_at, st->job->name, (unsigned long long)st->size);
	if (st->mix[0][0] && st->number_ios && !st->random)
		return err_set(err, "%s: job '%s': number_ios with mixed sizes in order: iosweep "
				    "reads such a mix over the whole file", job_at, st->job->name);
	return 0;
}

/* Writes the extent worked out by finish_extent into the job; < 0: out of memory. */
static int set_extent(const struct fio_state *st, struct import_job *ij, uint64_t size,
		      uint64_t offset, uint64_t spacing)
{
	int rc = 0;

	if (size)
		rc |= set_size(ij, OPT_SIZE, size + st->offset + (st->numjobs - 1) * st->offset_inc);
	if (offset)
		rc |= set_size(ij, OPT_OFFSET, offset);
	if (st->offset_inc)
		rc |= set_size(ij, OPT_OFFSET_INCREMENT, st->offset_inc);
	if (st->mix[0][0]) {
		int d = st->op == OP_WRITE;

		rc |= set_val(ij, st->mix[1][0] == 'r' ? OPT_BSRANGE : OPT_BSSPLIT, "%s", st->mix[0]);
		if (st->random && st->blockalign[d])
			rc |= set_size(ij, OPT_BLOCKALIGN, st->blockalign[d]);
	} else {
		rc |= set_size(ij, OPT_BS, st->bs);
	}
	if (st->rw_skip)
		rc |= set_size(ij, OPT_SPACING, spacing);
	return rc;
}

/* The job's extent: size (shorter for number_ios), spacing, count. */
static int finish_extent(struct import *im, const struct fio_state *st, struct import_job *ij,
			 const char *job_at, uint64_t size, uint64_t ios, char *err)
{
	uint64_t spacing = st->rw_back ? st->rw_skip - st->bs : st->bs + st->rw_skip;
	bool counted = false; /* io_size made the count */
	uint64_t offset = st->offset;
	int rc = 0;

	/* read:-N (checked against fio 3.33): each I/O starts N - bs before the
	 * last one's start, from the end of the region after a first at its
	 * start, going round at its start: iosweep's pattern = reverse with
	 * spacing N - bs, which reads the same stride down from its last block */
	if (st->rw_back && st->rw_skip < 2 * st->bs)
		return setting_bad(st->rw_at, err, "fio steps back %s bytes per I/O: less than a block "
				   "(bs %llu), and iosweep's reads do not overlap",
				   st->rw_skip <= st->bs ? "0 or fewer" : "fewer than bs",
				   (unsigned long long)st->bs);
	if (st->rw_back)
		rc |= setting_note(im, st->rw_at, NULL,
				   "translated with a difference: fio reads the region's first block, "
				   "then steps back N - bs bytes at a time from N before its end; "
				   "iosweep's pattern = reverse steps back the same from the region's "
				   "last block: the same count, stride and direction, other blocks");

	if (st->nrfiles > 1 && (st->offset || st->offset_pct || st->offset_inc || st->offset_inc_pct))
		return setting_bad(st->offset || st->offset_pct ? st->offset_at : st->offset_inc_at, err,
				   "iosweep places a region in one file, not in each file of a set");

	/* io_size of the region's bytes is fio's default: a mix does units until
	 * its bytes reach it, holes go round (count_refusals), as without it */
	if (st->io_size && st->io_size != size && (st->mix[0][0] || st->rw_skip))
		return setting_bad(st->io_size_at, err, "with %s: give the fio job number_ios",
				   st->rw_skip ? "holes (rw=...:N)" : "mixed block sizes");
	if (st->io_size && !st->random && size && st->io_size > size)
		return setting_bad(st->io_size_at, err, "fio goes round the %llu-byte region again "
				   "until io_size; iosweep reads it once per repeat in order: make "
				   "io_size the size, or use time_based", (unsigned long long)size);
	/* io_size: fio stops once it has done that many bytes (or number_ios
	 * I/Os, the fewer); at random its random map starts a new pass, as
	 * iosweep's count does; in order a shorter region */
	if (st->io_size && size && !st->mix[0][0]) {
		uint64_t n = (st->io_size + st->bs - 1) / st->bs;

		counted = st->random && (!st->number_ios || n <= st->number_ios);
		if (counted) {
			rc |= set_val(ij, OPT_COUNT, "%llu", (unsigned long long)n);
			ios = 0;
		} else if (!st->random && n * st->bs < size) {
			size = n * st->bs;
		}
	}
	if (count_refusals(st, job_at, size, ios, spacing, err) < 0)
		return -1;
	if (st->number_ios && !counted && (!ios || st->number_ios < ios))
		ios = st->number_ios;
	if (ios && size && st->mix[0][0]) {
		rc |= set_val(ij, OPT_COUNT, "%llu", (unsigned long long)ios);
	} else if (ios && size) {
		if (st->random && ios < size / st->bs)
			rc |= set_val(ij, OPT_COUNT, "%llu", (unsigned long long)ios);
		else if (!st->random && ios <= (size - st->bs) / spacing && !st->rw_back)
			size = (ios - 1) * spacing + st->bs;
		else if (!st->random && ios <= (size - st->bs) / spacing && st->offset_inc)
			return setting_bad(st->rw_at, err, "backward with number_ios and "
					   "offset_increment: iosweep's regions would not end together");
		else if (!st->random && ios <= (size - st->bs) / spacing) /* the region's end */
			offset += size - ((ios - 1) * spacing + st->bs);
	} else if (ios) {
		rc |= setting_note(im, NULL, job_at,
			   "irrelevant: number_ios with a block device of unknown size");
	}
	rc |= set_extent(st, ij, size, offset, spacing);
	return rc < 0 ? err_set(err, "out of memory") : 0;
}

/* The job's last percentage_random (its handler checked the text), and
 * into pct its percentages for reads, writes and trims (the last given for
 * the rest; 100 each when unset). */
static const struct fio_setting *pct_random_of(const struct fio_state *st, unsigned pct[3])
{
	const struct fio_setting *at = NULL;
	const char *p;

	pct[0] = pct[1] = pct[2] = 100;
	for (size_t i = 0; i < st->job->nset; i++)
		if (strcmp(st->job->set[i].name, "percentage_random") == 0 && st->job->set[i].value)
			at = &st->job->set[i];
	p = at ? at->value : NULL;
	for (unsigned d = 0; p && d < 3; d++) {
		char *end;

		pct[d] = (unsigned)strtoul(p, &end, 10);
		end += strspn(end, " \t");
		p = *end == ',' ? end + 1 : NULL;
		for (unsigned e = d + 1; !p && e < 3; e++)
			pct[e] = pct[d];
	}
	return at;
}

/* percentage_random: fio's share of random I/O in a random job, one value
 * in iosweep, for the directions the job does. */
static int finish_pct_random(const struct fio_state *st, struct import_job *ij, char *err)
{
	unsigned pct[3];
	const struct fio_setting *at = pct_random_of(st, pct);
	bool reads = st->op == OP_READ || st->op == OP_READWRITE;
	bool writes = st->op == OP_WRITE || st->op == OP_READWRITE || st->op == OP_TRIMWRITE;
	bool trims = st->op == OP_TRIM || st->op == OP_TRIMWRITE;
	unsigned one = reads ? pct[0] : writes ? pct[1] : pct[2];

	if (!at || !st->random)
		return 0;
	if ((reads && pct[0] != one) || (writes && pct[1] != one) || (trims && pct[2] != one))
		return setting_bad(at, err, "reads, writes and trims at different percentages: "
				   "iosweep takes one percentage_random for all of a job's I/O");
	if (one < 100 && (st->mix[0][0] || st->mix[1][0]))
		return setting_bad(at, err, "not with bssplit or bsrange in iosweep: a mix of block "
				   "sizes is either in order or at random");
	if (one < 100 && set_val(ij, OPT_PERCENTAGE_RANDOM, "%u", one) < 0)
		return err_set(err, "out of memory");
	return 0;
}

/* How the job reads: pattern, engine, cache, threads, repeats, time. */
static int finish_reads(const struct fio_state *st, struct import_job *ij, char *err)
{
	bool random = st->random;
	int rc = 0;

	/* fio's random map reads every block once, as iosweep's random does */
	rc |= set_val(ij, OPT_PATTERN, "%s", st->rw_back ? "reverse" : !random ? "sequential" :
					     st->norandommap ? "random-replace" : "random");
	if (random && st->seed_set)
		rc |= set_val(ij, OPT_SEED, "%llu", (unsigned long long)st->seed);
	if (random && st->distribution)
		rc |= set_val(ij, OPT_RANDOM_DISTRIBUTION, "%s", st->distribution);
	if (finish_pct_random(st, ij, err) < 0)
		return -1;
	rc |= set_val(ij, OPT_ENGINE, "%s", st->engine);
	if (queued_engine(st))
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
	return rc < 0 ? err_set(err, "out of memory") : 0;
}

/* Whether iosweep takes text as option k's value: each element of a list
 * (alloc = prealloc, overwrite: finish_alloc) on its own. */
static int check_value(int k, const char *text, union optval *v, char *why)
{
	char *copy, *save = NULL;
	int rc = 0;

	if (!option_table[k].list || !strchr(text, ',')) {
		rc = option_parse_value(k, text, v, why);
		if (rc == 0 && (option_table[k].type == T_PATH || option_table[k].type == T_TEXT ||
				option_table[k].type == T_JOB))
			free((char *)v->s);
		return rc;
	}
	copy = strdup(text);
	if (!copy)
		return err_set(why, "out of memory");
	for (char *e = strtok_r(copy, ", ", &save); e && rc == 0; e = strtok_r(NULL, ", ", &save))
		rc = check_value(k, e, v, why);
	free(copy);
	return rc;
}

/* iosweep's job files hold lines of at most 198 bytes; lists go on on
 * indented lines (write_value), other values cannot; and every value must
 * be one iosweep takes (a block size of at most 1 GiB ...). */
static int check_values(const struct fio_state *st, const struct import_job *ij,
			const char *job_at, char *err)
{
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
			return at ? setting_bad(at, err, "%s", why) : err_set(err, "%s: %s", job_at, why);
		}
		if (check_value(k, ij->val[k], &v, why) < 0)
			return err_set(err, "%s: job '%s': %s = %s: %s; iosweep cannot run that",
				       job_at, st->job->name, option_table[k].name, ij->val[k], why);
	}
	return 0;
}

/* A path fio opens in the directory it runs in, made absolute (iosweep's
 * job files read one relative to their own directory), and noted at. */
static int absolute_at(struct import *im, const struct fio_setting *at, const char *path,
		       char **out, char *err)
{
	char *cwd, why[600];

	*out = NULL;
	if (path[0] == '/') {
		*out = strdup(path);
		return *out ? 0 : err_set(err, "out of memory");
	}
	cwd = getcwd(NULL, 0);
	if (!cwd)
		return setting_bad(at, err, "a relative path, and the current directory is unknown: %s",
				   strerror(errno));
	if (asprintf(out, "%s/%s", strcmp(cwd, "/") == 0 ? "" : cwd, path) < 0)
		*out = NULL;
	free(cwd);
	if (!*out)
		return err_set(err, "out of memory");
	snprintf(why, sizeof(why), "a relative path: fio opens it in the directory it runs in; "
				   "translated as %.400s, in the directory of this import", *out);
	return setting_note(im, at, NULL, why) < 0 ? err_set(err, "out of memory") : 0;
}

/* fio's settings that a trace replaces: they say what is read and written,
 * where and when, which the trace says instead (fio 3.33 takes the
 * directions, offsets and lengths from the log, and the files too). */
static const char *const replaced_by_trace[] = {
	"rw", "readwrite", "bs", "blocksize", "bsrange", "blocksize_range", "bssplit", "size",
	"filesize", "filename", "directory", "random_distribution", "norandommap", "randrepeat",
	"randseed", "rwmixread", "rwmixwrite", "percentage_random", "blockalign", "ba", "opendir",
};

/* What a replay cannot go with in iosweep, and why (plan.c, trace_job). */
static int replay_refusals(const struct fio_state *st, char *err)
{
	static const char when[] = "the trace's times make the replay's schedule "
				   "(replay_time_scale scales it, replay_no_stall drops it)";
	const char *what = "the trace says what is read and written, and when";

	if (st->rate_at && (st->rate[0] || st->rate[1]))
		return setting_bad(st->rate_at, err, "not with read_iolog in iosweep: %s", when);
	if (st->rate_iops_at && (st->rate_iops[0] || st->rate_iops[1]))
		return setting_bad(st->rate_iops_at, err, "not with read_iolog in iosweep: %s", when);
	if (st->time_based && st->time_based_at)
		return setting_bad(st->time_based_at, err, "not with read_iolog in iosweep: a repeat "
				   "replays the trace once (runtime stops it earlier)");
	if (st->ramp_us)
		return setting_bad(st->ramp_at, err, "not with read_iolog in iosweep: %s", what);
	if (st->verify && st->verify_at)
		return setting_bad(st->verify_at, err, "not with read_iolog in iosweep: verify checks "
				   "the blocks a pattern wrote, not a trace's");
	if (st->numjobs > 1)
		return setting_bad(st->numjobs_at, err, "iosweep replays a trace in order, in one thread "
				   "(fio's clones would each replay all of it): numjobs=1");
	if (st->nrfiles > 1)
		return setting_bad(st->nrfiles_at, err, "not with read_iolog: the trace's own files are "
				   "laid end to end in the job's one file");
	for (size_t i = 0; i < st->job->nset; i++)
		if (strncmp(st->job->set[i].name, "thinktime", 9) == 0)
			return setting_bad(&st->job->set[i], err, "not with read_iolog in iosweep: %s",
					   when);
	return 0;
}

/* replay_redirect: fio sends every I/O of the trace to one device, at its
 * recorded offset, whatever file it was recorded on.  iosweep lays the
 * trace's files end to end in the job's file: the same for a trace of one
 * file, translated then as filename; for several, refused. */
static int finish_redirect(struct import *im, const struct fio_state *st, const char *trace,
			   struct import_job *ij, char *err)
{
	struct trace_scan ts = { 0 };
	char why[ERR_MAX], note[800], *dev = NULL;
	bool writes;
	size_t nfiles;
	int rc;

	if (trace_scan(trace, &ts, why) < 0) {
		trace_scan_free(&ts);
		return setting_bad(st->redirect_at, err, "its meaning depends on the trace's files, and "
				   "the trace could not be read: %s", why);
	}
	nfiles = ts.nfiles;
	writes = ts.n[TRACE_WRITE] || ts.n[TRACE_TRIM];
	trace_scan_free(&ts);
	if (nfiles != 1)
		return setting_bad(st->redirect_at, err, "the trace has %zu files, which fio replays "
				   "over each other on the one device, each at its recorded offsets; "
				   "iosweep lays them end to end in the job's file, so the same I/Os go "
				   "elsewhere: replay a trace of one file", nfiles);
	if (absolute_at(im, st->redirect_at, st->redirect, &dev, err) < 0)
		return -1;
	rc = set_val(ij, OPT_FILENAME, "%s", dev);
	snprintf(note, sizeof(note), "translated as filename = %.300s: the trace's one file is "
				   "replayed there at its recorded offsets%s", dev,
		 writes ? "; the trace writes: iosweep writes a file of yours or a device only "
			  "when the job names it in allow_write (add it once sure)" : "");
	free(dev);
	if (rc < 0 || setting_note(im, st->redirect_at, NULL, note) < 0)
		return err_set(err, "out of memory");
	return 0;
}

/* read_iolog: the job is the trace, replayed with the job's engine, cache,
 * depth, repeats and runtime; what the trace replaces is noted irrelevant,
 * what a replay cannot go with refused. */
static int finish_replay(struct import *im, struct fio_state *st, struct import_job *ij,
			 const char *job_at, char *err)
{
	char *trace = NULL;
	int rc = 0;

	if (replay_refusals(st, err) < 0)
		return -1;
	for (size_t i = 0; i < st->job->nset; i++)
		for (size_t k = 0; k < sizeof(replaced_by_trace) / sizeof(replaced_by_trace[0]); k++)
			if (strcmp(st->job->set[i].name, replaced_by_trace[k]) == 0 &&
			    setting_note(im, &st->job->set[i], NULL,
				 "irrelevant with read_iolog: the trace says what is read and "
				 "written, where and when") < 0)
				return err_set(err, "out of memory");
	if (absolute_at(im, st->read_iolog_at, st->read_iolog, &trace, err) < 0)
		return -1;
	rc |= set_val(ij, OPT_READ_IOLOG, "%s", trace);
	if (st->redirect) {
		if (finish_redirect(im, st, trace, ij, err) < 0) {
			free(trace);
			return -1;
		}
	} else {
		rc |= setting_note(im, st->read_iolog_at, NULL,
			   "translated with a difference: fio replays onto the files the trace "
			   "names; iosweep onto its own test file, the trace's files end to end "
			   "(never the recorded files; replay_redirect names one)");
	}
	free(trace);
	if (st->no_stall)
		rc |= set_val(ij, OPT_REPLAY_NO_STALL, "1");
	if (st->time_scale && st->time_scale != 100)
		rc |= set_val(ij, OPT_REPLAY_TIME_SCALE, "%llu", (unsigned long long)st->time_scale);
	rc |= set_val(ij, OPT_ENGINE, "%s", st->engine);
	if (queued_engine(st))
		rc |= set_val(ij, OPT_IODEPTH, "%llu", (unsigned long long)st->iodepth);
	rc |= set_val(ij, OPT_CACHE, "%s", st->direct ? "direct" : st->pre_read ? "warm" :
					   st->invalidate ? "fadvise" : "keep");
	rc |= set_val(ij, OPT_CONSUME, "%s", "none");
	rc |= set_val(ij, OPT_REPEAT, "%llu", (unsigned long long)st->loops);
	if (st->runtime_us)
		rc |= set_duration(ij, OPT_RUNTIME, st->runtime_us);
	if (st->description)
		rc |= set_val(ij, OPT_DESCRIPTION, "%s", st->description);
	if (!queued_engine(st) && st->iodepth > 1)
		rc |= setting_note(im, st->iodepth_at, NULL,
			   "irrelevant: fio's synchronous engines do one I/O at a time");
	if (rc < 0)
		return err_set(err, "out of memory");
	if (st->direct && strcmp(st->engine, "mmap") == 0)
		return err_set(err, "%s: job '%s': direct=1 with ioengine=mmap: iosweep cannot "
				    "bypass the page cache with mmap", job_at, st->job->name);
	return engine_flags(im, st, ij, job_at, err) < 0 ? -1 : check_values(st, ij, job_at, err);
}

/* percentage_random: irrelevant in order; at 0 or 100 exactly fio's (the
 * blocks in order from the first; fully random); in between, the same
 * share drawn with iosweep's random numbers. */
static int note_pct_random(struct import *im, const struct fio_state *st)
{
	unsigned pct[3];
	const struct fio_setting *at = pct_random_of(st, pct);
	unsigned one = st->op == OP_READ || st->op == OP_READWRITE ? pct[0]
		       : st->op == OP_WRITE ? pct[1] : pct[2];

	if (!at || (st->random && (one == 0 || one == 100)))
		return 0;
	if (!st->random)
		return setting_note(im, at, NULL,
				    "irrelevant: fio mixes in random I/O only in a random job");
	return setting_note(im, at, NULL, st->norandommap ?
			    "translated with a difference: the same share of random units, which "
			    "units they are and their blocks drawn by iosweep's random numbers" :
			    "translated with a difference: the same share of random units, which "
			    "units they are and their blocks drawn by iosweep's random numbers; a "
			    "random unit reads the block of its place in the pass (not one that "
			    "fio's random map has left), so blocks may repeat");
}

/* What is translated with a difference, said where it was written. */
static int note_differences(struct import *im, const struct fio_state *st)
{
	bool random = st->random;
	int rc = 0;

	if (!queued_engine(st) && st->iodepth > 1)
		rc |= setting_note(im, st->iodepth_at, NULL,
			   "irrelevant: fio's synchronous engines do one I/O at a time");
	if (random && st->seed_set)
		rc |= setting_note(im, st->seed_at, NULL,
			   "translated with a difference: iosweep's generator is not fio's: the "
			   "same seed gives another order of the same blocks");
	if (st->distribution)
		rc |= setting_note(im, st->distribution_at, NULL, random ?
			   "translated with a difference: fio's formulas, zones and hash with "
			   "iosweep's random numbers: the same distribution, other draws" :
			   "irrelevant: fio draws no random offsets for reads in order");
	rc |= note_pct_random(im, st);
	/* checked with fio 3.33's write_iolog: bssplit=4k/10:16k/10:64k/40:256k/40
	 * over 4 MiB at random was 55 I/Os of 4 MiB, some of 20480 or 69632 */
	if (random && !st->norandommap && (st->mix[0][0] || st->mix[1][0]))
		rc |= setting_note(im, st->bs_at[st->mix[0][0] ? 0 : 1], NULL,
			   "translated with a difference: fio's random map cuts an I/O short where "
			   "it would run into blocks already done, so a pass covers each block "
			   "once, in more I/Os, some of sizes not in the mix; iosweep's keep the "
			   "sizes drawn, at random offsets that may overlap, until their bytes "
			   "reach the size");
	if (random && !st->randrepeat)
		rc |= setting_note(im, st->randrepeat_at, NULL,
			   "not supported: iosweep's random offsets are the same for every "
			   "repeat of a seed");
	if (!random && (st->seed_at || st->randrepeat_at))
		rc |= setting_note(im, st->seed_at ? st->seed_at : st->randrepeat_at, NULL,
			   "irrelevant: this job reads in order");
	if (st->numjobs > 1 && !st->offset_inc)
		rc |= setting_note(im, st->numjobs_at, NULL,
			   "translated with a difference: fio's clones each do the whole size "
			   "(each its own file unless filename is given); iosweep's threads "
			   "share one file's I/O: compare throughput and IOPS, not time");
	if (st->loops > 1 && st->runtime_us)
		rc |= setting_note(im, st->loops_at, NULL,
			   "translated with a difference: fio's runtime caps all loops "
			   "together, iosweep's each repeat");
	rc |= note_reaping(im, st);
	rc |= note_scoped(im, st);
	return rc;
}

/* The last setting of the job named name (one of several names), or NULL. */
static const struct fio_setting *setting_named(const struct fio_state *st, const char *const *names)
{
	const struct fio_setting *at = NULL;

	for (size_t i = 0; i < st->job->nset; i++)
		for (size_t k = 0; names[k]; k++)
			if (strcmp(st->job->set[i].name, names[k]) == 0)
				at = &st->job->set[i];
	return at;
}

#define TREE_WHOLE "iosweep's opendir reads every file whole"
#define TREE_FILES "iosweep's opendir counts, times and paces whole files, fio each read of bs"

/* What fio would do with opendir that iosweep's opendir does not (checked
 * with fio 3.33 under strace): a write, reads at random offsets in each
 * file, numjobs clones each reading every file, a size (or io_size,
 * number_ios, offset) stopping fio short of the tree's bytes, more files
 * than the tree's, a pace or a steady state of bs reads. */
static int tree_refusals(const struct fio_state *st, const char *job_at, char *err)
{
	static const char *const sizes[] = { "size", "filesize", "io_size", "io_limit",
					     "number_ios", NULL };
	static const char *const offsets[] = { "offset", "offset_increment", NULL };
	static const char *const files[] = { "filename", NULL };
	static const char *const think[] = { "thinktime", "thinktime_spin", "thinktime_blocks", NULL };
	static const char *const engine[] = { "ioengine", NULL };
	const struct fio_setting *at;

	if (st->op != OP_READ)
		return setting_bad(st->rw_at, err, "with opendir fio writes into the tree's files; "
				   "iosweep's opendir only reads them: rw=read");
	if (st->random)
		return setting_bad(st->rw_at, err, "fio reads each file's blocks at random offsets; "
				   TREE_WHOLE " in order: rw=read");
	if (st->rw_skip)
		return setting_bad(st->rw_at, err, "fio skips bytes between reads of each file; "
				   TREE_WHOLE ": rw=read");
	if (st->mix[0][0])
		return setting_bad(st->bs_at[0], err, "a mix of block sizes: iosweep's opendir reads "
				   "with one bs");
	if (st->numjobs > 1)
		return setting_bad(st->numjobs_at, err, "fio's %llu clones each read every file of the "
				   "tree; iosweep's threads share the files: numjobs=1 (then set "
				   "threads yourself)", (unsigned long long)st->numjobs);
	if ((at = setting_named(st, sizes)))
		return setting_bad(at, err, "fio stops after this much of the tree; " TREE_WHOLE
				   ": remove it");
	if ((at = setting_named(st, offsets)))
		return setting_bad(at, err, "fio starts reading each file there; " TREE_WHOLE
				   ": remove it");
	if ((at = setting_named(st, files)))
		return setting_bad(at, err, "with opendir fio reads this file too; iosweep's opendir "
				   "reads only the tree's files: remove it");
	if (st->nrfiles > 1)
		return setting_bad(st->nrfiles_at, err, "fio then reads at most that many of the tree's "
				   "files; iosweep's opendir reads all of them: remove it");
	if (st->service_at && strcmp(st->service, "random") == 0)
		return setting_bad(st->service_at, err, "fio draws a file at random for each read of "
				   "bs; iosweep's opendir reads each file whole: sequential or "
				   "roundrobin");
	if (strcmp(st->engine, "sync") != 0 && strcmp(st->engine, "psync2") != 0) {
		at = setting_named(st, engine);
		if (at)
			return setting_bad(at, err, "iosweep's opendir reads with sync or psync2 only: "
					   "ioengine=psync or pvsync2");
		return err_set(err, "%s: job '%s': iosweep's opendir reads with sync or psync2 only",
			       job_at, st->job->name);
	}
	if (st->rate_at && (st->rate[0] || st->rate[1]))
		return setting_bad(st->rate_at, err, TREE_FILES ": remove it");
	if (st->rate_iops_at && (st->rate_iops[0] || st->rate_iops[1]))
		return setting_bad(st->rate_iops_at, err, TREE_FILES ": remove it");
	if ((at = setting_named(st, think)) && st->think_us)
		return setting_bad(at, err, TREE_FILES ": remove it");
	if (st->ss_dur_us)
		return setting_bad(st->ss_dur_at, err, TREE_FILES ": remove it");
	if (st->verify && st->verify_at)
		return setting_bad(st->verify_at, err, "verify checks blocks fio wrote; iosweep's "
				   "opendir only reads: remove it");
	return 0;
}

/* opendir: every regular file under the directory, read with rw=read.
 * fio 3.33 (strace) walks the tree in directory order, skips symlinks,
 * FIFOs and devices, and reads only each file's whole blocks of bs (none
 * of a file shorter than bs).  file_service_type=sequential opens, reads
 * and closes one file after another, as iosweep's opendir does, in sorted
 * order; roundrobin (fio's default) opens every file and reads one block
 * of each in turn: the same blocks in another order. */
static int finish_tree(struct import *im, struct fio_state *st, struct import_job *ij,
		       const char *job_at, char *err)
{
	bool rr = !st->service_at || strcmp(st->service, "roundrobin") == 0;
	bool advice = !st->hint || strcmp(st->hint, "none") != 0;
	char *dir = NULL, note[1200];
	int rc = 0;

	if (tree_refusals(st, job_at, err) < 0)
		return -1;
	if (absolute_at(im, st->opendir_at, st->opendir, &dir, err) < 0)
		return -1;
	rc |= set_val(ij, OPT_OPENDIR, "%s", dir);
	free(dir);
	snprintf(note, sizeof(note),
		 "translated with a difference: the same files; %s"
		 "fio walks the tree in directory order, iosweep in sorted names; fio reads "
		 "only each file's whole blocks of bs (none of a file shorter than bs), iosweep "
		 "each file to its end: the same bytes when every file is a multiple of bs; fio "
		 "times each read of bs, iosweep each file's open, reads and close (IOPS: files/s)%s",
		 rr ? "fio's file_service_type=roundrobin (its default) opens every file and reads "
		      "one block of each in turn, iosweep one file after another "
		      "(file_service_type = sequential): the same blocks in another order; " : "",
		 advice ? "; fio advises each file (fadvise_hint, by default sequential), "
			  "iosweep's opendir gives no advice" : "");
	rc |= setting_note(im, st->opendir_at, NULL, note);
	if (st->openfiles_at)
		rc |= setting_note(im, st->openfiles_at, NULL, "irrelevant: iosweep's opendir has "
				   "one file open at a time");
	if (st->directory_at)
		rc |= setting_note(im, st->directory_at, NULL, "irrelevant: with opendir and no "
				   "filename fio reads only the tree's files");
	if (st->name_format_at)
		rc |= setting_note(im, st->name_format_at, NULL, "irrelevant: opendir reads the "
				   "tree's own files");
	rc |= set_val(ij, OPT_FILE_SERVICE_TYPE, "%s", "sequential");
	rc |= set_size(ij, OPT_BS, st->bs);
	rc |= set_val(ij, OPT_ENGINE, "%s", st->engine);
	rc |= set_val(ij, OPT_CACHE, "%s", st->direct ? "direct" : st->pre_read ? "warm" :
					   st->invalidate ? "fadvise" : "keep");
	rc |= set_val(ij, OPT_THREADS, "1");
	rc |= set_val(ij, OPT_CONSUME, "%s", "none");
	rc |= set_val(ij, OPT_REPEAT, "%llu", (unsigned long long)st->loops);
	if (st->runtime_us)
		rc |= set_duration(ij, OPT_RUNTIME, st->runtime_us);
	if (st->description)
		rc |= set_val(ij, OPT_DESCRIPTION, "%s", st->description);
	if (rc < 0)
		return err_set(err, "out of memory");
	if (finish_time(im, st, ij, err) < 0 || finish_steady(im, st, ij, err) < 0 ||
	    engine_flags(im, st, ij, job_at, err) < 0 || check_values(st, ij, job_at, err) < 0)
		return -1;
	return note_differences(im, st) < 0 ? err_set(err, "out of memory") : 0;
}

#define PHASE_ONCE "a tree's phase is one pass over its files"

/* What fio would do with a file engine that a tree's phase does not: a
 * file of the user's, a walk of a tree, a pace, a time limit, a check. */
static int phase_refusals(const struct fio_state *st, const char *job_at, char *err)
{
	static const char *const time[] = { "runtime", "timeout", "time_based", "ramp_time", NULL };
	static const char *const think[] = { "thinktime", "thinktime_spin", "thinktime_blocks", NULL };
	static const char *const at_least[] = { "io_size", "io_limit", "number_ios", "offset",
						"offset_increment", NULL };
	const struct fio_setting *at;

	if (st->filename && (st->numjobs > 1 || st->nrfiles > 1))
		return setting_bad(st->filename_at, err, "fio's %s then works on these files; "
				   "iosweep's tree names its own files: leave filename out",
				   st->phase_at->value);
	if (st->opendir || st->read_iolog)
		return setting_bad(st->phase_at, err, "a tree iosweep makes, not with %s",
				   st->opendir ? "opendir" : "read_iolog");
	if ((at = setting_named(st, time)))
		return setting_bad(at, err, "fio runs its %s for a time; " PHASE_ONCE
				   ": remove it", st->phase_at->value);
	if ((at = setting_named(st, at_least)))
		return setting_bad(at, err, "fio does only part of the files' calls; " PHASE_ONCE
				   ": remove it");
	if ((st->rate_at && (st->rate[0] || st->rate[1])) ||
	    (st->rate_iops_at && (st->rate_iops[0] || st->rate_iops[1])))
		return setting_bad(st->rate_at ? st->rate_at : st->rate_iops_at, err,
				   "a tree's phases run as fast as they can: remove it");
	if ((at = setting_named(st, think)) && st->think_us)
		return setting_bad(at, err, "a tree's phases run as fast as they can: remove it");
	if (st->ss_dur_us)
		return setting_bad(st->ss_dur_at, err, PHASE_ONCE ": remove it");
	if (st->verify && st->verify_at)
		return setting_bad(st->verify_at, err, "fio's file engines write no data to check: "
				   "remove it");
	if (st->delay_at)
		return err_set(err, "%s: job '%s': startdelay: a tree's phase starts with the run",
			       job_at, st->job->name);
	return 0;
}

/* fio's filecreate, filestat and filedelete, checked with fio 3.33 under
 * strace: each of numjobs clones makes nrfiles files named
 * $jobname.$jobnum.$filenum in directory (the current one by default).
 * filecreate opens each O_RDWR|O_CREAT and closes it, writing nothing, and
 * leaves it; filestat and filedelete first lay the files out (filesize
 * bytes, or size / nrfiles, written untimed), then stat(2) or unlink(2)
 * each.  A tree of one directory of numjobs x nrfiles files, phase op, by
 * numjobs threads: the same calls on as many files in one directory.
 * dircreate, dirstat and dirdelete (fio 3.34 engines/fileoperations.c,
 * read, not run: fio 3.33 has no such engines) mkdir(2), stat(2) and
 * rmdir(2) each name as a directory instead, dirstat and dirdelete making
 * them first: a tree of numjobs x nrfiles directories, phase mkdir, statdir
 * or rmdir. */
/* Whether the phase is one of fio's directory engines'. */
static bool phase_dirs(const struct fio_state *st)
{
	return strcmp(st->phase, "mkdir") == 0 || strcmp(st->phase, "statdir") == 0 ||
	       strcmp(st->phase, "rmdir") == 0;
}

/* What a phase of fio's file or directory engines becomes, and how it
 * differs (finish_phase). */
static void phase_note(const struct fio_state *st, unsigned long long files, char *note, size_t n)
{
	bool create = strcmp(st->phase, "create") == 0;

	if (phase_dirs(st))
		snprintf(note, n,
			 "translated with a difference: the same %s of %llu director%s in one "
			 "directory (from fio's source: fio 3.33 has no %s); %s; iosweep's tree "
			 "is a directory of its own (JOB.iosweep-tree), removed at the end (IOPS: "
			 "directories/s)", st->phase, files, files == 1 ? "y" : "ies",
			 st->phase_at->value,
			 st->phase[0] == 'm' ? "fio leaves the directories it makes"
					     : "fio makes the directories first (empty), as iosweep "
					       "brings its tree to the phase, untimed");
	else
		snprintf(note, n,
			 "translated with a difference: the same %s of %llu file%s in one "
			 "directory; %s; iosweep's tree is a directory of its own "
			 "(JOB.iosweep-tree), removed at the end, and each item is timed whole "
			 "(IOPS: files/s)",
			 create ? "creates" : strcmp(st->phase, "stat") == 0 ? "stats" : "unlinks",
			 files, files == 1 ? "" : "s",
			 create ? "fio opens each file O_RDWR|O_CREAT and closes it, writing "
				  "nothing, and leaves the files; iosweep opens O_CREAT|O_EXCL, "
				  "writes filesize (0) and closes"
				: "fio lays the files out first, as iosweep brings its tree to the "
				  "phase, untimed");
}

/* The directory a phase's tree is made in: fio's directory, or the
 * directory of the one file (or directory) filename names, made absolute. */
static int phase_directory(struct import *im, const struct fio_state *st, struct import_job *ij,
			   char *err)
{
	char *dir = NULL, *slash, note[700];
	int rc;

	if (!st->directory && !st->filename)
		return setting_note(im, st->phase_at, NULL, "no directory: fio would make the files "
				    "in the current directory; iosweep makes its tree in "
				    "${IOSWEEP_DIR:-/var/tmp}") < 0 ? err_set(err, "out of memory") : 0;
	if (st->filename && st->directory && st->filename[0] != '/') {
		if (asprintf(&dir, "%s/%s", st->directory, st->filename) < 0)
			dir = NULL;
	} else {
		dir = strdup(st->filename ? st->filename : st->directory);
	}
	if (dir && st->filename) { /* its directory: "/x" is in "/", "x" in fio's */
		slash = strrchr(dir, '/');
		if (slash) {
			slash[slash == dir] = '\0';
		} else {
			free(dir);
			dir = getcwd(NULL, 0);
			if (!dir)
				return setting_bad(st->filename_at, err, "a relative path, and the "
						   "current directory is unknown: %s", strerror(errno));
		}
	}
	if (!dir)
		return err_set(err, "out of memory");
	if (dir[0] != '/' && absolute_path(im, st, &dir, err) < 0) {
		free(dir);
		return -1;
	}
	if (st->filename)
		snprintf(note, sizeof(note), "translated with a difference: fio's %s works on this "
			 "one %s, named so; iosweep's tree of one is made in its directory, %.300s "
			 "(a relative one: fio's, where it runs; here the import's), under a name of "
			 "its own (JOB.iosweep-tree), and removed at the end",
			 st->phase_at->value, phase_dirs(st) ? "directory" : "file", dir);
	rc = set_val(ij, OPT_DIRECTORY, "%s", dir);
	free(dir);
	if (rc == 0 && st->filename)
		rc = setting_note(im, st->filename_at, NULL, note);
	return rc < 0 ? err_set(err, "out of memory") : 0;
}

static int finish_phase(struct import *im, struct fio_state *st, struct import_job *ij,
			const char *job_at, char *err)
{
	uint64_t nrfiles = st->nrfiles ? st->nrfiles : 1;
	uint64_t each = st->filesize ? st->filesize : st->size / nrfiles;
	unsigned long long files; /* fio's clones' files, all in one directory */
	static const char *const sizes[] = { "filesize", "size", NULL };
	bool create = strcmp(st->phase, "create") == 0;
	bool dirs = phase_dirs(st);
	const struct fio_setting *at;
	char note[900];
	int rc = 0;

	if (phase_refusals(st, job_at, err) < 0)
		return -1;
	if (nrfiles > UINT32_MAX / (st->numjobs ? st->numjobs : 1))
		return setting_bad(st->nrfiles_at ? st->nrfiles_at : st->numjobs_at, err,
				   "more files than a tree iosweep makes holds");
	files = (unsigned long long)nrfiles * st->numjobs;
	if (phase_directory(im, st, ij, err) < 0)
		return -1;
	phase_note(st, files, note, sizeof(note));
	rc |= setting_note(im, st->phase_at, NULL, note);
	if (st->numjobs > 1)
		rc |= setting_note(im, st->numjobs_at, NULL,
				   dirs ? "translated: fio's clones each make nrfiles directories of "
					  "their own in the directory; iosweep's threads take shares "
					  "of them all"
					: "translated: fio's clones each make nrfiles files of their "
					  "own in the directory; iosweep's threads take shares of one "
					  "tree of them all");
	if (st->name_format_at)
		rc |= setting_note(im, st->name_format_at, NULL, "irrelevant: iosweep names its "
				   "tree's files");
	if (st->openfiles_at)
		rc |= setting_note(im, st->openfiles_at, NULL, "irrelevant: a tree's phase has one "
				   "file open at a time");
	if ((create || dirs) && (at = setting_named(st, sizes)))
		rc |= setting_note(im, at, NULL, dirs ? "irrelevant: fio's directory engines write "
							"nothing"
						      : "irrelevant: fio's filecreate writes nothing "
							"(filesize = 0)");
	/* directories: as many, each holding the one file a tree's directory
	 * has, which neither phase makes */
	rc |= dirs ? set_val(ij, OPT_TREE, "%llux1", files) : set_val(ij, OPT_TREE, "1x%llu", files);
	rc |= set_val(ij, OPT_OP, "%s", st->phase);
	if (st->filesize_hi && !create && !dirs)
		rc |= set_filesize_range(im, st, ij);
	else
		rc |= set_size(ij, OPT_FILESIZE, create || dirs ? 0 : each);
	rc |= set_val(ij, OPT_THREADS, "%llu", (unsigned long long)st->numjobs);
	rc |= set_val(ij, OPT_REPEAT, "%llu", (unsigned long long)st->loops);
	if (st->description)
		rc |= set_val(ij, OPT_DESCRIPTION, "%s", st->description);
	if (rc < 0)
		return err_set(err, "out of memory");
	return check_values(st, ij, job_at, err);
}

int finish_job(struct import *im, struct fio_state *st, struct import_job *ij, char *err)
{
	char job_at[300];
	uint64_t size = 0, ios = 0;

	if (finish_bs(st, err) < 0)
		return -1;
	if (st->bs == 0 || st->bs + st->rw_skip == 0) /* bsrange=0-0 or bssplit=0/100 */
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
	/* fio lowers nrfiles to the files filename names (fio 3.33's
	 * fixup_options): one, here (a list of names is refused) */
	if (st->filename && st->nrfiles > 1) {
		if (setting_note(im, st->nrfiles_at, NULL, "irrelevant: fio reads only the file "
								  "filename names (it lowers nrfiles "
								  "to the files named)") < 0)
			return err_set(err, "out of memory");
		st->nrfiles = 1;
	}
	if (st->read_iolog)
		return finish_replay(im, st, ij, job_at, err);
	if (st->opendir)
		return finish_tree(im, st, ij, job_at, err);
	if (st->phase)
		return finish_phase(im, st, ij, job_at, err);
	const struct fio_setting *replay_at[] = { st->redirect_at, st->no_stall_at,
						  st->time_scale_at };

	for (size_t k = 0; k < sizeof(replay_at) / sizeof(replay_at[0]); k++)
		if (replay_at[k] &&
		    setting_note(im, replay_at[k], NULL, "irrelevant: the job has no read_iolog") < 0)
			return err_set(err, "out of memory");
	if (finish_file(im, st, ij, job_at, &size, &ios, err) < 0)
		return -1;
	if (st->direct && strcmp(st->engine, "mmap") == 0)
		return err_set(err, "%s:%d: job '%s': direct=1 with ioengine=mmap: iosweep cannot "
				    "bypass the page cache with mmap", st->job->file, st->job->line,
			       st->job->name);
	if (finish_extent(im, st, ij, job_at, size, ios, err) < 0 ||
	    finish_reads(st, ij, err) < 0 || engine_flags(im, st, ij, job_at, err) < 0 ||
	    finish_time(im, st, ij, err) < 0 || finish_steady(im, st, ij, err) < 0 || finish_rate(im, st, ij, err) < 0 ||
	    check_values(st, ij, job_at, err) < 0)
		return -1;
	return note_differences(im, st) < 0 ? err_set(err, "out of memory") : 0;
}
