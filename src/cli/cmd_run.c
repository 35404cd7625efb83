/*
 * cmd_run.c - `iosweep run`: plan, preflight, execute run by run, report.
 *
 * Everything that can make the command fail for reasons other than I/O is
 * checked before the first byte is read or written: the job file and
 * everything `check` checks (plan_expand), the output destinations.
 * Temporary files that interrupted creations left are removed first.
 * SIGINT, SIGTERM, SIGHUP and a closed stdout stop the current repeat; what
 * was measured is still written, marked interrupted, and the exit code is
 * 128 + the signal's number (130 for SIGINT, 141 for a closed stdout, as
 * SIGPIPE), or 1 when an output could not be written whole.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "fio/fio_hints.h"
#include "io/cache.h"
#include "io/prepare.h"
#include "lib/error.h"
#include "lib/host.h"
#include "lib/output.h"
#include "lib/threads.h"
#include "lib/units.h"
#include "report/figures.h"
#include "report/plan_text.h"
#include "report/progress.h"
#include "report/report.h"
#include "run/dist.h"
#include "run/run.h"

/* Set by the signal handler, or by the stdout watcher thread, and read by
 * every thread: atomics (lock-free, so safe in a handler too). */
static volatile atomic_int stop_requested;
/* what stopped the run: a signal, or SIGPIPE for a closed stdout */
static volatile atomic_int stop_signal;

static void on_signal(int sig)
{
	int none = 0, saved = errno; /* a handler leaves errno as it found it */

	atomic_compare_exchange_strong(&stop_signal, &none, sig);
	stop_requested = 1;
	errno = saved;
}

/* SIGINT, SIGTERM and SIGHUP stop the current repeat; SIGPIPE is ignored,
 * so that a closed stdout is an EPIPE that stops the run the same way. */
