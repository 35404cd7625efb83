/*
 * cmd_plan.c - the commands that read job files but run nothing:
 * `check` (validate), `plan` (show the runs) and `options` (the option table,
 * the engines and fio's words).
 */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "fio/fio_hints.h"
#include "io/engines/engine.h"
#include "job/fio_words.h"
#include "job/options.h"
#include "lib/jsontext.h"
#include "lib/texttable.h"
#include "lib/units.h"
#include "report/plan_text.h"

int cmd_check(int argc, char **argv)
{
	struct cli c;
	int rc = cli_parse("check", argc, argv, &c), worst = EXIT_OK;

	if (rc)
		return rc;
	if (c.nfiles == 0) {
		cli_error("check: no job file given (usage: iosweep %s)", help_usage("check"));
		worst = EXIT_USAGE;
	}
	for (size_t i = 0; i < c.nfiles; i++) {
		struct jobfile jf;
		struct plan plan;

		rc = cli_load(&c, c.files[i], &jf, &plan);
		if (rc) {
			worst = rc;
			continue;
		}
		fio_hint_sizes(&jf, stderr);
		/* silent when fine, except to say what a job will write */
		if (plan_print_writes(&plan, stdout) < 0) {
			cli_error("check: out of memory");
			worst = EXIT_RUN;
		}
		plan_free(&plan);
		jobfile_free(&jf);
	}
	cli_free(&c);
	return worst;
}

/* The memory of the plan's largest run (runs come one after the other),
 * and the largest part of it: what check and run hold against the memory
 * available. */
static void print_plan_memory(const struct plan *plan, FILE *out)
{
	struct io_memory m, max = { 0 };
	size_t at = 0;
	enum io_mem_part big;
	char a[32], b[32];

	for (size_t r = 0; r < plan->n; r++) {
		plan_run_memory(&plan->runs[r], plan->where.ranks, &m);
		if (r == 0 || io_memory_total(&m) > io_memory_total(&max)) {
			max = m;
			at = r;
		}
	}
	if (!plan->n)
		return;
	big = io_memory_largest(&max);
	units_fmt_size_about(io_memory_total(&max), a, sizeof(a));
	units_fmt_size_about(max.part[big], b, sizeof(b));
	fprintf(out, "memory: up to %llu bytes (%s) per run, in run %zu; most of it, %s, for %s\n",
		(unsigned long long)io_memory_total(&max), a, plan->runs[at].index, b,
		io_mem_part_names[big]);
}

/* What bounds the runs that are not one pass: a rate over the runtime (how
 * many I/Os, how long), or the runtime alone; and how long a rated pass takes. */
static void print_plan_bounds(const struct plan *plan, FILE *out)
{
	for (size_t r = 0; r < plan->n; r++) {
		const struct run *run = &plan->runs[r];
		const char *io = run->v[OPT_OP].u == OP_READ ? "reads" : run->v[OPT_OP].u == OP_WRITE
										? "writes"
										: "I/Os";
		uint64_t units;
		double seconds;
		char t[32], d[32], wait[64] = "";
		enum plan_bound bound = plan_run_bound(run, &units, &seconds);

		units_fmt_seconds(seconds, t, sizeof(t));
		if (run->v[OPT_STARTDELAY].u) {
			units_fmt_seconds((double)run->v[OPT_STARTDELAY].u / 1e9, d, sizeof(d));
			snprintf(wait, sizeof(wait), ", after a startdelay of %s", d);
		}
		if (bound == BOUND_RATE)
			fprintf(out, "run %zu: about %llu %s a repeat, in %s: its runtime at its rate "
				     "(one pass is %llu)%s\n", run->index, (unsigned long long)units, io, t,
				(unsigned long long)run->reads, wait);
		else if (bound == BOUND_RUNTIME) {
			units_fmt_seconds((double)run->v[OPT_RUNTIME].u / 1e9, t, sizeof(t));
			fprintf(out, "run %zu: bounded by runtime: time_based, as many %s as %s allow "
				     "(one pass is %llu)%s\n", run->index, io, t,
				(unsigned long long)run->reads, wait);
		}
		else if (seconds > 0)
			fprintf(out, "run %zu: a repeat at its rate takes about %s%s\n", run->index, t,
				wait);
	}
}

static bool plan_has_auto(const struct plan *plan)
{
	for (size_t i = 0; i < plan->n; i++)
		if (plan->runs[i].v[OPT_REPEAT].u == 0)
			return true;
	return false;
}

/* The table's head: run, job, the group run where a run is a job of a
 * group, the options that vary, then the counts; numbers to the right. */
