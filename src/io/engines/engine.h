/*
 * engine.h - how I/O is issued: one engine per file behind one ops table.
 *
 * An engine only moves bytes.  The I/O core (ioloop.c) owns the timed
 * loop: it draws offsets, hands the engine I/O units, stamps every time,
 * records latency and runs the consume step; an engine queues a unit,
 * commits what it queued, reaps completions and hands back the completed
 * units with their result.  A synchronous engine completes in queue() and
 * needs nothing else.  No engine reads a clock or knows a histogram, so
 * every engine measures the same thing.
 *
 * The table in engine.c is the only place that lists engines: the option
 * parser, the plan checks, `iosweep options` and the man-page test read
 * names, capabilities and the options an engine takes from it.
 */
#ifndef IOSWEEP_ENGINE_H
#define IOSWEEP_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


/* The values of the job option `hint`, in its order (job/options.c). */
enum hint_kind { HINT_NONE, HINT_SEQUENTIAL, HINT_RANDOM, HINT_WILLNEED, HINT_NOREUSE };

/* Options only some engines take, each on or off (fio's names; the job
 * options of the same names, in this order). */
enum engine_knob { KNOB_FIXEDBUFS, KNOB_REGISTERFILES, KNOB_SQTHREAD_POLL, KNOB_HIPRI, KNOB_NOWAIT,
		   KNOB__COUNT };
#define KNOB(k) (1U << (k))

/* Capabilities. */
#define ENGINE_QUEUED 0x1 /* keeps iodepth units in flight */
#define ENGINE_DIRECT 0x2 /* can do I/O with O_DIRECT */
#define ENGINE_MAPPED 0x4 /* copies through a memory mapping: no O_DIRECT, own hints */
#define ENGINE_HIPRI_DIRECT 0x8 /* hipri=1 polls for completions: O_DIRECT only */
#define ENGINE_FLUSH_QUEUED 0x10 /* queues a flush unit (u->flush) with I/O in flight */

enum io_dir { IO_READ, IO_WRITE, IO_DIRS };

/* One I/O: where, how much, into which buffer, which way.  The core fills
 * the request and keeps the bookkeeping; the engine sets `res` (and, when
 * it has a better word for a failure than the core's, `what`). */
struct io_unit {
	uint64_t off, len;   /* as the pattern gave it */
	uint64_t want, done; /* bytes asked (O_DIRECT: whole logical blocks), done so far */
	unsigned char *buf;  /* this unit's buffer (want bytes) */
	uint64_t t_issue;    /* when it was first queued (core) */
	uint64_t t_due;      /* under a rate limit, when it was due (core) */
	long res;            /* engine: bytes moved by this attempt, 0 at end of file, -errno */
	const char *what;    /* engine: names a failure (NULL: the core names it) */
	unsigned idx;        /* 0..iodepth-1 */
	enum io_dir dir;
	bool flush;          /* a flush of the file, not a transfer (ENGINE_FLUSH_QUEUED
			      * engines only): res 0 or -errno */
	int fd;              /* the file of a transfer: e->fd, or in a file set its file's
			      * (io/fileset.h; the core sets it) */
	uint64_t base;       /* off - base is the offset in fd's file (0 but in a file set,
			      * where off is the set offset) */
	bool trim;           /* core only: the block is to be trimmed before anything
			      * else (op=trim, trimwrite); never seen by an engine */
};

/* What an engine sees of its worker; fixed for the worker's whole run
 * except priv, which is the engine's own. */
struct io_engine {
	int fd;
	uint64_t size;             /* file size */
	uint64_t span_off, span;   /* the worker's units lie in [span_off, span_off + span)
				    * (the file, for random patterns) */
	uint64_t bs;
	unsigned iodepth;          /* units; 1 unless the engine is queued */
	enum io_dir dir;
	bool direct;               /* fd is open with O_DIRECT */
	bool sparse;               /* the pattern skips data (spacing > bs, or random) */
	int hint;                  /* enum hint_kind */
	unsigned knobs;            /* KNOB(k) set: that engine option is on */
	bool datasync;             /* a flush unit flushes the data only (fdatasync) */
	struct io_unit *units;     /* iodepth of them */
	unsigned char *bufs;       /* their buffers, one block of iodepth * bs bytes */
	size_t bufs_len;
	const char *what;          /* engine: the call that failed in commit/reap */
	void *priv;
};

/* queue() results. */
enum io_queued {
	IO_DONE,   /* completed in queue: res is set */
	IO_QUEUED, /* the engine holds it until commit */
	IO_BUSY,   /* cannot take it now: reap first, then queue it again */
};

struct engine_ops {
	const char *name;
	unsigned flags;            /* ENGINE_* */
	unsigned knobs;            /* KNOB(k) of each engine option it reads */
	const char *help;          /* one line, for `iosweep options` */
	const char *note;          /* shown with its buffered runs when not NULL */
	/* once per worker for the whole run (not timed); -1 with err */
	int (*setup)(struct io_engine *e, char *err);
	/* before each repeat, after the cache policy (not timed): the engine's
	 * own hints; NULL: the core gives e->hint to posix_fadvise */
	int (*advise)(struct io_engine *e, char *err);
	enum io_queued (*queue)(struct io_engine *e, struct io_unit *u);
	/* hands the queued units to the kernel: how many it took, or -errno
	 * (-EAGAIN: none now, reap first); NULL for engines that complete in queue */
	int (*commit)(struct io_engine *e);
	/* waits for at least min completions: how many are ready, or -errno */
	int (*reap)(struct io_engine *e, unsigned min);
	/* the i-th unit of the last reap, res set */
	struct io_unit *(*event)(struct io_engine *e, unsigned i);
	/* makes the writes done so far durable (engine_mmap: msync); NULL: the
	 * core calls fsync or fdatasync on fd.  0 or -1 with errno */
	int (*flush)(struct io_engine *e, bool data_only);
	/* after each repeat (not timed): lets go of what would keep the file's
	 * pages from the next repeat's cache policy (engine_mmap: its mapping,
	 * whose pages posix_fadvise cannot evict); may be NULL */
	void (*finish)(struct io_engine *e);
	void (*teardown)(struct io_engine *e);
	/* what setup() and the repeats make a worker of this shape hold, in
	 * bytes (the engine's state, the rings the kernel maps for it, the file
	 * pages its mappings keep), computed as setup() sizes them: the plan
	 * checks it against the memory available before anything runs.  NULL:
	 * nothing worth counting */
	uint64_t (*state_bytes)(const struct io_engine *shape);
};

const struct engine_ops *engine_find(const char *name);
/* By index: the values of the `engine` option, in table order. */
const struct engine_ops *engine_at(size_t i);
/* NULL-terminated names of every engine, in table order (the values of
 * the `engine` option). */
extern const char *engine_names[];

/* Where the next attempt of unit u goes (in u->fd's file): what is left of it. */
static inline unsigned char *io_unit_buf(const struct io_unit *u)
{
	return u->buf + u->done;
}

static inline uint64_t io_unit_off(const struct io_unit *u)
{
	return u->off - u->base + u->done;
}

static inline uint64_t io_unit_left(const struct io_unit *u)
{
	return u->want - u->done;
}

/* Bytes to ask for len bytes at a logical block alignment mask (0: any). */
static inline uint64_t io_round_up(uint64_t len, uint64_t align_mask)
{
	return (len + align_mask) & ~align_mask;
}

#endif
