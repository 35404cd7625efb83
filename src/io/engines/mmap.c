/*
 * mmap.c - I/O by copying through a shared mapping of the file.
 *
 * advise() (before each repeat, not timed) maps the worker's share of the
 * file (from the page its first unit starts in to its last unit's end; the
 * whole file for random patterns, so threads=N of a sequential pass take
 * the file's size in address space once, not N times), PROT_READ for
 * reads (PROT_WRITE for writes), MAP_SHARED, and gives the hint with
 * madvise() only (no posix_fadvise: page faults on a mapping read ahead by
 * the mapping's advice): none -> MADV_RANDOM for sparse and random
 * patterns (a fault on a mapping reads ahead up to the read-ahead window,
 * megabytes per touched page, which a sparse pattern never uses), else
 * MADV_NORMAL; sequential -> MADV_SEQUENTIAL; random -> MADV_RANDOM;
 * willneed -> MADV_WILLNEED (which starts read-ahead of the mapping,
 * outside the timed loop); noreuse -> as none, because madvise has no
 * NOREUSE.  queue() memcpy()s the unit between the mapping and its buffer,
 * so consume sees the same bytes as with the other engines; the latency is
 * the time of that copy, page faults included.
 *
 * Bounded memory: the pages a worker has touched stay mapped, and would
 * count in its RSS up to its whole share (with their page tables, 2 MiB per
 * GiB touched).  Once the mapped estimate since the last drop - the span
 * touched, or for sparse patterns the units' lengths plus the kernel's
 * 64 KiB fault-around each, whichever is less - reaches MMAP_BUDGET, the
 * worker goes on in a fresh mapping of the file and the old one is
 * unmapped, which frees both.  Unmapping costs per page mapped (zapping the
 * page-table entries: 100-650 us per 64 MiB of cached file here), some 5%
 * of a cached 4 KiB pass.  A program that reads a whole file through one
 * mapping pays that at munmap(), after its reads; so that the engine's bound
 * does not add it to the reads, a helper thread per worker (started in
 * setup() when the worker's share spans more than the budget, every
 * signal blocked, on a descriptor table of its own holding only the file)
 * keeps a fresh mapping ready and unmaps the old one while the worker reads
 * on: the worker's part is a swap under a mutex.  The helper's CPU time
 * counts in the repeat's (getrusage of the process), and where every CPU
 * is busy it takes time from the workers.  When the helper has not yet
 * unmapped the last mapping, or could not be started, the worker maps anew
 * itself, inside the timed loop.  At most two mappings hold pages: 2 *
 * MMAP_BUDGET.
 *
 * A file truncated under the mapping raises SIGBUS on the first missing
 * page.  setup() installs a SIGBUS handler (one per process, counted, the
 * previous action restored by the last teardown()).  When the faulting
 * thread is inside a copy and the fault lies in the unit being copied, the
 * handler maps a zero page over the missing one and notes the fault, so
 * the copy finishes without a jump; otherwise it restores the previous
 * action and re-raises.  The failure is reported like a short pread:
 * "unexpected end of file (SIGBUS)" at the file's new size (clamped to the
 * unit), or EIO at the unit's offset when the file is not shorter (a
 * SIGBUS for a failed page-in).  The worker stops at a failure, and the
 * next repeat maps the file anew.
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
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/engines/engine.h"
#include "lib/error.h"
#include "lib/threads.h"

#define MMAP_BUDGET (32u << 20)   /* bytes mapped before the file is mapped anew */
#define FAULT_AROUND (64u << 10)  /* what the kernel maps around a faulting page */

/* The helper of one worker; fields under mu. */
struct unmapper {
	pthread_t tid;
	pthread_mutex_t mu;
	pthread_cond_t work, idle; /* to the helper; to the worker */
	unsigned char *old;        /* the worker's last mapping, to unmap; NULL: none */
	unsigned char *spare;      /* a fresh mapping of the share; NULL: none (yet) */
	bool failed;               /* no spares (mmap failed, or given back): the worker maps itself */
	bool mapping;              /* the helper is making a spare */
	bool quit;
};

struct mmap_state {
	unsigned char *map;       /* the share (size bytes from file offset base); NULL: not
				   * mapped, or nothing to map */
	int fd, prot, advice;     /* advice: for every mapping after the repeat's first */
	uint64_t base;            /* the file offset the mappings start at: a page's */
	size_t size;              /* the length of every mapping */
	uint64_t lo, hi;          /* span touched since the file was mapped */
	uint64_t est;             /* sum of lengths plus fault-around since then */
	bool helped;              /* the helper runs */
	struct unmapper um;
};

