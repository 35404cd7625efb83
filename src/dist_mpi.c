/*
 * dist_mpi.c - the collectives of dist.h over MPI_COMM_WORLD, for
 * iosweep-mpi.  Only this file includes mpi.h; it is compiled with mpicc by
 * `make mpi` in place of dist_single.c.
 */
#define _GNU_SOURCE
#include "dist.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, size;

int dist_init(int *argc, char ***argv)
{
	if (MPI_Init(argc, argv) != MPI_SUCCESS) {
		fprintf(stderr, "iosweep: MPI_Init failed\n");
		return -1;
	}
	/* errors end every rank rather than leaving the others waiting */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	return 0;
}

void dist_finish(void)
{
	MPI_Finalize();
}

int dist_rank(void)
{
	return rank;
}

int dist_size(void)
{
	return size;
}

const char *dist_host(void)
{
	static char name[MPI_MAX_PROCESSOR_NAME + 1];
	int len = 0;

	if (!name[0] && MPI_Get_processor_name(name, &len) != MPI_SUCCESS &&
	    gethostname(name, sizeof(name) - 1) < 0)
		strcpy(name, "localhost");
	return name;
}

int dist_broadcast(char **buf, size_t *len)
{
	unsigned long long n = *len;
	int failed = 0;

	MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
	if (rank != 0) {
		*len = (size_t)n;
		*buf = malloc(*len + 1);
		failed = !*buf;
	}
	if (dist_max_int(failed))
		return -1;
	/* in pieces: an MPI count is an int */
	for (size_t off = 0; off < *len; off += 1 << 30) {
		size_t piece = *len - off < (1u << 30) ? *len - off : 1u << 30;

		MPI_Bcast(*buf + off, (int)piece, MPI_BYTE, 0, MPI_COMM_WORLD);
	}
	/* rank 0's *buf is the job file's text, never NULL here */
	(*buf)[*len] = '\0'; // NOLINT(clang-analyzer-core.NullDereference)
	return 0;
}

void dist_barrier(void)
{
	MPI_Barrier(MPI_COMM_WORLD);
}

static void allreduce(void *v, size_t n, MPI_Datatype type, MPI_Op op)
{
	MPI_Allreduce(MPI_IN_PLACE, v, (int)n, type, op, MPI_COMM_WORLD);
}

void dist_sum_u64(uint64_t *v, size_t n)
{
	allreduce(v, n, MPI_UINT64_T, MPI_SUM);
}

void dist_min_u64(uint64_t *v, size_t n)
{
	allreduce(v, n, MPI_UINT64_T, MPI_MIN);
}

void dist_max_u64(uint64_t *v, size_t n)
{
	allreduce(v, n, MPI_UINT64_T, MPI_MAX);
}

void dist_max_double(double *v, size_t n)
{
	allreduce(v, n, MPI_DOUBLE, MPI_MAX);
}

void dist_gather(const void *mine, size_t len, void *all)
{
	MPI_Gather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD);
}

int dist_max_int(int status)
{
	allreduce(&status, 1, MPI_INT, MPI_MAX);
	return status;
}

void dist_abort(int status)
{
	MPI_Abort(MPI_COMM_WORLD, status);
}
