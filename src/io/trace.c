/*
 * trace.c - fio iolog v2/v3, blkparse's text and the kernel's blk tracer's
 * read as a pattern (see trace.h): one line parser per format, for the
 * scan, which checks and counts every line before the plan, and for the
 * reader, which streams the trace through a fixed buffer while the loop
 * draws its units.
 *
 * The reader parses a line where another pattern would compute an offset:
 * some 40 ns a line (a few fields of decimal digits, the file name compared
 * with the last one's).  Its buffer is refilled by one read(2) of up to
 * TRACE_BUF_BYTES when less than a line is left: some 25 000 lines of a
 * typical trace between two refills, each refill a copy from the page
 * cache of 1 MiB (~100 us), so the refills cost the loop about 4 ns a unit
 * and the memory never grows with the trace.
 */
#define _GNU_SOURCE
#include "io/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/engines/engine.h"
#include "lib/error.h"

const char *const trace_act_names[TRACE_ACTS] = {
	[TRACE_READ] = "read", [TRACE_WRITE] = "write", [TRACE_SYNC] = "sync",
	[TRACE_DATASYNC] = "datasync", [TRACE_TRIM] = "trim",
};

/* The actions that are not I/O: file management and v2's pause. */
enum { ACT_ADD = TRACE_ACTS, ACT_OPEN, ACT_CLOSE, ACT_WAIT, ACT__COUNT };

static const char *const act_words[ACT__COUNT] = {
	[TRACE_READ] = "read", [TRACE_WRITE] = "write", [TRACE_SYNC] = "sync",
	[TRACE_DATASYNC] = "datasync", [TRACE_TRIM] = "trim", [ACT_ADD] = "add",
	[ACT_OPEN] = "open", [ACT_CLOSE] = "close", [ACT_WAIT] = "wait",
};

#define ACT_LIST "add, open, close, read, write, sync, datasync, trim, wait"

/* v2: a wait shorter than this is discarded, as fio does. */
#define WAIT_MIN_US 100

struct line {
	uint64_t t_us;
	const char *name;
	size_t name_len;
	int act;
	uint64_t off, len;
	uint64_t thread;    /* the thread that did it: a v3 line's sixth field, a PID */
	bool has_thread;
};

/* The next field of s (blank-separated), or NULL at the end. */
static const char *field(const char **s, const char *end, size_t *n)
{
	const char *p = *s, *q;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end)
		return NULL;
	for (q = p; q < end && *q != ' ' && *q != '\t'; q++)
		;
	*n = (size_t)(q - p);
	*s = q;
	return p;
}

static bool number(const char *p, size_t n, uint64_t *out)
{
	uint64_t v = 0;

	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9' ||
		    __builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(p[i] - '0'), &v))
			return false;
	}
	*out = v;
	return true;
}

/* "SECONDS.FRACTION" (at most 9 digits after the dot) in microseconds. */
static bool seconds(const char *p, size_t n, uint64_t *us)
{
	const char *dot = memchr(p, '.', n);
	size_t frac = dot ? (size_t)(p + n - dot - 1) : 0;
	uint64_t sec, ns = 0;

	if (!dot || !number(p, (size_t)(dot - p), &sec) || frac > 9 ||
	    (frac && !number(dot + 1, frac, &ns)) || sec > UINT64_MAX / 2000000)
		return false;
	for (size_t z = frac; z < 9; z++)
		ns *= 10;
	*us = sec * 1000000 + ns / 1000;
	return true;
}

/* The event after its time and device, as blkparse and the kernel's blk
 * tracer both write it: "ACTION RWBS [SECTOR + SECTORS] [PROCESS]".  Only
 * the queue events (Q: what was asked of the device) are replayed; the
 * process's name may hold blanks: nothing after SECTORS is read.  who names
 * the format in the messages; cut: the message for a line without ACTION
 * and RWBS.  0, 1 for an event that is not replayed, -1 with why. */
