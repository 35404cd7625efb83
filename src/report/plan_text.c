/*
 * plan_text.c - see plan_text.h.
 */
#define _GNU_SOURCE
#include "report/plan_text.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "io/cache.h"
#include "lib/error.h"
#include "lib/names.h"
#include "lib/texttable.h"
#include "lib/units.h"

bool plan_print_totals(const struct plan *plan, FILE *out)
{
	struct plan_dirs all = { 0 }, d;
	uint64_t create = 0, repeats = 0;
	bool limited = false; /* runtime may stop repeats before they read it all */
	size_t files = 0, untimed = 0; /* untimed: runs bounded by runtime alone */
	struct names seen = { 0 }; /* the files counted */
	const char *tree = NULL; /* runs of a tree job follow each other */
	uint64_t tree_files = 0, tree_bytes = 0;
	char c[32], r[32], w[32], io[96];

	if (names_init(&seen, plan->n) < 0) {
		names_free(&seen);
		return false; /* out of memory: a summary is not worth failing for */
	}
	for (size_t i = 0; i < plan->n; i++) {
		const struct run *run = &plan->runs[i];
		const char *name = run->v[OPT_FILENAME].s;

		repeats += plan_repeats(run);
		limited |= run->v[OPT_RUNTIME].u != 0;
		if (run->v[OPT_TREE].s) { /* a job's tree: its largest shape's files */
			if (!tree || strcmp(tree, name) != 0) {
				files += tree_files;
				create += tree_bytes;
				tree_files = tree_bytes = 0;
				tree = name;
			}
			if ((uint64_t)run->md_dirs * run->md_files > tree_files)
				tree_files = (uint64_t)run->md_dirs * run->md_files;
			if (run->v[OPT_SIZE].u > tree_bytes)
				tree_bytes = run->v[OPT_SIZE].u;
		} else if (!run->exists && !names_find(&seen, name)) {
			names_add(&seen, name, (void *)run);
			create += run_set_bytes(run);
			files += run->v[OPT_NRFILES].u;
		}
	}
	names_free(&seen);
	files += tree_files;
	create += tree_bytes;
	/* small plans, like those of the tests, go by without it */
	if (create < ((uint64_t)64 << 20) && plan->total_bytes < ((uint64_t)1 << 30))
		return false;
	for (size_t i = 0; i < plan->n; i++) {
		plan_run_dirs(&plan->runs[i], &d);
		if (d.bound == BOUND_RUNTIME)
			untimed++;
		else
			plan_dirs_add(&all, &d, plan_repeats(&plan->runs[i]));
	}
	/* sizes as the plan's table and the writes lines give them (binary) */
	units_fmt_size_about(create, c, sizeof(c));
	units_fmt_size_about(all.read_bytes, r, sizeof(r));
	units_fmt_size_about(all.write_bytes, w, sizeof(w));
	if (!all.write_bytes)
		snprintf(io, sizeof(io), "reads %s%s", limited ? "at most " : "", r);
	else if (!all.read_bytes)
		snprintf(io, sizeof(io), "writes %s%s", limited ? "at most " : "", w);
	else
		snprintf(io, sizeof(io), "reads %s%s, writes %s", limited ? "at most " : "", r, w);
	fprintf(out, "iosweep: plan: %zu run%s, %llu measured repeat%s; creates %s (%zu file%s) and "
		     "%s in all%s%s\n", plan->n, plan->n == 1 ? "" : "s", (unsigned long long)repeats,
		repeats == 1 ? "" : "s", files ? c : "nothing", files, files == 1 ? "" : "s", io,
		untimed ? ", besides runs bounded by runtime" : "",
		plan->n > 1 ? "; a time estimate follows the first run" : "");
	return true;
}

void plan_cache_notes(const struct plan *plan, FILE *out)
{
	struct names said = { 0 }; /* the files a note was looked for */
	char why[ERR_MAX];

	if (names_init(&said, plan->n) < 0) {
		names_free(&said);
		return; /* out of memory: notes are not worth failing for */
	}
	for (size_t i = 0; i < plan->n; i++) {
		const struct run *r = &plan->runs[i];

		if (!r->cache_default || names_find(&said, r->v[OPT_FILENAME].s))
			continue;
		names_add(&said, r->v[OPT_FILENAME].s, (void *)r);
		switch (cache_evict_obstacle(r->v[OPT_FILENAME].s, why, sizeof(why))) {
		case CACHE_CANNOT_EVICT:
			fputs("iosweep: note: ", out);
			tt_put(out, why);
			fputs(": runs without a cache option use cache=keep (the page cache as it "
			      "is), not fadvise\n", out);
			break;
		case CACHE_CANNOT_VERIFY:
			fputs("iosweep: note: ", out);
			tt_put(out, why);
			fputs(": cache=fadvise evicts it but cannot verify that it did\n", out);
			break;
		case CACHE_NO_OBSTACLE:
			break;
		}
	}
	names_free(&said);
}

