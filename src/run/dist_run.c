/*
 * dist_run.c - the parts of a run that its ranks do together, outside the
 * timed loop: creating the test file once, the shares of a file that ranks
 * read together, and consume=ints across the cuts between shares.
 *
 * Creating once.  When N ranks all create a missing file shared between
 * them, N temporary copies are written at once and one rename wins: N
 * times the writes, which on a parallel file system with 64 ranks is the
 * whole run's cost.  So (the collectives are those of dist.h's protocol):
 *   1. rank 0 creates the file if it is missing; agree.
 *   2. on every host where rank 0's file is not seen (a node-local path),
 *      the host's first rank creates it, from the same fill and seed, so
 *      with the same bytes; agree.
 *   3. every rank checks the file: it is there, and a file that all ranks
 *      share has rank 0's size and creation record (prepare.h); agree.
 * A {rank} file is no other rank's: each creates its own; agree.  Step 2
 * decides by looking, after step 1's agree, for the file at the path: on a
 * shared file system it is rank 0's (same inode); on a node-local one it is
 * absent, or a file that was already there, which iosweep only reads.  A
 * host that does not yet see rank 0's file on a shared file system (an NFS
 * client's negative lookup cache) writes a copy that loses the rename and is
 * removed: the same bytes, one extra write, never a wrong result.
 *
 * consume=ints.  Shares are cut at read boundaries, which can cut a number
 * in two; each share's sum then counts both pieces.  The digits of a run
 * that ends at the cut have value h (mod 2^64, as consume's sum is), and
 * the piece after the cut has L digits: joined they are h * 10^L + piece,
 * so the share after the cut adds h * (10^L - 1).  Chains (a number over
 * several cuts) add up the same way, cut by cut.  10^64 is 0 mod 2^64, so
 * the last 64 digits before a cut and the first 64 after it are all that
 * matters: two small reads after the timed loop, whatever the file.
 *
 * Page-cache figures.  A host's page cache holds one copy of each file it
 * caches, however many of its ranks use it: a figure of a file's cached
 * pages (dirty_end_bytes) is summed over one rank per host and file.
 */
#define _GNU_SOURCE
#include "run/dist_run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <limits.h>

#include "io/fileset.h"
#include "lib/error.h"
#include "lib/intmath.h"
#include "run/dist.h"

int dist_agreed(int rc, char *err)
{
	int s = dist_agree(rc < 0 ? DIST_FAILED : rc > 0 ? DIST_STOP : 0, err);

	return s & DIST_FAILED ? -1 : s & DIST_STOP ? 1 : 0;
}

static int create(const struct run *run, volatile atomic_int *stop,
		  prepare_progress_fn progress, void *arg, char *err)
{
	const union optval *v = run->v;
	/* a file that every repeat of a write run empties first is made empty */
	bool empty = v[OPT_OP].u != OP_READ && v[OPT_ALLOC].u != ALLOC_OVERWRITE;

	struct bsmix m;
	const struct bsmix *sizes = plan_set_sizes(v, &m) ? &m : NULL;

	if (run->blockdev)
		return 0;
	/* a file set: each of its files made as a single file is, in order,
	 * each its size */
	for (unsigned k = 0; v[OPT_NRFILES].u > 1 && k < v[OPT_NRFILES].u; k++) {
		char path[PATH_MAX];
		int rc;

		if (fileset_path(v[OPT_FILENAME].s, k, path, sizeof(path)) < 0)
			return err_set(err, "%s: file name too long", v[OPT_FILENAME].s);
		rc = prepare_file(path, run_file_bytes(run, sizes, k), v[OPT_FILL].u,
				  v[OPT_SEED].u, stop, progress, arg, err);
		if (rc != 0 || k + 1 == v[OPT_NRFILES].u)
			return rc;
	}
	return prepare_file(v[OPT_FILENAME].s, empty ? 0 : v[OPT_SIZE].u, v[OPT_FILL].u,
			    v[OPT_SEED].u, stop, progress, arg, err);
}

/* What a rank sees at the path: its size and creation record. */
struct seen {
	uint64_t size, recorded, fill, seed, record_size, written;
};

static int look(const char *path, struct seen *s, char *err)
{
	struct prepare_record rec = { 0 };
	struct stat st;
	int has;

	memset(s, 0, sizeof(*s));
	if (stat(path, &st) < 0)
		return err_set(err, "%s: %s after it was created", path, strerror(errno));
	has = prepare_record_read(path, &rec, err);
	if (has < 0)
		return -1;
	*s = (struct seen){ (uint64_t)st.st_size, (uint64_t)has, rec.fill, rec.seed, rec.size,
			    rec.written };
	return 0;
}

static const char *describe(const struct seen *s, char *buf, size_t n)
{
	if (!s->recorded)
		return "none";
	snprintf(buf, n, "fill=%s seed=%llu%s", option_table[OPT_FILL].values[s->fill],
		 (unsigned long long)s->seed, s->written ? " written=1" : "");
	return buf;
}

