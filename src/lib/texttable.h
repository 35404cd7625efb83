/*
 * texttable.h - aligned text columns for the terminal: the plan, the
 * results table, `options` and `compare` all print through it so that they
 * look alike.  Cells are copied; widths count UTF-8 characters (µ, ±, ×);
 * the user's bytes in them (paths, job names) cannot move the cursor.
 */
#ifndef IOSWEEP_TEXTTABLE_H
#define IOSWEEP_TEXTTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct texttable {
	size_t ncols, ncells, cap;
	char **cells;          /* row after row; a row is complete after ncols cells */
	bool right[32];        /* right-align column */
};

int tt_init(struct texttable *t, size_t ncols);
/* Appends a cell to the current row, starting a new row after ncols cells. */
int tt_add(struct texttable *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tt_print(const struct texttable *t, FILE *out, const char *indent);
void tt_free(struct texttable *t);

/* Writes s to out as it is to be seen on one line of a terminal: a control
 * character (a newline in a value, an escape sequence in a file name) as a
 * C escape (\n, \r, \t, \x1b; C1 controls as \u0080 ... \u009f); returns
 * the columns written (out NULL: only counted). */
size_t tt_put(FILE *out, const char *s);
/* Writes text (lines ending in \n) to out with every line wider than width
 * columns folded at its last space that fits, the rest indented by two
 * spaces; a line with no such space is written whole.  Bytes are written
 * as they are (the notes under a table, already made printable). */
void tt_fold(FILE *out, const char *text, size_t width);
/* The columns tt_put takes for s. */
size_t tt_width(const char *s);
/* The escape tt_put writes for the control character at p (C0, DEL, or C1
 * in UTF-8) into esc, and the character's length in bytes; 0 for any
 * other character. */
size_t tt_control(const unsigned char *p, char esc[8]);

#endif
