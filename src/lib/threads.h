/*
 * threads.h - what every thread of iosweep but the main one does first.
 */
#ifndef IOSWEEP_THREADS_H
#define IOSWEEP_THREADS_H

#include <stddef.h>

/* Gives the calling thread a table of file descriptors of its own (a copy
 * of the process's: the descriptors open now, no later ones).  While a
 * table is shared by threads, the kernel takes and drops a reference to the
 * file on every system call that uses a descriptor, which cost about 8% of
 * a cached 4 KiB pread here; so every thread of iosweep but the main one
 * calls this first (fio runs its jobs as processes, for the same reason).
 * Harmless when it fails: then only slower.
 *
 * A thread that lives longer than a repeat (the stdout watcher, the
 * progress line) names the descriptors it uses, keep[0..n), and every
 * other one is closed in its copy: else the copy would
 * hold whatever the main thread had open at that moment, for as long as
 * the thread lives, such as the write end of the pipe from a command the
 * main thread is reading (it then never sees the end of it: a hang, seen
 * with systemd-detect-virt).  keep NULL: keep all (a worker, which lives
 * for one repeat, while the main thread waits for it). */
void thread_own_files(const int *keep, size_t n);

#endif
