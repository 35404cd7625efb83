/*
 * test_trace.c - fio iologs read as a pattern (src/io/trace.c): the scan
 * counts what a trace asks and names the first bad line (TRACE:LINE); the
 * reader streams it through its fixed buffer, across refills, handing out
 * every read and write at its file's region and due time, and stopping at
 * each sync; blkparse's text output and the kernel's blk tracer's are
 * traces too.  Each I/O line's thread (a v3 line's sixth field, an event's
 * PID) is counted, and a reader of one thread hands out its lines only.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "io/engines/engine.h"
#include "io/trace.h"
#include "lib/error.h"

static char path[64];

static void write_trace(const char *text)
{
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/test_trace.XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* The scan of text: its return, and err. */
static int scan_text(const char *text, struct trace_scan *s, char *err)
{
	int rc;

	write_trace(text);
	rc = trace_scan(path, s, err);
	return rc;
}

static void v3_counts(void **state)
{
	struct trace_scan s;
	char err[ERR_MAX];

	(void)state;
	assert_int_equal(scan_text("fio version 3 iolog\n"
				   "10 /d/a add\n11 /d/b add\n12 /d/a open\n13 /d/b open\n"
				   "100 /d/a read 0 4096\n"
				   "200 /d/b write 8192 512\n"
				   "250 /d/b sync 0 0\n"
				   "300 /d/a read 10000 100\n"
				   "310 /d/a datasync 0 0\n"
				   "400 /d/a close\n",
				   &s, err),
			 0);
	assert_int_equal(s.version, 3);
	assert_int_equal(s.n[TRACE_READ], 2);
	assert_int_equal(s.n[TRACE_WRITE], 1);
	assert_int_equal(s.n[TRACE_SYNC], 1);
	assert_int_equal(s.n[TRACE_DATASYNC], 1);
	assert_int_equal(s.bytes[TRACE_READ], 4196);
	assert_int_equal(s.bytes[TRACE_WRITE], 512);
	assert_int_equal(s.max_len, 4096);
	assert_int_equal(s.nfiles, 2);
	/* a reaches 10100 bytes: 12288 rounded to 4 KiB; b 8704: 12288 */
	assert_int_equal(s.base[0], 0);
	assert_int_equal(s.base[1], 12288);
	assert_int_equal(s.size, 24576);
	assert_int_equal(trace_recorded_ns(&s), 200000);
	trace_scan_free(&s);
	unlink(path);
}

/* Each bad line is named by its number, with what is wrong. */
static void bad_lines(void **state)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "fio version 9 iolog\n", ":1: not a fio iolog" },
		{ "fio version 3 iolog\n1 /a add\n2 /a reed 0 1\n", ":3: 'reed' is not an action" },
		{ "fio version 3 iolog\n1 /a add\n2 /a read 0\n", ":3: read needs OFFSET and LENGTH" },
		{ "fio version 3 iolog\n1 /a add\n2 /a read 0 4096", ":3: the last line has no newline" },
		{ "fio version 3 iolog\n1 /a add\nx /a read 0 1\n", ":3: 'x' is not a time" },
		{ "fio version 3 iolog\n1 /a add\n2 /a wait 100 0\n", ":3: wait is not an action of a version 3" },
		{ "fio version 2 iolog\n/a add\n/b read 0 1\n", ":3: /b is used before a line adds it" },
		{ "fio version 2 iolog\n/a add\n/a read -1 1\n", ":3: OFFSET and LENGTH are whole numbers" },
		{ "fio version 2 iolog\n/a add\n/a read 0 0\n", ":3: read of 0 bytes" },
		{ "fio version 2 iolog\n/a add\n/a open 0 1\n", ":3: open takes no OFFSET" },
		{ "fio version 2 iolog\n/a add\n/a open\n", ": the trace has no read or write" },
	};
	char err[ERR_MAX];

	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct trace_scan s;

		assert_int_equal(scan_text(cases[k].text, &s, err), -1);
		if (!strstr(err, cases[k].want) || strncmp(err, path, strlen(path)))
			fail_msg("case %zu: '%s' wanted in '%s'", k, cases[k].want, err);
		trace_scan_free(&s);
		unlink(path);
	}
}

