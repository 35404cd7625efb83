/*
 * dist.h - the few collective operations a run across many hosts needs.
 *
 * iosweep-mpi (make mpi) implements them with MPI in dist_mpi.c; the
 * single-host iosweep implements them trivially in dist_single.c (one rank,
 * rank 0), so the runner calls them unconditionally and has no #ifdef.
 * Every rank calls the same collectives in the same order.
 */
#ifndef IOSWEEP_DIST_H
#define IOSWEEP_DIST_H

#include <stddef.h>
#include <stdint.h>

/* Starts the runtime; 0, or -1 (after printing why). */
int dist_init(int *argc, char ***argv);
void dist_finish(void);
int dist_rank(void);
int dist_size(void);
/* This host's name (gethostname). */
const char *dist_host(void);

/* Rank 0's buffer to every rank: on rank 0 *buf and *len are given; on the
 * others *buf is set to a malloc'd copy (with a NUL after *len bytes).
 * Returns -1 on out of memory. */
int dist_broadcast(char **buf, size_t *len);
void dist_barrier(void);
/* Element-wise over all ranks, the result on every rank. */
void dist_sum_u64(uint64_t *v, size_t n);
void dist_min_u64(uint64_t *v, size_t n);
void dist_max_u64(uint64_t *v, size_t n);
void dist_max_double(double *v, size_t n);
/* Every rank's len bytes at mine, rank after rank, into all (size * len
 * bytes) on rank 0 only. */
void dist_gather(const void *mine, size_t len, void *all);
/* The largest of every rank's status, on every rank: lets all ranks agree
 * that one of them failed. */
int dist_max_int(int status);
/* Ends every rank with this exit status; returns only on a single host. */
void dist_abort(int status);

#endif
