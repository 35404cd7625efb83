/*
 * engine_mmap.c - reads by copying out of a shared read-only mapping.
 *
 * setup() (not timed) maps the first w->size bytes PROT_READ, MAP_SHARED
 * and applies w->hint with madvise(): none -> MADV_NORMAL, sequential ->
 * MADV_SEQUENTIAL, random -> MADV_RANDOM, willneed -> MADV_WILLNEED (which
 * starts readahead of the whole file during setup, outside the timed loop),
 * noreuse -> MADV_NORMAL, because madvise has no NOREUSE equivalent on this
 * kernel (POSIX_FADV_NOREUSE is an fadvise hint only).  run() memcpy()s
 * each block into w->buf, so consume sees the same bytes as with the other
 * engines; the read latency is the time of that copy, page faults included.
 *
 * A file truncated under the mapping raises SIGBUS on the first missing
 * page.  setup() installs a SIGBUS handler (one per process, counted, the
 * previous action restored by the last teardown()); it siglongjmp()s back
 * into run() only when the faulting thread is inside a copy and the fault
 * lies in the block being copied, and otherwise restores the previous
 * action and re-raises.  The failure is reported like a short pread: error
 * 0, "unexpected end of file (SIGBUS)", at the file's new size (clamped to
 * the block), or EIO at the block's offset when the file is not shorter
 * (a SIGBUS for a failed page-in).
 *
 * Caveats: the tail of the last page past a new end of file reads as zeros
 * without any fault, so a truncation is only seen from the next page on.
 * No O_DIRECT and no iodepth: one copy at a time.  The handler reads
 * _Thread_local state, which is async-signal-safe in an executable (static
 * TLS) but would not be from a dlopen()ed library.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "engine.h"
#include "error.h"
#include "options.h"

struct mmap_state {
	const unsigned char *map;
	size_t len;               /* mapped bytes; 0 when the file is empty */
};

/* The copy in progress in this thread, for the SIGBUS handler. */
struct bus_guard {
	sigjmp_buf jmp;
	const unsigned char *volatile lo, *volatile hi; /* block being copied */
	volatile uint64_t off, len;
	volatile sig_atomic_t armed;
};

static _Thread_local struct bus_guard bus;

static pthread_mutex_t bus_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned bus_users;
static struct sigaction bus_old;

static void bus_handler(int sig, siginfo_t *si, void *uc)
{
	const unsigned char *a = si->si_addr;

	(void)uc;
	if (bus.armed && a >= bus.lo && a < bus.hi) {
		bus.armed = 0;
		siglongjmp(bus.jmp, 1);
	}
	/* not ours: the previous action runs when the handler returns (a fault
	 * re-faults, a sent signal stays pending until then) */
	if (sigaction(SIGBUS, &bus_old, NULL) == 0 && raise(sig) == 0)
		return;
	abort();
}

static int bus_install(char *err)
{
	struct sigaction sa;
	int ret = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = bus_handler;
	sa.sa_flags = SA_SIGINFO;
	if (sigemptyset(&sa.sa_mask) < 0)
		return err_set(err, "mmap: sigemptyset: %s", strerror(errno));
	if (pthread_mutex_lock(&bus_lock) != 0)
		return err_set(err, "mmap: cannot lock the SIGBUS handler");
	if (bus_users == 0 && sigaction(SIGBUS, &sa, &bus_old) < 0)
		ret = err_set(err, "mmap: sigaction(SIGBUS): %s", strerror(errno));
	else
		bus_users++;
	if (pthread_mutex_unlock(&bus_lock) != 0)
		ret = err_set(err, "mmap: cannot unlock the SIGBUS handler");
	return ret;
}

static void bus_remove(void)
{
	if (pthread_mutex_lock(&bus_lock) != 0)
		return; /* leave the handler: it defers to bus_old when not armed */
	if (bus_users && --bus_users == 0 && sigaction(SIGBUS, &bus_old, NULL) < 0)
		bus_users = 1; /* still installed, so still counted */
	if (pthread_mutex_unlock(&bus_lock) != 0)
		return;
}

