/*
 * fuzz_result.c - libFuzzer target for the result files `compare` and
 * `plot` read: iosweep's JSON (run -o json) and fio's JSON
 * (--output-format=json), told apart by resultfile_load.
 *
 * The input is written to result.json in a directory of its own and read
 * back (resultfile_load); when it loads, the helpers plot and compare use
 * to label runs (keys, distinct values, labels, figure values) are run on
 * it, and `iosweep compare` compares it with itself (table, JSON and CSV to
 * /dev/null), which takes every run through the statistics.  Refusals are
 * the expected outcome; crashes, sanitizer reports, leaks and slow inputs
 * are the bugs.  Built and run by tests/fuzz/run.sh (make fuzz).
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/error.h"
#include "cli/cli.h"
#include "report/figures.h"
#include "results/resultfile.h"
#include "fuzz_file.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_file_init("result", "result.json");
	/* compare prints its answer, and its complaints through stderr (swapped
	 * for fuzz_sink around the call: the sanitizers' reports go to descriptor 2) */
	if (!freopen("/dev/null", "w", stdout))
		abort();
	return 0;
}

static void labels(struct resultfile *rf)
{
	const char *keys[64];
	struct runset set;
	size_t nkeys;
	char buf[1024];

	if (runset_init(&set, rf->runs, rf->nruns, true) < 0)
		return;
	nkeys = resultfile_keys(&set, keys, 64);
	nkeys = resultfile_independent(&set, keys, nkeys);
	for (size_t k = 0; k < nkeys; k++) {
		(void)resultfile_distinct(&set, keys[k]);
		(void)resultfile_varies(&set, keys[k], "job");
	}
	for (size_t i = 0; i < rf->nruns; i++) {
		resultfile_label(&set, i, i % 2, keys, nkeys, buf, sizeof(buf));
		for (size_t k = 0; k < nkeys; k++)
			resultfile_param_text(keys[k], resultfile_param(rf->runs[i], keys[k]), buf,
					      sizeof(buf));
		for (size_t fi = 0; fi < figure_count; fi++) {
			size_t n;

			free(resultfile_values(rf->runs[i], &figure_table[fi], &n));
		}
	}
	runset_free(&set);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const formats[] = { "table", "json", "csv" };
	const struct figure *every[64];
	struct resultfile rf;
	char err[ERR_MAX], format[16];

	fuzz_file_write(data, size);
	for (size_t i = 0; i < figure_count && i < 64; i++)
		every[i] = &figure_table[i];
	if (resultfile_load(&rf, fuzz_path, every, figure_count < 64 ? figure_count : 64,
			    RESULTFILE_SERIES, err) < 0)
		return 0;
	labels(&rf);
	resultfile_free(&rf);
	snprintf(format, sizeof(format), "%s", formats[size % 3]);
	{
		char *argv[] = { "compare", "-o", format, fuzz_path, fuzz_path, NULL };

		FILE *saved = stderr;

		stderr = fuzz_sink;
		(void)cmd_compare(5, argv);
		stderr = saved;
	}
	return 0;
}
