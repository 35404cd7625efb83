/*
 * fio_names.c - see fio_names.h.  The lists are fio 3.33's own: the names
 * of options.c's fio_options[] in its order (fio's "Did you mean" takes
 * the first nearest in that order), then their aliases and the options of
 * fio's engines and profiles (the files of engines/ and profiles/), which
 * fio takes only with that engine or profile.
 */
#define _GNU_SOURCE
#include "fio/fio_names.h"

#include <stdlib.h>
#include <string.h>

static const char *const options[] = {
	"description", "name", "wait_for", "filename", "directory", "filename_format",
	"unique_filename", "lockfile", "opendir", "rw", "rw_sequencer", "ioengine", "iodepth",
	"iodepth_batch", "iodepth_batch_complete_min", "iodepth_batch_complete_max", "iodepth_low",
	"serialize_overlap", "io_submit_mode", "size", "io_size", "fill_device", "filesize",
	"file_append", "offset", "offset_align", "offset_increment", "number_ios", "bs", "ba",
	"bsrange", "bssplit", "bs_unaligned", "bs_is_seq_rand", "randrepeat", "randseed",
	"norandommap", "softrandommap", "random_generator", "random_distribution",
	"percentage_random", "percentage_sequential", "allrandrepeat", "nrfiles", "openfiles",
	"file_service_type", "fallocate", "fadvise_hint", "fsync", "fdatasync", "write_barrier",
	"sync_file_range", "direct", "atomic", "buffered", "overwrite", "loops", "numjobs",
	"startdelay", "runtime", "time_based", "verify_only", "ramp_time", "clocksource", "mem",
	"iomem_align", "verify", "do_verify", "verifysort", "verifysort_nr", "verify_interval",
	"verify_offset", "verify_pattern", "verify_fatal", "verify_dump", "verify_async",
	"verify_backlog", "verify_backlog_batch", "verify_async_cpus", "experimental_verify",
	"verify_state_load", "verify_state_save", "trim_percentage", "trim_verify_zero",
	"trim_backlog", "trim_backlog_batch", "write_iolog", "read_iolog", "read_iolog_chunked",
	"replay_no_stall", "replay_redirect", "replay_scale", "replay_align", "replay_time_scale",
	"replay_skip", "merge_blktrace_file", "merge_blktrace_scalars", "merge_blktrace_iters",
	"exec_prerun", "exec_postrun", "ioscheduler", "zonemode", "zonesize", "zonecapacity",
	"zonerange", "zoneskip", "read_beyond_wp", "max_open_zones", "job_max_open_zones",
	"ignore_zone_limits", "zone_reset_threshold", "zone_reset_frequency", "lockmem",
	"rwmixread", "rwmixwrite", "rwmixcycle", "nice", "prio", "prioclass", "thinktime",
	"thinktime_spin", "thinktime_blocks", "thinktime_blocks_type", "thinktime_iotime", "rate",
	"rate_min", "rate_iops", "rate_iops_min", "rate_process", "rate_cycle",
	"rate_ignore_thinktime", "max_latency", "latency_target", "latency_window",
	"latency_percentile", "latency_run", "invalidate", "sync", "write_hint",
	"create_serialize", "create_fsync", "create_on_open", "create_only", "allow_file_create",
	"allow_mounted_write", "pre_read", "cpumask", "cpus_allowed", "cpus_allowed_policy",
	"numa_cpu_nodes", "numa_mem_policy", "gpu_dev_id", "end_fsync", "fsync_on_close", "unlink",
	"unlink_each_loop", "exitall", "exit_what", "exitall_on_error", "stonewall", "new_group",
	"thread", "per_job_logs", "write_bw_log", "write_lat_log", "write_iops_log", "log_entries",
	"log_avg_msec", "log_hist_msec", "log_hist_coarseness", "write_hist_log", "log_max_value",
	"log_offset", "log_prio", "log_compression", "log_compression_cpus",
	"log_store_compressed", "log_unix_epoch", "log_alternate_epoch",
	"log_alternate_epoch_clock_id", "block_error_percentiles", "bwavgtime", "iopsavgtime",
	"group_reporting", "stats", "zero_buffers", "refill_buffers", "scramble_buffers",
	"buffer_pattern", "buffer_compress_percentage", "buffer_compress_chunk",
	"dedupe_percentage", "dedupe_global", "dedupe_mode", "dedupe_working_set_percentage",
	"clat_percentiles", "lat_percentiles", "slat_percentiles", "percentile_list",
	"significant_figures", "disk_util", "gtod_reduce", "disable_lat", "disable_clat",
	"disable_slat", "disable_bw_measurement", "gtod_cpu", "unified_rw_reporting",
	"continue_on_error", "ignore_error", "error_dump", "profile", "cgroup", "cgroup_nodelete",
	"cgroup_weight", "uid", "gid", "kb_base", "unit_base", "hugepage-size", "flow_id", "flow",
	"flow_watermark", "flow_sleep", "steadystate", "steadystate_duration",
	"steadystate_ramp_time"
};

