/*
 * engine_sync.c - pread(2), one read at a time.
 *
 * The simplest engine and the reference for the others: issue, wait,
 * record.  A short read continues where it stopped (a read may return less
 * than asked without being at the end), EINTR is retried, and a read that
 * returns 0 before the expected length means the file shrank under us.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <unistd.h>

#include "engine.h"

static int sync_run(struct worker *w)
{
	uint64_t off, len;
	unsigned char *buf = w->buf;

	w->t_first_ns = now_ns();
	while (pattern_next(&w->pat, &off, &len)) {
		uint64_t t0 = now_ns(), done = 0;
		/* O_DIRECT needs whole logical blocks; the end of the file cuts the read */
		uint64_t want = (len + w->align_mask) & ~w->align_mask;

		while (done < len) {
			ssize_t n = pread(w->fd, buf + done, want - done, (off_t)(off + done));

			if (n > 0) {
				done += (uint64_t)n;
			} else if (n == 0) {
				return worker_fail(w, 0, off + done, "unexpected end of file");
			} else if (errno != EINTR) {
				return worker_fail(w, errno, off + done, "read");
			}
		}
		if (!worker_complete(w, buf, off, len, t0, now_ns()))
			break;
	}
	return 0;
}

const struct engine_ops engine_sync = {
	.name = "sync",
	.flags = ENGINE_DIRECT,
	.run = sync_run,
};
