/*
 * dist.h - the few collective operations a run across many hosts needs, and
 * the protocol that keeps the ranks of iosweep-mpi in step.
 *
 * iosweep-mpi (make mpi) implements them with MPI in dist_mpi.c; the
 * single-host iosweep implements them trivially in dist_single.c (one rank,
 * rank 0), so the callers use them unconditionally and have no #ifdef.
 *
 * The protocol.  A rank that waits in a collective another rank never
 * reaches waits forever, so the rule is: every rank calls the same
 * collectives in the same order, and every decision that changes which
 * collectives come next (leave a run, skip a repeat, stop) is taken on the
 * result of a collective, never on something only one rank knows (its
 * signal, its error).  A local signal or error only shortens the work of
 * the current phase; it is carried into the phase's closing dist_agree().
 * In order (file that calls them):
 *
 *   start (cli.c)       agree: job file read; broadcast: its text;
 *                       agree: plan expanded; agree: preflight (cmd_run.c)
 *   begin (cmd_run.c)   max: every output can be written; then dist_watch()
 *   each run            agree: stop before the run starts (cmd_run.c)
 *     prepare           dist_run.c: file shared by ranks: agree after rank 0
 *                       created it, agree after one rank per host created
 *                       it where rank 0's is not seen, agree after every
 *                       rank checked it; {rank} file: agree after each
 *                       rank created its own
 *     set up            agree: buffers allocated (run.c)
 *     each repeat       agree: cache state and descriptors ready, which is
 *                       also the start line of the timed part; agree: the
 *                       timed part ended (failed, stopped); unless failed:
 *                       sum, min, max, max, gather x3 of the figures;
 *                       verify=after: sum of the bytes verified, agree:
 *                       every rank's share verified (run.c)
 *     first run done    gather: every rank's host description (cmd_run.c)
 *   end                 dist_finish(): the stop notes are drained, finalize
 *
 * An agree that reports a failure also brings the failing rank's message
 * to rank 0, which reports the run as failed, as on one host, and goes on.
 *
 * Stop.  A signal reaches one rank (kill) or all (mpirun's ending of a
 * job).  dist_watch() makes a stop set on any rank visible on every rank
 * within about 50 ms (MPI: a thread sends a note to the others), so the
 * phases in progress end soon everywhere and every rank meets at the next
 * agree.  A rank that waits in a collective after its stop was set waits a
 * grace period for the others to arrive (DIST_GRACE_ROOT_MS on rank 0 when
 * it was signalled itself, five seconds when another rank stopped it and on
 * the other ranks): past it, a rank is taken for dead (mpirun SIGKILLs the
 * rest one second after its SIGTERM); rank 0 then runs the function given
 * to dist_on_stop() (which writes what was measured) and every rank is
 * ended with exit status 130.  As that second can pass before the grace
 * does on a loaded host, rank 0 also writes the result files as soon as it
 * waits with its stop set (dist_on_stop(), final false).
 */
#ifndef IOSWEEP_DIST_H
#define IOSWEEP_DIST_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a rank brings to dist_agree(); the result is the OR over ranks. */
enum { DIST_STOP = 1, DIST_FAILED = 2 };

/* How long rank 0, once stopped, waits for the others in a collective. */
#define DIST_GRACE_ROOT_MS 500

/* Starts the runtime; 0, or -1 (after printing why). */
int dist_init(int *argc, char ***argv);
void dist_finish(void);
int dist_rank(void);
int dist_size(void);
/* This host's name (gethostname). */
const char *dist_host(void);
/* Whether this rank is the lowest-numbered one of its host. */
bool dist_host_leader(void);

/* From here on, a stop set on any rank is set on every rank, and waits in
 * collectives give up as described above. */
void dist_watch(volatile atomic_int *stop);
/* Called on rank 0 when a wait in a collective first sees the stop (final
 * false: save what can be saved now, as mpirun SIGKILLs a second after its
 * SIGTERM) and when others are taken for dead (final true: last words). */
void dist_on_stop(void (*fn)(void *arg, bool final), void *arg);

/* The OR over ranks of status (DIST_*) and of the watched stop; a stop in
 * the result is set in the watched flag.  When the result has DIST_FAILED,
 * err on rank 0 is the first failing rank's message (with its rank and
 * host when there are several ranks).  err: ERR_MAX bytes. */
int dist_agree(int status, char *err);
/* dist_agree() for the start of the timed part: the ranks leave it together
 * (a waiting rank spins rather than sleeps). */
int dist_start_line(int status, char *err);

/* Rank 0's buffer to every rank: on rank 0 *buf and *len are given; on the
 * others *buf is set to a malloc'd copy (with a NUL after *len bytes).
 * Returns -1 on out of memory. */
int dist_broadcast(char **buf, size_t *len);
/* Rank 0's n values to every rank. */
void dist_broadcast_u64(uint64_t *v, size_t n);
/* Element-wise over all ranks, the result on every rank. */
void dist_sum_u64(uint64_t *v, size_t n);
void dist_min_u64(uint64_t *v, size_t n);
void dist_max_u64(uint64_t *v, size_t n);
/* Every rank's len bytes at mine, rank after rank, into all (size * len
 * bytes) on rank 0 only. */
void dist_gather(const void *mine, size_t len, void *all);
/* The largest of every rank's status, on every rank. */
int dist_max_int(int status);

#endif