static int blk_event(const char *p, const char *end, struct line *l, const char *who,
		     const char *cut, char *why, size_t whylen)
{
	const char *f[5];
	size_t len[5], k = 0;
	uint64_t sectors;
	bool read = false, write = false, flush = false, discard = false;

	while (k < 5 && (f[k] = field(&p, end, &len[k])) != NULL)
		k++;
	if (k < 2) {
		snprintf(why, whylen, "%s", cut);
		return -1;
	}
	/* "queue": the blk tracer's long name (ftrace's verbose option) */
	if (!(len[0] == 1 && f[0][0] == 'Q') && !(len[0] == 5 && !memcmp(f[0], "queue", 5)))
		return 1; /* not a queue event */
	for (size_t i = 0; i < len[1]; i++) {
		read |= f[1][i] == 'R';
		write |= f[1][i] == 'W';
		flush |= f[1][i] == 'F';
		discard |= f[1][i] == 'D';
	}
	if (k >= 3 && f[2][0] != '[') {
		if (k < 5 || len[3] != 1 || f[3][0] != '+' || !number(f[2], len[2], &l->off) ||
		    !number(f[4], len[4], &sectors)) {
			snprintf(why, whylen, "a %s line cut short: SECTOR + SECTORS after RWBS", who);
			return -1;
		}
		if (l->off > UINT64_MAX / 1024 || sectors == 0 || sectors > TRACE_MAX_LEN / 512) {
			snprintf(why, whylen, "%llu sectors at sector %llu: 1 sector to 1 GiB, at a "
				 "sector below 2^54", (unsigned long long)sectors,
				 (unsigned long long)l->off);
			return -1;
		}
		l->off *= 512;
		l->len = sectors * 512;
		l->act = discard ? TRACE_TRIM : write ? TRACE_WRITE : read ? TRACE_READ : -1;
		return l->act < 0 ? 1 : 0;
	}
	/* [PROCESS] alone: a flush, or an event without sectors */
	l->off = l->len = 0;
	l->act = flush ? TRACE_SYNC : -1;
	return l->act < 0 ? 1 : 0;
}

/* A device, "8,0": MAJOR,MINOR. */
static bool device(const char *p, size_t n)
{
	const char *comma = memchr(p, ',', n);
	uint64_t v;

	return comma && number(p, (size_t)(comma - p), &v) &&
	       number(comma + 1, (size_t)(p + n - comma - 1), &v);
}

/* blkparse's default output: "DEV CPU SEQ SECONDS.NANOS PID ACTION RWBS
 * [SECTOR + SECTORS] [PROCESS]", e.g. "8,0 1 7 0.000012345 4217 Q WS 2048 +
 * 8 [dd]".  Each device is a file of the trace; a line that does not start
 * with a device (blkparse's summary) is not an event.  0, 1 for a line that
 * is not replayed, -1 with why. */
static int parse_blk(const char *s, const char *end, struct line *l, char *why, size_t whylen)
{
	static const char cut[] = "a blkparse line cut short: it is DEV CPU SEQ TIME PID ACTION "
				  "RWBS [SECTOR + SECTORS] [PROCESS]";
	const char *f[5], *p = s;
	size_t len[5], k = 0;

	while (k < 5 && (f[k] = field(&p, end, &len[k])) != NULL)
		k++;
	if (k == 0 || !memchr(f[0], ',', len[0]) || f[0][0] < '0' || f[0][0] > '9')
		return 1; /* blkparse's summary, not an event */
	if (k < 5) {
		snprintf(why, whylen, "%s", cut);
		return -1;
	}
	if (!seconds(f[3], len[3], &l->t_us)) {
		snprintf(why, whylen, "'%.*s' is not a time in seconds (blkparse writes 0.000012345)",
			 (int)len[3] > 40 ? 40 : (int)len[3], f[3]);
		return -1;
	}
	l->name = f[0];
	l->name_len = len[0];
	l->has_thread = number(f[4], len[4], &l->thread); /* PID */
	return blk_event(p, end, l, "blkparse", cut, why, whylen);
}

/* The kernel's blk tracer, without blktrace (tracefs: current_tracer = blk,
 * /sys/block/DEV/trace/enable = 1), as its trace file (headed "# tracer:
 * blk") or trace_pipe gives it: ftrace's context "TASK-PID [CPU] FLAGS
 * SECONDS.MICROS:", then "DEV ACTION RWBS [SECTOR + SECTORS] [PROCESS]" as
 * blkparse writes them, e.g. "dd-4217 [001] d..1. 3279.766841: 8,0 Q WS
 * 2048 + 8 [dd]".  The task's name may hold blanks: the context is found by
 * its CPU ("[001]"), FLAGS is absent without ftrace's irq-info option, a
 * TGID "(4217)" is before the CPU with record-tgid; with the blk_cgroup
 * option a cgroup ("1f,0" or a path) follows the device.  Comments and
 * another tracer's or event's lines (no device after the time) are not
 * replayed; a lost-events line is refused: the trace is not whole. */
