/*
 * record.c - see record.h.
 *
 * The command runs with LD_PRELOAD naming the interposer and
 * IOSWEEP_RECORD_DIR a private directory beside the trace, where each of its
 * threads appends its own file (PID.TID, one line per call, record_preload.c
 * says which).  Each thread's calls are in order in its file, so merging
 * the files by time is a k-way merge over a heap of one pending line per
 * thread: the memory is that of the threads and the files, never of the
 * I/Os, and the outputs are written as the merge goes.
 *
 * The iolog holds what fio can replay: add/open/close of each file (open
 * when the first of its descriptors opens, close when the last closes),
 * each read and write that transferred bytes, at the offset it started and
 * with the bytes it transferred, and fsync/fdatasync as sync/datasync;
 * timestamps in microseconds from the command's start, as fio writes them;
 * each I/O line ends with a sixth field, the index of its thread in the
 * meta file's "threads" (fio reads five and ignores the rest; read_iolog's
 * replay_threads replays each thread by a worker of its own).
 * Everything else (the process and thread ids of each call, how long it took,
 * what it asked for, lseek, ftruncate, fallocate, mmap, failed and
 * zero-byte calls) is an event of the meta file, which names the iolog
 * line of each event that has one.
 */
#define _GNU_SOURCE
#include "io/record.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "lib/error.h"
#include "lib/jsontext.h"

/* One line of a thread's file. */
struct rec {
	char op[16];
	long long t_ns, dur_ns;
	int fd;
	unsigned long long dev, ino;
	long long off, len, ret;
	char *path; /* NULL, or the rest of the line (malloc'd) */
};

struct stream {
	FILE *f;
	long pid, tid;
	struct rec cur;
	unsigned long long ios, bytes;
	bool followed;
};

struct file {
	unsigned long long dev, ino;
	char *path;
	char name[32];       /* the id: iosweep-<16 hex of XXH3(dev:ino)> */
	bool used, added, stdio_noted, mmap_noted;
	long opens;
	unsigned long long reads, writes, syncs, maps;
};

struct files {
	struct file *slot;
	size_t mask, n;
};

struct merge {
	const struct record_opts *o;
	struct record_summary *s;
	struct stream *st;
	size_t nst;
	size_t *heap, nheap;
	struct files files;
	FILE *log, *meta;
	long long start_ns;
	unsigned long long line;   /* lines of the iolog written */
	unsigned long long events;
	unsigned long long unplaced, lseeks, truncates, fallocates, maps, failed_calls;
	json_t *notes;
};

/* --- the files, by dev:ino ------------------------------------------------ */

static uint64_t file_hash(unsigned long long dev, unsigned long long ino)
{
	char key[64];
	int n = snprintf(key, sizeof(key), "%llu:%llu", dev, ino);

	return XXH3_64bits(key, (size_t)n);
}

static struct file *file_slot(struct files *t, unsigned long long dev, unsigned long long ino)
{
	size_t i = (size_t)file_hash(dev, ino) & t->mask;

	while (t->slot[i].used && (t->slot[i].dev != dev || t->slot[i].ino != ino))
		i = (i + 1) & t->mask;
	return &t->slot[i];
}

static int files_grow(struct files *t)
{
	struct files bigger = { .mask = t->mask ? 2 * t->mask + 1 : 63 };

	bigger.slot = calloc(bigger.mask + 1, sizeof(*bigger.slot));
	if (!bigger.slot)
		return -1;
	for (size_t i = 0; t->slot && i <= t->mask; i++)
		if (t->slot[i].used)
			*file_slot(&bigger, t->slot[i].dev, t->slot[i].ino) = t->slot[i];
	bigger.n = t->n;
	free(t->slot);
	*t = bigger;
	return 0;
}

static struct file *file_get(struct merge *m, unsigned long long dev, unsigned long long ino)
{
	struct file *f;