static int mmap_advice(int hint)
{
	switch (hint) {
	case HINT_SEQUENTIAL:
		return MADV_SEQUENTIAL;
	case HINT_RANDOM:
		return MADV_RANDOM;
	case HINT_WILLNEED:
		return MADV_WILLNEED;
	default: /* HINT_NONE, HINT_NOREUSE: see the comment at the top */
		return MADV_NORMAL;
	}
}

static int mmap_map(struct worker *w, struct mmap_state *s, char *err)
{
	void *p;

	if (w->size > SIZE_MAX)
		return err_set(err, "mmap: file too large to map");
	s->len = (size_t)w->size;
	if (!s->len)
		return 0;
	p = mmap(NULL, s->len, PROT_READ, MAP_SHARED, w->fd, 0);
	if (p == MAP_FAILED)
		return err_set(err, "mmap: %s", strerror(errno));
	s->map = p;
	if (madvise(p, s->len, mmap_advice(w->hint)) < 0) {
		int e = errno;

		if (munmap(p, s->len) < 0)
			return err_set(err, "mmap: madvise: %s; munmap: %s", strerror(e),
				       strerror(errno));
		return err_set(err, "mmap: madvise: %s", strerror(e));
	}
	return 0;
}

static int mmap_setup(struct worker *w, char *err)
{
	struct mmap_state *s = calloc(1, sizeof(*s));

	if (!s)
		return err_set(err, "mmap: out of memory");
	if (mmap_map(w, s, err) < 0) {
		free(s);
		return -1;
	}
	if (bus_install(err) < 0) {
		if (s->len && munmap((void *)s->map, s->len) < 0)
			err_set(err, "mmap: munmap: %s", strerror(errno));
		free(s);
		return -1;
	}
	w->priv = s;
	return 0;
}

static void mmap_teardown(struct worker *w)
{
	struct mmap_state *s = w->priv;

	bus_remove();
	/* munmap of a range we mapped only fails on a bug; teardown cannot report */
	if (s->len)
		(void)munmap((void *)s->map, s->len);
	free(s);
	w->priv = NULL;
}

static int mmap_copy_loop(struct worker *w, const struct mmap_state *s)
{
	uint64_t off, len;

	w->t_first_ns = now_ns();
	while (pattern_next(&w->pat, &off, &len)) {
		const unsigned char *src = s->map + off;
		uint64_t t0;

		bus.off = off;
		bus.len = len;
		bus.lo = src;
		bus.hi = src + len;
		t0 = now_ns();
		bus.armed = 1;
		atomic_signal_fence(memory_order_seq_cst);
		memcpy(w->buf, src, (size_t)len);
		atomic_signal_fence(memory_order_seq_cst);
		bus.armed = 0;
		if (!worker_complete(w, w->buf, off, len, t0, now_ns()))
			break;
	}
	return 0;
}

/* After a SIGBUS in the block [off, off + len): where a pread would stop. */
static int mmap_bus_fail(struct worker *w, uint64_t off, uint64_t len)
{
	struct stat st;

	if (fstat(w->fd, &st) < 0)
		return worker_fail(w, errno, off, "fstat after SIGBUS");
	if ((uint64_t)st.st_size >= off + len)
		return worker_fail(w, EIO, off, "SIGBUS");
	if ((uint64_t)st.st_size > off)
		off = (uint64_t)st.st_size;
	return worker_fail(w, 0, off, "unexpected end of file (SIGBUS)");
}

static int mmap_run(struct worker *w)
{
	const struct mmap_state *s = w->priv;

	/* saves the signal mask once per run, so the handler's siglongjmp
	 * unblocks SIGBUS again; the copies themselves do no system call */
	if (sigsetjmp(bus.jmp, 1))
		return mmap_bus_fail(w, bus.off, bus.len);
	return mmap_copy_loop(w, s);
}

const struct engine_ops engine_mmap = {
	.name = "mmap",
	.flags = 0,
	.setup = mmap_setup,
	.run = mmap_run,
	.teardown = mmap_teardown,
};
