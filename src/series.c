/*
 * series.c - per-interval series of a repeat (see series.h).
 */
#include "series.h"

#include "cache.h"

int series_init(struct series *s)
{
	int rc = 0;

	s->fd = -1;
	for (unsigned k = 0; k < SERIES_SLOTS; k++)
		for (int d = 0; d < IO_DIRS; d++) {
			s->slot[k].h[d] = hist_new();
			rc |= s->slot[k].h[d] ? 0 : -1;
		}
	return rc;
}

void series_free(struct series *s)
{
	for (unsigned k = 0; k < SERIES_SLOTS; k++)
		for (int d = 0; d < IO_DIRS; d++) {
			hist_free(s->slot[k].h[d]);
			s->slot[k].h[d] = NULL;
		}
}

static void slot_reset(struct series_slot *sl)
{
	for (int d = 0; d < IO_DIRS; d++) {
		sl->ops[d] = sl->bytes[d] = 0;
		hist_reset(sl->h[d]);
	}
	sl->resident = -1;
}

static void slot_add(struct series_slot *dst, const struct series_slot *src)
{
	for (int d = 0; d < IO_DIRS; d++) {
		dst->ops[d] += src->ops[d];
		dst->bytes[d] += src->bytes[d];
		hist_merge(dst->h[d], src->h[d]);
	}
	if (dst->resident < 0)
		dst->resident = src->resident;
}

static double resident_now(const struct series *s)
{
	return s->fd >= 0 ? cache_resident_cheap(s->fd, s->size) : -1;
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
	s->slot[0].resident = resident_now(s);
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
	s->cur /= 2;
	s->next_ns = s->t0_ns + (s->cur + 1) * s->interval_ns;
}

void series_advance(struct series *s, uint64_t t_ns)
{
	uint64_t k = (t_ns - s->t0_ns) / s->interval_ns;

	while (k >= SERIES_SLOTS) {
		series_coarsen(s);
		k = (t_ns - s->t0_ns) / s->interval_ns;
	}
	if (k != s->cur)
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
