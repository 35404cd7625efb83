/*
 * fio_hints.c - see fio_hints.h: the size values of a parsed job file with
 * fio's reading of them (fio.c's unit rules) beside iosweep's.
 */
#define _GNU_SOURCE
#include "fio/fio_hints.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fio/fio.h"
#include "job/options.h"
#include "lib/error.h"
#include "lib/units.h"

/* One value of a size option, as written at `where` ("FILE:LINE" or
 * "--set 'bs=4kb'"): warn when fio reads it otherwise or when it is a block
 * size no device reads directly. */
static int check_size(const char *where, const char *option, const char *text, FILE *out)
{
	char why[ERR_MAX], fio_text[32];
	uint64_t ours, fios = 0;
	bool pct, fio_ok = fio_parse_bytes(text, 1024, &fios, &pct, why) == 0 && !pct;
	size_t len = strlen(text);
	bool b_suffix = len >= 3 && tolower((unsigned char)text[len - 1]) == 'b' &&
			strchr("kmgtKMGT", text[len - 2]) && isdigit((unsigned char)text[len - 3]);

	if (units_parse_size(text, &ours, why) < 0)
		return 0; /* the parser said so already */
	units_fmt_size(fios, fio_text, sizeof(fio_text));
	if (b_suffix && fio_ok && fios != ours) {
		fprintf(out, "iosweep: warning: %s: %s = %s is %llu bytes here (KB, MB, GB, TB "
			     "are powers of 1000); fio reads %s as %llu: write %s if you mean that\n",
			where, option, text, (unsigned long long)ours, text,
			(unsigned long long)fios, fio_text);
		return 1;
	}
	if (strcmp(option, "bs") == 0 && ours % 512) {
		fprintf(out, "iosweep: warning: %s: bs = %s is %llu bytes, not a multiple of 512 "
			     "(cache = direct and most devices need that)", where, text,
			(unsigned long long)ours);
		if (fio_ok && fios != ours)
			fprintf(out, "; fio reads %s as %llu bytes", text, (unsigned long long)fios);
		fputc('\n', out);
		return 1;
	}
	return 0;
}

/* The sizes in one "name = value, value" (a line of the file, or a --set
 * text; value is cut at a comment). */
static int check_setting(const char *where, char *s, FILE *out)
{
	char *eq = strchr(s, '='), *name = s, *value, *elem, *save;
	int id, n = 0;

	while (isspace((unsigned char)*name))
		name++;
	if (!eq || *name == ';' || *name == '#')
		return 0;
	*eq = '\0';
	for (char *e = eq - 1; e >= name && isspace((unsigned char)*e); e--)
		*e = '\0';
	id = option_find(name);
	value = eq + 1;
	value[strcspn(value, ";#")] = '\0';
	save = value;
	while (id >= 0 && option_table[id].type == T_SIZE && (elem = strsep(&save, ",")) != NULL) {
		while (isspace((unsigned char)*elem))
			elem++;
		for (char *e = elem + strlen(elem); e > elem && isspace((unsigned char)e[-1]);)
			*--e = '\0';
		if (*elem)
			n += check_size(where, option_table[id].name, elem, out);
	}
	return n;
}

int fio_hint_sizes(const struct jobfile *jf, FILE *out)
{
	const char *p = jf->text;
	char where[ERR_MAX];
	int line = 0, n = 0;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *s = strndup(p, len);

		line++;
		p = nl ? nl + 1 : NULL;
		if (!s)
			break;
		snprintf(where, sizeof(where), "%s:%d", jf->path, line);
		n += check_setting(where, s, out);
		free(s);
	}
	/* --set values, named as the job parser names them */
	for (size_t i = 0; i < jf->noverrides; i++) {
		char *s = strdup(jf->overrides[i]);

		if (!s)
			break;
		snprintf(where, sizeof(where), "--set '%.200s'", jf->overrides[i]);
		n += check_setting(where, s, out);
		free(s);
	}
	return n;
}
