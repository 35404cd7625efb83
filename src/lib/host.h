/*
 * host.h - a description of the machine and of the file's storage, recorded
 * in every result so that it can be understood and compared later.
 */
#ifndef IOSWEEP_HOST_H
#define IOSWEEP_HOST_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * A new JSON object:
 * {"hostname", "kernel" (uname -sr), "machine" (uname -m), "cpu_model", "cpus",
 *  "memory_bytes",
 *  "virtualization": {"cpu_hypervisor_flag" (/proc/cpuinfo), "hypervisor" (CPUID
 *                     signature), "sys_hypervisor_type" (/sys/hypervisor/type),
 *                     "detect_virt" (systemd-detect-virt --vm, if installed),
 *                     "virtio_balloon": null or {"features", "free_page_reporting"}},
 *  "transparent_hugepage", "transparent_hugepage_defrag", "cpu_governor",
 *  "filesystem": {"path", "type", "mountpoint", "mount_options",
 *                                 "super_options", "source"},
 *  "device": {"name", "model", "serial", "size_bytes", "scheduler", "read_ahead_kb",
 *             "logical_block_size", "rotational"}}
 * for the file `path` (which exists).  A figure that cannot be read is null;
 * "device" is null when the file is on no block device (tmpfs, overlay...).
 * "mount_options" are the per-mount ones, "super_options" those of the file
 * system (both from /proc/self/mountinfo); "device" is the whole disk, also
 * for a file on a partition; "serial" is its serial number or WWID;
 * "size_bytes" its size (BLKGETSIZE64 when path is the disk's own node,
 * else from sysfs); "rotational" is true or false.  Returns NULL
 * only when out of memory.
 */
json_t *host_describe(const char *path);

/* Whether a virtio balloon feature string (sysfs: bit 0 first) has
 * VIRTIO_BALLOON_F_REPORTING: pages the guest frees go back to the host. */
bool host_balloon_reports_free_pages(const char *features);
/* Whether this machine's balloon reports free pages (read once).  Then a
 * cold buffered read or write re-faults memory from the host (the pages it
 * reads into or writes): its figures measure host memory as well as the
 * disk. */
bool host_returns_freed_pages(void);

/* The memory this process may still take: the smaller of MemAvailable and
 * the room under its cgroup's limits (v2 memory.max, v1
 * memory.limit_in_bytes, the cgroup's ancestors included), read below root
 * ("" for the machine itself; a directory tree for tests); *what says which
 * bound it is.  UINT64_MAX when nothing says. */
uint64_t host_memory_available(const char *root, const char **what);

#endif
