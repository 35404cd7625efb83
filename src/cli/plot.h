/*
 * plot.h - what the two charts of `iosweep plot` share: the destination,
 * gnuplot, the units of an axis and the look of a line.
 *
 * cmd_plot.c draws a figure against a run parameter; plot_over.c draws a
 * repeat's series against time or bytes.  Both write a data file and a
 * script and let plot_draw() run gnuplot on them in a private temporary
 * directory, so no user-supplied name reaches gnuplot except as quoted
 * text.  An axis's unit is chosen once (plot_unit_choose) and both its tics
 * (the data are scaled by it) and its label come from that choice, so the
 * two cannot disagree.
 */
#ifndef IOSWEEP_PLOT_H
#define IOSWEEP_PLOT_H

#include <stdbool.h>
#include <stdio.h>

#include "cli/cli.h"
#include "lib/output.h"
#include "results/resultfile.h"

struct plot_dest {
	char *out;           /* the chart's name, as given (malloc'd) */
	struct output dest;  /* out, checked */
	bool png;
	bool to_memory;      /* the SVG goes to svg instead (the report's charts) */
	char *svg;           /* malloc'd */
	size_t svg_len;
};

/* -o FILE.svg|FILE.png (default RESULT.svg beside the result file),
 * checked before any work: a regular file or absent, not the result file.
 * -1 after saying why. */
int plot_dest_open(struct plot_dest *d, const struct cli *cl);
void plot_dest_free(struct plot_dest *d);

/* The chart cl asks for (cl->files[0], --x, --y, --over, ...) drawn into d:
 * `iosweep plot` after its arguments; an exit code, after saying why when it
 * is not EXIT_OK. */
int plot_chart(const struct cli *cl, struct plot_dest *d);

/* Whether run is of a job --job names (every run without --job). */
bool plot_job_chosen(const struct cli *cl, const struct resultfile_run *run);
/* Each --job names a job of rf; -1 after saying which does not. */
int plot_check_jobs(const struct cli *cl, const struct resultfile *rf);

/* Writes the chart's data (plot.dat) and its script (after the terminal
 * lines, in plot.gp); 0, or -1 with errno set. */
typedef int (*plot_writer)(const void *chart, FILE *data, FILE *script);
/* Runs the writer, then gnuplot, in a temporary directory, and puts the
 * chart in place through the output writer; 0, or -1 after saying why. */
int plot_draw(struct plot_dest *d, int width, int height, plot_writer write,
	      const void *chart);

/* A gnuplot single-quoted string. */
void plot_quote(FILE *f, const char *s);
/* A gnuplot string expression for a chart's title: the first run's
 * description, else the job file's path, else the result file's; a second
 * line `note`; and a third when the result was interrupted or is
 * incomplete, which says so. */
void plot_title(FILE *f, const struct resultfile *rf, const char *note);

/* What an axis measures, from which its unit is chosen. */
enum plot_quantity {
	PQ_NUMBER,   /* plain numbers */
	PQ_COUNT,    /* counts and rates of them: thousands, millions, ... */
	PQ_SECONDS,  /* s, ms, µs, ns */
	PQ_NS,       /* the same, of values in nanoseconds */
	PQ_RATE,     /* B/s, kB/s, MB/s, ... (decimal, as the table prints them) */
	PQ_BYTES,    /* B, kB, MB, ... (decimal) */
	PQ_SIZE,     /* B, KiB, MiB, ... (binary, as job files write sizes) */
	PQ_PERCENT,  /* fractions, drawn as % */
};

struct plot_unit {
	double scale;    /* drawn value = value * scale */
	char name[16];   /* "ms", "MiB/s"; "" for plain numbers */
};

/* The quantity of a figure (by its name and type) or of a run parameter. */
enum plot_quantity plot_figure_quantity(const struct figure *f);
enum plot_quantity plot_param_quantity(const char *key);
/* The unit of an axis whose values run from lo to hi (both >= 0): the one
 * in which hi has at most three digits before the point (sizes: at most
 * four, and lo at least 1 where that allows it). */
void plot_unit_choose(enum plot_quantity q, double lo, double hi, struct plot_unit *u);
/* "NAME (UNIT)", or NAME alone for plain numbers; suffix (may be NULL)
 * after the unit, such as "/s". */
void plot_axis_label(char *buf, size_t n, const char *name, const struct plot_unit *u,
		     const char *suffix);

/* Line style of line number i: a colour, an open point shape and a dash
 * pattern, chosen so that no two of the first 45 lines look the same and
 * lines on top of each other stay visible. */
void plot_line_style(FILE *f, size_t i);
/* The look of the ring around a point of an incomplete run: larger than
 * any line's points, and black, which no line is. */
#define PLOT_MARK_STYLE "pt 6 ps 3.2 lw 1.5 lc rgb 'black'"

#endif
