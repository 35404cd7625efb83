/*
 * devstat.h - what the block device under a run's file did: its stat
 * file(s) in sysfs, read and differenced.
 *
 * The device is found once per run from the file's descriptor (st_dev of a
 * file, st_rdev of a device node: /sys/dev/block/MAJ:MIN; a partition has
 * a stat file of its own) and, through device-mapper and md, followed down
 * to the devices with no slaves, whose counters are summed: what reached
 * the hardware.  The stat files stay open; a sample is one pread of each
 * (the kernel formats them afresh at offset 0), taken by the runner at
 * repeat boundaries, never in the per-I/O path.  A sample that cannot be
 * parsed, or a difference in which a counter went backwards (a device
 * reset, a device that went away), gives no figure rather than a wrong
 * one.
 */
#ifndef IOSWEEP_DEVSTAT_H
#define IOSWEEP_DEVSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The fields of a stat file, in their order (the kernel's
 * Documentation/block/stat.rst); the first 11 are in every kernel since
 * 2.6, the discard fields since 4.18, the flush fields since 5.5. */
enum devstat_field {
	DS_READ_IOS, DS_READ_MERGES, DS_READ_SECTORS, DS_READ_TICKS,
	DS_WRITE_IOS, DS_WRITE_MERGES, DS_WRITE_SECTORS, DS_WRITE_TICKS,
	DS_IN_FLIGHT, DS_IO_TICKS, DS_TIME_IN_QUEUE,
	DS_DISCARD_IOS, DS_DISCARD_MERGES, DS_DISCARD_SECTORS, DS_DISCARD_TICKS,
	DS_FLUSH_IOS, DS_FLUSH_TICKS,
	DS__COUNT
};

#define DEVSTAT_MIN_FIELDS 11
/* Devices summed at most (the leaves of a dm/md stack). */
#define DEVSTAT_MAX_DEVS 16

struct devstat_sample {
	uint64_t v[DS__COUNT];
	unsigned n;          /* fields present (the fewest of the devices) */
};

struct devstat {
	unsigned n;                    /* stat files sampled; 0: none (why says why) */
	int fd[DEVSTAT_MAX_DEVS];
	uint64_t readahead_bytes;      /* read-ahead of the device the file's pages come from */
	char name[128];                /* "loop0", "vdb+vdc" (dm/md: the leaves) */
	char why[160];                 /* n == 0: why there is nothing to sample */
};

/* What the device did between two samples. */
struct devstat_delta {
	uint64_t ios[2], merges[2], bytes[2]; /* [0] reads, [1] writes */
	uint64_t ticks_ms[2];                 /* time the reads, the writes waited and ran */
	uint64_t busy_ms;                     /* io_ticks: time with I/O in flight */
	uint64_t queue_ms;                    /* time_in_queue: the sum over the I/Os */
};

/* Finds the block device(s) under the file open as fd and opens their stat
 * files.  Never fails: d->n == 0 and d->why set when there is none (tmpfs,
 * overlay, a network file system) or it cannot be read.  devstat_close()
 * is due either way. */
void devstat_open(struct devstat *d, int fd);
void devstat_close(struct devstat *d);

/* Parses one stat file's text into s: -1 for fewer than DEVSTAT_MIN_FIELDS
 * numbers, a field that is not a plain decimal number below 2^64, or
 * anything else on the line. */
int devstat_parse(const char *text, struct devstat_sample *s);

/* Samples every stat file of d into s (their sum): 0, or -1 when one could
 * not be read or parsed, or a sum overflows. */
int devstat_sample(const struct devstat *d, struct devstat_sample *s);

/* b - a into out: 0, or -1 when a counter went backwards or a byte count
 * does not fit 64 bits (no figure is better than a wrong one). */
int devstat_diff(const struct devstat_sample *a, const struct devstat_sample *b,
		 struct devstat_delta *out);

/* The device I/O a run cannot explain, DEVSTAT_SLACK_BYTES allowed for
 * metadata, journal commits and atime updates:
 *   reads   beyond the run's own read bytes, plus for reads through the
 *           page cache read-ahead of readahead_bytes per read; a device
 *           reading less than the run read is the page cache at work, and
 *           never counted;
 *   writes  beyond twice the run's write bytes (a journal that writes data
 *           twice, or what the repeat before left to write back).
 * excess[0], excess[1]: the bytes read, written beyond that bound, or 0. */
#define DEVSTAT_SLACK_BYTES (1ULL << 20)
void devstat_excess(const struct devstat_delta *d, const uint64_t app_bytes[2],
		    uint64_t app_reads, bool buffered, uint64_t readahead_bytes, uint64_t excess[2]);

#endif
