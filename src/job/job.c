/*
 * job.c - job file text -> typed, validated jobs.
 *
 * inih does the INI syntax; it is fed through ini_parse_stream with a
 * reader of our own, which counts lines (the Debian build of inih gives its
 * handler no line numbers), ends a line at LF, CR LF or a lone CR alike and
 * hands inih each line with a plain LF (so that the length limit is the
 * same whatever the line end), refuses lines longer than inih would accept
 * (inih would silently split them), and reads every [section] header
 * itself: a job with no options of its own still exists, text after ']' is
 * an error instead of being dropped, and white space around the name is
 * not part of it.  Job names are found through a hash table, so that a file
 * of many jobs is read in time linear in its size.  The handler turns
 * each value into typed values: ${VAR} expansion, list splitting, parsing
 * against the option table.  The first error wins and stops the parse.
 */
#define _GNU_SOURCE
#include "job/job.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "job/fio_words.h"
#include "lib/error.h"

#define MAX_FILE_BYTES (16u << 20)
#define MAX_SECTION 50 /* inih's limit, including the NUL */
/* Bounds that keep a hostile or generated file from taking minutes or
 * gigabytes: every job holds its own copy of [global]'s values, and a plan
 * has at most PLAN_MAX_RUNS runs anyway. */
#define MAX_JOBS 100000 /* as many as a plan has runs */
#define MAX_VALUES 1000000
/* The message of every failed allocation, told apart from job-file errors
 * by it (a job file is not wrong because memory ran out). */
#define NOMEM "out of memory"

struct parser {
	struct jobfile *jf;
	const char *text, *end, *pos;
	int lineno;
	bool indented;        /* the line being parsed starts with white space */
	bool blank_before;    /* a blank line since the last name = value */
	struct job global;    /* [global] values so far */
	bool in_global;
	bool have_section;
	int prev_line;        /* line of the previous name = value */
	int prev_id;          /* its option, for continuation lines */
	int dangling;         /* line of a list that ended with ',' (0: none) */
	int dangling_id;      /* and its option */
	struct job_value *open; /* the value being read: it may go on on the next line */
	int open_id;          /* and its option */
	size_t nvalues;       /* values held by [global] and the jobs */
	uint32_t *names;      /* open addressing: 1 + index into jf->jobs; 0: free */
	size_t names_cap;     /* a power of two, at least twice the jobs */
	char err[ERR_MAX];
	int fail_line;        /* line of err; 0: none */
	bool failed;
	bool nomem;           /* err is about memory, not about the file */
};

static int fail(struct parser *ps, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct parser *ps, int line, const char *fmt, ...)
{
	char msg[ERR_MAX / 2];
	va_list ap;

	if (ps->failed)
		return 0;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ps->nomem = strcmp(msg, NOMEM) == 0;
	if (ps->nomem)
		snprintf(ps->err, sizeof(ps->err), "%s: out of memory while reading it",
			 ps->jf->path);
	else if (line > 0)
		snprintf(ps->err, sizeof(ps->err), "%s:%d: %s", ps->jf->path, line, msg);
	else
		snprintf(ps->err, sizeof(ps->err), "%s: %s", ps->jf->path, msg);
	ps->fail_line = line;
	ps->failed = true;
	return 0;
}

/* Outside the parse (--set, --job): a few look-ups, a scan each. */
static struct job *jobfile_find(const struct jobfile *jf, const char *name)
{
	for (size_t i = 0; i < jf->njobs; i++)
		if (strcmp(jf->jobs[i].name, name) == 0)
			return &jf->jobs[i];
	return NULL;
}

/* The slot of name in the parser's table: where it is, or the free slot
 * where it would go. */
static uint32_t *names_slot(const struct parser *ps, const char *name)
{
	size_t mask = ps->names_cap - 1, i = XXH3_64bits(name, strlen(name)) & mask;

	while (ps->names[i] && strcmp(ps->jf->jobs[ps->names[i] - 1].name, name) != 0)
		i = (i + 1) & mask;
	return &ps->names[i];
}

static struct job *parser_find(const struct parser *ps, const char *name)
{
	uint32_t *slot = ps->names_cap ? names_slot(ps, name) : NULL;

	return slot && *slot ? &ps->jf->jobs[*slot - 1] : NULL;
}

