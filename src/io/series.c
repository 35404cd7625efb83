/*
 * series.c - per-interval series of a repeat (see series.h).
 */
#include "io/series.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include "io/cache.h"

#define SERIES_LIVE_NEW 4u /* the middle buffer was published and not taken yet */

/* The slots' histograms, which series_init() allocates. */
#define SERIES_HISTS (SERIES_SLOTS * IO_DIRS)

uint64_t series_bytes(void)
{
	return sizeof(struct series) + (uint64_t)SERIES_HISTS * hist_size();
}

uint64_t series_resp_bytes(void)
{
	return (uint64_t)SERIES_HISTS * hist_size();
}

uint64_t series_live_bytes(void)
{
	return SERIES_LIVE_BUFS * hist_size();
}

int series_init(struct series *s)
{
	int rc = 0;

	s->fd = -1;
	s->live = NULL;
	s->watch = NULL;
	for (unsigned k = 0; k < SERIES_HISTS; k++) {
		s->slot[k / IO_DIRS].h[k % IO_DIRS] = hist_new();
		s->slot[k / IO_DIRS].resp[k % IO_DIRS] = NULL;
		rc |= s->slot[k / IO_DIRS].h[k % IO_DIRS] ? 0 : -1;
	}
	return rc;
}

int series_init_resp(struct series *s)
{
	int rc = 0;

	for (unsigned k = 0; k < SERIES_HISTS; k++) {
		s->slot[k / IO_DIRS].resp[k % IO_DIRS] = hist_new();
		rc |= s->slot[k / IO_DIRS].resp[k % IO_DIRS] ? 0 : -1;
	}
	return rc;
}

void series_free(struct series *s)
{
	for (unsigned k = 0; k < SERIES_SLOTS; k++)
		for (int d = 0; d < IO_DIRS; d++) {
			hist_free(s->slot[k].h[d]);
			hist_free(s->slot[k].resp[d]);
			s->slot[k].h[d] = s->slot[k].resp[d] = NULL;
		}
}

static void slot_reset(struct series_slot *sl)
{
	for (int d = 0; d < IO_DIRS; d++) {
		sl->ops[d] = sl->bytes[d] = sl->late[d] = 0;
		hist_reset(sl->h[d]);
		if (sl->resp[d])
			hist_reset(sl->resp[d]);
	}
	sl->resident = -1;
}

static void slot_add(struct series_slot *dst, const struct series_slot *src)
{
	for (int d = 0; d < IO_DIRS; d++) {
		dst->ops[d] += src->ops[d];
		dst->bytes[d] += src->bytes[d];
		dst->late[d] += src->late[d];
		hist_merge(dst->h[d], src->h[d]);
		if (dst->resp[d] && src->resp[d])
			hist_merge(dst->resp[d], src->resp[d]);
	}
	if (dst->resident < 0)
		dst->resident = src->resident;
}

static double resident_now(const struct series *s)
{
	return s->fd >= 0 ? cache_resident_cheap(s->fd, s->size) : -1;
}

/* Residency costs a cachestat of the whole file, which grows with the file
 * (about 0.3 ms for 1 GiB cached here): it is asked at every
 * resid_every-th boundary only, so that it takes at most 1% of the time. */
static void resid_pace(struct series *s)
{
	s->resid_every = 1 + s->resid_cost_ns * 100 / s->interval_ns;
}

static uint64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void series_start(struct series *s, uint64_t t0_ns, uint64_t interval_ns)
{
	for (unsigned k = 0; k < SERIES_SLOTS; k++)
		slot_reset(&s->slot[k]);
	s->t0_ns = t0_ns;
	s->interval_ns = interval_ns;
	s->next_ns = t0_ns + interval_ns;
	s->cur = 0;
	s->coarsened = 0;
	s->attained = s->cliffed = s->ended = false;
	s->resid_cost_ns = clock_ns();
	s->slot[0].resident = resident_now(s);
	s->resid_cost_ns = s->fd >= 0 ? clock_ns() - s->resid_cost_ns : 0;
	resid_pace(s);
	if (s->live)
		__atomic_store_n(&s->live->repeat, s->live->repeat + 1, __ATOMIC_RELEASE);
}

