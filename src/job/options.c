/*
 * options.c - the table of job options, and the few functions that read it.
 *
 * To add an option: add its id to options.h, one row here, and its use in
 * the stage that needs it.  Parsing, `iosweep options`, the plan printer, the
 * reporters and the man-page test follow from this table.
 */
#define _GNU_SOURCE
#include "job/options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "io/bsmix.h"
#include "io/cache.h"
#include "io/distribution.h"
#include "io/fileset.h"
#include "io/engines/engine.h"
#include "io/ioloop.h"
#include "io/series.h"
#include "io/steady.h"
#include "job/fio_words.h"
#include "lib/error.h"
#include "lib/jsontext.h"
#include "lib/units.h"

static const char *const pattern_values[] = { "sequential", "reverse", "random",
						"random-replace", NULL };
static const char *const flag_values[] = { [FLAG_OFF] = "0", [FLAG_ON] = "1", NULL };
static const char *const hint_values[] = { "none", "sequential", "random", "willneed",
					    "noreuse", NULL };
static const char *const consume_values[] = { "none", "checksum", "ints", NULL };
static const char *const op_values[] = { "read",  "write", "readwrite", "trim",   "trimwrite",
					  "mkdir", "create", "fsync", "stat", "readdir",
					  "rename", "unlink", "rmdir", "fsyncdir", "syncfs", "statdir",
					  NULL };
static const char *const sync_values[] = { "none", "end", "fsync", "fdatasync", "dsync",
					    "osync", NULL };
static const char *const sync_mode_values[] = { [SYNC_MODE_DRAIN] = "drain",
						 [SYNC_MODE_INFLIGHT] = "inflight", NULL };
static const char *const data_values[] = { "random", "zero", NULL };
static const char *const alloc_values[] = { "overwrite", "allocate", "prealloc", NULL };
static const char *const verify_values[] = { "none", "after", NULL };
static const char *const ss_dir_values[] = { [SS_DIR_ALL] = "all", [SS_DIR_READ] = "read",
					     [SS_DIR_WRITE] = "write", NULL };

#define GiB (1ULL << 30)

