/*
 * data.c - the data iosweep writes, and recognizing it; see data.h.
 *
 * A unit's generator bytes are a window of a seeded pool of random words,
 * chosen and XOR-ed by a per-unit key: as incompressible as the pool (no two
 * units share a byte sequence, since their keys differ), yet produced at
 * memory speed, so that producing a block costs about what checksumming it
 * does and the write loop measures the writes, not a random generator.
 */
#define _GNU_SOURCE
#include "io/data.h"

#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/error.h"

#define POOL_BITS 13                               /* windows start in 8192 words */
#define UNIT_WORDS ((DATA_UNIT - DATA_HEADER) / 8) /* generator words of a unit */
#define SECTOR ((uint64_t)512)
#define DATA_MAGIC 0x31504557534f4921ULL /* "!IOSWEP1" read little-endian */

/* Four words at a time: SSE2 or AVX2 moves, whatever the compiler's flags. */
typedef uint64_t vec4 __attribute__((vector_size(32)));

/* A different stream from the fill of created files and from the offsets. */
static uint64_t data_key(uint64_t seed)
{
	return splitmix64(seed ^ 0x6461746164617461ULL);
}

uint64_t data_mix_key(uint64_t seed)
{
	return splitmix64(data_key(seed) ^ 0x6d69786d69786d69ULL);
}

static inline uint64_t unit_key(uint64_t key, uint64_t unit_off)
{
	return splitmix64(key ^ unit_off);
}

#define POOL_WORDS (((size_t)1 << POOL_BITS) + UNIT_WORDS)

/* The pool as data_gen_init() allocates it, in bytes. */
static size_t pool_bytes(void)
{
	return (POOL_WORDS * sizeof(uint64_t) + 63) & ~(size_t)63;
}

size_t data_gen_bytes(enum data_kind kind)
{
	return kind == DATA_ZERO ? 0 : pool_bytes();
}

int data_gen_init(struct data_gen *g, enum data_kind kind, unsigned compress_pct, uint64_t seed,
		  char *err)
{
	size_t words = POOL_WORDS;

	memset(g, 0, sizeof(*g));
	if (compress_pct > 99)
		return err_set(err, "compress: %u%% leaves no data (0 to 99)", compress_pct);
	g->kind = kind;
	g->seed = seed;
	g->key = data_key(seed);
	g->mix_key = data_mix_key(seed);
	g->random_bytes = (unsigned)(UNIT_WORDS * (100 - compress_pct) / 100) * 8 & ~31u;
	if (kind == DATA_ZERO)
		return 0;
	g->pool = aligned_alloc(64, pool_bytes());
	if (!g->pool)
		return err_set(err, "out of memory");
	for (size_t i = 0; i < words; i++)
		g->pool[i] = splitmix64(g->key + i);
	return 0;
}

void data_gen_free(struct data_gen *g)
{
	free(g->pool);
	g->pool = NULL;
}

/* The whole unit that starts at file offset unit_off.  Built twice, for
 * AVX2 and for the baseline, and picked at load time (an ifunc); not under
 * ThreadSanitizer (make tsan), which instruments the ifunc's resolver, and
 * that runs before the sanitizer has started. */
#ifdef __SANITIZE_THREAD__
static void
#else
__attribute__((target_clones("avx2", "default"))) static void
#endif
unit_fill(const struct data_gen *g, uint64_t unit_off, unsigned char *dst)
{
	uint64_t k = unit_key(g->key, unit_off);
	uint64_t head[4] = { htole64(DATA_MAGIC), htole64(unit_off), htole64(g->seed), htole64(k) };
	unsigned char *body = dst + DATA_HEADER;
	vec4 kv = { k, k, k, k };

	if (g->kind == DATA_ZERO) { /* no pool: zero data has none */
		memset(dst, 0, DATA_UNIT);
		return;
	}
	/* windows start on 32-byte boundaries: whole-vector loads */
	const unsigned char *src =
		(const unsigned char *)(g->pool + ((k >> (64 - POOL_BITS)) & ~(uint64_t)3));

	/* n in a local: the stores below could alias *g, and reloading it
	 * every round costs as much as the round */
	const size_t n = g->random_bytes;

	memcpy(dst, head, sizeof(head));
#pragma GCC unroll 4
	for (size_t i = 0; i < n; i += sizeof(vec4)) {
		vec4 w;

		memcpy(&w, src + i, sizeof(w));
		w ^= kv;
		memcpy(body + i, &w, sizeof(w));
	}
	memset(body + n, 0, DATA_UNIT - DATA_HEADER - n);
}

void data_produce(const struct data_gen *g, unsigned char *buf, uint64_t len, uint64_t off)
{
	while (len > 0) {
		uint64_t unit = off & ~(uint64_t)(DATA_UNIT - 1), from = off - unit;
		uint64_t n = DATA_UNIT - from < len ? DATA_UNIT - from : len;

		if (n == DATA_UNIT) {
			unit_fill(g, unit, buf);
		} else {
			unsigned char whole[DATA_UNIT];

			unit_fill(g, unit, whole);
			memcpy(buf, whole + from, n);
		}
		buf += n;
		off += n;
		len -= n;
	}
}

static uint64_t count_diff(const unsigned char *a, const unsigned char *b, uint64_t n,
			   uint64_t *first)
{
	uint64_t d = 0;

	for (uint64_t i = n; i-- > 0;)
		if (a[i] != b[i]) {
			d++;
			*first = i;
		}
	return d;
}