void plan_print_constants(const struct plan *plan, FILE *out)
{
	char val[512];
	size_t col = 0;

	for (int i = 0; plan->n && i < OPT__COUNT; i++) {
		size_t len;

		if (!plan_constant(plan, i))
			continue;
		option_format(i, plan->runs[0].v[i], val, sizeof(val));
		len = strlen(option_table[i].name) + tt_width(val) + 2;
		if (col && col + len > 110) {
			fputc('\n', out);
			col = 0;
		}
		col += (size_t)fprintf(out, "%s%s=", col ? "  " : "", option_table[i].name);
		col += tt_put(out, val);
	}
	fputc('\n', out);
}

/* Runs that write, a file's together, in plan order within it. */
static int by_file(const void *a, const void *b)
{
	const struct run *x = *(const struct run *const *)a, *y = *(const struct run *const *)b;
	int c = strcmp(x->v[OPT_FILENAME].s, y->v[OPT_FILENAME].s);

	return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* What a file gets written: from its first run of the plan on. */
struct file_writes {
	const struct run *first;
	uint64_t most, least, all; /* per repeat, the most and least of its runs; in all */
	uint64_t pre;              /* by its runs' precondition, in all */
	size_t untimed;            /* its runs bounded by runtime alone, not in those */
};

static int by_first_run(const void *a, const void *b)
{
	const struct file_writes *x = a, *y = b;

	return (x->first->index > y->first->index) - (x->first->index < y->first->index);
}

/* Sorted, not compared pairwise: a plan of 100 000 runs on as many files
 * costs n log n. */
int plan_print_writes(const struct plan *plan, FILE *out)
{
	const struct run **w = calloc(plan->n + 1, sizeof(*w));
	struct file_writes *f = calloc(plan->n + 1, sizeof(*f));
	size_t nw = 0, nf = 0;
	char a[32], b[32];

	if (!w || !f) {
		free(w);
		free(f);
		return -1;
	}
	for (size_t k = 0; plan->writes && k < plan->n; k++)
		if (plan->runs[k].write_bytes || plan->runs[k].precond_bytes)
			w[nw++] = &plan->runs[k];
	qsort(w, nw, sizeof(*w), by_file);
	for (size_t k = 0; k < nw; k++) {
		struct plan_dirs d;

		if (!k || strcmp(w[k]->v[OPT_FILENAME].s, w[k - 1]->v[OPT_FILENAME].s) != 0)
			f[nf++] = (struct file_writes){ .first = w[k], .least = UINT64_MAX };
		f[nf - 1].pre += w[k]->precond_bytes;
		if (!w[k]->write_bytes)
			continue; /* it reads, after its precondition */
		plan_run_dirs(w[k], &d);
		if (d.bound == BOUND_RUNTIME) {
			f[nf - 1].untimed++;
			continue;
		}
		f[nf - 1].most = d.write_bytes > f[nf - 1].most ? d.write_bytes : f[nf - 1].most;
		f[nf - 1].least = d.write_bytes < f[nf - 1].least ? d.write_bytes : f[nf - 1].least;
		f[nf - 1].all += d.write_bytes * plan_repeats(w[k]);
	}
	qsort(f, nf, sizeof(*f), by_first_run);
	for (size_t k = 0; k < nf; k++) {
		const struct run *r = f[k].first;
		const char *whose = r->v[OPT_TREE].s ? "a tree iosweep makes and removes"
				    : !r->exists ? "to be created"
				    : r->ours	? "created by iosweep"
				    : r->device ? "block device, checked unused: allow_write"
						: "your file: allow_write";

		units_fmt_size(f[k].most, a, sizeof(a));
		units_fmt_size(f[k].all, b, sizeof(b));
		fputs("writes ", out);
		tt_put(out, r->v[OPT_FILENAME].s);
		fprintf(out, " (%s", whose);
		if (r->device && r->v[OPT_ALLOW_OVERWRITE_SIGNATURE].s) {
			fputs(", allow_overwrite_signature = ", out);
			tt_put(out, r->v[OPT_ALLOW_OVERWRITE_SIGNATURE].s);
		}
		if (f[k].least == UINT64_MAX && f[k].untimed) /* bounded by runtime alone */
			fputs("): as much as the runtime allows", out);
		else if (f[k].least != UINT64_MAX)
			fprintf(out, "): %s%s per repeat, %s in all%s",
				f[k].least < f[k].most ? "up to " : "", a, b,
				f[k].untimed ? ", besides runs bounded by runtime" : "");
		else
			fputs(")", out);
		if (f[k].pre) {
			units_fmt_size(f[k].pre, a, sizeof(a));
			fprintf(out, "%s %s by precondition (%llu bytes, before the measured "
				     "repeats)", f[k].least != UINT64_MAX || f[k].untimed ? ", and" : ":",
				a, (unsigned long long)f[k].pre);
		}
		fputc('\n', out);
	}
	free(w);
	free(f);
	return 0;
}