static int parse_ftrace(const char *s, const char *end, struct line *l, char *why, size_t whylen)
{
	static const char cut[] = "a blk tracer line cut short: it is TASK-PID [CPU] FLAGS TIME: "
				  "DEV ACTION RWBS [SECTOR + SECTORS] [PROCESS]";
	const char *p = s, *f, *cg, *dash;
	size_t n;
	uint64_t cpu, pid = 0;
	bool ctx = false, has_pid = false;

	/* ftrace's comments start the line; an event's task is right-aligned
	 * after at least one blank */
	f = field(&p, end, &n);
	if (!f || s[0] == '#')
		return 1; /* a blank line, the header, a comment */
	if (n > 4 && !memcmp(f, "CPU:", 4) && memmem(f, (size_t)(end - f), "[LOST ", 6)) {
		snprintf(why, whylen, "'%.*s': the kernel's trace buffer was full and dropped events, "
			 "so the trace is not whole (record again with a larger buffer_size_kb, or "
			 "read trace_pipe while recording)", (int)(end - f) > 60 ? 60 : (int)(end - f),
			 f);
		return -1;
	}
	/* the PID: after the last '-' of the last TASK-PID before the CPU (a
	 * task's name may hold blanks and dashes; record-tgid's "(  300)" has
	 * none) */
	dash = memrchr(f, '-', n);
	has_pid = dash && number(dash + 1, (size_t)(f + n - dash - 1), &pid);
	while (!ctx && (f = field(&p, end, &n)) != NULL) {
		ctx = n >= 3 && f[0] == '[' && f[n - 1] == ']' && number(f + 1, n - 2, &cpu);
		dash = ctx ? NULL : memrchr(f, '-', n);
		if (dash && number(dash + 1, (size_t)(f + n - dash - 1), &pid))
			has_pid = true;
	}
	f = ctx ? field(&p, end, &n) : NULL; /* FLAGS, or the time */
	if (f && f[n - 1] != ':')
		f = field(&p, end, &n);
	if (!ctx || !f || n < 2 || f[n - 1] != ':') {
		snprintf(why, whylen, "%s", cut);
		return -1;
	}
	if (!seconds(f, n - 1, &l->t_us)) {
		snprintf(why, whylen, "'%.*s' is not a time in seconds (the blk tracer writes "
			 "3279.766841: with a trace_clock of time, such as local, global or mono, "
			 "not a counter)", (int)n > 40 ? 40 : (int)n, f);
		return -1;
	}
	f = field(&p, end, &n);
	if (!f) {
		snprintf(why, whylen, "%s", cut);
		return -1;
	}
	if (f[0] < '0' || f[0] > '9' || !memchr(f, ',', n))
		return 1; /* another tracer's or event's line: not block I/O */
	if (!device(f, n)) {
		snprintf(why, whylen, "'%.*s' is not a device (MAJOR,MINOR, such as 8,0)",
			 (int)n > 40 ? 40 : (int)n, f);
		return -1;
	}
	l->name = f;
	l->name_len = n;
	l->thread = pid;
	l->has_thread = has_pid;
	cg = p;
	f = field(&cg, end, &n);
	if (f && (memchr(f, ',', n) || f[0] == '/' || f[0] == '<'))
		p = cg; /* the cgroup: blk_cgroup's "INO,GEN", or blk_cgname's path */
	return blk_event(p, end, l, "blk tracer", cut, why, whylen);
}

/* A v3 I/O line's sixth field, THREAD (iosweep record's; fio reads five
 * fields), into l; false with why. */
