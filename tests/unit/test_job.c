/* Job files -> jobs -> plan: lists, [global], ${VAR}, --set, --job, errors. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "lib/error.h"
#include "job/job.h"
#include "job/plan.h"
#include "testutil.h"

static char err[ERR_MAX];

static int parse(struct jobfile *jf, const char *text)
{
	return jobfile_parse(jf, "t.ini", text, strlen(text), err);
}

/* The text fails with a message that contains `where` and `what`. */
static void fails(const char *text, const char *where, const char *what)
{
	struct jobfile jf;
	struct plan plan;
	int rc = parse(&jf, text);

	if (rc == 0) {
		rc = plan_expand(&plan, &jf, PLAN_ALONE, err);
		if (rc == 0)
			plan_free(&plan);
	}
	jobfile_free(&jf);
	if (rc == 0)
		fail_msg("accepted: %s", text);
	if (!strstr(err, where) || !strstr(err, what))
		fail_msg("for %s\nexpected '%s' and '%s' in: %s", text, where, what, err);
}

static void expand(struct jobfile *jf, struct plan *plan, const char *text)
{
	if (parse(jf, text) < 0 || plan_expand(plan, jf, PLAN_ALONE, err) < 0)
		fail_msg("%s", err);
}

static void test_lists_multiply_in_declaration_order(void **state)
{
	struct jobfile jf;
	struct plan p;

	(void)state;
	expand(&jf, &p, "[a]\nsize=1m\nspacing = 16k, 64k, 1m\nbs = 4k, 8k\n");
	assert_int_equal(p.n, 6);
	/* spacing declared first: it varies slowest */
	assert_int_equal(p.runs[0].v[OPT_SPACING].u, 16384);
	assert_int_equal(p.runs[0].v[OPT_BS].u, 4096);
	assert_int_equal(p.runs[1].v[OPT_SPACING].u, 16384);
	assert_int_equal(p.runs[1].v[OPT_BS].u, 8192);
	assert_int_equal(p.runs[5].v[OPT_SPACING].u, 1048576);
	assert_int_equal(p.runs[5].v[OPT_BS].u, 8192);
	for (size_t i = 0; i < p.n; i++)
		assert_int_equal(p.runs[i].index, i);
	assert_true(p.varies[OPT_BS] && p.varies[OPT_SPACING] && !p.varies[OPT_ENGINE]);
	plan_free(&p);
	jobfile_free(&jf);
}

static void test_reads_and_bytes(void **state)
{
	struct jobfile jf;
	struct plan p;

	(void)state;
	/* 1 MiB + 100 bytes: dense reads end with a short one; sparse stop at the last whole block */
	expand(&jf, &p, "[a]\nsize=1048676\nbs=4k\nspacing=4k,64k,2m\n[r]\nsize=1m\nbs=4k\n"
			"pattern=random\ncount=1000\n[r2]\nsize=1m\nbs=4k\npattern=random,reverse\n");
	assert_int_equal(p.n, 6);
	assert_int_equal(p.runs[0].reads, 257);
	assert_int_equal(p.runs[0].bytes, 1048676);
	assert_int_equal(p.runs[1].reads, 16);
	assert_int_equal(p.runs[1].bytes, 16 * 4096);
	assert_int_equal(p.runs[2].reads, 1); /* spacing larger than the file */
	assert_int_equal(p.runs[3].reads, 1000);
	assert_int_equal(p.runs[3].bytes, 1000 * 4096);
	assert_int_equal(p.runs[4].reads, 256); /* random: as many as a dense read */
	assert_int_equal(p.runs[5].reads, 256);
	assert_int_equal(p.runs[5].v[OPT_PATTERN].u, PATTERN_REVERSE);
	plan_free(&p);
	jobfile_free(&jf);
}

static void test_global_gives_defaults_to_later_jobs(void **state)
{
	struct jobfile jf;

	(void)state;
	assert_int_equal(parse(&jf, "[global]\nsize=1m\nbs=8k\n[a]\n[global]\nbs=16k\n[b]\n"
				    "[c]\nbs=32k\n"), 0);
	assert_int_equal(jf.njobs, 3);
	assert_string_equal(jf.jobs[0].name, "a");
	assert_int_equal(jf.jobs[0].opt[OPT_BS].v[0].u, 8192);
	assert_int_equal(jf.jobs[1].opt[OPT_BS].v[0].u, 16384);
	assert_int_equal(jf.jobs[2].opt[OPT_BS].v[0].u, 32768);
	assert_int_equal(jf.jobs[2].opt[OPT_SIZE].v[0].u, 1048576);
	assert_int_equal(jf.jobs[2].opt[OPT_BS].line, 9);
	jobfile_free(&jf);
}

