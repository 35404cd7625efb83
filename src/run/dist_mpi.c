/*
 * dist_mpi.c - the collectives of dist.h over MPI, for iosweep-mpi.  Only
 * this file includes mpi.h; it is compiled with mpicc by `make mpi` in place
 * of dist_single.c.  The protocol they serve is described in dist.h.
 *
 * Two things are not plain MPI calls:
 *
 * - Every collective is started non-blocking and waited for here (wait_for()),
 *   MPI_Test in a loop that spins for a few milliseconds and then sleeps a
 *   little between tests: ranks that wait for rank 0 to create a large file
 *   do not burn their cores, and a rank whose stop is set can give up on
 *   a collective that a dead rank will never reach (dist.h: the grace).
 * - A watcher thread (MPI_THREAD_MULTIPLE) carries stops between ranks on
 *   a communicator of its own: when this rank's stop flag is set by a
 *   signal, it sends one note to every other rank; when a note arrives, it
 *   sets the flag.  A flag set by an agree (every rank knows) or by a note
 *   is not sent on.  dist_finish() stops the thread and receives every
 *   note sent to this rank before MPI_Finalize, so none is left in flight.
 *   Without MPI_THREAD_MULTIPLE there is no watcher and a stop travels with
 *   the next agree only.
 */
#define _GNU_SOURCE
#include "run/dist.h"

#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/error.h"

enum { TAG_STOP = 1, WATCH_MS = 20, SPIN_MS = 10, GRACE_OTHERS_MS = 5000 };

static int rank, size;
static bool leader;
static MPI_Comm world;  /* the collectives (a copy of MPI_COMM_WORLD) */
static MPI_Comm notes;  /* the watcher's stop notes */

static volatile atomic_int *watched;
static int known;       /* the stop came from an agree or a note: not sent on */
static void (*on_stop)(void *, bool);
static void *on_stop_arg;
static bool saved;      /* on_stop(false) was called */
static int grace_ms;    /* once stopped: how long a wait waits for the others */

static struct {
	pthread_t thread;
	bool possible;          /* MPI_THREAD_MULTIPLE */
	bool running;
	int quit;
	MPI_Request recv;
	MPI_Request *sends;     /* one per rank, when this rank sent its notes */
	int sent, got;
	char in, out;
} watcher;

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void sleep_us(long us)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = us * 1000 };

	nanosleep(&ts, NULL);
}

static bool stopped(void)
{
	return watched && *watched;
}

int dist_init(int *argc, char ***argv)
{
	int provided = MPI_THREAD_SINGLE;
	MPI_Comm host;
	int host_rank = 0;

	if (MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) {
		fprintf(stderr, "iosweep: MPI_Init failed\n");
		return -1;
	}
	/* errors end every rank rather than leaving the others waiting */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_dup(MPI_COMM_WORLD, &world);
	MPI_Comm_dup(MPI_COMM_WORLD, &notes);
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &host);
	MPI_Comm_rank(host, &host_rank);
	MPI_Comm_free(&host);
	leader = host_rank == 0;
	watcher.possible = provided >= MPI_THREAD_MULTIPLE;
	return 0;
}

int dist_rank(void)
{
	return rank;
}

int dist_size(void)
{
	return size;
}