static const char *const others[] = {
	"act", "arguments", "bindname", "block", "blockalign", "blocksize", "blocksize_range",
	"blocksize_unaligned", "brick", "busy_poll", "busy_wait_polling", "chunck_size",
	"chunk_size", "clientname", "clustername", "cmd_type", "cmdprio", "cmdprio_bssplit",
	"cmdprio_class", "cmdprio_percentage", "conf", "cont", "cpuchunks", "cpuio", "cpuload",
	"cpumode", "cuda_io", "device-names", "dfs", "dir", "direct_write_to_pmem", "disable_bw",
	"donorname", "dummy", "e4defrag", "engine_name", "exec", "exit_on_io_done", "filecreate",
	"filedelete", "fileoffset", "filestat", "fill_fs", "fixedbufs", "force_async",
	"gpu_dev_ids", "grace_time", "hdfs_use_direct", "hdfsdirectory", "hipri",
	"hipri_percentage", "hostname", "http", "http_host", "http_mode", "http_pass",
	"http_s3_key", "http_s3_keyid", "http_s3_region", "http_s3_sse_customer_algorithm",
	"http_s3_sse_customer_key", "http_s3_storage_class", "http_swift_auth_token", "http_user",
	"http_verbose", "https", "initiator", "inplace", "interface", "io_limit", "io_uring",
	"io_uring_cmd", "iodepth_batch_complete", "iodepth_batch_submit", "iomem",
	"large-block-op-kbytes", "libaio", "libcufile", "libhdfs", "libiscsi", "listen", "load",
	"mem_align", "mmap", "mss", "mtd", "namenode", "nbd", "net", "netsplice", "nfs", "nfs_url",
	"no_completion_thread", "nodelay", "nonvectored", "nowait", "nr_files", "numruns",
	"object_class", "pingpong", "pool", "port", "prep", "program", "proto", "protocol",
	"psync", "pvsync", "pvsync2", "rados", "ratecycle", "ratemin", "rbd", "rbdname", "rdma",
	"read-req-num-512-blocks", "readfua", "readwrite", "registerfiles", "serverip", "sg",
	"sg_write_mode", "single-instance", "single_instance", "skip_bad", "sqthread_poll",
	"sqthread_poll_cpu", "ss", "ss_dur", "ss_ramp", "stat_type", "std_redirect", "stream_id",
	"svcl", "test-duration", "thp", "threads", "threads-per-queue", "timeout", "tiobench",
	"touch_objects", "ttl", "uncached", "uri", "userspace_reap", "verb", "volume", "vsync",
	"wait_for_previous", "window_size", "windowsaio", "writefua", "xnvme", "xnvme_admin",
	"xnvme_async", "xnvme_be", "xnvme_dev_nsid", "xnvme_iovec", "xnvme_sync"
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

bool fio_name_known(const char *name)
{
	for (size_t i = 0; i < COUNT(options); i++)
		if (strcmp(options[i], name) == 0) /* fio matches names as written */
			return true;
	for (size_t i = 0; i < COUNT(others); i++)
		if (strcmp(others[i], name) == 0)
			return true;
	return false;
}

/* Levenshtein's distance, as fio's string_distance (parse.c). */
static size_t distance(const char *a, const char *b)
{
	size_t nb = strlen(b), *rows = calloc(2 * (nb + 1), sizeof(*rows)), *p, *q, *t, d;

	if (!rows)
		return (size_t)-1;
	p = rows;
	q = rows + nb + 1;
	for (size_t j = 0; j <= nb; j++)
		p[j] = j;
	for (size_t i = 1; a[i - 1]; i++) {
		q[0] = i;
		for (size_t j = 1; j <= nb; j++) {
			size_t sub = p[j - 1] + (a[i - 1] != b[j - 1]);
			size_t del = p[j] + 1, ins = q[j - 1] + 1;

			q[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
		t = p;
		p = q;
		q = t;
	}
	d = p[nb];
	free(rows);
	return d;
}

const char *fio_name_nearest(const char *name)
{
	size_t best = (size_t)-1, at = 0;

	for (size_t i = 0; i < COUNT(options); i++) {
		size_t d = distance(name, options[i]);

		if (d < best) {
			best = d;
			at = i;
		}
	}
	/* fio's string_distance_ok: within half the name's length */
	return best <= (strlen(name) + 1) / 2 ? options[at] : NULL;
}