static bool all_zero(const unsigned char *p, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* The header of an iosweep unit, if found holds one (whichever seed). */
static bool read_header(const unsigned char *found, uint64_t *unit_off, uint64_t *seed)
{
	uint64_t h[4];

	memcpy(h, found, sizeof(h));
	*unit_off = le64toh(h[1]);
	*seed = le64toh(h[2]);
	return le64toh(h[0]) == DATA_MAGIC && le64toh(h[3]) == unit_key(data_key(*seed), *unit_off);
}

/* found holds bytes [from, from + n) of the unit at unit_off, want the whole
 * unit as it should be, and they differ: say how. */
static void classify(const unsigned char *found, const unsigned char *want, uint64_t unit_off,
		     uint64_t from, uint64_t n, uint64_t seed, struct data_fault *f)
{
	unsigned first_s = (unsigned)(from / SECTOR), last_s = (unsigned)((from + n - 1) / SECTOR);
	unsigned matched = 0, replaced = 0, differ = 0, lo = ~0u, hi = 0;
	uint64_t first = 0, hdr_off, hdr_seed;

	memset(f, 0, sizeof(*f));
	f->unit_off = unit_off;
	f->bytes = count_diff(found, want + from, n, &first);
	f->off = unit_off + from + first;
	for (unsigned s = first_s; s <= last_s; s++) {
		uint64_t a = s * SECTOR > from ? s * SECTOR : from, end = from + n;
		uint64_t b = (s + 1) * SECTOR < end ? (s + 1) * SECTOR : end, x;
		uint64_t d = count_diff(found + (a - from), want + a, b - a, &x);

		if (d == 0) {
			matched++;
			continue;
		}
		differ++;
		replaced += 2 * d > b - a; /* random against random: ~255 of 256 bytes */
		lo = s < lo ? s : lo;
		hi = s;
	}
	f->first_sector = lo;
	f->last_sector = hi;
	if (matched) {
		f->kind = replaced == differ ? FAULT_TORN : FAULT_CORRUPT;
		return;
	}
	/* nothing of it is ours: the fault is the whole unit */
	f->off = unit_off + from;
	if (all_zero(found, n)) {
		f->kind = FAULT_ZEROS;
	} else if (from == 0 && n >= DATA_HEADER && read_header(found, &hdr_off, &hdr_seed) &&
		   (hdr_off != unit_off || hdr_seed != seed)) {
		f->kind = hdr_off != unit_off ? FAULT_MISPLACED : FAULT_STALE;
		f->other = hdr_off != unit_off ? hdr_off : hdr_seed;
	} else if (2 * f->bytes > n) {
		f->kind = FAULT_FOREIGN;
	} else {
		f->kind = FAULT_CORRUPT; /* a few bytes in every sector */
		f->off = unit_off + from + first;
	}
}

bool data_check(const struct data_gen *g, const unsigned char *buf, uint64_t len, uint64_t off,
		struct data_fault *f)
{
	unsigned char want[DATA_UNIT];

	while (len > 0) {
		uint64_t unit = off & ~(uint64_t)(DATA_UNIT - 1), from = off - unit;
		uint64_t n = DATA_UNIT - from < len ? DATA_UNIT - from : len;

		unit_fill(g, unit, want);
		if (memcmp(buf, want + from, n) != 0) {
			classify(buf, want, unit, from, n, g->seed, f);
			return false;
		}
		buf += n;
		off += n;
		len -= n;
	}
	return true;
}

void data_fault_describe(const struct data_fault *f, char *buf, size_t n)
{
	unsigned long long off = f->off, unit = f->unit_off, other = f->other;

	switch (f->kind) {
	case FAULT_NONE:
		snprintf(buf, n, "good");
		break;
	case FAULT_CORRUPT:
		snprintf(buf, n, "offset %llu: corrupt: %llu byte%s of the 4 KiB unit at %llu differ",
			 off, (unsigned long long)f->bytes, f->bytes == 1 ? "" : "s", unit);
		break;
	case FAULT_TORN:
		snprintf(buf, n, "offset %llu: torn: sectors %u-%u (512 bytes each) of the 4 KiB "
				 "unit at %llu are not this write's, the others are",
			 off, f->first_sector, f->last_sector, unit);
		break;
	case FAULT_STALE:
		snprintf(buf, n, "offset %llu: stale: iosweep data of seed %llu, not this run's",
			 off, other);
		break;
	case FAULT_MISPLACED:
		snprintf(buf, n, "offset %llu: misplaced: holds the iosweep data of offset %llu",
			 off, other);
		break;
	case FAULT_ZEROS:
		snprintf(buf, n, "offset %llu: zeros (a hole or a lost write) where data was written",
			 off);
		break;
	case FAULT_FOREIGN:
		snprintf(buf, n, "offset %llu: foreign: not data iosweep writes", off);
		break;
	}
}

static int read_full(int fd, unsigned char *buf, uint64_t len, uint64_t off, char *err)
{
	uint64_t done = 0;

	while (done < len) {
		unsigned long long at = off + done;
		ssize_t r = pread(fd, buf + done, (size_t)(len - done), (off_t)at);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return err_set(err, "verify: read at offset %llu: %s", at, strerror(errno));
		if (r == 0)
			return err_set(err, "verify: unexpected end of file at offset %llu", at);
		done += (uint64_t)r;
	}
	return 0;
}

int data_verify(const struct data_gen *g, int fd, struct pattern *p, unsigned rwmixread,
		unsigned char *buf, struct data_fault *f, uint64_t *checked, char *err)
{
	uint64_t off, len;

	*checked = 0;
	while (pattern_next(p, &off, &len)) {
		if (rwmixread && data_draw_percent(g, off) < rwmixread)
			continue;
		*checked += len;
		if (read_full(fd, buf, len, off, err) < 0)
			return -1;
		if (!data_check(g, buf, len, off, f))
			return 1;
	}
	return 0;
}