static bool v3_thread(const char *f, size_t n, struct line *l, char *why, size_t whylen)
{
	l->has_thread = number(f, n, &l->thread);
	if (!l->has_thread)
		snprintf(why, whylen, "'%.*s' is not a thread: the sixth field of a version 3 I/O "
			 "line is the index of the thread that did it (0, 1, ...), as iosweep record "
			 "writes it", (int)n > 40 ? 40 : (int)n, f);
	return l->has_thread;
}

/* Parses s[0..n) (no newline) of a version's trace into l: 0, 1 for a line
 * with nothing on it, or -1 with why (a phrase). */
static int parse_line(const char *s, size_t n, int version, struct line *l, char *why,
		      size_t whylen)
{
	const char *end = s + n, *f[6];
	size_t len[6], k = 0;
	const char *p = s;

	if (n && s[n - 1] == '\r')
		end--;
	l->has_thread = false;
	if (version == TRACE_BLKPARSE)
		return parse_blk(s, end, l, why, whylen);
	if (version == TRACE_BLK_TRACER)
		return parse_ftrace(s, end, l, why, whylen);
	while (k < 6 && (f[k] = field(&p, end, &len[k])) != NULL)
		k++;
	if (k == 0)
		return 1;
	if (k == 6 && (version != 3 || field(&p, end, &len[0]))) {
		snprintf(why, whylen, "more fields than an iolog line has");
		return -1;
	}
	size_t t = version == 3;
	if (t && !number(f[0], len[0], &l->t_us)) {
		snprintf(why, whylen, "'%.*s' is not a time in microseconds (a version 3 line "
			 "starts with one: TIME FILE ACTION [OFFSET LENGTH])", (int)len[0] > 40 ? 40
			 : (int)len[0], f[0]);
		return -1;
	}
	if (k < t + 2) {
		snprintf(why, whylen, "a line cut short: it is %sFILE ACTION [OFFSET LENGTH]",
			 t ? "TIME " : "");
		return -1;
	}
	l->name = f[t];
	l->name_len = len[t];
	l->act = -1;
	for (int a = 0; a < ACT__COUNT; a++)
		if (strlen(act_words[a]) == len[t + 1] && !memcmp(act_words[a], f[t + 1], len[t + 1]))
			l->act = a;
	if (l->act < 0) {
		snprintf(why, whylen, "'%.*s' is not an action of a fio iolog (" ACT_LIST ")",
			 (int)len[t + 1] > 40 ? 40 : (int)len[t + 1], f[t + 1]);
		return -1;
	}
	if (l->act == ACT_WAIT && version == 3) {
		snprintf(why, whylen, "wait is not an action of a version 3 iolog (its times say "
			 "when each I/O is due)");
		return -1;
	}
	if (l->act >= ACT_ADD && l->act != ACT_WAIT) {
		if (k != t + 2) {
			snprintf(why, whylen, "%s takes no OFFSET or LENGTH", act_words[l->act]);
			return -1;
		}
		return 0;
	}
	if (t && k == 6 && !v3_thread(f[5], len[5], l, why, whylen))
		return -1;
	k -= l->has_thread;
	if (k != t + 4) {
		snprintf(why, whylen, "%s needs OFFSET and LENGTH (%sFILE %s OFFSET LENGTH): a line "
			 "cut short?", act_words[l->act], t ? "TIME " : "", act_words[l->act]);
		return -1;
	}
	if (!number(f[t + 2], len[t + 2], &l->off) || !number(f[t + 3], len[t + 3], &l->len)) {
		snprintf(why, whylen, "OFFSET and LENGTH are whole numbers of bytes");
		return -1;
	}
	if ((l->act == TRACE_READ || l->act == TRACE_WRITE || l->act == TRACE_TRIM) &&
	    (l->len == 0 || l->len > TRACE_MAX_LEN || l->off > UINT64_MAX / 2)) {
		snprintf(why, whylen, "%s of %llu bytes: a length from 1 byte to 1 GiB, at an "
			 "offset below 2^63", act_words[l->act], (unsigned long long)l->len);
		return -1;
	}
	return 0;
}

/* The kernel's block trace, blkparse's or the blk tracer's: read from its
 * first line (blkparse's has no header, the blk tracer's is a comment), each
 * device a file of the trace from its first event. */
static bool blk_format(int version)
{
	return version == TRACE_BLKPARSE || version == TRACE_BLK_TRACER;
}