void series_coarsen(struct series *s)
{
	for (size_t k = 0; k < SERIES_SLOTS / 2; k++) {
		struct series_slot *a = &s->slot[k], *b = &s->slot[2 * k], *c = &s->slot[2 * k + 1];

		if (a != b) {
			slot_reset(a);
			slot_add(a, b);
		}
		slot_add(a, c);
	}
	for (unsigned k = SERIES_SLOTS / 2; k < SERIES_SLOTS; k++)
		slot_reset(&s->slot[k]);
	s->interval_ns *= 2;
	s->coarsened++;
	resid_pace(s);
	s->cur /= 2;
	s->next_ns = s->t0_ns + (s->cur + 1) * s->interval_ns;
}

int series_live_init(struct series_live *l)
{
	int rc = 0;

	memset(l, 0, sizeof(*l));
	for (unsigned k = 0; k < SERIES_LIVE_BUFS; k++) {
		l->iv[k].lat = hist_new();
		rc |= l->iv[k].lat ? 0 : -1;
	}
	l->back = 0;
	l->middle = 1;
	l->front = 2;
	return rc;
}

void series_live_free(struct series_live *l)
{
	for (unsigned k = 0; k < SERIES_LIVE_BUFS; k++) {
		hist_free(l->iv[k].lat);
		l->iv[k].lat = NULL;
	}
}

/* Interval k of the current grid (slot cur's figures, or nothing when it is
 * another one: none completed in it) goes to the worker's buffer, which then
 * becomes the middle one.  A copy of 34 KiB: at boundaries only. */
static void live_publish(struct series *s, uint64_t k, bool last)
{
	struct series_live *l = s->live;
	struct series_live_iv *iv = &l->iv[l->back];

	hist_reset(iv->lat);
	iv->bytes = 0;
	for (int d = 0; k == s->cur && d < IO_DIRS; d++) {
		iv->bytes += s->slot[k].bytes[d];
		hist_merge(iv->lat, s->slot[k].h[d]);
	}
	iv->repeat = l->repeat;
	iv->end_ns = (k + 1) * s->interval_ns;
	iv->len_ns = s->interval_ns;
	iv->last = last;
	l->back = __atomic_exchange_n(&l->middle, l->back | SERIES_LIVE_NEW, __ATOMIC_ACQ_REL) &
		  ~SERIES_LIVE_NEW;
}

void series_live_end(struct series *s, uint64_t t_ns)
{
	if (s->live)
		live_publish(s, t_ns > s->t0_ns ? (t_ns - s->t0_ns) / s->interval_ns : 0, true);
}

const struct series_live_iv *series_live_take(struct series_live *l)
{
	const struct series_live_iv *iv;
	uint64_t repeat;

	if (__atomic_load_n(&l->middle, __ATOMIC_RELAXED) & SERIES_LIVE_NEW)
		l->front = __atomic_exchange_n(&l->middle, l->front, __ATOMIC_ACQ_REL) &
			   ~SERIES_LIVE_NEW;
	iv = &l->iv[l->front];
	repeat = __atomic_load_n(&l->repeat, __ATOMIC_ACQUIRE);
	return iv->repeat && iv->repeat == repeat ? iv : NULL;
}

double series_value(const struct series_slot *sl, enum steady_metric m, int dir,
		    uint64_t interval_ns)
{
	double ops = 0, bytes = 0, lat = 0;

	for (int d = 0; d < IO_DIRS; d++)
		if (dir < 0 || d == dir) {
			ops += (double)sl->ops[d];
			bytes += (double)sl->bytes[d];
			lat += hist_mean(sl->h[d]) * (double)sl->ops[d];
		}
	if (m == STEADY_IOPS)
		return ops * 1e9 / (double)interval_ns;
	if (m == STEADY_BW)
		return bytes * 1e9 / (double)interval_ns;
	return ops > 0 ? lat / ops : NAN;
}

