/*
 * consume.c - the consume steps; see consume.h for their definitions.
 * They are chosen once per run (a function pointer, NULL for consume=none),
 * so the read loop does not branch on the kind, and makes no call when there
 * is nothing to do.
 */
#define _GNU_SOURCE
#include "io/consume.h"

#include <xxhash.h>
#if defined(__x86_64__) && __has_include(<xxh_x86dispatch.h>)
/* libxxhash also exports XXH3 entry points that pick SSE2, AVX2 or AVX-512
 * at run time; this header renames XXH3_64bits_withSeed to the dispatching
 * one.  Same hash values; about three times faster on 4 KiB blocks where
 * AVX2 is there (the plain entry point is built for SSE2). */
#include <xxh_x86dispatch.h>
#endif

static void consume_checksum(struct consume *c, const unsigned char *buf, uint64_t len,
			     uint64_t off)
{
	c->sum += XXH3_64bits_withSeed(buf, (size_t)len, off);
}

static void consume_ints(struct consume *c, const unsigned char *buf, uint64_t len, uint64_t off)
{
	uint64_t acc = c->int_acc, sum = c->sum;
	bool open = c->int_open;

	(void)off;
	for (uint64_t i = 0; i < len; i++) {
		unsigned d = (unsigned)buf[i] - '0';

		if (d < 10) {
			acc = acc * 10 + d;
			open = true;
		} else if (open) {
			sum += acc;
			acc = 0;
			open = false;
		}
	}
	c->int_acc = acc;
	c->int_open = open;
	c->sum = sum;
}

static consume_fn consume_select(enum consume_kind kind)
{
	switch (kind) {
	case CONSUME_CHECKSUM:
		return consume_checksum;
	case CONSUME_INTS:
		return consume_ints;
	case CONSUME_NONE:
		break;
	}
	return NULL;
}

void consume_init(struct consume *c, enum consume_kind kind)
{
	c->step = consume_select(kind);
	consume_reset(c);
}

void consume_reset(struct consume *c)
{
	c->sum = c->int_acc = 0;
	c->int_open = false;
}

void consume_finish(struct consume *c)
{
	if (c->int_open)
		c->sum += c->int_acc;
	c->int_acc = 0;
	c->int_open = false;
}