/* The copy in progress in this thread, for the SIGBUS handler. */
struct bus_guard {
	unsigned char *volatile lo, *volatile hi; /* unit being copied */
	volatile sig_atomic_t armed, faulted;
};

static _Thread_local struct bus_guard bus;
static uintptr_t bus_page_mask; /* set before any handler can run */

static pthread_mutex_t bus_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned bus_users;
static struct sigaction bus_old;

static void bus_handler(int sig, siginfo_t *si, void *uc)
{
	unsigned char *a = si->si_addr;

	(void)uc;
	if (bus.armed && a >= bus.lo && a < bus.hi) {
		/* a zero page over the missing one: the copy goes on, the fault is noted */
		unsigned char *page = a - ((uintptr_t)a & ~bus_page_mask);

		if (mmap(page, ~bus_page_mask + 1, PROT_READ | PROT_WRITE,
			 MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) != MAP_FAILED) {
			bus.faulted = 1;
			return;
		}
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

/* The mapping's advice for a hint; see the comment at the top. */
static int mmap_advice(const struct io_engine *e)
{
	switch (e->hint) {
	case HINT_SEQUENTIAL:
		return MADV_SEQUENTIAL;
	case HINT_RANDOM:
		return MADV_RANDOM;
	case HINT_WILLNEED:
		return MADV_WILLNEED;
	default: /* HINT_NONE, HINT_NOREUSE */
		return e->sparse ? MADV_RANDOM : MADV_NORMAL;
	}
}

static void mmap_unmap(struct mmap_state *s)
{
	/* munmap of a range we mapped only fails on a bug; nothing to report */
	if (s->map)
		(void)munmap(s->map, s->size);
	s->map = NULL;
}

/* A new mapping of the share with advice, or NULL with errno. */
static unsigned char *map_file(const struct mmap_state *s, int advice)
{
	void *p = mmap(NULL, s->size, s->prot, MAP_SHARED, s->fd, (off_t)s->base);
	int e;

	if (p == MAP_FAILED)
		return NULL;
	if (madvise(p, s->size, advice) == 0)
		return p;
	e = errno;
	(void)munmap(p, s->size);
	errno = e;
	return NULL;
}

/* The helper: unmaps what the worker hands over, then maps a spare. */
static void *unmapper_run(void *arg)
{
	struct mmap_state *s = arg;
	struct unmapper *u = &s->um;

	thread_own_files(&s->fd, 1); /* as every thread but the main one (lib/threads.h) */
	pthread_mutex_lock(&u->mu);
	while (!u->quit) {
		if (u->old) {
			unsigned char *p = u->old;

			pthread_mutex_unlock(&u->mu);
			(void)munmap(p, s->size);
			pthread_mutex_lock(&u->mu);
			u->old = NULL;
			pthread_cond_signal(&u->idle);
		} else if (!u->spare && !u->failed) {
			unsigned char *p;

			u->mapping = true;
			pthread_mutex_unlock(&u->mu);
			p = map_file(s, s->advice);
			pthread_mutex_lock(&u->mu);
			u->mapping = false;
			if (p && u->failed) /* given back meanwhile (unmapper_release) */
				(void)munmap(p, s->size);
			else
				u->spare = p;
			u->failed = u->failed || !p;
			pthread_cond_signal(&u->idle);
		} else {
			pthread_cond_wait(&u->work, &u->mu);
		}
	}
	pthread_mutex_unlock(&u->mu);
	return NULL;
}

/* Starts the helper with every signal blocked (they are for the workers);
 * without it (false), the worker maps anew itself. */
static bool unmapper_start(struct mmap_state *s)
{
	struct unmapper *u = &s->um;
	sigset_t all, old;
	bool started;

	u->mu = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
	u->work = (pthread_cond_t)PTHREAD_COND_INITIALIZER;
	u->idle = (pthread_cond_t)PTHREAD_COND_INITIALIZER;
	if (sigfillset(&all) < 0 || pthread_sigmask(SIG_SETMASK, &all, &old) != 0)
		return false;
	started = pthread_create(&u->tid, NULL, unmapper_run, s) == 0;
	(void)pthread_sigmask(SIG_SETMASK, &old, NULL);
	return started;
}

/* With mu held: until the helper has unmapped what it was given and is
 * not making a spare. */
static void unmapper_wait(struct unmapper *u)
{
	while (u->old || u->mapping)
		pthread_cond_wait(&u->idle, &u->mu);
}

/* Not timed: after a repeat. */
static void unmapper_drain(struct unmapper *u)
{
	pthread_mutex_lock(&u->mu);
	unmapper_wait(u);
	pthread_mutex_unlock(&u->mu);
}

/* The helper's mappings given back, and no more spares: the worker maps
 * anew itself from now on (the helper idles until teardown). */
static void unmapper_release(struct mmap_state *s)
{
	struct unmapper *u = &s->um;

	pthread_mutex_lock(&u->mu);
	u->failed = true; /* no more spares */
	unmapper_wait(u);
	if (u->spare)
		(void)munmap(u->spare, s->size);
	u->spare = NULL;
	pthread_mutex_unlock(&u->mu);
}

static void unmapper_stop(struct mmap_state *s)
{
	struct unmapper *u = &s->um;

	pthread_mutex_lock(&u->mu);
	u->quit = true;
	pthread_cond_signal(&u->work);
	pthread_mutex_unlock(&u->mu);
	pthread_join(u->tid, NULL);
	if (u->old)
		(void)munmap(u->old, s->size);
	if (u->spare)
		(void)munmap(u->spare, s->size);
}

/* The worker's side: its mapping for the helper's spare; false when the
 * helper has none ready or is still unmapping the last one. */
static bool unmapper_swap(struct mmap_state *s)
{
	struct unmapper *u = &s->um;
	bool swapped = false;

	pthread_mutex_lock(&u->mu);
	if (!u->old && u->spare && s->map) {
		u->old = s->map;
		s->map = u->spare;
		u->spare = NULL;
		pthread_cond_signal(&u->work);
		swapped = true;
	}
	pthread_mutex_unlock(&u->mu);
	return swapped;
}

/* Maps the share anew with advice; 0 or -errno.  Out of address space
 * (a huge file, or ulimit -v) with the helper's mappings in it: without
 * them, as without a helper. */
static int mmap_map(struct mmap_state *s, int advice)
{
	mmap_unmap(s);
	s->lo = UINT64_MAX;
	s->hi = s->est = 0;
	if (!s->size)
		return 0;
	s->map = map_file(s, advice);
	if (!s->map && errno == ENOMEM && s->helped) {
		unmapper_release(s);
		s->map = map_file(s, advice);
	}
	return s->map ? 0 : -errno;
}

/* The worker's share as every mapping of it covers it: from the page its
 * first unit starts in to its last unit's end. */
static void share_of(const struct io_engine *e, uint64_t page, uint64_t *base, size_t *size)
{
	*base = e->span_off & ~(page - 1);
	*size = e->span ? (size_t)(e->span_off + e->span - *base) : 0;
}

/* The file pages a worker's mappings keep, at most: its share, or beyond
 * MMAP_BUDGET two mappings of MMAP_BUDGET each (the one read through and
 * the one its helper has not unmapped yet), with their page tables (8
 * bytes a page); and the state.  The helper thread's stack is not counted. */
static uint64_t mmap_state_bytes(const struct io_engine *shape)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t base, held;
	size_t size;

	share_of(shape, page > 0 ? (uint64_t)page : 4096, &base, &size);
	held = shape->span > MMAP_BUDGET ? 2 * (uint64_t)MMAP_BUDGET : size;
	return sizeof(struct mmap_state) + held + held / 4096 * 8;
}

static int mmap_setup(struct io_engine *e, char *err)
{
	struct mmap_state *s;
	long page = sysconf(_SC_PAGESIZE);

	if (e->size > SIZE_MAX)
		return err_set(err, "mmap: file too large to map");
	if (page <= 0)
		return err_set(err, "mmap: cannot find the page size");
	s = calloc(1, sizeof(*s));
	if (!s)
		return err_set(err, "mmap: out of memory");
	s->fd = e->fd;
	s->prot = e->dir == IO_WRITE ? PROT_READ | PROT_WRITE : PROT_READ;
	/* WILLNEED is done by the repeat's first mapping; later ones keep only
	 * the access pattern */
	s->advice = mmap_advice(e) == MADV_WILLNEED ? MADV_NORMAL : mmap_advice(e);
	share_of(e, (uint64_t)page, &s->base, &s->size);
	if (bus_install(err) < 0) {
		free(s);
		return -1;
	}
	bus_page_mask = ~((uintptr_t)page - 1);
	if (e->span > MMAP_BUDGET) /* else the worker never maps anew */
		s->helped = unmapper_start(s);
	e->priv = s;
	return 0;
}

static int mmap_advise(struct io_engine *e, char *err)
{
	struct mmap_state *s = e->priv;
	int ret;

	ret = mmap_map(s, mmap_advice(e));
	if (ret < 0)
		return err_set(err, "mmap: %s", strerror(-ret));
	return 0;
}

/* The mappings go after each repeat, the helper's too: the pages they map
 * could not be evicted by the next repeat's cache policy (advise maps the
 * file again; the helper's spare maps no page). */
static void mmap_finish(struct io_engine *e)
{
	struct mmap_state *s = e->priv;

	if (s->helped)
		unmapper_drain(&s->um);
	mmap_unmap(s);
}

static void mmap_teardown(struct io_engine *e)
{
	struct mmap_state *s = e->priv;

	if (s->helped)
		unmapper_stop(s);
	mmap_unmap(s);
	bus_remove();
	free(s);
	e->priv = NULL;
}

/* After a SIGBUS in unit u: where a pread would have stopped.  (Cold, and
 * out of line like mmap_drop(), so that mmap_queue() stays small.) */
__attribute__((cold, noinline)) static void mmap_bus_fail(const struct io_engine *e, struct io_unit *u)
{
	struct stat st;

	if (fstat(e->fd, &st) < 0) {
		u->res = -errno;
		u->what = "fstat after SIGBUS";
	} else if ((uint64_t)st.st_size >= u->off + u->len) {
		u->res = -EIO;
		u->what = "SIGBUS";
	} else {
		if ((uint64_t)st.st_size > u->off)
			u->done = (uint64_t)st.st_size - u->off;
		u->res = 0;
		u->what = "unexpected end of file (SIGBUS)";
	}
}

/* The budget is spent: the file mapped anew for unit u, by the helper or
 * else here; -1 when that failed (u says why). */
__attribute__((cold, noinline)) static int mmap_drop(struct mmap_state *s, struct io_unit *u)
{
	int ret = s->helped && unmapper_swap(s) ? 0 : mmap_map(s, s->advice);

	if (ret < 0) {
		u->res = ret;
		u->what = "mmap";
		return -1;
	}
	s->lo = u->off;
	s->hi = u->off + u->len;
	s->est = u->len + FAULT_AROUND;
	return 0;
}

static enum io_queued mmap_queue(struct io_engine *e, struct io_unit *u)
{
	struct mmap_state *s = e->priv;
	uint64_t off = u->off, len = u->len, end = off + len;
	unsigned char *at;

	/* bounded memory: see the comment at the top */
	s->lo = off < s->lo ? off : s->lo;
	s->hi = end > s->hi ? end : s->hi;
	s->est += len + FAULT_AROUND;
	if (__builtin_expect(s->hi - s->lo > MMAP_BUDGET && s->est > MMAP_BUDGET, 0) &&
	    mmap_drop(s, u) < 0)
		return IO_DONE;
	if (__builtin_expect(!s->map, 0)) { /* the file was empty when mapped */
		u->res = 0;
		return IO_DONE;
	}
	at = s->map + (off - s->base);
	bus.lo = at;
	bus.hi = at + len;
	bus.faulted = 0;
	bus.armed = 1;
	atomic_signal_fence(memory_order_seq_cst);
	if (u->dir == IO_WRITE)
		memcpy(at, u->buf, (size_t)len);
	else
		memcpy(u->buf, at, (size_t)len);
	atomic_signal_fence(memory_order_seq_cst);
	bus.armed = 0;
	if (__builtin_expect(bus.faulted, 0))
		mmap_bus_fail(e, u);
	else
		u->res = (long)len;
	return IO_DONE;
}

/* msync of the whole mapping: every page of the share written through this
 * or an earlier mapping (dirty pages stay in the page cache when a mapping
 * goes).  msync has no data-only variant: it is always an fdatasync. */
static int mmap_flush(struct io_engine *e, bool data_only)
{
	struct mmap_state *s = e->priv;

	(void)data_only;
	e->what = s->map ? "msync" : "fdatasync";
	return s->map ? msync(s->map, s->size, MS_SYNC) : fdatasync(e->fd);
}

const struct engine_ops engine_mmap = {
	.name = "mmap",
	.flags = ENGINE_MAPPED,
	.help = "memcpy from or into a shared mapping of the file, one block at a time",
	.setup = mmap_setup,
	.advise = mmap_advise,
	.queue = mmap_queue,
	.flush = mmap_flush,
	.finish = mmap_finish,
	.teardown = mmap_teardown,
	.state_bytes = mmap_state_bytes,
};
