/*
 * fio.c - fio's job-file dialect and units; see fio.h.
 *
 * Every rule here was checked against fio 3.33 itself (`fio --parse-only
 * --debug=parse`), not only its documentation, where the two differ:
 * `$VAR` without braces is not expanded; `bs = 8k` (a space after '=') is
 * 8 bytes; `10sec` is 10 microseconds; `1mi` is 1048576 bytes whatever the
 * HOWTO says; only `kib mib gib tib pib` flip with kb_base; arithmetic goes
 * to bc only when a keyword was replaced and the value then holds + - * /.
 * Where fio reads less than was written, we refuse rather than copy it.
 */
#define _GNU_SOURCE
#include "fio/fio.h"

#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "job/job.h"
#include "lib/error.h"

#define MAX_INCLUDE_DEPTH 16
#define MAX_SETTINGS 100000

/* ---- units ---- */

static const char *skip_digits(const char *p, bool hex)
{
	while (hex ? isxdigit((unsigned char)*p) : isdigit((unsigned char)*p))
		p++;
	return p;
}

/* Leading number of s (decimal or 0x hex); NULL when there is none or it
 * overflows. */
static const char *leading_number(const char *s, uint64_t *v)
{
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isxdigit((unsigned char)s[2]);
	const char *p = hex ? s + 2 : s, *end = skip_digits(p, hex);

	if (end == p)
		return NULL;
	errno = 0;
	*v = strtoull(s, NULL, hex ? 16 : 10);
	return errno ? NULL : end;
}

int fio_parse_int(const char *s, uint64_t *out, char *err)
{
	const char *end;

	if (!s || !*s)
		return err_set(err, "needs a number");
	if (isspace((unsigned char)*s))
		return err_set(err, "the space after '=' makes fio misread it; remove it");
	end = leading_number(s, out);
	if (!end)
		return err_set(err, "not a number fio reads");
	if (*end)
		return err_set(err, "fio reads only the leading number (%llu) and drops '%s'; "
				    "write what you mean", (unsigned long long)*out, end);
	return 0;
}

int fio_parse_bool(const char *s, bool *out, char *err)
{
	static const struct {
		const char *word;
		int v;
	} words[] = { { "true", 1 }, { "yes", 1 }, { "on", 1 },
		      { "false", 0 }, { "no", 0 }, { "off", 0 } };
	uint64_t v = 0;

	if (!s) {
		*out = true;
		return 0;
	}
	/* the HOWTO's "true and false (1 and 0)" are the numbers: fio 3.33
	 * fails parsing direct=true, and the like, and drops the job */
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcasecmp(s, words[i].word) == 0)
			return err_set(err, "fio 3.33 fails parsing it and drops the job; write %d",
				       words[i].v);
	if (fio_parse_int(s, &v, err) < 0)
		return -1;
	*out = v != 0;
	return 0;
}