void series_judge(const struct series *s, unsigned n, struct steady_verdict *v, double *crit)
{
	const struct series_watch *w = s->watch;
	double y[SERIES_SLOTS];

	if (n > SERIES_SLOTS)
		n = SERIES_SLOTS;
	for (unsigned k = 0; k < n; k++)
		y[k] = series_value(&s->slot[k], w->metric, w->dir, s->interval_ns);
	steady_judge(&w->spec, y, n, v, crit);
}

/* At a boundary: the windows ending at the intervals completed since the
 * last one (slots cur to k - 1; not timed beyond a window's arithmetic). */
static void watch_steady(struct series *s, uint64_t k)
{
	const struct steady_spec *sp = &s->watch->spec;
	struct steady_verdict v;
	double y[SERIES_SLOTS];

	for (uint64_t end = s->cur + 1; end <= k && !s->attained; end++) {
		if (end < sp->ramp + sp->window)
			continue;
		for (size_t i = 0; i < sp->window; i++)
			y[i] = series_value(&s->slot[end - sp->window + i], s->watch->metric,
					    s->watch->dir, s->interval_ns);
		steady_window(sp, y, sp->window, &v);
		s->attained = v.attained;
	}
}

/* At a boundary: a cliff of throughput or mean latency among the k complete
 * intervals, as tally.c looks for them after the repeat (on the stack). */
static void watch_cliff(struct series *s, uint64_t k)
{
	static const enum steady_metric metric[] = { STEADY_BW, STEADY_LAT };
	double y[SERIES_SLOTS], tmp[SERIES_SLOTS];
	struct steady_cliff c;

	uint64_t from = s->watch->from;

	if (k <= s->cur || k <= from)
		return; /* no interval of the job's completed since the last look */
	for (int f = 0; f < 2 && !s->cliffed; f++) {
		for (uint64_t i = from; i < k; i++)
			y[i - from] = series_value(&s->slot[i], metric[f], -1, s->interval_ns);
		s->cliffed = steady_cliffs_in(y, k - from, &c, 1, tmp) > 0;
	}
}

static void watch_boundary(struct series *s, uint64_t k)
{
	if (k > SERIES_SLOTS)
		k = SERIES_SLOTS;
	if (s->watch->steady)
		watch_steady(s, k);
	if (s->watch->cliff && !s->cliffed)
		watch_cliff(s, k);
	s->ended = s->attained || s->cliffed;
}

void series_advance(struct series *s, uint64_t t_ns)
{
	uint64_t k = (t_ns - s->t0_ns) / s->interval_ns;

	/* the latest interval completed is the one before k */
	if (s->live)
		live_publish(s, k - 1, false);
	if (s->watch && !s->coarsened)
		watch_boundary(s, k);
	while (k >= SERIES_SLOTS) {
		series_coarsen(s);
		k = (t_ns - s->t0_ns) / s->interval_ns;
	}
	if (k != s->cur && k % s->resid_every == 0)
		s->slot[k].resident = resident_now(s);
	s->cur = (unsigned)k;
	s->next_ns = s->t0_ns + (k + 1) * s->interval_ns;
}

unsigned series_used(const struct series *s)
{
	unsigned n = 0;

	for (unsigned k = 0; k < SERIES_SLOTS; k++)
		for (int d = 0; d < IO_DIRS; d++)
			if (s->slot[k].ops[d])
				n = k + 1;
	return n > s->cur + 1 ? n : s->cur + 1;
}

void series_merge(struct series *dst, struct series *src)
{
	while (dst->coarsened < src->coarsened)
		series_coarsen(dst);
	while (src->coarsened < dst->coarsened)
		series_coarsen(src);
	for (unsigned k = 0; k < SERIES_SLOTS; k++)
		slot_add(&dst->slot[k], &src->slot[k]);
	if (src->cur > dst->cur)
		dst->cur = src->cur;
}