/* Adds the last job of jf to the table, doubling it when half full. */
static int names_add(struct parser *ps)
{
	const struct job *jobs = ps->jf->jobs;
	size_t n = ps->jf->njobs;

	if (!jobs || n == 0)
		return -1;

	if (2 * n > ps->names_cap) {
		size_t cap = ps->names_cap ? 2 * ps->names_cap : 64;
		uint32_t *old = ps->names;

		ps->names = calloc(cap, sizeof(*ps->names));
		if (!ps->names) {
			ps->names = old;
			return -1;
		}
		ps->names_cap = cap;
		for (size_t i = 0; i + 1 < n; i++)
			*names_slot(ps, jobs[i].name) = (uint32_t)(i + 1);
		free(old);
	}
	*names_slot(ps, jobs[n - 1].name) = (uint32_t)n;
	return 0;
}

static void value_free(const struct option_def *o, struct job_value *jv)
{
	if (o->type == T_PATH || o->type == T_TEXT || o->type == T_JOB)
		for (size_t i = 0; i < jv->n; i++)
			free((char *)jv->v[i].s);
	free(jv->v);
	jv->v = NULL;
	jv->n = 0;
}

static void job_clear(struct job *job)
{
	for (int i = 0; i < OPT__COUNT; i++)
		value_free(&option_table[i], &job->opt[i]);
	free(job->name);
	job->name = NULL;
}

static int value_copy(enum opt_id id, struct job_value *dst, const struct job_value *src)
{
	const struct option_def *o = &option_table[id];

	*dst = *src;
	dst->here = false;
	dst->v = NULL;
	if (src->n == 0)
		return 0;
	dst->v = calloc(src->n, sizeof(*dst->v));
	if (!dst->v)
		return -1;
	for (size_t i = 0; i < src->n; i++) {
		dst->v[i] = src->v[i];
		if (o->type == T_PATH || o->type == T_TEXT || o->type == T_JOB) {
			dst->v[i].s = strdup(src->v[i].s);
			if (!dst->v[i].s) {
				dst->n = i;
				return -1;
			}
		}
	}
	return 0;
}

/*
 * The one rule for paths (filename), after ${VAR} expansion: `~` and `~/...`
 * are in the home directory ($HOME), as in a shell; a relative path read
 * from a job file is relative to the directory of the job file, so that a
 * job checked in beside its data works from any directory; a relative path
 * from --set (jobfile NULL) is relative to the current directory, as any
 * path on a command line.  Takes text (malloc'd); returns the path to use
 * (malloc'd), or NULL with a message in err.
 */
static char *job_resolve_path(const char *jobfile, char *text, char *err)
{
	const char *home = getenv("HOME"), *slash = jobfile ? strrchr(jobfile, '/') : NULL;
	char *out = NULL;
	int rc = 0;

	if (text[0] == '~' && (text[1] == '\0' || text[1] == '/')) {
		if (!home || !*home) {
			free(text);
			err_set(err, "'~' in a path, but HOME is not set");
			return NULL;
		}
		rc = asprintf(&out, "%s%s", home, text + 1);
	} else if (text[0] != '/' && text[0] && slash && !strchr("\"'~", text[0]) &&
		   !strchr(text, '$')) {
		/* (a quoted value, ~user or a '$' is left as written: the plan
		 * refuses it with a suggestion) */
		rc = asprintf(&out, "%.*s/%s", (int)(slash - jobfile), jobfile, text);
	} else {
		return text;
	}
	free(text);
	if (rc < 0) {
		err_set(err, NOMEM);
		return NULL;
	}
	return out;
}

