/*
 * dist_single.c - the collectives of dist.h for one process: rank 0 of 1.
 * Every operation is the identity, so single-host iosweep does not link MPI.
 */
#define _GNU_SOURCE
#include "run/dist.h"

#include <string.h>
#include <unistd.h>

static volatile atomic_int *watched;

int dist_init(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

void dist_finish(void)
{
}

int dist_rank(void)
{
	return 0;
}

int dist_size(void)
{
	return 1;
}

const char *dist_host(void)
{
	static char name[256];

	if (!name[0] && gethostname(name, sizeof(name) - 1) < 0)
		strcpy(name, "localhost");
	return name;
}

bool dist_host_leader(void)
{
	return true;
}

void dist_watch(volatile atomic_int *stop)
{
	watched = stop;
}

void dist_on_stop(void (*fn)(void *arg, bool final), void *arg)
{
	(void)fn;
	(void)arg;
}

int dist_agree(int status, char *err)
{
	(void)err;
	return status | (watched && *watched ? DIST_STOP : 0);
}

int dist_start_line(int status, char *err)
{
	return dist_agree(status, err);
}

int dist_broadcast(char **buf, size_t *len)
{
	(void)buf;
	(void)len;
	return 0;
}

void dist_broadcast_u64(uint64_t *v, size_t n)
{
	(void)v;
	(void)n;
}

void dist_sum_u64(uint64_t *v, size_t n)
{
	(void)v;
	(void)n;
}

void dist_min_u64(uint64_t *v, size_t n)
{
	(void)v;
	(void)n;
}

void dist_max_u64(uint64_t *v, size_t n)
{
	(void)v;
	(void)n;
}

void dist_gather(const void *mine, size_t len, void *all)
{
	memmove(all, mine, len);
}

int dist_max_int(int status)
{
	return status;
}