bool dist_host_leader(void)
{
	return leader;
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

/* The watcher thread: see the top of the file. */
static void *watch(void *arg)
{
	(void)arg;
	MPI_Irecv(&watcher.in, 1, MPI_CHAR, MPI_ANY_SOURCE, TAG_STOP, notes, &watcher.recv);
	while (!__atomic_load_n(&watcher.quit, __ATOMIC_ACQUIRE)) {
		int arrived = 0;

		MPI_Test(&watcher.recv, &arrived, MPI_STATUS_IGNORE);
		if (arrived) {
			MPI_Wait(&watcher.recv, MPI_STATUS_IGNORE); /* done: returns at once */
			watcher.got++;
			__atomic_store_n(&known, 1, __ATOMIC_RELEASE);
			*watched = 1;
			MPI_Irecv(&watcher.in, 1, MPI_CHAR, MPI_ANY_SOURCE, TAG_STOP, notes,
				  &watcher.recv);
			continue;
		}
		if (*watched && !watcher.sends && !__atomic_load_n(&known, __ATOMIC_ACQUIRE)) {
			watcher.sends = malloc(sizeof(*watcher.sends) * (size_t)size);
			for (int k = 0; watcher.sends && k < size; k++) {
				watcher.sends[k] = MPI_REQUEST_NULL;
				if (k != rank)
					MPI_Isend(&watcher.out, 1, MPI_CHAR, k, TAG_STOP, notes,
						  &watcher.sends[k]);
			}
			watcher.sent = watcher.sends != NULL;
		}
		sleep_us(WATCH_MS * 1000L);
	}
	return NULL;
}

void dist_watch(volatile atomic_int *stop)
{
	watched = stop;
	if (!watcher.possible || size < 2 || watcher.running)
		return;
	watcher.running = pthread_create(&watcher.thread, NULL, watch, NULL) == 0;
}

void dist_on_stop(void (*fn)(void *arg, bool final), void *arg)
{
	on_stop = fn;
	on_stop_arg = arg;
}

/* A stopped rank that waited past its grace: see dist.h. */
static _Noreturn void abandon(void)
{
	if (rank == 0) {
		fprintf(stderr, "iosweep: a rank did not reach the next step within %d ms of the "
				"stop (has it died?): writing what was measured and ending every "
				"rank\n", grace_ms);
		if (on_stop)
			on_stop(on_stop_arg, true);
	} else {
		fprintf(stderr, "iosweep: rank %d on %s: rank 0 did not reach the next step within "
				"%d ms of the stop: ending every rank\n", rank, dist_host(),
			GRACE_OTHERS_MS);
	}
	fflush(NULL);
	MPI_Abort(MPI_COMM_WORLD, 130);
	_exit(130);
}

/* Waits for a non-blocking collective: see the top of the file.  spin:
 * never sleep (the start line: ranks leave it within microseconds). */
static void wait_until(MPI_Request *req, bool spin)
{
	uint64_t start = now_ms(), since = 0;
	long nap = 20;

	for (;;) {
		int done = 0;
		uint64_t t;

		MPI_Test(req, &done, MPI_STATUS_IGNORE);
		if (done)
			break;
		t = now_ms();
		if (stopped() && !since) {
			since = t;
			if (rank == 0 && on_stop && !saved) {
				saved = true;
				on_stop(on_stop_arg, false);
			}
			/* rank 0 signalled itself (mpirun ends the job: SIGKILL comes in a
			 * second) is short of time; stopped by another rank's note, not */
			if (!grace_ms)
				grace_ms = rank == 0 && !__atomic_load_n(&known, __ATOMIC_ACQUIRE)
						   ? DIST_GRACE_ROOT_MS : GRACE_OTHERS_MS;
		}
		if (since && t - since > (uint64_t)grace_ms)
			abandon();
		if (spin || t - start < SPIN_MS) {
			sched_yield();
			continue;
		}
		sleep_us(nap);
		nap = nap < 1000 ? nap * 2 : 1000;
	}
	MPI_Wait(req, MPI_STATUS_IGNORE); /* done: returns at once */
}

/* Every request below is completed by wait_until(), which the MPI checker
 * of clang-tidy does not follow into. */
// NOLINTBEGIN(clang-analyzer-optin.mpi.MPI-Checker)
static void wait_for(MPI_Request *req)
{
	wait_until(req, false);
}

static void reduce(void *v, size_t n, MPI_Datatype type, MPI_Op op)
{
	MPI_Request req;

	MPI_Iallreduce(MPI_IN_PLACE, v, (int)n, type, op, world, &req);
	wait_for(&req);
}

static void broadcast(void *buf, int count, MPI_Datatype type)
{
	MPI_Request req;

	MPI_Ibcast(buf, count, type, 0, world, &req);
	wait_for(&req);
}

void dist_gather(const void *mine, size_t len, void *all)
{
	MPI_Request req;

	MPI_Igather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE, 0, world, &req);
	wait_for(&req);
}