/* ${VAR} and ${VAR:-default}; the result is not expanded again. */
static char *expand_env(const char *in, char *err)
{
	size_t cap = strlen(in) + 1, len = 0;
	char *out = malloc(cap);

	if (!out) {
		err_set(err, NOMEM);
		return NULL;
	}
	for (const char *p = in; *p;) {
		const char *add = p, *close, *colon;
		size_t addlen = 1;
		char name[256];

		if (p[0] == '$' && p[1] == '{') {
			close = strchr(p + 2, '}');
			if (!close) {
				err_set(err, "'${' without a closing '}' in '%s'", in);
				goto fail;
			}
			colon = memmem(p + 2, (size_t)(close - p - 2), ":-", 2);
			size_t nlen = (size_t)((colon ? colon : close) - (p + 2));
			if (nlen == 0 || nlen >= sizeof(name)) {
				err_set(err, "bad variable name in '%.*s'", (int)(close - p + 1), p);
				goto fail;
			}
			memcpy(name, p + 2, nlen);
			name[nlen] = '\0';
			for (size_t i = 0; i < nlen; i++)
				if (!(isalnum((unsigned char)name[i]) || name[i] == '_') ||
				    isdigit((unsigned char)name[0])) {
					err_set(err, "bad variable name '%s'", name);
					goto fail;
				}
			/* refused whether or not VAR is set: the default's '}' would
			 * close VAR's '${' and leave a stray '}' */
			if (colon && memmem(colon + 2, (size_t)(close - colon - 2), "${", 2)) {
				err_set(err, "nested '${' in the default of ${%s}", name);
				goto fail;
			}
			add = getenv(name);
			if (add && *add) {
				addlen = strlen(add);
			} else if (colon) {
				add = colon + 2;
				addlen = (size_t)(close - add);
			} else {
				err_set(err, "environment variable %s is %s "
					     "(write ${%s:-default} to give a default)", name,
					add ? "empty" : "not set", name);
				goto fail;
			}
			p = close + 1;
		} else {
			p++;
		}
		if (len + addlen + 1 > cap) {
			char *bigger;

			cap = 2 * (len + addlen + 1);
			bigger = realloc(out, cap);
			if (!bigger) {
				err_set(err, NOMEM);
				goto fail;
			}
			out = bigger;
		}
		memcpy(out + len, add, addlen);
		len += addlen;
	}
	out[len] = '\0';
	return out;
fail:
	free(out);
	return NULL;
}

