/*
 * cli.c - argument parsing shared by the commands, and the path from a job
 * file to a plan that run, plan and check all take.
 */
#define _GNU_SOURCE
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/help.h"
#include "lib/error.h"
#include "lib/texttable.h"
#include "run/dist.h"

/* One line, whatever the message quotes: a control character (a newline in
 * a variable, a CR in a file name) is written as a C escape (tt_put). */
void cli_error(const char *fmt, ...)
{
	char msg[2 * ERR_MAX];
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fputs("iosweep: ", stderr);
	tt_put(stderr, msg);
	fputc('\n', stderr);
}

static int push(char ***list, size_t *n, char *s)
{
	char **l = realloc(*list, (*n + 1) * sizeof(*l));

	if (!l)
		return -1;
	l[(*n)++] = s;
	*list = l;
	return 0;
}

static int parse_output(struct cli *c, char *arg)
{
	char *colon = strchr(arg, ':');

	if (c->nout == CLI_MAX_OUTPUTS) {
		cli_error("too many -o outputs (at most %d)", CLI_MAX_OUTPUTS);
		return -1;
	}
	c->out[c->nout].format = arg;
	c->out[c->nout].path = NULL;
	if (colon && !colon[1]) {
		/* -o json:$OUT with OUT unset: not stdout, which nobody asked for */
		cli_error("-o %s has no path after the colon (write %.*s:FILE, or %.*s:- for "
			  "standard output)", arg, (int)(colon - arg), arg, (int)(colon - arg), arg);
		return -1;
	}
	if (colon) {
		*colon = '\0';
		if (strcmp(colon + 1, "-") != 0)
			c->out[c->nout].path = colon + 1;
	}
	c->nout++;
	return 0;
}

enum { OPT_SET = 256, OPT_JOB, OPT_X, OPT_Y, OPT_ALPHA, OPT_PLOT_OVER, OPT_PLOT_RUN, OPT_PLOT_REPEAT };

static const struct option long_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "set", required_argument, NULL, OPT_SET },
	{ "job", required_argument, NULL, OPT_JOB },
	{ "x", required_argument, NULL, OPT_X },
	{ "y", required_argument, NULL, OPT_Y },
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "over", required_argument, NULL, OPT_PLOT_OVER },
	{ "run", required_argument, NULL, OPT_PLOT_RUN },
	{ "repeat", required_argument, NULL, OPT_PLOT_REPEAT },
	{ NULL, 0, NULL, 0 },
};

int cli_parse(const char *cmd, int argc, char **argv, struct cli *c)
{
	int opt;

	memset(c, 0, sizeof(*c));
	c->alpha = 0.05;
	optind = 1;
	opterr = 0;
	while (optind < argc) {
		int rc = 0;
		char *end;
		const char *given;

		/* options and positional arguments may come in any order */
		if (argv[optind][0] != '-' || strcmp(argv[optind], "-") == 0) {
			opt = 0;
			rc = push(&c->files, &c->nfiles, argv[optind++]);
		} else if (strcmp(argv[optind], "--") == 0) {
			for (optind++; optind < argc && rc == 0; optind++)
				rc = push(&c->files, &c->nfiles, argv[optind]);
			opt = 0;
		} else {
			/* ':' first: a missing value is ':', not '?' */
			opt = getopt_long(argc, argv, "+:o:q", long_options, NULL);
			if (opt != ':' && opt != '?' && opt != 'q' && optarg[0] == '\0')
				opt = ':'; /* --set= (every option but -q takes a value) */
		}

		switch (opt) {
		case 0:
			break;
		case 'o':
			rc = parse_output(c, optarg);
			break;
		case 'q':
			c->quiet = true;
			break;
		case OPT_SET:
			rc = push(&c->sets, &c->nsets, optarg);
			break;
		case OPT_JOB:
			rc = push(&c->jobs, &c->njobs, optarg);
			break;
		case OPT_X:
			c->x = optarg;
			break;
		case OPT_Y:
			c->y = optarg;
			break;
		case OPT_PLOT_OVER:
			c->over = optarg;
			break;
		case OPT_PLOT_RUN:
			rc = push(&c->run_nums, &c->nrun_nums, optarg);
			break;
		case OPT_PLOT_REPEAT:
			rc = push(&c->repeat_nums, &c->nrepeat_nums, optarg);
			break;
		case OPT_ALPHA:
			c->alpha = strtod(optarg, &end);
			if (*end || !(c->alpha > 0 && c->alpha < 1)) {
				cli_error("--alpha '%s': expected a number between 0 and 1", optarg);
				rc = -1;
			}
			break;
		case ':':
			given = argv[optind - 1] ? argv[optind - 1] : "";
			cli_error("%s: option %.*s needs a value", cmd, (int)strcspn(given, "="),
				  given);
			rc = -1;
			break;
		default:
			cli_error("%s: unknown option '%s' (see 'iosweep help %s')", cmd,
				  argv[optind - 1], cmd);
			rc = -1;
		}
		if (rc < 0) {
			cli_free(c);
			return EXIT_USAGE;
		}
	}
	return 0;
}

