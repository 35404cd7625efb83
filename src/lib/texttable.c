/*
 * texttable.c - see texttable.h.
 */
#define _GNU_SOURCE
#include "lib/texttable.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tt_init(struct texttable *t, size_t ncols)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols < 32 ? ncols : 32;
	return 0;
}

int tt_add(struct texttable *t, const char *fmt, ...)
{
	va_list ap;
	char *cell;
	int rc;

	if (t->ncells == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		char **cells = realloc(t->cells, cap * sizeof(*cells));

		if (!cells)
			return -1;
		t->cells = cells;
		t->cap = cap;
	}
	va_start(ap, fmt);
	rc = vasprintf(&cell, fmt, ap);
	va_end(ap);
	if (rc < 0)
		return -1;
	t->cells[t->ncells++] = cell;
	return 0;
}

size_t tt_control(const unsigned char *p, char esc[8])
{
	static const char named[] = { ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't' };

	if (*p < sizeof(named) && named[*p])
		snprintf(esc, 8, "\\%c", named[*p]);
	else if (*p < 0x20 || *p == 0x7f)
		snprintf(esc, 8, "\\x%02x", *p);
	else if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0)
		snprintf(esc, 8, "\\u%04x", p[1]);
	else
		return 0;
	return p[0] == 0xc2 ? 2 : 1;
}

size_t tt_put(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t w = 0, len;
	char esc[8];

	for (;;) {
		const unsigned char *plain = p; /* written in one piece */

		for (; *p && !(len = tt_control(p, esc)); p++)
			w += (*p & 0xC0) != 0x80;
		if (out && p > plain)
			fwrite(plain, 1, (size_t)(p - plain), out);
		if (!*p)
			return w;
		if (out)
			fputs(esc, out);
		w += strlen(esc);
		p += len;
	}
}

size_t tt_width(const char *s)
{
	return tt_put(NULL, s);
}

/* One line of tt_fold, without its newline: n bytes at s, starting at
 * column col (the indent already written). */
static void fold_line(FILE *out, const char *s, size_t n, size_t width, size_t col)
{
	for (;;) {
		size_t cut = 0, w = col, i;

		/* the last space after a word at which the part before it fits */
		for (i = 0; i < n && (w <= width || !cut); i++) {
			if (s[i] == ' ' && w <= width && i > 0 && s[i - 1] != ' ')
				cut = i;
			w += ((unsigned char)s[i] & 0xC0) != 0x80;
		}
		if (w <= width || !cut)
			cut = n;
		fwrite(s, 1, cut, out);
		fputc('\n', out);
		if (cut == n)
			return;
		while (cut < n && s[cut] == ' ')
			cut++;
		if (cut == n)
			return;
		s += cut;
		n -= cut;
		fputs("  ", out);
		col = 2;
	}
}

void tt_fold(FILE *out, const char *text, size_t width)
{
	while (*text) {
		const char *nl = strchrnul(text, '\n');

		fold_line(out, text, (size_t)(nl - text), width, 0);
		text = *nl ? nl + 1 : nl;
	}
}

void tt_print(const struct texttable *t, FILE *out, const char *indent)
{
	size_t w[32] = { 0 }, nrows = t->ncells / t->ncols;

	for (size_t r = 0; r < nrows; r++)
		for (size_t c = 0; c < t->ncols; c++) {
			size_t cw = tt_width(t->cells[r * t->ncols + c]);

			if (cw > w[c])
				w[c] = cw;
		}
	for (size_t r = 0; r < nrows; r++) {
		fputs(indent, out);
		size_t end = t->ncols;

		/* no trailing blanks: empty cells at the end of a row are left out */
		while (end > 1 && !*t->cells[r * t->ncols + end - 1])
			end--;
		for (size_t c = 0; c < end; c++) {
			const char *cell = t->cells[r * t->ncols + c];
			size_t pad = w[c] - tt_width(cell);
			bool last = c + 1 == end;

			if (t->right[c])
				fprintf(out, "%*s", (int)pad, "");
			tt_put(out, cell);
			if (!t->right[c])
				fprintf(out, "%*s", last ? 0 : (int)pad, "");
			if (!last)
				fputs("  ", out);
		}
		fputc('\n', out);
	}
}

void tt_free(struct texttable *t)
{
	for (size_t i = 0; i < t->ncells; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}