	if ((m->files.n + 1) * 2 > m->files.mask + 1 && files_grow(&m->files) < 0)
		return NULL;
	f = file_slot(&m->files, dev, ino);
	if (!f->used) {
		f->used = true;
		f->dev = dev;
		f->ino = ino;
		snprintf(f->name, sizeof(f->name), "iosweep-%016" PRIx64, file_hash(dev, ino));
		m->files.n++;
		m->s->files++;
	}
	return f;
}

/* The name a file has in the iolog: its path, or its id where the path
 * cannot be one field of an iolog line (fio reads it with %256s) or
 * names are to be hidden. */
static const char *file_name(const struct merge *m, const struct file *f)
{
	if (m->o->anonymize || !f->path || f->path[0] != '/' || strlen(f->path) > 255 ||
	    strpbrk(f->path, " \t\n\r\v\f"))
		return f->name;
	return f->path;
}

/* --- reading the threads' files ------------------------------------------- */

/* Fields separated by one space: the next whole number of *p, moved past
 * it and its space; -1 when there is none. */
static int number(const char **p, long long *v, bool is_unsigned)
{
	char *end;

	errno = 0;
	if (is_unsigned) /* dev and ino: all 64 bits */
		*v = (long long)strtoull(*p, &end, 10);
	else
		*v = strtoll(*p, &end, 10);
	if (end == *p || errno || (*end != ' ' && *end != '\0'))
		return -1;
	*p = *end ? end + 1 : end;
	return 0;
}

/* OP T_NS DUR_NS FD DEV INO OFFSET LENGTH RESULT [PATH] (record_preload.c);
 * *used: where PATH starts.  -1 for a line that is not whole. */
static int parse_line(const char *line, struct rec *r, int *used)
{
	size_t oplen = strcspn(line, " ");
	const char *p = line + oplen;
	long long v[9];

	if (oplen == 0 || oplen >= sizeof(r->op) || *p != ' ')
		return -1;
	memcpy(r->op, line, oplen);
	r->op[oplen] = '\0';
	p++;
	for (int i = 1; i < 9; i++)
		if (number(&p, &v[i], i == 4 || i == 5) < 0)
			return -1;
	r->t_ns = v[1];
	r->dur_ns = v[2];
	r->fd = (int)v[3];
	r->dev = (unsigned long long)v[4];
	r->ino = (unsigned long long)v[5];
	r->off = v[6];
	r->len = v[7];
	r->ret = v[8];
	*used = (int)(p - line);
	return 0;
}

/* The next line of st into st->cur; false at the end. */
static bool stream_next(struct stream *st)
{
	char line[8192];
	int used = 0;
	struct rec *r = &st->cur;

	free(r->path);
	r->path = NULL;
	while (fgets(line, sizeof(line), st->f)) {
		line[strcspn(line, "\n")] = '\0';
		if (parse_line(line, r, &used) < 0)
			continue; /* a line cut by a crash of the command mid-write */
		if (line[used])
			r->path = strdup(line + used);
		return true;
	}
	return false;
}

static bool earlier(const struct merge *m, size_t a, size_t b)
{
	return m->st[a].cur.t_ns < m->st[b].cur.t_ns;
}

static void heap_down(struct merge *m, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, min = i;

		if (l < m->nheap && earlier(m, m->heap[l], m->heap[min]))
			min = l;
		if (r < m->nheap && earlier(m, m->heap[r], m->heap[min]))
			min = r;
		if (min == i)
			return;
		size_t t = m->heap[i];
		m->heap[i] = m->heap[min];
		m->heap[min] = t;
		i = min;
	}
}