static void install_signals(void)
{
	static const int stops[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: waits return EINTR */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stops) / sizeof(stops[0]); i++)
		sigaddset(&sa.sa_mask, stops[i]);
	for (size_t i = 0; i < sizeof(stops) / sizeof(stops[0]); i++)
		sigaction(stops[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* A pipe or socket on stdout whose reader has gone (`| head -1`) stops the
 * run as soon as it goes, not only when the next write fails: a thread
 * waits for the error condition that poll(2) reports then, or for a byte
 * on its own pipe that says the run is over (no pthread_cancel: it does
 * not mix with the sanitizers' thread teardown). */
static int watch_wake[2] = { -1, -1 };

static void *watch_stdout(void *arg)
{
	struct pollfd p[2] = { { .fd = STDOUT_FILENO, .events = 0 },
			       { .fd = watch_wake[0], .events = POLLIN } };

	(void)arg;
	/* polls stdout and its pipe only; see lib/threads.h */
	thread_own_files((const int[]){ STDOUT_FILENO, watch_wake[0] }, 2);
	for (;;) {
		if (poll(p, 2, -1) < 0)
			continue; /* EINTR */
		if (p[1].revents)
			return NULL;
		if (p[0].revents & (POLLERR | POLLHUP | POLLNVAL)) {
			on_signal(SIGPIPE);
			return NULL;
		}
	}
}

static bool start_stdout_watch(pthread_t *tid)
{
	struct stat st;

	if (fstat(STDOUT_FILENO, &st) < 0 || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
		return false;
	if (pipe2(watch_wake, O_CLOEXEC) < 0)
		return false;
	if (pthread_create(tid, NULL, watch_stdout, NULL) == 0)
		return true;
	close(watch_wake[0]);
	close(watch_wake[1]);
	return false;
}

static void stop_stdout_watch(pthread_t tid, bool started)
{
	if (!started)
		return;
	while (write(watch_wake[1], "", 1) < 0 && errno == EINTR)
		;
	pthread_join(tid, NULL);
	close(watch_wake[0]);
	close(watch_wake[1]);
}

static const char *stop_name(int sig)
{
	return sig == SIGPIPE ? "closed stdout" : sig == SIGTERM ? "SIGTERM"
	       : sig == SIGHUP ? "SIGHUP" : "SIGINT";
}

static int check_sinks(struct cli *c, struct report_sink *sinks)
{
	size_t on_stdout = 0;

	for (size_t i = 0; i < c->nout; i++)
		on_stdout += !c->out[i].path;
	/* files do not take the table away: only another format on stdout, or
	 * --quiet with files, does */
	if (c->nout == 0 || (on_stdout == 0 && !c->quiet && c->nout < CLI_MAX_OUTPUTS)) {
		c->out[c->nout].format = "table";
		c->out[c->nout].path = NULL;
		c->nout++;
	}
	on_stdout = 0;
	for (size_t i = 0; i < c->nout; i++) {
		sinks[i].reporter = reporter_find(c->out[i].format);
		sinks[i].path = c->out[i].path;
		if (!sinks[i].reporter) {
			cli_error("run: unknown output format '%s' (known: %s)", c->out[i].format,
				  reporter_names());
			return -1;
		}
		on_stdout += !sinks[i].path;
	}
	if (on_stdout > 1) {
		cli_error("run: only one -o format can go to stdout; give the others a path "
			  "(-o json:out.json)");
		return -1;
	}
	return 0;
}

/* Each output is a regular file (or absent) that is neither the job file, a
 * data file nor another output; found before any I/O. */
static int check_outputs(struct report_sink *sinks, size_t n, const struct plan *plan,
			 char *err)
{
	for (size_t i = 0; i < n; i++) {
		struct output *o = &sinks[i].out;
		const char *prev = NULL;

		if (!sinks[i].path)
			continue;
		if (output_check(sinks[i].path, o, err) < 0)
			return -1;
		if (output_names(o, plan->jf->path))
			return err_set(err, "cannot write %s: it is the job file", sinks[i].path);
		for (size_t r = 0; r < plan->n; r++) {
			const char *data = plan->runs[r].v[OPT_FILENAME].s;

			if (prev && strcmp(prev, data) == 0)
				continue;
			prev = data;
			if (output_names(o, data))
				return err_set(err, "cannot write %s: it is the data file of job '%s'",
					       sinks[i].path, plan->runs[r].job->name);
		}
		for (size_t j = 0; j < i; j++)
			if (sinks[j].path && output_names(o, sinks[j].out.path))
				return err_set(err, "cannot write %s: -o %s:%s names the same file; "
					       "give each output its own path", sinks[i].path,
					       sinks[j].reporter->name, sinks[j].path);
	}
	return 0;
}

static void free_outputs(struct report_sink *sinks, size_t n)
{
	for (size_t i = 0; i < n; i++)
		output_free(&sinks[i].out);
}

static void note_leftover(const char *msg, void *arg)
{
	(void)arg;
	cli_error("%s", msg);
}

/* What would fail later is refused by plan_expand (as by check); here, the
 * leftovers of interrupted creations next to the test files are cleared. */
static int preflight(const struct plan *plan)
{
	for (size_t i = 0; i < plan->n; i++)
		if (!plan->runs[i].blockdev)
			prepare_sweep(plan->runs[i].v[OPT_FILENAME].s, note_leftover, NULL);
	return 0;
}

/* host_describe() of every rank's file, gathered on rank 0 into rep->host
 * (its own), rep->hosts (one per distinct host name) and rep->rank_hosts
 * (each rank's host name). */
static void gather_hosts(struct report *rep, const char *path)
{
	enum { HOST_JSON_MAX = 8192 };
	json_t *mine = host_describe(path);
	char *text = mine ? json_dumps(mine, JSON_COMPACT) : NULL;
	char buf[HOST_JSON_MAX] = "{}";
	bool root = dist_rank() == 0;
	char *all = root ? malloc((size_t)dist_size() * HOST_JSON_MAX) : buf;

	if (text && strlen(text) < sizeof(buf))
		strcpy(buf, text);
	free(text);
	dist_gather(buf, sizeof(buf), all ? all : buf);
	if (!root || !all) {
		json_decref(mine);
		return;
	}
	rep->host = mine;
	rep->hosts = json_array();
	rep->rank_hosts = json_array();
	for (int k = 0; k < dist_size() && rep->hosts; k++) {
		json_t *h = json_loads(all + (size_t)k * HOST_JSON_MAX, 0, NULL);
		const char *name = json_string_value(json_object_get(h, "hostname"));
		bool seen = false;
		size_t i;
		json_t *o;

		json_array_append_new(rep->rank_hosts, json_string(name ? name : "?"));
		json_array_foreach(rep->hosts, i, o)
			seen |= name && json_equal(json_object_get(o, "hostname"),
						   json_object_get(h, "hostname"));
		if (h && !seen)
			json_array_append(rep->hosts, h);
		json_decref(h);
	}
	free(all);
}

static void iso_now(char *buf, size_t n)
{
	time_t t = time(NULL);
	struct tm tm;

	strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
}

/* Each sink is told the same thing; a destination that failed (a full
 * disk) is said once and told nothing more (its file is never completed),
 * and does not stop the others. */
static int tell_sinks(struct report_sink *sinks, size_t n, const struct report *r, int what,
		      size_t idx)
{
	char err[ERR_MAX];
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		const struct reporter *rep = sinks[i].reporter;
		int e;

		if (sinks[i].failed) {
			rc = sinks[i].path ? -1 : rc;
			continue;
		}
		e = what == 0 ? rep->begin(&sinks[i], r, err)
			: what == 1 ? rep->add(&sinks[i], r, idx, err)
				    : rep->end(&sinks[i], r, err);
		if (e < 0) {
			/* a closed stdout stops the run like a signal; said once, below */
			if (!sinks[i].path && errno == EPIPE) {
				on_signal(SIGPIPE);
			} else {
				cli_error("%s", err);
				rc = -1;
			}
			sinks[i].failed = true;
		}
	}
	return rc;
}

/* Repeats that did not start from the cache state asked for are flagged in
 * the results; say so now too, once for the run, with the reason when it is
 * known (a file on tmpfs), and with the bytes when the bound is not 1% of
 * the file but of the fewer bytes a repeat transfers (run.c). */
static void warn_cache(const struct run_result *res, struct progress *prog)
{
	const struct run *run = res->run;
	uint64_t size = run_set_bytes(run);
	double lo = INFINITY, hi = -1;
	size_t missed = 0;
	char why[ERR_MAX], range[64], bound[160] = "";

	for (size_t k = 0; k < res->nrep; k++) {
		const struct repeat_result *rr = &res->rep[k];

		if (rr->cache_as_asked)
			continue;
		missed++;
		lo = fmin(lo, rr->resident_before);
		hi = fmax(hi, rr->resident_before);
	}
	if (!missed)
		return;
	/* rounded as the table's cached column is (printf rounds 12.5 to even) */
	if (round(100 * lo) == round(100 * hi))
		snprintf(range, sizeof(range), "%.0f%%", round(100 * lo));
	else
		snprintf(range, sizeof(range), "%.0f–%.0f%%", round(100 * lo), round(100 * hi));
	if (run->bytes < size) {
		char off[32], moved[32];
		bool warm = run->v[OPT_CACHE].u == CACHE_WARM;

		units_fmt_size((uint64_t)llround((warm ? 1 - lo : hi) * (double)size), off,
			       sizeof(off));
		units_fmt_size(run->bytes, moved, sizeof(moved));
		snprintf(bound, sizeof(bound), " (%s of it%s, more than 1%% of the %s a repeat "
			 "transfers)", off, warm ? " missing" : "", moved);
	}
	if (cache_evict_obstacle(run->v[OPT_FILENAME].s, why + 2, sizeof(why) - 2) ==
	    CACHE_NO_OBSTACLE)
		why[2] = '\0';
	else
		memcpy(why, ": ", 2);
	progress_clear(prog);
	cli_error("warning: run %zu: %zu of %zu repeats started with %s of the file in the page "
		  "cache%s, not what cache=%s asks for%s", run->index, missed, res->nrep, range,
		  bound, option_table[OPT_CACHE].values[run->v[OPT_CACHE].u], why[2] ? why : "");
}

/* What rank 0 needs to write the results when it must end before the
 * others agreed to (dist.h: a rank died). */
struct last_words {
	struct report_sink *sinks;
	size_t nsinks;
	struct report *rep;
	struct progress *prog;
};

static void write_interrupted(void *arg, bool final)
{
	struct last_words *lw = arg;
	char err[ERR_MAX];

	lw->rep->interrupted = true;
	lw->rep->stopped_by = stop_signal ? stop_name(stop_signal) : "another rank";
	if (!final) {
		for (size_t i = 0; i < lw->nsinks; i++)
			if (lw->sinks[i].reporter->snapshot &&
			    lw->sinks[i].reporter->snapshot(&lw->sinks[i], lw->rep, err) < 0)
				cli_error("%s", err);
		return;
	}
	progress_stop(lw->prog);
	tell_sinks(lw->sinks, lw->nsinks, lw->rep, 2, 0);
	cli_error("interrupted: results of %zu of %zu runs written", lw->rep->ndone,
		  lw->rep->plan->n);
}

/* After the first run of a plan plan_print_totals() spoke of: how long the
 * repeats still to come would take if each took the first run's median time
 * to end (an estimate, and said to be one; cache setting not included). */
static void estimate_rest(const struct plan *plan, const struct run_result *first,
			  struct progress *prog)
{
	uint64_t left = 0;
	struct summary tte;
	char a[32], b[32];

	figure_summary(figure_find("time_to_end_s"), first, &tte);
	if (plan->n < 2 || tte.n == 0)
		return;
	for (size_t i = 1; i < plan->n; i++)
		left += plan_repeats(&plan->runs[i]) + plan->runs[i].v[OPT_WARMUP].u;
	units_fmt_seconds(tte.median, a, sizeof(a));
	units_fmt_seconds(tte.median * (double)left, b, sizeof(b));
	progress_clear(prog);
	cli_error("plan: the first run's repeats took %s each (median); if the other %llu repeat%s "
		  "take%s as long, about %s more", a, (unsigned long long)left, left == 1 ? "" : "s",
		  left == 1 ? "s" : "", b);
}

/* The plan's runs, one after the other, each told to the outputs when done;
 * EXIT_RUN when a run failed.  Stops (on every rank) at a signal, or after
 * a run interrupted before its first repeat. */
static int run_all(struct plan *plan, struct report *rep, struct report_sink *sinks,
		   size_t nsinks, struct progress *prog, struct run_status *status, bool big,
		   bool *outputs_failed)
{
	char err[ERR_MAX] = "";
	int rc = EXIT_OK;

	for (size_t i = 0; i < plan->n;) {
		/* a group's jobs run at once: their runs side by side (plan.h) */
		size_t n = plan->runs[i].group ? plan->runs[i].group_jobs : 1;
		bool stopped = false;

		/* ranks stop together, whichever of them was signalled */
		if (dist_agree(0, err) & DIST_STOP)
			break;
		if (run_execute_group(&plan->runs[i], n, &rep->results[i], &stop_requested,
				      status) < 0)
			rc = EXIT_RUN;
		for (size_t k = i; k < i + n; k++) {
			struct run_result *res = &rep->results[k];

			/* every rank failed the run; rank 0 has the failing rank's message */
			if (res->failed && dist_rank() == 0) {
				progress_clear(prog);
				cli_error("run %zu (job '%s'): %s", k, plan->runs[k].job->name,
					  res->error);
			}
			stopped |= res->nrep == 0 && !res->failed;
		}
		if (stopped)
			break; /* interrupted before its first repeat */
		for (size_t k = i; k < i + n; k++) {
			if (dist_rank() == 0 && rep->results[k].tree_swept) {
				progress_clear(prog);
				cli_error("run %zu: %s", k, rep->results[k].tree_swept);
			}
			if (dist_rank() == 0)
				warn_cache(&rep->results[k], prog);
			if (rep->ndone == 0) /* collective: every rank, once */
				gather_hosts(rep, plan->runs[k].v[OPT_FILENAME].s);
			rep->ndone = k + 1;
		}
		if (i == 0 && big)
			estimate_rest(plan, &rep->results[0], prog);
		for (size_t k = i; k < i + n; k++)
			progress_run_done(prog); /* the group's bytes: its first job's */
		for (size_t k = i; k < i + n; k++)
			if (tell_sinks(sinks, nsinks, rep, 1, k) < 0)
				*outputs_failed = true;
		i += n;
	}
	/* a tree the runs made is removed once they are done with it */
	if (run_tree_release(err) < 0) {
		progress_clear(prog);
		cli_error("%s", err);
		rc = EXIT_RUN;
	}
	return rc;
}

static int execute(struct cli *c, struct plan *plan, struct report_sink *sinks, bool big)
{
	struct report rep = { .plan = plan, .jf = plan->jf };
	struct run_status status = { 0 };
	struct progress *prog = NULL;
	pthread_t watcher = 0;
	bool watching, outputs_failed = false;
	/* on many hosts, rank 0 alone prints and writes */
	size_t nsinks = dist_rank() == 0 ? c->nout : 0;
	struct last_words lw = { sinks, nsinks, &rep, NULL };
	int rc;

	rep.ranks = dist_size();
	for (size_t i = 0; i < plan->n && !rep.baselines; i++)
		rep.baselines = plan->runs[i].job->opt[OPT_BASELINE].n > 0;
	rep.results = calloc(plan->n, sizeof(*rep.results));
	if (!rep.results) {
		cli_error("out of memory");
		return EXIT_RUN;
	}
	iso_now(rep.started, sizeof(rep.started));
	install_signals();
	if (dist_max_int(tell_sinks(sinks, nsinks, &rep, 0, 0) < 0)) {
		/* nothing runs: the outputs that began are left as they were */
		for (size_t i = 0; i < nsinks; i++)
			if (!sinks[i].failed && sinks[i].reporter->abandon)
				sinks[i].reporter->abandon(&sinks[i]);
		free(rep.results);
		return EXIT_USAGE;
	}
	dist_watch(&stop_requested);
	watching = dist_rank() == 0 && start_stdout_watch(&watcher);
	if (dist_rank() == 0)
		prog = progress_start(plan, &status, c->quiet);
	lw.prog = prog;
	dist_on_stop(write_interrupted, &lw);
	rc = run_all(plan, &rep, sinks, nsinks, prog, &status, big, &outputs_failed);
	dist_on_stop(NULL, NULL);
	progress_stop(prog);
	stop_stdout_watch(watcher, watching);
	rep.interrupted = stop_requested != 0;
	/* a rank that another rank's signal stopped: "another rank", exit 130 */
	rep.stopped_by = !rep.interrupted ? NULL : stop_signal ? stop_name(stop_signal)
							       : "another rank";
	if (tell_sinks(sinks, nsinks, &rep, 2, 0) < 0)
		outputs_failed = true;
	/* stopped while the outputs were written: every run was measured, the
	 * outputs are whole (but for a closed stdout), and the exit status still
	 * says what stopped the program */
	if (stop_requested && !rep.interrupted && dist_rank() == 0)
		cli_error("interrupted while the outputs were written (%s): %s",
			  stop_signal ? stop_name(stop_signal) : "another rank",
			  stop_signal == SIGPIPE ? "what went to stdout is cut short"
						 : "every run is in them");
	for (size_t i = 0; i < plan->n; i++)
		run_result_free(&rep.results[i]);
	free(rep.results);
	json_decref(rep.host);
	json_decref(rep.hosts);
	json_decref(rep.rank_hosts);
	if (rep.interrupted && dist_rank() == 0)
		cli_error("interrupted: results of %zu of %zu runs written%s (%s)", rep.ndone, plan->n,
			  outputs_failed ? ", but not every output is whole" : "", rep.stopped_by);
	/* an output that is not whole says so first; then what stopped the run */
	if (outputs_failed)
		return EXIT_RUN;
	if (stop_requested)
		return stop_signal ? 128 + stop_signal : EXIT_INTERRUPTED;
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct report_sink sinks[CLI_MAX_OUTPUTS] = { 0 };
	char err[ERR_MAX] = "";
	struct jobfile jf;
	struct plan plan;
	struct cli c;
	int rc = cli_parse("run", argc, argv, &c);

	if (rc)
		return rc;
	if (c.nfiles != 1) {
		cli_error("run: expected one job file (usage: iosweep %s)", help_usage("run"));
		cli_free(&c);
		return EXIT_USAGE;
	}
	if (check_sinks(&c, sinks) < 0) {
		cli_free(&c);
		return EXIT_USAGE;
	}
	rc = cli_load(&c, c.files[0], &jf, &plan);
	if (rc == 0) {
		/* on many hosts, rank 0 alone writes the outputs */
		if (cli_agree(dist_rank() == 0 && check_outputs(sinks, c.nout, &plan, err) < 0,
			      err) ||
		    preflight(&plan))
			rc = EXIT_USAGE;
		if (rc == 0) {
			bool big = dist_rank() == 0 && !c.quiet && plan_print_totals(&plan, stderr);

			if (dist_rank() == 0) {
				fio_hint_sizes(&jf, stderr);
				plan_cache_notes(&plan, stderr);
			}
			rc = execute(&c, &plan, sinks, big);
		}
		plan_free(&plan);
		jobfile_free(&jf);
	}
	free_outputs(sinks, c.nout);
	cli_free(&c);
	return rc;
}