/* The header: "fio version N iolog"; N, TRACE_BLK_TRACER for "# tracer:
 * blk", or 0. */
static int header_version(const char *s, size_t n)
{
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	if (n == 19 && !memcmp(s, "fio version 2 iolog", 19))
		return 2;
	if (n == 19 && !memcmp(s, "fio version 3 iolog", 19))
		return 3;
	if (n == 13 && !memcmp(s, "# tracer: blk", 13))
		return TRACE_BLK_TRACER;
	/* blkparse's output and trace_pipe's have no header: their first line
	 * is an event's */
	struct line l;
	char why[8];

	if (parse_blk(s, s + n, &l, why, sizeof(why)) == 0)
		return TRACE_BLKPARSE;
	return parse_ftrace(s, s + n, &l, why, sizeof(why)) == 0 ? TRACE_BLK_TRACER : 0;
}

static ssize_t find_file(char *const *names, size_t n, size_t *last, const char *name,
			 size_t len)
{
	if (*last < n && strlen(names[*last]) == len && !memcmp(names[*last], name, len))
		return (ssize_t)*last;
	for (size_t k = 0; k < n; k++)
		if (strlen(names[k]) == len && !memcmp(names[k], name, len)) {
			*last = k;
			return (ssize_t)k;
		}
	return -1;
}

static int scan_add(struct trace_scan *s, const struct line *l)
{
	char **names = realloc(s->names, (s->nfiles + 1) * sizeof(*names));
	uint64_t *reach;

	if (!names)
		return -1;
	s->names = names;
	reach = realloc(s->reach, (s->nfiles + 1) * sizeof(*reach));
	if (!reach)
		return -1;
	s->reach = reach;
	s->names[s->nfiles] = strndup(l->name, l->name_len);
	if (!s->names[s->nfiles])
		return -1;
	s->reach[s->nfiles++] = 0;
	return 0;
}

/* Counts line l, an I/O (an action below ACT_ADD) on file k, into s; *ios:
 * an earlier line was a read, write or trim (whose time is the first). */
static void scan_count(struct trace_scan *s, const struct line *l, size_t k, uint64_t wait_us,
		       bool *ios)
{
	s->n[l->act]++;
	s->bytes[l->act] += l->act == TRACE_READ || l->act == TRACE_WRITE || l->act == TRACE_TRIM
			    ? l->len : 0;
	if (l->act == TRACE_READ || l->act == TRACE_WRITE || l->act == TRACE_TRIM) {
		if (l->off + l->len > s->reach[k])
			s->reach[k] = l->off + l->len;
	}
	if (l->act == TRACE_READ || l->act == TRACE_WRITE || l->act == TRACE_TRIM) {
		uint64_t t = s->version != 2 ? l->t_us : wait_us;

		/* a trim moves no data: the buffers are the reads' and writes' */
		if (l->act != TRACE_TRIM && l->len > s->max_len)
			s->max_len = l->len;
		if (!*ios)
			s->first_us = t;
		s->last_us = t > s->last_us ? t : s->last_us;
		*ios = true;
	}
}

/* The thread of I/O line l, the scan's last line, counted into s (*last:
 * the thread found last, the next one likely; *none: an I/O line before
 * named none).  Every I/O line of a trace names its thread, or none does.
 * 0, or -1 with the reason in err. */
static int scan_thread(const char *path, struct trace_scan *s, const struct line *l,
		       size_t *last, bool *none, char *err)
{
	const char *what = s->version == 3 ? "a thread (a sixth field)" : "a PID";
	size_t k = *last;

	if (!l->has_thread || *none) {
		if (l->has_thread || s->nthreads)
			return err_set(err, "%s:%llu: an I/O line %s %s, and those before it %s: every "
					    "I/O line of a trace names its thread, or none does", path,
				       (unsigned long long)s->lines, l->has_thread ? "with" : "without",
				       what, l->has_thread ? "without" : "with");
		*none = true;
		return 0;
	}
	if (k >= s->nthreads || s->tids[k] != l->thread)
		for (k = 0; k < s->nthreads && s->tids[k] != l->thread; k++)
			;
	if (k == s->nthreads) {
		if (s->nthreads == TRACE_THREADS_MAX) {
			if (!s->threads_over_line)
				s->threads_over_line = s->lines;
			return 0;
		}
		if (!s->tids) {
			s->tids = calloc(TRACE_THREADS_MAX, sizeof(*s->tids));
			s->thread_units = calloc(TRACE_THREADS_MAX, sizeof(*s->thread_units));
			if (!s->tids || !s->thread_units)
				return err_set(err, "out of memory");
		}
		s->tids[s->nthreads++] = l->thread;
	}
	*last = k;
	if (l->act == TRACE_READ || l->act == TRACE_WRITE || l->act == TRACE_TRIM)
		s->thread_units[k]++;
	return 0;
}