static int open_streams(struct merge *m, const char *dir, char *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct rlimit rl;

	if (!d)
		return err_set(err, "cannot read %s: %s", dir, strerror(errno));
	/* one descriptor per thread of the command */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
	while ((e = readdir(d))) {
		long pid, tid;
		char path[4096];
		struct stream *more;

		char *dot;

		pid = strtol(e->d_name, &dot, 10);
		if (dot == e->d_name || *dot != '.')
			continue;
		tid = strtol(dot + 1, &dot, 10);
		if (*dot)
			continue;
		more = realloc(m->st, (m->nst + 1) * sizeof(*m->st));
		if (!more) {
			closedir(d);
			return err_set(err, "out of memory");
		}
		m->st = more;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		m->st[m->nst] = (struct stream){ .pid = pid, .tid = tid, .f = fopen(path, "r") };
		if (!m->st[m->nst].f) {
			err_set(err, "cannot read %s: %s", path, strerror(errno));
			closedir(d);
			return -1;
		}
		m->nst++;
	}
	closedir(d);
	m->heap = calloc(m->nst + 1, sizeof(*m->heap));
	if (!m->heap)
		return err_set(err, "out of memory");
	for (size_t i = 0; i < m->nst; i++)
		if (stream_next(&m->st[i]))
			m->heap[m->nheap++] = i;
	for (size_t i = m->nheap; i-- > 0;)
		heap_down(m, i);
	return 0;
}

/* --- writing ---------------------------------------------------------------- */