/* v2: waits of 100 us or more add up into the due times; shorter ones are
 * discarded, as fio does. */
static void v2_waits(void **state)
{
	struct trace_scan s;
	struct trace_reader tr;
	struct pattern p;
	uint64_t off, len;
	char err[ERR_MAX];

	(void)state;
	assert_int_equal(scan_text("fio version 2 iolog\n/a add\n/a open\n/a read 0 4096\n"
				   "/a wait 1000 0\n/a wait 50 0\n/a write 4096 4096\n"
				   "/a wait 500 0\n/a read 0 4096\n",
				   &s, err),
			 0);
	assert_int_equal(trace_recorded_ns(&s), 1500000);
	/* replay_time_scale = 50: half the rate, every due time doubled */
	assert_int_equal(trace_reader_open(&tr, path, &s, 50, err), 0);
	assert_int_equal(trace_pattern(&p, &tr, err), 0);
	assert_true(pattern_next(&p, &off, &len));
	assert_int_equal(p.due_ns, 0);
	assert_true(pattern_next(&p, &off, &len));
	assert_int_equal(p.due_ns, 2000000);
	assert_int_equal(p.dir, IO_WRITE);
	assert_int_equal(off, 4096);
	assert_true(pattern_next(&p, &off, &len));
	assert_int_equal(p.due_ns, 3000000);
	assert_int_equal(p.dir, IO_READ);
	assert_false(pattern_next(&p, &off, &len));
	assert_int_equal(p.flush, 0);
	assert_false(tr.bad);
	trace_reader_close(&tr);
	trace_scan_free(&s);
	unlink(path);
}

/* A trace several times the reader's buffer streams whole, each unit where
 * its file's region puts it, each sync a stop with p.flush set; rewound, it
 * streams the same again. */
static void streams_across_refills(void **state)
{
	const uint64_t n = 200000; /* ~7 MiB of lines: several refills */
	char *text = NULL;
	size_t tlen = 0;
	FILE *f = open_memstream(&text, &tlen);
	struct trace_scan s;
	struct trace_reader tr;
	struct pattern p;
	char err[ERR_MAX];

	(void)state;
	fputs("fio version 3 iolog\n0 /file/one add\n0 /file/two add\n", f);
	for (uint64_t i = 0; i < n; i++) {
		fprintf(f, "%llu /file/%s %s %llu 512\n", (unsigned long long)(i * 10),
			i % 2 ? "two" : "one", i % 3 ? "read" : "write",
			(unsigned long long)(i * 512));
		if (i % 1000 == 999)
			fprintf(f, "%llu /file/one sync 0 0\n", (unsigned long long)(i * 10));
	}
	fclose(f);
	assert_int_equal(scan_text(text, &s, err), 0);
	free(text);
	assert_true(s.base[1] >= n * 512);
	assert_int_equal(trace_reader_open(&tr, path, &s, 100, err), 0);
	for (int pass = 0; pass < 2; pass++) {
		uint64_t i = 0, syncs = 0, off, len;

		assert_int_equal(trace_pattern(&p, &tr, err), 0);
		for (;;) {
			if (pattern_next(&p, &off, &len)) {
				assert_int_equal(off, (i % 2 ? s.base[1] : 0) + i * 512);
				assert_int_equal(len, 512);
				assert_int_equal(p.dir, i % 3 ? IO_READ : IO_WRITE);
				assert_int_equal(p.due_ns, i * 10 * 1000);
				i++;
			} else if (p.flush) {
				assert_int_equal(p.flush, TRACE_SYNC);
				p.flush = 0;
				syncs++;
			} else {
				break;
			}
		}
		assert_false(tr.bad);
		assert_int_equal(i, n);
		assert_int_equal(syncs, n / 1000);
		assert_int_equal(tr.handed[TRACE_READ] + tr.handed[TRACE_WRITE], n);
	}
	trace_reader_close(&tr);
	trace_scan_free(&s);
	unlink(path);
}

