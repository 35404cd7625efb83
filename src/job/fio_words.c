/*
 * fio_words.c - see fio_words.h: the table of fio's options, its engines
 * and its rw words, and the hints the job parser gives from them.
 */
#define _GNU_SOURCE
#include "job/fio_words.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "io/engines/engine.h"

#define IMPORT " (or translate a fio job with 'iosweep import')"
#define REPORT "changes how fio reports, not what it measures"
/* checked with fio 3.33: dir=, numruns=3, device-names= and load= in a job
 * without profile= left its file in the current directory, one run */
#define PROFILE "an option of fio's act or tiobench profile, which fio takes and does nothing " \
		"with without profile="
#define SCHED "changes how fio schedules its workers; iosweep does not pin or renice"
#define RATE_MIN "fio ends a job that falls below this rate; iosweep does not stop (under a " \
	"rate it reports how far behind it fell: behind_schedule_s)"

const char fio_why_report[] = REPORT;

/* One row per fio option that iosweep knows. */
static const struct fio_word words[] = {
	/* translated */
	{ .fio = "name", .handler = FH_NAME,
	  .becomes = "the job's name, its [section]",
	  .hint = "a job's name is its [section] here" IMPORT },
	{ .fio = "description", .to = "description", .handler = FH_DESCRIPTION,
	  .becomes = "description" },
	{ .fio = "filename", .to = "filename", .handler = FH_FILENAME,
	  .becomes = "filename (a relative path made absolute: fio's is in its directory)" },
	{ .fio = "directory", .handler = FH_DIRECTORY,
	  .becomes = "filename, in that directory; with nrfiles > 1, directory",
	  .hint = "write the directory into 'filename' here" IMPORT },
	{ .fio = "size", .to = "size", .handler = FH_SIZE,
	  .becomes = "size (N%: of the existing file)" },
	{ .fio = "filesize", .handler = FH_FILESIZE,
	  .becomes = "size; with a smaller size, that much random I/O over it (count); with "
		     "nrfiles > 1, filesize (LO-HI: sizes drawn file by file, as for fio's file "
		     "engines' trees)",
	  .hint = "fio's filesize is 'size' here" IMPORT },
	{ .fio = "bs", .to = "bs", .handler = FH_BS,
	  .becomes = "bs (R,W: the part of the job's direction)" },
	{ .fio = "blocksize", .to = "bs", .handler = FH_BS,
	  .becomes = "bs (R,W: the part of the job's direction)",
	  .hint = "fio's blocksize is 'bs' here" IMPORT },
	{ .fio = "bsrange", .to = "bsrange", .handler = FH_BSRANGE,
	  .becomes = "bsrange (R,W; bs when both ends are one size)" },
	{ .fio = "blocksize_range", .to = "bsrange", .handler = FH_BSRANGE,
	  .becomes = "bsrange (R,W; bs when both ends are one size)",
	  .hint = "fio's blocksize_range is 'bsrange' here" IMPORT },
	{ .fio = "bssplit", .to = "bssplit", .handler = FH_BSSPLIT,
	  .becomes = "bssplit (R,W; bs when it names one size)" },
	{ .fio = "blockalign", .to = "blockalign", .handler = FH_BLOCKALIGN,
	  .becomes = "blockalign, with a mix of sizes (the part of the job's direction)" },
	{ .fio = "ba", .to = "blockalign", .handler = FH_BLOCKALIGN,
	  .becomes = "blockalign, with a mix of sizes (the part of the job's direction)",
	  .hint = "fio's ba is 'blockalign' here" IMPORT },
	{ .fio = "rw", .to = "pattern", .handler = FH_RW,
	  .becomes = "pattern and op (rw=read:N: spacing = bs + N; read:-N: pattern = reverse, "
		     "spacing = N - bs); trims refused",
	  .hint = "fio's rw is 'pattern' (sequential, random) and 'op' (read, write, readwrite) "
		"here" IMPORT },
	{ .fio = "readwrite", .to = "op", .handler = FH_RW,
	  .becomes = "pattern and op (rw=read:N: spacing = bs + N; read:-N: pattern = reverse, "
		     "spacing = N - bs); trims refused",
	  .hint = "fio's readwrite is 'pattern' (sequential, random) and 'op' (read, write, "
		"readwrite) here" IMPORT },
	{ .fio = "ioengine", .to = "engine", .handler = FH_IOENGINE },
	{ .fio = "iodepth", .to = "iodepth", .handler = FH_IODEPTH,
	  .becomes = "iodepth (aio, uring; the others do one I/O at a time)" },
	{ .fio = "direct", .takes = FT_BOOL, .handler = FH_DIRECT,
	  .becomes = "direct=1: cache = direct",
	  .hint = "fio's direct=1 is 'cache = direct' here" IMPORT },
	{ .fio = "buffered", .takes = FT_BOOL, .handler = FH_BUFFERED,
	  .becomes = "buffered=0: cache = direct",
	  .hint = "fio's buffered=0 is 'cache = direct' here; reads are buffered by default"
		IMPORT },
	{ .fio = "invalidate", .takes = FT_BOOL, .handler = FH_INVALIDATE,
	  .becomes = "invalidate=1: cache = fadvise (fio's default); 0: cache = keep",
	  .hint = "fio's invalidate=1 is 'cache = fadvise' here, invalidate=0 'cache = keep'"
		IMPORT },
	{ .fio = "pre_read", .takes = FT_BOOL, .handler = FH_PRE_READ,
	  .becomes = "pre_read=1: cache = warm" },
	{ .fio = "fadvise_hint", .takes = FT_BOOL, .to = "hint", .handler = FH_FADVISE_HINT,
	  .becomes = "hint (fio's default: by pattern)",
	  .hint = "fio's fadvise_hint is 'hint' here (none, sequential, random, willneed, noreuse)"
		IMPORT },
	{ .fio = "numjobs", .to = "threads", .handler = FH_NUMJOBS,
	  .becomes = "threads (fio's clones each do the whole size: noted)",
	  .hint = "fio's numjobs is 'threads' here" IMPORT },
	{ .fio = "runtime", .to = "runtime", .handler = FH_RUNTIME,
	  .becomes = "runtime" },
	{ .fio = "timeout", .to = "runtime", .handler = FH_RUNTIME,
	  .becomes = "runtime (timeout is fio's other name for it)" },
	{ .fio = "time_based", .takes = FT_FLAG, .to = "time_based", .handler = FH_TIME_BASED,
	  .becomes = "time_based (with a runtime; without one, noted as fio drops it)",
	  .unsaid = "time_based" },
	{ .fio = "thinktime", .to = "thinktime", .handler = FH_THINKTIME,
	  .becomes = "thinktime (fio's microseconds)" },
	{ .fio = "thinktime_spin", .to = "thinktime_spin", .handler = FH_THINKTIME,
	  .becomes = "thinktime_spin (fio's microseconds)" },
	{ .fio = "thinktime_blocks", .to = "thinktime_blocks", .handler = FH_THINKTIME,
	  .becomes = "thinktime_blocks (counted as begun; the pause waits for those in flight, "
		     "as fio's)" },
	/* I/O replay (fio HOWTO): a trace as the job's I/O */
	{ .fio = "read_iolog", .to = "read_iolog", .handler = FH_READ_IOLOG,
	  .becomes = "read_iolog, replayed on iosweep's own test file (the trace's files end to "
		     "end), never on the files the trace names" },
	{ .fio = "replay_no_stall", .takes = FT_BOOL, .to = "replay_no_stall", .handler = FH_REPLAY,
	  .becomes = "replay_no_stall" },
	{ .fio = "replay_time_scale", .to = "replay_time_scale", .handler = FH_REPLAY,
	  .becomes = "replay_time_scale" },
	{ .fio = "replay_redirect", .to = "filename", .handler = FH_REPLAY,
	  .becomes = "filename, for a trace of one file (fio overlaps several on the device at "
		     "their offsets, iosweep lays them end to end: refused)" },
	{ .fio = "replay_align", .handler = FH_REPLAY,
	  .becomes = "refused unless 0: iosweep replays a trace's offsets as recorded" },
	{ .fio = "replay_scale", .handler = FH_REPLAY,
	  .becomes = "refused unless 1: iosweep replays a trace's offsets as recorded" },
	{ .fio = "replay_skip", .takes = FT_ANY, .handler = FH_REPLAY,
	  .becomes = "refused unless empty: iosweep replays every I/O of a trace (remove the "
		     "lines from a copy)" },
	{ .fio = "ramp_time", .to = "ramp", .handler = FH_RAMP_TIME,
	  .becomes = "ramp (with time_based and a runtime; refused without)",
	  .hint = "fio's ramp_time is 'ramp' here (with time_based); 'warmup' runs whole "
		"unmeasured repeats first" IMPORT },
	{ .fio = "steadystate", .to = "ss", .handler = FH_SS,
	  .becomes = "ss (with ss_dur; fio ignores it without)" },
	{ .fio = "ss", .to = "ss", .handler = FH_SS,
	  .becomes = "ss (with ss_dur; fio ignores it without)" },
	{ .fio = "steadystate_duration", .to = "ss_dur", .handler = FH_SS_DUR,
	  .becomes = "ss_dur (with fio's default ss = iops_slope:0.01% when ss is not set)" },
	{ .fio = "ss_dur", .to = "ss_dur", .handler = FH_SS_DUR,
	  .becomes = "ss_dur (with fio's default ss = iops_slope:0.01% when ss is not set)" },
	{ .fio = "steadystate_ramp_time", .to = "ss_ramp", .handler = FH_SS_RAMP,
	  .becomes = "ss_ramp" },
	{ .fio = "ss_ramp", .to = "ss_ramp", .handler = FH_SS_RAMP,
	  .becomes = "ss_ramp" },
	{ .fio = "steadystate_check_interval", .takes = FT_ANY, .to = "interval",
	  .handler = FH_SS_INTERVAL,
	  .becomes = "interval (fio: 1 s, iosweep's default too)" },
	{ .fio = "loops", .to = "repeat", .handler = FH_LOOPS,
	  .becomes = "repeat",
	  .hint = "fio's loops is 'repeat' here" IMPORT },
	{ .fio = "randrepeat", .takes = FT_BOOL, .handler = FH_RANDREPEAT,
	  .becomes = "randrepeat=0: noted, iosweep's random order repeats for a seed",
	  .hint = "iosweep's random reads always repeat for a seed: set 'seed'" IMPORT },
	{ .fio = "allrandrepeat", .takes = FT_BOOL, .handler = FH_RANDREPEAT,
	  .becomes = "randrepeat=0: noted, iosweep's random order repeats for a seed" },
	{ .fio = "randseed", .to = "seed", .handler = FH_RANDSEED,
	  .becomes = "seed",
	  .hint = "fio's randseed is 'seed' here" IMPORT },
	{ .fio = "norandommap", .takes = FT_FLAG, .handler = FH_NORANDOMMAP,
	  .becomes = "pattern = random-replace",
	  .hint = "fio's norandommap is 'pattern = random-replace' here" IMPORT,
	  .unsaid = "pattern" },
	{ .fio = "fixedbufs", .takes = FT_FLAG, .to = "fixedbufs", .handler = FH_KNOB,
	  .unsaid = "fixedbufs" },
	{ .fio = "registerfiles", .takes = FT_FLAG, .to = "registerfiles", .handler = FH_KNOB,
	  .unsaid = "registerfiles" },
	{ .fio = "sqthread_poll", .takes = FT_FLAG, .to = "sqthread_poll", .handler = FH_KNOB,
	  .unsaid = "sqthread_poll" },
	{ .fio = "sqthread_poll_cpu", .handler = FH_SQPOLL_CPU,
	  .becomes = "with sqthread_poll: noted (iosweep does not pin); without: nothing (fio "
		     "ignores it); io_uring only" },
	{ .fio = "hipri", .takes = FT_FLAG, .to = "hipri", .handler = FH_KNOB, .unsaid = "hipri" },
	{ .fio = "nowait", .takes = FT_BOOL, .to = "nowait", .handler = FH_KNOB },
	{ .fio = "iodepth_batch_complete_min", .handler = FH_BATCH_COMPLETE,
	  .becomes = "noted when fio's libaio reaps otherwise than iosweep" },
	{ .fio = "iodepth_batch_complete", .handler = FH_BATCH_COMPLETE,
	  .becomes = "noted when fio's libaio reaps otherwise than iosweep",
	  .hint = "iosweep reaps what has completed; it has no batch setting" IMPORT },
	{ .fio = "iodepth_batch_complete_max", .handler = FH_BATCH_COMPLETE,
	  .becomes = "noted when fio's libaio reaps otherwise than iosweep" },
	{ .fio = "number_ios", .to = "count", .handler = FH_NUMBER_IOS,
	  .becomes = "count (random), or a shorter size (in order)",
	  .hint = "fio's number_ios is 'count' here (random reads)" IMPORT },
	{ .fio = "io_size", .to = "count", .handler = FH_NUMBER_IOS,
	  .becomes = "count = io_size / bs (random: passes wrap); in order a shorter size "
		     "(larger: refused)",
	  .hint = "fio's io_size is 'count' here, in I/Os (random reads)" IMPORT },
	{ .fio = "io_limit", .to = "count", .handler = FH_NUMBER_IOS,
	  .becomes = "as io_size" },
	{ .fio = "offset", .to = "offset", .handler = FH_OFFSET,
	  .becomes = "offset (bytes or N%); size becomes the region's end" },
	{ .fio = "fileoffset", .to = "offset", .handler = FH_OFFSET,
	  .becomes = "as offset (fio's other name for it)" },
	{ .fio = "offset_increment", .to = "offset_increment", .handler = FH_OFFSET,
	  .becomes = "offset_increment (numjobs: threads, each its own region)" },
	{ .fio = "startdelay", .to = "startdelay", .handler = FH_STARTDELAY,
	  .becomes = "startdelay (a range: nothing, noted, for a job alone; refused where it "
		     "starts jobs that run together, or numjobs clones, apart by drawn waits)" },
	{ .fio = "io_submit_mode", .handler = FH_SUBMIT_MODE,
	  .becomes = "inline (fio's default): nothing; offload refused" },
	{ .fio = "stonewall", .takes = FT_FLAG, .handler = FH_ORDER,
	  .becomes = "a new group: fio's jobs between two stonewalls run together (group)",
	  .hint = "iosweep runs jobs one after another unless they name the same group; "
		  "remove it" IMPORT },
	{ .fio = "wait_for_previous", .takes = FT_FLAG, .handler = FH_ORDER,
	  .becomes = "a new group, as stonewall" },
	{ .fio = "wait_for", .handler = FH_ORDER,
	  .becomes = "a new group, as stonewall (the job starts after every job before it)" },
	{ .fio = "kb_base", .handler = FH_KB_BASE,
	  .becomes = "the sizes it gives, written out exactly (4KiB, 4000)",
	  .hint = "here k m g t and KiB MiB GiB TiB are powers of 1024, KB MB GB TB powers of "
		"1000, always" IMPORT },
	{ .fio = "rate", .to = "rate", .handler = FH_RATE,
	  .becomes = "rate (x numjobs; R,W only in the proportion of rwmixread)" },
	{ .fio = "rate_iops", .to = "rate_iops", .handler = FH_RATE,
	  .becomes = "rate_iops (x numjobs; R,W only in the proportion of rwmixread)" },
	{ .fio = "rate_process", .handler = FH_RATE_PROCESS,
	  .becomes = "linear only (iosweep's schedule); poisson refused",
	  .hint = "iosweep's rate schedule is always linear; remove it" IMPORT },
	{ .fio = "random_distribution", .to = "random_distribution", .handler = FH_DISTRIBUTION,
	  .becomes = "random_distribution (zoned per direction refused)" },
	{ .fio = "percentage_random", .handler = FH_PERCENTAGE_RANDOM,
	  .becomes = "percentage_random (one value for the directions the job does)" },
	{ .fio = "nrfiles", .to = "nrfiles", .handler = FH_NRFILES,
	  .becomes = "nrfiles (a file set: size shared out, or filesize each; filename refused)" },
	{ .fio = "nr_files", .to = "nrfiles", .handler = FH_NRFILES,
	  .becomes = "as nrfiles (fio's other name for it)" },
	{ .fio = "file_service_type", .to = "file_service_type", .handler = FH_FILE_SERVICE_TYPE,
	  .becomes = "file_service_type (roundrobin, sequential, random; :N and the skewed ones "
		     "refused)" },
	{ .fio = "openfiles", .handler = FH_OPENFILES,
	  .becomes = "nothing, when at least nrfiles (iosweep opens every file of a set); fewer "
		     "refused",
	  .hint = "iosweep opens every file of a set before the run" IMPORT },
	{ .fio = "opendir", .to = "opendir", .handler = FH_OPENDIR,
	  .becomes = "opendir with file_service_type = sequential, for rw=read and one job (fio's "
		     "order, its reads of whole blocks only and its timing of each bs read, "
		     "noted); random reads, numjobs > 1, a size, writes and other engines than "
		     "sync/psync2 refused" },
	{ .fio = "filename_format", .to = "filename_format", .handler = FH_FILENAME_FORMAT,
	  .becomes = "filename_format ($jobnum made 0: iosweep runs one copy of a job)" },
	{ .fio = "verify", .to = "verify", .handler = FH_VERIFY,
	  .becomes = "verify = after (a pattern of yours refused)" },
	{ .fio = "do_verify", .takes = FT_BOOL, .handler = FH_DO_VERIFY,
	  .becomes = "do_verify=0: verify noted as irrelevant",
	  .hint = "write 'verify = after' to check what a repeat wrote" IMPORT },
	{ .fio = "verify_only", .takes = FT_FLAG, .handler = FH_VERIFY_ONLY,
	  .becomes = "op = read with verify = after" },
	{ .fio = "verify_pattern", .handler = FH_PATTERN,
	  .becomes = "empty only; a pattern of yours refused" },
	/* writes */
	{ .fio = "rwmixread", .to = "rwmixread", .scope = FW_MIXED_JOBS, .handler = FH_RWMIX,
	  .becomes = "rwmixread" },
	{ .fio = "rwmixwrite", .scope = FW_MIXED_JOBS, .handler = FH_RWMIX,
	  .becomes = "rwmixread = 100 - N",
	  .hint = "write 'rwmixread' (100 minus fio's rwmixwrite) here" IMPORT },
	{ .fio = "fsync", .to = "sync", .scope = FW_WRITE_JOBS, .handler = FH_COUNT,
	  .becomes = "sync = fsync with sync_every = N",
	  .hint = "fio's fsync=N is 'sync = fsync' with 'sync_every = N' here" IMPORT },
	{ .fio = "fdatasync", .scope = FW_WRITE_JOBS, .handler = FH_COUNT,
	  .becomes = "sync = fdatasync with sync_every = N",
	  .hint = "fio's fdatasync=N is 'sync = fdatasync' with 'sync_every = N' here" IMPORT },
	{ .fio = "end_fsync", .takes = FT_BOOL, .scope = FW_WRITE_JOBS, .handler = FH_END_FSYNC,
	  .becomes = "end_fsync=1: sync = end",
	  .hint = "fio's end_fsync=1 is 'sync = end' here" IMPORT },
	{ .fio = "fsync_on_close", .takes = FT_BOOL, .scope = FW_WRITE_JOBS, .handler = FH_FSYNC_ON_CLOSE,
	  .becomes = "fsync_on_close=1: sync = end",
	  .hint = "fio's fsync_on_close=1 is 'sync = end' here" IMPORT },
	{ .fio = "sync", .scope = FW_WRITE_JOBS, .handler = FH_SYNC,
	  .becomes = "sync=sync (1): sync = osync; dsync: sync = dsync" },
	{ .fio = "zero_buffers", .takes = FT_FLAG, .scope = FW_WRITE_JOBS, .handler = FH_ZERO_BUFFERS,
	  .becomes = "data = zero",
	  .hint = "fio's zero_buffers is 'data = zero' here" IMPORT, .unsaid = "data" },
	{ .fio = "refill_buffers", .takes = FT_FLAG, .scope = FW_WRITE_JOBS, .handler = FH_REFILL_BUFFERS,
	  .becomes = "what iosweep always does: new data in every block",
	  .hint = "iosweep always writes new data into every block; remove it" IMPORT },
	{ .fio = "scramble_buffers", .takes = FT_BOOL, .scope = FW_WRITE_JOBS,
	  .handler = FH_SCRAMBLE_BUFFERS,
	  .becomes = "noted: iosweep writes new data in every block",
	  .hint = "iosweep always writes new data into every block; remove it" IMPORT },
	{ .fio = "buffer_compress_percentage", .to = "compress", .scope = FW_WRITE_JOBS,
	  .becomes = "compress (100: data = zero)",
	  .handler = FH_COMPRESS },
	{ .fio = "buffer_compress_chunk", .scope = FW_WRITE_JOBS, .handler = FH_COMPRESS_CHUNK,
	  .becomes = "noted unless 4096 (iosweep: every 4 KiB)" },
	{ .fio = "buffer_pattern", .scope = FW_WRITE_JOBS, .handler = FH_PATTERN,
	  .becomes = "empty only: a pattern of yours refused (in a job that verifies too)" },
	{ .fio = "dedupe_percentage", .scope = FW_WRITE_JOBS, .handler = FH_DEDUPE,
	  .becomes = "0 only: every block iosweep writes is unique (refused in a job that "
		     "verifies too)" },
	{ .fio = "fallocate", .to = "alloc", .scope = FW_WRITE_JOBS, .handler = FH_FALLOCATE,
	  .becomes = "alloc: native, posix, keep: prealloc; none, truncate: allocate; then "
		     "overwrite too (fio's later runs) unless unlink",
	  .hint = "fio's fallocate is 'alloc' here (prealloc, allocate, overwrite)" IMPORT },
	{ .fio = "overwrite", .takes = FT_BOOL, .scope = FW_WRITE_JOBS, .handler = FH_OVERWRITE,
	  .becomes = "overwrite=1: alloc = overwrite",
	  .hint = "fio's overwrite=1 is 'alloc = overwrite' (the default) here" IMPORT },
	{ .fio = "create_on_open", .takes = FT_BOOL, .scope = FW_WRITE_JOBS, .handler = FH_CREATE_ON_OPEN,
	  .becomes = "create_on_open=1: alloc = allocate (then overwrite, as fallocate)" },
	{ .fio = "unlink", .takes = FT_BOOL, .handler = FH_UNLINK,
	  .becomes = "noted (iosweep keeps the test files it makes)",
	  .why = "irrelevant: iosweep keeps the test files it makes" },
	{ .fio = "unlink_each_loop", .takes = FT_BOOL, .handler = FH_UNLINK_EACH_LOOP,
	  .becomes = "noted (iosweep keeps the test files it makes)",
	  .why = "irrelevant: iosweep keeps the test files it makes" },
	/* refused unless off: they change what is measured */
	{ .fio = "latency_target", .kind = FW_OFF_ONLY,
	  .why = "iosweep keeps iodepth fixed" },
	{ .fio = "create_only", .takes = FT_BOOL, .kind = FW_OFF_ONLY,
	  .why = "a job that only creates files measures nothing" },
	{ .fio = "fill_device", .takes = FT_BOOL, .kind = FW_OFF_ONLY,
	  .why = "iosweep writes the job's size, not until the disk is full" },
	{ .fio = "fill_fs", .takes = FT_BOOL, .kind = FW_OFF_ONLY,
	  .why = "iosweep writes the job's size, not until the disk is full" },
	{ .fio = "file_append", .takes = FT_BOOL, .kind = FW_OFF_ONLY,
	  .why = "iosweep writes within the file, never past its end" },
	{ .fio = "sync_file_range", .kind = FW_OFF_ONLY,
	  .why = "iosweep flushes with fsync or fdatasync only" },
	{ .fio = "write_barrier", .kind = FW_OFF_ONLY,
	  .why = "iosweep issues no barrier writes" },
	{ .fio = "verify_backlog", .kind = FW_OFF_ONLY,
	  .why = "fio checks blocks between its writes, in the timed phase; iosweep checks after "
		"it" },
	{ .fio = "verify_state_load", .takes = FT_BOOL, .kind = FW_OFF_ONLY,
	  .why = "iosweep checks what the repeat itself wrote" },
	{ .fio = "experimental_verify", .takes = FT_BOOL, .kind = FW_OFF_ONLY,
	  .why = "iosweep checks its own data only" },
	{ .fio = "zonesize", .kind = FW_OFF_ONLY,
	  .why = "iosweep goes through the whole file, not zones of it" },
	{ .fio = "zoneskip", .kind = FW_OFF_ONLY,
	  .why = "iosweep goes through the whole file, not zones of it" },
	{ .fio = "trim_percentage", .kind = FW_OFF_ONLY,
	  .why = "iosweep does not trim" },
	{ .fio = "uncached", .kind = FW_OFF_ONLY,
	  .why = "iosweep does not read with RWF_UNCACHED" },
	{ .fio = "merge_blktrace_file", .kind = FW_OFF_ONLY,
	  .why = "iosweep replays one trace as it is (blkparse -i DEV merges one blktrace's "
		 "per-CPU files); merge several traces into one first" },
	{ .fio = "merge_blktrace_scalars", .kind = FW_OFF_ONLY,
	  .why = "iosweep replays one trace as it is, at one replay_time_scale" },
	{ .fio = "merge_blktrace_iters", .kind = FW_OFF_ONLY,
	  .why = "iosweep replays one trace as it is, once a repeat" },
	/* reported, not translated */
	{ .fio = "rate_min", .kind = FW_UNSUPPORTED,
	  .why =  RATE_MIN },
	{ .fio = "rate_iops_min", .kind = FW_UNSUPPORTED,
	  .why =  RATE_MIN },
	{ .fio = "rate_cycle", .kind = FW_UNSUPPORTED,
	  .why = "the window of fio's rate_min; " RATE_MIN },
	/* fio's other names for them (fio 3.33 options.c: alias) */
	{ .fio = "ratemin", .kind = FW_UNSUPPORTED,
	  .why =  RATE_MIN },
	{ .fio = "ratecycle", .kind = FW_UNSUPPORTED,
	  .why = "the window of fio's rate_min; " RATE_MIN },
	/* irrelevant */
	{ .fio = "stat_type", .takes = FT_ANY, .kind = FW_IRRELEVANT,
	  .why = "filestat's call: iosweep's stat phase calls fstatat without following links, "
		"on a tree of regular files iosweep made, where stat, lstat and statx look up "
		"the same names" },
	{ .fio = "thread", .takes = FT_FLAG, .kind = FW_IRRELEVANT,
	  .why = "iosweep's readers are always threads of one process",
	  .hint = "iosweep's readers are always threads; remove it" IMPORT },
	{ .fio = "threads", .kind = FW_IRRELEVANT, .why = PROFILE " (fio's own is thread)" },
	{ .fio = "numruns", .kind = FW_IRRELEVANT, .why = PROFILE " (fio's own is loops)" },
	{ .fio = "dir", .kind = FW_IRRELEVANT, .why = PROFILE " (fio's own is directory)" },
	{ .fio = "device-names", .kind = FW_IRRELEVANT, .why = PROFILE },
	{ .fio = "load", .kind = FW_IRRELEVANT, .why = PROFILE },
	{ .fio = "test-duration", .kind = FW_IRRELEVANT, .why = PROFILE },
	{ .fio = "prep", .takes = FT_FLAG, .kind = FW_IRRELEVANT, .why = PROFILE },
	{ .fio = "threads-per-queue", .kind = FW_IRRELEVANT, .why = PROFILE },
	{ .fio = "read-req-num-512-blocks", .kind = FW_IRRELEVANT, .why = PROFILE },
	{ .fio = "large-block-op-kbytes", .kind = FW_IRRELEVANT, .why = PROFILE },
	{ .fio = "single-instance", .takes = FT_ANY, .kind = FW_IRRELEVANT, .why = PROFILE },
	{ .fio = "group_reporting", .takes = FT_FLAG, .kind = FW_IRRELEVANT,
	  .why = "iosweep always reports a run's threads together",
	  .hint = "iosweep always reports a run's threads together; remove it" IMPORT },
	{ .fio = "new_group", .takes = FT_FLAG, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "unit_base", .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "output", .takes = FT_ANY, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "output-format", .takes = FT_ANY, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "percentile_list", .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "clat_percentiles", .takes = FT_BOOL, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "lat_percentiles", .takes = FT_BOOL, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "slat_percentiles", .takes = FT_BOOL, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "disable_lat", .takes = FT_BOOL, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "disable_clat", .takes = FT_BOOL, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "disable_slat", .takes = FT_BOOL, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "disable_bw_measurement", .takes = FT_BOOL, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "disable_bw", .takes = FT_BOOL, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "significant_figures", .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "unified_rw_reporting", .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "stats", .takes = FT_BOOL, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "gtod_reduce", .takes = FT_BOOL, .kind = FW_IRRELEVANT,
	  .why = "iosweep always times every read" },
	{ .fio = "clocksource", .kind = FW_IRRELEVANT,
	  .why = "iosweep always uses CLOCK_MONOTONIC" },
	{ .fio = "read_iolog_chunked", .takes = FT_BOOL, .kind = FW_IRRELEVANT,
	  .why = "iosweep always streams a trace through a fixed 1 MiB buffer" },
	{ .fio = "write_iolog", .kind = FW_IRRELEVANT,
	  .why = "fio's log of the I/Os it issued; " REPORT },
	{ .fio = "write_bw_log", .takes = FT_ANY, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "write_lat_log", .takes = FT_ANY, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "write_iops_log", .takes = FT_ANY, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "write_hist_log", .takes = FT_ANY, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "log_avg_msec", .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "log_hist_msec", .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "per_job_logs", .takes = FT_BOOL, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "log_offset", .takes = FT_BOOL, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "log_prio", .takes = FT_BOOL, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "log_entries", .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "log_hist_coarseness", .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "log_max_value", .takes = FT_BOOL, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "log_compression", .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "log_compression_cpus", .takes = FT_ANY, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "log_store_compressed", .takes = FT_BOOL, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "log_unix_epoch", .takes = FT_BOOL, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "log_alternate_epoch", .takes = FT_BOOL, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "log_alternate_epoch_clock_id", .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "block_error_percentiles", .takes = FT_BOOL, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "bwavgtime", .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "iopsavgtime", .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	/* log options of later fio than 3.33 (fio's HOWTO) */
	{ .fio = "log_issue_time", .takes = FT_ANY, .kind = FW_IRRELEVANT,
	  .why = "what the logs of a fio later than 3.33 record; " REPORT },
	{ .fio = "log_window_value", .takes = FT_ANY, .kind = FW_IRRELEVANT,
	  .why = "what the logs of a fio later than 3.33 record; " REPORT },
	{ .fio = "exitall", .takes = FT_FLAG, .kind = FW_IRRELEVANT,
	  .why = "iosweep runs one job at a time" },
	{ .fio = "exit_what", .kind = FW_IRRELEVANT,
	  .why = "which jobs fio's exitall ends; fio reads it only with exitall (noted on its "
		 "own)" },
	{ .fio = "exitall_on_error", .takes = FT_FLAG, .kind = FW_IRRELEVANT,
	  .why = "iosweep stops a run at its first error" },
	{ .fio = "continue_on_error", .kind = FW_IRRELEVANT,
	  .why = "iosweep stops a run at its first error" },
	{ .fio = "create_serialize", .takes = FT_BOOL, .kind = FW_IRRELEVANT,
	  .why = "iosweep creates a missing file before a run" },
	{ .fio = "allow_file_create", .takes = FT_BOOL, .kind = FW_IRRELEVANT,
	  .why = "iosweep creates a missing file itself" },
	{ .fio = "rw_sequencer", .kind = FW_IRRELEVANT,
	  .why = "matters only with rw=randread:N, not translated" },
	{ .fio = "random_generator", .kind = FW_IRRELEVANT,
	  .why = "iosweep draws offsets with its own generator (splitmix64)" },
	{ .fio = "verify_interval", .kind = FW_IRRELEVANT,
	  .why = "the size of fio's verify headers' blocks" },
	{ .fio = "verify_offset", .kind = FW_IRRELEVANT,
	  .why = "where fio puts its verify header in a block" },
	{ .fio = "verify_fatal", .takes = FT_BOOL, .kind = FW_IRRELEVANT,
	  .why = "iosweep fails the run at the first bad block" },
	{ .fio = "verify_dump", .takes = FT_BOOL, .kind = FW_IRRELEVANT,
	  .why = "iosweep names the first bad block and what it holds" },
	{ .fio = "verify_async", .kind = FW_IRRELEVANT,
	  .why = "iosweep checks after the repeat, untimed" },
	{ .fio = "verify_async_cpus", .takes = FT_ANY, .kind = FW_IRRELEVANT,
	  .why = "iosweep checks after the repeat, untimed" },
	{ .fio = "verify_state_save", .takes = FT_BOOL, .kind = FW_IRRELEVANT,
	  .why =  REPORT },
	{ .fio = "allow_mounted_write", .takes = FT_BOOL, .kind = FW_IRRELEVANT, .scope = FW_WRITE_JOBS,
	  .why = "iosweep never writes a mounted device, whatever the job says" },
	{ .fio = "create_fsync", .takes = FT_BOOL, .kind = FW_IRRELEVANT, .scope = FW_WRITE_JOBS,
	  .why = "it flushes a file fio lays out, before the timed part" },
	{ .fio = "rate_ignore_thinktime", .takes = FT_BOOL, .kind = FW_IRRELEVANT,
	  .why = "iosweep has no think time" },
	/* not supported; what is measured stays comparable */
	{ .fio = "cpus_allowed", .takes = FT_ANY, .kind = FW_UNSUPPORTED,
	  .why =  SCHED },
	{ .fio = "cpus_allowed_policy", .kind = FW_UNSUPPORTED,
	  .why =  SCHED },
	{ .fio = "cpumask", .kind = FW_UNSUPPORTED,
	  .why =  SCHED },
	{ .fio = "nice", .kind = FW_UNSUPPORTED,
	  .why =  SCHED },
	{ .fio = "prio", .kind = FW_UNSUPPORTED,
	  .why =  SCHED },
	{ .fio = "prioclass", .kind = FW_UNSUPPORTED,
	  .why =  SCHED },
	{ .fio = "ioscheduler", .kind = FW_UNSUPPORTED,
	  .why = "iosweep does not switch the device's scheduler (its results record which "
		  "it is)" },
	{ .fio = "iodepth_batch", .kind = FW_UNSUPPORTED,
	  .why = "iosweep submits reads as slots free up, not in batches",
	  .hint = "iosweep keeps 'iodepth' reads in flight and submits as slots free up; it has "
		"no batch setting" IMPORT },
	{ .fio = "iodepth_batch_submit", .kind = FW_UNSUPPORTED,
	  .why = "iosweep submits reads as slots free up, not in batches",
	  .hint = "iosweep keeps 'iodepth' reads in flight and submits as slots free up; it has "
		"no batch setting" IMPORT },
	{ .fio = "iodepth_low", .kind = FW_UNSUPPORTED,
	  .why = "iosweep refills the queue as soon as a read completes",
	  .hint = "iosweep refills the queue as soon as a read completes" IMPORT },
	{ .fio = "userspace_reap", .takes = FT_FLAG, .kind = FW_UNSUPPORTED,
	  .why = "iosweep reaps with io_getevents" },
	{ .fio = "nonvectored", .kind = FW_UNSUPPORTED,
	  .why = "iosweep issues plain reads" },
	{ .fio = "mem", .kind = FW_UNSUPPORTED,
	  .why = "iosweep allocates its buffers with posix_memalign" },
	{ .fio = "iomem", .kind = FW_UNSUPPORTED,
	  .why = "iosweep allocates its buffers with posix_memalign" },
	{ .fio = "mem_align", .kind = FW_UNSUPPORTED,
	  .why = "iosweep aligns its buffers to the page size" },
	{ .fio = "iomem_align", .kind = FW_UNSUPPORTED,
	  .why = "iosweep aligns its buffers to the page size" },
	{ .fio = "hugepage-size", .kind = FW_UNSUPPORTED,
	  .why = "iosweep does not use huge pages" },
	{ .fio = "lockfile", .kind = FW_UNSUPPORTED,
	  .why = "iosweep's readers take no file locks" },
	{ .fio = "exec_prerun", .kind = FW_UNSUPPORTED,
	  .why = "iosweep runs no commands" },
	{ .fio = "exec_postrun", .kind = FW_UNSUPPORTED,
	  .why = "iosweep runs no commands" },
};

/* fio's engines that iosweep translates, and what each becomes */
static const char *const engines[][2] = {
	{ "psync", "sync" }, { "sync", "sync" }, { "pvsync", "sync" }, { "pvsync2", "psync2" },
	{ "libaio", "aio" }, { "io_uring", "uring" }, { "mmap", "mmap" },
};

/* fio's file engines (fio 3.33 engines/filecreate.c, filestat.c,
 * filedelete.c) and its directory engines (fio 3.34 and later,
 * engines/fileoperations.c): each does one call a file or directory,
 * which a tree's phase does */
static const char *const file_engines[][2] = {
	{ "filecreate", "create" }, { "filestat", "stat" }, { "filedelete", "unlink" },
	{ "dircreate", "mkdir" },   { "dirstat", "statdir" },   { "dirdelete", "rmdir" },
};

/* fio's rw words (fio 3.33 options.c) */
static const struct fio_rw rws[] = {
	{ "read", OP_READ, false }, { "randread", OP_READ, true },
	{ "write", OP_WRITE, false }, { "randwrite", OP_WRITE, true },
	{ "rw", OP_READWRITE, false }, { "readwrite", OP_READWRITE, false },
	{ "randrw", OP_READWRITE, true },
	{ "trim", OP_TRIM, false }, { "randtrim", OP_TRIM, true },
	{ "trimwrite", OP_TRIMWRITE, false }, { "randtrimwrite", OP_TRIMWRITE, true },
};

/* The value of iosweep's `op` for an op_kind (the option's values, in its order). */
static const char *const op_words[] = { [OP_READ] = "read", [OP_WRITE] = "write",
					[OP_READWRITE] = "readwrite", [OP_TRIM] = "trim",
					[OP_TRIMWRITE] = "trimwrite" };

const char *fio_op_word(enum op_kind op)
{
	return op_words[op];
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const struct fio_word *fio_word_find(const char *name)
{
	for (size_t i = 0; i < COUNT(words); i++)
		if (strcasecmp(words[i].fio, name) == 0)
			return &words[i];
	return NULL;
}

const struct fio_word *fio_word_at(size_t i)
{
	return i < COUNT(words) ? &words[i] : NULL;
}

/* "engine: psync, sync, pvsync: sync; pvsync2: psync2; ...": the engine
 * table's rows, those of one iosweep engine together. */
static void engines_said(char *buf, size_t n)
{
	size_t used = (size_t)snprintf(buf, n, "engine: ");

	for (size_t i = 0; i < COUNT(engines) && used < n; i++) {
		bool last = i + 1 == COUNT(engines) || strcmp(engines[i + 1][1], engines[i][1]) != 0;

		used += (size_t)snprintf(buf + used, n - used, "%s%s", engines[i][0],
					 last ? ": " : ", ");
		if (last && used < n)
			used += (size_t)snprintf(buf + used, n - used, "%s; ", engines[i][1]);
	}
	for (size_t i = 0; i < COUNT(file_engines) && used < n; i++)
		used += (size_t)snprintf(buf + used, n - used, "%s: tree, op = %s; ",
					 file_engines[i][0], file_engines[i][1]);
	if (used < n)
		snprintf(buf + used, n - used, "others refused");
}

const char *fio_word_says(const struct fio_word *w, char *buf, size_t n)
{
	static const char *const scopes[] = {
		[FW_ANY_JOB] = "", [FW_WRITE_JOBS] = " (write jobs; noted in the others)",
		[FW_MIXED_JOBS] = " (mixed jobs; noted in the others)",
	};

	switch (w->kind) {
	case FW_TRANSLATE:
		if (w->handler == FH_IOENGINE)
			engines_said(buf, n);
		else if (w->handler == FH_KNOB)
			snprintf(buf, n, "%s, for the engines that take it; refused for others",
				 w->to);
		else
			snprintf(buf, n, "%s%s", w->becomes ? w->becomes : "", scopes[w->scope]);
		break;
	case FW_IRRELEVANT:
		snprintf(buf, n, "ignored, noted: %s", w->why);
		break;
	case FW_UNSUPPORTED:
		snprintf(buf, n, "not supported, noted: %s", w->why);
		break;
	case FW_OFF_ONLY:
		snprintf(buf, n, "refused unless 0: %s", w->why);
		break;
	}
	return buf;
}

const char *fio_engine_to(const char *fio_engine)
{
	for (size_t i = 0; i < COUNT(engines); i++)
		if (strcmp(engines[i][0], fio_engine) == 0)
			return engines[i][1];
	return NULL;
}

const char *fio_engine_at(size_t i, const char **to)
{
	if (i >= COUNT(engines))
		return NULL;
	*to = engines[i][1];
	return engines[i][0];
}

const char *fio_file_engine_to(const char *fio_engine)
{
	for (size_t i = 0; i < COUNT(file_engines); i++)
		if (strcmp(file_engines[i][0], fio_engine) == 0)
			return file_engines[i][1];
	return NULL;
}

const struct fio_rw *fio_rw_find(const char *word)
{
	for (size_t i = 0; i < COUNT(rws); i++)
		if (strcmp(rws[i].fio, word) == 0)
			return &rws[i];
	return NULL;
}

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
	const struct fio_word *w = fio_word_find(name);

	if (w && strcmp(w->fio, "ioengine") == 0)
		return engine_hint();
	return w ? w->hint : NULL;
}

const char *fio_hint_value(const char *option, const char *value)
{
	static __thread char hint[200];
	const struct fio_rw *rw = fio_rw_find(value);
	const char *to;

	if (strcmp(option, "engine") == 0) {
		for (size_t i = 0; i < COUNT(engines); i++)
			if (strcasecmp(engines[i][0], value) == 0 &&
			    strcmp(engines[i][0], engines[i][1]) != 0) {
				to = engines[i][1];
				snprintf(hint, sizeof(hint), "fio's %s is '%s' here", engines[i][0],
					 to);
				return hint;
			}
		return NULL;
	}
	if ((strcmp(option, "pattern") != 0 && strcmp(option, "op") != 0) || !rw)
		return NULL;
	if (rw->op == OP_READ)
		snprintf(hint, sizeof(hint), "fio's rw=%s is '%s' here", rw->fio,
			 rw->random ? "random" : "sequential");
	else
		snprintf(hint, sizeof(hint), "fio's rw=%s is 'op = %s' with 'pattern = %s' here",
			 rw->fio, op_words[rw->op],
			 rw->random ? "random" : "sequential");
	return hint;
}