int fio_parse_bytes(const char *s, unsigned kb_base, uint64_t *out, bool *percent, char *err)
{
	/* suffix -> power of the base; the IEC forms use the other base
	 * (fio's kb_base=1024 compatibility rule, and its reverse) */
	static const struct {
		const char *suffix;
		int pow;
		bool iec;
	} units[] = {
		{ "", 0, false },    { "b", 0, false },
		{ "k", 1, false },   { "kb", 1, false },  { "kib", 1, true },  { "ki", 1, false },
		{ "m", 2, false },   { "mb", 2, false },  { "mib", 2, true },  { "mi", 2, false },
		{ "g", 3, false },   { "gb", 3, false },  { "gib", 3, true },  { "gi", 3, false },
		{ "t", 4, false },   { "tb", 4, false },  { "tib", 4, true },  { "ti", 4, false },
		{ "p", 5, false },   { "pb", 5, false },  { "pib", 5, true },  { "pi", 5, false },
	};
	uint64_t v, mult = 1;
	const char *end;

	*percent = false;
	if (!s || !*s)
		return err_set(err, "needs a size");
	if (isspace((unsigned char)*s))
		return err_set(err, "fio reads a number after a space without its unit (the "
				    "space after '=' hides it); remove the space");
	end = leading_number(s, &v);
	if (!end)
		return err_set(err, "not a size fio reads");
	if (*end == '.')
		return err_set(err, "fio does not read fractions (it would take the number before "
				    "the point); use a smaller unit");
	if (strcmp(end, "%") == 0) {
		if (v == 0 || v > 100)
			return err_set(err, "a percentage is 1%% to 100%%");
		*percent = true;
		*out = v;
		return 0;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcasecmp(end, units[i].suffix) != 0)
			continue;
		unsigned base = units[i].iec ? (kb_base == 1000 ? 1024 : 1000) : kb_base;

		for (int p = 0; p < units[i].pow; p++)
			mult *= base;
		if (v != 0 && mult > UINT64_MAX / v)
			return err_set(err, "too large");
		*out = v * mult;
		return 0;
	}
	return err_set(err, "unknown unit '%s' (fio would read it as %llu bytes; with "
			    "kb_base=%u fio knows k m g t p, kb kib mb mib ...)", end,
		       (unsigned long long)v, kb_base);
}

int fio_parse_time_us(const char *s, uint64_t unit_us, uint64_t *out, char *err)
{
	static const struct {
		const char *suffix;
		uint64_t us;
	} units[] = {
		{ "us", 1 }, { "usec", 1 }, { "ms", 1000 }, { "msec", 1000 }, { "s", 1000000 },
		{ "m", 60000000 }, { "h", 3600000000ULL }, { "d", 86400000000ULL },
	};
	uint64_t v, mult = unit_us;
	const char *end;

	if (!s || !*s)
		return err_set(err, "needs a time");
	if (isspace((unsigned char)*s))
		return err_set(err, "the space after '=' makes fio misread it; remove it");
	end = leading_number(s, &v);
	if (!end)
		return err_set(err, "not a time fio reads");
	if (*end == '.')
		return err_set(err, "fio does not read fractions; use a smaller unit");
	if (*end) {
		size_t i = 0, n = sizeof(units) / sizeof(units[0]);

		while (i < n && strcasecmp(end, units[i].suffix) != 0)
			i++;
		if (i == n)
			return err_set(err, "fio 3.x reads unit '%s' as microseconds (it knows only "
					    "us, usec, ms, msec, s, m, h, d): write %llus or %lluus, "
					    "whichever you mean", end,
				       (unsigned long long)v, (unsigned long long)v);
		mult = units[i].us;
	}
	if (v != 0 && mult > UINT64_MAX / v)
		return err_set(err, "too long");
	*out = v * mult;
	return 0;
}

/* ---- expansion: ${VAR}, keywords, bc arithmetic ---- */

/* Parentheses, minus signs and powers nest no deeper than this: the parser
 * recurses once per level, and a hostile value must not overflow the
 * stack. */
#define MAX_CALC_DEPTH 1000

struct calc {
	const char *p;
	const char *bad;  /* why the value is refused; NULL: fine so far */
	int depth;
};

static int64_t calc_expr(struct calc *c);

static void calc_space(struct calc *c)
{
	while (*c->p == ' ' || *c->p == '\t')
		c->p++;
}

/* a op b, or c->bad set when it does not fit in 64 bits */
static int64_t calc_op(struct calc *c, char op, int64_t a, int64_t b)
{
	int64_t r = 0;
	bool over = false;

	switch (op) {
	case '+':
		over = __builtin_add_overflow(a, b, &r);
		break;
	case '-':
		over = __builtin_sub_overflow(a, b, &r);
		break;
	case '*':
		over = __builtin_mul_overflow(a, b, &r);
		break;
	default: /* '/' and '%': bc with scale=0 truncates too */
		if (b == 0) {
			c->bad = "division by zero";
			return 0;
		}
		over = a == INT64_MIN && b == -1;
		if (!over)
			r = op == '/' ? a / b : a % b;
	}
	if (over && !c->bad)
		c->bad = "a result beyond 64 bits";
	return over ? 0 : r;
}