/* A trim line is a unit: counted with its bytes, reaching into its file,
 * in the schedule's span but not the buffers' length (max_len), and handed
 * to the loop as a trim at its region's offset, with its due time. */
static void trims_are_units(void **state)
{
	struct trace_scan s;
	struct trace_reader tr;
	struct pattern p;
	char err[ERR_MAX];
	uint64_t off, len;

	(void)state;
	assert_int_equal(scan_text("fio version 3 iolog\n0 /d/a add\n0 /d/b add\n"
				   "100 /d/a write 0 4096\n"
				   "200 /d/b trim 0 1048576\n"
				   "300 /d/a read 0 4096\n"
				   "500 /d/a trim 4096 8192\n",
				   &s, err),
			 0);
	assert_int_equal(s.n[TRACE_TRIM], 2);
	assert_int_equal(s.bytes[TRACE_TRIM], 1048576 + 8192);
	assert_int_equal(s.max_len, 4096);
	assert_int_equal(trace_recorded_ns(&s), 400000);
	/* a reaches 12288 bytes; b begins there and reaches 1 MiB */
	assert_int_equal(s.base[1], 12288);
	assert_int_equal(s.size, 12288 + 1048576);
	assert_int_equal(trace_reader_open(&tr, path, &s, 100, err), 0);
	assert_int_equal(trace_pattern(&p, &tr, err), 0);
	assert_int_equal(p.total, 4);
	assert_true(pattern_next(&p, &off, &len));
	assert_false(p.trim);
	assert_int_equal(p.dir, IO_WRITE);
	assert_true(pattern_next(&p, &off, &len));
	assert_true(p.trim);
	assert_int_equal(off, 12288);
	assert_int_equal(len, 1048576);
	assert_int_equal(p.due_ns, 100000);
	assert_true(pattern_next(&p, &off, &len));
	assert_false(p.trim);
	assert_int_equal(p.dir, IO_READ);
	assert_true(pattern_next(&p, &off, &len));
	assert_true(p.trim);
	assert_int_equal(off, 4096);
	assert_int_equal(len, 8192);
	assert_int_equal(p.due_ns, 400000);
	assert_false(pattern_next(&p, &off, &len));
	assert_false(tr.bad);
	assert_int_equal(tr.handed[TRACE_TRIM], 2);
	assert_int_equal(tr.handed_bytes[TRACE_TRIM], 1048576 + 8192);
	trace_reader_close(&tr);
	trace_scan_free(&s);
	unlink(path);
}

/* blkparse's text: its queue events are the I/Os, each device a file,
 * sectors of 512 bytes, a flush without a sector a sync; the other events
 * and the summary are not replayed; a cut event is named by its line. */