static char *trim(char *s)
{
	char *end;

	while (*s && isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* A value listed twice would make two identical runs: refuse it.  Sorting
 * a copy keeps this fast for very long lists. */
static int check_no_repeats(enum opt_id id, const struct job_value *jv, char *err)
{
	uint64_t *sorted;
	char a[64];
	int rc = 0;

	if (jv->n < 2 || option_table[id].type == T_PATH || option_table[id].type == T_TEXT ||
	    option_table[id].type == T_JOB)
		return 0;
	sorted = malloc(jv->n * sizeof(*sorted));
	if (!sorted)
		return err_set(err, NOMEM);
	for (size_t i = 0; i < jv->n; i++)
		sorted[i] = jv->v[i].u;
	qsort(sorted, jv->n, sizeof(*sorted), compare_u64);
	for (size_t i = 1; i < jv->n && rc == 0; i++)
		if (sorted[i] == sorted[i - 1]) {
			option_format(id, (union optval){ .u = sorted[i] }, a, sizeof(a));
			rc = err_set(err, "%s: %s is listed twice", option_table[id].name, a);
		}
	free(sorted);
	return rc;
}

/* Room for n list values: lists grow by doubling, so that a list continued
 * over thousands of lines is not copied on every line.  A list of n values
 * made here always has at least this much room. */
static size_t list_room(size_t n)
{
	size_t room = 1;

	while (room < n)
		room <<= 1;
	return n ? room : 0;
}

/* Parses the (expanded) text of option id into jv, appending when append. */
static int parse_into(enum opt_id id, const char *text, struct job_value *jv, bool append,
		      char *err)
{
	const struct option_def *o = &option_table[id];
	char *copy, *elem, *save = NULL;
	size_t cap;

	if (!append)
		value_free(o, jv);
	if (!o->list) {
		if (o->type != T_PATH && o->type != T_TEXT && strchr(text, ','))
			return err_set(err, "%s takes one value, not a list: '%s'", o->name, text);
		jv->v = calloc(1, sizeof(*jv->v));
		if (!jv->v)
			return err_set(err, NOMEM);
		if (option_parse_value(id, text, &jv->v[0], err) < 0)
			return -1;
		jv->n = 1;
		return 0;
	}
	if (*text == '\0')
		return err_set(err, "%s: empty value", o->name);
	copy = strdup(text);
	if (!copy)
		return err_set(err, NOMEM);
	cap = jv->n + 1;
	for (const char *p = text; *p; p++)
		cap += *p == ',';
	if (cap > list_room(jv->n)) {
		union optval *v = realloc(jv->v, list_room(cap) * sizeof(*v));

		if (!v) {
			free(copy);
			return err_set(err, NOMEM);
		}
		jv->v = v;
	}
	/* strsep keeps empty fields, so "4k,,8k" and "4k," are caught */
	save = copy;
	while ((elem = strsep(&save, ",")) != NULL) {
		elem = trim(elem);
		if (*elem == '\0') {
			free(copy);
			return err_set(err, "%s: empty element in list '%s'", o->name, text);
		}
		if (option_parse_value(id, elem, &jv->v[jv->n], err) < 0) {
			free(copy);
			return -1;
		}
		jv->n++;
	}
	free(copy);
	return 0;
}

static struct job *current(struct parser *ps)
{
	return ps->in_global ? &ps->global : &ps->jf->jobs[ps->jf->njobs - 1];
}

/* A value is complete once something else starts: only then are its
 * repeats looked for (once, not on every continuation line). */
static int finish_value(struct parser *ps)
{
	char err[ERR_MAX];
	struct job_value *jv = ps->open;

	ps->open = NULL;
	if (!jv || ps->failed || check_no_repeats(ps->open_id, jv, err) == 0)
		return 1;
	return fail(ps, jv->line, "%s", err);
}

/* Counts values added to [global] or a job against MAX_VALUES. */
static int count_values(struct parser *ps, size_t added, int line)
{
	ps->nvalues += added;
	if (ps->nvalues <= MAX_VALUES)
		return 1;
	return fail(ps, line, "more than %d values in the file (counting the values of "
			      "[global] once for every job after it)", MAX_VALUES);
}

/* A new job at the end of jf, with no values, its room grown by doubling
 * (thousands of sections stay linear); NULL when memory ran out. */
static struct job *job_append(struct jobfile *jf, const char *name, int line)
{
	struct job *jobs, *job;

	if (jf->njobs == jf->jobs_cap || !jf->jobs) {
		size_t cap = jf->jobs_cap ? 2 * jf->jobs_cap : 16;

		jobs = realloc(jf->jobs, cap * sizeof(*jobs));
		if (!jobs)
			return NULL;
		jf->jobs = jobs;
		jf->jobs_cap = cap;
	}
	job = &jf->jobs[jf->njobs];
	memset(job, 0, sizeof(*job));
	job->line = line;
	job->name = strdup(name);
	if (!job->name)
		return NULL;
	jf->njobs++;
	return job;
}

static int start_section(struct parser *ps, const char *name, int line)
{
	struct jobfile *jf = ps->jf;
	struct job *job;

	if (!finish_value(ps))
		return 0;
	ps->have_section = true;
	ps->prev_id = -1;
	if (strcmp(name, "global") == 0) {
		ps->in_global = true;
		for (int i = 0; i < OPT__COUNT; i++)
			ps->global.opt[i].here = false;
		return 1;
	}
	ps->in_global = false;
	if (*name == '\0')
		return fail(ps, line, "empty section name");
	struct job *dup = parser_find(ps, name);
	if (dup)
		return fail(ps, line, "duplicate job name '%s' (first at line %d)", name, dup->line);
	if (jf->njobs == MAX_JOBS)
		return fail(ps, line, "more than %d jobs in one file", MAX_JOBS);
	job = job_append(jf, name, line);
	if (!job || names_add(ps) < 0)
		return fail(ps, line, NOMEM);
	for (int i = 0; i < OPT__COUNT; i++) {
		if (!count_values(ps, ps->global.opt[i].n, line))
			return 0;
		if (value_copy(i, &job->opt[i], &ps->global.opt[i]) < 0)
			return fail(ps, line, NOMEM);
	}
	return 1;
}

/* An option iosweep does not have: the nearest one's name, and what fio's
 * word of that name is here.  0, after fail(). */
static int unknown_option(struct parser *ps, int line, const char *name)
{
	const char *near = option_suggest(name), *fio = fio_hint_option(name);

	if (fio && near)
		return fail(ps, line, "unknown option '%s' (did you mean '%s'?); %s", name, near,
			    fio);
	if (fio)
		return fail(ps, line, "unknown option '%s': %s", name, fio);
	if (near)
		return fail(ps, line, "unknown option '%s' (did you mean '%s'?)", name, near);
	return fail(ps, line, "unknown option '%s' (see 'iosweep options')", name);
}

/* Whether an indented line may continue the list of the option before it
 * (a list that takes more values, with no blank line between); false after
 * fail(). */
static bool continuation_ok(struct parser *ps, int line, int id, const char *name,
			    const char *value)
{
	if (strchr(value, '='))
		return fail(ps, line, "an indented line continues the value of '%s' (line %d): "
				      "remove the indentation of '%s'", name, ps->prev_line, value);
	if (!option_table[id].list)
		return fail(ps, line, "an indented line continues the value of '%s' (line %d), "
				      "which takes one value: remove the indentation of '%s'",
			    name, ps->prev_line, value);
	if (ps->blank_before)
		return fail(ps, line, "an indented line continues the list of '%s' (line %d) after "
				      "a blank line: remove the blank line or the indentation",
			    name, ps->prev_line);
	return true;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct parser *ps = user;
	int line = ps->lineno, id;
	bool append;
	char err[ERR_MAX], *text;
	struct job_value *jv;

	if (ps->failed)
		return 0;
	(void)section; /* the reader started it, with its name trimmed */
	if (!ps->have_section)
		return fail(ps, line, "'%s' is outside any section (start with [global] or [JOB])",
			    name);
	if (*name == '\0')
		return fail(ps, line, "syntax error: '=' without an option name before it");
	id = option_find(name);
	if (id < 0)
		return unknown_option(ps, line, name);
	/* inih takes every indented line after a name = value of the same
	 * section (comments and blank lines in between) for more of its value */
	append = ps->indented && ps->prev_id >= 0;
	if (append && !continuation_ok(ps, line, id, name, value))
		return 0;
	jv = &current(ps)->opt[id];
	if (!append && !finish_value(ps))
		return 0;
	if (jv->here && !append)
		return fail(ps, line, "%s is set twice in [%s] (first at line %d)",
			    option_table[id].name, ps->in_global ? "global" : current(ps)->name,
			    jv->line);
	if (ps->dangling && !append)
		return fail(ps, ps->dangling, "%s: list ends with ','",
			    option_table[ps->dangling_id].name);
	text = expand_env(value, err);
	if (text && option_table[id].type == T_PATH)
		text = job_resolve_path(ps->jf->path, text, err);
	ps->dangling = 0;
	if (text && option_table[id].list && *text && text[strlen(text) - 1] == ',') {
		/* "bs = 4k, 8k," goes on on the next, indented line */
		text[strlen(text) - 1] = '\0';
		ps->dangling = line;
		ps->dangling_id = id;
	}
	size_t before = append ? jv->n : 0;
	if (!text || parse_into(id, text, jv, append, err) < 0) {
		free(text);
		return fail(ps, line, "%s", err);
	}
	free(text);
	if (!count_values(ps, jv->n - before, line))
		return 0;
	if (!append) {
		jv->line = line;
		jv->order = ps->jf->next_order++;
		jv->here = true;
	}
	ps->open = jv;
	ps->open_id = id;
	ps->prev_id = id;
	ps->prev_line = line;
	ps->blank_before = false;
	return 1;
}

/* Where the line at p ends (LF, CR LF, a lone CR, or the end of the text):
 * its length without the line end; *next is the start of the next line. */
static size_t line_length(const char *p, const char *end, const char **next)
{
	const char *q = p;

	while (q < end && *q != '\n' && *q != '\r')
		q++;
	*next = q;
	if (q < end && *q == '\r')
		(*next)++;
	if (*next < end && **next == '\n')
		(*next)++;
	return (size_t)(q - p);
}

/* A [section] line (after a byte order mark): starts the section, or fails. */
static void section_line(struct parser *ps, const char *p)
{
	const char *close = strchr(p, ']'), *rest;
	char name[MAX_SECTION];
	size_t len;

	if (!close) {
		fail(ps, ps->lineno, "syntax error: '[' without ']'");
		return;
	}
	for (rest = close + 1; *rest == ' ' || *rest == '\t'; rest++)
		;
	if (*rest != '\n' && *rest != ';' && *rest != '#') {
		fail(ps, ps->lineno, "text after ']': '%.*s' (an option goes on a line of its own)",
		     (int)strcspn(rest, "\n"), rest);
		return;
	}
	/* [ global ] is [global]: white space around a name is not part of it */
	for (p++; p < close && (*p == ' ' || *p == '\t'); p++)
		;
	while (close > p && (close[-1] == ' ' || close[-1] == '\t'))
		close--;
	len = (size_t)(close - p);
	if (len >= MAX_SECTION - 1) {
		fail(ps, ps->lineno, "section name longer than %d bytes", MAX_SECTION - 2);
		return;
	}
	memcpy(name, p, len);
	name[len] = '\0';
	start_section(ps, name, ps->lineno);
}

/* inih's reader: one line per call, counted, never truncated, ending in LF. */
static char *reader(char *buf, int size, void *stream)
{
	struct parser *ps = stream;
	const char *next, *p = buf;
	size_t len;

	if (ps->failed || ps->pos >= ps->end)
		return NULL;
	len = line_length(ps->pos, ps->end, &next);
	ps->lineno++;
	if (len > (size_t)size - 2) {
		fail(ps, ps->lineno, "line is longer than %d bytes (continue a list on "
				     "an indented next line)", size - 2);
		return NULL;
	}
	memcpy(buf, ps->pos, len);
	buf[len] = '\n';
	buf[len + 1] = '\0';
	ps->pos = next;
	if (ps->lineno == 1 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
		p += 3;
	ps->indented = *p == ' ' || *p == '\t';
	p += strspn(p, " \t");
	if (*p == '\n' && ps->prev_id >= 0)
		ps->blank_before = true;
	if (*p == '[' && ps->indented)
		fail(ps, ps->lineno, "an indented section header: remove the indentation");
	else if (*p == '[')
		section_line(ps, p);
	return ps->failed ? NULL : buf;
}

static int line_of(const char *text, const char *at)
{
	const char *next;
	int line = 1;

	for (const char *p = text; p + line_length(p, at, &next) < at; p = next)
		line++;
	return line;
}

typedef struct job *job_finder(const void *where, const char *name);

static struct job *find_parsed(const void *ps, const char *name)
{
	return parser_find(ps, name);
}

static struct job *find_in(const void *jf, const char *name)
{
	return jobfile_find(jf, name);
}

/* The first job whose baseline names no job (found by find in where), or
 * NULL: a job file's (the parser's table) or one made from data (a scan). */
static const struct job *unknown_baseline(const struct jobfile *jf, job_finder *find,
					  const void *where)
{
	for (size_t i = 0; i < jf->njobs; i++) {
		const struct job_value *b = &jf->jobs[i].opt[OPT_BASELINE];

		if (b->n && !find(where, b->v[0].s))
			return &jf->jobs[i];
	}
	return NULL;
}

static int check_baselines(struct parser *ps)
{
	const struct job *job = unknown_baseline(ps->jf, find_parsed, ps);
	const struct job_value *b = job ? &job->opt[OPT_BASELINE] : NULL;

	return b ? fail(ps, b->line, "baseline '%s' names no job of this file", b->v[0].s) : 1;
}

/* percentage_random mixes sequential units into random ones: a job that
 * has no random pattern has nothing to mix it into. */
static void check_percentage_random(struct parser *ps)
{
	for (size_t i = 0; i < ps->jf->njobs; i++) {
		const struct job *job = &ps->jf->jobs[i];
		const struct job_value *pt = &job->opt[OPT_PATTERN];
		bool random = false;

		for (size_t k = 0; k < pt->n; k++)
			random |= pattern_is_random(pt->v[k].u);
		if (job->opt[OPT_PERCENTAGE_RANDOM].n && !random) {
			fail(ps, job->opt[OPT_PERCENTAGE_RANDOM].line,
			     "percentage_random is for pattern = random or random-replace, and job "
			     "'%s' reads in order: set pattern = random, or remove percentage_random",
			     job->name);
			return;
		}
	}
}

int jobfile_parse(struct jobfile *jf, const char *path, const char *text, size_t len, char *err)
{
	struct parser ps = { .jf = jf, .text = text, .end = text + len, .pos = text,
			     .prev_id = -1 };
	const char *nul;
	int rc;

	memset(jf, 0, sizeof(*jf));
	jf->path = strdup(path);
	jf->text = strndup(text, len);
	if (!jf->path || !jf->text) {
		err_set(err, "%s: out of memory while reading it", path);
		return JOBFILE_NOMEM;
	}
	nul = len ? memchr(text, '\0', len) : NULL;
	if (nul)
		fail(&ps, line_of(text, nul), "NUL byte in job file");
	rc = ps.failed ? 0 : ini_parse_stream(reader, &ps, handler, &ps);
	finish_value(&ps);
	if (!ps.failed && ps.dangling)
		fail(&ps, ps.dangling, "%s: list ends with ','", option_table[ps.dangling_id].name);
	/* inih goes on after a syntax error: the error on the earliest line wins */
	if (rc > 0 && !ps.nomem && (!ps.failed || ps.fail_line > rc)) {
		ps.failed = false;
		fail(&ps, rc, "syntax error: expected '[section]' or 'name = value'");
	} else if (!ps.failed && rc < 0) {
		fail(&ps, 0, NOMEM);
	}
	if (!ps.failed && jf->njobs == 0)
		fail(&ps, 0, "no jobs (every section but [global] is a job)");
	if (!ps.failed)
		check_baselines(&ps);
	if (!ps.failed)
		check_percentage_random(&ps);
	job_clear(&ps.global);
	free(ps.names);
	if (ps.failed) {
		snprintf(err, ERR_MAX, "%s", ps.err);
		return ps.nomem ? JOBFILE_NOMEM : -1;
	}
	return 0;
}

int jobfile_new(struct jobfile *jf, const char *path, char *err)
{
	memset(jf, 0, sizeof(*jf));
	jf->path = strdup(path);
	if (!jf->path) {
		err_set(err, "%s: %s", path, NOMEM);
		return JOBFILE_NOMEM;
	}
	return 0;
}

/* A job's name, as a [section] of a job file could hold it: the same
 * jobs whether made from text or from data. */
struct job *jobfile_add_job(struct jobfile *jf, const char *name, int line, char *err)
{
	struct job *job;

	if (*name == '\0' || strcmp(name, "global") == 0) {
		err_set(err, "%s: %s", jf->path, *name ? "[global] is not a job" : "empty job name");
		return NULL;
	}
	if (strnlen(name, MAX_SECTION) > MAX_SECTION - 2) {
		err_set(err, "%s: job '%.*s...': a job name holds at most %d bytes", jf->path,
			MAX_SECTION - 2, name, MAX_SECTION - 2);
		return NULL;
	}
	if (jobfile_find(jf, name)) {
		err_set(err, "%s: duplicate job name '%s'", jf->path, name);
		return NULL;
	}
	if (jf->njobs == MAX_JOBS) {
		err_set(err, "%s: more than %d jobs", jf->path, MAX_JOBS);
		return NULL;
	}
	job = job_append(jf, name, line);
	if (!job)
		err_set(err, "%s: %s", jf->path, NOMEM);
	return job;
}

int jobfile_add_value(struct jobfile *jf, struct job *job, enum opt_id id, const char *text,
		      char *err)
{
	struct job_value *jv = &job->opt[id];
	char why[ERR_MAX];

	if (jv->here)
		return err_set(err, "%s: job '%s': %s is set twice", jf->path, job->name,
			       option_table[id].name);
	if (parse_into(id, text, jv, false, why) < 0 || check_no_repeats(id, jv, why) < 0) {
		err_set(err, "%s: job '%s': %s", jf->path, job->name, why);
		return strcmp(why, NOMEM) == 0 ? JOBFILE_NOMEM : -1;
	}
	if (jv->n > MAX_VALUES)
		return err_set(err, "%s: job '%s': %s: more than %d values", jf->path, job->name,
			       option_table[id].name, MAX_VALUES);
	jv->line = job->line;
	jv->set = NULL;
	jv->order = jf->next_order++;
	jv->here = true;
	return 0;
}

int jobfile_complete(const struct jobfile *jf, char *err)
{
	const struct job *job = unknown_baseline(jf, find_in, jf);

	if (jf->njobs == 0)
		return err_set(err, "%s: no jobs", jf->path);
	if (job)
		return err_set(err, "%s: job '%s': baseline '%s' names no job", jf->path, job->name,
			       job->opt[OPT_BASELINE].v[0].s);
	return 0;
}

/* Reads a whole regular file of at most MAX_FILE_BYTES into *text. */
int jobfile_read(const char *path, char **text, size_t *len, char *err)
{
	struct stat st;
	ssize_t n = 0;
	size_t got = 0;
	/* O_NONBLOCK: a FIFO must not hang the open; it is refused below */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	*text = NULL;
	*len = 0;
	/* every failure returns -1 itself, so that static analyzers need not
	 * know what err_set() returns */
	if (fd < 0 || fstat(fd, &st) < 0) {
		err_set(err, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > MAX_FILE_BYTES) {
		close(fd);
		if (S_ISDIR(st.st_mode))
			err_set(err, "%s: is a directory, not a job file", path);
		else if (!S_ISREG(st.st_mode))
			err_set(err, "%s: not a regular file", path);
		else
			err_set(err, "%s: larger than %u MiB: not a job file", path,
				MAX_FILE_BYTES >> 20);
		return -1;
	}
	*text = malloc((size_t)st.st_size + 1);
	if (!*text) {
		close(fd);
		err_set(err, "%s: out of memory while reading it", path);
		return JOBFILE_NOMEM;
	}
	while (got < (size_t)st.st_size) {
		n = read(fd, *text + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break; /* a file that shrank meanwhile ends here */
		got += (size_t)n;
	}
	if (n < 0) {
		err_set(err, "%s: %s", path, strerror(errno));
		close(fd);
		free(*text);
		*text = NULL;
		return -1;
	}
	close(fd);
	(*text)[got] = '\0';
	*len = got;
	return 0;
}

/* "--set 'KV': why" in err (a long KV cut short, so that why is still
 * said); JOBFILE_NOMEM when why is running out of memory, which is no fault
 * of the --set. */
static int set_failed(char *err, const char *kv, const char *why)
{
	err_set(err, "--set '%.200s%s': %s", kv, strlen(kv) > 200 ? "..." : "", why);
	return strcmp(why, NOMEM) == 0 ? JOBFILE_NOMEM : -1;
}

int jobfile_set(struct jobfile *jf, const char *kv, char *err)
{
	const char *eq = strchr(kv, '=');
	char name[64], why[ERR_MAX], *text;
	char **ov;
	int id;

	if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof(name))
		return err_set(err, "--set '%s': expected KEY=VALUE", kv);
	snprintf(name, sizeof(name), "%.*s", (int)(eq - kv), kv);
	id = option_find(trim(name));
	if (id < 0) {
		const char *near = option_suggest(trim(name));

		return err_set(err, "--set '%s': unknown option '%s'%s%s%s", kv, trim(name),
			       near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
	}
	ov = realloc(jf->overrides, (jf->noverrides + 1) * sizeof(*ov));
	if (!ov)
		return set_failed(err, kv, NOMEM);
	jf->overrides = ov;
	ov[jf->noverrides] = strdup(kv);
	if (!ov[jf->noverrides])
		return set_failed(err, kv, NOMEM);
	jf->noverrides++;
	text = expand_env(eq + 1, why);
	if (!text)
		return set_failed(err, kv, why);
	char *value = trim(text);
	if (option_table[id].type == T_PATH) {
		char *path = strdup(value);

		free(text);
		if (!path)
			return err_set(err, "--set '%s': %s", kv, NOMEM);
		text = job_resolve_path(NULL, path, why);
		if (!text)
			return err_set(err, "--set '%s': %s", kv, why);
		value = text;
	}
	for (size_t i = 0; i < jf->njobs; i++) {
		struct job_value *jv = &jf->jobs[i].opt[id];

		if (parse_into(id, value, jv, false, why) < 0 ||
		    (i == 0 && check_no_repeats(id, jv, why) < 0)) {
			free(text);
			return set_failed(err, kv, why);
		}
		if (jv->n > MAX_VALUES / jf->njobs) {
			free(text);
			return err_set(err, "--set '%s': more than %d values in all jobs", kv,
				       MAX_VALUES);
		}
		if (id == OPT_BASELINE && !jobfile_find(jf, value)) {
			free(text);
			return err_set(err, "--set '%s': baseline names no job", kv);
		}
		jv->line = 0;
		jv->set = jf->overrides[jf->noverrides - 1];
		if (!jv->here)
			jv->order = jf->next_order;
		jv->here = true;
	}
	jf->next_order++;
	free(text);
	return 0;
}

int jobfile_select(struct jobfile *jf, char *const *names, size_t n, char *err)
{
	size_t kept = 0;

	if (n == 0)
		return 0;
	for (size_t k = 0; k < n; k++)
		if (!jobfile_find(jf, names[k]))
			return err_set(err, "%s: no job named '%s'", jf->path, names[k]);
	for (size_t i = 0; i < jf->njobs; i++) {
		bool wanted = false;

		for (size_t k = 0; k < n && !wanted; k++)
			wanted = strcmp(jf->jobs[i].name, names[k]) == 0;
		if (wanted)
			jf->jobs[kept++] = jf->jobs[i];
		else
			job_clear(&jf->jobs[i]);
	}
	jf->njobs = kept;
	return 0;
}

void job_where(const struct jobfile *jf, const struct job *job, enum opt_id id, char *buf,
	       size_t n)
{
	const struct job_value *jv = &job->opt[id];

	if (jv->n && jv->set)
		snprintf(buf, n, "--set '%s'", jv->set);
	else
		snprintf(buf, n, "%s:%d", jf->path, jv->n ? jv->line : job->line);
}

void jobfile_free(struct jobfile *jf)
{
	for (size_t i = 0; i < jf->njobs; i++)
		job_clear(&jf->jobs[i]);
	for (size_t i = 0; i < jf->noverrides; i++)
		free(jf->overrides[i]);
	free(jf->overrides);
	free(jf->jobs);
	free(jf->path);
	free(jf->text);
	memset(jf, 0, sizeof(*jf));
}