const struct option_def option_table[OPT__COUNT] = {
	[OPT_FILENAME] = { "filename", T_PATH, false, false, NULL, 0, 0, NULL,
			   "file to read or write; created if missing (default "
			   "${IOSWEEP_DIR:-/var/tmp}/iosweep-SIZE-FILL.dat)" },
	[OPT_SIZE] = { "size", T_SIZE, false, false, NULL, 1, INT64_MAX, NULL,
		       "file size; defaults to the size of an existing file" },
	[OPT_FILL] = { "fill", T_ENUM, false, false, "random", 0, 0, fill_names,
		       "content of a created file (text: one integer 0-1000 per line); existing: "
		       "a file of your own, never created" },
	[OPT_NRFILES] = { "nrfiles", T_UINT, false, false, "1", 1, FILESET_MAX, NULL,
			  "files in the job's file set (fio's nrfiles); above 1, iosweep makes "
			  "them in directory, named by filename_format, each filesize bytes" },
	[OPT_FILESIZE] = { "filesize", T_TEXT, false, false, NULL, 0, 0, NULL,
			   "nrfiles > 1: bytes per file (default size / nrfiles); tree: bytes "
			   "create writes to each file (default 0), or sizes drawn file by file: "
			   "MIN-MAX (fio's range, in steps of MIN) or SIZE/PERCENT:... (as "
			   "bssplit)" },
	[OPT_DIRECTORY] = { "directory", T_PATH, false, false, NULL, 0, 0, NULL,
			    "nrfiles > 1, tree: where the set's files or the tree are (default "
			    "${IOSWEEP_DIR:-/var/tmp})" },
	[OPT_FILENAME_FORMAT] = { "filename_format", T_TEXT, false, false, "$jobname.$filenum", 0,
				  0, NULL,
				  "nrfiles > 1: the name of each file of the set; $jobname is the "
				  "job's name, $filenum the file's number from 0" },
	[OPT_FILE_SERVICE_TYPE] = { "file_service_type", T_ENUM, true, false, "roundrobin", 0, 0,
				    fileset_service_names,
				    "nrfiles > 1: which file each I/O goes to; roundrobin: the next "
				    "file each I/O; sequential: each file done before the next; "
				    "random: a seeded shuffle of the files every nrfiles I/Os; "
				    "with opendir, the order its files are read in: sequential "
				    "(sorted, the default there), random (one seeded order, each "
				    "file once), shuffle (a new order every repeat)" },
	[OPT_OPENDIR] = { "opendir", T_PATH, false, false, NULL, 0, 0, NULL,
			  "read every regular file under this directory (a dataset), each "
			  "opened, read whole and closed, as a data loader does; only read, "
			  "never written; symlinks, special and unreadable files skipped, counted" },
	[OPT_TREE] = { "tree", T_TEXT, true, false, NULL, 0, 0, NULL,
		       "DxF: a tree iosweep makes in directory, D directories of F files of "
		       "filesize bytes (default 0), for the metadata phases op names (tree = "
		       "16x1000); iosweep removes it when the run ends" },
	[OPT_SHIFT] = { "shift", T_UINT, true, false, "0", 0, UINT32_MAX, NULL,
			"tree under MPI: rank r's stat, read, readdir, rename, unlink and rmdir "
			"work on the items of rank r + shift (mdtest -N), so that no rank finds "
			"only what it made itself; 0: its own" },
	[OPT_BS] = { "bs", T_SIZE, true, false, "4k", 1, GiB, NULL,
		     "bytes per read" },
	[OPT_SPACING] = { "spacing", T_SIZE, true, false, NULL, 1, INT64_MAX, NULL,
			  "distance between the starts of consecutive reads (default bs: dense)" },
	[OPT_PATTERN] = { "pattern", T_ENUM, true, false, "sequential", 0, 0, pattern_values,
			  "order of reads; random: every block once per pass, in seeded order; "
			  "random-replace: independent draws (fio's norandommap)" },
	[OPT_COUNT] = { "count", T_UINT, false, false, NULL, 1, INT64_MAX, NULL,
			"number of random reads (default: one pass, a read per whole block)" },
	[OPT_OFFSET] = { "offset", T_TEXT, false, false, "0", 0, 0, NULL,
			 "where the job's region of the file starts, in bytes or N% of the file "
			 "(fio's); the region runs to the end of the file, less the other threads' "
			 "regions (offset_increment)" },
	[OPT_OFFSET_INCREMENT] = { "offset_increment", T_TEXT, false, false, "0", 0, 0, NULL,
				   "thread k's region starts at offset + k * offset_increment (bytes "
				   "or N% of the file, fio's with numjobs as threads); the regions are "
				   "equally long, the last ends at the end of the file; 0: the threads "
				   "share one region" },
	[OPT_RANDOM_DISTRIBUTION] = { "random_distribution", T_TEXT, true, false, "random", 0, 0,
				      NULL,
				      "pattern=random|random-replace: random (uniform), zipf:THETA, "
				      "pareto:H, normal:DEV[:CENTER], zoned:A/S:... (A% of the reads in "
				      "the next S% of the file), zoned_abs:A/SIZE:...; skewed draws are "
				      "independent, as fio's" },
	[OPT_PERCENTAGE_RANDOM] = { "percentage_random", T_UINT, true, false, "100", 0, 100, NULL,
				    "pattern=random|random-replace: percent of the units at random, "
				    "fio's; each other unit reads the block after the previous unit's "
				    "(wrapping at the region's end); 0: all in order" },
	[OPT_BSSPLIT] = { "bssplit", T_TEXT, false, false, NULL, 0, 0, NULL,
			  "a mix of block sizes, fio's: SIZE/PERCENT:SIZE/PERCENT...[,WRITES] (a "
			  "blank percent shares what is left of 100; short of 100, the rest goes to "
			  "the size with the largest); each unit's size from seed" },
	[OPT_BSRANGE] = { "bsrange", T_TEXT, false, false, NULL, 0, 0, NULL,
			  "uniform block sizes MIN-MAX[,WRITES] in steps of blockalign, fio's; each "
			  "unit's size from seed" },
	[OPT_BLOCKALIGN] = { "blockalign", T_SIZE, false, false, NULL, 1, GiB, NULL,
			     "bssplit, bsrange: random offsets are multiples of it, and bsrange's "
			     "sizes step by it (default: the smallest size)" },
	[OPT_SEED] = { "seed", T_UINT, false, false, "1", 0, INT64_MAX, NULL,
		       "seed of random offsets and of fill=random content" },
	/* the engine table says what each engine is (iosweep options lists them) */
	[OPT_ENGINE] = { "engine", T_ENUM, true, false, "sync", 0, 0,
			 (const char *const *)engine_names, "how I/Os are issued" },
	[OPT_IODEPTH] = { "iodepth", T_UINT, true, false, "1", 1, 4096, NULL,
			  "I/Os in flight for the queued engines (aio, uring)" },
	[OPT_FIXEDBUFS] = { "fixedbufs", T_ENUM, true, false, "0", 0, 0, flag_values,
			    "uring: register the buffers (READ_FIXED)" },
	[OPT_REGISTERFILES] = { "registerfiles", T_ENUM, true, false, "0", 0, 0, flag_values,
				"uring: register the file (IOSQE_FIXED_FILE)" },
	[OPT_SQTHREAD_POLL] = { "sqthread_poll", T_ENUM, true, false, "0", 0, 0, flag_values,
				"uring: a kernel thread polls the submission queue" },
	[OPT_HIPRI] = { "hipri", T_ENUM, true, false, "0", 0, 0, flag_values,
			"uring, psync2: poll for O_DIRECT completions (cache=direct)" },
	[OPT_NOWAIT] = { "nowait", T_ENUM, true, false, "0", 0, 0, flag_values,
			 "psync2: RWF_NOWAIT first, a blocking read when it would block" },
	[OPT_CACHE] = { "cache", T_ENUM, true, false, "fadvise", 0, 0, cache_policy_names,
			"page-cache state before each repeat" },
	[OPT_HINT] = { "hint", T_ENUM, true, false, "none", 0, 0, hint_values,
		       "posix_fadvise/madvise advice given after open" },
	[OPT_THREADS] = { "threads", T_UINT, true, false, "1", 1, 1024, NULL,
			  "parallel workers, each on its own contiguous share of the I/Os" },
	[OPT_CONSUME] = { "consume", T_ENUM, true, false, "checksum", 0, 0, consume_values,
			  "what is done with the bytes read" },
	[OPT_OP] = { "op", T_ENUM, true, false, "read", 0, 0, op_values,
		     "read, write, or both (readwrite: rwmixread percent of the blocks are read); "
		     "trim discards each block (a device: BLKDISCARD; a file: a hole punched), "
		     "trimwrite trims each block, then writes it" },
	[OPT_RWMIXREAD] = { "rwmixread", T_UINT, true, false, "50", 0, 100, NULL,
			    "op=readwrite: percent of blocks read, the others written (per offset, "
			    "from seed)" },
	[OPT_SYNC] = { "sync", T_ENUM, true, false, "none", 0, 0, sync_values,
		       "durability: none; end (one timed fsync); fsync|fdatasync every "
		       "sync_every writes; dsync|osync (open flags)" },
	[OPT_SYNC_EVERY] = { "sync_every", T_UINT, true, false, "1", 1, INT64_MAX, NULL,
			     "sync=fsync|fdatasync: writes between two flushes" },
	[OPT_SYNC_MODE] = { "sync_mode", T_ENUM, true, false, "drain", 0, 0, sync_mode_values,
			    "sync=fsync|fdatasync: drain (wait for the I/O in flight, then flush) or "
			    "inflight (aio, uring: queue the flush with the I/O in flight, as fio)" },
	[OPT_DATA] = { "data", T_ENUM, true, false, "random", 0, 0, data_values,
		       "what writes write: random (incompressible, checkable) or zeros" },
	[OPT_COMPRESS] = { "compress", T_UINT, true, false, "0", 0, 99, NULL,
			   "data=random: percent of each 4 KiB written that is zeros" },
	[OPT_ALLOC] = { "alloc", T_ENUM, true, false, "overwrite", 0, 0, alloc_values,
			"writes go into written blocks, a file truncated before each repeat, or "
			"fallocated blocks" },
	[OPT_VERIFY] = { "verify", T_ENUM, false, false, "none", 0, 0, verify_values,
			 "after: read back and check every block a repeat wrote or read" },
	[OPT_ALLOW_WRITE] = { "allow_write", T_PATH, false, true, NULL, 0, 0, NULL,
			      "the filename again: lets writes into a file iosweep did not make, or "
			      "into a block device that nothing uses (not mounted, swap, held or "
			      "claimed; never the root disk)" },
	[OPT_ALLOW_OVERWRITE_SIGNATURE] = { "allow_overwrite_signature", T_TEXT, false, true,
					    NULL, 0, 0, NULL,
					    "a device's signature the job may destroy, as blkid "
					    "names it (ext4, swap, dos, gpt...): without it a "
					    "device that carries one is not written" },
	[OPT_REPEAT] = { "repeat", T_UINT, false, false, "auto", 1, 100000, NULL,
			 "measured repeats of each run; auto: at least 6, then until the 95% "
			 "confidence interval of the median is within 5% of it, 30 repeats or 60 s "
			 "of them" },
	[OPT_WARMUP] = { "warmup", T_UINT, false, false, "0", 0, 100000, NULL,
			 "unmeasured repeats before the measured ones" },
	[OPT_RUNTIME] = { "runtime", T_DURATION, false, false, "0", 0, INT64_MAX, NULL,
			  "stop a repeat after this long (0: no limit)" },
	[OPT_TIME_BASED] = { "time_based", T_ENUM, false, false, "0", 0, 0, flag_values,
			     "a repeat reads for its runtime, going round the file "
			     "again at its end; figures are over the measured time" },
	[OPT_RAMP] = { "ramp", T_DURATION, false, false, "0", 0, INT64_MAX, NULL,
		       "time_based: read this long, unmeasured, before the runtime starts" },
	[OPT_STARTDELAY] = { "startdelay", T_DURATION, true, false, "0", 0, INT64_MAX, NULL,
			     "wait this long after the start line before the first I/O (fio's): "
			     "in a group, the job starts that much after the others; the wait "
			     "is in none of the job's figures (0: none)" },
	[OPT_THINKTIME] = { "thinktime", T_DURATION, true, false, "0", 0, INT64_MAX, NULL,
			    "pause after every thinktime_blocks I/Os, fio's: the I/Os in flight are "
			    "waited for, then none is in flight; in the time, in no latency (0: none)" },
	[OPT_THINKTIME_BLOCKS] = { "thinktime_blocks", T_UINT, true, false, "1", 1, INT64_MAX, NULL,
				   "thinktime: I/Os begun between two pauses" },
	[OPT_THINKTIME_SPIN] = { "thinktime_spin", T_DURATION, false, false, "0", 0, INT64_MAX,
				 NULL, "thinktime: of each pause, this long spent spinning on the CPU, "
				 "the rest asleep" },
	[OPT_RATE] = { "rate", T_SIZE, true, false, "0", 0, INT64_MAX, NULL,
		       "bytes per second of the job, split over its threads: each read is due at "
		       "a fixed time and a late one is measured from then (0: no limit)" },
	[OPT_RATE_IOPS] = { "rate_iops", T_UINT, true, false, "0", 0, INT64_MAX, NULL,
			    "reads per second of the job, as rate (0: no limit)" },
	[OPT_READ_IOLOG] = { "read_iolog", T_PATH, false, false, NULL, 0, 0, NULL,
			     "replay a trace (fio iolog v2 or v3, or blkparse's text): its reads, "
			     "writes, trims and syncs, each due at its recorded time; its files "
			     "become regions of the job's file, "
			     "made as large as the trace reaches" },
	[OPT_REPLAY_NO_STALL] = { "replay_no_stall", T_ENUM, false, false, "0", 0, 0, flag_values,
				  "read_iolog: 1 replays as fast as possible, iodepth I/Os at "
				  "once, ignoring the recorded times" },
	[OPT_REPLAY_TIME_SCALE] = { "replay_time_scale", T_UINT, false, false, "100", 1, 1000000,
				    NULL,
				    "read_iolog: the recorded rate in percent (200: twice as fast, "
				    "each due time halved)" },
	[OPT_REPLAY_THREADS] = { "replay_threads", T_ENUM, false, false, "0", 0, 0, flag_values,
				 "read_iolog: 1 replays each thread of the trace by a worker of "
				 "its own, its lines in its order (threads: the trace's); with "
				 "replay_no_stall each at its own pace, the next line when its last "
				 "completed" },
	[OPT_INTERVAL] = { "interval", T_DURATION, false, false, "1s", 0, INT64_MAX, NULL,
			   "length of the intervals of a repeat's series (reads, bytes, latency "
			   "percentiles, residency); none for a repeat shorter than three "
			   "(0: none); at least 1ms: shorter ones cost the timed loop more than "
			   "it may spend on a series (3%)" },
	[OPT_SS] = { "ss", T_TEXT, false, false, NULL, 0, 0, NULL,
		     "steady state, fio's criterion (iops:10%, iops_slope:1%, bw, bw_slope, lat, "
		     "lat_slope; a limit in % of the window's mean or absolute) or SNIA's rule "
		     "(iops_snia, bw_snia, lat_snia); a repeat stops when it is met" },
	[OPT_SS_DUR] = { "ss_dur", T_DURATION, false, false, "0", 0, INT64_MAX, NULL,
			 "ss: the window judged, a whole number of intervals (at least 3)" },
	[OPT_SS_RAMP] = { "ss_ramp", T_DURATION, false, false, "0", 0, INT64_MAX, NULL,
			  "ss: time at the start of a repeat left out of every window" },
	[OPT_SS_DIR] = { "ss_dir", T_ENUM, false, false, "all", 0, 0, ss_dir_values,
			 "ss: the direction judged: all (both together), read or write" },
	[OPT_STOP_AT_CLIFF] = { "stop_at_cliff", T_ENUM, false, false, "0", 0, 0, flag_values,
				"a repeat ends at its first cliff (a lasting change of throughput "
				"or mean latency), judged at the interval boundaries" },
	[OPT_PRECONDITION] = { "precondition", T_TEXT, false, false, NULL, 0, 0, NULL,
			       "writes before the run's warmup and repeats, timed apart and "
			       "reported apart: fill:N (N sequential passes of 128 KiB writes "
			       "over the file), random:N (N passes of random writes of bs, every "
			       "block once), or both (fill:2, random:2); consent as for writes" },
	[OPT_BASELINE] = { "baseline", T_JOB, false, true, NULL, 0, 0, NULL,
			   "job whose runs ratios are computed against" },
	[OPT_DESCRIPTION] = { "description", T_TEXT, false, true, NULL, 0, 0, NULL,
			      "shown in reports" },
	[OPT_GROUP] = { "group", T_TEXT, false, true, NULL, 0, 0, NULL,
			"jobs with the same group run at the same time: their threads start at "
			"one start line, each job keeps its own figures, and a list in any of "
			"them makes one run of the whole group per value" },
	[OPT_GROUP_END] = { "group_end", T_TEXT, false, true, "all", 0, 0, NULL,
			    "when a group ends: all (when every job has ended), first (when the "
			    "first job ends: the others are cut and marked), or a time after the "
			    "start line (30s: every job still running is cut then)" },
};