static void test_env_expansion(void **state)
{
	struct jobfile jf;

	(void)state;
	setenv("IOSWEEP_T_BS", "4k, 8k", 1);
	setenv("IOSWEEP_T_EMPTY", "", 1);
	unsetenv("IOSWEEP_T_UNSET");
	setenv("IOSWEEP_T_SELF", "${IOSWEEP_T_SELF}", 1);
	assert_int_equal(parse(&jf, "[a]\nsize=1m\nbs=${IOSWEEP_T_BS}\nfilename=${IOSWEEP_T_UNSET:-/v}/f\n"
				    "description=${IOSWEEP_T_EMPTY:-none} $HOME ${IOSWEEP_T_SELF}\n"),
			 0);
	assert_int_equal(jf.jobs[0].opt[OPT_BS].n, 2);
	assert_string_equal(jf.jobs[0].opt[OPT_FILENAME].v[0].s, "/v/f");
	/* not expanded twice; $ without braces is literal */
	assert_string_equal(jf.jobs[0].opt[OPT_DESCRIPTION].v[0].s,
			    "none $HOME ${IOSWEEP_T_SELF}");
	jobfile_free(&jf);
	fails("[a]\nsize=${IOSWEEP_T_UNSET}\n", "t.ini:2", "IOSWEEP_T_UNSET is not set");
	fails("[a]\nsize=${IOSWEEP_T_BS\n", "t.ini:2", "without a closing");
	fails("[a]\nsize=${}\n", "t.ini:2", "bad variable name");
	fails("[a]\nsize=${1X}\n", "t.ini:2", "bad variable name");
}

static void test_set_overrides_every_job(void **state)
{
	struct jobfile jf;
	struct plan p;

	(void)state;
	assert_int_equal(parse(&jf, "[a]\nsize=1m\nbs=4k\n[b]\nsize=2m\n"), 0);
	assert_int_equal(jobfile_set(&jf, "bs=8k,16k", err), 0);
	assert_int_equal(jobfile_set(&jf, "engine = mmap", err), 0);
	assert_int_equal(plan_expand(&p, &jf, PLAN_ALONE, err), 0);
	assert_int_equal(p.n, 4);
	assert_int_equal(p.runs[1].v[OPT_BS].u, 16384);
	assert_string_equal(option_table[OPT_ENGINE].values[p.runs[3].v[OPT_ENGINE].u], "mmap");
	plan_free(&p);
	assert_int_equal(jobfile_set(&jf, "bss=8k", err), -1);
	assert_non_null(strstr(err, "did you mean 'bs'"));
	assert_int_equal(jobfile_set(&jf, "bs", err), -1);
	assert_non_null(strstr(err, "KEY=VALUE"));
	assert_int_equal(jobfile_set(&jf, "bs=4x", err), -1);
	assert_non_null(strstr(err, "--set 'bs=4x'"));
	jobfile_free(&jf);
}

static void test_select_jobs(void **state)
{
	struct jobfile jf;
	char *names[] = { "c", "a" };
	char *bad[] = { "zz" };

	(void)state;
	assert_int_equal(parse(&jf, "[a]\nsize=1m\n[b]\nsize=1m\n[c]\nsize=1m\n"), 0);
	assert_int_equal(jobfile_select(&jf, bad, 1, err), -1);
	assert_non_null(strstr(err, "no job named 'zz'"));
	assert_int_equal(jobfile_select(&jf, names, 2, err), 0);
	assert_int_equal(jf.njobs, 2);
	assert_string_equal(jf.jobs[0].name, "a"); /* file order */
	assert_string_equal(jf.jobs[1].name, "c");
	jobfile_free(&jf);
}