static void blkparse_text(void **state)
{
	struct trace_scan s;
	struct trace_reader tr;
	struct pattern p;
	uint64_t off, len;
	char err[ERR_MAX];

	(void)state;
	assert_int_equal(scan_text("  8,0    1        1     0.000000000  4217  Q   R 2048 + 8 [dd]\n"
				   "  8,0    1        2     0.000001000  4217  G   R 2048 + 8 [dd]\n"
				   "  8,0    0        1     0.001000000  4217  Q  WS 4096 + 16 [a b]\n"
				   "  8,0    0        2     0.001500000   200  Q FWS [jbd2/sda1-8]\n"
				   "  8,16   0        3     0.002000000   200  Q   R 0 + 8 [cat]\n"
				   "  8,0    1        4     0.003000000     0  C   R 2048 + 8 [0]\n"
				   "CPU0 (8,0):\n Reads Queued:  2,  8KiB\n",
				   &s, err),
			 0);
	assert_int_equal(s.version, TRACE_BLKPARSE);
	assert_int_equal(s.n[TRACE_READ], 2);
	assert_int_equal(s.n[TRACE_WRITE], 1);
	assert_int_equal(s.n[TRACE_SYNC], 1);
	assert_int_equal(s.nfiles, 2);
	assert_int_equal(s.base[1], 4096 * 512 + 8192);
	assert_int_equal(trace_recorded_ns(&s), 2000000);
	assert_int_equal(trace_reader_open(&tr, path, &s, 100, err), 0);
	assert_int_equal(trace_pattern(&p, &tr, err), 0);
	assert_true(pattern_next(&p, &off, &len));
	assert_int_equal(off, 2048 * 512);
	assert_int_equal(len, 4096);
	assert_true(pattern_next(&p, &off, &len));
	assert_int_equal(off, 4096 * 512);
	assert_int_equal(p.dir, IO_WRITE);
	assert_int_equal(p.due_ns, 1000000);
	assert_false(pattern_next(&p, &off, &len));
	assert_int_equal(p.flush, TRACE_SYNC);
	p.flush = 0;
	assert_true(pattern_next(&p, &off, &len));
	assert_int_equal(off, s.base[1]);
	assert_false(pattern_next(&p, &off, &len));
	assert_int_equal(p.flush, 0);
	assert_false(tr.bad);
	trace_reader_close(&tr);
	trace_scan_free(&s);
	unlink(path);
	assert_int_equal(scan_text("  8,0 1 1 0.000000000 1 Q R 2048 + 8 [dd]\n"
				   "  8,0 1 2 0.000000100 1 Q R 2048 +\n", &s, err), -1);
	assert_non_null(strstr(err, ":2: a blkparse line cut short"));
	trace_scan_free(&s);
	unlink(path);
	assert_int_equal(scan_text("  8,0 1 1 0.000000000 1 Q R 2048 + 8 [dd]\n"
				   "  8,0 1 2 soon 1 Q R 2048 + 8 [dd]\n", &s, err), -1);
	assert_non_null(strstr(err, ":2: 'soon' is not a time in seconds"));
	trace_scan_free(&s);
	unlink(path);
}

/* The kernel's blk tracer's trace file: ftrace's context before each event,
 * the header and comments skipped, the queue events the I/Os as blkparse's
 * (each device a file, 512-byte sectors, the time the context's), another
 * event's line not replayed. */
