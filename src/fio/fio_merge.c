/*
 * fio_merge.c - import_merge (fio_import.h): consecutive translated jobs
 * that differ in exactly one list option become one job with a list.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio/fio_import.h"
#include "io/engines/engine.h"
#include "job/options.h"
#include "lib/error.h"

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* A job's value of option k as text; NULL (not written) is the default. */
static const char *value_of(const struct import_job *j, int k)
{
	return j->val[k] ? j->val[k] : option_table[k].def;
}

/* Whether option k does anything to job j, as the plan decides (plan.c):
 * iodepth only for the queued engines, an engine option only for the
 * engines that take it, the write options only when the job writes. */
static bool takes(const struct import_job *j, int k)
{
	const struct engine_ops *e = engine_find(value_of(j, OPT_ENGINE));
	const char *op = value_of(j, OPT_OP);

	if (k == OPT_IODEPTH)
		return e && (e->flags & ENGINE_QUEUED);
	if (option_knob(k) >= 0)
		return e && option_engine_takes(e, k);
	if (k == OPT_SYNC || k == OPT_SYNC_EVERY || k == OPT_DATA || k == OPT_COMPRESS ||
	    k == OPT_ALLOC)
		return strcmp(op, "read") != 0;
	if (k == OPT_RWMIXREAD)
		return strcmp(op, "readwrite") == 0;
	return true;
}

/* The one list option a and b differ in, -1 when none, -2 when several or
 * one that is not a list.  An option one of them does not take and leaves
 * unwritten does not count (a sync job and an aio one that differ in the
 * engine merge, the aio job's iodepth going with it). */
static int differs_in(const struct import_job *a, const struct import_job *b)
{
	int found = -1;

	for (int k = 0; k < OPT__COUNT; k++) {
		if (same_text(value_of(a, k), value_of(b, k)) ||
		    (!a->val[k] && !takes(a, k)) || (!b->val[k] && !takes(b, k)))
			continue;
		/* (a value that is a list already, alloc's, is not merged into another) */
		if (found != -1 || !option_table[k].list || !value_of(a, k) || !value_of(b, k) ||
		    strchr(value_of(a, k), ',') || strchr(value_of(b, k), ','))
			return -2;
		found = k;
	}
	return found;
}

/* Whether c agrees with the jobs merged so far on the options the first
 * of them does not take (their values in kept[], NULL: none yet). */
static bool agrees(const struct import_job *first, const char *const *kept,
		   const struct import_job *c, int k)
{
	for (int o = 0; o < OPT__COUNT; o++)
		if (o != k && !takes(first, o) && takes(c, o) && kept[o] &&
		    !same_text(kept[o], value_of(c, o)))
			return false;
	return true;
}

static int merge_run(struct import *im, size_t first, size_t n, int k, const char *const *kept,
		     char *err)
{
	struct import_job *base = &im->jobs[first];
	char *list = NULL, *names = NULL, *tmp;

	for (size_t i = 0; i < n; i++) {
		struct import_job *j = &im->jobs[first + i];

		if (asprintf(&tmp, "%s%s%s", list ? list : "", list ? ", " : "", value_of(j, k)) < 0)
			goto oom;
		free(list);
		list = tmp;
		if (asprintf(&tmp, "%s%s%s", names ? names : "", names ? ", " : "", j->fio_name) < 0)
			goto oom;
		free(names);
		names = tmp;
	}
	if (asprintf(&base->merged, "%s (they differ only in %s)", names,
		     option_table[k].name) < 0) {
		base->merged = NULL;
		goto oom;
	}
	free(names);
	names = NULL;
	free(base->val[k]);
	base->val[k] = list;
	list = NULL;
	/* what the first job left unwritten, from the others that take it */
	for (int o = 0; o < OPT__COUNT; o++)
		if (!base->val[o] && kept[o] && !(base->val[o] = strdup(kept[o])))
			goto oom;
	for (size_t i = 1; i < n; i++) {
		struct import_job *j = &im->jobs[first + i];

		for (int o = 0; o < OPT__COUNT; o++)
			free(j->val[o]);
		free(j->name);
		free(j->fio_name);
		free(j->merged);
	}
	memmove(base + 1, base + n, (im->njobs - first - n) * sizeof(*base));
	im->njobs -= n - 1;
	return 0;
oom:
	free(list);
	free(names);
	return err_set(err, "out of memory");
}

int import_merge(struct import *im, char *err)
{
	for (size_t i = 0; i + 1 < im->njobs; i++) {
		int k = differs_in(&im->jobs[i], &im->jobs[i + 1]);
		const char *kept[OPT__COUNT];
		size_t n = 1;

		/* jobs of a group run at the same time: a list would run them in turn */
		if (k < 0 || im->jobs[i].val[OPT_GROUP])
			continue;
		bool written[OPT__COUNT] = { false };

		for (int o = 0; o < OPT__COUNT; o++)
			kept[o] = NULL;
		/* the jobs that differ from the first in the same option, each
		 * value new, agreeing on what the first does not take */
		while (i + n < im->njobs && differs_in(&im->jobs[i], &im->jobs[i + n]) == k &&
		       agrees(&im->jobs[i], kept, &im->jobs[i + n], k)) {
			bool repeated = false;

			for (size_t m = 0; m < n; m++)
				repeated |= same_text(value_of(&im->jobs[i + m], k),
						      value_of(&im->jobs[i + n], k));
			if (repeated)
				break;
			for (int o = 0; o < OPT__COUNT; o++)
				if (!kept[o] && !takes(&im->jobs[i], o) && takes(&im->jobs[i + n], o)) {
					kept[o] = value_of(&im->jobs[i + n], o);
					written[o] = im->jobs[i + n].val[o] != NULL;
				}
			n++;
		}
		for (int o = 0; o < OPT__COUNT; o++)
			if (!written[o])
				kept[o] = NULL; /* a default: left unwritten */
		if (merge_run(im, i, n, k, kept, err) < 0)
			return -1;
	}
	return 0;
}