/* Reads, checks and counts every line of f after its header, into s; buf
 * and cap are getline's.  0, or -1 with the reason in err. */
static int scan_lines(const char *path, FILE *f, struct trace_scan *s, char **buf, size_t *cap,
		      char *err)
{
	char why[200];
	size_t last = 0, last_thread = 0;
	ssize_t n;
	bool ios = false, newline = true, no_thread = false;
	uint64_t wait_us = 0;
	int rc = 0;

	while (rc == 0 && (n = getline(buf, cap, f)) > 0) {
		struct line l;
		ssize_t k;
		int p;

		s->lines++;
		newline = (*buf)[n - 1] == '\n';
		if (n > TRACE_LINE_MAX) {
			rc = err_set(err, "%s:%llu: a line longer than %d bytes", path,
				     (unsigned long long)s->lines, TRACE_LINE_MAX);
			break;
		}
		p = parse_line(*buf, (size_t)n - newline, s->version, &l, why, sizeof(why));
		if (p < 0) {
			rc = err_set(err, "%s:%llu: %s", path, (unsigned long long)s->lines, why);
			break;
		}
		if (p > 0)
			continue;
		k = find_file(s->names, s->nfiles, &last, l.name, l.name_len);
		/* a block trace: a device is a file of the trace from its first event */
		if (k < 0 && blk_format(s->version)) {
			if (scan_add(s, &l) < 0) {
				rc = err_set(err, "out of memory");
				break;
			}
			k = (ssize_t)s->nfiles - 1;
		}
		if (l.act == ACT_ADD) {
			if (k < 0 && scan_add(s, &l) < 0)
				rc = err_set(err, "out of memory");
			continue;
		}
		if (l.act == ACT_WAIT) {
			wait_us += l.off >= WAIT_MIN_US ? l.off : 0;
			continue;
		}
		if (k < 0) {
			rc = err_set(err, "%s:%llu: %.*s is used before a line adds it (%sFILE add)",
				     path, (unsigned long long)s->lines, (int)l.name_len, l.name,
				     s->version == 3 ? "TIME " : "");
			break;
		}
		if (l.act >= ACT_ADD)
			continue;
		scan_count(s, &l, (size_t)k, wait_us, &ios);
		rc = scan_thread(path, s, &l, &last_thread, &no_thread, err);
	}
	if (rc == 0 && ferror(f))
		rc = err_set(err, "%s: %s", path, strerror(errno));
	if (rc == 0 && !newline)
		rc = err_set(err, "%s:%llu: the last line has no newline: the trace was cut short "
				  "(fio ends every line with one)", path, (unsigned long long)s->lines);
	return rc;
}

int trace_scan(const char *path, struct trace_scan *s, char *err)
{
	FILE *f;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc;

	memset(s, 0, sizeof(*s));
	f = fopen(path, "re");
	if (!f)
		return err_set(err, "%s: %s", path, strerror(errno));
	n = getline(&buf, &cap, f);
	s->lines = n > 0;
	s->version = n > 0 ? header_version(buf, (size_t)n) : 0;
	if (!s->version) {
		free(buf);
		fclose(f);
		return err_set(err, "%s:1: not a fio iolog: its first line is 'fio version 2 "
				    "iolog' or 'fio version 3 iolog' (fio's write_iolog writes them), "
				    "a blkparse queue event (DEV CPU SEQ TIME PID Q RWBS ...), or the "
				    "kernel's blk tracer's '# tracer: blk'",
			       path);
	}
	/* a block trace: the first line is an event or a comment, read again
	 * below */
	if (blk_format(s->version) && fseek(f, 0, SEEK_SET) == 0)
		s->lines = 0;
	rc = scan_lines(path, f, s, &buf, &cap, err);
	free(buf);
	fclose(f);
	if (rc == 0 && !(s->n[TRACE_READ] + s->n[TRACE_WRITE]))
		rc = err_set(err, "%s: the trace has no read or write to replay", path);
	if (rc < 0)
		return -1;
	s->base = calloc(s->nfiles, sizeof(*s->base));
	if (!s->base)
		return err_set(err, "out of memory");
	for (size_t k = 0; k < s->nfiles; k++) {
		uint64_t r = (s->reach[k] + 4095) & ~4095ULL;

		s->base[k] = s->size;
		if (__builtin_add_overflow(s->size, r, &s->size))
			return err_set(err, "%s: its files reach beyond 2^64 bytes together", path);
	}
	return 0;
}