static void blk_tracer_text(void **state)
{
	struct trace_scan s;
	struct trace_reader tr;
	struct pattern p;
	uint64_t off = 0, len = 0;
	char err[ERR_MAX];

	(void)state;
	assert_int_equal(scan_text("# tracer: blk\n"
				   "#\n"
				   "              dd-14977   [001] d..1.  3279.766841:   7,1    Q  RS 40 + 8 [dd]\n"
				   "              dd-14977   [001] d..1.  3279.766845:   7,1    G  RS 40 + 8 [dd]\n"
				   "              dd-14977   [001] d..1.  3279.766846:   7,1    P   N [dd]\n"
				   "              dd-14977   [001] d..1.  3279.766849:   7,1    D  RS 40 + 8 [dd]\n"
				   "     ksoftirqd/0-14      [000] d.s1.  3279.768162:   7,1    C  RS 40 + 8 [0]\n"
				   "           <...>-200     [000] .....  3279.768500: tracing_mark_write: hello\n"
				   " Web Content-4242    [001] d..1.  3279.769841:   7,1    Q  WS 4096 + 16 [Web Content]\n"
				   "     jbd2/sda1-8-200     [000] d..1.  3279.770341:   8,0    Q FWS [jbd2/sda1-8]\n"
				   /* record-tgid on, irq-info off */
				   "             cat-300     (  300) [000]  3279.770841:   8,0    Q   R 0 + 8 [cat]\n"
				   /* blk_cgroup's cgroup and ftrace's verbose action names */
				   "              dd-14977   [001] d..1.  3279.771841:   7,1 1f,0  queue  WS 8 + 8 [dd]\n"
				   "              dd-14977   [001] d..1.  3279.772841:   7,1  Q  DS 64 + 16 [fstrim]\n"
				   "##### CPU 1 buffer started ####\n",
				   &s, err),
			 0);
	assert_int_equal(s.version, TRACE_BLK_TRACER);
	assert_int_equal(s.n[TRACE_READ], 2);
	assert_int_equal(s.n[TRACE_WRITE], 2);
	assert_int_equal(s.n[TRACE_SYNC], 1);
	assert_int_equal(s.n[TRACE_TRIM], 1);
	assert_int_equal(s.bytes[TRACE_WRITE], 8192 + 4096);
	assert_int_equal(s.nfiles, 2);
	assert_string_equal(s.names[0], "7,1");
	assert_string_equal(s.names[1], "8,0");
	/* 7,1 reaches sector 4112: 2105344 bytes, a multiple of 4 KiB */
	assert_int_equal(s.base[1], 4112 * 512);
	assert_int_equal(s.size, 4112 * 512 + 4096);
	assert_int_equal(trace_recorded_ns(&s), 6000000);
	assert_int_equal(trace_reader_open(&tr, path, &s, 100, err), 0);
	assert_int_equal(trace_pattern(&p, &tr, err), 0);
	assert_true(pattern_next(&p, &off, &len));
	assert_int_equal(off, 40 * 512);
	assert_int_equal(len, 4096);
	assert_int_equal(p.dir, IO_READ);
	assert_int_equal(p.due_ns, 0);
	assert_true(pattern_next(&p, &off, &len));
	assert_int_equal(off, 4096 * 512);
	assert_int_equal(len, 8192);
	assert_int_equal(p.dir, IO_WRITE);
	assert_int_equal(p.due_ns, 3000000);
	assert_false(pattern_next(&p, &off, &len));
	assert_int_equal(p.flush, TRACE_SYNC);
	p.flush = 0;
	assert_true(pattern_next(&p, &off, &len));
	assert_int_equal(off, s.base[1]);
	assert_int_equal(p.dir, IO_READ);
	assert_int_equal(p.due_ns, 4000000);
	assert_true(pattern_next(&p, &off, &len));
	assert_int_equal(off, 8 * 512);
	assert_int_equal(p.dir, IO_WRITE);
	assert_true(pattern_next(&p, &off, &len));
	assert_int_equal(off, 64 * 512);
	assert_int_equal(len, 8192);
	assert_true(p.trim);
	assert_false(pattern_next(&p, &off, &len));
	assert_int_equal(p.flush, 0);
	assert_false(tr.bad);
	trace_reader_close(&tr);
	trace_scan_free(&s);
	unlink(path);
}

/* trace_pipe's text: no header, the first line an event; a task's name that
 * starts with # is not a comment (only a line that starts with one is). */
static void blk_tracer_pipe(void **state)
{
	struct trace_scan s;
	char err[ERR_MAX];

	(void)state;
	assert_int_equal(scan_text("      dd-1   [001] d..1.  1.000001:   7,1    Q  RS 40 + 8 [dd]\n"
				   "      #x-2   [001] d..1.  1.000002:   7,1    Q  RS 48 + 8 [#x]\n",
				   &s, err),
			 0);
	assert_int_equal(s.version, TRACE_BLK_TRACER);
	assert_int_equal(s.n[TRACE_READ], 2);
	trace_scan_free(&s);
	unlink(path);
}

/* The blk tracer's bad lines, named by their number: a line cut short (in
 * the event or in ftrace's context), lost events, a time that is a counter's,
 * a device that is not one. */
