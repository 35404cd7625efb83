/*
 * report_md.c - the results table as Markdown, for READMEs and pull-request
 * comments: the parameters every run shares as one line, the table of
 * report_table.c (the same cells: one table, drawn twice), and its legend
 * and notes as a list.
 *
 * Everything in it may come from the user (job names, paths, error texts):
 * each character Markdown or GitHub's tables give a meaning to is escaped
 * with a backslash (CommonMark lets any ASCII punctuation be), and control
 * characters (a newline in a job name) are written as their C escapes, as
 * the terminal table writes them, so that no value can end a row or a cell,
 * open a code span or a link, or inject HTML.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "report/plan_text.h"
#include "report/report.h"

void report_md_text(FILE *f, const char *s, bool line_start)
{
	static const char special[] = "\\`*_[]<>|#~&$";
	const unsigned char *p = (const unsigned char *)s;
	size_t digits = strspn(s, "0123456789");

	if (line_start && (strchr("-+=", *p) || (digits && strchr(".)", p[digits])))) {
		fwrite(p, 1, digits, f);
		p += digits;
		if (*p)
			fputc('\\', f);
	}
	while (*p) {
		char esc[8];
		size_t len = tt_control(p, esc);

		if (len) {
			fputc('\\', f); /* the escape's own backslash, shown */
			fputs(esc, f);
			p += len;
			continue;
		}
		if (strchr(special, *p))
			fputc('\\', f);
		fputc(*p++, f);
	}
}

static void md_row(FILE *f, const struct texttable *t, size_t row)
{
	for (size_t c = 0; c < t->ncols; c++) {
		fputs(c ? " | " : "| ", f);
		report_md_text(f, t->cells[row * t->ncols + c], false);
	}
	fputs(" |\n", f);
}

void report_md_table(FILE *f, const struct texttable *t)
{
	size_t nrows = t->ncols ? t->ncells / t->ncols : 0;

	if (nrows == 0)
		return;
	md_row(f, t, 0);
	for (size_t c = 0; c < t->ncols; c++)
		fputs(t->right[c] ? "|---:" : "|:---", f);
	fputs("|\n", f);
	for (size_t r = 1; r < nrows; r++)
		md_row(f, t, r);
}

void report_md_lines(FILE *f, char *text, bool bullet)
{
	bool open = false;

	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		bool more = line[0] == ' ';

		line += strspn(line, " ");
		if (!*line)
			continue;
		if (more && open) {
			fputc(' ', f);
		} else {
			if (open)
				fputs(bullet ? "\n" : "  \n", f);
			fputs(bullet ? "- " : "", f);
		}
		report_md_text(f, line, !(more && open));
		open = true;
	}
	if (open)
		fputc('\n', f);
}

static int md_begin(struct report_sink *s, const struct report *r, char *err)
{
	(void)r;
	return report_open(s, err);
}

static int md_add(struct report_sink *s, const struct report *r, size_t i, char *err)
{
	(void)s;
	(void)r;
	(void)i;
	(void)err;
	return 0;
}

/* The constants line and what follows the table, as the table writes
 * them, into *consts and *after (malloc'd); -1 when out of memory. */
static int md_texts(const struct report *r, const struct report_legend *lg, char **consts,
		    char **after)
{
	size_t n;
	FILE *f = open_memstream(consts, &n);

	if (!f)
		return -1;
	plan_print_constants(r->plan, f);
	if (fclose(f) != 0)
		return -1;
	f = open_memstream(after, &n);
	if (!f)
		return -1;
	report_table_after(f, r, lg);
	return fclose(f) != 0 ? -1 : 0;
}

static int md_end(struct report_sink *s, const struct report *r, char *err)
{
	struct report_legend lg;
	struct texttable t;
	char *consts = NULL, *after = NULL;
	int rc;

	report_table_fill(r, &t, &lg);
	rc = md_texts(r, &lg, &consts, &after);
	if (rc == 0) {
		report_md_lines(s->f, consts, false);
		fputc('\n', s->f);
		report_md_table(s->f, &t);
		fputc('\n', s->f);
		report_md_lines(s->f, after, true);
	}
	free(consts);
	free(after);
	tt_free(&t);
	if (rc < 0) {
		if (s->path)
			output_discard(&s->out);
		s->f = NULL;
		return err_set(err, "md: out of memory");
	}
	return report_close(s, err);
}

const struct reporter report_md = {
	.name = "md",
	.begin = md_begin,
	.add = md_add,
	.end = md_end,
};