static void plan_table_head(const struct plan *plan, struct texttable *t, bool grouped)
{
	size_t ncols = 5 + 2 * plan->writes;

	for (int i = 0; i < OPT__COUNT; i++)
		ncols += plan_column(plan, i);
	tt_init(t, ncols + grouped);
	tt_add(t, "run");
	tt_add(t, "job");
	if (grouped)
		tt_add(t, "group");
	for (int i = 0; i < OPT__COUNT; i++)
		if (plan_column(plan, i))
			tt_add(t, "%s", option_table[i].name);
	tt_add(t, "reads");
	if (plan->writes)
		tt_add(t, "writes");
	tt_add(t, "bytes");
	if (plan->writes)
		tt_add(t, "written");
	tt_add(t, "repeats");
	for (size_t i = ncols + grouped - 3 - 2 * (size_t)plan->writes; i < ncols + grouped; i++)
		t->right[i] = true;
	t->right[0] = true;
}

/* The line under the table: the measured runs' counts (all, all_bytes),
 * what precondition writes before them, and how many runs (untimed) are
 * bounded by runtime alone and left out. */
static void print_plan_total(const struct plan *plan, const struct plan_dirs *all,
			     uint64_t all_bytes, size_t untimed, FILE *out)
{
	char b[32];
	uint64_t pre = 0;

	units_fmt_size_about(all_bytes, b, sizeof(b)); /* binary, as the table's sizes */
	fprintf(out, "total: %zu runs, %llu reads", plan->n, (unsigned long long)all->reads);
	if (plan->writes)
		fprintf(out, ", %llu writes", (unsigned long long)all->writes);
	fprintf(out, ", %llu bytes (%s)", (unsigned long long)all_bytes, b);
	if (plan->writes) {
		units_fmt_size_about(all->write_bytes, b, sizeof(b));
		fprintf(out, ", %llu of them written (%s)", (unsigned long long)all->write_bytes, b);
	}
	if (all->trims) {
		units_fmt_size_about(all->trim_bytes, b, sizeof(b));
		fprintf(out, ", %llu trims of %llu bytes (%s)", (unsigned long long)all->trims,
			(unsigned long long)all->trim_bytes, b);
	}
	fprintf(out, " over all measured repeats");
	for (size_t k = 0; k < plan->n; k++)
		pre += plan->runs[k].precond_bytes;
	if (pre) {
		units_fmt_size_about(pre, b, sizeof(b));
		fprintf(out, "; %llu bytes (%s) written by precondition before them",
			(unsigned long long)pre, b);
	}
	if (plan_has_auto(plan))
		fprintf(out, " (repeat=auto runs counted at their least, " REPEAT_AUTO_MIN_TEXT
			     " repeats)");
	if (untimed)
		fprintf(out, ", besides %zu run%s bounded by runtime", untimed, untimed == 1 ? "" : "s");
	fputc('\n', out);
}

/* A write plan's rows count reads and writes apart, with the bytes of
 * both and of the writes alone; a read plan's only reads and bytes. */
static int print_plan_text(const struct plan *plan, FILE *out)
{
	struct texttable t;
	struct plan_dirs all = { 0 }, d;
	char val[512], b[32];
	uint64_t all_bytes = 0;
	size_t untimed = 0; /* runs bounded by runtime alone, left out of the totals */
	bool grouped = false; /* some run is a job of a group: which group run */

	for (size_t r = 0; r < plan->n; r++)
		grouped |= plan->runs[r].group != NULL;
	plan_table_head(plan, &t, grouped);
	for (size_t r = 0; r < plan->n; r++) {
		const struct run *run = &plan->runs[r];

		plan_run_dirs(run, &d);
		tt_add(&t, "%zu", run->index);
		tt_add(&t, "%s", run->job->name);
		if (grouped && run->group)
			tt_add(&t, "%s %zu", run->group, run->group_run);
		else if (grouped)
			tt_add(&t, "%s", "");
		for (int i = 0; i < OPT__COUNT; i++)
			if (plan_column(plan, i))
				tt_add(&t, "%s", plan_cell(run, i, val, sizeof(val)));
		if (d.bound == BOUND_RUNTIME) {
			/* time_based without a rate: as many as the runtime allows */
			for (int k = 0; k < 2 + 2 * plan->writes; k++)
				tt_add(&t, "%s", "runtime");
			tt_add(&t, "%s", plan_cell(run, OPT_REPEAT, val, sizeof(val)));
			untimed++;
			continue;
		}
		plan_dirs_add(&all, &d, plan_repeats(run));
		/* bytes: a trim's too, as a result's bytes count them */
		all_bytes += (d.read_bytes + d.write_bytes + d.trim_bytes) * plan_repeats(run);
		tt_add(&t, "%llu", (unsigned long long)d.reads);
		if (plan->writes)
			tt_add(&t, "%llu", (unsigned long long)d.writes);
		units_fmt_size(d.read_bytes + d.write_bytes + d.trim_bytes, b, sizeof(b));
		tt_add(&t, "%s", b);
		if (plan->writes) {
			units_fmt_size(d.write_bytes, b, sizeof(b));
			tt_add(&t, "%s", d.write_bytes ? b : "-");
		}
		tt_add(&t, "%s", plan_cell(run, OPT_REPEAT, val, sizeof(val)));
	}
	plan_print_constants(plan, out);
	tt_print(&t, out, "");
	tt_free(&t);
	print_plan_total(plan, &all, all_bytes, untimed, out);
	print_plan_bounds(plan, out);
	print_plan_memory(plan, out);
	return plan_print_writes(plan, out);
}

