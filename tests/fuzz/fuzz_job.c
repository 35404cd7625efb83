/*
 * fuzz_job.c - libFuzzer target for the job-file front end.
 *
 * The input is a job file: it is parsed (jobfile_parse), one `--set` is
 * applied, and the plan is expanded (plan_expand, which stats the files the
 * jobs name), then everything is freed.  The --set is the text after a line
 * "--set " when the input has one (the fuzzer finds it in job.dict),
 * otherwise one of a few fixed overrides chosen by the input's length, so
 * that overrides meet every kind of job file.  Errors are the expected
 * outcome; crashes, sanitizer reports, leaks and slow inputs are the bugs.
 * Built and run by tests/fuzz/run.sh (make fuzz).
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/error.h"
#include "job/job.h"
#include "job/plan.h"

static const char *const fixed_sets[] = {
	"repeat=1", "bs=4k,64k", "size=1m", "engine=sync,uring", "spacing=${IOSWEEP_FUZZ:-8k}",
	"baseline=a", "filename=/nonexistent/iosweep-fuzz.dat", "cache=direct",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data, *set = NULL;
	const char *mark = memmem(text, size, "\n--set ", 7);
	char *kv = NULL, err[ERR_MAX];
	struct jobfile jf;
	struct plan plan;

	if (mark) {
		const char *start = mark + 7, *end = memchr(start, '\n', size - (size_t)(start - text));

		kv = strndup(start, (size_t)((end ? end : text + size) - start));
		if (!kv)
			return 0;
		set = kv;
		size = (size_t)(mark - text) + 1;
	} else {
		set = fixed_sets[size % (sizeof(fixed_sets) / sizeof(fixed_sets[0]))];
	}
	if (jobfile_parse(&jf, "fuzz.ini", text, size, err) == 0 &&
	    jobfile_set(&jf, set, err) == 0 && plan_expand(&plan, &jf, PLAN_ALONE, err) == 0)
		plan_free(&plan);
	jobfile_free(&jf);
	free(kv);
	return 0;
}