static void blk_tracer_bad_lines(void **state)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "# tracer: blk\n      dd-14977   [001] d..1.  3279.766841:   7,1    Q  RS 40 +\n",
		  ":2: a blk tracer line cut short: SECTOR + SECTORS after RWBS" },
		{ "# tracer: blk\n      dd-14977   [001] d..1.  3279.766841:   7,1    Q  RS 40 + 8 [dd]\n"
		  "      dd-14977   [001] d..1.  3279.7668\n",
		  ":3: a blk tracer line cut short: it is TASK-PID [CPU] FLAGS TIME:" },
		{ "# tracer: blk\n      dd-14977   [001] d..1.  3279.766841:   7,1\n",
		  ":2: a blk tracer line cut short: it is TASK-PID [CPU]" },
		{ "# tracer: blk\n      dd-14977   [001] d..1.  3279.766841:   7,1    Q  RS 40 + 8 [dd]\n"
		  "CPU:1 [LOST 12 EVENTS]\n", ":3: 'CPU:1 [LOST 12 EVENTS]': the kernel's trace buffer" },
		{ "# tracer: blk\n      dd-14977   [001] d..1.  832123456:   7,1    Q  RS 40 + 8 [dd]\n",
		  ":2: '832123456:' is not a time in seconds" },
		{ "# tracer: blk\n      dd-14977   [001] d..1.  3279.766841:   7,x    Q  RS 40 + 8 [dd]\n",
		  ":2: '7,x' is not a device" },
		{ "# tracer: blk\n#\n", ": the trace has no read or write" },
	};
	struct trace_scan s;
	char err[ERR_MAX];

	(void)state;
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		assert_int_equal(scan_text(bad[k].text, &s, err), -1);
		if (!strstr(err, bad[k].want) || strncmp(err, path, strlen(path)) != 0)
			fail_msg("case %zu: '%s' wanted in '%s'", k, bad[k].want, err);
		trace_scan_free(&s);
		unlink(path);
	}
}

/* A trace that is not what the scan read (changed while it is replayed):
 * the reader stops at the first line that does not fit, names it, and has
 * counted what it handed out before. */
static void changed_while_streamed(void **state)
{
	struct trace_scan s;
	struct trace_reader tr;
	struct pattern p;
	uint64_t off, len, n = 0;
	char err[ERR_MAX], scanned[64];

	(void)state;
	assert_int_equal(scan_text("fio version 3 iolog\n0 /a add\n1 /a read 0 4096\n"
				   "2 /a read 4096 4096\n3 /a read 8192 4096\n", &s, err), 0);
	memcpy(scanned, path, sizeof(path));
	write_trace("fio version 3 iolog\n0 /a add\n1 /a read 0 4096\n"
		    "2 /a read 4096 4096\n3 /a reed 8192 4096\n");
	assert_int_equal(trace_reader_open(&tr, path, &s, 100, err), 0);
	assert_int_equal(trace_pattern(&p, &tr, err), 0);
	while (pattern_next(&p, &off, &len))
		n++;
	assert_int_equal(n, 2);
	assert_true(tr.bad);
	assert_non_null(strstr(tr.error, ":5: 'reed' is not an action"));
	assert_int_equal(tr.handed[TRACE_READ], 2);
	trace_reader_close(&tr);
	trace_scan_free(&s);
	unlink(path);
	unlink(scanned);
}

/* A v3 I/O line's sixth field, THREAD (iosweep record's): the scan lists the
 * threads in the order of their first I/O line and counts each one's units;
 * a reader of one thread hands out that thread's lines only, in order, at
 * the trace's due times, and stops at that thread's syncs only. */