/* Whole-number options with a word that stands for 0: repeat = auto. */
static const char *const word0[OPT__COUNT] = { [OPT_REPEAT] = "auto" };

bool option_engine_takes(const struct engine_ops *e, int id)
{
	int k = option_knob(id);

	return k < 0 || (e->knobs & KNOB(k));
}

int option_find(const char *name)
{
	for (int i = 0; i < OPT__COUNT; i++)
		if (strcasecmp(option_table[i].name, name) == 0)
			return i;
	return -1;
}

/* Edit distance (insert, delete, substitute), for short names only. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[64];

	if (la >= 63 || lb >= 63)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

const char *option_suggest(const char *name)
{
	const struct fio_word *fio = fio_word_find(name);
	const char *best = NULL;
	size_t best_d = 3, len = strlen(name); /* farther than two edits is no suggestion */

	if (fio && fio->to)
		return fio->to; /* fio's name for it */

	for (int i = 0; i < OPT__COUNT; i++) {
		const struct option_def *o = &option_table[i];
		size_t d = distance(o->name, name);

		if (len >= 3 && strncasecmp(o->name, name, len) == 0)
			d = 1; /* an abbreviation */
		if (d < best_d) {
			best = o->name;
			best_d = d;
		}
	}
	return best;
}

static void join_values(const char *const *values, char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; values[i] && used < n; i++)
		used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? ", " : "", values[i]);
}