static int64_t calc_atom(struct calc *c)
{
	int64_t v = 0;

	calc_space(c);
	if (c->depth >= MAX_CALC_DEPTH) {
		c->bad = "nested more than 1000 deep";
		return 0;
	}
	if (*c->p == '(') {
		c->p++;
		c->depth++;
		v = calc_expr(c);
		c->depth--;
		calc_space(c);
		if (*c->p != ')')
			c->bad = c->bad ? c->bad : "";
		else
			c->p++;
		return v;
	}
	if (*c->p == '-') {
		c->p++;
		c->depth++;
		v = calc_atom(c);
		c->depth--;
		return calc_op(c, '-', 0, v);
	}
	if (!isdigit((unsigned char)*c->p)) {
		c->bad = c->bad ? c->bad : "";
		return 0;
	}
	while (isdigit((unsigned char)*c->p)) {
		if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *c->p - '0', &v))
			c->bad = "a number beyond 64 bits";
		c->p++;
	}
	return v;
}

static int64_t calc_power(struct calc *c)
{
	int64_t base = calc_atom(c), e, r = 1;

	calc_space(c);
	if (*c->p != '^' || c->bad)
		return base;
	c->p++;
	c->depth++;
	e = calc_power(c); /* right associative, as in bc */
	c->depth--;
	/* 0, 1 and -1 directly: a loop would take e steps */
	if ((base == 0 && e >= 0) || base == 1)
		return e == 0 ? 1 : base;
	if (base == -1)
		return e % 2 ? -1 : 1;
	if (e < 0 && !c->bad)
		c->bad = "a negative power (a fraction, or a division by zero)";
	/* |base| >= 2 overflows within 63 steps */
	for (int64_t i = 0; i < e && !c->bad; i++)
		r = calc_op(c, '*', r, base);
	return r;
}

static int64_t calc_term(struct calc *c)
{
	int64_t v = calc_power(c);

	while (!c->bad) {
		char op;

		calc_space(c);
		op = *c->p;
		if (op != '*' && op != '/' && op != '%')
			break;
		c->p++;
		v = calc_op(c, op, v, calc_power(c));
	}
	return v;
}

static int64_t calc_expr(struct calc *c)
{
	int64_t v = calc_term(c);

	while (!c->bad) {
		char op;

		calc_space(c);
		op = *c->p;
		if (op != '+' && op != '-')
			break;
		c->p++;
		v = calc_op(c, op, v, calc_term(c));
	}
	return v;
}

static uint64_t keyword_value(int k)
{
	long pages = sysconf(_SC_PHYS_PAGES), pagesize = sysconf(_SC_PAGESIZE);

	switch (k) {
	case 0:
		return (uint64_t)pagesize;
	case 1:
		return (uint64_t)pages * (uint64_t)pagesize >> 20;
	default:
		return (uint64_t)sysconf(_SC_NPROCESSORS_ONLN);
	}
}

static int append(char **out, size_t *len, size_t *cap, const char *s, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t c = 2 * (*len + n + 1);
		char *b = realloc(*out, c);

		if (!b)
			return -1;
		*out = b;
		*cap = c;
	}
	memcpy(*out + *len, s, n);
	*len += n;
	(*out)[*len] = '\0';
	return 0;
}

/* The arithmetic fio hands to bc, computed: the number as text (out is
 * freed), or NULL with why in err.  in: the value as written, for
 * messages. */
