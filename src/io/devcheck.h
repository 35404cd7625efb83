/*
 * devcheck.h - whether a block device may be written: nothing on it can be
 * destroyed unawares.
 *
 * A device is refused for writing when it (or any partition of it, or the
 * whole disk of a partition) is mounted or active swap, when it or a
 * partition has holders (device-mapper, md, LVM, bcache), when it is the
 * disk under the root file system (through partitions and dm/md slaves),
 * when it is read-only, when another process holds it open exclusively, or
 * when it carries a file-system, RAID, LVM or partition-table signature
 * (libblkid) other than the one the job names as the one it may destroy.
 * The consent to write the device at all (allow_write) is wtarget.c's.
 */
#ifndef IOSWEEP_DEVCHECK_H
#define IOSWEEP_DEVCHECK_H

/* Checks the block device node (a resolved /dev name) for writing; sig is
 * the signature the job may destroy (allow_overwrite_signature) or NULL.
 * On success, a read-only descriptor of it opened O_EXCL: while it is open
 * nobody else can mount it or claim it (a descriptor for the writes is
 * opened through it, devcheck_reopen).  -1 with err: the device, the reason,
 * and what would make it safe. */
int devcheck_claim(const char *node, const char *sig, char *err);

/* A descriptor for writing (O_RDWR | flags) of the device claimed by
 * claim_fd, or -1 with err. */
int devcheck_reopen(int claim_fd, const char *node, int flags, char *err);

#endif