static int parse_enum(const struct option_def *o, const char *text, union optval *out, char *err)
{
	char allowed[256];
	const char *near = NULL;

	for (size_t i = 0; o->values[i]; i++) {
		if (strcasecmp(o->values[i], text) == 0) {
			out->u = i;
			return 0;
		}
		if (!near && distance(o->values[i], text) <= 2)
			near = o->values[i];
	}
	join_values(o->values, allowed, sizeof(allowed));
	if (fio_hint_value(o->name, text))
		return err_set(err, "%s: unknown value '%s': %s (allowed: %s)", o->name, text,
			       fio_hint_value(o->name, text), allowed);
	if (near)
		return err_set(err, "%s: unknown value '%s' (did you mean '%s'? allowed: %s)",
			       o->name, text, near, allowed);
	return err_set(err, "%s: unknown value '%s' (allowed: %s)", o->name, text, allowed);
}

static int check_bounds(const struct option_def *o, const char *text, uint64_t v, char *err)
{
	char lo[32], hi[32];

	if (v >= o->min && v <= o->max)
		return 0;
	if (v == 0)
		return err_set(err, "%s: '%s' must be greater than zero", o->name, text);
	if (o->type == T_SIZE) {
		units_fmt_size(o->min, lo, sizeof(lo));
		units_fmt_size(o->max, hi, sizeof(hi));
	} else {
		snprintf(lo, sizeof(lo), "%llu", (unsigned long long)o->min);
		snprintf(hi, sizeof(hi), "%llu", (unsigned long long)o->max);
	}
	return err_set(err, "%s: '%s' is out of range (%s to %s)", o->name, text, lo, hi);
}