static void note(struct merge *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct merge *m, const char *fmt, ...)
{
	char text[ERR_MAX + 4200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	json_array_append_new(m->notes, json_text(text));
	m->s->notes++;
	if (m->o->note)
		m->o->note(text);
}

static long long since_start_us(const struct merge *m, long long t_ns)
{
	return t_ns > m->start_ns ? (t_ns - m->start_ns) / 1000 : 0;
}

/* One line of the iolog: its number.  An I/O line (io) ends with its
 * thread's index in m->st, the meta file's "threads" (read_iolog's
 * replay_threads; fio reads five fields and ignores the rest); file lines
 * have none: fio reads them with a scan of their own. */
static unsigned long long log_line(struct merge *m, long long t_ns, const struct file *f,
				   const char *action, long long off, long long len,
				   const struct stream *io)
{
	if (io)
		fprintf(m->log, "%lld %s %s %lld %lld %zu\n", since_start_us(m, t_ns),
			file_name(m, f), action, off, len, (size_t)(io - m->st));
	else
		fprintf(m->log, "%lld %s %s\n", since_start_us(m, t_ns), file_name(m, f), action);
	return ++m->line;
}

/* The file is added to fio's list, and open, before its first I/O. */
static void ensure_open(struct merge *m, struct file *f, long long t_ns)
{
	if (!f->added) {
		log_line(m, t_ns, f, "add", 0, 0, NULL);
		f->added = true;
	}
	if (f->opens <= 0) {
		log_line(m, t_ns, f, "open", 0, 0, NULL);
		f->opens = 1;
	}
}

static void event(struct merge *m, const struct stream *st, const struct rec *r,
		  const struct file *f, unsigned long long line)
{
	fprintf(m->meta, "%s\n    [", m->events++ ? "," : "");
	if (line)
		fprintf(m->meta, "%llu", line);
	else
		fputs("null", m->meta);
	fprintf(m->meta, ", %lld, %ld, %ld, \"%s\", ", since_start_us(m, r->t_ns), st->pid,
		st->tid, r->op);
	if (f)
		fprintf(m->meta, "\"%s\"", f->name);
	else
		fputs("null", m->meta);
	fprintf(m->meta, ", %lld, %lld, %lld, %lld]", r->off, r->len, r->ret, r->dur_ns);
}

static bool is_data(const char *op, bool *write)
{
	*write = strcmp(op, "write") == 0 || strcmp(op, "fwrite") == 0;
	return *write || strcmp(op, "read") == 0 || strcmp(op, "fread") == 0;
}

static void set_path(struct file *f, const char *path)
{
	if (path && strcmp(path, "?") != 0 && (!f->path || f->path[0] != '/')) {
		free(f->path);
		f->path = strdup(path);
	}
}

/* A read or write: its iolog line when it transferred bytes at a known
 * offset, else 0 (an event only). */
static unsigned long long take_data(struct merge *m, struct stream *st, const struct rec *r,
				    struct file *f, bool write)
{
	if (r->ret <= 0) {
		m->failed_calls++;
		return 0;
	}
	if (r->off < 0) {
		m->unplaced++;
		return 0;
	}
	ensure_open(m, f, r->t_ns);
	m->s->ios++;
	st->ios++;
	st->bytes += (unsigned long long)r->ret;
	if (write) {
		m->s->writes++;
		f->writes++;
		m->s->write_bytes += (unsigned long long)r->ret;
	} else {
		m->s->reads++;
		f->reads++;
		m->s->read_bytes += (unsigned long long)r->ret;
	}
	return log_line(m, r->t_ns, f, write ? "write" : "read", r->off, r->ret, st);
}

/* fsync or fdatasync: its iolog line when it succeeded. */
static unsigned long long take_sync(struct merge *m, struct stream *st, const struct rec *r,
				    struct file *f)
{
	if (r->ret != 0) {
		m->failed_calls++;
		return 0;
	}
	ensure_open(m, f, r->t_ns);
	m->s->syncs++;
	m->s->ios++;
	st->ios++;
	f->syncs++;
	return log_line(m, r->t_ns, f, r->op[1] == 's' ? "sync" : "datasync", 0, 0, st);
}

/* What the trace cannot follow in f, said once per file. */
static void take_notes(struct merge *m, const struct rec *r, struct file *f)
{
	const char *name = m->o->anonymize || !f->path ? f->name : f->path;

	if ((strcmp(r->op, "fopen") == 0 || strcmp(r->op, "fdopen") == 0) && !f->stdio_noted) {
		f->stdio_noted = true;
		note(m, "%s is read or written through a stdio stream (FILE *): fread and fwrite "
		     "are recorded at the stream's position with the bytes the program asked "
		     "for and got; fgets, getc, fscanf, fprintf and the like are not seen", name);
	}
	if (strcmp(r->op, "mmap") == 0 && !f->mmap_noted) {
		f->mmap_noted = true;
		note(m, "%s is mapped into memory (mmap): its loads and stores are not in the "
		     "trace, only the mapping (an event of the meta file)", name);
	}
}

/* The record st holds: its lines of the iolog, counts and event. */
static void take(struct merge *m, struct stream *st)
{
	struct rec *r = &st->cur;
	struct file *f;
	unsigned long long line = 0;
	bool write;

	if (strcmp(r->op, "process") == 0) {
		m->s->processes++;
		st->followed = true;
		event(m, st, r, NULL, 0);
		return;
	}
	f = file_get(m, r->dev, r->ino);
	if (!f)
		return;
	set_path(f, r->path);
	if (strcmp(r->op, "file") == 0)
		return;
	if (strcmp(r->op, "open") == 0 || strcmp(r->op, "fopen") == 0) {
		/* fio's open: when the first of the file's descriptors opens */
		bool first = f->opens <= 0;

		ensure_open(m, f, r->t_ns);
		f->opens = first ? 1 : f->opens + 1;
		line = first ? m->line : 0;
	} else if (strcmp(r->op, "close") == 0) {
		if (f->opens > 0 && --f->opens == 0)
			line = log_line(m, r->t_ns, f, "close", 0, 0, NULL);
	} else if (is_data(r->op, &write)) {
		line = take_data(m, st, r, f, write);
	} else if (strcmp(r->op, "fsync") == 0 || strcmp(r->op, "fdatasync") == 0) {
		line = take_sync(m, st, r, f);
	} else if (strcmp(r->op, "lseek") == 0) {
		m->lseeks++;
	} else if (strcmp(r->op, "ftruncate") == 0) {
		m->truncates++;
	} else if (strcmp(r->op, "fallocate") == 0) {
		m->fallocates++;
	} else if (strcmp(r->op, "mmap") == 0) {
		m->maps++;
		f->maps++;
	}
	take_notes(m, r, f);
	event(m, st, r, f, line);
}

static int merge_all(struct merge *m)
{
	while (m->nheap) {
		size_t i = m->heap[0];

		take(m, &m->st[i]);
		if (!stream_next(&m->st[i]))
			m->heap[0] = m->heap[--m->nheap];
		heap_down(m, 0);
	}
	return 0;
}

/* --- the command ------------------------------------------------------------- */

static char *with_preload(const char *lib)
{
	const char *old = getenv("LD_PRELOAD");
	char *v;

	if (asprintf(&v, "%s%s%s", lib, old && *old ? " " : "", old && *old ? old : "") < 0)
		return NULL;
	return v;
}

/* Starts the command; its pid, or -1 (err). */
static pid_t start(const struct record_opts *o, const char *dir, int *exec_pipe, char *err)
{
	char *preload = with_preload(o->preload);
	int p[2];
	pid_t pid;

	if (!preload || pipe2(p, O_CLOEXEC) < 0) {
		free(preload);
		return err_set(err, "cannot start %s: %s", o->argv[0], strerror(errno));
	}
	pid = fork();
	if (pid == 0) {
		int e;

		close(p[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		if (setenv("IOSWEEP_RECORD_DIR", dir, 1) == 0 && setenv("LD_PRELOAD", preload, 1) == 0)
			execvp(o->argv[0], o->argv);
		e = errno;
		(void)!write(p[1], &e, sizeof(e));
		_exit(127);
	}
	free(preload);
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return err_set(err, "cannot start %s: %s", o->argv[0], strerror(errno));
	}
	*exec_pipe = p[0];
	return pid;
}

static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
	rmdir(dir);
}

static void meta_head(struct merge *m, const char *started)
{
	json_t *cmd = json_array();
	char *text;

	for (char **a = m->o->argv; *a; a++) {
		const char *arg = *a;
		const char *base = strrchr(arg, '/');

		/* anonymized: the program's name only; its arguments may name files */
		if (m->o->anonymize && a != m->o->argv) {
			json_array_append_new(cmd, json_string("(anonymized)"));
			break;
		}
		json_array_append_new(cmd, json_text(m->o->anonymize && base ? base + 1 : arg));
	}
	text = json_dumps(cmd, JSON_COMPACT);
	fprintf(m->meta,
		"{\n  \"iosweep_record\": 1,\n  \"format\": \"fio version 3 iolog\",\n"
		"  \"mechanism\": {\"name\": \"LD_PRELOAD interposer\", \"library\": \"%s\",\n"
		"    \"sees\": \"open, openat, creat, close, read, pread, readv, preadv, write, "
		"pwrite, writev, pwritev, fsync, fdatasync, lseek, ftruncate, fallocate, mmap "
		"(noted), fopen, fdopen, freopen, fclose, fread, fwrite, _FORTIFY_SOURCE's "
		"__read_chk, __pread_chk and __fread_chk, through the C library's "
		"exported functions, in every thread and child process\",\n"
		"    \"does_not_see\": \"system calls made without the C library's exported "
		"functions (raw syscall(2), io_uring, the dynamic loader's reads of libraries), "
		"statically linked or set-user-ID programs, loads and stores to mapped files, "
		"stdio reads other than fread (fgets, getc, fscanf...), and the calls not listed "
		"(copy_file_range, sendfile, splice, sync_file_range, readahead, posix_fadvise, "
		"truncate by name, io_submit)\"},\n"
		"  \"command\": %s,\n  \"started\": \"%s\",\n  \"anonymized\": %s,\n"
		"  \"timestamps\": \"microseconds from the command's start, as in the iolog\",\n"
		"  \"event_fields\": [\"iolog_line\", \"t_us\", \"pid\", \"tid\", \"op\", \"file\", "
		"\"offset\", \"length\", \"result\", \"duration_ns\"],\n  \"events\": [",
		RECORD_PRELOAD_NAME, text ? text : "[]", started, m->o->anonymize ? "true" : "false");
	free(text);
	json_decref(cmd);
}

static void meta_tail(struct merge *m)
{
	const struct record_summary *s = m->s;
	bool first = true;
	char *notes = json_dumps(m->notes, JSON_INDENT(4));

	fputs("\n  ],\n  \"files\": [", m->meta);
	for (size_t i = 0; m->files.slot && i <= m->files.mask; i++) {
		const struct file *f = &m->files.slot[i];
		char *path = NULL;

		if (!f->used)
			continue;
		if (!m->o->anonymize) {
			json_t *p = json_text(f->path);
			path = json_dumps(p, JSON_ENCODE_ANY);
			json_decref(p);
		}
		fprintf(m->meta, "%s\n    {\"id\": \"%s\", \"iolog_name\": \"%s\"", first ? "" : ",",
			f->name, file_name(m, f));
		if (!m->o->anonymize)
			fprintf(m->meta, ", \"path\": %s, \"dev\": \"%llu:%llu\", \"ino\": %llu",
				path ? path : "null", (unsigned long long)major(f->dev),
				(unsigned long long)minor(f->dev), f->ino);
		fprintf(m->meta, ", \"reads\": %llu, \"writes\": %llu, \"syncs\": %llu, \"mmaps\": "
			"%llu}", f->reads, f->writes, f->syncs, f->maps);
		free(path);
		first = false;
	}
	fputs("\n  ],\n  \"threads\": [", m->meta);
	for (size_t i = 0; i < m->nst; i++)
		fprintf(m->meta, "%s\n    {\"pid\": %ld, \"tid\": %ld, \"ios\": %llu, \"bytes\": %llu}",
			i ? "," : "", m->st[i].pid, m->st[i].tid, m->st[i].ios, m->st[i].bytes);
	fprintf(m->meta,
		"\n  ],\n  \"counts\": {\"iolog_ios\": %llu, \"reads\": %llu, \"writes\": %llu, "
		"\"syncs\": %llu, \"read_bytes\": %llu, \"write_bytes\": %llu, \"events\": %llu, "
		"\"lseeks\": %llu, \"ftruncates\": %llu, \"fallocates\": %llu, \"mmaps\": %llu, "
		"\"failed_or_empty_calls\": %llu, \"unplaced\": %llu, \"processes\": %llu, "
		"\"threads\": %zu, \"files\": %llu},\n",
		s->ios, s->reads, s->writes, s->syncs, s->read_bytes, s->write_bytes, m->events,
		m->lseeks, m->truncates, m->fallocates, m->maps, m->failed_calls, m->unplaced,
		s->processes, m->nst, s->files);
	fprintf(m->meta, "  \"notes\": %s,\n  \"followed\": %s,\n  \"exit_status\": %d,\n"
		"  \"signal\": %d,\n  \"failed\": %s\n}\n", notes ? notes : "[]",
		s->followed ? "true" : "false", s->exit_status, s->signal,
		s->exit_status ? "true" : "false");
	free(notes);
}

static volatile sig_atomic_t command_pid;

static void forward(int sig)
{
	if (command_pid > 0)
		kill((pid_t)command_pid, sig);
}

static int wait_command(pid_t pid, int exec_pipe, struct record_summary *s, const char *cmd,
			char *err)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, fwd = { .sa_handler = forward };
	struct sigaction old_int, old_quit, old_term, old_hup;
	int status, e = 0;
	ssize_t n;

	/* as system(3) does: ^C goes to the command, which ends, and the trace
	 * of what it did is written; SIGTERM and SIGHUP sent to iosweep are
	 * passed on to it, with the same end */
	command_pid = pid;
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	sigaction(SIGTERM, &fwd, &old_term);
	sigaction(SIGHUP, &fwd, &old_hup);
	n = read(exec_pipe, &e, sizeof(e));
	close(exec_pipe);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			status = 0;
			break;
		}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	command_pid = 0;
	if (n == (ssize_t)sizeof(e)) {
		s->exit_status = e == ENOENT ? 127 : 126;
		return err_set(err, "cannot run %s: %s", cmd, strerror(e));
	}
	s->started = true;
	if (WIFSIGNALED(status)) {
		s->signal = WTERMSIG(status);
		s->exit_status = 128 + s->signal;
	} else {
		s->exit_status = WEXITSTATUS(status);
	}
	return 0;
}