static char *calc_value(char *out, const char *in, char *err)
{
	struct calc c = { .p = out };
	int64_t v = calc_expr(&c);
	char *num = NULL;

	calc_space(&c);
	if (c.bad && *c.bad)
		err_set(err, "'%.100s' (from '%.100s'): %s in fio's arithmetic (bc)", out, in,
			c.bad);
	else if (c.bad || *c.p || v < 0)
		err_set(err, "'%.100s' (from '%.100s'): fio gives this to bc, which computes "
			     "whole numbers from + - * / %% ^ and parentheses only", out, in);
	else if (asprintf(&num, "%lld", (long long)v) < 0)
		num = NULL;
	free(out);
	return num;
}

/* fio's expansion of one value: ${VAR} (unset: nothing, as fio does, but
 * named in *unset for messages), then $pagesize, $mb_memory and $ncpus, then
 * arithmetic when a keyword was replaced.  NULL with err on failure.  Each
 * step is one pass over the text: time linear in its length. */
static char *expand(const char *in, char *unset, size_t unset_n, char *err)
{
	static const char *const keywords[] = { "$pagesize", "$mb_memory", "$ncpus" };
	size_t len = 0, cap = 0, klen = 0, kcap = 0;
	char *env = NULL, *out = NULL, num[3][32] = { "" };
	bool keyword = false, closed = true;

	if (append(&env, &len, &cap, "", 0) < 0)
		goto oom;
	for (const char *p = in; *p;) {
		/* no '}' after one "${": none after a later one either */
		const char *close = closed && p[0] == '$' && p[1] == '{' ? strchr(p + 2, '}') : NULL;

		if (p[0] == '$' && p[1] == '{' && !close)
			closed = false;
		if (close) {
			char *name = strndup(p + 2, (size_t)(close - p - 2));
			const char *v = name ? getenv(name) : NULL;

			if (!name)
				goto oom;
			if (!v && unset && !*unset)
				snprintf(unset, unset_n, "%s", name);
			free(name);
			if (v && append(&env, &len, &cap, v, strlen(v)) < 0)
				goto oom;
			p = close + 1;
			continue;
		}
		if (append(&env, &len, &cap, p, 1) < 0)
			goto oom;
		p++;
	}
	/* the keywords: none is part of another, and a number put in makes none */
	if (append(&out, &klen, &kcap, "", 0) < 0)
		goto oom;
	for (const char *p = env; *p;) {
		size_t k = 0, n = 1;

		while (k < 3 && strncmp(p, keywords[k], strlen(keywords[k])) != 0)
			k++;
		if (k < 3) {
			if (!num[k][0]) /* once: $ncpus reads a file of /sys */
				snprintf(num[k], sizeof(num[k]), "%llu",
					 (unsigned long long)keyword_value((int)k));
			keyword = true;
			if (append(&out, &klen, &kcap, num[k], strlen(num[k])) < 0)
				goto oom;
			n = strlen(keywords[k]);
		} else if (append(&out, &klen, &kcap, p, 1) < 0) {
			goto oom;
		}
		p += n;
	}
	free(env);
	if (keyword && strpbrk(out, "+-*/") && !strchr(out, '\''))
		return calc_value(out, in, err);
	return out;
oom:
	free(env);
	free(out);
	err_set(err, "out of memory");
	return NULL;
}

/* ---- building jobs ---- */

void *fio_grow(void *array, size_t n, size_t size)
{
	if (n & (n - 1))
		return array; /* room up to the next power of two */
	if (n > SIZE_MAX / 2 / size)
		return NULL;
	return realloc(array, (n ? 2 * n : 1) * size);
}

static void setting_free(struct fio_setting *s)
{
	free(s->name);
	free(s->value);
	free(s->raw);
	free(s->unset);
}

static void settings_free(struct fio_setting *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		setting_free(&s[i]);
	free(s);
}

