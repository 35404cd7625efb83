/*
 * report.c - the table of reporters and what they share: opening their
 * destination and completing it.
 */
#define _GNU_SOURCE
#include "report/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct reporter *const reporters[] = { &report_table, &report_json, &report_csv,
							       &report_series, &report_md };

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
	if (output_begin(&s->out, err) < 0)
		return -1;
	s->f = s->out.f;
	return 0;
}

int report_close(struct report_sink *s, char *err)
{
	FILE *f = s->f;

	s->f = NULL;
	if (!s->path)
		return f && (fflush(f) != 0 || ferror(f))
			? err_set(err, "writing %s to stdout: %s", s->reporter->name,
				  strerror(errno))
			: 0;
	return f ? output_commit(&s->out, err) : 0;
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
