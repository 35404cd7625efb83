/*
 * record.h - `iosweep record`: run a program under the I/O interposer
 * (record_preload.c, libiosweep-record.so) and write what it did as a fio
 * version 3 iolog, which fio's read_iolog replays, with what an iolog cannot
 * hold beside it in TRACE.meta.json.
 *
 * The interposer writes one file per thread while the program runs; after
 * it ends they are merged by time, streamed (memory grows with the threads
 * and files, not with the I/Os), into the two outputs, each replaced
 * atomically (lib/output.h).
 */
#ifndef IOSWEEP_RECORD_H
#define IOSWEEP_RECORD_H

#include <stdbool.h>

#include "lib/output.h"

struct record_opts {
	char **argv;            /* the command, NULL-terminated */
	const char *preload;    /* the interposer library's path */
	bool anonymize;         /* file names -> stable ids (hash of dev:ino) */
	struct output *trace;   /* checked by the caller */
	struct output *meta;
	void (*note)(const char *text); /* each note, once (the caller prints it) */
};

struct record_summary {
	int exit_status;         /* the command's, as a shell gives it (128 + signal) */
	int signal;              /* what ended it, 0 for none */
	unsigned long long ios, reads, writes, syncs, read_bytes, write_bytes;
	unsigned long long files, threads, processes;
	unsigned long long notes;
	bool followed;           /* the interposer ran in the command */
	bool started;            /* the command ran (else exit_status: 127 not found, 126
				    not executable, as a shell says) */
};

/* The name of the interposer beside a binary at dir (make), or under
 * PREFIX/lib/iosweep (make install): tried in that order by the caller. */
#define RECORD_PRELOAD_NAME "libiosweep-record.so"

/* Runs the command, records it, writes both outputs; 0 (the command's own
 * status is in s), or -1 with why in err when the recording itself failed
 * (the command could not be started, an output could not be written).
 * Notes (mmap'ed files, stdio streams, a command not followed) go to
 * o->note, once each, and are kept in the meta file. */
int record_run(const struct record_opts *o, struct record_summary *s, char *err);

#endif
