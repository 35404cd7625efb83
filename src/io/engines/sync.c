/*
 * sync.c - pread(2)/pwrite(2), one unit at a time.
 *
 * The simplest engine: the transfer happens in queue(), which completes
 * the unit with pread's result (a short transfer, EINTR and end of file are
 * the core's to handle).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <unistd.h>

#include "io/engines/engine.h"

static enum io_queued sync_queue(struct io_engine *e, struct io_unit *u)
{
	(void)e; /* the unit names its file (u->fd) */
	ssize_t n = u->dir == IO_WRITE
			    ? pwrite(u->fd, io_unit_buf(u), io_unit_left(u), (off_t)io_unit_off(u))
			    : pread(u->fd, io_unit_buf(u), io_unit_left(u), (off_t)io_unit_off(u));

	u->res = n < 0 ? -errno : n;
	return IO_DONE;
}

const struct engine_ops engine_sync = {
	.name = "sync",
	.flags = ENGINE_DIRECT,
	.help = "pread(2)/pwrite(2), one I/O at a time",
	.queue = sync_queue,
};