static void test_values_that_do_not_apply_do_not_multiply(void **state)
{
	struct jobfile jf;
	struct plan p;

	(void)state;
	expand(&jf, &p, "[a]\nsize=1m\nengine=sync,aio,mmap,uring\niodepth=1,16\n"
			"[b]\nsize=1m\npattern=sequential,random\nspacing=4k,64k\n");
	/* sync 1, aio 2, mmap 1, uring 2; sequential 2 spacings + random 1 */
	assert_int_equal(p.n, 6 + 3);
	assert_int_equal(p.runs[0].v[OPT_IODEPTH].u, 1);
	assert_int_equal(p.runs[2].v[OPT_IODEPTH].u, 16);
	assert_int_equal(p.runs[8].v[OPT_PATTERN].u, PATTERN_RANDOM);
	for (size_t i = 0; i < p.n; i++)
		for (size_t k = i + 1; k < p.n; k++)
			assert_false(p.runs[i].job == p.runs[k].job &&
				     memcmp(p.runs[i].v + 1, p.runs[k].v + 1,
					    sizeof(p.runs[i].v) - sizeof(p.runs[i].v[0])) == 0);
	plan_free(&p);
	jobfile_free(&jf);
}

static void test_continued_lists(void **state)
{
	struct jobfile jf;

	(void)state;
	assert_int_equal(parse(&jf, "[a]\nsize=1m\nbs = 4k, 8k,\n   16k, 32k\nengine=aio\n"), 0);
	assert_int_equal(jf.jobs[0].opt[OPT_BS].n, 4);
	assert_int_equal(jf.jobs[0].opt[OPT_BS].v[3].u, 32768);
	jobfile_free(&jf);
}

static void test_crlf_and_bom(void **state)
{
	struct jobfile jf;

	(void)state;
	assert_int_equal(parse(&jf, "\xEF\xBB\xBF[a]\r\nsize = 1m\r\nbs = 4k\r\n"), 0);
	assert_string_equal(jf.jobs[0].name, "a");
	assert_int_equal(jf.jobs[0].opt[OPT_BS].v[0].u, 4096);
	jobfile_free(&jf);
}

static void test_errors_name_file_line_and_option(void **state)
{
	char longline[400];

	(void)state;
	fails("[a]\nsize=1m\nblocksize=4k\n", "t.ini:3", "unknown option 'blocksize' (did you mean 'bs'?)");
	fails("[a]\nsize=1m\nspcing=4k\n", "t.ini:3", "did you mean 'spacing'");
	fails("[a]\nsize=1m\nbs=4x\n", "t.ini:3", "bs: '4x'");
	fails("[a]\nsize=1m\nbs=99999999999t\n", "t.ini:3", "too large");
	fails("[a]\nsize=1m\nbs=0\n", "t.ini:3", "bs: '0' must be greater than zero");
	fails("[a]\nsize=1m\nrepeat=0\n", "t.ini:3", "repeat");
	fails("[a]\nsize=1m\nthreads=-2\n", "t.ini:3", "negative");
	fails("[a]\nsize=1m\nengine=posix\n", "t.ini:3", "allowed: sync, aio, mmap, uring");
	fails("[a]\nsize=1m\ncache=cold\n", "t.ini:3", "allowed: keep, warm, fadvise, drop, direct");
	fails("[a]\nsize=1m\nbs=4k,,8k\n", "t.ini:3", "empty element");
	fails("[a]\nsize=1m\nbs=4k,\n", "t.ini:3", "list ends with ','");
	fails("[a]\nsize=1m\n[b]\nsize=1m\n[a]\n", "t.ini:5", "duplicate job name 'a'");
	fails("[global]\nsize=1m\n", "t.ini:", "no jobs");
	fails("", "t.ini:", "no jobs");
	fails("[a]\nsize=1m\njust words\n", "t.ini:3", "syntax error");
	fails("[a\nsize=1m\n", "t.ini:1", "syntax error");
	memset(longline, 'x', sizeof(longline));
	memcpy(longline, "[a]\ndescription=", 16);
	strcpy(longline + 300, "\n");
	fails(longline, "t.ini:2", "longer than");
	fails("[a]\nsize=1m\nbaseline=zzz\n", "t.ini:3", "baseline 'zzz' names no job");
	fails("[a]\nsize=1m\nbs=64k\nspacing=16k\n", "t.ini:4", "spacing 16KiB is smaller than bs 64KiB");
	fails("[a]\nsize=1m\nconsume=ints\npattern=random\n", "t.ini:3", "consume=ints");
	fails("[a]\nsize=1m\nconsume=ints\nspacing=8k\n", "t.ini:3", "consume=ints");
	fails("[a]\nsize=1m\nengine=mmap\ncache=direct\n", "t.ini:4", "cache=direct cannot be used with engine=mmap");
	fails("[a]\nsize=1m\nbs=1000\ncache=direct\n", "t.ini:3", "multiples of the device's logical block size");
	fails("[a]\nsize=1m\nbs=4k\nbs=8k\n", "t.ini:4", "bs is set twice");
	fails("size=1m\n[a]\n", "t.ini:1", "outside any section");
	fails("[a]\nsize=1m\nbs=4k\n  engine=aio\n", "t.ini:4", "remove the indentation");
	fails("[a]\nsize=1m\nrepeat=1,2\n", "t.ini:3", "takes one value");
	fails("[a]\nsize=1m\nbs=4k,4096\n", "t.ini:3", "listed twice");
	fails("[a]\nbs=4k\n", "t.ini:1", "needs a size");
	fails("[a]\nsize=4k\nbs=8k\nspacing=16k\n", "t.ini:3", "larger than the file");
	fails("[a]\nsize=8k\nthreads=4\n", "t.ini:3", "threads=4");
}

