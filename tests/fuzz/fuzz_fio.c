/*
 * fuzz_fio.c - libFuzzer target for `iosweep import`'s reading of fio job
 * files.
 *
 * The input is a fio job file, written to job.fio in a directory of its own
 * (so that `include` lines find what the corpus puts next to it, or
 * nothing): it is read (fio_read_file), translated (import_translate),
 * merged (import_merge) and written out as an iosweep job file to
 * /dev/null, then everything is freed.  Refusals are the expected outcome;
 * crashes, sanitizer reports, leaks and slow inputs are the bugs.  Built and
 * run by tests/fuzz/run.sh (make fuzz).
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/error.h"
#include "fio/fio.h"
#include "fio/fio_import.h"
#include "fuzz_file.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_file_init("fio", "job.fio");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fio_input in = { 0 };
	struct import im = { 0 };
	char err[ERR_MAX];

	fuzz_file_write(data, size);
	if (fio_read_file(&in, fuzz_path, err) == 0 && import_translate(&in, &im, err) == 0 &&
	    import_merge(&im, err) == 0)
		(void)import_write(&im, "fuzz", fuzz_sink, err);
	import_free(&im);
	fio_input_free(&in);
	return 0;
}
