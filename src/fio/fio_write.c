/*
 * fio_write.c - import_write (fio_import.h): the translation as an iosweep
 * job file, with the notes in its comments.  Only `iosweep import` writes
 * text; nothing reads it back but the user (and check).  What only text
 * cannot hold is refused here, not in the translation, so that compare,
 * which takes the jobs as data, reads such a fio job too.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio/fio_import.h"
#include "job/options.h"
#include "lib/error.h"
#include "lib/version.h"

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* Values every job shares go to [global] (when there are several jobs). */
static bool shared(const struct import *im, int k)
{
	if (im->njobs < 2 || !im->jobs[0].val[k] || option_table[k].per_job)
		return false;
	for (size_t i = 1; i < im->njobs; i++)
		if (!same_text(im->jobs[0].val[k], im->jobs[i].val[k]))
			return false;
	return true;
}

/* Comment text in lines of at most WIDTH columns (iosweep's job files
 * refuse lines longer than inih reads); a word longer than that is cut. */
#define WIDTH 100

static void write_comment(FILE *f, const char *first, const char *text)
{
	const char *prefix = first;
	size_t col;

	size_t len = strlen(text); /* once: a name of megabytes makes many lines */

	while (len) {
		size_t room, take;

		fputs(prefix, f);
		col = strlen(prefix);
		room = WIDTH - col;
		take = len <= room ? len : room;
		if (take < len) {
			size_t sp = take;

			while (sp > 0 && text[sp] != ' ')
				sp--;
			if (sp > 0)
				take = sp;
		}
		/* one comment line: a line break in a name or a value would end it */
		for (size_t i = 0; i < take; i++)
			fputc((unsigned char)text[i] < 0x20 ? ' ' : text[i], f);
		fputc('\n', f);
		text += take;
		len -= take;
		while (*text == ' ') {
			text++;
			len--;
		}
		prefix = ";     ";
	}
}

/* name = value; a long list goes on on indented lines. */
static void write_value(FILE *f, int k, const char *value)
{
	size_t col = (size_t)fprintf(f, "%s = ", option_table[k].name);

	while (option_table[k].list && strlen(value) + col > WIDTH) {
		const char *cut = value + (WIDTH - col);

		while (cut > value && *cut != ',')
			cut--;
		if (cut == value)
			break;
		fprintf(f, "%.*s,\n", (int)(cut - value), value);
		value = cut + 1;
		while (*value == ' ')
			value++;
		col = (size_t)fprintf(f, "    ");
	}
	fprintf(f, "%s\n", value);
}

/* inih ends a line's text at a ';' after white space (an inline comment),
 * in a [section] line too: a name holding one would not read back. */
static int check_names(const struct import *im, char *err)
{
	for (size_t i = 0; i < im->njobs; i++) {
		const char *name = im->jobs[i].name;

		for (const char *p = name; *p; p++)
			if (*p == ';' && p > name && (p[-1] == ' ' || p[-1] == '\t'))
				return err_set(err, "fio job '%s': ' ;' starts a comment in an iosweep "
						    "job file, and a [section] name cannot hold it; "
						    "rename the fio job", im->jobs[i].fio_name);
	}
	return 0;
}

int import_write(const struct import *im, const char *sources, FILE *f, char *err)
{
	bool any_shared = false;
	char *line;

	if (check_names(im, err) < 0)
		return -1;

	fprintf(f, "; iosweep job translated from fio by `iosweep import` (iosweep %s)\n",
		IOSWEEP_VERSION);
	write_comment(f, "; from: ", sources);
	fprintf(f, "; repeat is fio's loops (1 unless set): raise it for statistics\n");
	if (im->nnotes)
		fprintf(f, ";\n; fio settings not translated as written:\n");
	for (size_t i = 0; i < im->nnotes; i++) {
		if (asprintf(&line, "%s: %s%s%s", im->notes[i].where, im->notes[i].setting,
			     *im->notes[i].setting ? ": " : "", im->notes[i].why) < 0)
			continue;
		write_comment(f, ";   ", line);
		free(line);
	}
	for (int k = 0; k < OPT__COUNT; k++)
		any_shared |= shared(im, k);
	if (any_shared) {
		fprintf(f, "\n[global]\n");
		for (int k = 0; k < OPT__COUNT; k++)
			if (shared(im, k))
				write_value(f, k, im->jobs[0].val[k]);
	}
	for (size_t i = 0; i < im->njobs; i++) {
		const struct import_job *j = &im->jobs[i];

		fprintf(f, "\n[%s]\n", j->name);
		if (j->merged)
			write_comment(f, "; merged from fio jobs ", j->merged);
		else if (strcmp(j->name, j->fio_name) != 0)
			write_comment(f, "; fio job ", j->fio_name);
		for (int k = 0; k < OPT__COUNT; k++)
			if (j->val[k] && !shared(im, k))
				write_value(f, k, j->val[k]);
	}
	return 0;
}
