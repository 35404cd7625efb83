/*
 * fuzz_file.h - for the fuzzers whose code under test reads a file by
 * name (fuzz_fio, fuzz_result): a directory of their own, made once, and
 * each input written to one file in it; and a sink, /dev/null, for what
 * that code prints.
 *
 * The directory is /tmp/iosweep-fuzz-NAME.XXXXXX, which tests/fuzz/run.sh
 * removes afterwards.  Anything that cannot be set up aborts: the fuzzer
 * would otherwise test nothing, quietly.
 */
#ifndef IOSWEEP_FUZZ_FILE_H
#define IOSWEEP_FUZZ_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static char fuzz_path[4096];
static FILE *fuzz_sink;

/* Makes the directory for fuzzer NAME, names its input file FILE in it
 * (fuzz_path) and opens fuzz_sink. */
static inline void fuzz_file_init(const char *name, const char *file)
{
	char dir[128];

	snprintf(dir, sizeof(dir), "/tmp/iosweep-fuzz-%s.XXXXXX", name);
	if (!mkdtemp(dir))
		abort();
	snprintf(fuzz_path, sizeof(fuzz_path), "%s/%s", dir, file);
	fuzz_sink = fopen("/dev/null", "w");
	if (!fuzz_sink)
		abort();
}

/* Writes the input to fuzz_path, in place of the one before. */
static inline void fuzz_file_write(const uint8_t *data, size_t size)
{
	FILE *f = fopen(fuzz_path, "w");

	if (!f)
		abort();
	if (fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
}

#endif