static void v3_threads(void **state)
{
	struct trace_scan s;
	struct trace_reader tr;
	struct pattern p;
	uint64_t off = 0, len = 0;
	char err[ERR_MAX];

	(void)state;
	assert_int_equal(scan_text("fio version 3 iolog\n"
				   "0 /d/a add\n0 /d/a open\n"
				   "100 /d/a read 0 4096 5\n"
				   "150 /d/a read 40960 4096 2\n"
				   "200 /d/a write 4096 4096 5\n"
				   "250 /d/a sync 0 0 2\n"
				   "300 /d/a read 45056 512 2\n"
				   "350 /d/a trim 8192 4096 5\n"
				   "400 /d/a close\n",
				   &s, err),
			 0);
	assert_int_equal(s.nthreads, 2);
	assert_int_equal(s.tids[0], 5);
	assert_int_equal(s.tids[1], 2);
	assert_int_equal(s.thread_units[0], 3);
	assert_int_equal(s.thread_units[1], 2);
	assert_int_equal(s.threads_over_line, 0);
	assert_int_equal(s.n[TRACE_READ], 3);
	assert_int_equal(s.n[TRACE_SYNC], 1);
	assert_int_equal(trace_reader_open(&tr, path, &s, 100, err), 0);
	assert_int_equal(tr.thread, -1);
	tr.thread = 1; /* the trace's thread 2 */
	assert_int_equal(trace_pattern(&p, &tr, err), 0);
	assert_int_equal(p.total, 2);
	assert_true(pattern_next(&p, &off, &len));
	assert_int_equal(off, 40960);
	assert_int_equal(p.due_ns, 50000);
	assert_false(pattern_next(&p, &off, &len));
	assert_int_equal(p.flush, TRACE_SYNC);
	p.flush = 0;
	assert_true(pattern_next(&p, &off, &len));
	assert_int_equal(off, 45056);
	assert_int_equal(len, 512);
	assert_int_equal(p.due_ns, 200000);
	assert_false(pattern_next(&p, &off, &len));
	assert_int_equal(p.flush, 0);
	assert_int_equal(tr.handed[TRACE_READ], 2);
	assert_int_equal(tr.handed[TRACE_WRITE], 0);
	tr.thread = 0; /* the trace's thread 5: no sync of its own */
	assert_int_equal(trace_pattern(&p, &tr, err), 0);
	assert_int_equal(p.total, 3);
	assert_true(pattern_next(&p, &off, &len));
	assert_int_equal(off, 0);
	assert_int_equal(p.due_ns, 0);
	assert_true(pattern_next(&p, &off, &len));
	assert_int_equal(off, 4096);
	assert_int_equal(p.dir, IO_WRITE);
	assert_int_equal(p.due_ns, 100000);
	assert_true(pattern_next(&p, &off, &len));
	assert_int_equal(off, 8192);
	assert_true(p.trim);
	assert_int_equal(p.due_ns, 250000);
	assert_false(pattern_next(&p, &off, &len));
	assert_int_equal(p.flush, 0);
	assert_false(tr.bad);
	trace_reader_close(&tr);
	trace_scan_free(&s);
	unlink(path);
	/* fio's own iologs name no thread */
	assert_int_equal(scan_text("fio version 3 iolog\n0 /d/a add\n100 /d/a read 0 4096\n", &s,
				   err),
			 0);
	assert_int_equal(s.nthreads, 0);
	assert_null(s.tids);
	trace_scan_free(&s);
	unlink(path);
}

/* The thread field's bad lines; every I/O line names its thread or none
 * does; beyond TRACE_THREADS_MAX threads the scan says where, and the
 * trace still scans. */
static void thread_field_bad(void **state)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "fio version 3 iolog\n1 /a add\n2 /a read 0 1 x1\n", ":3: 'x1' is not a thread" },
		{ "fio version 3 iolog\n1 /a add\n2 /a read 0 1 -1\n", ":3: '-1' is not a thread" },
		{ "fio version 3 iolog\n1 /a add\n2 /a read 0 1 0 7\n", ":3: more fields than" },
		{ "fio version 3 iolog\n1 /a add 0\n", ":2: add takes no OFFSET" },
		{ "fio version 2 iolog\n/a add\n/a read 0 1 0\n", ":3: read needs OFFSET and LENGTH" },
		{ "fio version 3 iolog\n1 /a add\n2 /a read 0 1 0\n3 /a read 1 1\n",
		  ":4: an I/O line without a thread (a sixth field), and those before it with" },
		{ "fio version 3 iolog\n1 /a add\n2 /a read 0 1\n3 /a sync 0 0 4\n",
		  ":4: an I/O line with a thread (a sixth field), and those before it without" },
	};
	struct trace_scan s;
	char err[ERR_MAX], *text;
	size_t n = 0;
	FILE *f;

	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		assert_int_equal(scan_text(cases[k].text, &s, err), -1);
		if (!strstr(err, cases[k].want) || strncmp(err, path, strlen(path)))
			fail_msg("case %zu: '%s' wanted in '%s'", k, cases[k].want, err);
		trace_scan_free(&s);
		unlink(path);
	}
	f = open_memstream(&text, &n);
	assert_non_null(f);
	fputs("fio version 3 iolog\n0 /a add\n", f);
	for (int t = 0; t <= TRACE_THREADS_MAX; t++)
		fprintf(f, "%d /a read %d 4096 %d\n", t, t * 4096, 1000 + t);
	fprintf(f, "9999 /a read 0 4096 1000\n");
	fclose(f);
	assert_int_equal(scan_text(text, &s, err), 0);
	free(text);
	assert_int_equal(s.nthreads, TRACE_THREADS_MAX);
	assert_int_equal(s.tids[TRACE_THREADS_MAX - 1], 1000 + TRACE_THREADS_MAX - 1);
	/* line 1 the header, 2 the add, 3 thread 0's read: the 257th's is 259 */
	assert_int_equal(s.threads_over_line, TRACE_THREADS_MAX + 3);
	assert_int_equal(s.thread_units[0], 2);
	assert_int_equal(s.n[TRACE_READ], TRACE_THREADS_MAX + 2);
	trace_scan_free(&s);
	unlink(path);
}

