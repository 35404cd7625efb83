/*
 * host.h - a description of the machine and of the file's storage, recorded
 * in every result so that it can be understood and compared later.
 */
#ifndef IOSWEEP_HOST_H
#define IOSWEEP_HOST_H

#include <jansson.h>

/*
 * A new JSON object:
 * {"hostname", "kernel" (uname -sr), "machine" (uname -m), "cpu_model", "cpus",
 *  "memory_bytes", "filesystem": {"path", "type", "mountpoint", "mount_options",
 *                                 "super_options", "source"},
 *  "device": {"name", "model", "scheduler", "read_ahead_kb", "logical_block_size",
 *             "rotational"}}
 * for the file `path` (which exists).  A figure that cannot be read is null;
 * "device" is null when the file is on no block device (tmpfs, overlay...).
 * "mount_options" are the per-mount ones, "super_options" those of the file
 * system (both from /proc/self/mountinfo); "device" is the whole disk, also
 * for a file on a partition; "rotational" is true or false.  Returns NULL
 * only when out of memory.
 */
json_t *host_describe(const char *path);

#endif