/* Streamed, one run per line: a plan of 100 000 runs never sits in memory
 * as one JSON tree.  Counts as in a result's repeats: reads and writes
 * apart, bytes of both, read_bytes and write_bytes. */
static int print_plan_json(const struct plan *plan, FILE *out)
{
	static const char *const bound_names[] = { [BOUND_PASS] = "pass", [BOUND_RATE] = "rate",
						   [BOUND_RUNTIME] = "runtime" };
	static const char *const counts[] = { "reads", "writes", "bytes", "read_bytes",
					      "write_bytes", "trims", "trim_bytes" };
	struct plan_dirs all = { 0 }, d;
	uint64_t all_bytes = 0;

	fputs("{\n  \"runs\": [", out);
	for (size_t r = 0; r < plan->n; r++) {
		const struct run *run = &plan->runs[r];
		json_t *o;
		int rc;

		plan_run_dirs(run, &d);
		if (d.bound != BOUND_RUNTIME) {
			plan_dirs_add(&all, &d, plan_repeats(run));
			all_bytes += (d.read_bytes + d.write_bytes + d.trim_bytes) * plan_repeats(run);
		}
		o = json_pack("{s:o, s:I, s:o, s:I, s:I, s:I, s:I, s:I, s:I}", "job",
			      json_text(run->job->name), "index", (json_int_t)run->index, "params",
			      options_params_json(run->v), "reads", (json_int_t)d.reads, "writes",
			      (json_int_t)d.writes, "bytes",
			      (json_int_t)d.read_bytes + (json_int_t)d.write_bytes + (json_int_t)d.trim_bytes,
			      "read_bytes", (json_int_t)d.read_bytes, "write_bytes",
			      (json_int_t)d.write_bytes, "repeat", (json_int_t)plan_repeats(run));
		if (!o || json_object_set_new(o, "bound", json_string(bound_names[d.bound])) < 0 ||
		    json_object_set_new(o, "trims", json_integer((json_int_t)d.trims)) < 0 ||
		    json_object_set_new(o, "trim_bytes", json_integer((json_int_t)d.trim_bytes)) < 0 ||
		    (run->precond_bytes &&
		     json_object_set_new(o, "precondition_bytes",
					 json_integer((json_int_t)run->precond_bytes)) < 0))
			return -1;
		/* time_based without a rate: how many is not known before it runs */
		for (size_t k = 0; d.bound == BOUND_RUNTIME && k < 7; k++)
			json_object_set_new(o, counts[k], json_null());
		fputs(r ? ",\n    " : "\n    ", out);
		rc = json_dumpf(o, out, 0); /* one line, ", " and ": " between */
		json_decref(o);
		if (rc < 0)
			return -1;
	}
	fprintf(out, "%s],\n  \"total\": {\"runs\": %zu, \"reads\": %llu, \"writes\": %llu, "
		     "\"bytes\": %llu, \"read_bytes\": %llu, \"write_bytes\": %llu, \"trims\": %llu, "
		     "\"trim_bytes\": %llu}\n}\n",
		plan->n ? "\n  " : "", plan->n, (unsigned long long)all.reads,
		(unsigned long long)all.writes, (unsigned long long)all_bytes,
		(unsigned long long)all.read_bytes, (unsigned long long)all.write_bytes,
		(unsigned long long)all.trims, (unsigned long long)all.trim_bytes);
	return 0;
}

