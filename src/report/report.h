/*
 * report.h - output formats behind one table.
 *
 * A reporter is told when the run starts (before any I/O: it must find out
 * then whether it can write its destination), after each run completes, and
 * at the end (also after an interruption), so that a killed run leaves what
 * was measured.  Reporters read results and the figure table; they know no
 * engine.
 */
#ifndef IOSWEEP_REPORT_H
#define IOSWEEP_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "job/plan.h"
#include "lib/error.h"
#include "lib/output.h"
#include "lib/texttable.h"
#include "run/run.h"

struct report {
	const struct plan *plan;
	const struct jobfile *jf;
	struct run_result *results; /* one per run of the plan, in plan order */
	size_t ndone;               /* results[0..ndone) are complete (or failed) */
	json_t *host;               /* host_describe() of the first file, on rank 0 */
	json_t *hosts;              /* every distinct host of a multi-host run */
	json_t *rank_hosts;         /* the host name of each rank, by rank */
	int ranks;
	char started[32];           /* ISO 8601 UTC */
	bool baselines;             /* some job of the plan has a baseline */
	bool interrupted;
	const char *stopped_by;     /* when interrupted: "SIGINT", "closed stdout", ... */
};

struct report_sink {
	const struct reporter *reporter;
	const char *path;           /* as given; NULL: stdout */
	struct output out;          /* the checked destination of path */
	FILE *f;
	void *priv;
	bool failed;                /* a write failed: told nothing more */
};

struct reporter {
	const char *name;
	int (*begin)(struct report_sink *s, const struct report *r, char *err);
	int (*add)(struct report_sink *s, const struct report *r, size_t i, char *err);
	int (*end)(struct report_sink *s, const struct report *r, char *err);
	/* Optional, for formats written whole to a file: writes what is done so
	 * far now (iosweep-mpi, when a rank may die before the end). */
	int (*snapshot)(struct report_sink *s, const struct report *r, char *err);
	/* Optional: frees what a begin that succeeded holds when no end follows
	 * (another output could not begin, and nothing runs). */
	void (*abandon)(struct report_sink *s);
};

const struct reporter *reporter_find(const char *name);
/* "table, json, csv" for messages. */
const char *reporter_names(void);

/* Opens a temporary file beside s->path (or stdout) for writing into s->f. */
int report_open(struct report_sink *s, char *err);
/* Completes s->f: the temporary file is renamed over s->path when every
 * write succeeded (and removed when one did not: -1); stdout is flushed. */
int report_close(struct report_sink *s, char *err);
/* The consume result of a repeat as text: 16 hex digits for checksum, the
 * decimal sum for ints, "" for none. */
void report_consume_text(const struct run *run, uint64_t sum, char *buf, size_t n);

/* One CSV field (RFC 4180 quoting), then ',' or, when last, the row's end. */
void report_csv_field(FILE *f, const char *s, bool last);
/* Flushes a CSV sink's rows: -1 with "writing PATH: reason" when that fails. */
int report_csv_flush(struct report_sink *s, char *err);

/* Closes a CSV sink's file (not stdout): the end of the CSV formats. */
int report_csv_end(struct report_sink *s, const struct report *r, char *err);

/* What the results table's legend explains, found while its rows are made. */
struct report_legend {
	bool range;   /* some spread is of min..max */
	bool wide;    /* some spread is wider than the median itself */
	bool unknown; /* some residency could not be read */
	bool missed;  /* some repeat did not start in the state asked for */
	bool timed;   /* some run is time_based */
	bool mixed;   /* some run is op=readwrite */
	bool device;  /* dev/app has its column (else it is listed below the legend) */
	bool rated;   /* some run has a rate limit: resp p99, late, behind */
	bool depth;   /* some run's engine queues: its mean depth */
	bool steady;  /* some run asks for a steady state: its verdict, its window's figures */
	bool checksums_below; /* no room for the checksum column: listed below the legend */
};

/* The results table of report_table.c, for the formats that draw it
 * otherwise (Markdown): its header and rows into t (tt_free it after), the
 * columns that hold numbers right-aligned. */
void report_table_fill(const struct report *r, struct texttable *t, struct report_legend *lg);
/* What the table prints below it: the legend, then the notes on runs. */
void report_table_after(FILE *f, const struct report *r, const struct report_legend *lg);

/* Markdown (report_md.c), for the other tables written as Markdown
 * (compare -o md): s with the characters Markdown and GitHub's tables give
 * a meaning to escaped, and controls as C escapes, and at the start of a
 * line (line_start) also what would open a list, a heading or a setext
 * underline there; */
void report_md_text(FILE *f, const char *s, bool line_start);
/* t as a Markdown table, its first row the head, numbers right-aligned; */
void report_md_table(FILE *f, const struct texttable *t);
/* text written for the terminal, line by line: each line a paragraph line
 * of its own (bullet: a list item), a line indented under the one before
 * it joined to it (text is cut up, as strtok does). */
void report_md_lines(FILE *f, char *text, bool bullet);

extern const struct reporter report_table, report_json, report_csv, report_series,
	report_md;

#endif