/* bssplit, bsrange: fio's syntax and weights (io/bsmix.h). */
static int check_bsmix(enum opt_id id, const char *text, char *err)
{
	struct bsmix m;
	char why[ERR_MAX];

	if (bsmix_parse(&m, id == OPT_BSSPLIT ? text : NULL, id == OPT_BSRANGE ? text : NULL, 0,
			0, why) < 0)
		return err_set(err, "%s: %s", option_table[id].name, why);
	return 0;
}

/* filesize: a size, or a tree's sizes drawn file by file (io/bsmix.h). */
static int check_filesize(const char *text, char *err)
{
	struct bsmix m;
	uint64_t plain;
	char why[ERR_MAX];

	if (bsmix_filesizes(&m, text, 0, &plain, why) < 0)
		return err_set(err, "filesize: %s", why);
	return 0;
}

/* random_distribution: fio's families and rules (io/distribution.h); whether
 * it fits the file is the plan's to check. */
static int check_distribution(const char *text, char *err)
{
	struct randdist_spec spec;
	char why[ERR_MAX];

	if (randdist_parse(text, &spec, why) < 0)
		return err_set(err, "%s: %s", option_table[OPT_RANDOM_DISTRIBUTION].name, why);
	return 0;
}

const char *const precond_names[] = { [PRECOND_FILL] = "fill", [PRECOND_RANDOM] = "random",
				      NULL };

