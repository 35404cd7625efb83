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

static int set_flag_results(struct cli *c, enum cli_flag_id flag, char *value);

/* A flag's value goes where the command reads it. */
static int set_flag(struct cli *c, enum cli_flag_id flag, char *value)
{
	char *end;

	switch (flag) {
	case FLAG_OUTPUT:
		return parse_output(c, value);
	case FLAG_OUTPUT_PATH:
		c->out_path = value;
		return 0;
	case FLAG_NO_MERGE:
		c->no_merge = true;
		return 0;
	case FLAG_SET:
		return push(&c->sets, &c->nsets, value);
	case FLAG_JOB:
		return push(&c->jobs, &c->njobs, value);
	case FLAG_QUIET:
		c->quiet = true;
		return 0;
	case FLAG_ALPHA:
		c->alpha = strtod(value, &end);
		if (*end || !(c->alpha > 0 && c->alpha < 1)) {
			cli_error("--alpha '%s': expected a number between 0 and 1", value);
			return -1;
		}
		return 0;
	case FLAG_X:
		c->x = value;
		return 0;
	case FLAG_Y:
		c->y = value;
		return 0;
	case FLAG_OVER:
		c->over = value;
		return 0;
	case FLAG_RUN:
		return push(&c->run_nums, &c->nrun_nums, value);
	case FLAG_REPEAT:
		return push(&c->repeat_nums, &c->nrepeat_nums, value);
	default:
		return set_flag_results(c, flag, value);
	}
}

/* --history N: a whole number of results, 1 to a million. */
static int parse_last(struct cli *c, const char *value)
{
	char *end;
	unsigned long long n;

	errno = 0;
	n = strtoull(value, &end, 10);
	if (*value < '0' || *value > '9' || *end || errno || n < 1 || n > 1000000) {
		cli_error("--history '%s': expected how many results, 1 to 1000000", value);
		return -1;
	}
	c->history_last = (size_t)n;
	return 0;
}

/* --max-slowdown 5% (or 5): a percentage, 0 to 1000. */
static int parse_slowdown(struct cli *c, const char *value)
{
	char *end;
	double pct = strtod(value, &end);

	if (*end == '%')
		end++;
	if (end == value || *end || !(pct >= 0 && pct <= 1000)) {
		cli_error("--max-slowdown '%s': expected a percentage, 0%% to 1000%% (5%%)", value);
		return -1;
	}
	c->max_slowdown_pct = pct;
	return 0;
}

/* The flags of the readers of stored results (history, gate). */
static int set_flag_results(struct cli *c, enum cli_flag_id flag, char *value)
{
	const char **text[] = {
		[FLAG_DB] = &c->db, [FLAG_LABEL] = &c->label, [FLAG_HOST] = &c->host,
		[FLAG_SINCE] = &c->since, [FLAG_UNTIL] = &c->until, [FLAG_FIGURE] = &c->figure,
		[FLAG_AGAINST] = &c->against,
	};

	switch (flag) {
	case FLAG_HISTORY:
		return parse_last(c, value);
	case FLAG_MAX_SLOWDOWN:
		return parse_slowdown(c, value);
	case FLAG_ANY_HOST:
		c->any_host = true;
		return 0;
	case FLAG_ALLOW_INCONCLUSIVE:
		c->allow_inconclusive = true;
		return 0;
	case FLAG_ANONYMIZE:
		c->anonymize = true;
		return 0;
	default:
		if ((size_t)flag < sizeof(text) / sizeof(text[0]) && text[flag]) {
			*text[flag] = value;
			return 0;
		}
		return -1;
	}
}

/* getopt's view of a command's flags: "+:o:q" and the long options, whose
 * val is 256 + the flag's id; a short flag gives its letter instead. */
struct getopt_table {
	char shorts[3 + 2 * CLI_MAX_USES];
	struct option longs[CLI_MAX_USES + 1];
};

static void build_getopt(const struct cli_command *cmd, struct getopt_table *t)
{
	size_t ns = 0, nl = 0;

	memset(t, 0, sizeof(*t));
	/* '+': stop at a positional argument; ':' a missing value is ':', not '?' */
	t->shorts[ns++] = '+';
	t->shorts[ns++] = ':';
	for (const struct cli_use *u = cmd->flags; nl < CLI_MAX_USES && u->flag; u++) {
		const struct cli_flag *f = &cli_flags[u->flag];

		if (f->short_name) {
			t->shorts[ns++] = f->short_name;
			if (f->value)
				t->shorts[ns++] = ':';
		}
		t->longs[nl++] = (struct option){ f->long_name,
						  f->value ? required_argument : no_argument, NULL,
						  256 + (int)u->flag };
	}
}

/* The flag of cmd that getopt returned as opt (a letter, or 256 + its id). */
static enum cli_flag_id flag_of(const struct cli_command *cmd, int opt)
{
	if (opt >= 256 && opt < 256 + NFLAGS)
		return (enum cli_flag_id)(opt - 256);
	for (const struct cli_use *u = cmd->flags; u < cmd->flags + CLI_MAX_USES && u->flag; u++)
		if (cli_flags[u->flag].short_name == opt)
			return u->flag;
	return FLAG_NONE;
}