static int agree(int status, char *err, bool spin)
{
	char *all = NULL;
	char mine[ERR_MAX] = "";
	int failing = 0;
	bool failed = status & DIST_FAILED; /* err is this rank's own message */
	MPI_Request req;

	status |= stopped() ? DIST_STOP : 0;
	MPI_Iallreduce(MPI_IN_PLACE, &status, 1, MPI_INT, MPI_BOR, world, &req);
	wait_until(&req, spin);
	if (status & DIST_STOP && watched) {
		__atomic_store_n(&known, 1, __ATOMIC_RELEASE);
		*watched = 1;
	}
	if (!(status & DIST_FAILED))
		return status;
	/* the failing ranks' messages to rank 0, which reports the first */
	if (failed)
		snprintf(mine, sizeof(mine), "rank %d on %s: %s", rank, dist_host(),
			 err[0] ? err : "failed");
	all = rank == 0 ? calloc((size_t)size, ERR_MAX) : NULL;
	dist_gather(mine, sizeof(mine), all ? all : mine);
	for (int k = 0; all && k < size; k++) {
		const char *m = all + (size_t)k * ERR_MAX;

		if (m[0] && failing++ == 0)
			snprintf(err, ERR_MAX, "%s", m);
	}
	if (failing > 1)
		snprintf(err + strlen(err), ERR_MAX - strlen(err), " (and %d more ranks)",
			 failing - 1);
	if (rank != 0)
		snprintf(err, ERR_MAX, "failed on a rank: see rank 0");
	free(all);
	return status;
}

int dist_agree(int status, char *err)
{
	return agree(status, err, false);
}

int dist_start_line(int status, char *err)
{
	return agree(status, err, true);
}

int dist_broadcast(char **buf, size_t *len)
{
	uint64_t n = *len;
	int failed = 0;

	dist_broadcast_u64(&n, 1);
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

		broadcast(*buf + off, (int)piece, MPI_BYTE);
	}
	/* rank 0's *buf is the job file's text, never NULL here */
	(*buf)[*len] = '\0'; // NOLINT(clang-analyzer-core.NullDereference)
	return 0;
}

void dist_broadcast_u64(uint64_t *v, size_t n)
{
	broadcast(v, (int)n, MPI_UINT64_T);
}

void dist_sum_u64(uint64_t *v, size_t n)
{
	reduce(v, n, MPI_UINT64_T, MPI_SUM);
}

void dist_min_u64(uint64_t *v, size_t n)
{
	reduce(v, n, MPI_UINT64_T, MPI_MIN);
}

void dist_max_u64(uint64_t *v, size_t n)
{
	reduce(v, n, MPI_UINT64_T, MPI_MAX);
}

int dist_max_int(int status)
{
	reduce(&status, 1, MPI_INT, MPI_MAX);
	return status;
}

/* Every rank's v[rank] into v[] on every rank. */
static void allgather_int(int *v)
{
	MPI_Request req;

	MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, v, 1, MPI_INT, world, &req);
	wait_for(&req);
}
// NOLINTEND(clang-analyzer-optin.mpi.MPI-Checker)

/* Stops the watcher and takes in every note sent to this rank. */
static void watcher_drain(void)
{
	int *sent = calloc((size_t)size, sizeof(int)), expected = 0;

	if (!watcher.running || !sent) {
		free(sent);
		return;
	}
	__atomic_store_n(&watcher.quit, 1, __ATOMIC_RELEASE);
	pthread_join(watcher.thread, NULL);
	sent[rank] = watcher.sent;
	allgather_int(sent);
	for (int k = 0; k < size; k++)
		expected += k != rank && sent[k];
	/* one receive is always posted (by the watcher, which the MPI checker
	 * cannot follow): complete it as often as notes are due */
	for (; watcher.got < expected; watcher.got++) {
		MPI_Wait(&watcher.recv, MPI_STATUS_IGNORE); // NOLINT(clang-analyzer-optin.mpi.MPI-Checker)
		MPI_Irecv(&watcher.in, 1, MPI_CHAR, MPI_ANY_SOURCE, TAG_STOP, notes, &watcher.recv);
	}
	MPI_Cancel(&watcher.recv);
	MPI_Wait(&watcher.recv, MPI_STATUS_IGNORE); // NOLINT(clang-analyzer-optin.mpi.MPI-Checker)
	if (watcher.sends)
		MPI_Waitall(size, watcher.sends, MPI_STATUSES_IGNORE);
	free(watcher.sends);
	free(sent);
}

void dist_finish(void)
{
	watcher_drain();
	MPI_Comm_free(&notes);
	MPI_Comm_free(&world);
	MPI_Finalize();
}