int precondition_parse(const char *text, struct precond_pass *p, size_t *n, char *err)
{
	const char *s = text;

	*n = 0;
	for (;;) {
		char name[16], *end;
		size_t len;
		long times;
		int k;

		s += strspn(s, " \t");
		len = strcspn(s, ": \t,");
		for (k = 0; precond_names[k]; k++)
			if (len == strlen(precond_names[k]) && !strncasecmp(s, precond_names[k], len))
				break;
		snprintf(name, sizeof(name), "%.*s", len < 15 ? (int)len : 15, s);
		if (!precond_names[k])
			return err_set(err, "'%s': unknown pass '%s' (fill:N or random:N, e.g. "
					    "fill:2, random:2)", text, name);
		s += len;
		s += strspn(s, " \t");
		if (*s != ':')
			return err_set(err, "'%s': give the passes of %s as %s:N (e.g. %s:1)", text,
				       name, precond_names[k], precond_names[k]);
		s++;
		s += strspn(s, " \t");
		errno = 0;
		times = strtol(s, &end, 10);
		if (end == s || errno || times <= 0 || times > PRECOND_TIMES_MAX)
			return err_set(err, "'%s': %s:N needs a whole N from 1 to %d", text,
				       precond_names[k], PRECOND_TIMES_MAX);
		if (*n == PRECOND_MAX)
			return err_set(err, "'%s': at most %d passes", text, PRECOND_MAX);
		p[*n].kind = (enum precond_kind)k;
		p[(*n)++].times = (unsigned)times;
		s = end + strspn(end, " \t");
		if (*s == '\0')
			return 0;
		if (*s != ',')
			return err_set(err, "'%s': passes are separated by ',' (fill:2, random:2)",
				       text);
		s++;
	}
}