/* Step 3: what this rank sees at the path is what rank 0 sees. */
static int check(const struct run *run, char *err)
{
	char first[PATH_MAX];
	const char *path = run->v[OPT_FILENAME].s;

	/* a file set: its first file stands for it (the ranks made it alike) */
	if (run->v[OPT_NRFILES].u > 1 && fileset_path(path, 0, first, sizeof(first)) == 0)
		path = first;
	struct seen mine, root;
	uint64_t size = run->v[OPT_SIZE].u;
	int rc = look(path, &mine, err);

	root = mine;
	dist_broadcast_u64(&root.size, sizeof(root) / sizeof(uint64_t));
	dist_broadcast_u64(&size, 1);
	/* a file of each rank's own is read to the run's size, which without a
	 * size in the job each rank took from its own file */
	if (rc == 0 && run->per_rank && run->v[OPT_SIZE].u != size)
		return err_set(err, "%s: the run reads %llu bytes of it here but %llu bytes on "
				    "rank 0: the ranks would run different plans (give a size "
				    "in the job, or make the ranks' files the same size)", path,
			       (unsigned long long)run->v[OPT_SIZE].u, (unsigned long long)size);
	if (rc < 0 || run->blockdev || run->per_rank)
		return rc;
	if (mine.size != root.size)
		return err_set(err, "%s is %llu bytes here but %llu bytes on rank 0: ranks that "
				    "share a file must see the same one (for a file of each "
				    "host's own, put {host} in filename)", path,
			       (unsigned long long)mine.size, (unsigned long long)root.size);
	if (memcmp(&mine, &root, sizeof(mine)) != 0) {
		char a[64], b[64];

		return err_set(err, "%s has another creation record here (%s) than on rank 0 "
				    "(%s): ranks that share a file must see the same one (for a "
				    "file of each host's own, put {host} in filename)", path,
			       describe(&mine, a, sizeof(a)), describe(&root, b, sizeof(b)));
	}
	return 0;
}

int dist_prepare(const struct run *run, volatile atomic_int *stop,
		 prepare_progress_fn progress, void *arg, char *err)
{
	const char *path = run->v[OPT_FILENAME].s;
	struct stat st;
	int rc = 0;

	/* a user's tree: only read, scanned by each rank; a tree iosweep makes:
	 * made by its runs (one host) */
	if (run->v[OPT_OPENDIR].s || run->v[OPT_TREE].s)
		return dist_agreed(0, err);
	if (dist_size() == 1)
		return dist_agreed(create(run, stop, progress, arg, err), err);
	if (run->rank_file) {
		rc = dist_agreed(create(run, stop, progress, arg, err), err);
		return rc != 0 ? rc : dist_agreed(check(run, err), err);
	}
	if (dist_rank() == 0)
		rc = create(run, stop, progress, arg, err);
	rc = dist_agreed(rc, err);
	if (rc != 0)
		return rc;
	if (dist_host_leader() && dist_rank() != 0 && stat(path, &st) < 0 && errno == ENOENT)
		rc = create(run, stop, progress, arg, err);
	rc = dist_agreed(rc, err);
	if (rc != 0)
		return rc;
	return dist_agreed(check(run, err), err);
}

void dist_share(uint64_t n, int rank, int ranks, uint64_t *first, uint64_t *end)
{
	*first = share_start(n, (unsigned)rank, (unsigned)ranks);
	*end = share_start(n, (unsigned)rank + 1, (unsigned)ranks);
}

bool dist_counts_cached_copy(const struct run *run, bool system_wide)
{
	return (run->rank_file && !system_wide) || dist_host_leader();
}

static bool digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

uint64_t dist_ints_join(const unsigned char *before, size_t nbefore,
			const unsigned char *after, size_t nafter)
{
	uint64_t head = 0, scale = 1, pow10 = 1;
	size_t i = nbefore;

	if (!nbefore || !nafter || !digit(before[nbefore - 1]) || !digit(after[0]))
		return 0;
	/* h: the digits that end at the cut, last one first */
	while (i > 0 && digit(before[i - 1])) {
		head += (uint64_t)(before[i - 1] - '0') * scale;
		scale *= 10;
		i--;
	}
	/* 10^L for the L digits that follow it (0 once L reaches 64) */
	for (size_t k = 0; k < nafter && digit(after[k]); k++)
		pow10 *= 10;
	return head * (pow10 - 1);
}

static int read_at(int fd, unsigned char *buf, size_t n, uint64_t off, size_t *got)
{
	*got = 0;
	while (*got < n) {
		ssize_t r = pread(fd, buf + *got, n - *got, (off_t)(off + *got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		*got += (size_t)r;
	}
	return 0;
}

int dist_ints_correction(const char *path, uint64_t at, uint64_t end, uint64_t *add,
			 char *err)
{
	unsigned char before[DIST_INTS_WINDOW], after[DIST_INTS_WINDOW];
	uint64_t from = at > DIST_INTS_WINDOW ? at - DIST_INTS_WINDOW : 0;
	size_t nb = 0, na = 0;
	int fd;

	*add = 0;
	if (at == 0 || end <= at)
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read_at(fd, before, (size_t)(at - from), from, &nb) < 0 ||
	    read_at(fd, after, end - at < DIST_INTS_WINDOW ? (size_t)(end - at) : DIST_INTS_WINDOW,
		    at, &na) < 0) {
		err_set(err, "%s: reading around byte %llu for consume=ints: %s", path,
			(unsigned long long)at, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	*add = dist_ints_join(before, nb, after, na);
	return 0;
}