static int push_setting(struct fio_setting **list, size_t *n, const struct fio_setting *s)
{
	struct fio_setting *l;

	if (*n >= MAX_SETTINGS)
		return -1;
	l = fio_grow(*list, *n, sizeof(*l));
	if (!l)
		return -1;
	*list = l;
	l[*n].name = strdup(s->name);
	l[*n].value = s->value ? strdup(s->value) : NULL;
	l[*n].raw = s->raw ? strdup(s->raw) : NULL;
	l[*n].unset = s->unset ? strdup(s->unset) : NULL;
	l[*n].file = s->file;
	l[*n].line = s->line;
	if (!l[*n].name || (s->value && !l[*n].value) || (s->raw && !l[*n].raw) ||
	    (s->unset && !l[*n].unset)) {
		setting_free(&l[*n]);
		return -1;
	}
	(*n)++;
	return 0;
}

static const char *keep_path(struct fio_input *in, const char *path)
{
	char **f = fio_grow(in->files, in->nfiles, sizeof(*f));

	if (!f)
		return NULL;
	in->files = f;
	f[in->nfiles] = strdup(path);
	return f[in->nfiles] ? f[in->nfiles++] : NULL;
}

/* A section being read: [global] settings so far, and the job being filled. */
struct reader {
	struct fio_input *in;
	struct fio_setting *global;
	size_t nglobal;
	struct fio_job *job; /* NULL: in [global] (or before any section) */
	bool in_section;
	unsigned group;
};

/* fio takes every section (and --name) whose name starts with "global" as
 * global (init.c: !strncmp(name, "global", 6)). */
static bool is_global(const char *name)
{
	return strncmp(name, "global", 6) == 0;
}

static int new_job(struct reader *r, const char *name, const char *file, int line, char *err)
{
	struct fio_input *in = r->in;
	struct fio_job *jobs, *j;

	/* fio keeps white space around a job's name; iosweep's sections drop it
	 * ("[ global ]" would become global) */
	if (*name && (isspace((unsigned char)name[0]) ||
		      isspace((unsigned char)name[strlen(name) - 1])))
		return err_set(err, "job name '%s': white space at its start or end is part of "
				    "the name for fio, not for iosweep; remove it", name);
	jobs = fio_grow(in->jobs, in->njobs, sizeof(*jobs));
	if (!jobs)
		return err_set(err, "out of memory");
	in->jobs = jobs;
	j = &jobs[in->njobs++];
	memset(j, 0, sizeof(*j));
	j->name = strdup(name);
	j->file = file;
	j->line = line;
	j->group = r->group;
	if (!j->name)
		return err_set(err, "out of memory");
	/* a job takes the [global] settings above it, then its own */
	for (size_t i = 0; i < r->nglobal; i++)
		if (push_setting(&j->set, &j->nset, &r->global[i]) < 0)
			return err_set(err, "out of memory");
	r->job = j;
	r->in_section = true;
	return 0;
}

/* name[=value] as fio reads it: the name trimmed, the value as written after
 * '=' (fio does not trim its front), then expanded. */
static int add_setting(struct reader *r, const char *text, const char *file, int line, char *err)
{
	struct fio_setting s = { .file = file, .line = line };
	const char *eq = strchr(text, '=');
	char unset[128] = "", why[ERR_MAX];
	size_t nlen = eq ? (size_t)(eq - text) : strlen(text);
	int rc;

	while (nlen && isspace((unsigned char)text[nlen - 1]))
		nlen--;
	if (nlen == 0)
		return err_set(err, "'=' without an option name");
	s.name = strndup(text, nlen);
	if (!s.name)
		return err_set(err, "out of memory");
	if (eq) {
		s.raw = strdup(eq + 1);
		s.value = s.raw ? expand(s.raw, unset, sizeof(unset), why) : NULL;
		if (!s.value) {
			rc = err_set(err, "%s: %s", s.name, s.raw ? why : "out of memory");
			setting_free(&s);
			return rc;
		}
		/* kept as fio expands it; the translator names the variable */
		if (*unset && !(s.unset = strdup(unset))) {
			setting_free(&s);
			return err_set(err, "out of memory");
		}
	}
	rc = push_setting(r->job ? &r->job->set : &r->global, r->job ? &r->job->nset : &r->nglobal,
			  &s);
	setting_free(&s);
	return rc < 0 ? err_set(err, "out of memory (or more than %d settings)", MAX_SETTINGS) : 0;
}