void trace_scan_free(struct trace_scan *s)
{
	for (size_t k = 0; k < s->nfiles; k++)
		free(s->names[k]);
	free(s->names);
	free(s->reach);
	free(s->base);
	free(s->tids);
	free(s->thread_units);
	memset(s, 0, sizeof(*s));
}

/* ---- the reader ---- */

int trace_reader_open(struct trace_reader *tr, const char *path, const struct trace_scan *scan,
		      unsigned scale_pct, char *err)
{
	memset(tr, 0, sizeof(*tr));
	tr->fd = -1;
	tr->scan = scan;
	tr->path = path;
	tr->thread = -1;
	tr->scale_pct = scale_pct ? scale_pct : 100;
	tr->buf = malloc(TRACE_BUF_BYTES + 1);
	if (!tr->buf)
		return err_set(err, "out of memory for the trace's buffer");
	tr->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (tr->fd < 0)
		return err_set(err, "%s: %s", path, strerror(errno));
	return 0;
}

void trace_reader_close(struct trace_reader *tr)
{
	if (tr->fd >= 0)
		close(tr->fd);
	free(tr->buf);
	tr->buf = NULL;
	tr->fd = -1;
}

/* Fills the buffer after what is left of it; false on a read error. */
static bool refill(struct trace_reader *tr)
{
	size_t left = tr->len - tr->pos;

	memmove(tr->buf, tr->buf + tr->pos, left);
	tr->pos = 0;
	tr->len = left;
	while (!tr->eof && tr->len < TRACE_BUF_BYTES) {
		ssize_t n = read(tr->fd, tr->buf + tr->len, TRACE_BUF_BYTES - tr->len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return false;
		tr->eof = n == 0;
		tr->len += (size_t)n;
	}
	return true;
}

static void reader_bad(struct trace_reader *tr, const char *why)
{
	tr->bad = true;
	snprintf(tr->error, sizeof(tr->error), "%.250s:%llu: %.200s", tr->path,
		 (unsigned long long)tr->line, why);
}

/* The next line (without its newline) into *s, *n; false at the end or on
 * a bad line (tr->bad). */
static bool next_line(struct trace_reader *tr, const char **s, size_t *n)
{
	char *nl = memchr(tr->buf + tr->pos, '\n', tr->len - tr->pos);

	if (!nl) {
		if (!refill(tr)) {
			reader_bad(tr, "the trace could not be read");
			return false;
		}
		nl = memchr(tr->buf, '\n', tr->len);
		if (!nl) {
			if (tr->len) {
				tr->line++;
				reader_bad(tr, "the last line has no newline: the trace was cut short");
			}
			return false;
		}
	}
	*s = tr->buf + tr->pos;
	*n = (size_t)(nl - *s);
	tr->pos += *n + 1;
	tr->line++;
	return true;
}

/* The pattern's generator: the next read or write of the trace; false at
 * a sync (p->flush set), at the end or at a bad line (tr->bad). */
static bool trace_next(struct pattern *p, uint64_t *off, uint64_t *len)
{
	struct trace_reader *tr = p->trace;
	const struct trace_scan *sc = tr->scan;
	char why[200];
	struct line l;
	const char *s;
	size_t n;
	ssize_t k;

	while (next_line(tr, &s, &n)) {
		int rc = parse_line(s, n, sc->version, &l, why, sizeof(why));

		if (rc > 0)
			continue;
		if (rc < 0) {
			reader_bad(tr, why);
			return false;
		}
		if (l.act == ACT_WAIT) {
			tr->wait_us += l.off >= WAIT_MIN_US ? l.off : 0;
			continue;
		}
		if (l.act >= ACT_ADD)
			continue; /* files are regions of one open file */
		if (tr->thread >= 0 && (!l.has_thread || l.thread != sc->tids[tr->thread]))
			continue; /* another thread's: its own worker issues it */
		k = find_file(sc->names, sc->nfiles, &tr->last_file, l.name, l.name_len);
		if (k < 0) {
			reader_bad(tr, "a file the scan of the trace did not find: the trace changed "
				       "since");
			return false;
		}
		tr->handed[l.act]++;
		if (l.act == TRACE_SYNC || l.act == TRACE_DATASYNC) {
			p->flush = (unsigned)l.act;
			return false;
		}
		if (l.off + l.len > sc->reach[k]) {
			reader_bad(tr, "an I/O beyond what the scan of the trace found: the trace "
				       "changed since");
			tr->handed[l.act]--;
			return false;
		}
		uint64_t t = sc->version != 2 ? l.t_us : tr->wait_us;

		t = t > sc->first_us ? t - sc->first_us : 0;
		p->due_ns = (uint64_t)((unsigned __int128)t * 1000 * 100 / tr->scale_pct);
		/* a trim is a unit of its own (the loop's trim call), in neither
		 * direction: it moves no data */
		p->dir = l.act == TRACE_WRITE ? IO_WRITE : IO_READ;
		p->trim = l.act == TRACE_TRIM;
		tr->handed_bytes[l.act] += l.len;
		*off = sc->base[k] + l.off;
		*len = l.len;
		return true;
	}
	return false;
}

int trace_pattern(struct pattern *p, struct trace_reader *tr, char *err)
{
	const struct trace_scan *sc = tr->scan;
	const char *s;
	size_t n;

	memset(p, 0, sizeof(*p));
	p->size = sc->size;
	p->bs = sc->max_len;
	p->step = sc->max_len;
	p->end = p->total = tr->thread >= 0 ? sc->thread_units[tr->thread]
					     : sc->n[TRACE_READ] + sc->n[TRACE_WRITE] + sc->n[TRACE_TRIM];
	p->trace = tr;
	p->next = trace_next;
	tr->pos = tr->len = 0;
	tr->eof = tr->bad = false;
	tr->line = 0;
	tr->wait_us = 0;
	tr->error[0] = 0;
	memset(tr->handed, 0, sizeof(tr->handed));
	memset(tr->handed_bytes, 0, sizeof(tr->handed_bytes));
	if (lseek(tr->fd, 0, SEEK_SET) < 0 || !refill(tr))
		return err_set(err, "%s: %s", tr->path, strerror(errno));
	if (blk_format(sc->version))
		return 0; /* no header: the first line is an event or a comment */
	if (!next_line(tr, &s, &n) || header_version(s, n) != sc->version)
		return err_set(err, "%s:1: the trace changed since it was planned", tr->path);
	return 0;
}

int trace_rate(struct trace_reader *tr, uint64_t *interval_ns, uint64_t **count, size_t *n,
	       char *err)
{
	const struct trace_scan *sc = tr->scan;
	uint64_t span = (uint64_t)((unsigned __int128)trace_recorded_ns(sc) * 100 / tr->scale_pct);
	uint64_t off, len;
	struct pattern p;

	*count = NULL;
	*n = 0;
	if (!*interval_ns)
		return 0;
	while (span / *interval_ns + 1 > TRACE_RATE_MAX)
		*interval_ns *= 2;
	*n = (size_t)(span / *interval_ns + 1);
	*count = calloc(*n, sizeof(**count));
	if (!*count)
		return err_set(err, "out of memory");
	if (trace_pattern(&p, tr, err) < 0)
		return -1;
	for (;;) {
		if (trace_next(&p, &off, &len)) {
			uint64_t k = p.due_ns / *interval_ns;

			(*count)[k < *n ? k : *n - 1]++;
		} else if (p.flush) {
			p.flush = 0;
		} else {
			break;
		}
	}
	if (tr->bad)
		return err_set(err, "%s", tr->error);
	return 0;
}
