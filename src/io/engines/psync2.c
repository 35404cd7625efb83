/*
 * psync2.c - preadv2(2)/pwritev2(2) with per-I/O flags, one unit at
 * a time (fio's pvsync2).
 *
 * Options (fio's names): hipri=1 sets RWF_HIPRI, which polls for the
 * completion of an O_DIRECT transfer on a device with poll queues (the
 * kernel ignores it for buffered I/O and for devices that cannot poll);
 * nowait=1 sets RWF_NOWAIT, so a read that would block (data not in the
 * page cache) returns EAGAIN at once: the engine then asks again without
 * the flag, and the unit's latency includes both attempts, which is what
 * an application probing the cache this way pays.  Like sync, the
 * transfer happens in queue().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <sys/uio.h>

#include "io/engines/engine.h"
#include "lib/error.h"

struct psync2_state {
	int flags; /* RWF_* of every transfer */
};

static int psync2_setup(struct io_engine *e, char *err)
{
	struct psync2_state *s = calloc(1, sizeof(*s));

	if (!s)
		return err_set(err, "psync2: out of memory");
	if (e->knobs & KNOB(KNOB_HIPRI))
		s->flags |= RWF_HIPRI;
	if (e->knobs & KNOB(KNOB_NOWAIT))
		s->flags |= RWF_NOWAIT;
	e->priv = s;
	return 0;
}

static void psync2_teardown(struct io_engine *e)
{
	free(e->priv);
	e->priv = NULL;
}

static ssize_t transfer(const struct io_unit *u, int flags)
{
	struct iovec iov = { .iov_base = io_unit_buf(u), .iov_len = (size_t)io_unit_left(u) };

	return u->dir == IO_WRITE ? pwritev2(u->fd, &iov, 1, (off_t)io_unit_off(u), flags)
				  : preadv2(u->fd, &iov, 1, (off_t)io_unit_off(u), flags);
}

static enum io_queued psync2_queue(struct io_engine *e, struct io_unit *u)
{
	const struct psync2_state *s = e->priv;
	ssize_t n = transfer(u, s->flags);

	if (n < 0 && errno == EAGAIN && (s->flags & RWF_NOWAIT))
		n = transfer(u, s->flags & ~RWF_NOWAIT);
	u->res = n < 0 ? -errno : n;
	return IO_DONE;
}

const struct engine_ops engine_psync2 = {
	.name = "psync2",
	.flags = ENGINE_DIRECT,
	.knobs = KNOB(KNOB_HIPRI) | KNOB(KNOB_NOWAIT),
	.help = "preadv2(2)/pwritev2(2) with per-I/O flags (hipri, nowait), one at a time",
	.setup = psync2_setup,
	.queue = psync2_queue,
	.teardown = psync2_teardown,
};