static void strip(char *s)
{
	char *p = s, *end;

	while (isspace((unsigned char)*p))
		p++;
	memmove(s, p, strlen(p) + 1);
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
}

static int read_text(struct reader *r, const char *path, int depth, char *err);

static int include(struct reader *r, const char *from, const char *arg, int depth, char *err)
{
	char *dir, *path;
	int rc;

	if (depth >= MAX_INCLUDE_DEPTH)
		return err_set(err, "include nested more than %d deep (a loop?)", MAX_INCLUDE_DEPTH);
	/* fio (3.33 init.c) takes a relative include as it is when something of
	 * that name is in the current directory, else looks next to the file
	 * that includes it */
	dir = strdup(from);
	if (!dir)
		return err_set(err, "out of memory");
	if (arg[0] == '/' || access(arg, F_OK) == 0 || strcmp(dirname(dir), ".") == 0 ||
	    asprintf(&path, "%s/%s", dir, arg) < 0)
		path = strdup(arg);
	free(dir);
	if (!path)
		return err_set(err, "out of memory");
	rc = read_text(r, path, depth + 1, err);
	free(path);
	return rc;
}

static int read_line(struct reader *r, char *line, const char *file, int lineno, int depth,
		     char *err)
{
	char *cut;

	/* fio drops a comment after a value as well as a comment line */
	cut = strpbrk(line, ";#");
	if (cut)
		*cut = '\0';
	strip(line);
	if (!*line)
		return 0;
	if (line[0] == '[') {
		/* fio's name is all up to the line's last ']': [a]b] is a]b; without
		 * one, fio drops the line's last character all the same ([bs=64K is
		 * a job named bs=64) */
		char *close = strrchr(line, ']');

		if (depth > 0)
			return err_set(err, "an included file cannot start a section");
		if (!close)
			close = line + strlen(line) - 1;
		if (close <= line + 1)
			return err_set(err, "bad section header '%s'", line);
		*close = '\0';
		if (is_global(line + 1)) {
			r->job = NULL;
			r->in_section = true;
			return 0;
		}
		return new_job(r, line + 1, file, lineno, err);
	}
	if (strncmp(line, "include", 7) == 0 && isspace((unsigned char)line[7])) {
		char *arg = line + 8;

		strip(arg);
		return include(r, file, arg, depth, err);
	}
	if (!r->in_section)
		return err_set(err, "'%s' is outside any [section] (fio refuses it too)", line);
	return add_setting(r, line, file, lineno, err);
}

static int read_text(struct reader *r, const char *path, int depth, char *err)
{
	char why[ERR_MAX], *text, *save = NULL, *line;
	const char *file;
	size_t len;
	int lineno = 0, rc = 0;

	if (jobfile_read(path, &text, &len, why) < 0)
		return err_set(err, "%s", why);
	if (memchr(text, '\0', len)) {
		const char *nul = memchr(text, '\0', len);

		for (const char *p = text; p < nul; p++)
			lineno += *p == '\n';
		free(text);
		return err_set(err, "%s:%d: NUL byte in a fio job file", path, lineno + 1);
	}
	file = keep_path(r->in, path);
	if (!file) {
		free(text);
		return err_set(err, "out of memory");
	}
	/* strsep keeps empty lines, so line numbers stay right */
	save = text;
	while (rc == 0 && (line = strsep(&save, "\n")) != NULL) {
		lineno++;
		rc = read_line(r, line, file, lineno, depth, why);
		if (rc < 0 && strncmp(why, path, strlen(path)) != 0)
			err_set(err, "%s:%d: %s", file, lineno, why);
		else if (rc < 0)
			err_set(err, "%s", why); /* from an included file: already placed */
	}
	free(text);
	return rc;
}