/* A new private directory beside the trace for the threads' files,
 * absolute (the command may change its working directory); NULL (err). */
static char *raw_dir(const char *trace, char *err)
{
	char *dir, *abs;

	if (asprintf(&dir, "%s.raw.XXXXXX", trace) < 0) {
		err_set(err, "out of memory");
		return NULL;
	}
	if (!mkdtemp(dir)) {
		err_set(err, "cannot make %s: %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	abs = realpath(dir, NULL);
	if (!abs) {
		err_set(err, "cannot make %s: %s", dir, strerror(errno));
		rmdir(dir);
	}
	free(dir);
	return abs;
}

int record_run(const struct record_opts *o, struct record_summary *s, char *err)
{
	struct merge m = { .o = o, .s = s };
	char *dir = NULL, started[32];
	struct timespec ts;
	time_t now = time(NULL);
	int exec_pipe = -1, rc = -1;
	pid_t pid;

	memset(s, 0, sizeof(*s));
	strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	dir = raw_dir(o->trace->path, err);
	if (!dir)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	m.start_ns = (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
	pid = start(o, dir, &exec_pipe, err);
	if (pid < 0 || wait_command(pid, exec_pipe, s, o->argv[0], err) < 0)
		goto out;
	m.notes = json_array();
	if (!m.notes || open_streams(&m, dir, err) < 0 || output_begin(o->trace, err) < 0)
		goto out;
	if (output_begin(o->meta, err) < 0) {
		output_discard(o->trace);
		goto out;
	}
	m.log = o->trace->f;
	m.line = 1; /* the header: event lines are numbered as the file's lines */
	m.meta = o->meta->f;
	fputs("fio version 3 iolog\n", m.log);
	meta_head(&m, started);
	merge_all(&m);
	for (size_t i = 0; i < m.nst; i++)
		if (m.st[i].pid == pid && m.st[i].followed)
			s->followed = true;
	s->threads = m.nst;
	if (!s->followed)
		note(&m, "%s was not followed (a statically linked or set-user-ID program ignores "
		     "LD_PRELOAD): the trace holds none of its I/O", o->argv[0]);
	if (m.unplaced)
		note(&m, "%llu reads or writes at a descriptor's position could not be placed (its "
		     "offset unknown): events of the meta file only", m.unplaced);
	if (s->exit_status)
		note(&m, "the command %s %d: the trace is kept and marked failed",
		     s->signal ? "was killed by signal" : "exited with status",
		     s->signal ? s->signal : s->exit_status);
	meta_tail(&m);
	if (output_commit(o->trace, err) < 0) {
		output_discard(o->meta);
		goto out;
	}
	rc = output_commit(o->meta, err);
out:
	for (size_t i = 0; i < m.nst; i++) {
		fclose(m.st[i].f);
		free(m.st[i].cur.path);
	}
	for (size_t i = 0; m.files.slot && i <= m.files.mask; i++)
		free(m.files.slot[i].path);
	free(m.files.slot);
	free(m.st);
	free(m.heap);
	json_decref(m.notes);
	remove_dir(dir);
	free(dir);
	return rc;
}