void cli_free(struct cli *c)
{
	free(c->files);
	free(c->sets);
	free(c->jobs);
	free(c->run_nums);
	free(c->repeat_nums);
	memset(c, 0, sizeof(*c));
}

/* Job-file errors are the same on every rank: rank 0 alone says them.  An
 * error of some ranks only (a file missing on one host) is said by each of
 * them, with its rank and host.  Every rank returns the same status. */
int cli_agree(int failed, const char *err)
{
	uint64_t n = failed != 0;

	dist_sum_u64(&n, 1);
	/* on one host n == 1 == dist_size(): rank 0 says it plainly */
	if (failed && n < (uint64_t)dist_size())
		cli_error("rank %d on %s: %s", dist_rank(), dist_host(), err);
	else if (failed && dist_rank() == 0)
		cli_error("%s", err);
	return n ? EXIT_USAGE : 0;
}

/* A bare NAME.ini that is not here is the installed example of that name
 * (rank 0 decides, the others are told).  Returns a malloc'd path. */
static char *find_job_file(const char *path)
{
	char *found = NULL;
	size_t len;

	if (dist_rank() == 0) {
		if (!strchr(path, '/') && access(path, F_OK) != 0 && errno == ENOENT &&
		    asprintf(&found, "%s/%s", IOSWEEP_JOBS_DIR, path) >= 0 &&
		    access(found, F_OK) != 0) {
			free(found);
			found = NULL;
		}
		if (!found)
			found = strdup(path);
		len = found ? strlen(found) : 0;
	}
	if (dist_broadcast(&found, &len) < 0) {
		free(found);
		return NULL;
	}
	return found;
}

int cli_load(const struct cli *c, const char *name, struct jobfile *jf, struct plan *plan)
{
	char err[ERR_MAX] = "", *text = NULL, *path = find_job_file(name);
	size_t len = 0;
	int rc = 0, nomem;

	memset(jf, 0, sizeof(*jf));
	memset(plan, 0, sizeof(*plan)); /* freed below even when never expanded */
	if (!path) {
		cli_error("out of memory");
		return EXIT_RUN;
	}
	/* rank 0 reads the job file; other hosts need not have it */
	if (dist_rank() == 0)
		rc = jobfile_read(path, &text, &len, err);
	nomem = rc == JOBFILE_NOMEM;
	if (cli_agree(rc, err) || dist_broadcast(&text, &len) < 0) {
		free(text);
		free(path);
		return dist_max_int(nomem) ? EXIT_RUN : EXIT_USAGE;
	}
	rc = jobfile_parse(jf, path, text, len, err);
	free(path);
	nomem = rc == JOBFILE_NOMEM;
	free(text);
	for (size_t i = 0; rc == 0 && i < c->nsets; i++) {
		rc = jobfile_set(jf, c->sets[i], err);
		nomem = nomem || rc == JOBFILE_NOMEM;
	}
	if (rc == 0)
		rc = jobfile_select(jf, c->jobs, c->njobs, err);
	if (rc == 0)
		rc = plan_expand(plan, jf,
				 &(struct plan_where){ dist_rank(), dist_size(), dist_host() }, err);
	rc = cli_agree(rc, err);
	/* memory running out is not a bad job file */
	if (rc && dist_max_int(nomem))
		rc = EXIT_RUN;
	if (rc) {
		/* a plan that failed on this rank was freed by plan_expand */
		if (plan->runs)
			plan_free(plan);
		jobfile_free(jf);
	}
	return rc;
}