/* A job file whose jobs start from the settings global (a command line's
 * global options) before its own [global] sections. */
static int read_jobfile(struct fio_input *in, const char *path, const struct fio_setting *global,
			size_t nglobal, char *err)
{
	struct reader r = { .in = in, .group = in->ngroups++ };
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < nglobal; i++)
		if (push_setting(&r.global, &r.nglobal, &global[i]) < 0)
			rc = err_set(err, "out of memory");
	if (rc == 0)
		rc = read_text(&r, path, 0, err);
	settings_free(r.global, r.nglobal);
	return rc;
}

int fio_read_file(struct fio_input *in, const char *path, char *err)
{
	return read_jobfile(in, path, NULL, 0, err);
}

/* fio's own flags, not job options: they do not change what a job does. */
static const struct {
	const char *name;
	bool value;
} fio_flags[] = {
	{ "output", true },          { "output-format", true }, { "minimal", false },
	{ "terse-version", true },   { "parse-only", false },   { "showcmd", false },
	{ "readonly", false },       { "eta", true },           { "eta-newline", true },
	{ "eta-interval", true },    { "status-interval", true }, { "debug", true },
	{ "warnings-fatal", false }, { "max-jobs", true },      { "append-terse", false },
	{ "alloc-size", true },      { "bandwidth-log", false }, { "latency-log", false },
	{ "aux-path", true },        { "inflate-log", true },   { "version", false },
	{ "cpuclock-test", false },  { "idle-prof", true },
};

static int find_flag(const char *name)
{
	for (size_t i = 0; i < sizeof(fio_flags) / sizeof(fio_flags[0]); i++)
		if (strcmp(fio_flags[i].name, name) == 0)
			return (int)i;
	return -1;
}

bool fio_flag_takes_value(const char *name)
{
	int i = find_flag(name);

	return i >= 0 && fio_flags[i].value;
}

static bool is_regular_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* --NAME=VALUE, or --NAME VALUE (*i moves past VALUE): a job option. */
static int cmdline_setting(struct reader *r, int argc, char *const *argv, int *i,
			   const char *name, const char *src, char *err)
{
	const char *a = argv[*i] + 2;
	char why[ERR_MAX], *text;
	int rc;

	/* --bs 4k: the next argument is the value unless it is an option or a
	 * job file */
	if (!strchr(a, '=') && *i + 1 < argc && argv[*i + 1][0] != '-' &&
	    !is_regular_file(argv[*i + 1])) {
		if (asprintf(&text, "%s=%s", name, argv[++*i]) < 0)
			text = NULL;
	} else {
		text = strdup(a);
	}
	rc = text ? add_setting(r, text, src, 0, why) : -1;
	if (rc < 0)
		err_set(err, "fio command line: %s", text ? why : "out of memory");
	free(text);
	return rc;
}

