/*
 * prepare.c - creating test files; see prepare.h for the rules.
 *
 * Content: `random` is splitmix64 of (seed, position) in 8-byte words: fast,
 * non-repeating, and the same for the same seed on every machine, so the
 * checksums of two hosts can be compared.  `zero` is zeros.  `text` is one
 * pseudo-random integer 0..1000 per line, the last line cut to give the
 * exact size.
 */
#define _GNU_SOURCE
#include "prepare.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"

#define CHUNK (4u << 20)

static inline uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* The bytes of a fill=random file at offset off (a multiple of 8). */
static void prepare_random_bytes(unsigned char *buf, size_t len, uint64_t seed, uint64_t off)
{
	uint64_t key = splitmix64(seed), word = off / 8;

	for (size_t i = 0; i < len; i += 8, word++) {
		uint64_t r = splitmix64(key ^ word);

		memcpy(buf + i, &r, len - i < 8 ? len - i : 8);
	}
}

/* Text: writes whole lines into buf (at most cap bytes, at most left bytes
 * in all); the last line of the file is shortened to end exactly. */
static size_t text_chunk(unsigned char *buf, size_t cap, uint64_t left, uint64_t *state)
{
	size_t used = 0;

	while (used < cap && left - used > 0) {
		uint64_t room = left - used < cap - used ? left - used : cap - used;
		unsigned n = (unsigned)(splitmix64((*state)++) % 1001);
		char line[8];
		int len = snprintf(line, sizeof(line), "%u\n", n);

		if (left - used <= 5 && room == left - used && (uint64_t)len > left - used) {
			/* the end of the file: a number with as many digits as fit */
			static const char *const tail[] = { "", "\n", "7\n", "42\n", "500\n", "1000\n" };

			len = (int)(left - used);
			memcpy(line, tail[len], (size_t)len);
		} else if ((uint64_t)len > room) {
			(*state)--;
			break;
		}
		memcpy(buf + used, line, (size_t)len);
		used += (size_t)len;
	}
	return used;
}

static int write_all(int fd, const unsigned char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int fill_file(int fd, uint64_t size, enum fill_kind fill, uint64_t seed,
		     volatile sig_atomic_t *stop, prepare_progress_fn progress, void *arg,
		     unsigned char *buf)
{
	uint64_t done = 0, text_state = splitmix64(seed);

	memset(buf, 0, CHUNK);
	while (done < size) {
		size_t len = size - done < CHUNK ? (size_t)(size - done) : CHUNK;

		if (*stop)
			return 1;
		if (fill == FILL_RANDOM)
			prepare_random_bytes(buf, len, seed, done);
		else if (fill == FILL_TEXT)
			len = text_chunk(buf, len, size - done, &text_state);
		if (write_all(fd, buf, len) < 0)
			return -1;
		done += len;
		if (progress)
			progress(done, size, arg);
	}
	return fdatasync(fd) < 0 ? -1 : 0;
}

int prepare_file(const char *path, uint64_t size, enum fill_kind fill, uint64_t seed,
		 volatile sig_atomic_t *stop, prepare_progress_fn progress, void *arg, char *err)
{
	char *tmp = NULL;
	unsigned char *buf = NULL;
	struct stat st;
	int fd = -1, rc = -1;

	if (stat(path, &st) == 0)
		return 0;
	if (errno != ENOENT)
		return err_set(err, "%s: %s", path, strerror(errno));
	if (asprintf(&tmp, "%s.iosweep-tmp.XXXXXX", path) < 0)
		return err_set(err, "out of memory");
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		err_set(err, "cannot create %s: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	/* mkostemp makes it private; a test file is for every job that names it */
	if (fchmod(fd, 0644) < 0) {
		err_set(err, "creating %s: %s", path, strerror(errno));
		goto out;
	}
	buf = malloc(CHUNK);
	if (!buf) {
		err_set(err, "out of memory");
		goto out;
	}
	rc = fill_file(fd, size, fill, seed, stop, progress, arg, buf);
	if (rc < 0) {
		/* the temporary name goes with the file: name the one asked for */
		err_set(err, "creating %s: %s", path, strerror(errno));
		goto out;
	}
	if (rc == 0 && renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) < 0) {
		/* someone else created it meanwhile: theirs stays, ours goes */
		if (errno != EEXIST) {
			err_set(err, "renaming %s to %s: %s", tmp, path, strerror(errno));
			rc = -1;
		}
	}
out:
	free(buf);
	if (fd >= 0)
		close(fd);
	unlink(tmp); /* gone after success (renamed) or failure */
	free(tmp);
	return rc;
}
