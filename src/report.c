/*
 * report.c - the table of reporters and what they share: opening their
 * destination and writing a file atomically.
 */
#define _GNU_SOURCE
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct reporter *const reporters[] = { &report_table, &report_json, &report_csv };

const struct reporter *reporter_find(const char *name)
{
	for (size_t i = 0; i < sizeof(reporters) / sizeof(reporters[0]); i++)
		if (strcmp(reporters[i]->name, name) == 0)
			return reporters[i];
	return NULL;
}

const char *reporter_names(void)
{
	static char names[64];

	if (!names[0])
		for (size_t i = 0; i < sizeof(reporters) / sizeof(reporters[0]); i++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 i ? ", " : "", reporters[i]->name);
	return names;
}

int report_open(struct report_sink *s, char *err)
{
	if (!s->path) {
		s->f = stdout;
		return 0;
	}
	s->f = fopen(s->path, "w");
	if (!s->f)
		return err_set(err, "cannot write %s: %s", s->path, strerror(errno));
	return 0;
}

int report_write_atomic(const char *path, const char *data, size_t len, char *err)
{
	char *tmp;
	int fd;

	if (asprintf(&tmp, "%s.tmp.XXXXXX", path) < 0)
		return err_set(err, "out of memory");
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		err_set(err, "cannot write %s: %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	for (size_t done = 0; done < len;) {
		ssize_t n = write(fd, data + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err_set(err, "writing %s: %s", tmp, strerror(errno));
			goto fail;
		}
		done += (size_t)n;
	}
	if (fchmod(fd, 0644) < 0 || fsync(fd) < 0 || rename(tmp, path) < 0) {
		err_set(err, "writing %s: %s", path, strerror(errno));
		goto fail;
	}
	close(fd);
	free(tmp);
	return 0;
fail:
	close(fd);
	unlink(tmp);
	free(tmp);
	return -1;
}

void report_consume_text(const struct run *run, uint64_t sum, char *buf, size_t n)
{
	switch (run->v[OPT_CONSUME].u) {
	case CONSUME_CHECKSUM:
		snprintf(buf, n, "%016llx", (unsigned long long)sum);
		break;
	case CONSUME_INTS:
		snprintf(buf, n, "%llu", (unsigned long long)sum);
		break;
	default:
		snprintf(buf, n, "%s", "");
	}
}