int fio_read_cmdline(struct fio_input *in, int argc, char *const *argv, char *err)
{
	struct reader r = { .in = in, .in_section = true, .group = in->ngroups++ };
	const char *src = keep_path(in, "command line");
	const char **files = calloc((size_t)argc, sizeof(*files));
	size_t nfiles = 0;
	char why[ERR_MAX];
	int rc = 0;

	if (!src || !files) {
		free(files);
		return err_set(err, "out of memory");
	}
	for (int i = 1; rc == 0 && i < argc; i++) {
		const char *a = argv[i], *eq;
		char *name;

		if (strncmp(a, "--", 2) != 0 || !a[2]) {
			if (a[0] == '-') {
				rc = err_set(err, "fio command line: '%s' is not a fio option "
						  "iosweep import knows (write --NAME=VALUE)", a);
				break;
			}
			files[nfiles++] = a; /* read below */
			continue;
		}
		a += 2;
		eq = strchr(a, '=');
		name = strndup(a, eq ? (size_t)(eq - a) : strlen(a));
		if (!name) {
			rc = err_set(err, "out of memory");
			break;
		}
		if (find_flag(name) >= 0) {
			struct fio_setting s = { .name = name, .file = src };
			const char *v = eq ? eq + 1 : NULL;

			if (!eq && fio_flag_takes_value(name) && i + 1 < argc)
				v = argv[++i];
			s.value = (char *)v;
			s.raw = (char *)v;
			rc = push_setting(&in->flags, &in->nflags, &s);
			if (rc < 0)
				err_set(err, "out of memory");
		} else if (strcmp(name, "name") == 0) {
			/* --name=NAME or, as fio's getopt takes it, --name NAME */
			const char *v = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;

			if (!v || !*v)
				rc = err_set(err, "fio command line: --name needs a value");
			else if (is_global(v))
				r.job = NULL;
			else if ((rc = new_job(&r, v, src, 0, why)) < 0)
				err_set(err, "fio command line: --name=%s: %s", v, why);
		} else {
			rc = cmdline_setting(&r, argc, argv, &i, name, src, err);
		}
		free(name);
	}
	/* fio reads the job files after its whole command line, their jobs
	 * starting from its global options (those before any --name), wherever
	 * the files are named; each file is a group of its own */
	for (size_t i = 0; rc == 0 && i < nfiles; i++)
		rc = read_jobfile(in, files[i], r.global, r.nglobal, err);
	if (rc == 0 && in->njobs == 0)
		rc = err_set(err, "fio command line: no job (give --name=NAME or a job file)");
	settings_free(r.global, r.nglobal);
	free(files);
	return rc;
}

int fio_add_job(struct fio_input *in, const char *name, const char *const *names,
		const char *const *values, size_t n, const char *source, char *err)
{
	struct reader r = { .in = in, .in_section = true, .group = in->ngroups++ };
	const char *src = keep_path(in, source);
	int rc;

	if (!src)
		return err_set(err, "out of memory");
	rc = new_job(&r, name, src, 0, err);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		char *text;

		if (asprintf(&text, "%s=%s", names[i], values[i]) < 0) {
			rc = err_set(err, "out of memory");
			break;
		}
		rc = add_setting(&r, text, src, 0, err);
		free(text);
	}
	settings_free(r.global, r.nglobal);
	return rc;
}

void fio_input_drop_jobs(struct fio_input *in, size_t njobs)
{
	while (in->njobs > njobs) {
		struct fio_job *job = &in->jobs[--in->njobs];

		free(job->name);
		settings_free(job->set, job->nset);
	}
}

int fio_select_jobs(struct fio_input *in, char *const *names, size_t n, char *err)
{
	size_t kept = 0;

	for (size_t k = 0; k < n; k++) {
		bool found = false;

		for (size_t i = 0; i < in->njobs && !found; i++)
			found = strcmp(in->jobs[i].name, names[k]) == 0;
		if (!found)
			return err_set(err, "%s: no fio job named '%s' (--job takes a job's name, its "
					    "section's [NAME])", in->njobs ? in->jobs[0].file : "fio",
				       names[k]);
	}
	for (size_t i = 0; i < in->njobs; i++) {
		bool wanted = false;

		for (size_t k = 0; k < n && !wanted; k++)
			wanted = strcmp(in->jobs[i].name, names[k]) == 0;
		if (wanted) {
			in->jobs[kept++] = in->jobs[i];
		} else {
			free(in->jobs[i].name);
			settings_free(in->jobs[i].set, in->jobs[i].nset);
		}
	}
	in->njobs = kept;
	return 0;
}

void fio_input_free(struct fio_input *in)
{
	for (size_t i = 0; i < in->njobs; i++) {
		free(in->jobs[i].name);
		settings_free(in->jobs[i].set, in->jobs[i].nset);
	}
	free(in->jobs);
	settings_free(in->flags, in->nflags);
	for (size_t i = 0; i < in->nfiles; i++)
		free(in->files[i]);
	free(in->files);
	memset(in, 0, sizeof(*in));
}