int option_parse_value(enum opt_id id, const char *text, union optval *out, char *err)
{
	const struct option_def *o = &option_table[id];
	char why[ERR_MAX];
	int rc = 0;

	/* ss is text that must be a criterion (io/steady.h) */
	if (id == OPT_SS) {
		enum steady_metric m;
		struct steady_spec sp;

		if (steady_parse(text, &m, &sp, why) < 0)
			return err_set(err, "%s: %s", o->name, why);
	}
	if (id == OPT_PRECONDITION) {
		struct precond_pass p[PRECOND_MAX];
		size_t n;

		if (precondition_parse(text, p, &n, why) < 0)
			return err_set(err, "%s: %s", o->name, why);
	}
	switch (o->type) {
	case T_PATH:
	case T_TEXT:
	case T_JOB:
		if (*text == '\0' && o->type != T_TEXT)
			return err_set(err, "%s: empty value", o->name);
		if (id == OPT_RANDOM_DISTRIBUTION && check_distribution(text, err) < 0)
			return -1;
		if ((id == OPT_BSSPLIT || id == OPT_BSRANGE) && check_bsmix(id, text, err) < 0)
			return -1;
		if (id == OPT_FILESIZE && check_filesize(text, err) < 0)
			return -1;
		out->s = strdup(text);
		if (!out->s)
			return err_set(err, "out of memory");
		return 0;
	case T_ENUM:
		return parse_enum(o, text, out, err);
	case T_SIZE:
		rc = units_parse_size(text, &out->u, why);
		break;
	case T_UINT:
		if (word0[id] && strcasecmp(text, word0[id]) == 0) {
			out->u = 0;
			return 0;
		}
		rc = units_parse_uint(text, &out->u, why);
		break;
	case T_DURATION:
		rc = units_parse_duration_ns(text, &out->u, why);
		break;
	}
	if (rc < 0)
		return err_set(err, "%s: %s", o->name, why);
	if (check_bounds(o, text, out->u, err) < 0)
		return -1;
	/* 0 is no series; anything else is held to the series' floor (series.h) */
	if (id == OPT_INTERVAL && out->u && out->u < SERIES_MIN_INTERVAL_NS) {
		option_format(id, (union optval){ .u = SERIES_MIN_INTERVAL_NS }, why, sizeof(why));
		return err_set(err, "%s: '%s' is shorter than %s, the shortest interval "
				    "whose series costs the timed loop at most 3%% (0: no series)",
			       o->name, text, why);
	}
	return 0;
}