/* Hardening: errors that used to be found late, slowly or not at all. */
static void test_hostile_input_fails_early_and_exactly(void **state)
{
	struct jobfile jf;

	(void)state;
	/* the first error in the file wins, even when inih goes on past it */
	fails("[a]\nsize=1m\noops\nbs=4x\n", "t.ini:3", "syntax error");
	fails("[a]\nsize=1m\nbs=4k,4k\noops\n", "t.ini:3", "listed twice");
	/* a value repeated on a continuation line is named at the option's line */
	fails("[a]\nsize=1m\nbs=4k,8k,\n  16k, 4k\nengine=aio\n", "t.ini:3", "bs: 4KiB is listed twice");
	fails("[a]\nsize=1m\nbs=\n", "t.ini:3", "bs: empty value");
	fails("[a]\nsize=1m\n= 4k\n", "t.ini:3", "'=' without an option name");
	fails("[global]\nsize=1m\nsize=2m\n[a]\n", "t.ini:3", "size is set twice in [global]");
	/* sizes and totals that would not fit in 64 bits */
	fails("[a]\nsize=1m\npattern=random\ncount=9223372036854775807\n", "t.ini:4", "more than 2^63 bytes");
	fails("[a]\nfilename=/tmp/iosweep-unit-never-made.dat\nsize=9223372036854775807\nrepeat=3\n",
	      "t.ini:4",
	      "more than 2^64 bytes in all");
	/* --set lists are checked like the file's */
	assert_int_equal(parse(&jf, "[a]\nsize=1m\n"), 0);
	assert_int_equal(jobfile_set(&jf, "bs=4k,8k,4096", err), -1);
	assert_non_null(strstr(err, "--set 'bs=4k,8k,4096': bs: 4KiB is listed twice"));
	jobfile_free(&jf);
}

static void test_nul_byte_is_found(void **state)
{
	struct jobfile jf;
	static const char text[] = "[a]\nsize=1m\nbs=4\0k\n";

	(void)state;
	assert_int_equal(jobfile_parse(&jf, "t.ini", text, sizeof(text) - 1, err), -1);
	assert_non_null(strstr(err, "t.ini:3: NUL byte"));
	jobfile_free(&jf);
}

static void test_existing_file_gives_size(void **state)
{
	char path[256], text[512];
	struct jobfile jf;
	struct plan p;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/iosweep-test-job-%d.dat", test_dir(), (int)getpid());
	f = fopen(path, "w");
	assert_non_null(f);
	for (int i = 0; i < 10000; i++)
		fputc('x', f);
	fclose(f);
	snprintf(text, sizeof(text), "[a]\nfilename=%s\nbs=1k\n", path);
	expand(&jf, &p, text);
	assert_int_equal(p.runs[0].v[OPT_SIZE].u, 10000);
	assert_int_equal(p.runs[0].reads, 10);
	assert_true(p.runs[0].exists);
	plan_free(&p);
	jobfile_free(&jf);
	snprintf(text, sizeof(text), "[a]\nfilename=%s\nsize=1m\n", path);
	fails(text, "t.ini:3", "smaller than size=1MiB");
	unlink(path);
}