/* blkparse's and the blk tracer's threads are their events' PIDs. */
static void blk_threads(void **state)
{
	struct trace_scan s;
	char err[ERR_MAX];

	(void)state;
	assert_int_equal(scan_text("  8,0    1        1     0.000000000  4217  Q   R 2048 + 8 [dd]\n"
				   "  8,0    0        1     0.001000000  4217  Q  WS 4096 + 16 [a b]\n"
				   "  8,0    0        2     0.001500000   200  Q FWS [jbd2/sda1-8]\n"
				   "  8,16   0        3     0.002000000   300  Q   R 0 + 8 [cat]\n",
				   &s, err),
			 0);
	assert_int_equal(s.nthreads, 3);
	assert_int_equal(s.tids[0], 4217);
	assert_int_equal(s.tids[1], 200);
	assert_int_equal(s.tids[2], 300);
	assert_int_equal(s.thread_units[0], 2);
	assert_int_equal(s.thread_units[1], 0); /* a flush: no unit */
	assert_int_equal(s.thread_units[2], 1);
	trace_scan_free(&s);
	unlink(path);
	assert_int_equal(scan_text("# tracer: blk\n"
				   "              dd-14977   [001] d..1.  3279.766841:   7,1    Q  RS 40 + 8 [dd]\n"
				   " Web Content-4242    [001] d..1.  3279.769841:   7,1    Q  WS 4096 + 16 [Web Content]\n"
				   "     jbd2/sda1-8-200     [000] d..1.  3279.770341:   8,0    Q FWS [jbd2/sda1-8]\n"
				   "             cat-300     (  300) [000]  3279.770841:   8,0    Q   R 0 + 8 [cat]\n"
				   "              dd-14977   [001] d..1.  3279.772841:   7,1  Q  DS 64 + 16 [fstrim]\n",
				   &s, err),
			 0);
	assert_int_equal(s.nthreads, 4);
	assert_int_equal(s.tids[0], 14977);
	assert_int_equal(s.tids[1], 4242);
	assert_int_equal(s.tids[2], 200);
	assert_int_equal(s.tids[3], 300);
	assert_int_equal(s.thread_units[0], 2);
	assert_int_equal(s.thread_units[1], 1);
	assert_int_equal(s.thread_units[2], 0);
	assert_int_equal(s.thread_units[3], 1);
	trace_scan_free(&s);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(v3_counts),
		cmocka_unit_test(bad_lines),
		cmocka_unit_test(v2_waits),
		cmocka_unit_test(streams_across_refills),
		cmocka_unit_test(blkparse_text),
		cmocka_unit_test(blk_tracer_text),
		cmocka_unit_test(blk_tracer_pipe),
		cmocka_unit_test(blk_tracer_bad_lines),
		cmocka_unit_test(changed_while_streamed),
		cmocka_unit_test(trims_are_units),
		cmocka_unit_test(v3_threads),
		cmocka_unit_test(thread_field_bad),
		cmocka_unit_test(blk_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