/* Whether flag f is spelled arg: --name (up to '=') or, with letter, -letter. */
static bool spelled(enum cli_flag_id f, const char *arg, int letter)
{
	const char *name = cli_flags[f].long_name;

	if (letter)
		return cli_flags[f].short_name == letter;
	return strncmp(arg, "--", 2) == 0 && strncmp(arg + 2, name, strlen(name)) == 0 &&
	       (arg[2 + strlen(name)] == '\0' || arg[2 + strlen(name)] == '=');
}

/* A flag of other commands only is named as such, with the usage that says
 * which flags this one takes: 0 when arg (or -letter) is no such flag. */
static int refuse_other_flag(const struct cli_command *cmd, const char *arg, int letter)
{
	enum cli_flag_id other = FLAG_NONE;

	for (int f = FLAG_NONE + 1; f < NFLAGS; f++) {
		if (!spelled((enum cli_flag_id)f, arg, letter))
			continue;
		if (cli_command_use(cmd, (enum cli_flag_id)f))
			return 0; /* another flag of that spelling is this command's */
		other = (enum cli_flag_id)f;
	}
	if (other == FLAG_NONE)
		return 0;
	if (letter)
		cli_error("%s does not take -%c (usage: iosweep %s)", cmd->name, letter,
			  cmd->usage);
	else
		cli_error("%s does not take --%s (usage: iosweep %s)", cmd->name,
			  cli_flags[other].long_name, cmd->usage);
	return -1;
}

static int needs_value(const struct cli_command *cmd, const char *given)
{
	cli_error("%s: option %.*s needs a value", cmd->name, (int)strcspn(given, "="), given);
	return -1;
}

/* The flag at argv[optind] and its value; 0, or -1 after printing why. */
static int parse_flag(const struct cli_command *cmd, const struct getopt_table *t, int argc,
		      char **argv, struct cli *c)
{
	enum cli_flag_id flag;
	int opt;

	/* before getopt, which would take --over as short for an --overwrite */
	if (refuse_other_flag(cmd, argv[optind], 0) < 0)
		return -1;
	opt = getopt_long(argc, argv, t->shorts, t->longs, NULL);
	if (opt == ':')
		return needs_value(cmd, argv[optind - 1] ? argv[optind - 1] : "");
	/* optopt: the letter of an unknown -x; 0 for an unknown --name */
	if (opt == '?' && optopt > 0 && optopt < 256) {
		if (refuse_other_flag(cmd, "", optopt) < 0)
			return -1;
		cli_error("%s: unknown option '-%c' (see 'iosweep help %s')", cmd->name, optopt,
			  cmd->name);
		return -1;
	}
	flag = opt == '?' ? FLAG_NONE : flag_of(cmd, opt);
	if (flag == FLAG_NONE) {
		cli_error("%s: unknown option '%s' (see 'iosweep help %s')", cmd->name,
			  argv[optind - 1], cmd->name);
		return -1;
	}
	/* --set= and -o '' are no value either */
	if (cli_flags[flag].value && optarg[0] == '\0')
		return needs_value(cmd, argv[optind - (optarg == argv[optind - 1] ? 2 : 1)]);
	return set_flag(c, flag, optarg);
}

int cli_parse(const char *name, int argc, char **argv, struct cli *c)
{
	const struct cli_command *cmd = cli_command_find(name);
	struct getopt_table t;
	int rc = 0;

	memset(c, 0, sizeof(*c));
	c->alpha = 0.05;
	c->max_slowdown_pct = 5;
	if (!cmd) {
		cli_error("no command '%s' (see 'iosweep help')", name);
		return EXIT_USAGE;
	}
	build_getopt(cmd, &t);
	optind = 1;
	opterr = 0;
	/* flags and positional arguments may come in any order */
	while (optind < argc && rc == 0) {
		if (argv[optind][0] != '-' || strcmp(argv[optind], "-") == 0) {
			rc = push(&c->files, &c->nfiles, argv[optind++]);
		} else if (strcmp(argv[optind], "--") == 0 && cmd->rest) {
			c->rest = argv + optind + 1;
			c->nrest = argc - optind - 1;
			break;
		} else if (strcmp(argv[optind], "--") == 0) {
			for (optind++; optind < argc && rc == 0; optind++)
				rc = push(&c->files, &c->nfiles, argv[optind]);
		} else {
			rc = parse_flag(cmd, &t, argc, argv, c);
		}
	}
	if (rc < 0) {
		cli_free(c);
		return EXIT_USAGE;
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
		return rc;
	}
	for (size_t i = 0; i < plan->nskips && dist_rank() == 0; i++)
		fprintf(stderr, "iosweep: note: %s:%d: job '%s': %s cannot run: %llu run%s of its "
				"lists skipped\n", jf->path, plan->skips[i].job->line,
			plan->skips[i].job->name, plan->skips[i].what,
			(unsigned long long)plan->skips[i].n, plan->skips[i].n == 1 ? "" : "s");
	return 0;
}