int cmd_plan(int argc, char **argv)
{
	struct cli c;
	struct jobfile jf;
	struct plan plan;
	bool json = false;
	int rc = cli_parse("plan", argc, argv, &c);

	if (rc)
		return rc;
	if (c.nfiles != 1) {
		cli_error("plan: expected one job file (usage: iosweep %s)", help_usage("plan"));
		cli_free(&c);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < c.nout; i++) {
		json = strcmp(c.out[i].format, "json") == 0;
		if ((!json && strcmp(c.out[i].format, "table") != 0) || c.out[i].path) {
			cli_error("plan: -o takes 'table' or 'json' (to stdout)");
			cli_free(&c);
			return EXIT_USAGE;
		}
	}
	rc = cli_load(&c, c.files[0], &jf, &plan);
	if (rc == 0) {
		fio_hint_sizes(&jf, stderr);
		plan_cache_notes(&plan, stderr);
		if ((json ? print_plan_json : print_plan_text)(&plan, stdout) < 0) {
			cli_error("plan: out of memory");
			rc = EXIT_RUN;
		}
		plan_free(&plan);
		jobfile_free(&jf);
	}
	cli_free(&c);
	return rc;
}

static const char *const type_names[] = {
	[T_PATH] = "path", [T_SIZE] = "size", [T_UINT] = "integer", [T_DURATION] = "duration",
	[T_ENUM] = "word", [T_TEXT] = "text", [T_JOB] = "job name",
};



/* The engine table: what each engine is, can do and takes. */
static void print_engines(void)
{
	struct texttable t;
	char caps[256], opts[256];

	tt_init(&t, 4);
	tt_add(&t, "engine");
	tt_add(&t, "can");
	tt_add(&t, "options");
	tt_add(&t, "does");
	for (size_t k = 0; engine_at(k); k++) {
		const struct engine_ops *e = engine_at(k);
		size_t used = 0;

		snprintf(caps, sizeof(caps), "%s%s%s", e->flags & ENGINE_QUEUED ? "iodepth " : "",
			 e->flags & ENGINE_DIRECT ? "direct " : "",
			 e->flags & ENGINE_MAPPED ? "mapped " : "");
		opts[0] = '\0';
		for (int i = 0; i < OPT__COUNT; i++)
			if (option_knob(i) >= 0 && option_engine_takes(e, i))
				used += (size_t)snprintf(opts + used, sizeof(opts) - used, "%s%s",
							 used ? "," : "", option_table[i].name);
		tt_add(&t, "%s", e->name);
		tt_add(&t, "%s", caps[0] ? caps : "-");
		tt_add(&t, "%s", opts[0] ? opts : "-");
		tt_add(&t, "%s", e->help);
	}
	putchar('\n');
	tt_print(&t, stdout, "");
	tt_free(&t);
}

/* fio's words, from their one table: what `iosweep import` makes of each
 * (and compare of a fio result's options). */
static void print_fio_words(void)
{
	struct texttable t;
	const struct fio_word *w;
	char says[512];

	tt_init(&t, 2);
	tt_add(&t, "fio option");
	tt_add(&t, "iosweep");
	for (size_t i = 0; (w = fio_word_at(i)); i++) {
		tt_add(&t, "%s", w->fio);
		tt_add(&t, "%s", fio_word_says(w, says, sizeof(says)));
	}
	putchar('\n');
	tt_print(&t, stdout, "");
	tt_free(&t);
}

int cmd_options(int argc, char **argv)
{
	struct texttable t;
	struct cli c;
	char type[300];
	int rc = cli_parse("options", argc, argv, &c);
	size_t nargs;

	if (rc)
		return rc;
	nargs = c.nfiles;
	cli_free(&c);
	if (nargs) {
		cli_error("options: takes no arguments (usage: iosweep %s)", help_usage("options"));
		return EXIT_USAGE;
	}
	tt_init(&t, 4);
	tt_add(&t, "option");
	tt_add(&t, "type");
	tt_add(&t, "default");
	tt_add(&t, "meaning");
	for (int i = 0; i < OPT__COUNT; i++) {
		const struct option_def *o = &option_table[i];
		size_t used = 0;

		if (o->type == T_ENUM)
			for (size_t k = 0; o->values[k]; k++)
				used += (size_t)snprintf(type + used, sizeof(type) - used, "%s%s",
							 k ? "|" : "", o->values[k]);
		else
			snprintf(type, sizeof(type), "%s", type_names[o->type]);
		tt_add(&t, "%s", o->name);
		tt_add(&t, "%s%s", type, o->list ? " list" : "");
		tt_add(&t, "%s", o->def ? o->def : "-");
		tt_add(&t, "%s", o->help);
	}
	tt_print(&t, stdout, "");
	tt_free(&t);
	print_engines();
	print_fio_words();
	printf("\nsizes: k m g t = KiB MiB GiB TiB (1024), KB MB GB TB (1000), a bare number is "
	       "bytes;\ndurations: ns us ms s m h, a bare number is seconds.\na list (a, b, c) makes "
	       "one run per value; ${VAR} and ${VAR:-default} expand from the environment;\na "
	       "relative filename is relative to the job file's directory, ~/ is $HOME.\n");
	return EXIT_OK;
}
