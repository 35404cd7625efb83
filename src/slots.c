/*
 * slots.c - the in-flight reads of the queued engines; see slots.h.
 */
#define _GNU_SOURCE
#include "slots.h"

#include <stdlib.h>
#include <string.h>

int slots_init(struct slots *q, unsigned n)
{
	memset(q, 0, sizeof(*q));
	q->n = n;
	q->slot = calloc(n, sizeof(*q->slot));
	q->free = calloc(n, sizeof(*q->free));
	q->retry = calloc(n, sizeof(*q->retry));
	if (n && q->slot && q->free && q->retry)
		return 0;
	slots_free(q);
	return -1;
}

void slots_free(struct slots *q)
{
	free(q->slot);
	free(q->free);
	free(q->retry);
	memset(q, 0, sizeof(*q));
}

void slots_reset(struct slots *q)
{
	q->nfree = q->nretry = 0;
	for (unsigned k = q->n; k-- > 0;)
		q->free[q->nfree++] = k;
	q->exhausted = q->stopping = q->failed = false;
}

int slots_next(struct slots *q, struct worker *w)
{
	struct slot *sl;
	unsigned k;

	if (q->stopping)
		return -1;
	if (q->nretry)
		return (int)q->retry[--q->nretry];
	if (!q->nfree || q->exhausted)
		return -1;
	k = q->free[q->nfree - 1];
	sl = &q->slot[k];
	if (!pattern_next(&w->pat, &sl->off, &sl->len)) {
		q->exhausted = true;
		return -1;
	}
	/* O_DIRECT needs whole logical blocks; the end of the file cuts the read */
	sl->want = (sl->len + w->align_mask) & ~w->align_mask;
	sl->done = 0;
	q->nfree--;
	return (int)k;
}

bool slots_fail(struct slots *q, struct worker *w, int error, uint64_t off, const char *what)
{
	if (!q->failed)
		worker_fail(w, error, off, what);
	q->failed = q->stopping = true;
	return false;
}

bool slots_complete(struct slots *q, struct worker *w, unsigned k, long res, uint64_t t_done)
{
	struct slot *sl = &q->slot[k];

	if (q->stopping || res <= 0) {
		q->free[q->nfree++] = k;
		if (q->stopping)
			return false; /* in flight when the worker stopped: not counted */
		if (res < 0)
			return slots_fail(q, w, (int)-res, sl->off + sl->done, "read");
		return slots_fail(q, w, 0, sl->off + sl->done, "unexpected end of file");
	}
	sl->done += (uint64_t)res;
	if (sl->done < sl->len) {
		q->retry[q->nretry++] = k;
		return true;
	}
	q->free[q->nfree++] = k;
	return worker_complete(w, w->buf + (uint64_t)k * w->bs, sl->off, sl->len, sl->t_issue,
			       t_done);
}