/* A job file made from data plans as the same text does, and takes its
 * values as they are: no comment, no ${VAR}; bad values fail as in text. */
static void test_jobs_made_from_data(void **state)
{
	struct jobfile jf, tf;
	struct plan p, tp;
	struct job *job;

	(void)state;
	assert_int_equal(jobfile_new(&jf, "data", err), 0);
	job = jobfile_add_job(&jf, "a", 0, err);
	assert_non_null(job);
	assert_int_equal(jobfile_add_value(&jf, job, OPT_SIZE, "1m", err), 0);
	assert_int_equal(jobfile_add_value(&jf, job, OPT_BS, "4k, 64KiB", err), 0);
	assert_int_equal(jobfile_add_value(&jf, job, OPT_DESCRIPTION, "a ;b ${HOME}", err), 0);
	assert_int_equal(jobfile_complete(&jf, err), 0);
	if (plan_expand(&p, &jf, PLAN_ALONE, err) < 0)
		fail_msg("%s", err);
	expand(&tf, &tp, "[a]\nsize = 1m\nbs = 4k, 64KiB\n");
	assert_int_equal(p.n, 2);
	assert_int_equal(tp.n, 2);
	for (size_t r = 0; r < p.n; r++)
		for (int k = 0; k < OPT__COUNT; k++)
			if (k != OPT_DESCRIPTION)
				assert_true(option_value_equal(k, p.runs[r].v[k], tp.runs[r].v[k]));
	assert_string_equal(jf.jobs[0].opt[OPT_DESCRIPTION].v[0].s, "a ;b ${HOME}");
	plan_free(&p);
	plan_free(&tp);
	jobfile_free(&tf);
	/* what the parser refuses, refused the same way, naming job and option */
	assert_int_equal(jobfile_add_value(&jf, job, OPT_BS, "8k", err), -1);
	assert_non_null(strstr(err, "data: job 'a': bs is set twice"));
	assert_int_equal(jobfile_add_value(&jf, job, OPT_IODEPTH, "4, 4", err), -1);
	assert_non_null(strstr(err, "iodepth: 4 is listed twice"));
	assert_int_equal(jobfile_add_value(&jf, job, OPT_REPEAT, "2, 3", err), -1);
	assert_non_null(strstr(err, "takes one value"));
	assert_int_equal(jobfile_add_value(&jf, job, OPT_ENGINE, "libaio", err), -1);
	assert_non_null(strstr(err, "job 'a': "));
	assert_null(jobfile_add_job(&jf, "a", 0, err));
	assert_non_null(strstr(err, "duplicate job name 'a'"));
	assert_null(jobfile_add_job(&jf, "global", 0, err));
	assert_null(jobfile_add_job(&jf, "", 0, err));
	assert_null(jobfile_add_job(&jf, "0123456789012345678901234567890123456789012345678", 0,
				    err));
	assert_non_null(strstr(err, "at most 48 bytes"));
	job = jobfile_add_job(&jf, "b", 0, err);
	assert_non_null(job);
	assert_int_equal(jobfile_add_value(&jf, job, OPT_BASELINE, "c", err), 0);
	assert_int_equal(jobfile_complete(&jf, err), -1);
	assert_non_null(strstr(err, "baseline 'c' names no job"));
	jobfile_free(&jf);
	assert_int_equal(jobfile_new(&jf, "data", err), 0);
	assert_int_equal(jobfile_complete(&jf, err), -1);
	assert_non_null(strstr(err, "no jobs"));
	jobfile_free(&jf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lists_multiply_in_declaration_order),
		cmocka_unit_test(test_reads_and_bytes),
		cmocka_unit_test(test_global_gives_defaults_to_later_jobs),
		cmocka_unit_test(test_env_expansion),
		cmocka_unit_test(test_set_overrides_every_job),
		cmocka_unit_test(test_select_jobs),
		cmocka_unit_test(test_values_that_do_not_apply_do_not_multiply),
		cmocka_unit_test(test_continued_lists),
		cmocka_unit_test(test_crlf_and_bom),
		cmocka_unit_test(test_errors_name_file_line_and_option),
		cmocka_unit_test(test_hostile_input_fails_early_and_exactly),
		cmocka_unit_test(test_nul_byte_is_found),
		cmocka_unit_test(test_existing_file_gives_size),
		cmocka_unit_test(test_jobs_made_from_data),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