bool plain_filesize(const char *text, uint64_t *size)
{
	char why[ERR_MAX];

	return text && units_parse_size(text, size, why) == 0;
}

void option_format(enum opt_id id, union optval v, char *buf, size_t n)
{
	const struct option_def *o = &option_table[id];
	uint64_t size;
	char tmp[32];

	switch (o->type) {
	case T_PATH:
	case T_TEXT:
	case T_JOB:
		if (id == OPT_FILESIZE && plain_filesize(v.s, &size)) /* said as a size */
			units_fmt_size(size, buf, n);
		else
			snprintf(buf, n, "%s", v.s ? v.s : "");
		break;
	case T_ENUM:
		snprintf(buf, n, "%s", o->values[v.u]);
		break;
	case T_SIZE:
		units_fmt_size(v.u, buf, n);
		break;
	case T_UINT:
		if (v.u == 0 && word0[id])
			snprintf(buf, n, "%s", word0[id]);
		else
			snprintf(buf, n, "%llu", (unsigned long long)v.u);
		break;
	case T_DURATION:
		if (v.u % 1000000000ULL == 0)
			snprintf(tmp, sizeof(tmp), "%llus", (unsigned long long)(v.u / 1000000000ULL));
		else if (v.u % 1000000ULL == 0)
			snprintf(tmp, sizeof(tmp), "%llums", (unsigned long long)(v.u / 1000000ULL));
		else
			snprintf(tmp, sizeof(tmp), "%lluns", (unsigned long long)v.u);
		snprintf(buf, n, "%s", tmp);
		break;
	}
}

bool option_value_equal(enum opt_id id, union optval a, union optval b)
{
	switch (option_table[id].type) {
	case T_PATH:
	case T_TEXT:
	case T_JOB:
		if (!a.s || !b.s)
			return a.s == b.s;
		return strcmp(a.s, b.s) == 0;
	default:
		return a.u == b.u;
	}
}

static json_t *option_json(enum opt_id id, union optval v)
{
	const struct option_def *o = &option_table[id];
	uint64_t size;

	switch (o->type) {
	case T_PATH:
	case T_TEXT:
	case T_JOB:
		/* filesize: a size in bytes, as it always was, unless sizes are drawn */
		if (id == OPT_FILESIZE && plain_filesize(v.s, &size))
			return json_integer((json_int_t)size);
		return json_text(v.s);
	case T_ENUM:
		return json_string(o->values[v.u]);
	case T_DURATION:
		return json_real((double)v.u / 1e9);
	case T_UINT:
		if (v.u == 0 && word0[id])
			return json_string(word0[id]);
		break;
	case T_SIZE:
		break;
	}
	return json_integer((json_int_t)v.u);
}

json_t *options_params_json(const union optval *v)
{
	json_t *obj = json_object();

	for (int i = 0; obj && i < OPT__COUNT; i++)
		if (!option_table[i].per_job &&
		    json_object_set_new(obj, option_table[i].name, option_json(i, v[i])) < 0) {
			json_decref(obj);
			return NULL;
		}
	return obj;
}
